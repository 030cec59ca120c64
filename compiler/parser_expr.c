/* The parser, part 2: types and expressions.  Binary operators use
 * precedence climbing over Java's levels (JLS 15.17-15.24); unary
 * operators, casts and primaries are recursive descent.  Every recursion
 * that source nesting can drive goes through parse_enter, so no input can
 * exhaust the C stack. */
#include "lexer.h"

#include <string.h>

DrExpr *parse_new_expr(DrParser *p, DrExprKind kind, DrPos pos) {
  DrExpr *e = dr_arena_alloc(p->arena, sizeof *e);
  e->kind = kind;
  e->pos = pos;
  return e;
}

/* What an unsupported or broken construct leaves in the tree: a valid
 * node, so later code never meets NULL (the checker will not run anyway
 * once the parser reported an error). */
static DrExpr *parse_placeholder(DrParser *p, DrPos pos) { return parse_new_expr(p, E_NULL_LIT, pos); }

static bool parse_is_primtype(DrTokKind k) { return (dr_token_flags(k) & DR_TKF_PRIMTYPE) != 0; }

/* ------------------------------------------------------------------ types */

int parse_scan_type_args(DrParser *p, int i) {
  if (parse_kind_at(p, i) != T_LT) return -1;
  int depth = 0;
  for (;; i++) {
    switch (parse_kind_at(p, i)) {
    case T_LT: depth++; break;
    case T_GT: depth -= 1; break;
    case T_SHR: depth -= 2; break;
    case T_USHR: depth -= 3; break;
    case T_IDENT: case T_DOT: case T_COMMA: case T_QUESTION: case T_EXTENDS: case T_SUPER:
    case T_LBRACKET: case T_RBRACKET: case T_AMP:
      break;
    default:
      if (parse_is_primtype(parse_kind_at(p, i))) break;
      return -1;
    }
    if (depth < 0) return -1;
    if (depth == 0) return i + 1;
  }
}

int parse_scan_type(DrParser *p, int i) {
  DrTokKind k = parse_kind_at(p, i);
  if (parse_is_primtype(k)) {
    i++;
  } else if (k == T_IDENT) {
    i++;
    for (;;) {
      if (parse_kind_at(p, i) == T_LT) {
        i = parse_scan_type_args(p, i);
        if (i < 0) return -1;
      }
      if (parse_kind_at(p, i) == T_DOT && parse_kind_at(p, i + 1) == T_IDENT) i += 2;
      else break;
    }
  } else {
    return -1;
  }
  while (parse_kind_at(p, i) == T_LBRACKET && parse_kind_at(p, i + 1) == T_RBRACKET) i += 2;
  return i;
}

void parse_skip_type_args(DrParser *p) {
  DrPos pos = parse_cur(p)->pos;
  parse_unsupported(p, pos, "generics are");
  int depth = 0;
  for (;;) {
    switch (parse_cur(p)->kind) {
    case T_LT: depth++; break;
    case T_GT: depth -= 1; break;
    case T_SHR: depth -= 2; break;
    case T_USHR: depth -= 3; break;
    case T_EOF: case T_SEMI: case T_LBRACE: case T_RBRACE: case T_LPAREN: case T_RPAREN: case T_ASSIGN:
      return; /* not a type argument list after all: leave the rest to the caller */
    default: break;
    }
    parse_advance(p);
    if (depth <= 0) return;
  }
}

/* The name part of a type (no dims): a primitive or a dotted name.
 * Unsupported primitives are reported and read as int. */
static void parse_type_name(DrParser *p, DrTypeRef *t, bool allow_void) {
  DrToken *tok = parse_cur(p);
  t->pos = tok->pos;
  t->name = "int";
  switch (tok->kind) {
  case T_VOID:
    if (!allow_void) parse_error(p, tok->pos, "'void' type not allowed here");
    t->name = "void";
    parse_advance(p);
    return;
  case T_IDENT: break;
  default:
    if (parse_is_primtype(tok->kind)) {
      t->name = dr_token_spelling(tok->kind);
      parse_advance(p);
    } else {
      parse_error_expected(p, "<identifier>");
    }
    return;
  }
  const char *name = tok->text;
  parse_advance(p);
  for (;;) {
    if (parse_at(p, T_LT)) parse_type_args(p, t);
    if (parse_at(p, T_DOT) && parse_peek(p, 1)->kind == T_IDENT) {
      if (t->has_args) { /* Outer<A>.Inner: the qualifier's arguments (not checked) */
        t->outer_args = true;
        t->has_args = t->diamond = false;
        t->args = NULL;
        t->nargs = 0;
      }
      parse_advance(p);
      name = dr_arena_printf(p->arena, "%s.%s", name, parse_advance(p)->text);
    } else {
      break;
    }
  }
  t->name = name;
}

void parse_type(DrParser *p, DrTypeRef *t, bool allow_void) {
  memset(t, 0, sizeof *t);
  parse_type_name(p, t, allow_void);
  if (t->diamond) parse_error(p, t->pos, "illegal start of type"); /* <> only after new */
  while (parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET) {
    parse_advance(p);
    parse_advance(p);
    t->dims++;
  }
  if (t->dims && strcmp(t->name, "void") == 0) parse_error(p, t->pos, "'void' type not allowed here");
}

/* ------------------------------------------------------- unsupported forms */

void parse_skip_lambda_body(DrParser *p) {
  if (!parse_expect(p, T_ARROW)) return;
  if (parse_at(p, T_LBRACE)) parse_skip_group(p);
  else (void)parse_expr(p);
}

/* `( ... ) ->`: the parenthesized list is a lambda's parameters.  The
 * scan stops at tokens no parameter list contains, which also bounds its
 * cost on pathological input. */
static bool parse_paren_is_lambda(DrParser *p) {
  int depth = 0;
  for (int i = p->pos;; i++) {
    switch (parse_kind_at(p, i)) {
    case T_LPAREN: depth++; break;
    case T_RPAREN:
      if (--depth == 0) return parse_kind_at(p, i + 1) == T_ARROW;
      break;
    case T_SEMI: case T_LBRACE: case T_RBRACE: case T_EOF: return false;
    default: break;
    }
  }
}

/* A lambda's parameter list: `x`, `()`, `(a, b)` or `(int a, String b)`. */
static void parse_lambda_params(DrParser *p, DrExpr *e) {
  int cap = 0;
  if (parse_at(p, T_IDENT)) {
    DrParam pm;
    memset(&pm, 0, sizeof pm);
    pm.name = parse_ident(p, &pm.pos);
    DR_ARENA_PUSH(p->arena, e->params, e->nparams, cap, pm);
    return;
  }
  parse_expect(p, T_LPAREN);
  if (parse_accept(p, T_RPAREN)) return;
  for (;;) {
    DrParam pm;
    memset(&pm, 0, sizeof pm);
    bool typed = !(parse_at(p, T_IDENT) && (parse_peek(p, 1)->kind == T_COMMA || parse_peek(p, 1)->kind == T_RPAREN));
    if (typed) {
      DrPos mpos = parse_cur(p)->pos;
      unsigned mods = 0;
      while (parse_at(p, T_FINAL)) {
        parse_advance(p);
        mods |= DR_MOD_FINAL;
      }
      if (parse_at(p, T_IDENT) && strcmp(parse_cur(p)->text, "var") == 0 && parse_peek(p, 1)->kind == T_IDENT)
        parse_unsupported(p, mpos, "var is");
      pm.is_final = mods != 0;
      parse_type(p, &pm.tref, false);
    }
    pm.name = parse_ident(p, &pm.pos);
    DR_ARENA_PUSH(p->arena, e->params, e->nparams, cap, pm);
    if (!parse_accept(p, T_COMMA)) break;
  }
  parse_expect(p, T_RPAREN);
}

static DrExpr *parse_lambda(DrParser *p) {
  DrExpr *e = parse_new_expr(p, E_LAMBDA, parse_cur(p)->pos);
  parse_lambda_params(p, e);
  e->pos = parse_cur(p)->pos; /* javac places a lambda at its arrow */
  if (!parse_expect(p, T_ARROW)) return e;
  if (!parse_enter(p)) return e;
  if (parse_at(p, T_LBRACE)) e->block = parse_block(p);
  else e->rhs = parse_expr(p);
  parse_leave(p);
  return e;
}

/* After `::` (at the current token); q is what stands before it. */
static DrExpr *parse_method_ref(DrParser *p, DrExpr *q) {
  DrExpr *e = parse_new_expr(p, E_METHOD_REF, parse_cur(p)->pos);
  parse_advance(p);
  e->target = q;
  if (parse_at(p, T_LT)) parse_call_type_args(p, &e->targs, &e->ntargs); /* ignored: inferred */
  if (parse_at(p, T_NEW)) {
    parse_advance(p);
    e->name = "new";
  } else {
    DrPos npos;
    e->name = parse_ident(p, &npos);
  }
  return e;
}

/* Type[]::new, at `::`: a method reference whose tref is the array type */
static DrExpr *parse_array_ctor_ref(DrParser *p, DrExpr *q, const char *elem, int dims) {
  DrExpr *e = parse_method_ref(p, q);
  if (!e->name || strcmp(e->name, "new") != 0) {
    parse_error(p, e->pos, "array types have no method %s", e->name ? e->name : "?");
    return e;
  }
  e->tref.name = elem;
  e->tref.dims = dims;
  e->tref.pos = q->pos;
  return e;
}

/* ------------------------------------------------------------ expressions */

static DrExpr *parse_unary(DrParser *p);

void parse_args(DrParser *p, DrExpr ***args, int *nargs) {
  DrExpr **items = NULL;
  int n = 0, cap = 0;
  if (parse_expect(p, T_LPAREN) && !parse_accept(p, T_RPAREN)) {
    for (;;) {
      DrExpr *a = parse_expr(p);
      DR_ARENA_PUSH(p->arena, items, n, cap, a);
      if (!parse_accept(p, T_COMMA)) break;
    }
    parse_expect(p, T_RPAREN);
  }
  *args = items;
  *nargs = n;
}

DrExpr *parse_array_init(DrParser *p) {
  DrExpr *e = parse_new_expr(p, E_ARRAY_INIT, parse_cur(p)->pos);
  if (!parse_enter(p)) return e;
  int cap = 0;
  parse_expect(p, T_LBRACE);
  /* `{,}` is a legal empty initializer */
  if (parse_at(p, T_COMMA) && parse_peek(p, 1)->kind == T_RBRACE) parse_advance(p);
  while (!parse_at(p, T_RBRACE) && !parse_at(p, T_EOF)) {
    DrExpr *x = parse_at(p, T_LBRACE) ? parse_array_init(p) : parse_expr(p);
    DR_ARENA_PUSH(p->arena, e->args, e->nargs, cap, x);
    if (!parse_accept(p, T_COMMA)) break;
  }
  parse_expect(p, T_RBRACE);
  parse_leave(p);
  return e;
}

/* `new` ... : class instance or array creation. */
static DrExpr *parse_creator(DrParser *p) {
  DrPos pos = parse_advance(p)->pos;
  if (parse_at(p, T_LT)) parse_skip_type_args(p);
  DrTypeRef t;
  memset(&t, 0, sizeof t);
  if (!parse_at(p, T_IDENT) && !parse_is_primtype(parse_cur(p)->kind)) {
    parse_error_expected(p, "<identifier>");
    return parse_placeholder(p, pos);
  }
  parse_type_name(p, &t, false);
  if (parse_at(p, T_LBRACKET)) {
    DrExpr *e = parse_new_expr(p, E_NEW_ARRAY, pos);
    int cap = 0;
    while (parse_at(p, T_LBRACKET)) {
      if (parse_peek(p, 1)->kind == T_RBRACKET) {
        parse_advance(p);
        parse_advance(p);
        t.dims++;
        continue;
      }
      parse_advance(p);
      if (t.dims > e->nargs) { /* new int[2][][3] */
        parse_expect(p, T_RBRACKET);
        break;
      }
      DrExpr *d = parse_expr(p);
      DR_ARENA_PUSH(p->arena, e->args, e->nargs, cap, d);
      parse_expect(p, T_RBRACKET);
      t.dims++;
    }
    e->tref = t;
    if (e->nargs == 0) {
      if (parse_at(p, T_LBRACE)) e->init = parse_array_init(p);
      else parse_error(p, parse_cur(p)->pos, "array dimension missing");
    } else if (parse_at(p, T_LBRACE)) {
      parse_error(p, parse_cur(p)->pos, "array creation with both dimension expression and initialization is illegal");
      (void)parse_array_init(p);
    }
    return e;
  }
  DrExpr *e = parse_new_expr(p, E_NEW, pos);
  e->tref = t;
  if (!parse_at(p, T_LPAREN)) {
    parse_error_expected(p, "'(' or '['");
    return e;
  }
  parse_args(p, &e->args, &e->nargs);
  if (parse_at(p, T_LBRACE) && parse_enter(p)) {
    e->body = parse_anon_body(p, pos);
    parse_leave(p);
  }
  return e;
}

static DrExpr *parse_literal(DrParser *p) {
  DrToken *t = parse_advance(p);
  DrExpr *e = parse_new_expr(p, E_INT_LIT, t->pos);
  switch (t->kind) {
  case T_INT_LIT:
  case T_LONG_LIT:
    if (t->flags & DR_TOKF_NEEDS_MINUS) parse_error(p, t->pos, "integer number too large");
    if (t->kind == T_INT_LIT) {
      e->lit.i = (int32_t)t->ival;
    } else {
      e->kind = E_LONG_LIT;
      e->lit.j = t->ival;
    }
    break;
  case T_DOUBLE_LIT: e->kind = E_DOUBLE_LIT; e->lit.d = t->dval; break;
  case T_FLOAT_LIT: e->kind = E_FLOAT_LIT; e->lit.d = t->dval; break;
  case T_CHAR_LIT: e->kind = E_CHAR_LIT; e->lit.i = (int32_t)t->ival; break;
  case T_STRING_LIT:
    e->kind = E_STRING_LIT;
    e->lit.s = t->str;
    e->lit.slen = t->slen;
    break;
  case T_TRUE: case T_FALSE: e->kind = E_BOOL_LIT; e->lit.i = t->kind == T_TRUE; break;
  default: e->kind = E_NULL_LIT; break;
  }
  return e;
}

/* A class literal (JLS 15.8.2) of the type named name with dims []s. */
static DrExpr *parse_class_lit(DrParser *p, const char *name, int dims, DrPos pos) {
  DrExpr *e = parse_new_expr(p, E_CLASS_LIT, pos);
  e->tref.name = name;
  e->tref.dims = dims;
  e->tref.pos = pos;
  return e;
}

/* The dotted name an expression a.b.c spells, or NULL. */
static const char *parse_name_of(DrParser *p, const DrExpr *e) {
  if (e->kind == E_NAME) return e->name;
  if (e->kind != E_FIELD_ACCESS || e->is_super || !e->target) return NULL;
  const char *q = parse_name_of(p, e->target);
  return q ? dr_arena_printf(p->arena, "%s.%s", q, e->name) : NULL;
}

/* `int.class`, `int[].class`; anything else after a primitive type is not
 * an expression. */
static DrExpr *parse_primtype_in_expr(DrParser *p) {
  DrToken *t = parse_cur(p);
  int i = p->pos + 1;
  while (parse_kind_at(p, i) == T_LBRACKET && parse_kind_at(p, i + 1) == T_RBRACKET) i += 2;
  if (parse_kind_at(p, i) == T_DOT && parse_kind_at(p, i + 1) == T_CLASS) {
    int dims = (i - p->pos - 1) / 2;
    p->pos = i + 2;
    return parse_class_lit(p, dr_token_spelling(t->kind), dims, t->pos);
  } else if (parse_kind_at(p, i) == T_COLONCOLON && i > p->pos + 1) {
    int dims = (i - p->pos - 1) / 2;
    p->pos = i;
    return parse_array_ctor_ref(p, parse_placeholder(p, t->pos), dr_token_spelling(t->kind), dims);
  } else {
    parse_error(p, t->pos, "illegal start of expression");
    parse_advance(p);
  }
  return parse_placeholder(p, t->pos);
}

static DrExpr *parse_primary(DrParser *p) {
  DrToken *t = parse_cur(p);
  DrPos pos = t->pos;
  switch (t->kind) {
  case T_INT_LIT: case T_LONG_LIT: case T_DOUBLE_LIT: case T_FLOAT_LIT: case T_CHAR_LIT: case T_STRING_LIT:
  case T_TRUE: case T_FALSE: case T_NULL:
    return parse_literal(p);
  case T_THIS:
    parse_advance(p);
    return parse_new_expr(p, E_THIS, pos);
  case T_SUPER: {
    parse_advance(p);
    if (parse_at(p, T_COLONCOLON)) {
      /* super::m: the checker makes it the lambda javac makes of it */
      DrExpr *q = parse_new_expr(p, E_THIS, pos);
      q->is_super = true;
      return parse_method_ref(p, q);
    }
    if (!parse_expect(p, T_DOT)) return parse_placeholder(p, pos);
    DrTypeRef *targs = NULL;
    int ntargs = 0;
    if (parse_at(p, T_LT)) parse_call_type_args(p, &targs, &ntargs);
    DrPos npos;
    const char *name = parse_ident(p, &npos);
    if (parse_at(p, T_LPAREN)) {
      DrExpr *e = parse_new_expr(p, E_CALL, npos);
      e->name = name;
      e->targs = targs;
      e->ntargs = ntargs;
      e->is_super = true;
      parse_args(p, &e->args, &e->nargs);
      return e;
    }
    /* super.x: the checker looks x up from the superclass */
    DrExpr *e = parse_new_expr(p, E_FIELD_ACCESS, npos);
    e->name = name;
    e->is_super = true;
    return e;
  }
  case T_IDENT: {
    if (parse_peek(p, 1)->kind == T_ARROW && !p->no_lambda) return parse_lambda(p);
    parse_advance(p);
    if (parse_at(p, T_LPAREN)) {
      DrExpr *e = parse_new_expr(p, E_CALL, pos);
      e->name = t->text;
      parse_args(p, &e->args, &e->nargs);
      return e;
    }
    DrExpr *e = parse_new_expr(p, E_NAME, pos);
    e->name = t->text;
    return e;
  }
  case T_LPAREN: {
    if (!p->no_lambda && parse_paren_is_lambda(p)) return parse_lambda(p);
    parse_advance(p);
    DrExpr *e = parse_expr(p);
    parse_expect(p, T_RPAREN);
    return e;
  }
  case T_NEW:
    return parse_creator(p);
  case T_SWITCH: {
    parse_advance(p);
    DrExpr *e = parse_new_expr(p, E_SWITCH, pos);
    e->sw = parse_switch(p, pos, true);
    return e;
  }
  case T_AT: /* an annotation where an expression belongs: skipped whole */
    parse_error(p, pos, "illegal start of expression");
    parse_advance(p);
    while (parse_at(p, T_IDENT) || parse_at(p, T_DOT)) parse_advance(p);
    if (parse_at(p, T_LPAREN)) parse_skip_group(p);
    return parse_placeholder(p, pos);
  default:
    if (parse_is_primtype(t->kind)) return parse_primtype_in_expr(p);
    parse_error_here(p, "illegal start of expression");
    return parse_placeholder(p, pos);
  }
}

/* One selector or postfix operator applied to e; NULL if there is none
 * here (or it is broken beyond continuing the chain). */
static DrExpr *parse_selector(DrParser *p, DrExpr *e) {
  DrToken *t = parse_cur(p);
  DrPos pos = t->pos;
  switch (t->kind) {
  case T_DOT: {
    parse_advance(p);
    DrTypeRef *targs = NULL;
    int ntargs = 0;
    if (parse_at(p, T_LT)) parse_call_type_args(p, &targs, &ntargs);
    DrToken *n = parse_cur(p);
    switch (n->kind) {
    case T_IDENT: {
      parse_advance(p);
      DrExpr *x = parse_new_expr(p, parse_at(p, T_LPAREN) ? E_CALL : E_FIELD_ACCESS, pos);
      x->target = e;
      x->name = n->text;
      x->targs = targs;
      x->ntargs = ntargs;
      if (ntargs && x->kind != E_CALL) parse_error_expected(p, "'('");
      if (x->kind == E_CALL) parse_args(p, &x->args, &x->nargs);
      return x;
    }
    case T_CLASS: {
      parse_advance(p);
      const char *name = parse_name_of(p, e);
      if (!name) {
        parse_error(p, n->pos, "<identifier> expected");
        return e;
      }
      return parse_class_lit(p, name, 0, e->pos);
    }
    case T_THIS: {
      parse_advance(p);
      DrExpr *x = parse_new_expr(p, E_THIS, e->pos);
      x->target = e;
      return x;
    }
    case T_SUPER: {
      /* I.super.m(...): an interface's default method, called directly */
      parse_advance(p);
      if (!parse_expect(p, T_DOT)) return e;
      DrPos npos;
      const char *name = parse_ident(p, &npos);
      if (!parse_at(p, T_LPAREN)) {
        parse_unsupported(p, n->pos, "qualified super field access is");
        return e;
      }
      DrExpr *x = parse_new_expr(p, E_CALL, npos);
      x->name = name;
      x->is_super = true;
      x->super_of = e;
      parse_args(p, &x->args, &x->nargs);
      return x;
    }
    case T_NEW: {
      DrExpr *x = parse_creator(p);
      if (x->kind == E_NEW) x->target = e;
      return x;
    }
    default:
      parse_error_expected(p, "<identifier>");
      return NULL;
    }
  }
  case T_LBRACKET: {
    if (parse_peek(p, 1)->kind == T_RBRACKET) {
      /* Foo[].class or Foo[]::new */
      int dims = 0;
      for (; parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET; dims++) p->pos += 2;
      if (parse_at(p, T_DOT) && parse_peek(p, 1)->kind == T_CLASS) {
        p->pos += 2;
        const char *name = parse_name_of(p, e);
        if (name) return parse_class_lit(p, name, dims, e->pos);
        parse_error(p, e->pos, "<identifier> expected");
      } else if (parse_at(p, T_COLONCOLON)) {
        const char *name = parse_name_of(p, e);
        if (name) return parse_array_ctor_ref(p, e, name, dims);
        parse_error(p, e->pos, "<identifier> expected");
        (void)parse_method_ref(p, e);
      } else {
        parse_error_expected(p, "'.class'");
        return NULL;
      }
      return e;
    }
    parse_advance(p);
    DrExpr *x = parse_new_expr(p, E_INDEX, pos);
    x->target = e;
    x->rhs = parse_expr(p);
    parse_expect(p, T_RBRACKET);
    return x;
  }
  case T_COLONCOLON:
    return parse_method_ref(p, e);
  case T_PLUSPLUS:
  case T_MINUSMINUS: {
    parse_advance(p);
    DrExpr *x = parse_new_expr(p, t->kind == T_PLUSPLUS ? E_POSTINC : E_POSTDEC, pos);
    x->target = e;
    return x;
  }
  default:
    return NULL;
  }
}

/* A primary and its selectors.  A chain a.b.c... builds a left-deep tree
 * without recursing here; each link still counts as a nesting level, so
 * the passes that walk the tree recursively are as safe from deep input
 * as the parser. */
static DrExpr *parse_postfix(DrParser *p) {
  DrExpr *e = parse_primary(p);
  int depth0 = p->depth;
  for (;;) {
    DrTokKind k = parse_cur(p)->kind;
    if (k != T_DOT && k != T_LBRACKET && k != T_COLONCOLON && k != T_PLUSPLUS && k != T_MINUSMINUS) break;
    if (!parse_enter(p)) break;
    DrExpr *x = parse_selector(p, e);
    if (!x) break;
    e = x;
  }
  p->depth = depth0;
  return e;
}

/* A parenthesized type followed by what can start an operand
 * (JLS 15.16; javac's analyzeParens): `(Foo) x` is a cast, `(a) + b` is
 * not. */
static bool parse_can_follow_ref_cast(DrTokKind k) {
  switch (k) {
  case T_IDENT: case T_INT_LIT: case T_LONG_LIT: case T_DOUBLE_LIT: case T_FLOAT_LIT: case T_CHAR_LIT: case T_STRING_LIT:
  case T_TRUE: case T_FALSE: case T_NULL: case T_LPAREN: case T_THIS: case T_SUPER: case T_NEW:
  case T_BANG: case T_TILDE: case T_SWITCH:
    return true;
  default:
    return parse_is_primtype(k);
  }
}

/* At `(`: the index of the `)` of a cast's type, or -1 if this is not a
 * cast. */
static int parse_cast_end(DrParser *p) {
  int i = p->pos + 1;
  DrTokKind k = parse_kind_at(p, i);
  if (!parse_is_primtype(k) && k != T_IDENT) return -1;
  int j = parse_scan_type(p, i);
  if (j < 0 || parse_kind_at(p, j) != T_RPAREN) return -1;
  bool prim = parse_is_primtype(k) && parse_kind_at(p, i + 1) == T_RPAREN;
  if (prim || parse_can_follow_ref_cast(parse_kind_at(p, j + 1))) return j;
  return -1;
}

static DrExpr *parse_unary_operand(DrParser *p, DrExpr *e) {
  if (!parse_enter(p)) {
    e->target = parse_placeholder(p, e->pos);
    return e;
  }
  e->target = parse_unary(p);
  parse_leave(p);
  return e;
}

static DrExpr *parse_unary(DrParser *p) {
  DrToken *t = parse_cur(p);
  DrPos pos = t->pos;
  switch (t->kind) {
  case T_MINUS: {
    DrToken *n = parse_peek(p, 1);
    if ((n->kind == T_INT_LIT || n->kind == T_LONG_LIT) && (n->flags & DR_TOKF_NEEDS_MINUS)) {
      /* -2147483648 and -9223372036854775808L are single literals */
      parse_advance(p);
      parse_advance(p);
      DrExpr *e = parse_new_expr(p, n->kind == T_INT_LIT ? E_INT_LIT : E_LONG_LIT, pos);
      if (n->kind == T_INT_LIT) e->lit.i = INT32_MIN;
      else e->lit.j = INT64_MIN;
      return e;
    }
  }
  /* fall through */
  case T_PLUS: case T_BANG: case T_TILDE: {
    parse_advance(p);
    DrExpr *e = parse_new_expr(p, E_UNARY, pos);
    e->op = t->kind == T_MINUS ? '-' : t->kind == T_PLUS ? '+' : t->kind == T_BANG ? '!' : '~';
    return parse_unary_operand(p, e);
  }
  case T_PLUSPLUS:
  case T_MINUSMINUS:
    parse_advance(p);
    return parse_unary_operand(p, parse_new_expr(p, t->kind == T_PLUSPLUS ? E_PREINC : E_PREDEC, pos));
  case T_LPAREN: {
    if (p->no_lambda || !parse_paren_is_lambda(p)) {
      int end = parse_cast_end(p);
      if (end >= 0) {
        DrExpr *e = parse_new_expr(p, E_CAST, pos);
        parse_advance(p);
        parse_type(p, &e->tref, false);
        parse_expect(p, T_RPAREN);
        return parse_unary_operand(p, e);
      }
    }
    return parse_postfix(p);
  }
  default:
    return parse_postfix(p);
  }
}

/* Binary operator precedence (higher binds tighter); 0: not binary. */
static int parse_binary_prec(DrTokKind k, DrBinOp *op) {
  switch (k) {
  case T_OROR: *op = DR_BIN_LOR; return 1;
  case T_ANDAND: *op = DR_BIN_LAND; return 2;
  case T_BAR: *op = DR_BIN_OR; return 3;
  case T_CARET: *op = DR_BIN_XOR; return 4;
  case T_AMP: *op = DR_BIN_AND; return 5;
  case T_EQEQ: *op = DR_BIN_EQ; return 6;
  case T_NE: *op = DR_BIN_NE; return 6;
  case T_LT: *op = DR_BIN_LT; return 7;
  case T_GT: *op = DR_BIN_GT; return 7;
  case T_LE: *op = DR_BIN_LE; return 7;
  case T_GE: *op = DR_BIN_GE; return 7;
  case T_INSTANCEOF: *op = DR_BIN_NONE; return 7;
  case T_SHL: *op = DR_BIN_SHL; return 8;
  case T_SHR: *op = DR_BIN_SHR; return 8;
  case T_USHR: *op = DR_BIN_USHR; return 8;
  case T_PLUS: *op = DR_BIN_ADD; return 9;
  case T_MINUS: *op = DR_BIN_SUB; return 9;
  case T_STAR: *op = DR_BIN_MUL; return 10;
  case T_SLASH: *op = DR_BIN_DIV; return 10;
  case T_PERCENT: *op = DR_BIN_REM; return 10;
  default: return 0;
  }
}

/* Operator chains (a + b + c ...) build left-deep trees that the later
 * phases walk recursively, so their links count as nesting too, but one
 * level per DR_CHAIN_LINKS links: valid Java such as a 1,000-term sum is
 * accepted (up to DR_PARSE_MAX_DEPTH * DR_CHAIN_LINKS terms). */
enum { DR_CHAIN_LINKS = 8 };

static DrExpr *parse_binary(DrParser *p, int min_prec) {
  DrExpr *left = parse_unary(p);
  int depth0 = p->depth, links = 0;
  for (;;) {
    DrToken *t = parse_cur(p);
    DrBinOp op = DR_BIN_NONE;
    int prec = parse_binary_prec(t->kind, &op);
    if (prec == 0 || prec < min_prec || (links++ % DR_CHAIN_LINKS == 0 && !parse_enter(p))) break;
    parse_advance(p);
    if (t->kind == T_INSTANCEOF) {
      DrExpr *e = parse_new_expr(p, E_INSTANCEOF, t->pos);
      e->target = left;
      bool final_pattern = parse_accept(p, T_FINAL);
      parse_type(p, &e->tref, false);
      if (parse_at(p, T_LPAREN)) { /* Point(int x, int y): a record pattern */
        parse_unsupported(p, parse_cur(p)->pos, "record patterns are");
        parse_skip_group(p);
      }
      e->bind_final = final_pattern;
      if (final_pattern || parse_at(p, T_IDENT)) e->name = parse_ident(p, &e->bind_pos);
      left = e;
      continue;
    }
    DrExpr *e = parse_new_expr(p, E_BINARY, t->pos);
    e->op = (int)op;
    e->lhs = left;
    e->rhs = parse_binary(p, prec + 1);
    left = e;
  }
  p->depth = depth0;
  return left;
}

/* The assignment operator's DrBinOp, or -1 if k is not one. */
static int parse_assign_op(DrTokKind k) {
  switch (k) {
  case T_ASSIGN: return DR_BIN_NONE;
  case T_PLUSEQ: return DR_BIN_ADD;
  case T_MINUSEQ: return DR_BIN_SUB;
  case T_STAREQ: return DR_BIN_MUL;
  case T_SLASHEQ: return DR_BIN_DIV;
  case T_PERCENTEQ: return DR_BIN_REM;
  case T_AMPEQ: return DR_BIN_AND;
  case T_BAREQ: return DR_BIN_OR;
  case T_CARETEQ: return DR_BIN_XOR;
  case T_SHLEQ: return DR_BIN_SHL;
  case T_SHREQ: return DR_BIN_SHR;
  case T_USHREQ: return DR_BIN_USHR;
  default: return -1;
  }
}

static DrExpr *parse_cond(DrParser *p) {
  DrExpr *c = parse_binary(p, 1);
  if (!parse_at(p, T_QUESTION)) return c;
  DrExpr *e = parse_new_expr(p, E_COND, parse_advance(p)->pos);
  e->cond = c;
  e->lhs = parse_expr(p);
  parse_expect(p, T_COLON);
  if (!parse_enter(p)) {
    e->rhs = parse_placeholder(p, e->pos);
    return e;
  }
  e->rhs = parse_cond(p);
  parse_leave(p);
  return e;
}

DrExpr *parse_expr(DrParser *p) {
  DrPos pos = parse_cur(p)->pos;
  if (!parse_enter(p)) return parse_placeholder(p, pos);
  DrExpr *lhs = parse_cond(p);
  int op = parse_assign_op(parse_cur(p)->kind);
  if (op >= 0) {
    DrExpr *e = parse_new_expr(p, E_ASSIGN, parse_advance(p)->pos);
    e->op = op;
    e->target = lhs;
    e->rhs = parse_expr(p); /* right-associative */
    lhs = e;
  }
  parse_leave(p);
  return lhs;
}
