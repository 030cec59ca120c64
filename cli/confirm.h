/* Confirming predicted races (`drvm run --detector wcp`): each race the
 * detector predicted for another order of the run is tried in new runs
 * steered by RaceFuzzer's postponement on its two statements, under
 * FastTrack; a run in which FastTrack reports the race on the same
 * location between the same two statements confirms it, and its
 * recording is the witness (docs/hunting.md §10). */
#ifndef DR_CLI_CONFIRM_H
#define DR_CLI_CONFIRM_H

#include "run.h"

typedef struct {
  char *location;          /* "Note.text", "int[]#1[2]" */
  char *field;             /* the pairs file's location: "Note.text", "int[]" */
  char *stmt, *prev_stmt;  /* "Class.method(params) pc line" */
} DrPrediction;

typedef struct {
  DrPrediction *items;
  int n, cap;
} DrPredictions;

/* The races vm's detector predicted (read before drvm_finish). */
void dr_predictions_collect(DrVM *vm, DrPredictions *out);
void dr_predictions_free(DrPredictions *p);

/* Tries each prediction in up to --confirm runs, printing each confirmed
 * race as FastTrack reports it (with the witness's replay command) and
 * each one not confirmed; *confirmed: how many were.  Returns 0, or a
 * usage error's status (a witness directory that cannot be made). */
int dr_confirm(const DrRun *r, const DrPredictions *p, int *confirmed);

#endif
