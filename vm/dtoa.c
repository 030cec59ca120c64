/* Number to text as Java prints it: Double.toString and integer decimal.
 *
 * Double.toString is a port of JDK 17's FloatingDecimal (the
 * BinaryToASCIIBuffer.dtoa digit generator and its formatting), not a
 * shortest-digits algorithm: JDK 17 sometimes prints more digits than the
 * shortest round-trip text (1.0E23 prints as 9.999999999999999E22, 2^54+4
 * as 1.8014398509481988E16, Double.MIN_VALUE as 4.9E-324), and drvm must
 * print what `java` prints.  The JDK picks int, long or big-integer
 * arithmetic by operand size, and those paths differ at the edges (int and
 * long wrap; the big path's stopping test is >= where theirs is >), so all
 * three are reproduced, wrapping included. */
#include "vm.h"

#include <string.h>

/* --- a small unsigned big integer, enough for 10^330 * 2^64 --- */

enum { BIG_WORDS = 80 };

typedef struct {
  uint32_t w[BIG_WORDS]; /* little-endian words */
  int n;                 /* words in use; w[n-1] != 0 unless n == 0 */
} Big;

static void big_trim(Big *a) {
  while (a->n > 0 && a->w[a->n - 1] == 0) a->n--;
}

static void big_set(Big *a, uint64_t v) {
  a->w[0] = (uint32_t)v;
  a->w[1] = (uint32_t)(v >> 32);
  a->n = 2;
  big_trim(a);
}

static void big_mul_small(Big *a, uint32_t m) {
  uint64_t carry = 0;
  for (int i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->w[i] * m + carry;
    a->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) a->w[a->n++] = (uint32_t)carry;
}

static void big_mul_pow5(Big *a, int e) {
  for (; e >= 13; e -= 13) big_mul_small(a, 1220703125u); /* 5^13 */
  uint32_t p = 1;
  while (e-- > 0) p *= 5;
  big_mul_small(a, p);
}

static void big_shl(Big *a, int bits) {
  if (a->n == 0 || bits == 0) return;
  int words = bits / 32, r = bits % 32;
  int n = a->n + words + 1;
  for (int i = n - 1; i >= 0; i--) {
    int src = i - words;
    uint64_t hi = src >= 0 && src < a->n ? a->w[src] : 0;
    uint64_t lo = src - 1 >= 0 && src - 1 < a->n ? a->w[src - 1] : 0;
    a->w[i] = r ? (uint32_t)((hi << r) | (lo >> (32 - r))) : (uint32_t)hi;
  }
  a->n = n;
  big_trim(a);
}

/* f * 5^p5 * 2^p2 */
static void big_pow52(Big *a, uint64_t f, int p5, int p2) {
  big_set(a, f);
  big_mul_pow5(a, p5);
  big_shl(a, p2);
}

static int big_cmp(const Big *a, const Big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

static void big_sub(Big *a, const Big *b) { /* a >= b */
  int64_t borrow = 0;
  for (int i = 0; i < a->n; i++) {
    int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
    borrow = t < 0;
    a->w[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
  }
  big_trim(a);
}

static void big_add(Big *r, const Big *a, const Big *b) {
  uint64_t carry = 0;
  int n = a->n > b->n ? a->n : b->n;
  for (int i = 0; i < n; i++) {
    uint64_t t = (uint64_t)(i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0) + carry;
    r->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  r->n = n;
  if (carry) r->w[r->n++] = (uint32_t)carry;
}

/* q = b / s (a digit), b = 10 * (b % s) */
static int big_quo_rem(Big *b, const Big *s) {
  int q = 0;
  while (big_cmp(b, s) >= 0) {
    big_sub(b, s);
    q++;
  }
  big_mul_small(b, 10);
  return q;
}

/* --- FloatingDecimal.BinaryToASCIIBuffer --- */

typedef struct {
  char digits[24];
  int first, ndigits;
  int dec_exp; /* value = 0.DIGITS * 10^dec_exp */
} Decimal;

static const int n_5_bits[] = {0,  3,  5,  7,  10, 12, 14, 17, 19, 21, 24, 26, 28, 31,
                               33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61};
static const int insignificant_digits[] = {0,  0,  0,  0,  1,  1,  1,  2,  2,  2,  3,  3,  3,  3,  4,  4,
                                           4,  5,  5,  5,  6,  6,  6,  6,  7,  7,  7,  8,  8,  8,  9,  9,
                                           9,  9,  10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14,
                                           14, 14, 15, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19};

static int ctz64(uint64_t v) { /* v != 0 */
  int n = 0;
  while (!(v & 1)) {
    v >>= 1;
    n++;
  }
  return n;
}

static int clz64(uint64_t v) { /* v != 0 */
  int n = 0;
  while (!(v >> 63)) {
    v <<= 1;
    n++;
  }
  return n;
}

static int64_t pow5_i64(int e) {
  int64_t p = 1;
  while (e-- > 0) p *= 5;
  return p;
}

/* Java's wrapping int / long arithmetic */
static int32_t wmul32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }
static int32_t wadd32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t wshl32(int32_t a, int s) { return (int32_t)((uint32_t)a << s); }
static int64_t wmul64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t wadd64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wshl64(int64_t a, int s) { return (int64_t)((uint64_t)a << s); }

static int64_t java_floor_to_int(double d) {
  int64_t i = (int64_t)d;
  return (double)i > d ? i - 1 : i;
}

/* FloatingDecimal.estimateDecExp: floor(log10(d)), roughly */
static int estimate_dec_exp(uint64_t fract_bits, int bin_exp) {
  uint64_t bits = 0x3FF0000000000000u | (fract_bits & 0x000FFFFFFFFFFFFFu);
  double d2;
  memcpy(&d2, &bits, sizeof d2);
  double d = (d2 - 1.5) * 0.289529654 + 0.176091259 + (double)bin_exp * 0.301029995663981;
  /* the JDK rounds toward negative infinity, via the bits */
  return (int)java_floor_to_int(d);
}

static void develop_long_digits(Decimal *r, int dec_exp, int64_t v, int insignificant) {
  if (insignificant != 0) {
    int64_t pow10 = pow5_i64(insignificant) << insignificant;
    int64_t residue = v % pow10;
    v /= pow10;
    dec_exp += insignificant;
    if (residue >= (pow10 >> 1)) v++;
  }
  int i = (int)sizeof r->digits - 1;
  int c = (int)(v % 10);
  v /= 10;
  while (c == 0) {
    dec_exp++;
    c = (int)(v % 10);
    v /= 10;
  }
  while (v != 0) {
    r->digits[i--] = (char)('0' + c);
    dec_exp++;
    c = (int)(v % 10);
    v /= 10;
  }
  r->digits[i] = (char)('0' + c);
  r->dec_exp = dec_exp + 1;
  r->first = i;
  r->ndigits = (int)sizeof r->digits - i;
}

static void roundup(Decimal *r) {
  int i = r->first + r->ndigits - 1;
  char q = r->digits[i];
  if (q == '9') {
    while (q == '9' && i > r->first) {
      r->digits[i] = '0';
      q = r->digits[--i];
    }
    if (q == '9') {
      r->dec_exp += 1;
      r->digits[r->first] = '1';
      return;
    }
  }
  r->digits[i] = (char)(q + 1);
}

/* compat: Double.toString's digits; java.util.Formatter asks for the
 * other kind (isCompatibleFormat false), where at least two digits are
 * generated whatever the exponent. */
static void dtoa(Decimal *r, int bin_exp, uint64_t fract_bits, int n_significant_bits, bool compat) {
  int tail_zeros = ctz64(fract_bits);
  int n_fract_bits = 53 - tail_zeros;
  int n_tiny_bits = n_fract_bits - bin_exp - 1;
  if (n_tiny_bits < 0) n_tiny_bits = 0;
  if (bin_exp <= 62 && bin_exp >= -21 && n_tiny_bits < 27 && n_fract_bits + n_5_bits[n_tiny_bits] < 64 &&
      n_tiny_bits == 0) {
    /* an integer below 2^63: its exact digits, less "insignificant" ones */
    int insignificant = 0;
    if (bin_exp > n_significant_bits) {
      int p2 = bin_exp - n_significant_bits - 1;
      if (p2 > 1 && p2 < (int)DR_ARRAY_LEN(insignificant_digits)) insignificant = insignificant_digits[p2];
    }
    int64_t v = (int64_t)(bin_exp >= 52 ? fract_bits << (bin_exp - 52) : fract_bits >> (52 - bin_exp));
    develop_long_digits(r, 0, v, insignificant);
    return;
  }
  int dec_exp = estimate_dec_exp(fract_bits, bin_exp);
  int b5 = dec_exp < 0 ? -dec_exp : 0;
  int b2 = b5 + n_tiny_bits + bin_exp;
  int s5 = dec_exp > 0 ? dec_exp : 0;
  int s2 = s5 + n_tiny_bits;
  int m5 = b5;
  int m2 = b2 - n_significant_bits;
  fract_bits >>= tail_zeros;
  b2 -= n_fract_bits - 1;
  int common2 = b2 < s2 ? b2 : s2;
  b2 -= common2;
  s2 -= common2;
  m2 -= common2;
  if (n_fract_bits == 1) m2 -= 1; /* below a power of two the next double is half as far */
  if (m2 < 0) {
    b2 -= m2;
    s2 -= m2;
    m2 = 0;
  }
  int nd = 0;
  bool low, high;
  int64_t low_digit_difference;
  int q;
  int bbits = n_fract_bits + b2 + (b5 < 27 ? n_5_bits[b5] : b5 * 3);
  int ten_sbits = s2 + 1 + (s5 + 1 < 27 ? n_5_bits[s5 + 1] : (s5 + 1) * 3);
  bool e_form;
  if (bbits < 64 && ten_sbits < 64) {
    if (bbits < 32 && ten_sbits < 32) {
      int32_t b = wshl32(wmul32((int32_t)fract_bits, (int32_t)pow5_i64(b5)), b2);
      int32_t s = wshl32((int32_t)pow5_i64(s5), s2);
      int32_t m = wshl32((int32_t)pow5_i64(m5), m2);
      int32_t tens = wmul32(s, 10);
      q = b / s;
      b = wmul32(10, b % s);
      m = wmul32(m, 10);
      low = b < m;
      high = wadd32(b, m) > tens;
      if (q == 0 && !high) dec_exp--;
      else r->digits[nd++] = (char)('0' + q);
      e_form = dec_exp < -3 || dec_exp >= 8;
      if (e_form || !compat) high = low = false; /* at least one digit after the point */
      while (!low && !high) {
        q = b / s;
        b = wmul32(10, b % s);
        m = wmul32(m, 10);
        if (m > 0) {
          low = b < m;
          high = wadd32(b, m) > tens;
        } else {
          low = high = true;
        }
        r->digits[nd++] = (char)('0' + q);
      }
      /* computed in int, as the JDK does, then widened (a float's b
       * reaches 2^30: b << 1 - tens wraps) */
      low_digit_difference = (int32_t)((uint32_t)wshl32(b, 1) - (uint32_t)tens);
    } else {
      int64_t b = wshl64(wmul64((int64_t)fract_bits, pow5_i64(b5)), b2);
      int64_t s = wshl64(pow5_i64(s5), s2);
      int64_t m = wshl64(pow5_i64(m5), m2);
      int64_t tens = wmul64(s, 10);
      q = (int)(b / s);
      b = wmul64(10, b % s);
      m = wmul64(m, 10);
      low = b < m;
      high = wadd64(b, m) > tens;
      if (q == 0 && !high) dec_exp--;
      else r->digits[nd++] = (char)('0' + q);
      e_form = dec_exp < -3 || dec_exp >= 8;
      if (e_form || !compat) high = low = false;
      while (!low && !high) {
        q = (int)(b / s);
        b = wmul64(10, b % s);
        m = wmul64(m, 10);
        if (m > 0) {
          low = b < m;
          high = wadd64(b, m) > tens;
        } else {
          low = high = true;
        }
        r->digits[nd++] = (char)('0' + q);
      }
      low_digit_difference = wadd64(wshl64(b, 1), (int64_t)(0 - (uint64_t)tens));
    }
  } else {
    Big sv, bv, mv, tensv, sum;
    big_pow52(&sv, 1, s5, s2);
    big_pow52(&bv, fract_bits, b5, b2);
    big_pow52(&mv, 1, m5 + 1, m2 + 1);
    big_pow52(&tensv, 1, s5 + 1, s2 + 1);
    q = big_quo_rem(&bv, &sv);
    low = big_cmp(&bv, &mv) < 0;
    big_add(&sum, &bv, &mv);
    high = big_cmp(&tensv, &sum) <= 0;
    if (q == 0 && !high) dec_exp--;
    else r->digits[nd++] = (char)('0' + q);
    e_form = dec_exp < -3 || dec_exp >= 8;
    if (e_form || !compat) high = low = false;
    while (!low && !high) {
      q = big_quo_rem(&bv, &sv);
      big_mul_small(&mv, 10);
      low = big_cmp(&bv, &mv) < 0;
      big_add(&sum, &bv, &mv);
      high = big_cmp(&tensv, &sum) <= 0;
      r->digits[nd++] = (char)('0' + q);
    }
    if (high && low) {
      big_shl(&bv, 1);
      low_digit_difference = big_cmp(&bv, &tensv);
    } else {
      low_digit_difference = 0;
    }
  }
  r->dec_exp = dec_exp + 1;
  r->first = 0;
  r->ndigits = nd;
  if (high) {
    if (low) {
      if (low_digit_difference == 0) {
        if ((r->digits[r->first + r->ndigits - 1] & 1) != 0) roundup(r);
      } else if (low_digit_difference > 0) {
        roundup(r);
      }
    } else {
      roundup(r);
    }
  }
}

/* BinaryToASCIIBuffer.getChars: the digits exactly as generated */
static char *format_decimal(const Decimal *r, char *p) {
  const char *dg = r->digits + r->first;
  int n = r->ndigits, e = r->dec_exp;
  if (e > 0 && e < 8) {
    int k = n < e ? n : e;
    memcpy(p, dg, (size_t)k);
    p += k;
    if (k < e) {
      for (int i = k; i < e; i++) *p++ = '0';
      *p++ = '.';
      *p++ = '0';
    } else {
      *p++ = '.';
      if (k < n) {
        memcpy(p, dg + k, (size_t)(n - k));
        p += n - k;
      } else {
        *p++ = '0';
      }
    }
  } else if (e <= 0 && e > -3) {
    *p++ = '0';
    *p++ = '.';
    for (int i = 0; i < -e; i++) *p++ = '0';
    memcpy(p, dg, (size_t)n);
    p += n;
  } else {
    *p++ = dg[0];
    *p++ = '.';
    if (n > 1) {
      memcpy(p, dg + 1, (size_t)(n - 1));
      p += n - 1;
    } else {
      *p++ = '0';
    }
    p += sprintf(p, "E%d", e - 1);
  }
  return p;
}

/* FloatingDecimal.getBinaryToASCIIConverter for a finite nonzero |d|:
 * unpacks, normalizes subnormals and generates the digits. */
static void finite_digits(Decimal *r, uint64_t bits, bool compat) {
  uint64_t fract_bits = bits & 0x000FFFFFFFFFFFFFu;
  int bin_exp = (int)((bits >> 52) & 0x7FF);
  int n_significant_bits;
  if (bin_exp == 0) {
    int leading_zeros = clz64(fract_bits);
    int shift = leading_zeros - (63 - 52);
    fract_bits <<= shift;
    bin_exp = 1 - shift;
    n_significant_bits = 64 - leading_zeros;
  } else {
    fract_bits |= (uint64_t)1 << 52;
    n_significant_bits = 53;
  }
  dtoa(r, bin_exp - 1023, fract_bits, n_significant_bits, compat);
}

int dr_double_to_string(double d, char *buf) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  bool negative = (bits >> 63) != 0;
  uint64_t fract_bits = bits & 0x000FFFFFFFFFFFFFu;
  int bin_exp = (int)((bits >> 52) & 0x7FF);
  char *p = buf;
  if (bin_exp == 0x7FF) {
    strcpy(buf, fract_bits ? "NaN" : negative ? "-Infinity" : "Infinity");
    return (int)strlen(buf);
  }
  if (negative) *p++ = '-';
  if (bin_exp == 0 && fract_bits == 0) {
    strcpy(p, "0.0");
    return (int)(p - buf) + 3;
  }
  Decimal r;
  finite_digits(&r, bits, true);
  p = format_decimal(&r, p);
  *p = '\0';
  return (int)(p - buf);
}

int dr_float_to_string(float f, char *buf) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  bool negative = (bits >> 31) != 0;
  uint32_t fract_bits = bits & 0x007FFFFFu;
  int bin_exp = (int)((bits >> 23) & 0xFF);
  char *p = buf;
  if (bin_exp == 0xFF) {
    strcpy(buf, fract_bits ? "NaN" : negative ? "-Infinity" : "Infinity");
    return (int)strlen(buf);
  }
  if (negative) *p++ = '-';
  int n_significant_bits;
  if (bin_exp == 0) {
    if (fract_bits == 0) {
      strcpy(p, "0.0");
      return (int)(p - buf) + 3;
    }
    int leading_zeros = clz64(fract_bits) - 32;
    int shift = leading_zeros - 8;
    fract_bits <<= shift;
    bin_exp = 1 - shift;
    n_significant_bits = 32 - leading_zeros;
  } else {
    fract_bits |= (uint32_t)1 << 23;
    n_significant_bits = 24;
  }
  bin_exp -= 127;
  Decimal r;
  /* FloatingDecimal aligns the float's bits as a double's (<< 29) */
  dtoa(&r, bin_exp, (uint64_t)fract_bits << 29, n_significant_bits, true);
  p = format_decimal(&r, p);
  *p = '\0';
  return (int)(p - buf);
}

int dr_double_digits(double d, char *digits, int *dec_exp) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  bits &= ~((uint64_t)1 << 63);
  if (bits == 0) { /* FloatingDecimal's zero: one digit, exponent 0 */
    digits[0] = '0';
    *dec_exp = 0;
    return 1;
  }
  Decimal r;
  finite_digits(&r, bits, false);
  memcpy(digits, r.digits + r.first, (size_t)r.ndigits);
  *dec_exp = r.dec_exp;
  return r.ndigits;
}

int dr_long_to_string(int64_t v, char *buf) {
  /* via the unsigned magnitude, so Long.MIN_VALUE needs no special case */
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  char *p = buf;
  if (v < 0) *p++ = '-';
  while (n) *p++ = tmp[--n];
  *p = '\0';
  return (int)(p - buf);
}

int dr_hex_to_string(uint32_t v, char *buf) {
  static const char hex[] = "0123456789abcdef";
  char tmp[8];
  int n = 0;
  do {
    tmp[n++] = hex[v & 15];
    v >>= 4;
  } while (v);
  char *p = buf;
  while (n) *p++ = tmp[--n];
  *p = '\0';
  return (int)(p - buf);
}
