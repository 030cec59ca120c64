/* The schedulers: their options, factories, deterministic randomness,
 * and record/replay.  The interface every scheduler implements, and
 * that the interpreter calls, is vm/sched_iface.h. */
#ifndef DR_SCHED_H
#define DR_SCHED_H

#include "../vm/registry.h"

/* --- deterministic randomness (sched_rng.c) --- */
typedef struct {
  uint64_t s[4];
} DrRng;
void dr_rng_seed(DrRng *r, uint64_t seed);
uint64_t dr_rng_next(DrRng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t dr_rng_below(DrRng *r, uint64_t n);
/* The choices most schedulers make alike: a random waiter for notify()
 * among n, and with --spurious-wakeups a random one of n waiting threads
 * now and then (one point in DR_SPURIOUS_ONE_IN), else -1. */
enum { DR_SPURIOUS_ONE_IN = 64 };
int dr_rng_waiter(DrRng *r, int n);
int dr_rng_spurious(DrRng *r, int n);

/* A JVM's run queue on one core (sched_runq.c): who has been ready
 * longest. */
typedef struct {
  uint64_t *stamp;  /* per thread id: when it became ready (or went to the back) */
  bool *ready;      /* per thread id: enabled at the last update */
  int cap;
  uint64_t clock, gen;
  bool seen;
} DrRunQueue;
/* Notes the threads that became ready since the last call (dr_rq_pick
 * calls it; a scheduler that picks otherwise at some points calls it
 * there too). */
void dr_rq_update(DrRunQueue *q, DrVM *vm);
/* The JVM's choice among the candidates c[0..n): cur goes on at an event;
 * when it blocks, is preempted or yields, the candidate ready longest
 * (cur, if it could go on, to the back). */
DrThread *dr_rq_pick(DrRunQueue *q, DrVM *vm, DrThread *cur, DrPickReason reason, DrThread *const *c, int n);
void dr_rq_free(DrRunQueue *q);
/* A scheduler's per-thread counter, by thread id, grown on demand and
 * zero until set. */
uint64_t *dr_sched_slot(uint64_t **arr, int *n, const DrThread *t);

/* --- the built-in schedulers (sched_basic.c) --- */
typedef struct {
  uint64_t seed;
  uint64_t quantum;        /* --quantum: rr's fixed quantum, native's and contest's mean; 0 = default */
  int depth;               /* pct: --depth, the bug depth d; 0 = default */
  uint64_t pct_steps;      /* pct: --pct-steps, the expected steps k; 0 = default */
  double noise;            /* contest: --noise p in [0, 1]; < 0 = default */
  const char *mtr_in;      /* drfinder: --mtr-in, may-trigger relations of a previous run (none: Phase I) */
  const char *mtr_out;     /* drfinder: --mtr-out, this run's relations (Algorithm 1) */
  const char *race_pairs;  /* racefuzzer: --race-pairs FILE, hybrid's --potential-races output */
  int pair;                /* racefuzzer: --pair N, the Nth pair of the file (1-based); 0 = all at once */
  int attempt;             /* 0, or how many times a deadlocked run was restarted before this one */
  int escorts;             /* drfinder: --escorts, candidates escorted in turn per suspension; 0 = default */
  int order;               /* drfinder: --order, a DrDrfOrder; 0 = default */
  int candidates;          /* drfinder: --candidates, a DrDrfCandidates; 0 = default */
  const char *rerun;       /* the command line that reruns this run, for messages: copy it, it is freed after creation; or NULL */
} DrSchedOptions;

/* drfinder's --order (registry.c's words, in this order): which of two
 * threads meeting at locks of one class DrFinder lets go first. */
typedef enum {
  DR_DRF_ORDER_GIVEN = 0, /* not given: DR_DRF_DEFAULT_ORDER */
  DR_DRF_ORDER_ARRIVAL,   /* the other one than this run's first arrival (the paper's reading) */
  DR_DRF_ORDER_PREVIOUS,  /* the other one than the run --mtr-in came from showed first */
} DrDrfOrder;
/* drfinder's --candidates: which threads may be escorted. */
typedef enum {
  DR_DRF_CAND_GIVEN = 0, /* not given: DR_DRF_DEFAULT_CANDIDATES */
  DR_DRF_CAND_LIVE,      /* alive, not in join() or wait(), current method with the relation */
  DR_DRF_CAND_ABLE,      /* also not blocked at a monitor, and with an acquisition still ahead */
} DrDrfCandidates;

enum {
  DR_DRF_DEFAULT_DEPTH = 12,
  DR_DRF_DEFAULT_ORDER = DR_DRF_ORDER_ARRIVAL,   /* measured: docs/hunting.md 9.1 */
  DR_DRF_DEFAULT_CANDIDATES = DR_DRF_CAND_LIVE,  /* measured: docs/hunting.md 9.1 */
  DR_DRF_DEFAULT_ESCORTS = 1,  /* the paper's one (measured: tests/hunting.py, docs/hunting.md 9.1) */
  DR_DRF_ESCORT_SLEEP_NS = 5 * 1000 * 1000, /* an escorted thread's sleep DrFinder waits out: 5 ms */
  DR_PCT_DEFAULT_DEPTH = 3,
  DR_PCT_DEFAULT_STEPS = 10000,
};
#define DR_CONTEST_DEFAULT_NOISE 0.2

/* A scheduler of the registry (registry.c) by name; NULL for an unknown
 * name. */
DrScheduler *dr_sched_create(const char *name, const DrSchedOptions *opt);
/* The factories the registry lists: sched_basic.c, sched_pct.c,
 * sched_contest.c, sched_drfinder.c, sched_racefuzzer.c */
DrScheduler *dr_sched_native_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_native_random_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_random_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_rr_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_pct_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_contest_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_drfinder_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_racefuzzer_create(const DrSchedOptions *opt);

/* Record and replay (sched_replay.c) are declared in vm/registry.h. */

#endif
