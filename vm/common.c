/* Process-wide helpers with no VM state: allocation that cannot fail
 * silently, string duplication, whole-file reads, the panic path. */
#include "common.h"
#include "../include/drvm.h" /* DRVM_EXIT_MEMORY */

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

void dr_panic(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "drvm: internal error at %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

void *dr_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    fprintf(stderr, "drvm: out of memory (%zu bytes)\n", size);
    exit(DRVM_EXIT_MEMORY);
  }
  return q;
}

char *dr_strndup(const char *s, size_t n) {
  char *d = dr_xrealloc(NULL, n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *dr_strdup(const char *s) { return dr_strndup(s, strlen(s)); }

char *dr_read_file(const char *path, size_t *len_out) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  size_t cap = 4096, len = 0;
  char *buf = dr_xrealloc(NULL, cap);
  int err = 0;
  for (;;) {
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
    if (cap - len - 1 == 0) {
      /* an endless input (/dev/zero, a pipe that never ends) must not
       * take all memory: past the limit it is an error */
      if (cap >= DR_READ_MAX) {
        err = EFBIG;
        break;
      }
      cap *= 2;
      buf = dr_xrealloc(buf, cap);
    }
  }
  if (!err && ferror(f)) err = errno ? errno : EIO;
  fclose(f);
  if (err) {
    free(buf);
    errno = err;
    return NULL;
  }
  buf[len] = '\0';
  if (len_out) *len_out = len;
  return buf;
}
