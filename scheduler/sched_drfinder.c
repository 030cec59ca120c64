/* DrFinder (Cai & Cao, "Effective and Precise Dynamic Detection of Hidden
 * Races for Java Programs", FSE'15), Sections 4-5.
 *
 * A race hidden by a happens-before edge e1 -> e9 (t1 releases lock k,
 * t3 acquires a lock of k's class later) shows only if t3 gets there
 * first.  DrFinder predicts who may: Phase I (Algorithm 1) records
 * mt(f, c) for the top d methods f on a thread's stack whenever it
 * acquires a lock of class c.  Phase II (Algorithms 2-3) suspends a
 * thread t about to acquire o; if another thread t' is now in a method f
 * with mt(f, type(o)), DrFinder escorts t' with top priority until it
 * acquires a lock of type(o), then lets t acquire o: the edge reversed.
 * Every Phase II run also collects relations afresh, the feedback for
 * the next run (--mtr-in / --mtr-out; `drvm hunt` chains them).
 *
 * Without --mtr-in a run is Phase I: the random scheduler plus the
 * collector (Algorithm 1 line 6).  With it, Phase II, whose base choice is
 * the native scheduler's: the running thread keeps going until its
 * quantum runs out or it blocks, then the thread ready longest runs (a
 * JVM's run queue on one core, sched_runq.c).  Algorithm 2 line 8 draws "a random
 * thread from Enabled", the nondeterminism of the JVM's scheduler on
 * which the paper ran (Section 6.1; FT, the baseline, ran under it too).
 * The choice matters: DrFinder suspends the thread that arrives first at
 * a lock, so it reverses the order the base scheduler would produce.
 * With native quanta that is the order a plain run shows and hides races
 * behind; with a random thread at every point it is random's order, and
 * on tests/races' hidden-race programs DrFinder then found fewer races
 * than plain native runs (165 vs 209 of 420 race-runs, 2 seeds x 10
 * runs; with the native base 223).
 *
 * The scheduler thread of Algorithm 3 runs here at once whenever it is
 * notified (a suspension, an expected acquisition): this VM has one OS
 * thread, and the notification is the only thing that wakes it.
 *
 * Algorithm 3's listing has three slips; this follows the paper's prose
 * (Section 5.3) instead:
 *  - line 33 draws t from ATHs, all threads; only a suspended thread has
 *    a requested lock for mayTrigger (line 22) to read: t is drawn from
 *    RTHs;
 *  - line 43 sets allowedLK := RTHs.get(t'); the prose says the lock o
 *    that t requested (t' is expected to acquire a lock of o's type);
 *  - line 53 removes t' from RTHs where t is meant (t is the thread let
 *    go at lines 51-54).
 *
 * What the paper leaves to the implementation (Section 5.4): thrashing --
 * every runnable thread suspended -- resumes a random suspended thread;
 * a deadlock DrFinder may have caused (an escort under way, or a thread
 * in it that DrFinder held back or escorted) restarts the run (cli/run.c
 * via the scheduler option attempt=N, DrSchedOptions.attempt), while one
 * among threads DrFinder never touched is the program's own and is
 * reported; an escort whose acquisition does not come within
 * DR_DRF_ESCORT_POINTS scheduling points, or whose thread ends, is given
 * up and t goes on.  Choices the paper leaves open are options, measured
 * on tests/races' hidden-race programs (docs/hunting.md 9.1): --escorts
 * (how many candidates per suspension), --order (whose order is reversed:
 * this run's arrival, or the previous run's, which makes a feedback chain
 * alternate), --candidates (whether a thread with no acquisition left
 * ahead is escorted).
 *
 * Like the paper's tool, which does not instrument the standard library,
 * DrFinder neither sees nor suspends acquisitions in the built-in
 * library.  Reentrant acquisitions (the thread holds the lock already) are
 * collected, as Algorithm 1 takes every acquisition event, but order
 * nothing: they are neither suspended nor the acquisition an escort
 * waits for. */
#include <string.h>

#include "../vm/json.h"
#include "sched.h"
#include "sched_mtr.h"

/* An escort is given up after this many scheduling points.  A point is
 * an access, a call or a synchronization; the papers' examples reach the
 * expected acquisition within a few thousand, and a thread that has not
 * after 100,000 is unlikely to, while the suspended thread waits. */
enum { DR_DRF_ESCORT_POINTS = 100000 };

typedef enum {
  ALLOW_NONE,
  ALLOW_ESCORT, /* allowed = t', escorted until it acquires a lock of class allowed_cls, for waiter */
  ALLOW_GRANT,  /* allowed = t, let acquire its requested lock (of class allowed_cls) */
} AllowMode;

typedef struct {
  DrScheduler base;
  DrRng rng;
  DrRunQueue rq;           /* Phase II: native's run queue */
  int depth;
  bool phase2;
  const char *mtr_in, *mtr_out;
  DrMtr mtr;     /* MTR: from the previous run */
  DrMtr fresh;   /* MTR': this run's, for the next */
  DrMtrAhead ahead; /* --candidates able: where acquisitions are still ahead */
  int unknown;   /* --mtr-in relations naming what this program lacks */
  int attempt;
  uint64_t quantum;

  /* RTHs: by thread id, the class of the lock requested while suspended
   * (NULL: not suspended); nsusp of them */
  uint64_t *susp; /* DrClass * as integers, through dr_sched_slot */
  int nsusp_slots, nsusp;

  AllowMode mode;
  DrThread *allowed;      /* allowedTH */
  const DrClass *allowed_cls; /* type(allowedLK) */
  DrThread *waiter;       /* ALLOW_ESCORT: the suspended thread t the escort serves */
  int escorts_max;        /* --escorts: candidates escorted in turn per suspension */
  DrDrfOrder order;       /* --order: whose order is reversed */
  DrDrfCandidates candidates; /* --candidates: who may be escorted */
  int *next_cand;         /* ALLOW_ESCORT: the candidates still to escort (thread ids) */
  int nnext, next_cap;
  uint64_t escort_from;   /* step the escort began */
  uint64_t step;
  /* by thread id: nonzero once DrFinder held it back (suspended while
   * another thread ran) or escorted it, the threads whose deadlock
   * DrFinder may have caused */
  uint64_t *held;
  int nheld_slots;

  /* statistics (--stats, --sched-report) */
  uint64_t acquisitions, suspensions, escorts, reversals, no_candidate, thrashings, giveups;
  uint64_t unable;        /* --candidates able: candidates skipped, blocked or with no acquisition ahead */
  uint64_t kept_order;    /* --order previous: candidates not escorted, the previous run having had them first */
  DrThread **scratch;
  int scratch_cap;
} Drf;

static const DrClass *susp_cls(Drf *d, const DrThread *t) {
  return (const DrClass *)(uintptr_t)*dr_sched_slot(&d->susp, &d->nsusp_slots, t);
}

static void set_susp(Drf *d, const DrThread *t, const DrClass *c) {
  uint64_t *slot = dr_sched_slot(&d->susp, &d->nsusp_slots, t);
  d->nsusp += (c != NULL) - (*slot != 0);
  *slot = (uint64_t)(uintptr_t)c;
}

static DrThread **scratch(Drf *d, int n) {
  if (n > d->scratch_cap) {
    d->scratch_cap = n * 2;
    d->scratch = dr_xrealloc(d->scratch, sizeof *d->scratch * (size_t)d->scratch_cap);
  }
  return d->scratch;
}

/* The lock t's pending event acquires, if it is an acquisition DrFinder
 * observes: not in the built-in library.  *reentrant: t holds it already. */
static DrObj *observed_acquisition(DrVM *vm, DrThread *t, bool *reentrant) {
  *reentrant = false;
  if (dr_sched_pending_kind(vm, t) != DR_EV_ACQUIRE) return NULL;
  const DrFrame *top = &t->frames[t->nframes - 1];
  if (top->method->owner->flags & DR_CLS_BUILTIN) return NULL;
  DrEvent ev;
  dr_sched_pending(vm, t, &ev);
  if (!ev.obj) return NULL; /* synchronized (null): throws, acquires nothing */
  for (int i = 0; i < t->nheld && !*reentrant; i++) *reentrant = t->held[i].obj == ev.obj;
  return ev.obj;
}

/* An acquisition DrFinder may suspend: observed and not reentrant (a
 * reentrant one orders nothing, and holding back a thread that holds the
 * lock would only stall the threads an escort waits for). */
static DrObj *suspendable(DrVM *vm, DrThread *t) {
  bool reentrant;
  DrObj *o = observed_acquisition(vm, t, &reentrant);
  return reentrant ? NULL : o;
}

static void mark_held(Drf *d, const DrThread *t) { *dr_sched_slot(&d->held, &d->nheld_slots, t) = 1; }

/* Algorithm 3, lines 51-54: suspended t is let acquire its lock (of class
 * c) next, with top priority. */
static void let_go(Drf *d, DrThread *t, const DrClass *c) {
  set_susp(d, t, NULL);
  d->nnext = 0;
  d->mode = ALLOW_GRANT;
  d->allowed = t;
  d->allowed_cls = c;
  d->waiter = NULL;
}

/* --candidates able: t' blocked at a monitor that a suspended thread
 * holds: only thrashing would free it. */
static bool blocked_by_suspended(Drf *d, const DrThread *tp) {
  if (tp->state != DR_TS_BLOCKED || !tp->monitor || !tp->monitor->monitor) return false;
  const DrThread *owner = tp->monitor->monitor->owner;
  return owner && susp_cls(d, owner);
}

/* Whether t' may trigger a lock of class c now (mayTrigger): alive, not
 * stuck waiting for another thread (a join, a wait: an escort would only
 * thrash), and in a method with mt(f, c).  With --candidates able, also
 * not blocked behind a suspended thread, and with an acquisition still
 * ahead in its code: a thread past its last one satisfies the relation of
 * its current method, yet an escort of it can only end in a give-up. */
static bool may_trigger(Drf *d, DrVM *vm, const DrThread *tp, const DrClass *c) {
  if (tp->state == DR_TS_ENDED || tp->state == DR_TS_JOINING || tp->state == DR_TS_WAITING) return false;
  const DrMethod *f = dr_mtr_current(tp);
  if (!f || !dr_mtr_has(&d->mtr, f, c)) return false;
  if (d->candidates != DR_DRF_CAND_ABLE) return true;
  if (blocked_by_suspended(d, tp) || !dr_mtr_ahead(&d->ahead, &d->mtr, vm, tp)) {
    d->unable++;
    return false;
  }
  return true;
}

/* --order previous: whether escorting t' ahead of t reverses the order
 * the previous run showed.  Each side's place in that run is the first
 * acquisition of a c lock under its current method; the first there goes
 * second here.  With no way to tell (the same method, a relation the
 * previous run did not number), t' is escorted, as --order arrival does. */
static bool reverses_previous(Drf *d, const DrThread *t, const DrThread *tp, const DrClass *c) {
  if (d->order != DR_DRF_ORDER_PREVIOUS) return true;
  const DrMethod *ft = dr_mtr_current(t), *fp = dr_mtr_current(tp);
  uint64_t at = ft ? dr_mtr_first(&d->mtr, ft, c) : 0, ap = fp ? dr_mtr_first(&d->mtr, fp, c) : 0;
  if (!at || !ap || ap >= at) return true;
  d->kept_order++;
  return false;
}

/* t' is a candidate to escort for suspended t, requesting a lock of class c. */
static bool candidate(Drf *d, DrVM *vm, const DrThread *t, const DrThread *tp, const DrClass *c) {
  return tp != t && may_trigger(d, vm, tp, c) && reverses_previous(d, t, tp, c);
}

/* Escorts t' with top priority until it acquires a lock of class c, for t
 * (lines 41-49). */
static void escort(Drf *d, DrThread *tp, DrThread *t, const DrClass *c) {
  d->escorts++;
  mark_held(d, tp);
  d->mode = ALLOW_ESCORT;
  d->allowed = tp;
  d->allowed_cls = c;
  d->waiter = t;
  d->escort_from = d->step;
  if (susp_cls(d, tp)) set_susp(d, tp, NULL); /* lines 44-46 */
}

/* Algorithm 3, lines 31-55, one round: take a random suspended thread t
 * and escort a thread that may trigger a lock of t's requested type, or,
 * with no candidate, let t acquire its lock. */
static void schedule_round(Drf *d, DrVM *vm) {
  DrThread *const *all;
  int n = dr_sched_threads(vm, &all);
  DrThread **s = scratch(d, n);
  int ns = 0;
  for (int i = 0; i < n; i++)
    if (susp_cls(d, all[i])) s[ns++] = all[i];
  if (!ns) UNREACHABLE(); /* nsusp counts them, and a thread at an acquisition cannot end */
  DrThread *t = s[dr_rng_below(&d->rng, (uint64_t)ns)];
  const DrClass *c = susp_cls(d, t);
  int nc = 0;
  for (int i = 0; i < n; i++) /* CT: mayTrigger(t, t') */
    if (candidate(d, vm, t, all[i], c)) s[nc++] = all[i];
  if (nc) {
    /* a random one first, then (--escorts) the others in start order */
    int first = (int)dr_rng_below(&d->rng, (uint64_t)nc);
    d->nnext = 0;
    for (int k = 1; k < nc && k < d->escorts_max; k++) {
      int id = s[(first + k) % nc]->id;
      DR_PUSH(d->next_cand, d->nnext, d->next_cap, id);
    }
    escort(d, s[first], t, c);
    return;
  }
  d->no_candidate++;
  let_go(d, t, c);
}

/* After an escort: the next candidate that may still trigger c, else t
 * goes (lines 51-54). */
static void escort_next(Drf *d, DrVM *vm) {
  DrThread *t = d->waiter;
  const DrClass *c = d->allowed_cls;
  while (d->nnext > 0) {
    int id = d->next_cand[0];
    memmove(d->next_cand, d->next_cand + 1, sizeof *d->next_cand * (size_t)(--d->nnext));
    DrThread *tp = id < vm->nall_threads ? vm->all_threads[id] : NULL;
    if (tp && candidate(d, vm, t, tp, c)) {
      escort(d, tp, t, c);
      return;
    }
  }
  let_go(d, t, c);
}

/* lockAcquired (lines 15-20), then the scheduler's wake-up: after an
 * escort, t goes (lines 51-54); after t's grant, the next round. */
static void lock_acquired(Drf *d, DrVM *vm, DrThread *t, const DrClass *c) {
  if (d->allowed != t || d->allowed_cls != c) return;
  if (d->mode == ALLOW_ESCORT) {
    d->reversals++;
    escort_next(d, vm); /* the waiter requested a lock of this class too */
    return;
  }
  d->mode = ALLOW_NONE;
  d->allowed = NULL;
  d->allowed_cls = NULL;
}

/* The escort cannot end as planned: its thread ended or did not acquire
 * within the bound.  The next candidate, or the waiter goes. */
static void give_up(Drf *d, DrVM *vm) {
  d->giveups++;
  escort_next(d, vm);
}

/* t runs: its acquisition, if any, is collected (Algorithm 1 takes every
 * acquisition, reentrant ones too, as the paper's event model has them);
 * the threads still suspended are held back by it. */
static DrThread *granted(Drf *d, DrVM *vm, DrThread *t) {
  bool reentrant;
  DrObj *o = observed_acquisition(vm, t, &reentrant);
  if (o) {
    d->acquisitions++;
    dr_mtr_collect(&d->fresh, t, o->cls, d->depth, d->acquisitions);
    /* an escort waits for an edge, and a reentrant acquisition makes none */
    if (d->phase2 && !reentrant) lock_acquired(d, vm, t, o->cls);
  }
  if (d->nsusp > 0) {
    DrThread *const *all;
    int n = dr_sched_threads(vm, &all);
    for (int i = 0; i < n; i++)
      if (susp_cls(d, all[i])) mark_held(d, all[i]);
  }
  return t;
}

/* The thread to run among the candidates c[0..n) (enabled, not
 * suspended), as the base scheduler would choose it. */
static DrThread *base_choice(Drf *d, DrVM *vm, DrThread *cur, DrPickReason reason, DrThread **c, int n) {
  if (d->phase2) return dr_rq_pick(&d->rq, vm, cur, reason, c, n); /* native's (see the top of the file) */
  return c[dr_rng_below(&d->rng, (uint64_t)n)];
}

/* The escorted thread sleeps (a timed sleep, wait or join) and wakes
 * soon: DR_DRF_ESCORT_SLEEP_NS of virtual time at most.  Time passes for
 * it while the others wait at their locks, as it would on a JVM; a longer
 * sleep is given up like an escort that takes too long, so that DrFinder
 * does not hold threads back for what a program means as a long pause. */
static bool escort_sleeps_briefly(Drf *d, DrVM *vm) {
  if (d->mode != ALLOW_ESCORT || !d->allowed || d->allowed->deadline == INT64_MAX) return false;
  return d->allowed->deadline - dr_now_ns(vm) <= DR_DRF_ESCORT_SLEEP_NS;
}

static DrThread *drf_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Drf *d = (Drf *)s;
  d->step++;
  if (d->phase2) dr_rq_update(&d->rq, vm);
  for (;;) {
    if (d->phase2) {
      if (d->mode == ALLOW_ESCORT &&
          (d->allowed->state == DR_TS_ENDED || d->step - d->escort_from > DR_DRF_ESCORT_POINTS))
        give_up(d, vm);
      while (d->mode == ALLOW_NONE && d->nsusp > 0) schedule_round(d, vm);
    }
    DrThread *const *en;
    int n = dr_sched_enabled(vm, &en);
    DrThread *t = NULL;
    if (d->mode != ALLOW_NONE && dr_sched_is_enabled(vm, d->allowed) && !susp_cls(d, d->allowed)) {
      t = d->allowed; /* escorted with top priority */
    } else {
      DrThread **c = scratch(d, n);
      int nc = 0;
      for (int i = 0; i < n; i++)
        if (!susp_cls(d, en[i])) c[nc++] = en[i];
      /* every runnable thread is suspended while the escorted one sleeps
       * briefly: time passes for it, as on a JVM */
      if (!nc && escort_sleeps_briefly(d, vm) && dr_sched_advance_clock(vm)) continue;
      if (!nc) {
        /* thrashing: every runnable thread is suspended; resume one */
        d->thrashings++;
        t = en[dr_rng_below(&d->rng, (uint64_t)n)];
        set_susp(d, t, NULL);
        if (d->mode == ALLOW_ESCORT && t == d->waiter) { /* the escort has lost its point */
          d->mode = ALLOW_NONE;
          d->nnext = 0;
          d->allowed = d->waiter = NULL;
        }
        return granted(d, vm, t);
      }
      t = base_choice(d, vm, cur, reason, c, nc);
    }
    if (!d->phase2 || t == d->allowed) return granted(d, vm, t);
    DrObj *o = suspendable(vm, t);
    if (!o) return granted(d, vm, t);
    /* requestALock (lines 5-13): not the allowed thread: suspend it */
    d->suspensions++;
    set_susp(d, t, o->cls);
  }
}

static int drf_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  (void)vm;
  (void)lock;
  (void)waiters;
  Drf *d = (Drf *)s;
  return d->phase2 ? 0 : dr_rng_waiter(&d->rng, n); /* Phase II: native's, the longest waiting */
}

static uint64_t drf_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  Drf *d = (Drf *)s;
  (void)vm;
  (void)t;
  if (!d->phase2) return 1; /* Phase I: random's choice at every point and step */
  return d->quantum / 2 + dr_rng_below(&d->rng, d->quantum) + 1;
}

static int drf_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  (void)vm;
  (void)waiting;
  return dr_rng_spurious(&((Drf *)s)->rng, n);
}

static bool drf_start(DrScheduler *s, DrVM *vm, char *err, size_t errsize) {
  Drf *d = (Drf *)s;
  if (d->mtr_in && !dr_mtr_load(&d->mtr, vm, d->mtr_in, &d->unknown, err, errsize)) return false;
  if (d->unknown)
    fprintf(vm->err_file, "drvm: --mtr-in %s: %d relation%s methods or classes this program does not have (skipped)\n",
            d->mtr_in, d->unknown, d->unknown == 1 ? " names" : "s name");
  return true;
}

static bool drf_finish(DrScheduler *s, DrVM *vm, char *err, size_t errsize) {
  Drf *d = (Drf *)s;
  return !d->mtr_out || dr_mtr_save(&d->fresh, vm, d->mtr_out, err, errsize);
}

/* Thrash rate (Table 3's last column): the share of suspensions that
 * thrashing, not DrFinder's schedule, resolved. */
static double thrash_rate(const Drf *d) {
  return d->suspensions ? (double)d->thrashings / (double)d->suspensions : 0.0;
}

/* Its members of --sched-report. */
static void json_report(const Drf *d, FILE *f) {
  DrJsonW w = {0};
  dr_jw_resume(&w, 1);
  dr_jw_int(&w, "phase", d->phase2 ? 2 : 1);
  dr_jw_int(&w, "depth", d->depth);
  dr_jw_int(&w, "relations_in", d->mtr.count);
  dr_jw_int(&w, "relations_unknown", d->unknown);
  dr_jw_int(&w, "relations_out", d->fresh.count);
  dr_jw_uint(&w, "acquisitions", d->acquisitions);
  dr_jw_uint(&w, "suspensions", d->suspensions);
  dr_jw_uint(&w, "escorts", d->escorts);
  dr_jw_uint(&w, "reversals", d->reversals);
  dr_jw_uint(&w, "no_candidate", d->no_candidate);
  dr_jw_uint(&w, "thrashings", d->thrashings);
  dr_jw_uint(&w, "giveups", d->giveups);
  dr_jw_str(&w, "order", d->order == DR_DRF_ORDER_PREVIOUS ? "previous" : "arrival");
  dr_jw_uint(&w, "kept_order", d->kept_order);
  dr_jw_str(&w, "candidates", d->candidates == DR_DRF_CAND_ABLE ? "able" : "live");
  dr_jw_uint(&w, "unable", d->unable);
  dr_jw_int(&w, "restarts", d->attempt);
  dr_jw_fixed(&w, "thrash_rate", thrash_rate(d), 4);
  fwrite(w.buf.data, 1, w.buf.len, f);
  free(w.buf.data);
}

static void drf_report(DrScheduler *s, DrVM *vm, FILE *f, bool json) {
  Drf *d = (Drf *)s;
  (void)vm;
  if (json) {
    json_report(d, f);
    return;
  }
  fprintf(f, "  phase                          %12s\n", d->phase2 ? "II (suspends)" : "I (collects)");
  fprintf(f, "  depth d                        %12d\n", d->depth);
  if (d->phase2) fprintf(f, "  relations in (--mtr-in)        %12d\n", d->mtr.count);
  fprintf(f, "  relations collected            %12d\n", d->fresh.count);
  fprintf(f, "  lock acquisitions observed     %12llu\n", (unsigned long long)d->acquisitions);
  if (!d->phase2) return;
  fprintf(f, "  suspensions                    %12llu\n", (unsigned long long)d->suspensions);
  fprintf(f, "  escorts                        %12llu\n", (unsigned long long)d->escorts);
  fprintf(f, "  successful reversals           %12llu\n", (unsigned long long)d->reversals);
  fprintf(f, "  no candidate (t went on)       %12llu\n", (unsigned long long)d->no_candidate);
  fprintf(f, "  thrashings                     %12llu\n", (unsigned long long)d->thrashings);
  fprintf(f, "  escorts given up               %12llu\n", (unsigned long long)d->giveups);
  fprintf(f, "  order reversed                 %12s\n", d->order == DR_DRF_ORDER_PREVIOUS ? "previous" : "arrival");
  if (d->order == DR_DRF_ORDER_PREVIOUS)
    fprintf(f, "  kept the previous run's order  %12llu\n", (unsigned long long)d->kept_order);
  fprintf(f, "  candidates                     %12s\n", d->candidates == DR_DRF_CAND_ABLE ? "able" : "live");
  if (d->candidates == DR_DRF_CAND_ABLE)
    fprintf(f, "  skipped: no acquisition ahead  %12llu\n", (unsigned long long)d->unable);
  fprintf(f, "  restarts after a deadlock      %12d\n", d->attempt);
  fprintf(f, "  thrash rate                    %11.1f%%\n", 100.0 * thrash_rate(d));
}

/* A deadlock DrFinder may have caused: an escort or grant was under way,
 * or a thread in it (every live thread is) was held back or escorted.
 * Otherwise DrFinder changed nothing for these threads, and the deadlock
 * is one the program reaches by itself: a restart would only repeat it. */
static bool drf_deadlocked(DrScheduler *s, DrVM *vm) {
  Drf *d = (Drf *)s;
  if (d->mode != ALLOW_NONE) return true;
  DrThread *const *all;
  int n = dr_sched_threads(vm, &all);
  for (int i = 0; i < n; i++)
    if (all[i]->state != DR_TS_ENDED && *dr_sched_slot(&d->held, &d->nheld_slots, all[i])) return true;
  return false;
}

static void drf_destroy(DrScheduler *s) {
  Drf *d = (Drf *)s;
  dr_mtr_free(&d->mtr);
  dr_mtr_free(&d->fresh);
  dr_mtr_ahead_free(&d->ahead);
  free(d->susp);
  free(d->scratch);
  free(d->next_cand);
  free(d->held);
  dr_rq_free(&d->rq);
  free(d);
}

DrScheduler *dr_sched_drfinder_create(const DrSchedOptions *opt) {
  Drf *d = dr_xcalloc(1, sizeof *d);
  d->base.name = "drfinder";
  d->base.points = DR_SP_ACCESS | DR_SP_CALL;
  d->base.pick = drf_pick;
  d->base.pick_waiter = drf_pick_waiter;
  d->base.quantum = drf_quantum;
  d->base.spurious = drf_spurious;
  d->base.start = drf_start;
  d->base.finish = drf_finish;
  d->base.report = drf_report;
  d->base.deadlocked = drf_deadlocked;
  d->base.destroy = drf_destroy;
  dr_rng_seed(&d->rng, opt->seed);
  d->depth = opt->depth > 0 ? opt->depth : DR_DRF_DEFAULT_DEPTH;
  d->escorts_max = opt->escorts > 0 ? opt->escorts : DR_DRF_DEFAULT_ESCORTS;
  d->order = opt->order != DR_DRF_ORDER_GIVEN ? (DrDrfOrder)opt->order : DR_DRF_DEFAULT_ORDER;
  d->candidates = opt->candidates != DR_DRF_CAND_GIVEN ? (DrDrfCandidates)opt->candidates : DR_DRF_DEFAULT_CANDIDATES;
  d->mtr_in = opt->mtr_in;
  d->mtr_out = opt->mtr_out;
  d->phase2 = opt->mtr_in != NULL;
  d->attempt = opt->attempt;

  d->quantum = opt->quantum ? opt->quantum : 2000;
  if (d->phase2) d->base.points = 0; /* native's points: synchronization and quanta */
  return &d->base;
}
