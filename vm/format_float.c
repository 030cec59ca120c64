/* print(double) of JDK 17's FormatSpecifier: %e %f %g round the digits
 * FloatingDecimal gives (dr_double_digits, the digits of the shortest
 * text that reads back as the double, not of its exact binary value)
 * half up, as jdk.internal.math.FormattedFloatingDecimal does; %.2f of
 * 2.675 is 2.68.  %a is Double.toHexString with the Formatter's own
 * rounding to a precision. */
#include "format_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char d[24];
  int n;
} Digits;

/* FormattedFloatingDecimal.applyPrecision: rounds digits to prec of them
 * (half up) and returns the exponent, one more on a carry out. */
static int apply_precision(int dec_exp, Digits *g, int64_t prec) {
  if (prec >= g->n || prec < 0) return dec_exp;
  if (prec == 0) {
    if (g->d[0] >= '5') {
      g->d[0] = '1';
      memset(g->d + 1, '0', (size_t)(g->n - 1));
      return dec_exp + 1;
    }
    memset(g->d, '0', (size_t)g->n);
    return dec_exp;
  }
  int i = (int)prec;
  if (g->d[i] >= '5') {
    char q = g->d[--i];
    if (q == '9') {
      while (q == '9' && i > 0) q = g->d[--i];
      if (q == '9') {
        g->d[0] = '1';
        memset(g->d + 1, '0', (size_t)(g->n - 1));
        return dec_exp + 1;
      }
    }
    g->d[i] = (char)(q + 1);
    memset(g->d + i + 1, '0', (size_t)(g->n - i - 1));
  } else {
    memset(g->d + prec, '0', (size_t)(g->n - prec));
  }
  return dec_exp;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static void put_chars(DrBuf *b, char c, int64_t n) {
  for (int64_t i = 0; i < n; i++) dr_buf_append(b, &c, 1);
}

/* fillDecimal: the mantissa without exponent, at most precision decimals */
static void fill_decimal(int64_t precision, const Digits *g, int exp, DrBuf *m) {
  if (exp > 0) {
    if (g->n < exp) {
      dr_buf_append(m, g->d, (size_t)g->n);
      put_chars(m, '0', exp - g->n);
    } else {
      int64_t t = min64(g->n - exp, precision);
      dr_buf_append(m, g->d, (size_t)exp);
      if (t > 0) {
        dr_buf_append(m, ".", 1);
        dr_buf_append(m, g->d + exp, (size_t)t);
      }
    }
    return;
  }
  int64_t zeros = max64(0, min64(-(int64_t)exp, precision));
  int64_t t = max64(0, min64(g->n, precision + exp));
  if (zeros > 0 || t > 0) {
    dr_buf_append(m, "0.", 2);
    put_chars(m, '0', zeros);
    dr_buf_append(m, g->d, (size_t)t);
  } else {
    dr_buf_append(m, "0", 1);
  }
}

/* fillScientific: d.ddd and the exponent's sign and (2 or 3) digits */
static void fill_scientific(int64_t precision, const Digits *g, int exp, DrBuf *m, char *e) {
  int64_t t = max64(0, min64(g->n - 1, precision));
  dr_buf_append(m, g->d, 1);
  if (t > 0) {
    dr_buf_append(m, ".", 1);
    dr_buf_append(m, g->d + 1, (size_t)t);
  }
  int v = exp <= 0 ? -exp + 1 : exp - 1;
  snprintf(e, 8, "%c%02d", exp <= 0 ? '-' : '+', v % 1000); /* at most 324 */
}

/* addZeros: zeros (and the '.') up to prec decimals */
static bool add_zeros(DrBuf *m, int64_t prec, DrFmtError *err) {
  const char *dot = memchr(m->data, '.', m->len);
  int64_t have = dot ? (int64_t)(m->data + m->len - dot - 1) : 0;
  if (have >= prec) return true;
  if (fmt_too_long(prec, err)) return false;
  if (!dot) dr_buf_append(m, ".", 1);
  put_chars(m, '0', prec - have);
  return true;
}

static bool put_mantissa(const DrFmtSpec *sp, DrBuf16 *out, DrBuf *m, int32_t width, int32_t base,
                         DrFmtError *err) {
  return fmt_magnitude(sp, out, m->data ? m->data : "", (int32_t)m->len, width, base, err);
}

static void put_exponent(const DrFmtSpec *sp, DrBuf16 *out, const char *e) {
  dr_buf16_append_ascii(out, (sp->flags & DR_FMT_UPPER) ? "E" : "e");
  dr_buf16_append_ascii(out, e);
}

static int32_t exp_width(const DrFmtSpec *sp, const char *e, bool neg) {
  if (sp->width == -1) return -1;
  return fmt_adjust_width(sp, sp->width - (int32_t)strlen(e) - 1, neg);
}

static bool print_scientific(const DrFmtSpec *sp, double v, bool neg, DrBuf16 *out, int32_t base,
                             DrFmtError *err) {
  int64_t prec = sp->precision == -1 ? 6 : sp->precision;
  Digits g;
  int dec_exp;
  g.n = dr_double_digits(v, g.d, &dec_exp);
  int exp = apply_precision(dec_exp, &g, prec + 1);
  DrBuf m = {0};
  char e[8];
  fill_scientific(prec, &g, exp, &m, e);
  bool ok = add_zeros(&m, prec, err);
  if (ok && (sp->flags & DR_FMT_ALT) && prec == 0) dr_buf_append(&m, ".", 1);
  if (v == 0.0) strcpy(e, "+00");
  ok = ok && put_mantissa(sp, out, &m, exp_width(sp, e, neg), base, err);
  if (ok) put_exponent(sp, out, e);
  free(m.data);
  return ok;
}

static bool print_fixed(const DrFmtSpec *sp, double v, bool neg, DrBuf16 *out, int32_t base, DrFmtError *err) {
  int64_t prec = sp->precision == -1 ? 6 : sp->precision;
  Digits g;
  int dec_exp;
  g.n = dr_double_digits(v, g.d, &dec_exp);
  /* decExp + prec in Java's int arithmetic: a huge precision wraps */
  int exp = apply_precision(dec_exp, &g, (int32_t)(uint32_t)((uint32_t)dec_exp + (uint32_t)prec));
  DrBuf m = {0};
  fill_decimal(prec, &g, exp, &m);
  bool ok = add_zeros(&m, prec, err);
  if (ok && (sp->flags & DR_FMT_ALT) && prec == 0) dr_buf_append(&m, ".", 1);
  ok = ok && put_mantissa(sp, out, &m, fmt_adjust_width(sp, sp->width, neg), base, err);
  free(m.data);
  return ok;
}

static bool print_general(const DrFmtSpec *sp, double v, bool neg, DrBuf16 *out, int32_t base,
                          DrFmtError *err) {
  int64_t prec = sp->precision == -1 ? 6 : sp->precision == 0 ? 1 : sp->precision;
  DrBuf m = {0};
  char e[8] = "";
  int exp_rounded = 0;
  if (v == 0.0) {
    dr_buf_append(&m, "0", 1);
  } else {
    Digits g;
    int dec_exp;
    g.n = dr_double_digits(v, g.d, &dec_exp);
    int exp = apply_precision(dec_exp, &g, prec);
    if (exp - 1 < -4 || exp - 1 >= prec) fill_scientific(prec - 1, &g, exp, &m, e);
    else fill_decimal(prec - exp, &g, exp, &m);
    exp_rounded = exp - 1;
  }
  prec -= e[0] ? 1 : exp_rounded + 1;
  bool ok = add_zeros(&m, prec, err);
  int32_t width = e[0] ? exp_width(sp, e, neg) : fmt_adjust_width(sp, sp->width, neg);
  ok = ok && put_mantissa(sp, out, &m, width, base, err);
  if (ok && e[0]) put_exponent(sp, out, e);
  free(m.data);
  return ok;
}

/* --- %a --- */

static uint64_t bits_of(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

static double of_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* Double.toHexString of d >= 0, finite, without its "0x" */
static void hex_string(double d, DrBuf *b) {
  if (d == 0.0) {
    dr_buf_append_str(b, "0.0p0");
    return;
  }
  uint64_t bits = bits_of(d);
  bool subnormal = (bits >> 52) == 0;
  char sig[16];
  snprintf(sig, sizeof sig, "%013llx", (unsigned long long)(bits & 0xFFFFFFFFFFFFFu));
  int n = 13;
  while (n > 1 && sig[n - 1] == '0') n--;
  dr_buf_append_str(b, subnormal ? "0." : "1.");
  dr_buf_append(b, sig, (size_t)n);
  dr_buf_printf(b, "p%d", subnormal ? -1022 : (int)(bits >> 52) - 1023);
}

/* Formatter.hexDouble: d > 0 rounded (half even) to prec hex digits */
static void hex_double(double d, int64_t prec, DrBuf *b) {
  if (d == 0.0 || prec == 0 || prec >= 13) {
    hex_string(d, b);
    return;
  }
  bool subnormal = (bits_of(d) >> 52) == 0;
  if (subnormal) d *= 18014398509481984.0; /* 2^54 */
  int shift = 53 - (1 + (int)prec * 4);
  uint64_t doppel = bits_of(d);
  uint64_t sig = (doppel & 0x7FFFFFFFFFFFFFFFu) >> shift;
  uint64_t rounding = doppel & ~(~(uint64_t)0 << shift);
  bool least_zero = (sig & 1) == 0;
  bool round = ((uint64_t)1 << (shift - 1) & rounding) != 0;
  bool sticky = shift > 1 && (~((uint64_t)1 << (shift - 1)) & rounding) != 0;
  if ((least_zero && round && sticky) || (!least_zero && round)) sig++;
  double r = of_bits(sig << shift);
  if (isinf(r)) {
    dr_buf_append_str(b, "1.0p1024");
    return;
  }
  DrBuf h = {0};
  hex_string(r, &h);
  if (!subnormal) {
    dr_buf_append(b, h.data, h.len);
  } else {
    char *p = strchr(h.data, 'p');
    dr_buf_append(b, h.data, (size_t)(p - h.data));
    dr_buf_printf(b, "p%d", atoi(p + 1) - 54);
  }
  free(h.data);
}

static bool print_hex(const DrFmtSpec *sp, double v, bool neg, DrBuf16 *out, DrFmtError *err) {
  int64_t prec = sp->precision == -1 ? 0 : sp->precision == 0 ? 1 : sp->precision;
  bool upper = (sp->flags & DR_FMT_UPPER) != 0;
  DrBuf s = {0}, va = {0};
  hex_double(v, prec, &s);
  dr_buf16_append_ascii(out, upper ? "0X" : "0x");
  if (sp->flags & DR_FMT_ZERO) {
    int lead = (sp->flags & (DR_FMT_SPACE | DR_FMT_PLUS)) || neg ? 3 : 2;
    fmt_put(out, '0', (int64_t)sp->width - (int64_t)s.len - lead);
  }
  const char *p = strchr(s.data, 'p');
  dr_buf_append(&va, s.data, (size_t)(p - s.data));
  if (upper)
    for (size_t i = 0; i < va.len; i++)
      if (va.data[i] >= 'a' && va.data[i] <= 'f') va.data[i] = (char)(va.data[i] - 'a' + 'A');
  bool ok = prec == 0 || add_zeros(&va, prec, err);
  if (ok) {
    dr_buf16_append_ascii(out, va.data);
    dr_buf16_append_ascii(out, upper ? "P" : "p");
    dr_buf16_append_ascii(out, p + 1);
  }
  free(s.data);
  free(va.data);
  return ok;
}

bool fmt_print_double(const DrFmtSpec *sp, double value, DrBuf16 *out, DrFmtError *err) {
  int32_t base = out->len;
  bool upper = (sp->flags & DR_FMT_UPPER) != 0;
  if (isnan(value)) {
    dr_buf16_append_ascii(out, upper ? "NAN" : "NaN");
    return fmt_justify(sp, out, base, err);
  }
  bool neg = signbit(value) != 0; /* Double.compare(value, 0.0) == -1: -0.0 too */
  double v = fabs(value);
  fmt_leading_sign(sp, out, neg);
  bool ok = true;
  if (isinf(v)) dr_buf16_append_ascii(out, upper ? "INFINITY" : "Infinity");
  else if (sp->conv == 'e') ok = print_scientific(sp, v, neg, out, base, err);
  else if (sp->conv == 'f') ok = print_fixed(sp, v, neg, out, base, err);
  else if (sp->conv == 'g') ok = print_general(sp, v, neg, out, base, err);
  else ok = print_hex(sp, v, neg, out, err);
  if (!ok) return false;
  fmt_trailing_sign(sp, out, neg);
  return fmt_justify(sp, out, base, err);
}
