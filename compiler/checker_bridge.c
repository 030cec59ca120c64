/* Overriding through generics (JLS 8.4.2, 8.4.8.1) and the bridge
 * methods javac generates (JLS 15.12.4.5).  Methods are dispatched at run
 * time by their erased descriptor ("compareTo(Object)"), so a method that
 * overrides one whose erasure differs (Name.compareTo(Name) implementing
 * Comparable<Name>.compareTo(T)) gets a bridge compareTo(Object) that
 * casts its arguments and calls it, hidden from stack traces. */
#include <string.h>

#include "checker_generic.h"

bool chk_gen_overrides(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrMethodSym *o) {
  if (m->nparams != o->nparams || strcmp(m->name, o->name) != 0 || m->is_ctor || o->is_ctor) return false;
  bool same = true, erased = true;
  for (int i = 0; i < m->nparams; i++) {
    DrType *mp = chk_gen_member_type(c, k->type, m->owner, m->params[i], DR_GEN_READ);
    DrType *op = chk_gen_member_type(c, k->type, o->owner, o->params[i], DR_GEN_READ);
    if (mp != op && !(mp->tvar && op->tvar && mp->tvar->owner_meth && op->tvar->owner_meth &&
                      mp->tvar->index == op->tvar->index))
      same = false;
    /* JLS 8.4.2: m's signature is the erasure of o's as a member of k's
     * supertype (raw Comparable: compareTo(Object); Comparable<X>: not) */
    if (m->params[i] != chk_gen_erasure(c, op) &&
        !((m->mods & DR_MOD_HIDDEN) && m->params[i] == chk_gen_erasure(c, o->params[i])))
      erased = false; /* a lambda's forwarder takes the erased declaration's parameters */
  }
  return same || erased;
}

DrMethodSym *chk_gen_find_overridden(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrClassSym *s) {
  for (DrMethodSym *o = chk_methods_named(c, s, m->name); o; o = chk_method(o)->next_named)
    if (!o->is_ctor && chk_gen_overrides(c, k, m, o)) return o;
  return NULL;
}

/* ---------------------------------------------------------------- bridges */

static bool erased_params_equal(DrChecker *c, DrMethodSym *a, DrMethodSym *b) {
  if (a->nparams != b->nparams) return false;
  for (int i = 0; i < a->nparams; i++)
    if (chk_gen_erasure(c, a->params[i]) != chk_gen_erasure(c, b->params[i])) return false;
  return true;
}

static DrExpr *node(DrChecker *c, DrExprKind kind, DrPos pos) {
  DrExpr *e = dr_arena_alloc(c->arena, sizeof(DrExpr));
  e->kind = kind;
  e->pos = pos;
  return e;
}

/* bridge: `return this.m((P1) arg$0, ...);` */
static void add_bridge(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrMethodSym *o) {
  DrPos pos = k->decl->pos;
  DrChkMethod *cm = chk_new_method(c, k, m->name, DR_MOD_PUBLIC | DR_MOD_HIDDEN, pos);
  DrMethodSym *b = &cm->sym;
  cm->is_bridge = true;
  b->nparams = m->nparams;
  b->params = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)(m->nparams + 1));
  for (int i = 0; i < m->nparams; i++) b->params[i] = chk_gen_erasure(c, o->params[i]);
  b->ret = chk_gen_erasure(c, o->ret);
  b->is_varargs = false;
  DrMember *mem = dr_arena_alloc(c->arena, sizeof(DrMember));
  mem->kind = M_METHOD;
  mem->pos = pos;
  mem->mods = b->mods;
  mem->name = m->name;
  mem->nparams = m->nparams;
  mem->params = dr_arena_alloc(c->arena, sizeof(DrParam) * (size_t)(m->nparams + 1));
  DrExpr *call = node(c, E_CALL, pos);
  call->name = m->name;
  call->method = m;
  call->target = node(c, E_THIS, pos);
  call->args = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(m->nparams + 1));
  for (int i = 0; i < m->nparams; i++) {
    mem->params[i].name = dr_arena_printf(c->arena, "arg$%d", i);
    mem->params[i].pos = pos;
    mem->params[i].tref.resolved = b->params[i];
    DrExpr *ref = node(c, E_NAME, pos);
    ref->name = mem->params[i].name;
    DrExpr *cast = node(c, E_CAST, pos);
    cast->tref.resolved = m->params[i];
    cast->tref.pos = pos;
    cast->target = ref;
    call->args[call->nargs++] = cast;
  }
  DrStmt *s = dr_arena_alloc(c->arena, sizeof(DrStmt));
  s->kind = m->ret->kind == TY_VOID ? S_EXPR : S_RETURN;
  s->pos = pos;
  s->expr = call;
  DrStmt *body = dr_arena_alloc(c->arena, sizeof(DrStmt));
  body->kind = S_BLOCK;
  body->pos = body->end_pos = pos;
  body->stmts = dr_arena_alloc(c->arena, sizeof(DrStmt *));
  body->stmts[0] = s;
  body->nstmts = 1;
  mem->body = body;
  b->decl = mem;
  mem->method = b;
  int cap = k->nmethods;
  DR_ARENA_PUSH(c->arena, k->methods, k->nmethods, cap, b);
  chk_index_method(c, b);
  chk_method_body(c, b, NULL);
}

/* o's signature as a member of k's supertype: set(String) of Box<String>. */
static const char *member_sig(DrChecker *c, DrClassSym *k, DrMethodSym *o) {
  const char *s = dr_arena_printf(c->arena, "%s(", o->name);
  for (int i = 0; i < o->nparams; i++)
    s = dr_arena_printf(c->arena, "%s%s%s", s, i ? "," : "",
                        chk_type_str(c, chk_gen_member_type(c, k->type, o->owner, o->params[i], DR_GEN_READ)));
  return dr_arena_printf(c->arena, "%s)", s);
}

static bool has_erased(DrChecker *c, DrClassSym *k, DrMethodSym *o) {
  for (DrMethodSym *x = chk_methods_named(c, k, o->name); x; x = chk_method(x)->next_named)
    if (!x->is_ctor && erased_params_equal(c, x, o)) return true;
  return false;
}

static void bridges_from(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrClassSym *s, int depth) {
  if (!s || depth > 64) return;
  chk_resolve_supers(c, s);
  for (DrMethodSym *o = chk_methods_named(c, s, m->name); o; o = chk_method(o)->next_named) {
    if (o->is_ctor || (o->mods & (DR_MOD_STATIC | DR_MOD_PRIVATE))) continue;
    if (!chk_gen_overrides(c, k, m, o)) {
      if (erased_params_equal(c, m, o)) { /* set(Object) beside Box<String>'s set(T) */
        chk_error(c, m->pos, "name clash: %s in %s and %s in %s have the same erasure, yet neither overrides the other",
                  chk_method_sig(c, m), k->source_name, member_sig(c, k, o), o->owner->source_name);
        return;
      }
      continue;
    }
    if (!erased_params_equal(c, m, o) && !has_erased(c, k, o)) add_bridge(c, k, m, o);
  }
  bridges_from(c, k, m, s->super, depth + 1);
  for (int i = 0; i < s->ninterfaces; i++) bridges_from(c, k, m, s->interfaces[i], depth + 1);
}

/* Two methods of k whose erasures are the same but that are not the same
 * method (javac: a name clash). */
static void check_clashes(DrChecker *c, DrClassSym *k) {
  for (int i = 0; i < k->nmethods; i++)
    for (int j = 0; j < i; j++) {
      DrMethodSym *a = k->methods[j], *b = k->methods[i];
      if ((a->mods | b->mods) & DR_MOD_HIDDEN) continue;
      if (strcmp(a->name, b->name) != 0 || !erased_params_equal(c, a, b)) continue;
      chk_error(c, b->pos, "name clash: %s and %s have the same erasure", chk_method_sig(c, b), chk_method_sig(c, a));
    }
}

void chk_gen_bridges(DrChecker *c, DrClassSym *k) {
  DrClassDecl *d = k->decl;
  chk_gen_class_tvars(c, k); /* its variables' errors, used or not */
  chk_gen_check_inherited_args(c, k);
  if (d->extends) chk_gen_check_bounds(c, d->extends);
  for (int i = 0; i < d->nimplements; i++) chk_gen_check_bounds(c, &d->implements[i]);
  for (int i = 0; i < d->ntparams; i++)
    for (int b = 0; b < d->tparams[i].nbounds; b++) chk_gen_check_bounds(c, &d->tparams[i].bounds[b]);
  for (int j = 0; j < d->nmembers; j++)
    for (int i = 0; i < d->members[j].ntparams; i++)
      for (int b = 0; b < d->members[j].tparams[i].nbounds; b++)
        chk_gen_check_bounds(c, &d->members[j].tparams[i].bounds[b]);
  if (chk_is_interface(k)) return;
  check_clashes(c, k);
  int n = k->nmethods;
  for (int i = 0; i < n; i++) {
    DrMethodSym *m = k->methods[i];
    if (m->is_ctor || (m->mods & (DR_MOD_STATIC | DR_MOD_PRIVATE | DR_MOD_HIDDEN)) || !m->decl) continue;
    bridges_from(c, k, m, k->super, 0);
    for (int j = 0; j < k->ninterfaces; j++) bridges_from(c, k, m, k->interfaces[j], 0);
  }
}

DrType *chk_gen_override_ret(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrMethodSym *o) {
  DrType *ro = chk_gen_member_type(c, k->type, o->owner, o->ret, DR_GEN_READ);
  int n = chk_gen_method_ntparams(o);
  if (n == 0 || n != chk_gen_method_ntparams(m)) return ro;
  DrChkSubst s = {dr_arena_alloc(c->arena, sizeof(DrTypeVar *) * (size_t)n),
                  dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)n), n};
  for (int i = 0; i < n; i++) {
    s.vars[i] = o->decl->tparams[i].sym;
    s.types[i] = m->decl->tparams[i].sym ? m->decl->tparams[i].sym->type : NULL;
  }
  return chk_gen_subst(c, ro, &s);
}
