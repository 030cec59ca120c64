/* The parser, part 3: switch blocks of statements and of switch
 * expressions (JLS 14.11, 15.28), with `case ...:` groups or `case ... ->`
 * rules, and the yield statement. */
#include "lexer.h"

#include <string.h>

/* The body of an arrow rule: a block, a throw, or an expression, which is
 * the rule's value in a switch expression and must be a statement
 * expression in a switch statement. */
static DrStmt *parse_rule_body(DrParser *p, bool is_expr) {
  DrPos pos = parse_cur(p)->pos;
  if (parse_at(p, T_LBRACE)) return parse_block(p);
  if (parse_at(p, T_THROW)) return parse_statement(p);
  DrStmt *s = parse_new_stmt(p, is_expr ? S_YIELD : S_EXPR, pos);
  s->expr = is_expr ? parse_expr(p) : parse_stmt_expr(p);
  parse_expect(p, T_SEMI);
  return s;
}

/* One `case L1, L2` or `default` label into c. */
static void parse_case_label(DrParser *p, DrSwitchCase *c, int *lcap) {
  if (parse_accept(p, T_DEFAULT)) {
    c->is_default = true;
    return;
  }
  parse_advance(p);
  bool saved = p->no_lambda;
  p->no_lambda = true;
  do {
    DrExpr *l = parse_expr(p);
    if (parse_at(p, T_IDENT)) { /* case Type name: a type pattern */
      parse_unsupported(p, parse_cur(p)->pos, "patterns in switch are");
      parse_advance(p);
    }
    DR_ARENA_PUSH(p->arena, c->labels, c->nlabels, *lcap, l);
  } while (parse_accept(p, T_COMMA));
  p->no_lambda = saved;
}

/* One case: labels, then `:` and statements or `->` and a rule body.
 * *kind is 0 until the first case fixes the switch's kind (1 colon, 2 arrow). */
static bool parse_case(DrParser *p, DrSwitchCase *c, bool is_expr, int *kind) {
  int lcap = 0;
  for (;;) {
    parse_case_label(p, c, &lcap);
    if (parse_at(p, T_ARROW)) break;
    if (!parse_expect(p, T_COLON)) return false;
    if (!parse_at(p, T_CASE) && !parse_at(p, T_DEFAULT)) break;
  }
  int mine = parse_at(p, T_ARROW) ? 2 : 1;
  if (*kind && *kind != mine) parse_error(p, c->pos, "different case kinds used in the switch");
  *kind = mine;
  if (mine == 1) {
    parse_block_stmts(p, &c->body, &c->nbody, true);
    return true;
  }
  parse_advance(p);
  c->arrow = true;
  c->body = dr_arena_alloc(p->arena, sizeof *c->body);
  c->body[0] = parse_rule_body(p, is_expr);
  c->nbody = 1;
  return true;
}

DrStmt *parse_switch(DrParser *p, DrPos pos, bool is_expr) {
  DrStmt *s = parse_new_stmt(p, S_SWITCH, pos);
  s->is_expr = is_expr;
  s->expr = parse_paren_expr(p);
  if (!parse_expect(p, T_LBRACE)) return s;
  if (!parse_enter(p)) return s;
  int cap = 0, kind = 0;
  while (!parse_at(p, T_RBRACE) && !parse_at(p, T_EOF)) {
    DrSwitchCase c;
    memset(&c, 0, sizeof c);
    c.pos = parse_cur(p)->pos;
    if (!parse_at(p, T_CASE) && !parse_at(p, T_DEFAULT)) {
      parse_error(p, c.pos, "case, default, or '}' expected");
      DrStmt **junk = NULL;
      int njunk = 0;
      parse_block_stmts(p, &junk, &njunk, true);
      continue;
    }
    int start = p->pos;
    bool ok = parse_case(p, &c, is_expr, &kind);
    DR_ARENA_PUSH(p->arena, s->cases, s->ncases, cap, c);
    if (!ok && p->pos == start) parse_advance(p);
  }
  s->end_pos = parse_cur(p)->pos;
  parse_expect(p, T_RBRACE);
  parse_leave(p);
  return s;
}

/* `yield` is a restricted identifier: at the start of a statement it is a
 * yield statement unless what follows makes it a name in an expression
 * (an assignment to, or a member or element of, something called yield). */
bool parse_at_yield(DrParser *p) {
  DrToken *t = parse_cur(p);
  if (t->kind != T_IDENT || strcmp(t->text, "yield") != 0) return false;
  switch (parse_peek(p, 1)->kind) {
  case T_ASSIGN: case T_PLUSEQ: case T_MINUSEQ: case T_STAREQ: case T_SLASHEQ: case T_AMPEQ: case T_BAREQ:
  case T_CARETEQ: case T_PERCENTEQ: case T_SHLEQ: case T_SHREQ: case T_USHREQ:
  case T_DOT: case T_LBRACKET: case T_COLON: case T_PLUSPLUS: case T_MINUSMINUS: case T_SEMI:
    return false;
  default:
    return true;
  }
}

/* `yield(...)` with no argument or several is a call of a method named
 * yield, which Java 17 only allows qualified (Thread.yield()). */
static bool parse_yield_is_call(DrParser *p) {
  if (parse_kind_at(p, p->pos + 1) != T_LPAREN) return false;
  if (parse_kind_at(p, p->pos + 2) == T_RPAREN) return true;
  int depth = 0;
  for (int i = p->pos + 1; i < p->ntoks; i++) {
    DrTokKind k = parse_kind_at(p, i);
    if (k == T_LPAREN) depth++;
    else if (k == T_RPAREN && --depth == 0) return false;
    else if ((k == T_COMMA && depth == 1) || k == T_EOF || k == T_SEMI) return k == T_COMMA;
  }
  return false;
}

DrStmt *parse_yield(DrParser *p) {
  if (parse_yield_is_call(p)) {
    parse_error(p, parse_cur(p)->pos,
                "invalid use of a restricted identifier 'yield' (to invoke a method called yield, qualify the yield "
                "with a receiver or type name)");
    DrStmt *e = parse_new_stmt(p, S_EXPR, parse_cur(p)->pos);
    e->expr = parse_expr(p);
    parse_expect(p, T_SEMI);
    return e;
  }
  DrStmt *s = parse_new_stmt(p, S_YIELD, parse_advance(p)->pos);
  s->expr = parse_expr(p);
  parse_expect(p, T_SEMI);
  return s;
}
