/* The parser, part 1: the token cursor, error reporting and recovery,
 * compilation units, class and member declarations, and statements.
 * Expressions and types are in parser_expr.c.
 *
 * The whole file is lexed up front so declarations and casts can be told
 * apart by looking ahead as far as needed, the way javac does.  Errors
 * recover in panic mode: a broken statement skips to its `;` (or to
 * something that starts a statement), a broken member to the next
 * member, and junk at the top level to the next class. */
#include "compile.h"
#include "lexer.h"

#include <stdarg.h>
#include <string.h>

/* ------------------------------------------------------------- cursor */

DrToken *parse_cur(DrParser *p) { return &p->toks[p->pos]; }

DrTokKind parse_kind_at(DrParser *p, int index) {
  if (index >= p->ntoks) index = p->ntoks - 1;
  if (index < 0) index = 0;
  return p->toks[index].kind;
}

DrToken *parse_peek(DrParser *p, int ahead) {
  int i = p->pos + ahead;
  if (i >= p->ntoks) i = p->ntoks - 1;
  if (i < 0) i = 0;
  return &p->toks[i];
}

bool parse_at(DrParser *p, DrTokKind k) { return p->toks[p->pos].kind == k; }

DrToken *parse_advance(DrParser *p) {
  DrToken *t = &p->toks[p->pos];
  if (t->kind != T_EOF) p->pos++;
  return t;
}

bool parse_accept(DrParser *p, DrTokKind k) {
  if (!parse_at(p, k)) return false;
  parse_advance(p);
  return true;
}

static DrToken *parse_prev(DrParser *p) { return &p->toks[p->pos > 0 ? p->pos - 1 : 0]; }

static bool parse_is_ident(DrParser *p, int ahead, const char *word) {
  DrToken *t = parse_peek(p, ahead);
  return t->kind == T_IDENT && strcmp(t->text, word) == 0;
}

/* ------------------------------------------------------------- errors */

static bool parse_pos_after(DrPos a, DrPos b) { return a.line > b.line || (a.line == b.line && a.col > b.col); }

static void parse_emit(DrParser *p, DrPos pos, const char *msg) {
  dr_error(p->diags, pos, "%s", msg);
  if (parse_pos_after(pos, p->last_err)) p->last_err = pos;
}

void parse_error(DrParser *p, DrPos pos, const char *fmt, ...) {
  if (p->aborted) return;
  p->nerrors++;
  if (!parse_pos_after(pos, p->last_err)) return;
  /* the lexer already explained what is wrong around here */
  if ((parse_cur(p)->flags & DR_TOKF_ERROR) || (parse_prev(p)->flags & DR_TOKF_ERROR)) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  parse_emit(p, pos, buf);
}

/* javac places "expected" errors just after the previous token, and says
 * "reached end of file" when the input ran out. */
static DrPos parse_after_prev(DrParser *p) { return p->pos > 0 ? parse_prev(p)->end : parse_cur(p)->pos; }

void parse_error_here(DrParser *p, const char *msg) {
  if (parse_at(p, T_EOF)) parse_error(p, parse_after_prev(p), "reached end of file while parsing");
  else parse_error(p, parse_cur(p)->pos, "%s", msg);
}

void parse_error_expected(DrParser *p, const char *what) {
  if (parse_at(p, T_EOF)) parse_error(p, parse_after_prev(p), "reached end of file while parsing");
  else parse_error(p, parse_after_prev(p), "%s expected", what);
}

bool parse_expect(DrParser *p, DrTokKind k) {
  if (parse_accept(p, k)) return true;
  parse_error_expected(p, dr_token_name(k));
  return false;
}

/* Not a syntax error: reported even right after another error, since the
 * user needs to hear about each unsupported construct. */
static DR_PRINTF(3, 4) void parse_error_always(DrParser *p, DrPos pos, const char *fmt, ...) {
  if (p->aborted) return;
  p->nerrors++;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  parse_emit(p, pos, buf);
}

void parse_unsupported(DrParser *p, DrPos pos, const char *what) {
  parse_error_always(p, pos, "%s not supported in DL", what);
}

bool parse_enter(DrParser *p) {
  if (p->depth >= DR_PARSE_MAX_DEPTH || p->aborted) {
    if (!p->aborted) {
      parse_error_always(p, parse_cur(p)->pos, "too deeply nested");
      p->aborted = true;
    }
    p->pos = p->ntoks - 1; /* give up on the rest: every loop ends at EOF */
    return false;
  }
  p->depth++;
  return true;
}

void parse_leave(DrParser *p) { p->depth--; }

void parse_skip_group(DrParser *p) {
  int depth = 0;
  do {
    switch (parse_cur(p)->kind) {
    case T_LPAREN: case T_LBRACKET: case T_LBRACE: depth++; break;
    case T_RPAREN: case T_RBRACKET: case T_RBRACE: depth--; break;
    case T_EOF: return;
    default: break;
    }
    parse_advance(p);
  } while (depth > 0);
}

const char *parse_ident(DrParser *p, DrPos *pos) {
  DrToken *t = parse_cur(p);
  *pos = t->pos;
  if (t->kind == T_IDENT) {
    parse_advance(p);
    return t->text;
  }
  if (t->kind == T_UNDERSCORE) {
    parse_error(p, t->pos, "as of release 9, '_' is a keyword, and may not be used as an identifier");
    parse_advance(p);
    return "_";
  }
  parse_error_expected(p, "<identifier>");
  return "<error>";
}

/* A dotted name (package, import): a.b.c, with `.*` allowed if star. */
static const char *parse_qualified_name(DrParser *p, bool star) {
  DrPos pos;
  const char *name = parse_ident(p, &pos);
  while (parse_at(p, T_DOT)) {
    if (star && parse_peek(p, 1)->kind == T_STAR) {
      parse_advance(p);
      parse_advance(p);
      return dr_arena_printf(p->arena, "%s.*", name);
    }
    parse_advance(p);
    name = dr_arena_printf(p->arena, "%s.%s", name, parse_ident(p, &pos));
  }
  return name;
}

/* ------------------------------------------------------------ recovery */

static bool parse_can_start_stmt(DrTokKind k) {
  unsigned f = dr_token_flags(k);
  if (f & (DR_TKF_STMT | DR_TKF_LITERAL | DR_TKF_PRIMTYPE)) return true;
  switch (k) {
  case T_IDENT: case T_LPAREN: case T_THIS: case T_SUPER: case T_NEW: case T_PLUSPLUS: case T_MINUSMINUS:
  case T_LBRACE: case T_FINAL: case T_CLASS:
    return true;
  default:
    return false;
  }
}

/* After an error in a statement: skip to its end. */
static void parse_sync_stmt(DrParser *p) {
  DrToken *prev = parse_prev(p);
  if (p->pos == 0) return;
  if (prev->kind == T_SEMI || prev->kind == T_RBRACE) return;
  /* a forgotten `;` at the end of a line: the next line starts afresh */
  if (parse_cur(p)->pos.line > prev->end.line && parse_can_start_stmt(parse_cur(p)->kind)) return;
  for (;;) {
    DrTokKind k = parse_cur(p)->kind;
    if (k == T_EOF || k == T_RBRACE || k == T_LBRACE) return;
    if (k == T_SEMI) {
      parse_advance(p);
      return;
    }
    if ((dr_token_flags(k) & DR_TKF_STMT) || k == T_CLASS || k == T_FINAL || k == T_CASE || k == T_DEFAULT) return;
    parse_advance(p);
  }
}

static bool parse_can_start_member(DrTokKind k) {
  return (dr_token_flags(k) & DR_TKF_MODIFIER) || k == T_CLASS || k == T_INTERFACE || k == T_ENUM || k == T_AT;
}

/* After an error in a member declaration: skip to the next member. */
void parse_sync_member(DrParser *p) {
  DrToken *prev = parse_prev(p);
  if (p->pos == 0 || prev->kind == T_SEMI || prev->kind == T_RBRACE) return;
  for (;;) {
    DrToken *t = parse_cur(p);
    switch (t->kind) {
    case T_EOF: case T_RBRACE: return;
    case T_SEMI: parse_advance(p); return;
    case T_LBRACE: parse_skip_group(p); return;
    default:
      if (parse_can_start_member(t->kind) && t->pos.line > parse_prev(p)->end.line) return;
      parse_advance(p);
    }
  }
}

static bool parse_can_start_type_decl(DrParser *p) {
  DrTokKind k = parse_cur(p)->kind;
  return parse_can_start_member(k) || k == T_IMPORT || k == T_PACKAGE ||
         (parse_is_ident(p, 0, "record") && parse_peek(p, 1)->kind == T_IDENT);
}

/* After junk at the top level: skip to something that starts a class. */
static void parse_sync_top(DrParser *p) {
  do {
    if (parse_at(p, T_LBRACE)) parse_skip_group(p);
    else parse_advance(p);
  } while (!parse_at(p, T_EOF) && !parse_can_start_type_decl(p));
}

/* ------------------------------------------------------- declarations */

static DrClassDecl *parse_type_decl(DrParser *p, unsigned mods, DrClassDecl *outer);

DrStmt *parse_new_stmt(DrParser *p, DrStmtKind kind, DrPos pos) {
  DrStmt *s = dr_arena_alloc(p->arena, sizeof *s);
  s->kind = kind;
  s->pos = pos;
  return s;
}

/* The modifier bit of a keyword, 0 if it is not one. */
static unsigned parse_modifier_bit(DrTokKind k) {
  switch (k) {
  case T_PUBLIC: return DR_MOD_PUBLIC;
  case T_PRIVATE: return DR_MOD_PRIVATE;
  case T_PROTECTED: return DR_MOD_PROTECTED;
  case T_STATIC: return DR_MOD_STATIC;
  case T_FINAL: return DR_MOD_FINAL;
  case T_ABSTRACT: return DR_MOD_ABSTRACT;
  case T_NATIVE: return DR_MOD_NATIVE;
  case T_SYNCHRONIZED: return DR_MOD_SYNCHRONIZED;
  case T_VOLATILE: return DR_MOD_VOLATILE;
  case T_TRANSIENT: return DR_MOD_TRANSIENT;
  case T_STRICTFP: return DR_MOD_STRICTFP;
  default: return 0;
  }
}

/* @Name or @Name(...): the checker resolves the name; the arguments
 * (element values) are skipped. */
static void parse_annotation(DrParser *p) {
  DrAnnotation a;
  a.pos = parse_advance(p)->pos;
  DrPos pos;
  a.name = parse_ident(p, &pos);
  while (parse_at(p, T_DOT) && parse_peek(p, 1)->kind == T_IDENT) {
    a.name = dr_arena_printf(p->arena, "%s.%s", a.name, parse_peek(p, 1)->text);
    p->pos += 2;
  }
  if (parse_at(p, T_LPAREN)) parse_skip_group(p);
  DR_ARENA_PUSH(p->arena, p->annots, p->nannots, p->annots_cap, a);
}

/* The annotations parsed since the last call, for the declaration they
 * belong to. */
static void parse_take_annots(DrParser *p, DrAnnotation **out, int *n) {
  *out = p->annots;
  *n = p->nannots;
  p->annots = NULL;
  p->nannots = p->annots_cap = 0;
}

/* Modifiers and annotations.  `default` counts as one only in class
 * bodies (interface default methods, which the checker rejects). */
unsigned parse_modifiers(DrParser *p, bool in_class_body) {
  unsigned mods = 0;
  parse_take_annots(p, &(DrAnnotation *){NULL}, &(int){0}); /* none left over from a broken declaration */
  for (;;) {
    DrToken *t = parse_cur(p);
    unsigned m = parse_modifier_bit(t->kind);
    if (t->kind == T_SYNCHRONIZED && parse_peek(p, 1)->kind == T_LPAREN) return mods; /* the statement */
    if (t->kind == T_DEFAULT && in_class_body) m = DR_MOD_DEFAULT;
    if (t->kind == T_AT) {
      if (parse_peek(p, 1)->kind == T_INTERFACE) return mods; /* @interface: a declaration */
      parse_annotation(p);
      continue;
    }
    if (t->kind == T_IDENT && (strcmp(t->text, "sealed") == 0 || strcmp(t->text, "non") == 0)) {
      /* sealed / non-sealed, only where a declaration follows */
      int i = strcmp(t->text, "non") == 0 ? 3 : 1;
      if (i == 3 && !(parse_peek(p, 1)->kind == T_MINUS && parse_is_ident(p, 2, "sealed"))) return mods;
      DrTokKind next = parse_peek(p, i)->kind;
      if (next != T_CLASS && next != T_INTERFACE && !parse_modifier_bit(next)) return mods;
      unsigned bit = i == 3 ? DR_MOD_NON_SEALED : DR_MOD_SEALED;
      if (mods & bit) parse_error(p, t->pos, "repeated modifier");
      mods |= bit;
      p->pos += i;
      continue;
    }
    if (!m) return mods;
    if (mods & m) parse_error(p, t->pos, "repeated modifier");
    /* transient: DL has no serialization; strictfp: every floating-point
     * expression is strict since Java 17 (javac only warns) */
    mods |= m;
    parse_advance(p);
  }
}

void parse_type_list(DrParser *p, DrTypeRef **out, int *n) {
  int cap = 0;
  do {
    DrTypeRef t;
    parse_type(p, &t, false);
    DR_ARENA_PUSH(p->arena, *out, *n, cap, t);
  } while (parse_accept(p, T_COMMA));
}

/* The rest of a declarator after its name: `[]`s and an initializer. */
static void parse_declarator_rest(DrParser *p, DrDeclarator *d) {
  while (parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET) {
    p->pos += 2;
    d->extra_dims++;
  }
  if (parse_accept(p, T_ASSIGN)) d->init = parse_at(p, T_LBRACE) ? parse_array_init(p) : parse_expr(p);
}

/* Declarators after the type, the first one's name already read. */
static void parse_declarators(DrParser *p, const char *name, DrPos pos, DrDeclarator **out, int *n) {
  int cap = 0;
  for (;;) {
    DrDeclarator d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.pos = pos;
    parse_declarator_rest(p, &d);
    DR_ARENA_PUSH(p->arena, *out, *n, cap, d);
    if (!parse_accept(p, T_COMMA)) return;
    name = parse_ident(p, &pos);
  }
}

static void parse_params(DrParser *p, DrParam **out, int *n) {
  int cap = 0;
  if (!parse_expect(p, T_LPAREN) || parse_accept(p, T_RPAREN)) return;
  for (;;) {
    DrParam pm;
    memset(&pm, 0, sizeof pm);
    DrPos mpos = parse_cur(p)->pos;
    unsigned mods = parse_modifiers(p, false);
    parse_take_annots(p, &pm.annots, &pm.nannots);
    if (mods & ~(unsigned)DR_MOD_FINAL) parse_error(p, mpos, "modifier not allowed here");
    pm.is_final = (mods & DR_MOD_FINAL) != 0;
    parse_type(p, &pm.tref, false);
    if (parse_accept(p, T_ELLIPSIS)) {
      pm.is_varargs = true;
      pm.tref.dims++;
      pm.is_varargs = true;
    }
    pm.name = parse_ident(p, &pm.pos);
    if (*n > 0 && (*out)[*n - 1].is_varargs)
      parse_error(p, (*out)[*n - 1].pos, "varargs parameter must be the last parameter");
    while (parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET) {
      p->pos += 2;
      pm.tref.dims++;
    }
    DR_ARENA_PUSH(p->arena, *out, *n, cap, pm);
    if (!parse_accept(p, T_COMMA)) break;
  }
  parse_expect(p, T_RPAREN);
}

/* The part of a method or constructor after its name. */
static void parse_method_rest(DrParser *p, DrMember *m) {
  parse_params(p, &m->params, &m->nparams);
  /* `int f()[]`: the old array syntax, still Java */
  while (m->kind == M_METHOD && parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET) {
    p->pos += 2;
    m->ret.dims++;
  }
  if (parse_accept(p, T_THROWS)) parse_type_list(p, &m->throws, &m->nthrows);
  if (parse_at(p, T_DEFAULT) && m->kind == M_METHOD) {
    /* an annotation element's default value (JLS 9.6.2), skipped as
     * annotations' arguments are */
    parse_advance(p);
    while (!parse_at(p, T_SEMI) && !parse_at(p, T_EOF) && !parse_at(p, T_RBRACE)) {
      if (parse_at(p, T_LPAREN) || parse_at(p, T_LBRACE)) parse_skip_group(p);
      else parse_advance(p);
    }
  }
  if (parse_at(p, T_LBRACE)) m->body = parse_block(p);
  else if (!parse_accept(p, T_SEMI)) parse_error_expected(p, "'{' or ';'");
}

static bool parse_at_type_decl(DrParser *p) {
  DrTokKind k = parse_cur(p)->kind;
  return k == T_CLASS || k == T_INTERFACE || k == T_ENUM || (k == T_AT && parse_peek(p, 1)->kind == T_INTERFACE) ||
         (parse_is_ident(p, 0, "record") && parse_peek(p, 1)->kind == T_IDENT);
}

void parse_member(DrParser *p, DrClassDecl *d, int *cap) {
  DrMember m;
  memset(&m, 0, sizeof m);
  m.pos = parse_cur(p)->pos;
  m.mods = parse_modifiers(p, true);
  if (!parse_at_type_decl(p)) parse_take_annots(p, &m.annots, &m.nannots); /* else the class's */

  if (parse_at(p, T_LBRACE)) {
    m.kind = M_INIT;
    m.body = parse_block(p);
  } else if (parse_at_type_decl(p)) {
    DrClassDecl *nested = parse_type_decl(p, m.mods, d);
    if (!nested) return;
    m.kind = M_CLASS;
    m.nested = nested;
    m.pos = nested->pos;
  } else {
    if (parse_at(p, T_LT)) parse_type_params(p, &m.tparams, &m.ntparams); /* <T> void m() */
    DrToken *t = parse_cur(p);
    if (t->kind == T_IDENT && parse_peek(p, 1)->kind == T_LPAREN) {
      parse_advance(p);
      m.kind = M_CTOR;
      m.name = t->text;
      m.pos = t->pos;
      if (strcmp(t->text, d->name) != 0) {
        parse_error(p, t->pos, "invalid method declaration; return type required");
        m.kind = M_METHOD;
        m.ret.name = "void";
        m.ret.pos = t->pos;
      }
      parse_method_rest(p, &m);
    } else {
      DrTypeRef type;
      parse_type(p, &type, true);
      DrPos npos;
      if (!parse_at(p, T_IDENT) && !parse_at(p, T_UNDERSCORE)) {
        parse_error_expected(p, "<identifier>");
        return;
      }
      const char *name = parse_ident(p, &npos);
      if (parse_at(p, T_LPAREN)) {
        m.kind = M_METHOD;
        m.name = name;
        m.pos = npos;
        m.ret = type;
        parse_method_rest(p, &m);
      } else {
        m.kind = M_FIELD;
        m.tref = type;
        if (strcmp(type.name, "void") == 0 && type.dims == 0) parse_error(p, type.pos, "'void' type not allowed here");
        parse_declarators(p, name, npos, &m.decls, &m.ndecls);
        parse_expect(p, T_SEMI);
      }
    }
  }
  DR_ARENA_PUSH(p->arena, d->members, d->nmembers, *cap, m);
}

static void parse_class_body(DrParser *p, DrClassDecl *d) {
  if (!parse_expect(p, T_LBRACE)) return;
  if (!parse_enter(p)) return;
  int cap = 0;
  while (!parse_at(p, T_RBRACE) && !parse_at(p, T_EOF)) {
    if (parse_accept(p, T_SEMI)) continue;
    int start = p->pos, errs = p->nerrors;
    parse_member(p, d, &cap);
    if (p->nerrors != errs) parse_sync_member(p);
    if (p->pos == start) parse_advance(p);
  }
  parse_expect(p, T_RBRACE);
  parse_leave(p);
}

DrClassDecl *parse_anon_body(DrParser *p, DrPos pos) {
  DrClassDecl *d = dr_arena_alloc(p->arena, sizeof *d);
  d->name = ""; /* javac's anonymous classes have an empty name */
  d->pos = pos;
  d->from_prelude = p->prelude;
  parse_class_body(p, d);
  return d;
}

/* A class, interface, enum, record or annotation type declaration at
 * its keyword. */
void parse_decl_origin(DrParser *p, DrClassDecl *d, DrClassDecl *outer) {
  d->outer = outer;
  d->from_prelude = p->prelude;
  d->package = p->prelude ? p->package : p->unit->package;
  d->unit = p->unit;
}

static DrClassDecl *parse_type_decl(DrParser *p, unsigned mods, DrClassDecl *outer) {
  DrToken *kw = parse_cur(p);
  if (kw->kind == T_ENUM || kw->kind == T_IDENT) { /* enum, record */
    DrAnnotation *annots = NULL;
    int nannots = 0;
    parse_take_annots(p, &annots, &nannots);
    DrClassDecl *d = kw->kind == T_ENUM ? parse_enum(p, mods, outer) : parse_record(p, mods, outer);
    if (d) {
      d->annots = annots;
      d->nannots = nannots;
    }
    return d;
  }
  DrClassDecl *d = dr_arena_alloc(p->arena, sizeof *d);
  parse_take_annots(p, &d->annots, &d->nannots);
  if (kw->kind == T_AT) { /* @interface */
    parse_advance(p);
    d->is_annotation = true;
    kw = parse_cur(p);
  }
  parse_advance(p);
  d->is_interface = kw->kind == T_INTERFACE;
  d->mods = mods;
  parse_decl_origin(p, d, outer);
  d->name = parse_ident(p, &d->pos);
  if (parse_at(p, T_LT)) parse_type_params(p, &d->tparams, &d->ntparams);
  if (parse_accept(p, T_EXTENDS)) {
    if (d->is_interface) {
      parse_type_list(p, &d->implements, &d->nimplements);
    } else {
      d->extends = dr_arena_alloc(p->arena, sizeof *d->extends);
      parse_type(p, d->extends, false);
    }
  }
  if (!d->is_interface && parse_accept(p, T_IMPLEMENTS)) parse_type_list(p, &d->implements, &d->nimplements);
  if (parse_is_ident(p, 0, "permits")) {
    parse_advance(p);
    parse_type_list(p, &d->permits, &d->npermits);
  }
  parse_class_body(p, d);
  return d;
}

/* Parses members from generated source text into d, every token at
 * d's line (stack traces of generated methods point at the declaration). */
void parse_members_text(DrParser *p, DrClassDecl *d, int *cap, const char *text) {
  DrSource *src = dr_arena_alloc(p->arena, sizeof *src);
  src->path = p->src->path;
  src->text = dr_arena_strndup(p->arena, text, strlen(text));
  src->len = strlen(text);
  DrLexer lx;
  dr_lexer_init(&lx, p->arena, p->diags, src);
  lx.line = d->pos.line;
  DrParser sub = *p;
  sub.src = src;
  sub.pos = 0;
  sub.toks = dr_lex_all(&lx, &sub.ntoks);
  while (!parse_at(&sub, T_EOF)) {
    int start = sub.pos;
    parse_member(&sub, d, cap);
    if (sub.pos == start) parse_advance(&sub);
  }
  p->nerrors = sub.nerrors + lx.nerrors; /* sub started from p->nerrors */
}

/* ------------------------------------------------------------ statements */

DrStmt *parse_block(DrParser *p) {
  DrStmt *s = parse_new_stmt(p, S_BLOCK, parse_cur(p)->pos);
  if (!parse_expect(p, T_LBRACE)) return s;
  if (!parse_enter(p)) return s;
  parse_block_stmts(p, &s->stmts, &s->nstmts, false);
  s->end_pos = parse_cur(p)->pos;
  parse_expect(p, T_RBRACE);
  parse_leave(p);
  return s;
}

/* Does a local variable declaration start here (`Type name`)? */
static bool parse_at_local_decl(DrParser *p) {
  DrTokKind k = parse_cur(p)->kind;
  if (k == T_FINAL || k == T_AT) return true;
  int j = parse_scan_type(p, p->pos);
  return j >= 0 && (parse_kind_at(p, j) == T_IDENT || parse_kind_at(p, j) == T_UNDERSCORE);
}

static DrStmt *parse_local_decl(DrParser *p, bool is_final, DrPos pos) {
  DrStmt *s = parse_new_stmt(p, S_LOCAL, pos);
  s->is_final = is_final;
  parse_type(p, &s->tref, false);
  DrPos npos;
  const char *name = parse_ident(p, &npos);
  parse_declarators(p, name, npos, &s->decls, &s->ndecls);
  parse_expect(p, T_SEMI);
  return s;
}

/* `final` and annotations before a local declaration or local class. */
static unsigned parse_local_modifiers(DrParser *p) {
  DrPos pos = parse_cur(p)->pos;
  unsigned mods = parse_modifiers(p, false);
  if ((mods & ~(unsigned)(DR_MOD_FINAL | DR_MOD_ABSTRACT | DR_MOD_STATIC)) || ((mods & DR_MOD_STATIC) && !parse_at_type_decl(p)))
    parse_error(p, pos, "illegal start of expression");
  return mods;
}

static DrStmt *parse_local_class(DrParser *p, unsigned mods, DrPos pos) {
  DrClassDecl *d = parse_type_decl(p, mods, NULL);
  if (!d) return parse_new_stmt(p, S_EMPTY, pos);
  DrStmt *s = parse_new_stmt(p, S_CLASS, d->pos);
  s->class_decl = d;
  return s;
}

/* A statement in a block: also declarations of locals and classes. */
static DrStmt *parse_block_stmt(DrParser *p) {
  DrToken *t = parse_cur(p);
  DrPos pos = t->pos;
  bool mods_first = t->kind == T_AT || ((dr_token_flags(t->kind) & DR_TKF_MODIFIER) &&
                                        !(t->kind == T_SYNCHRONIZED && parse_peek(p, 1)->kind == T_LPAREN));
  if (mods_first) {
    unsigned mods = parse_local_modifiers(p);
    if (parse_at_type_decl(p)) return parse_local_class(p, mods, pos);
    DrAnnotation *annots;
    int nannots;
    parse_take_annots(p, &annots, &nannots);
    DrStmt *s = parse_local_decl(p, (mods & DR_MOD_FINAL) != 0, pos);
    s->annots = annots;
    s->nannots = nannots;
    return s;
  }
  if (parse_at_yield(p)) return parse_yield(p);
  if (parse_at_type_decl(p) && !(t->kind == T_IDENT && parse_peek(p, 2)->kind != T_LPAREN))
    return parse_local_class(p, 0, pos);
  if (parse_at_local_decl(p)) return parse_local_decl(p, false, pos);
  return parse_statement(p);
}

void parse_block_stmts(DrParser *p, DrStmt ***out, int *n, bool in_switch) {
  int cap = 0;
  for (;;) {
    DrTokKind k = parse_cur(p)->kind;
    if (k == T_RBRACE || k == T_EOF) return;
    if (in_switch && (k == T_CASE || k == T_DEFAULT)) return;
    int start = p->pos, errs = p->nerrors;
    DrStmt *s = parse_block_stmt(p);
    DR_ARENA_PUSH(p->arena, *out, *n, cap, s);
    if (p->nerrors != errs) parse_sync_stmt(p);
    if (p->pos == start) parse_advance(p);
  }
}

DrExpr *parse_paren_expr(DrParser *p) {
  parse_expect(p, T_LPAREN);
  DrExpr *e = parse_expr(p);
  parse_expect(p, T_RPAREN);
  return e;
}

/* An expression used as a statement must be one that does something
 * (JLS 14.8). */
DrExpr *parse_stmt_expr(DrParser *p) {
  int errs = p->nerrors;
  DrExpr *e = parse_expr(p);
  switch (e->kind) {
  case E_ASSIGN: case E_PREINC: case E_PREDEC: case E_POSTINC: case E_POSTDEC: case E_CALL: case E_NEW:
    break;
  default:
    if (p->nerrors == errs) parse_error(p, e->pos, "not a statement");
  }
  return e;
}

static DrStmt *parse_expr_stmt(DrParser *p) {
  DrStmt *s = parse_new_stmt(p, S_EXPR, parse_cur(p)->pos);
  s->expr = parse_stmt_expr(p);
  return s;
}

static DrStmt *parse_for(DrParser *p, DrPos pos) {
  DrStmt *s = parse_new_stmt(p, S_FOR, pos);
  parse_expect(p, T_LPAREN);
  if (!parse_at(p, T_SEMI)) {
    int cap = 0;
    if (parse_at_local_decl(p)) {
      DrPos dpos = parse_cur(p)->pos;
      unsigned mods = parse_local_modifiers(p);
      DrStmt *d = parse_new_stmt(p, S_LOCAL, dpos);
      d->is_final = (mods & DR_MOD_FINAL) != 0;
      parse_type(p, &d->tref, false);
      DrPos npos;
      const char *name = parse_ident(p, &npos);
      int save = p->pos;
      while (parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET) p->pos += 2;
      if (parse_at(p, T_COLON)) {
        p->pos = save;
        s->kind = S_FOREACH;
        s->tref = d->tref;
        s->is_final = d->is_final;
        s->decls = dr_arena_alloc(p->arena, sizeof *s->decls);
        s->ndecls = 1;
        s->decls->name = name;
        s->decls->pos = npos;
        while (parse_at(p, T_LBRACKET) && parse_peek(p, 1)->kind == T_RBRACKET) {
          p->pos += 2;
          s->decls->extra_dims++;
        }
        parse_advance(p);
        s->expr = parse_expr(p);
        parse_expect(p, T_RPAREN);
        s->body = parse_statement(p);
        return s;
      }
      p->pos = save;
      parse_declarators(p, name, npos, &d->decls, &d->ndecls);
      DR_ARENA_PUSH(p->arena, s->stmts, s->nstmts, cap, d);
    } else {
      do {
        DrStmt *e = parse_expr_stmt(p);
        DR_ARENA_PUSH(p->arena, s->stmts, s->nstmts, cap, e);
      } while (parse_accept(p, T_COMMA));
    }
  }
  parse_expect(p, T_SEMI);
  if (!parse_at(p, T_SEMI)) s->expr = parse_expr(p);
  parse_expect(p, T_SEMI);
  if (!parse_at(p, T_RPAREN)) {
    int cap = 0;
    do {
      DrExpr *u = parse_stmt_expr(p);
      DR_ARENA_PUSH(p->arena, s->updates, s->nupdates, cap, u);
    } while (parse_accept(p, T_COMMA));
  }
  parse_expect(p, T_RPAREN);
  s->body = parse_statement(p);
  return s;
}

static DrStmt *parse_try(DrParser *p, DrPos pos) {
  DrStmt *s = parse_new_stmt(p, S_TRY, pos);
  bool resources = parse_at(p, T_LPAREN);
  s->body = resources ? parse_try_resources(p, pos) : parse_block(p);
  int cap = 0;
  while (parse_at(p, T_CATCH)) {
    DrCatch c;
    memset(&c, 0, sizeof c);
    c.pos = parse_advance(p)->pos;
    parse_expect(p, T_LPAREN);
    (void)parse_modifiers(p, false);
    int tcap = 0;
    do {
      DrTypeRef t;
      parse_type(p, &t, false);
      DR_ARENA_PUSH(p->arena, c.types, c.ntypes, tcap, t);
    } while (parse_accept(p, T_BAR));
    c.name = parse_ident(p, &c.pos);
    parse_expect(p, T_RPAREN);
    c.body = parse_block(p);
    DR_ARENA_PUSH(p->arena, s->catches, s->ncatches, cap, c);
  }
  if (parse_accept(p, T_FINALLY)) s->finally_body = parse_block(p);
  if (!s->ncatches && !s->finally_body && !resources)
    parse_error(p, pos, "'try' without 'catch', 'finally' or resource declarations");
  /* nothing to catch or finish: the resources' block alone (JLS 14.20.3.1) */
  if (resources && !s->ncatches && !s->finally_body) return s->body;
  return s;
}

static DrStmt *parse_statement_inner(DrParser *p) {
  DrToken *t = parse_cur(p);
  DrPos pos = t->pos;
  DrStmt *s;
  switch (t->kind) {
  case T_LBRACE:
    return parse_block(p);
  case T_SEMI:
    parse_advance(p);
    return parse_new_stmt(p, S_EMPTY, pos);
  case T_IF:
    parse_advance(p);
    s = parse_new_stmt(p, S_IF, pos);
    s->expr = parse_paren_expr(p);
    s->body = parse_statement(p);
    if (parse_accept(p, T_ELSE)) s->else_body = parse_statement(p);
    return s;
  case T_WHILE:
    parse_advance(p);
    s = parse_new_stmt(p, S_WHILE, pos);
    s->expr = parse_paren_expr(p);
    s->body = parse_statement(p);
    return s;
  case T_DO:
    parse_advance(p);
    s = parse_new_stmt(p, S_DO, pos);
    s->body = parse_statement(p);
    parse_expect(p, T_WHILE);
    s->expr = parse_paren_expr(p);
    parse_expect(p, T_SEMI);
    return s;
  case T_FOR:
    parse_advance(p);
    return parse_for(p, pos);
  case T_SWITCH:
    parse_advance(p);
    return parse_switch(p, pos, false);
  case T_BREAK:
  case T_CONTINUE:
    parse_advance(p);
    s = parse_new_stmt(p, t->kind == T_BREAK ? S_BREAK : S_CONTINUE, pos);
    if (parse_at(p, T_IDENT)) s->label = parse_advance(p)->text;
    parse_expect(p, T_SEMI);
    return s;
  case T_RETURN:
    parse_advance(p);
    s = parse_new_stmt(p, S_RETURN, pos);
    if (!parse_at(p, T_SEMI)) s->expr = parse_expr(p);
    parse_expect(p, T_SEMI);
    return s;
  case T_THROW:
    parse_advance(p);
    s = parse_new_stmt(p, S_THROW, pos);
    s->expr = parse_expr(p);
    parse_expect(p, T_SEMI);
    return s;
  case T_TRY:
    parse_advance(p);
    return parse_try(p, pos);
  case T_ASSERT:
    parse_advance(p);
    s = parse_new_stmt(p, S_ASSERT, pos);
    s->expr = parse_expr(p);
    if (parse_accept(p, T_COLON)) s->expr2 = parse_expr(p);
    parse_expect(p, T_SEMI);
    return s;
  case T_SYNCHRONIZED:
    parse_advance(p);
    s = parse_new_stmt(p, S_SYNC, pos);
    s->expr = parse_paren_expr(p);
    s->body = parse_block(p);
    return s;
  case T_THIS:
  case T_SUPER:
    if (parse_peek(p, 1)->kind != T_LPAREN) break;
    parse_advance(p);
    s = parse_new_stmt(p, S_CTOR_CALL, pos);
    s->is_super = t->kind == T_SUPER;
    parse_args(p, &s->args, &s->nargs);
    parse_expect(p, T_SEMI);
    return s;
  case T_IDENT:
    if (parse_at_yield(p)) return parse_yield(p);
    if (parse_peek(p, 1)->kind != T_COLON) break;
    s = parse_new_stmt(p, S_LABELED, pos);
    s->label = t->text;
    p->pos += 2;
    s->body = parse_statement(p);
    return s;
  case T_ELSE:
    parse_error(p, pos, "'else' without 'if'");
    parse_advance(p);
    return parse_new_stmt(p, S_EMPTY, pos);
  case T_CATCH:
  case T_FINALLY:
    parse_error(p, pos, "'%s' without 'try'", dr_token_spelling(t->kind));
    parse_advance(p);
    if (t->kind == T_CATCH && parse_at(p, T_LPAREN)) parse_skip_group(p);
    return parse_new_stmt(p, S_EMPTY, pos);
  case T_CASE:
  case T_DEFAULT:
    parse_error(p, pos, "orphaned %s", dr_token_spelling(t->kind));
    parse_advance(p);
    return parse_new_stmt(p, S_EMPTY, pos);
  default:
    break;
  }
  if (parse_at_type_decl(p) && t->kind != T_IDENT) {
    parse_error(p, pos, "class, interface or enum declaration not allowed here");
    return parse_local_class(p, 0, pos);
  }
  if (t->kind != T_AT && parse_at_local_decl(p)) {
    parse_error(p, pos, "variable declaration not allowed here");
    return parse_local_decl(p, false, pos);
  }
  s = parse_expr_stmt(p);
  parse_expect(p, T_SEMI);
  return s;
}

DrStmt *parse_statement(DrParser *p) {
  DrPos pos = parse_cur(p)->pos;
  if (!parse_enter(p)) return parse_new_stmt(p, S_EMPTY, pos);
  DrStmt *s = parse_statement_inner(p);
  parse_leave(p);
  return s;
}

/* -------------------------------------------------- compilation unit */

/* Imports are resolved by the checker, which knows every file's classes. */
static void parse_import(DrParser *p) {
  DrPos pos = parse_advance(p)->pos;
  bool is_static = parse_accept(p, T_STATIC);
  DrPos npos = parse_cur(p)->pos;
  const char *name = parse_qualified_name(p, true);
  parse_expect(p, T_SEMI);
  (void)pos;
  if (strcmp(name, "<error>") == 0 || strstr(name, ".<error>")) return;
  DrImport im = {name, false, is_static, NULL, npos, NULL};
  size_t n = strlen(name);
  if (n > 2 && strcmp(name + n - 2, ".*") == 0) {
    im.on_demand = true;
    im.name = dr_arena_strndup(p->arena, name, n - 2);
  } else if (is_static) {
    /* import static a.B.m: the class a.B and its member m */
    const char *dot = strrchr(name, '.');
    if (!dot) {
      parse_error(p, npos, "'.' expected");
      return;
    }
    im.member = dot + 1;
    im.name = dr_arena_strndup(p->arena, name, (size_t)(dot - name));
  }
  DR_ARENA_PUSH(p->arena, p->unit->imports, p->unit->nimports, p->imports_cap, im);
}

static void parse_package(DrParser *p) {
  parse_advance(p);
  DrPos npos = parse_cur(p)->pos;
  const char *name = parse_qualified_name(p, false);
  parse_expect(p, T_SEMI);
  if (p->prelude) {
    p->package = name;
  } else if (strcmp(name, "<error>") != 0 && !strstr(name, ".<error>")) {
    p->unit->package = name;
    p->unit->package_pos = npos;
  }
}

static void parse_add_unit(DrParser *p) {
  DrProgram *prog = p->prog;
  DrUnit **all = dr_arena_alloc(p->arena, sizeof *all * (size_t)(prog->nunits + 1));
  if (prog->nunits) memcpy(all, prog->units, sizeof *all * (size_t)prog->nunits);
  all[prog->nunits++] = p->unit;
  prog->units = all;
}

bool dr_parse(DrArena *arena, DrDiagList *diags, const DrSource *src, bool prelude, DrProgram *prog) {
  DrLexer lx;
  dr_lexer_init(&lx, arena, diags, src);
  DrParser p;
  memset(&p, 0, sizeof p);
  p.arena = arena;
  p.diags = diags;
  p.src = src;
  p.prog = prog;
  p.prelude = prelude;
  p.toks = dr_lex_all(&lx, &p.ntoks);
  p.unit = dr_arena_alloc(arena, sizeof *p.unit);
  p.unit->src = src;
  p.unit->prelude = prelude;
  if (!prelude) parse_add_unit(&p);

  /* This file's classes are collected here and appended in one go:
   * prog->classes keeps no capacity across calls. */
  DrClassDecl **classes = NULL;
  int n = 0, cap = 0;
  bool seen_type = false, seen_import = false, seen_package = false;
  while (!parse_at(&p, T_EOF)) {
    int start = p.pos;
    DrTokKind k = parse_cur(&p)->kind;
    if (k == T_SEMI) {
      parse_advance(&p);
    } else if (k == T_PACKAGE) {
      if (!prelude && (seen_type || seen_import || seen_package)) {
        parse_error(&p, parse_cur(&p)->pos, "class, interface, enum, or record expected");
        parse_sync_top(&p);
      } else {
        parse_package(&p);
        seen_package = true;
      }
    } else if (k == T_IMPORT) {
      if (seen_type) {
        parse_error(&p, parse_cur(&p)->pos, "class, interface, enum, or record expected");
        parse_sync_top(&p);
      } else {
        parse_import(&p);
        seen_import = true;
      }
    } else if (parse_can_start_type_decl(&p)) {
      unsigned mods = parse_modifiers(&p, false);
      seen_type = true;
      if (parse_at_type_decl(&p)) {
        DrClassDecl *d = parse_type_decl(&p, mods, NULL);
        if (d) DR_ARENA_PUSH(arena, classes, n, cap, d);
      } else if (!parse_at(&p, T_EOF)) {
        parse_error(&p, parse_cur(&p)->pos, "class, interface, enum, or record expected");
        parse_sync_top(&p);
      }
    } else {
      parse_error(&p, parse_cur(&p)->pos, "class, interface, enum, or record expected");
      parse_sync_top(&p);
    }
    if (p.pos == start && !parse_at(&p, T_EOF)) parse_advance(&p);
  }

  if (n) {
    DrClassDecl **all = dr_arena_alloc(arena, sizeof *all * (size_t)(prog->nclasses + n));
    if (prog->nclasses) memcpy(all, prog->classes, sizeof *all * (size_t)prog->nclasses);
    memcpy(all + prog->nclasses, classes, sizeof *all * (size_t)n);
    prog->classes = all;
    prog->nclasses += n;
  }
  return p.nerrors == 0 && lx.nerrors == 0;
}
