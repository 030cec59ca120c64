/* drvm explore on a challenge (goal.h): after the usual report, whether
 * the goal is reachable within its preemption limit, and the shortest
 * witness that reaches it (among the outcomes' and races' witnesses). */
#include <string.h>

#include "../vm/json.h"
#include "explore.h"
#include "goal.h"

/* The witness that reaches the goal with the fewest preemptions, then
 * decisions: an outcome's, or for a race goal a race's.  false: none. */
static bool best_witness(const Explore *x, const DrGoal *g, const char **path, int *pre, uint64_t *dec) {
  bool found = false;
  for (int i = 0; i < x->nouts; i++) {
    const ExOutcome *o = &x->outs[i];
    DrGoalView v = {o->out, o->err, NULL, 0, true, o->kind};
    if (!dr_goal_reached(g, &v) || (found && (o->preemptions > *pre || (o->preemptions == *pre && o->decisions >= *dec))))
      continue;
    *path = o->witness, *pre = o->preemptions, *dec = o->decisions, found = true;
  }
  for (int i = 0; i < x->nraces; i++) {
    const ExRace *r = &x->races[i];
    if (!dr_goal_race_matches(g, r->location) ||
        (found && (r->preemptions > *pre || (r->preemptions == *pre && r->decisions >= *dec))))
      continue;
    *path = r->witness, *pre = r->preemptions, *dec = r->decisions, found = true;
  }
  return found;
}

typedef struct {
  bool found, within;       /* a witness reaches it; within the limit */
  const char *witness;
  int preemptions;
  uint64_t decisions;
} GoalFinding;

static GoalFinding find(const Explore *x) {
  GoalFinding f = {0};
  f.found = best_witness(x, x->goal, &f.witness, &f.preemptions, &f.decisions);
  f.within = f.found && (x->goal->max_preemptions < 0 || f.preemptions <= x->goal->max_preemptions);
  return f;
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

void goal_explore_print(const Explore *x, FILE *out) {
  const DrGoal *g = x->goal;
  if (!g || !g->present) return;
  GoalFinding f = find(x);
  char *text = dr_goal_text(g);
  fprintf(out, "\nchallenge goal (line %d): %s", g->line, text);
  if (g->max_preemptions >= 0) fprintf(out, ", at most %d preemption%s", g->max_preemptions, plural((uint64_t)g->max_preemptions));
  fputs("\n", out);
  if (f.within) {
    fprintf(out, "  REACHABLE: the shortest solution has %d preemption%s, %llu decision%s:\n", f.preemptions,
            plural((uint64_t)f.preemptions), (unsigned long long)f.decisions, plural(f.decisions));
    fprintf(out, "    drvm grade %s %s\n", x->prog, f.witness);
  } else if (f.found) {
    fprintf(out, "  NOT REACHABLE within the limit: the shortest way found needs %d preemptions (%s)\n", f.preemptions,
            f.witness);
  } else if (x->st.complete) {
    fputs("  NOT REACHABLE: no execution reaches it (the search was complete)\n", out);
  } else {
    fputs("  NOT FOUND: no explored execution reaches it, but the search was incomplete (a preemption bound "
          "may hide executions that reach it)\n", out);
  }
  free(text);
}

void goal_explore_json(const Explore *x, DrJsonW *w) {
  const DrGoal *g = x->goal;
  if (!g || !g->present) return;
  GoalFinding f = find(x);
  char *text = dr_goal_text(g);
  dr_jw_begin(w, "goal", '{');
  dr_jw_str(w, "goal", text);
  dr_jw_str(w, "kind", dr_goal_kind(g->kind)->word);
  dr_jw_int(w, "max_preemptions", g->max_preemptions);
  dr_jw_bool(w, "reachable", f.within);
  dr_jw_str(w, "witness", f.found ? f.witness : NULL);
  dr_jw_int(w, "preemptions", f.found ? f.preemptions : -1);
  dr_jw_uint(w, "decisions", f.found ? f.decisions : 0);
  dr_jw_end(w, '}');
  free(text);
}
