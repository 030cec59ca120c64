/* Generics where types are used: type arguments as written (JLS 4.5),
 * member access through a parameterized type (JLS 4.5.2), generic method
 * calls with inference from the arguments and the target type (a
 * simplification of JLS 18: each variable takes the type its first
 * constraint gives, widened to a common superclass when the arguments
 * differ), and the casts erasure needs (JLS 4.6, javac's TransTypes). */
#include <string.h>

#include "checker_generic.h"

/* ------------------------------------------------- type arguments as written */

static void check_bounds_here(DrChecker *c, DrTypeRef *tref);

DrType *chk_gen_apply_args(DrChecker *c, DrTypeRef *tref, DrClassSym *k) {
  int n = chk_gen_ntparams(k);
  if (!tref->has_args || tref->diamond) return n ? chk_gen_raw(c, k) : k->type;
  if (n == 0) {
    chk_error(c, tref->pos, "type %s does not take parameters", k->source_name);
    return &c->T->t_error;
  }
  if (tref->nargs != n) {
    chk_error(c, tref->pos, "wrong number of type arguments; required %d", n);
    return &c->T->t_error;
  }
  DrType **args = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)n);
  for (int i = 0; i < n; i++) {
    DrTypeRef *a = &tref->args[i];
    if (a->wild == DR_WILD_ANY) {
      args[i] = chk_gen_wildcard(c, DR_WILD_ANY, NULL);
      continue;
    }
    DrType *t = chk_resolve_tref(c, a);
    if (chk_is_err(t)) return t;
    if (!chk_is_ref(t)) {
      chk_error(c, a->pos, "unexpected type; required: reference, found: %s", chk_type_str(c, t));
      return &c->T->t_error;
    }
    args[i] = a->wild ? chk_gen_wildcard(c, a->wild, t) : t;
  }
  tref->resolved = chk_gen_param_type(c, k, args, n);
  /* a supertype's arguments wait until every class knows its supertypes */
  if (!c->gen.supers_of && !c->gen.in_bounds) check_bounds_here(c, tref);
  return tref->resolved;
}

static void check_bounds_here(DrChecker *c, DrTypeRef *tref) {
  DrType *t = tref ? tref->resolved : NULL;
  while (t && t->kind == TY_ARRAY) t = t->elem;
  if (!t || t->kind != TY_CLASS || !t->targs) return;
  int n = t->ntargs;
  DrChkSubst s = {dr_arena_alloc(c->arena, sizeof(DrTypeVar *) * (size_t)n), t->targs, n};
  for (int i = 0; i < n; i++) s.vars[i] = chk_gen_class_tvar(c, t->cls, i);
  for (int i = 0; i < n; i++) {
    DrType *a = t->targs[i];
    if (a->wild) continue;
    if (a->kind == TY_CLASS) chk_resolve_supers(c, a->cls);
    DrTypeVar *v = s.vars[i];
    for (int b = 0; b < v->nbounds; b++) {
      DrType *bt = chk_gen_subst(c, v->bounds[b], &s);
      /* a raw type is no subtype of a parameterized bound (the unchecked
       * conversion assignments allow is not subtyping) */
      if (!chk_subtype(c, a, bt) || (a->kind == TY_CLASS && a->is_raw && bt->targs)) {
        chk_error(c, i < tref->nargs ? tref->args[i].pos : tref->pos,
                  "type argument %s is not within bounds of type-variable %s", chk_type_str(c, a), v->name);
        return;
      }
    }
  }
}

void chk_gen_check_bounds(DrChecker *c, DrTypeRef *tref) {
  if (!tref) return;
  for (int i = 0; i < tref->nargs; i++) chk_gen_check_bounds(c, &tref->args[i]);
  check_bounds_here(c, tref);
}

/* ------------------------------------------------------------- inference */

typedef struct {
  DrTypeVar **vars;
  DrType **vals;
  int n;
} DrInfer;

static int var_index(const DrInfer *in, const DrType *t) {
  if (!t || t->kind != TY_CLASS || !t->tvar) return -1;
  for (int i = 0; i < in->n; i++)
    if (in->vars[i] == t->tvar) return i;
  return -1;
}

static DrType *upper(DrChecker *c, DrType *a) {
  if (a && a->wild) return a->wild == DR_WILD_EXTENDS ? a->bound : c->t_object;
  return a;
}

/* Constraint: actual a is compatible with formal f. */
static void unify(DrChecker *c, DrInfer *in, DrType *f, DrType *a, int depth) {
  /* a primitive argument of a variable's type is boxed (loose invocation) */
  if (a && depth == 0 && chk_is_prim(a)) a = chk_boxed_type(c, a);
  if (!f || !a || depth > 32 || !chk_is_ref(a) || a->kind == TY_NULL || chk_is_err(a)) return;
  int i = var_index(in, f);
  if (i >= 0) {
    a = upper(c, a);
    DrType *v = in->vals[i];
    if (!v || (v != a && chk_subtype(c, v, a))) {
      in->vals[i] = a;
    } else if (v != a && !chk_subtype(c, a, v) && a->kind == TY_CLASS && v->kind == TY_CLASS) {
      DrClassSym *k = chk_common_superclass(a->cls, v->cls, c->c_object);
      in->vals[i] = k ? k->type : c->t_object;
    }
    return;
  }
  if (f->kind == TY_ARRAY) {
    if (a->kind == TY_ARRAY) unify(c, in, f->elem, a->elem, depth + 1);
    return;
  }
  if (f->kind != TY_CLASS || f->tvar) return;
  if (f->wild) {
    if (f->wild != DR_WILD_ANY) unify(c, in, f->bound, upper(c, a), depth + 1);
    return;
  }
  int n = chk_gen_ntparams(f->cls);
  if (!n || f->is_raw) return;
  DrType *as = chk_gen_as_super(c, a, f->cls);
  if (!as || as->is_raw) return;
  for (int j = 0; j < n; j++) {
    DrType *fj = f->targs ? f->targs[j] : chk_gen_class_tvar(c, f->cls, j)->type;
    DrType *aj = as->targs ? as->targs[j] : chk_gen_class_tvar(c, f->cls, j)->type;
    unify(c, in, fj, fj->wild ? aj : upper(c, aj), depth + 1);
  }
}

static DrChkSubst infer_subst(DrInfer *in) {
  DrChkSubst s = {in->vars, in->vals, in->n};
  return s;
}

/* Unknown variables take their bound (javac: Object, or the bound). */
static void default_unknowns(DrChecker *c, DrInfer *in) {
  DrChkSubst s = infer_subst(in);
  for (int i = 0; i < in->n; i++)
    if (!in->vals[i]) in->vals[i] = chk_gen_erasure(c, in->vars[i]->type);
  for (int i = 0; i < in->n; i++) {
    DrType *b = in->vars[i]->nbounds ? in->vars[i]->bounds[0] : NULL;
    if (b && in->vals[i] == chk_gen_erasure(c, in->vars[i]->type) && b->targs) in->vals[i] = chk_gen_subst(c, b, &s);
  }
}

static bool all_known(const DrInfer *in) {
  for (int i = 0; i < in->n; i++)
    if (!in->vals[i]) return false;
  return true;
}

/* The variables to infer for a call of m: its own, and for `new C<>()`
 * the class's. */
static DrInfer infer_vars(DrChecker *c, DrMethodSym *m, bool diamond) {
  DrInfer in = {NULL, NULL, 0};
  int nm = chk_gen_method_ntparams(m), nc = diamond ? chk_gen_ntparams(m->owner) : 0;
  if (nm + nc == 0) return in;
  in.vars = dr_arena_alloc(c->arena, sizeof(DrTypeVar *) * (size_t)(nm + nc));
  in.vals = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)(nm + nc));
  for (int i = 0; i < nm; i++) {
    chk_gen_method_tvars(c, m->decl, m);
    in.vars[in.n++] = m->decl->tparams[i].sym;
  }
  for (int i = 0; i < nc; i++) in.vars[in.n++] = chk_gen_class_tvar(c, m->owner, i);
  return in;
}

/* The type of parameter i for an argument (varargs spread). */
static DrType *formal_at(DrMethodSym *m, int i, bool arity) {
  if (arity && m->is_varargs && i >= m->nparams - 1) return m->params[m->nparams - 1]->elem;
  return i < m->nparams ? m->params[i] : NULL;
}

/* x.<A, B>m(...): the method's type arguments given (a method that is not
 * generic ignores them, JLS 15.12.2.1); report: once, for the method chosen. */
static void explicit_args(DrChecker *c, DrInfer *in, DrExpr *e, bool report) {
  if (!e || e->kind != E_CALL || !e->ntargs || !in->n) return;
  if (e->ntargs != in->n) {
    if (report) chk_error(c, e->targs[0].pos, "wrong number of type arguments; required %d", in->n);
    return;
  }
  for (int i = 0; i < e->ntargs; i++) {
    DrType *t = chk_resolve_tref(c, &e->targs[i]);
    if (!chk_is_err(t) && !chk_is_ref(t)) {
      if (report) chk_error(c, e->targs[i].pos, "unexpected type; required: reference, found: %s", chk_type_str(c, t));
      t = &c->T->t_error; /* no cascade from the call's types */
    }
    in->vals[i] = t;
  }
}

void chk_gen_begin_applicable(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs, bool arity) {
  c->gen.inst_m = NULL;
  DrExpr *call = c->gen.call;
  DrInfer in = infer_vars(c, m, call && call->kind == E_NEW && call->tref.diamond);
  if (!in.n) return;
  explicit_args(c, &in, c->gen.call, false);
  for (int i = 0; i < nargs; i++)
    if (args[i] && !chk_is_poly(args[i])) unify(c, &in, chk_gen_param_for_call(c, m, formal_at(m, i, arity)), args[i]->type, 0);
  default_unknowns(c, &in);
  DrChkSubst *s = dr_arena_alloc(c->arena, sizeof(DrChkSubst));
  *s = infer_subst(&in);
  c->gen.inst = s;
  c->gen.inst_m = m;
}

DrType *chk_gen_param_for_call(DrChecker *c, DrMethodSym *m, DrType *p) {
  if (!p || !m) return p;
  DrType *site = c->gen.site;
  if (site && chk_gen_ntparams(m->owner) && !(m->mods & DR_MOD_STATIC))
    p = chk_gen_member_type(c, site, m->owner, p, DR_GEN_WRITE);
  if (c->gen.inst_m == m) p = chk_gen_subst(c, p, c->gen.inst);
  return p;
}

/* A lambda argument whose interface's result is still an unknown
 * variable: checked with the known ones, its body's type gives it. */
static void infer_from_lambda(DrChecker *c, DrInfer *in, DrExpr *arg, DrType *formal) {
  if (!arg || arg->kind != E_LAMBDA || !formal || formal->kind != TY_CLASS) return;
  DrMethodSym *fm = chk_functional_method(c, formal);
  if (!fm) return;
  DrType *fr = chk_gen_member_type(c, formal, fm->owner, fm->ret, DR_GEN_FN);
  int ri = var_index(in, fr);
  if (ri < 0 || in->vals[ri]) return;
  DrInfer known = *in;
  known.vals = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)in->n);
  memcpy(known.vals, in->vals, sizeof(DrType *) * (size_t)in->n);
  default_unknowns(c, &known);
  DrChkSubst ks = infer_subst(&known);
  DrExpr *body = arg->rhs;
  c->gen.keep_casts++;
  chk_poly(c, arg, chk_gen_subst(c, formal, &ks));
  c->gen.keep_casts--;
  /* the body's own type: checking it against the unknown's default may
   * have boxed it (E_CONVERT to Object) */
  DrType *bt = !body ? NULL : body->kind == E_CONVERT && body->target ? body->target->type : body->type;
  if (bt && chk_is_prim(bt)) bt = chk_boxed_type(c, bt); /* () -> 5 gives an Integer */
  if (bt && chk_is_ref(bt) && bt->kind != TY_NULL) in->vals[ri] = bt;
  else in->vals[ri] = known.vals[ri];
  arg->synthetic = true; /* checked: its type is set below */
}

DrMethodSym *chk_gen_instantiate(DrChecker *c, DrExpr *e, DrMethodSym *m, DrType *site) {
  bool diamond = e->kind == E_NEW && e->tref.diamond;
  DrType *target = c->gen.target;
  c->gen.target = NULL;
  bool class_part = site && chk_gen_ntparams(m->owner) && !(m->mods & DR_MOD_STATIC);
  DrInfer in = infer_vars(c, m, diamond);
  if (!class_part && in.n == 0) return m;
  DrChkMethod *v = dr_arena_alloc(c->arena, sizeof(DrChkMethod));
  *v = *chk_method(m);
  DrMethodSym *view = &v->sym;
  view->decl = NULL;
  view->params = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)(m->nparams + 1));
  for (int i = 0; i < m->nparams; i++)
    view->params[i] = class_part ? chk_gen_member_type(c, site, m->owner, m->params[i], DR_GEN_WRITE) : m->params[i];
  view->ret = class_part ? chk_gen_member_type(c, site, m->owner, m->ret, DR_GEN_READ) : m->ret;
  if (in.n) {
    explicit_args(c, &in, e, true);
    bool arity = m->is_varargs && !(e->nargs == m->nparams && e->args[m->nparams - 1] &&
                                     chk_is_ref(e->args[m->nparams - 1]->type) &&
                                     e->args[m->nparams - 1]->type->kind != TY_CLASS);
    if (m->is_varargs && e->nargs == m->nparams && e->args[m->nparams - 1] &&
        e->args[m->nparams - 1]->type && e->args[m->nparams - 1]->type->kind == TY_ARRAY)
      arity = false;
    /* the target's type arguments are equalities: before the arguments'
     * lower bounds (Cell<Object> c = new Cell<>("x") is a Cell<Object>) */
    DrType *goal = diamond ? m->owner->type : view->ret;
    bool bare = var_index(&in, goal) >= 0;
    if (target && !bare) unify(c, &in, goal, target, 0);
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && !chk_is_poly(e->args[i])) unify(c, &in, formal_at(view, i, arity), e->args[i]->type, 0);
    if (target && bare && !all_known(&in)) unify(c, &in, goal, target, 0);
    for (int i = 0; i < e->nargs && i < view->nparams; i++)
      if (e->args[i] && e->args[i]->kind == E_LAMBDA) infer_from_lambda(c, &in, e->args[i], formal_at(view, i, arity));
    default_unknowns(c, &in);
    DrChkSubst s = infer_subst(&in);
    for (int i = 0; i < view->nparams; i++) view->params[i] = chk_gen_subst(c, view->params[i], &s);
    view->ret = chk_gen_subst(c, view->ret, &s);
    for (int i = 0; i < e->nargs && i < view->nparams; i++)
      if (e->args[i] && e->args[i]->synthetic && e->args[i]->kind == E_NEW) {
        e->args[i]->synthetic = false;
        e->args[i]->type = formal_at(view, i, arity);
      }
    if (diamond) e->type = chk_gen_subst(c, m->owner->type, &s);
  }
  return view;
}

/* --------------------------------------------------------------- erasure */

void chk_gen_erased_result(DrChecker *c, DrExpr *e, DrType *declared) {
  DrType *t = e->type;
  if (!t || !declared || t == declared || !chk_is_ref(t) || t->kind == TY_NULL) return;
  DrType *et = chk_gen_erasure(c, t), *ed = chk_gen_erasure(c, declared);
  if (et == ed || et->cls == ed->cls || (et->kind == TY_CLASS && et->cls == c->c_object)) return;
  if (chk_subtype(c, ed, et)) return;
  DrExpr *inner = dr_arena_alloc(c->arena, sizeof(DrExpr));
  *inner = *e;
  inner->type = declared->kind == TY_CLASS && declared->tvar ? declared : ed;
  memset(e, 0, sizeof *e);
  e->kind = E_CAST;
  e->pos = inner->pos;
  e->type = t;
  e->tref.resolved = t;
  e->tref.pos = inner->pos;
  e->target = inner;
  e->synthetic = true;
}

void chk_gen_relax(DrChecker *c, DrExpr *e, DrType *t) {
  if (!e || e->kind != E_CAST || !e->synthetic || !t || !chk_is_ref(t) || c->gen.keep_casts) return;
  DrType *inner = chk_gen_erasure(c, e->target->type), *want = chk_gen_erasure(c, t);
  if (chk_subtype(c, inner, want)) *e = *e->target; /* Object o = box.get(): no cast, as javac */
}

/* ------------------------------------------------- for-each over Iterable */

static DrExpr *mk(DrChecker *c, DrExprKind kind, DrPos pos, const char *name) {
  DrExpr *e = dr_arena_alloc(c->arena, sizeof(DrExpr));
  e->kind = kind;
  e->pos = pos;
  e->name = name;
  return e;
}

static DrExpr *mk_call(DrChecker *c, DrPos pos, const char *it, const char *method) {
  DrExpr *call = mk(c, E_CALL, pos, method);
  call->target = mk(c, E_NAME, pos, it);
  return call;
}

bool chk_gen_foreach(DrChecker *c, DrStmt *s, DrType *t) {
  DrClassSym *iterable = chk_qualified_class(c, "java.lang", "Iterable");
  DrClassSym *iterator = chk_qualified_class(c, "java.util", "Iterator");
  if (!iterable || !iterator || t->kind != TY_CLASS || !chk_subclass(t->cls, iterable)) return false;
  /* JLS 14.14.2: for (I #i = expr.iterator(); #i.hasNext(); ) { T x = #i.next(); body } */
  DrPos pos = s->pos;
  const char *it = dr_arena_printf(c->arena, "$it%d_%d", pos.line, pos.col);
  DrType *st = chk_gen_as_super(c, t, iterable);
  DrType *elem = st && st->targs ? upper(c, st->targs[0]) : c->t_object;
  DrType *itype = chk_gen_param_type(c, iterator, &elem, 1);
  DrStmt *init = dr_arena_alloc(c->arena, sizeof(DrStmt));
  init->kind = S_LOCAL;
  init->pos = pos;
  init->tref.pos = pos;
  init->tref.name = "Iterator";
  init->tref.resolved = itype;
  init->ndecls = 1;
  init->decls = dr_arena_alloc(c->arena, sizeof(DrDeclarator));
  init->decls->name = it;
  init->decls->pos = pos;
  DrExpr *get = mk(c, E_CALL, s->expr->pos, "iterator");
  get->target = s->expr;
  init->decls->init = get;
  DrStmt *var = dr_arena_alloc(c->arena, sizeof(DrStmt));
  var->kind = S_LOCAL;
  var->pos = pos;
  var->tref = s->tref;
  var->is_final = s->is_final;
  var->ndecls = 1;
  var->decls = s->decls;
  var->decls->init = mk_call(c, s->decls->pos, it, "next");
  DrStmt *body = dr_arena_alloc(c->arena, sizeof(DrStmt));
  body->kind = S_BLOCK;
  body->pos = body->end_pos = pos;
  body->nstmts = 2;
  body->stmts = dr_arena_alloc(c->arena, sizeof(DrStmt *) * 2);
  body->stmts[0] = var;
  body->stmts[1] = s->body;
  s->kind = S_FOR;
  s->stmts = dr_arena_alloc(c->arena, sizeof(DrStmt *));
  s->stmts[0] = init;
  s->nstmts = 1;
  s->expr = mk_call(c, pos, it, "hasNext");
  s->body = body;
  s->decls = NULL;
  s->ndecls = 0;
  memset(&s->tref, 0, sizeof s->tref);
  return true;
}

/* ------------------------------------------------------ reifiable types */

bool chk_gen_reifiable(const DrType *t) {
  if (!t) return true;
  if (t->kind == TY_ARRAY) return chk_gen_reifiable(t->elem);
  if (t->kind != TY_CLASS) return true;
  if (t->tvar || (t->wild && t->wild != DR_WILD_ANY)) return false;
  if (t->targs)
    for (int i = 0; i < t->ntargs; i++)
      if (t->targs[i]->wild != DR_WILD_ANY) return false;
  return !(chk_gen_ntparams(t->cls) && !t->targs && !t->is_raw); /* the self type */
}

bool chk_gen_check_instanceof(DrChecker *c, DrExpr *e, DrType *s, DrType *t) {
  if (chk_gen_reifiable(t) || chk_subtype(c, s, t)) return true;
  chk_error(c, e->pos, "%s cannot be safely cast to %s", chk_type_str(c, s), chk_type_str(c, t));
  return false;
}

bool chk_gen_check_array_elem(DrChecker *c, DrExpr *e, DrType *t) {
  while (t && t->kind == TY_ARRAY) t = t->elem;
  if (chk_gen_reifiable(t)) return true;
  chk_error(c, e->pos, "generic array creation");
  return false;
}

/* ------------------------------------------- new C<>() as a poly expression */

bool chk_gen_is_poly_new(const DrExpr *e) {
  return e && e->kind == E_NEW && e->tref.diamond && e->nargs == 0 && !e->body && !e->target && !e->method;
}

bool chk_gen_poly_new_fits(DrChecker *c, DrExpr *e, DrType *t) {
  if (!t || t->kind != TY_CLASS) return false;
  if (t->tvar || t == c->t_object) return true;
  DrType *raw = chk_resolve_tref(c, &e->tref);
  return raw->kind == TY_CLASS && chk_subclass(raw->cls, t->cls);
}

DrType *chk_gen_poly_new(DrChecker *c, DrExpr *e, DrType *t) {
  e->type = NULL; /* chk_args typed it as a placeholder */
  c->gen.target = t;
  DrType *r = chk_expr(c, e);
  c->gen.target = NULL;
  if (!chk_is_err(r)) chk_assign_to(c, e, t);
  return e->type;
}
