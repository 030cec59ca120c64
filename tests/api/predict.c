/* Predicted races through the public header: under the wcp detector a race
 * the run's lock order hid is a DrvmRace with predicted set and both
 * statements named as race pairs files name them; it does not make the
 * outcome RACES (DrvmResult.predicted counts it), and a race the run
 * shows stays an ordinary one. */
#include "check.h"

/* The writer's section runs first (native: first started, first run), so
 * happens-before orders x's write before its read; the sections touch
 * nothing in common, so WCP does not. */
static const char *hidden = "public class Hidden {\n"
                            "  static int x;\n"
                            "  static final Object l = new Object();\n"
                            "  public static void main(String[] args) throws InterruptedException {\n"
                            "    Thread a = new Thread(new A()), b = new Thread(new B());\n"
                            "    a.start(); b.start(); a.join(); b.join();\n"
                            "    System.out.println(\"done\");\n"
                            "  }\n"
                            "}\n"
                            "class A implements Runnable { public void run() { Hidden.x = 1; synchronized (Hidden.l) { } } }\n"
                            "class B implements Runnable { public void run() { synchronized (Hidden.l) { } int y = Hidden.x; } }\n";

static void predicted(Check *t, const char *det, const char *opts, bool want) {
  Sinks s = {0};
  DrVM *vm = vm_with(hidden, &s, 1, 0);
  CHECK(t, vm != NULL);
  if (!vm) return;
  CHECK(t, drvm_set_detector(vm, det, opts));
  CHECK(t, drvm_start(vm, 0, NULL) && drvm_run_to_end(vm));
  CHECK(t, drvm_race_count(vm) == (want ? 1 : 0));
  DrvmRace r;
  if (want && drvm_race(vm, 0, &r)) {
    CHECK(t, r.predicted);
    CHECK_STR(t, r.location, "Hidden.x");
    CHECK(t, r.statement && strstr(r.statement, "B.run() ") && strstr(r.statement, " 11"));
    CHECK(t, r.prev_statement && strstr(r.prev_statement, "A.run() ") && strstr(r.prev_statement, " 10"));
    CHECK(t, !r.write && r.prev_write);
    CHECK(t, strstr(r.text, "PREDICTED DATA RACE") != NULL);
  }
  DrvmResult res;
  CHECK(t, drvm_finish(vm, &res) == 0);
  CHECK(t, res.outcome == DRVM_OUTCOME_NORMAL);
  CHECK(t, res.races == 0 && res.predicted == (want ? 1 : 0));
  CHECK_STR(t, out_text(&s.out), "done\n");
  drvm_free(vm);
  sinks_free(&s);
}

/* Without the lock the race is seen, not predicted, by wcp as by ft. */
static void seen(Check *t) {
  const char *src = "public class Seen {\n"
                    "  static int x;\n"
                    "  public static void main(String[] args) throws InterruptedException {\n"
                    "    Thread a = new Thread(new A()), b = new Thread(new B());\n"
                    "    a.start(); b.start(); a.join(); b.join();\n"
                    "  }\n"
                    "}\n"
                    "class A implements Runnable { public void run() { Seen.x = 1; } }\n"
                    "class B implements Runnable { public void run() { int y = Seen.x; } }\n";
  Sinks s = {0};
  DrVM *vm = vm_with(src, &s, 1, 0);
  CHECK(t, vm && drvm_set_detector(vm, "wcp", NULL));
  if (!vm) return;
  DrvmResult res;
  CHECK(t, drvm_start(vm, 0, NULL) && drvm_run_to_end(vm));
  DrvmRace r;
  CHECK(t, drvm_race_count(vm) == 1 && drvm_race(vm, 0, &r) && !r.predicted);
  CHECK(t, drvm_finish(vm, &res) == 66 && res.outcome == DRVM_OUTCOME_RACES && res.races == 1 && res.predicted == 0);
  drvm_free(vm);
  sinks_free(&s);
}

int main(void) {
  Check t = {0};
  predicted(&t, "wcp", NULL, true);
  predicted(&t, "wcp", "relaxed", true);
  predicted(&t, "ft", NULL, false);
  seen(&t);
  /* relaxed belongs to wcp */
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(&t, vm && !drvm_set_detector(vm, "ft", "relaxed"));
  if (vm) drvm_free(vm);
  return CHECK_DONE(&t);
}
