/* `drvm run --replay REC --minimize[=OUT]` (minimize.c): a recording
 * shrunk to fewer preemptions that still show its race, exception or
 * deadlock. */
#ifndef DR_CLI_MINIMIZE_H
#define DR_CLI_MINIMIZE_H

#include "options.h"
#include "program.h"

/* Shrinks rec, a recording of o's program (text), writing the result to
 * --minimize's file (default REC.min.rec).  The exit status. */
int dr_minimize(const DrRunOpts *o, const char *rec, const DrProgFiles *files, uint64_t seed);

#endif
