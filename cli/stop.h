/* SIGINT and SIGTERM during `drvm run` (stop.c): the program's output so
 * far is written, then drvm says "drvm: interrupted (SIGINT)" on stderr
 * and exits with 128 + the signal (130, 143), as a shell reports a
 * process the signal killed.  drvm exits itself rather than re-raising
 * the signal, so every parent (a shell, `drvm hunt`, a test) sees the
 * same status.  Also, an exit in the middle of a run (out of memory)
 * writes the program's output first. */
#ifndef DR_CLI_STOP_H
#define DR_CLI_STOP_H

#include "../include/drvm.h"

/* Catches SIGINT and SIGTERM (unless ignored, as in a background job),
 * and flushes the watched VM's output at exit. */
void dr_stop_install(void);
/* The VM a signal stops and an exit flushes (NULL: none).  While none is
 * watched no program output is pending: a signal ends drvm at once with
 * the same line and status; so does a second signal. */
void dr_stop_watch(DrVM *vm);
/* The signal that asked drvm to stop, 0 if none. */
int dr_stop_signal(void);
/* After a stopped run: says "drvm: interrupted (SIG...)" once and returns
 * the exit status, 128 + the signal. */
int dr_stop_exit(void);

#endif
