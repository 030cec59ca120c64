/* Type patterns in instanceof (JLS 15.20.2, Java 16) and the scope of
 * their binding variables (JLS 6.3.1): a binding is in scope where its
 * test is definitely true -- the right of &&, the then-branch of if, the
 * body of while -- or definitely false after !, in else-branches, right
 * of ||, and after a statement that cannot go on when the test is true
 * (`if (!(o instanceof P p)) return;`). */
#include <string.h>

#include "checker_internal.h"

/* The binding of `e instanceof T name`: declared (for the clash with a
 * local in scope), then out of scope until a condition puts it in. */
void chk_pattern_binding(DrChecker *c, DrExpr *e, DrType *s, DrType *t) {
  int saved = c->nscope;
  DrLocalSym *l = chk_declare_local(c, e->name, t, e->bind_pos, e->bind_final, false);
  chk_scope_pop(c, saved);
  chk_local(l)->is_binding = true;
  e->local = l;
  if (chk_is_ref(s) && s->kind != TY_NULL && chk_subtype(c, s, t))
    chk_error(c, e->pos, "expression type %s is a subtype of pattern type %s", chk_type_str(c, s),
              chk_type_str(c, t));
}

/* Puts in scope the bindings e introduces when it is true (when_true) or
 * false; the caller restores the scope. */
void chk_push_bindings(DrChecker *c, DrExpr *e, bool when_true) {
  if (!e) return;
  switch (e->kind) {
  case E_INSTANCEOF:
    if (when_true && e->local) chk_scope_push(c, e->local);
    break;
  case E_UNARY:
    if (e->op == '!') chk_push_bindings(c, e->target, !when_true);
    break;
  case E_BINARY:
    if ((e->op == DR_BIN_LAND && when_true) || (e->op == DR_BIN_LOR && !when_true)) {
      chk_push_bindings(c, e->lhs, when_true);
      chk_push_bindings(c, e->rhs, when_true);
    }
    break;
  default: break;
  }
}

/* Whether e introduces any binding when true (when_true) or false. */
static bool has_bindings(DrExpr *e, bool when_true) {
  if (!e) return false;
  switch (e->kind) {
  case E_INSTANCEOF: return when_true && e->local;
  case E_UNARY: return e->op == '!' && has_bindings(e->target, !when_true);
  case E_BINARY:
    if ((e->op == DR_BIN_LAND && when_true) || (e->op == DR_BIN_LOR && !when_true))
      return has_bindings(e->lhs, when_true) || has_bindings(e->rhs, when_true);
    return false;
  default: return false;
  }
}

/* Whether s cannot complete normally, as far as its form shows (JLS
 * 14.22's rules for the statements that end a branch). */
bool chk_stmt_abrupt(const DrStmt *s) {
  if (!s) return false;
  switch (s->kind) {
  case S_RETURN: case S_THROW: case S_BREAK: case S_CONTINUE: case S_YIELD: return true;
  case S_BLOCK: return s->nstmts > 0 && chk_stmt_abrupt(s->stmts[s->nstmts - 1]);
  case S_IF: return s->else_body && chk_stmt_abrupt(s->body) && chk_stmt_abrupt(s->else_body);
  case S_SYNC: return chk_stmt_abrupt(s->body);
  case S_WHILE: case S_FOR: return (!s->expr || (s->expr->is_const && s->expr->cval.i)) && !chk_stmt_breaks(s->body);
  default: return false;
  }
}

/* Whether a break in s may leave the loop whose body s is. */
bool chk_stmt_breaks(const DrStmt *s) {
  if (!s) return false;
  switch (s->kind) {
  case S_BREAK: return true;
  case S_BLOCK:
    for (int i = 0; i < s->nstmts; i++)
      if (chk_stmt_breaks(s->stmts[i])) return true;
    return false;
  case S_IF: return chk_stmt_breaks(s->body) || chk_stmt_breaks(s->else_body);
  case S_SYNC: return chk_stmt_breaks(s->body);
  case S_TRY:
    for (int i = 0; i < s->ncatches; i++)
      if (chk_stmt_breaks(s->catches[i].body)) return true;
    return chk_stmt_breaks(s->body) || chk_stmt_breaks(s->finally_body);
  default: return false; /* loops and switches own their breaks */
  }
}

/* After `if (e) then [else other]`: the bindings that stay in scope for
 * the rest of the block (JLS 6.3.2.2). */
void chk_if_bindings_after(DrChecker *c, DrStmt *s) {
  bool then_abrupt = chk_stmt_abrupt(s->body);
  bool else_abrupt = s->else_body && chk_stmt_abrupt(s->else_body);
  if (then_abrupt && !else_abrupt && has_bindings(s->expr, false)) chk_push_bindings(c, s->expr, false);
  else if (!then_abrupt && else_abrupt && has_bindings(s->expr, true)) chk_push_bindings(c, s->expr, true);
}

/* After `while (e) body` with no break: e was false (JLS 6.3.2.3). */
void chk_loop_bindings_after(DrChecker *c, DrStmt *s) {
  if (s->expr && !chk_stmt_breaks(s->body)) chk_push_bindings(c, s->expr, false);
}
