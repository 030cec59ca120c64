/* `drvm run --replay REC --minimize[=OUT] prog.dl`: the recording of a
 * run that ends in a race, an uncaught exception or a deadlock, shrunk to
 * fewer preemptions that still show it.  Two searches, every candidate
 * checked by running it:
 *   1. over the recording's decisions (delta debugging on its length): the
 *      shortest prefix of them after which a run without preemptions still
 *      shows the finding;
 *   2. by preemption bound: systematic exploration (drvm_explore) with at
 *      most 0, 1, ... preemptions, up to one fewer than the best so far,
 *      stopping at the first execution that shows it.
 * The result is replayed once more before it is written. */
#include <errno.h>
#include <string.h>

#include "../vm/buf.h"
#include "minimize.h"

/* What a run showed. */
typedef struct {
  bool deadlock;
  DrArgv exceptions;        /* "Exception in thread ..." lines */
  DrArgv races;             /* race locations */
} Finding;

typedef struct {
  const DrRunOpts *o;
  const char *prog, *rec;
  const DrProgFiles *files;
  uint64_t seed;
  DrBuf out, err;           /* the run under way's output */
  Finding want;
  uint64_t budget;          /* executions per preemption bound */
  bool lost;                /* a better candidate could not be moved to OUT */
} Min;

static void cap_out(void *user, const char *t, size_t n) { dr_buf_append(&((Min *)user)->out, t, n); }
static void cap_err(void *user, const char *t, size_t n) { dr_buf_append(&((Min *)user)->err, t, n); }

static void finding_free(Finding *f) {
  dr_argv_free(&f->exceptions);
  dr_argv_free(&f->races);
}

static bool has(const DrArgv *a, const char *s) {
  for (int i = 0; i < a->n; i++)
    if (!strcmp(a->v[i], s)) return true;
  return false;
}

/* The races of vm's run so far (before drvm_finish), its outcome and error
 * output after it. */
static void races_of(DrVM *vm, Finding *f) {
  for (int i = 0; i < drvm_race_count(vm); i++) {
    DrvmRace r;
    if (drvm_race(vm, i, &r) && !has(&f->races, r.location)) dr_argv_add(&f->races, r.location);
  }
}

static void ending_of(Min *m, const DrvmResult *r, Finding *f) {
  f->deadlock = r->outcome == DRVM_OUTCOME_DEADLOCK;
  const char *p = m->err.len ? m->err.data : "";
  while (*p) {
    size_t n = strcspn(p, "\n");
    if (!strncmp(p, "Exception in thread", 19)) {
      char *line = dr_strndup(p, n);
      if (!has(&f->exceptions, line)) dr_argv_add(&f->exceptions, line);
      free(line);
    }
    p += n + (p[n] == '\n');
  }
}

/* Whether got shows everything want does. */
static bool shows(const Finding *want, const Finding *got) {
  if (want->deadlock && !got->deadlock) return false;
  for (int i = 0; i < want->exceptions.n; i++)
    if (!has(&got->exceptions, want->exceptions.v[i])) return false;
  for (int i = 0; i < want->races.n; i++)
    if (!has(&got->races, want->races.v[i])) return false;
  return true;
}

static DrVM *new_vm(Min *m) {
  DrvmConfig c;
  drvm_config_init(&c);
  dr_ro_vm_config(m->o, &c);
  c.seed = m->seed;
  c.write_out = cap_out;
  c.write_err = cap_err;
  c.write_user = m;
  char err[512];
  DrVM *vm = drvm_new(&c, err, sizeof err);
  if (!vm) {
    fprintf(stderr, "drvm: %s\n", err);
    return NULL;
  }
  if (!dr_prog_compile(vm, m->files)) {
    drvm_print_diags(vm, stderr);
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

/* Whether the thread at decision d could go on, as the explorer counts
 * preemptions: it can run, and not just to find a joined thread alive or
 * a lock held by another. */
static bool could_go_on(DrVM *vm, const DrvmDecision *d) {
  for (int i = 0; i < d->nchoices; i++) {
    if (d->choices[i].thread != d->current) continue;
    const DrvmEvent *e = d->choices[i].next;
    DrvmThreadInfo ti;
    if (e->kind == DRVM_EV_JOIN && e->other >= 0 && drvm_thread_info(vm, e->other, &ti)) return ti.state == DRVM_TS_ENDED;
    if (e->kind == DRVM_EV_ACQUIRE && drvm_thread_info(vm, d->current, &ti)) return ti.lock_owner < 0 || ti.lock_owner == d->current;
    return true;
  }
  return false;
}

/* Replays rec to its end in a new VM, counting its preemptions (a switch
 * at a decision where the running thread could go on).  The VM is kept
 * (it records: the prefix of the first search).  NULL after saying why. */
static DrVM *replay(Min *m, const char *rec, Finding *f, int *preemptions, uint64_t *decisions) {
  DrVM *vm = new_vm(m);
  if (!vm) return NULL;
  m->out.len = m->err.len = 0;
  uint64_t seed;
  bool ok = drvm_replay(vm, rec, false, &seed) && drvm_record(vm, NULL) &&
            drvm_set_detector(vm, dr_ro_get(m->o, DR_RO_DETECTOR), "quiet") && drvm_set_stepping(vm, 0, true) &&
            drvm_start(vm, m->o->nargs, (const char *const *)m->o->args);
  *preemptions = 0;
  DrvmDecision d;
  while (ok && drvm_run_until_decision(vm, &d) == 1) {
    if (d.reason != DRVM_DECIDE_BLOCKED && d.suggested != d.current && could_go_on(vm, &d)) (*preemptions)++;
    ok = drvm_decide(vm, DRVM_SUGGESTED);
  }
  if (!ok) {
    fprintf(stderr, "drvm: %s\n", drvm_error(vm));
    drvm_free(vm);
    return NULL;
  }
  races_of(vm, f);
  *decisions = drvm_decision_count(vm);
  DrvmResult r;
  int st = drvm_finish(vm, &r);
  if (st == DRVM_EXIT_REPLAY) {
    fprintf(stderr, "drvm: %s does not fit %s: it was not recorded from this program with these arguments\n", rec,
            m->prog);
    drvm_free(vm);
    return NULL;
  }
  ending_of(m, &r, f);
  return vm;
}

/* Explores with at most `bound` preemptions (after the first prefix_len
 * decisions of from, if from) until an execution shows the finding: saved
 * to out.  Executions at most max_exec. */
static bool search(Min *m, DrVM *from, uint64_t prefix_len, int bound, uint64_t max_exec, const char *out,
                   int *preemptions, uint64_t *decisions) {
  DrVM *vm = new_vm(m);
  if (!vm) return false;
  DrvmExploreConfig c;
  drvm_explore_config_init(&c);
  c.preemptions = bound;
  c.detector = dr_ro_get(m->o, DR_RO_DETECTOR);
  c.record = true;
  c.prefix_from = from;
  c.prefix_len = prefix_len;
  bool found = false;
  if (drvm_explore(vm, &c)) {
    for (uint64_t n = 0; !found && n < max_exec; n++) {
      m->out.len = m->err.len = 0;
      if (drvm_explore_next(vm, m->o->nargs, (const char *const *)m->o->args) != 1) break;
      DrvmExploreStats st;
      drvm_explore_stats(vm, &st);
      if (st.last_blocked) continue;
      Finding got = {0};
      races_of(vm, &got);
      DrvmResult r;
      drvm_finish(vm, &r);
      ending_of(m, &r, &got);
      if (shows(&m->want, &got) && drvm_save_decisions(vm, out)) {
        found = true;
        *decisions = st.last_decisions;
      }
      finding_free(&got);
    }
  }
  drvm_free(vm);
  if (found) { /* the bound counts from the prefix's end: count them all */
    Finding f = {0};
    DrVM *check = replay(m, out, &f, preemptions, decisions);
    found = check && shows(&m->want, &f);
    drvm_free(check);
    finding_free(&f);
  }
  return found;
}

/* Moves the better candidate tmp to out (said if it cannot). */
static void keep(Min *m, const char *tmp, const char *out) {
  if (rename(tmp, out) != 0) {
    fprintf(stderr, "drvm: cannot write %s: %s\n", out, strerror(errno));
    m->lost = true;
  }
}

static void describe(const Finding *f, DrBuf *b) {
  const char *sep = "";
  if (f->deadlock) dr_buf_append_str(b, "a deadlock"), sep = ", ";
  for (int i = 0; i < f->exceptions.n; i++) dr_buf_printf(b, "%s%s", sep, f->exceptions.v[i]), sep = ", ";
  for (int i = 0; i < f->races.n; i++) dr_buf_printf(b, "%sthe race on %s", sep, f->races.v[i]), sep = ", ";
}

/* Search 1: the shortest prefix of the recording's decisions that, run on
 * without preemptions, still shows the finding (bisection: checked at each
 * length).  Keeps the best in out. */
static void shrink_prefix(Min *m, DrVM *orig, uint64_t total, const char *out, int *best_p, uint64_t *best_d) {
  uint64_t lo = 0, hi = total; /* hi: known to show it (the whole recording) */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    int p;
    uint64_t d;
    char *tmp = dr_fmt("%s.try", out);
    bool ok = search(m, orig, mid, 0, 1, tmp, &p, &d);
    if (ok && (p < *best_p || (p == *best_p && d < *best_d))) {
      keep(m, tmp, out);
      *best_p = p;
      *best_d = d;
    }
    remove(tmp);
    free(tmp);
    if (ok) hi = mid;
    else lo = mid + 1;
  }
}

/* Whether OUT.try, where each candidate is saved, can be written: checked
 * before the search, since a candidate that cannot be saved looks like one
 * that does not show the finding (the search then ran its whole budget,
 * minutes, to say "as short as drvm can make it"). */
static bool can_write(const char *out) {
  char *tmp = dr_fmt("%s.try", out);
  FILE *f = fopen(tmp, "w");
  bool ok = f != NULL;
  if (f) {
    fclose(f);
    remove(tmp);
  } else {
    fprintf(stderr, "drvm: cannot write %s: %s\n", tmp, strerror(errno));
  }
  free(tmp);
  return ok;
}

int dr_minimize(const DrRunOpts *o, const char *rec, const DrProgFiles *files, uint64_t seed) {
  Min m = {0};
  m.o = o;
  m.prog = o->prog;
  m.rec = rec;
  m.files = files;
  m.seed = seed;
  m.budget = 200000;
  const char *given = dr_ro_get(o, DR_RO_MINIMIZE);
  char *out = given && *given ? dr_strdup(given) : dr_fmt("%s.min.rec", rec);
  if (!can_write(out)) {
    free(out);
    return DRVM_EXIT_USAGE;
  }
  int p0;
  uint64_t d0;
  DrVM *orig = replay(&m, rec, &m.want, &p0, &d0);
  int status = DRVM_EXIT_USAGE;
  if (orig && !m.want.deadlock && !m.want.exceptions.n && !m.want.races.n) {
    fprintf(stderr, "drvm: %s shows no race, uncaught exception or deadlock: nothing to keep while shrinking\n", rec);
  } else if (orig) {
    int best_p = p0;
    uint64_t best_d = d0;
    DrBuf what = {0};
    describe(&m.want, &what);
    printf("drvm: %s shows %s with %d preemption%s in %llu decisions\n", rec, what.data, p0, p0 == 1 ? "" : "s",
           (unsigned long long)d0);
    shrink_prefix(&m, orig, d0, out, &best_p, &best_d);
    for (int k = 0; k < best_p; k++) {
      int p;
      uint64_t d;
      char *tmp = dr_fmt("%s.try", out);
      bool ok = search(&m, NULL, 0, k, m.budget, tmp, &p, &d);
      if (ok && (p < best_p || (p == best_p && d < best_d))) {
        keep(&m, tmp, out);
        best_p = p;
        best_d = d;
      }
      remove(tmp);
      free(tmp);
      if (ok) break;
    }
    if (m.lost) {
      status = DRVM_EXIT_USAGE;
    } else if (best_p == p0 && best_d == d0) {
      printf("drvm: no run with fewer preemptions or decisions shows it; %s is as short as drvm can make it\n", rec);
      status = 0;
    } else {
      char *words = dr_prog_words(o);
      printf("drvm: %d preemption%s, %llu decisions: drvm run --replay %s %s\n", best_p, best_p == 1 ? "" : "s",
             (unsigned long long)best_d, out, words);
      free(words);
      status = 0;
    }
    free(what.data);
  }
  drvm_free(orig);
  finding_free(&m.want);
  free(m.out.data);
  free(m.err.data);
  free(out);
  return status;
}
