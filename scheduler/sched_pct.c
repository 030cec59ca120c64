/* PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi,
 * Nagarakatte, ASPLOS'10): every thread gets a random distinct priority
 * when it first shows up, the highest-priority enabled thread always
 * runs, and at d-1 change points, drawn uniformly over the k steps a run
 * is expected to take, the running thread drops to priority d-i (below
 * every initial one).  A bug of depth d is then found with probability
 * at least 1/(n k^(d-1)).
 *
 * A step is a scheduling point: every synchronization event, access, call
 * and return (the scheduler asks for all of them).  k comes from a
 * previous run (--pct-steps; `drvm run -v` prints a run's points).
 *
 * Two guards the paper's model does not need: yield() drops the thread
 * below every other (a spin-wait with yield must let the others run),
 * and a thread picked DR_PCT_SPIN times in a row while others could run
 * is dropped likewise (a spin-wait without yield would otherwise run
 * forever). */
#include "sched.h"

enum { DR_PCT_SPIN = 100000 };

/* Priorities, highest first: initial ones in [2^62, 2^63), random; then
 * DR_PCT_CHANGE_BASE + i for the thread demoted at change point k_i; then
 * the guards' drops, each below all before it (a yielding thread must let
 * even a demoted one run, or a ping-pong by yield spins forever). */
#define DR_PCT_CHANGE_BASE ((uint64_t)1 << 40)

typedef struct {
  DrScheduler base;
  DrRng rng;
  int depth;
  uint64_t k;
  /* the d-1 change points k_1..k_{d-1}, drawn independently; sorted by
   * step, each keeping its i: at k_i the running thread's priority
   * becomes i (the paper's d - i for a 0-based i is the same, permuted) */
  struct {
    uint64_t step;
    uint64_t i;
  } *change;
  int nchange, next_change;
  uint64_t step;
  uint64_t *prio;          /* by thread id; 0 = not seen yet */
  int nprio;
  uint64_t low;            /* the next priority given at a drop: decreasing */
  DrThread *last;
  uint64_t run_length;
} Pct;

static uint64_t *prio_of(Pct *p, const DrThread *t) {
  uint64_t *q = dr_sched_slot(&p->prio, &p->nprio, t);
  /* random 62-bit values are distinct but for a 2^-31 chance, and a tie
   * is broken by thread id */
  if (!*q) *q = ((uint64_t)1 << 62) | (dr_rng_next(&p->rng) >> 2);
  return q;
}

/* below every priority given so far */
static void drop(Pct *p, const DrThread *t) {
  *prio_of(p, t) = p->low > 1 ? --p->low : 1;
}

static DrThread *pct_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Pct *p = (Pct *)s;
  p->step++;
  if (reason != DR_PICK_BLOCKED) {
    if (p->next_change < p->nchange && p->step >= p->change[p->next_change].step) {
      *prio_of(p, cur) = DR_PCT_CHANGE_BASE + p->change[p->next_change].i;
      p->next_change++;
    } else if (dr_sched_pending_kind(vm, cur) == DR_EV_YIELD) {
      drop(p, cur);
    }
  }
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  DrThread *best = en[0];
  uint64_t bp = *prio_of(p, best);
  for (int i = 1; i < n; i++) {
    uint64_t q = *prio_of(p, en[i]);
    if (q > bp || (q == bp && en[i]->id < best->id)) {
      best = en[i];
      bp = q;
    }
  }
  if (best == p->last) {
    if (++p->run_length >= DR_PCT_SPIN && n > 1) {
      drop(p, best);
      p->run_length = 0;
      return pct_pick(s, vm, cur, DR_PICK_BLOCKED);
    }
  } else {
    p->last = best;
    p->run_length = 0;
  }
  return best;
}

static int pct_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  (void)vm;
  (void)lock;
  (void)waiters;
  return dr_rng_waiter(&((Pct *)s)->rng, n);
}

static uint64_t pct_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)s;
  (void)vm;
  (void)t;
  return 0; /* every point is a step: no preemption needed */
}

static int pct_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  (void)vm;
  (void)waiting;
  return dr_rng_spurious(&((Pct *)s)->rng, n);
}

static void pct_destroy(DrScheduler *s) {
  Pct *p = (Pct *)s;
  free(p->change);
  free(p->prio);
  free(p);
}

static int cmp_change(const void *a, const void *b) {
  const uint64_t *x = a, *y = b; /* {step, i}: by step, then i */
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

DrScheduler *dr_sched_pct_create(const DrSchedOptions *opt) {
  Pct *p = dr_xcalloc(1, sizeof *p);
  p->base.name = "pct";
  p->base.points = DR_SP_ACCESS | DR_SP_CALL;
  p->base.pick = pct_pick;
  p->base.pick_waiter = pct_pick_waiter;
  p->base.quantum = pct_quantum;
  p->base.spurious = pct_spurious;
  p->base.destroy = pct_destroy;
  dr_rng_seed(&p->rng, opt->seed);
  p->depth = opt->depth > 0 ? opt->depth : DR_PCT_DEFAULT_DEPTH;
  p->k = opt->pct_steps ? opt->pct_steps : DR_PCT_DEFAULT_STEPS;
  p->nchange = p->depth - 1;
  p->change = dr_xcalloc((size_t)p->nchange + 1, sizeof *p->change);
  for (int i = 0; i < p->nchange; i++) {
    p->change[i].step = 1 + dr_rng_below(&p->rng, p->k);
    p->change[i].i = (uint64_t)i + 1;
  }
  qsort(p->change, (size_t)p->nchange, sizeof *p->change, cmp_change);
  p->low = DR_PCT_CHANGE_BASE;
  return &p->base;
}
