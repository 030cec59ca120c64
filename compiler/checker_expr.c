/* Expressions, part 1: names, field access, calls, object and array
 * creation, literals.  Operators live in checker_ops.c.  Every node gets
 * its type; names are rewritten into their resolved kinds (ast.h), and
 * constant expressions are folded into literals. */
#include <string.h>

#include "checker_internal.h"

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
  if (!is_static) {
    if (where != c->cur.cls || c->cur.is_static) {
      chk_error(c, e->pos, "non-static variable %s cannot be referenced from a static context", f->name);
      return err(c, e);
    }
    if (c->cur.in_ctor_call) {
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
    e->target = chk_new_this(c, e->pos);
  }
  e->field = f;
  e->type = f->type;
  return e->type;
}

static DrType *check_name(DrChecker *c, DrExpr *e) {
  bool lvalue = c->want_lvalue, simple = c->simple_assign;
  c->want_lvalue = c->simple_assign = false;
  const char *name = e->name ? e->name : "?";
  DrLocalSym *l = chk_find_local(c, name);
  if (l) {
    DrChkLocal *cl = chk_local(l);
    if (cl->is_const && !lvalue) {
      chk_set_const(c, e, l->type, cl->cval);
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
  }
  return e->type;
}

/* ---------------------------------------------------------------- calls */

void chk_args(DrChecker *c, DrExpr **args, int nargs) {
  for (int i = 0; i < nargs; i++)
    if (args[i]) {
      DrType *t = chk_expr(c, args[i]);
      if (t && t->kind == TY_VOID) {
        chk_error(c, args[i]->pos, "'void' type not allowed here");
        args[i]->type = &c->T->t_error;
      }
    }
}

void chk_convert_args(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs) {
  if (!m || m->nparams != nargs) return;
  for (int i = 0; i < nargs; i++)
    if (args[i]) chk_coerce(c, args[i], m->params[i]);
}

static bool any_error(DrExpr **args, int nargs) {
  for (int i = 0; i < nargs; i++)
    if (!args[i] || chk_is_err(args[i]->type)) return true;
  return false;
}

static DrType *finish_call(DrChecker *c, DrExpr *e, DrMethodSym *m) {
  e->method = m;
  chk_convert_args(c, m, e->args, e->nargs);
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
  e->type = m->ret;
  return e->type;
}

static DrType *no_method(DrChecker *c, DrExpr *e, bool found) {
  if (!found && !any_error(e->args, e->nargs)) chk_error(c, e->pos, "cannot find symbol '%s'", e->name);
  return err(c, e);
}

static DrType *check_call(DrChecker *c, DrExpr *e) {
  const char *name = e->name ? e->name : "?";
  e->name = name;
  bool found = false;
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
    DrClassSym *s = chk_is_interface(k) ? c->c_object : k->super;
    DrMethodSym *m = chk_resolve_call(c, e->pos, s, name, e->args, e->nargs, false, &found);
    if (!m) return no_method(c, e, found);
    if (m->mods & DR_MOD_ABSTRACT)
      chk_error(c, e->pos, "abstract method %s in %s cannot be accessed directly", chk_method_sig(c, m),
                m->owner->source_name);
    e->target = chk_new_this(c, e->pos);
    return finish_call(c, e, m);
  }
  if (!e->target) {
    chk_args(c, e->args, e->nargs);
    DrClassSym *k = c->cur.cls;
    while (k && !chk_has_method_named(c, k, name)) k = k->outer;
    if (!k) return no_method(c, e, false);
    DrMethodSym *m = chk_resolve_call(c, e->pos, k, name, e->args, e->nargs, false, &found);
    if (!m) return no_method(c, e, found);
    if (!(m->mods & DR_MOD_STATIC)) {
      if (k != c->cur.cls || c->cur.is_static) {
        chk_error(c, e->pos, "non-static method %s cannot be referenced from a static context", chk_method_sig(c, m));
        return err(c, e);
      }
      if (c->cur.in_ctor_call) {
        chk_error(c, e->pos, "cannot reference this before supertype constructor has been called");
        return err(c, e);
      }
      e->target = chk_new_this(c, e->pos);
    }
    return finish_call(c, e, m);
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
  DrMethodSym *m = chk_resolve_call(c, e->pos, k, name, e->args, e->nargs, false, &found);
  if (!m) return no_method(c, e, found);
  if (q->kind == E_TYPE && !(m->mods & DR_MOD_STATIC)) {
    chk_error(c, e->pos, "non-static method %s cannot be referenced from a static context", chk_method_sig(c, m));
    return err(c, e);
  }
  return finish_call(c, e, m);
}

/* ----------------------------------------------------- object creation */

static DrType *check_new(DrChecker *c, DrExpr *e) {
  DrType *t = chk_resolve_tref(c, &e->tref);
  chk_args(c, e->args, e->nargs);
  if (chk_is_err(t)) return err(c, e);
  if (t->kind != TY_CLASS) {
    chk_error(c, e->pos, "unexpected type; required: class, found: %s", chk_type_str(c, t));
    return err(c, e);
  }
  DrClassSym *k = t->cls;
  if (k->flags & DR_CLS_SYM_ABSTRACT) {
    chk_error(c, e->pos, "%s is abstract; cannot be instantiated", k->source_name);
    return err(c, e);
  }
  bool found = false;
  DrMethodSym *m = chk_resolve_call(c, e->pos, k, k->name, e->args, e->nargs, true, &found);
  if (!m) {
    if (!found && !any_error(e->args, e->nargs)) chk_error(c, e->pos, "cannot find symbol '%s'", k->name);
    return err(c, e);
  }
  e->method = m;
  chk_convert_args(c, m, e->args, e->nargs);
  e->type = t;
  return t;
}

/* An index or dimension: unary promotion, and it must end up an int. */
static void check_int_operand(DrChecker *c, DrExpr *x) {
  DrType *t = chk_value(c, x);
  if (chk_is_err(t)) return;
  DrType *p = chk_unary_promote(c, t);
  if (p && p->kind == TY_INT) {
    chk_coerce(c, x, p);
    return;
  }
  if (t->kind == TY_LONG || t->kind == TY_DOUBLE)
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
  chk_expr(c, e);
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
  DrClassSym *k = chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, "Class");
  if (!k) return err(c, e);
  e->type = k->type;
  return e->type;
}

/* Checks e where a type or package name is also acceptable (a qualifier). */
DrType *chk_expr_q(DrChecker *c, DrExpr *e) {
  if (!e) return &c->T->t_error;
  if (e->type || e->kind == E_TYPE) return e->type;
  switch (e->kind) {
  case E_INT_LIT: e->type = &c->T->t_int; set_lit_const(e, TY_INT); return e->type;
  case E_LONG_LIT: e->type = &c->T->t_long; set_lit_const(e, TY_LONG); return e->type;
  case E_DOUBLE_LIT: e->type = &c->T->t_double; set_lit_const(e, TY_DOUBLE); return e->type;
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
  if (!chk_is_err(t) && t->kind != TY_BOOLEAN)
    chk_error(c, e->pos, "incompatible types: %s cannot be converted to boolean", chk_type_str(c, t));
}
