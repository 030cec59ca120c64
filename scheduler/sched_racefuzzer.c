/* RaceFuzzer (Sen, PLDI'08), phase 2: a random scheduler that tries to
 * bring the two statements of a potential race -- found by the hybrid
 * detector in phase 1 (`drvm run --detector hybrid --potential-races
 * FILE`) -- temporally next to each other, so that the race really
 * happens, and then resolves it randomly, so that whatever harm it can do
 * shows (an uncaught exception, a failed assert).
 *
 * Algorithm 1 of the paper, at every scheduling point (every access, call
 * and return is one, as for the random scheduler):
 *   t := a random enabled thread that is not postponed;
 *   if t is about to execute a plain read or write at a RaceSet statement:
 *     R := the postponed threads about to access the same location (the
 *          same object and field or array index, or the same static),
 *          at least one of the two a write;
 *     R non-empty: a real race -- say so, then with probability 1/2 run
 *       t (R stay postponed), else postpone t and run each thread of R
 *       once, in turn, before choosing at random again;
 *     R empty: postpone t and choose again;
 *   else run t.
 *   When every enabled thread is postponed, a random one is released and
 *   runs its pending access (released, it is not postponed again at the
 *   same statement: that would be the same dead end).
 * Volatile accesses are synchronization, never races: never postponed.
 *
 * RaceSet: with --pair N the two statements of the file's Nth line; with
 * no --pair every statement of every line at once (a union mode: one run
 * tries all the potential races, and any two threads meeting at RaceSet
 * statements on one location with a write make a real race, even if that
 * pair of statements is not a line of the file).
 *
 * Guards the paper's model does not have: a thread postponed for more
 * than DR_RF_LIVELOCK_PICKS picks is released as above (the paper's
 * monitor thread against livelock: the others may be spinning on
 * something only it would do), and a postponed thread found not enabled
 * any more is dropped from the set (it cannot be, at an access, but a
 * stale set must never stall the run).
 *
 * What it says: "real race: ..." on stderr the first time a location and
 * statement pair are brought together (a racy loop would otherwise print
 * a line per iteration; every occurrence is counted for --stats and
 * --sched-report); after the run, if a real race was created and an
 * exception escaped some thread, each race is called harmful with the
 * command that reruns it.  Under --replay-prefix main does not call
 * start(): with no RaceSet the scheduler is the random one. */
#include <errno.h>
#include <string.h>

#include "../vm/json.h"
#include "../vm/pairs.h"
#include "sched.h"

/* A postponed thread waits for a partner at most this many picks.  The
 * partner may come only after a long critical section (the paper's
 * Figure 2: lang-examples/racefuzzer_fig2.dl takes some 250,000 points to
 * get there), so the bound is generous; a thread spinning on something
 * the postponed one would do wastes at most this many points, a fraction
 * of a second, so a spin-wait never livelocks the run. */
enum { DR_RF_LIVELOCK_PICKS = 1000000, DR_RF_LIVELOCK_MIN = 1000 };
/* Postponed threads wait for a sleeper this long (virtual time): the
 * short sleeps of test programs, not a thread that naps for minutes. */
#define DR_RF_SLEEP_NS ((int64_t)100 * 1000 * 1000)
/* A program that needed the guard once (a spin-wait on the postponed
 * thread) likely needs it again: each release halves the bound, down to
 * DR_RF_LIVELOCK_MIN, so a polling loop costs about twice the first bound
 * in all rather than the bound at every postponement. */

typedef struct {
  DrMethod *m;
  uint32_t pc;
} Stmt;

typedef struct {
  DrThread *t;
  uint64_t since;          /* the pick at which it was postponed */
} Postponed;

/* One access of a real race, as reported. */
typedef struct {
  char *thread;            /* the thread's name when first seen */
  char *stmt;              /* "LostUpdate$RacyAdder.run() 13 50" */
  char *pos;               /* "lostupdate.dl:50" */
  char *frame;             /* "LostUpdate$RacyAdder.run(lostupdate.dl:50)" */
  bool write;
} Side;

/* A distinct real race: location and the two statements; first is the
 * postponed thread's access (it got there first), second the arriving
 * one's. */
typedef struct {
  char *location;
  Side first, second;
  uint64_t times;
} RealRace;

typedef struct {
  DrScheduler base;
  DrRng rng;
  char *path;              /* --race-pairs */
  char *rerun;             /* the command line that reruns this run, or NULL */
  int pair;                /* --pair, 0 = union of all */
  int npairs;              /* data lines in the file */
  bool started;            /* start() succeeded: RaceSet is valid */

  Stmt *set;               /* RaceSet */
  int nset, set_cap;
  uint8_t *method_in_set;  /* by method id: a quick filter before the scan */
  int nmethod_flags;

  Postponed *post;         /* in the order they were postponed */
  int npost, post_cap;
  DrThread **queue;        /* released threads that run next, in turn */
  int nqueue, queue_cap, queue_head;
  DrThread **cand;         /* scratch: enabled and not postponed */
  int cand_cap;

  uint64_t step;
  uint64_t livelock_bound; /* the current bound: see DR_RF_LIVELOCK_MIN */
  uint64_t postponements, all_postponed_releases, livelock_releases, races_created, clock_advances;
  RealRace *races;
  int nraces, races_cap;
} Rf;

/* --- reading the race pairs --- */

/* "Class.m(desc)" as hybrid prints a method (detector/hybrid.c stmt_of). */
static char *method_text(const DrMethod *m) {
  char cn[300];
  return dr_fmt("%s.%s", dr_class_display_name(m->owner, cn, sizeof cn), m->desc);
}

/* "Class.m(desc) pc line", as the pairs file (vm/pairs.h) names a statement. */
static char *stmt_text(const DrMethod *m, uint32_t pc) {
  DrPairStmt st = {method_text(m), pc, dr_method_line(m, pc)};
  DrBuf b = {0};
  dr_pairs_stmt_text(&b, &st);
  free(st.method);
  return b.data;
}

static void add_stmt(Rf *r, DrMethod *m, uint32_t pc) {
  for (int i = 0; i < r->nset; i++)
    if (r->set[i].m == m && r->set[i].pc == pc) return;
  Stmt st = {m, pc};
  DR_PUSH(r->set, r->nset, r->set_cap, st);
  if (m->id >= 0 && m->id < r->nmethod_flags) r->method_in_set[m->id] = 1;
}

static DrMethod *find_method(DrVM *vm, const char *text) {
  for (int i = 0; i < vm->nmethods; i++) {
    DrMethod *cand = vm->methods[i];
    if (!cand || !cand->code) continue;
    char *mt = method_text(cand);
    bool same = !strcmp(mt, text);
    free(mt);
    if (same) return cand;
  }
  return NULL;
}

/* The statement of this program a pair's statement names; *m NULL for
 * hybrid's "? ? 0" (a position it did not know, which can match
 * nothing).  false with a message. */
static bool resolve_stmt(DrVM *vm, const DrPairStmt *st, DrMethod **m, const char *where, char *err,
                         size_t errsize) {
  *m = NULL;
  if (!st->method) return true;
  DrMethod *cand = find_method(vm, st->method);
  if (!cand) {
    snprintf(err, errsize,
             "%s: statement '%s' names no method of this program: was the file written for another program?", where,
             st->method);
    return false;
  }
  if (st->pc >= (uint32_t)cand->code_len) {
    snprintf(err, errsize, "%s: %s has no pc %u: was the file written for another version of the program?", where,
             st->method, (unsigned)st->pc);
    return false;
  }
  if (dr_method_line(cand, st->pc) != st->line) {
    snprintf(err, errsize,
             "%s: pc %u of %s is at line %d, not %d: was the file written for another version of the program?",
             where, (unsigned)st->pc, st->method, dr_method_line(cand, st->pc), st->line);
    return false;
  }
  *m = cand;
  return true;
}

/* Resolves every pair's statements (a file for another program must be
 * reported even if --pair picks a pair that would resolve) and puts
 * --pair's, or all, in RaceSet. */
static bool build_race_set(Rf *r, DrVM *vm, const DrPairs *ps, char *err, size_t errsize) {
  for (int i = 0; i < ps->count; i++) {
    const DrPair *p = &ps->items[i];
    char where[600];
    snprintf(where, sizeof where, "%s:%d", r->path, p->lineno);
    DrMethod *m1, *m2;
    if (!resolve_stmt(vm, &p->first, &m1, where, err, errsize) ||
        !resolve_stmt(vm, &p->second, &m2, where, err, errsize))
      return false;
    if (r->pair == 0 || r->pair == i + 1) {
      if (m1) add_stmt(r, m1, p->first.pc);
      if (m2) add_stmt(r, m2, p->second.pc);
    }
  }
  return true;
}

static bool rf_start(DrScheduler *s, DrVM *vm, char *err, size_t errsize) {
  Rf *r = (Rf *)s;
  if (!r->path) {
    snprintf(err, errsize,
             "--sched racefuzzer needs --race-pairs FILE: write it first with "
             "'drvm run --detector hybrid --potential-races FILE prog.dl', or let 'drvm racefuzz prog.dl' do both phases");
    return false;
  }
  size_t len;
  char *text = dr_read_file(r->path, &len);
  if (!text) {
    snprintf(err, errsize, "--race-pairs: cannot read %s: %s", r->path, strerror(errno));
    return false;
  }
  r->nmethod_flags = vm->nmethods;
  r->method_in_set = dr_xcalloc((size_t)vm->nmethods + 1, 1);
  DrPairs ps = {0};
  bool ok = dr_pairs_parse(text, len, r->path, &ps, err, errsize) && build_race_set(r, vm, &ps, err, errsize);
  r->npairs = ps.count;
  free(text);
  dr_pairs_free(&ps);
  if (!ok) return false;
  if (r->npairs == 0) {
    snprintf(err, errsize, "--race-pairs: %s lists no race pair (hybrid found no potential race: nothing to fuzz)",
             r->path);
    return false;
  }
  if (r->pair > r->npairs) {
    snprintf(err, errsize, "--pair %d: %s has only %d pair%s", r->pair, r->path, r->npairs, r->npairs == 1 ? "" : "s");
    return false;
  }
  r->started = true;
  return true;
}

/* --- the algorithm --- */

/* t's pending event, if it is a plain access at a RaceSet statement that
 * really touches memory (a null object or an index out of bounds throws
 * instead: no race). */
static bool at_race_stmt(Rf *r, DrVM *vm, DrThread *t, DrEvent *ev) {
  DrEventKind k = dr_sched_pending_kind(vm, t);
  if (k != DR_EV_READ && k != DR_EV_WRITE) return false;
  if (t->nframes == 0) return false;
  const DrMethod *top = t->frames[t->nframes - 1].method;
  if (!top || top->id < 0 || top->id >= r->nmethod_flags || !r->method_in_set[top->id]) return false;
  dr_sched_pending(vm, t, ev);
  bool in = false;
  for (int i = 0; i < r->nset && !in; i++) in = r->set[i].m == ev->method && r->set[i].pc == ev->pc;
  if (!in) return false;
  if (ev->is_static) return ev->cls != NULL;
  if (!ev->obj) return false;
  if (ev->obj->cls->flags & DR_CLS_ARRAY) return ev->field >= 0 && ev->field < ((const DrArray *)ev->obj)->length;
  return ev->field >= 0;
}

static bool same_location(const DrEvent *a, const DrEvent *b) {
  if (a->is_static != b->is_static || a->field != b->field) return false;
  return a->is_static ? a->cls == b->cls : a->obj == b->obj;
}

/* As the detectors name a location (detector/det_report.c): "Counter.count",
 * "Account.balance (Account#3)", "int[]#7[3]". */
static void location_text(const DrEvent *e, DrBuf *b) {
  char buf[300];
  if (!e->is_static && (e->obj->cls->flags & DR_CLS_ARRAY)) {
    dr_buf_printf(b, "%s[%d]", dr_obj_name(e->obj, buf, sizeof buf), (int)e->field);
    return;
  }
  const DrClass *c = e->is_static ? e->cls : e->obj->cls;
  const char *field = "?";
  if (e->is_static) {
    if (e->field < c->nstatics) field = c->static_names[e->field];
  } else {
    if (e->field < c->nfields) field = c->field_names[e->field];
    /* named by the class that declares it */
    while (c->super && e->field < c->super->nfields) c = c->super;
  }
  dr_buf_append_str(b, dr_class_display_name(c, buf, sizeof buf));
  dr_buf_append_str(b, ".");
  dr_buf_append_str(b, field);
  if (!e->is_static) {
    dr_buf_append_str(b, " (");
    dr_buf_append_str(b, dr_obj_name(e->obj, buf, sizeof buf));
    dr_buf_append_str(b, ")");
  }
}

static void side_fill(DrVM *vm, const DrThread *t, const DrEvent *e, Side *sd) {
  char buf[300];
  sd->thread = dr_strdup(dr_thread_name(vm, t, buf, sizeof buf));
  sd->stmt = stmt_text(e->method, e->pc);
  DrBuf b = {0};
  dr_position_text(vm, e->method, e->pc, false, &b);
  dr_buf_append(&b, "", 1);
  sd->pos = b.data;
  b = (DrBuf){0};
  dr_position_text(vm, e->method, e->pc, true, &b);
  dr_buf_append(&b, "", 1);
  sd->frame = b.data;
  sd->write = e->kind == DR_EV_WRITE;
}

static void side_free(Side *sd) {
  free(sd->thread);
  free(sd->stmt);
  free(sd->pos);
  free(sd->frame);
}

/* A real race between the postponed thread p (first) and the arriving t:
 * counted; printed the first time this location and statement pair
 * meet (a racy loop would otherwise print one line per iteration). */
static void real_race(Rf *r, DrVM *vm, DrThread *p, const DrEvent *pe, DrThread *t, const DrEvent *te) {
  r->races_created++;
  DrBuf loc = {0};
  location_text(te, &loc);
  dr_buf_append(&loc, "", 1);
  char *s1 = stmt_text(pe->method, pe->pc), *s2 = stmt_text(te->method, te->pc);
  bool seen = false;
  for (int i = 0; i < r->nraces && !seen; i++) {
    RealRace *rr = &r->races[i];
    seen = !strcmp(rr->location, loc.data) && !strcmp(rr->first.stmt, s1) && !strcmp(rr->second.stmt, s2);
    if (seen) rr->times++;
  }
  free(s1);
  free(s2);
  if (seen) {
    free(loc.data);
    return;
  }
  RealRace rr = {loc.data, {0}, {0}, 1};
  side_fill(vm, p, pe, &rr.first);
  side_fill(vm, t, te, &rr.second);
  DR_PUSH(r->races, r->nraces, r->races_cap, rr);
  dr_flush_output(vm);
  fprintf(vm->err_file, "real race: %s: %s %s at %s (postponed) and %s %s at %s\n", rr.location, rr.first.thread,
          rr.first.write ? "write" : "read", rr.first.frame, rr.second.thread, rr.second.write ? "write" : "read",
          rr.second.frame);
}

static bool is_postponed(const Rf *r, const DrThread *t) {
  for (int i = 0; i < r->npost; i++)
    if (r->post[i].t == t) return true;
  return false;
}

static void unpostpone(Rf *r, int i) {
  memmove(&r->post[i], &r->post[i + 1], sizeof *r->post * (size_t)(r->npost - i - 1));
  r->npost--;
}

static void postpone(Rf *r, DrThread *t) {
  Postponed p = {t, r->step};
  DR_PUSH(r->post, r->npost, r->post_cap, p);
  r->postponements++;
}

/* Drops postponed threads that cannot run or are no longer at a RaceSet
 * access (defensive: a thread that does not run keeps its pending event),
 * and releases those that waited too long into the queue. */
static void tidy_postponed(Rf *r, DrVM *vm) {
  for (int i = 0; i < r->npost;) {
    DrThread *t = r->post[i].t;
    DrEvent ev;
    if (!dr_sched_is_enabled(vm, t) || !at_race_stmt(r, vm, t, &ev)) {
      unpostpone(r, i);
    } else if (r->step - r->post[i].since > r->livelock_bound) {
      unpostpone(r, i);
      r->livelock_releases++;
      if (r->livelock_bound / 2 >= DR_RF_LIVELOCK_MIN) r->livelock_bound /= 2;
      DR_PUSH(r->queue, r->nqueue, r->queue_cap, t);
    } else {
      i++;
    }
  }
}

/* The enabled threads not postponed, into r->cand. */
static int candidates(Rf *r, DrVM *vm) {
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  if (r->cand_cap < n) {
    r->cand_cap = n;
    r->cand = dr_xrealloc(r->cand, sizeof *r->cand * (size_t)n);
  }
  int ncand = 0;
  for (int i = 0; i < n; i++)
    if (!is_postponed(r, en[i])) r->cand[ncand++] = en[i];
  return ncand;
}

/* Whether a live thread's timed sleep, wait or join ends within
 * DR_RF_SLEEP_NS of virtual time. */
static bool sleeper_soon(DrVM *vm) {
  DrThread *const *all;
  int n = dr_sched_threads(vm, &all);
  for (int i = 0; i < n; i++)
    if (all[i]->deadline != INT64_MAX && all[i]->deadline - dr_now_ns(vm) <= DR_RF_SLEEP_NS) return true;
  return false;
}

static DrThread *rf_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  (void)cur;
  (void)reason;
  Rf *r = (Rf *)s;
  r->step++;
  tidy_postponed(r, vm);
  /* released threads execute their pending access first, one per pick */
  while (r->queue_head < r->nqueue) {
    DrThread *t = r->queue[r->queue_head++];
    if (dr_sched_is_enabled(vm, t) && !is_postponed(r, t)) return t;
  }
  r->nqueue = r->queue_head = 0;
  int ncand = candidates(r, vm);
  for (;;) {
    /* every enabled thread is postponed while another sleeps briefly:
     * time passes for it, as the postponed threads' pause would let it
     * on a JVM (a writer postponed while the reader sleeps before its
     * access) */
    if (ncand == 0 && sleeper_soon(vm) && dr_sched_advance_clock(vm)) {
      r->clock_advances++;
      ncand = candidates(r, vm);
      continue;
    }
    if (ncand == 0) {
      /* postponed = Enabled: a random one runs its pending access */
      int k = (int)dr_rng_below(&r->rng, (uint64_t)r->npost);
      DrThread *t = r->post[k].t;
      unpostpone(r, k);
      r->all_postponed_releases++;
      return t;
    }
    int ci = (int)dr_rng_below(&r->rng, (uint64_t)ncand);
    DrThread *t = r->cand[ci];
    DrEvent ev;
    if (!r->started || !at_race_stmt(r, vm, t, &ev)) return t;
    /* Racing(s, t, postponed) */
    bool any = false;
    for (int i = 0; i < r->npost; i++) {
      DrEvent pe;
      if (!at_race_stmt(r, vm, r->post[i].t, &pe)) continue;
      if (!same_location(&ev, &pe) || (ev.kind != DR_EV_WRITE && pe.kind != DR_EV_WRITE)) continue;
      real_race(r, vm, r->post[i].t, &pe, t, &ev);
      DR_PUSH(r->queue, r->nqueue, r->queue_cap, r->post[i].t);
      any = true;
    }
    if (any) {
      if (dr_rng_below(&r->rng, 2) == 0) {
        r->nqueue = 0; /* t goes first; R stay postponed */
        return t;
      }
      postpone(r, t);
      for (int q = 0; q < r->nqueue; q++)
        for (int i = 0; i < r->npost; i++)
          if (r->post[i].t == r->queue[q]) {
            unpostpone(r, i);
            break;
          }
      return r->queue[r->queue_head++];
    }
    /* no partner yet: t waits for one; choose again among the rest */
    postpone(r, t);
    r->cand[ci] = r->cand[--ncand];
  }
}

static int rf_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  (void)vm;
  (void)lock;
  (void)waiters;
  return dr_rng_waiter(&((Rf *)s)->rng, n);
}

static uint64_t rf_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)s;
  (void)vm;
  (void)t;
  return 0; /* every access, call and return is a point: no preemption needed */
}

static int rf_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  (void)vm;
  (void)waiting;
  return dr_rng_spurious(&((Rf *)s)->rng, n);
}

/* --- what the run showed --- */

static bool rf_finish(DrScheduler *s, DrVM *vm, char *err, size_t errsize) {
  (void)err;
  (void)errsize;
  Rf *r = (Rf *)s;
  if (r->nraces == 0 || vm->uncaught == 0) return true;
  dr_flush_output(vm);
  for (int i = 0; i < r->nraces; i++) {
    const RealRace *rr = &r->races[i];
    fprintf(vm->err_file,
            "racefuzzer: harmful race: %s between %s's %s at %s and %s's %s at %s was followed by an uncaught "
            "exception; rerun with: %s\n",
            rr->location, rr->first.thread, rr->first.write ? "write" : "read", rr->first.frame, rr->second.thread,
            rr->second.write ? "write" : "read", rr->second.frame, r->rerun ? r->rerun : "(the same options and seed)");
  }
  return true;
}

static void json_side(DrJsonW *w, const char *key, const Side *sd) {
  dr_jw_begin_flat(w, key, '{');
  dr_jw_str(w, "thread", sd->thread);
  dr_jw_str(w, "statement", sd->stmt);
  dr_jw_str(w, "position", sd->pos);
  dr_jw_str(w, "kind", sd->write ? "write" : "read");
  dr_jw_end(w, '}');
}

static void json_report(const Rf *r, FILE *f) {
  DrJsonW w = {0};
  dr_jw_resume(&w, 1);
  dr_jw_int(&w, "pair", r->pair);
  dr_jw_int(&w, "pairs", r->npairs);
  dr_jw_int(&w, "race_set", r->nset);
  dr_jw_uint(&w, "postponements", r->postponements);
  dr_jw_uint(&w, "all_postponed_releases", r->all_postponed_releases);
  dr_jw_uint(&w, "clock_advances", r->clock_advances);
  dr_jw_uint(&w, "livelock_releases", r->livelock_releases);
  dr_jw_begin(&w, "real_races", '[');
  for (int i = 0; i < r->nraces; i++) {
    const RealRace *rr = &r->races[i];
    dr_jw_begin_flat(&w, NULL, '{');
    dr_jw_str(&w, "location", rr->location);
    json_side(&w, "first", &rr->first);
    json_side(&w, "second", &rr->second);
    dr_jw_uint(&w, "times", rr->times);
    dr_jw_end(&w, '}');
  }
  dr_jw_end(&w, ']');
  fwrite(w.buf.data, 1, w.buf.len, f);
  free(w.buf.data);
}

static void rf_report(DrScheduler *s, DrVM *vm, FILE *f, bool json) {
  (void)vm;
  Rf *r = (Rf *)s;
  if (json) {
    json_report(r, f);
    return;
  }
  fprintf(f, "  race pairs file            %s (%d pair%s)\n", r->path ? r->path : "-", r->npairs,
          r->npairs == 1 ? "" : "s");
  if (r->pair) fprintf(f, "  race set                   pair %d: %d statement%s\n", r->pair, r->nset, r->nset == 1 ? "" : "s");
  else fprintf(f, "  race set                   all pairs: %d statement%s\n", r->nset, r->nset == 1 ? "" : "s");
  fprintf(f, "  %-26s %12llu\n", "postponements", (unsigned long long)r->postponements);
  fprintf(f, "  %-26s %12llu\n", "real races created", (unsigned long long)r->races_created);
  for (int i = 0; i < r->nraces; i++) {
    const RealRace *rr = &r->races[i];
    fprintf(f, "    %s: %s %s at %s / %s %s at %s: %llu time%s\n", rr->location, rr->first.thread,
            rr->first.write ? "write" : "read", rr->first.pos, rr->second.thread, rr->second.write ? "write" : "read",
            rr->second.pos, (unsigned long long)rr->times, rr->times == 1 ? "" : "s");
  }
  fprintf(f, "  %-26s %12llu\n", "all-postponed releases", (unsigned long long)r->all_postponed_releases);
  fprintf(f, "  %-26s %12llu\n", "clock advances (sleepers)", (unsigned long long)r->clock_advances);
  fprintf(f, "  %-26s %12llu\n", "livelock releases", (unsigned long long)r->livelock_releases);
}

static void rf_destroy(DrScheduler *s) {
  Rf *r = (Rf *)s;
  for (int i = 0; i < r->nraces; i++) {
    free(r->races[i].location);
    side_free(&r->races[i].first);
    side_free(&r->races[i].second);
  }
  free(r->races);
  free(r->set);
  free(r->method_in_set);
  free(r->post);
  free(r->queue);
  free(r->cand);
  free(r->path);
  free(r->rerun);
  free(r);
}

DrScheduler *dr_sched_racefuzzer_create(const DrSchedOptions *opt) {
  Rf *r = dr_xcalloc(1, sizeof *r);
  r->base.name = "racefuzzer";
  r->base.points = DR_SP_ACCESS | DR_SP_CALL;
  r->base.pick = rf_pick;
  r->base.pick_waiter = rf_pick_waiter;
  r->base.quantum = rf_quantum;
  r->base.spurious = rf_spurious;
  r->base.start = rf_start;
  r->base.finish = rf_finish;
  r->base.report = rf_report;
  r->base.destroy = rf_destroy;
  dr_rng_seed(&r->rng, opt->seed);
  r->livelock_bound = DR_RF_LIVELOCK_PICKS;
  r->path = opt->race_pairs ? dr_strdup(opt->race_pairs) : NULL;
  r->rerun = opt->rerun ? dr_strdup(opt->rerun) : NULL;
  r->pair = opt->pair;
  return &r->base;
}
