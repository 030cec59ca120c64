/* The parser, part 4: enum declarations (JLS 8.9), read as the class
 * javac makes of them.  `enum E { A(1), B { body }; members }` becomes
 *
 *   final class E extends java.lang.Enum<E> {
 *     public static final E A = new E("A", 0, 1);
 *     public static final E B = new E$1("B", 1);   // E$1 extends E: B's body
 *     private static final E[] $VALUES = {A, B};
 *     members, each constructor taking (String $name, int $ordinal, ...)
 *     and passing them to super (or to this(...));
 *     public static E[] values(), public static E valueOf(String name)
 *   }
 *
 * so the constants are created, in order, by the class's initialization,
 * as in Java (JLS 12.4), and everything else is an ordinary class.  The
 * members drvm adds are parsed from source text generated here. */
#include "lexer.h"

#include <string.h>

static DrExpr *enum_string(DrParser *p, const char *s, DrPos pos) {
  DrExpr *e = parse_new_expr(p, E_STRING_LIT, pos);
  int n = (int)strlen(s);
  uint16_t *u = dr_arena_alloc(p->arena, sizeof(uint16_t) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) u[i] = (uint8_t)s[i];
  e->lit.s = u;
  e->lit.slen = n;
  return e;
}

static DrExpr *enum_name_expr(DrParser *p, const char *name, DrPos pos) {
  DrExpr *e = parse_new_expr(p, E_NAME, pos);
  e->name = name;
  return e;
}

/* java.lang.String $name, int $ordinal, then the types of the first n
 * parameters of params. */
static const char *enum_ctor_params(DrParser *p, const DrParam *params, int n) {
  const char *s = "java.lang.String $name, int $ordinal";
  for (int i = 0; i < n; i++) {
    const char *t = params[i].tref.name ? params[i].tref.name : "int";
    for (int j = 0; j < params[i].tref.dims; j++) t = dr_arena_printf(p->arena, "%s[]", t);
    s = dr_arena_printf(p->arena, "%s, %s $a%d", s, t, i);
  }
  return s;
}

/* A constructor of the enum gets the name and ordinal first and hands
 * them on: to super(...), or to this(...) when it starts with one. */
static void enum_fix_ctor(DrParser *p, DrMember *m) {
  if (m->mods & (DR_MOD_PUBLIC | DR_MOD_PROTECTED))
    parse_error(p, m->pos, "modifier %s not allowed here", (m->mods & DR_MOD_PUBLIC) ? "public" : "protected");
  m->mods = (m->mods & ~(unsigned)(DR_MOD_PUBLIC | DR_MOD_PROTECTED)) | DR_MOD_PRIVATE;
  DrParam *ps = dr_arena_alloc(p->arena, sizeof(DrParam) * (size_t)(m->nparams + 2));
  ps[0].tref.name = "java.lang.String";
  ps[0].name = "$name";
  ps[1].tref.name = "int";
  ps[1].name = "$ordinal";
  ps[0].pos = ps[1].pos = ps[0].tref.pos = ps[1].tref.pos = m->pos;
  for (int i = 0; i < m->nparams; i++) ps[i + 2] = m->params[i];
  m->params = ps;
  m->nparams += 2;
  DrStmt *b = m->body;
  if (!b || b->kind != S_BLOCK) return;
  DrStmt *first = b->nstmts ? b->stmts[0] : NULL;
  if (first && first->kind == S_CTOR_CALL && first->is_super) {
    parse_error(p, first->pos, "call to super not allowed in enum constructor");
    return;
  }
  if (!first || first->kind != S_CTOR_CALL) {
    first = parse_new_stmt(p, S_CTOR_CALL, m->pos);
    first->is_super = true;
    DrStmt **ss = dr_arena_alloc(p->arena, sizeof(DrStmt *) * (size_t)(b->nstmts + 1));
    ss[0] = first;
    for (int i = 0; i < b->nstmts; i++) ss[i + 1] = b->stmts[i];
    b->stmts = ss;
    b->nstmts++;
  }
  DrExpr **args = dr_arena_alloc(p->arena, sizeof(DrExpr *) * (size_t)(first->nargs + 2));
  args[0] = enum_name_expr(p, "$name", first->pos);
  args[1] = enum_name_expr(p, "$ordinal", first->pos);
  for (int i = 0; i < first->nargs; i++) args[i + 2] = first->args[i];
  first->args = args;
  first->nargs += 2;
}

typedef struct {
  const char *name;
  DrPos pos;
  DrExpr **args;
  int nargs;
  DrClassDecl *body; /* a constant-specific class body, or NULL */
} DrEnumConst;

/* The constructor of a constant's body class: the enum's constructor for
 * that many arguments, passed on. */
static void enum_body_ctor(DrParser *p, DrClassDecl *d, DrEnumConst *k) {
  DrMember *target = NULL;
  int matches = 0;
  for (int i = 0; i < d->nmembers; i++) {
    DrMember *m = &d->members[i];
    if (m->kind == M_CTOR && m->nparams - 2 == k->nargs) {
      target = m;
      matches++;
    }
  }
  if (matches != 1 && k->nargs > 0) {
    parse_error(p, k->pos, "DL cannot tell which constructor of %s the body of %s extends (%d of them take %d arguments)",
                d->name, k->name, matches, k->nargs);
    return;
  }
  int n = target ? target->nparams - 2 : 0;
  const char *args = "$name, $ordinal";
  for (int i = 0; i < n; i++) args = dr_arena_printf(p->arena, "%s, $a%d", args, i);
  /* the class's name is a number, which source text cannot spell */
  DrClassDecl *b = k->body;
  const char *real = b->name;
  b->name = "$Body";
  int cap = b->nmembers, before = b->nmembers;
  parse_members_text(p, b, &cap,
                  dr_arena_printf(p->arena, "$Body(%s) { super(%s); }",
                                  enum_ctor_params(p, target ? target->params + 2 : NULL, n), args));
  b->name = real;
  if (b->nmembers > before) b->members[b->nmembers - 1].name = real;
}

/* A constant's class body: an anonymous class E$1 extends E. */
static DrClassDecl *enum_body(DrParser *p, DrClassDecl *d, DrEnumConst *k, int index) {
  DrClassDecl *b = dr_arena_alloc(p->arena, sizeof *b);
  b->name = dr_arena_printf(p->arena, "%d", index);
  b->pos = k->pos;
  b->mods = DR_MOD_STATIC | DR_MOD_FINAL;
  b->outer = d;
  b->from_prelude = d->from_prelude;
  b->package = d->package;
  b->extends = dr_arena_alloc(p->arena, sizeof *b->extends);
  b->extends->name = d->name;
  b->extends->pos = k->pos;
  parse_expect(p, T_LBRACE);
  int cap = 0;
  while (!parse_at(p, T_RBRACE) && !parse_at(p, T_EOF)) {
    if (parse_accept(p, T_SEMI)) continue;
    int start = p->pos, errs = p->nerrors;
    parse_member(p, b, &cap);
    if (p->nerrors != errs) parse_sync_member(p);
    if (p->pos == start) parse_advance(p);
  }
  parse_expect(p, T_RBRACE);
  return b;
}

static void enum_constant_field(DrParser *p, DrClassDecl *d, int *cap, DrEnumConst *k, int ordinal) {
  DrMember m;
  memset(&m, 0, sizeof m);
  m.kind = M_FIELD;
  m.pos = k->pos;
  m.mods = DR_MOD_PUBLIC | DR_MOD_STATIC | DR_MOD_FINAL;
  m.tref.name = d->name;
  m.tref.pos = k->pos;
  m.decls = dr_arena_alloc(p->arena, sizeof *m.decls);
  m.ndecls = 1;
  m.decls->name = k->name;
  m.decls->pos = k->pos;
  DrExpr *e = parse_new_expr(p, E_NEW, k->pos);
  e->synthetic = true;
  e->tref.name = k->body ? dr_arena_printf(p->arena, "%s.%s", d->name, k->body->name) : d->name;
  e->tref.pos = k->pos;
  e->nargs = k->nargs + 2;
  e->args = dr_arena_alloc(p->arena, sizeof(DrExpr *) * (size_t)e->nargs);
  e->args[0] = enum_string(p, k->name, k->pos);
  e->args[1] = parse_new_expr(p, E_INT_LIT, k->pos);
  e->args[1]->lit.i = ordinal;
  for (int i = 0; i < k->nargs; i++) e->args[i + 2] = k->args[i];
  m.decls->init = e;
  DR_ARENA_PUSH(p->arena, d->members, d->nmembers, *cap, m);
}

/* The constants, up to the `;` or `}` that ends them. */
static void enum_constants(DrParser *p, DrClassDecl *d, DrEnumConst **out, int *n) {
  int cap = 0, ccap = 0;
  while (parse_at(p, T_IDENT)) {
    DrEnumConst k;
    memset(&k, 0, sizeof k);
    k.name = parse_ident(p, &k.pos);
    if (parse_at(p, T_LPAREN)) parse_args(p, &k.args, &k.nargs);
    if (parse_at(p, T_LBRACE)) {
      int index = 1;
      for (int i = 0; i < *n; i++) index += (*out)[i].body != NULL;
      k.body = enum_body(p, d, &k, index);
    }
    DR_ARENA_PUSH(p->arena, *out, *n, cap, k);
    DR_ARENA_PUSH(p->arena, d->enum_constants, d->nenum_constants, ccap, k.name);
    if (!parse_accept(p, T_COMMA)) break;
  }
  if (!parse_accept(p, T_SEMI) && !parse_at(p, T_RBRACE)) parse_error_expected(p, "',', '}', or ';'");
}

/* $VALUES, values() and valueOf(String), as javac adds them. */
static const char *enum_methods_text(DrParser *p, DrClassDecl *d, const DrEnumConst *ks, int n) {
  const char *list = "";
  for (int i = 0; i < n; i++) list = dr_arena_printf(p->arena, "%s%s%s", list, i ? ", " : "", ks[i].name);
  const char *qual = d->name;
  for (DrClassDecl *o = d->outer; o; o = o->outer) qual = dr_arena_printf(p->arena, "%s.%s", o->name, qual);
  const char *N = d->name;
  return dr_arena_printf(
      p->arena,
      "private static final %s[] $VALUES = {%s};"
      "public static %s[] values() { %s[] r = new %s[$VALUES.length];"
      " for (int i = 0; i < r.length; i++) r[i] = $VALUES[i]; return r; }"
      "public static %s valueOf(java.lang.String name) { for (int i = 0; i < $VALUES.length; i++)"
      " if ($VALUES[i].name().equals(name)) return $VALUES[i];"
      " if (name == null) throw new java.lang.NullPointerException(\"Name is null\");"
      " throw new java.lang.IllegalArgumentException(\"No enum constant %s.\" + name); }",
      N, list, N, N, N, N, qual);
}

DrClassDecl *parse_enum(DrParser *p, unsigned mods, DrClassDecl *outer) {
  parse_advance(p);
  DrClassDecl *d = dr_arena_alloc(p->arena, sizeof *d);
  d->is_enum = true;
  d->mods = mods | DR_MOD_FINAL | (outer ? DR_MOD_STATIC : 0);
  parse_decl_origin(p, d, outer);
  d->name = parse_ident(p, &d->pos);
  d->extends = dr_arena_alloc(p->arena, sizeof *d->extends);
  d->extends->name = "java.lang.Enum";
  d->extends->pos = d->pos;
  d->extends->has_args = true; /* Enum<E> */
  d->extends->nargs = 1;
  d->extends->args = dr_arena_alloc(p->arena, sizeof(DrTypeRef));
  d->extends->args->name = d->name ? d->name : "?";
  d->extends->args->pos = d->pos;
  if (parse_accept(p, T_IMPLEMENTS)) parse_type_list(p, &d->implements, &d->nimplements);
  if (!parse_expect(p, T_LBRACE) || !parse_enter(p)) return d;
  DrEnumConst *ks = NULL;
  int nk = 0, cap = 0;
  enum_constants(p, d, &ks, &nk);
  for (int i = 0; i < nk; i++) enum_constant_field(p, d, &cap, &ks[i], i);
  parse_members_text(p, d, &cap, enum_methods_text(p, d, ks, nk));
  while (!parse_at(p, T_RBRACE) && !parse_at(p, T_EOF)) {
    if (parse_accept(p, T_SEMI)) continue;
    int start = p->pos, errs = p->nerrors;
    parse_member(p, d, &cap);
    if (p->nerrors != errs) parse_sync_member(p);
    if (p->pos == start) parse_advance(p);
  }
  parse_expect(p, T_RBRACE);
  parse_leave(p);
  bool has_ctor = false, has_abstract = false;
  for (int i = 0; i < d->nmembers; i++) {
    DrMember *m = &d->members[i];
    if (m->kind == M_CTOR) {
      enum_fix_ctor(p, m);
      has_ctor = true;
    }
    if (m->kind == M_METHOD && (m->mods & DR_MOD_ABSTRACT)) has_abstract = true;
  }
  if (!has_ctor)
    parse_members_text(p, d, &cap, dr_arena_printf(p->arena, "private %s(%s) { super($name, $ordinal); }", d->name,
                                                enum_ctor_params(p, NULL, 0)));
  for (int i = 0; i < nk; i++) {
    if (!ks[i].body) continue;
    d->mods &= ~(unsigned)DR_MOD_FINAL;
    enum_body_ctor(p, d, &ks[i]);
    DrMember m;
    memset(&m, 0, sizeof m);
    m.kind = M_CLASS;
    m.pos = ks[i].pos;
    m.nested = ks[i].body;
    DR_ARENA_PUSH(p->arena, d->members, d->nmembers, cap, m);
  }
  if (has_abstract) d->mods = (d->mods & ~(unsigned)DR_MOD_FINAL) | DR_MOD_ABSTRACT;
  return d;
}
