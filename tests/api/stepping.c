/* Stepping decision by decision: choosing by hand the threads a
 * recorded run chose reproduces it byte for byte (output and recording);
 * DRVM_SUGGESTED gives the scheduler's own run; a thread that cannot run
 * is refused; a hand-made run saved with drvm_save_decisions replays. */
#include <unistd.h>

#include "check.h"

static const char SRC[] = "public class Racy {\n"
                          "  static int c;\n"
                          "  static class Inc implements Runnable {\n"
                          "    public void run() { for (int i = 0; i < 3; i++) c++; }\n"
                          "  }\n"
                          "  public static void main(String[] args) throws InterruptedException {\n"
                          "    Thread th = new Thread(new Inc());\n"
                          "    th.start();\n"
                          "    for (int i = 0; i < 3; i++) c++;\n"
                          "    th.join();\n"
                          "    System.out.println(\"c=\" + c);\n"
                          "  }\n"
                          "}\n";

/* A whole file, malloc'd (NULL if unreadable). */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  Out o = {0};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out_add(&o, buf, n);
  fclose(f);
  if (!o.data) out_add(&o, "", 0);
  return o.data;
}

/* The picks of a recording's "decisions" section, in order: P<id>[*k]
 * is k picks of thread id; Q, W and S answer other questions. */
static int picks_of(const char *path, int *picks, int max) {
  char *text = slurp(path);
  if (!text) return -1;
  char *p = strstr(text, "\ndecisions\n");
  int n = 0;
  for (char *tok = p ? strtok(p + 11, " \n") : NULL; tok && strcmp(tok, "end"); tok = strtok(NULL, " \n")) {
    if (tok[0] != 'P') continue;
    char *star = strchr(tok, '*');
    long id = strtol(tok + 1, NULL, 10), k = star ? strtol(star + 1, NULL, 10) : 1;
    for (long i = 0; i < k && n < max; i++) picks[n++] = (int)id;
  }
  free(text);
  return n;
}

static bool same_files(const char *a, const char *b) {
  char *x = slurp(a), *y = slurp(b);
  bool same = x && y && !strcmp(x, y);
  free(x);
  free(y);
  return same;
}

/* A VM for SRC under random seed=5, recording to rec (if not NULL). */
static DrVM *vm_random5(Sinks *s, const char *rec) {
  DrVM *vm = vm_with(SRC, s, 1, 0);
  if (!vm) return NULL;
  if (!drvm_set_scheduler(vm, "random", "seed=5") || (rec && !drvm_record(vm, rec))) {
    fprintf(stderr, "setup: %s\n", drvm_error(vm));
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

/* The recorded run of seed 5, then the same run chosen by hand. */
static void by_hand(Check *t, const char *rec1, const char *rec2, Sinks *first) {
  DrvmResult r1, r2;
  DrVM *vm = vm_random5(first, rec1);
  CHECK(t, vm && drvm_run(vm, 0, NULL, &r1) == 66);
  drvm_free(vm);

  int picks[4096];
  int npicks = picks_of(rec1, picks, 4096);
  CHECK(t, npicks > 10);

  Sinks s = {0};
  vm = vm_random5(&s, rec2);
  CHECK(t, vm && drvm_set_stepping(vm, 0, true));
  CHECK(t, drvm_start(vm, 0, NULL));
  DrvmDecision d;
  int n = 0, rc, bad = 0, agreed = 0;
  uint64_t last = 0;
  while ((rc = drvm_run_until_decision(vm, &d)) == 1) {
    if (n >= npicks) {
      bad++;
      break;
    }
    bool among = false;
    for (int i = 0; i < d.nchoices; i++) among |= d.choices[i].thread == picks[n];
    if (!among || d.nchoices < 1 || (n > 0 && d.number <= last)) bad++;
    agreed += d.suggested == picks[n];
    last = d.number;
    if (!drvm_decide(vm, picks[n++])) {
      bad++;
      break;
    }
  }
  CHECK(t, rc == 0);
  CHECK(t, bad == 0);
  CHECK(t, n == npicks);
  CHECK(t, agreed == npicks); /* the same scheduler and seed suggest the same */
  CHECK(t, drvm_finish(vm, &r2) == 66);
  drvm_free(vm);
  CHECK_STR(t, out_text(&s.out), out_text(&first->out));
  CHECK_STR(t, out_text(&s.err), out_text(&first->err));
  CHECK(t, r1.outcome == r2.outcome && r1.exit_status == r2.exit_status);
  CHECK(t, r1.steps == r2.steps && r1.decisions == r2.decisions);
  CHECK(t, same_files(rec1, rec2));
  sinks_free(&s);
}

/* DRVM_SUGGESTED at every decision is drvm_run's run, recording and all. */
static void suggested(Check *t, const char *rec1, const char *rec3, const Sinks *first) {
  Sinks s = {0};
  DrVM *vm = vm_random5(&s, rec3);
  CHECK(t, vm && drvm_set_stepping(vm, 0, true) && drvm_start(vm, 0, NULL));
  DrvmDecision d;
  int stops = 0;
  while (drvm_run_until_decision(vm, &d) == 1 && drvm_decide(vm, DRVM_SUGGESTED)) stops++;
  DrvmResult r;
  CHECK(t, drvm_finish(vm, &r) == 66);
  /* r.decisions counts scheduling points: also the last one, where
   * nothing was left to pick */
  CHECK(t, stops > 10 && (uint64_t)stops <= r.decisions);
  drvm_free(vm);
  CHECK_STR(t, out_text(&s.out), out_text(&first->out));
  CHECK(t, same_files(rec1, rec3));
  sinks_free(&s);

  /* stopping only where there is a choice: the same run too */
  vm = vm_random5(&s, NULL);
  CHECK(t, vm && drvm_start(vm, 0, NULL));
  int choices = 0;
  while (drvm_run_until_decision(vm, &d) == 1) {
    choices += d.nchoices > 1;
    if (d.nchoices < 2 || !drvm_decide(vm, DRVM_SUGGESTED)) break;
  }
  CHECK(t, choices > 0 && choices < stops);
  CHECK(t, drvm_finish(vm, &r) == 66);
  CHECK_STR(t, out_text(&s.out), out_text(&first->out));
  drvm_free(vm);
  sinks_free(&s);
}

/* A thread that is not among the choices is refused with a message,
 * and the decision stays open. */
static void refused(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_random5(&s, NULL);
  CHECK(t, vm && drvm_start(vm, 0, NULL));
  CHECK(t, !drvm_decide(vm, 0)); /* no decision yet */
  CHECK_HAS(t, drvm_error(vm), "drvm_decide");
  DrvmDecision d, again;
  CHECK(t, drvm_run_until_decision(vm, &d) == 1);
  CHECK(t, d.nchoices == 2);
  CHECK(t, !drvm_decide(vm, 7));
  CHECK_HAS(t, drvm_error(vm), "T7 cannot run");
  CHECK(t, !drvm_decide(vm, -5));
  CHECK(t, drvm_error(vm)[0] != 0);
  CHECK(t, drvm_run_until_decision(vm, &again) == 1); /* the same decision */
  CHECK(t, again.number == d.number && again.nchoices == d.nchoices);
  CHECK(t, drvm_decide(vm, d.choices[0].thread));
  CHECK_STR(t, drvm_error(vm), "");
  CHECK(t, !drvm_set_stepping(vm, DRVM_POINT_ACCESS, false)); /* points only before drvm_start */
  CHECK(t, drvm_run_to_end(vm));
  CHECK(t, drvm_run_until_decision(vm, &d) == 0);
  CHECK(t, drvm_finish(vm, NULL) >= 0);
  drvm_free(vm);
  sinks_free(&s);
}

/* A run chosen by hand -- always another thread than suggested when
 * there is one -- saved with drvm_save_decisions, replays exactly. */
static void save_and_replay(Check *t, const char *rec1, const char *rec4) {
  Sinks s = {0};
  DrVM *vm = vm_random5(&s, NULL);
  CHECK(t, vm && drvm_record(vm, NULL));
  CHECK(t, drvm_start(vm, 0, NULL));
  DrvmDecision d;
  int overridden = 0;
  while (drvm_run_until_decision(vm, &d) == 1) {
    int pick = d.suggested;
    for (int i = 0; i < d.nchoices; i++)
      if (d.choices[i].thread != d.suggested) pick = d.choices[i].thread;
    overridden += pick != d.suggested;
    if (!drvm_decide(vm, pick)) break;
  }
  CHECK(t, overridden > 0);
  DrvmResult r;
  int st = drvm_finish(vm, &r);
  CHECK(t, st == 0 || st == 66);
  CHECK(t, drvm_save_decisions(vm, rec4));
  drvm_free(vm);
  /* another run than the scheduler's own */
  CHECK(t, !same_files(rec4, rec1));

  Sinks s3 = {0};
  DrVM *vm3 = vm_with(SRC, &s3, 1, 0);
  uint64_t seed = 0;
  CHECK(t, vm3 && drvm_replay(vm3, rec4, false, &seed));
  CHECK(t, seed == 5);
  DrvmResult r3;
  CHECK(t, drvm_run(vm3, 0, NULL, &r3) == st);
  CHECK(t, r3.outcome != DRVM_OUTCOME_REPLAY_DIVERGED);
  CHECK(t, r3.outcome == r.outcome && r3.exit_status == r.exit_status);
  CHECK(t, r3.steps == r.steps);
  CHECK_STR(t, out_text(&s3.out), out_text(&s.out));
  CHECK_STR(t, drvm_scheduler_name(vm3), "random");
  drvm_free(vm3);
  sinks_free(&s3);
  sinks_free(&s);

  /* a recording of another program: replayed anyway, with a warning,
   * and diverges */
  const char *other = "public class Other { public static void main(String[] a) { System.out.println(1); } }";
  Sinks s4 = {0};
  DrVM *vm4 = vm_with(other, &s4, 1, 0);
  CHECK(t, vm4 && drvm_replay(vm4, rec4, false, &seed));
  CHECK_HAS(t, out_text(&s4.err), "warning");
  DrvmResult r4;
  CHECK(t, drvm_run(vm4, 0, NULL, &r4) == 6);
  CHECK(t, r4.outcome == DRVM_OUTCOME_REPLAY_DIVERGED && r4.exit_status == 6);
  CHECK_HAS(t, out_text(&s4.err), "diverged");
  drvm_free(vm4);
  sinks_free(&s4);
}

/* A VM freed at a decision, in the middle of its run (valgrind: no leak). */
static void free_midway(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_random5(&s, NULL);
  DrvmDecision d;
  CHECK(t, vm && drvm_start(vm, 0, NULL) && drvm_run_until_decision(vm, &d) == 1);
  CHECK(t, drvm_decide(vm, DRVM_SUGGESTED) && drvm_run_until_decision(vm, &d) == 1);
  drvm_free(vm);
  sinks_free(&s);
}

int main(void) {
  Check t = {0};
  char dir[] = "/tmp/drvm_api_stepXXXXXX";
  if (!mkdtemp(dir)) return 2;
  char rec[4][300];
  for (int i = 0; i < 4; i++) snprintf(rec[i], sizeof rec[i], "%s/rec%d", dir, i + 1);
  Sinks first = {0};
  by_hand(&t, rec[0], rec[1], &first);
  suggested(&t, rec[0], rec[2], &first);
  refused(&t);
  save_and_replay(&t, rec[0], rec[3]);
  free_midway(&t);
  sinks_free(&first);
  for (int i = 0; i < 4; i++) unlink(rec[i]);
  rmdir(dir);
  return CHECK_DONE(&t);
}
