/* libFuzzer harness for the lexer and parser: any bytes must parse (with
 * or without errors) without crashing, hanging or leaving the tree in a
 * state later passes could trip over.
 *
 * Build and run (from the repository root):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L \
 *     -o fuzz_parse tests/fuzz/fuzz_parse.c compiler/lexer.c compiler/parser.c \
 *     compiler/parser_expr.c compiler/arena.c compiler/diag.c vm/common.c -lm
 *   ./fuzz_parse -max_len=4096 corpus/    (seed corpus/ with the .dl files of tests/lang)
 *
 * Or `make fuzz`, which builds it (and fuzz_check) with the whole library.
 *
 * Without libFuzzer, -DDR_FUZZ_MAIN builds a main() that runs the inputs
 * named on the command line, and with --mutate N also N deterministic
 * variants of each (see fuzz_main.h; `make fuzz-smoke` runs it).
 *
 * The first input byte chooses the mode: odd = parse as the prelude too.
 * After parsing, the tree is walked and its invariants checked: pointers
 * the checker follows without testing are never NULL, and a parse that
 * reported no error produced a tree of the documented shape. */
#include "../../compiler/compile.h"
#include "../../compiler/lexer.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  bool strict; /* the parse reported no error: check the full contract */
} DrFuzzWalk;

static void fz_fail(const char *what) {
  fprintf(stderr, "fuzz_parse: tree invariant violated: %s\n", what);
  abort();
}

#define FZ_REQUIRE(cond)                                                      \
  do {                                                                        \
    if (!(cond)) fz_fail(#cond);                                              \
  } while (0)

static void fz_class(DrFuzzWalk *w, const DrClassDecl *d);
static void fz_stmt(DrFuzzWalk *w, const DrStmt *s);

static void fz_tref(const DrTypeRef *t) {
  FZ_REQUIRE(t->name != NULL);
  FZ_REQUIRE(t->dims >= 0);
  FZ_REQUIRE(t->resolved == NULL);
}

static void fz_expr(DrFuzzWalk *w, const DrExpr *e) {
  FZ_REQUIRE(e != NULL);
  FZ_REQUIRE(e->pos.line >= 1 && e->pos.col >= 1);
  FZ_REQUIRE(e->type == NULL && e->method == NULL && e->local == NULL && e->field == NULL);
  for (int i = 0; i < e->nargs; i++) fz_expr(w, e->args[i]);
  switch (e->kind) {
  case E_INT_LIT: case E_LONG_LIT: case E_DOUBLE_LIT: case E_CHAR_LIT: case E_BOOL_LIT: case E_NULL_LIT:
  case E_THIS:
    break;
  case E_STRING_LIT:
    FZ_REQUIRE(e->lit.slen >= 0 && (e->lit.s != NULL || e->lit.slen == 0));
    for (int i = 0; i < e->lit.slen; i++) (void)*(volatile const uint16_t *)&e->lit.s[i];
    break;
  case E_NAME:
    FZ_REQUIRE(e->name != NULL);
    break;
  case E_FIELD_ACCESS:
    FZ_REQUIRE(e->name != NULL);
    FZ_REQUIRE(e->is_super ? e->target == NULL : e->target != NULL);
    if (e->target) fz_expr(w, e->target);
    break;
  case E_CALL:
    FZ_REQUIRE(e->name != NULL);
    if (e->is_super) FZ_REQUIRE(e->target == NULL);
    else FZ_REQUIRE(e->super_of == NULL);
    if (e->target) fz_expr(w, e->target);
    if (e->super_of) fz_expr(w, e->super_of);
    break;
  case E_INDEX:
    fz_expr(w, e->target);
    fz_expr(w, e->rhs);
    break;
  case E_NEW:
    fz_tref(&e->tref);
    break;
  case E_NEW_ARRAY:
    fz_tref(&e->tref);
    FZ_REQUIRE(e->tref.dims >= e->nargs);
    if (w->strict) FZ_REQUIRE((e->nargs > 0) != (e->init != NULL));
    if (e->init) {
      FZ_REQUIRE(e->init->kind == E_ARRAY_INIT);
      fz_expr(w, e->init);
    }
    break;
  case E_ARRAY_INIT:
    break;
  case E_UNARY:
    FZ_REQUIRE(e->op == '+' || e->op == '-' || e->op == '!' || e->op == '~');
    fz_expr(w, e->target);
    break;
  case E_PREINC: case E_PREDEC: case E_POSTINC: case E_POSTDEC:
    fz_expr(w, e->target);
    break;
  case E_BINARY:
    FZ_REQUIRE(e->op > DR_BIN_NONE && e->op <= DR_BIN_LOR);
    fz_expr(w, e->lhs);
    fz_expr(w, e->rhs);
    break;
  case E_ASSIGN:
    FZ_REQUIRE((e->op >= DR_BIN_NONE && e->op <= DR_BIN_USHR) || e->op == DR_BIN_AND || e->op == DR_BIN_OR ||
               e->op == DR_BIN_XOR);
    fz_expr(w, e->target);
    fz_expr(w, e->rhs);
    if (w->strict) FZ_REQUIRE(e->rhs->kind != E_ARRAY_INIT);
    break;
  case E_COND:
    fz_expr(w, e->cond);
    fz_expr(w, e->lhs);
    fz_expr(w, e->rhs);
    break;
  case E_CAST:
  case E_INSTANCEOF:
    fz_tref(&e->tref);
    fz_expr(w, e->target);
    break;
  case E_SWITCH:
    FZ_REQUIRE(e->sw != NULL && e->sw->kind == S_SWITCH && e->sw->is_expr);
    fz_stmt(w, e->sw);
    break;
  case E_LAMBDA:
    FZ_REQUIRE(e->nparams >= 0 && (e->nparams == 0 || e->params != NULL));
    for (int i = 0; i < e->nparams; i++) FZ_REQUIRE(e->params[i].name != NULL);
    FZ_REQUIRE(e->block == NULL || e->rhs == NULL);
    if (e->block) fz_stmt(w, e->block);
    if (e->rhs) fz_expr(w, e->rhs);
    break;
  case E_METHOD_REF:
    FZ_REQUIRE(e->target != NULL);
    fz_expr(w, e->target);
    if (e->tref.dims > 0) fz_tref(&e->tref);
    break;
  case E_CLASS_LIT:
    fz_tref(&e->tref);
    break;
  default:
    fz_fail("expression kind the parser never builds");
  }
  if (w->strict && e->kind != E_ARRAY_INIT) {
    for (int i = 0; i < e->nargs; i++) FZ_REQUIRE(e->args[i]->kind != E_ARRAY_INIT);
  }
}

static void fz_init(DrFuzzWalk *w, const DrExpr *e) {
  if (e) fz_expr(w, e);
}

static void fz_decls(DrFuzzWalk *w, const DrDeclarator *d, int n) {
  FZ_REQUIRE(n >= 1 && d != NULL);
  for (int i = 0; i < n; i++) {
    FZ_REQUIRE(d[i].name != NULL && d[i].extra_dims >= 0);
    fz_init(w, d[i].init);
  }
}

static void fz_stmt(DrFuzzWalk *w, const DrStmt *s) {
  FZ_REQUIRE(s != NULL);
  FZ_REQUIRE(s->pos.line >= 1);
  for (int i = 0; i < s->nstmts; i++) fz_stmt(w, s->stmts[i]);
  switch (s->kind) {
  case S_BLOCK: case S_EMPTY: case S_BREAK: case S_CONTINUE:
    break;
  case S_LOCAL:
    fz_tref(&s->tref);
    fz_decls(w, s->decls, s->ndecls);
    break;
  case S_EXPR: case S_THROW: case S_YIELD:
    fz_expr(w, s->expr);
    break;
  case S_IF:
    fz_expr(w, s->expr);
    fz_stmt(w, s->body);
    if (s->else_body) fz_stmt(w, s->else_body);
    break;
  case S_WHILE: case S_DO: case S_SYNC:
    fz_expr(w, s->expr);
    fz_stmt(w, s->body);
    break;
  case S_FOR:
    for (int i = 0; i < s->nstmts; i++) FZ_REQUIRE(s->stmts[i]->kind == S_LOCAL || s->stmts[i]->kind == S_EXPR);
    if (s->expr) fz_expr(w, s->expr);
    for (int i = 0; i < s->nupdates; i++) fz_expr(w, s->updates[i]);
    fz_stmt(w, s->body);
    break;
  case S_FOREACH:
    fz_tref(&s->tref);
    FZ_REQUIRE(s->ndecls == 1);
    fz_decls(w, s->decls, s->ndecls);
    FZ_REQUIRE(s->decls[0].init == NULL);
    fz_expr(w, s->expr);
    fz_stmt(w, s->body);
    break;
  case S_RETURN:
    if (s->expr) fz_expr(w, s->expr);
    break;
  case S_SWITCH:
    fz_expr(w, s->expr);
    for (int i = 0; i < s->ncases; i++) {
      const DrSwitchCase *c = &s->cases[i];
      if (w->strict) FZ_REQUIRE(c->nlabels > 0 || c->is_default);
      for (int j = 0; j < c->nlabels; j++) fz_expr(w, c->labels[j]);
      if (c->arrow) FZ_REQUIRE(c->nbody == 1);
      for (int j = 0; j < c->nbody; j++) fz_stmt(w, c->body[j]);
    }
    break;
  case S_TRY:
    fz_stmt(w, s->body);
    for (int i = 0; i < s->ncatches; i++) {
      const DrCatch *c = &s->catches[i];
      FZ_REQUIRE(c->ntypes >= 1 && c->name != NULL);
      for (int j = 0; j < c->ntypes; j++) fz_tref(&c->types[j]);
      fz_stmt(w, c->body);
    }
    if (s->finally_body) fz_stmt(w, s->finally_body);
    if (w->strict) FZ_REQUIRE(s->ncatches > 0 || s->finally_body);
    break;
  case S_ASSERT:
    fz_expr(w, s->expr);
    if (s->expr2) fz_expr(w, s->expr2);
    break;
  case S_CTOR_CALL:
    for (int i = 0; i < s->nargs; i++) fz_expr(w, s->args[i]);
    break;
  case S_CLASS:
    FZ_REQUIRE(s->class_decl != NULL);
    fz_class(w, s->class_decl);
    break;
  case S_LABELED:
    FZ_REQUIRE(s->label != NULL && s->body != NULL);
    fz_stmt(w, s->body);
    break;
  default:
    fz_fail("statement kind out of range");
  }
}

static void fz_class(DrFuzzWalk *w, const DrClassDecl *d) {
  FZ_REQUIRE(d->name != NULL);
  FZ_REQUIRE(d->sym == NULL);
  if (d->extends) fz_tref(d->extends);
  if (d->is_interface) FZ_REQUIRE(d->extends == NULL);
  for (int i = 0; i < d->nimplements; i++) fz_tref(&d->implements[i]);
  for (int i = 0; i < d->nmembers; i++) {
    const DrMember *m = &d->members[i];
    switch (m->kind) {
    case M_FIELD:
      fz_tref(&m->tref);
      fz_decls(w, m->decls, m->ndecls);
      break;
    case M_METHOD:
    case M_CTOR:
      FZ_REQUIRE(m->name != NULL);
      if (m->kind == M_METHOD) fz_tref(&m->ret);
      for (int j = 0; j < m->nparams; j++) {
        FZ_REQUIRE(m->params[j].name != NULL);
        fz_tref(&m->params[j].tref);
      }
      for (int j = 0; j < m->nthrows; j++) fz_tref(&m->throws[j]);
      if (m->body) {
        FZ_REQUIRE(m->body->kind == S_BLOCK);
        fz_stmt(w, m->body);
      }
      break;
    case M_INIT:
      FZ_REQUIRE(m->body != NULL && m->body->kind == S_BLOCK);
      fz_stmt(w, m->body);
      break;
    case M_CLASS:
      FZ_REQUIRE(m->nested != NULL && m->nested->outer == d);
      fz_class(w, m->nested);
      break;
    default:
      fz_fail("member kind out of range");
    }
  }
}

/* true when the parse reported no error */
static bool fz_one(const uint8_t *data, size_t size) {
  bool prelude_too = size > 0 && (data[0] & 1);
  /* a private copy: the parser must never read past len, which ASan
   * checks better without a NUL after the bytes */
  char *text = dr_xrealloc(NULL, size ? size : 1);
  if (size) memcpy(text, data, size);
  DrSource src = {.path = "<fuzz>", .text = text, .len = size};

  DrArena arena;
  dr_arena_init(&arena);
  DrDiagList diags;
  dr_diag_init(&diags);
  diags.src = &src;
  DrProgram prog;
  memset(&prog, 0, sizeof prog);

  int before = 0;
  bool ok = true;
  if (prelude_too) {
    ok = dr_parse(&arena, &diags, &src, true, &prog);
    before = prog.nclasses;
    for (int i = 0; i < prog.nclasses; i++) FZ_REQUIRE(prog.classes[i]->from_prelude);
  }
  bool ok2 = dr_parse(&arena, &diags, &src, false, &prog);
  FZ_REQUIRE(prog.nclasses >= before);
  for (int i = before; i < prog.nclasses; i++) FZ_REQUIRE(!prog.classes[i]->from_prelude); /* a package line is allowed */
  /* errors are reported iff the parse says so */
  FZ_REQUIRE((ok && ok2) == (diags.count == 0));
  for (int i = 0; i < diags.count; i++) FZ_REQUIRE(diags.items[i].line >= 1 && diags.items[i].col >= 1);

  DrFuzzWalk w = {ok && ok2};
  for (int i = 0; i < prog.nclasses; i++) {
    FZ_REQUIRE(prog.classes[i] != NULL && prog.classes[i]->outer == NULL);
    fz_class(&w, prog.classes[i]);
  }

  dr_diag_free(&diags);
  dr_arena_free(&arena);
  free(text);
  return w.strict;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_one(data, size);
  return 0;
}

#ifdef DR_FUZZ_MAIN
#define FZ_NAME "fuzz_parse"
#define FZ_CLEAN "parsed"
#include "fuzz_main.h"
#endif
