/* Types, conversions (JLS 5) and constant folding (JLS 15.29) for the
 * checker.  Constant folding uses the same arithmetic as the VM: wrapping
 * int/long (computed unsigned to avoid C's undefined behaviour), IEEE
 * doubles, Java's saturating double-to-integer casts, and the VM's own
 * Double.toString for string concatenation of constants (so that a folded
 * "" + 0.1 is exactly the string the VM would build at run time). */
#include <math.h>
#include <string.h>

#include "checker_generic.h"

void chk_init_types(DrChecker *c) {
  DrTypes *T = c->T;
  memset(T, 0, sizeof(*T));
  T->t_void.kind = TY_VOID;
  T->t_boolean.kind = TY_BOOLEAN;
  T->t_char.kind = TY_CHAR;
  T->t_int.kind = TY_INT;
  T->t_long.kind = TY_LONG;
  T->t_double.kind = TY_DOUBLE;
  T->t_byte.kind = TY_BYTE;
  T->t_short.kind = TY_SHORT;
  T->t_float.kind = TY_FLOAT;
  T->t_null.kind = TY_NULL;
  T->t_error.kind = TY_ERROR;
}

DrType *chk_array_of(DrChecker *c, DrType *elem) {
  if (!elem) return NULL;
  if (elem->kind == TY_ERROR) return elem;
  if (!elem->array_of) {
    DrType *t = dr_arena_alloc(c->arena, sizeof(DrType));
    t->kind = TY_ARRAY;
    t->elem = elem;
    elem->array_of = t;
  }
  return elem->array_of;
}

const char *dr_type_name(DrArena *arena, const DrType *t) {
  if (!t) return "<none>";
  switch (t->kind) {
  case TY_VOID: return "void";
  case TY_BOOLEAN: return "boolean";
  case TY_CHAR: return "char";
  case TY_INT: return "int";
  case TY_LONG: return "long";
  case TY_DOUBLE: return "double";
  case TY_BYTE: return "byte";
  case TY_SHORT: return "short";
  case TY_FLOAT: return "float";
  case TY_NULL: return "<null>";
  case TY_CLASS: return t->cls->source_name;
  case TY_ARRAY: return dr_arena_printf(arena, "%s[]", dr_type_name(arena, t->elem));
  case TY_ERROR: return "<any>";
  }
  return "?";
}

DrType *dr_prim_type(DrTypes *T, DrTypeKind k) {
  switch (k) {
  case TY_BOOLEAN: return &T->t_boolean;
  case TY_CHAR: return &T->t_char;
  case TY_BYTE: return &T->t_byte;
  case TY_SHORT: return &T->t_short;
  case TY_INT: return &T->t_int;
  case TY_LONG: return &T->t_long;
  case TY_FLOAT: return &T->t_float;
  case TY_DOUBLE: return &T->t_double;
  default: return NULL;
  }
}

const char *chk_type_str(DrChecker *c, const DrType *t) { return chk_gen_type_str(c, t); }

bool chk_is_prim(const DrType *t) { return t && (t->kind == TY_BOOLEAN || chk_is_numeric(t)); }
bool chk_is_numeric(const DrType *t) {
  return t && (chk_is_integral(t) || t->kind == TY_FLOAT || t->kind == TY_DOUBLE);
}
bool chk_is_integral(const DrType *t) {
  return t && (t->kind == TY_CHAR || t->kind == TY_BYTE || t->kind == TY_SHORT || t->kind == TY_INT ||
               t->kind == TY_LONG);
}
/* byte, short, char and int: the types held in an int (and promoted to it) */
static bool int_sized(DrTypeKind k) { return k == TY_BYTE || k == TY_SHORT || k == TY_CHAR || k == TY_INT; }
bool chk_is_ref(const DrType *t) {
  return t && (t->kind == TY_CLASS || t->kind == TY_ARRAY || t->kind == TY_NULL);
}
bool chk_is_err(const DrType *t) { return !t || t->kind == TY_ERROR; }
bool chk_is_string(DrChecker *c, const DrType *t) { return t && c->t_string && t == c->t_string; }

/* a is b or inherits from it (classes and interfaces).  Supertype cycles
 * are cut when they are reported, so the walk terminates. */
bool chk_subclass(const DrClassSym *a, const DrClassSym *b) {
  if (!a || !b) return false;
  if (a == b) return true;
  if (a->super && chk_subclass(a->super, b)) return true;
  for (int i = 0; i < a->ninterfaces; i++)
    if (chk_subclass(a->interfaces[i], b)) return true;
  return false;
}

/* Reference subtyping (JLS 4.10), for widening reference conversion. */
bool chk_subtype(DrChecker *c, DrType *s, DrType *t) {
  if (s == t) return true;
  if (chk_is_err(s) || chk_is_err(t)) return true;
  if (s->kind == TY_NULL) return t->kind == TY_CLASS || t->kind == TY_ARRAY;
  if (t->kind == TY_CLASS && t == c->t_object) return s->kind == TY_CLASS || s->kind == TY_ARRAY;
  bool gen = false;
  if (chk_gen_subtype(c, s, t, &gen)) return gen;
  if (s->kind == TY_CLASS && t->kind == TY_CLASS) return chk_subclass(s->cls, t->cls);
  if (s->kind == TY_ARRAY && t->kind == TY_ARRAY)
    return chk_is_ref(s->elem) && chk_is_ref(t->elem) && chk_subtype(c, s->elem, t->elem);
  return false;
}

bool chk_prim_widens(const DrType *s, const DrType *t) {
  if (s == t) return true;
  /* JLS 5.1.2: up the chain byte < short < int < long < float < double;
   * char joins at int; nothing widens to char */
  bool up = t->kind == TY_INT || t->kind == TY_LONG || t->kind == TY_FLOAT || t->kind == TY_DOUBLE;
  switch (s->kind) {
  case TY_BYTE: return up || t->kind == TY_SHORT;
  case TY_SHORT:
  case TY_CHAR: return up;
  case TY_INT: return up && t->kind != TY_INT;
  case TY_LONG: return t->kind == TY_FLOAT || t->kind == TY_DOUBLE;
  case TY_FLOAT: return t->kind == TY_DOUBLE;
  default: return false;
  }
}

/* Method invocation conversion without boxing or varargs (JLS 5.3). */
bool chk_invocation_conv(DrChecker *c, DrType *s, DrType *t) {
  if (chk_is_err(s) || chk_is_err(t)) return true;
  if (s->kind == TY_VOID || t->kind == TY_VOID) return false;
  if (chk_is_prim(s) || chk_is_prim(t)) return chk_is_prim(s) && chk_is_prim(t) && chk_prim_widens(s, t);
  return chk_subtype(c, s, t);
}

static bool class_is_final(const DrClassSym *k) { return (k->flags & DR_CLS_SYM_FINAL) != 0; }

/* Casting conversion legality (JLS 5.5) for DL's types. */
bool chk_castable(DrChecker *c, DrType *s, DrType *t) {
  if (chk_is_err(s) || chk_is_err(t)) return true;
  if (s->kind == TY_VOID || t->kind == TY_VOID) return false;
  if (chk_is_prim(s) || chk_is_prim(t)) {
    if (!chk_is_prim(s) || !chk_is_prim(t)) return false;
    if (s->kind == TY_BOOLEAN || t->kind == TY_BOOLEAN) return s->kind == t->kind;
    return true;
  }
  if (t->kind == TY_NULL) return false;
  if (s->kind == TY_NULL) return true;
  bool gen = false;
  if (chk_gen_castable(c, s, t, &gen)) return gen;
  if (chk_subtype(c, s, t) || chk_subtype(c, t, s)) return true;
  if (s->kind == TY_CLASS && t->kind == TY_CLASS) {
    bool si = chk_is_interface(s->cls), ti = chk_is_interface(t->cls);
    if (si && ti) return true;
    if (!si && !ti) return false; /* unrelated classes */
    /* class <-> interface: fine unless the class is final (then it would
     * have to implement the interface, which subtype() already tried) */
    DrClassSym *k = si ? t->cls : s->cls;
    return !class_is_final(k);
  }
  if (s->kind == TY_ARRAY && t->kind == TY_ARRAY) {
    if (chk_is_prim(s->elem) || chk_is_prim(t->elem)) return s->elem == t->elem;
    return chk_castable(c, s->elem, t->elem);
  }
  return false;
}

DrType *chk_unary_promote(DrChecker *c, DrType *t) {
  if (!t) return NULL;
  switch (t->kind) {
  case TY_BYTE:
  case TY_SHORT:
  case TY_CHAR:
  case TY_INT: return &c->T->t_int;
  case TY_LONG: return &c->T->t_long;
  case TY_FLOAT: return &c->T->t_float;
  case TY_DOUBLE: return &c->T->t_double;
  default: return NULL;
  }
}

DrType *chk_binary_promote(DrChecker *c, DrType *a, DrType *b) {
  if (!chk_is_numeric(a) || !chk_is_numeric(b)) return NULL;
  if (a->kind == TY_DOUBLE || b->kind == TY_DOUBLE) return &c->T->t_double;
  if (a->kind == TY_FLOAT || b->kind == TY_FLOAT) return &c->T->t_float;
  if (a->kind == TY_LONG || b->kind == TY_LONG) return &c->T->t_long;
  return &c->T->t_int;
}

/* ------------------------------------------------------------ constants */

static int32_t d2i(double d) {
  if (isnan(d)) return 0;
  if (d >= 2147483647.0) return INT32_MAX;
  if (d <= -2147483648.0) return INT32_MIN;
  return (int32_t)d;
}

static int64_t d2l(double d) {
  if (isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

static int64_t const_as_long(DrConst v) {
  switch (v.kind) {
  case TY_LONG: return v.j;
  case TY_FLOAT:
  case TY_DOUBLE: return d2l(v.d);
  default: return v.i;
  }
}

/* JLS 5.1.3: a floating value narrows to byte, short or char via int */
static int32_t const_as_int(DrConst v) {
  if (v.kind == TY_DOUBLE || v.kind == TY_FLOAT) return d2i(v.d);
  return (int32_t)(uint32_t)(uint64_t)const_as_long(v);
}

static double const_as_double(DrConst v) {
  if (v.kind == TY_DOUBLE || v.kind == TY_FLOAT) return v.d;
  return v.kind == TY_LONG ? (double)v.j : (double)v.i;
}

/* v converted to t as a Java cast would (t primitive or String). */
DrConst chk_const_cast(DrChecker *c, DrConst v, DrType *t) {
  (void)c;
  DrConst r;
  memset(&r, 0, sizeof r);
  /* boolean -> boolean and String -> String are identities */
  if (!t || !chk_is_numeric(t) || v.kind == TY_BOOLEAN || v.kind == TY_CLASS) return v;
  r.kind = t->kind;
  switch (t->kind) {
  case TY_INT: r.i = const_as_int(v); break;
  case TY_CHAR: r.i = (int32_t)((uint32_t)const_as_int(v) & 0xFFFFu); break;
  case TY_BYTE: r.i = (int8_t)(uint8_t)((uint32_t)const_as_int(v) & 0xFFu); break;
  case TY_SHORT: r.i = (int16_t)(uint16_t)((uint32_t)const_as_int(v) & 0xFFFFu); break;
  case TY_LONG: r.j = const_as_long(v); break;
  /* one rounding, from the exact value (a long goes straight to float) */
  case TY_FLOAT: r.d = v.kind == TY_LONG ? (double)(float)v.j : (double)(float)const_as_double(v); break;
  case TY_DOUBLE: r.d = const_as_double(v); break;
  default: break;
  }
  return r;
}

/* Rewrites e in place into the literal of value v and type t: the emitter
 * then sees folded constants as plain literals (ast.h: "also produced by
 * folding"), and is_const/cval stay set for the checker's own uses. */
void chk_set_const(DrChecker *c, DrExpr *e, DrType *t, DrConst v) {
  (void)c;
  DrPos pos = e->pos;
  memset(e, 0, sizeof(*e));
  e->pos = pos;
  e->type = t;
  e->is_const = true;
  e->cval = v;
  switch (t->kind) {
  case TY_BOOLEAN: e->kind = E_BOOL_LIT; e->lit.i = v.i; break;
  case TY_CHAR: e->kind = E_CHAR_LIT; e->lit.i = v.i; break;
  case TY_BYTE:
  case TY_SHORT:
  case TY_INT: e->kind = E_INT_LIT; e->lit.i = v.i; break;
  case TY_FLOAT: e->kind = E_FLOAT_LIT; e->lit.d = v.d; break;
  case TY_LONG: e->kind = E_LONG_LIT; e->lit.j = v.j; break;
  case TY_DOUBLE: e->kind = E_DOUBLE_LIT; e->lit.d = v.d; break;
  default:
    e->kind = E_STRING_LIT;
    e->lit.s = v.s;
    e->lit.slen = v.slen;
    break;
  }
}

/* Inserts the implicit primitive conversion of e to t (in place: e becomes
 * the E_CONVERT node and its old contents move to a new child, so parents
 * need not be patched).  Constants are converted at compile time. */
void chk_coerce(DrChecker *c, DrExpr *e, DrType *t) {
  if (!e || !t || chk_is_err(e->type) || chk_is_err(t) || e->type == t) return;
  chk_gen_relax(c, e, t);
  bool sp = chk_is_prim(e->type), tp = chk_is_prim(t);
  /* besides primitive conversions: boxing (to a class type) and unboxing */
  if (!sp && !tp) return;
  if (sp && !tp && (t->kind != TY_CLASS || !chk_boxed_type(c, e->type))) return;
  if (!sp && tp && !chk_unboxed_type(c, e->type)) return;
  if (e->is_const && sp && tp) {
    chk_set_const(c, e, t, chk_const_cast(c, e->cval, t));
    return;
  }
  DrExpr *inner = dr_arena_alloc(c->arena, sizeof(DrExpr));
  *inner = *e;
  memset(e, 0, sizeof(*e));
  e->kind = E_CONVERT;
  e->pos = inner->pos;
  e->type = t;
  e->target = inner;
}

/* JLS 5.2: a constant of type byte, short, char or int whose value fits
 * byte, short or char narrows implicitly. */
bool chk_const_fits(const DrExpr *e, const DrType *t) {
  if (!e->is_const || !e->type || !int_sized(e->type->kind)) return false;
  int32_t v = e->cval.i;
  switch (t->kind) {
  case TY_CHAR: return v >= 0 && v <= 0xFFFF;
  case TY_BYTE: return v >= -128 && v <= 127;
  case TY_SHORT: return v >= -32768 && v <= 32767;
  default: return false;
  }
}

/* Assignment conversion (JLS 5.2) of e to t, with the error javac gives. */
bool chk_assign_to(DrChecker *c, DrExpr *e, DrType *t) {
  if (!e || chk_is_err(e->type) || chk_is_err(t)) return true;
  DrType *s = e->type;
  if (s == t) return true;
  if (chk_is_prim(s) && chk_is_prim(t) && chk_prim_widens(s, t)) {
    chk_coerce(c, e, t);
    return true;
  }
  if (chk_const_fits(e, t)) {
    chk_coerce(c, e, t);
    return true;
  }
  if (chk_is_ref(s) && chk_is_ref(t) && chk_subtype(c, s, t)) {
    chk_gen_relax(c, e, t);
    return true;
  }
  if (chk_assign_boxing(c, e, t)) return true;
  if (e->kind == E_SWITCH && e->nargs) return chk_switch_poly(c, e, t);
  if (chk_is_numeric(s) && chk_is_numeric(t))
    chk_error(c, e->pos, "incompatible types: possible lossy conversion from %s to %s", chk_type_str(c, s),
              chk_type_str(c, t));
  else
    chk_error(c, e->pos, "incompatible types: %s cannot be converted to %s", chk_type_str(c, s),
              chk_type_str(c, t));
  return false;
}

bool chk_fold_unary(DrChecker *c, int op, DrConst a, DrType *t, DrConst *out) {
  (void)c;
  DrConst r;
  memset(&r, 0, sizeof r);
  r.kind = t->kind;
  switch (op) {
  case '+': r = a; break;
  case '-':
    if (t->kind == TY_INT) r.i = (int32_t)(0u - (uint32_t)a.i);
    else if (t->kind == TY_LONG) r.j = (int64_t)(0u - (uint64_t)a.j);
    else if (t->kind == TY_DOUBLE || t->kind == TY_FLOAT) r.d = -a.d;
    else return false;
    break;
  case '~':
    if (t->kind == TY_INT) r.i = ~a.i;
    else if (t->kind == TY_LONG) r.j = ~a.j;
    else return false;
    break;
  case '!':
    if (t->kind != TY_BOOLEAN) return false;
    r.i = !a.i;
    break;
  default: return false;
  }
  *out = r;
  return true;
}

static int32_t sar32(int32_t a, int n) { return a < 0 ? ~(int32_t)((uint32_t)~a >> n) : (int32_t)((uint32_t)a >> n); }
static int64_t sar64(int64_t a, int n) { return a < 0 ? ~(int64_t)((uint64_t)~a >> n) : (int64_t)((uint64_t)a >> n); }

static bool const_str_eq(DrConst a, DrConst b) {
  return a.slen == b.slen && (a.slen == 0 || memcmp(a.s, b.s, (size_t)a.slen * sizeof(uint16_t)) == 0);
}

bool chk_const_equal(DrConst a, DrConst b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case TY_LONG: return a.j == b.j;
  case TY_FLOAT:
  case TY_DOUBLE: return a.d == b.d;
  case TY_CLASS: return const_str_eq(a, b);
  default: return a.i == b.i;
  }
}

static bool cmp_result(int op, int cmp3, bool unordered, DrConst *r) {
  /* cmp3: <0, 0, >0; unordered: NaN involved (every comparison false
   * except !=) */
  bool v;
  switch (op) {
  case DR_BIN_LT: v = !unordered && cmp3 < 0; break;
  case DR_BIN_GT: v = !unordered && cmp3 > 0; break;
  case DR_BIN_LE: v = !unordered && cmp3 <= 0; break;
  case DR_BIN_GE: v = !unordered && cmp3 >= 0; break;
  case DR_BIN_EQ: v = !unordered && cmp3 == 0; break;
  case DR_BIN_NE: v = unordered || cmp3 != 0; break;
  default: return false;
  }
  r->kind = TY_BOOLEAN;
  r->i = v;
  return true;
}

/* a op b where both are already converted to optype (shift counts: int or
 * long).  Returns false when the result is not a constant (integer
 * division by zero throws at run time instead). */
bool chk_fold_binary(DrChecker *c, int op, DrType *optype, DrConst a, DrConst b, DrConst *out) {
  (void)c;
  DrConst r;
  memset(&r, 0, sizeof r);
  r.kind = optype->kind;
  switch (optype->kind) {
  case TY_INT: {
    uint32_t x = (uint32_t)a.i, y = (uint32_t)b.i;
    int n = (int)(b.kind == TY_LONG ? (b.j & 31) : (b.i & 31));
    switch (op) {
    case DR_BIN_ADD: r.i = (int32_t)(x + y); break;
    case DR_BIN_SUB: r.i = (int32_t)(x - y); break;
    case DR_BIN_MUL: r.i = (int32_t)(x * y); break;
    case DR_BIN_DIV:
      if (b.i == 0) return false;
      r.i = (a.i == INT32_MIN && b.i == -1) ? INT32_MIN : a.i / b.i;
      break;
    case DR_BIN_REM:
      if (b.i == 0) return false;
      r.i = (b.i == -1) ? 0 : a.i % b.i;
      break;
    case DR_BIN_SHL: r.i = (int32_t)(x << n); break;
    case DR_BIN_SHR: r.i = sar32(a.i, n); break;
    case DR_BIN_USHR: r.i = (int32_t)(x >> n); break;
    case DR_BIN_AND: r.i = (int32_t)(x & y); break;
    case DR_BIN_OR: r.i = (int32_t)(x | y); break;
    case DR_BIN_XOR: r.i = (int32_t)(x ^ y); break;
    default: return cmp_result(op, a.i < b.i ? -1 : a.i > b.i, false, out);
    }
    break;
  }
  case TY_LONG: {
    uint64_t x = (uint64_t)a.j, y = (uint64_t)b.j;
    int n = (int)(b.kind == TY_LONG ? (b.j & 63) : (b.i & 63));
    switch (op) {
    case DR_BIN_ADD: r.j = (int64_t)(x + y); break;
    case DR_BIN_SUB: r.j = (int64_t)(x - y); break;
    case DR_BIN_MUL: r.j = (int64_t)(x * y); break;
    case DR_BIN_DIV:
      if (b.j == 0) return false;
      r.j = (a.j == INT64_MIN && b.j == -1) ? INT64_MIN : a.j / b.j;
      break;
    case DR_BIN_REM:
      if (b.j == 0) return false;
      r.j = (b.j == -1) ? 0 : a.j % b.j;
      break;
    case DR_BIN_SHL: r.j = (int64_t)(x << n); break;
    case DR_BIN_SHR: r.j = sar64(a.j, n); break;
    case DR_BIN_USHR: r.j = (int64_t)(x >> n); break;
    case DR_BIN_AND: r.j = (int64_t)(x & y); break;
    case DR_BIN_OR: r.j = (int64_t)(x | y); break;
    case DR_BIN_XOR: r.j = (int64_t)(x ^ y); break;
    default: return cmp_result(op, a.j < b.j ? -1 : a.j > b.j, false, out);
    }
    break;
  }
  case TY_FLOAT:
  case TY_DOUBLE:
    switch (op) {
    case DR_BIN_ADD: r.d = a.d + b.d; break;
    case DR_BIN_SUB: r.d = a.d - b.d; break;
    case DR_BIN_MUL: r.d = a.d * b.d; break;
    case DR_BIN_DIV: r.d = a.d / b.d; break;
    case DR_BIN_REM: r.d = fmod(a.d, b.d); break;
    default:
      return cmp_result(op, a.d < b.d ? -1 : a.d > b.d, isnan(a.d) || isnan(b.d), out);
    }
    /* + - * / of two floats computed in double and rounded once to float
     * give the float result exactly (53 >= 2*24+2), and fmod is exact */
    if (optype->kind == TY_FLOAT) r.d = (double)(float)r.d;
    break;
  case TY_BOOLEAN:
    switch (op) {
    case DR_BIN_AND:
    case DR_BIN_LAND: r.i = a.i && b.i; break;
    case DR_BIN_OR:
    case DR_BIN_LOR: r.i = a.i || b.i; break;
    case DR_BIN_XOR:
    case DR_BIN_NE: r.i = (a.i != 0) != (b.i != 0); break;
    case DR_BIN_EQ: r.i = (a.i != 0) == (b.i != 0); break;
    default: return false;
    }
    break;
  case TY_CLASS: /* String == String: constants are interned */
    if (op != DR_BIN_EQ && op != DR_BIN_NE) return false;
    r.kind = TY_BOOLEAN;
    r.i = const_str_eq(a, b) == (op == DR_BIN_EQ);
    break;
  default: return false;
  }
  *out = r;
  return true;
}

/* The string conversion of a constant (JLS 5.1.11), as UTF-16. */
static void const_text(DrChecker *c, DrConst v, const uint16_t **s, int *n) {
  char buf[64];
  switch (v.kind) {
  case TY_CLASS:
    *s = v.s;
    *n = v.slen;
    return;
  case TY_CHAR: {
    uint16_t *u = dr_arena_alloc(c->arena, sizeof(uint16_t));
    u[0] = (uint16_t)v.i;
    *s = u;
    *n = 1;
    return;
  }
  case TY_BOOLEAN: snprintf(buf, sizeof buf, "%s", v.i ? "true" : "false"); break;
  case TY_BYTE:
  case TY_SHORT:
  case TY_INT: snprintf(buf, sizeof buf, "%d", (int)v.i); break;
  case TY_FLOAT: dr_float_to_string((float)v.d, buf); break;
  case TY_LONG: snprintf(buf, sizeof buf, "%lld", (long long)v.j); break;
  case TY_DOUBLE: dr_double_to_string(v.d, buf); break;
  default: buf[0] = '\0'; break;
  }
  int len = (int)strlen(buf);
  uint16_t *u = dr_arena_alloc(c->arena, sizeof(uint16_t) * (size_t)(len + 1));
  for (int i = 0; i < len; i++) u[i] = (uint16_t)(unsigned char)buf[i];
  *s = u;
  *n = len;
}

DrConst chk_const_concat(DrChecker *c, DrConst a, DrConst b) {
  const uint16_t *sa, *sb;
  int na, nb;
  const_text(c, a, &sa, &na);
  const_text(c, b, &sb, &nb);
  uint16_t *u = dr_arena_alloc(c->arena, sizeof(uint16_t) * (size_t)(na + nb + 1));
  if (na) memcpy(u, sa, sizeof(uint16_t) * (size_t)na);
  if (nb) memcpy(u + na, sb, sizeof(uint16_t) * (size_t)nb);
  DrConst r;
  memset(&r, 0, sizeof r);
  r.kind = TY_CLASS;
  r.s = u;
  r.slen = na + nb;
  return r;
}
