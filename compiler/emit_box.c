/* Boxing and unboxing conversions (the checker's E_CONVERT nodes between
 * a primitive and a reference type): a box is made by its wrapper's
 * static valueOf (Java's caches included) and opened by its xValue(), so
 * the wrapper's `value` field is read and written only by library code,
 * which makes no race events, and unboxing null throws the
 * NullPointerException of a call on null. */
#include <string.h>

#include "emit_internal.h"

static const char *const unbox_names[] = {
    [TY_BOOLEAN] = "booleanValue", [TY_CHAR] = "charValue", [TY_BYTE] = "byteValue",   [TY_SHORT] = "shortValue",
    [TY_INT] = "intValue",         [TY_LONG] = "longValue", [TY_FLOAT] = "floatValue", [TY_DOUBLE] = "doubleValue"};

/* The primitive a wrapper class boxes, or TY_VOID. */
static DrTypeKind boxed_kind(Em *E, const DrType *t) {
  if (!t || t->kind != TY_CLASS) return TY_VOID;
  for (int k = TY_BOOLEAN; k <= TY_DOUBLE; k++)
    if (E->T->box_cls[k] && E->T->box_cls[k] == t->cls) return (DrTypeKind)k;
  return TY_VOID;
}

const DrType *em_unboxed_type(Em *E, const DrType *t) {
  DrTypeKind k = boxed_kind(E, t);
  return k == TY_VOID ? NULL : dr_prim_type(E->T, k);
}

bool em_is_boxing(const DrType *from, const DrType *to) {
  bool fp = from->kind >= TY_BOOLEAN && from->kind <= TY_DOUBLE, tp = to->kind >= TY_BOOLEAN && to->kind <= TY_DOUBLE;
  return (fp && to->kind == TY_CLASS) || (tp && from->kind == TY_CLASS);
}

/* from primitive to a reference type: the box of `to` when it is a
 * wrapper (after converting the value to its primitive, as ++ on a
 * Character needs), else the box of `from` (Object o = 3: an Integer). */
static int box(Em *E, int src, const DrType *from, const DrType *to, int dst) {
  DrTypeKind k = boxed_kind(E, to);
  if (k == TY_VOID) k = from->kind;
  int v = src;
  if (k != from->kind) v = em_convert(E, src, from, dr_prim_type(E->T, k), EM_ANY);
  DrMethodSym *m = em_find_method(E->T->box_cls[k], "valueOf", 1, k);
  ASSERT(m, "a wrapper's valueOf");
  if (v != src) em_free(E, v);
  return em_invoke(E, DR_OP_INVOKESTATIC, m, dst, &v, 1);
}

/* from a wrapper to a primitive: xValue(), then a primitive widening */
static int unbox(Em *E, int src, const DrType *from, const DrType *to, int dst) {
  DrTypeKind k = boxed_kind(E, from);
  ASSERT(k != TY_VOID, "unboxing a wrapper");
  DrMethodSym *m = em_find_method(E->T->box_cls[k], unbox_names[k], 0, TY_VOID);
  ASSERT(m, "a wrapper's xValue()");
  if (k == to->kind) return em_invoke(E, DR_OP_INVOKEVIRTUAL, m, dst, &src, 1);
  int r = em_invoke(E, DR_OP_INVOKEVIRTUAL, m, EM_ANY, &src, 1);
  int w = em_convert(E, r, dr_prim_type(E->T, k), to, dst);
  if (w != r) em_free(E, r);
  return w;
}

int em_box_convert(Em *E, int src, const DrType *from, const DrType *to, int dst) {
  if (to->kind == TY_CLASS) return box(E, src, from, to, dst);
  return unbox(E, src, from, to, dst);
}
