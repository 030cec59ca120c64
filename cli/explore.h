/* `drvm explore`: every interleaving of a small program (up to
 * equivalence), each distinct outcome and race with its shortest witness.
 * explore.c runs the exploration through the library (drvm_explore) and
 * gathers what the executions showed; explore_report.c prints it and
 * writes it as JSON.  The REPL's explore command uses the same session
 * from the position a person stepped to. */
#ifndef DR_CLI_EXPLORE_H
#define DR_CLI_EXPLORE_H

#include <signal.h>

#include "../vm/buf.h"
#include "../vm/json.h"
#include "options.h"

int dr_cmd_explore(int argc, char **argv);

/* A distinct outcome: what the program printed and how it ended. */
typedef struct {
  char *out, *err;          /* stdout, stderr (race reports are not printed while exploring) */
  DrvmOutcome kind;         /* NORMAL, EXIT, EXCEPTION, DEADLOCK, STEP_LIMIT */
  int status;               /* the program's own exit status (0 for a normal end) */
  int uncaught;             /* threads an exception escaped from (main's included) */
  uint64_t hash;
  uint64_t count;           /* executions that reached it */
  int preemptions;          /* its witness's */
  uint64_t decisions;
  char *witness;            /* the witness recording's path */
  char *timeline;           /* --timeline: its witness drawn (a file), or NULL */
} ExOutcome;

/* A distinct data race: a location and the two places that race on it. */
typedef struct {
  char *key, *location, *text;
  uint64_t count;           /* executions in which it occurs */
  int preemptions;
  uint64_t decisions;
  char *witness;
  char *timeline;
  uint64_t seen_in;         /* the last execution it was counted in */
} ExRace;

typedef struct Explore {
  /* given */
  const char *prog;         /* the program's (first) file, as given */
  char *prog_words;         /* all of them, as a command names them (dr_prog_words) */
  char *const *args;
  int nargs;
  DrvmExploreConfig cfg;
  uint64_t seed;            /* of new Random() */
  const char *dir;          /* where witnesses go */
  uint64_t max_executions;  /* 0: none */
  double time_limit;        /* seconds, 0: none */
  bool progress;            /* a progress line on stderr */
  volatile sig_atomic_t *stop; /* set (Ctrl-C): stop after the execution under way; may be NULL */
  FILE *fingerprints;       /* each execution's trace fingerprint, or NULL */
  const struct DrGoal *goal;/* a challenge's goal (goal.h), reported after the rest; NULL: none */
  /* found */
  DrvmExploreStats st;
  ExOutcome *outs;
  int nouts, outs_cap;
  ExRace *races;
  int nraces, races_cap;
  double seconds;
  const char *stopped_by;   /* the option that stopped the search early, or NULL */
  char error[512];          /* what went wrong, when explore_run returns false */
  /* the execution under way */
  DrBuf out, err;
} Explore;

/* A VM for x (not compiled yet): o's limits and libraries, x's seed,
 * its output captured for the outcomes.  NULL with a message in err. */
DrVM *explore_new_vm(Explore *x, const DrRunOpts *o, char *err, size_t errsize);
/* Explores with vm (explore_new_vm's, compiled).  false: an error, in
 * x->error. */
bool explore_run(Explore *x, DrVM *vm);
void explore_free(Explore *x);

/* explore_report.c */
void explore_print(const Explore *x, FILE *out);
bool explore_write_json(const Explore *x, const char *path, char *err, size_t errsize);
/* drvm explore's exit status for what was found. */
int explore_status(const Explore *x);
/* goal_explore.c: whether x->goal is reachable, and its shortest witness */
void goal_explore_print(const Explore *x, FILE *out);
void goal_explore_json(const Explore *x, DrJsonW *w);
/* "drvm run --replay W prog args" for a witness (malloc'd). */
char *explore_replay_command(const Explore *x, const char *witness);

#endif
