/* Natives of java.lang.Math, Integer, Long and Character: libm where the
 * C and Java definitions agree, Java's own definitions where they do not
 * (min/max with -0.0, round, pow's NaN cases). */
#include "natives.h"
#include "unicode.h"

#include <math.h>
#include <string.h>

/* --- Math --- */

static bool is_neg_zero(double d) { return d == 0.0 && signbit(d); }

static bool math_min(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  double a = args[0].d, b = args[1].d;
  if (a != a) ret->d = a;
  else if (a == 0.0 && b == 0.0 && is_neg_zero(b)) ret->d = b;
  else ret->d = a <= b ? a : b;
  return true;
}

static bool math_max(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  double a = args[0].d, b = args[1].d;
  if (a != a) ret->d = a;
  else if (a == 0.0 && b == 0.0 && is_neg_zero(a)) ret->d = b;
  else ret->d = a >= b ? a : b;
  return true;
}

/* C's pow says pow(1, y) = 1 and pow(-1, +-inf) = 1 for every y; Java
 * says NaN for y NaN, and NaN for |x| = 1 with y infinite. */
static double java_pow(double x, double y) {
  if (y != y) return y;
  if (isinf(y) && fabs(x) == 1.0) return NAN;
  return pow(x, y);
}

static int64_t asr64(int64_t x, int s) { return x < 0 ? ~(~x >> s) : x >> s; }

/* Java's d2l: saturating, NaN -> 0. */
static int64_t d2l(double d) {
  if (d != d) return 0;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

/* Math.round as JDK 17 computes it, on the bits: floor(x + 1/2) without
 * the rounding error of adding 0.5 (Math.round(0.49999999999999994) is 0). */
static int64_t java_round(double a) {
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  int64_t biased_exp = (int64_t)((bits & 0x7FF0000000000000u) >> 52);
  int64_t shift = (52 - 1 + 1023) - biased_exp;
  if ((shift & -64) == 0) {
    int64_t r = (int64_t)((bits & 0x000FFFFFFFFFFFFFu) | 0x0010000000000000u);
    if ((int64_t)bits < 0) r = -r;
    return asr64(asr64(r, (int)shift) + 1, 1);
  }
  return d2l(a);
}

static bool math_round(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->j = java_round(args[0].d);
  return true;
}

/* Double.doubleToLongBits: the IEEE bits, every NaN as the canonical one
 * (records' equals and hashCode compare doubles this way). */
static bool double_to_long_bits(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  double d = args[0].d;
  uint64_t bits = 0x7ff8000000000000u;
  if (d == d) memcpy(&bits, &d, sizeof bits);
  ret->j = (int64_t)bits;
  return true;
}

static bool math_pow(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->d = java_pow(args[0].d, args[1].d);
  return true;
}

static bool math_atan2(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->d = atan2(args[0].d, args[1].d);
  return true;
}

#define DR_MATH1(name, expr)                                                  \
  static bool math_##name(DrVM *vm, DrValue *args, DrValue *ret) {            \
    (void)vm;                                                                 \
    double a = args[0].d;                                                     \
    ret->d = (expr);                                                          \
    return true;                                                              \
  }
DR_MATH1(sqrt, sqrt(a))
DR_MATH1(floor, floor(a))
DR_MATH1(ceil, ceil(a))
DR_MATH1(sin, sin(a))
DR_MATH1(cos, cos(a))
DR_MATH1(tan, tan(a))
DR_MATH1(exp, exp(a))
DR_MATH1(log, log(a))
#undef DR_MATH1

/* --- Integer.parseInt / Long.parseLong --- */

/* Java's parse loop for radix 10: an optional sign, then at least one
 * digit (Character.digit, so any Unicode decimal digit counts),
 * accumulated negatively so MIN_VALUE parses; false on any error. */
static bool parse_decimal(const DrString *s, int64_t min, int64_t max, int64_t *out) {
  int32_t n = s->length, i = 0;
  if (n == 0) return false;
  bool negative = false;
  int64_t limit = -max;
  uint16_t first = s->chars[0];
  if (first < '0') {
    if (first == '-') {
      negative = true;
      limit = min;
    } else if (first != '+') {
      return false;
    }
    if (n == 1) return false;
    i++;
  }
  int64_t multmin = limit / 10;
  int64_t result = 0;
  for (; i < n; i++) {
    int d = dr_uc_digit_value(s->chars[i]);
    if (d < 0 || result < multmin) return false;
    result *= 10;
    if (result < limit + d) return false;
    result -= d;
  }
  *out = negative ? result : -result;
  return true;
}

static bool parse_number(DrVM *vm, DrValue *args, int64_t min, int64_t max, int64_t *out) {
  DrString *s = (DrString *)args[0].ref;
  if (!s) return dr_throw(vm, DR_WK_NUMBER_FORMAT, "Cannot parse null string");
  if (parse_decimal(s, min, max, out)) return true;
  /* `For input string: "S"`, S as UTF-16: any text survives */
  DrBuf16 *b = &vm->scratch16;
  b->len = 0;
  dr_buf16_append_ascii(b, "For input string: \"");
  dr_buf16_append(b, s->chars, s->length);
  dr_buf16_append_ascii(b, "\"");
  DrString *msg = dr_new_string(vm, b->data, b->len);
  if (!msg) return false;
  return dr_throw_jstring(vm, DR_WK_NUMBER_FORMAT, msg);
}

static bool integer_parse_int(DrVM *vm, DrValue *args, DrValue *ret) {
  int64_t v;
  if (!parse_number(vm, args, INT32_MIN, INT32_MAX, &v)) return false;
  ret->i = (int32_t)v;
  return true;
}

static bool long_parse_long(DrVM *vm, DrValue *args, DrValue *ret) {
  int64_t v;
  if (!parse_number(vm, args, INT64_MIN, INT64_MAX, &v)) return false;
  ret->j = v;
  return true;
}

/* --- Character --- */

static bool character_is_digit(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = dr_uc_is_digit((uint16_t)args[0].i);
  return true;
}

static bool character_is_letter(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = dr_uc_is_letter((uint16_t)args[0].i);
  return true;
}

#define NUM_NATIVES(X)                                                        \
  X("java.lang.Math", "min(double,double)", math_min)                         \
  X("java.lang.Math", "max(double,double)", math_max)                         \
  X("java.lang.Math", "sqrt(double)", math_sqrt)                              \
  X("java.lang.Math", "pow(double,double)", math_pow)                         \
  X("java.lang.Math", "floor(double)", math_floor)                            \
  X("java.lang.Math", "ceil(double)", math_ceil)                              \
  X("java.lang.Math", "round(double)", math_round)                            \
  X("java.lang.Math", "sin(double)", math_sin)                                \
  X("java.lang.Math", "cos(double)", math_cos)                                \
  X("java.lang.Math", "tan(double)", math_tan)                                \
  X("java.lang.Math", "atan2(double,double)", math_atan2)                     \
  X("java.lang.Math", "exp(double)", math_exp)                                \
  X("java.lang.Math", "log(double)", math_log)                                \
  X("java.lang.Double", "doubleToLongBits(double)", double_to_long_bits)      \
  X("java.lang.Integer", "parseInt(String)", integer_parse_int)               \
  X("java.lang.Long", "parseLong(String)", long_parse_long)                   \
  X("java.lang.Character", "isDigit(char)", character_is_digit)               \
  X("java.lang.Character", "isLetter(char)", character_is_letter)

static const DrNativeEntry num_natives[] = {
#define DR_ROW(cls, desc, fn) {cls, desc, fn},
    NUM_NATIVES(DR_ROW)
#undef DR_ROW
};

DrNativeFn dr_natives_num_lookup(const char *cls, const char *desc) {
  return dr_natives_find(num_natives, DR_ARRAY_LEN(num_natives), cls, desc);
}
