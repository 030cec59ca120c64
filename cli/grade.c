/* `drvm grade` (grade.h): a student's recording of a challenge, replayed
 * decision by decision, its preemptions counted as drvm explore counts
 * them, the goal checked after every decision. */
#include <errno.h>
#include <string.h>

#include "../vm/buf.h"
#include "../vm/json.h"
#include "grade.h"
#include "help.h"

/* What the replay has shown so far. */
typedef struct {
  DrBuf out, err;
  char **races;             /* locations of the races reported */
  int nraces, races_cap;
  int yielded;              /* the thread whose last step was Thread.yield(), or -1 */
} Watch;

static void watch_out(void *user, const char *text, size_t len) { dr_buf_append(&((Watch *)user)->out, text, len); }
static void watch_err(void *user, const char *text, size_t len) { dr_buf_append(&((Watch *)user)->err, text, len); }

/* Thread.yield() gives way: the switch after it is no preemption (as
 * drvm explore and CHESS count them). */
static void watch_yield(void *user, DrVM *vm, const DrvmEvent *e) {
  (void)vm;
  ((Watch *)user)->yielded = e->thread;
}

static void watch_races(Watch *w, DrVM *vm) {
  int n = drvm_race_count(vm);
  for (int i = w->nraces; i < n; i++) {
    DrvmRace r;
    if (!drvm_race(vm, i, &r)) break;
    DR_PUSH(w->races, w->nraces, w->races_cap, dr_strdup(r.location));
  }
}

static void watch_free(Watch *w) {
  free(w->out.data);
  free(w->err.data);
  for (int i = 0; i < w->nraces; i++) free(w->races[i]);
  free(w->races);
}

static bool watch_reached(const DrGoal *goal, const Watch *w, bool ended, DrvmOutcome outcome) {
  DrGoalView v = {w->out.len ? w->out.data : "", w->err.len ? w->err.data : "", (const char *const *)w->races,
                  w->nraces, ended, outcome};
  return dr_goal_reached(goal, &v);
}

/* Whether thread, chosen, would only find that it cannot go on: a join
 * of a live thread, or a lock another thread holds (drvm explore counts
 * a switch away from it as no preemption). */
static bool futile(DrVM *vm, int thread, const DrvmEvent *next) {
  DrvmThreadInfo t;
  if (next->kind == DRVM_EV_JOIN) return drvm_thread_info(vm, next->other, &t) && t.state != DRVM_TS_ENDED;
  if (next->kind != DRVM_EV_ACQUIRE || !drvm_thread_info(vm, thread, &t)) return false;
  return t.lock_owner >= 0 && t.lock_owner != thread;
}

/* Whether the thread at the decision could have gone on: a switch away
 * from it is a preemption (unless it just gave way with Thread.yield()). */
static bool could_go_on(DrVM *vm, const DrvmDecision *d, const Watch *w) {
  if (w->yielded == d->current) return false;
  for (int i = 0; i < d->nchoices; i++)
    if (d->choices[i].thread == d->current) return !futile(vm, d->current, d->choices[i].next);
  return false;
}

/* ------------------------------------------------------------ the replay */

/* A VM of the program replaying rec, stepping at every decision; 0, or
 * an exit status with the reason in err (compile errors printed). */
static int replay_vm(const DrGradeSetup *s, const char *rec, Watch *w, DrVM **out, char *err, size_t errsize) {
  DrvmConfig c;
  drvm_config_init(&c);
  dr_ro_vm_config(s->o, &c);
  c.write_out = watch_out;
  c.write_err = watch_err;
  c.write_user = w;
  DrVM *vm = *out = drvm_new(&c, err, errsize);
  if (!vm) return DRVM_EXIT_USAGE;
  if (!dr_prog_compile(vm, s->files)) {
    if (drvm_diag_count(vm) && s->diags) drvm_print_diags(vm, stderr);
    snprintf(err, errsize, "%s", drvm_diag_count(vm) ? "the program does not compile" : drvm_error(vm));
    return drvm_diag_count(vm) ? DRVM_EXIT_COMPILE : DRVM_EXIT_USAGE;
  }
  uint64_t seed;
  if (!drvm_replay(vm, rec, false, &seed) || !drvm_add_listener(vm, DRVM_EV_BIT(DRVM_EV_YIELD), watch_yield, w) ||
      !drvm_set_stepping(vm, 0, true) || !drvm_start(vm, s->nargs, (const char *const *)s->args)) {
    snprintf(err, errsize, "%s", drvm_error(vm));
    return DRVM_EXIT_USAGE;
  }
  return 0;
}

/* Follows the recording to the goal (1) or to the run's end (0); -1 on
 * misuse (the message in drvm_error). */
static int follow(DrVM *vm, const DrGoal *goal, Watch *w, DrGrade *g) {
  DrvmDecision d;
  for (;;) {
    int rc = drvm_run_until_decision(vm, &d);
    if (rc <= 0) return rc;
    watch_races(w, vm);
    if (watch_reached(goal, w, false, DRVM_OUTCOME_NORMAL)) {
      g->decisions = d.number;
      return 1;
    }
    /* a preemption: a switch away from a thread that could have gone on */
    if (d.suggested != d.current && could_go_on(vm, &d, w)) g->preemptions++;
    w->yielded = -1;
    if (!drvm_decide(vm, DRVM_SUGGESTED)) return -1;
  }
}

/* The program's own ending: races found do not change it. */
static void program_ending(DrGrade *g, const DrvmResult *r) {
  g->status = r->exit_status;
  g->outcome = r->outcome;
  if (r->outcome == DRVM_OUTCOME_RACES || (r->outcome == DRVM_OUTCOME_ERROR && r->exit_status == DRVM_EXIT_RACES)) {
    g->outcome = DRVM_OUTCOME_NORMAL;
    g->status = 0;
  }
}

/* The replay's divergence message, without "drvm: " and its newline. */
static char *divergence(const Watch *w) {
  const char *p = w->err.len ? strstr(w->err.data, "drvm: replay of ") : NULL;
  if (!p) return dr_strdup("the replay diverged");
  p += 6;
  return dr_strndup(p, strcspn(p, "\n"));
}

static const char *ending_words(const DrGrade *g, char *buf, size_t size) {
  switch (g->outcome) {
  case DRVM_OUTCOME_NORMAL: return "the program ended normally";
  case DRVM_OUTCOME_EXIT: snprintf(buf, size, "the program called System.exit(%d)", g->status); return buf;
  case DRVM_OUTCOME_EXCEPTION: return "an exception escaped main";
  case DRVM_OUTCOME_DEADLOCK: return "the program deadlocked";
  case DRVM_OUTCOME_STEP_LIMIT: return "the run reached the step limit";
  default: return drvm_outcome_word(g->outcome);
  }
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* The verdict and its reason, from what the replay showed. */
static void judge(const DrGoal *goal, const Watch *w, DrGrade *g) {
  char *gt = dr_goal_text(goal), how[64];
  int lim = goal->max_preemptions;
  if (g->reached) {
    g->pass = lim < 0 || g->preemptions <= lim;
    char limit[32] = "";
    if (lim >= 0) snprintf(limit, sizeof limit, " (limit %d)", lim);
    if (g->pass)
      snprintf(g->reason, sizeof g->reason, "%s reached after %llu decision%s with %d preemption%s%s", gt,
               (unsigned long long)g->decisions, plural(g->decisions), g->preemptions, plural((uint64_t)g->preemptions),
               limit);
    else
      snprintf(g->reason, sizeof g->reason, "%s reached, but with %d preemption%s: the limit is %d", gt, g->preemptions,
               plural((uint64_t)g->preemptions), lim);
  } else if (g->cut) {
    snprintf(g->reason, sizeof g->reason, "the schedule ends after %llu decision%s, before the goal (%s) is reached",
             (unsigned long long)g->decisions, plural(g->decisions), gt);
  } else if (g->diverged) {
    char *why = divergence(w);
    snprintf(g->reason, sizeof g->reason, "the schedule does not fit the program (%s)", why);
    free(why);
  } else {
    snprintf(g->reason, sizeof g->reason, "%s after %llu decision%s; the goal is %s", ending_words(g, how, sizeof how),
             (unsigned long long)g->decisions, plural(g->decisions), gt);
  }
  free(gt);
}

int dr_grade_replay(const DrGradeSetup *s, const char *rec, DrGrade *g, char *err, size_t errsize) {
  memset(g, 0, sizeof *g);
  Watch w = {.yielded = -1};
  DrVM *vm = NULL;
  int st = replay_vm(s, rec, &w, &vm, err, errsize);
  int rc = st ? -1 : follow(vm, s->goal, &w, g);
  if (!st && rc < 0) {
    snprintf(err, errsize, "%s", drvm_error(vm));
    st = DRVM_EXIT_USAGE;
  }
  g->reached = rc == 1;
  if (rc == 0) {
    g->decisions = drvm_decision_count(vm);
    DrvmResult r;
    drvm_finish(vm, &r);
    program_ending(g, &r);
    g->diverged = r.outcome == DRVM_OUTCOME_REPLAY_DIVERGED;
    g->cut = g->diverged && w.err.len && strstr(w.err.data, "the recording has ended");
    if (g->cut && g->decisions) g->decisions--; /* the one it could not answer was not taken */
    g->ended = !g->diverged;
    g->reached = watch_reached(s->goal, &w, g->ended, g->outcome);
    if (g->reached) g->cut = g->diverged = false;
  }
  if (!st) judge(s->goal, &w, g);
  drvm_free(vm);
  watch_free(&w);
  return st;
}
