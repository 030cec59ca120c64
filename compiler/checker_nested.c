/* Inner, local and anonymous classes (JLS 8.1.3, 14.3, 15.9.5): enclosing
 * instances, captured locals, and the hidden constructor parameters that
 * carry both, compiled as javac compiles them.  An inner class's object
 * holds its enclosing instance in the field this$0; a local or anonymous
 * class (and a lambda's class, checker_lambda.c) holds a copy of each
 * local of the enclosing code it uses in a field val$name.  Both are
 * passed to every constructor after `this` and stored before the
 * superclass constructor runs. */
#include <string.h>

#include "checker_generic.h"

static DrExpr *new_expr(DrChecker *c, DrExprKind kind, DrPos pos, DrType *type) {
  DrExpr *e = dr_arena_alloc(c->arena, sizeof(DrExpr));
  e->kind = kind;
  e->pos = pos;
  e->type = type;
  return e;
}

DrExpr *chk_new_field_ref(DrChecker *c, DrExpr *target, DrFieldSym *f, DrPos pos) {
  DrExpr *e = new_expr(c, E_FIELD, pos, f->type);
  e->target = target;
  e->field = f;
  e->name = f->name;
  return e;
}

/* A field no name reaches: set once, by the constructor's prologue. */
DrFieldSym *chk_synthetic_field(DrChecker *c, DrClassSym *k, const char *name, DrType *type) {
  DrChkField *f = dr_arena_alloc(c->arena, sizeof(DrChkField));
  f->sym.name = name;
  f->sym.owner = k;
  f->sym.type = type;
  f->sym.mods = DR_MOD_PRIVATE;
  f->sym.pos = k->decl ? k->decl->pos : (DrPos){0, 0};
  f->index = k->nfields;
  f->init_state = 2;
  int cap = k->nfields;
  DR_ARENA_PUSH(c->arena, k->fields, k->nfields, cap, &f->sym);
  return &f->sym;
}

void chk_class_scope(DrChecker *c, DrClassSym *k) {
  if (k && k->is_local) {
    c->cur.scope_base = chk_class(k)->scope_lo;
    c->cur.capture_base = chk_class(k)->scope_hi;
  } else {
    c->cur.scope_base = c->nscope;
    c->cur.capture_base = c->nscope;
  }
  c->cur.decl_base = c->nscope;
}

/* ------------------------------------------------- enclosing instances */

DrExpr *chk_outer_ref(DrChecker *c, DrClassSym *target, DrPos pos) {
  if (!c->cur.cls || c->cur.is_static || !target) return NULL;
  DrExpr *e = chk_new_this(c, pos);
  int guard = 0;
  for (DrClassSym *k = c->cur.cls; k && guard < 256; guard++) {
    if (chk_subclass(k, target)) return e;
    if (!k->outer_this) return NULL;
    e = chk_new_field_ref(c, e, k->outer_this, pos);
    k = k->outer_this->type->cls;
  }
  return NULL;
}

DrType *chk_qualified_this(DrChecker *c, DrExpr *e) {
  DrType *t = chk_expr_q(c, e->target);
  if (chk_is_err(t)) return e->type = &c->T->t_error;
  if (e->target->kind != E_TYPE || !t || t->kind != TY_CLASS) {
    chk_error(c, e->target->pos, "cannot find symbol '%s'", e->target->name ? e->target->name : "?");
    return e->type = &c->T->t_error;
  }
  DrClassSym *k = c->cur.cls;
  while (k && k != t->cls) k = k->outer;
  if (!k) {
    chk_error(c, e->pos, "not an enclosing class: %s", t->cls->source_name);
    return e->type = &c->T->t_error;
  }
  if (c->cur.in_ctor_call && t->cls == c->cur.cls) {
    chk_error(c, e->pos, "cannot reference this before supertype constructor has been called");
    return e->type = &c->T->t_error;
  }
  DrExpr *r = chk_outer_ref(c, t->cls, e->pos);
  if (!r) {
    chk_error(c, e->pos, "non-static variable this cannot be referenced from a static context");
    return e->type = &c->T->t_error;
  }
  *e = *r;
  e->type = t; /* this.this$0 has the enclosing class's type already */
  return e->type;
}

/* ------------------------------------------------------------ captures */

static DrLocalSym *lambda_param(DrChecker *c, DrChkLambda *lam, DrLocalSym *l, DrPos pos) {
  for (int i = 0; i < lam->ncaps; i++)
    if (lam->orig[i] == l) return lam->params[i];
  DrLocalSym *p = chk_param_local(c, lam->meth, l->name, l->type, pos);
  int n = lam->ncaps;
  DR_ARENA_PUSH(c->arena, lam->orig, n, lam->cap, l);
  DR_ARENA_PUSH(c->arena, lam->params, lam->ncaps, lam->pcap, p);
  return p;
}

static DrFieldSym *class_capture(DrChecker *c, DrClassSym *k, DrLocalSym *l) {
  DrChkClass *ck = chk_class(k);
  for (int i = 0; i < k->ncaptures; i++)
    if (ck->captured[i] == l) return k->captures[i];
  DrFieldSym *f = chk_synthetic_field(c, k, dr_arena_printf(c->arena, "val$%s", l->name), l->type);
  int n = k->ncaptures, cap = k->ncaptures;
  DR_ARENA_PUSH(c->arena, ck->captured, n, ck->captured_cap, l);
  DR_ARENA_PUSH(c->arena, k->captures, k->ncaptures, cap, f);
  return f;
}

DrExpr *chk_local_value(DrChecker *c, DrLocalSym *l, DrPos pos) {
  if (chk_local(l)->scope_idx >= c->cur.capture_base) {
    DrExpr *e = new_expr(c, E_LOCAL, pos, l->type);
    e->local = l;
    e->name = l->name;
    return e;
  }
  if (c->cur.lambda) {
    DrExpr *e = new_expr(c, E_LOCAL, pos, l->type);
    e->local = lambda_param(c, c->cur.lambda, l, pos);
    e->name = l->name;
    return e;
  }
  DrClassSym *k = c->cur.cls;
  DrFieldSym *f = class_capture(c, k, l);
  DrExpr *t = new_expr(c, E_THIS, pos, k->type);
  return chk_new_field_ref(c, t, f, pos);
}

DrExpr *chk_capture(DrChecker *c, DrLocalSym *l, DrPos pos) {
  DrChkLocal *cl = chk_local(l);
  int guard = 0;
  for (DrClassSym *k = c->cur.cls; k && k->is_local && guard < 256; k = k->outer, guard++)
    if (chk_class(k)->static_local && cl->scope_idx < chk_class(k)->scope_hi) {
      chk_error(c, pos, "non-static variable %s cannot be referenced from a static context", l->name);
      return new_expr(c, E_LOCAL, pos, &c->T->t_error);
    }
  int n = cl->ncap, cap = cl->ncap;
  DR_ARENA_PUSH(c->arena, cl->cap_pos, n, cl->cap_cap, pos);
  DR_ARENA_PUSH(c->arena, cl->cap_lambda, cl->ncap, cap, c->cur.lambda != NULL);
  return chk_local_value(c, l, pos);
}

void chk_check_captures(DrChecker *c, DrMethodSym *m) {
  for (int i = 0; m && i < m->nlocals; i++) {
    DrChkLocal *l = chk_local(m->locals[i]);
    if (!l->ncap || l->sym.is_final || !l->not_ef) continue;
    for (int j = 0; j < l->ncap; j++)
      chk_error(c, l->cap_pos[j], "local variables referenced from %s must be final or effectively final",
                l->cap_lambda[j] ? "a lambda expression" : "an inner class");
  }
}

/* ------------------------------------------------------------ creation */

static void no_enclosing(DrChecker *c, DrPos pos, DrClassSym *k, DrClassSym *outer) {
  for (DrClassSym *o = c->cur.cls; o; o = o->outer)
    if (chk_subclass(o, outer)) {
      chk_error(c, pos, "non-static variable this cannot be referenced from a static context");
      return;
    }
  chk_error(c, pos, "an enclosing instance that contains %s is required", k->source_name);
}

static void push_hidden(DrChecker *c, DrExpr *e, DrExpr *x) {
  int cap = e->nhidden;
  DR_ARENA_PUSH(c->arena, e->hidden, e->nhidden, cap, x);
}

/* The captured values of a creation inside k's own body, once k is complete. */
static void finish_pending(DrChecker *c, DrClassSym *k) {
  DrChkClass *ck = chk_class(k);
  for (int i = 0; i < ck->npending; i++) {
    DrExpr *e = ck->pending[i];
    for (int j = 0; j < k->ncaptures; j++)
      push_hidden(c, e, chk_new_field_ref(c, new_expr(c, E_THIS, e->pos, k->type), k->captures[j], e->pos));
  }
}

void chk_new_hidden(DrChecker *c, DrExpr *e, DrClassSym *k) {
  DrExpr *q = e->target;
  e->target = NULL;
  e->op = 0;
  if (q && !chk_is_err(q->type) && !k->outer_this) {
    chk_error(c, e->pos, "qualified new of static class");
    return;
  }
  if (k->outer_this) {
    DrClassSym *outer = k->outer_this->type->cls;
    DrExpr *o = NULL;
    if (q) {
      o = q;
      if (chk_is_err(q->type)) return;
      e->op = 1; /* javac's Objects.requireNonNull: the emitter checks it */
    } else {
      o = chk_outer_ref(c, outer, e->pos);
      if (!o) {
        no_enclosing(c, e->pos, k, outer);
        return;
      }
    }
    push_hidden(c, e, o);
  }
  if (!k->is_local) return;
  DrChkClass *ck = chk_class(k);
  if (!ck->complete) {
    if (c->cur.cls != k) {
      chk_error(c, e->pos, "creating local class %s inside a class nested in it is not supported in DL",
                k->source_name);
      return;
    }
    int n = ck->npending;
    DR_ARENA_PUSH(c->arena, ck->pending, n, ck->pending_cap, e);
    ck->npending = n;
    return;
  }
  /* the uses inside k were recorded (and are where javac reports a local
   * that is not effectively final); here its value is only passed on */
  for (int i = 0; i < k->ncaptures; i++) push_hidden(c, e, chk_local_value(c, ck->captured[i], e->pos));
}

void chk_super_hidden(DrChecker *c, DrMethodSym *m, DrPos pos) {
  DrClassSym *s = m->owner->super;
  if (!s) return;
  DrExpr holder;
  memset(&holder, 0, sizeof holder);
  holder.pos = pos;
  if (s->is_local && !chk_class(s)->complete) {
    chk_error(c, pos, "a local class extending a class it is nested in is not supported in DL");
    return;
  }
  bool saved = c->cur.in_ctor_call;
  c->cur.in_ctor_call = false; /* the hidden fields are set before super(...) */
  chk_new_hidden(c, &holder, s);
  c->cur.in_ctor_call = saved;
  m->super_hidden = holder.hidden;
  m->nsuper_hidden = holder.nhidden;
}

/* ----------------------------------------------------- declaring them */

/* javac's name: the enclosing class's, $, the first free number, the
 * simple name (empty for an anonymous class). */
static const char *local_binary_name(DrChecker *c, DrClassSym *outer, const char *name) {
  for (int n = 1;; n++) {
    const char *b = dr_arena_printf(c->arena, "%s$%d%s", outer->binary_name, n, name);
    bool used = false;
    for (int i = 0; i < outer->nnested && !used; i++) used = strcmp(outer->nested[i]->binary_name, b) == 0;
    if (!used) return b;
  }
}

static bool pos_before(DrPos a, DrPos b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

/* k's binary name changed: its nested classes' follow. */
static void rename_nested(DrChecker *c, DrClassSym *k) {
  for (int i = 0; i < k->nnested; i++) {
    DrClassSym *n = k->nested[i];
    const char *tail = strrchr(n->binary_name, '$');
    if (!n->is_local) tail = dr_arena_printf(c->arena, "$%s", n->name);
    else if (chk_class(n)->is_fn) tail = strstr(n->binary_name, "$$Lambda$");
    else continue; /* numbered by chk_number_local_classes */
    n->binary_name = dr_arena_printf(c->arena, "%s%s", k->binary_name, tail);
    rename_nested(c, n);
  }
}

/* javac numbers local and anonymous classes in source order; the checker
 * meets them in its own order (constructors last), so the numbers are
 * given again by position once every body is checked. */
void chk_number_local_classes(DrChecker *c, DrClassSym *k) {
  for (int i = 0; i < k->nnested; i++) {
    DrClassSym *n = k->nested[i];
    if (!n->is_local || chk_class(n)->is_fn) continue;
    int num = 1;
    for (int j = 0; j < k->nnested; j++) {
      DrClassSym *o = k->nested[j];
      if (o != n && o->is_local && !chk_class(o)->is_fn && strcmp(o->decl->name, n->decl->name) == 0 &&
          pos_before(o->decl->pos, n->decl->pos))
        num++;
    }
    n->binary_name = dr_arena_printf(c->arena, "%s$%d%s", k->binary_name, num, n->decl->name);
    if (!n->decl->name[0]) n->source_name = dr_arena_printf(c->arena, "<anonymous %s>", n->binary_name);
  }
  rename_nested(c, k);
  for (int i = 0; i < k->nnested; i++) chk_number_local_classes(c, k->nested[i]);
}

static void complete(DrChecker *c, DrClassSym *k, DrMethodSym *anon_super) {
  chk_local_class_phases(c, k, anon_super);
  chk_class(k)->complete = true;
  finish_pending(c, k);
}

DrClassSym *chk_find_local_class(DrChecker *c, const char *name) {
  DrLocalSym *l = chk_find_local(c, dr_arena_printf(c->arena, "class %s", name));
  return l ? chk_local(l)->local_class : NULL;
}

void chk_local_class_stmt(DrChecker *c, DrStmt *s) {
  DrClassDecl *d = s->class_decl;
  if (!c->cur.cls || !d || !d->name) return;
  if (d->mods & (DR_MOD_SEALED | DR_MOD_NON_SEALED)) {
    chk_error(c, d->pos, "sealed or non-sealed local classes are not allowed");
    return;
  }
  if (d->mods & ~(unsigned)(DR_MOD_ABSTRACT | DR_MOD_FINAL | DR_MOD_STATIC)) {
    chk_error(c, d->pos, "modifier static not allowed here");
    return;
  }
  if (chk_find_local_class(c, d->name)) {
    chk_error(c, d->pos, "%s %s is already defined in %s",
              d->is_interface ? "interface" : d->is_enum ? "enum" : d->is_record ? "record" : "class", d->name,
              chk_method_where(c));
    return;
  }
  /* local interfaces, enums and records are static (JLS 14.3): no
   * enclosing instance, no captured locals */
  bool is_static = d->is_interface || d->is_enum || d->is_record;
  if ((d->mods & DR_MOD_STATIC) && !is_static) {
    chk_error(c, d->pos, "modifier static not allowed here");
    return;
  }
  bool was_static = c->cur.is_static;
  c->cur.is_static |= is_static;
  DrClassSym *k = chk_declare_local_class(c, d, local_binary_name(c, c->cur.cls, d->name));
  c->cur.is_static = was_static;
  if (is_static) chk_class(k)->static_local = true;
  /* its name is in scope from here to the end of the block, and in its
   * own body: a marker in the scope of locals */
  DrChkLocal *mark = dr_arena_alloc(c->arena, sizeof(DrChkLocal));
  mark->sym.name = dr_arena_printf(c->arena, "class %s", d->name);
  mark->sym.type = k->type;
  mark->sym.index = -1;
  mark->local_class = k;
  chk_scope_push(c, &mark->sym);
  chk_class(k)->scope_hi = c->nscope;
  complete(c, k, NULL);
}

DrType *chk_anon_class(DrChecker *c, DrExpr *e, DrType *t) {
  DrType *target = c->gen.target;
  c->gen.target = NULL;
  DrClassDecl *d = e->body;
  DrClassSym *base = t->cls;
  bool iface = chk_is_interface(base);
  if (base->flags & DR_CLS_SYM_FINAL) {
    chk_error(c, e->pos, "cannot inherit from final %s", base->source_name);
    return e->type = &c->T->t_error;
  }
  DrMethodSym *sc = NULL; /* the superclass constructor it passes its arguments to */
  bool found = false;
  if (iface) {
    if (e->nargs > 0) {
      chk_error(c, e->pos, "anonymous class implements interface; cannot have arguments");
      return e->type = &c->T->t_error;
    }
    sc = chk_resolve_call(c, e->pos, c->c_object, c->c_object->name, NULL, 0, true, &found);
    if (e->tref.diamond) t = chk_gen_anon_diamond(c, base, target);
  } else {
    c->gen.site = e->tref.diamond ? NULL : t;
    c->gen.call = e;
    sc = chk_resolve_call(c, e->pos, base, base->name, e->args, e->nargs, true, &found);
    c->gen.site = NULL;
    c->gen.call = NULL;
    if (!sc) {
      if (!found) chk_error(c, e->pos, "cannot find symbol '%s'", base->name);
      return e->type = &c->T->t_error;
    }
    if (e->tref.diamond) {
      e->type = NULL;
      c->gen.target = target;
      (void)chk_gen_instantiate(c, e, sc, NULL);
      if (e->type) t = chk_gen_fn_type(c, e->type);
    }
  }
  DrTypeRef *tr = dr_arena_alloc(c->arena, sizeof(DrTypeRef));
  tr->name = base->source_name;
  tr->pos = e->tref.pos;
  tr->resolved = t;
  if (iface) {
    d->implements = tr;
    d->nimplements = 1;
  } else {
    d->extends = tr;
  }
  DrClassSym *k = chk_declare_local_class(c, d, local_binary_name(c, c->cur.cls, ""));
  complete(c, k, sc);
  DrMethodSym *ctor = NULL;
  for (int i = 0; i < k->nmethods && !ctor; i++)
    if (k->methods[i]->is_ctor) ctor = k->methods[i];
  e->method = ctor;
  chk_convert_args(c, ctor, e->args, e->nargs);
  chk_new_hidden(c, e, k);
  e->type = k->type;
  return e->type;
}
