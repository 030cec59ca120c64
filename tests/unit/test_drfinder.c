/* DrFinder's internals: the may-trigger relation set, Algorithm 1's
 * collection at a given depth, the relation file's round trip and
 * errors, and Phase II reversing the lock order a native run shows. */
#include <stdio.h>
#include <string.h>

#include "../../scheduler/sched_mtr.h"
#include "check.h"
#include "run_prog.h"

/* A and B each log their name under the same Log's lock.  A is started
 * first and, under native quanta, always locks first: "AB". */
static const char *const order_prog =
    "public class Main {\n"
    "  public static void main(String[] a) throws Exception {\n"
    "    Log log = new Log();\n"
    "    W x = new W(log, \"A\", 1), y = new W(log, \"B\", 3000);\n"
    "    x.start(); y.start(); x.join(); y.join();\n"
    "    System.out.println(log.s);\n"
    "  }\n"
    "}\n"
    "class Log { String s = \"\"; }\n"
    "class Other { int n; }\n"
    "class W extends Thread {\n"
    "  Log log; String who; int work; Other o = new Other();\n"
    "  W(Log log, String who, int work) { this.log = log; this.who = who; this.work = work; }\n"
    "  public void run() {\n"
    "    int k = 0;\n"
    "    for (int i = 0; i < work; i++) k += i;\n"
    "    synchronized (o) { o.n = k; }\n"
    "    enter();\n"
    "  }\n"
    "  void enter() { synchronized (log) { log.s = log.s + who; } }\n"
    "}\n";

static DrMethod *method_named(DrVM *vm, const char *cls, const char *desc) {
  for (int i = 0; i < vm->nmethods; i++)
    if (!strcmp(vm->methods[i]->owner->name, cls) && !strcmp(vm->methods[i]->desc, desc)) return vm->methods[i];
  return NULL;
}

static DrClass *class_named(DrVM *vm, const char *name) {
  for (int i = 0; i < vm->nclasses; i++)
    if (!strcmp(vm->classes[i]->name, name)) return vm->classes[i];
  return NULL;
}

static void test_set(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  CHECK(t, compile_text(&vm, order_prog, "order.dl") != NULL);
  DrMtr m = {0};
  CHECK(t, !dr_mtr_has(&m, vm.methods[0], vm.classes[0]));
  int added = 0;
  for (int i = 0; i < vm.nmethods; i++)
    for (int c = 0; c < vm.nclasses && c < 40; c++) added += dr_mtr_add(&m, vm.methods[i], vm.classes[c]);
  CHECK(t, added == m.count);
  CHECK(t, m.count > 1000); /* grew well past its first table */
  CHECK(t, !dr_mtr_add(&m, vm.methods[3], vm.classes[5])); /* a set */
  bool all = true;
  for (int i = 0; i < vm.nmethods; i++)
    for (int c = 0; c < vm.nclasses && c < 40; c++) all = all && dr_mtr_has(&m, vm.methods[i], vm.classes[c]);
  CHECK(t, all);
  if (vm.nclasses > 40) CHECK(t, !dr_mtr_has(&m, vm.methods[0], vm.classes[40]));
  dr_mtr_free(&m);
  dr_vm_free(&vm);
}

/* Runs order_prog under sched with its options; returns stdout. */
static char *run_order(DrVM *vm, DrClass *main, const char *sched, DrSchedOptions *so, int *status) {
  DrScheduler *s = dr_sched_create(sched, so);
  char err[300] = "";
  if (s->start && !s->start(s, vm, err, sizeof err)) fprintf(stderr, "start: %s\n", err);
  dr_vm_set_scheduler(vm, s, 0);
  char *out = run_captured_io(vm, main, status, false);
  if (s->finish && !s->finish(s, vm, err, sizeof err)) fprintf(stderr, "finish: %s\n", err);
  s->destroy(s);
  dr_vm_set_scheduler(vm, NULL, 0);
  return out;
}

static void test_phases(DrCheck *t) {
  char p1[] = "/tmp/drvm-mtr-XXXXXX";
  int fd = mkstemp(p1);
  CHECK(t, fd >= 0);
  if (fd < 0) return;
  fclose(fdopen(fd, "w"));

  /* Phase I, depth 12: both methods on W's stack at each lock, two classes */
  DrVM vm;
  dr_vm_init(&vm);
  DrClass *main = compile_text(&vm, order_prog, "order.dl");
  CHECK(t, main != NULL);
  DrSchedOptions so = {.seed = 3, .noise = -1, .mtr_out = p1};
  int status;
  free(run_order(&vm, main, "drfinder", &so, &status));
  CHECK(t, status == 0);
  DrMtr m = {0};
  int unknown = -1;
  char err[300] = "";
  CHECK(t, dr_mtr_load(&m, &vm, p1, &unknown, err, sizeof err));
  CHECK(t, unknown == 0);
  DrMethod *run = method_named(&vm, "W", "run()"), *enter = method_named(&vm, "W", "enter()");
  DrClass *log = class_named(&vm, "Log"), *other = class_named(&vm, "Other");
  CHECK(t, run && enter && log && other);
  if (run && enter && log && other) {
    CHECK(t, dr_mtr_has(&m, run, log) && dr_mtr_has(&m, run, other) && dr_mtr_has(&m, enter, log));
    CHECK(t, !dr_mtr_has(&m, enter, other));
    CHECK(t, m.count == 3); /* main never locks; W(...) and Thread.run are not collected */
  }
  dr_mtr_free(&m);

  /* depth 1: only the innermost method */
  so.depth = 1;
  free(run_order(&vm, main, "drfinder", &so, &status));
  dr_vm_free(&vm);
  dr_vm_init(&vm);
  main = compile_text(&vm, order_prog, "order.dl");
  CHECK(t, dr_mtr_load(&m, &vm, p1, &unknown, err, sizeof err));
  CHECK(t, m.count == 2); /* run/Other, enter/Log */
  dr_mtr_free(&m);

  /* native: A (started first, little work) always takes the Log first */
  int ab = 0, ba = 0;
  for (uint64_t seed = 1; seed <= 10; seed++) {
    DrVM v;
    dr_vm_init(&v);
    DrClass *mc = compile_text(&v, order_prog, "order.dl");
    DrSchedOptions n = {.seed = seed, .noise = -1};
    char *out = run_order(&v, mc, "native", &n, &status);
    ab += !strcmp(out, "AB\n");
    free(out);
    dr_vm_free(&v);
  }
  CHECK(t, ab == 10);

  /* Phase II with depth-12 relations: A requests the Log while B is in
   * run() (mt(run, Log)): A is suspended, B escorted: "BA" */
  so.depth = 0;
  free(run_order(&vm, main, "drfinder", &so, &status)); /* p1 at depth 12 again */
  dr_vm_free(&vm);
  for (uint64_t seed = 1; seed <= 10; seed++) {
    DrVM v;
    dr_vm_init(&v);
    DrClass *mc = compile_text(&v, order_prog, "order.dl");
    DrSchedOptions d2 = {.seed = seed, .noise = -1, .mtr_in = p1};
    char *out = run_order(&v, mc, "drfinder", &d2, &status);
    ba += !strcmp(out, "BA\n");
    free(out);
    dr_vm_free(&v);
  }
  CHECK(t, ba == 10);
  remove(p1);
}

static void test_file_errors(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  CHECK(t, compile_text(&vm, order_prog, "order.dl") != NULL);
  char p[] = "/tmp/drvm-mtr-XXXXXX";
  int fd = mkstemp(p);
  CHECK(t, fd >= 0);
  if (fd < 0) return;
  FILE *f = fdopen(fd, "w");
  fputs("# comment\n\nW.run()\tLog\nGone.m()\tLog\nW.run()\tNoSuchClass\r\nW.enter()\tLog\n", f);
  fclose(f);
  DrMtr m = {0};
  int unknown;
  char err[300] = "";
  CHECK(t, dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err));
  CHECK(t, m.count == 2 && unknown == 2);
  dr_mtr_free(&m);
  f = fopen(p, "w");
  fputs("W.run()\tLog\nW.run() Log\n", f);
  fclose(f);
  CHECK(t, !dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err));
  CHECK(t, strstr(err, ":2: expected 'method<TAB>lock class'") != NULL);
  dr_mtr_free(&m);
  f = fopen(p, "w");
  fputs("W.run()\tLog\tExtra\n", f);
  fclose(f);
  CHECK(t, !dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err));
  dr_mtr_free(&m);
  /* the third column, the first acquisition: a positive number */
  f = fopen(p, "w");
  fputs("W.run()\tLog\t7\nW.enter()\tLog\t0\n", f);
  fclose(f);
  CHECK(t, !dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err));
  CHECK(t, strstr(err, ":2: expected 'method<TAB>lock class'") != NULL);
  dr_mtr_free(&m);
  f = fopen(p, "w");
  fputs("W.run()\tLog\t7\nW.run()\tLog\t3\nW.enter()\tLog\n", f);
  fclose(f);
  CHECK(t, dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err));
  CHECK(t, m.count == 2);
  CHECK(t, dr_mtr_first(&m, method_named(&vm, "W", "run()"), class_named(&vm, "Log")) == 3); /* the earliest */
  CHECK(t, dr_mtr_first(&m, method_named(&vm, "W", "enter()"), class_named(&vm, "Log")) == 0);
  dr_mtr_free(&m);
  remove(p);
  CHECK(t, !dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err)); /* gone */
  CHECK(t, strstr(err, "No such file") != NULL);
  dr_mtr_free(&m);
  dr_vm_free(&vm);
}

/* The relations from text in memory read as from a file: the same set,
 * the same messages, and the text is neither changed nor read past len. */
static void test_parse_text(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  CHECK(t, compile_text(&vm, order_prog, "order.dl") != NULL);
  static const char text[] = "# c\nW.run()\tLog\t5\r\nGone.m()\tLog\nW.enter()\tLog\nW.run() Log\n";
  DrMtr m = {0};
  int unknown;
  char err[300] = "";
  size_t upto = strlen(text) - strlen("W.run() Log\n"); /* the malformed line is past len */
  CHECK(t, dr_mtr_parse(&m, &vm, text, upto, "mem", &unknown, err, sizeof err));
  CHECK(t, m.count == 2 && unknown == 1);
  CHECK(t, dr_mtr_first(&m, method_named(&vm, "W", "run()"), class_named(&vm, "Log")) == 5);
  dr_mtr_free(&m);
  CHECK(t, !dr_mtr_parse(&m, &vm, text, strlen(text), "mem", &unknown, err, sizeof err));
  CHECK(t, strstr(err, "--mtr-in mem:5: expected 'method<TAB>lock class'") != NULL);
  CHECK(t, text[4] == 'W' && strchr(text, '\t') != NULL); /* untouched */
  dr_mtr_free(&m);
  dr_vm_free(&vm);
}

/* Writes text to a new temporary file; its name into path (a mkstemp
 * template). */
static bool write_temp(char *path, const char *text) {
  int fd = mkstemp(path);
  if (fd < 0) return false;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  return fclose(f) == 0;
}

/* Phase I, depth 1, on a program whose only acquisition in inner() is
 * reentrant: Algorithm 1 takes every acquisition, so mt(inner, R) is
 * collected; and the third column numbers the acquisitions. */
static void test_reentrant_and_first(DrCheck *t) {
  static const char *const prog = "public class Main {\n"
                                  "  public static void main(String[] a) throws Exception {\n"
                                  "    R r = new R(); r.outer(); System.out.println(r.n);\n"
                                  "  }\n"
                                  "}\n"
                                  "class Q { }\n"
                                  "class R {\n"
                                  "  int n; Q q = new Q();\n"
                                  "  void outer() { synchronized (q) { n++; } synchronized (this) { inner(); } }\n"
                                  "  void inner() { synchronized (this) { n++; } }\n"
                                  "}\n";
  char p1[] = "/tmp/drvm-mtr-XXXXXX";
  CHECK(t, write_temp(p1, ""));
  DrVM vm;
  dr_vm_init(&vm);
  DrClass *main = compile_text(&vm, prog, "reent.dl");
  CHECK(t, main != NULL);
  if (!main) return;
  DrSchedOptions so = {.seed = 1, .noise = -1, .mtr_out = p1, .depth = 1};
  int status;
  free(run_order(&vm, main, "drfinder", &so, &status));
  CHECK(t, status == 0);
  DrMtr m = {0};
  int unknown;
  char err[300] = "";
  CHECK(t, dr_mtr_load(&m, &vm, p1, &unknown, err, sizeof err));
  DrMethod *outer = method_named(&vm, "R", "outer()"), *inner = method_named(&vm, "R", "inner()");
  DrClass *r = class_named(&vm, "R"), *q = class_named(&vm, "Q");
  CHECK(t, outer && inner && r && q);
  if (outer && inner && r && q) {
    CHECK(t, dr_mtr_has(&m, inner, r)); /* reentrant: collected */
    CHECK(t, m.count == 3);
    /* acquisitions in the run's order: q 1, this 2, this again (reentrant) 3 */
    CHECK(t, dr_mtr_first(&m, outer, q) == 1 && dr_mtr_first(&m, outer, r) == 2 && dr_mtr_first(&m, inner, r) == 3);
  }
  dr_mtr_free(&m);
  dr_vm_free(&vm);
  remove(p1);
}

/* A and B lock one Log; A (started first, no work) locks first natively. */
static const char *const two_prog = "public class Main {\n"
                                    "  public static void main(String[] a) throws Exception {\n"
                                    "    Log log = new Log(); A x = new A(log); B y = new B(log);\n"
                                    "    x.start(); y.start(); x.join(); y.join();\n"
                                    "    System.out.println(log.s);\n"
                                    "  }\n"
                                    "}\n"
                                    "class Log { String s = \"\"; }\n"
                                    "class A extends Thread {\n"
                                    "  Log log; A(Log l) { log = l; }\n"
                                    "  public void run() { synchronized (log) { log.s = log.s + \"A\"; } }\n"
                                    "}\n"
                                    "class B extends Thread {\n"
                                    "  Log log; B(Log l) { log = l; }\n"
                                    "  public void run() {\n"
                                    "    int k = 0;\n"
                                    "    for (int i = 0; i < 3000; i++) k += i;\n"
                                    "    synchronized (log) { log.s = log.s + \"B\"; }\n"
                                    "  }\n"
                                    "}\n";

/* One Phase II run of two_prog with relations from in (and order);
 * its output, its relations written to out (if not NULL). */
static char *run_two(uint64_t seed, const char *in, const char *out, int order) {
  DrVM v;
  dr_vm_init(&v);
  DrClass *mc = compile_text(&v, two_prog, "two.dl");
  DrSchedOptions so = {.seed = seed, .noise = -1, .mtr_in = in, .mtr_out = out, .order = order};
  int status;
  char *got = run_order(&v, mc, "drfinder", &so, &status);
  dr_vm_free(&v);
  return got;
}

/* --order previous reverses the order of the run the relations came
 * from, so a chain alternates; arrival reverses this run's, every time. */
static void test_order_previous(DrCheck *t) {
  char ab[] = "/tmp/drvm-mtr-XXXXXX", ba[] = "/tmp/drvm-mtr-XXXXXX", plain[] = "/tmp/drvm-mtr-XXXXXX";
  char o1[] = "/tmp/drvm-mtr-XXXXXX", o2[] = "/tmp/drvm-mtr-XXXXXX";
  CHECK(t, write_temp(ab, "A.run()\tLog\t1\nB.run()\tLog\t2\n"));
  CHECK(t, write_temp(ba, "A.run()\tLog\t2\nB.run()\tLog\t1\n"));
  CHECK(t, write_temp(plain, "A.run()\tLog\nB.run()\tLog\n"));
  CHECK(t, write_temp(o1, "") && write_temp(o2, ""));
  int ok_arrival = 0, ok_prev_ab = 0, ok_prev_ba = 0, ok_plain = 0, ok_chain = 0;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    char *s1 = run_two(seed, ba, NULL, DR_DRF_ORDER_ARRIVAL);
    char *s2 = run_two(seed, ab, o1, DR_DRF_ORDER_PREVIOUS);
    char *s3 = run_two(seed, ba, NULL, DR_DRF_ORDER_PREVIOUS);
    char *s4 = run_two(seed, plain, NULL, DR_DRF_ORDER_PREVIOUS);
    char *s5 = run_two(seed, o1, o2, DR_DRF_ORDER_PREVIOUS); /* o1: s2's run, B first */
    ok_arrival += !strcmp(s1, "BA\n");
    ok_prev_ab += !strcmp(s2, "BA\n");
    ok_prev_ba += !strcmp(s3, "AB\n");
    ok_plain += !strcmp(s4, "BA\n"); /* no numbers: as arrival */
    ok_chain += !strcmp(s5, "AB\n");
    free(s1), free(s2), free(s3), free(s4), free(s5);
  }
  CHECK(t, ok_arrival == 5);
  CHECK(t, ok_prev_ab == 5);
  CHECK(t, ok_prev_ba == 5);
  CHECK(t, ok_plain == 5);
  CHECK(t, ok_chain == 5);
  remove(ab), remove(ba), remove(plain), remove(o1), remove(o2);
}

/* --candidates able: B locks the Log, starts A and loops; A arrives at
 * the Log while B is past its only lock.  live escorts B (its run() has
 * the relation) to its end, so A sees B done; able lets A go at once. */
static void test_candidates_able(DrCheck *t) {
  static const char *const prog = "public class Main {\n"
                                  "  static boolean done;\n"
                                  "  public static void main(String[] a) throws Exception {\n"
                                  "    Log log = new Log(); A x = new A(log); B y = new B(log, x);\n"
                                  "    y.start(); y.join(); x.join();\n"
                                  "    System.out.println(log.s);\n"
                                  "  }\n"
                                  "}\n"
                                  "class Log { String s = \"\"; }\n"
                                  "class A extends Thread {\n"
                                  "  Log log; A(Log l) { log = l; }\n"
                                  "  public void run() {\n"
                                  "    int k = 0;\n"
                                  "    for (int i = 0; i < 5000; i++) k += i;\n"
                                  "    synchronized (log) { log.s = log.s + (Main.done ? \"late\" : \"A\"); }\n"
                                  "  }\n"
                                  "}\n"
                                  "class B extends Thread {\n"
                                  "  Log log; A a; B(Log l, A x) { log = l; a = x; }\n"
                                  "  public void run() {\n"
                                  "    synchronized (log) { log.s = log.s + \"B\"; }\n"
                                  "    a.start();\n"
                                  "    int k = 0;\n"
                                  "    for (int i = 0; i < 200000; i++) k += i;\n"
                                  "    Main.done = true;\n"
                                  "  }\n"
                                  "}\n";
  char in[] = "/tmp/drvm-mtr-XXXXXX";
  CHECK(t, write_temp(in, "A.run()\tLog\nB.run()\tLog\n"));
  int live = 0, able = 0;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    for (int c = DR_DRF_CAND_LIVE; c <= DR_DRF_CAND_ABLE; c++) {
      DrVM v;
      dr_vm_init(&v);
      DrClass *mc = compile_text(&v, prog, "able.dl");
      DrSchedOptions so = {.seed = seed, .noise = -1, .mtr_in = in, .candidates = c};
      int status;
      char *got = run_order(&v, mc, "drfinder", &so, &status);
      if (c == DR_DRF_CAND_LIVE) live += !strcmp(got, "Blate\n");
      else able += !strcmp(got, "BA\n");
      free(got);
      dr_vm_free(&v);
    }
  }
  CHECK(t, live == 5);
  CHECK(t, able == 5);
  remove(in);
}

int main(void) {
  DrCheck t = {0, 0};
  test_set(&t);
  test_phases(&t);
  test_file_errors(&t);
  test_parse_text(&t);
  test_reentrant_and_first(&t);
  test_order_previous(&t);
  test_candidates_able(&t);
  return CHECK_DONE(&t);
}
