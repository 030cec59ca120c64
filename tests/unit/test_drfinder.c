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
  remove(p);
  CHECK(t, !dr_mtr_load(&m, &vm, p, &unknown, err, sizeof err)); /* gone */
  CHECK(t, strstr(err, "No such file") != NULL);
  dr_mtr_free(&m);
  dr_vm_free(&vm);
}

int main(void) {
  DrCheck t = {0, 0};
  test_set(&t);
  test_phases(&t);
  test_file_errors(&t);
  return CHECK_DONE(&t);
}
