/* `drvm challenge prog.dl`: the REPL with a goal (goal.h).  It shows the
 * goal at the start, and after every move judges the person's run as
 * `drvm grade` would judge it saved: the decisions so far are saved and
 * graded by the same replay, so the REPL announces exactly what grade
 * will say of `save FILE`. */
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "repl.h"

typedef struct Challenge {
  DrGoal goal;
  char *rec;                /* where the run is saved to be judged */
  bool told;                /* the goal's reaching was announced for this run */
  /* the position judged last: a command that moved nothing is not judged again */
  const ReplVM *vm;
  uint64_t pos;
  size_t out_len, err_len;
  int nraces, nmoves;
  bool ended;
} Challenge;

bool challenge_start(Repl *r, int *status) {
  Challenge *c = dr_xcalloc(1, sizeof *c);
  char err[1024];
  if (!dr_goal_parse(r->o.prog, r->text, r->len, &c->goal, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    *status = DRVM_EXIT_COMPILE;
  } else if (!c->goal.present) {
    fprintf(stderr, "drvm: %s has no goal (a comment such as // goal: deadlock): drvm repl %s runs it without one\n",
            r->o.prog, r->o.prog);
    *status = DRVM_EXIT_USAGE;
  } else {
    r->challenge = c;
    return true;
  }
  dr_goal_free(&c->goal);
  free(c);
  return false;
}

void challenge_free(Repl *r) {
  Challenge *c = r->challenge;
  if (!c) return;
  if (c->rec) unlink(c->rec);
  free(c->rec);
  dr_goal_free(&c->goal);
  free(c);
  r->challenge = NULL;
}

static void show_goal(Repl *r) {
  const DrGoal *g = &r->challenge->goal;
  char *text = dr_goal_text(g);
  repl_say(r, "%sgoal: %s%s -- %s", repl_c(r, REPL_BOLD), text, repl_c(r, REPL_OFF), dr_goal_kind(g->kind)->help);
  free(text);
  if (g->max_preemptions >= 0)
    repl_say(r, "limit: at most %d preemption%s (a switch away from a thread that could have gone on)",
             g->max_preemptions, g->max_preemptions == 1 ? "" : "s");
}

void challenge_intro(Repl *r) {
  repl_say(r, "challenge %s: make the program reach its goal by choosing who runs", r->o.prog);
  show_goal(r);
  repl_say(r, "(goal shows this again and where your run stands; hint gives a hint; help lists the commands)");
}

/* The run where it stands, graded as `drvm grade` would grade it saved;
 * false after saying why it could not be. */
static bool judge(Repl *r, DrGrade *g) {
  Challenge *c = r->challenge;
  if (!c->rec) {
    if (!repl_tmpdir(r)) return false;
    c->rec = dr_fmt("%s/challenge.rec", r->tmpdir);
  }
  if (!drvm_save_decisions(r->cur->vm, c->rec)) {
    repl_err(r, "%s", drvm_error(r->cur->vm));
    return false;
  }
  DrGradeSetup s = {r->o.prog, r->text, r->len, &r->files, r->o.args, r->o.nargs, &r->o, &c->goal, false};
  char err[1024];
  if (dr_grade_replay(&s, c->rec, g, err, sizeof err) != 0) {
    repl_err(r, "cannot judge the run: %s", err);
    return false;
  }
  return true;
}

static void announce(Repl *r, const DrGrade *g) {
  const DrGoal *goal = &r->challenge->goal;
  char *text = dr_goal_text(goal);
  const char *on = repl_c(r, g->pass ? REPL_GREEN : REPL_YELLOW), *off = repl_c(r, REPL_OFF);
  if (g->pass) {
    char limit[32] = "";
    if (goal->max_preemptions >= 0) snprintf(limit, sizeof limit, " (limit %d)", goal->max_preemptions);
    repl_say(r, "%s*** Goal reached: %s, with %d preemption%s%s.%s Save your answer: save answer.sched, then "
                "drvm grade %s answer.sched checks it",
             on, text, g->preemptions, g->preemptions == 1 ? "" : "s", limit, off, r->o.prog);
  } else {
    repl_say(r, "%s*** Goal reached: %s, but with %d preemptions: the limit is %d, so grade would fail this run.%s "
                "Go back (back, goto) and find a way with fewer",
             on, text, g->preemptions, goal->max_preemptions, off);
  }
  free(text);
}

/* Whether the run moved since it was last judged (and remembers it). */
static bool moved(Repl *r) {
  Challenge *c = r->challenge;
  const ReplVM *v = r->cur;
  bool same = c->vm == v && c->pos == v->pos && c->ended == v->ended && c->out_len == v->out.len &&
              c->err_len == v->err.len && c->nraces == v->nraces && c->nmoves == r->nmoves;
  c->vm = v;
  c->pos = v->pos;
  c->ended = v->ended;
  c->out_len = v->out.len;
  c->err_len = v->err.len;
  c->nraces = v->nraces;
  c->nmoves = r->nmoves;
  return !same;
}

void challenge_check(Repl *r) {
  Challenge *c = r->challenge;
  if (!c || !r->cur || !moved(r)) return;
  DrGrade g;
  if (!judge(r, &g)) return;
  if (g.reached && !c->told) announce(r, &g);
  c->told = g.reached;
}

void challenge_cmd(Repl *r, const char *name) {
  Challenge *c = r->challenge;
  if (!c) {
    repl_err(r, "%s: this session has no goal (drvm challenge PROG plays a challenge)", name);
    return;
  }
  if (!strcmp(name, "hint")) {
    if (!c->goal.hint) repl_say(r, "this challenge has no hint");
    for (const char *p = c->goal.hint; p && *p;) {
      size_t n = strcspn(p, "\n");
      repl_say(r, "hint: %.*s", (int)n, p);
      p += n + (p[n] == '\n');
    }
    return;
  }
  show_goal(r);
  DrGrade g;
  if (!judge(r, &g)) return;
  if (g.reached) repl_say(r, "this run: %s: %s", g.pass ? "reached" : "reached, over the limit", g.reason);
  else if (r->cur->ended) repl_say(r, "this run is over without reaching it: %s (back, goto)", g.reason);
  else repl_say(r, "this run: not reached yet (%d preemption%s so far)", g.preemptions, g.preemptions == 1 ? "" : "s");
}
