/* A person's goal as a scheduler: the decision half of `drvm repl`.
 *
 * A person at a REPL says what they want -- "T1, to your next event",
 * "T1, to line 14", "T2 until it writes Account#1.balance", "let the
 * scheduler go on until a breakpoint" -- and the run should go there
 * without returning to them at each of the thousands of decisions on the
 * way.  This scheduler sits in the chain below the recorder (so every
 * pick is recorded and replays) and above the chosen scheduler: while a
 * goal is set it picks the goal's thread whenever it can run (else the
 * chosen scheduler decides), and at the first decision where the goal is
 * reached, or where the thread it picks is about to execute a
 * breakpoint's line or access a watched location, it asks the stepping run to stop there
 * (vm->step_interrupt).  Without a goal it only passes the chosen
 * scheduler's answers through. */
#include <string.h>

#include "sched.h"

typedef struct {
  DrScheduler base;
  DrScheduler *inner;
  bool active;
  DrvmGoal g;
  int *lines;              /* copies of the goal's arrays */
  DrvmLocation *watches;
  char **strings;          /* the locations' names, owned */
  int nstrings, strings_cap;
  /* per thread, the line, depth and pc of its last point: a breakpoint
   * is hit when a thread arrives at its line (from another line, or by a
   * jump back, a loop's next turn), not at each event on it */
  int *last_line, *last_depth;
  uint32_t *last_pc;
  int nlast;
  uint64_t picks;          /* since the goal was set */
  bool cycle;              /* threads wait for each other's locks (a new cycle stops) */
  DrvmGoalStop why;        /* why it stopped the run at the last pick */
  int why_index;           /* the breakpoint or watch */
} Goal;

/* The pending event of t as a host sees it (file, line, names). */
static void pending(DrVM *vm, DrThread *t, DrEvent *ev, int *line) {
  dr_sched_pending(vm, t, ev);
  *line = ev->method ? dr_method_line(ev->method, ev->pc) : -1;
}

static bool is_access(DrEventKind k) {
  return k == DR_EV_READ || k == DR_EV_WRITE || k == DR_EV_VREAD || k == DR_EV_VWRITE;
}

static bool location_is(const DrvmLocation *w, const DrEvent *ev) {
  if (!is_access(ev->kind) || !ev->cls || !w->cls) return false;
  char buf[256];
  const DrClass *c = ev->cls;
  if (strcmp(c->name, w->cls) != 0 && strcmp(dr_class_display_name(c, buf, sizeof buf), w->cls) != 0) return false;
  if (w->object && (!ev->obj || ev->obj->serial != w->object)) return false;
  bool reads = ev->kind == DR_EV_READ || ev->kind == DR_EV_VREAD;
  if (w->access && (w->access == 1) != reads) return false;
  if (c->flags & DR_CLS_ARRAY) return !w->field && (w->index < 0 || ev->field == w->index);
  const char *name = ev->is_static ? (ev->field < c->nstatics ? c->static_names[ev->field] : NULL)
                                   : (ev->field < c->nfields ? c->field_names[ev->field] : NULL);
  return w->field && name && !strcmp(name, w->field);
}

/* Remembers where t stands; true if it just arrived at its line. */
static bool arrived(Goal *g, DrThread *t, int line, uint32_t pc) {
  if (t->id >= g->nlast) {
    int n = t->id + 16;
    g->last_line = dr_xrealloc(g->last_line, sizeof *g->last_line * (size_t)n);
    g->last_depth = dr_xrealloc(g->last_depth, sizeof *g->last_depth * (size_t)n);
    g->last_pc = dr_xrealloc(g->last_pc, sizeof *g->last_pc * (size_t)n);
    for (int i = g->nlast; i < n; i++) g->last_line[i] = g->last_depth[i] = -1, g->last_pc[i] = 0;
    g->nlast = n;
  }
  int id = t->id;
  bool moved = g->last_line[id] != line || g->last_depth[id] != t->nframes || pc <= g->last_pc[id];
  g->last_line[id] = line;
  g->last_depth[id] = t->nframes;
  g->last_pc[id] = pc;
  return moved;
}

/* The thread about to run, t, arrives at a breakpoint's line or is about
 * to access a watched location (threads that do not move hit nothing):
 * DRVM_GOAL_LINE or _WATCH with *index, else DRVM_GOAL_NOT_STOPPED. */
static DrvmGoalStop at_breakpoint(Goal *g, DrVM *vm, DrThread *t, int *index) {
  DrEvent ev;
  int line;
  pending(vm, t, &ev, &line);
  bool moved = arrived(g, t, line, ev.pc);
  for (int k = 0; k < g->g.nlines; k++)
    if (line == g->lines[k] && moved) return *index = k, DRVM_GOAL_LINE;
  for (int k = 0; k < g->g.nwatches; k++)
    if (location_is(&g->watches[k], &ev)) return *index = k, DRVM_GOAL_WATCH;
  return DRVM_GOAL_NOT_STOPPED;
}

/* The monitor t waits for, taken or about to be taken, and its owner. */
static DrThread *owner_awaited(DrVM *vm, DrThread *t) {
  const DrObj *o = NULL;
  if (t->state == DR_TS_BLOCKED && t->monitor) {
    o = t->monitor;
  } else if (t->state == DR_TS_RUNNABLE && !dr_sched_is_enabled(vm, t)) {
    DrEvent ev;
    dr_sched_pending(vm, t, &ev);
    if (ev.kind == DR_EV_ACQUIRE) o = ev.obj;
  }
  DrThread *owner = o && o->monitor ? o->monitor->owner : NULL;
  return owner != t ? owner : NULL;
}

/* Threads waiting in a cycle for each other's monitors. */
static bool lock_cycle(DrVM *vm) {
  for (int i = 0; i < vm->nthreads; i++) {
    DrThread *t = vm->threads[i], *at = t;
    for (int hops = 0; hops <= vm->nthreads && at; hops++) {
      at = owner_awaited(vm, at);
      if (at == t) return true;
    }
  }
  return false;
}

/* Whether the goal's thread t, able to run, has reached the goal. */
static bool reached(Goal *g, DrVM *vm, DrThread *t, DrPickReason reason) {
  DrEvent ev;
  int line;
  pending(vm, t, &ev, &line);
  bool plain = ev.kind != DR_EV_RETURN && ev.kind != DR_EV_STEP;
  switch (g->g.until) {
  case DRVM_UNTIL_EVENT: return reason != DR_PICK_PREEMPT && plain;
  case DRVM_UNTIL_NEW_LINE:
    return t->nframes < g->g.depth || (t->nframes == g->g.depth && line != g->g.line);
  case DRVM_UNTIL_LINE: return line == g->g.line;
  case DRVM_UNTIL_ACCESS: return location_is(&g->g.where, &ev);
  case DRVM_UNTIL_RETURN: return t->nframes < g->g.depth;
  default: return false;
  }
}

static DrThread *goal_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Goal *g = (Goal *)s;
  if (!g->active) return g->inner->pick(g->inner, vm, cur, reason);
  DrThread *t = g->g.thread >= 0 && g->g.thread < vm->nall_threads ? vm->all_threads[g->g.thread] : NULL;
  /* the chosen scheduler is asked as at a person's decision, and told
   * when it is overridden (a replayed prefix then ends) */
  DrThread *suggested = g->inner->pick(g->inner, vm, cur, reason);
  DrvmGoalStop why = DRVM_GOAL_NOT_STOPPED;
  if (t && !dr_sched_is_enabled(vm, t)) {
    why = DRVM_GOAL_BLOCKED; /* it cannot go on: the person decides what next */
    t = suggested;
  } else if (t) {
    if (reached(g, vm, t, reason)) why = DRVM_GOAL_REACHED;
    if (t != suggested && g->inner->overridden) g->inner->overridden(g->inner, vm, t);
  } else {
    t = suggested;
  }
  bool was = g->cycle;
  g->cycle = g->g.deadlock && lock_cycle(vm);
  int index = -1;
  DrvmGoalStop hit = at_breakpoint(g, vm, t, &index); /* always: it follows where threads stand */
  if (!why && g->cycle && !was) why = DRVM_GOAL_DEADLOCK;
  if (!why) why = hit;
  if (!why && g->g.budget && ++g->picks >= g->g.budget) why = DRVM_GOAL_BUDGET;
  g->why = why;
  g->why_index = index;
  if (why) vm->step_interrupt = 1;
  return t;
}

DrvmGoalStop dr_sched_goal_stop(DrScheduler *s, int *index) {
  Goal *g = (Goal *)s;
  if (index) *index = g->why_index;
  return g->active ? g->why : DRVM_GOAL_NOT_STOPPED;
}

static void goal_overridden(DrScheduler *s, DrVM *vm, DrThread *chosen) {
  Goal *g = (Goal *)s;
  if (g->inner->overridden) g->inner->overridden(g->inner, vm, chosen);
}

static int goal_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  Goal *g = (Goal *)s;
  return g->inner->pick_waiter ? g->inner->pick_waiter(g->inner, vm, lock, waiters, n) : 0;
}

static uint64_t goal_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  Goal *g = (Goal *)s;
  return g->inner->quantum ? g->inner->quantum(g->inner, vm, t) : 0;
}

static int goal_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  Goal *g = (Goal *)s;
  return g->inner->spurious ? g->inner->spurious(g->inner, vm, waiting, n) : -1;
}

static void drop_goal(Goal *g) {
  for (int i = 0; i < g->nstrings; i++) free(g->strings[i]);
  free(g->strings);
  free(g->lines);
  free(g->watches);
  g->strings = NULL;
  g->nstrings = g->strings_cap = 0;
  g->lines = NULL;
  g->watches = NULL;
  g->active = false;
}

static void goal_destroy(DrScheduler *s) {
  Goal *g = (Goal *)s;
  drop_goal(g);
  free(g->last_line);
  free(g->last_depth);
  free(g->last_pc);
  g->inner->destroy(g->inner);
  free(g);
}

DrScheduler *dr_sched_goal(DrScheduler *inner) {
  Goal *g = dr_xcalloc(1, sizeof *g);
  g->base.name = inner->name;
  g->base.points = inner->points;
  g->base.pick = goal_pick;
  g->base.overridden = goal_overridden;
  g->base.pick_waiter = goal_pick_waiter;
  g->base.quantum = goal_quantum;
  g->base.spurious = goal_spurious;
  g->base.destroy = goal_destroy;
  g->inner = inner;
  return &g->base;
}

void dr_sched_goal_set_inner(DrScheduler *s, DrScheduler *inner) {
  Goal *g = (Goal *)s;
  g->inner = inner;
  g->base.name = inner->name;
}

static const char *own(Goal *g, const char *str) {
  if (!str) return NULL;
  DR_PUSH(g->strings, g->nstrings, g->strings_cap, dr_strdup(str));
  return g->strings[g->nstrings - 1];
}

static void own_location(Goal *g, DrvmLocation *w) {
  w->cls = own(g, w->cls);
  w->field = own(g, w->field);
}

void dr_sched_goal_set(DrScheduler *s, DrVM *vm, const DrvmGoal *goal) {
  Goal *g = (Goal *)s;
  drop_goal(g);
  if (!goal) return;
  /* where each thread stands now: a breakpoint on its line is not hit
   * until it leaves and comes back */
  for (int i = 0; i < vm->nthreads; i++) {
    DrEvent ev;
    int line;
    pending(vm, vm->threads[i], &ev, &line);
    arrived(g, vm->threads[i], line, ev.pc);
  }
  g->g = *goal;
  g->active = true;
  g->picks = 0;
  g->why = DRVM_GOAL_NOT_STOPPED;
  g->cycle = goal->deadlock && lock_cycle(vm); /* one the run stands in already does not stop it again */
  own_location(g, &g->g.where);
  if (goal->nlines > 0) {
    g->lines = dr_xmalloc(sizeof *g->lines * (size_t)goal->nlines);
    memcpy(g->lines, goal->lines, sizeof *g->lines * (size_t)goal->nlines);
  }
  if (goal->nwatches > 0) {
    g->watches = dr_xmalloc(sizeof *g->watches * (size_t)goal->nwatches);
    memcpy(g->watches, goal->watches, sizeof *g->watches * (size_t)goal->nwatches);
    for (int i = 0; i < goal->nwatches; i++) own_location(g, &g->watches[i]);
  }
}
