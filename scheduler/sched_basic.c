/* The three basic schedulers.
 *
 *   native  like an OS scheduler: the running thread keeps the CPU until
 *           it blocks, yields or its quantum (a random number of steps
 *           around the mean) runs out; then a random other thread runs.
 *           Synchronization alone never switches, so a plain run looks
 *           like a JVM's, and races hidden behind lock edges stay hidden.
 *   random  at every scheduling point -- synchronization, every access,
 *           call and return, every step -- a uniformly random enabled
 *           thread: the most interleavings per run.
 *   rr      round-robin in start order at every synchronization event and
 *           every `quantum` steps; no randomness at all.
 *
 * notify() wakes a random waiter (native, random) or the longest waiting
 * one (rr); --spurious-wakeups wakes a random waiter now and then. */
#include <string.h>

#include "sched.h"

enum {
  DR_NATIVE_MEAN_QUANTUM = 2000, /* steps: roughly tens of microseconds of a JVM thread */
  DR_RR_QUANTUM = 100,
};

typedef enum { KIND_NATIVE, KIND_RANDOM, KIND_RR } Kind;

typedef struct {
  DrScheduler base;
  Kind kind;
  DrRng rng;
  uint64_t quantum;
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
  case KIND_NATIVE:
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
  return b->kind == KIND_RR ? 0 : dr_rng_waiter(&b->rng, n);
}

static uint64_t basic_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)vm;
  (void)t;
  Basic *b = (Basic *)s;
  switch (b->kind) {
  case KIND_NATIVE: return b->quantum / 2 + dr_rng_below(&b->rng, b->quantum) + 1;
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

static void basic_destroy(DrScheduler *s) { free(s); }

static DrScheduler *basic_create(Kind kind, const DrSchedOptions *opt) {
  Basic *b = dr_xcalloc(1, sizeof *b);
  b->kind = kind;
  b->base.name = kind == KIND_NATIVE ? "native" : kind == KIND_RANDOM ? "random" : "rr";
  b->base.points = kind == KIND_RANDOM ? DR_SP_ACCESS | DR_SP_CALL : 0;
  b->base.pick = basic_pick;
  b->base.pick_waiter = basic_pick_waiter;
  b->base.quantum = basic_quantum;
  b->base.spurious = basic_spurious;
  b->base.destroy = basic_destroy;
  dr_rng_seed(&b->rng, opt->seed);
  b->quantum = opt->quantum;
  if (!b->quantum) b->quantum = kind == KIND_NATIVE ? DR_NATIVE_MEAN_QUANTUM : kind == KIND_RR ? DR_RR_QUANTUM : 4;
  return &b->base;
}

DrScheduler *dr_sched_native_create(const DrSchedOptions *opt) { return basic_create(KIND_NATIVE, opt); }
DrScheduler *dr_sched_random_create(const DrSchedOptions *opt) { return basic_create(KIND_RANDOM, opt); }
DrScheduler *dr_sched_rr_create(const DrSchedOptions *opt) { return basic_create(KIND_RR, opt); }
