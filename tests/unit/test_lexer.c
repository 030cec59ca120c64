/* Unit tests of the lexer (tokens, literal values, positions, errors) and
 * of the parser's trees and error messages. */
#include "../../compiler/compile.h"
#include "../../compiler/lexer.h"
#include "check.h"

#include <math.h>
#include <string.h>

/* One piece of source lexed or parsed on its own. */
typedef struct {
  DrArena arena;
  DrDiagList diags;
  DrSource src;
  DrLexer lx;
  DrProgram prog;
  bool ok;
} DrTestSrc;

static void ts_open(DrTestSrc *s, const char *text) {
  memset(s, 0, sizeof *s);
  dr_arena_init(&s->arena);
  dr_diag_init(&s->diags);
  s->src = (DrSource){"<test>", text, strlen(text), NULL};
  s->diags.src = &s->src;
  dr_lexer_init(&s->lx, &s->arena, &s->diags, &s->src);
}

static void ts_close(DrTestSrc *s) {
  dr_diag_free(&s->diags);
  dr_arena_free(&s->arena);
}

static bool ts_has_error(const DrTestSrc *s, int line, int col, const char *msg) {
  for (int i = 0; i < s->diags.count; i++) {
    const DrDiag *d = &s->diags.items[i];
    if ((line == 0 || (d->line == line && d->col == col)) && strstr(d->msg, msg)) return true;
  }
  return false;
}

static void ts_dump_errors(const DrTestSrc *s) {
  for (int i = 0; i < s->diags.count; i++)
    fprintf(stderr, "  %d:%d: %s\n", s->diags.items[i].line, s->diags.items[i].col, s->diags.items[i].msg);
}

/* --------------------------------------------------------------- lexer */

/* Lexes text and returns its first token (errors in s->diags). */
static DrToken lex1(DrTestSrc *s, const char *text) {
  ts_open(s, text);
  DrToken t;
  dr_lexer_next(&s->lx, &t);
  return t;
}

static bool int_is(const char *text, DrTokKind kind, int64_t v) {
  DrTestSrc s;
  DrToken t = lex1(&s, text);
  DrToken end;
  dr_lexer_next(&s.lx, &end);
  bool ok = t.kind == kind && t.ival == v && s.diags.count == 0 && end.kind == T_EOF && !(t.flags & DR_TOKF_NEEDS_MINUS);
  if (!ok) {
    fprintf(stderr, "  %s: kind %d value %lld\n", text, (int)t.kind, (long long)t.ival);
    ts_dump_errors(&s);
  }
  ts_close(&s);
  return ok;
}

static bool double_is(const char *text, double v) {
  DrTestSrc s;
  DrToken t = lex1(&s, text);
  DrToken end;
  dr_lexer_next(&s.lx, &end);
  bool ok = t.kind == T_DOUBLE_LIT && memcmp(&t.dval, &v, sizeof v) == 0 && s.diags.count == 0 && end.kind == T_EOF;
  if (!ok) {
    fprintf(stderr, "  %s: kind %d value %.17g\n", text, (int)t.kind, t.dval);
    ts_dump_errors(&s);
  }
  ts_close(&s);
  return ok;
}

/* A float literal: T_FLOAT_LIT holding the float's value, rounded once
 * from the text (not through double). */
static bool float_is(const char *text, float v) {
  DrTestSrc s;
  DrToken t = lex1(&s, text);
  DrToken end;
  dr_lexer_next(&s.lx, &end);
  bool ok = t.kind == T_FLOAT_LIT && (float)t.dval == v && t.dval == (double)v && s.diags.count == 0 &&
            end.kind == T_EOF;
  if (!ok) fprintf(stderr, "  %s: kind %d value %.17g\n", text, (int)t.kind, t.dval);
  ts_close(&s);
  return ok;
}

static bool char_is(const char *text, int v) {
  DrTestSrc s;
  DrToken t = lex1(&s, text);
  bool ok = t.kind == T_CHAR_LIT && t.ival == v && s.diags.count == 0;
  if (!ok) {
    fprintf(stderr, "  %s: kind %d value %lld\n", text, (int)t.kind, (long long)t.ival);
    ts_dump_errors(&s);
  }
  ts_close(&s);
  return ok;
}

static bool string_is(const char *text, const uint16_t *units, int n) {
  DrTestSrc s;
  DrToken t = lex1(&s, text);
  bool ok = t.kind == T_STRING_LIT && t.slen == n && (n == 0 || memcmp(t.str, units, sizeof *units * (size_t)n) == 0) &&
            s.diags.count == 0;
  if (!ok) {
    fprintf(stderr, "  %s: kind %d len %d:", text, (int)t.kind, t.slen);
    for (int i = 0; i < t.slen; i++) fprintf(stderr, " %04x", t.str[i]);
    fputc('\n', stderr);
    ts_dump_errors(&s);
  }
  ts_close(&s);
  return ok;
}

/* Lexing text reports msg at line:col. */
static bool lex_error_is(const char *text, int line, int col, const char *msg) {
  DrTestSrc s;
  ts_open(&s, text);
  int n;
  (void)dr_lex_all(&s.lx, &n);
  bool ok = ts_has_error(&s, line, col, msg);
  if (!ok) {
    fprintf(stderr, "  %s: wanted %d:%d: %s; got:\n", text, line, col, msg);
    ts_dump_errors(&s);
  }
  ts_close(&s);
  return ok;
}

/* The kinds of all tokens of text, EOF included, equal kinds[]. */
static bool kinds_are(const char *text, const DrTokKind *kinds, int n) {
  DrTestSrc s;
  ts_open(&s, text);
  int count;
  DrToken *t = dr_lex_all(&s.lx, &count);
  bool ok = count == n && s.diags.count == 0;
  for (int i = 0; ok && i < n; i++) ok = t[i].kind == kinds[i];
  if (!ok) {
    fprintf(stderr, "  %s:", text);
    for (int i = 0; i < count; i++) fprintf(stderr, " %s", dr_token_name(t[i].kind));
    fputc('\n', stderr);
  }
  ts_close(&s);
  return ok;
}

static void test_tokens(DrCheck *c) {
  {
    DrTokKind k[] = {T_IDENT, T_USHREQ, T_IDENT, T_SHREQ, T_SHLEQ, T_USHR, T_SHR, T_GT, T_EOF};
    CHECK(c, kinds_are("a >>>= b >>= <<= >>> >> >", k, 9));
  }
  {
    DrTokKind k[] = {T_ARROW, T_COLONCOLON, T_AT, T_ELLIPSIS, T_DOT, T_PLUSPLUS, T_PLUS, T_MINUSMINUS, T_ANDAND, T_OROR, T_EOF};
    CHECK(c, kinds_are("-> :: @ ... . +++ -- && ||", k, 11));
  }
  {
    /* every Java keyword is one, the contextual words are identifiers */
    DrTokKind k[] = {T_CLASS, T_ENUM, T_GOTO, T_CONST, T_UNDERSCORE, T_STRICTFP, T_INSTANCEOF, T_IDENT, T_IDENT, T_IDENT, T_EOF};
    CHECK(c, kinds_are("class enum goto const _ strictfp instanceof var record _x", k, 11));
  }
  CHECK(c, strcmp(dr_token_name(T_SEMI), "';'") == 0);
  CHECK(c, strcmp(dr_token_name(T_IDENT), "<identifier>") == 0);
  CHECK(c, strcmp(dr_token_name(T_CLASS), "'class'") == 0);
  CHECK(c, strcmp(dr_token_spelling(T_USHREQ), ">>>=") == 0);
  CHECK(c, dr_keyword_lookup("instanceof", 10) == T_INSTANCEOF);
  CHECK(c, dr_keyword_lookup("instanceo", 9) == T_IDENT);
  CHECK(c, dr_keyword_lookup("yield", 5) == T_IDENT);
  {
    DrTokKind k[] = {T_IDENT, T_IDENT, T_EOF};
    CHECK(c, kinds_are("/* a */ x // b\n /** c */ $y_1", k, 3));
  }
}

static void test_int_literals(DrCheck *c) {
  CHECK(c, int_is("42", T_INT_LIT, 42));
  CHECK(c, int_is("0", T_INT_LIT, 0));
  CHECK(c, int_is("2147483647", T_INT_LIT, INT32_MAX));
  CHECK(c, int_is("2_147_483_647", T_INT_LIT, INT32_MAX));
  CHECK(c, int_is("1__2", T_INT_LIT, 12));
  CHECK(c, int_is("0x7fff_ffff", T_INT_LIT, INT32_MAX));
  CHECK(c, int_is("0xFFFFFFFF", T_INT_LIT, -1));
  CHECK(c, int_is("0x80000000", T_INT_LIT, INT32_MIN));
  CHECK(c, int_is("010", T_INT_LIT, 8));
  CHECK(c, int_is("0_7", T_INT_LIT, 7));
  CHECK(c, int_is("037777777777", T_INT_LIT, -1));
  CHECK(c, int_is("0b1010", T_INT_LIT, 10));
  CHECK(c, int_is("0B1111_0000", T_INT_LIT, 240));
  CHECK(c, int_is("0b11111111111111111111111111111111", T_INT_LIT, -1));
  CHECK(c, int_is("1L", T_LONG_LIT, 1));
  CHECK(c, int_is("0xCAFEl", T_LONG_LIT, 0xCAFE));
  CHECK(c, int_is("9223372036854775807L", T_LONG_LIT, INT64_MAX));
  CHECK(c, int_is("0xFFFFFFFFFFFFFFFFL", T_LONG_LIT, -1));
  CHECK(c, int_is("0x8000000000000000L", T_LONG_LIT, INT64_MIN));
  CHECK(c, int_is("01777777777777777777777L", T_LONG_LIT, -1));
  {
    DrTestSrc s;
    DrToken t = lex1(&s, "2147483648");
    CHECK(c, t.kind == T_INT_LIT && (t.flags & DR_TOKF_NEEDS_MINUS) && t.ival == INT32_MIN && s.diags.count == 0);
    ts_close(&s);
    t = lex1(&s, "9223372036854775808L");
    CHECK(c, t.kind == T_LONG_LIT && (t.flags & DR_TOKF_NEEDS_MINUS) && t.ival == INT64_MIN && s.diags.count == 0);
    ts_close(&s);
  }
  CHECK(c, lex_error_is("2147483649", 1, 1, "integer number too large"));
  CHECK(c, lex_error_is("x = 0x1_0000_0000", 1, 5, "integer number too large"));
  CHECK(c, lex_error_is("040000000000", 1, 1, "integer number too large"));
  CHECK(c, lex_error_is("9223372036854775809L", 1, 1, "integer number too large"));
  CHECK(c, lex_error_is("0x1_0000_0000_0000_0000L", 1, 1, "integer number too large"));
  CHECK(c, lex_error_is("99999999999999999999999", 1, 1, "integer number too large"));
  CHECK(c, lex_error_is("1_", 1, 2, "illegal underscore"));
  CHECK(c, lex_error_is("0x_1", 1, 3, "illegal underscore"));
  CHECK(c, lex_error_is("0x", 1, 1, "hexadecimal numbers must contain at least one hexadecimal digit"));
  CHECK(c, lex_error_is("0b", 1, 1, "binary numbers must contain at least one binary digit"));
  CHECK(c, lex_error_is("09", 1, 1, "malformed number"));
  CHECK(c, lex_error_is("0b12", 1, 1, "malformed number"));
  CHECK(c, lex_error_is("123abc", 1, 1, "malformed number"));
}

static void test_double_literals(DrCheck *c) {
  CHECK(c, double_is("1.5", 1.5));
  CHECK(c, double_is("1.", 1.0));
  CHECK(c, double_is(".5", 0.5));
  CHECK(c, double_is("1e10", 1e10));
  CHECK(c, double_is("1.5e-3", 1.5e-3));
  CHECK(c, double_is("1E+2", 100.0));
  CHECK(c, double_is("2D", 2.0));
  CHECK(c, double_is("2.0d", 2.0));
  CHECK(c, double_is("1_000.000_1", 1000.0001));
  CHECK(c, double_is("0.0", 0.0));
  CHECK(c, double_is("0e99999", 0.0));
  CHECK(c, double_is("0x1p4", 16.0));
  CHECK(c, double_is("0x1.8p1", 3.0));
  CHECK(c, double_is("1.7976931348623157E308", 1.7976931348623157E308));
  CHECK(c, double_is("4.9E-324", 4.9E-324));
  /* the halfway point to the smallest denormal rounds up; just below it, to zero */
  CHECK(c, double_is("2.4703282292062328e-324", 4.9E-324));
  CHECK(c, lex_error_is("2.4703282292062327e-324", 1, 1, "floating-point number too small"));
  CHECK(c, lex_error_is("1e-400", 1, 1, "floating-point number too small"));
  CHECK(c, lex_error_is("1.8e308", 1, 1, "floating-point number too large"));
  CHECK(c, float_is("1.5f", 1.5f));
  CHECK(c, float_is("2F", 2.0f));
  CHECK(c, float_is("0x1p4f", 16.0f));
  CHECK(c, float_is("3.4028235e38f", 3.4028235e38f));
  /* halfway between two floats in decimal, a hair above: via double it
   * would round to the even one below */
  CHECK(c, float_is("1.00000005960464477550f", 1.00000011920928955078f));
  CHECK(c, lex_error_is("1e40f", 1, 1, "floating-point number too large"));
  CHECK(c, lex_error_is("1e-50f", 1, 1, "floating-point number too small"));
  CHECK(c, lex_error_is("1e", 1, 1, "malformed floating-point literal"));
  CHECK(c, lex_error_is("0x1.8", 1, 1, "malformed floating-point literal"));
  CHECK(c, lex_error_is("1._5", 1, 3, "illegal underscore"));
}

static void test_char_string_literals(DrCheck *c) {
  CHECK(c, char_is("'a'", 'a'));
  CHECK(c, char_is("'\\n'", '\n'));
  CHECK(c, char_is("'\\t'", '\t'));
  CHECK(c, char_is("'\\b'", '\b'));
  CHECK(c, char_is("'\\r'", '\r'));
  CHECK(c, char_is("'\\f'", '\f'));
  CHECK(c, char_is("'\\s'", ' '));
  CHECK(c, char_is("'\\0'", 0));
  CHECK(c, char_is("'\\377'", 255));
  CHECK(c, char_is("'\\101'", 'A'));
  CHECK(c, char_is("'\\''", '\''));
  CHECK(c, char_is("'\"'", '"'));
  CHECK(c, char_is("'\\\\'", '\\'));
  CHECK(c, char_is("'\\u0041'", 'A'));
  CHECK(c, char_is("'\\uuu00e9'", 0xE9));
  CHECK(c, char_is("'\\uFFFF'", 0xFFFF));
  CHECK(c, char_is("'\xC3\xA9'", 0xE9));         /* UTF-8 e-acute */
  CHECK(c, char_is("'\xE2\x82\xAC'", 0x20AC));   /* UTF-8 euro sign */
  CHECK(c, char_is("'\\u005cn'", '\n'));         /* an escaped backslash starts an escape, as in Java */
  CHECK(c, lex_error_is("''", 1, 1, "empty character literal"));
  CHECK(c, lex_error_is("'ab'", 1, 1, "unclosed character literal"));
  CHECK(c, lex_error_is("x '\\q'", 1, 5, "illegal escape character"));
  CHECK(c, lex_error_is("'\n'", 1, 1, "illegal line end in character literal"));
  CHECK(c, lex_error_is("'\\u00g1'", 1, 2, "illegal unicode escape"));

  {
    const uint16_t u[] = {'h', 'i', '\t', '!', '\n', '"', '\\'};
    CHECK(c, string_is("\"hi\\t!\\n\\\"\\\\\"", u, 7));
  }
  CHECK(c, string_is("\"\"", NULL, 0));
  {
    const uint16_t u[] = {0xE9, 'x', 0x20AC};
    CHECK(c, string_is("\"\xC3\xA9x\xE2\x82\xAC\"", u, 3));
  }
  {
    /* U+1F600 (4 UTF-8 bytes) becomes a surrogate pair */
    const uint16_t u[] = {0xD83D, 0xDE00};
    CHECK(c, string_is("\"\xF0\x9F\x98\x80\"", u, 2));
  }
  {
    const uint16_t u[] = {0xE9, 0xD800};
    CHECK(c, string_is("\"\\u00e9\\uD800\"", u, 2));
  }
  {
    /* \\u0041 is a backslash escape followed by the text u0041 */
    const uint16_t u[] = {'\\', 'u', '0', '0', '4', '1'};
    CHECK(c, string_is("\"\\\\u0041\"", u, 6));
  }
  {
    /* octal escapes take at most 3 digits and stay within \377 */
    const uint16_t u[] = {10, ' ', '0', 0xFF, '8'};
    CHECK(c, string_is("\"\\12\\400\\3778\"", u, 5));
  }
  {
    /* \u0022 is a quote: it ends the literal (unicode escapes come first) */
    DrTestSrc s;
    ts_open(&s, "\"a\\u0022 b");
    int n;
    DrToken *t = dr_lex_all(&s.lx, &n);
    CHECK(c, n == 3 && t[0].kind == T_STRING_LIT && t[0].slen == 1 && t[1].kind == T_IDENT && s.diags.count == 0);
    ts_close(&s);
  }
  CHECK(c, lex_error_is("x = \"abc\ny", 1, 5, "unclosed string literal"));
  CHECK(c, lex_error_is("\"abc\\", 1, 1, "unclosed string literal"));
  CHECK(c, lex_error_is("s = \"\"\"hi\"\"\";", 1, 5, "illegal text block open delimiter sequence, missing line terminator"));
  CHECK(c, lex_error_is("s = \"\"\"\n  hi\n", 1, 5, "unclosed text block"));
  {
    const uint16_t u[] = {'h', 'i', '\n', ' ', 'x', '\n'};
    CHECK(c, string_is("\"\"\"\r\n   hi  \r\n    x\n   \"\"\"", u, 6));
  }
  CHECK(c, lex_error_is("\"a\\xb\"", 1, 4, "illegal escape character"));
  CHECK(c, lex_error_is("\"\xC3\"", 1, 2, "unmappable character (0xC3) for encoding UTF-8"));
}

static void test_positions_and_errors(DrCheck *c) {
  {
    DrTestSrc s;
    ts_open(&s, "a\n  b\tc\r\nd\re /* x\n */ f \xC3\xA9g h");
    int n;
    DrToken *t = dr_lex_all(&s.lx, &n);
    CHECK(c, n == 9);
    if (n == 9) {
      CHECK(c, t[0].pos.line == 1 && t[0].pos.col == 1 && t[0].end.line == 1 && t[0].end.col == 2);
      CHECK(c, t[1].pos.line == 2 && t[1].pos.col == 3);
      CHECK(c, t[2].pos.line == 2 && t[2].pos.col == 5); /* a tab is one column */
      CHECK(c, t[3].pos.line == 3 && t[3].pos.col == 1); /* \r\n is one line end */
      CHECK(c, t[4].pos.line == 4 && t[4].pos.col == 1); /* so is a lone \r */
      CHECK(c, t[5].pos.line == 5 && t[5].pos.col == 5);
      CHECK(c, t[7].pos.line == 5 && t[7].pos.col == 10); /* columns count characters, not bytes */
    }
    /* the non-ASCII identifier */
    CHECK(c, ts_has_error(&s, 5, 7, "non-ASCII characters in identifiers are not supported in DL"));
    ts_close(&s);
  }
  CHECK(c, lex_error_is("x /* never closed", 1, 3, "unclosed comment"));
  CHECK(c, lex_error_is("a # b", 1, 3, "illegal character: '#'"));
  CHECK(c, lex_error_is("a \\u0041", 1, 3, "unicode escapes outside character and string literals are not supported in DL"));
  CHECK(c, lex_error_is("\xE2\x80\x9C", 1, 1, "illegal character: '\\u201c'"));
  {
    DrTestSrc s;
    DrToken t = lex1(&s, "");
    CHECK(c, t.kind == T_EOF && t.pos.line == 1 && t.pos.col == 1);
    ts_close(&s);
  }
}

/* -------------------------------------------------------------- parser */

static void ts_parse(DrTestSrc *s, const char *text, bool prelude) {
  ts_open(s, text);
  s->ok = dr_parse(&s->arena, &s->diags, &s->src, prelude, &s->prog);
}

/* Parses text, which must produce exactly the error msg at line:col. */
static bool parse_error_is(const char *text, int line, int col, const char *msg) {
  DrTestSrc s;
  ts_parse(&s, text, false);
  bool ok = !s.ok && s.diags.count == 1 && ts_has_error(&s, line, col, msg);
  if (!ok) {
    fprintf(stderr, "  %s\n  wanted %d:%d: %s; got:\n", text, line, col, msg);
    ts_dump_errors(&s);
  }
  ts_close(&s);
  return ok;
}

/* The initializer of the first field of the first class. */
static DrExpr *field_init(DrTestSrc *s) {
  if (s->prog.nclasses < 1 || s->prog.classes[0]->nmembers < 1) return NULL;
  DrMember *m = &s->prog.classes[0]->members[0];
  return m->kind == M_FIELD && m->ndecls > 0 ? m->decls[0].init : NULL;
}

/* The statements of the first method's body of the first class. */
static DrStmt **body_of(DrTestSrc *s, int *n) {
  *n = 0;
  if (s->prog.nclasses < 1) return NULL;
  DrClassDecl *d = s->prog.classes[0];
  for (int i = 0; i < d->nmembers; i++) {
    if ((d->members[i].kind == M_METHOD || d->members[i].kind == M_CTOR) && d->members[i].body) {
      *n = d->members[i].body->nstmts;
      return d->members[i].body->stmts;
    }
  }
  return NULL;
}

static void test_parser_trees(DrCheck *c) {
  DrTestSrc s;

  ts_parse(&s, "class A { int x = -2147483648; long y = -9223372036854775808L, z = - 5; }", false);
  CHECK(c, s.ok);
  {
    DrExpr *e = field_init(&s);
    CHECK(c, e && e->kind == E_INT_LIT && e->lit.i == INT32_MIN && e->pos.col == 19);
    DrMember *m = s.prog.classes[0]->nmembers > 1 ? &s.prog.classes[0]->members[1] : NULL;
    CHECK(c, m && m->ndecls == 2 && m->decls[0].init->kind == E_LONG_LIT && m->decls[0].init->lit.j == INT64_MIN);
    CHECK(c, m && m->ndecls == 2 && m->decls[1].init->kind == E_UNARY && m->decls[1].init->op == '-');
  }
  ts_close(&s);

  /* casts: javac's rules for (Name) */
  ts_parse(&s, "class A { Object a = (a) + b, b = (Foo) x, c = (int) -x, d = (Foo) -x, e = (a.b.C[]) (y); }", false);
  CHECK(c, s.ok);
  if (s.ok) {
    DrDeclarator *d = s.prog.classes[0]->members[0].decls;
    CHECK(c, d[0].init->kind == E_BINARY && d[0].init->op == DR_BIN_ADD && d[0].init->lhs->kind == E_NAME);
    CHECK(c, d[1].init->kind == E_CAST && strcmp(d[1].init->tref.name, "Foo") == 0);
    CHECK(c, d[2].init->kind == E_CAST && d[2].init->target->kind == E_UNARY);
    CHECK(c, d[3].init->kind == E_BINARY && d[3].init->op == DR_BIN_SUB);
    CHECK(c, d[4].init->kind == E_CAST && strcmp(d[4].init->tref.name, "a.b.C") == 0 && d[4].init->tref.dims == 1);
  }
  ts_close(&s);

  /* precedence, associativity, selectors */
  ts_parse(&s, "class A { int x = a = b += 1 + 2 * 3 << 1 < 4 == true ? 1 : c ? 2 : 3; Object y = System.out.println(new int[2][3][].length, new int[] {1, {2},}, a[i].f); }", false);
  CHECK(c, s.ok);
  if (s.ok) {
    DrExpr *e = field_init(&s);
    CHECK(c, e->kind == E_ASSIGN && e->op == DR_BIN_NONE && e->rhs->kind == E_ASSIGN && e->rhs->op == DR_BIN_ADD);
    DrExpr *cond = e->rhs->rhs;
    CHECK(c, cond->kind == E_COND && cond->rhs->kind == E_COND && cond->cond->kind == E_BINARY && cond->cond->op == DR_BIN_EQ);
    DrExpr *lt = cond->cond->lhs;
    CHECK(c, lt->op == DR_BIN_LT && lt->lhs->op == DR_BIN_SHL && lt->lhs->lhs->op == DR_BIN_ADD && lt->lhs->lhs->rhs->op == DR_BIN_MUL);
    DrExpr *call = s.prog.classes[0]->members[1].decls[0].init;
    CHECK(c, call->kind == E_CALL && strcmp(call->name, "println") == 0 && call->nargs == 3 &&
                 call->target->kind == E_FIELD_ACCESS && call->target->target->kind == E_NAME &&
                 strcmp(call->target->target->name, "System") == 0);
    if (call->nargs == 3) {
      DrExpr *len = call->args[0];
      CHECK(c, len->kind == E_FIELD_ACCESS && len->target->kind == E_NEW_ARRAY && len->target->nargs == 2 &&
                   len->target->tref.dims == 3 && strcmp(len->target->tref.name, "int") == 0);
      DrExpr *na = call->args[1];
      CHECK(c, na->kind == E_NEW_ARRAY && na->nargs == 0 && na->init && na->init->nargs == 2 &&
                   na->init->args[1]->kind == E_ARRAY_INIT);
      CHECK(c, call->args[2]->kind == E_FIELD_ACCESS && call->args[2]->target->kind == E_INDEX);
    }
  }
  ts_close(&s);

  /* statements */
  ts_parse(&s,
           "class A { A() { super(1); for (int i = 0, j; i < 3; i++, j--) ; for (final String[] s : t) {} "
           "for (x = 1, y(); ; ) break; switch (k) { case 1: case 2, 3: f(); default: case 4: } "
           "try { } catch (A | B e) { } finally { } Foo.Bar[] q = null; final int w; assert w : 1; "
           "a.b.C z; synchronized (this) { } do x++; while (x < 2); } }",
           false);
  CHECK(c, s.ok);
  if (!s.ok) ts_dump_errors(&s);
  {
    int n;
    DrStmt **st = body_of(&s, &n);
    CHECK(c, n == 12);
    if (n == 12) {
      CHECK(c, st[0]->kind == S_CTOR_CALL && st[0]->is_super && st[0]->nargs == 1);
      CHECK(c, st[1]->kind == S_FOR && st[1]->nstmts == 1 && st[1]->stmts[0]->kind == S_LOCAL &&
                   st[1]->stmts[0]->ndecls == 2 && st[1]->nupdates == 2 && st[1]->body->kind == S_EMPTY);
      CHECK(c, st[2]->kind == S_FOREACH && st[2]->is_final && st[2]->tref.dims == 1 && strcmp(st[2]->decls[0].name, "s") == 0);
      CHECK(c, st[3]->kind == S_FOR && st[3]->nstmts == 2 && st[3]->stmts[1]->kind == S_EXPR && st[3]->expr == NULL);
      CHECK(c, st[4]->kind == S_SWITCH && st[4]->ncases == 2 && st[4]->cases[0].nlabels == 3 && st[4]->cases[0].nbody == 1 &&
                   st[4]->cases[1].is_default && st[4]->cases[1].nlabels == 1);
      CHECK(c, st[5]->kind == S_TRY && st[5]->ncatches == 1 && st[5]->catches[0].ntypes == 2 && st[5]->finally_body);
      CHECK(c, st[6]->kind == S_LOCAL && strcmp(st[6]->tref.name, "Foo.Bar") == 0 && st[6]->tref.dims == 1);
      CHECK(c, st[7]->kind == S_LOCAL && st[7]->is_final && st[7]->decls[0].init == NULL);
      CHECK(c, st[8]->kind == S_ASSERT && st[8]->expr2 != NULL);
      CHECK(c, st[9]->kind == S_LOCAL && strcmp(st[9]->tref.name, "a.b.C") == 0);
      CHECK(c, st[10]->kind == S_SYNC && st[11]->kind == S_DO);
    }
  }
  ts_close(&s);

  /* declarations */
  ts_parse(&s,
           "import java.util.*; public abstract class M extends p.B implements I, J { static { } { } "
           "static class N { } interface K { } protected abstract int[] f(final int a, String b[])[] throws E; "
           "int g[] = {1}, h; native void n(); } interface I extends J, K { void m(); }",
           false);
  CHECK(c, s.ok && s.prog.nunits == 1 && s.prog.units[0]->nimports == 1 && s.prog.units[0]->imports[0].on_demand &&
               strcmp(s.prog.units[0]->imports[0].name, "java.util") == 0 && s.prog.classes[0]->unit == s.prog.units[0]);
  if (s.ok && s.prog.nclasses == 2) {
    DrClassDecl *d = s.prog.classes[0];
    CHECK(c, d->mods == (DR_MOD_PUBLIC | DR_MOD_ABSTRACT) && strcmp(d->extends->name, "p.B") == 0 && d->nimplements == 2);
    CHECK(c, d->nmembers == 7 && d->members[0].kind == M_INIT && (d->members[0].mods & DR_MOD_STATIC) &&
                 d->members[1].kind == M_INIT && !d->members[1].mods);
    CHECK(c, d->members[2].kind == M_CLASS && (d->members[2].mods & DR_MOD_STATIC) && d->members[2].nested->outer == d);
    CHECK(c, d->members[3].kind == M_CLASS && d->members[3].nested->is_interface);
    DrMember *f = &d->members[4];
    CHECK(c, f->kind == M_METHOD && f->ret.dims == 2 && f->nparams == 2 && f->params[0].is_final &&
                 f->params[1].tref.dims == 1 && f->nthrows == 1 && f->body == NULL);
    CHECK(c, d->members[5].kind == M_FIELD && d->members[5].ndecls == 2 && d->members[5].decls[0].extra_dims == 1);
    CHECK(c, d->members[6].mods == DR_MOD_NATIVE);
    DrClassDecl *i = s.prog.classes[1];
    CHECK(c, i->is_interface && i->extends == NULL && i->nimplements == 2 && i->members[0].mods == 0);
  } else {
    CHECK(c, false);
    ts_dump_errors(&s);
  }
  ts_close(&s);

  /* prelude packages, and the user file appended after the prelude */
  ts_parse(&s, "package java.lang; class Object { } package java.util; class Random { }", true);
  CHECK(c, s.ok && s.prog.nclasses == 2 && s.prog.nunits == 0);
  if (s.prog.nclasses == 2) {
    CHECK(c, strcmp(s.prog.classes[0]->package, "java.lang") == 0 && s.prog.classes[0]->from_prelude);
    CHECK(c, strcmp(s.prog.classes[1]->package, "java.util") == 0);
    const char *text = "interface I { } class Main { } class Other { }";
    DrSource user = {"<user>", text, strlen(text), NULL};
    s.diags.src = &user;
    CHECK(c, dr_parse(&s.arena, &s.diags, &user, false, &s.prog));
    CHECK(c, s.prog.nclasses == 5 && strcmp(s.prog.classes[0]->name, "Object") == 0 &&
                 strcmp(s.prog.classes[4]->name, "Other") == 0 && !s.prog.classes[2]->from_prelude &&
                 s.prog.classes[2]->package == NULL);
    CHECK(c, s.prog.nunits == 1 && s.prog.units[0]->package == NULL && s.prog.classes[4]->unit == s.prog.units[0]);
    s.diags.src = &s.src;
  }
  ts_close(&s);
}

static void test_parser_errors(DrCheck *c) {
  CHECK(c, parse_error_is("class A { void f() { int x = 1\n return; } }", 1, 31, "';' expected"));
  CHECK(c, parse_error_is("class A { void f() { g(1, 2; } }", 1, 28, "')' expected"));
  CHECK(c, parse_error_is("class A { void f() { x = ; } }", 1, 26, "illegal start of expression"));
  CHECK(c, parse_error_is("class A { void f() { x + 1; } }", 1, 24, "not a statement"));
  CHECK(c, parse_error_is("class A { void f() {", 1, 21, "reached end of file while parsing"));
  CHECK(c, parse_error_is("class A { } }", 1, 13, "class, interface, enum, or record expected"));
  CHECK(c, parse_error_is("class { }", 1, 6, "<identifier> expected"));
  CHECK(c, parse_error_is("class A { int x = 2147483648; }", 1, 19, "integer number too large"));
  CHECK(c, parse_error_is("class A { long x = -(9223372036854775808L); }", 1, 22, "integer number too large"));
  CHECK(c, parse_error_is("class A { void f() { Runnable r = () -> ; } }", 1, 41, "illegal start of expression"));
  CHECK(c, parse_error_is("class A { void f() { F r = (int x, ) -> x; } }", 1, 35, "<identifier> expected"));
  CHECK(c, parse_error_is("class A { Object o = String::; }", 1, 30, "<identifier> expected"));
  CHECK(c, parse_error_is("class A { Object o = (1).class; }", 1, 26, "<identifier> expected"));
  CHECK(c, parse_error_is("class A { Box<String l; }", 1, 21, "'>' expected"));
  CHECK(c, parse_error_is("class A<> { }", 1, 9, "<identifier> expected"));
  CHECK(c, parse_error_is("class A { int f() { return @Override; } }", 1, 28, "illegal start of expression"));
  CHECK(c, parse_error_is("class A { Object o = new Object() { int }; }", 1, 40, "<identifier> expected"));
  CHECK(c, parse_error_is("class A { void f() { outer: for (;;) break outer } }", 1, 49, "';' expected"));
  CHECK(c, parse_error_is("class A { int[] b = new int[2][][0]; }", 1, 34, "']' expected"));
  CHECK(c, parse_error_is("class A { void f(int k) { switch (k) { case 1 -> g(); default: } } }", 1, 55, "different case kinds used in the switch"));
  CHECK(c, parse_error_is("class A { void f(int k) { switch (k) { case 1 -> 2; } } }", 1, 50, "not a statement"));
  CHECK(c, parse_error_is("class A { void f() { try (R r) { } } }", 1, 30, "'=' expected"));
  CHECK(c, parse_error_is("class A { void f() { try { } } }", 1, 22, "'try' without 'catch', 'finally' or resource declarations"));
  CHECK(c, parse_error_is("import p.A;\npackage p;\nclass A { }", 2, 1, "class, interface, enum, or record expected"));
  CHECK(c, parse_error_is("package p;\npackage q;\nclass A { }", 2, 1, "class, interface, enum, or record expected"));
  CHECK(c, parse_error_is("import static Foo;\nclass A { }", 1, 15, "'.' expected"));
  CHECK(c, parse_error_is("class A { void f() { int[] a = new int[]; } }", 1, 41, "array dimension missing"));
  CHECK(c, parse_error_is("class A { f() { } }", 1, 11, "invalid method declaration; return type required"));
  CHECK(c, parse_error_is("class A { void f() { else g(); } }", 1, 22, "'else' without 'if'"));

  /* several errors in one file, each reported once, recovery in between */
  {
    DrTestSrc s;
    ts_parse(&s,
             "class A {\n  int f() {\n    int a = 1\n    return a;\n  }\n  int g() {\n    int b = (2 + 3;\n    return b;\n  }\n"
             "  void h() { System.out.println(f() + g())\n  }\n  byte x; float y = 1.5f;\n}\n",
             false);
    CHECK(c, !s.ok && s.diags.count == 3);
    CHECK(c, ts_has_error(&s, 3, 14, "';' expected"));
    CHECK(c, ts_has_error(&s, 7, 19, "')' expected"));
    CHECK(c, ts_has_error(&s, 10, 43, "';' expected"));
    if (s.diags.count != 3) ts_dump_errors(&s); /* line 12 is fine: byte and float are DL */
    ts_close(&s);
  }

  /* pathological nesting is an error, not a stack overflow */
  {
    enum { N = 100000 };
    char *text = malloc(2 * N + 64);
    strcpy(text, "class A { int x = ");
    size_t len = strlen(text);
    memset(text + len, '(', N);
    strcpy(text + len + N, "1");
    memset(text + len + N + 1, ')', N);
    strcpy(text + len + 2 * N + 1, "; }");
    DrTestSrc s;
    ts_parse(&s, text, false);
    CHECK(c, !s.ok && ts_has_error(&s, 0, 0, "too deeply nested"));
    ts_close(&s);
    free(text);
  }

  /* a flat chain a + a + ... : 1,000 terms are Java (a link is an eighth
   * of a level); 100,000 are still bounded, an error and no overflow */
  for (int k = 0; k < 2; k++) {
    int n = k ? 100000 : 1000;
    char *text = malloc((size_t)n * 4 + 64);
    size_t len = (size_t)sprintf(text, "class A { int a; int x = a");
    for (int i = 1; i < n; i++) len += (size_t)sprintf(text + len, " + a");
    strcpy(text + len, "; }");
    DrTestSrc s;
    ts_parse(&s, text, false);
    if (k) CHECK(c, !s.ok && ts_has_error(&s, 0, 0, "too deeply nested"));
    else CHECK(c, s.ok);
    ts_close(&s);
    free(text);
  }
}

int main(void) {
  DrCheck c = {0, 0};
  test_tokens(&c);
  test_int_literals(&c);
  test_double_literals(&c);
  test_char_string_literals(&c);
  test_positions_and_errors(&c);
  test_parser_trees(&c);
  test_parser_errors(&c);
  return CHECK_DONE(&c);
}
