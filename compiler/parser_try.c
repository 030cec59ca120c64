/* The parser, part 4: try-with-resources (JLS 14.20.3), turned into the
 * plain statements JLS 14.20.3.1 and 14.20.3.2 give as its meaning, so the
 * checker, the emitter and the detectors see only try/catch/finally:
 *
 *   try (R r = e; more) B
 * is
 *   { final R r = e;                       // a resource: AutoCloseable
 *     Throwable #p = null;
 *     try { try (more) B }                 // B itself after the last one
 *     catch (Throwable #t) { #p = #t; throw #t; }
 *     finally {
 *       if (r != null)
 *         if (#p != null) try { r.close(); } catch (Throwable #s) { #p.addSuppressed(#s); }
 *         else r.close();
 *     } }
 *
 * and with catch or finally clauses, `try { that } catch ... finally ...`
 * (they see the resources closed).  A resource that is a variable or field
 * (Java 9) is `final var #r = name;`.  The names with `#` are the
 * compiler's: no program can spell them. */
#include "lexer.h"

#include <string.h>

static DrExpr *name_expr(DrParser *p, const char *name, DrPos pos) {
  DrExpr *e = parse_new_expr(p, E_NAME, pos);
  e->name = name;
  return e;
}

static DrStmt *block_of(DrParser *p, DrPos pos, DrStmt **stmts, int n) {
  DrStmt *b = parse_new_stmt(p, S_BLOCK, pos);
  b->stmts = dr_arena_alloc(p->arena, sizeof(DrStmt *) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) b->stmts[b->nstmts++] = stmts[i];
  return b;
}

static DrStmt *local(DrParser *p, DrPos pos, const char *type, const char *name, DrExpr *init) {
  DrStmt *s = parse_new_stmt(p, S_LOCAL, pos);
  s->tref.name = type;
  s->tref.pos = pos;
  s->decls = dr_arena_alloc(p->arena, sizeof(DrDeclarator));
  memset(s->decls, 0, sizeof(DrDeclarator));
  s->decls[0].name = name;
  s->decls[0].pos = pos;
  s->decls[0].init = init;
  s->ndecls = 1;
  return s;
}

static DrStmt *expr_stmt(DrParser *p, DrPos pos, DrExpr *e) {
  DrStmt *s = parse_new_stmt(p, S_EXPR, pos);
  s->expr = e;
  return s;
}

static DrExpr *call(DrParser *p, DrPos pos, const char *target, const char *method, DrExpr *arg) {
  DrExpr *e = parse_new_expr(p, E_CALL, pos);
  e->target = name_expr(p, target, pos);
  e->name = method;
  if (arg) {
    e->args = dr_arena_alloc(p->arena, sizeof(DrExpr *));
    e->args[e->nargs++] = arg;
  }
  return e;
}

static DrExpr *not_null(DrParser *p, DrPos pos, const char *name) {
  DrExpr *e = parse_new_expr(p, E_BINARY, pos);
  e->op = DR_BIN_NE;
  e->lhs = name_expr(p, name, pos);
  e->rhs = parse_new_expr(p, E_NULL_LIT, pos);
  return e;
}

static DrStmt *try_stmt(DrParser *p, DrPos pos, DrStmt *body, const char *catch_name, DrStmt *handler,
                        DrStmt *finally_body) {
  DrStmt *t = parse_new_stmt(p, S_TRY, pos);
  t->body = body;
  t->finally_body = finally_body;
  if (catch_name) {
    t->catches = dr_arena_alloc(p->arena, sizeof(DrCatch));
    memset(t->catches, 0, sizeof(DrCatch));
    t->catches[0].pos = pos;
    t->catches[0].name = catch_name;
    t->catches[0].types = dr_arena_alloc(p->arena, sizeof(DrTypeRef));
    memset(t->catches[0].types, 0, sizeof(DrTypeRef));
    t->catches[0].types[0].name = "Throwable";
    t->catches[0].types[0].pos = pos;
    t->catches[0].ntypes = 1;
    t->catches[0].body = handler;
    t->ncatches = 1;
  }
  return t;
}

/* The block that declares resource r (its declaration `decl`) around
 * inner, closing r however inner ends. */
static DrStmt *wrap(DrParser *p, DrStmt *decl, const char *r, DrStmt *inner, int k) {
  DrPos pos = decl->pos;
  const char *prim = dr_arena_printf(p->arena, "#primary%d", k);
  const char *t = dr_arena_printf(p->arena, "#t%d", k), *sup = dr_arena_printf(p->arena, "#s%d", k);
  DrStmt *record = expr_stmt(p, pos, NULL);
  record->expr = parse_new_expr(p, E_ASSIGN, pos);
  record->expr->op = DR_BIN_NONE;
  record->expr->target = name_expr(p, prim, pos);
  record->expr->rhs = name_expr(p, t, pos);
  DrStmt *rethrow = parse_new_stmt(p, S_THROW, pos);
  rethrow->expr = name_expr(p, t, pos);
  DrStmt *on_throw = block_of(p, pos, (DrStmt *[]){record, rethrow}, 2);
  DrStmt *suppress = block_of(p, pos, (DrStmt *[]){expr_stmt(p, pos, call(p, pos, prim, "addSuppressed",
                                                                        name_expr(p, sup, pos)))}, 1);
  DrStmt *quiet_close = try_stmt(p, pos, block_of(p, pos, (DrStmt *[]){expr_stmt(p, pos, call(p, pos, r, "close", NULL))}, 1),
                                 sup, suppress, NULL);
  DrStmt *which = parse_new_stmt(p, S_IF, pos);
  which->expr = not_null(p, pos, prim);
  which->body = quiet_close;
  which->else_body = expr_stmt(p, pos, call(p, pos, r, "close", NULL));
  DrStmt *if_open = parse_new_stmt(p, S_IF, pos);
  if_open->expr = not_null(p, pos, r);
  if_open->body = which;
  DrStmt *guarded = try_stmt(p, pos, inner, t, on_throw, block_of(p, pos, &if_open, 1));
  DrStmt *prim_decl = local(p, pos, "Throwable", prim, parse_new_expr(p, E_NULL_LIT, pos));
  return block_of(p, pos, (DrStmt *[]){decl, prim_decl, guarded}, 3);
}

/* One resource, at its start: its declaration, and its variable's name. */
static DrStmt *resource(DrParser *p, int k, const char **name) {
  DrPos pos = parse_cur(p)->pos;
  int j = parse_scan_type(p, p->pos);
  bool decl = parse_at(p, T_FINAL) || parse_at(p, T_AT) ||
              (j >= 0 && parse_kind_at(p, j) == T_IDENT);
  DrStmt *s;
  if (decl) {
    (void)parse_modifiers(p, false);
    s = parse_new_stmt(p, S_LOCAL, pos);
    parse_type(p, &s->tref, false);
    s->decls = dr_arena_alloc(p->arena, sizeof(DrDeclarator));
    memset(s->decls, 0, sizeof(DrDeclarator));
    s->decls[0].name = parse_ident(p, &s->decls[0].pos);
    s->ndecls = 1;
    if (parse_expect(p, T_ASSIGN)) s->decls[0].init = parse_expr(p);
  } else {
    /* try (r) / try (this.r): a variable or field, effectively final */
    DrExpr *e = parse_expr(p);
    if (e->kind != E_NAME && e->kind != E_FIELD_ACCESS)
      parse_error(p, e->pos, "the try-with-resources resource must either be a variable declaration or an "
                             "expression denoting a reference to a final or effectively final variable");
    s = local(p, pos, "var", dr_arena_printf(p->arena, "#resource%d", k), e);
  }
  s->is_final = true;
  s->is_resource = true;
  *name = s->decls[0].name ? s->decls[0].name : "?";
  return s;
}

DrStmt *parse_try_resources(DrParser *p, DrPos pos) {
  parse_expect(p, T_LPAREN);
  int counter = p->ntemps;
  /* parsed outside in, built inside out: the body comes after `)` */
  const char *names[64];
  DrStmt *decls[64];
  int n = 0;
  do {
    if (n == 64) {
      parse_error(p, parse_cur(p)->pos, "too many resources in one try statement (DL allows 64)");
      parse_skip_group(p);
      break;
    }
    decls[n] = resource(p, counter + n, &names[n]);
    n++;
    p->ntemps++;
  } while (parse_accept(p, T_SEMI) && !parse_at(p, T_RPAREN));
  parse_expect(p, T_RPAREN);
  DrStmt *inner = parse_block(p);
  for (int i = n - 1; i >= 0; i--) inner = wrap(p, decls[i], names[i], inner, counter + i);
  (void)pos;
  return inner;
}
