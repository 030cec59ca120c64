/* Text builders and String basics: DrBuf (UTF-8) and DrBuf16 (UTF-16)
 * builders that render values as Java does, UTF-8 <-> UTF-16 conversion,
 * String.hashCode and String.equals. */
#include "vm.h"

#include <string.h>

static bool is_high(uint16_t c) { return c >= 0xD800 && c <= 0xDBFF; }
static bool is_low(uint16_t c) { return c >= 0xDC00 && c <= 0xDFFF; }

/* UTF-16 -> UTF-8 as Java's encoder does it: pairs become one 4-byte
 * sequence, a lone surrogate becomes '?'. */
void dr_buf_append_utf16(DrBuf *b, const uint16_t *u, int32_t n) {
  dr_buf_reserve(b, (size_t)n * 3);
  char *p = b->data + b->len;
  for (int32_t i = 0; i < n; i++) {
    uint32_t c = u[i];
    if (c < 0x80) {
      *p++ = (char)c;
    } else if (c < 0x800) {
      *p++ = (char)(0xC0 | (c >> 6));
      *p++ = (char)(0x80 | (c & 0x3F));
    } else if (is_high((uint16_t)c) && i + 1 < n && is_low(u[i + 1])) {
      uint32_t cp = 0x10000 + ((c - 0xD800) << 10) + (u[++i] - 0xDC00u);
      *p++ = (char)(0xF0 | (cp >> 18));
      *p++ = (char)(0x80 | ((cp >> 12) & 0x3F));
      *p++ = (char)(0x80 | ((cp >> 6) & 0x3F));
      *p++ = (char)(0x80 | (cp & 0x3F));
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      *p++ = '?';
    } else {
      *p++ = (char)(0xE0 | (c >> 12));
      *p++ = (char)(0x80 | ((c >> 6) & 0x3F));
      *p++ = (char)(0x80 | (c & 0x3F));
    }
  }
  b->len = (size_t)(p - b->data);
  b->data[b->len] = '\0';
}

void dr_buf_append_jstring(DrBuf *b, const DrString *s) {
  if (!s) dr_buf_append_str(b, "null");
  else dr_buf_append_utf16(b, s->chars, s->length);
}

/* The ASCII text of a non-string, non-char value ("true", "-5", "1.0E7"). */
static int value_ascii(DrKind k, DrValue v, char *buf) {
  switch (k) {
  case DR_K_BOOLEAN:
    strcpy(buf, v.i ? "true" : "false");
    return v.i ? 4 : 5;
  case DR_K_BYTE:
  case DR_K_SHORT:
  case DR_K_INT: return dr_long_to_string(v.i, buf);
  case DR_K_FLOAT: return dr_float_to_string(v.f, buf);
  case DR_K_LONG: return dr_long_to_string(v.j, buf);
  case DR_K_DOUBLE: return dr_double_to_string(v.d, buf);
  default: UNREACHABLE();
  }
}

void dr_buf_append_value(DrBuf *b, DrKind k, DrValue v) {
  if (k == DR_K_REF) {
    dr_buf_append_jstring(b, (const DrString *)v.ref);
  } else if (k == DR_K_CHAR) {
    uint16_t c = (uint16_t)v.i;
    dr_buf_append_utf16(b, &c, 1);
  } else {
    char tmp[40];
    int n = value_ascii(k, v, tmp);
    dr_buf_append(b, tmp, (size_t)n);
  }
}

/* --- DrBuf16: UTF-16 units --- */

static void buf16_reserve(DrBuf16 *b, int32_t extra) {
  if ((int64_t)b->len + extra <= b->cap) return;
  int64_t cap = b->cap ? b->cap : 64;
  while (cap < (int64_t)b->len + extra) cap *= 2;
  if (cap > INT32_MAX) cap = INT32_MAX;
  b->data = dr_xrealloc(b->data, sizeof(uint16_t) * (size_t)cap);
  b->cap = (int32_t)cap;
}

void dr_buf16_append(DrBuf16 *b, const uint16_t *u, int32_t n) {
  buf16_reserve(b, n);
  if (n) memcpy(b->data + b->len, u, sizeof(uint16_t) * (size_t)n);
  b->len += n;
}

void dr_buf16_append_ascii(DrBuf16 *b, const char *s) {
  int32_t n = (int32_t)strlen(s);
  buf16_reserve(b, n);
  for (int32_t i = 0; i < n; i++) b->data[b->len + i] = (uint16_t)(unsigned char)s[i];
  b->len += n;
}

void dr_buf16_append_value(DrBuf16 *b, DrKind k, DrValue v) {
  if (k == DR_K_REF) {
    const DrString *s = (const DrString *)v.ref;
    if (s) dr_buf16_append(b, s->chars, s->length);
    else dr_buf16_append_ascii(b, "null");
  } else if (k == DR_K_CHAR) {
    uint16_t c = (uint16_t)v.i;
    dr_buf16_append(b, &c, 1);
  } else {
    char tmp[40];
    value_ascii(k, v, tmp);
    dr_buf16_append_ascii(b, tmp);
  }
}

void dr_buf16_free(DrBuf16 *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* --- strings --- */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when s starts a
 * malformed one; then *bad is the length of its maximal valid prefix,
 * which becomes one U+FFFD (the Unicode-recommended replacement, as
 * Java's decoder does). */
static int utf8_seq(const unsigned char *s, uint32_t *cp, int *bad) {
  unsigned c = s[0];
  int need;
  unsigned lo = 0x80, hi = 0xBF;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
    *cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    *cp = c & 0x0F;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F; /* no surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    *cp = c & 0x07;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    *bad = 1;
    return 0;
  }
  for (int i = 1; i <= need; i++) {
    unsigned t = s[i];
    if (t < lo || t > hi) {
      *bad = i;
      return 0;
    }
    lo = 0x80;
    hi = 0xBF;
    *cp = (*cp << 6) | (t & 0x3F);
  }
  return need + 1;
}

DrString *dr_new_string_utf8(DrVM *vm, const char *s) {
  size_t n = strlen(s);
  if (n > INT32_MAX / 2) {
    dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
    return NULL;
  }
  uint16_t small[256] = {0}; /* initialized: gcc cannot see len covers what is read */
  uint16_t *u = n <= DR_ARRAY_LEN(small) ? small : dr_xmalloc(sizeof(uint16_t) * n);
  int32_t len = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t cp;
    int bad = 0;
    int k = utf8_seq(p, &cp, &bad);
    if (k == 0) {
      u[len++] = 0xFFFD;
      p += bad;
    } else if (cp >= 0x10000) {
      u[len++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
      u[len++] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
      p += k;
    } else {
      u[len++] = (uint16_t)cp;
      p += k;
    }
  }
  DrString *str = dr_new_string(vm, u, len);
  if (u != small) free(u);
  return str;
}

int32_t dr_string_hash(DrString *s) {
  if (s->hash != 0) return s->hash;
  /* unsigned arithmetic: Java's int overflow wraps */
  uint32_t h = 0;
  for (int32_t i = 0; i < s->length; i++) h = 31 * h + s->chars[i];
  s->hash = (int32_t)h;
  return s->hash;
}

bool dr_string_equals(const DrString *a, const DrString *b) {
  if (a == b) return true;
  if (!a || !b || a->length != b->length) return false;
  return memcmp(a->chars, b->chars, sizeof(uint16_t) * (size_t)a->length) == 0;
}
