/* ConTest-style noise (Edelstein et al., IBM): the native scheduler, plus
 * at each synchronization event, with probability p (--noise), the
 * thread about to execute it is delayed: it yields and stays out of the
 * running for a random number of scheduling steps (1..DR_CONTEST_MAX_DELAY)
 * while the other threads go on, unless it is the only one that can run.
 * The noise reorders synchronization -- which lock a thread gets first --
 * where a plain run keeps the order its quanta give. */
#include "sched.h"

enum {
  DR_CONTEST_MAX_DELAY = 16,     /* scheduling steps */
  DR_CONTEST_MEAN_QUANTUM = 2000, /* as native */
};

typedef struct {
  DrScheduler base;
  DrRng rng;
  double noise;
  uint64_t quantum;
  uint64_t step;
  uint64_t *until;         /* by thread id: delayed until this step */
  int nuntil;
} Contest;

static uint64_t *until_of(Contest *c, const DrThread *t) { return dr_sched_slot(&c->until, &c->nuntil, t); }

/* a random enabled thread that is not delayed (any enabled one if all are) */
static DrThread *undelayed(Contest *c, DrVM *vm) {
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  int free_n = 0;
  for (int i = 0; i < n; i++) free_n += *until_of(c, en[i]) <= c->step;
  if (free_n == 0) return en[dr_rng_below(&c->rng, (uint64_t)n)];
  int k = (int)dr_rng_below(&c->rng, (uint64_t)free_n);
  for (int i = 0; i < n; i++)
    if (*until_of(c, en[i]) <= c->step && k-- == 0) return en[i];
  return en[0];
}

static bool coin(Contest *c) {
  /* p as a fraction of 2^32: no floating point in the decision */
  uint64_t threshold = (uint64_t)(c->noise * 4294967296.0);
  return (dr_rng_next(&c->rng) >> 32) < threshold;
}

static DrThread *contest_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Contest *c = (Contest *)s;
  c->step++;
  if (reason == DR_PICK_BLOCKED) return undelayed(c, vm);
  DrEventKind k = dr_sched_pending_kind(vm, cur);
  if (reason == DR_PICK_PREEMPT || k == DR_EV_YIELD || *until_of(c, cur) > c->step) return undelayed(c, vm);
  if ((dr_event_info[k].flags & DR_EVF_SYNC) && coin(c)) {
    *until_of(c, cur) = c->step + 1 + dr_rng_below(&c->rng, DR_CONTEST_MAX_DELAY);
    return undelayed(c, vm);
  }
  return cur;
}

static int contest_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  (void)vm;
  (void)lock;
  (void)waiters;
  return dr_rng_waiter(&((Contest *)s)->rng, n);
}

static uint64_t contest_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)vm;
  (void)t;
  Contest *c = (Contest *)s;
  return c->quantum / 2 + dr_rng_below(&c->rng, c->quantum) + 1;
}

static int contest_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  (void)vm;
  (void)waiting;
  return dr_rng_spurious(&((Contest *)s)->rng, n);
}

static void contest_destroy(DrScheduler *s) {
  Contest *c = (Contest *)s;
  free(c->until);
  free(c);
}

DrScheduler *dr_sched_contest_create(const DrSchedOptions *opt) {
  Contest *c = dr_xcalloc(1, sizeof *c);
  c->base.name = "contest";
  c->base.pick = contest_pick;
  c->base.pick_waiter = contest_pick_waiter;
  c->base.quantum = contest_quantum;
  c->base.spurious = contest_spurious;
  c->base.destroy = contest_destroy;
  dr_rng_seed(&c->rng, opt->seed);
  c->noise = opt->noise >= 0 ? opt->noise : DR_CONTEST_DEFAULT_NOISE;
  c->quantum = opt->quantum ? opt->quantum : DR_CONTEST_MEAN_QUANTUM;
  return &c->base;
}
