/* Expressions, part 2: operators (JLS 15.14-15.26), casts and instanceof,
 * with numeric promotion made explicit through E_CONVERT nodes and
 * constant folding of the operators JLS 15.29 admits. */
#include <string.h>

#include "checker_generic.h"

static DrType *err(DrChecker *c, DrExpr *e) {
  e->type = &c->T->t_error;
  return e->type;
}

static const char *binop_str(int op) {
  switch (op) {
  case DR_BIN_ADD: return "+";
  case DR_BIN_SUB: return "-";
  case DR_BIN_MUL: return "*";
  case DR_BIN_DIV: return "/";
  case DR_BIN_REM: return "%";
  case DR_BIN_SHL: return "<<";
  case DR_BIN_SHR: return ">>";
  case DR_BIN_USHR: return ">>>";
  case DR_BIN_LT: return "<";
  case DR_BIN_GT: return ">";
  case DR_BIN_LE: return "<=";
  case DR_BIN_GE: return ">=";
  case DR_BIN_EQ: return "==";
  case DR_BIN_NE: return "!=";
  case DR_BIN_AND: return "&";
  case DR_BIN_OR: return "|";
  case DR_BIN_XOR: return "^";
  case DR_BIN_LAND: return "&&";
  case DR_BIN_LOR: return "||";
  default: return "?";
  }
}

static DrType *bad_operands(DrChecker *c, DrExpr *e, int op, DrType *a, DrType *b) {
  chk_error(c, e->pos, "bad operand types for binary operator '%s'; first type: %s; second type: %s", binop_str(op),
            chk_type_str(c, a), chk_type_str(c, b));
  return err(c, e);
}

/* -------------------------------------------------------------- unary */

DrType *chk_unary(DrChecker *c, DrExpr *e) {
  DrType *t = chk_value(c, e->target);
  if (chk_is_err(t)) return err(c, e);
  DrType *u = chk_unboxed_type(c, t); /* a box's value (JLS 5.6) */
  if (!u) u = t;
  int op = e->op;
  DrType *rt = NULL;
  if (op == '!') {
    if (u->kind == TY_BOOLEAN) rt = u;
  } else if (op == '~') {
    if (chk_is_integral(u)) rt = chk_unary_promote(c, u);
  } else if (chk_is_numeric(u)) {
    rt = chk_unary_promote(c, u);
  }
  if (!rt) {
    chk_error(c, e->pos, "bad operand type %s for unary operator '%c'", chk_type_str(c, t), op);
    return err(c, e);
  }
  chk_unbox_operand(c, e->target);
  chk_coerce(c, e->target, rt);
  e->type = rt;
  DrConst v;
  if (e->target->is_const && chk_fold_unary(c, op, e->target->cval, rt, &v)) chk_set_const(c, e, rt, v);
  return e->type;
}

/* Whether target is a variable that may be assigned here; reports why not. */
bool chk_check_lvalue(DrChecker *c, DrExpr *t, bool compound) {
  (void)compound;
  if (!t || chk_is_err(t->type)) return false;
  switch (t->kind) {
  case E_LOCAL: {
    DrLocalSym *l = t->local;
    DrChkLocal *cl = chk_local(l);
    if (!l->is_final || cl->blank_final) return true; /* blank finals: flow analysis */
    if (cl->is_param)
      chk_error(c, t->pos, "final parameter %s may not be assigned", l->name);
    else if (cl->is_resource)
      chk_error(c, t->pos, "auto-closeable resource %s may not be assigned", l->name);
    else
      chk_error(c, t->pos, "cannot assign a value to final variable %s", l->name);
    return false;
  }
  case E_FIELD:
  case E_STATIC_FIELD: {
    DrFieldSym *f = t->field;
    if (!(f->mods & DR_MOD_FINAL)) return true;
    bool is_static = (f->mods & DR_MOD_STATIC) != 0;
    bool blank = !f->decl || !f->decl->init;
    bool ok = false;
    if (blank && c->cur.cls == f->owner) {
      if (is_static)
        ok = c->cur.in_init && c->cur.is_static;
      else
        ok = (c->cur.in_ctor || (c->cur.in_init && !c->cur.is_static)) && t->target && t->target->kind == E_THIS;
    }
    if (!ok) chk_error(c, t->pos, "cannot assign a value to final variable %s", f->name);
    return ok;
  }
  case E_ARRAY_LENGTH:
    chk_error(c, t->pos, "cannot assign a value to final variable length");
    return false;
  case E_INDEX: return true;
  default:
    chk_error(c, t->pos, "unexpected type; required: variable, found: value");
    return false;
  }
}

static void check_target(DrChecker *c, DrExpr *t, bool simple) {
  if (t->kind == E_NAME || t->kind == E_FIELD_ACCESS) {
    c->want_lvalue = true;
    c->simple_assign = simple;
  }
  chk_expr(c, t);
  c->want_lvalue = c->simple_assign = false;
}

DrType *chk_incdec(DrChecker *c, DrExpr *e) {
  if (!e->target) return err(c, e);
  check_target(c, e->target, false);
  DrType *t = e->target->type;
  if (chk_is_err(t)) return err(c, e);
  const char *op = (e->kind == E_PREINC || e->kind == E_POSTINC) ? "++" : "--";
  if (!chk_is_numeric(t) && !chk_is_numeric(chk_unboxed_type(c, t))) {
    chk_error(c, e->pos, "bad operand type %s for unary operator '%s'", chk_type_str(c, t), op);
    return err(c, e);
  }
  if (!chk_check_lvalue(c, e->target, true)) return err(c, e);
  e->op_type = NULL;
  e->type = t;
  return t;
}

/* ------------------------------------------------------------- binary */

static void fold_binary(DrChecker *c, DrExpr *e, DrType *optype) {
  if (!e->lhs->is_const || !e->rhs->is_const) return;
  DrConst v;
  if (chk_fold_binary(c, e->op, optype, e->lhs->cval, e->rhs->cval, &v)) chk_set_const(c, e, e->type, v);
}

DrType *chk_binary(DrChecker *c, DrExpr *e) {
  if (!e->lhs || !e->rhs) return err(c, e);
  DrType *a = chk_value(c, e->lhs);
  int saved = c->nscope;
  if (e->op == DR_BIN_LAND || e->op == DR_BIN_LOR) chk_push_bindings(c, e->lhs, e->op == DR_BIN_LAND);
  DrType *b = chk_value(c, e->rhs);
  chk_scope_pop(c, saved);
  if (chk_is_err(a) || chk_is_err(b)) return err(c, e);
  DrType *a0 = a, *b0 = b; /* as errors name them: Integer, not int */
  chk_unbox_binary(c, e);
  a = e->lhs->type;
  b = e->rhs->type;
  int op = e->op;
  DrTypes *T = c->T;
  switch (op) {
  case DR_BIN_LAND:
  case DR_BIN_LOR:
    if (a->kind != TY_BOOLEAN || b->kind != TY_BOOLEAN) return bad_operands(c, e, op, a0, b0);
    e->op_type = e->type = &T->t_boolean;
    fold_binary(c, e, &T->t_boolean);
    return e->type;
  case DR_BIN_ADD:
    if (chk_is_string(c, a) || chk_is_string(c, b)) {
      e->op_type = e->type = c->t_string;
      if (e->lhs->is_const && e->rhs->is_const)
        chk_set_const(c, e, c->t_string, chk_const_concat(c, e->lhs->cval, e->rhs->cval));
      return e->type;
    }
    /* fall through */
  case DR_BIN_SUB:
  case DR_BIN_MUL:
  case DR_BIN_DIV:
  case DR_BIN_REM: {
    DrType *p = chk_binary_promote(c, a, b);
    if (!p) return bad_operands(c, e, op, a0, b0);
    chk_coerce(c, e->lhs, p);
    chk_coerce(c, e->rhs, p);
    e->op_type = e->type = p;
    fold_binary(c, e, p);
    return e->type;
  }
  case DR_BIN_SHL:
  case DR_BIN_SHR:
  case DR_BIN_USHR: {
    if (!chk_is_integral(a) || !chk_is_integral(b)) return bad_operands(c, e, op, a0, b0);
    DrType *pa = chk_unary_promote(c, a);
    chk_coerce(c, e->lhs, pa);
    chk_coerce(c, e->rhs, &T->t_int); /* the emitter wants an int count */
    e->op_type = e->type = pa;
    fold_binary(c, e, pa);
    return e->type;
  }
  case DR_BIN_LT:
  case DR_BIN_GT:
  case DR_BIN_LE:
  case DR_BIN_GE: {
    DrType *p = chk_binary_promote(c, a, b);
    if (!p) return bad_operands(c, e, op, a0, b0);
    chk_coerce(c, e->lhs, p);
    chk_coerce(c, e->rhs, p);
    e->op_type = p;
    e->type = &T->t_boolean;
    fold_binary(c, e, p);
    return e->type;
  }
  case DR_BIN_EQ:
  case DR_BIN_NE: {
    DrType *p = chk_binary_promote(c, a, b);
    if (p) {
      chk_coerce(c, e->lhs, p);
      chk_coerce(c, e->rhs, p);
    } else if (a->kind == TY_BOOLEAN && b->kind == TY_BOOLEAN) {
      p = a;
    } else if (chk_is_ref(a) && chk_is_ref(b)) {
      if (!chk_castable(c, a, b) && !chk_castable(c, b, a)) {
        chk_error(c, e->pos, "incomparable types: %s and %s", chk_type_str(c, a), chk_type_str(c, b));
        return err(c, e);
      }
      p = a->kind != TY_NULL ? a : b;
    } else if (chk_is_prim(a) && chk_is_prim(b)) {
      chk_error(c, e->pos, "incomparable types: %s and %s", chk_type_str(c, a), chk_type_str(c, b));
      return err(c, e);
    } else {
      return bad_operands(c, e, op, a0, b0);
    }
    e->op_type = p;
    e->type = &T->t_boolean;
    if (chk_is_prim(p) || chk_is_string(c, p)) fold_binary(c, e, p);
    return e->type;
  }
  case DR_BIN_AND:
  case DR_BIN_OR:
  case DR_BIN_XOR: {
    if (a->kind == TY_BOOLEAN && b->kind == TY_BOOLEAN) {
      e->op_type = e->type = &T->t_boolean;
      fold_binary(c, e, &T->t_boolean);
      return e->type;
    }
    if (!chk_is_integral(a) || !chk_is_integral(b)) return bad_operands(c, e, op, a0, b0);
    DrType *p = chk_binary_promote(c, a, b);
    chk_coerce(c, e->lhs, p);
    chk_coerce(c, e->rhs, p);
    e->op_type = e->type = p;
    fold_binary(c, e, p);
    return e->type;
  }
  default: return bad_operands(c, e, op, a0, b0);
  }
}

/* --------------------------------------------------------- assignment */

DrType *chk_assign(DrChecker *c, DrExpr *e) {
  DrExpr *t = e->target;
  if (!t || !e->rhs) return err(c, e);
  int op = e->op;
  check_target(c, t, op == DR_BIN_NONE);
  DrType *lt = t->type;
  DrType *rt;
  if (e->rhs->kind == E_ARRAY_INIT) {
    rt = chk_expr(c, e->rhs); /* reports "array initializer not allowed here" */
  } else if (op == DR_BIN_NONE && chk_is_poly(e->rhs)) {
    if (!chk_is_err(lt)) chk_poly(c, e->rhs, lt);
    bool ok2 = chk_is_err(lt) || chk_check_lvalue(c, t, false);
    e->type = lt;
    return ok2 ? lt : err(c, e);
  } else {
    if (op == DR_BIN_NONE && chk_is_ref(lt)) c->gen.target = lt; /* inference */
    rt = op == DR_BIN_NONE ? chk_expr(c, e->rhs) : chk_value(c, e->rhs);
    c->gen.target = NULL;
  }
  if (chk_is_err(lt)) return err(c, e);
  bool ok = chk_check_lvalue(c, t, op != DR_BIN_NONE);
  e->type = lt;
  if (op == DR_BIN_NONE) {
    if (!chk_is_err(rt)) chk_assign_to(c, e->rhs, lt);
    return ok ? lt : err(c, e);
  }
  if (chk_is_err(rt)) return lt;
  DrTypes *T = c->T;
  DrType *p = NULL;
  /* a box is opened for the operation and the result boxed again (JLS
   * 15.26.2: E1 = (T) ((E1) op (E2))) */
  DrType *box = chk_unboxed_type(c, lt) ? lt : NULL;
  if (box && !(op == DR_BIN_ADD && chk_is_string(c, rt))) {
    lt = chk_unboxed_type(c, lt);
    rt = chk_unbox_operand(c, e->rhs);
  } else if (!chk_is_string(c, lt)) {
    rt = chk_unbox_operand(c, e->rhs);
  }
  switch (op) {
  case DR_BIN_ADD:
    if (chk_is_string(c, lt)) {
      e->op_type = c->t_string;
      return lt;
    }
    if (chk_is_string(c, rt) && chk_is_prim(lt)) {
      chk_error(c, e->rhs->pos, "incompatible types: String cannot be converted to %s", chk_type_str(c, lt));
      return err(c, e);
    }
    /* fall through */
  case DR_BIN_SUB:
  case DR_BIN_MUL:
  case DR_BIN_DIV:
  case DR_BIN_REM: p = chk_binary_promote(c, lt, rt); break;
  case DR_BIN_SHL:
  case DR_BIN_SHR:
  case DR_BIN_USHR:
    if (chk_is_integral(lt) && chk_is_integral(rt)) {
      e->op_type = chk_unary_promote(c, lt);
      if (box && e->op_type != lt) { /* Short s; s <<= 1: (Short) of an int */
        chk_error(c, e->pos, "incompatible types: %s cannot be converted to %s", chk_type_str(c, e->op_type),
                  chk_type_str(c, box));
        return err(c, e);
      }
      chk_coerce(c, e->rhs, &T->t_int);
      return e->type;
    }
    break;
  case DR_BIN_AND:
  case DR_BIN_OR:
  case DR_BIN_XOR:
    if (lt->kind == TY_BOOLEAN && rt->kind == TY_BOOLEAN) p = lt;
    else if (chk_is_integral(lt) && chk_is_integral(rt)) p = chk_binary_promote(c, lt, rt);
    break;
  default: break;
  }
  if (!p) {
    bad_operands(c, e, op, box ? box : lt, rt);
    return e->type;
  }
  if (box && p != lt && !chk_prim_widens(p, lt)) {
    chk_error(c, e->pos, "incompatible types: %s cannot be converted to %s", chk_type_str(c, p), chk_type_str(c, box));
    return err(c, e);
  }
  e->op_type = p;
  chk_coerce(c, e->rhs, p);
  e->type = box ? box : lt;
  return e->type;
}

/* ---------------------------------------------------------- ?: (15.25) */

DrClassSym *chk_common_superclass(DrClassSym *a, DrClassSym *b, DrClassSym *object) {
  if (chk_is_interface(a) || chk_is_interface(b)) return object;
  for (DrClassSym *k = a; k; k = k->super)
    if (chk_subclass(b, k)) return k;
  return object;
}

DrType *chk_cond_op(DrChecker *c, DrExpr *e) {
  chk_condition(c, e->cond);
  if (!e->lhs || !e->rhs) return err(c, e);
  int saved = c->nscope;
  chk_push_bindings(c, e->cond, true);
  DrType *a = chk_value(c, e->lhs);
  chk_scope_pop(c, saved);
  chk_push_bindings(c, e->cond, false);
  DrType *b = chk_value(c, e->rhs);
  chk_scope_pop(c, saved);
  if (!e->cond || chk_is_err(e->cond->type) || chk_is_err(a) || chk_is_err(b)) return err(c, e);
  DrType *t = chk_cond_type(c, e);
  if (!t) {
    chk_error(c, e->pos, "incompatible types: bad type in conditional expression; %s and %s have no common type in DL",
              chk_type_str(c, a), chk_type_str(c, b));
    return err(c, e);
  }
  chk_coerce(c, e->lhs, t);
  chk_coerce(c, e->rhs, t);
  e->type = t;
  if (e->cond->is_const && e->lhs->is_const && e->rhs->is_const) {
    DrConst v = e->cond->cval.i ? e->lhs->cval : e->rhs->cval;
    chk_set_const(c, e, t, v);
  }
  return t;
}

/* ----------------------------------------------------- cast, instanceof */

DrType *chk_cast(DrChecker *c, DrExpr *e) {
  DrType *t = chk_resolve_tref(c, &e->tref);
  if (e->target && chk_is_poly(e->target) && !chk_gen_is_poly_new(e->target)) { /* a cast is no diamond's target */
    if (chk_is_err(t)) return err(c, e);
    e->type = chk_poly(c, e->target, t);
    return e->type;
  }
  DrType *s = e->target ? chk_value(c, e->target) : &c->T->t_error;
  if (chk_is_err(t)) return err(c, e);
  if (t->kind == TY_VOID) {
    chk_error(c, e->pos, "'void' type not allowed here");
    return err(c, e);
  }
  e->type = t;
  if (chk_is_err(s)) return t;
  if (chk_cast_boxing(c, e->target, t)) s = e->target->type;
  if (!chk_castable(c, s, t)) {
    chk_error(c, e->pos, "incompatible types: %s cannot be converted to %s", chk_type_str(c, s), chk_type_str(c, t));
    return err(c, e);
  }
  if (e->target->is_const && (chk_is_prim(t) || chk_is_string(c, t)))
    chk_set_const(c, e, t, chk_const_cast(c, e->target->cval, t));
  return t;
}

/* Whether `s instanceof t` is legal, reporting why not. */
static bool instanceof_ok(DrChecker *c, DrExpr *e, DrType *s, DrType *t) {
  if (chk_is_err(t) || chk_is_err(s)) return false;
  if (!chk_is_ref(t) || t->kind == TY_NULL) {
    chk_error(c, e->tref.pos, "unexpected type; required: reference, found: %s", chk_type_str(c, t));
    return false;
  }
  if (!chk_is_ref(s)) {
    chk_error(c, e->target->pos, "unexpected type; required: reference, found: %s", chk_type_str(c, s));
    return false;
  }
  if (!chk_castable(c, s, t)) {
    chk_error(c, e->pos, "incompatible types: %s cannot be converted to %s", chk_type_str(c, s), chk_type_str(c, t));
    return false;
  }
  return chk_gen_check_instanceof(c, e, s, t);
}

DrType *chk_instanceof(DrChecker *c, DrExpr *e) {
  DrType *t = chk_resolve_tref(c, &e->tref);
  DrType *s = e->target ? chk_value(c, e->target) : &c->T->t_error;
  e->type = &c->T->t_boolean;
  bool ok = instanceof_ok(c, e, s, t);
  /* a binding even after an error, so that its uses are no new errors */
  if (e->name) chk_pattern_binding(c, e, ok ? s : &c->T->t_error, ok ? t : &c->T->t_error);
  return e->type;
}
