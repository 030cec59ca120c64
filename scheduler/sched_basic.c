/* The basic schedulers.
 *
 *   native  a JVM on one core: the running thread keeps the CPU until it
 *           blocks, yields or its quantum (a seeded number of steps
 *           around the mean) runs out, and a thread it starts waits its
 *           turn; then the thread that has been ready longest runs (the
 *           run queue, sched_runq.c: first started first).  The seed
 *           varies the quanta and nothing else, so a plain run shows the
 *           usual order, and races hidden behind its lock edges stay
 *           hidden -- the order DrFinder reverses.  notify() wakes the
 *           longest waiting thread.
 *   native-random  the same quanta, but at a switch a random other thread
 *           runs and notify() wakes a random waiter: a sampler of orders.
 *   random  at every scheduling point -- synchronization, every access,
 *           call and return, every step -- a uniformly random enabled
 *           thread: the most interleavings per run.
 *   rr      round-robin in start order at every synchronization event and
 *           every `quantum` steps; no randomness at all.
 *
 * --spurious-wakeups wakes a random waiter now and then (but rr). */
#include <string.h>

#include "sched.h"

enum {
  DR_NATIVE_MEAN_QUANTUM = 2000, /* steps: roughly tens of microseconds of a JVM thread */
  DR_RR_QUANTUM = 100,
};

typedef enum { KIND_NATIVE, KIND_NATIVE_RANDOM, KIND_RANDOM, KIND_RR } Kind;

typedef struct {
  DrScheduler base;
  Kind kind;
  DrRng rng;
  uint64_t quantum;
  DrRunQueue rq;           /* native */
} Basic;


/* A uniformly random enabled thread other than avoid (unless it is the
 * only one).  Rejection sampling over all live threads keeps a point
 * O(1) when most of a thousand threads can run; after a few misses, one
 * scan.  Either way each candidate is equally likely. */
static DrThread *random_enabled(Basic *b, DrVM *vm, const DrThread *avoid) {
  DrThread *const *all;
  int nall = dr_sched_threads(vm, &all);
  for (int tries = 0; tries < 8 && nall > 1; tries++) {
    DrThread *t = all[dr_rng_below(&b->rng, (uint64_t)nall)];
    if (t != avoid && dr_sched_is_enabled(vm, t)) return t;
  }
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  if (avoid && n > 1) {
    int k = (int)dr_rng_below(&b->rng, (uint64_t)(n - 1));
    for (int i = 0; i < n; i++) {
      if (en[i] == avoid) continue;
      if (k-- == 0) return en[i];
    }
  }
  return en[dr_rng_below(&b->rng, (uint64_t)n)];
}

/* The next enabled thread after cur in start order, cyclically. */
static DrThread *next_enabled(DrVM *vm, const DrThread *cur) {
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  for (int i = 0; i < n; i++)
    if (en[i]->id > cur->id) return en[i];
  return en[0];
}

static bool is_yield(DrVM *vm, DrThread *cur) { return dr_sched_pending_kind(vm, cur) == DR_EV_YIELD; }

static DrThread *basic_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Basic *b = (Basic *)s;
  switch (b->kind) {
  case KIND_NATIVE: {
    DrThread *const *en;
    int n = dr_sched_enabled(vm, &en);
    return dr_rq_pick(&b->rq, vm, cur, reason, en, n);
  }
  case KIND_NATIVE_RANDOM:
    if (reason == DR_PICK_BLOCKED) return random_enabled(b, vm, NULL);
    if (reason == DR_PICK_PREEMPT || is_yield(vm, cur)) return random_enabled(b, vm, cur);
    return cur;
  case KIND_RANDOM: return random_enabled(b, vm, NULL);
  case KIND_RR: return next_enabled(vm, cur);
  }
  return cur;
}

static int basic_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  (void)vm;
  (void)lock;
  (void)waiters;
  Basic *b = (Basic *)s;
  /* native and rr: the longest waiting (waiters are in arrival order) */
  return b->kind == KIND_RR || b->kind == KIND_NATIVE ? 0 : dr_rng_waiter(&b->rng, n);
}

static uint64_t basic_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)vm;
  (void)t;
  Basic *b = (Basic *)s;
  switch (b->kind) {
  case KIND_NATIVE:
  case KIND_NATIVE_RANDOM: return b->quantum / 2 + dr_rng_below(&b->rng, b->quantum) + 1;
  case KIND_RANDOM: return 1 + dr_rng_below(&b->rng, b->quantum ? b->quantum : 1);
  case KIND_RR: return b->quantum;
  }
  return 0;
}

static int basic_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  (void)vm;
  (void)waiting;
  return dr_rng_spurious(&((Basic *)s)->rng, n);
}

static void basic_destroy(DrScheduler *s) {
  dr_rq_free(&((Basic *)s)->rq);
  free(s);
}

static DrScheduler *basic_create(Kind kind, const DrSchedOptions *opt) {
  Basic *b = dr_xcalloc(1, sizeof *b);
  b->kind = kind;
  static const char *const names[] = {"native", "native-random", "random", "rr"};
  b->base.name = names[kind];
  b->base.points = kind == KIND_RANDOM ? DR_SP_ACCESS | DR_SP_CALL : 0;
  b->base.pick = basic_pick;
  b->base.pick_waiter = basic_pick_waiter;
  b->base.quantum = basic_quantum;
  b->base.spurious = basic_spurious;
  b->base.destroy = basic_destroy;
  dr_rng_seed(&b->rng, opt->seed);
  b->quantum = opt->quantum;
  if (!b->quantum)
    b->quantum = kind == KIND_NATIVE || kind == KIND_NATIVE_RANDOM ? DR_NATIVE_MEAN_QUANTUM : kind == KIND_RR ? DR_RR_QUANTUM : 4;
  return &b->base;
}

DrScheduler *dr_sched_native_create(const DrSchedOptions *opt) { return basic_create(KIND_NATIVE, opt); }
DrScheduler *dr_sched_native_random_create(const DrSchedOptions *opt) { return basic_create(KIND_NATIVE_RANDOM, opt); }
DrScheduler *dr_sched_random_create(const DrSchedOptions *opt) { return basic_create(KIND_RANDOM, opt); }
DrScheduler *dr_sched_rr_create(const DrSchedOptions *opt) { return basic_create(KIND_RR, opt); }
