/* drvm_explore: systematic exploration through the API.  A lost update
 * explored with optimal DPOR runs each Mazurkiewicz trace once (as many
 * executions as traces, each with its own fingerprint), reaches exactly
 * the outcomes the program has, and FastTrack reports the race in every
 * execution; without reduction the same traces come again and again;
 * the API refuses misuse; two VMs explore alternately in one process,
 * each exactly as it does alone; a recorded execution replays. */
#include <unistd.h>

#include "check.h"

#define MAX_EXEC 5000

/* two threads each increment count once: count=1 (lost) or count=2 */
static const char LOST[] = "public class Lost {\n"
                           "  static int count;\n"
                           "  static class Inc implements Runnable {\n"
                           "    public void run() { count = count + 1; }\n"
                           "  }\n"
                           "  public static void main(String[] args) throws InterruptedException {\n"
                           "    Thread a = new Thread(new Inc()), b = new Thread(new Inc());\n"
                           "    a.start();\n"
                           "    b.start();\n"
                           "    a.join();\n"
                           "    b.join();\n"
                           "    System.out.println(\"count=\" + count);\n"
                           "  }\n"
                           "}\n";

/* race-free: a lock orders the two writes, main prints who came last */
static const char LOCKED[] = "public class Locked {\n"
                             "  static final Object lock = new Object();\n"
                             "  static String last = \"none\";\n"
                             "  static class W implements Runnable {\n"
                             "    final String name;\n"
                             "    W(String name) { this.name = name; }\n"
                             "    public void run() { synchronized (lock) { last = name; } }\n"
                             "  }\n"
                             "  public static void main(String[] args) throws InterruptedException {\n"
                             "    Thread a = new Thread(new W(\"a\")), b = new Thread(new W(\"b\"));\n"
                             "    a.start();\n"
                             "    b.start();\n"
                             "    a.join();\n"
                             "    b.join();\n"
                             "    synchronized (lock) { System.out.println(\"last=\" + last); }\n"
                             "  }\n"
                             "}\n";

/* What one exploration gave, execution by execution. */
typedef struct {
  int n;
  uint64_t fp[MAX_EXEC];
  char *out[MAX_EXEC];        /* each execution's stdout */
  int status[MAX_EXEC];       /* drvm_finish's */
  int races[MAX_EXEC];        /* races on the expected location */
  DrvmExploreStats stats;
  int next_after_end;         /* drvm_explore_next once more after 0 */
} Exploration;

static char *dup_text(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) abort();
  memcpy(d, s, n);
  return d;
}

static void exploration_free(Exploration *e) {
  for (int i = 0; i < e->n; i++) free(e->out[i]);
  e->n = 0;
}

static int distinct_fps(const Exploration *e) {
  int d = 0;
  for (int i = 0; i < e->n; i++) {
    int j = 0;
    while (j < i && e->fp[j] != e->fp[i]) j++;
    d += j == i;
  }
  return d;
}

static bool has_fp(const Exploration *e, uint64_t fp) {
  for (int i = 0; i < e->n; i++)
    if (e->fp[i] == fp) return true;
  return false;
}

static bool same_fp_sets(const Exploration *a, const Exploration *b) {
  for (int i = 0; i < a->n; i++)
    if (!has_fp(b, a->fp[i])) return false;
  for (int i = 0; i < b->n; i++)
    if (!has_fp(a, b->fp[i])) return false;
  return true;
}

static bool has_out(const Exploration *e, const char *out) {
  for (int i = 0; i < e->n; i++)
    if (!strcmp(e->out[i], out)) return true;
  return false;
}

/* Every stdout of e is one of want[0..nwant), and each of them occurs. */
static bool outcomes_are(const Exploration *e, const char *const *want, int nwant) {
  for (int i = 0; i < e->n; i++) {
    int k = 0;
    while (k < nwant && strcmp(e->out[i], want[k])) k++;
    if (k == nwant) {
      fprintf(stderr, "  unexpected outcome %s", e->out[i]);
      return false;
    }
  }
  for (int k = 0; k < nwant; k++)
    if (!has_out(e, want[k])) {
      fprintf(stderr, "  outcome never reached: %s", want[k]);
      return false;
    }
  return true;
}

/* An explorer VM (a fresh one, compiled). */
typedef struct {
  Sinks s;
  DrVM *vm;
  const char *location;       /* the race to count (NULL: none expected) */
} Explorer;

static bool explorer_new(Check *t, Explorer *x, const char *src, DrvmPor por, const char *detector,
                         const char *location) {
  memset(x, 0, sizeof *x);
  x->location = location;
  x->vm = vm_with(src, &x->s, 1, 1000000);
  CHECK(t, x->vm != NULL);
  if (!x->vm) return false;
  DrvmExploreConfig c;
  drvm_explore_config_init(&c);
  CHECK(t, c.por == DRVM_POR_OPTIMAL && c.preemptions == -1); /* the defaults */
  c.por = por;
  c.detector = detector;
  bool ok = drvm_explore(x->vm, &c);
  if (!ok) fprintf(stderr, "drvm_explore: %s\n", drvm_error(x->vm));
  CHECK(t, ok);
  return ok;
}

/* One execution into e: 1, or 0 at the end, or -1. */
static int explorer_step(Check *t, Explorer *x, Exploration *e) {
  out_free(&x->s.out);
  out_free(&x->s.err);
  int r = drvm_explore_next(x->vm, 0, NULL);
  if (r != 1) {
    if (r < 0) fprintf(stderr, "drvm_explore_next: %s\n", drvm_error(x->vm));
    return r;
  }
  CHECK(t, e->n < MAX_EXEC);
  if (e->n >= MAX_EXEC) return -1;
  int i = e->n++;
  e->fp[i] = drvm_explore_fingerprint(x->vm);
  CHECK(t, e->fp[i] != 0);
  DrvmExploreStats st;
  CHECK(t, drvm_explore_stats(x->vm, &st) && st.executions == (uint64_t)e->n && !st.last_blocked);
  CHECK(t, st.last_decisions > 0 && st.last_decisions <= st.max_decisions);
  e->races[i] = 0;
  for (int k = 0; k < drvm_race_count(x->vm); k++) {
    DrvmRace race;
    CHECK(t, drvm_race(x->vm, k, &race));
    if (x->location && !strcmp(race.location, x->location)) e->races[i]++;
  }
  DrvmResult res;
  e->status[i] = drvm_finish(x->vm, &res);
  CHECK(t, res.outcome == (e->races[i] ? DRVM_OUTCOME_RACES : DRVM_OUTCOME_NORMAL));
  CHECK(t, res.races == drvm_race_count(x->vm) || res.races >= e->races[i]);
  e->out[i] = dup_text(out_text(&x->s.out));
  return 1;
}

static void explorer_end(Check *t, Explorer *x, Exploration *e) {
  CHECK(t, drvm_explore_stats(x->vm, &e->stats));
  e->next_after_end = drvm_explore_next(x->vm, 0, NULL);
  drvm_free(x->vm);
  sinks_free(&x->s);
  x->vm = NULL;
}

static void explore_all(Check *t, const char *src, DrvmPor por, const char *detector, const char *location,
                        Exploration *e) {
  memset(e, 0, sizeof *e);
  Explorer x;
  if (!explorer_new(t, &x, src, por, detector, location)) return;
  int r;
  while ((r = explorer_step(t, &x, e)) == 1) {
  }
  CHECK(t, r == 0);
  explorer_end(t, &x, e);
}

/* The invariants of a complete exploration. */
static void check_complete(Check *t, const Exploration *e) {
  CHECK(t, e->n > 0);
  CHECK(t, e->stats.done && e->stats.complete);
  CHECK(t, e->stats.executions == (uint64_t)e->n);
  CHECK(t, e->stats.traces == (uint64_t)e->n); /* nothing abandoned here */
  CHECK(t, e->stats.blocked == 0 && e->stats.cut == 0 && e->stats.step_limited == 0);
  CHECK(t, e->next_after_end == 0);           /* stays at its end */
}

static void lost_update(Check *t, Exploration *opt) {
  explore_all(t, LOST, DRVM_POR_OPTIMAL, "ft", "Lost.count", opt);
  check_complete(t, opt);
  /* each trace exactly once */
  CHECK(t, distinct_fps(opt) == opt->n);
  static const char *const want[] = {"count=1\n", "count=2\n"};
  CHECK(t, outcomes_are(opt, want, 2));
  for (int i = 0; i < opt->n; i++) {
    CHECK(t, opt->races[i] >= 1); /* the two increments are never ordered */
    CHECK(t, opt->status[i] == DRVM_EXIT_RACES);
  }

  /* no reduction: every interleaving, the same traces */
  Exploration none;
  explore_all(t, LOST, DRVM_POR_NONE, "ft", "Lost.count", &none);
  check_complete(t, &none);
  CHECK(t, none.n > opt->n);
  CHECK(t, distinct_fps(&none) == opt->n);
  CHECK(t, same_fp_sets(&none, opt));
  CHECK(t, outcomes_are(&none, want, 2));
  exploration_free(&none);

  /* source sets: the same traces (perhaps some twice) */
  Exploration src;
  explore_all(t, LOST, DRVM_POR_SOURCE, "ft", "Lost.count", &src);
  CHECK(t, src.stats.done && src.stats.complete);
  CHECK(t, same_fp_sets(&src, opt));
  exploration_free(&src);

  /* no detector: the same traces and outcomes, no race */
  Exploration quiet;
  explore_all(t, LOST, DRVM_POR_OPTIMAL, "none", "Lost.count", &quiet);
  check_complete(t, &quiet);
  CHECK(t, quiet.n == opt->n && same_fp_sets(&quiet, opt));
  for (int i = 0; i < quiet.n; i++) CHECK(t, quiet.races[i] == 0 && quiet.status[i] == DRVM_EXIT_OK);
  exploration_free(&quiet);
}

static void race_free(Check *t) {
  Exploration opt, none;
  explore_all(t, LOCKED, DRVM_POR_OPTIMAL, NULL, NULL, &opt); /* NULL: ft */
  check_complete(t, &opt);
  CHECK(t, distinct_fps(&opt) == opt.n);
  static const char *const want[] = {"last=a\n", "last=b\n"};
  CHECK(t, outcomes_are(&opt, want, 2));
  for (int i = 0; i < opt.n; i++) CHECK(t, opt.status[i] == DRVM_EXIT_OK);
  explore_all(t, LOCKED, DRVM_POR_NONE, NULL, NULL, &none);
  check_complete(t, &none);
  CHECK(t, none.n > opt.n && same_fp_sets(&none, &opt));
  CHECK(t, outcomes_are(&none, want, 2));
  exploration_free(&opt);
  exploration_free(&none);
}

/* The preemption bound cuts: not complete, fewer traces. */
static void bounded(Check *t, const Exploration *full) {
  Sinks s = {0};
  DrVM *vm = vm_with(LOST, &s, 1, 0);
  CHECK(t, vm != NULL);
  if (!vm) return;
  DrvmExploreConfig c;
  drvm_explore_config_init(&c);
  c.preemptions = 0;
  CHECK(t, drvm_explore(vm, &c));
  int n = 0, r;
  while ((r = drvm_explore_next(vm, 0, NULL)) == 1) {
    DrvmExploreStats st;
    CHECK(t, drvm_explore_stats(vm, &st) && st.last_preemptions == 0);
    CHECK(t, has_fp(full, drvm_explore_fingerprint(vm)));
    n++;
  }
  CHECK(t, r == 0);
  DrvmExploreStats st;
  CHECK(t, drvm_explore_stats(vm, &st));
  CHECK(t, st.done && !st.complete && st.cut > 0);
  CHECK(t, n > 0 && n < full->n && st.executions == (uint64_t)n);
  drvm_free(vm);
  sinks_free(&s);
}

/* A recorded execution (c.record) saved and replayed by a fresh VM. */
static void recorded(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(LOST, &s, 1, 0);
  CHECK(t, vm != NULL);
  if (!vm) return;
  DrvmExploreConfig c;
  drvm_explore_config_init(&c);
  c.record = true;
  CHECK(t, drvm_explore(vm, &c));
  char path[] = "/tmp/drvm-api-explore-XXXXXX";
  int fd = mkstemp(path);
  CHECK(t, fd >= 0);
  if (fd >= 0) close(fd);
  bool saved = false;
  while (!saved && drvm_explore_next(vm, 0, NULL) == 1) {
    DrvmResult r;
    drvm_finish(vm, &r);
    if (!strcmp(out_text(&s.out), "count=1\n")) saved = drvm_save_decisions(vm, path);
    out_free(&s.out);
  }
  CHECK(t, saved);
  drvm_free(vm);
  sinks_free(&s);
  /* the lost update comes back */
  DrVM *re = vm_with(LOST, &s, 1, 0);
  uint64_t seed;
  CHECK(t, re && drvm_replay(re, path, false, &seed));
  if (re) {
    DrvmResult r;
    CHECK(t, drvm_run(re, 0, NULL, &r) == DRVM_EXIT_RACES);
    CHECK_STR(t, out_text(&s.out), "count=1\n");
    drvm_free(re);
  }
  sinks_free(&s);
  unlink(path);
}

static void misuse(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(LOST, &s, 1, 0);
  CHECK(t, vm != NULL);
  if (!vm) return;
  DrvmExploreStats st;
  /* not an explorer yet */
  CHECK(t, drvm_explore_next(vm, 0, NULL) == -1);
  CHECK_HAS(t, drvm_error(vm), "drvm_explore");
  CHECK(t, !drvm_explore_stats(vm, &st));
  CHECK(t, drvm_explore_fingerprint(vm) == 0);
  DrvmExploreConfig c;
  drvm_explore_config_init(&c);
  /* a reduction or a detector that does not exist */
  c.por = (DrvmPor)99;
  CHECK(t, !drvm_explore(vm, &c));
  CHECK(t, drvm_error(vm)[0] != 0);
  c.por = DRVM_POR_OPTIMAL;
  c.detector = "bogus";
  CHECK(t, !drvm_explore(vm, &c));
  CHECK_HAS(t, drvm_error(vm), "bogus");
  c.detector = NULL;
  /* the VM is still usable: explore, then not twice */
  CHECK(t, drvm_explore(vm, &c));
  CHECK(t, drvm_explore_fingerprint(vm) == 0); /* no execution ran */
  CHECK(t, drvm_explore_stats(vm, &st) && st.executions == 0 && !st.done);
  CHECK(t, !drvm_explore(vm, &c));
  CHECK(t, drvm_error(vm)[0] != 0);
  CHECK(t, drvm_explore_next(vm, 0, NULL) == 1); /* the first still works */
  drvm_free(vm);                                 /* freed in mid-exploration: no leak (asan) */
  sinks_free(&s);

  /* after drvm_start: too late */
  vm = vm_with(LOST, &s, 1, 0);
  CHECK(t, vm && drvm_start(vm, 0, NULL));
  if (vm) {
    CHECK(t, !drvm_explore(vm, &c));
    CHECK(t, drvm_error(vm)[0] != 0);
    CHECK(t, drvm_run_to_end(vm));
    drvm_free(vm);
  }
  sinks_free(&s);

  /* not compiled */
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  vm = drvm_new(&cfg, NULL, 0);
  CHECK(t, vm && !drvm_explore(vm, &c));
  CHECK(t, vm && drvm_explore_next(vm, 0, NULL) == -1);
  drvm_free(vm);

  CHECK_STR(t, drvm_por_word(DRVM_POR_OPTIMAL), "optimal");
  CHECK_STR(t, drvm_por_word(DRVM_POR_SOURCE), "source");
  CHECK_STR(t, drvm_por_word(DRVM_POR_NONE), "none");
}

static bool same_exploration(const Exploration *a, const Exploration *b) {
  if (a->n != b->n) return false;
  for (int i = 0; i < a->n; i++)
    if (a->fp[i] != b->fp[i] || strcmp(a->out[i], b->out[i]) || a->status[i] != b->status[i] || a->races[i] != b->races[i])
      return false;
  return true;
}

/* Two VMs exploring alternately, one execution each in turn: each
 * exploration is exactly what it is alone (no global state). */
static void two_vms(Check *t, const Exploration *lost_alone) {
  Exploration locked_alone, a = {0}, b = {0};
  explore_all(t, LOCKED, DRVM_POR_NONE, NULL, NULL, &locked_alone);
  Explorer xa, xb;
  if (!explorer_new(t, &xa, LOST, DRVM_POR_OPTIMAL, "ft", "Lost.count")) return;
  if (!explorer_new(t, &xb, LOCKED, DRVM_POR_NONE, NULL, NULL)) return;
  int ra = 1, rb = 1;
  while (ra == 1 || rb == 1) {
    if (ra == 1) ra = explorer_step(t, &xa, &a);
    if (rb == 1) rb = explorer_step(t, &xb, &b);
  }
  CHECK(t, ra == 0 && rb == 0);
  explorer_end(t, &xa, &a);
  explorer_end(t, &xb, &b);
  CHECK(t, a.n > 1 && b.n > a.n); /* they really alternated */
  CHECK(t, same_exploration(&a, lost_alone));
  CHECK(t, same_exploration(&b, &locked_alone));
  exploration_free(&a);
  exploration_free(&b);
  exploration_free(&locked_alone);
}

int main(void) {
  Check t = {0};
  static Exploration lost; /* big: not on the stack */
  lost_update(&t, &lost);
  race_free(&t);
  bounded(&t, &lost);
  recorded(&t);
  misuse(&t);
  two_vms(&t, &lost);
  exploration_free(&lost);
  return CHECK_DONE(&t);
}
