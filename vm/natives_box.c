/* Natives of the wrapper classes and of float: Float.toString's text
 * (String.valueOf(float)), the IEEE bits of a float, and
 * Double.parseDouble / Float.parseFloat, which round the decimal text
 * once, correctly (strtod / strtof), as Java's FloatingDecimal does. */
#include "natives.h"
#include "unicode.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool string_value_of_float(DrVM *vm, DrValue *args, DrValue *ret) {
  char text[40];
  dr_float_to_string(args[0].f, text);
  DrBuf16 *b = &vm->scratch16;
  b->len = 0;
  dr_buf16_append_ascii(b, text);
  DrString *s = dr_new_string(vm, b->data, b->len);
  if (!s) return false;
  ret->ref = &s->hdr;
  return true;
}

/* Float.floatToIntBits: every NaN as the canonical one */
static bool float_to_int_bits(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  float f = args[0].f;
  uint32_t bits = 0x7fc00000u;
  if (f == f) memcpy(&bits, &f, sizeof bits);
  ret->i = (int32_t)bits;
  return true;
}

static bool float_int_bits_to_float(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  memcpy(&ret->f, &args[0].i, sizeof ret->f);
  return true;
}

static bool float_to_raw_int_bits(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  memcpy(&ret->i, &args[0].f, sizeof ret->i);
  return true;
}

static bool double_long_bits_to_double(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  memcpy(&ret->d, &args[0].j, sizeof ret->d);
  return true;
}

static bool double_to_raw_long_bits(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  memcpy(&ret->j, &args[0].d, sizeof ret->j);
  return true;
}

static bool digits(const char **p) {
  const char *s = *p;
  while (isdigit((unsigned char)**p)) (*p)++;
  return *p > s;
}

/* Java's decimal floating-point syntax (Double.valueOf's grammar, without
 * the hexadecimal form): sign, digits with an optional point, exponent,
 * an optional f/F/d/D; or NaN and Infinity. */
static bool java_float_syntax(const char *s) {
  if (*s == '+' || *s == '-') s++;
  if (strcmp(s, "NaN") == 0 || strcmp(s, "Infinity") == 0) return true;
  bool lead = digits(&s), frac = false;
  if (*s == '.') {
    s++;
    frac = digits(&s);
  }
  if (!lead && !frac) return false;
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!digits(&s)) return false;
  }
  if (*s && strchr("fFdD", *s)) s++;
  return *s == '\0';
}

/* The text of s without Java's trim() (units <= ' '), as ASCII, or NULL
 * when a unit is not ASCII (then it is no number). */
static char *trimmed_ascii(const DrString *s) {
  int32_t b = 0, e = s->length;
  while (b < e && s->chars[b] <= ' ') b++;
  while (e > b && s->chars[e - 1] <= ' ') e--;
  char *t = dr_xmalloc((size_t)(e - b) + 1);
  for (int32_t i = b; i < e; i++) {
    if (s->chars[i] >= 128) {
      free(t);
      return NULL;
    }
    t[i - b] = (char)s->chars[i];
  }
  t[e - b] = '\0';
  return t;
}

/* FloatingDecimal's own complaint: a second point among the leading
 * digits */
static bool multiple_points(const char *s) {
  if (*s == '+' || *s == '-') s++;
  int points = 0;
  for (; isdigit((unsigned char)*s) || *s == '.'; s++) points += *s == '.';
  return points > 1;
}

static bool parse_floating(DrVM *vm, DrValue *args, bool single, DrValue *ret) {
  DrString *s = (DrString *)args[0].ref;
  if (!s) return dr_throw_npe(vm);
  char *t = trimmed_ascii(s);
  if (t && java_float_syntax(t)) {
    /* strtod reads NaN and Infinity too; the suffix is no part of the number */
    size_t n = strlen(t);
    if (n && strchr("fFdD", t[n - 1]) && strcmp(t + (n >= 8 ? n - 8 : 0), "Infinity") != 0) t[n - 1] = '\0';
    if (single) ret->f = strtof(t, NULL);
    else ret->d = strtod(t, NULL);
    free(t);
    return true;
  }
  bool empty = t && !*t, points = t && multiple_points(t);
  free(t);
  if (empty) return dr_throw(vm, DR_WK_NUMBER_FORMAT, "empty String");
  if (points) return dr_throw(vm, DR_WK_NUMBER_FORMAT, "multiple points");
  DrBuf16 *b = &vm->scratch16;
  b->len = 0;
  dr_buf16_append_ascii(b, "For input string: \"");
  dr_buf16_append(b, s->chars, s->length);
  dr_buf16_append_ascii(b, "\"");
  DrString *msg = dr_new_string(vm, b->data, b->len);
  if (!msg) return false;
  return dr_throw_jstring(vm, DR_WK_NUMBER_FORMAT, msg);
}

static bool double_parse_double(DrVM *vm, DrValue *args, DrValue *ret) { return parse_floating(vm, args, false, ret); }
static bool float_parse_float(DrVM *vm, DrValue *args, DrValue *ret) { return parse_floating(vm, args, true, ret); }

/* Character.digit: a decimal digit (any Unicode Nd) or a Latin letter,
 * when its value is below the radix */
static bool character_digit(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  uint16_t c = (uint16_t)args[0].i;
  int radix = args[1].i, v = dr_uc_digit_value(c);
  if (v < 0 && c < 128 && isalpha(c)) v = tolower(c) - 'a' + 10;
  ret->i = (radix >= 2 && radix <= 36 && v >= 0 && v < radix) ? v : -1;
  return true;
}

#define BOX_NATIVES(X)                                                        \
  X("java.lang.String", "valueOf(float)", string_value_of_float)              \
  X("java.lang.Float", "floatToIntBits(float)", float_to_int_bits)            \
  X("java.lang.Float", "floatToRawIntBits(float)", float_to_raw_int_bits)     \
  X("java.lang.Float", "intBitsToFloat(int)", float_int_bits_to_float)        \
  X("java.lang.Double", "doubleToRawLongBits(double)", double_to_raw_long_bits) \
  X("java.lang.Double", "longBitsToDouble(long)", double_long_bits_to_double) \
  X("java.lang.Float", "parseFloat(String)", float_parse_float)                \
  X("java.lang.Double", "parseDouble(String)", double_parse_double)           \
  X("java.lang.Character", "digit(char,int)", character_digit)

static const DrNativeEntry box_natives[] = {
#define DR_ROW(cls, desc, fn) {cls, desc, fn},
    BOX_NATIVES(DR_ROW)
#undef DR_ROW
};

DrNativeFn dr_natives_box_lookup(const char *cls, const char *desc) {
  return dr_natives_find(box_natives, DR_ARRAY_LEN(box_natives), cls, desc);
}
