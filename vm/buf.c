/* DrBuf: UTF-8 text built piece by piece. */
#include "buf.h"

#include <string.h>

void dr_buf_reserve(DrBuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = dr_xrealloc(b->data, cap);
  b->cap = cap;
}

/* Keeps data NUL-terminated, so a DrBuf can be used as a C string. */
void dr_buf_append(DrBuf *b, const char *s, size_t n) {
  dr_buf_reserve(b, n);
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void dr_buf_append_str(DrBuf *b, const char *s) { dr_buf_append(b, s, strlen(s)); }

void dr_buf_append_choices(DrBuf *b, const char *words, char sep) {
  for (const char *w = words; *w;) {
    const char *end = strchr(w, sep);
    size_t n = end ? (size_t)(end - w) : strlen(w);
    if (w != words) dr_buf_append_str(b, " or ");
    dr_buf_append(b, w, n);
    w += n + (end != NULL);
  }
}

void dr_buf_append_shell_arg(DrBuf *b, const char *a) {
  bool plain = *a != 0;
  for (const char *p = a; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-_./=:,+@%", *p)))
      plain = false;
  dr_buf_append_str(b, " ");
  if (plain) {
    dr_buf_append_str(b, a);
    return;
  }
  dr_buf_append_str(b, "'");
  for (const char *p = a; *p; p++) {
    if (*p == '\'') dr_buf_append_str(b, "'\\''");
    else dr_buf_append(b, p, 1);
  }
  dr_buf_append_str(b, "'");
}

void dr_buf_vprintf(DrBuf *b, const char *fmt, va_list ap) {
  /* one vsnprintf when the text fits in the room left, two when not */
  va_list again;
  va_copy(again, ap);
  dr_buf_reserve(b, 0);
  size_t room = b->cap - b->len;
  int n = vsnprintf(b->data + b->len, room, fmt, ap);
  if (n < 0) n = 0; /* an encoding error: nothing appended */
  if ((size_t)n >= room) {
    dr_buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
  }
  va_end(again);
  b->len += (size_t)n;
  b->data[b->len] = '\0';
}

void dr_buf_printf(DrBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  dr_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

char *dr_vfmt(const char *fmt, va_list ap) {
  DrBuf b = {0};
  dr_buf_vprintf(&b, fmt, ap);
  return b.data;
}

char *dr_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = dr_vfmt(fmt, ap);
  va_end(ap);
  return s;
}

/* the length of a UTF-8 sequence at s (2..4), or 0 if there is none */
static int utf8_len(const unsigned char *s) {
  int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
  for (int k = 1; k < n; k++)
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  return n;
}

void dr_buf_append_shown(DrBuf *b, const char *s, size_t max) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t shown = 0; *p && shown < max; shown++) {
    int n = *p >= 0x20 && *p < 0x7f ? 1 : utf8_len(p);
    if (n) dr_buf_append(b, (const char *)p, (size_t)n);
    else dr_buf_printf(b, "\\x%02X", *p);
    p += n ? n : 1;
  }
  if (*p) dr_buf_append_str(b, "...");
}
