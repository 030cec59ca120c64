/* Statements to register code.
 *
 * finally blocks and synchronized bodies are compiled the way javac does:
 * the cleanup code (the finally block, or MONITOREXIT) is copied onto
 * every path that leaves the protected code -- falling off the end,
 * break, continue, return -- and a catch-all handler runs it once more for
 * exceptions and rethrows.  The copies on jump paths sit inside the
 * protected pc range, so each context remembers them as gaps its handlers
 * must not cover. */
#include <string.h>

#include "emit_internal.h"

/* ------------------------------------------------------------- contexts */

static int push_ctx(Em *E, EmCtxKind kind) {
  EmCtx c;
  memset(&c, 0, sizeof c);
  c.kind = kind;
  c.lock_reg = -1;
  DR_PUSH(E->ctx, E->nctx, E->ctx_cap, c);
  return E->nctx - 1;
}

static void add_gap(Em *E, int ci, uint32_t start, uint32_t end) {
  if (start >= end) return;
  EmCtx *c = &E->ctx[ci];
  EmGap g = {start, end};
  DR_PUSH(c->gaps, c->ngaps, c->gaps_cap, g);
}

/* Emits the cleanup of context ci as code running outside it (and outside
 * everything inside it): a break or return in a finally block must see
 * only the enclosing contexts. */
static void cleanup(Em *E, int ci) {
  int saved = E->nctx;
  int n = saved - ci;
  EmCtx *copy = dr_xcalloc((size_t)n, sizeof(EmCtx));
  memcpy(copy, E->ctx + ci, sizeof(EmCtx) * (size_t)n);
  E->nctx = ci;
  if (copy[0].kind == CTX_FINALLY && copy[0].finally_body) em_stmt(E, copy[0].finally_body);
  if (copy[0].kind == CTX_SYNC) em_op(E, DR_OP_MONITOREXIT, 1, copy[0].lock_reg);
  /* contexts pushed by the cleanup code are gone again; restore ours */
  memcpy(E->ctx + ci, copy, sizeof(EmCtx) * (size_t)n);
  E->nctx = saved;
  free(copy);
}

static bool has_cleanup(const EmCtx *c) { return c->kind == CTX_FINALLY || c->kind == CTX_SYNC; }

/* Leaves every context above `floor` (running their cleanups, innermost
 * first), then emits the jump to target or, with target NULL, the return
 * of ret (-1: void). */
static void jump_out(Em *E, int floor, EmLabel *target, int ret) {
  int top = E->nctx;
  uint32_t *starts = dr_xcalloc((size_t)top + 1, sizeof(uint32_t));
  for (int i = top - 1; i > floor; i--) {
    if (!has_cleanup(&E->ctx[i])) continue;
    starts[i] = (uint32_t)em_here(E);
    cleanup(E, i);
  }
  if (target)
    em_jmp(E, target);
  else if (ret >= 0)
    em_op(E, DR_OP_RETURN, 1, ret);
  else
    em_op(E, DR_OP_RETURN_VOID, 0);
  for (int i = top - 1; i > floor; i--)
    if (has_cleanup(&E->ctx[i])) add_gap(E, i, starts[i], (uint32_t)em_here(E));
  free(starts);
}

/* ---------------------------------------------------------------- loops */

static int push_loop(Em *E, EmCtxKind kind, const DrStmt *s, EmLabel *brk, EmLabel *cont) {
  int i = push_ctx(E, kind);
  E->ctx[i].stmt = s;
  E->ctx[i].brk = brk;
  E->ctx[i].cont = cont;
  return i;
}

static void pop_ctx(Em *E) {
  EmCtx *c = &E->ctx[--E->nctx];
  free(c->gaps);
  c->gaps = NULL;
}

static void labels_init(EmLabel *a, EmLabel *b, EmLabel *c) {
  em_label_init(a);
  em_label_init(b);
  em_label_init(c);
}

static void labels_free(EmLabel *a, EmLabel *b, EmLabel *c) {
  em_label_free(a);
  em_label_free(b);
  em_label_free(c);
}

/* while / for: the test sits at the bottom, so each iteration runs one
 * conditional branch. */
static void loop(Em *E, const DrStmt *s, DrExpr *cond, DrStmt *body, DrExpr **updates, int nupdates) {
  EmLabel top, cont, end, test;
  labels_init(&top, &cont, &end);
  em_label_init(&test);
  bool always = !cond || (cond->is_const && cond->cval.i);
  if (!always) em_jmp(E, &test);
  em_bind(E, &top);
  push_loop(E, CTX_LOOP, s, &end, &cont);
  em_stmt(E, body);
  pop_ctx(E);
  em_bind(E, &cont);
  for (int i = 0; i < nupdates; i++) {
    em_line(E, updates[i]->pos.line);
    em_expr(E, updates[i], EM_DISCARD);
  }
  em_bind(E, &test);
  if (always) {
    em_jmp(E, &top);
  } else {
    em_line(E, cond->pos.line);
    em_cond(E, cond, true, &top);
  }
  em_bind(E, &end);
  labels_free(&top, &cont, &end);
  em_label_free(&test);
}

static void do_loop(Em *E, DrStmt *s) {
  EmLabel top, cont, end;
  labels_init(&top, &cont, &end);
  em_bind(E, &top);
  push_loop(E, CTX_LOOP, s, &end, &cont);
  em_stmt(E, s->body);
  pop_ctx(E);
  em_bind(E, &cont);
  em_line(E, s->expr->pos.line);
  em_cond(E, s->expr, true, &top);
  em_bind(E, &end);
  labels_free(&top, &cont, &end);
}

static void foreach(Em *E, DrStmt *s) {
  int arr = s->hidden_array->reg, idx = s->hidden_index->reg;
  DrLocalSym *var = s->decls[0].sym;
  em_expr(E, s->expr, arr);
  int len = em_temp(E, false);
  em_line(E, s->pos.line);
  em_op(E, DR_OP_ALEN, 2, len, arr);
  em_const_int(E, idx, 0);
  EmLabel top, cont, end, test;
  labels_init(&top, &cont, &end);
  em_label_init(&test);
  em_jmp(E, &test);
  em_bind(E, &top);
  DrType *elem = s->hidden_array->type->elem;
  DrKind ek = em_kind(elem);
  DrOpcode load = em_aload_op(ek);
  if (em_kind(var->type) == ek || (ek == DR_K_REF && em_is_ref(var->type))) {
    em_op(E, load, 3, var->reg, arr, idx);
  } else { /* a primitive conversion, boxing or unboxing */
    int t = em_temp(E, ek == DR_K_REF);
    em_op(E, load, 3, t, arr, idx);
    em_convert(E, t, elem, var->type, var->reg);
    em_free(E, t);
  }
  int scope = em_scope_open(E);
  em_var_local(E, var, true);
  push_loop(E, CTX_LOOP, s, &end, &cont);
  em_stmt(E, s->body);
  pop_ctx(E);
  em_scope_close(E, scope);
  em_bind(E, &cont);
  em_op(E, DR_OP_ADDK_I, 3, idx, idx, 1);
  em_bind(E, &test);
  uint32_t ops[2] = {(uint32_t)idx, (uint32_t)len};
  em_jump(E, DR_OP_JLT_I, 2, ops, &top);
  em_bind(E, &end);
  em_free(E, len);
  labels_free(&top, &cont, &end);
  em_label_free(&test);
}

/* L: body; a break L jumps to its end. */
static void labeled_stmt(Em *E, DrStmt *s) {
  EmLabel end;
  em_label_init(&end);
  push_loop(E, CTX_LABEL, s, &end, NULL);
  em_stmt(E, s->body);
  pop_ctx(E);
  em_bind(E, &end);
  em_label_free(&end);
}

/* break / continue: to the innermost loop (or switch), or with a label to
 * the labeled statement's end (break) or the loop it labels (continue). */
static void jump_stmt(Em *E, DrStmt *s) {
  bool is_break = s->kind == S_BREAK;
  const DrStmt *want = !s->target ? NULL : is_break ? s->target : s->target->body;
  for (int i = E->nctx - 1; i >= 0; i--) {
    EmCtx *c = &E->ctx[i];
    bool hit = want ? c->stmt == want && (is_break || c->kind == CTX_LOOP)
                    : c->kind == CTX_LOOP || (is_break && c->kind == CTX_SWITCH);
    if (hit) {
      jump_out(E, i, is_break ? c->brk : c->cont, -1);
      return;
    }
  }
  dr_panic(__FILE__, __LINE__, "emitter: %s outside a loop at line %d", is_break ? "break" : "continue", s->pos.line);
}

/* The value goes to the switch expression's result register, then out
 * through any finally or synchronized code in between. */
static void yield_stmt(Em *E, DrStmt *s) {
  for (int i = E->nctx - 1; i >= 0; i--) {
    EmCtx *c = &E->ctx[i];
    if (c->kind != CTX_SWITCH_EXPR) continue;
    em_expr(E, s->expr, c->result_reg);
    jump_out(E, i, c->brk, -1);
    return;
  }
  dr_panic(__FILE__, __LINE__, "emitter: yield outside a switch expression at line %d", s->pos.line);
}

static void return_stmt(Em *E, DrStmt *s) {
  int r = -1;
  bool crosses = false;
  for (int i = 0; i < E->nctx; i++) crosses |= has_cleanup(&E->ctx[i]);
  if (s->expr) {
    r = em_expr(E, s->expr, EM_ANY);
    /* the value is fixed before finally code runs (it may assign the local) */
    if (crosses && !em_is_temp(E, r)) {
      int t = em_temp(E, E->reg_ref[r] != 0);
      em_mov(E, t, r);
      r = t;
    }
  }
  em_line(E, s->pos.line);
  jump_out(E, -1, NULL, r);
  em_free(E, r);
}

/* --------------------------------------------------------------- switch */

typedef struct {
  int32_t key;
  int label;
} EmCase;

static int case_cmp(const void *a, const void *b) {
  int32_t x = ((const EmCase *)a)->key, y = ((const EmCase *)b)->key;
  return (x > y) - (x < y);
}

static void add_site(EmLabel *l, int start, int operand) {
  DR_PUSH(l->sites, l->nsites, l->cap, start);
  DR_PUSH(l->sites, l->nsites, l->cap, operand);
}

void em_switch(Em *E, DrStmt *s, int result) {
  int n = s->ncases;
  EmLabel *labs = dr_xcalloc((size_t)n + 1, sizeof(EmLabel));
  for (int i = 0; i < n; i++) em_label_init(&labs[i]);
  EmLabel end;
  em_label_init(&end);
  int def = -1;
  for (int i = 0; i < n; i++)
    if (s->cases[i].is_default) def = i;
  EmLabel *deflab = def >= 0 ? &labs[def] : &end;
  int sel = em_expr(E, s->expr, EM_ANY);
  if (s->switch_ordinal) { /* an enum: switch on its ordinal (NullPointerException for null) */
    em_line(E, s->expr->pos.line);
    int o = em_invoke(E, DR_OP_INVOKEVIRTUAL, s->switch_ordinal, EM_ANY, &sel, 1);
    em_free(E, sel);
    sel = o;
  }
  if (s->switch_on_string) {
    int nlabels = 0;
    for (int i = 0; i < n; i++) nlabels += s->cases[i].nlabels;
    em_line(E, s->expr->pos.line);
    if (nlabels == 0) em_invoke(E, DR_OP_INVOKEVIRTUAL, E->m_string_hash, EM_DISCARD, &sel, 1);
    int str = em_temp(E, true);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < s->cases[i].nlabels; j++) {
        DrExpr *x = s->cases[i].labels[j];
        em_const_string(E, str, x->cval.s, x->cval.slen);
        int args[2] = {sel, str};
        int eq = em_invoke(E, DR_OP_INVOKEVIRTUAL, E->m_string_equals, EM_ANY, args, 2);
        uint32_t ops[1] = {(uint32_t)eq};
        em_jump(E, DR_OP_JNZ, 1, ops, &labs[i]);
        em_free(E, eq);
      }
    em_free(E, str);
    em_jmp(E, deflab);
  } else {
    EmCase *cases = NULL;
    int nc = 0, cap = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < s->cases[i].nlabels; j++) {
        EmCase c = {s->cases[i].values[j], i};
        DR_PUSH(cases, nc, cap, c);
      }
    if (nc) qsort(cases, (size_t)nc, sizeof(EmCase), case_cmp);
    int start = em_here(E);
    em_op(E, DR_OP_LOOKUPSWITCH, 1, sel);
    add_site(deflab, start, em_here(E));
    em_word(E, 0);
    em_word(E, (uint32_t)nc);
    for (int i = 0; i < nc; i++) {
      em_word(E, (uint32_t)cases[i].key);
      add_site(&labs[cases[i].label], start, em_here(E));
      em_word(E, 0);
    }
    free(cases);
  }
  em_free(E, sel);
  int ci = push_loop(E, s->is_expr ? CTX_SWITCH_EXPR : CTX_SWITCH, s, &end, NULL);
  E->ctx[ci].result_reg = result;
  int scope = em_scope_open(E); /* the switch block is one scope */
  for (int i = 0; i < n; i++) {
    em_bind(E, &labs[i]);
    em_stmts(E, s->cases[i].body, s->cases[i].nbody);
    if (s->cases[i].arrow) em_jmp(E, &end); /* rules do not fall through */
  }
  em_scope_close(E, scope);
  pop_ctx(E);
  em_bind(E, &end);
  for (int i = 0; i < n; i++) em_label_free(&labs[i]);
  em_label_free(&end);
  free(labs);
}

/* ------------------------------------------------- synchronized and try */

static void sync_stmt(Em *E, DrStmt *s) {
  int lock = em_temp(E, true);
  em_expr(E, s->expr, lock);
  em_sync_body(E, lock, s->body, s->pos.line);
  em_free(E, lock);
}

void em_sync_body(Em *E, int lock, DrStmt *body, int line) {
  em_line(E, line);
  em_op(E, DR_OP_MONITORENTER, 1, lock);
  uint32_t start = (uint32_t)em_here(E);
  int ci = push_ctx(E, CTX_SYNC);
  E->ctx[ci].lock_reg = lock;
  em_stmt(E, body);
  EmLabel end;
  em_label_init(&end);
  uint32_t gs = (uint32_t)em_here(E);
  em_op(E, DR_OP_MONITOREXIT, 1, lock);
  em_jmp(E, &end);
  add_gap(E, ci, gs, (uint32_t)em_here(E));
  EmGap *gaps = E->ctx[ci].gaps;
  int ngaps = E->ctx[ci].ngaps;
  E->ctx[ci].gaps = NULL;
  pop_ctx(E);
  uint32_t handler = (uint32_t)em_here(E);
  int exc = em_temp(E, true);
  em_op(E, DR_OP_MONITOREXIT, 1, lock);
  em_op(E, DR_OP_THROW, 1, exc);
  em_handler_ranges(E, start, handler, gaps, ngaps, handler, NULL, exc);
  em_bind(E, &end);
  em_label_free(&end);
  free(gaps);
  em_free(E, exc);
}

/* The finally block inlined on a path leaving try/catch code normally. */
static void finally_exit(Em *E, int ci, EmLabel *end) {
  uint32_t gs = (uint32_t)em_here(E);
  cleanup(E, ci);
  em_jmp(E, end);
  add_gap(E, ci, gs, (uint32_t)em_here(E));
}

static void try_stmt(Em *E, DrStmt *s) {
  bool has_finally = s->finally_body != NULL;
  int ci = push_ctx(E, CTX_FINALLY);
  E->ctx[ci].finally_body = s->finally_body;
  EmLabel end;
  em_label_init(&end);
  uint32_t a_start = (uint32_t)em_here(E);
  em_stmt(E, s->body);
  uint32_t a_end = (uint32_t)em_here(E);
  if (has_finally)
    finally_exit(E, ci, &end);
  else
    em_jmp(E, &end);
  /* catch clauses cover the try block only, minus its jump-path copies */
  int ngaps_try = E->ctx[ci].ngaps;
  EmGap *try_gaps = dr_xcalloc((size_t)ngaps_try + 1, sizeof(EmGap));
  if (ngaps_try) memcpy(try_gaps, E->ctx[ci].gaps, sizeof(EmGap) * (size_t)ngaps_try);
  if (!has_finally) pop_ctx(E);
  uint32_t *hpc = dr_xcalloc((size_t)s->ncatches + 1, sizeof(uint32_t));
  for (int i = 0; i < s->ncatches; i++) {
    hpc[i] = (uint32_t)em_here(E);
    DrCatch *k = &s->catches[i];
    em_line(E, k->pos.line);
    int scope = em_scope_open(E);
    em_var_local(E, k->sym, true); /* the handler's register */
    em_stmt(E, k->body);
    em_scope_close(E, scope);
    if (has_finally)
      finally_exit(E, ci, &end);
    else
      em_jmp(E, &end);
  }
  uint32_t all = 0;
  int exc = -1;
  EmGap *gaps = NULL;
  int ngaps = 0;
  if (has_finally) {
    gaps = E->ctx[ci].gaps;
    ngaps = E->ctx[ci].ngaps;
    E->ctx[ci].gaps = NULL;
    pop_ctx(E);
    all = (uint32_t)em_here(E);
    exc = em_temp(E, true);
    em_stmt(E, s->finally_body);
    em_op(E, DR_OP_THROW, 1, exc);
  }
  for (int i = 0; i < s->ncatches; i++) {
    DrCatch *k = &s->catches[i];
    for (int t = 0; t < k->ntypes; t++) {
      DrType *ty = k->types[t].resolved;
      DrClass *cls = ty ? em_class_rt(E, ty) : NULL;
      em_handler_ranges(E, a_start, a_end, try_gaps, ngaps_try, hpc[i], cls, k->sym->reg);
    }
  }
  if (has_finally) em_handler_ranges(E, a_start, all, gaps, ngaps, all, NULL, exc);
  em_bind(E, &end);
  em_label_free(&end);
  em_free(E, exc);
  free(gaps);
  free(try_gaps);
  free(hpc);
}

/* ----------------------------------------------------------- statements */

static void assert_stmt(Em *E, DrStmt *s) {
  EmLabel ok;
  em_label_init(&ok);
  em_cond(E, s->expr, true, &ok);
  int obj = em_temp(E, true);
  em_line(E, s->pos.line);
  em_op(E, DR_OP_NEW, 2, obj, s->ctor->owner->rt->id);
  int args[2] = {obj, -1};
  int n = 1;
  if (s->expr2) args[n++] = em_expr(E, s->expr2, EM_ANY);
  em_line(E, s->pos.line);
  em_invoke(E, DR_OP_INVOKESPECIAL, s->ctor, EM_DISCARD, args, n);
  em_op(E, DR_OP_THROW, 1, obj);
  if (n > 1) em_free(E, args[1]);
  em_free(E, obj);
  em_bind(E, &ok);
  em_label_free(&ok);
}

void em_stmts(Em *E, DrStmt **s, int n) {
  for (int i = 0; i < n; i++) em_stmt(E, s[i]);
}

/* A block's locals go out of scope at its end. */
static void block(Em *E, DrStmt **s, int n) {
  int scope = em_scope_open(E);
  em_stmts(E, s, n);
  em_scope_close(E, scope);
}

/* Each local is readable once its initializer is stored: inside
 * `int x = f();`'s call, x is not in scope yet. */
static void local_stmt(Em *E, DrStmt *s) {
  for (int i = 0; i < s->ndecls; i++) {
    DrDeclarator *d = &s->decls[i];
    if (d->init) {
      em_line(E, d->pos.line);
      if (d->init->kind == E_ARRAY_INIT)
        em_array_init(E, d->init, d->sym->reg);
      else
        em_expr(E, d->init, d->sym->reg);
    }
    em_var_local(E, d->sym, d->init != NULL);
  }
}

void em_stmt(Em *E, DrStmt *s) {
  if (!s) return;
  if (s->kind != S_BLOCK && s->kind != S_EMPTY) em_line(E, s->pos.line);
  switch (s->kind) {
  case S_BLOCK: block(E, s->stmts, s->nstmts); break;
  case S_LOCAL: local_stmt(E, s); break;
  case S_EXPR: em_expr(E, s->expr, EM_DISCARD); break;
  case S_IF: {
    EmLabel lelse, end;
    em_label_init(&lelse);
    em_label_init(&end);
    em_cond(E, s->expr, false, &lelse);
    em_stmt(E, s->body);
    if (s->else_body) {
      em_jmp(E, &end);
      em_bind(E, &lelse);
      em_stmt(E, s->else_body);
    } else {
      em_bind(E, &lelse);
    }
    em_bind(E, &end);
    em_label_free(&lelse);
    em_label_free(&end);
    break;
  }
  case S_WHILE: loop(E, s, s->expr, s->body, NULL, 0); break;
  case S_DO: do_loop(E, s); break;
  case S_FOR: {
    int scope = em_scope_open(E);
    em_stmts(E, s->stmts, s->nstmts);
    loop(E, s, s->expr, s->body, s->updates, s->nupdates);
    em_scope_close(E, scope);
    break;
  }
  case S_FOREACH: foreach(E, s); break;
  case S_LABELED: labeled_stmt(E, s); break;
  case S_BREAK:
  case S_CONTINUE: jump_stmt(E, s); break;
  case S_RETURN: return_stmt(E, s); break;
  case S_SWITCH: em_switch(E, s, -1); break;
  case S_YIELD: yield_stmt(E, s); break;
  case S_SYNC: sync_stmt(E, s); break;
  case S_THROW: {
    int r = em_expr(E, s->expr, EM_ANY);
    em_line(E, s->pos.line);
    em_op(E, DR_OP_THROW, 1, r);
    em_free(E, r);
    break;
  }
  case S_TRY: try_stmt(E, s); break;
  case S_ASSERT: assert_stmt(E, s); break;
  case S_EMPTY:
  case S_CLASS: break; /* a local class: code of its own (emit.c) */
  case S_CTOR_CALL:
    dr_panic(__FILE__, __LINE__, "emitter: unexpected statement kind %d at line %d", (int)s->kind, s->pos.line);
  }
}
