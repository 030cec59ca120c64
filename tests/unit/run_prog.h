/* Compiling and running a program inside a unit test: main with stdout (and,
 * if asked, stderr) captured into a temporary file.  A VM without a
 * scheduler gets the default one for the run. */
#ifndef DR_RUN_PROG_H
#define DR_RUN_PROG_H

#include <stdlib.h>
#include <string.h>

#include "../../compiler/compile.h"
#include "../../scheduler/sched.h"

/* Compiles text as source `name`; NULL after printing the errors. */
static inline DrClass *compile_text(DrVM *vm, const char *text, const char *name) {
  DrSource src = {name, text, strlen(text), NULL};
  DrDiagList d;
  dr_diag_init(&d);
  DrClass *c = dr_compile(vm, &src, &d);
  if (!c) dr_diag_print(&d, stderr);
  dr_diag_free(&d);
  return c;
}

static inline char *run_captured_io(DrVM *vm, DrClass *main, int *status, bool with_stderr) {
  FILE *f = tmpfile();
  *status = -1;
  if (!f) return calloc(1, 1);
  vm->out_file = f;
  if (with_stderr) vm->err_file = f;
  DrScheduler *own = NULL;
  if (!vm->sched) {
    DrSchedOptions so = {.seed = 0, .noise = -1};
    dr_vm_set_scheduler(vm, own = dr_sched_create("native", &so), 0);
  }
  *status = dr_run_main(vm, main, 0, NULL);
  if (own) {
    own->destroy(own);
    dr_vm_set_scheduler(vm, NULL, 0);
  }
  fflush(f);
  long n = ftell(f);
  rewind(f);
  char *buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
  if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = 0;
  fclose(f);
  return buf;
}

#endif
