/* The DL lexer (Java 17 lexical structure, JLS 3) and the parser's
 * internal interface.
 *
 * The lexer turns UTF-8 source into tokens with 1-based positions (columns
 * count characters, a tab is one).  Literal values are decoded here: ints
 * and longs range-checked per JLS 3.10.1, doubles converted with correct
 * rounding, char and string literals decoded to UTF-16.  Errors go to the
 * DrDiagList; the lexer always produces a token and keeps going, marking
 * tokens it complained about with DR_TOKF_ERROR so the parser does not
 * pile a second error on the same spot. */
#ifndef DR_LEXER_H
#define DR_LEXER_H

#include "ast.h"
#include "diag.h"
#include "tokens.h"

enum {
  DR_TOKF_ERROR = 1 << 0,       /* the lexer reported an error for this token */
  /* 2147483648 or 9223372036854775808L: legal only as the operand of unary
   * minus, which the parser checks (ival holds the magnitude's negation,
   * i.e. INT32_MIN or INT64_MIN). */
  DR_TOKF_NEEDS_MINUS = 1 << 1,
};

typedef struct {
  DrTokKind kind;
  unsigned flags;       /* DR_TOKF_* */
  DrPos pos;            /* first character */
  DrPos end;            /* just after the last character */
  union {
    const char *text;   /* T_IDENT: the name (arena, NUL-terminated) */
    int64_t ival;       /* T_INT_LIT (an int32 value), T_LONG_LIT, T_CHAR_LIT */
    double dval;        /* T_DOUBLE_LIT, T_FLOAT_LIT (a float value) */
    struct {
      const uint16_t *str; /* T_STRING_LIT: UTF-16 code units (arena) */
      int slen;
    };
  };
} DrToken;

typedef struct {
  DrArena *arena;
  DrDiagList *diags;
  const DrSource *src;
  const unsigned char *p, *end; /* the cursor into src->text */
  int line, col;                /* of *p */
  int nerrors;                  /* errors this lexer reported */
  bool quiet;                   /* measuring pass of a string: no errors */
  bool tok_error;               /* an error was reported for the current token */
} DrLexer;

void dr_lexer_init(DrLexer *lx, DrArena *arena, DrDiagList *diags, const DrSource *src);
/* Scans the next token into *tok; at the end, T_EOF (repeatedly). */
void dr_lexer_next(DrLexer *lx, DrToken *tok);
/* The whole source as an arena array ending with T_EOF; *count includes it. */
DrToken *dr_lex_all(DrLexer *lx, int *count);

/* The token as messages name it: "';'", "'class'", "<identifier>". */
const char *dr_token_name(DrTokKind k);
/* The source spelling of a keyword/operator ("class", ">>>="). */
const char *dr_token_spelling(DrTokKind k);
unsigned dr_token_flags(DrTokKind k);
/* T_IDENT unless s[0..n) is a reserved word. */
DrTokKind dr_keyword_lookup(const char *s, size_t n);

/* ------------------------------------------------------------------------
 * Parser internals, shared by parser.c (declarations, statements) and
 * parser_expr.c (types, expressions).  Not for use outside the parser. */

typedef struct {
  DrArena *arena;
  DrDiagList *diags;
  const DrSource *src;
  DrProgram *prog;
  bool prelude;
  DrToken *toks; /* ends with T_EOF */
  int ntoks;
  int pos;       /* index of the current token */
  /* Syntax errors at or before the last reported one are dropped: after
   * one mistake the parser resynchronizes, and what it trips over on the
   * way is noise (javac does the same). */
  DrPos last_err;
  int nerrors;
  int depth;     /* nesting of expressions/statements/classes */
  bool aborted;  /* nesting limit hit: the rest of the file is skipped */
  bool no_lambda;/* parsing a case label: `x ->` is an arrow case, not a lambda */
  const char *package; /* prelude: the current `package` */
  DrUnit *unit;        /* the file being parsed */
  DrAnnotation *annots;/* the annotations the last modifiers had (parse_take_annots) */
  int nannots, annots_cap;
  int imports_cap;
  int ntemps;          /* the compiler's own locals made so far (parser_try.c) */
} DrParser;

enum { DR_PARSE_MAX_DEPTH = 500 };

/* parser.c */
DrToken *parse_cur(DrParser *p);
DrToken *parse_peek(DrParser *p, int ahead);
DrTokKind parse_kind_at(DrParser *p, int index);
bool parse_at(DrParser *p, DrTokKind k);
DrToken *parse_advance(DrParser *p);
bool parse_accept(DrParser *p, DrTokKind k);
/* Consumes k, or reports "'k' expected" after the previous token. */
bool parse_expect(DrParser *p, DrTokKind k);
/* A syntax error (subject to the cascade rule above). */
void parse_error(DrParser *p, DrPos pos, const char *fmt, ...) DR_PRINTF(3, 4);
/* A syntax error at the current token ("reached end of file" at EOF). */
void parse_error_here(DrParser *p, const char *msg);
/* "<what> expected" after the previous token ("reached end of file" at EOF). */
void parse_error_expected(DrParser *p, const char *what);
/* "<what> is/are not supported in DL": always reported. */
void parse_unsupported(DrParser *p, DrPos pos, const char *what);
/* Enters one nesting level; false (after reporting once) when too deep. */
bool parse_enter(DrParser *p);
void parse_leave(DrParser *p);
/* Skips a balanced (), [] or {} group starting at the current opener. */
void parse_skip_group(DrParser *p);
const char *parse_ident(DrParser *p, DrPos *pos);
DrStmt *parse_block(DrParser *p);
/* An anonymous class's body, at its `{`. */
DrClassDecl *parse_anon_body(DrParser *p, DrPos pos);
DrStmt *parse_new_stmt(DrParser *p, DrStmtKind kind, DrPos pos);
DrStmt *parse_statement(DrParser *p);
/* Block statements up to `}` (in_switch: or the next case label). */
void parse_block_stmts(DrParser *p, DrStmt ***out, int *n, bool in_switch);
DrExpr *parse_paren_expr(DrParser *p);
/* An expression that may stand as a statement (else "not a statement"). */
DrExpr *parse_stmt_expr(DrParser *p);

void parse_member(DrParser *p, DrClassDecl *d, int *cap);
void parse_sync_member(DrParser *p);
unsigned parse_modifiers(DrParser *p, bool in_class_body);
void parse_type_list(DrParser *p, DrTypeRef **out, int *n);
/* Members drvm adds to d (enums, records), parsed from source text. */
void parse_members_text(DrParser *p, DrClassDecl *d, int *cap, const char *text);

/* A type declaration's place: its outer class, package and file. */
void parse_decl_origin(DrParser *p, DrClassDecl *d, DrClassDecl *outer);

/* parser_enum.c */
/* At `enum`: the enum class as an ordinary class that extends
 * java.lang.Enum (JLS 8.9). */
DrClassDecl *parse_enum(DrParser *p, unsigned mods, DrClassDecl *outer);

/* parser_record.c */
/* At `record`: the record class as an ordinary final class that extends
 * java.lang.Record (JLS 8.10). */
DrClassDecl *parse_record(DrParser *p, unsigned mods, DrClassDecl *outer);

/* parser_try.c */
/* At `(` after `try`: the resources and the block, as the plain
 * statements that mean them; the caller adds catch and finally. */
DrStmt *parse_try_resources(DrParser *p, DrPos pos);

/* parser_switch.c */
/* After `switch`: the selector and the body, of a statement or (is_expr)
 * of a switch expression. */
DrStmt *parse_switch(DrParser *p, DrPos pos, bool is_expr);
/* Whether the identifier here starts a yield statement (JLS 14.21). */
bool parse_at_yield(DrParser *p);
DrStmt *parse_yield(DrParser *p);

/* parser_expr.c */
DrExpr *parse_new_expr(DrParser *p, DrExprKind kind, DrPos pos);
DrExpr *parse_expr(DrParser *p);
DrExpr *parse_array_init(DrParser *p);
/* A type; allow_void for method results.  Rejected types are reported
 * and replaced by something that lets parsing go on. */
void parse_type(DrParser *p, DrTypeRef *t, bool allow_void);
/* Reports `generics are not supported in DL` and skips <...> at the
 * current `<`. */
void parse_skip_type_args(DrParser *p);
/* parser_generic.c, each at its `<` */
/* <A, ? extends B> into t's args (<>: t->diamond). */
void parse_type_args(DrParser *p, DrTypeRef *t);
/* x.<A, B>m(): the call's explicit type arguments. */
void parse_call_type_args(DrParser *p, DrTypeRef **out, int *n);
/* <T, U extends A & B> of a class or method. */
void parse_type_params(DrParser *p, DrTypeParam **out, int *n);
/* Index just past a type starting at token index i, or -1 if none. */
int parse_scan_type(DrParser *p, int i);
/* Index just past a balanced <...> at i, or -1. */
int parse_scan_type_args(DrParser *p, int i);
void parse_args(DrParser *p, DrExpr ***args, int *nargs);
/* Skips `->` and a lambda body (block or expression). */
void parse_skip_lambda_body(DrParser *p);

#endif
