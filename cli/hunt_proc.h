/* Running `drvm run` children for the drivers: fork + exec, several at
 * once, each timed by its own CPU time. */
#ifndef DR_HUNT_PROC_H
#define DR_HUNT_PROC_H

#include "../vm/common.h"

typedef struct DrHuntJob {
  char **argv;      /* NULL-terminated; argv[0] is shown, the exe is run */
  char *log;        /* the child's stderr goes to this file */
  int after;        /* index of a job that must end before this one starts, or -1 */
  /* called just before the job starts (its `after` job has ended), to
   * adjust argv from what earlier jobs left; may be NULL */
  void (*prepare)(struct DrHuntJob *jobs, int index, void *ctx);
  void *ctx;
  /* filled in as it runs */
  bool started, done;
  int status;       /* exit status, or -1 when a signal killed it */
  int signo;        /* the signal that killed it */
  double cpu_seconds; /* user + system time of the child alone */
} DrHuntJob;

/* The drvm executable to run children with: /proc/self/exe, since argv0
 * may be a relative name or found on the PATH.  Malloc'd. */
char *dr_hunt_self_exe(const char *argv0);

/* Runs the n jobs, at most parallel at once.  Returns -1 when every job
 * ran; else the index of a job whose child reported a usage or compile
 * error (exit 2 or 3) or could not be started (127): no more jobs start,
 * the running ones are waited for.  label names the batch in the progress
 * line shown on a terminal's stderr. */
int dr_hunt_run_jobs(const char *exe, DrHuntJob *jobs, int n, int parallel, const char *label);

/* Frees a job's argv (every string) and log. */
void dr_hunt_job_free(DrHuntJob *job);

/* Prints the first lines of a child's log to stderr, indented. */
void dr_hunt_show_log(const char *path);

#endif
