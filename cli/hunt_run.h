/* `drvm hunt`'s runs and what they found: hunt_run.c starts the children
 * and reads their reports; hunt.c parses the options and prints. */
#ifndef DR_HUNT_RUN_H
#define DR_HUNT_RUN_H

#include "hunt_util.h"
#include "../vm/json.h"

enum { DR_HUNT_MAX_TECH = 8 };

typedef struct {
  uint64_t seed;
  int status, signo;  /* exit status (-1: killed by signo) */
  double cpu;         /* seconds of CPU */
  bool failed;        /* deadlock, step limit, signal */
  bool exception;     /* exit 1 or an uncaught exception in some thread */
  int nraces;         /* reports in the run */
  char *replay_cmd;   /* drvm run --replay ... */
  char *record;       /* its recording */
  char *seed_cmd;     /* drvm run --sched T --seed S ..., NULL for drfinder */
} DrHuntRun;

typedef struct {
  const char *name, *label;  /* "native", "FT" */
  DrHuntRun *runs;           /* runs[r - 1] for r = 1..N */
  int found, only, failed, exceptions;
  int *cumulative;           /* distinct races after run r, at r - 1 */
  double mean_seconds;
  /* drfinder: summed over the Phase II runs */
  long long suspensions, thrashings, escorts, reversals, giveups, restarts;
  double thrash_rate;
} DrHuntTech;

/* A distinct race: a field, or an array by its allocation site. */
typedef struct {
  char *key, *location;
  char *timeline;                   /* --timeline: the picture of its first witness */
  int first_run[DR_HUNT_MAX_TECH];  /* 0: this technique never found it */
  int runs_found[DR_HUNT_MAX_TECH];
  int last_run[DR_HUNT_MAX_TECH];   /* counts a run once however many reports */
} DrHuntRace;

typedef struct {
  DrHuntCommon c;
  DrHuntTech tech[DR_HUNT_MAX_TECH];
  int ntech;
  int depth, pct_depth;
  uint64_t pct_steps;
  bool pct_steps_given;
  const char *pct_steps_from;  /* where k came from, for the table */
  int nbase;
  double baseline;             /* mean CPU seconds of the plain runs */
  uint64_t base_points;
  double phase1_seconds;
  int phase1_relations;
  /* --phase1 detect: DrFinder's Phase I runs under FastTrack as its run 1
   * (false: a separate run that only collects relations, before run 1) */
  bool phase1_detect;
  /* drfinder's own scheduler options given to the hunt (--escorts...),
   * by option row, passed to every DrFinder run; NULL: not given */
  const char *drf_option[DR_RO__COUNT];
  DrHuntRace *races;
  int nraces, capraces;
  const char *timeline;        /* --timeline: each race's first witness drawn */
} DrHunt;

/* Runs everything and fills in the results; returns 0, or the exit status
 * after a message on stderr. */
int dr_hunt_execute(DrHunt *h);
void dr_hunt_free(DrHunt *h);

#endif
