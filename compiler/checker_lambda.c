/* Lambdas and method references (JLS 15.13, 15.27), compiled as javac
 * compiles them.  A lambda's body becomes a private method
 * lambda$<method>$<n> of the class whose code contains it (static in a
 * static context), taking the locals it captures first; stack traces
 * name it as the JDK does.  The object a lambda or method reference
 * evaluates to is an instance of a synthetic class Outer$$Lambda$<n>
 * implementing the functional interface: its fields hold the captured
 * values (and the enclosing instance or the bound receiver), and its
 * one method, hidden from stack traces like the JVM's lambda forms,
 * forwards to the lambda's method or the referenced one.  The creating
 * expression becomes an E_NEW of that class whose hidden arguments are
 * the captured values (checker_nested.c), so the emitter, the flow pass
 * and the detectors see nothing new.
 *
 * Only the target type decides the interface and its method, so when
 * generic functional interfaces arrive, the forwarder is where erasure's
 * casts go; nothing else changes. */
#include <string.h>

#include "checker_generic.h"

static bool is_fn_literal(const DrExpr *e) { return e && (e->kind == E_LAMBDA || e->kind == E_METHOD_REF); }

/* A conditional with a lambda or method reference in a branch takes its
 * type from where it stands too (JLS 15.25.3). */
bool chk_is_poly(const DrExpr *e) {
  if (!e) return false;
  return is_fn_literal(e) || chk_gen_is_poly_new(e) ||
         (e->kind == E_COND && (chk_is_poly(e->lhs) || chk_is_poly(e->rhs)));
}

static DrType *err(DrChecker *c, DrExpr *e) {
  e->kind = E_NULL_LIT; /* keeps later passes away from the unchecked body */
  e->type = &c->T->t_error;
  return e->type;
}

static DrExpr *node(DrChecker *c, DrExprKind kind, DrPos pos, DrType *type) {
  DrExpr *e = dr_arena_alloc(c->arena, sizeof(DrExpr));
  e->kind = kind;
  e->pos = pos;
  e->type = type;
  return e;
}

/* ------------------------------------------------ functional interfaces */

static bool is_statement_expr(const DrExpr *e) {
  switch (e->kind) {
  case E_ASSIGN: case E_PREINC: case E_PREDEC: case E_POSTINC: case E_POSTDEC: case E_CALL: case E_NEW: return true;
  default: return false;
  }
}

static bool is_object_method(DrChecker *c, DrMethodSym *m) {
  DrMethodSym *o = chk_find_method_sig(c, c->c_object, m->name, m->params, m->nparams);
  return o && (o->mods & DR_MOD_PUBLIC);
}

static void abstract_methods(DrChecker *c, DrClassSym *k, DrMethodSym **found, int *n, int depth) {
  if (!k || depth > 64) return;
  chk_resolve_supers(c, k);
  for (int i = 0; i < k->nmethods; i++) {
    DrMethodSym *m = k->methods[i];
    if (!(m->mods & DR_MOD_ABSTRACT) || is_object_method(c, m)) continue;
    bool seen = false;
    for (int j = 0; j < *n && !seen; j++)
      seen = found[j]->nparams == m->nparams && strcmp(found[j]->name, m->name) == 0 &&
             (m->nparams == 0 || chk_find_method_sig(c, k, found[j]->name, found[j]->params, found[j]->nparams) == m);
    if (!seen && *n < 2) found[(*n)++] = m;
    else if (!seen) (*n)++;
  }
  for (int i = 0; i < k->ninterfaces; i++) abstract_methods(c, k->interfaces[i], found, n, depth + 1);
}

DrMethodSym *chk_functional_method(DrChecker *c, DrType *t) {
  if (!t || t->kind != TY_CLASS || !chk_is_interface(t->cls)) return NULL;
  DrMethodSym *found[2];
  int n = 0;
  abstract_methods(c, t->cls, found, &n, 0);
  return n == 1 ? found[0] : NULL;
}

static bool returns_value(const DrStmt *s);
static bool completes_last(const DrStmt *b);

bool chk_poly_fits(DrChecker *c, DrExpr *e, DrType *t) {
  if (e->kind == E_COND)
    return (chk_is_poly(e->lhs) ? chk_poly_fits(c, e->lhs, t) : chk_is_ref(t)) &&
           (chk_is_poly(e->rhs) ? chk_poly_fits(c, e->rhs, t) : chk_is_ref(t));
  if (chk_gen_is_poly_new(e)) return chk_gen_poly_new_fits(c, e, t);
  DrMethodSym *fm = chk_functional_method(c, t);
  if (!fm) return false;
  if (e->kind != E_LAMBDA) return true;
  if (fm->nparams != e->nparams) return false;
  /* JLS 15.27.2: a void method wants a statement expression or a block
   * without `return value;`, any other one a value */
  bool is_void = fm->ret->kind == TY_VOID;
  if (e->rhs) return !is_void || is_statement_expr(e->rhs);
  return returns_value(e->block) != is_void || !completes_last(e->block);
}

/* Whether a lambda's block has `return value;` (its own, not a nested
 * lambda's or class's: those are expressions, not walked). */
static bool returns_value(const DrStmt *s) {
  if (!s) return false;
  switch (s->kind) {
  case S_RETURN: return s->expr != NULL;
  case S_BLOCK:
    for (int i = 0; i < s->nstmts; i++)
      if (returns_value(s->stmts[i])) return true;
    return false;
  case S_IF: return returns_value(s->body) || returns_value(s->else_body);
  case S_WHILE: case S_DO: case S_FOR: case S_FOREACH: case S_SYNC: return returns_value(s->body);
  case S_SWITCH:
    for (int i = 0; i < s->ncases; i++)
      for (int j = 0; j < s->cases[i].nbody; j++)
        if (returns_value(s->cases[i].body[j])) return true;
    return false;
  case S_TRY:
    if (returns_value(s->body) || returns_value(s->finally_body)) return true;
    for (int i = 0; i < s->ncatches; i++)
      if (returns_value(s->catches[i].body)) return true;
    return false;
  default: return false;
  }
}

/* A block whose last statement is a throw is both void- and
 * value-compatible (`() -> { throw e; }`); other blocks are one or the
 * other by their returns. */
static bool completes_last(const DrStmt *b) {
  return !(b && b->kind == S_BLOCK && b->nstmts > 0 && b->stmts[b->nstmts - 1]->kind == S_THROW);
}

bool chk_fn_more_specific(DrChecker *c, DrExpr *e, DrType *s, DrType *t) {
  if (!e || e->kind != E_LAMBDA) return false;
  for (int i = 0; i < e->nparams; i++)
    if (!e->params[i].tref.name) return false; /* implicitly typed */
  DrMethodSym *ms = chk_functional_method(c, s), *mt = chk_functional_method(c, t);
  if (!ms || !mt || ms->nparams != mt->nparams) return false;
  for (int i = 0; i < ms->nparams; i++)
    if (ms->params[i] != mt->params[i]) return false;
  return mt->ret->kind == TY_VOID && ms->ret->kind != TY_VOID;
}

static DrMethodSym *target_method(DrChecker *c, DrExpr *e, DrType *t) {
  if (chk_is_err(t)) return NULL;
  DrMethodSym *fm = chk_functional_method(c, t);
  if (fm) return fm;
  /* javac names a class type here by its simple name */
  const char *name = t->kind == TY_CLASS ? t->cls->name : chk_type_str(c, t);
  chk_error(c, e->pos, "incompatible types: %s is not a functional interface", name);
  return fm;
}

/* ------------------------------------------------------ the class */

static DrParam *forwarder_params(DrChecker *c, DrMethodSym *fm, DrPos pos) {
  DrParam *ps = dr_arena_alloc(c->arena, sizeof(DrParam) * (size_t)(fm->nparams + 1));
  for (int i = 0; i < fm->nparams; i++) {
    ps[i].name = dr_arena_printf(c->arena, "arg$%d", i);
    ps[i].pos = pos;
    ps[i].tref.pos = pos;
    ps[i].tref.name = chk_type_str(c, fm->params[i]);
    ps[i].tref.resolved = chk_gen_erasure(c, fm->params[i]);
  }
  return ps;
}

static DrExpr *param_ref(DrChecker *c, int i, DrPos pos) {
  DrExpr *e = node(c, E_NAME, pos, NULL);
  e->name = dr_arena_printf(c->arena, "arg$%d", i);
  return e;
}

/* The forwarder's i-th parameter passed on as want: cast where the
 * interface method's erased parameter (have) is wider, as javac casts. */
static DrExpr *erased_arg(DrChecker *c, int i, DrType *want, DrType *have, DrPos pos) {
  DrExpr *a = param_ref(c, i, pos);
  if (chk_gen_erasure(c, want) == chk_gen_erasure(c, have)) return a;
  DrExpr *cast = node(c, E_CAST, pos, NULL);
  cast->tref.resolved = want;
  cast->tref.pos = pos;
  cast->target = a;
  return cast;
}

/* The forwarder's body: `return call;` or `call;` for a void method. */
static DrStmt *forward_body(DrChecker *c, DrMethodSym *fm, DrExpr *call, DrPos pos) {
  DrStmt *s = dr_arena_alloc(c->arena, sizeof(DrStmt));
  s->kind = fm->ret->kind == TY_VOID ? S_EXPR : S_RETURN;
  s->pos = pos;
  s->expr = call;
  DrStmt *b = dr_arena_alloc(c->arena, sizeof(DrStmt));
  b->kind = S_BLOCK;
  b->pos = pos;
  b->end_pos = pos;
  b->stmts = dr_arena_alloc(c->arena, sizeof(DrStmt *));
  b->stmts[0] = s;
  b->nstmts = 1;
  return b;
}

/* Declares Outer$$Lambda$N implementing t with a forwarder for fm whose
 * body `make` builds once the class (and its fields) exist. */
typedef DrExpr *(*DrFwdCall)(DrChecker *c, DrClassSym *k, DrMethodSym *fm, void *arg, DrPos pos);

static DrClassSym *fn_class(DrChecker *c, DrType *t, DrMethodSym *fm, bool keep_outer, DrLocalSym **caps,
                            int ncaps, DrType *bound, DrFwdCall make, void *arg, DrPos pos) {
  DrClassSym *outer = c->cur.cls;
  DrChkClass *co = chk_class(outer);
  DrClassDecl *d = dr_arena_alloc(c->arena, sizeof(DrClassDecl));
  d->name = "";
  d->pos = pos;
  DrTypeRef *tr = dr_arena_alloc(c->arena, sizeof(DrTypeRef));
  tr->name = t->cls->source_name;
  tr->pos = pos;
  tr->resolved = chk_gen_fn_type(c, t);
  d->implements = tr;
  d->nimplements = 1;
  d->members = dr_arena_alloc(c->arena, sizeof(DrMember));
  d->nmembers = 1;
  const char *name = dr_arena_printf(c->arena, "%s$$Lambda$%d", outer->binary_name, ++co->nsynthetic);
  DrClassSym *k = chk_declare_local_class(c, d, name);
  if (k->outer_this && !keep_outer) {
    k->outer_this = NULL;
    k->nfields--;
  }
  DrChkClass *ck = chk_class(k);
  ck->is_fn = true;
  for (int i = 0; i < ncaps; i++) {
    DrFieldSym *f = chk_synthetic_field(c, k, dr_arena_printf(c->arena, "val$%s", caps[i]->name), caps[i]->type);
    int n = k->ncaptures, cap = k->ncaptures;
    DR_ARENA_PUSH(c->arena, ck->captured, n, ck->captured_cap, caps[i]);
    DR_ARENA_PUSH(c->arena, k->captures, k->ncaptures, cap, f);
  }
  if (bound) {
    DrFieldSym *f = chk_synthetic_field(c, k, "rec$", bound);
    int cap = k->ncaptures;
    DR_ARENA_PUSH(c->arena, k->captures, k->ncaptures, cap, f);
  }
  DrMember *mem = &d->members[0];
  mem->kind = M_METHOD;
  mem->pos = pos;
  mem->mods = DR_MOD_PUBLIC | DR_MOD_HIDDEN;
  mem->name = fm->name;
  mem->ret.name = chk_type_str(c, fm->ret);
  mem->ret.pos = pos;
  mem->ret.resolved = chk_gen_member_type(c, t, fm->owner, fm->ret, DR_GEN_FN);
  mem->params = forwarder_params(c, fm, pos);
  mem->nparams = fm->nparams;
  mem->body = forward_body(c, fm, make(c, k, fm, arg, pos), pos);
  bool found = false;
  DrMethodSym *object_ctor = chk_resolve_call(c, pos, c->c_object, c->c_object->name, NULL, 0, true, &found);
  chk_local_class_phases(c, k, object_ctor);
  ck->complete = true;
  return k;
}

/* e becomes the creation of k; values: the hidden arguments. */
static DrType *become_new(DrExpr *e, DrClassSym *k, DrType *t, DrExpr **values, int n, int null_check) {
  DrMethodSym *ctor = NULL;
  for (int i = 0; i < k->nmethods && !ctor; i++)
    if (k->methods[i]->is_ctor) ctor = k->methods[i];
  DrPos pos = e->pos;
  memset(e, 0, sizeof *e);
  e->kind = E_NEW;
  e->pos = pos;
  e->method = ctor;
  e->type = t;
  e->hidden = values;
  e->nhidden = n;
  e->op = null_check;
  return t;
}

/* ------------------------------------------------------------- lambdas */

static const char *source_method_name(DrMethodSym *m) {
  while (m && chk_method(m)->lambda_in) m = chk_method(m)->lambda_in;
  if (!m) return "new";
  if (strcmp(m->name, "<clinit>") == 0) return "static";
  if (m->is_ctor || strcmp(m->name, "<instinit>") == 0) return "new";
  return m->name;
}

static DrExpr *call_lambda_method(DrChecker *c, DrClassSym *k, DrMethodSym *fm, void *arg, DrPos pos) {
  DrMethodSym *lm = arg;
  DrExpr *call = node(c, E_CALL, pos, NULL);
  call->name = lm->name;
  call->method = lm; /* already resolved: check_call only converts */
  if (!(lm->mods & DR_MOD_STATIC))
    call->target = chk_new_field_ref(c, node(c, E_THIS, pos, k->type), k->outer_this, pos);
  int n = k->ncaptures + fm->nparams;
  call->args = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(n + 1));
  for (int i = 0; i < k->ncaptures; i++)
    call->args[call->nargs++] = chk_new_field_ref(c, node(c, E_THIS, pos, k->type), k->captures[i], pos);
  for (int i = 0; i < fm->nparams; i++) {
    call->args[call->nargs++] = erased_arg(c, i, lm->params[k->ncaptures + i], fm->params[i], pos);
  }
  return call;
}

/* The lambda's parameters as locals of lm (declared types must be the
 * interface method's: DL has no generic methods to infer them for). */
static bool declare_params(DrChecker *c, DrExpr *e, DrMethodSym *fm) {
  bool ok = true;
  for (int i = 0; i < e->nparams; i++) {
    DrParam *p = &e->params[i];
    DrType *pt = fm->params[i];
    if (p->tref.name) {
      DrType *dt = chk_resolve_tref(c, &p->tref);
      if (!chk_is_err(dt) && dt != pt) {
        if (ok) chk_error(c, e->pos, "incompatible types: incompatible parameter types in lambda expression");
        ok = false;
      }
    }
    DrLocalSym *l = chk_declare_local(c, p->name, pt, p->pos, p->is_final, false);
    chk_local(l)->is_param = true;
    p->sym = l;
  }
  return ok;
}

static DrStmt *expression_body(DrChecker *c, DrExpr *e, DrMethodSym *fm) {
  DrStmt *s = dr_arena_alloc(c->arena, sizeof(DrStmt));
  bool is_void = fm->ret->kind == TY_VOID;
  s->kind = is_void ? S_EXPR : S_RETURN;
  s->pos = e->rhs->pos;
  s->expr = e->rhs;
  DrStmt *b = dr_arena_alloc(c->arena, sizeof(DrStmt));
  b->kind = S_BLOCK;
  b->pos = e->rhs->pos;
  b->end_pos = e->rhs->pos;
  b->stmts = dr_arena_alloc(c->arena, sizeof(DrStmt *));
  b->stmts[0] = s;
  b->nstmts = 1;
  if (is_void && !is_statement_expr(e->rhs)) {
    DrType *t = chk_expr(c, e->rhs);
    if (!chk_is_err(t))
      chk_error(c, e->rhs->pos, "incompatible types: lambda body is not compatible with a void functional interface");
    return NULL;
  }
  return b;
}

/* Checks the body as lm's, in the scope of the code around it. */
static void lambda_body(DrChecker *c, DrExpr *e, DrMethodSym *fm, DrMethodSym *lm, DrChkLambda *lam) {
  DrChkCtx saved = c->cur;
  int nscope = c->nscope;
  c->cur.meth = lm;
  c->cur.lambda = lam;
  c->cur.capture_base = c->nscope;
  c->cur.in_ctor = c->cur.in_init = false;
  c->cur.loop_depth = c->cur.break_depth = 0;
  c->cur.field_limit = -1;
  declare_params(c, e, fm);
  DrStmt *body = e->block ? e->block : expression_body(c, e, fm);
  DrMember *mem = dr_arena_alloc(c->arena, sizeof(DrMember));
  mem->kind = M_METHOD;
  mem->pos = e->pos;
  mem->name = lm->name;
  mem->params = e->params;
  mem->nparams = e->nparams;
  mem->body = body;
  lm->decl = mem;
  if (body) {
    chk_stmt(c, body);
    chk_flow_body(c, lm, body, fm->ret->kind != TY_VOID && !chk_is_err(fm->ret), false, NULL);
    chk_check_captures(c, lm);
  }
  chk_scope_pop(c, nscope);
  c->cur = saved;
}

/* fm as a member of the interface type t: its types with t's arguments. */
static DrMethodSym *fn_view(DrChecker *c, DrMethodSym *fm, DrType *t) {
  DrChkMethod *v = dr_arena_alloc(c->arena, sizeof(DrChkMethod));
  *v = *chk_method(fm);
  v->sym.params = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)(fm->nparams + 1));
  for (int i = 0; i < fm->nparams; i++)
    v->sym.params[i] = chk_gen_member_type(c, t, fm->owner, fm->params[i], DR_GEN_FN);
  v->sym.ret = chk_gen_member_type(c, t, fm->owner, fm->ret, DR_GEN_FN);
  return &v->sym;
}

DrType *chk_lambda(DrChecker *c, DrExpr *e, DrType *t) {
  DrMethodSym *fm0 = target_method(c, e, t);
  if (!fm0) return err(c, e);
  if (chk_gen_method_ntparams(fm0)) { /* JLS 15.27.3: a lambda cannot implement a generic method */
    chk_error(c, e->pos, "incompatible types: invalid functional descriptor for lambda expression");
    return err(c, e);
  }
  DrMethodSym *fm = fn_view(c, fm0, t);
  if (fm->nparams != e->nparams) {
    chk_error(c, e->pos, "incompatible types: incompatible parameter types in lambda expression");
    return err(c, e);
  }
  DrClassSym *k = c->cur.cls;
  DrChkMethod *cm = chk_new_method(c, k, "lambda$", DR_MOD_PRIVATE | (c->cur.is_static ? DR_MOD_STATIC : 0), e->pos);
  DrMethodSym *lm = &cm->sym;
  cm->lambda_in = c->cur.meth;
  lm->ret = fm->ret;
  lm->params = fm->params;
  lm->nparams = fm->nparams;
  DrChkLambda lam;
  memset(&lam, 0, sizeof lam);
  lam.meth = lm;
  lambda_body(c, e, fm, lm, &lam);
  /* javac numbers them as it finishes them: an inner lambda first */
  lm->name = dr_arena_printf(c->arena, "lambda$%s$%d", source_method_name(c->cur.meth), chk_class(k)->nlambdas++);
  lm->decl->name = lm->name;
  /* the captured locals arrive first: parameters and locals renumbered */
  int n = lam.ncaps + fm->nparams;
  lm->params = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)(n + 1));
  for (int i = 0; i < lam.ncaps; i++) lm->params[i] = lam.params[i]->type;
  for (int i = 0; i < fm->nparams; i++) lm->params[lam.ncaps + i] = fm->params[i];
  lm->nparams = n;
  DrLocalSym **locals = dr_arena_alloc(c->arena, sizeof(DrLocalSym *) * (size_t)(lm->nlocals + 1));
  int j = 0;
  for (int i = 0; i < lam.ncaps; i++) locals[j++] = lam.params[i];
  for (int i = 0; i < lm->nlocals; i++) {
    bool cap = false;
    for (int x = 0; x < lam.ncaps && !cap; x++) cap = lam.params[x] == lm->locals[i];
    if (!cap) locals[j++] = lm->locals[i];
  }
  for (int i = 0; i < j; i++) locals[i]->index = i;
  lm->locals = locals;
  int mcap = k->nmethods;
  DR_ARENA_PUSH(c->arena, k->methods, k->nmethods, mcap, lm);
  bool instance = !(lm->mods & DR_MOD_STATIC);
  DrClassSym *fc = fn_class(c, t, fm0, instance, lam.orig, lam.ncaps, NULL, call_lambda_method, lm, e->pos);
  int nv = (fc->outer_this ? 1 : 0) + lam.ncaps;
  DrExpr **values = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(nv + 1));
  int v = 0;
  if (fc->outer_this) values[v++] = chk_new_this(c, e->pos);
  for (int i = 0; i < lam.ncaps; i++) values[v++] = chk_local_value(c, lam.orig[i], e->pos);
  return become_new(e, fc, t, values, nv, 0);
}

/* ---------------------------------------------------- method references */

typedef struct {
  DrMethodSym *fn;    /* the interface's method as a member of the target type */
  DrType *type;       /* the qualifier's type */
  bool is_type;       /* Type::m, else expr::m */
  bool unbound;       /* Type::instanceMethod: the first argument is the receiver */
  const char *name;
} DrRefInfo;

static DrExpr *call_referenced(DrChecker *c, DrClassSym *k, DrMethodSym *fm, void *arg, DrPos pos) {
  DrRefInfo *ri = arg;
  if (strcmp(ri->name, "new") == 0) {
    DrExpr *x = node(c, E_NEW, pos, NULL);
    x->tref.name = chk_type_str(c, ri->type);
    x->tref.pos = pos;
    x->tref.resolved = ri->type;
    x->args = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(fm->nparams + 1));
    for (int i = 0; i < fm->nparams; i++) {
      DrExpr *a = param_ref(c, i, pos);
      if (chk_gen_erasure(c, ri->fn->params[i]) != chk_gen_erasure(c, fm->params[i])) {
        DrExpr *cast = node(c, E_CAST, pos, NULL);
        cast->tref.resolved = ri->fn->params[i];
        cast->tref.pos = pos;
        cast->target = a;
        a = cast;
      }
      x->args[x->nargs++] = a;
    }
    return x;
  }
  DrExpr *call = node(c, E_CALL, pos, NULL);
  call->name = ri->name;
  call->args = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(fm->nparams + 1));
  int first = 0;
  if (!ri->is_type) {
    call->target = chk_new_field_ref(c, node(c, E_THIS, pos, k->type), k->captures[k->ncaptures - 1], pos);
  } else if (ri->unbound) {
    DrExpr *recv = param_ref(c, 0, pos);
    if (fm->params[0] != ri->type) {
      DrExpr *cast = node(c, E_CAST, pos, NULL);
      cast->tref.name = chk_type_str(c, ri->type);
      cast->tref.pos = pos;
      cast->tref.resolved = ri->type;
      cast->target = recv;
      recv = cast;
    }
    call->target = recv;
    first = 1;
  } else {
    DrExpr *q = node(c, E_TYPE, pos, ri->type);
    call->target = q;
  }
  for (int i = first; i < fm->nparams; i++) {
    call->args[call->nargs++] = erased_arg(c, i, ri->fn->params[i], fm->params[i], pos);
  }
  return call;
}

/* Type::m is a static method if the type has a static m taking all the
 * arguments, else an instance method of the first one. */
static bool has_static(DrChecker *c, DrClassSym *k, const char *name, int nparams) {
  for (int guard = 0; k && guard < 256; k = k->super, guard++)
    for (DrMethodSym *m = chk_methods_named(c, k, name); m; m = chk_method(m)->next_named)
      if ((m->mods & DR_MOD_STATIC) && m->nparams == nparams) return true;
  return false;
}

/* The errors of a reference's forwarder since ndiags are one, as javac
 * words it. */
static void errors_as_one(DrChecker *c, int ndiags, int nerrors, DrPos pos, const char *msg) {
  if (c->errors == nerrors) return;
  for (int i = ndiags; i < c->diags->count; i++) free(c->diags->items[i].msg);
  c->diags->count = ndiags;
  c->errors = nerrors;
  chk_error(c, pos, "%s", msg);
}

/* super::m and Type[]::new become the lambdas javac makes of them
 * ((a, b) -> super.m(a, b), n -> new Type[n]): a forwarder class cannot
 * call its creator's super method, and an array has no constructor. */
static DrType *ref_as_lambda(DrChecker *c, DrExpr *e, DrType *t, DrMethodSym *fm) {
  DrExpr *body;
  if (e->tref.dims > 0) {
    if (fm->nparams != 1) {
      chk_error(c, e->pos, "incompatible types: invalid constructor reference");
      return err(c, e);
    }
    body = node(c, E_NEW_ARRAY, e->pos, NULL);
    body->tref = e->tref;
    body->args = dr_arena_alloc(c->arena, sizeof(DrExpr *));
    body->args[body->nargs++] = param_ref(c, 0, e->pos);
  } else {
    body = node(c, E_CALL, e->pos, NULL);
    body->name = e->name;
    body->is_super = true;
    body->args = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(fm->nparams + 1));
    for (int i = 0; i < fm->nparams; i++) body->args[body->nargs++] = param_ref(c, i, e->pos);
  }
  e->params = dr_arena_alloc(c->arena, sizeof(DrParam) * (size_t)(fm->nparams + 1));
  for (int i = 0; i < fm->nparams; i++) {
    DrParam *pm = &e->params[i];
    memset(pm, 0, sizeof *pm);
    pm->name = dr_arena_printf(c->arena, "arg$%d", i);
    pm->pos = e->pos;
  }
  e->nparams = fm->nparams;
  e->kind = E_LAMBDA;
  e->block = NULL;
  e->rhs = body;
  e->target = NULL;
  bool array = e->tref.dims > 0;
  e->tref.dims = 0;
  e->tref.name = NULL;
  if (!array && c->cur.is_static) {
    chk_error(c, e->pos, "non-static variable super cannot be referenced from a static context");
    return err(c, e);
  }
  int ndiags = c->diags->count, nerrors = c->errors;
  DrType *r = chk_lambda(c, e, t);
  errors_as_one(c, ndiags, nerrors, e->pos,
                array ? "incompatible types: bad return type in method reference"
                      : "incompatible types: invalid method reference");
  return r;
}

DrType *chk_method_ref(DrChecker *c, DrExpr *e, DrType *t) {
  DrMethodSym *fm = target_method(c, e, t);
  if (!fm) return err(c, e);
  if (e->tref.dims > 0 || (e->target && e->target->kind == E_THIS && e->target->is_super))
    return ref_as_lambda(c, e, t, fm);
  DrRefInfo ri;
  memset(&ri, 0, sizeof ri);
  ri.fn = fn_view(c, fm, t);
  ri.name = e->name ? e->name : "?";
  DrType *qt = chk_expr_q(c, e->target);
  DrExpr *q = e->target;
  if (q->kind == E_TYPE && !q->type) {
    chk_error(c, q->pos, "cannot find symbol '%s'", q->name ? q->name : "?");
    return err(c, e);
  }
  if (chk_is_err(qt)) return err(c, e);
  ri.type = qt;
  ri.is_type = q->kind == E_TYPE;
  bool is_new = strcmp(ri.name, "new") == 0;
  if (qt->kind != TY_CLASS || (is_new && !ri.is_type)) {
    chk_error(c, e->pos, "%s cannot be dereferenced", chk_type_str(c, qt));
    return err(c, e);
  }
  if (ri.is_type && !is_new) ri.unbound = !has_static(c, qt->cls, ri.name, fm->nparams) && fm->nparams > 0;
  if (ri.is_type) ri.type = chk_gen_ref_qualifier(c, qt, ri.unbound ? ri.fn->params[0] : NULL, is_new, t);
  int ndiags = c->diags->count, nerrors = c->errors;
  DrClassSym *fc = fn_class(c, t, fm, false, NULL, 0, ri.is_type ? NULL : qt, call_referenced, &ri, e->pos);
  errors_as_one(c, ndiags, nerrors, e->pos, "incompatible types: invalid method reference");
  DrExpr **values = NULL;
  int nv = 0;
  if (!ri.is_type) {
    values = dr_arena_alloc(c->arena, sizeof(DrExpr *));
    values[nv++] = q;
  }
  /* javac checks a bound receiver for null where the reference is */
  return become_new(e, fc, t, values, nv, ri.is_type || q->kind == E_THIS ? 0 : 1);
}

static void poly_branch(DrChecker *c, DrExpr *e, DrType *t) {
  if (chk_is_poly(e)) {
    chk_poly(c, e, t);
  } else {
    DrType *bt = chk_value(c, e);
    if (!chk_is_err(bt)) chk_assign_to(c, e, t);
  }
}

DrType *chk_poly(DrChecker *c, DrExpr *e, DrType *t) {
  if (e->kind == E_COND) {
    chk_condition(c, e->cond);
    poly_branch(c, e->lhs, t);
    poly_branch(c, e->rhs, t);
    return e->type = t;
  }
  if (chk_gen_is_poly_new(e)) return chk_gen_poly_new(c, e, t);
  return e->kind == E_LAMBDA ? chk_lambda(c, e, t) : chk_method_ref(c, e, t);
}
