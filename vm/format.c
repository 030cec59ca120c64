/* FormatSpecifier.print of JDK 17 for one argument: texts (%s %b %h %c,
 * and "null" for any conversion), integers (%d %o %x) and the layout they
 * share (signs, grouping, zero padding, justification).  Floating point
 * (%e %f %g %a) is in format_float.c. */
#include "format.h"
#include "format_internal.h"
#include "unicode.h"

#include <string.h>

/* The class Java names: a primitive's wrapper, or the object's. */
static const char *class_name(const DrFmtArg *a) {
  static const char *const wrappers[] = {
      [DR_FMT_BOOLEAN] = "java.lang.Boolean", [DR_FMT_CHAR] = "java.lang.Character", [DR_FMT_BYTE] = "java.lang.Byte",
      [DR_FMT_SHORT] = "java.lang.Short",     [DR_FMT_INT] = "java.lang.Integer",    [DR_FMT_LONG] = "java.lang.Long",
      [DR_FMT_FLOAT] = "java.lang.Float",     [DR_FMT_DOUBLE] = "java.lang.Double",  [DR_FMT_TEXT] = "java.lang.String",
  };
  if (a->class_name) return a->class_name;
  if ((size_t)a->kind < DR_ARRAY_LEN(wrappers) && wrappers[a->kind]) return wrappers[a->kind];
  return "java.lang.Object";
}

static bool fail_conversion(const DrFmtSpec *sp, const DrFmtArg *a, DrFmtError *err) {
  const char *name = class_name(a);
  size_t n = strlen(name);
  if (n > DR_ARRAY_LEN(err->text)) n = DR_ARRAY_LEN(err->text);
  for (size_t i = 0; i < n; i++) err->text[i] = (uint16_t)(unsigned char)name[i];
  err->len = (int32_t)n;
  err->kind = DR_FMT_E_CONVERSION;
  err->conv = sp->conv;
  return false;
}

bool fmt_fail_mismatch(const DrFmtSpec *sp, int32_t flag, DrFmtError *err) {
  DrBuf16 b = {0};
  fmt_flags_text(flag, &b);
  memcpy(err->text, b.data, sizeof(uint16_t) * (size_t)b.len);
  err->len = b.len;
  dr_buf16_free(&b);
  err->kind = DR_FMT_E_MISMATCH;
  err->conv = sp->conv;
  return false;
}

bool fmt_too_long(int64_t n, DrFmtError *err) {
  if (n <= DR_FMT_MAX_LEN) return false;
  err->kind = DR_FMT_E_TOO_LONG;
  err->len = 0;
  return true;
}

/* --- layout --- */

void fmt_put(DrBuf16 *out, uint16_t c, int64_t n) {
  for (int64_t i = 0; i < n; i++) dr_buf16_append(out, &c, 1);
}

/* n copies of c at position at of out */
static void insert_chars(DrBuf16 *out, int32_t at, uint16_t c, int32_t n) {
  if (n <= 0) return;
  fmt_put(out, ' ', n);
  memmove(out->data + at + n, out->data + at, sizeof(uint16_t) * (size_t)(out->len - n - at));
  for (int32_t i = 0; i < n; i++) out->data[at + i] = c;
}

/* appendJustified: out[base..] padded with spaces to the width. */
bool fmt_justify(const DrFmtSpec *sp, DrBuf16 *out, int32_t base, DrFmtError *err) {
  if (sp->width == -1) return true;
  if (fmt_too_long(sp->width, err)) return false;
  int32_t pad = sp->width - (out->len - base);
  if (pad <= 0) return true;
  if (sp->flags & DR_FMT_LEFT) fmt_put(out, ' ', pad);
  else insert_chars(out, base, ' ', pad);
  return true;
}

void fmt_leading_sign(const DrFmtSpec *sp, DrBuf16 *out, bool neg) {
  if (!neg) {
    if (sp->flags & DR_FMT_PLUS) dr_buf16_append_ascii(out, "+");
    else if (sp->flags & DR_FMT_SPACE) dr_buf16_append_ascii(out, " ");
  } else {
    dr_buf16_append_ascii(out, (sp->flags & DR_FMT_PAREN) ? "(" : "-");
  }
}

void fmt_trailing_sign(const DrFmtSpec *sp, DrBuf16 *out, bool neg) {
  if (neg && (sp->flags & DR_FMT_PAREN)) dr_buf16_append_ascii(out, ")");
}

int32_t fmt_adjust_width(const DrFmtSpec *sp, int32_t width, bool neg) {
  if (width != -1 && neg && (sp->flags & DR_FMT_PAREN)) width--;
  return width;
}

/* localizedMagnitude (Locale.US): the digits of v[0..n) with ',' every
 * three before the '.', then zeros at begin while out[base..] is shorter
 * than width. */
bool fmt_magnitude(const DrFmtSpec *sp, DrBuf16 *out, const char *v, int32_t n, int32_t width, int32_t base,
                   DrFmtError *err) {
  int32_t begin = out->len;
  int32_t dot = n;
  for (int32_t j = 0; j < n; j++)
    if (v[j] == '.') {
      dot = j;
      break;
    }
  bool group = (sp->flags & DR_FMT_GROUP) != 0;
  for (int32_t j = 0; j < n; j++) {
    uint16_t c = (uint16_t)v[j];
    dr_buf16_append(out, &c, 1);
    if (j == dot) group = false;
    else if (group && j != dot - 1 && (dot - j) % 3 == 1) dr_buf16_append_ascii(out, ",");
  }
  if ((sp->flags & DR_FMT_ZERO) && width > out->len - base) {
    if (fmt_too_long(width, err)) return false;
    insert_chars(out, begin, '0', width - (out->len - base));
  }
  return true;
}

/* --- text --- */

static void append_upper(DrBuf16 *out, const uint16_t *u, int32_t n) {
  for (int32_t i = 0; i < n;) {
    uint32_t cp = u[i];
    int32_t in = 1;
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (u[i + 1] - 0xDC00u);
      in = 2;
    }
    uint16_t up[3];
    dr_buf16_append(out, up, dr_uc_to_upper(cp, up));
    i += in;
  }
}

/* print(String): the precision cuts, %S upper-cases, the width pads. */
static bool print_text(const DrFmtSpec *sp, const uint16_t *u, int32_t n, DrBuf16 *out, DrFmtError *err) {
  int32_t base = out->len;
  if (sp->precision != -1 && sp->precision < n) n = sp->precision;
  if (sp->flags & DR_FMT_UPPER) append_upper(out, u, n);
  else dr_buf16_append(out, u, n);
  return fmt_justify(sp, out, base, err);
}

static bool print_ascii(const DrFmtSpec *sp, const char *s, DrBuf16 *out, DrFmtError *err) {
  uint16_t u[16];
  int32_t n = 0;
  while (s[n]) {
    u[n] = (uint16_t)s[n];
    n++;
  }
  return print_text(sp, u, n, out, err);
}

/* A toString() that returned null: StringBuilder appends "null", but
 * measuring, cutting or upper-casing it throws. */
static bool print_null_text(const DrFmtSpec *sp, DrBuf16 *out, DrFmtError *err) {
  if (sp->precision != -1 || sp->width != -1 || (sp->flags & DR_FMT_UPPER)) {
    err->kind = DR_FMT_E_NULL;
    err->len = 0;
    return false;
  }
  dr_buf16_append_ascii(out, "null");
  return true;
}

static bool print_string(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  if (sp->conv == 's' && (sp->flags & DR_FMT_ALT)) return fmt_fail_mismatch(sp, DR_FMT_ALT, err);
  if (a->kind == DR_FMT_NULL) return print_ascii(sp, "null", out, err);
  if (a->kind != DR_FMT_TEXT) return fail_conversion(sp, a, err); /* the DL side gives the text */
  if (!a->text) return print_null_text(sp, out, err);
  return print_text(sp, a->text, a->len, out, err);
}

static bool print_boolean(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  bool v = a->kind == DR_FMT_BOOLEAN ? a->j != 0 : a->kind != DR_FMT_NULL;
  return print_ascii(sp, v ? "true" : "false", out, err);
}

static bool print_character(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  if (a->kind == DR_FMT_NULL) return print_ascii(sp, "null", out, err);
  uint16_t u[2];
  int32_t n = 1;
  if (a->kind == DR_FMT_CHAR) {
    u[0] = (uint16_t)a->j;
  } else if (a->kind == DR_FMT_BYTE || a->kind == DR_FMT_SHORT || a->kind == DR_FMT_INT) {
    if (a->j < 0 || a->j > 0x10FFFF) {
      err->kind = DR_FMT_E_CODE_POINT;
      err->num = (int32_t)a->j;
      err->len = 0;
      return false;
    }
    uint32_t cp = (uint32_t)a->j;
    if (cp >= 0x10000) {
      u[0] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
      u[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
      n = 2;
    } else {
      u[0] = (uint16_t)cp;
    }
  } else {
    return fail_conversion(sp, a, err);
  }
  return print_text(sp, u, n, out, err);
}

/* --- integers --- */

static int unsigned_text(uint64_t v, int shift, bool upper, char *buf) {
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = digits[v & ((1u << shift) - 1)];
    v >>= shift;
  } while (v);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
  return n;
}

static bool print_decimal(const DrFmtSpec *sp, int64_t v, DrBuf16 *out, DrFmtError *err) {
  int32_t base = out->len;
  bool neg = v < 0;
  char buf[24];
  int n = dr_long_to_string(v, buf);
  fmt_leading_sign(sp, out, neg);
  if (!fmt_magnitude(sp, out, buf + neg, n - neg, fmt_adjust_width(sp, sp->width, neg), base, err)) return false;
  fmt_trailing_sign(sp, out, neg);
  return fmt_justify(sp, out, base, err);
}

/* %o and %x: the two's complement of the argument's own width. */
static bool print_radix(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  static const int32_t bad[] = {DR_FMT_PAREN, DR_FMT_SPACE, DR_FMT_PLUS};
  for (size_t i = 0; i < DR_ARRAY_LEN(bad); i++)
    if (sp->flags & bad[i]) return fmt_fail_mismatch(sp, bad[i], err);
  uint64_t v = (uint64_t)a->j;
  if (a->kind == DR_FMT_BYTE) v &= 0xFF;
  else if (a->kind == DR_FMT_SHORT) v &= 0xFFFF;
  else if (a->kind == DR_FMT_INT) v &= 0xFFFFFFFFu;
  bool hex = sp->conv == 'x', upper = (sp->flags & DR_FMT_UPPER) != 0;
  char buf[24];
  int n = unsigned_text(v, hex ? 4 : 3, upper, buf);
  int32_t base = out->len;
  bool alt = (sp->flags & DR_FMT_ALT) != 0;
  if (alt) dr_buf16_append_ascii(out, hex ? (upper ? "0X" : "0x") : "0");
  if (sp->flags & DR_FMT_ZERO) {
    if (fmt_too_long(sp->width, err)) return false;
    fmt_put(out, '0', (int64_t)sp->width - n - (alt ? (hex ? 2 : 1) : 0));
  }
  dr_buf16_append_ascii(out, buf);
  return fmt_justify(sp, out, base, err);
}

static bool print_integer(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  switch (a->kind) {
  case DR_FMT_NULL: return print_ascii(sp, "null", out, err);
  case DR_FMT_BYTE:
  case DR_FMT_SHORT:
  case DR_FMT_INT:
  case DR_FMT_LONG: return sp->conv == 'd' ? print_decimal(sp, a->j, out, err) : print_radix(sp, a, out, err);
  default: return fail_conversion(sp, a, err);
  }
}

static bool print_float_arg(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  if (a->kind == DR_FMT_NULL) return print_ascii(sp, "null", out, err);
  if (a->kind != DR_FMT_FLOAT && a->kind != DR_FMT_DOUBLE) return fail_conversion(sp, a, err);
  return fmt_print_double(sp, a->d, out, err);
}

/* %t: only null has a text in DL (no Calendar, no time zones). */
static bool print_datetime(const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  if (a->kind == DR_FMT_NULL) return print_ascii(sp, "null", out, err);
  if (a->kind == DR_FMT_LONG) {
    err->kind = DR_FMT_E_DATETIME;
    err->len = 0;
    return false;
  }
  return fail_conversion(sp, a, err);
}

bool fmt_print(const uint16_t *s, int32_t n, const DrFmtSpec *sp, const DrFmtArg *a, DrBuf16 *out,
               DrFmtError *err) {
  static const DrFmtArg none = {.kind = DR_FMT_NULL};
  err->kind = DR_FMT_OK;
  if (sp->index == -2) a = &none;
  if (sp->conv == 0) {
    if (sp->start >= 0 && sp->start <= sp->end && sp->end <= n) dr_buf16_append(out, s + sp->start, sp->end - sp->start);
    return true;
  }
  if (sp->datetime) return print_datetime(sp, a, out, err);
  switch (sp->conv) {
  case 'n': dr_buf16_append_ascii(out, "\n"); return true;
  case '%': return print_ascii(sp, "%", out, err);
  case 's':
  case 'h': return print_string(sp, a, out, err);
  case 'b': return print_boolean(sp, a, out, err);
  case 'c': return print_character(sp, a, out, err);
  case 'd':
  case 'o':
  case 'x': return print_integer(sp, a, out, err);
  default: return print_float_arg(sp, a, out, err);
  }
}
