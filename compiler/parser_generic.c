/* The parser, generics: type arguments (JLS 4.5.1), wildcards, the
 * diamond, type parameters (JLS 8.1.2, 8.4.4) and explicit type arguments
 * of a method call.  The checker gives them their meaning
 * (checker_generic.c). */
#include "lexer.h"

#include <string.h>

/* Consumes one `>` of a type argument list.  `>>` and `>>>` close two or
 * three lists (List<List<String>>): the token is split, its first `>`
 * consumed and the rest left in its place. */
static bool parse_close_angle(DrParser *p) {
  DrToken *t = parse_cur(p);
  switch (t->kind) {
  case T_GT: parse_advance(p); return true;
  case T_SHR: t->kind = T_GT; t->pos.col++; return true;
  case T_USHR: t->kind = T_SHR; t->pos.col++; return true;
  case T_GE: t->kind = T_ASSIGN; t->pos.col++; return true;
  case T_SHREQ: t->kind = T_GE; t->pos.col++; return true;
  case T_USHREQ: t->kind = T_SHREQ; t->pos.col++; return true;
  default: parse_error_expected(p, "'>'"); return false;
  }
}

/* One type argument: a type (arrays of it included) or a wildcard. */
static void parse_type_arg(DrParser *p, DrTypeRef *t) {
  if (parse_at(p, T_QUESTION)) {
    DrPos pos = parse_advance(p)->pos;
    int wild = parse_accept(p, T_EXTENDS) ? DR_WILD_EXTENDS : parse_accept(p, T_SUPER) ? DR_WILD_SUPER : DR_WILD_ANY;
    if (wild == DR_WILD_ANY) {
      memset(t, 0, sizeof *t);
      t->name = "?";
    } else {
      parse_type(p, t, false);
    }
    t->wild = wild;
    t->pos = pos;
    return;
  }
  parse_type(p, t, false);
}

void parse_type_args(DrParser *p, DrTypeRef *t) {
  parse_advance(p); /* < */
  t->has_args = true;
  t->args = NULL;
  t->nargs = 0;
  if (parse_at(p, T_GT)) { /* <> */
    parse_advance(p);
    t->diamond = true;
    return;
  }
  if (!parse_enter(p)) return;
  int cap = 0;
  do {
    DrTypeRef a;
    parse_type_arg(p, &a);
    DR_ARENA_PUSH(p->arena, t->args, t->nargs, cap, a);
  } while (parse_accept(p, T_COMMA));
  parse_close_angle(p);
  parse_leave(p);
}

void parse_call_type_args(DrParser *p, DrTypeRef **out, int *n) {
  DrTypeRef holder;
  memset(&holder, 0, sizeof holder);
  holder.pos = parse_cur(p)->pos;
  parse_type_args(p, &holder);
  if (holder.diamond) parse_error(p, holder.pos, "illegal start of type");
  *out = holder.args;
  *n = holder.nargs;
}

void parse_type_params(DrParser *p, DrTypeParam **out, int *n) {
  parse_advance(p); /* < */
  int cap = 0;
  if (!parse_enter(p)) return;
  do {
    DrTypeParam tp;
    memset(&tp, 0, sizeof tp);
    while (parse_at(p, T_AT)) { /* annotations on a type parameter: skipped */
      parse_advance(p);
      while (parse_at(p, T_IDENT) || parse_at(p, T_DOT)) parse_advance(p);
      if (parse_at(p, T_LPAREN)) parse_skip_group(p);
    }
    tp.name = parse_ident(p, &tp.pos);
    if (parse_accept(p, T_EXTENDS)) {
      int bcap = 0;
      do {
        DrTypeRef b;
        parse_type(p, &b, false);
        DR_ARENA_PUSH(p->arena, tp.bounds, tp.nbounds, bcap, b);
      } while (parse_accept(p, T_AMP));
    }
    DR_ARENA_PUSH(p->arena, *out, *n, cap, tp);
  } while (parse_accept(p, T_COMMA));
  parse_close_angle(p);
  parse_leave(p);
}
