/* The parser, part 5: record declarations (JLS 8.10), read as the class
 * javac makes of them.  `record P(int x, String s) { body }` becomes a
 * final class extending java.lang.Record with a private final field per
 * component, the canonical constructor (given, compact -- the fields are
 * assigned from the parameters after its body -- or implicit), and,
 * unless the body declares them, the accessors x() and s(), and equals,
 * hashCode and toString as java.lang.runtime.ObjectMethods computes them. */
#include "lexer.h"

#include <string.h>

typedef struct {
  DrParam *comps;
  int n;
} DrRecordHead;

static const char *rec_type_text(DrParser *p, const DrTypeRef *t) {
  const char *s = t->name ? t->name : "int";
  if (t->wild == DR_WILD_ANY) return "?";
  if (t->wild) s = dr_arena_printf(p->arena, "? %s %s", t->wild == DR_WILD_EXTENDS ? "extends" : "super", s);
  if (t->nargs) {
    s = dr_arena_printf(p->arena, "%s<", s);
    for (int j = 0; j < t->nargs; j++) s = dr_arena_printf(p->arena, "%s%s%s", s, j ? "," : "", rec_type_text(p, &t->args[j]));
    s = dr_arena_printf(p->arena, "%s>", s);
  }
  for (int j = 0; j < t->dims; j++) s = dr_arena_printf(p->arena, "%s[]", s);
  return s;
}

static bool rec_is(const DrTypeRef *t, const char *prim) { return t->dims == 0 && t->name && strcmp(t->name, prim) == 0; }

static bool rec_is_prim(const DrTypeRef *t) {
  return rec_is(t, "int") || rec_is(t, "long") || rec_is(t, "char") || rec_is(t, "boolean") || rec_is(t, "double");
}

/* One component's part of equals, comparing this.x with $r.x. */
static const char *rec_equals_part(DrParser *p, const DrParam *c) {
  const char *x = c->name;
  if (rec_is(&c->tref, "double"))
    return dr_arena_printf(p->arena, "java.lang.Double.compare(this.%s, $r.%s) == 0", x, x);
  if (rec_is_prim(&c->tref)) return dr_arena_printf(p->arena, "this.%s == $r.%s", x, x);
  return dr_arena_printf(p->arena, "(this.%s == null ? $r.%s == null : this.%s.equals($r.%s))", x, x, x, x);
}

/* One component's hash code. */
static const char *rec_hash_part(DrParser *p, const DrParam *c) {
  const char *x = c->name;
  if (rec_is(&c->tref, "double")) return dr_arena_printf(p->arena, "java.lang.Double.hashCode(this.%s)", x);
  if (rec_is(&c->tref, "long")) return dr_arena_printf(p->arena, "(int) (this.%s ^ (this.%s >>> 32))", x, x);
  if (rec_is(&c->tref, "boolean")) return dr_arena_printf(p->arena, "(this.%s ? 1231 : 1237)", x);
  if (rec_is_prim(&c->tref)) return dr_arena_printf(p->arena, "this.%s", x);
  return dr_arena_printf(p->arena, "(this.%s == null ? 0 : this.%s.hashCode())", x, x);
}

/* Whether the body declares a method name with nparams parameters. */
static bool rec_declares(const DrClassDecl *d, const char *name, int nparams) {
  for (int i = 0; i < d->nmembers; i++) {
    const DrMember *m = &d->members[i];
    if (m->kind == M_METHOD && m->name && strcmp(m->name, name) == 0 && m->nparams == nparams) return true;
  }
  return false;
}

/* Whether constructor m's parameters are the components' types. */
static bool rec_is_canonical(const DrMember *m, const DrRecordHead *h) {
  if (m->nparams != h->n) return false;
  for (int i = 0; i < h->n; i++) {
    const DrTypeRef *a = &m->params[i].tref, *b = &h->comps[i].tref;
    if (a->dims != b->dims || !a->name || !b->name || strcmp(a->name, b->name) != 0) return false;
  }
  return true;
}

static void rec_generated(DrParser *p, DrClassDecl *d, int *cap, const DrRecordHead *h, bool has_canonical) {
  const char *N = d->name;
  for (int i = 0; i < h->n; i++) {
    const DrParam *c = &h->comps[i];
    parse_members_text(p, d, cap, dr_arena_printf(p->arena, "private final %s %s;", rec_type_text(p, &c->tref), c->name));
    if (!rec_declares(d, c->name, 0))
      parse_members_text(p, d, cap, dr_arena_printf(p->arena, "public %s %s() { return this.%s; }",
                                                    rec_type_text(p, &c->tref), c->name, c->name));
  }
  if (!has_canonical) {
    const char *params = "", *body = "";
    for (int i = 0; i < h->n; i++) {
      const DrParam *c = &h->comps[i];
      const char *t = rec_type_text(p, &c->tref);
      if (c->is_varargs) t = dr_arena_printf(p->arena, "%.*s...", (int)strlen(t) - 2, t); /* T[] -> T... */
      params = dr_arena_printf(p->arena, "%s%s%s %s", params, i ? ", " : "", t, c->name);
      body = dr_arena_printf(p->arena, "%s this.%s = %s;", body, c->name, c->name);
    }
    parse_members_text(p, d, cap, dr_arena_printf(p->arena, "public %s(%s) {%s }", N, params, body));
  }
  if (!rec_declares(d, "equals", 1)) {
    const char *cmp = "true";
    for (int i = 0; i < h->n; i++) cmp = dr_arena_printf(p->arena, "%s && %s", cmp, rec_equals_part(p, &h->comps[i]));
    parse_members_text(p, d, cap,
                       dr_arena_printf(p->arena,
                                       "public boolean equals(java.lang.Object $o) { if (this == $o) return true;"
                                       " if (!($o instanceof %s)) return false; %s $r = (%s) $o; return %s; }",
                                       N, N, N, cmp));
  }
  if (!rec_declares(d, "hashCode", 0)) {
    const char *sum = "0";
    for (int i = 0; i < h->n; i++) sum = dr_arena_printf(p->arena, "(%s) * 31 + %s", sum, rec_hash_part(p, &h->comps[i]));
    parse_members_text(p, d, cap, dr_arena_printf(p->arena, "public int hashCode() { return %s; }", sum));
  }
  if (!rec_declares(d, "toString", 0)) {
    const char *s = dr_arena_printf(p->arena, "\"%s[", N);
    for (int i = 0; i < h->n; i++)
      s = dr_arena_printf(p->arena, "%s%s%s=\" + this.%s + \"", s, i ? ", " : "", h->comps[i].name, h->comps[i].name);
    parse_members_text(p, d, cap,
                       dr_arena_printf(p->arena, "public java.lang.String toString() { return %s]\"; }", s));
  }
}

/* `this.x = x;` for every component, after a compact constructor's body. */
static void rec_compact_assignments(DrParser *p, DrStmt *body, const DrRecordHead *h, DrPos pos) {
  int n = body->nstmts;
  DrStmt **ss = dr_arena_alloc(p->arena, sizeof(DrStmt *) * (size_t)(n + h->n + 1));
  for (int i = 0; i < n; i++) ss[i] = body->stmts[i];
  for (int i = 0; i < h->n; i++) {
    DrExpr *this_ = parse_new_expr(p, E_THIS, pos);
    DrExpr *field = parse_new_expr(p, E_FIELD_ACCESS, pos);
    field->target = this_;
    field->name = h->comps[i].name;
    DrExpr *value = parse_new_expr(p, E_NAME, pos);
    value->name = h->comps[i].name;
    DrExpr *a = parse_new_expr(p, E_ASSIGN, pos);
    a->target = field;
    a->rhs = value;
    a->op = DR_BIN_NONE;
    DrStmt *s = parse_new_stmt(p, S_EXPR, pos);
    s->expr = a;
    ss[n + i] = s;
  }
  body->stmts = ss;
  body->nstmts = n + h->n;
}

/* Whether a compact canonical constructor (`[mods] Name {`) starts here. */
static bool rec_at_compact(DrParser *p, const char *name) {
  int i = p->pos;
  while (dr_token_flags(parse_kind_at(p, i)) & DR_TKF_MODIFIER) i++;
  DrToken *t = parse_peek(p, i - p->pos);
  return t->kind == T_IDENT && strcmp(t->text, name) == 0 && parse_kind_at(p, i + 1) == T_LBRACE;
}

static void rec_compact(DrParser *p, DrClassDecl *d, int *cap, const DrRecordHead *h) {
  DrMember m;
  memset(&m, 0, sizeof m);
  m.kind = M_CTOR;
  m.mods = parse_modifiers(p, true);
  m.name = parse_ident(p, &m.pos);
  m.params = h->comps;
  m.nparams = h->n;
  m.body = parse_block(p);
  rec_compact_assignments(p, m.body, h, m.body->end_pos.line ? m.body->end_pos : m.pos);
  DR_ARENA_PUSH(p->arena, d->members, d->nmembers, *cap, m);
}

/* The body's members; instance fields and initializers are javac errors. */
static void rec_body(DrParser *p, DrClassDecl *d, int *cap, const DrRecordHead *h, bool *has_canonical) {
  if (!parse_expect(p, T_LBRACE) || !parse_enter(p)) return;
  while (!parse_at(p, T_RBRACE) && !parse_at(p, T_EOF)) {
    if (parse_accept(p, T_SEMI)) continue;
    int start = p->pos, errs = p->nerrors, before = d->nmembers;
    if (rec_at_compact(p, d->name)) {
      rec_compact(p, d, cap, h);
      *has_canonical = true;
    } else {
      parse_member(p, d, cap);
    }
    for (int i = before; i < d->nmembers; i++) {
      DrMember *m = &d->members[i];
      if (m->kind == M_FIELD && !(m->mods & DR_MOD_STATIC))
        parse_error(p, m->pos, "field declaration must be static (consider replacing field with record component)");
      if (m->kind == M_INIT && !(m->mods & DR_MOD_STATIC)) parse_error(p, m->pos, "instance initializers not allowed in records");
      if (m->kind == M_CTOR && rec_is_canonical(m, h)) *has_canonical = true;
    }
    if (p->nerrors != errs) parse_sync_member(p);
    if (p->pos == start) parse_advance(p);
  }
  parse_expect(p, T_RBRACE);
  parse_leave(p);
}

static void rec_components(DrParser *p, DrRecordHead *h) {
  int cap = 0;
  parse_expect(p, T_LPAREN);
  if (parse_accept(p, T_RPAREN)) return;
  do {
    DrParam c;
    memset(&c, 0, sizeof c);
    parse_type(p, &c.tref, false);
    if (parse_accept(p, T_ELLIPSIS)) {
      c.is_varargs = true;
      c.tref.dims++;
    }
    c.name = parse_ident(p, &c.pos);
    DR_ARENA_PUSH(p->arena, h->comps, h->n, cap, c);
  } while (parse_accept(p, T_COMMA));
  parse_expect(p, T_RPAREN);
}

DrClassDecl *parse_record(DrParser *p, unsigned mods, DrClassDecl *outer) {
  parse_advance(p);
  DrClassDecl *d = dr_arena_alloc(p->arena, sizeof *d);
  d->is_record = true;
  d->mods = mods | DR_MOD_FINAL | (outer ? DR_MOD_STATIC : 0);
  parse_decl_origin(p, d, outer);
  d->name = parse_ident(p, &d->pos);
  if (parse_at(p, T_LT)) parse_type_params(p, &d->tparams, &d->ntparams);
  d->extends = dr_arena_alloc(p->arena, sizeof *d->extends);
  d->extends->name = "java.lang.Record";
  d->extends->pos = d->pos;
  DrRecordHead h = {NULL, 0};
  rec_components(p, &h);
  if (parse_accept(p, T_IMPLEMENTS)) parse_type_list(p, &d->implements, &d->nimplements);
  int cap = 0;
  bool has_canonical = false;
  rec_body(p, d, &cap, &h, &has_canonical);
  rec_generated(p, d, &cap, &h, has_canonical);
  return d;
}
