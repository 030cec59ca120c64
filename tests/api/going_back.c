/* Going back to a decision as a REPL does: the decisions before it
 * (drvm_save_decisions_upto) replayed as a prefix lead a fresh VM to the
 * same state, where drvm_run_to_decision stops even at a single choice;
 * an override there leaves the prefix for the chosen scheduler;
 * drvm_switch_scheduler, drvm_interrupt, the races, the uncaught
 * exceptions, classes, fields and lines a host can ask about. */
#include <unistd.h>

#include "check.h"

static const char SRC[] = "public class Racy {\n"
                          "  static int c;\n"
                          "  static class Inc extends Thread {\n"
                          "    public void run() { for (int i = 0; i < 3; i++) c++; }\n"
                          "  }\n"
                          "  public static void main(String[] args) throws InterruptedException {\n"
                          "    Thread th = new Inc();\n"
                          "    th.start();\n"
                          "    for (int i = 0; i < 3; i++) c++;\n"
                          "    th.join();\n"
                          "    System.out.println(\"c=\" + c);\n"
                          "  }\n"
                          "}\n";

static DrVM *stepping_vm(Sinks *s, const char *prefix) {
  DrVM *vm = vm_with(SRC, s, 5, 0);
  uint64_t seed;
  if (!vm || (prefix && !drvm_replay(vm, prefix, true, &seed)) || !drvm_set_scheduler(vm, "random", "seed=5") ||
      !drvm_record(vm, NULL) || !drvm_set_stepping(vm, DRVM_POINT_ACCESS | DRVM_POINT_CALL, false) ||
      !drvm_start(vm, 0, NULL)) {
    fprintf(stderr, "setup: %s\n", vm ? drvm_error(vm) : "no vm");
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

/* The value of c and each thread's next event, as a fingerprint. */
static void state_of(DrVM *vm, char *buf, size_t size) {
  char c[32] = "?";
  drvm_static_value(vm, "Racy", "c", c, sizeof c);
  size_t n = (size_t)snprintf(buf, size, "c=%s", c);
  for (int t = 0; t < drvm_thread_count(vm) && n < size; t++) {
    DrvmThreadInfo ti;
    char ev[200];
    if (drvm_thread_info(vm, t, &ti))
      n += (size_t)snprintf(buf + n, size - n, " | T%d %s %s", t, drvm_thread_state_word(ti.state),
                            drvm_event_text(&ti.next, ev, sizeof ev));
  }
}

/* Stepping by hand to decision k, then back there by replay. */
static void back_by_replay(Check *t, const char *dir) {
  Sinks s = {0}, s2 = {0};
  DrVM *vm = stepping_vm(&s, NULL);
  DrvmDecision d;
  int alt = 0;
  /* a hand-made order: alternate whenever there is a choice */
  for (int i = 0; i < 6 && drvm_run_until_decision(vm, &d) == 1; i++) {
    int pick = d.choices[alt++ % d.nchoices].thread;
    CHECK(t, drvm_decide(vm, pick));
  }
  CHECK(t, drvm_run_until_decision(vm, &d) == 1);
  uint64_t k = d.number;
  char want[2048], got[2048];
  state_of(vm, want, sizeof want);
  char path[300];
  snprintf(path, sizeof path, "%s/upto", dir);
  CHECK(t, !drvm_save_decisions_upto(vm, path, k + 1)); /* decision k is not taken yet */
  CHECK_HAS(t, drvm_error(vm), "taken");
  CHECK(t, drvm_save_decisions_upto(vm, path, k));

  DrVM *again = stepping_vm(&s2, path);
  DrvmDecision d2;
  CHECK(t, drvm_run_to_decision(again, k, &d2) == 1);
  CHECK(t, d2.number == k);
  CHECK(t, drvm_decision_count(again) == k + 1);
  state_of(again, got, sizeof got);
  CHECK_STR(t, got, want);
  CHECK_STR(t, out_text(&s2.out), out_text(&s.out));
  CHECK(t, drvm_run_to_decision(again, k - 1, &d2) == -1); /* the past */
  CHECK_HAS(t, drvm_error(again), "past");

  /* another thread than the first run chose: the prefix has ended, the
   * run goes on to its end under its scheduler */
  int other = d2.nchoices > 1 ? d2.choices[d2.choices[0].thread == d.suggested ? 1 : 0].thread : d2.choices[0].thread;
  CHECK(t, drvm_decide(again, other));
  CHECK(t, drvm_run_to_end(again));
  DrvmResult r;
  CHECK(t, drvm_finish(again, &r) >= 0 && r.outcome != DRVM_OUTCOME_REPLAY_DIVERGED);
  CHECK_HAS(t, out_text(&s2.out), "c=");
  drvm_free(again);

  /* the same without a file: the decisions copied from the first VM */
  Sinks s3 = {0};
  DrVM *copy = vm_with(SRC, &s3, 5, 0);
  CHECK(t, copy && drvm_replay_decisions(copy, vm, k) && drvm_set_scheduler(copy, "random", "seed=5") &&
               drvm_record(copy, NULL) && drvm_set_stepping(copy, DRVM_POINT_ACCESS | DRVM_POINT_CALL, false) &&
               drvm_start(copy, 0, NULL));
  CHECK(t, drvm_run_to_decision(copy, k, &d2) == 1 && d2.number == k);
  state_of(copy, got, sizeof got);
  CHECK_STR(t, got, want);
  CHECK(t, !drvm_replay_decisions(copy, vm, k)); /* after the start */
  drvm_free(copy);
  sinks_free(&s3);

  /* run_to_decision on the first VM: forward to a later decision, even a
   * single-choice one */
  CHECK(t, drvm_run_to_decision(vm, k + 3, &d) == 1 && d.number == k + 3);
  drvm_free(vm);
  unlink(path);
  sinks_free(&s);
  sinks_free(&s2);
}

/* continue under another scheduler from a decision; a recording keeps
 * whatever was decided, so it replays. */
static void switch_then_replay(Check *t, const char *dir) {
  Sinks s = {0}, s2 = {0};
  DrVM *vm = stepping_vm(&s, NULL);
  DrvmDecision d;
  CHECK(t, drvm_run_until_decision(vm, &d) == 1);
  CHECK(t, !drvm_switch_scheduler(vm, "no-such", NULL));
  CHECK_HAS(t, drvm_error(vm), "no-such");
  CHECK(t, drvm_switch_scheduler(vm, "pct", "depth=2 seed=3"));
  CHECK(t, drvm_run_to_end(vm));
  DrvmResult r;
  drvm_finish(vm, &r);
  char path[300];
  snprintf(path, sizeof path, "%s/switched", dir);
  CHECK(t, drvm_save_decisions(vm, path));
  DrVM *rep = vm_with(SRC, &s2, 5, 0);
  uint64_t seed;
  CHECK(t, rep && drvm_replay(rep, path, false, &seed));
  DrvmResult r2;
  CHECK(t, drvm_run(rep, 0, NULL, &r2) >= 0 && r2.outcome != DRVM_OUTCOME_REPLAY_DIVERGED);
  CHECK_STR(t, out_text(&s2.out), out_text(&s.out));
  CHECK(t, r2.races == r.races);
  drvm_free(rep);
  drvm_free(vm);
  unlink(path);
  sinks_free(&s);
  sinks_free(&s2);
}

/* What a host can ask besides threads: races, classes, fields, lines,
 * uncaught exceptions; an interrupt stops at the next point. */
static void questions(Check *t) {
  Sinks s = {0};
  DrVM *vm = stepping_vm(&s, NULL);
  const char *name;
  bool is_static, found = false;
  for (int i = 0; drvm_class_name(vm, i, &name); i++) found |= !strcmp(name, "Racy");
  CHECK(t, found);
  CHECK(t, drvm_field_name(vm, "Racy", 0, &name, &is_static) && !strcmp(name, "c") && is_static);
  CHECK(t, !drvm_field_name(vm, "Racy", 1, &name, &is_static));
  CHECK(t, drvm_line_has_code(vm, 4) && !drvm_line_has_code(vm, 2) && !drvm_line_has_code(vm, 99));
  CHECK(t, drvm_line_event(vm, 4) == 4 && drvm_line_event(vm, 2) == 0 && drvm_line_event(vm, 99) == 0);
  DrvmDecision d;
  CHECK(t, drvm_run_until_decision(vm, &d) == 1);
  uint64_t at = d.number;
  drvm_interrupt(vm); /* the next point stops, though it has one choice */
  CHECK(t, drvm_decide(vm, DRVM_SUGGESTED) && drvm_run_until_decision(vm, &d) == 1 && d.number == at + 1);
  CHECK(t, drvm_run_to_end(vm));
  int races = drvm_race_count(vm);
  CHECK(t, races >= 1);
  DrvmRace race;
  CHECK(t, drvm_race(vm, 0, &race) && !strcmp(race.location, "Racy.c") && race.thread != race.prev_thread);
  CHECK_HAS(t, race.text, "WARNING: DATA RACE");
  CHECK(t, !drvm_race(vm, races, &race));
  CHECK(t, drvm_uncaught_count(vm) == 0);
  drvm_free(vm);
  sinks_free(&s);

  Sinks s2 = {0};
  DrVM *thrower = vm_with("class T { public static void main(String[] a) { throw new RuntimeException(\"no\"); } }", &s2, 1, 0);
  CHECK(t, thrower && drvm_start(thrower, 0, NULL) && drvm_run_to_end(thrower) && drvm_uncaught_count(thrower) == 1);
  drvm_free(thrower);
  sinks_free(&s2);
}

/* Goals: the run goes on by itself and stops where the goal says. */
static void goals(Check *t) {
  Sinks s = {0};
  DrVM *vm = stepping_vm(&s, NULL);
  DrvmDecision d;
  CHECK(t, drvm_run_until_decision(vm, &d) == 1);
  DrvmGoal g;
  memset(&g, 0, sizeof g);
  g.thread = 0;
  g.until = DRVM_UNTIL_ACCESS;
  g.where = (DrvmLocation){"Racy", "c", 0, -1, 2};
  CHECK(t, drvm_set_goal(vm, &g) && drvm_decide(vm, 0) && drvm_run_until_decision(vm, &d) == 1);
  DrvmThreadInfo ti;
  CHECK(t, drvm_thread_info(vm, 0, &ti) && ti.next.kind == DRVM_EV_WRITE && !strcmp(ti.next.field, "c"));
  CHECK(t, d.suggested == 0);
  CHECK(t, drvm_goal_stop(vm, NULL) == DRVM_GOAL_REACHED);
  /* a breakpoint on the println line, the scheduler deciding */
  int line = 11;
  memset(&g, 0, sizeof g);
  g.thread = -1;
  g.lines = &line;
  g.nlines = 1;
  CHECK(t, drvm_set_goal(vm, &g) && drvm_decide(vm, DRVM_SUGGESTED) && drvm_run_until_decision(vm, &d) == 1);
  bool at11 = false;
  for (int i = 0; i < d.nchoices; i++) at11 |= d.choices[i].next->line == 11;
  CHECK(t, at11);
  int index;
  CHECK(t, drvm_goal_stop(vm, &index) == DRVM_GOAL_LINE && index == 0);
  CHECK_STR(t, out_text(&s.out), ""); /* before the println */
  CHECK(t, drvm_set_goal(vm, NULL) && drvm_run_to_end(vm));
  CHECK_HAS(t, out_text(&s.out), "c=");
  drvm_free(vm);
  sinks_free(&s);
  /* without drvm_set_stepping there is no goal scheduler */
  Sinks s2 = {0};
  DrVM *plain = vm_with(SRC, &s2, 1, 0);
  CHECK(t, plain && drvm_start(plain, 0, NULL) && drvm_run_until_decision(plain, &d) == 1);
  CHECK(t, !drvm_set_goal(plain, &g));
  CHECK_HAS(t, drvm_error(plain), "drvm_set_stepping");
  drvm_free(plain);
  sinks_free(&s2);
}

/* A recording made without access and call points replays in a run
 * that has them (a REPL opening `drvm run --record`'s file). */
static void fewer_points(Check *t, const char *dir) {
  char path[300];
  snprintf(path, sizeof path, "%s/plain", dir);
  Sinks s = {0}, s2 = {0};
  DrVM *vm = vm_with(SRC, &s, 3, 0);
  DrvmResult r, r2;
  CHECK(t, vm && drvm_set_scheduler(vm, "native", "seed=3") && drvm_record(vm, path) && drvm_run(vm, 0, NULL, &r) >= 0);
  DrVM *rep = vm_with(SRC, &s2, 3, 0);
  uint64_t seed;
  CHECK(t, rep && drvm_replay(rep, path, true, &seed) && drvm_set_stepping(rep, DRVM_POINT_ACCESS | DRVM_POINT_CALL, false));
  DrvmDecision d;
  CHECK(t, drvm_start(rep, 0, NULL));
  while (drvm_run_until_decision(rep, &d) == 1) drvm_decide(rep, DRVM_SUGGESTED);
  CHECK(t, drvm_finish(rep, &r2) >= 0 && r2.outcome == r.outcome && r2.races == r.races);
  CHECK_STR(t, out_text(&s2.out), out_text(&s.out));
  drvm_free(vm);
  drvm_free(rep);
  unlink(path);
  sinks_free(&s);
  sinks_free(&s2);
}

/* Going back into a run of the same thread's picks that a quantum
 * follows: what was asked after the whole run is not part of the prefix. */
static void inside_a_run(Check *t) {
  static const char SPIN[] = "public class Spin {\n  static int x;\n"
                             "  static class S extends Thread { public void run() { while (true) { x++; } } }\n"
                             "  public static void main(String[] a) { new S().start(); }\n}\n";
  Sinks s = {0};
  DrVM *vm = vm_with(SPIN, &s, 1, 3000);
  DrvmDecision d;
  CHECK(t, vm && drvm_record(vm, NULL) && drvm_set_stepping(vm, DRVM_POINT_ACCESS | DRVM_POINT_CALL, false) &&
               drvm_start(vm, 0, NULL));
  while (drvm_run_until_decision(vm, &d) == 1) drvm_decide(vm, DRVM_SUGGESTED);
  for (uint64_t k = 8; k < 40; k += 3) {
    Sinks s2 = {0};
    DrVM *b = vm_with(SPIN, &s2, 1, 3000);
    CHECK(t, b && drvm_replay_decisions(b, vm, k) && drvm_record(b, NULL) &&
                 drvm_set_stepping(b, DRVM_POINT_ACCESS | DRVM_POINT_CALL, false) && drvm_start(b, 0, NULL));
    CHECK(t, drvm_run_to_decision(b, k, &d) == 1 && d.number == k);
    drvm_free(b);
    sinks_free(&s2);
  }
  drvm_free(vm);
  sinks_free(&s);
}

int main(void) {
  Check t = {0};
  char dir[] = "/tmp/drvm_api_backXXXXXX";
  if (!mkdtemp(dir)) return 2;
  back_by_replay(&t, dir);
  switch_then_replay(&t, dir);
  questions(&t);
  goals(&t);
  fewer_points(&t, dir);
  inside_a_run(&t);
  rmdir(dir);
  return CHECK_DONE(&t);
}
