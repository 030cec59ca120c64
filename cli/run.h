/* `drvm run`, `drvm check` and `drvm disasm`: a host of the library
 * (include/drvm.h).  run.c sets a VM up and runs it, restarting it when
 * asked to; run_report.c prints and writes what the command line shows
 * after a run. */
#ifndef DR_CLI_RUN_H
#define DR_CLI_RUN_H

#include "options.h"
#include "program.h"
#include "timeline.h"

/* argv[0] is the command ("run", "check" or "disasm").  Returns the exit
 * status. */
int dr_cmd_run(int argc, char **argv);

/* What run.c decided from the options, for the reports. */
typedef struct {
  DrRunOpts o;
  const char *cmd;
  const char *recording;  /* --replay or --replay-prefix FILE, else NULL */
  bool prefix;            /* it is --replay-prefix */
  uint64_t seed;          /* --seed, or drawn when running without a recording (else 0) */
  bool have_seed;         /* --seed was given */
  uint64_t then_seed;     /* --replay-prefix: the seed of the scheduler after the recording */
  int attempt;            /* restarts before this run (--restarts) */
  int restarts;           /* --restarts */
  int race_exit;          /* --race-exit-code */
  DrProgFiles files;      /* the program's files, read once */
  DrTimeline *tl;         /* --timeline: the run drawn (the last attempt's) */
} DrRun;

/* After a finished run: --stats, --sched-report, -v and the seed line.
 * Returns the exit status, status unless --sched-report failed. */
int dr_run_report(const DrRun *r, DrVM *vm, const DrvmResult *res, int status);

#endif
