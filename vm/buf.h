/* DrBuf, a growable UTF-8 text buffer, and the text helpers every layer
 * shares (the VM, detectors, schedulers and the command line).  It needs
 * nothing of the VM. */
#ifndef DR_BUF_H
#define DR_BUF_H

#include <stdarg.h>

#include "common.h"

typedef struct {
  char *data; /* NUL-terminated once anything was appended */
  size_t len, cap;
} DrBuf;

/* Room for extra more bytes and the NUL. */
void dr_buf_reserve(DrBuf *b, size_t extra);
void dr_buf_append(DrBuf *b, const char *s, size_t n);
void dr_buf_append_str(DrBuf *b, const char *s);
/* Words separated by sep ("a|b|c", "hybrid wcp") as a person reads a
 * choice: "a or b or c". */
void dr_buf_append_choices(DrBuf *b, const char *words, char sep);
/* A space, then a for a POSIX shell: quoted unless plain characters only
 * (the command lines drvm prints for rerunning a run). */
void dr_buf_append_shell_arg(DrBuf *b, const char *a);
/* Appends printf output, growing as needed; data is a C string after it
 * even when the output is empty. */
void dr_buf_printf(DrBuf *b, const char *fmt, ...) DR_PRINTF(2, 3);
/* s as an error message may quote a line of a file: control characters
 * and bytes that are not UTF-8 as \xNN (a binary file must not reach the
 * terminal as is), at most max characters of s, then "..." */
void dr_buf_append_shown(DrBuf *b, const char *s, size_t max);
void dr_buf_vprintf(DrBuf *b, const char *fmt, va_list ap);

/* A malloc'd printf. */
char *dr_fmt(const char *fmt, ...) DR_PRINTF(1, 2);
char *dr_vfmt(const char *fmt, va_list ap);

#endif
