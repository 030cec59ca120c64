/* Natives of java.lang.String and java.lang.StringBuilder.  Messages and
 * edge cases follow JDK 17, including which results are the receiver
 * itself or the interned "" (identity is observable with ==). */
#include "natives.h"
#include "unicode.h"

#include <string.h>

#define STR(v) ((DrString *)(v).ref)

static bool ret_string(DrValue *ret, DrString *s) {
  if (!s) return false;
  ret->ref = &s->hdr;
  return true;
}

/* JDK 17 stores a string whose chars all fit in a byte as LATIN1, and its
 * messages differ by that (String.charAt). */
static bool is_latin1(const uint16_t *u, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    if (u[i] > 0xFF) return false;
  return true;
}

static bool is_high(uint16_t c) { return c >= 0xD800 && c <= 0xDBFF; }
static bool is_low(uint16_t c) { return c >= 0xDC00 && c <= 0xDFFF; }

/* --- String: basics --- */

static bool string_length(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = STR(args[0])->length;
  return true;
}

static bool string_char_at(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = STR(args[0]);
  int32_t i = args[1].i;
  if (i < 0 || i >= s->length) {
    if (is_latin1(s->chars, s->length)) return dr_throw(vm, DR_WK_SIOOBE, "String index out of range: %d", i);
    return dr_throw(vm, DR_WK_SIOOBE, "index %d, length %d", i, s->length);
  }
  ret->i = s->chars[i];
  return true;
}

static bool string_equals(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrObj *o = args[1].ref;
  ret->i = o && o->cls == vm->known[DR_WK_STRING] && dr_string_equals(STR(args[0]), (const DrString *)o);
  return true;
}

static bool string_hash_code(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = dr_string_hash(STR(args[0]));
  return true;
}

/* chars [begin, end) of s, which is itself when that is all of it */
static bool substring(DrVM *vm, DrValue *args, int32_t begin, int32_t end, DrValue *ret) {
  DrString *s = STR(args[0]);
  if (begin < 0 || begin > end || end > s->length)
    return dr_throw(vm, DR_WK_SIOOBE, "begin %d, end %d, length %d", begin, end, s->length);
  if (begin == 0 && end == s->length) {
    ret->ref = &s->hdr;
    return true;
  }
  return ret_string(ret, dr_lib_string(vm, s->chars + begin, end - begin));
}

static bool string_substring1(DrVM *vm, DrValue *args, DrValue *ret) {
  return substring(vm, args, args[1].i, STR(args[0])->length, ret);
}

static bool string_substring2(DrVM *vm, DrValue *args, DrValue *ret) {
  return substring(vm, args, args[1].i, args[2].i, ret);
}

/* --- String: searching --- */

static int32_t index_of_char(const DrString *s, int32_t ch, int32_t from) {
  int32_t n = s->length;
  if (from < 0) from = 0;
  if (from >= n) return -1;
  if (ch < 0x10000) {
    /* a negative ch matches no char */
    for (int32_t i = from; i < n; i++)
      if (s->chars[i] == ch) return i;
    return -1;
  }
  if (ch > 0x10FFFF) return -1;
  uint16_t hi = (uint16_t)(0xD800 + ((ch - 0x10000) >> 10)), lo = (uint16_t)(0xDC00 + ((ch - 0x10000) & 0x3FF));
  for (int32_t i = from; i + 1 < n; i++)
    if (s->chars[i] == hi && s->chars[i + 1] == lo) return i;
  return -1;
}

static int32_t last_index_of_char(const DrString *s, int32_t ch) {
  int32_t n = s->length;
  if (ch < 0x10000) {
    for (int32_t i = n - 1; i >= 0; i--)
      if (s->chars[i] == ch) return i;
    return -1;
  }
  if (ch > 0x10FFFF) return -1;
  uint16_t hi = (uint16_t)(0xD800 + ((ch - 0x10000) >> 10)), lo = (uint16_t)(0xDC00 + ((ch - 0x10000) & 0x3FF));
  for (int32_t i = n - 2; i >= 0; i--)
    if (s->chars[i] == hi && s->chars[i + 1] == lo) return i;
  return -1;
}

static bool region_equals(const DrString *s, int32_t at, const DrString *t) {
  return memcmp(s->chars + at, t->chars, sizeof(uint16_t) * (size_t)t->length) == 0;
}

static int32_t index_of_string(const DrString *s, const DrString *t, int32_t from) {
  if (from >= s->length) return t->length == 0 ? s->length : -1;
  if (from < 0) from = 0;
  if (t->length == 0) return from;
  for (int32_t i = from; i <= s->length - t->length; i++)
    if (s->chars[i] == t->chars[0] && region_equals(s, i, t)) return i;
  return -1;
}

static bool string_index_of_c(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = index_of_char(STR(args[0]), args[1].i, 0);
  return true;
}

static bool string_index_of_ci(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = index_of_char(STR(args[0]), args[1].i, args[2].i);
  return true;
}

static bool string_index_of_s(DrVM *vm, DrValue *args, DrValue *ret) {
  if (!args[1].ref) return dr_throw_npe_msg(vm, "Cannot invoke \"String.coder()\" because \"str\" is null");
  ret->i = index_of_string(STR(args[0]), STR(args[1]), 0);
  return true;
}

static bool string_index_of_si(DrVM *vm, DrValue *args, DrValue *ret) {
  if (!args[1].ref) return dr_throw_npe_msg(vm, "Cannot read field \"value\" because \"tgtStr\" is null");
  ret->i = index_of_string(STR(args[0]), STR(args[1]), args[2].i);
  return true;
}

static bool string_last_index_of_c(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = last_index_of_char(STR(args[0]), args[1].i);
  return true;
}

static bool string_last_index_of_s(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = STR(args[0]), *t = STR(args[1]);
  if (!t) return dr_throw_npe_msg(vm, "Cannot read field \"value\" because \"tgtStr\" is null");
  int32_t i = s->length - t->length;
  for (; i >= 0; i--)
    if (region_equals(s, i, t)) break;
  ret->i = i;
  return true;
}

static bool string_starts_with(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = STR(args[0]), *p = STR(args[1]);
  if (!p) return dr_throw_npe_msg(vm, "Cannot invoke \"String.length()\" because \"prefix\" is null");
  ret->i = p->length <= s->length && region_equals(s, 0, p);
  return true;
}

static bool string_ends_with(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = STR(args[0]), *p = STR(args[1]);
  if (!p) return dr_throw_npe_msg(vm, "Cannot invoke \"String.length()\" because \"suffix\" is null");
  ret->i = p->length <= s->length && region_equals(s, s->length - p->length, p);
  return true;
}

static bool string_compare_to(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *a = STR(args[0]), *b = STR(args[1]);
  if (!b) return dr_throw_npe_msg(vm, "Cannot read field \"value\" because \"anotherString\" is null");
  int32_t n = a->length < b->length ? a->length : b->length;
  for (int32_t i = 0; i < n; i++)
    if (a->chars[i] != b->chars[i]) {
      ret->i = (int32_t)a->chars[i] - (int32_t)b->chars[i];
      return true;
    }
  ret->i = a->length - b->length;
  return true;
}

/* --- String: new strings --- */

static uint32_t code_point_at(const uint16_t *u, int32_t n, int32_t i) {
  if (is_high(u[i]) && i + 1 < n && is_low(u[i + 1])) return 0x10000 + ((u[i] - 0xD800u) << 10) + (u[i + 1] - 0xDC00u);
  return u[i];
}

static uint32_t code_point_before(const uint16_t *u, int32_t i) {
  if (is_low(u[i - 1]) && i >= 2 && is_high(u[i - 2])) return 0x10000 + ((u[i - 2] - 0xD800u) << 10) + (u[i - 1] - 0xDC00u);
  return u[i - 1];
}

/* The JDK lowercases a capital sigma ending a word to final sigma: when a
 * cased letter precedes it in its word and none follows.  Words are as
 * the JDK's BreakIterator sees them, approximated by the generated
 * dr_uc_word set (no boundary inside a run of those). */
static bool is_final_sigma(const uint16_t *u, int32_t n, int32_t i) {
  int32_t j = i;
  for (;;) {
    if (j == 0) return false;
    uint32_t cp = code_point_before(u, j);
    if (dr_uc_is_cased(cp)) break;
    if (!dr_uc_is_word(cp)) return false;
    j -= cp >= 0x10000 ? 2 : 1;
  }
  for (int32_t k = i + 1; k < n;) {
    uint32_t cp = code_point_at(u, n, k);
    if (!dr_uc_is_word(cp)) break;
    if (dr_uc_is_cased(cp)) return false;
    k += cp >= 0x10000 ? 2 : 1;
  }
  return true;
}

static bool change_case(DrVM *vm, DrValue *args, DrValue *ret, bool upper) {
  DrString *s = STR(args[0]);
  const uint16_t *u = s->chars;
  int32_t n = s->length;
  DrBuf16 *b = &vm->scratch16;
  b->len = 0;
  bool changed = false;
  for (int32_t i = 0; i < n;) {
    uint32_t cp = code_point_at(u, n, i);
    int32_t in = cp >= 0x10000 ? 2 : 1;
    uint16_t out[3];
    int k;
    if (!upper && cp == 0x03A3) {
      out[0] = is_final_sigma(u, n, i) ? 0x03C2 : 0x03C3;
      k = 1;
    } else {
      k = upper ? dr_uc_to_upper(cp, out) : dr_uc_to_lower(cp, out);
    }
    if (k != in || out[0] != u[i] || (k == 2 && out[1] != u[i + 1])) changed = true;
    dr_buf16_append(b, out, k);
    i += in;
  }
  if (!changed) {
    ret->ref = &s->hdr;
    return true;
  }
  return ret_string(ret, dr_new_string(vm, b->data, b->len));
}

static bool string_to_upper(DrVM *vm, DrValue *args, DrValue *ret) { return change_case(vm, args, ret, true); }
static bool string_to_lower(DrVM *vm, DrValue *args, DrValue *ret) { return change_case(vm, args, ret, false); }

static bool string_trim(DrVM *vm, DrValue *args, DrValue *ret) {
  DrString *s = STR(args[0]);
  int32_t begin = 0, end = s->length;
  while (begin < end && s->chars[begin] <= ' ') begin++;
  while (end > begin && s->chars[end - 1] <= ' ') end--;
  if (begin == 0 && end == s->length) {
    ret->ref = &s->hdr;
    return true;
  }
  return ret_string(ret, dr_lib_string(vm, s->chars + begin, end - begin));
}

static bool string_to_char_array(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = STR(args[0]);
  DrArray *a = dr_new_array(vm, dr_prim_array_class(vm, DR_K_CHAR), s->length);
  if (!a) return false;
  memcpy(DR_ARRAY_DATA(a), s->chars, sizeof(uint16_t) * (size_t)s->length);
  ret->ref = &a->hdr;
  return true;
}

static bool string_concat(DrVM *vm, DrValue *args, DrValue *ret) {
  DrString *a = STR(args[0]), *b = STR(args[1]);
  if (!b) return dr_throw_npe_msg(vm, "Cannot invoke \"String.isEmpty()\" because \"str\" is null");
  if (b->length == 0) {
    ret->ref = &a->hdr;
    return true;
  }
  if ((int64_t)a->length + b->length > INT32_MAX) return dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Overflow: String length out of range");
  DrString *r = dr_new_string(vm, NULL, a->length + b->length);
  if (!r) return false;
  memcpy(r->chars, a->chars, sizeof(uint16_t) * (size_t)a->length);
  memcpy(r->chars + a->length, b->chars, sizeof(uint16_t) * (size_t)b->length);
  ret->ref = &r->hdr;
  return true;
}

static bool string_value_of_chars(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrArray *a = (const DrArray *)args[0].ref;
  if (!a) return dr_throw_npe_msg(vm, "Cannot read the array length because \"value\" is null");
  return ret_string(ret, dr_new_string(vm, DR_ARRAY_DATA(a), a->length));
}

static bool string_value_of_boolean(DrVM *vm, DrValue *args, DrValue *ret) {
  return ret_string(ret, dr_lib_literal(vm, args[0].i ? DR_LIT_TRUE : DR_LIT_FALSE));
}

static bool value_of(DrVM *vm, DrKind k, DrValue v, DrValue *ret) {
  DrBuf16 *b = &vm->scratch16;
  b->len = 0;
  dr_buf16_append_value(b, k, v);
  return ret_string(ret, dr_new_string(vm, b->data, b->len));
}

static bool string_value_of_char(DrVM *vm, DrValue *args, DrValue *ret) { return value_of(vm, DR_K_CHAR, args[0], ret); }
static bool string_value_of_int(DrVM *vm, DrValue *args, DrValue *ret) { return value_of(vm, DR_K_INT, args[0], ret); }
static bool string_value_of_long(DrVM *vm, DrValue *args, DrValue *ret) { return value_of(vm, DR_K_LONG, args[0], ret); }
static bool string_value_of_double(DrVM *vm, DrValue *args, DrValue *ret) { return value_of(vm, DR_K_DOUBLE, args[0], ret); }

/* --- StringBuilder: prelude fields `char[] value; int count;` --- */

static DrArray *sb_value(DrObj *sb) { return (DrArray *)dr_field(sb, "value")->ref; }
static int32_t sb_count(DrObj *sb) { return dr_field(sb, "count")->i; }
static uint16_t *sb_chars(DrObj *sb) { return DR_ARRAY_DATA(sb_value(sb)); }

/* Makes room for extra more chars, growing as the JDK does (to twice the
 * old capacity plus 2, or what is needed if that is more). */
static bool sb_reserve(DrVM *vm, DrObj *sb, int32_t extra) {
  DrArray *old = sb_value(sb);
  int32_t count = sb_count(sb);
  if ((int64_t)count + extra > INT32_MAX - 8) return dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
  int32_t need = count + extra;
  if (need <= old->length) return true;
  int64_t cap = (int64_t)old->length * 2 + 2;
  if (cap < need) cap = need;
  if (cap > INT32_MAX - 8) cap = INT32_MAX - 8;
  DrArray *grown = dr_new_array(vm, dr_prim_array_class(vm, DR_K_CHAR), (int32_t)cap);
  if (!grown) return false;
  old = sb_value(sb); /* sb is a native argument: still reachable, unmoved */
  memcpy(DR_ARRAY_DATA(grown), DR_ARRAY_DATA(old), sizeof(uint16_t) * (size_t)count);
  dr_field(sb, "value")->ref = &grown->hdr;
  return true;
}

/* Appends n units; u may point into a String among the native's
 * arguments (objects never move). */
static bool sb_append_units(DrVM *vm, DrValue *args, DrValue *ret, const uint16_t *u, int32_t n) {
  DrObj *sb = args[0].ref;
  if (!sb_reserve(vm, sb, n)) return false;
  int32_t count = sb_count(sb);
  memcpy(sb_chars(sb) + count, u, sizeof(uint16_t) * (size_t)n);
  dr_field(sb, "count")->i = count + n;
  ret->ref = sb;
  return true;
}

static bool sb_append_string(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = STR(args[1]);
  if (!s) {
    static const uint16_t null_text[] = {'n', 'u', 'l', 'l'};
    return sb_append_units(vm, args, ret, null_text, 4);
  }
  return sb_append_units(vm, args, ret, s->chars, s->length);
}

static bool sb_append_chars(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrArray *a = (const DrArray *)args[1].ref;
  if (!a) return dr_throw_npe_msg(vm, "Cannot read the array length because \"str\" is null");
  return sb_append_units(vm, args, ret, DR_ARRAY_DATA(a), a->length);
}

static bool sb_append_value(DrVM *vm, DrValue *args, DrValue *ret, DrKind k) {
  char text[40];
  int n;
  switch (k) {
  case DR_K_INT: n = dr_long_to_string(args[1].i, text); break;
  case DR_K_LONG: n = dr_long_to_string(args[1].j, text); break;
  case DR_K_DOUBLE: n = dr_double_to_string(args[1].d, text); break;
  default: n = (int)strlen(strcpy(text, args[1].i ? "true" : "false")); break;
  }
  uint16_t u[40];
  for (int i = 0; i < n; i++) u[i] = (uint16_t)text[i];
  return sb_append_units(vm, args, ret, u, n);
}

static bool sb_append_char(DrVM *vm, DrValue *args, DrValue *ret) {
  uint16_t c = (uint16_t)args[1].i;
  return sb_append_units(vm, args, ret, &c, 1);
}

static bool sb_append_int(DrVM *vm, DrValue *args, DrValue *ret) { return sb_append_value(vm, args, ret, DR_K_INT); }
static bool sb_append_long(DrVM *vm, DrValue *args, DrValue *ret) { return sb_append_value(vm, args, ret, DR_K_LONG); }
static bool sb_append_double(DrVM *vm, DrValue *args, DrValue *ret) { return sb_append_value(vm, args, ret, DR_K_DOUBLE); }
static bool sb_append_boolean(DrVM *vm, DrValue *args, DrValue *ret) { return sb_append_value(vm, args, ret, DR_K_BOOLEAN); }

static bool sb_insert_string(DrVM *vm, DrValue *args, DrValue *ret) {
  DrObj *sb = args[0].ref;
  int32_t offset = args[1].i, count = sb_count(sb);
  if (offset < 0 || offset > count) return dr_throw(vm, DR_WK_SIOOBE, "offset %d, length %d", offset, count);
  static const uint16_t null_text[] = {'n', 'u', 'l', 'l'};
  const DrString *s = STR(args[2]);
  const uint16_t *u = s ? s->chars : null_text;
  int32_t n = s ? s->length : 4;
  if (!sb_reserve(vm, sb, n)) return false;
  uint16_t *v = sb_chars(sb);
  memmove(v + offset + n, v + offset, sizeof(uint16_t) * (size_t)(count - offset));
  memcpy(v + offset, u, sizeof(uint16_t) * (size_t)n);
  dr_field(sb, "count")->i = count + n;
  ret->ref = sb;
  return true;
}

static bool sb_to_string(DrVM *vm, DrValue *args, DrValue *ret) {
  DrObj *sb = args[0].ref;
  return ret_string(ret, dr_lib_string(vm, sb_chars(sb), sb_count(sb)));
}

static bool sb_char_at(DrVM *vm, DrValue *args, DrValue *ret) {
  DrObj *sb = args[0].ref;
  int32_t i = args[1].i, count = sb_count(sb);
  if (i < 0 || i >= count) return dr_throw(vm, DR_WK_SIOOBE, "index %d, length %d", i, count);
  ret->i = sb_chars(sb)[i];
  return true;
}

/* Reverses chars, then turns surrogate pairs that came out backwards
 * (low, high) the right way round, as AbstractStringBuilder.reverse. */
static bool sb_reverse(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  DrObj *sb = args[0].ref;
  uint16_t *v = sb_chars(sb);
  int32_t n = sb_count(sb);
  bool surrogates = false;
  for (int32_t i = 0, j = n - 1; i < j; i++, j--) {
    uint16_t t = v[i];
    v[i] = v[j];
    v[j] = t;
    if ((v[i] >= 0xD800 && v[i] <= 0xDFFF) || (t >= 0xD800 && t <= 0xDFFF)) surrogates = true;
  }
  if (surrogates) {
    for (int32_t i = 0; i < n - 1; i++)
      if (is_low(v[i]) && is_high(v[i + 1])) {
        uint16_t t = v[i];
        v[i] = v[i + 1];
        v[++i] = t;
      }
  }
  ret->ref = sb;
  return true;
}

#define STRING_NATIVES(X)                                                     \
  X("java.lang.String", "length()", string_length)                            \
  X("java.lang.String", "charAt(int)", string_char_at)                        \
  X("java.lang.String", "equals(Object)", string_equals)                      \
  X("java.lang.String", "hashCode()", string_hash_code)                       \
  X("java.lang.String", "substring(int)", string_substring1)                  \
  X("java.lang.String", "substring(int,int)", string_substring2)              \
  X("java.lang.String", "indexOf(int)", string_index_of_c)                    \
  X("java.lang.String", "indexOf(int,int)", string_index_of_ci)               \
  X("java.lang.String", "indexOf(String)", string_index_of_s)                 \
  X("java.lang.String", "indexOf(String,int)", string_index_of_si)            \
  X("java.lang.String", "lastIndexOf(int)", string_last_index_of_c)           \
  X("java.lang.String", "lastIndexOf(String)", string_last_index_of_s)        \
  X("java.lang.String", "startsWith(String)", string_starts_with)             \
  X("java.lang.String", "endsWith(String)", string_ends_with)                 \
  X("java.lang.String", "compareTo(String)", string_compare_to)               \
  X("java.lang.String", "toUpperCase()", string_to_upper)                     \
  X("java.lang.String", "toLowerCase()", string_to_lower)                     \
  X("java.lang.String", "trim()", string_trim)                                \
  X("java.lang.String", "toCharArray()", string_to_char_array)                \
  X("java.lang.String", "concat(String)", string_concat)                      \
  X("java.lang.String", "valueOf(char[])", string_value_of_chars)             \
  X("java.lang.String", "valueOf(boolean)", string_value_of_boolean)          \
  X("java.lang.String", "valueOf(char)", string_value_of_char)                \
  X("java.lang.String", "valueOf(int)", string_value_of_int)                  \
  X("java.lang.String", "valueOf(long)", string_value_of_long)                \
  X("java.lang.String", "valueOf(double)", string_value_of_double)            \
  X("java.lang.StringBuilder", "append(String)", sb_append_string)            \
  X("java.lang.StringBuilder", "append(char[])", sb_append_chars)             \
  X("java.lang.StringBuilder", "append(char)", sb_append_char)                \
  X("java.lang.StringBuilder", "append(int)", sb_append_int)                  \
  X("java.lang.StringBuilder", "append(long)", sb_append_long)                \
  X("java.lang.StringBuilder", "append(double)", sb_append_double)            \
  X("java.lang.StringBuilder", "append(boolean)", sb_append_boolean)          \
  X("java.lang.StringBuilder", "insert(int,String)", sb_insert_string)        \
  X("java.lang.StringBuilder", "toString()", sb_to_string)                    \
  X("java.lang.StringBuilder", "charAt(int)", sb_char_at)                     \
  X("java.lang.StringBuilder", "reverse()", sb_reverse)

static const DrNativeEntry string_natives[] = {
#define DR_ROW(cls, desc, fn) {cls, desc, fn},
    STRING_NATIVES(DR_ROW)
#undef DR_ROW
};

DrNativeFn dr_natives_string_lookup(const char *cls, const char *desc) {
  return dr_natives_find(string_natives, DR_ARRAY_LEN(string_natives), cls, desc);
}
