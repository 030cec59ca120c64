/* Boxing and unboxing (JLS 5.1.7, 5.1.8) for the checker: which class
 * boxes which primitive, the conversions of assignment (5.2), loose
 * invocation (5.3) and casting (5.5) that involve them, the unboxing of
 * operands (5.6), and the typing of ?: (15.25).
 *
 * A boxing or unboxing is an E_CONVERT node like a primitive conversion
 * (chk_coerce): the emitter boxes with the wrapper's valueOf and unboxes
 * with its xValue(), so a box's `value` field is only touched inside the
 * library. */
#include <string.h>

#include "checker_generic.h"
#include "checker_internal.h"

static const char *const box_names[] = {
    [TY_BOOLEAN] = "Boolean", [TY_CHAR] = "Character", [TY_BYTE] = "Byte",   [TY_SHORT] = "Short",
    [TY_INT] = "Integer",     [TY_LONG] = "Long",      [TY_FLOAT] = "Float", [TY_DOUBLE] = "Double"};

void chk_box_init(DrChecker *c) {
  for (int k = TY_BOOLEAN; k <= TY_DOUBLE; k++) {
    DrClassSym *s = chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, box_names[k]);
    c->T->box_cls[k] = s && s->decl && s->decl->package && strcmp(s->decl->package, "java.lang") == 0 ? s : NULL;
  }
}

DrType *chk_unboxed_type(DrChecker *c, const DrType *t) {
  if (!t || t->kind != TY_CLASS) return NULL;
  for (int k = TY_BOOLEAN; k <= TY_DOUBLE; k++)
    if (c->T->box_cls[k] && c->T->box_cls[k] == t->cls) return dr_prim_type(c->T, (DrTypeKind)k);
  return NULL;
}

DrType *chk_boxed_type(DrChecker *c, const DrType *prim) {
  if (!chk_is_prim(prim) || !c->T->box_cls[prim->kind]) return NULL;
  return c->T->box_cls[prim->kind]->type;
}

DrType *chk_unbox_operand(DrChecker *c, DrExpr *e) {
  if (!e || chk_is_err(e->type)) return e ? e->type : NULL;
  DrType *p = chk_unboxed_type(c, e->type);
  if (!p) return e->type;
  chk_coerce(c, e, p);
  return p;
}

/* The numeric or boolean type of a primitive or of a box (else NULL). */
static DrType *value_type(DrChecker *c, DrType *t) { return chk_is_prim(t) ? t : chk_unboxed_type(c, t); }

/* s to t by boxing then widening reference, or unboxing then widening
 * primitive (JLS 5.3's loose invocation, the part beyond strict). */
static bool boxing_conv(DrChecker *c, DrType *s, DrType *t) {
  if (chk_is_prim(s) && chk_is_ref(t)) {
    DrType *b = chk_boxed_type(c, s);
    return b && chk_subtype(c, b, t);
  }
  DrType *u = chk_unboxed_type(c, s);
  return u && chk_is_prim(t) && chk_prim_widens(u, t);
}

bool chk_loose_conv(DrChecker *c, DrType *s, DrType *t) {
  if (chk_invocation_conv(c, s, t)) return true;
  if (chk_is_err(s) || chk_is_err(t) || s->kind == TY_VOID || t->kind == TY_VOID) return false;
  return boxing_conv(c, s, t);
}

bool chk_assign_boxing(DrChecker *c, DrExpr *e, DrType *t) {
  DrType *s = e->type;
  if (boxing_conv(c, s, t)) {
    chk_coerce(c, e, t);
    return true;
  }
  /* JLS 5.2: a constant narrowed to byte, short or char, then boxed */
  DrType *u = chk_unboxed_type(c, t);
  if (u && (u->kind == TY_BYTE || u->kind == TY_SHORT || u->kind == TY_CHAR) && chk_const_fits(e, u)) {
    chk_coerce(c, e, u);
    chk_coerce(c, e, t);
    return true;
  }
  return false;
}

/* Wraps e's contents (in place) in a cast to reference type t. */
static void wrap_cast(DrChecker *c, DrExpr *e, DrType *t) {
  DrExpr *inner = dr_arena_alloc(c->arena, sizeof(DrExpr));
  *inner = *e;
  memset(e, 0, sizeof(*e));
  e->kind = E_CAST;
  e->pos = inner->pos;
  e->type = t;
  e->tref.resolved = t;
  e->target = inner;
}

bool chk_cast_boxing(DrChecker *c, DrExpr *target, DrType *t) {
  DrType *s = target->type;
  if (chk_is_err(s) || chk_is_err(t) || s->kind == TY_VOID || t->kind == TY_VOID) return false;
  if (chk_is_prim(s) && chk_is_ref(t) && t->kind != TY_NULL) {
    DrType *b = chk_boxed_type(c, s);
    if (!b || !chk_subtype(c, b, t)) return false;
    chk_coerce(c, target, b); /* then the cast is b to t: widening */
    return true;
  }
  if (chk_is_ref(s) && chk_is_prim(t)) {
    DrType *u = chk_unboxed_type(c, s);
    if (u) {
      if (!chk_prim_widens(u, t)) return false;
      chk_coerce(c, target, u);
      return true;
    }
    /* (int) obj: a checked cast to Integer, then unboxing (JLS 5.5) */
    DrType *b = chk_boxed_type(c, t);
    if (!b || s->kind == TY_NULL || !chk_castable(c, s, b)) return false;
    wrap_cast(c, target, b);
    chk_coerce(c, target, t);
    return true;
  }
  return false;
}

void chk_unbox_binary(DrChecker *c, DrExpr *e) {
  DrType *a = e->lhs->type, *b = e->rhs->type;
  switch (e->op) {
  case DR_BIN_ADD:
    if (chk_is_string(c, a) || chk_is_string(c, b)) return; /* concatenation: a box prints itself */
    break;
  case DR_BIN_EQ:
  case DR_BIN_NE:
    /* two references compare as references; a primitive beside a box
     * unboxes it (JLS 15.21) */
    if (!(chk_is_prim(a) && value_type(c, b)) && !(chk_is_prim(b) && value_type(c, a))) return;
    break;
  default: break;
  }
  chk_unbox_operand(c, e->lhs);
  chk_unbox_operand(c, e->rhs);
}

/* ---------------------------------------------------------- ?: (15.25) */

static bool is_byte_short(DrType *x, DrType *y) { return x->kind == TY_BYTE && y->kind == TY_SHORT; }

/* The type of a numeric conditional, both operands numeric (primitive or
 * boxed); NULL when they are not. */
static DrType *numeric_cond_type(DrChecker *c, DrExpr *l, DrExpr *r) {
  DrType *a = l->type, *b = r->type;
  DrType *ua = value_type(c, a), *ub = value_type(c, b);
  if (!chk_is_numeric(ua) || !chk_is_numeric(ub)) return NULL;
  if (ua == ub && (chk_is_prim(a) || chk_is_prim(b))) return ua; /* T and its box: T */
  if (is_byte_short(ua, ub) || is_byte_short(ub, ua)) return &c->T->t_short;
  if (chk_is_prim(a) && b->kind == TY_INT && chk_const_fits(r, a)) return a;
  if (chk_is_prim(b) && a->kind == TY_INT && chk_const_fits(l, b)) return b;
  return chk_binary_promote(c, ua, ub);
}

static DrType *ref_of(DrChecker *c, DrType *t) { return chk_is_prim(t) ? chk_boxed_type(c, t) : t; }

DrType *chk_cond_type(DrChecker *c, DrExpr *e) {
  DrType *a = e->lhs->type, *b = e->rhs->type;
  if (a == b) return a;
  DrType *t = numeric_cond_type(c, e->lhs, e->rhs);
  if (t) return t;
  DrType *ua = value_type(c, a), *ub = value_type(c, b);
  if (ua && ub && ua->kind == TY_BOOLEAN && ub->kind == TY_BOOLEAN) return &c->T->t_boolean;
  /* a reference conditional: primitive operands are boxed */
  DrType *ra = ref_of(c, a), *rb = ref_of(c, b);
  if (!ra || !rb || !chk_is_ref(ra) || !chk_is_ref(rb)) return NULL;
  if (chk_subtype(c, ra, rb)) return rb;
  if (chk_subtype(c, rb, ra)) return ra;
  if (ra->kind == TY_CLASS && rb->kind == TY_CLASS)
    return chk_gen_lub(c, ra, rb, chk_common_superclass(ra->cls, rb->cls, c->c_object));
  return c->t_object;
}
