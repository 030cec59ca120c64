/* The flow pass over one checked body: definite assignment and definite
 * unassignment of locals (JLS 16) and reachability (JLS 14.22).
 *
 * The state at a program point is two bit sets over the method's locals
 * (their DrLocalSym.index) plus a reachability flag:
 *   da: definitely assigned;
 *   pa: possibly assigned (the complement of "definitely unassigned"),
 *       needed only for blank final locals;
 *   alive: the point is reachable.
 * After a jump (break, continue, return, throw) nothing is reachable and,
 * as JLS 16 says, every variable is vacuously both definitely assigned and
 * definitely unassigned: da = all, pa = none.  Such a state is the identity
 * of join (da &, pa |), so paths that end in jumps drop out of merges.
 * Definite unassignment needs a fixpoint around loops; the body of a loop
 * is analysed twice (quietly first) when the method has blank finals. */
#include <string.h>

#include "checker_internal.h"

typedef struct {
  uint64_t *da, *pa;
  bool alive;
} DrFlowState;

typedef struct DrFlowTarget {
  bool is_loop;
  bool is_swx;           /* a switch expression: brk joins its yields */
  bool is_label;         /* a labeled statement: only `break L` reaches it */
  const DrStmt *stmt;    /* the loop, switch or labeled statement */
  DrFlowState brk, cont; /* joined states of the breaks / continues to it */
  struct DrFlowTarget *outer;
} DrFlowTarget;

typedef struct {
  DrChecker *c;
  DrMethodSym *m;
  int nw;
  int nlocals;
  DrFlowState s;          /* the current state */
  uint64_t *any;     /* every local assigned so far (try/catch/finally) */
  DrFlowTarget *targets;
  int quiet;         /* >0: first pass of a loop, errors suppressed */
  bool blank_finals; /* whether the method has any (fixpoint needed) */
  uint64_t *loop_pa; /* possibly assigned only through a loop's back edge */
  DrChkTrack *track; /* blank final fields: bits nlocals.. */
  bool ctor_check;   /* a constructor: they must be assigned when it ends */
  bool recovered;    /* an unreachable statement was reported: like javac,
                        do not also complain about a missing return */
  DrArena pool;      /* the states; a statement's own are freed after it
                        (fs), so a method with N locals and N branches does
                        not keep N states of N bits */
} DrFlow;

static uint64_t *words(DrFlow *f) { return dr_arena_alloc(&f->pool, sizeof(uint64_t) * (size_t)f->nw); }

static DrFlowState st_alloc(DrFlow *f) {
  DrFlowState s = {words(f), words(f), false};
  return s;
}

static void st_copy(DrFlow *f, DrFlowState *dst, const DrFlowState *src) {
  memcpy(dst->da, src->da, sizeof(uint64_t) * (size_t)f->nw);
  memcpy(dst->pa, src->pa, sizeof(uint64_t) * (size_t)f->nw);
  dst->alive = src->alive;
}

static DrFlowState st_clone(DrFlow *f, const DrFlowState *src) {
  DrFlowState s = st_alloc(f);
  st_copy(f, &s, src);
  return s;
}

/* The vacuous state after a jump (or the false branch of `true`). */
static void st_vacuous(DrFlow *f, DrFlowState *s, bool alive) {
  memset(s->da, 0xFF, sizeof(uint64_t) * (size_t)f->nw);
  memset(s->pa, 0, sizeof(uint64_t) * (size_t)f->nw);
  s->alive = alive;
}

static DrFlowState st_dead(DrFlow *f) {
  DrFlowState s = st_alloc(f);
  st_vacuous(f, &s, false);
  return s;
}

static void st_join(DrFlow *f, DrFlowState *into, const DrFlowState *o) {
  for (int i = 0; i < f->nw; i++) {
    into->da[i] &= o->da[i];
    into->pa[i] |= o->pa[i];
  }
  into->alive = into->alive || o->alive;
}

static bool bit(const uint64_t *w, int i) { return (w[i / 64] >> (i % 64)) & 1u; }
static void set_bit(uint64_t *w, int i) { w[i / 64] |= (uint64_t)1 << (i % 64); }
static void clear_bit(uint64_t *w, int i) { w[i / 64] &= ~((uint64_t)1 << (i % 64)); }

static bool tracked(DrFlow *f, DrLocalSym *l) { return l && l->index >= 0 && l->index < f->nlocals; }

static void flow_error(DrFlow *f, DrPos pos, const char *msg, const char *name) {
  if (f->quiet) return;
  if (name)
    chk_error(f->c, pos, msg, name);
  else
    chk_error(f->c, pos, "%s", msg);
}

static void read_var(DrFlow *f, int idx, const char *name, DrPos pos) {
  if (bit(f->s.da, idx)) return;
  flow_error(f, pos, "variable %s might not have been initialized", name);
  set_bit(f->s.da, idx); /* one report per path */
}

static void assign_var(DrFlow *f, int idx, const char *name, bool blank_final, DrPos pos) {
  if (blank_final && bit(f->s.pa, idx))
    flow_error(f, pos,
               bit(f->loop_pa, idx) ? "variable %s might be assigned in loop"
                                    : "variable %s might already have been assigned",
               name);
  set_bit(f->s.da, idx);
  set_bit(f->s.pa, idx);
  set_bit(f->any, idx);
}

static void read_local(DrFlow *f, DrExpr *e) {
  if (tracked(f, e->local)) read_var(f, e->local->index, e->local->name, e->pos);
}

static void assign_local(DrFlow *f, DrLocalSym *l, DrPos pos) {
  if (!tracked(f, l)) return;
  /* JLS 4.12.4: assigned where it may already hold a value, it is not
   * effectively final (a lambda or inner class may not use it) */
  if (bit(f->s.pa, l->index) || bit(f->loop_pa, l->index)) chk_local(l)->not_ef = true;
  assign_var(f, l->index, l->name, chk_local(l)->blank_final, pos);
}

/* The bit of a blank final field accessed as x / this.x (or C.x for a
 * static one), or -1. */
static int field_var(DrFlow *f, DrExpr *e) {
  if (!f->track || !e) return -1;
  if (e->kind == E_FIELD && !(e->target && e->target->kind == E_THIS)) return -1;
  if ((e->kind != E_FIELD && e->kind != E_STATIC_FIELD) || !e->field) return -1;
  /* a field of another class, or an untracked one, has a track_pos that
   * names some other field here (or none) */
  int i = chk_field(e->field)->track_pos;
  return i < f->track->n && f->track->fields[i] == e->field ? f->nlocals + i : -1;
}

/* At a constructor's return (or end): every blank final assigned. */
static void check_fields_assigned(DrFlow *f, DrPos pos) {
  if (!f->ctor_check || !f->s.alive) return;
  for (int i = 0; i < f->track->n; i++)
    if (!bit(f->s.da, f->nlocals + i))
      flow_error(f, pos, "variable %s might not have been initialized", f->track->fields[i]->name);
}

/* ---------------------------------------------------------- expressions */

static void fx(DrFlow *f, DrExpr *e);
static void fs_switch(DrFlow *f, DrStmt *s);

static bool is_const_bool(DrExpr *e, bool v) {
  return e && e->is_const && e->type && e->type->kind == TY_BOOLEAN && (e->cval.i != 0) == v;
}

/* A boolean expression: the states when it is true and when false. */
static void fcond(DrFlow *f, DrExpr *e, DrFlowState *t, DrFlowState *fl) {
  if (!e) {
    *t = st_clone(f, &f->s);
    *fl = st_clone(f, &f->s);
    return;
  }
  if (is_const_bool(e, true) || is_const_bool(e, false)) {
    DrFlowState live = st_clone(f, &f->s), vac = st_alloc(f);
    st_vacuous(f, &vac, f->s.alive);
    *t = e->cval.i ? live : vac;
    *fl = e->cval.i ? vac : live;
    return;
  }
  if (e->kind == E_BINARY && (e->op == DR_BIN_LAND || e->op == DR_BIN_LOR)) {
    DrFlowState lt, lf, rt, rf;
    fcond(f, e->lhs, &lt, &lf);
    bool land = e->op == DR_BIN_LAND;
    st_copy(f, &f->s, land ? &lt : &lf);
    fcond(f, e->rhs, &rt, &rf);
    if (land) {
      *t = rt;
      st_join(f, &lf, &rf);
      *fl = lf;
    } else {
      st_join(f, &lt, &rt);
      *t = lt;
      *fl = rf;
    }
    return;
  }
  if (e->kind == E_UNARY && e->op == '!') {
    fcond(f, e->target, fl, t);
    return;
  }
  if (e->kind == E_COND && e->type && e->type->kind == TY_BOOLEAN) {
    DrFlowState ct, cf, at, af, bt, bf;
    fcond(f, e->cond, &ct, &cf);
    st_copy(f, &f->s, &ct);
    fcond(f, e->lhs, &at, &af);
    st_copy(f, &f->s, &cf);
    fcond(f, e->rhs, &bt, &bf);
    st_join(f, &at, &bt);
    st_join(f, &af, &bf);
    *t = at;
    *fl = af;
    return;
  }
  fx(f, e);
  *t = st_clone(f, &f->s);
  *fl = st_clone(f, &f->s);
}

static void fx_args(DrFlow *f, DrExpr **args, int n) {
  for (int i = 0; i < n; i++) fx(f, args[i]);
}

/* The parts of an assignment target evaluated before the value. */
static void fx_target_parts(DrFlow *f, DrExpr *t) {
  switch (t->kind) {
  case E_FIELD: fx(f, t->target); break;
  case E_INDEX:
    fx(f, t->target);
    fx(f, t->rhs);
    break;
  default: break;
  }
}

static void fx(DrFlow *f, DrExpr *e) {
  if (!e || e->is_const) return;
  switch (e->kind) {
  case E_LOCAL: read_local(f, e); break;
  case E_FIELD:
  case E_STATIC_FIELD: {
    int v = field_var(f, e);
    if (v >= 0) read_var(f, v, e->field->name, e->pos);
    else if (e->kind == E_FIELD) fx(f, e->target);
    break;
  }
  case E_ARRAY_LENGTH:
  case E_CONVERT:
  case E_CAST:
  case E_INSTANCEOF: fx(f, e->target); break;
  case E_FIELD_ACCESS: fx(f, e->target); break;
  case E_UNARY:
    if (e->op == '!') {
      DrFlowState t, fl;
      fcond(f, e, &t, &fl);
      st_join(f, &t, &fl);
      st_copy(f, &f->s, &t);
    } else {
      fx(f, e->target);
    }
    break;
  case E_INDEX:
    fx(f, e->target);
    fx(f, e->rhs);
    break;
  case E_CALL:
    if (e->target && e->target->kind != E_TYPE) fx(f, e->target);
    fx_args(f, e->args, e->nargs);
    break;
  case E_NEW:
    fx_args(f, e->hidden, e->nhidden);
    fx_args(f, e->args, e->nargs);
    break;
  case E_ARRAY_INIT: fx_args(f, e->args, e->nargs); break;
  case E_NEW_ARRAY:
    fx_args(f, e->args, e->nargs);
    fx(f, e->init);
    break;
  case E_PREINC:
  case E_PREDEC:
  case E_POSTINC:
  case E_POSTDEC:
    if (e->target && e->target->kind == E_LOCAL) {
      read_local(f, e->target);
      assign_local(f, e->target->local, e->target->pos);
    } else if (field_var(f, e->target) >= 0) {
      int v = field_var(f, e->target);
      read_var(f, v, e->target->field->name, e->target->pos);
      assign_var(f, v, e->target->field->name, true, e->target->pos);
    } else {
      fx(f, e->target);
    }
    break;
  case E_BINARY:
    if (e->op == DR_BIN_LAND || e->op == DR_BIN_LOR) {
      DrFlowState t, fl;
      fcond(f, e, &t, &fl);
      st_join(f, &t, &fl);
      st_copy(f, &f->s, &t);
    } else {
      fx(f, e->lhs);
      fx(f, e->rhs);
    }
    break;
  case E_ASSIGN: {
    DrExpr *t = e->target;
    if (!t) break;
    int v = field_var(f, t);
    if (t->kind == E_LOCAL) {
      if (e->op != DR_BIN_NONE) read_local(f, t);
      fx(f, e->rhs);
      assign_local(f, t->local, t->pos);
    } else if (v >= 0) {
      if (e->op != DR_BIN_NONE) read_var(f, v, t->field->name, t->pos);
      fx(f, e->rhs);
      assign_var(f, v, t->field->name, true, t->pos);
    } else {
      fx_target_parts(f, t);
      fx(f, e->rhs);
    }
    break;
  }
  case E_SWITCH: fs_switch(f, e->sw); break;
  case E_COND: {
    if (e->type && e->type->kind == TY_BOOLEAN) {
      DrFlowState t, fl;
      fcond(f, e, &t, &fl);
      st_join(f, &t, &fl);
      st_copy(f, &f->s, &t);
      break;
    }
    DrFlowState ct, cf;
    fcond(f, e->cond, &ct, &cf);
    st_copy(f, &f->s, &ct);
    fx(f, e->lhs);
    DrFlowState after_l = st_clone(f, &f->s);
    st_copy(f, &f->s, &cf);
    fx(f, e->rhs);
    st_join(f, &f->s, &after_l);
    break;
  }
  default: break;
  }
}

/* ----------------------------------------------------------- statements */

static void fs(DrFlow *f, DrStmt *s);

static void jump_to(DrFlow *f, DrFlowState *into) {
  st_join(f, into, &f->s);
  st_vacuous(f, &f->s, false);
}

static void fs_seq(DrFlow *f, DrStmt **stmts, int n) {
  for (int i = 0; i < n; i++) {
    DrStmt *s = stmts[i];
    if (!s) continue;
    if (!f->s.alive) {
      flow_error(f, s->pos, "unreachable statement", NULL);
      f->s.alive = true; /* report once, then go on as javac does */
      if (!f->quiet) f->recovered = true;
    }
    fs(f, s);
  }
}

/* Runs one loop iteration's analysis; with blank finals, first quietly to
 * learn what the body may assign (the back edge), so that the real pass
 * starts from the fixpoint's "possibly assigned" set. */
typedef enum { LOOP_WHILE, LOOP_DO, LOOP_FOR, LOOP_FOREACH } DrLoopKind;

static void loop_pass(DrFlow *f, DrStmt *s, DrLoopKind kind, DrFlowState *after, bool *cond_true) {
  DrFlowTarget tg;
  memset(&tg, 0, sizeof tg);
  tg.is_loop = true;
  tg.stmt = s;
  tg.brk = st_dead(f);
  tg.cont = st_dead(f);
  tg.outer = f->targets;
  f->targets = &tg;
  bool entry_alive = f->s.alive;
  DrFlowState ct, cf;
  *cond_true = false;
  if (kind == LOOP_DO) {
    fs(f, s->body);
    st_join(f, &f->s, &tg.cont);
    bool cont_alive = f->s.alive;
    fcond(f, s->expr, &ct, &cf);
    *cond_true = is_const_bool(s->expr, true);
    *after = cf;
    after->alive = cont_alive && !*cond_true;
  } else {
    if (kind == LOOP_FOREACH) {
      cf = st_clone(f, &f->s);
      ct = st_clone(f, &f->s);
      if (s->ndecls > 0) {
        DrFlowState keep = f->s;
        f->s = ct;
        DrLocalSym *v = s->decls[0].sym; /* a fresh variable each iteration: effectively final */
        if (tracked(f, v)) assign_var(f, v->index, v->name, chk_local(v)->blank_final, s->decls[0].pos);
        f->s = keep;
      }
    } else if (s->expr) {
      fcond(f, s->expr, &ct, &cf);
      *cond_true = is_const_bool(s->expr, true);
    } else {
      ct = st_clone(f, &f->s);
      cf = st_alloc(f);
      st_vacuous(f, &cf, false);
      *cond_true = true;
    }
    bool body_alive = entry_alive && !is_const_bool(s->expr, false);
    st_copy(f, &f->s, &ct);
    f->s.alive = body_alive;
    if (!body_alive && entry_alive && s->body) {
      flow_error(f, s->body->pos, "unreachable statement", NULL);
      f->s.alive = true;
      if (!f->quiet) f->recovered = true;
    }
    fs(f, s->body);
    st_join(f, &f->s, &tg.cont);
    if (kind == LOOP_FOR)
      for (int i = 0; i < s->nupdates; i++) fx(f, s->updates[i]);
    *after = cf;
    after->alive = entry_alive && !*cond_true;
  }
  DrFlowState back = st_clone(f, &f->s);
  bool brk_alive = tg.brk.alive;
  st_join(f, after, &tg.brk);
  after->alive = after->alive || brk_alive;
  f->targets = tg.outer;
  /* the back edge's possibly-assigned set, for the caller's fixpoint */
  memcpy(f->s.pa, back.pa, sizeof(uint64_t) * (size_t)f->nw);
}

static void fs_loop(DrFlow *f, DrStmt *s, DrLoopKind kind) {
  DrFlowState entry = st_clone(f, &f->s);
  DrFlowState after;
  bool cond_true;
  uint64_t *saved_loop_pa = f->loop_pa;
  if (f->blank_finals) {
    f->quiet++;
    loop_pass(f, s, kind, &after, &cond_true);
    f->quiet--;
    f->loop_pa = words(f);
    for (int i = 0; i < f->nw; i++) {
      f->loop_pa[i] = saved_loop_pa[i] | (f->s.pa[i] & ~entry.pa[i]);
      entry.pa[i] |= f->s.pa[i];
    }
    st_copy(f, &f->s, &entry);
  }
  loop_pass(f, s, kind, &after, &cond_true);
  f->loop_pa = saved_loop_pa;
  st_copy(f, &f->s, &after);
}

/* After an arrow rule's body: a statement switch goes on after the
 * switch; in a switch expression the rule must have yielded or thrown. */
static void fs_rule_end(DrFlow *f, DrStmt *s, DrSwitchCase *k, DrFlowState *brk) {
  if (!f->s.alive) return;
  if (!s->is_expr) {
    jump_to(f, brk);
    return;
  }
  DrStmt *b = k->body[0];
  flow_error(f, b->end_pos.line ? b->end_pos : b->pos,
             "switch rule completes without providing a value (switch rules in switch expressions must either "
             "provide a value or throw)",
             NULL);
  st_vacuous(f, &f->s, false);
}

static void fs_switch(DrFlow *f, DrStmt *s) {
  fx(f, s->expr);
  DrFlowState sel = st_clone(f, &f->s);
  DrFlowTarget tg;
  memset(&tg, 0, sizeof tg);
  tg.brk = st_dead(f);
  tg.is_swx = s->is_expr;
  tg.outer = f->targets;
  f->targets = &tg;
  bool has_default = false;
  st_vacuous(f, &f->s, false); /* no fall-through into the first group */
  for (int i = 0; i < s->ncases; i++) {
    DrSwitchCase *k = &s->cases[i];
    if (k->is_default) has_default = true;
    st_join(f, &f->s, &sel);
    fs_seq(f, k->body, k->nbody);
    if (k->arrow && k->nbody) fs_rule_end(f, s, k, &tg.brk);
  }
  f->targets = tg.outer;
  if (s->is_expr && f->s.alive && s->ncases) {
    flow_error(f, s->end_pos,
               "switch expression completes without providing a value (switch expressions must either provide a "
               "value or throw for all possible input values)",
               NULL);
    st_vacuous(f, &f->s, false);
  }
  if (s->ncases == 0) {
    st_copy(f, &f->s, &sel);
    return;
  }
  st_join(f, &f->s, &tg.brk);
  if (!has_default && !s->is_expr) st_join(f, &f->s, &sel);
}

static void fs_try(DrFlow *f, DrStmt *s) {
  DrFlowState pre = st_clone(f, &f->s);
  uint64_t *saved_any = f->any;
  f->any = words(f);
  fs(f, s->body);
  DrFlowState end = st_clone(f, &f->s);
  uint64_t *try_any = words(f);
  memcpy(try_any, f->any, sizeof(uint64_t) * (size_t)f->nw);
  for (int i = 0; i < s->ncatches; i++) {
    DrCatch *k = &s->catches[i];
    st_copy(f, &f->s, &pre);
    for (int w = 0; w < f->nw; w++) f->s.pa[w] |= try_any[w];
    if (k->sym && tracked(f, k->sym)) {
      set_bit(f->s.da, k->sym->index);
      set_bit(f->s.pa, k->sym->index);
    }
    fs(f, k->body);
    st_join(f, &end, &f->s);
  }
  if (s->finally_body) {
    st_copy(f, &f->s, &pre);
    for (int w = 0; w < f->nw; w++) f->s.pa[w] |= f->any[w];
    fs(f, s->finally_body);
    /* f->s keeps its words: they outlive this statement's */
    DrFlowState fin = st_clone(f, &f->s);
    st_copy(f, &f->s, &end);
    for (int w = 0; w < f->nw; w++) {
      f->s.da[w] |= fin.da[w];
      f->s.pa[w] |= fin.pa[w];
    }
    f->s.alive = end.alive && fin.alive;
    if (!f->s.alive) st_vacuous(f, &f->s, false);
  } else {
    st_copy(f, &f->s, &end);
  }
  for (int w = 0; w < f->nw; w++) saved_any[w] |= f->any[w];
  f->any = saved_any;
}

/* What a break or continue goes to: with a label, the labeled statement
 * (break) or the loop it labels (continue); without, the innermost loop
 * (or, for break, switch).  Not past a switch expression (the checker
 * reports the attempt). */
static DrFlowTarget *jump_target(DrFlow *f, const DrStmt *s) {
  bool loop = s->kind == S_CONTINUE;
  const DrStmt *want = !s->target ? NULL : loop ? s->target->body : s->target;
  for (DrFlowTarget *t = f->targets; t; t = t->outer) {
    if (t->is_swx) return NULL;
    if (want ? t->stmt == want : !t->is_label && (!loop || t->is_loop)) return t;
  }
  return NULL;
}

/* A yield's target: the innermost switch expression. */
static DrFlowTarget *innermost_swx(DrFlow *f) {
  for (DrFlowTarget *t = f->targets; t; t = t->outer) {
    if (t->is_swx) return t;
  }
  return NULL;
}

/* L: body: a break L goes to its end. */
static void fs_labeled(DrFlow *f, DrStmt *s) {
  DrFlowTarget tg;
  memset(&tg, 0, sizeof tg);
  tg.is_label = true;
  tg.stmt = s;
  tg.brk = st_dead(f);
  tg.outer = f->targets;
  f->targets = &tg;
  fs(f, s->body);
  f->targets = tg.outer;
  st_join(f, &f->s, &tg.brk);
}

static void fs_stmt(DrFlow *f, DrStmt *s);

/* A statement's states die with it; only f->s, the targets and the sets
 * of the statements around it, all allocated before, carry its effect. */
static void fs(DrFlow *f, DrStmt *s) {
  if (!s) return;
  DrArenaMark mark = dr_arena_mark(&f->pool);
  fs_stmt(f, s);
  dr_arena_release(&f->pool, mark);
}

static void fs_stmt(DrFlow *f, DrStmt *s) {
  switch (s->kind) {
  case S_BLOCK: fs_seq(f, s->stmts, s->nstmts); break;
  case S_LOCAL:
    for (int i = 0; i < s->ndecls; i++) {
      DrDeclarator *d = &s->decls[i];
      if (tracked(f, d->sym)) { /* a fresh variable: unassigned */
        clear_bit(f->s.da, d->sym->index);
        clear_bit(f->s.pa, d->sym->index);
      }
      if (d->init) {
        fx(f, d->init);
        if (tracked(f, d->sym)) {
          set_bit(f->s.da, d->sym->index);
          set_bit(f->s.pa, d->sym->index);
          set_bit(f->any, d->sym->index);
        }
      }
    }
    break;
  case S_EXPR: fx(f, s->expr); break;
  case S_IF: {
    DrFlowState t, fl;
    fcond(f, s->expr, &t, &fl);
    st_copy(f, &f->s, &t);
    fs(f, s->body);
    DrFlowState after_then = st_clone(f, &f->s);
    st_copy(f, &f->s, &fl);
    if (s->else_body) fs(f, s->else_body);
    st_join(f, &f->s, &after_then);
    break;
  }
  case S_WHILE: fs_loop(f, s, LOOP_WHILE); break;
  case S_DO: fs_loop(f, s, LOOP_DO); break;
  case S_FOR:
    fs_seq(f, s->stmts, s->nstmts);
    fs_loop(f, s, LOOP_FOR);
    break;
  case S_FOREACH:
    fx(f, s->expr);
    fs_loop(f, s, LOOP_FOREACH);
    break;
  case S_LABELED: fs_labeled(f, s); break;
  case S_BREAK:
  case S_CONTINUE: {
    DrFlowTarget *t = jump_target(f, s);
    if (t) jump_to(f, s->kind == S_BREAK ? &t->brk : &t->cont);
    else st_vacuous(f, &f->s, false);
    break;
  }
  case S_YIELD: {
    fx(f, s->expr);
    DrFlowTarget *t = innermost_swx(f);
    if (t) jump_to(f, &t->brk);
    else st_vacuous(f, &f->s, false);
    break;
  }
  case S_RETURN:
  case S_THROW:
    fx(f, s->expr);
    if (s->kind == S_RETURN) check_fields_assigned(f, s->pos);
    st_vacuous(f, &f->s, false);
    break;
  case S_SWITCH: fs_switch(f, s); break;
  case S_SYNC:
    fx(f, s->expr);
    fs(f, s->body);
    break;
  case S_TRY: fs_try(f, s); break;
  case S_ASSERT: {
    /* assignments inside an assert never count as definite (it may be
     * disabled in Java), but they do count as possible */
    DrFlowState pre = st_clone(f, &f->s);
    DrFlowState t, fl;
    fcond(f, s->expr, &t, &fl);
    st_copy(f, &f->s, &fl);
    fx(f, s->expr2);
    for (int w = 0; w < f->nw; w++) pre.pa[w] |= f->s.pa[w] | t.pa[w];
    st_copy(f, &f->s, &pre);
    break;
  }
  case S_CTOR_CALL: fx_args(f, s->args, s->nargs); break;
  case S_EMPTY:
  case S_CLASS: break;
  }
}

void chk_flow_body(DrChecker *c, DrMethodSym *m, DrStmt *body, bool needs_value, bool is_initializer,
                   DrChkTrack *track) {
  if (!body || !m) return;
  DrFlow fl;
  memset(&fl, 0, sizeof fl);
  DrFlow *f = &fl;
  f->c = c;
  f->m = m;
  f->nlocals = m->nlocals;
  f->track = track && track->n > 0 ? track : NULL;
  f->ctor_check = f->track && !is_initializer;
  dr_arena_init(&f->pool);
  int nbits = m->nlocals + (f->track ? f->track->n : 0);
  f->nw = nbits / 64 + 1;
  f->s = st_alloc(f);
  f->s.alive = true;
  f->any = words(f);
  f->loop_pa = words(f);
  for (int i = 0; i < m->nlocals; i++) {
    DrChkLocal *l = chk_local(m->locals[i]);
    if (l->is_param || l->is_binding) { /* a binding is in scope only where its test assigned it */
      set_bit(f->s.da, i);
      set_bit(f->s.pa, i);
    }
    if (l->blank_final) f->blank_finals = true;
  }
  if (f->track) {
    f->blank_finals = true;
    for (int i = 0; i < f->track->n; i++) {
      if (f->track->da[i]) set_bit(f->s.da, f->nlocals + i);
      if (f->track->pa[i]) set_bit(f->s.pa, f->nlocals + i);
    }
  }
  fs(f, body);
  DrPos end = body->end_pos.line ? body->end_pos : body->pos;
  if (needs_value && f->s.alive && !f->recovered) chk_error(c, end, "missing return statement");
  if (is_initializer && !f->s.alive) chk_error(c, body->pos, "initializer must be able to complete normally");
  check_fields_assigned(f, end);
  if (f->track && is_initializer)
    for (int i = 0; i < f->track->n; i++) {
      f->track->da[i] = bit(f->s.da, f->nlocals + i);
      f->track->pa[i] = bit(f->s.pa, f->nlocals + i);
    }
  dr_arena_free(&f->pool);
}
