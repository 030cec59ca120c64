/* Statements: scopes and locals, conditions, return values, switch
 * labels, try/catch, for-each, assert, explicit constructor calls.  The
 * flow rules (definite assignment, reachability, missing return) run
 * afterwards on the annotated body (checker_flow.c). */
#include <string.h>

#include "checker_generic.h"

static void check_block_stmts(DrChecker *c, DrStmt **stmts, int n) {
  for (int i = 0; i < n; i++)
    if (stmts[i]) chk_stmt(c, stmts[i]);
}

/* A statement in its own scope (the body of if/while/for...). */
static void check_scoped(DrChecker *c, DrStmt *s) {
  if (!s) return;
  int saved = c->nscope;
  chk_stmt(c, s);
  chk_scope_pop(c, saved);
}

/* `var` as a local's type (JLS 14.4.1): a type name only where no class
 * can be called var. */
bool chk_is_var(const DrTypeRef *t) { return t->name && strcmp(t->name, "var") == 0 && t->dims == 0; }

/* Why `var name = init` has no type, or NULL if init's type t is one. */
static const char *var_no_type(DrExpr *init, DrType *t) {
  if (!init) return "cannot use 'var' on variable without initializer";
  if (init->kind == E_ARRAY_INIT) return "array initializer needs an explicit target-type";
  if (t->kind == TY_NULL) return "variable initializer is 'null'";
  if (t->kind == TY_VOID) return "variable initializer is 'void'";
  return NULL;
}

static void check_var_decl(DrChecker *c, DrStmt *s, DrDeclarator *d) {
  if (d->extra_dims) chk_error(c, d->pos, "'var' is not allowed as an element type of an array");
  DrLocalSym *l = chk_declare_local(c, d->name, &c->T->t_error, d->pos, s->is_final, d->init == NULL);
  d->sym = l;
  DrType *t = &c->T->t_error;
  if (d->init && d->init->kind != E_ARRAY_INIT) {
    chk_local(l)->var_pending = true;
    t = chk_expr(c, d->init);
    if (!chk_local(l)->var_pending) return; /* self-reference, reported */
    chk_local(l)->var_pending = false;
  }
  const char *why = var_no_type(d->init, t);
  if (why) {
    chk_error(c, d->pos, "cannot infer type for local variable %s (%s)", d->name, why);
    if (d->init && d->init->kind == E_ARRAY_INIT) chk_init_expr(c, d->init, &c->T->t_error);
    return;
  }
  if (d->extra_dims || chk_is_err(t)) return;
  l->type = t;
  if (s->is_final && d->init->is_const && (chk_is_prim(t) || chk_is_string(c, t))) {
    chk_local(l)->is_const = true;
    chk_local(l)->cval = d->init->cval;
  }
}

/* A branch or loop body with the bindings of cond (when it is true or
 * false) in scope. */
static void check_bound(DrChecker *c, DrStmt *s, DrExpr *cond, bool when_true) {
  if (!s) return;
  int saved = c->nscope;
  chk_push_bindings(c, cond, when_true);
  chk_stmt(c, s);
  chk_scope_pop(c, saved);
}

/* A try-with-resources resource must be AutoCloseable (JLS 14.20.3). */
static void check_resource(DrChecker *c, DrStmt *s) {
  DrLocalSym *l = s->ndecls ? s->decls[0].sym : NULL;
  DrClassSym *ac = chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, "AutoCloseable");
  if (!l || !ac || chk_is_err(l->type)) return;
  chk_local(l)->is_resource = true;
  if (l->type->kind == TY_CLASS && chk_subtype(c, l->type, ac->type)) return;
  chk_error(c, s->decls[0].init ? s->decls[0].init->pos : s->pos,
            "incompatible types: try-with-resources not applicable to variable type (%s cannot be converted to "
            "AutoCloseable)", chk_type_str(c, l->type));
  l->type = &c->T->t_error; /* no cascade at its close() */
}

static void check_local_decl(DrChecker *c, DrStmt *s) {
  if (chk_is_var(&s->tref)) {
    if (s->ndecls > 1) chk_error(c, s->decls[1].pos, "'var' is not allowed in a compound declaration");
    for (int i = 0; i < s->ndecls; i++) check_var_decl(c, s, &s->decls[i]);
    if (s->is_resource) check_resource(c, s);
    return;
  }
  DrType *base = chk_resolve_tref(c, &s->tref);
  if (base->kind == TY_VOID) {
    chk_error(c, s->tref.pos, "'void' type not allowed here");
    base = &c->T->t_error;
  }
  for (int i = 0; i < s->ndecls; i++) {
    DrDeclarator *d = &s->decls[i];
    DrType *t = base;
    for (int j = 0; j < d->extra_dims; j++) t = chk_array_of(c, t);
    DrLocalSym *l = chk_declare_local(c, d->name, t, d->pos, s->is_final, d->init == NULL);
    d->sym = l;
    if (d->init) {
      chk_init_expr(c, d->init, t);
      if (s->is_final && d->init->is_const && (chk_is_prim(t) || chk_is_string(c, t))) {
        chk_local(l)->is_const = true;
        chk_local(l)->cval = d->init->cval;
      }
    }
  }
  if (s->is_resource) check_resource(c, s);
}

static void check_return(DrChecker *c, DrStmt *s) {
  DrMethodSym *m = c->cur.meth;
  if (c->cur.in_init || !m) {
    if (s->expr) chk_expr(c, s->expr);
    chk_error(c, s->pos, "return outside method");
    return;
  }
  if (c->cur.swx) chk_error(c, s->pos, "attempt to return out of a switch expression");
  DrType *ret = m->is_ctor ? &c->T->t_void : m->ret;
  if (s->expr && chk_is_poly(s->expr) && ret->kind != TY_VOID) {
    chk_poly(c, s->expr, ret);
  } else if (s->expr) {
    if (chk_is_ref(ret)) c->gen.target = ret; /* inference */
    DrType *t = chk_expr(c, s->expr);
    c->gen.target = NULL;
    if (chk_is_err(ret) || chk_is_err(t)) return;
    if (ret->kind == TY_VOID) {
      chk_error(c, s->expr->pos, "incompatible types: unexpected return value");
      return;
    }
    chk_assign_to(c, s->expr, ret);
  } else if (ret->kind != TY_VOID && !chk_is_err(ret)) {
    chk_error(c, s->pos, "incompatible types: missing return value");
  }
}

static void check_foreach(DrChecker *c, DrStmt *s) {
  DrType *t = s->expr ? chk_value(c, s->expr) : &c->T->t_error;
  DrType *elem = &c->T->t_error;
  if (!chk_is_err(t)) {
    if (t->kind == TY_ARRAY)
      elem = t->elem;
    else if (chk_gen_foreach(c, s, t)) {
      chk_stmt(c, s); /* now the for statement it stands for */
      return;
    } else
      chk_error(c, s->expr->pos, "for-each not applicable to expression type; required: array or java.lang.Iterable, found: %s",
                chk_type_str(c, t));
  }
  int saved = c->nscope;
  bool is_var = chk_is_var(&s->tref);
  DrType *vt = is_var ? elem : chk_resolve_tref(c, &s->tref);
  if (s->ndecls >= 1) {
    DrDeclarator *d = &s->decls[0];
    if (is_var && d->extra_dims) {
      chk_error(c, d->pos, "'var' is not allowed as an element type of an array");
      vt = &c->T->t_error;
    }
    for (int j = 0; j < d->extra_dims; j++) vt = chk_array_of(c, vt);
    s->hidden_array = chk_hidden_local(c, "$array", chk_is_err(t) ? &c->T->t_error : t, s->pos);
    s->hidden_index = chk_hidden_local(c, "$index", &c->T->t_int, s->pos);
    DrLocalSym *l = chk_declare_local(c, d->name, vt, d->pos, s->is_final, false);
    d->sym = l;
    if (!chk_is_err(elem) && !chk_is_err(vt)) {
      bool ok = elem == vt || chk_loose_conv(c, elem, vt); /* boxing and unboxing included */
      if (!ok) {
        if (chk_is_numeric(elem) && chk_is_numeric(vt))
          chk_error(c, d->pos, "incompatible types: possible lossy conversion from %s to %s", chk_type_str(c, elem),
                    chk_type_str(c, vt));
        else
          chk_error(c, d->pos, "incompatible types: %s cannot be converted to %s", chk_type_str(c, elem),
                    chk_type_str(c, vt));
      }
    }
  }
  c->cur.loop_depth++;
  c->cur.break_depth++;
  check_scoped(c, s->body);
  c->cur.loop_depth--;
  c->cur.break_depth--;
  chk_scope_pop(c, saved);
}

static DrClassSym *common_class(DrClassSym *a, DrClassSym *b) {
  for (DrClassSym *k = a; k; k = k->super)
    if (chk_subclass(b, k)) return k;
  return a;
}

static void check_try(DrChecker *c, DrStmt *s) {
  check_scoped(c, s->body);
  for (int i = 0; i < s->ncatches; i++) {
    DrCatch *k = &s->catches[i];
    DrClassSym *param = NULL;
    bool bad = false;
    for (int j = 0; j < k->ntypes; j++) {
      DrType *t = chk_resolve_tref(c, &k->types[j]);
      if (chk_is_err(t)) {
        bad = true;
        continue;
      }
      if (t->kind != TY_CLASS || !c->c_throwable || !chk_subclass(t->cls, c->c_throwable)) {
        chk_error(c, k->types[j].pos, "incompatible types: %s cannot be converted to Throwable", chk_type_str(c, t));
        bad = true;
        continue;
      }
      /* caught by an earlier clause, or related to another alternative */
      for (int a = 0; a < i; a++) {
        DrCatch *o = &s->catches[a];
        for (int b = 0; b < o->ntypes; b++) {
          DrType *ot = o->types[b].resolved;
          if (ot && ot->kind == TY_CLASS && chk_subclass(t->cls, ot->cls)) {
            chk_error(c, k->types[j].pos, "exception %s has already been caught", t->cls->source_name);
            a = i;
            break;
          }
        }
      }
      for (int b = 0; b < j; b++) {
        DrType *ot = k->types[b].resolved;
        if (ot && ot->kind == TY_CLASS && (chk_subclass(t->cls, ot->cls) || chk_subclass(ot->cls, t->cls)))
          chk_error(c, k->types[j].pos,
                    "Alternatives in a multi-catch statement cannot be related by subclassing; alternative %s is a "
                    "subclass of alternative %s",
                    chk_subclass(t->cls, ot->cls) ? t->cls->source_name : ot->cls->source_name,
                    chk_subclass(t->cls, ot->cls) ? ot->cls->source_name : t->cls->source_name);
      }
      param = param ? common_class(param, t->cls) : t->cls;
    }
    int saved = c->nscope;
    DrType *pt = (bad || !param) ? &c->T->t_error : param->type;
    k->sym = chk_declare_local(c, k->name, pt, k->pos, k->ntypes > 1, false);
    check_scoped(c, k->body);
    chk_scope_pop(c, saved);
  }
  check_scoped(c, s->finally_body);
}

static void check_assert(DrChecker *c, DrStmt *s) {
  chk_condition(c, s->expr);
  DrClassSym *ae = c->c_assertion_error;
  bool found = false;
  if (s->expr2) {
    DrType *t = chk_value(c, s->expr2);
    if (chk_is_err(t) || !ae) return;
    s->ctor = chk_resolve_call(c, s->expr2->pos, ae, ae->name, &s->expr2, 1, true, &found);
    chk_convert_args(c, s->ctor, &s->expr2, 1);
  } else if (ae) {
    s->ctor = chk_resolve_call(c, s->pos, ae, ae->name, NULL, 0, true, &found);
  }
}

/* this(...) / super(...) as the first statement of constructor m. */
static void check_ctor_call(DrChecker *c, DrStmt *s, DrMethodSym *m) {
  c->cur.in_ctor_call = true;
  chk_args(c, s->args, s->nargs);
  c->cur.in_ctor_call = false;
  DrClassSym *k = m->owner;
  DrClassSym *target = s->is_super ? k->super : k;
  if (!target) {
    chk_error(c, s->pos, "call to super not allowed here");
    return;
  }
  bool found = false;
  DrType *site = chk_gen_as_super(c, k->type, target); /* super(x) of a Box<String> */
  c->gen.site = site;
  s->ctor = chk_resolve_call(c, s->pos, target, target->name, s->args, s->nargs, true, &found);
  c->gen.site = NULL;
  if (!s->ctor) return;
  DrExpr call;
  memset(&call, 0, sizeof call);
  call.kind = E_CALL;
  call.pos = s->pos;
  call.args = s->args;
  call.nargs = s->nargs;
  chk_call_args(c, chk_gen_instantiate(c, &call, s->ctor, site), &s->args, &s->nargs, s->pos);
  if (!s->is_super) chk_method(m)->ctor_target = s->ctor;
}

/* L: body (JLS 14.7): L names body to the breaks and continues inside
 * it, and may not be the label of a labeled statement around it. */
static void check_labeled(DrChecker *c, DrStmt *s) {
  for (int i = c->cur.label_base; i < c->nlabels; i++)
    if (strcmp(c->labels[i]->label, s->label) == 0) {
      chk_error(c, s->pos, "label %s already in use", s->label);
      break;
    }
  DR_ARENA_PUSH(c->arena, c->labels, c->nlabels, c->labels_cap, s);
  check_scoped(c, s->body);
  c->nlabels--;
}

static bool is_loop(const DrStmt *s) {
  return s && (s->kind == S_WHILE || s->kind == S_DO || s->kind == S_FOR || s->kind == S_FOREACH);
}

/* The labeled statement `break L;` leaves or `continue L;` continues
 * (JLS 14.15, 14.16): the innermost enclosing one labeled L, whose body is
 * a loop for continue. */
static DrStmt *label_target(DrChecker *c, DrStmt *s) {
  for (int i = c->nlabels - 1; i >= c->cur.label_base; i--) {
    DrStmt *l = c->labels[i];
    if (strcmp(l->label, s->label) != 0) continue;
    if (s->kind == S_CONTINUE && !is_loop(l->body)) {
      chk_error(c, s->pos, "not a loop label: %s", s->label);
      return NULL;
    }
    return l;
  }
  chk_error(c, s->pos, "undefined label: %s", s->label);
  return NULL;
}

void chk_stmt(DrChecker *c, DrStmt *s) {
  if (!s) return;
  switch (s->kind) {
  case S_BLOCK: {
    int saved = c->nscope;
    check_block_stmts(c, s->stmts, s->nstmts);
    chk_scope_pop(c, saved);
    break;
  }
  case S_LOCAL:
    chk_local_annotations(c, s);
    check_local_decl(c, s);
    break;
  case S_EXPR:
    if (s->expr) chk_expr(c, s->expr);
    break;
  case S_IF:
    chk_condition(c, s->expr);
    check_bound(c, s->body, s->expr, true);
    check_bound(c, s->else_body, s->expr, false);
    chk_if_bindings_after(c, s);
    break;
  case S_WHILE:
  case S_DO:
    if (s->kind == S_WHILE) chk_condition(c, s->expr);
    c->cur.loop_depth++;
    c->cur.break_depth++;
    check_bound(c, s->body, s->kind == S_WHILE ? s->expr : NULL, true);
    c->cur.loop_depth--;
    c->cur.break_depth--;
    if (s->kind == S_DO) chk_condition(c, s->expr);
    chk_loop_bindings_after(c, s);
    break;
  case S_FOR: {
    int saved = c->nscope;
    check_block_stmts(c, s->stmts, s->nstmts);
    if (s->expr) chk_condition(c, s->expr);
    int in_cond = c->nscope;
    chk_push_bindings(c, s->expr, true);
    for (int i = 0; i < s->nupdates; i++)
      if (s->updates[i]) chk_expr(c, s->updates[i]);
    c->cur.loop_depth++;
    c->cur.break_depth++;
    check_scoped(c, s->body);
    c->cur.loop_depth--;
    c->cur.break_depth--;
    chk_scope_pop(c, in_cond);
    chk_scope_pop(c, saved);
    chk_loop_bindings_after(c, s);
    break;
  }
  case S_FOREACH: check_foreach(c, s); break;
  case S_LABELED: check_labeled(c, s); break;
  case S_BREAK:
    if (s->label) s->target = label_target(c, s);
    else if (c->cur.break_depth == 0)
      chk_error(c, s->pos, c->cur.swx ? "attempt to break out of a switch expression" : "break outside switch or loop");
    break;
  case S_CONTINUE:
    if (s->label) s->target = label_target(c, s);
    else if (c->cur.loop_depth == 0)
      chk_error(c, s->pos, c->cur.swx ? "attempt to continue out of a switch expression" : "continue outside of loop");
    break;
  case S_RETURN: check_return(c, s); break;
  case S_SWITCH: chk_switch(c, s); break;
  case S_YIELD: chk_yield(c, s); break;
  case S_SYNC: {
    DrType *t = s->expr ? chk_value(c, s->expr) : &c->T->t_error;
    if (!chk_is_err(t) && !chk_is_ref(t))
      chk_error(c, s->expr->pos, "unexpected type; required: reference, found: %s", chk_type_str(c, t));
    check_scoped(c, s->body);
    break;
  }
  case S_THROW: {
    DrType *t = s->expr ? chk_value(c, s->expr) : &c->T->t_error;
    if (!chk_is_err(t) && c->c_throwable && !chk_subtype(c, t, c->c_throwable->type))
      chk_error(c, s->expr->pos, "incompatible types: %s cannot be converted to Throwable", chk_type_str(c, t));
    break;
  }
  case S_TRY: check_try(c, s); break;
  case S_ASSERT: check_assert(c, s); break;
  case S_CTOR_CALL:
    chk_error(c, s->pos, "call to %s must be first statement in constructor", s->is_super ? "super" : "this");
    chk_args(c, s->args, s->nargs);
    break;
  case S_EMPTY: break;
  case S_CLASS: chk_local_class_stmt(c, s); break;
  }
}

/* ------------------------------------------------------ method bodies */

static void enter(DrChecker *c, DrClassSym *k, DrMethodSym *m, bool is_static) {
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k;
  c->cur.meth = m;
  c->cur.is_static = is_static;
  c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
  chk_class_scope(c, k);
  c->cur.label_base = c->nlabels;
  c->cur.field_limit = -1;
}

void chk_method_body(DrChecker *c, DrMethodSym *m, DrChkTrack *track) {
  DrClassSym *k = m->owner;
  DrMember *mem = m->decl;
  int saved = c->nscope;
  enter(c, k, m, (m->mods & DR_MOD_STATIC) != 0);
  c->cur.in_ctor = m->is_ctor;
  if (mem)
    for (int i = 0; i < mem->nparams && i < m->nparams; i++) {
      DrParam *p = &mem->params[i];
      DrLocalSym *l = chk_declare_local(c, p->name, m->params[i], p->pos, p->is_final, false);
      chk_local(l)->is_param = true;
      p->sym = l;
    }
  DrStmt *body = mem ? mem->body : NULL;
  int first = 0;
  bool this_call = false;
  if (m->is_ctor) {
    DrStmt *s0 = (body && body->kind == S_BLOCK && body->nstmts > 0) ? body->stmts[0] : NULL;
    if (s0 && s0->kind == S_CTOR_CALL) {
      check_ctor_call(c, s0, m);
      first = 1;
      this_call = !s0->is_super;
    } else if (k->super && !m->pass_super) {
      /* the implicit super(): the superclass needs an accessible
       * no-argument constructor */
      bool found = false;
      chk_resolve_call(c, mem ? mem->pos : k->decl->pos, k->super, k->super->name, NULL, 0, true, &found);
    }
    if (!this_call) chk_super_hidden(c, m, mem ? mem->pos : k->decl->pos);
  }
  if (body) {
    if (body->kind == S_BLOCK)
      /* an empty block has no stmts array, and NULL + 0 is undefined */
      check_block_stmts(c, first ? body->stmts + first : body->stmts, body->nstmts - first);
    else
      chk_stmt(c, body);
    chk_flow_body(c, m, body, !m->is_ctor && m->ret->kind != TY_VOID && !chk_is_err(m->ret), false,
                  m->is_ctor && !this_call ? track : NULL);
    chk_check_captures(c, m);
  }
  chk_scope_pop(c, saved);
}

void chk_init_block(DrChecker *c, DrClassSym *k, DrMember *mem, int field_limit, DrChkTrack *track) {
  bool is_static = (mem->mods & DR_MOD_STATIC) != 0;
  int saved = c->nscope;
  enter(c, k, is_static ? k->clinit : k->instance_init, is_static);
  c->cur.in_init = true;
  c->cur.field_limit = field_limit;
  if (mem->body) {
    chk_stmt(c, mem->body);
    chk_flow_body(c, c->cur.meth, mem->body, false, true, track);
    chk_check_captures(c, c->cur.meth);
  }
  chk_scope_pop(c, saved);
}
