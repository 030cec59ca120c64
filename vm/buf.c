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
