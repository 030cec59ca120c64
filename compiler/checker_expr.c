/* Expressions, part 1: names, field access, calls, object and array
 * creation, literals.  Operators live in checker_ops.c.  Every node gets
 * its type; names are rewritten into their resolved kinds (ast.h), and
 * constant expressions are folded into literals. */
#include <string.h>

#include "checker_generic.h"

static DrType *err(DrChecker *c, DrExpr *e) {
  e->type = &c->T->t_error;
  return e->type;
}

DrExpr *chk_new_this(DrChecker *c, DrPos pos) {
  DrExpr *t = dr_arena_alloc(c->arena, sizeof(DrExpr));
  t->kind = E_THIS;
  t->pos = pos;
  t->type = c->cur.cls ? c->cur.cls->type : &c->T->t_error;
  return t;
}

static void set_lit_const(DrExpr *e, DrTypeKind k) {
  e->is_const = true;
  memset(&e->cval, 0, sizeof e->cval);
  e->cval.kind = k;
  switch (k) {
  case TY_LONG: e->cval.j = e->lit.j; break;
  case TY_FLOAT:
  case TY_DOUBLE: e->cval.d = e->lit.d; break;
  case TY_CLASS:
    e->cval.s = e->lit.s;
    e->cval.slen = e->lit.slen;
    break;
  default: e->cval.i = e->lit.i; break;
  }
}

/* A final field of primitive or String type may be a constant variable;
 * its initializer is checked on demand (it may be declared later). */
static bool field_constant(DrChecker *c, DrFieldSym *f) {
  if (!(f->mods & DR_MOD_FINAL) || !(chk_is_prim(f->type) || chk_is_string(c, f->type))) return false;
  chk_field_initializer(c, f);
  return f->is_const;
}

static void report_access(DrChecker *c, DrPos pos, DrFieldSym *f) {
  const char *what = (f->mods & DR_MOD_PRIVATE) ? "private" : (f->mods & DR_MOD_PROTECTED) ? "protected" : NULL;
  if (what)
    chk_error(c, pos, "%s has %s access in %s", f->name, what, f->owner->source_name);
  else
    chk_error(c, pos, "%s is not public in %s; cannot be accessed from outside package", f->name,
              f->owner->source_name);
}

/* ---------------------------------------------------------------- names */

static DrType *name_as_field(DrChecker *c, DrExpr *e, DrFieldSym *f, DrClassSym *where, bool lvalue, bool simple) {
  if (!chk_accessible(c, f->owner, f->mods)) report_access(c, e->pos, f);
  bool is_static = (f->mods & DR_MOD_STATIC) != 0;
  /* illegal forward reference (JLS 8.3.3): a field of this class used by
   * simple name in an initializer that runs before its own */
  if (c->cur.in_init && f->owner == c->cur.cls && is_static == c->cur.is_static &&
      chk_field(f)->index >= c->cur.field_limit && !simple)
    chk_error(c, e->pos, "illegal forward reference");
  DrExpr *recv = NULL;
  if (!is_static) {
    recv = chk_outer_ref(c, where, e->pos);
    if (!recv) {
      chk_error(c, e->pos, "non-static variable %s cannot be referenced from a static context", f->name);
      return err(c, e);
    }
    if (c->cur.in_ctor_call && recv->kind == E_THIS) {
      chk_error(c, e->pos, "cannot reference %s before supertype constructor has been called", f->name);
      return err(c, e);
    }
  }
  if (!lvalue && field_constant(c, f)) {
    chk_set_const(c, e, f->type, f->cval);
    return e->type;
  }
  if (is_static) {
    e->kind = E_STATIC_FIELD;
    e->target = NULL;
  } else {
    e->kind = E_FIELD;
    e->target = recv;
  }
  e->field = f;
  e->type = f->type;
  if (recv && recv->type) {
    e->type = chk_gen_member_type(c, recv->type, f->owner, f->type, lvalue ? DR_GEN_WRITE : DR_GEN_READ);
    if (!lvalue) chk_gen_erased_result(c, e, f->type);
  }
  return e->type;
}

static DrType *check_name(DrChecker *c, DrExpr *e) {
  bool lvalue = c->want_lvalue, simple = c->simple_assign;
  c->want_lvalue = c->simple_assign = false;
  const char *name = e->name ? e->name : "?";
  DrLocalSym *l = chk_find_local(c, name);
  if (l) {
    DrChkLocal *cl = chk_local(l);
    if (cl->var_pending) {
      chk_error(c, l->pos, "cannot infer type for local variable %s (cannot use 'var' on self-referencing variable)",
                name);
      cl->var_pending = false;
      return err(c, e);
    }
    if (cl->is_const && !lvalue) {
      chk_set_const(c, e, l->type, cl->cval);
      return e->type;
    }
    if (cl->scope_idx < c->cur.capture_base) {
      /* a local of the code around a local class or lambda: the class's
       * own fields come first, then the captured local */
      DrClassSym *k = c->cur.cls;
      DrFieldSym *f = k && k->is_local && !c->cur.lambda && cl->scope_idx < chk_class(k)->scope_hi
                          ? chk_lookup_field(c, k, name) : NULL;
      if (f) return name_as_field(c, e, f, k, lvalue, simple);
      DrPos pos = e->pos;
      *e = *chk_capture(c, l, pos);
      if (lvalue) cl->not_ef = true;
      return e->type;
    }
    e->kind = E_LOCAL;
    e->local = l;
    e->type = l->type;
    return e->type;
  }
  for (DrClassSym *k = c->cur.cls; k; k = k->outer) {
    DrFieldSym *f = chk_lookup_field(c, k, name);
    if (f) return name_as_field(c, e, f, k, lvalue, simple);
  }
  DrClassSym *imported = chk_static_import(c, name, false);
  if (imported) return name_as_field(c, e, chk_lookup_field(c, imported, name), imported, lvalue, simple);
  bool is_pkg = false;
  DrClassSym *k = chk_find_class(c, name, &is_pkg);
  if (k || is_pkg) {
    e->kind = E_TYPE;
    e->type = k ? k->type : NULL;
    return e->type;
  }
  chk_error(c, e->pos, "cannot find symbol '%s'", name);
  return err(c, e);
}

/* super.x: the field as seen from the superclass; the receiver is this. */
static DrType *check_super_field(DrChecker *c, DrExpr *e, const char *name) {
  DrClassSym *k = c->cur.cls;
  if (!k || c->cur.is_static) {
    chk_error(c, e->pos, "non-static variable super cannot be referenced from a static context");
    return err(c, e);
  }
  if (c->cur.in_ctor_call) {
    chk_error(c, e->pos, "cannot reference super before supertype constructor has been called");
    return err(c, e);
  }
  DrFieldSym *f = k->super ? chk_lookup_field(c, k->super, name) : NULL;
  if (!f) {
    chk_error(c, e->pos, "cannot find symbol '%s'", name);
    return err(c, e);
  }
  if (!chk_accessible(c, f->owner, f->mods)) report_access(c, e->pos, f);
  e->field = f;
  e->type = f->type;
  e->is_super = false;
  if (f->mods & DR_MOD_STATIC) {
    e->kind = E_STATIC_FIELD;
    e->target = NULL;
  } else {
    e->kind = E_FIELD;
    e->target = chk_new_this(c, e->pos);
  }
  return e->type;
}

static DrType *check_field_access(DrChecker *c, DrExpr *e) {
  bool lvalue = c->want_lvalue;
  c->want_lvalue = c->simple_assign = false;
  const char *name = e->name ? e->name : "?";
  if (e->is_super || (e->target && e->target->kind == E_NAME && e->target->name &&
                      strcmp(e->target->name, "super") == 0))
    return check_super_field(c, e, name);
  if (!e->target) {
    chk_error(c, e->pos, "cannot find symbol '%s'", name);
    return err(c, e);
  }
  DrType *t = chk_expr_q(c, e->target);
  DrExpr *q = e->target;
  if (q->kind == E_TYPE && !q->type) { /* package */
    DrClassSym *k = chk_qualified_class(c, q->name, name);
    const char *full = dr_arena_printf(c->arena, "%s.%s", q->name, name);
    if (k && !chk_class_accessible(c, k)) chk_report_class_access(c, e->pos, k);
    if (k) {
      e->kind = E_TYPE;
      e->type = k->type;
      e->target = NULL;
      return e->type;
    }
    if (chk_is_package(c, full)) {
      e->kind = E_TYPE;
      e->type = NULL;
      e->name = full;
      e->target = NULL;
      return NULL;
    }
    chk_error(c, e->pos, "cannot find symbol '%s'", full);
    return err(c, e);
  }
  if (chk_is_err(t)) return err(c, e);
  if (q->kind == E_TYPE) {
    DrClassSym *k = t->cls;
    DrFieldSym *f = chk_lookup_field(c, k, name);
    if (f) {
      if (!chk_accessible(c, f->owner, f->mods)) report_access(c, e->pos, f);
      if (!(f->mods & DR_MOD_STATIC)) {
        chk_error(c, e->pos, "non-static variable %s cannot be referenced from a static context", name);
        return err(c, e);
      }
      if (!lvalue && field_constant(c, f)) {
        chk_set_const(c, e, f->type, f->cval);
        return e->type;
      }
      e->kind = E_STATIC_FIELD;
      e->target = NULL;
      e->field = f;
      e->type = f->type;
      return e->type;
    }
    DrClassSym *m = chk_member_class(c, k, name);
    if (m) {
      e->kind = E_TYPE;
      e->type = m->type;
      e->target = NULL;
      return e->type;
    }
    chk_error(c, e->pos, "cannot find symbol '%s'", name);
    return err(c, e);
  }
  if (t->kind == TY_VOID) {
    chk_error(c, e->pos, "void cannot be dereferenced");
    return err(c, e);
  }
  if (chk_is_prim(t) || t->kind == TY_NULL) {
    chk_error(c, e->pos, "%s cannot be dereferenced", chk_type_str(c, t));
    return err(c, e);
  }
  if (t->kind == TY_ARRAY) {
    if (strcmp(name, "length") == 0) {
      e->kind = E_ARRAY_LENGTH;
      e->type = &c->T->t_int;
      return e->type;
    }
    chk_error(c, e->pos, "cannot find symbol '%s'", name);
    return err(c, e);
  }
  DrFieldSym *f = chk_lookup_field(c, t->cls, name);
  if (!f) {
    chk_error(c, e->pos, "cannot find symbol '%s'", name);
    return err(c, e);
  }
  if (!chk_accessible(c, f->owner, f->mods)) report_access(c, e->pos, f);
  e->field = f;
  e->type = f->type;
  if (f->mods & DR_MOD_STATIC) {
    e->kind = E_STATIC_FIELD; /* the qualifier is not evaluated */
    e->target = NULL;
  } else {
    e->kind = E_FIELD;
    e->type = chk_gen_member_type(c, t, f->owner, f->type, lvalue ? DR_GEN_WRITE : DR_GEN_READ);
    if (!lvalue) chk_gen_erased_result(c, e, f->type);
  }
  return e->type;
}

/* ---------------------------------------------------------------- calls */

void chk_args(DrChecker *c, DrExpr **args, int nargs) {
  for (int i = 0; i < nargs; i++)
    if (args[i] && chk_is_poly(args[i])) {
      /* typed by the parameter of the method chosen (chk_convert_args) */
      args[i]->type = &c->T->t_null;
    } else if (args[i]) {
      DrType *t = chk_expr(c, args[i]);
      if (t && t->kind == TY_VOID) {
        chk_error(c, args[i]->pos, "'void' type not allowed here");
        args[i]->type = &c->T->t_error;
      }
    }
}

void chk_convert_args(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs) {
  if (!m || m->nparams != nargs) return;
  for (int i = 0; i < nargs; i++) {
    if (!args[i]) continue;
    if (chk_is_poly(args[i])) chk_poly(c, args[i], m->params[i]);
    else chk_coerce(c, args[i], m->params[i]);
  }
}

void chk_call_args(DrChecker *c, DrMethodSym *m, DrExpr ***args, int *nargs, DrPos pos) {
  if (chk_needs_packing(c, m, *args, *nargs)) {
    int fixed = m->nparams - 1;
    DrType *at = m->params[fixed];
    DrExpr *init = dr_arena_alloc(c->arena, sizeof *init);
    init->kind = E_ARRAY_INIT;
    init->pos = pos;
    init->type = at;
    init->nargs = *nargs - fixed;
    init->args = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(init->nargs + 1));
    for (int i = 0; i < init->nargs; i++) {
      init->args[i] = (*args)[fixed + i];
      if (chk_is_poly(init->args[i])) chk_poly(c, init->args[i], at->elem);
      else chk_coerce(c, init->args[i], at->elem);
    }
    DrExpr *arr = dr_arena_alloc(c->arena, sizeof *arr);
    arr->kind = E_NEW_ARRAY;
    arr->pos = init->nargs ? init->args[0]->pos : pos;
    arr->type = at;
    arr->tref.resolved = at;
    arr->tref.dims = 1;
    arr->init = init;
    DrExpr **packed = dr_arena_alloc(c->arena, sizeof(DrExpr *) * (size_t)(fixed + 1));
    for (int i = 0; i < fixed; i++) packed[i] = (*args)[i];
    packed[fixed] = arr;
    *args = packed;
    *nargs = fixed + 1;
  }
  chk_convert_args(c, m, *args, *nargs);
}

static bool any_error(DrExpr **args, int nargs) {
  for (int i = 0; i < nargs; i++)
    if (!args[i] || chk_is_err(args[i]->type)) return true;
  return false;
}

/* x.getClass() is a Class<? extends |T|> for x of static type T (JLS
 * 4.3.2), not Object.getClass()'s declared Class<?>. */
static void get_class_type(DrChecker *c, DrExpr *e, DrMethodSym *m) {
  if (m->nparams || m->owner != c->c_object || strcmp(m->name, "getClass") != 0 || !e->type ||
      e->type->kind != TY_CLASS || chk_gen_ntparams(e->type->cls) != 1)
    return;
  DrType *recv = e->target && e->target->type ? e->target->type : c->cur.cls ? c->cur.cls->type : NULL;
  if (!recv || !chk_is_ref(recv) || recv->kind == TY_NULL) return;
  DrType *bound = chk_gen_erasure(c, recv);
  DrType *w = chk_gen_wildcard(c, DR_WILD_EXTENDS, bound);
  e->type = chk_gen_param_type(c, e->type->cls, &w, 1);
}

static DrType *finish_call(DrChecker *c, DrExpr *e, DrMethodSym *m, DrType *site) {
  e->method = m;
  c->gen.site = NULL;
  c->gen.call = NULL;
  DrMethodSym *view = chk_gen_instantiate(c, e, m, site);
  chk_call_args(c, view, &e->args, &e->nargs, e->pos);
  if (m->mods & DR_MOD_STATIC) {
    e->call_kind = DR_CALL_STATIC;
    e->target = NULL; /* a qualifier of a static call is not evaluated */
  } else if (e->is_super || (m->mods & DR_MOD_PRIVATE)) {
    e->call_kind = DR_CALL_SPECIAL;
  } else if (chk_is_interface(m->owner)) {
    e->call_kind = DR_CALL_INTERFACE;
  } else {
    e->call_kind = DR_CALL_VIRTUAL;
  }
  e->type = view->ret;
  chk_gen_erased_result(c, e, m->ret);
  get_class_type(c, e, m);
  return e->type;
}

static DrType *no_method(DrChecker *c, DrExpr *e, bool found) {
  if (!found && !any_error(e->args, e->nargs)) chk_error(c, e->pos, "cannot find symbol '%s'", e->name);
  return err(c, e);
}

/* I in I.super.m(): a direct superinterface of the current class (JLS
 * 15.12.1); an enclosing class's super is not part of DL. */
static DrClassSym *super_interface(DrChecker *c, DrExpr *e) {
  DrType *t = chk_expr_q(c, e->super_of);
  if (chk_is_err(t)) return NULL;
  DrClassSym *k = c->cur.cls;
  if (e->super_of->kind != E_TYPE || !t || t->kind != TY_CLASS) {
    chk_error(c, e->super_of->pos, "cannot find symbol '%s'", e->super_of->name ? e->super_of->name : "?");
    return NULL;
  }
  for (int i = 0; i < k->ninterfaces; i++)
    if (k->interfaces[i] == t->cls) return t->cls;
  if (!chk_is_interface(t->cls)) {
    chk_error(c, e->pos, "qualified super of an enclosing class is not supported in DL");
    return NULL;
  }
  chk_error(c, e->super_of->pos, "not an enclosing class: %s", t->cls->source_name);
  return NULL;
}

static DrType *check_call(DrChecker *c, DrExpr *e) {
  DrType *target = c->gen.target;
  c->gen.target = NULL;
  const char *name = e->name ? e->name : "?";
  e->name = name;
  bool found = false;
  if (e->method) { /* made resolved by the compiler: a lambda's forwarder */
    chk_args(c, e->args, e->nargs);
    if (e->target) chk_expr(c, e->target);
    return finish_call(c, e, e->method, NULL);
  }
  if (e->is_super) {
    chk_args(c, e->args, e->nargs);
    DrClassSym *k = c->cur.cls;
    if (!k || c->cur.is_static) {
      chk_error(c, e->pos, "non-static variable super cannot be referenced from a static context");
      return err(c, e);
    }
    if (c->cur.in_ctor_call) {
      chk_error(c, e->pos, "cannot reference super before supertype constructor has been called");
      return err(c, e);
    }
    DrClassSym *s = e->super_of ? super_interface(c, e) : chk_is_interface(k) ? c->c_object : k->super;
    if (!s) return err(c, e);
    c->gen.site = k->type;
    c->gen.call = e;
    DrMethodSym *m = chk_resolve_call(c, e->pos, s, name, e->args, e->nargs, false, &found);
    c->gen.site = NULL;
    c->gen.call = NULL;
    if (!m) return no_method(c, e, found);
    if (m->mods & DR_MOD_ABSTRACT)
      chk_error(c, e->pos, "abstract method %s in %s cannot be accessed directly", chk_method_sig(c, m),
                m->owner->source_name);
    e->target = chk_new_this(c, e->pos);
    c->gen.target = target;
    return finish_call(c, e, m, k->type);
  }
  DrClassSym *imported = NULL;
  if (!e->target) {
    DrClassSym *k = c->cur.cls;
    while (k && !chk_has_method_named(c, k, name)) k = k->outer;
    if (!k && (imported = chk_static_import(c, name, true))) {
      /* a statically imported method: as if called as Class.name(...) */
      DrExpr *q = dr_arena_alloc(c->arena, sizeof(DrExpr));
      q->kind = E_TYPE;
      q->pos = e->pos;
      q->type = imported->type;
      q->name = imported->name;
      e->target = q;
    }
  }
  if (!e->target) {
    chk_args(c, e->args, e->nargs);
    DrClassSym *k = c->cur.cls;
    while (k && !chk_has_method_named(c, k, name)) k = k->outer;
    if (!k) return no_method(c, e, false);
    c->gen.site = k->type;
    c->gen.call = e;
    DrMethodSym *m = chk_resolve_call(c, e->pos, k, name, e->args, e->nargs, false, &found);
    c->gen.site = NULL;
    c->gen.call = NULL;
    if (!m) return no_method(c, e, found);
    if (!(m->mods & DR_MOD_STATIC)) {
      DrExpr *recv = chk_outer_ref(c, k, e->pos);
      if (!recv) {
        chk_error(c, e->pos, "non-static method %s cannot be referenced from a static context", chk_method_sig(c, m));
        return err(c, e);
      }
      if (c->cur.in_ctor_call && recv->kind == E_THIS) {
        chk_error(c, e->pos, "cannot reference this before supertype constructor has been called");
        return err(c, e);
      }
      e->target = recv;
    }
    c->gen.target = target;
    return finish_call(c, e, m, k->type);
  }
  DrType *t = chk_expr_q(c, e->target);
  DrExpr *q = e->target;
  chk_args(c, e->args, e->nargs);
  if (q->kind == E_TYPE && !q->type) {
    chk_error(c, q->pos, "cannot find symbol '%s'", q->name);
    return err(c, e);
  }
  if (chk_is_err(t)) return err(c, e);
  if (t->kind == TY_VOID) {
    chk_error(c, e->pos, "void cannot be dereferenced");
    return err(c, e);
  }
  if (chk_is_prim(t) || t->kind == TY_NULL) {
    chk_error(c, e->pos, "%s cannot be dereferenced", chk_type_str(c, t));
    return err(c, e);
  }
  DrClassSym *k = t->kind == TY_ARRAY ? c->c_object : t->cls;
  DrType *site = t->kind == TY_ARRAY || q->kind == E_TYPE ? NULL : t;
  if (t->kind == TY_CLASS && t->tvar && !chk_has_method_named(c, k, name)) /* T extends A & B: B's methods */
    for (int i = 1; i < t->tvar->nbounds; i++)
      if (chk_has_method_named(c, t->tvar->bounds[i]->cls, name)) {
        site = t->tvar->bounds[i];
        k = site->cls;
        break;
      }
  c->gen.site = site;
  c->gen.call = e;
  DrMethodSym *m = chk_resolve_call(c, e->pos, k, name, e->args, e->nargs, false, &found);
  c->gen.site = NULL;
  c->gen.call = NULL;
  if (!m) return no_method(c, e, found);
  if (q->kind == E_TYPE && !(m->mods & DR_MOD_STATIC)) {
    chk_error(c, e->pos, "non-static method %s cannot be referenced from a static context", chk_method_sig(c, m));
    return err(c, e);
  }
  c->gen.target = target;
  return finish_call(c, e, m, site);
}

/* ----------------------------------------------------- object creation */

/* The class `outer.new Inner()` names: a member class of outer's type. */
static DrType *qualified_new_type(DrChecker *c, DrExpr *e) {
  DrType *qt = chk_value(c, e->target);
  if (chk_is_err(qt)) return qt;
  if (qt->kind != TY_CLASS) {
    chk_error(c, e->target->pos, "%s cannot be dereferenced", chk_type_str(c, qt));
    return &c->T->t_error;
  }
  DrClassSym *k = e->tref.name && !strchr(e->tref.name, '.') ? chk_member_class(c, qt->cls, e->tref.name) : NULL;
  if (!k) {
    chk_error(c, e->tref.pos, "cannot find symbol '%s'", e->tref.name ? e->tref.name : "?");
    return &c->T->t_error;
  }
  return e->tref.resolved = k->type;
}

static DrType *check_new(DrChecker *c, DrExpr *e) {
  DrType *target = c->gen.target;
  c->gen.target = NULL;
  DrType *t = e->target ? qualified_new_type(c, e) : chk_resolve_tref(c, &e->tref);
  if (!chk_is_err(t) && t->kind == TY_CLASS && (t->tvar || (e->tref.has_args && !e->tref.diamond && !e->tref.nargs))) {
    chk_error(c, e->tref.pos, "unexpected type; required: class, found: type parameter %s", chk_type_str(c, t));
    t = &c->T->t_error;
  }
  for (int i = 0; t->kind == TY_CLASS && t->targs && i < t->ntargs; i++)
    if (t->targs[i]->wild) {
      chk_error(c, e->tref.pos, "unexpected type; required: class or interface without bounds, found: %s",
                chk_type_str(c, t->targs[i]));
      t = &c->T->t_error;
      break;
    }
  chk_args(c, e->args, e->nargs);
  if (chk_is_err(t)) return err(c, e);
  if (t->kind != TY_CLASS) {
    chk_error(c, e->pos, "unexpected type; required: class, found: %s", chk_type_str(c, t));
    return err(c, e);
  }
  DrClassSym *k = t->cls;
  if (k->decl && k->decl->is_enum && !e->synthetic) {
    chk_error(c, e->pos, "enum types may not be instantiated");
    return err(c, e);
  }
  if (e->body) {
    if (e->target) {
      chk_error(c, e->pos, "qualified anonymous classes are not supported in DL");
      return err(c, e);
    }
    c->gen.target = target;
    return chk_anon_class(c, e, t);
  }
  if (k->flags & DR_CLS_SYM_ABSTRACT) {
    chk_error(c, e->pos, "%s is abstract; cannot be instantiated", k->source_name);
    return err(c, e);
  }
  bool found = false;
  DrType *site = e->tref.diamond ? NULL : t;
  c->gen.site = site;
  c->gen.call = e;
  DrMethodSym *m = chk_resolve_call(c, e->pos, k, k->name, e->args, e->nargs, true, &found);
  c->gen.site = NULL;
  c->gen.call = NULL;
  if (!m) {
    if (!found && !any_error(e->args, e->nargs)) chk_error(c, e->pos, "cannot find symbol '%s'", k->name);
    return err(c, e);
  }
  e->method = m;
  e->type = NULL;
  c->gen.target = target;
  DrMethodSym *view = chk_gen_instantiate(c, e, m, site);
  if (e->tref.diamond && e->type) t = e->type;
  chk_call_args(c, view, &e->args, &e->nargs, e->pos);
  chk_new_hidden(c, e, k);
  e->type = t;
  return t;
}

/* An index or dimension: unary promotion, and it must end up an int. */
static void check_int_operand(DrChecker *c, DrExpr *x) {
  DrType *t = chk_value(c, x);
  if (chk_is_err(t)) return;
  DrType *u = chk_unboxed_type(c, t);
  if (u && chk_is_integral(u) && u->kind != TY_LONG) t = chk_unbox_operand(c, x);
  DrType *p = chk_unary_promote(c, t);
  if (p && p->kind == TY_INT) {
    chk_coerce(c, x, p);
    return;
  }
  if (t->kind == TY_LONG || t->kind == TY_DOUBLE || t->kind == TY_FLOAT)
    chk_error(c, x->pos, "incompatible types: possible lossy conversion from %s to int", chk_type_str(c, t));
  else
    chk_error(c, x->pos, "incompatible types: %s cannot be converted to int", chk_type_str(c, t));
}

static void check_array_init(DrChecker *c, DrExpr *e, DrType *t) {
  if (chk_is_err(t)) {
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && e->args[i]->kind != E_ARRAY_INIT) chk_expr(c, e->args[i]);
    e->type = t;
    return;
  }
  if (t->kind != TY_ARRAY) {
    chk_error(c, e->pos, "illegal initializer for %s", chk_type_str(c, t));
    err(c, e);
    return;
  }
  e->type = t;
  for (int i = 0; i < e->nargs; i++) {
    DrExpr *x = e->args[i];
    if (!x) continue;
    chk_init_expr(c, x, t->elem);
  }
}

/* An initializer of a variable of type t: an expression converted by
 * assignment conversion, or an array initializer {...}. */
void chk_init_expr(DrChecker *c, DrExpr *e, DrType *t) {
  if (!e) return;
  if (e->kind == E_ARRAY_INIT) {
    check_array_init(c, e, t);
    return;
  }
  if (chk_is_poly(e)) {
    chk_poly(c, e, t);
    return;
  }
  c->gen.target = t; /* a generic call or new C<>() infers from it */
  chk_expr(c, e);
  c->gen.target = NULL;
  chk_assign_to(c, e, t);
}

static DrType *check_new_array(DrChecker *c, DrExpr *e) {
  DrType *t = chk_resolve_tref(c, &e->tref);
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i]) check_int_operand(c, e->args[i]);
  if (chk_is_err(t)) {
    if (e->init) check_array_init(c, e->init, t);
    return err(c, e);
  }
  if (t->kind != TY_ARRAY) {
    chk_error(c, e->pos, "array type expected");
    return err(c, e);
  }
  if (!chk_gen_check_array_elem(c, e, t)) return err(c, e);
  if (e->init) check_array_init(c, e->init, t);
  e->type = t;
  return t;
}

/* ------------------------------------------------------------- dispatch */

static DrType *check_index(DrChecker *c, DrExpr *e) {
  DrType *t = e->target ? chk_value(c, e->target) : &c->T->t_error;
  if (e->rhs) check_int_operand(c, e->rhs);
  if (chk_is_err(t)) return err(c, e);
  if (t->kind != TY_ARRAY) {
    chk_error(c, e->pos, "array required, but %s found", chk_type_str(c, t));
    return err(c, e);
  }
  e->type = t->elem;
  return e->type;
}

static DrType *check_this(DrChecker *c, DrExpr *e) {
  if (e->target) return chk_qualified_this(c, e);
  if (!c->cur.cls || c->cur.is_static) {
    chk_error(c, e->pos, "non-static variable this cannot be referenced from a static context");
    return err(c, e);
  }
  if (c->cur.in_ctor_call) {
    chk_error(c, e->pos, "cannot reference this before supertype constructor has been called");
    return err(c, e);
  }
  e->type = c->cur.cls->type;
  return e->type;
}

/* C.class, C[].class (JLS 15.8.2): the class's Class object, which
 * drvm has for classes and arrays, not for primitive types. */
static DrType *check_class_lit(DrChecker *c, DrExpr *e) {
  DrType *t = chk_resolve_tref(c, &e->tref);
  if (chk_is_err(t)) return err(c, e);
  if (chk_is_prim(t) || t->kind == TY_VOID) {
    chk_error(c, e->pos, "class literals of primitive types (%s.class) are not supported in DL", chk_type_str(c, t));
    return err(c, e);
  }
  if (t->kind == TY_CLASS && t->tvar) { /* T.class: T is erased */
    chk_error(c, e->pos, "cannot select from a type variable");
    return err(c, e);
  }
  DrClassSym *k = chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, "Class");
  if (!k) return err(c, e);
  /* C.class is a Class<C> (of C's raw type when C is generic) */
  DrType *arg = t->kind == TY_CLASS && chk_gen_ntparams(t->cls) ? chk_gen_raw(c, t->cls) : t;
  e->type = chk_gen_ntparams(k) == 1 ? chk_gen_param_type(c, k, &arg, 1) : k->type;
  return e->type;
}

/* Checks e where a type or package name is also acceptable (a qualifier). */
DrType *chk_expr_q(DrChecker *c, DrExpr *e) {
  if (!e) return &c->T->t_error;
  if (e->kind != E_CALL && e->kind != E_NEW) c->gen.target = NULL;
  if (e->type || e->kind == E_TYPE) return e->type;
  switch (e->kind) {
  case E_INT_LIT: e->type = &c->T->t_int; set_lit_const(e, TY_INT); return e->type;
  case E_LONG_LIT: e->type = &c->T->t_long; set_lit_const(e, TY_LONG); return e->type;
  case E_DOUBLE_LIT: e->type = &c->T->t_double; set_lit_const(e, TY_DOUBLE); return e->type;
  case E_FLOAT_LIT: e->type = &c->T->t_float; set_lit_const(e, TY_FLOAT); return e->type;
  case E_CHAR_LIT: e->type = &c->T->t_char; set_lit_const(e, TY_CHAR); return e->type;
  case E_BOOL_LIT: e->type = &c->T->t_boolean; set_lit_const(e, TY_BOOLEAN); return e->type;
  case E_STRING_LIT: e->type = c->t_string; set_lit_const(e, TY_CLASS); return e->type;
  case E_NULL_LIT: e->type = &c->T->t_null; return e->type;
  case E_NAME: return check_name(c, e);
  case E_FIELD_ACCESS: return check_field_access(c, e);
  case E_THIS: return check_this(c, e);
  case E_INDEX: return check_index(c, e);
  case E_CALL: return check_call(c, e);
  case E_NEW: return check_new(c, e);
  case E_NEW_ARRAY: return check_new_array(c, e);
  case E_ARRAY_INIT:
    chk_error(c, e->pos, "array initializer not allowed here");
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && e->args[i]->kind != E_ARRAY_INIT) chk_expr(c, e->args[i]);
    return err(c, e);
  case E_UNARY: return chk_unary(c, e);
  case E_PREINC:
  case E_PREDEC:
  case E_POSTINC:
  case E_POSTDEC: return chk_incdec(c, e);
  case E_BINARY: return chk_binary(c, e);
  case E_ASSIGN: return chk_assign(c, e);
  case E_COND: return chk_cond_op(c, e);
  case E_CAST: return chk_cast(c, e);
  case E_INSTANCEOF: return chk_instanceof(c, e);
  case E_LAMBDA:
  case E_METHOD_REF:
    chk_error(c, e->pos, "%s not expected here", e->kind == E_LAMBDA ? "lambda expression" : "method reference");
    return err(c, e);
  case E_SWITCH: return chk_switch_expr(c, e);
  case E_CLASS_LIT: return check_class_lit(c, e);
  case E_LOCAL:
  case E_FIELD:
  case E_STATIC_FIELD:
  case E_ARRAY_LENGTH:
  case E_CONVERT:
  case E_TYPE: return e->type ? e->type : err(c, e);
  }
  return err(c, e);
}

/* A value or a void method call; a type name here is an unknown variable. */
DrType *chk_expr(DrChecker *c, DrExpr *e) {
  if (!e) return &c->T->t_error;
  DrType *t = chk_expr_q(c, e);
  if (e->kind == E_TYPE) {
    const char *n = e->type ? e->type->cls->name : e->name;
    chk_error(c, e->pos, "cannot find symbol '%s'", n ? n : "?");
    e->kind = E_NULL_LIT; /* keeps later passes away from a type node */
    return err(c, e);
  }
  return t ? t : err(c, e);
}

DrType *chk_value(DrChecker *c, DrExpr *e) {
  DrType *t = chk_expr(c, e);
  if (t->kind == TY_VOID) {
    chk_error(c, e->pos, "'void' type not allowed here");
    return err(c, e);
  }
  return t;
}

void chk_condition(DrChecker *c, DrExpr *e) {
  if (!e) return;
  DrType *t = chk_value(c, e);
  DrType *u = chk_unboxed_type(c, t);
  if (u && u->kind == TY_BOOLEAN) t = chk_unbox_operand(c, e); /* Boolean: unboxed */
  if (!chk_is_err(t) && t->kind != TY_BOOLEAN)
    chk_error(c, e->pos, "incompatible types: %s cannot be converted to boolean", chk_type_str(c, t));
}
