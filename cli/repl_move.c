/* The REPL's moves (repl.h): a person's decisions and the stops they
 * honour; going back and forth between positions. */
#include <errno.h>
#include <string.h>

#include "repl.h"

/* Decisions a thread's move may take alone before it gives up. */
enum { REPL_MOVE_BUDGET = 2000000 };

typedef enum {
  G_STEP,     /* T to its next event */
  G_NEXT,     /* T to its next line, over calls */
  G_TO_LINE,  /* T until it is about to execute a line */
  G_UNTIL,    /* T until it is about to access a location */
  G_RETURN,   /* T until its current method returned */
  G_CONTINUE, /* the scheduler, until a stop */
  G_FINISH,   /* the scheduler, to the end */
} GoalKind;

typedef struct {
  GoalKind kind;
  int thread;
  int line, depth;      /* G_NEXT: where T started; G_TO_LINE: the line */
  int access;           /* G_UNTIL: 0 any, 1 read, 2 write */
  ReplBp where;         /* G_UNTIL: the location */
  int races0, uncaught0;
  int *line_bp, *watch_bp; /* the goal's breakpoint lines and watches: their r->bps entries */
  DrBuf why;            /* why the move stopped */
} Goal;

/* ------------------------------------------------------------ locations */

/* "Account.balance", "Account#1.balance", "int[]#2[3]", "int[]#2": a
 * watched location, checked against the program. */
static bool parse_location(Repl *r, const char *s, ReplBp *out) {
  memset(out, 0, sizeof *out);
  out->index = -1;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  char *hash = strchr(buf, '#');
  char *br = strchr(hash ? hash : buf, '[');
  if (br && hash && br > hash) {
    uint64_t idx;
    size_t n = strlen(br);
    if (n < 3 || br[n - 1] != ']' || (br[n - 1] = 0, !repl_number(br + 1, INT32_MAX, &idx))) {
      repl_err(r, "bad array element '%s' (int[]#2[3])", s);
      return false;
    }
    out->index = (int32_t)idx;
    *br = 0;
  } else if (!strchr(hash ? hash : buf, '.') || br) {
    if (!hash || br) {
      repl_err(r, "'%s' is not a location: Class.field, Account#1.balance or int[]#2[3]", s);
      return false;
    }
  } else {
    char *dot = strrchr(buf, '.');
    *dot = 0;
    out->field = dr_strdup(dot + 1);
  }
  if (hash) {
    char *end;
    out->object = (uint32_t)strtoul(hash + 1, &end, 10);
    if (end == hash + 1 || *end) {
      repl_err(r, "bad object name '%s' (Account#1)", buf);
      free(out->field);
      return false;
    }
    *hash = 0;
  }
  out->cls = dr_strdup(buf);
  return true;
}

/* Whether the parsed location names something the program has. */
static bool location_exists(Repl *r, const ReplBp *w) {
  DrVM *vm = r->cur->vm;
  if (strchr(w->cls, '[')) { /* an array: its elements; one array must exist */
    char name[300], len[64];
    snprintf(name, sizeof name, "%s#%u", w->cls, w->object);
    if (!w->object || drvm_field_value(vm, name, "length", len, sizeof len)) return true;
    repl_err(r, "no array %s (print shows arrays' names)", name);
    return false;
  }
  bool known = false;
  const char *name;
  for (int i = 0; drvm_class_name(vm, i, &name); i++) known |= !strcmp(name, w->cls);
  if (!known) {
    repl_err(r, "no class %s in %s", w->cls, r->o.prog);
    return false;
  }
  if (!w->field) {
    repl_err(r, "watch %s#%u needs a field: %s#%u.FIELD", w->cls, w->object, w->cls, w->object);
    return false;
  }
  bool is_static;
  for (int i = 0; drvm_field_name(vm, w->cls, i, &name, &is_static); i++)
    if (!strcmp(name, w->field)) return true;
  repl_err(r, "class %s has no field %s", w->cls, w->field);
  return false;
}

/* The line where a stop for line happens (itself, or the next with an
 * event); 0 after saying why there is none. */
static int stop_line(Repl *r, long line) {
  int at = line > 0 && line < 1000000 ? drvm_line_event(r->cur->vm, (int)line) : 0;
  if (at == 0) repl_err(r, "line %ld of %s has no code", line, r->o.prog);
  else if (at < 0)
    repl_err(r, "line %ld of %s has no access, call, return or synchronization after it to stop before", line,
             r->o.prog);
  return at > 0 ? at : 0;
}

/* ------------------------------------------------------------ stops */

/* A cycle of threads each blocked on a lock the next one holds. */
static bool deadlock_cycle(Repl *r, DrBuf *why) {
  DrVM *vm = r->cur->vm;
  int n = drvm_thread_count(vm);
  for (int t = 0; t < n; t++) {
    int at = t;
    for (int hops = 0; hops <= n; hops++) {
      DrvmThreadInfo ti;
      if (!drvm_thread_info(vm, at, &ti) || ti.enabled || ti.lock_owner < 0) break;
      at = ti.lock_owner;
      if (at != t) continue;
      dr_buf_append_str(why, "deadlock:");
      int u = t;
      do {
        drvm_thread_info(vm, u, &ti);
        const char *lock = ti.state == DRVM_TS_BLOCKED ? ti.waiting_for : ti.next.cls;
        dr_buf_printf(why, " T%d waits for %s", u, lock ? lock : "a lock");
        if (ti.state != DRVM_TS_BLOCKED && ti.next.object) dr_buf_printf(why, "#%u", ti.next.object);
        dr_buf_printf(why, " held by T%d;", ti.lock_owner);
        u = ti.lock_owner;
      } while (u != t);
      why->data[why->len - 1] = 0;
      why->len--;
      return true;
    }
  }
  return false;
}

/* "breakpoint 2: T1 is about to write Account#1.balance at bank.dl:14". */
static void hit_text(Repl *r, const ReplBp *b, DrBuf *why) {
  const DrvmDecision *d = &r->cur->d;
  const DrvmEvent *e = NULL;
  for (int c = 0; c < d->nchoices; c++)
    if (d->choices[c].thread == d->suggested) e = d->choices[c].next;
  char text[300] = "";
  if (e && e->kind == DRVM_EV_STEP)
    snprintf(text, sizeof text, "execute %s:%d (%s.%s)", e->file, e->line, e->method_class, e->method);
  else if (e)
    drvm_event_text(e, text, sizeof text);
  dr_buf_printf(why, "%s %d: T%d is about to %s", b->kind == BP_LINE ? "breakpoint" : "watch", b->id, d->suggested,
                text);
}

static bool has_bp(Repl *r, ReplBpKind k) {
  for (int i = 0; i < r->nbps; i++)
    if (r->bps[i].kind == k) return true;
  return false;
}

/* Why thread t cannot run at this decision, or "" if it can. */
static void why_not(Repl *r, int t, DrBuf *b) {
  DrvmThreadInfo ti;
  DrVM *vm = r->cur->vm;
  if (!drvm_thread_info(vm, t, &ti)) {
    dr_buf_printf(b, "no thread T%d (threads lists them)", t);
    return;
  }
  if (ti.enabled) return;
  switch (ti.state) {
  case DRVM_TS_ENDED: dr_buf_printf(b, "T%d has ended", t); return;
  case DRVM_TS_WAITING: dr_buf_printf(b, "T%d waits in %s.wait() until notified", t, ti.waiting_for); return;
  case DRVM_TS_JOINING: dr_buf_printf(b, "T%d waits in join() for %s to end", t, ti.waiting_for); return;
  case DRVM_TS_SLEEPING: dr_buf_printf(b, "T%d sleeps (time moves on when no thread can run)", t); return;
  case DRVM_TS_BLOCKED:
    dr_buf_printf(b, "T%d is blocked on %s", t, ti.waiting_for);
    if (ti.lock_owner >= 0) dr_buf_printf(b, ", held by T%d", ti.lock_owner);
    return;
  default: break;
  }
  if (ti.next.kind == DRVM_EV_ACQUIRE && ti.lock_owner >= 0) {
    dr_buf_printf(b, "T%d is about to lock %s#%u, held by T%d", t, ti.next.cls, ti.next.object, ti.lock_owner);
    return;
  }
  dr_buf_printf(b, "T%d cannot run at this decision", t);
}

/* Whether the move stops at the decision the run now stands at; why. */
/* Whether the move stops at the decision the run now stands at, and why
 * (nothing to say when it simply got where it was going).  The run
 * stopped where its goal said (drvm_goal_stop), or for a race, an
 * exception or Ctrl-C (drvm_interrupt), or at its end. */
static bool stops(Repl *r, Goal *g) {
  ReplVM *v = r->cur;
  if (!v->at_decision) {
    if (v->ended && v->res.outcome == DRVM_OUTCOME_DEADLOCK) deadlock_cycle(r, &g->why);
    return true;
  }
  if (*r->interrupted) {
    dr_buf_append_str(&g->why, "interrupted");
    return true;
  }
  bool breaks = g->kind != G_FINISH;
  if (breaks && v->nraces > g->races0 && (g->kind == G_CONTINUE || has_bp(r, BP_RACE))) {
    dr_buf_printf(&g->why, "a race was reported (races shows it)");
    return true;
  }
  if (breaks && drvm_uncaught_count(v->vm) > g->uncaught0) {
    dr_buf_append_str(&g->why, "an exception escaped a thread");
    return true;
  }
  int index;
  switch (drvm_goal_stop(v->vm, &index)) {
  case DRVM_GOAL_REACHED: return true;
  case DRVM_GOAL_BLOCKED:
    if (g->kind != G_STEP) why_not(r, g->thread, &g->why);
    return true;
  case DRVM_GOAL_DEADLOCK: deadlock_cycle(r, &g->why); return true;
  case DRVM_GOAL_LINE: hit_text(r, &r->bps[g->line_bp[index]], &g->why); return true;
  case DRVM_GOAL_WATCH: hit_text(r, &r->bps[g->watch_bp[index]], &g->why); return true;
  case DRVM_GOAL_BUDGET:
    dr_buf_printf(&g->why, "T%d ran %d decisions alone without getting there (does it wait for another "
                           "thread? continue lets the others run)", g->thread, REPL_MOVE_BUDGET);
    return true;
  default: return false; /* a stop for a race the move does not break at: on */
  }
}

/* ------------------------------------------------------------ driving */

static DrvmLocation location_of(const ReplBp *b, int access) {
  DrvmLocation l = {b->cls, b->field, b->object, b->index, access};
  return l;
}

/* The move as a goal the run pursues by itself (include/drvm.h): it
 * stops only where the move may end.  *lines and *watches: the
 * breakpoints' arrays, freed by the caller. */
static void make_goal(Repl *r, Goal *g, DrvmGoal *out, int **lines, DrvmLocation **watches) {
  static const DrvmUntil until[] = {[G_STEP] = DRVM_UNTIL_EVENT, [G_NEXT] = DRVM_UNTIL_NEW_LINE,
                                    [G_TO_LINE] = DRVM_UNTIL_LINE, [G_UNTIL] = DRVM_UNTIL_ACCESS,
                                    [G_RETURN] = DRVM_UNTIL_RETURN, [G_CONTINUE] = DRVM_UNTIL_NONE,
                                    [G_FINISH] = DRVM_UNTIL_NONE};
  memset(out, 0, sizeof *out);
  bool thread_moves = g->kind != G_CONTINUE && g->kind != G_FINISH;
  out->thread = thread_moves ? g->thread : -1;
  out->until = until[g->kind];
  out->line = g->line;
  out->depth = g->depth;
  out->where = location_of(&g->where, g->access);
  *lines = dr_xcalloc((size_t)r->nbps + 1, sizeof **lines);
  *watches = dr_xcalloc((size_t)r->nbps + 1, sizeof **watches);
  g->line_bp = dr_xcalloc((size_t)r->nbps + 1, sizeof *g->line_bp);
  g->watch_bp = dr_xcalloc((size_t)r->nbps + 1, sizeof *g->watch_bp);
  for (int i = 0; g->kind != G_FINISH && i < r->nbps; i++) {
    if (r->bps[i].kind == BP_LINE) {
      g->line_bp[out->nlines] = i;
      (*lines)[out->nlines++] = r->bps[i].line;
    } else if (r->bps[i].kind == BP_WATCH) {
      g->watch_bp[out->nwatches] = i;
      (*watches)[out->nwatches++] = location_of(&r->bps[i], 0);
    }
    if (r->bps[i].kind == BP_DEADLOCK) out->deadlock = true;
  }
  out->lines = *lines;
  out->watches = *watches;
  /* a thread that waits for others in a loop never gets there alone */
  if (thread_moves) out->budget = REPL_MOVE_BUDGET;
}

/* Runs the move: the run pursues it as a goal (include/drvm.h) and
 * stops only where it may end; the REPL says why, and goes on if the
 * stop was not one for it. */
static void drive(Repl *r, Goal *g) {
  ReplVM *v = r->cur;
  drvm_set_stepping(v->vm, DRVM_POINT_ACCESS | DRVM_POINT_CALL, false);
  DrvmGoal goal;
  int *lines = NULL;
  DrvmLocation *watches = NULL;
  make_goal(r, g, &goal, &lines, &watches);
  drvm_set_goal(v->vm, &goal);
  g->races0 = v->nraces;
  g->uncaught0 = drvm_uncaught_count(v->vm);
  v->uncaught_seen = g->uncaught0;
  v->stop_on_news = g->kind != G_FINISH;
  bool thread_moves = g->kind != G_CONTINUE && g->kind != G_FINISH;
  do {
    if (!drvm_decide(v->vm, thread_moves ? g->thread : DRVM_SUGGESTED)) {
      dr_buf_printf(&g->why, "%s", drvm_error(v->vm));
      break;
    }
    repl_vm_settle(v, drvm_run_until_decision(v->vm, &v->d));
  } while (!stops(r, g));
  v->stop_on_news = false;
  if (v->at_decision) drvm_set_goal(v->vm, NULL);
  free(lines);
  free(watches);
  free(g->line_bp);
  free(g->watch_bp);
  drvm_set_stepping(v->vm, DRVM_POINT_ACCESS | DRVM_POINT_CALL, r->every);
}

/* The thread argument of a move, able to run now; -1 after saying why. */
static int runnable_arg(Repl *r, const char *s) {
  int t = repl_thread_arg(r, s);
  if (t < 0) return -1;
  DrBuf b = {0};
  why_not(r, t, &b);
  if (b.len) {
    repl_err(r, "%s", b.data);
    free(b.data);
    return -1;
  }
  return t;
}

static bool parse_goal(Repl *r, const char *cmd, char **argv, int argc, Goal *g) {
  memset(g, 0, sizeof *g);
  if (!strcmp(cmd, "continue") || (!strcmp(cmd, "finish") && argc == 1)) {
    g->kind = !strcmp(cmd, "continue") ? G_CONTINUE : G_FINISH;
    return true;
  }
  if (argc < 2) {
    repl_err(r, "%s needs a thread: %s T1", cmd, cmd);
    return false;
  }
  g->thread = runnable_arg(r, argv[1]);
  if (g->thread < 0) return false;
  DrvmThreadInfo ti;
  drvm_thread_info(r->cur->vm, g->thread, &ti);
  g->depth = ti.nframes;
  g->line = ti.next.line;
  if (!strcmp(cmd, "step") || !strcmp(cmd, "next") || !strcmp(cmd, "finish")) {
    g->kind = cmd[0] == 's' ? G_STEP : cmd[0] == 'n' ? G_NEXT : G_RETURN;
    if (argc > 2) {
      repl_err(r, "%s takes one thread, not '%s' too", cmd, argv[2]);
      return false;
    }
    return true;
  }
  /* run T to LINE | run T until [read|write|access] [of] LOCATION */
  if (argc == 4 && !strcmp(argv[2], "to")) {
    uint64_t n;
    if (!repl_number(argv[3], 1000000000, &n) || n == 0) {
      repl_err(r, "'%s' is not a line number", argv[3]);
      return false;
    }
    long line = (long)n;
    int at = stop_line(r, line);
    if (!at) return false;
    if (at != line)
      repl_say(r, "(line %ld has no access, call, return or synchronization to stop before: running to line %d)", line,
               at);
    g->kind = G_TO_LINE;
    g->line = at;
    return true;
  }
  if (argc >= 4 && !strcmp(argv[2], "until")) {
    int i = 3;
    const char *a = argv[i];
    g->access = !strcmp(a, "read") || !strcmp(a, "read-of") ? 1 : !strcmp(a, "write") || !strcmp(a, "write-of") ? 2 : 0;
    if (g->access || !strcmp(a, "access") || !strcmp(a, "access-of")) i++;
    if (i < argc && !strcmp(argv[i], "of")) i++;
    if (i != argc - 1) {
      repl_err(r, "run T until read|write|access FIELD");
      return false;
    }
    if (!parse_location(r, argv[i], &g->where)) return false;
    bool ok = location_exists(r, &g->where);
    if (!ok) free(g->where.cls), free(g->where.field);
    g->kind = G_UNTIL;
    return ok;
  }
  repl_err(r, "run T to LINE, or run T until read|write|access FIELD");
  return false;
}

/* continue SCHED [key=value...]: that scheduler decides from here on. */
static bool switch_scheduler(Repl *r, char **argv, int argc) {
  DrBuf opts = {0};
  for (int i = 2; i < argc; i++) dr_buf_printf(&opts, "%s%s", i > 2 ? " " : "", argv[i]);
  bool ok = drvm_switch_scheduler(r->cur->vm, argv[1], opts.data);
  if (!ok) repl_err(r, "%s", drvm_error(r->cur->vm));
  else if (r->cur->rec_left > r->cur->pos) r->cur->rec_left = r->cur->pos; /* it ends a recording's replay */
  else if (strcmp(r->sched, argv[1]) != 0) free(r->sched), r->sched = dr_strdup(argv[1]);
  free(opts.data);
  return ok;
}

/* The line of the command, for history of moves. */
static char *joined(char **argv, int argc) {
  DrBuf b = {0};
  for (int i = 0; i < argc; i++) dr_buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
  return b.data;
}

static void record_move(Repl *r, char **argv, int argc, uint64_t before) {
  ReplMove m = {joined(argv, argc), before, r->cur->pos, r->line, NULL};
  DR_PUSH(r->moves, r->nmoves, r->moves_cap, m);
}

/* The decisions of v in a file of the session's, for a line left behind;
 * NULL after saying why. */
bool repl_tmpdir(Repl *r) {
  if (r->tmpdir[0]) return true;
  snprintf(r->tmpdir, sizeof r->tmpdir, "/tmp/drvm-repl-XXXXXX");
  if (mkdtemp(r->tmpdir)) return true;
  r->tmpdir[0] = 0;
  repl_err(r, "cannot make a temporary directory: %s", strerror(errno));
  return false;
}

static char *save_line(Repl *r, ReplVM *v) {
  if (!repl_tmpdir(r)) {
    repl_err(r, "the line left behind is not kept: back will not reach it");
    return NULL;
  }
  char *path = dr_fmt("%s/line%d.rec", r->tmpdir, r->nfiles);
  if (!drvm_save_decisions(v->vm, path)) {
    repl_err(r, "%s", drvm_error(v->vm));
    free(path);
    return NULL;
  }
  r->nfiles++;
  return path;
}

/* A new move from `at` leaves the line the run back or goto left (redo)
 * behind: moves that started on it past `at` keep a recording of it, to
 * go back to; the moves before `at` are on the new line too. */
static void branch(Repl *r, uint64_t at) {
  char *file = NULL;
  for (int i = 1; i < r->nmoves; i++) {
    ReplMove *m = &r->moves[i];
    if (m->file || m->line != r->line || m->before <= at) continue;
    if (!file && !(file = save_line(r, r->redo))) break;
    m->file = dr_strdup(file);
  }
  free(file);
  int old = r->line;
  r->line = ++r->nlines;
  for (int i = 0; i < r->nmoves; i++)
    if (!r->moves[i].file && r->moves[i].line == old) r->moves[i].line = r->line;
}

/* Leaves the run the person is on for v, keeping the old one for redo
 * when it is ahead. */
static void take(Repl *r, ReplVM *v, bool keep_redo) {
  ReplVM *old = r->cur;
  r->cur = v;
  if (keep_redo && (!r->redo || r->redo->pos < old->pos)) {
    repl_vm_free(r->redo);
    r->redo = old;
  } else {
    repl_vm_free(old);
  }
}

static void forward_move(Repl *r, const char *cmd, char **argv, int argc) {
  ReplVM *v = r->cur;
  if (!v->at_decision) {
    repl_err(r, "the run is over (back or goto K returns to a decision)");
    return;
  }
  Goal g;
  if (!parse_goal(r, cmd, argv, argc, &g)) return;
  if (!strcmp(cmd, "continue") && argc > 1 && !switch_scheduler(r, argv, argc)) return;
  repl_stage_forget_after(r, v->pos);
  /* a thread's move may leave the recording (a step along it does not):
   * going back before here returns to the recording, after here to this run */
  if (r->rec && v->rec_left == UINT64_MAX && g.kind != G_CONTINUE && g.kind != G_FINISH &&
      !(g.kind == G_STEP && g.thread == v->d.suggested))
    v->rec_left = v->pos;
  if (r->redo && r->redo->pos > v->pos) branch(r, v->pos);
  repl_vm_free(r->redo);
  r->redo = NULL;
  uint64_t before = v->pos;
  drive(r, &g);
  free(g.where.cls);
  free(g.where.field);
  record_move(r, argv, argc, before);
  repl_stage(r);
  if (*r->interrupted && r->tty) putchar('\n'); /* after the terminal's ^C */
  repl_show_news(r);
  if (g.why.len) repl_say(r, "%sstopped:%s %s", repl_c(r, REPL_YELLOW), repl_c(r, REPL_OFF), g.why.data);
  free(g.why.data);
  repl_show_position(r);
}

/* ------------------------------------------------------------ going back */

/* A run along a recording (--replay's, or a line left behind) to
 * decision k, its future the recording's. */
static ReplVM *along(Repl *r, const char *rec, uint64_t k) {
  ReplVM *v = repl_vm_start(r, rec, k);
  if (v && !v->at_decision) {
    repl_err(r, "the recording ends before decision #%llu", (unsigned long long)k);
    repl_vm_free(v);
    return NULL;
  }
  return v;
}

/* A run standing at decision k: the staged one, the recording walked
 * through, the current run's prefix, or the run back left. */
static ReplVM *reach(Repl *r, uint64_t k) {
  ReplVM *staged = repl_stage_take(r, k);
  if (staged) {
    /* made with the scheduler of its time: continue uses today's */
    if (staged->at_decision && strcmp(drvm_scheduler_name(staged->vm), r->sched) != 0)
      drvm_switch_scheduler(staged->vm, r->sched, NULL);
    return staged;
  }
  ReplVM *v = r->cur, *redo = r->redo;
  if (k <= v->pos) return r->rec && k <= v->rec_left ? along(r, r->rec, k) : repl_vm_at(r, v, k);
  if (redo && k <= redo->pos) return r->rec && k <= redo->rec_left ? along(r, r->rec, k) : repl_vm_at(r, redo, k);
  if (r->rec && v->rec_left == UINT64_MAX) return along(r, r->rec, k);
  uint64_t last = r->redo && r->redo->pos > r->cur->pos ? r->redo->pos : r->cur->pos;
  repl_err(r, "decision #%llu has not been reached (the furthest is #%llu)", (unsigned long long)k,
           (unsigned long long)last);
  return NULL;
}

static void cmd_back(Repl *r, char **argv, int argc) {
  long n = 1;
  if (argc > 1) {
    uint64_t u;
    if (!repl_number(argv[1], 1000000000, &u) || u == 0) {
      repl_err(r, "back takes a number of moves, not '%s'", argv[1]);
      return;
    }
    n = (long)u;
  }
  int made = r->nmoves - 1;
  if (n > made) {
    if (made) repl_err(r, "cannot go back %ld moves: only %d made", n, made);
    else repl_err(r, "cannot go back: this is the start");
    return;
  }
  /* where the nth last move started: on this line, or on one left behind */
  ReplMove *m = &r->moves[r->nmoves - n];
  uint64_t k = m->before;
  char *file = m->file;
  ReplVM *v = file ? along(r, file, k) : reach(r, k);
  if (!v) return;
  if (file) { /* that line is the run's again: its recording is the future */
    r->line = ++r->nlines;
    for (int i = 0; i < r->nmoves - n; i++)
      if (r->moves[i].file && !strcmp(r->moves[i].file, file)) {
        free(r->moves[i].file);
        r->moves[i].file = NULL;
        r->moves[i].line = r->line;
      }
    repl_vm_free(r->redo);
    r->redo = NULL;
    repl_vm_free(r->cur);
    r->cur = v;
  } else {
    take(r, v, true);
  }
  for (long i = 0; i < n; i++) --r->nmoves, free(r->moves[r->nmoves].cmd), free(r->moves[r->nmoves].file);
  repl_say(r, "back to #%llu (after: %s)", (unsigned long long)k, r->moves[r->nmoves - 1].cmd);
  repl_stage(r);
  repl_show_position(r);
}

static void cmd_goto(Repl *r, char **argv, int argc) {
  uint64_t k;
  if (argc != 2 || !repl_number(argv[1][0] == '#' ? argv[1] + 1 : argv[1], UINT64_MAX - 1, &k)) {
    repl_err(r, "goto needs a decision number: goto 12 (history shows them)");
    return;
  }
  if (k == r->cur->pos && r->cur->at_decision) {
    repl_say(r, "already at #%llu", (unsigned long long)k);
    return;
  }
  ReplVM *v = reach(r, k);
  if (!v) return;
  uint64_t before = r->cur->pos;
  take(r, v, k < before);
  record_move(r, argv, argc, before);
  repl_say(r, "at #%llu", (unsigned long long)r->cur->pos);
  repl_stage(r);
  repl_show_position(r);
}

/* ------------------------------------------------------------ breakpoints */

static void add_bp(Repl *r, ReplBp *b) {
  b->id = ++r->next_bp;
  DR_PUSH(r->bps, r->nbps, r->bps_cap, *b);
}

static void cmd_break(Repl *r, char **argv, int argc) {
  if (argc != 2) {
    repl_err(r, "break LINE, break file:LINE, break race or break deadlock");
    return;
  }
  ReplBp b;
  memset(&b, 0, sizeof b);
  b.index = -1;
  const char *a = argv[1];
  if (!strcmp(a, "race") || !strcmp(a, "deadlock")) {
    b.kind = a[0] == 'r' ? BP_RACE : BP_DEADLOCK;
    add_bp(r, &b);
    repl_say(r, "breakpoint %d: stop %s", b.id, b.kind == BP_RACE ? "when a race is reported"
                                                                 : "when threads wait for each other's locks");
    return;
  }
  const char *colon = strrchr(a, ':');
  if (colon) {
    /* a file of the program, by its path or its base name (lines are the
     * program's: in a program of several files, that line of each) */
    size_t n = (size_t)(colon - a);
    bool found = false;
    const char *base = NULL;
    for (int i = 0; i < r->files.paths.n && !found; i++) {
      const char *path = r->files.paths.v[i];
      base = strrchr(path, '/');
      base = base ? base + 1 : path;
      found = (strlen(path) == n && !strncmp(a, path, n)) || (strlen(base) == n && !strncmp(a, base, n));
    }
    if (!found) {
      repl_err(r, "no file %.*s in this program (it is %s)", (int)n, a, r->files.paths.n == 1 && base ? base : r->o.prog);
      return;
    }
    a = colon + 1;
  }
  uint64_t n;
  long line = repl_number(a, 1000000000, &n) ? (long)n : 0;
  if (line <= 0) {
    repl_err(r, "'%s' is not a line: break LINE, break file:LINE, break race or break deadlock", argv[1]);
    return;
  }
  int at = stop_line(r, line);
  if (!at) return;
  b.kind = BP_LINE;
  b.line = at;
  add_bp(r, &b);
  if (at != line)
    repl_say(r, "breakpoint %d at %s:%d (line %ld has no access, call, return or synchronization to stop before)", b.id,
             r->o.prog, at, line);
  else
    repl_say(r, "breakpoint %d at %s:%ld", b.id, r->o.prog, line);
}

static void cmd_watch(Repl *r, char **argv, int argc) {
  if (argc != 2) {
    repl_err(r, "watch Class.field, watch Account#1.balance or watch int[]#2[3]");
    return;
  }
  ReplBp b;
  if (!parse_location(r, argv[1], &b)) return;
  if (!location_exists(r, &b)) {
    free(b.cls), free(b.field);
    return;
  }
  b.kind = BP_WATCH;
  add_bp(r, &b);
  repl_say(r, "watch %d: stop before any thread accesses %s", b.id, argv[1]);
}

static void bp_text(const ReplBp *b, DrBuf *t) {
  switch (b->kind) {
  case BP_LINE: dr_buf_printf(t, "line %d", b->line); break;
  case BP_RACE: dr_buf_append_str(t, "race"); break;
  case BP_DEADLOCK: dr_buf_append_str(t, "deadlock"); break;
  case BP_WATCH:
    dr_buf_append_str(t, b->cls);
    if (b->object) dr_buf_printf(t, "#%u", b->object);
    if (b->field) dr_buf_printf(t, ".%s", b->field);
    if (b->index >= 0) dr_buf_printf(t, "[%d]", b->index);
    break;
  }
}

static void cmd_breaks(Repl *r) {
  if (!r->nbps) repl_say(r, "no breakpoints or watches");
  for (int i = 0; i < r->nbps; i++) {
    DrBuf t = {0};
    bp_text(&r->bps[i], &t);
    repl_say(r, "  %d  %s %s", r->bps[i].id, r->bps[i].kind == BP_WATCH ? "watch" : "break", t.data);
    free(t.data);
  }
}

static void cmd_delete(Repl *r, char **argv, int argc) {
  if (argc == 1) {
    for (int i = 0; i < r->nbps; i++) free(r->bps[i].cls), free(r->bps[i].field);
    repl_say(r, "deleted every breakpoint and watch (%d)", r->nbps);
    r->nbps = 0;
    return;
  }
  uint64_t u;
  int id = repl_number(argv[1], 1000000, &u) ? (int)u : -1;
  for (int i = 0; i < r->nbps; i++) {
    if (r->bps[i].id != id) continue;
    free(r->bps[i].cls), free(r->bps[i].field);
    memmove(&r->bps[i], &r->bps[i + 1], sizeof *r->bps * (size_t)(r->nbps - i - 1));
    r->nbps--;
    repl_say(r, "deleted %d", id);
    return;
  }
  repl_err(r, "no breakpoint %s (breaks lists them)", argv[1]);
}

/* witness N | witness race N: the run becomes that execution of the
 * last explore, played from here (it shares the decisions so far) to its
 * end; back returns here. */
static void cmd_witness(Repl *r, char **argv, int argc) {
  bool race = argc == 3 && !strcmp(argv[1], "race");
  uint64_t n;
  if ((argc != 2 && !race) || !repl_number(argv[argc - 1], 1000000, &n) || n == 0) {
    repl_err(r, "witness N (an outcome of the last explore) or witness race N");
    return;
  }
  uint64_t decisions;
  const char *path = repl_witness(r, race, (int)n, &decisions);
  if (!path) return;
  ReplVM *v = r->cur;
  if (!v->at_decision) {
    repl_err(r, "the run is over: explore and witness work from a decision (back, goto)");
    return;
  }
  ReplVM *w = repl_vm_start(r, path, decisions);
  if (!w) return;
  repl_stage_forget_after(r, v->pos);
  if (r->redo && r->redo->pos > v->pos) branch(r, v->pos);
  repl_vm_free(r->redo);
  r->redo = NULL;
  /* what the person saw before here is not news */
  w->out_shown = v->out_shown < w->out.len ? v->out_shown : w->out.len;
  w->err_shown = v->err_shown < w->err.len ? v->err_shown : w->err.len;
  w->races_told = 0;
  uint64_t before = v->pos;
  take(r, w, false);
  record_move(r, argv, argc, before);
  repl_stage(r);
  repl_show_news(r);
  repl_show_position(r);
}

bool repl_cmd_move(Repl *r, const char *cmd, char **argv, int argc) {
  if (!strcmp(cmd, "step") || !strcmp(cmd, "next") || !strcmp(cmd, "run") || !strcmp(cmd, "continue") ||
      !strcmp(cmd, "finish"))
    forward_move(r, cmd, argv, argc);
  else if (!strcmp(cmd, "back")) cmd_back(r, argv, argc);
  else if (!strcmp(cmd, "goto")) cmd_goto(r, argv, argc);
  else if (!strcmp(cmd, "witness")) cmd_witness(r, argv, argc);
  else if (!strcmp(cmd, "break")) cmd_break(r, argv, argc);
  else if (!strcmp(cmd, "watch")) cmd_watch(r, argv, argc);
  else if (!strcmp(cmd, "breaks")) cmd_breaks(r);
  else if (!strcmp(cmd, "delete")) cmd_delete(r, argv, argc);
  else return false;
  return true;
}
