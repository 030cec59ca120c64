/* Compile errors are data: passes append to a DrDiagList and go on
 * (recovering where they can); the caller prints the list. */
#ifndef DR_DIAG_H
#define DR_DIAG_H

#include "ast.h"

typedef struct {
  const DrSource *src;
  int line, col;
  char *msg;
} DrDiag;

typedef struct {
  DrDiag *items;
  int count, cap;
  const DrSource *src; /* the source that dr_error reports against */
  int max_errors;      /* stop recording after this many (0 = 100) */
} DrDiagList;

void dr_diag_init(DrDiagList *d);
void dr_diag_free(DrDiagList *d);
/* Records "error: <fmt>" at pos in d->src.  An identical error at the
 * same position is recorded once. */
void dr_error(DrDiagList *d, DrPos pos, const char *fmt, ...) DR_PRINTF(3, 4);
/* Prints every error as `path:line:col: error: msg`, the source line and
 * a caret under the column, then "N error(s)". Errors are sorted by
 * position (stable), as a compiler user expects. */
void dr_diag_print(DrDiagList *d, FILE *out);
/* Sorts the errors by position (stable), as dr_diag_print shows them. */
void dr_diag_sort(DrDiagList *d);

#endif
