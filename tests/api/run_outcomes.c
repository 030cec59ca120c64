/* Running to the end: the output through the write_out / write_err
 * callbacks, and DrvmResult for each way a run ends -- normally, an
 * uncaught exception, System.exit, a deadlock, the step limit, drvm_stop,
 * races. */
#include "check.h"

/* Runs src under sched (NULL: the default) and the default detector. */
static int run(const char *src, const char *sched, uint64_t max_steps, Sinks *s, DrvmResult *r) {
  memset(r, 0, sizeof *r);
  DrVM *vm = vm_with(src, s, 1, max_steps);
  if (!vm) return -100;
  if (sched && !drvm_set_scheduler(vm, sched, NULL)) {
    drvm_free(vm);
    return -101;
  }
  int st = drvm_run(vm, 0, NULL, r);
  drvm_free(vm);
  return st;
}

static void normal(Check *t) {
  const char *src = "public class Hello {\n"
                    "  public static void main(String[] args) {\n"
                    "    System.out.println(\"hello, world\");\n"
                    "    System.err.println(\"to stderr\");\n"
                    "    int sum = 0;\n"
                    "    for (int i = 1; i <= 10; i++) sum += i;\n"
                    "    System.out.print(\"sum \" + sum);\n"
                    "  }\n"
                    "}\n";
  Sinks s = {0};
  DrvmResult r;
  CHECK(t, run(src, NULL, 0, &s, &r) == 0);
  CHECK_STR(t, out_text(&s.out), "hello, world\nsum 55");
  CHECK_STR(t, out_text(&s.err), "to stderr\n");
  CHECK(t, r.outcome == DRVM_OUTCOME_NORMAL);
  CHECK_STR(t, drvm_outcome_word(r.outcome), "NORMAL");
  CHECK(t, r.exit_status == 0);
  CHECK(t, r.threads == 1);
  CHECK(t, r.steps > 0);
  CHECK(t, r.races == 0 && r.uncaught == 0);
  CHECK(t, !r.restart);
  sinks_free(&s);
}

static void exception(Check *t) {
  const char *src = "public class Boom {\n"
                    "  public static void main(String[] args) {\n"
                    "    System.out.println(\"before\");\n"
                    "    int[] a = new int[2];\n"
                    "    a[3] = 1;\n"
                    "  }\n"
                    "}\n";
  Sinks s = {0};
  DrvmResult r;
  CHECK(t, run(src, NULL, 0, &s, &r) == 1);
  CHECK(t, r.outcome == DRVM_OUTCOME_EXCEPTION);
  CHECK(t, r.exit_status == 1);
  CHECK(t, r.uncaught == 1);
  CHECK_STR(t, out_text(&s.out), "before\n");
  CHECK_HAS(t, out_text(&s.err),
            "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 3 out of bounds for length 2\n"
            "\tat Boom.main(prog.dl:5)\n");
  sinks_free(&s);
}

static void exits(Check *t) {
  const char *src = "public class Bye {\n"
                    "  public static void main(String[] args) {\n"
                    "    System.out.println(\"bye\");\n"
                    "    System.exit(3);\n"
                    "    System.out.println(\"not reached\");\n"
                    "  }\n"
                    "}\n";
  Sinks s = {0};
  DrvmResult r;
  CHECK(t, run(src, NULL, 0, &s, &r) == 3);
  CHECK(t, r.outcome == DRVM_OUTCOME_EXIT);
  CHECK(t, r.exit_status == 3);
  CHECK_STR(t, out_text(&s.out), "bye\n");
  CHECK_STR(t, out_text(&s.err), "");
  sinks_free(&s);
}

/* Two threads take two locks in opposite orders, each sleeping while it
 * holds the first: whatever the schedule, both end up blocked. */
static const char DEADLOCK[] = "public class Dead {\n"
                               "  static final Object a = new Object();\n"
                               "  static final Object b = new Object();\n"
                               "  static void nap() {\n"
                               "    try { Thread.sleep(10); } catch (InterruptedException e) { }\n"
                               "  }\n"
                               "  static class Worker implements Runnable {\n"
                               "    public void run() {\n"
                               "      synchronized (b) { nap(); synchronized (a) { System.out.println(\"worker\"); } }\n"
                               "    }\n"
                               "  }\n"
                               "  public static void main(String[] args) {\n"
                               "    new Thread(new Worker()).start();\n"
                               "    synchronized (a) { nap(); synchronized (b) { System.out.println(\"main\"); } }\n"
                               "  }\n"
                               "}\n";

static void deadlock(Check *t) {
  const char *scheds[] = {"native", "random", "pct"};
  for (int i = 0; i < 3; i++) {
    Sinks s = {0};
    DrvmResult r;
    CHECK(t, run(DEADLOCK, scheds[i], 0, &s, &r) == 4);
    CHECK(t, r.outcome == DRVM_OUTCOME_DEADLOCK);
    CHECK(t, r.exit_status == 4);
    CHECK(t, r.threads == 2);
    CHECK_STR(t, out_text(&s.out), "");
    CHECK_HAS(t, out_text(&s.err), "Found one Java-level deadlock");
    sinks_free(&s);
  }
}

static void step_limit(Check *t) {
  const char *src = "public class Spin {\n"
                    "  public static void main(String[] args) {\n"
                    "    System.out.println(\"spinning\");\n"
                    "    int i = 0;\n"
                    "    while (true) { i++; }\n"
                    "  }\n"
                    "}\n";
  Sinks s = {0};
  DrvmResult r;
  CHECK(t, run(src, NULL, 1000, &s, &r) == 5);
  CHECK(t, r.outcome == DRVM_OUTCOME_STEP_LIMIT);
  CHECK(t, r.exit_status == 5);
  CHECK(t, r.steps >= 1000 && r.steps <= 1001);
  CHECK_STR(t, out_text(&s.out), "spinning\n");
  CHECK_HAS(t, out_text(&s.err), "1000 steps");
  sinks_free(&s);
}

/* drvm_stop, as drvm run's SIGINT handler calls it: the host's stderr
 * callback stops the VM once the program is past its print; the spin
 * ends at the next step check, the output written (issue 18, item 5). */
typedef struct {
  Sinks s;
  DrVM *vm;
} Stopper;

static void stop_on_err(void *user, const char *text, size_t len) {
  Stopper *st = user;
  out_add(&st->s.err, text, len);
  drvm_stop(st->vm);
}

static void stop_out(void *user, const char *text, size_t len) { out_add(&((Stopper *)user)->s.out, text, len); }

static void stopped(Check *t) {
  const char *src = "public class Spin {\n"
                    "  public static void main(String[] args) {\n"
                    "    System.out.println(\"main done\");\n"
                    "    System.err.println(\"spinning\");\n"
                    "    while (true) { }\n"
                    "  }\n"
                    "}\n";
  Stopper st = {0};
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.write_out = stop_out;
  cfg.write_err = stop_on_err;
  cfg.write_user = &st;
  char err[256];
  st.vm = drvm_new(&cfg, err, sizeof err);
  CHECK(t, st.vm && drvm_compile_string(st.vm, "prog.dl", src, strlen(src)));
  if (!st.vm) return;
  DrvmResult r;
  CHECK(t, drvm_run(st.vm, 0, NULL, &r) == DRVM_EXIT_INTERRUPTED);
  CHECK(t, r.outcome == DRVM_OUTCOME_INTERRUPTED);
  CHECK_STR(t, drvm_outcome_word(r.outcome), "INTERRUPTED");
  CHECK(t, r.exit_status == DRVM_EXIT_INTERRUPTED);
  CHECK_STR(t, out_text(&st.s.out), "main done\n");
  CHECK_STR(t, out_text(&st.s.err), "spinning\n");
  drvm_free(st.vm);
  sinks_free(&st.s);
}

/* main and a Runnable both increment c, unordered: FastTrack reports it. */
static void races(Check *t) {
  const char *src = "public class Racy {\n"
                    "  static int c;\n"
                    "  static class Inc implements Runnable {\n"
                    "    public void run() { c++; }\n"
                    "  }\n"
                    "  public static void main(String[] args) throws InterruptedException {\n"
                    "    Thread th = new Thread(new Inc());\n"
                    "    th.start();\n"
                    "    c++;\n"
                    "    th.join();\n"
                    "    System.out.println(\"done\");\n"
                    "  }\n"
                    "}\n";
  for (int seed = 1; seed <= 3; seed++) {
    Sinks s = {0};
    DrvmResult r;
    DrVM *vm = vm_with(src, &s, (uint64_t)seed, 0);
    CHECK(t, vm && drvm_set_scheduler(vm, "random", NULL) && drvm_set_detector(vm, "ft", NULL));
    CHECK(t, drvm_run(vm, 0, NULL, &r) == 66);
    CHECK(t, r.outcome == DRVM_OUTCOME_RACES);
    CHECK(t, r.exit_status == 66);
    CHECK(t, r.races >= 1);
    CHECK(t, r.threads == 2);
    CHECK(t, r.seed == (uint64_t)seed);
    CHECK_STR(t, out_text(&s.out), "done\n");
    CHECK_HAS(t, out_text(&s.err), "WARNING: DATA RACE");
    drvm_free(vm);
    sinks_free(&s);
  }
  /* the same program without a detector ends normally */
  Sinks s = {0};
  DrvmResult r;
  DrVM *vm = vm_with(src, &s, 1, 0);
  CHECK(t, vm && drvm_set_scheduler(vm, "random", NULL) && drvm_set_detector(vm, "none", NULL));
  CHECK(t, drvm_run(vm, 0, NULL, &r) == 0);
  CHECK(t, r.outcome == DRVM_OUTCOME_NORMAL && r.races == 0);
  CHECK_STR(t, out_text(&s.err), "");
  drvm_free(vm);
  sinks_free(&s);
}

/* Arguments reach main; drvm_run after the run is refused. */
static void args_and_rerun(Check *t) {
  const char *src = "public class Args {\n"
                    "  public static void main(String[] args) {\n"
                    "    System.out.println(args.length + \" \" + args[0] + args[1]);\n"
                    "  }\n"
                    "}\n";
  Sinks s = {0};
  DrvmResult r;
  DrVM *vm = vm_with(src, &s, 1, 0);
  const char *argv[] = {"x", "yz"};
  CHECK(t, drvm_run(vm, 2, argv, &r) == 0);
  CHECK_STR(t, out_text(&s.out), "2 xyz\n");
  CHECK(t, drvm_run(vm, 2, argv, &r) == -1);
  CHECK_HAS(t, drvm_error(vm), "drvm_start");
  drvm_free(vm);
  sinks_free(&s);
}

/* max_memory: the detector's state counts (issue 18, item 4).  Two
 * threads write every element of a big array under djit, whose clocks
 * per element outgrow the heap; the run ends with MEMORY_LIMIT, its
 * output so far written.  The heap itself past max_memory is the
 * program's OutOfMemoryError, as past max_heap. */
static void memory_limit(Check *t) {
  const char *src = "public class Big {\n"
                    "  static int[] a = new int[200000];\n"
                    "  static class W extends Thread { public void run() {\n"
                    "    for (int r = 0; r < 3; r++) for (int i = 0; i < a.length; i++) a[i] += r; } }\n"
                    "  public static void main(String[] args) throws InterruptedException {\n"
                    "    System.out.println(\"started\");\n"
                    "    Thread x = new W(), y = new W(); x.start(); x.join(); y.start(); y.join();\n"
                    "    System.out.println(\"done\");\n"
                    "  }\n"
                    "}\n";
  for (int limited = 0; limited < 2; limited++) {
    Sinks s = {0};
    DrvmConfig cfg;
    drvm_config_init(&cfg);
    cfg.seed = 1;
    cfg.max_memory = limited ? (size_t)8 << 20 : 0;
    cfg.write_out = sink_out;
    cfg.write_err = sink_err;
    cfg.write_user = &s;
    char err[256];
    DrVM *vm = drvm_new(&cfg, err, sizeof err);
    CHECK(t, vm != NULL);
    if (!vm) return;
    CHECK(t, drvm_compile_string(vm, "Big.dl", src, strlen(src)));
    CHECK(t, drvm_set_detector(vm, "djit", NULL));
    DrvmResult r;
    int st = drvm_run(vm, 0, NULL, &r);
    if (limited) {
      CHECK(t, st == 70 && r.outcome == DRVM_OUTCOME_MEMORY_LIMIT && r.exit_status == DRVM_EXIT_MEMORY);
      CHECK_STR(t, out_text(&s.out), "started\n");
      CHECK_HAS(t, out_text(&s.err), "drvm: out of memory: the VM holds");
      CHECK_STR(t, drvm_outcome_word(r.outcome), "MEMORY_LIMIT");
    } else {
      CHECK(t, st == 0 && r.outcome == DRVM_OUTCOME_NORMAL); /* the default, 4 GiB, is far */
      CHECK_STR(t, out_text(&s.out), "started\ndone\n");
    }
    drvm_free(vm);
    sinks_free(&s);
  }
  /* the heap past max_memory: OutOfMemoryError in the program */
  const char *hog = "public class Hog {\n"
                    "  public static void main(String[] args) {\n"
                    "    long[][] keep = new long[64][];\n"
                    "    try { for (int i = 0; i < 64; i++) keep[i] = new long[1 << 17]; }\n"
                    "    catch (OutOfMemoryError e) { keep = null; System.out.println(\"caught \" + e.getMessage()); }\n"
                    "  }\n"
                    "}\n";
  Sinks s = {0};
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.max_memory = (size_t)16 << 20;
  cfg.write_out = sink_out;
  cfg.write_err = sink_err;
  cfg.write_user = &s;
  char err[256];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  CHECK(t, vm && drvm_compile_string(vm, "Hog.dl", hog, strlen(hog)));
  DrvmResult r;
  CHECK(t, vm && drvm_run(vm, 0, NULL, &r) == 0 && r.outcome == DRVM_OUTCOME_NORMAL);
  CHECK_STR(t, out_text(&s.out), "caught Java heap space\n");
  if (vm) drvm_free(vm);
  sinks_free(&s);
}

int main(void) {
  Check t = {0};
  memory_limit(&t);
  normal(&t);
  exception(&t);
  exits(&t);
  deadlock(&t);
  step_limit(&t);
  stopped(&t);
  races(&t);
  args_and_rerun(&t);
  return CHECK_DONE(&t);
}
