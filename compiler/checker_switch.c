/* Switch statements and switch expressions (JLS 14.11, 15.28): the
 * selector, the labels (constant, distinct, of the selector's type), the
 * yields of a switch expression and its type, and exhaustiveness. */
#include <string.h>

#include "checker_generic.h"

/* The switch's labels so far, by value, for the duplicate check: every
 * label that reaches it was converted to the selector's type. */
typedef struct {
  DrHashIdx idx;
  DrExpr **labels;
  int n, cap;
  int ncovered;       /* distinct enum constants among the labels */
} DrChkLabels;

typedef struct {
  const DrExpr *x;
  const DrChkLabels *ls;
} DrChkLabelKey;

static bool same_label(const void *key, int32_t val) {
  const DrChkLabelKey *k = key;
  const DrExpr *y = k->ls->labels[val];
  return y->type == k->x->type && chk_const_equal(y->cval, k->x->cval);
}

static uint32_t label_hash(const DrConst *v) {
  if (v->kind == TY_CLASS) return dr_hash_bytes(v->s, sizeof(uint16_t) * (size_t)v->slen);
  return dr_hash_mix(0, (uint64_t)(uint32_t)v->i);
}

/* Whether x repeats an earlier label; if not, it is one of them now. */
static bool repeated_label(DrChecker *c, DrChkLabels *ls, DrExpr *x) {
  DrChkLabelKey key = {x, ls};
  uint32_t h = label_hash(&x->cval);
  if (dr_hidx_find(&ls->idx, h, same_label, &key)) return true;
  DR_ARENA_PUSH(c->arena, ls->labels, ls->n, ls->cap, x);
  dr_hidx_add(&ls->idx, h, ls->n - 1);
  return false;
}

static bool is_enum(const DrType *t) { return t->kind == TY_CLASS && t->cls->decl && t->cls->decl->is_enum; }

/* The ordinal of the enum constant a case label names: its unqualified
 * name (JLS 14.11.1); -1 after reporting. */
static int enum_label(DrChecker *c, DrExpr *x, DrType *t) {
  const DrClassDecl *d = t->cls->decl;
  if (x->kind != E_NAME) {
    chk_error(c, x->pos, "an enum switch case label must be the unqualified name of an enumeration constant");
    return -1;
  }
  x->type = t; /* never evaluated: the emitter switches on ordinals */
  for (int i = 0; i < d->nenum_constants; i++)
    if (strcmp(d->enum_constants[i], x->name) == 0) return i;
  chk_error(c, x->pos, "an enum switch case label must be the unqualified name of an enumeration constant");
  return -1;
}

/* The selector's type: int, char or String (the types DL has of those
 * JLS 14.11 allows), or the error type after reporting. */
static DrType *selector_type(DrChecker *c, DrStmt *s) {
  DrType *t = s->expr ? chk_value(c, s->expr) : &c->T->t_error;
  DrType *u = chk_unboxed_type(c, t);
  if (u && u->kind != TY_BOOLEAN && chk_is_integral(u) && u->kind != TY_LONG) t = chk_unbox_operand(c, s->expr);
  if (chk_is_err(t) || chk_is_string(c, t) || t->kind == TY_INT || t->kind == TY_CHAR || t->kind == TY_BYTE ||
      t->kind == TY_SHORT)
    return t;
  if (is_enum(t)) {
    bool found = false;
    s->switch_ordinal = chk_resolve_call(c, s->expr->pos, t->cls, "ordinal", NULL, 0, false, &found);
    return t;
  }
  if (t->kind == TY_LONG || t->kind == TY_DOUBLE || t->kind == TY_FLOAT)
    chk_error(c, s->expr->pos, "incompatible types: possible lossy conversion from %s to int", chk_type_str(c, t));
  else
    chk_error(c, s->expr->pos, "incompatible types: %s cannot be converted to int", chk_type_str(c, t));
  return &c->T->t_error;
}

static void check_labels(DrChecker *c, DrSwitchCase *k, DrType *t, DrChkLabels *labels) {
  k->values = dr_arena_alloc(c->arena, sizeof(int32_t) * (size_t)(k->nlabels + 1));
  for (int j = 0; j < k->nlabels; j++) {
    DrExpr *x = k->labels[j];
    if (!x) continue;
    if (is_enum(t)) {
      int v = enum_label(c, x, t);
      if (v < 0) continue;
      x->is_const = true; /* for the duplicate check: the ordinal as an int */
      x->cval.kind = TY_INT;
      x->cval.i = v;
      k->values[j] = v;
      labels->ncovered++;
      if (repeated_label(c, labels, x)) {
        chk_error(c, x->pos, "duplicate case label");
        labels->ncovered--;
      }
      continue;
    }
    DrType *lt = chk_value(c, x);
    if (chk_is_err(lt) || chk_is_err(t)) continue;
    if (!x->is_const) {
      chk_error(c, x->pos, "constant expression required");
      continue;
    }
    if (!chk_assign_to(c, x, t)) continue;
    k->values[j] = chk_is_string(c, t) ? 0 : x->cval.i;
    if (repeated_label(c, labels, x)) chk_error(c, x->pos, "duplicate case label");
  }
}

/* The labels and bodies; whether they cover every value: a default
 * label, or every constant of an enum selector. */
static bool check_cases(DrChecker *c, DrStmt *s, DrType *t) {
  bool seen_default = false;
  DrChkLabels labels;
  memset(&labels, 0, sizeof labels);
  int saved = c->nscope;
  c->cur.break_depth++;
  for (int i = 0; i < s->ncases; i++) {
    DrSwitchCase *k = &s->cases[i];
    if (k->is_default) {
      if (seen_default) chk_error(c, k->pos, "duplicate default label");
      seen_default = true;
    }
    check_labels(c, k, t, &labels);
    for (int j = 0; j < k->nbody; j++)
      if (k->body[j]) chk_stmt(c, k->body[j]);
  }
  dr_hidx_free(&labels.idx);
  c->cur.break_depth--;
  chk_scope_pop(c, saved);
  return seen_default || (is_enum(t) && labels.ncovered == t->cls->decl->nenum_constants);
}

void chk_switch(DrChecker *c, DrStmt *s) {
  DrType *t = selector_type(c, s);
  s->switch_on_string = chk_is_string(c, t);
  check_cases(c, s, t);
}

void chk_yield(DrChecker *c, DrStmt *s) {
  DrChkSwitchExpr *x = c->cur.swx;
  if (!s->expr) return;
  if (!x) {
    chk_error(c, s->pos, "yield outside of switch expression");
    chk_expr(c, s->expr);
    return;
  }
  chk_value(c, s->expr);
  DR_ARENA_PUSH(c->arena, x->results, x->n, x->cap, s->expr);
}

/* A char result with int constants that fit in char stays char (JLS
 * 15.28.1, as for ?:). */
static bool char_with_constants(DrExpr **rs, int n) {
  bool any_char = false;
  for (int i = 0; i < n; i++) {
    DrType *t = rs[i]->type;
    if (t->kind == TY_CHAR) any_char = true;
    else if (!(t->kind == TY_INT && rs[i]->is_const && rs[i]->cval.i >= 0 && rs[i]->cval.i <= 0xFFFF)) return false;
  }
  return any_char;
}

/* The type of a switch expression from its results' types (JLS 15.28.1),
 * or NULL if they have none in common (DL has no boxing). */
/* A result's type with a box opened (Integer -> int). */
static DrType *value_type(DrChecker *c, DrType *t) {
  DrType *u = chk_unboxed_type(c, t);
  return u ? u : t;
}

static DrType *result_type(DrChecker *c, DrExpr **rs, int n) {
  bool same = true, numeric = true, boolean = true, refs = true;
  for (int i = 0; i < n; i++) {
    DrType *t = rs[i]->type;
    same = same && t == rs[0]->type;
    numeric = numeric && chk_is_numeric(value_type(c, t));
    boolean = boolean && value_type(c, t)->kind == TY_BOOLEAN;
    refs = refs && (chk_is_ref(t) || t->kind == TY_NULL || chk_boxed_type(c, t));
  }
  if (same) return rs[0]->type;
  if (boolean) return &c->T->t_boolean;
  if (numeric) { /* numeric promotion, which unboxes */
    if (char_with_constants(rs, n)) return &c->T->t_char;
    DrType *t = value_type(c, rs[0]->type);
    for (int i = 1; i < n; i++) t = chk_binary_promote(c, t, value_type(c, rs[i]->type));
    return t;
  }
  if (!refs) return NULL;
  DrType *t = &c->T->t_null;
  for (int i = 0; i < n; i++) {
    DrType *r = rs[i]->type;
    if (chk_is_prim(r)) r = chk_boxed_type(c, r); /* boxed, then lub */
    if (chk_subtype(c, r, t)) continue;
    if (chk_subtype(c, t, r)) t = r;
    else if (t->kind == TY_CLASS && r->kind == TY_CLASS)
      t = chk_gen_lub(c, t, r, chk_common_superclass(t->cls, r->cls, c->c_object));
    else t = c->t_object;
  }
  return t;
}

static DrType *unify_results(DrChecker *c, DrExpr *e, DrChkSwitchExpr *x) {
  for (int i = 0; i < x->n; i++)
    if (chk_is_err(x->results[i]->type)) return &c->T->t_error;
  if (x->n == 0) {
    chk_error(c, e->pos, "switch expression does not have any result expressions");
    return &c->T->t_error;
  }
  DrType *t = result_type(c, x->results, x->n);
  if (!t) {
    DrType *first = x->results[0]->type;
    for (int i = 1; i < x->n; i++)
      if (!chk_invocation_conv(c, x->results[i]->type, first)) {
        chk_error(c, x->results[i]->pos, "incompatible types: bad type in switch expression (%s cannot be converted to %s)",
                  chk_type_str(c, x->results[i]->type), chk_type_str(c, first));
        break;
      }
    return &c->T->t_error;
  }
  e->result_types = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)x->n);
  for (int i = 0; i < x->n; i++) {
    e->result_types[i] = x->results[i]->type;
    chk_coerce(c, x->results[i], t);
  }
  return t;
}

/* A switch expression (JLS 15.28): its block cannot be left by break,
 * continue or return, only by yield (or an exception); it must cover
 * every value of its selector. */
DrType *chk_switch_expr(DrChecker *c, DrExpr *e) {
  DrStmt *s = e->sw;
  DrType *t = selector_type(c, s);
  s->switch_on_string = chk_is_string(c, t);
  DrChkSwitchExpr x;
  memset(&x, 0, sizeof x);
  DrChkSwitchExpr *outer = c->cur.swx;
  int loops = c->cur.loop_depth, breaks = c->cur.break_depth;
  c->cur.swx = &x;
  c->cur.loop_depth = 0;
  c->cur.break_depth = -1; /* check_cases adds one: a break inside is at 0 */
  bool exhaustive = check_cases(c, s, t);
  c->cur.swx = outer;
  c->cur.loop_depth = loops;
  c->cur.break_depth = breaks;
  if (!exhaustive && !chk_is_err(t)) chk_error(c, e->pos, "the switch expression does not cover all possible input values");
  e->type = unify_results(c, e, &x);
  e->args = x.results; /* for chk_assign_to's errors */
  e->nargs = x.n;
  return e->type;
}

static bool result_fits(DrChecker *c, DrExpr *r, DrType *rt, DrType *t) {
  if (rt == t || chk_loose_conv(c, rt, t)) return true;
  return rt->kind == TY_INT && chk_const_fits(r, t);
}

bool chk_switch_poly(DrChecker *c, DrExpr *e, DrType *t) {
  bool ok = true;
  for (int i = 0; i < e->nargs; i++) {
    DrType *rt = e->result_types[i];
    if (result_fits(c, e->args[i], rt, t)) continue;
    if (chk_is_numeric(rt) && chk_is_numeric(t))
      chk_error(c, e->args[i]->pos, "incompatible types: bad type in switch expression (possible lossy conversion from %s to %s)",
                chk_type_str(c, rt), chk_type_str(c, t));
    else
      chk_error(c, e->args[i]->pos, "incompatible types: bad type in switch expression (%s cannot be converted to %s)",
                chk_type_str(c, rt), chk_type_str(c, t));
    ok = false;
  }
  if (!ok) return false;
  for (int i = 0; i < e->nargs; i++) {
    DrExpr *r = e->args[i];
    if (r->kind == E_CONVERT) *r = *r->target; /* undo the conversion to the standalone type */
    if (r->is_const && chk_is_prim(t)) chk_set_const(c, r, t, chk_const_cast(c, r->cval, t));
    else chk_coerce(c, r, t);
  }
  e->type = t;
  return true;
}
