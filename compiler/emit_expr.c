/* Expressions to register code.
 *
 * Evaluation order is Java's, left to right.  An operand that is a local
 * variable is used in place (no copy) unless a later operand of the same
 * instruction may assign that local: then it is copied first ("pinned"),
 * so `x + (x = 3)` sees the old x.  A result may be written straight into
 * a local's register only by code that writes it last, after everything
 * that may throw (see direct_ok). */
#include <string.h>

#include "emit_internal.h"

/* ------------------------------------------------------------- helpers */

/* Whether evaluating e may assign the local variable held in register
 * reg (any local for reg < 0). */
static bool writes_reg(const DrExpr *e, int reg) {
  if (!e) return false;
  switch (e->kind) {
  case E_ASSIGN:
  case E_PREINC:
  case E_PREDEC:
  case E_POSTINC:
  case E_POSTDEC:
    if (e->target && e->target->kind == E_LOCAL && (reg < 0 || e->target->local->reg == reg)) return true;
    break;
  case E_SWITCH: return true; /* its statements may assign any local */
  default: break;
  }
  if (writes_reg(e->target, reg) || writes_reg(e->lhs, reg) || writes_reg(e->rhs, reg) || writes_reg(e->cond, reg) ||
      writes_reg(e->init, reg))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (writes_reg(e->args[i], reg)) return true;
  return false;
}

/* Keeps r's value safe from assignments to the local it may be made by
 * the operands still to be evaluated (later[0..n)). */
static int pin(Em *E, int r, DrExpr **later, int n) {
  if (r < 0 || em_is_temp(E, r)) return r;
  bool clobbered = false;
  for (int i = 0; i < n && !clobbered; i++) clobbered = writes_reg(later[i], r);
  if (!clobbered) return r;
  int t = em_temp(E, E->reg_ref[r] != 0);
  em_mov(E, t, r);
  return t;
}

static int pin1(Em *E, int r, DrExpr *later) { return pin(E, r, &later, later ? 1 : 0); }

/* The last of es[0..n) that may assign a local, or -1: only the operands
 * before it can need pinning, and only it and those between can clobber
 * them (a call with thousands of arguments would otherwise scan all the
 * later ones for each). */
static int last_writer(DrExpr **es, int n) {
  for (int i = n - 1; i >= 0; i--)
    if (writes_reg(es[i], -1)) return i;
  return -1;
}

/* Whether e may be evaluated straight into a local's register: it writes
 * its destination once, last, and nothing after that can throw. */
static bool direct_ok(const DrExpr *e) {
  if (e->is_const) return true;
  switch (e->kind) {
  case E_LOCAL:
  case E_THIS:
  case E_FIELD:
  case E_STATIC_FIELD:
  case E_INDEX:
  case E_ARRAY_LENGTH:
  case E_CALL:
  case E_UNARY:
  case E_CONVERT:
  case E_INSTANCEOF:
  case E_BINARY:
  case E_NULL_LIT:
  case E_STRING_LIT:
    return true;
  case E_CAST: return !em_is_ref(e->type);
  case E_NEW_ARRAY: return e->init == NULL;
  case E_COND: return direct_ok(e->lhs) && direct_ok(e->rhs);
  default: return false;
  }
}

static int result_reg(Em *E, int dst, const DrType *t) { return dst >= 0 ? dst : em_temp_for(E, t); }

/* Frees a result nobody wants. */
static int finish(Em *E, int r, int dst) {
  if (dst == EM_DISCARD) {
    em_free(E, r);
    return -1;
  }
  return r;
}

static int const_value(Em *E, DrExpr *e, int dst) {
  if (dst == EM_DISCARD) return -1;
  int r = result_reg(E, dst, e->type);
  const DrConst *v = &e->cval;
  switch (e->type->kind) {
  case TY_LONG: em_const_long(E, r, v->j); break;
  case TY_DOUBLE: em_const_double(E, r, v->d); break;
  case TY_FLOAT: em_const_float(E, r, v->d); break;
  case TY_BOOLEAN:
  case TY_BYTE:
  case TY_SHORT:
  case TY_CHAR:
  case TY_INT: em_const_int(E, r, v->i); break;
  case TY_NULL: em_op(E, DR_OP_CONST_NULL, 1, r); break;
  default: em_const_string(E, r, v->s, v->slen); break;
  }
  return r;
}

static int literal(Em *E, DrExpr *e, int dst) {
  if (dst == EM_DISCARD) return -1;
  int r = result_reg(E, dst, e->type);
  switch (e->kind) {
  case E_INT_LIT:
  case E_CHAR_LIT:
  case E_BOOL_LIT: em_const_int(E, r, e->lit.i); break;
  case E_LONG_LIT: em_const_long(E, r, e->lit.j); break;
  case E_DOUBLE_LIT: em_const_double(E, r, e->lit.d); break;
  case E_FLOAT_LIT: em_const_float(E, r, e->lit.d); break;
  case E_STRING_LIT: em_const_string(E, r, e->lit.s, e->lit.slen); break;
  default: em_op(E, DR_OP_CONST_NULL, 1, r); break;
  }
  return r;
}

/* ---------------------------------------------------------- conversions */

static bool int_like(DrKind k) {
  return k == DR_K_INT || k == DR_K_CHAR || k == DR_K_BOOLEAN || k == DR_K_BYTE || k == DR_K_SHORT;
}

/* The conversion of a long, float or double value to int. */
static DrOpcode to_int_op(DrKind f) { return f == DR_K_LONG ? DR_OP_J2I : f == DR_K_FLOAT ? DR_OP_F2I : DR_OP_D2I; }

static DrOpcode narrow_op(DrKind t) { return t == DR_K_CHAR ? DR_OP_I2C : t == DR_K_BYTE ? DR_OP_I2B : DR_OP_I2S; }

/* Converts the value in src from type `from` to type `to` into dst
 * (EM_ANY: src itself when nothing changes). */
int em_convert(Em *E, int src, const DrType *from, const DrType *to, int dst) {
  if (em_is_boxing(from, to)) return em_box_convert(E, src, from, to, dst);
  DrKind f = em_kind(from), t = em_kind(to);
  bool same = f == t || (int_like(f) && t == DR_K_INT) || t == DR_K_REF || t == DR_K_BOOLEAN ||
              (f == DR_K_BYTE && t == DR_K_SHORT);
  if (same) {
    if (dst < 0) return src;
    em_mov(E, dst, src);
    return dst;
  }
  int r = dst >= 0 ? dst : em_temp(E, false);
  switch (t) {
  case DR_K_CHAR:
  case DR_K_BYTE:
  case DR_K_SHORT:
    /* JLS 5.1.3: long, float and double narrow to int first */
    if (!int_like(f)) {
      em_op(E, to_int_op(f), 2, r, src);
      src = r;
    }
    em_op(E, narrow_op(t), 2, r, src);
    break;
  case DR_K_INT: em_op(E, to_int_op(f), 2, r, src); break;
  case DR_K_LONG: em_op(E, f == DR_K_DOUBLE ? DR_OP_D2J : f == DR_K_FLOAT ? DR_OP_F2J : DR_OP_I2J, 2, r, src); break;
  case DR_K_FLOAT: em_op(E, f == DR_K_DOUBLE ? DR_OP_D2F : f == DR_K_LONG ? DR_OP_J2F : DR_OP_I2F, 2, r, src); break;
  case DR_K_DOUBLE: em_op(E, f == DR_K_LONG ? DR_OP_J2D : f == DR_K_FLOAT ? DR_OP_F2D : DR_OP_I2D, 2, r, src); break;
  default: UNREACHABLE();
  }
  return r;
}

/* ----------------------------------------------------------------- calls */

int em_invoke(Em *E, DrOpcode op, DrMethodSym *ms, int dst, const int *args, int nargs) {
  DrMethod *m = ms->rt;
  int r = -1;
  if (m->ret_kind != DR_K_VOID) r = dst >= 0 ? dst : em_temp(E, m->ret_kind == DR_K_REF);
  em_op(E, op, 3, r >= 0 ? r : 0, m->id, nargs);
  for (int i = 0; i < nargs; i++) em_word(E, (uint32_t)args[i]);
  return finish(E, r, dst);
}

void em_operands(Em *E, DrExpr **es, int n, int *regs) {
  int last = last_writer(es, n);
  for (int i = 0; i < n; i++) {
    regs[i] = em_expr(E, es[i], EM_ANY);
    if (i < last) regs[i] = pin(E, regs[i], es + i + 1, last - i);
  }
}

static int call(Em *E, DrExpr *e, int dst) {
  int n = e->nargs + 1;
  int *regs = dr_xcalloc((size_t)n + 1, sizeof(int));
  int k = 0;
  bool has_recv = e->call_kind != DR_CALL_STATIC;
  if (has_recv) {
    regs[0] = em_expr(E, e->target, EM_ANY);
    regs[0] = pin(E, regs[0], e->args, e->nargs);
    k = 1;
  }
  em_operands(E, e->args, e->nargs, regs + k);
  DrOpcode op = e->call_kind == DR_CALL_STATIC      ? DR_OP_INVOKESTATIC
                : e->call_kind == DR_CALL_SPECIAL   ? DR_OP_INVOKESPECIAL
                : e->call_kind == DR_CALL_INTERFACE ? DR_OP_INVOKEINTERFACE
                                                    : DR_OP_INVOKEVIRTUAL;
  for (int i = 0; i < k + e->nargs; i++) em_free(E, regs[i]);
  em_line(E, e->pos.line);
  int r = em_invoke(E, op, e->method, dst, regs, k + e->nargs);
  free(regs);
  return r;
}

void em_null_check(Em *E, int reg, int line) {
  DrMethodSym *ctor = E->m_npe_ctor;
  if (!ctor) return;
  EmLabel ok;
  em_label_init(&ok);
  uint32_t ops[1] = {(uint32_t)reg};
  em_jump(E, DR_OP_JNONNULL, 1, ops, &ok);
  int x = em_temp(E, true);
  em_line(E, line);
  em_op(E, DR_OP_NEW, 2, x, ctor->owner->rt->id);
  em_invoke(E, DR_OP_INVOKESPECIAL, ctor, EM_DISCARD, &x, 1);
  em_op(E, DR_OP_THROW, 1, x);
  em_free(E, x);
  em_bind(E, &ok);
  em_label_free(&ok);
}

static int new_object(Em *E, DrExpr *e, int dst) {
  DrMethodSym *ctor = e->method;
  int n = e->nargs + 1;
  int *regs = dr_xcalloc((size_t)n + 1, sizeof(int));
  if (ctor->owner == E->c_string && E->m_value_of_chars) {
    /* new String(char[]) copies the chars, as String.valueOf(char[]) does */
    em_operands(E, e->args, e->nargs, regs);
    for (int i = 0; i < e->nargs; i++) em_free(E, regs[i]);
    em_line(E, e->pos.line);
    int r = em_invoke(E, DR_OP_INVOKESTATIC, E->m_value_of_chars, dst, regs, e->nargs);
    free(regs);
    return r;
  }
  /* hidden arguments (enclosing instance, captured values) first */
  if (e->nhidden) {
    free(regs);
    n = e->nhidden + e->nargs + 1;
    regs = dr_xcalloc((size_t)n + 1, sizeof(int));
  }
  DrExpr **ops = e->args;
  if (e->nhidden) {
    ops = dr_xcalloc((size_t)n, sizeof(DrExpr *));
    memcpy(ops, e->hidden, sizeof(DrExpr *) * (size_t)e->nhidden);
    if (e->nargs) memcpy(ops + e->nhidden, e->args, sizeof(DrExpr *) * (size_t)e->nargs);
  }
  int obj = em_temp(E, true);
  em_line(E, e->pos.line);
  em_op(E, DR_OP_NEW, 2, obj, ctor->owner->rt->id);
  regs[0] = obj;
  em_operands(E, ops, n - 1, regs + 1);
  if (ops != e->args) free(ops);
  if (e->op > 0) em_null_check(E, regs[e->op], e->pos.line);
  for (int i = 1; i < n; i++) em_free(E, regs[i]);
  em_line(E, e->pos.line);
  em_invoke(E, DR_OP_INVOKESPECIAL, ctor, EM_DISCARD, regs, n);
  free(regs);
  if (dst == EM_DISCARD) {
    em_free(E, obj);
    return -1;
  }
  if (dst >= 0) {
    em_mov(E, dst, obj);
    em_free(E, obj);
    return dst;
  }
  return obj;
}

/* --------------------------------------------------------------- arrays */

DrOpcode em_field_op(const DrFieldSym *f, bool write) {
  bool is_static = (f->mods & DR_MOD_STATIC) || (f->owner->flags & DR_CLS_SYM_INTERFACE);
  if (f->mods & DR_MOD_VOLATILE) {
    if (is_static) return write ? DR_OP_PUTSTATIC_V : DR_OP_GETSTATIC_V;
    return write ? DR_OP_PUTFIELD_V : DR_OP_GETFIELD_V;
  }
  if (is_static && !write && (f->mods & DR_MOD_FINAL)) return DR_OP_GETSTATIC_F;
  if (is_static) return write ? DR_OP_PUTSTATIC : DR_OP_GETSTATIC;
  return write ? DR_OP_PUTFIELD : DR_OP_GETFIELD;
}

DrOpcode em_aload_op(DrKind k) {
  switch (k) {
  case DR_K_BOOLEAN: return DR_OP_ALOAD_Z;
  case DR_K_CHAR: return DR_OP_ALOAD_C;
  case DR_K_INT: return DR_OP_ALOAD_I;
  case DR_K_LONG: return DR_OP_ALOAD_J;
  case DR_K_DOUBLE: return DR_OP_ALOAD_D;
  case DR_K_BYTE: return DR_OP_ALOAD_B;
  case DR_K_SHORT: return DR_OP_ALOAD_S;
  case DR_K_FLOAT: return DR_OP_ALOAD_F;
  default: return DR_OP_ALOAD_A;
  }
}

static DrOpcode astore_op(DrKind k) {
  switch (k) {
  case DR_K_BOOLEAN: return DR_OP_ASTORE_Z;
  case DR_K_CHAR: return DR_OP_ASTORE_C;
  case DR_K_INT: return DR_OP_ASTORE_I;
  case DR_K_LONG: return DR_OP_ASTORE_J;
  case DR_K_DOUBLE: return DR_OP_ASTORE_D;
  case DR_K_BYTE: return DR_OP_ASTORE_B;
  case DR_K_SHORT: return DR_OP_ASTORE_S;
  case DR_K_FLOAT: return DR_OP_ASTORE_F;
  default: return DR_OP_ASTORE_A;
  }
}

void em_array_init(Em *E, DrExpr *init, int dst) {
  DrType *t = init->type;
  int len = em_temp(E, false);
  em_const_int(E, len, init->nargs);
  em_line(E, init->pos.line);
  em_op(E, DR_OP_NEWARRAY, 3, dst, em_class_rt(E, t)->id, len);
  DrKind ek = em_kind(t->elem);
  for (int i = 0; i < init->nargs; i++) {
    DrExpr *x = init->args[i];
    int v;
    if (x->kind == E_ARRAY_INIT) {
      v = em_temp(E, true);
      em_array_init(E, x, v);
    } else {
      v = em_expr(E, x, EM_ANY);
    }
    em_const_int(E, len, i);
    em_op(E, astore_op(ek), 3, dst, len, v);
    em_free(E, v);
  }
  em_free(E, len);
}

static int new_array(Em *E, DrExpr *e, int dst) {
  if (e->init) {
    int r = em_temp(E, true);
    em_array_init(E, e->init, r);
    if (dst >= 0) {
      em_mov(E, dst, r);
      em_free(E, r);
      return dst;
    }
    return finish(E, r, dst);
  }
  int *regs = dr_xcalloc((size_t)e->nargs + 1, sizeof(int));
  em_operands(E, e->args, e->nargs, regs);
  for (int i = 0; i < e->nargs; i++) em_free(E, regs[i]);
  int r = result_reg(E, dst, e->type);
  int cls = em_class_rt(E, e->type)->id;
  em_line(E, e->pos.line);
  if (e->nargs == 1) {
    em_op(E, DR_OP_NEWARRAY, 3, r, cls, regs[0]);
  } else {
    em_op(E, DR_OP_MULTINEWARRAY, 3, r, cls, e->nargs);
    for (int i = 0; i < e->nargs; i++) em_word(E, (uint32_t)regs[i]);
  }
  free(regs);
  return finish(E, r, dst);
}

/* ------------------------------------------------------------ locations */

/* A variable an assignment or ++/-- reads and writes. */
typedef struct {
  DrExprKind kind;
  DrType *type;
  DrLocalSym *local;
  DrFieldSym *field;
  int obj, idx;
} Loc;

static void loc_prepare(Em *E, DrExpr *t, Loc *L, DrExpr *later) {
  memset(L, 0, sizeof(*L));
  L->kind = t->kind;
  L->type = t->type;
  L->obj = L->idx = -1;
  switch (t->kind) {
  case E_LOCAL: L->local = t->local; break;
  case E_STATIC_FIELD: L->field = t->field; break;
  case E_FIELD:
    L->field = t->field;
    L->obj = pin1(E, em_expr(E, t->target, EM_ANY), later);
    break;
  case E_INDEX:
    L->obj = em_expr(E, t->target, EM_ANY);
    {
      DrExpr *rest[2] = {t->rhs, later};
      L->obj = pin(E, L->obj, rest, later ? 2 : 1);
    }
    L->idx = pin1(E, em_expr(E, t->rhs, EM_ANY), later);
    break;
  default: UNREACHABLE();
  }
}

static int loc_load(Em *E, Loc *L, int line) {
  int r;
  switch (L->kind) {
  case E_LOCAL: return L->local->reg;
  case E_STATIC_FIELD:
    r = em_temp_for(E, L->type);
    em_line(E, line);
    em_op(E, em_field_op(L->field, false), 3, r, L->field->owner->rt->id, L->field->slot);
    return r;
  case E_FIELD:
    r = em_temp_for(E, L->type);
    em_line(E, line);
    em_op(E, em_field_op(L->field, false), 3, r, L->obj, L->field->slot);
    return r;
  default:
    r = em_temp_for(E, L->type);
    em_line(E, line);
    em_op(E, em_aload_op(em_kind(L->type)), 3, r, L->obj, L->idx);
    return r;
  }
}

static void loc_store(Em *E, Loc *L, int v, int line) {
  em_line(E, line);
  switch (L->kind) {
  case E_LOCAL: em_mov(E, L->local->reg, v); break;
  case E_STATIC_FIELD: em_op(E, em_field_op(L->field, true), 3, L->field->owner->rt->id, L->field->slot, v); break;
  case E_FIELD: em_op(E, em_field_op(L->field, true), 3, L->obj, L->field->slot, v); break;
  default: em_op(E, astore_op(em_kind(L->type)), 3, L->obj, L->idx, v); break;
  }
}

static void loc_release(Em *E, Loc *L) {
  em_free(E, L->obj);
  em_free(E, L->idx);
}

/* -------------------------------------------------- string concatenation */

static bool is_concat(Em *E, const DrExpr *e) {
  return e->kind == E_BINARY && e->op == DR_BIN_ADD && !e->is_const && e->op_type == E->c_string->type;
}

static void concat_collect(Em *E, DrExpr *e, DrExpr ***list, int *n, int *cap) {
  if (is_concat(E, e)) {
    concat_collect(E, e->lhs, list, n, cap);
    concat_collect(E, e->rhs, list, n, cap);
    return;
  }
  DR_PUSH(*list, *n, *cap, e);
}

/* The register and kind STRCAT prints for operand x. */
static int concat_operand(Em *E, DrExpr *x, int *kind) {
  DrType *t = x->type;
  if (t->kind == TY_NULL) {
    *kind = DR_K_REF;
    return const_value(E, x, EM_ANY);
  }
  if (!em_is_ref(t)) {
    *kind = (int)em_kind(t);
    return em_expr(E, x, EM_ANY);
  }
  *kind = DR_K_REF;
  int r = em_expr(E, x, EM_ANY);
  if (t == E->c_string->type) return r;
  /* other objects print through String.valueOf(Object) -> toString() */
  em_free(E, r);
  em_line(E, x->pos.line);
  return em_invoke(E, DR_OP_INVOKESTATIC, E->m_value_of_object, EM_ANY, &r, 1);
}

static int strcat_regs(Em *E, int dst, const int *regs, const int *kinds, int n, int line) {
  for (int i = 0; i < n; i++) em_free(E, regs[i]);
  int r = dst >= 0 ? dst : em_temp(E, true);
  em_line(E, line);
  em_op(E, DR_OP_STRCAT, 2, r, n);
  for (int i = 0; i < n; i++) {
    em_word(E, (uint32_t)kinds[i]);
    em_word(E, (uint32_t)regs[i]);
  }
  return r;
}

static int concat(Em *E, DrExpr *e, int dst) {
  DrExpr **list = NULL;
  int n = 0, cap = 0;
  concat_collect(E, e, &list, &n, &cap);
  int *regs = dr_xcalloc((size_t)n, sizeof(int));
  int *kinds = dr_xcalloc((size_t)n, sizeof(int));
  int last = last_writer(list, n);
  for (int i = 0; i < n; i++) {
    regs[i] = concat_operand(E, list[i], &kinds[i]);
    if (i < last) regs[i] = pin(E, regs[i], list + i + 1, last - i);
  }
  int r = strcat_regs(E, dst == EM_DISCARD ? EM_ANY : dst, regs, kinds, n, e->pos.line);
  free(list);
  free(regs);
  free(kinds);
  return finish(E, r, dst);
}

/* ------------------------------------------------------------ operators */

static DrOpcode arith_op(int op, DrKind k) {
  bool L = k == DR_K_LONG, D = k == DR_K_DOUBLE, F = k == DR_K_FLOAT;
  switch (op) {
  case DR_BIN_ADD: return L ? DR_OP_ADD_J : D ? DR_OP_ADD_D : F ? DR_OP_ADD_F : DR_OP_ADD_I;
  case DR_BIN_SUB: return L ? DR_OP_SUB_J : D ? DR_OP_SUB_D : F ? DR_OP_SUB_F : DR_OP_SUB_I;
  case DR_BIN_MUL: return L ? DR_OP_MUL_J : D ? DR_OP_MUL_D : F ? DR_OP_MUL_F : DR_OP_MUL_I;
  case DR_BIN_DIV: return L ? DR_OP_DIV_J : D ? DR_OP_DIV_D : F ? DR_OP_DIV_F : DR_OP_DIV_I;
  case DR_BIN_REM: return L ? DR_OP_REM_J : D ? DR_OP_REM_D : F ? DR_OP_REM_F : DR_OP_REM_I;
  case DR_BIN_SHL: return L ? DR_OP_SHL_J : DR_OP_SHL_I;
  case DR_BIN_SHR: return L ? DR_OP_SHR_J : DR_OP_SHR_I;
  case DR_BIN_USHR: return L ? DR_OP_USHR_J : DR_OP_USHR_I;
  case DR_BIN_AND: return L ? DR_OP_AND_J : DR_OP_AND_I;
  case DR_BIN_OR: return L ? DR_OP_OR_J : DR_OP_OR_I;
  case DR_BIN_XOR: return L ? DR_OP_XOR_J : DR_OP_XOR_I;
  default: UNREACHABLE();
  }
}

static DrOpcode cmp_op(int op, DrKind k) {
  int base;
  switch (k) {
  case DR_K_LONG: base = DR_OP_CMPEQ_J; break;
  case DR_K_DOUBLE: base = DR_OP_CMPEQ_D; break;
  case DR_K_FLOAT: base = DR_OP_CMPEQ_F; break;
  case DR_K_REF: return op == DR_BIN_EQ ? DR_OP_CMPEQ_A : DR_OP_CMPNE_A;
  default: base = DR_OP_CMPEQ_I; break;
  }
  /* the table orders each family EQ NE LT LE GT GE */
  switch (op) {
  case DR_BIN_EQ: return (DrOpcode)(base + 0);
  case DR_BIN_NE: return (DrOpcode)(base + 1);
  case DR_BIN_LT: return (DrOpcode)(base + 2);
  case DR_BIN_LE: return (DrOpcode)(base + 3);
  case DR_BIN_GT: return (DrOpcode)(base + 4);
  case DR_BIN_GE: return (DrOpcode)(base + 5);
  default: UNREACHABLE();
  }
}

static bool is_compare(int op) {
  return op == DR_BIN_EQ || op == DR_BIN_NE || op == DR_BIN_LT || op == DR_BIN_LE || op == DR_BIN_GT ||
         op == DR_BIN_GE;
}

static int bool_value(Em *E, DrExpr *e, int dst) {
  int r = dst >= 0 ? dst : em_temp(E, false);
  EmLabel lf, end;
  em_label_init(&lf);
  em_label_init(&end);
  em_cond(E, e, false, &lf);
  em_const_int(E, r, 1);
  em_jmp(E, &end);
  em_bind(E, &lf);
  em_const_int(E, r, 0);
  em_bind(E, &end);
  em_label_free(&lf);
  em_label_free(&end);
  return r;
}

static int binary(Em *E, DrExpr *e, int dst) {
  if (is_concat(E, e)) return concat(E, e, dst);
  if (e->op == DR_BIN_LAND || e->op == DR_BIN_LOR) return finish(E, bool_value(E, e, dst < 0 ? EM_ANY : dst), dst);
  /* int +/- a constant: one instruction with an immediate */
  if (e->op_type->kind == TY_INT && (e->op == DR_BIN_ADD || e->op == DR_BIN_SUB)) {
    DrExpr *var = NULL;
    int32_t k = 0;
    if (e->rhs->is_const) {
      var = e->lhs;
      k = e->rhs->cval.i;
      if (e->op == DR_BIN_SUB) k = (int32_t)(0u - (uint32_t)k);
    } else if (e->lhs->is_const && e->op == DR_BIN_ADD) {
      var = e->rhs;
      k = e->lhs->cval.i;
    }
    if (var) {
      int a = em_expr(E, var, EM_ANY);
      em_free(E, a);
      int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
      em_op(E, DR_OP_ADDK_I, 3, r, a, (int)k);
      return finish(E, r, dst);
    }
  }
  int a = em_expr(E, e->lhs, EM_ANY);
  a = pin1(E, a, e->rhs);
  int b = em_expr(E, e->rhs, EM_ANY);
  em_free(E, a);
  em_free(E, b);
  DrKind k = em_kind(e->op_type);
  DrOpcode op = is_compare(e->op) ? cmp_op(e->op, k) : arith_op(e->op, k);
  int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
  if (op == DR_OP_DIV_I || op == DR_OP_REM_I || op == DR_OP_DIV_J || op == DR_OP_REM_J) em_line(E, e->pos.line);
  em_op(E, op, 3, r, a, b);
  return finish(E, r, dst);
}

static int unary(Em *E, DrExpr *e, int dst) {
  if (e->op == '+') return em_expr(E, e->target, dst);
  int a = em_expr(E, e->target, EM_ANY);
  em_free(E, a);
  int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
  DrKind k = em_kind(e->type);
  switch (e->op) {
  case '-':
    em_op(E, k == DR_K_LONG ? DR_OP_NEG_J : k == DR_K_DOUBLE ? DR_OP_NEG_D : k == DR_K_FLOAT ? DR_OP_NEG_F : DR_OP_NEG_I,
          2, r, a);
    break;
  case '!': em_op(E, DR_OP_NOT_Z, 2, r, a); break;
  case '~': {
    int m = em_temp(E, false);
    if (k == DR_K_LONG) {
      em_const_long(E, m, -1);
      em_op(E, DR_OP_XOR_J, 3, r, a, m);
    } else {
      em_const_int(E, m, -1);
      em_op(E, DR_OP_XOR_I, 3, r, a, m);
    }
    em_free(E, m);
    break;
  }
  default: UNREACHABLE();
  }
  return finish(E, r, dst);
}

/* ----------------------------------------------------------- assignment */

static int assign(Em *E, DrExpr *e, int dst) {
  DrExpr *t = e->target;
  int line = e->pos.line;
  if (e->op == DR_BIN_NONE) {
    if (t->kind == E_LOCAL) {
      int reg = t->local->reg;
      if (direct_ok(e->rhs)) {
        em_expr(E, e->rhs, reg);
      } else {
        int v = em_expr(E, e->rhs, EM_ANY);
        em_mov(E, reg, v);
        em_free(E, v);
      }
      em_var_assigned(E, reg); /* `int x; ... x = 1;`: x readable from here */
      if (dst >= 0) {
        em_mov(E, dst, reg);
        return dst;
      }
      return dst == EM_DISCARD ? -1 : reg;
    }
    Loc L;
    loc_prepare(E, t, &L, e->rhs);
    int v = em_expr(E, e->rhs, EM_ANY);
    loc_store(E, &L, v, line);
    loc_release(E, &L);
    if (dst == EM_DISCARD) {
      em_free(E, v);
      return -1;
    }
    if (dst >= 0) {
      em_mov(E, dst, v);
      em_free(E, v);
      return dst;
    }
    if (!em_is_temp(E, v)) {
      int c = em_temp(E, E->reg_ref[v] != 0);
      em_mov(E, c, v);
      v = c;
    }
    return v;
  }
  /* compound: the variable is read once, before the right operand */
  Loc L;
  loc_prepare(E, t, &L, e->rhs);
  int cur = loc_load(E, &L, line);
  cur = pin1(E, cur, e->rhs);
  int res;
  if (e->op_type == E->c_string->type) {
    int regs[2], kinds[2] = {DR_K_REF, 0};
    regs[0] = cur;
    regs[1] = concat_operand(E, e->rhs, &kinds[1]);
    res = strcat_regs(E, EM_ANY, regs, kinds, 2, line);
  } else {
    int a = em_convert(E, cur, t->type, e->op_type, EM_ANY);
    int b = em_expr(E, e->rhs, EM_ANY);
    DrOpcode op = arith_op(e->op, em_kind(e->op_type));
    if (a != cur) em_free(E, a);
    em_free(E, b);
    em_free(E, cur);
    /* a local of the operation's own type is updated in place */
    bool in_place = L.kind == E_LOCAL && t->type == e->op_type;
    int r = in_place ? L.local->reg : em_temp_for(E, e->op_type);
    em_line(E, line);
    em_op(E, op, 3, r, a, b);
    res = em_convert(E, r, e->op_type, t->type, EM_ANY);
    if (res != r) em_free(E, r);
  }
  loc_store(E, &L, res, line);
  loc_release(E, &L);
  if (dst == EM_DISCARD) {
    em_free(E, res);
    return -1;
  }
  if (dst >= 0) {
    em_mov(E, dst, res);
    em_free(E, res);
    return dst;
  }
  return res;
}

static int incdec(Em *E, DrExpr *e, int dst) {
  DrExpr *t = e->target;
  bool post = e->kind == E_POSTINC || e->kind == E_POSTDEC;
  bool inc = e->kind == E_PREINC || e->kind == E_POSTINC;
  int line = e->pos.line;
  Loc L;
  loc_prepare(E, t, &L, NULL);
  int cur = loc_load(E, &L, line);
  int old = -1;
  if (post && dst != EM_DISCARD) {
    old = dst >= 0 ? dst : em_temp_for(E, t->type);
    em_mov(E, old, cur);
  }
  /* the new value is computed in place: cur is the local itself or a
   * temporary holding the loaded value (a box: its opened value, boxed
   * again into cur after) */
  const DrType *boxed = em_unboxed_type(E, t->type);
  int box_reg = cur;
  if (boxed) cur = em_convert(E, box_reg, t->type, boxed, em_temp_for(E, (DrType *)boxed));
  DrKind k = em_kind(boxed ? boxed : t->type);
  if (k == DR_K_LONG || k == DR_K_DOUBLE || k == DR_K_FLOAT) {
    int one = em_temp(E, false);
    if (k == DR_K_LONG) {
      em_const_long(E, one, 1);
      em_op(E, inc ? DR_OP_ADD_J : DR_OP_SUB_J, 3, cur, cur, one);
    } else if (k == DR_K_FLOAT) {
      em_const_float(E, one, 1.0);
      em_op(E, inc ? DR_OP_ADD_F : DR_OP_SUB_F, 3, cur, cur, one);
    } else {
      em_const_double(E, one, 1.0);
      em_op(E, inc ? DR_OP_ADD_D : DR_OP_SUB_D, 3, cur, cur, one);
    }
    em_free(E, one);
  } else {
    em_op(E, DR_OP_ADDK_I, 3, cur, cur, inc ? 1 : -1);
    if (k == DR_K_CHAR || k == DR_K_BYTE || k == DR_K_SHORT) em_op(E, narrow_op(k), 2, cur, cur);
  }
  if (boxed) {
    em_convert(E, cur, boxed, t->type, box_reg);
    em_free(E, cur);
    cur = box_reg;
  }
  if (L.kind != E_LOCAL) loc_store(E, &L, cur, line);
  loc_release(E, &L);
  if (post) {
    em_free(E, cur);
    return dst == EM_DISCARD ? -1 : old;
  }
  if (dst == EM_DISCARD) {
    em_free(E, cur);
    return -1;
  }
  if (dst >= 0) {
    em_mov(E, dst, cur);
    em_free(E, cur);
    return dst;
  }
  return cur;
}

/* ----------------------------------------------------------- conditions */

static bool is_null(const DrExpr *e) { return e->kind == E_NULL_LIT || (e->type && e->type->kind == TY_NULL); }

static void cond_compare(Em *E, DrExpr *e, bool jump_if, EmLabel *target) {
  DrKind k = em_kind(e->op_type);
  int op = e->op;
  if (!jump_if) {
    /* negating a comparison is exact for ints and references; doubles
     * (NaN) go through a boolean instead */
    if (k == DR_K_DOUBLE || k == DR_K_FLOAT || k == DR_K_LONG) goto via_value;
    switch (op) {
    case DR_BIN_EQ: op = DR_BIN_NE; break;
    case DR_BIN_NE: op = DR_BIN_EQ; break;
    case DR_BIN_LT: op = DR_BIN_GE; break;
    case DR_BIN_GE: op = DR_BIN_LT; break;
    case DR_BIN_GT: op = DR_BIN_LE; break;
    case DR_BIN_LE: op = DR_BIN_GT; break;
    default: break;
    }
  }
  if (k == DR_K_REF) {
    DrExpr *other = is_null(e->rhs) ? e->lhs : is_null(e->lhs) ? e->rhs : NULL;
    if (other) {
      int r = em_expr(E, other, EM_ANY);
      em_free(E, r);
      uint32_t ops[1] = {(uint32_t)r};
      em_jump(E, op == DR_BIN_EQ ? DR_OP_JNULL : DR_OP_JNONNULL, 1, ops, target);
      return;
    }
  }
  if (k == DR_K_REF || int_like(k)) {
    int a = em_expr(E, e->lhs, EM_ANY);
    a = pin1(E, a, e->rhs);
    int b = em_expr(E, e->rhs, EM_ANY);
    em_free(E, a);
    em_free(E, b);
    uint32_t ops[2] = {(uint32_t)a, (uint32_t)b};
    DrOpcode j;
    if (k == DR_K_REF) {
      j = op == DR_BIN_EQ ? DR_OP_JEQ_A : DR_OP_JNE_A;
    } else {
      switch (op) {
      case DR_BIN_EQ: j = DR_OP_JEQ_I; break;
      case DR_BIN_NE: j = DR_OP_JNE_I; break;
      case DR_BIN_LT: j = DR_OP_JLT_I; break;
      case DR_BIN_LE: j = DR_OP_JLE_I; break;
      case DR_BIN_GT: j = DR_OP_JGT_I; break;
      default: j = DR_OP_JGE_I; break;
      }
    }
    em_jump(E, j, 2, ops, target);
    return;
  }
via_value: {
  int r = em_expr(E, e, EM_ANY);
  em_free(E, r);
  uint32_t ops[1] = {(uint32_t)r};
  em_jump(E, jump_if ? DR_OP_JNZ : DR_OP_JZ, 1, ops, target);
}
}

void em_cond(Em *E, DrExpr *e, bool jump_if, EmLabel *target) {
  if (e->is_const) {
    if ((e->cval.i != 0) == jump_if) em_jmp(E, target);
    return;
  }
  if (e->kind == E_UNARY && e->op == '!') {
    em_cond(E, e->target, !jump_if, target);
    return;
  }
  if (e->kind == E_BINARY && (e->op == DR_BIN_LAND || e->op == DR_BIN_LOR)) {
    bool land = e->op == DR_BIN_LAND;
    if (land != jump_if) {
      /* && jumping on false, || jumping on true: either operand decides */
      em_cond(E, e->lhs, jump_if, target);
      em_cond(E, e->rhs, jump_if, target);
    } else {
      EmLabel skip;
      em_label_init(&skip);
      em_cond(E, e->lhs, !jump_if, &skip);
      em_cond(E, e->rhs, jump_if, target);
      em_bind(E, &skip);
      em_label_free(&skip);
    }
    return;
  }
  if (e->kind == E_BINARY && is_compare(e->op)) {
    cond_compare(E, e, jump_if, target);
    return;
  }
  int r = em_expr(E, e, EM_ANY);
  em_free(E, r);
  uint32_t ops[1] = {(uint32_t)r};
  em_jump(E, jump_if ? DR_OP_JNZ : DR_OP_JZ, 1, ops, target);
}

/* A type pattern's binding gets the tested object when the test (in
 * register ok) succeeded. */
static void bind_pattern(Em *E, DrLocalSym *l, int ok, int obj) {
  EmLabel skip;
  em_label_init(&skip);
  uint32_t ops[1] = {(uint32_t)ok};
  em_jump(E, DR_OP_JZ, 1, ops, &skip);
  em_mov(E, l->reg, obj);
  em_var_local(E, l, true);
  em_bind(E, &skip);
  em_label_free(&skip);
}

/* ----------------------------------------------------------------- main */

int em_expr(Em *E, DrExpr *e, int dst) {
  if (e->is_const && e->kind != E_ASSIGN) return const_value(E, e, dst);
  switch (e->kind) {
  case E_INT_LIT:
  case E_LONG_LIT:
  case E_DOUBLE_LIT:
  case E_FLOAT_LIT:
  case E_CHAR_LIT:
  case E_BOOL_LIT:
  case E_STRING_LIT:
  case E_NULL_LIT: return literal(E, e, dst);
  case E_LOCAL:
  case E_THIS: {
    int reg = e->kind == E_THIS ? 0 : e->local->reg;
    if (dst == EM_DISCARD) return -1;
    if (dst >= 0) {
      em_mov(E, dst, reg);
      return dst;
    }
    return reg;
  }
  case E_FIELD: {
    int o = em_expr(E, e->target, EM_ANY);
    em_free(E, o);
    int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
    em_line(E, e->pos.line);
    em_op(E, em_field_op(e->field, false), 3, r, o, e->field->slot);
    return finish(E, r, dst);
  }
  case E_STATIC_FIELD: {
    int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
    em_line(E, e->pos.line);
    em_op(E, em_field_op(e->field, false), 3, r, e->field->owner->rt->id, e->field->slot);
    return finish(E, r, dst);
  }
  case E_ARRAY_LENGTH: {
    int a = em_expr(E, e->target, EM_ANY);
    em_free(E, a);
    int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
    em_line(E, e->pos.line);
    em_op(E, DR_OP_ALEN, 2, r, a);
    return finish(E, r, dst);
  }
  case E_INDEX: {
    int a = em_expr(E, e->target, EM_ANY);
    a = pin1(E, a, e->rhs);
    int i = em_expr(E, e->rhs, EM_ANY);
    em_free(E, a);
    em_free(E, i);
    int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
    em_line(E, e->pos.line);
    em_op(E, em_aload_op(em_kind(e->type)), 3, r, a, i);
    return finish(E, r, dst);
  }
  case E_CALL: return call(E, e, dst);
  case E_NEW: return new_object(E, e, dst);
  case E_NEW_ARRAY: return new_array(E, e, dst);
  case E_ARRAY_INIT: {
    int r = em_temp(E, true);
    em_array_init(E, e, r);
    if (dst >= 0) {
      em_mov(E, dst, r);
      em_free(E, r);
      return dst;
    }
    return finish(E, r, dst);
  }
  case E_UNARY: return unary(E, e, dst);
  case E_PREINC:
  case E_PREDEC:
  case E_POSTINC:
  case E_POSTDEC: return incdec(E, e, dst);
  case E_BINARY: return binary(E, e, dst);
  case E_ASSIGN: return assign(E, e, dst);
  case E_COND: {
    int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
    EmLabel lelse, end;
    em_label_init(&lelse);
    em_label_init(&end);
    em_cond(E, e->cond, false, &lelse);
    em_expr(E, e->lhs, r);
    em_jmp(E, &end);
    em_bind(E, &lelse);
    em_expr(E, e->rhs, r);
    em_bind(E, &end);
    em_label_free(&lelse);
    em_label_free(&end);
    return finish(E, r, dst);
  }
  case E_CAST: {
    DrType *from = e->target->type, *to = e->type;
    if (em_is_ref(to)) {
      int r = em_expr(E, e->target, dst == EM_DISCARD ? EM_ANY : dst);
      if (from != to && to != E->c_object->type && from->kind != TY_NULL) {
        em_line(E, e->pos.line);
        em_op(E, DR_OP_CHECKCAST, 2, r, em_class_rt(E, to)->id);
      }
      return finish(E, r, dst);
    }
    int s = em_expr(E, e->target, EM_ANY);
    int r = em_convert(E, s, from, to, dst == EM_DISCARD ? EM_ANY : dst);
    if (r != s) em_free(E, s);
    return finish(E, r, dst);
  }
  case E_CONVERT: {
    int s = em_expr(E, e->target, EM_ANY);
    int r = em_convert(E, s, e->target->type, e->type, dst == EM_DISCARD ? EM_ANY : dst);
    if (r != s) em_free(E, s);
    return finish(E, r, dst);
  }
  case E_CLASS_LIT: {
    if (dst == EM_DISCARD) return -1;
    int r = result_reg(E, dst, e->type);
    em_op(E, DR_OP_CLASSLOCK, 2, r, em_class_rt(E, e->tref.resolved)->id);
    return finish(E, r, dst);
  }
  case E_INSTANCEOF: {
    int o = em_expr(E, e->target, EM_ANY);
    em_free(E, o);
    int r = result_reg(E, dst == EM_DISCARD ? EM_ANY : dst, e->type);
    em_op(E, DR_OP_INSTANCEOF, 3, r, o, em_class_rt(E, e->tref.resolved)->id);
    if (e->local) bind_pattern(E, e->local, r, o);
    return finish(E, r, dst);
  }
  case E_SWITCH: {
    /* a fresh register: the cases may read the local dst is */
    int r = em_temp_for(E, e->type);
    em_switch(E, e->sw, r);
    if (dst >= 0) {
      em_mov(E, dst, r);
      em_free(E, r);
      return dst;
    }
    return finish(E, r, dst);
  }
  case E_TYPE:
  case E_NAME:
  case E_FIELD_ACCESS:
  case E_LAMBDA:       /* the checker made them E_NEW */
  case E_METHOD_REF: break;
  }
  dr_panic(__FILE__, __LINE__, "emitter: unexpected expression kind %d at line %d", (int)e->kind, e->pos.line);
}
