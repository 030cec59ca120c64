/* drvm_reset: compile once, run many.  Every run of one VM reset between
 * runs -- after a finished run, an ended one, one stopped at a decision,
 * one never run -- is exactly the run a fresh VM compiling the same
 * program makes: the same stdout and stderr, result, race reports (with
 * their object numbers) and recording, byte for byte. */
#include <unistd.h>

#include "check.h"

enum { SEED = 11, MAX_STEPS = 100000 };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Races on one Account of three: its number (Account#3) is in the
 * report, and identity hashes come from object numbers. */
static const char BANK[] = "public class Bank {\n"
                           "  static class Account {\n"
                           "    int balance;\n"
                           "    void deposit(int n) { balance = balance + n; }\n"
                           "  }\n"
                           "  static Account a = new Account(), b = new Account(), c = new Account();\n"
                           "  static class Worker implements Runnable {\n"
                           "    final Account acc;\n"
                           "    Worker(Account acc) { this.acc = acc; }\n"
                           "    public void run() { for (int i = 0; i < 3; i++) acc.deposit(1); }\n"
                           "  }\n"
                           "  public static void main(String[] args) throws InterruptedException {\n"
                           "    Thread t1 = new Thread(new Worker(c)), t2 = new Thread(new Worker(c));\n"
                           "    t1.start();\n"
                           "    t2.start();\n"
                           "    c.deposit(5);\n"
                           "    t1.join();\n"
                           "    t2.join();\n"
                           "    System.out.println(\"c \" + c.balance + \" \" + new Object().hashCode() + \" \" + c.hashCode());\n"
                           "  }\n"
                           "}\n";

/* Static initializers (one lazy, reached from two threads), a class
 * without one (initialized on the spot: its instructions are quickened),
 * a static synchronized method (the class's lock) and a string literal's
 * lock. */
static const char INIT[] = "public class Init {\n"
                           "  static int counter;\n"
                           "  static class Hits { static int n; }\n"
                           "  static String log = \"\";\n"
                           "  static { System.out.println(\"Init <clinit> \" + counter); }\n"
                           "  static class Lazy {\n"
                           "    static int value = 40;\n"
                           "    static { value += 2; System.out.println(\"Lazy <clinit>\"); }\n"
                           "  }\n"
                           "  static synchronized void bump() { counter++; }\n"
                           "  static class T implements Runnable {\n"
                           "    public void run() {\n"
                           "      for (int i = 0; i < 3; i++) {\n"
                           "        bump();\n"
                           "        Hits.n++;\n"
                           "        synchronized (\"lock\") { log = log + Lazy.value % 10; }\n"
                           "      }\n"
                           "    }\n"
                           "  }\n"
                           "  public static void main(String[] args) throws InterruptedException {\n"
                           "    Thread x = new Thread(new T()), y = new Thread(new T());\n"
                           "    x.start();\n"
                           "    y.start();\n"
                           "    x.join();\n"
                           "    y.join();\n"
                           "    System.out.println(counter + \" \" + log + \" \" + Lazy.value + \" \" + Hits.n);\n"
                           "  }\n"
                           "}\n";

static const char QUEUE[] = "public class Queue {\n"
                            "  static final int[] buf = new int[2];\n"
                            "  static int n, sum;\n"
                            "  static class Producer implements Runnable {\n"
                            "    public void run() {\n"
                            "      for (int i = 1; i <= 5; i++) {\n"
                            "        synchronized (buf) {\n"
                            "          while (n == buf.length) { try { buf.wait(); } catch (InterruptedException e) { } }\n"
                            "          buf[n++] = i;\n"
                            "          System.out.println(\"put \" + i);\n"
                            "          buf.notifyAll();\n"
                            "        }\n"
                            "      }\n"
                            "    }\n"
                            "  }\n"
                            "  public static void main(String[] args) throws InterruptedException {\n"
                            "    new Thread(new Producer()).start();\n"
                            "    for (int k = 0; k < 5; k++) {\n"
                            "      synchronized (buf) {\n"
                            "        while (n == 0) buf.wait();\n"
                            "        int v = buf[--n];\n"
                            "        sum += v;\n"
                            "        System.out.println(\"got \" + v);\n"
                            "        buf.notifyAll();\n"
                            "      }\n"
                            "    }\n"
                            "    System.out.println(\"sum \" + sum);\n"
                            "  }\n"
                            "}\n";

/* Arrays (some of classes made while running: char[] of toCharArray,
 * String[][]), string building, "true" interned at run time, identity
 * hashes of arrays. */
static const char STRINGS[] = "public class Strs {\n"
                              "  public static void main(String[] args) {\n"
                              "    StringBuilder sb = new StringBuilder();\n"
                              "    int[][] grid = new int[3][4];\n"
                              "    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) { grid[i][j] = i * j; sb.append(grid[i][j]); }\n"
                              "    char[] cs = sb.toString().toCharArray();\n"
                              "    String[][] parts = new String[2][1];\n"
                              "    parts[0][0] = \"x\" + cs.length;\n"
                              "    parts[1][0] = String.valueOf(cs.length > 3);\n"
                              "    Object o = new Object();\n"
                              "    System.out.println(sb + \" \" + parts[0][0] + parts[1][0] + \" \" + o.hashCode() + \" \" + cs.hashCode()\n"
                              "        + \" \" + grid.hashCode() + \" \" + parts.hashCode() + \" \" + parts[1].hashCode());\n"
                              "  }\n"
                              "}\n";

static const char UNCAUGHT[] = "public class Boom {\n"
                               "  static int shared;\n"
                               "  static class Bad implements Runnable {\n"
                               "    public void run() { shared++; throw new RuntimeException(\"boom \" + shared); }\n"
                               "  }\n"
                               "  public static void main(String[] args) throws InterruptedException {\n"
                               "    Thread t = new Thread(new Bad());\n"
                               "    t.start();\n"
                               "    shared++;\n"
                               "    t.join();\n"
                               "    throw new IllegalStateException(\"main too \" + shared);\n"
                               "  }\n"
                               "}\n";

static const char EXIT[] = "public class Quit {\n"
                           "  static int n;\n"
                           "  static class Spin implements Runnable {\n"
                           "    public void run() { for (int i = 0; i < 1000; i++) { n++; if (i % 100 == 0) System.out.println(\"spin \" + i); } }\n"
                           "  }\n"
                           "  public static void main(String[] args) {\n"
                           "    new Thread(new Spin()).start();\n"
                           "    for (int i = 0; i < 50; i++) n++;\n"
                           "    System.out.println(\"exit at \" + n);\n"
                           "    System.exit(3);\n"
                           "  }\n"
                           "}\n";

/* main holds the lock T needs and waits for T: a deadlock in every run. */
static const char DEADLOCK[] = "public class Stuck {\n"
                               "  static final Object lock = new Object();\n"
                               "  static class T implements Runnable {\n"
                               "    public void run() { synchronized (lock) { System.out.println(\"never\"); } }\n"
                               "  }\n"
                               "  public static void main(String[] args) throws InterruptedException {\n"
                               "    Thread t = new Thread(new T());\n"
                               "    synchronized (lock) {\n"
                               "      t.start();\n"
                               "      t.join();\n"
                               "    }\n"
                               "  }\n"
                               "}\n";

/* new Random() draws its seed from the VM's seed and a count of draws. */
static const char RANDOM[] = "import java.util.Random;\n"
                             "public class Dice {\n"
                             "  static class Roller implements Runnable {\n"
                             "    public void run() { System.out.println(\"t \" + new Random().nextInt(1000)); }\n"
                             "  }\n"
                             "  public static void main(String[] args) throws InterruptedException {\n"
                             "    Thread t = new Thread(new Roller());\n"
                             "    t.start();\n"
                             "    System.out.println(\"m \" + new Random().nextInt(1000) + \" \" + new Random().nextLong());\n"
                             "    t.join();\n"
                             "  }\n"
                             "}\n";

/* The order of two first uses follows the scheduler's seed: when Base
 * is initialized first, `new Sub()` is quickened (Sub has nothing to
 * initialize), and a run that comes to it first must still initialize
 * Base there. */
static const char ORDER[] = "import java.util.Random;\n"
                            "public class Order {\n"
                            "  static class Base { static int x; static { x = 5; System.out.println(\"Base <clinit>\"); } }\n"
                            "  static class Sub extends Base { int y = 1; }\n"
                            "  public static void main(String[] args) {\n"
                            "    int first = new Random().nextInt(2);\n"
                            "    for (int i = 0; i < 2; i++) {\n"
                            "      if (first == i) System.out.println(\"x \" + Base.x);\n"
                            "      else System.out.println(\"sub \" + new Sub().y);\n"
                            "    }\n"
                            "  }\n"
                            "}\n";

/* Never ends: stopped by the config's max_steps. */
static const char SPIN[] = "public class Forever {\n"
                           "  static int n;\n"
                           "  static class S implements Runnable { public void run() { while (true) n++; } }\n"
                           "  public static void main(String[] args) { new Thread(new S()).start(); while (true) n--; }\n"
                           "}\n";

typedef struct {
  const char *name, *src;
  DrvmOutcome outcome; /* under the native scheduler */
} Prog;

typedef struct {
  const char *sched, *options, *det;
} Setup;

/* Everything a run shows a host. */
typedef struct {
  int status;
  DrvmResult r;
  char *out, *err, *races;
  char *rec;
  size_t rec_len;
} Outcome;

static void outcome_free(Outcome *o) {
  free(o->out);
  free(o->err);
  free(o->races);
  free(o->rec);
  memset(o, 0, sizeof *o);
}

static char *copy_text(const Out *o) { return strdup(out_text(o)); }

static char *read_all(const char *path, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  Out o = {0};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out_add(&o, buf, n);
  fclose(f);
  *len = o.len;
  return o.data ? o.data : strdup("");
}

static char *race_texts(DrVM *vm) {
  Out o = {0};
  int n = drvm_race_count(vm);
  for (int i = 0; i < n; i++) {
    DrvmRace r;
    if (!drvm_race(vm, i, &r)) continue;
    char head[128];
    snprintf(head, sizeof head, "[T%d %c after T%d %c] ", r.thread, r.write ? 'w' : 'r', r.prev_thread,
             r.prev_write ? 'w' : 'r');
    out_add(&o, head, strlen(head));
    out_add(&o, r.location, strlen(r.location));
    out_add(&o, "\n", 1);
    out_add(&o, r.text, strlen(r.text));
  }
  return o.data ? o.data : strdup("");
}

static bool configure(Check *t, DrVM *vm, const Setup *u) {
  bool ok = drvm_set_scheduler(vm, u->sched, u->options) && drvm_set_detector(vm, u->det, NULL) && drvm_record(vm, NULL);
  if (!ok) fprintf(stderr, "configure: %s\n", drvm_error(vm));
  CHECK(t, ok);
  return ok;
}

/* One whole run of vm (compiled or reset), into *o; s is vm's sinks. */
static void run_once(Check *t, DrVM *vm, Sinks *s, const Setup *u, const char *rec_path, Outcome *o) {
  memset(o, 0, sizeof *o);
  sinks_free(s);
  o->status = -100;
  if (configure(t, vm, u) && drvm_start(vm, 0, NULL) && drvm_run_to_end(vm)) {
    o->races = race_texts(vm); /* valid until drvm_finish */
    o->status = drvm_finish(vm, &o->r);
    CHECK(t, drvm_save_decisions(vm, rec_path));
    o->rec = read_all(rec_path, &o->rec_len);
  }
  CHECK(t, o->status >= 0);
  o->out = copy_text(&s->out);
  o->err = copy_text(&s->err);
}

static void fresh(Check *t, const Prog *p, const Setup *u, const char *rec_path, Outcome *o) {
  Sinks s = {0};
  DrVM *vm = vm_with(p->src, &s, SEED, MAX_STEPS);
  CHECK(t, vm != NULL);
  if (vm) run_once(t, vm, &s, u, rec_path, o);
  drvm_free(vm);
  sinks_free(&s);
}

static void same(Check *t, const Outcome *a, const Outcome *b, const char *what) {
  int before = t->failed;
  CHECK(t, a->status == b->status);
  CHECK_STR(t, a->out, b->out);
  CHECK_STR(t, a->err, b->err);
  CHECK_STR(t, a->races, b->races);
  CHECK(t, a->r.outcome == b->r.outcome && a->r.exit_status == b->r.exit_status);
  CHECK(t, a->r.races == b->r.races && a->r.uncaught == b->r.uncaught && a->r.threads == b->r.threads);
  CHECK(t, a->r.steps == b->r.steps && a->r.decisions == b->r.decisions && a->r.seed == b->r.seed);
  CHECK(t, a->r.virtual_ms == b->r.virtual_ms && a->r.restart == b->r.restart);
  CHECK(t, a->rec && b->rec && a->rec_len == b->rec_len && !memcmp(a->rec, b->rec, a->rec_len));
  if (t->failed > before) fprintf(stderr, "  ... in %s\n", what);
}

/* Ways to leave a run before resetting. */
typedef enum {
  LEAVE_FINISHED,
  LEAVE_ENDED,      /* run to the end, not finished */
  LEAVE_STARTED,    /* started, never run */
  LEAVE_CONFIGURED, /* scheduler and detector set, not started */
  LEAVE_AT_DECISION,/* stopped at a decision (after `stops` decided ones) */
} Leave;

/* Leaves a run of vm as `how` says, for the next reset. */
static void leave_run(Check *t, DrVM *vm, const Setup *u, Leave how, int stops) {
  if (!configure(t, vm, u)) return;
  if (how == LEAVE_CONFIGURED) return;
  if (how == LEAVE_AT_DECISION) CHECK(t, drvm_set_stepping(vm, DRVM_POINT_ACCESS, true));
  CHECK(t, drvm_start(vm, 0, NULL));
  if (how == LEAVE_ENDED || how == LEAVE_FINISHED) CHECK(t, drvm_run_to_end(vm));
  if (how == LEAVE_FINISHED) CHECK(t, drvm_finish(vm, NULL) >= 0);
  for (int i = 0; how == LEAVE_AT_DECISION && i <= stops; i++) {
    DrvmDecision d;
    if (drvm_run_until_decision(vm, &d) != 1) break;
    if (i < stops) CHECK(t, drvm_decide(vm, DRVM_SUGGESTED));
  }
}

/* One VM, reset between runs: each run is the fresh one, whatever the
 * previous run was and wherever it stopped. */
static void reused(Check *t, const Prog *p, const Setup *u, const Setup *other, const char *dir) {
  char fresh_rec[512], reuse_rec[512], what[256];
  snprintf(fresh_rec, sizeof fresh_rec, "%s/fresh.rec", dir);
  snprintf(reuse_rec, sizeof reuse_rec, "%s/reuse.rec", dir);
  Outcome want;
  fresh(t, p, u, fresh_rec, &want);
  Sinks s = {0};
  DrVM *vm = vm_with(p->src, &s, SEED, MAX_STEPS);
  CHECK(t, vm != NULL);
  if (!vm) return;
  static const struct {
    Leave how;
    int stops;
    bool other;
  } before[] = {
      {LEAVE_FINISHED, 0, false},    /* the very first run: no reset yet */
      {LEAVE_FINISHED, 0, false},    {LEAVE_FINISHED, 0, true},     {LEAVE_ENDED, 0, false},
      {LEAVE_AT_DECISION, 0, false}, {LEAVE_AT_DECISION, 3, true},  {LEAVE_AT_DECISION, 9, false},
      {LEAVE_AT_DECISION, 25, true}, {LEAVE_STARTED, 0, false},     {LEAVE_CONFIGURED, 0, true},
  };
  for (size_t i = 0; i < COUNT(before); i++) {
    if (i > 0) {
      leave_run(t, vm, before[i].other ? other : u, before[i].how, before[i].stops);
      CHECK(t, drvm_reset(vm));
      CHECK(t, drvm_thread_count(vm) == 0 && drvm_race_count(vm) == 0);
    }
    Outcome got;
    run_once(t, vm, &s, u, reuse_rec, &got);
    snprintf(what, sizeof what, "%s under %s %s/%s, run %zu (left as %d after %d stops)", p->name, u->sched,
             u->options ? u->options : "", u->det, i, before[i].how, before[i].stops);
    same(t, &got, &want, what);
    outcome_free(&got);
    CHECK(t, drvm_reset(vm));
  }
  drvm_free(vm);
  sinks_free(&s);
  outcome_free(&want);
}

/* ------------------------------------------------------------ the rest of the contract */

static void before_compiling(Check *t) {
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, !drvm_reset(vm));
  CHECK_HAS(t, drvm_error(vm), "drvm_reset: no program compiled");
  /* a program that does not compile leaves nothing to reset to either */
  FILE *quiet = fopen("/dev/null", "w");
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.err = quiet;
  DrVM *bad = drvm_new(&cfg, NULL, 0);
  CHECK(t, !drvm_compile_string(bad, "bad.dl", "class {", 7));
  CHECK(t, !drvm_reset(bad));
  CHECK_HAS(t, drvm_error(bad), "no program compiled");
  drvm_free(bad);
  fclose(quiet);
  drvm_free(vm);
}

typedef struct {
  int calls;
  bool reset_ok;
  char err[256];
} ListenerTry;

static void try_reset(void *user, DrVM *vm, const DrvmEvent *e) {
  (void)e;
  ListenerTry *l = user;
  if (l->calls++) return;
  l->reset_ok = drvm_reset(vm);
  snprintf(l->err, sizeof l->err, "%s", drvm_error(vm));
}

typedef struct {
  int destroyed;
} HostCount;

static int first_choice(void *user, DrVM *vm, const DrvmDecision *d) {
  (void)user;
  (void)vm;
  return d->choices[0].thread;
}

static void count_destroy(void *user) { ((HostCount *)user)->destroyed++; }

/* A listener may not reset; a host scheduler is destroyed by a reset and
 * the next run has the default scheduler again. */
static void what_goes(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(BANK, &s, SEED, MAX_STEPS);
  if (!vm) return;
  ListenerTry l = {0};
  CHECK(t, drvm_add_listener(vm, DRVM_EV_BIT(DRVM_EV_FORK), try_reset, &l));
  HostCount h = {0};
  DrvmHostScheduler hs = {.name = "first", .pick = first_choice, .destroy = count_destroy};
  CHECK(t, drvm_set_host_scheduler(vm, &hs, &h));
  CHECK_STR(t, drvm_scheduler_name(vm), "first");
  CHECK(t, drvm_run(vm, 0, NULL, NULL) >= 0);
  CHECK(t, l.calls > 0 && !l.reset_ok);
  CHECK_HAS(t, l.err, "listener");
  CHECK(t, h.destroyed == 0);
  CHECK(t, drvm_reset(vm));
  CHECK(t, h.destroyed == 1);
  CHECK_STR(t, drvm_scheduler_name(vm), "native");
  CHECK(t, drvm_reset(vm)); /* right after a reset: nothing to undo */
  l.calls = 0;
  CHECK(t, drvm_run(vm, 0, NULL, NULL) >= 0);
  CHECK(t, l.calls == 0); /* the listener went with the run */
  CHECK(t, h.destroyed == 1);
  drvm_free(vm);
  sinks_free(&s);
}

/* Programs whose runs show what a reset must undo, and the schedulers
 * and detectors they run under. */
int main(void) {
  Check t = {0};
  char dir[] = "/tmp/drvm_api_resetXXXXXX";
  if (!mkdtemp(dir)) return 1;
  static const Prog progs[] = {
      {"bank", BANK, DRVM_OUTCOME_RACES},         {"init", INIT, DRVM_OUTCOME_RACES},
      {"queue", QUEUE, DRVM_OUTCOME_NORMAL},      {"strings", STRINGS, DRVM_OUTCOME_NORMAL},
      {"uncaught", UNCAUGHT, DRVM_OUTCOME_EXCEPTION}, {"exit", EXIT, DRVM_OUTCOME_EXIT},
      {"deadlock", DEADLOCK, DRVM_OUTCOME_DEADLOCK},  {"random", RANDOM, DRVM_OUTCOME_NORMAL},
      {"order", ORDER, DRVM_OUTCOME_NORMAL},      {"spin", SPIN, DRVM_OUTCOME_STEP_LIMIT},
  };
  static const Setup setups[] = {
      {"native", NULL, "ft"},
      {"random", "seed=3", "ft"},
      {"pct", "depth=3 seed=5", "djit"},
      {"random", "seed=8", "none"},
  };
  char rec[512];
  snprintf(rec, sizeof rec, "%s/check.rec", dir);
  for (size_t i = 0; i < COUNT(progs); i++) {
    /* the programs do what they are here for */
    Outcome o;
    fresh(&t, &progs[i], &setups[0], rec, &o);
    if (o.r.outcome != progs[i].outcome) fprintf(stderr, "%s: outcome %d\n", progs[i].name, o.r.outcome);
    CHECK(&t, o.r.outcome == progs[i].outcome);
    outcome_free(&o);
    for (size_t k = 0; k < COUNT(setups); k++)
      reused(&t, &progs[i], &setups[k], &setups[(k + 1) % COUNT(setups)], dir);
  }
  /* the race report names the object by its number in every run */
  Outcome bank;
  fresh(&t, &progs[0], &setups[0], rec, &bank);
  CHECK_HAS(&t, bank.races, "(Bank$Account#3)");
  outcome_free(&bank);
  before_compiling(&t);
  what_goes(&t);
  unlink(rec);
  char path[600];
  snprintf(path, sizeof path, "%s/fresh.rec", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/reuse.rec", dir);
  unlink(path);
  rmdir(dir);
  return CHECK_DONE(&t);
}
