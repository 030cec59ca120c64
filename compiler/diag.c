/* Diagnostics: collected as data, printed sorted by position in the
 * format compiler users know: path:line:col: error: msg, line, caret. */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

void dr_diag_init(DrDiagList *d) { memset(d, 0, sizeof(*d)); }

void dr_diag_free(DrDiagList *d) {
  for (int i = 0; i < d->count; i++) free(d->items[i].msg);
  free(d->items);
  memset(d, 0, sizeof(*d));
}

void dr_error(DrDiagList *d, DrPos pos, const char *fmt, ...) {
  int limit = d->max_errors ? d->max_errors : 100;
  if (d->count >= limit) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = dr_xrealloc(NULL, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  va_end(ap);
  for (int i = 0; i < d->count; i++) {
    DrDiag *o = &d->items[i];
    if (o->src == d->src && o->line == pos.line && o->col == pos.col && strcmp(o->msg, msg) == 0) {
      free(msg);
      return;
    }
  }
  DrDiag e = {d->src, pos.line, pos.col, msg};
  DR_PUSH(d->items, d->count, d->cap, e);
}

/* Files by path (the prelude's errors, without one, first), then by
 * position. */
static bool diag_after(const DrDiag *a, const DrDiag *b) {
  if (a->src != b->src) {
    const char *pa = a->src && a->src->path ? a->src->path : "";
    const char *pb = b->src && b->src->path ? b->src->path : "";
    return strcmp(pa, pb) > 0;
  }
  return a->line > b->line || (a->line == b->line && a->col > b->col);
}

/* Insertion sort: stable, and error lists are short. */
void dr_diag_sort(DrDiagList *d) {
  for (int i = 1; i < d->count; i++) {
    DrDiag x = d->items[i];
    int j = i - 1;
    while (j >= 0 && diag_after(&d->items[j], &x)) {
      d->items[j + 1] = d->items[j];
      j--;
    }
    d->items[j + 1] = x;
  }
}

enum { DIAG_WINDOW = 160 }; /* longer lines are shown around the column */

static const char *diag_char_start(const char *p, const char *lo) {
  while (p > lo && (*p & 0xC0) == 0x80) p--;
  return p;
}

static void diag_print_line(const DrSource *src, int line, int col, FILE *out) {
  if (!src || !src->text || line < 1) return;
  const char *p = src->text, *end = src->text + src->len;
  /* lines end at LF, CR or CRLF, as the lexer counts them (JLS 3.4) */
  for (int l = 1; l < line && p < end; p++) {
    if (*p == '\r' && p + 1 < end && p[1] == '\n') p++;
    if (*p == '\n' || *p == '\r') l++;
  }
  const char *e = p;
  while (e < end && *e != '\n' && *e != '\r') e++;
  /* the byte where the caret goes (columns count characters) */
  const char *at = p;
  for (int c = 1; at < e && c < col; at++)
    if (at + 1 >= e || (at[1] & 0xC0) != 0x80) c++;
  const char *from = p, *to = e;
  if (e - p > DIAG_WINDOW) {
    if (at - p > DIAG_WINDOW / 2) from = diag_char_start(at - DIAG_WINDOW / 2, p);
    if (e - from > DIAG_WINDOW) to = diag_char_start(from + DIAG_WINDOW, from);
  }
  fprintf(out, "%s%.*s%s\n", from > p ? "..." : "", (int)(to - from), from, to < e ? "..." : "");
  /* The caret keeps tabs so it lines up under the column in a terminal. */
  if (from > p) fputs("   ", out);
  for (const char *q = from; q < at && q < to; q++) {
    if ((*q & 0xC0) == 0x80) continue;
    fputc(*q == '\t' ? '\t' : ' ', out);
  }
  fputs("^\n", out);
}

void dr_diag_print(DrDiagList *d, FILE *out) {
  dr_diag_sort(d);
  for (int i = 0; i < d->count; i++) {
    DrDiag *e = &d->items[i];
    const char *path = e->src && e->src->path ? e->src->path : "<input>";
    fprintf(out, "%s:%d:%d: error: %s\n", path, e->line, e->col, e->msg);
    diag_print_line(e->src, e->line, e->col, out);
  }
  if (d->count) fprintf(out, "%d error%s\n", d->count, d->count == 1 ? "" : "s");
}
