/* The type checker on small programs (parsed together with the prelude):
 * the annotations the emitter relies on (resolved names, E_CONVERT nodes,
 * folded constants, call kinds, locals) and javac's error wording. */
#include <string.h>

#include "../../compiler/compile.h"
#include "check.h"

typedef struct {
  DrArena arena;
  DrDiagList diags;
  DrProgram prog;
  DrTypes types;
  DrSource prelude, src;
  bool ok;
} Compiled;

static void compile(Compiled *c, const char *text) {
  memset(c, 0, sizeof(*c));
  dr_arena_init(&c->arena);
  dr_diag_init(&c->diags);
  c->prelude = (DrSource){"<prelude>", dr_prelude_source, strlen(dr_prelude_source), NULL};
  c->src = (DrSource){"test.dl", text, strlen(text), NULL};
  c->diags.src = &c->prelude;
  bool ok = dr_parse(&c->arena, &c->diags, &c->prelude, true, &c->prog);
  c->diags.src = &c->src;
  ok = dr_parse(&c->arena, &c->diags, &c->src, false, &c->prog) && ok;
  c->ok = ok && dr_check(&c->arena, &c->diags, &c->types, &c->prog);
}

static void release(Compiled *c) {
  dr_arena_free(&c->arena);
  dr_diag_free(&c->diags);
}

/* Whether an error containing msg was reported at line. */
static bool has_error(Compiled *c, int line, const char *msg) {
  for (int i = 0; i < c->diags.count; i++)
    if (c->diags.items[i].line == line && strstr(c->diags.items[i].msg, msg)) return true;
  return false;
}

static DrClassDecl *user_class(Compiled *c, const char *name) {
  for (int i = 0; i < c->prog.nclasses; i++)
    if (!c->prog.classes[i]->from_prelude && strcmp(c->prog.classes[i]->name, name) == 0) return c->prog.classes[i];
  return NULL;
}

static DrMember *member(DrClassDecl *d, const char *name) {
  for (int i = 0; d && i < d->nmembers; i++) {
    DrMember *m = &d->members[i];
    if (m->kind == M_FIELD && m->ndecls > 0 && strcmp(m->decls[0].name, name) == 0) return m;
    if ((m->kind == M_METHOD || m->kind == M_CTOR) && m->name && strcmp(m->name, name) == 0) return m;
  }
  return NULL;
}

static void test_prelude_and_main(DrCheck *t) {
  Compiled c;
  compile(&c, "public class Main { public static void main(String[] args) { System.out.println(1); } }");
  if (!c.ok) dr_diag_print(&c.diags, stderr);
  CHECK(t, c.ok && c.diags.count == 0);
  DrClassDecl *d = user_class(&c, "Main");
  CHECK(t, d && d->sym && strcmp(d->sym->binary_name, "Main") == 0 && d->sym->clinit && d->sym->instance_init);
  release(&c);
  compile(&c, "class NoMain { static void main(String[] args) {} }");
  CHECK(t, !c.ok && has_error(&c, 1, "has no method 'public static void main(String[] args)'"));
  release(&c);
}

static void test_constants(DrCheck *t) {
  Compiled c;
  compile(&c,
          "public class K {\n"
          "  static final String S = \"a\" + 1 + 'c' + 2.5 + true + (1L << 65);\n"
          "  static final int I = (int) 1e20 + B;\n"
          "  static final int B = 1;\n"
          "  static final char C = 'a' + 1;\n"
          "  static final int D = 1 / 0;\n"
          "  public static void main(String[] args) {}\n"
          "}\n");
  CHECK(t, !c.ok && has_error(&c, 3, "illegal forward reference"));
  DrClassDecl *d = user_class(&c, "K");
  DrFieldSym *s = member(d, "S")->field_syms[0];
  const char *want = "a1c2.5true2";
  bool same = s->is_const && s->cval.slen == (int)strlen(want);
  for (int i = 0; same && want[i]; i++) same = s->cval.s[i] == (uint16_t)want[i];
  CHECK(t, same);
  DrFieldSym *ch = member(d, "C")->field_syms[0];
  CHECK(t, ch->is_const && ch->cval.kind == TY_CHAR && ch->cval.i == 'b');
  CHECK(t, !member(d, "D")->field_syms[0]->is_const); /* division by zero throws at run time */
  release(&c);
}

static void test_annotations(DrCheck *t) {
  Compiled c;
  compile(&c,
          "public class A {\n"
          "  int f;\n"
          "  static void take(long x) {}\n"
          "  int get() { return f; }\n"
          "  public static void main(String[] args) {\n"
          "    int i = 3;\n"
          "    take(i);\n"
          "    char ch = 'x';\n"
          "    ch += 1;\n"
          "    long big = i << 2L;\n"
          "    A a = new A();\n"
          "    Runnable r = null;\n"
          "    r.run();\n"
          "    for (int v : new int[] {1, 2}) { i += v; }\n"
          "  }\n"
          "}\n");
  if (!c.ok) dr_diag_print(&c.diags, stderr);
  CHECK(t, c.ok);
  DrClassDecl *d = user_class(&c, "A");
  DrMember *main = member(d, "main");
  DrStmt **st = main->body->stmts;
  /* take(i): the int argument widened to long */
  DrExpr *call = st[1]->expr;
  CHECK(t, call->kind == E_CALL && call->call_kind == DR_CALL_STATIC && call->args[0]->kind == E_CONVERT &&
               call->args[0]->type->kind == TY_LONG && call->args[0]->target->kind == E_LOCAL);
  /* ch += 1: done in int, value already an int */
  DrExpr *asg = st[3]->expr;
  CHECK(t, asg->kind == E_ASSIGN && asg->op == DR_BIN_ADD && asg->op_type->kind == TY_INT &&
               asg->type->kind == TY_CHAR);
  /* i << 2L: int shift, the count converted to int, then widened */
  DrExpr *init = st[4]->decls[0].init;
  CHECK(t, init->kind == E_CONVERT && init->target->kind == E_BINARY && init->target->op_type->kind == TY_INT &&
               init->target->rhs->type->kind == TY_INT);
  DrExpr *run = st[7]->expr;
  CHECK(t, run->kind == E_CALL && run->call_kind == DR_CALL_INTERFACE);
  DrStmt *fe = st[8];
  CHECK(t, fe->kind == S_FOREACH && fe->hidden_array && fe->hidden_index && fe->decls[0].sym);
  /* every local is in main's locals, args first */
  DrMethodSym *m = main->method;
  CHECK(t, m->nlocals >= 8 && strcmp(m->locals[0]->name, "args") == 0 && m->locals[1]->index == 1);
  /* return f: an implicit this */
  DrExpr *ret = member(d, "get")->body->stmts[0]->expr;
  CHECK(t, ret->kind == E_FIELD && ret->target && ret->target->kind == E_THIS);
  release(&c);
}

static void test_errors(DrCheck *t) {
  Compiled c;
  compile(&c,
          "public class E {\n"
          "  static int f(int x) {\n"
          "    if (x > 0) return 1;\n"
          "  }\n"
          "  public static void main(String[] args) {\n"
          "    int y;\n"
          "    System.out.println(y);\n"
          "    String s = 5;\n"
          "    int z = 1.5;\n"
          "    return;\n"
          "    f(1);\n"
          "  }\n"
          "}\n");
  CHECK(t, !c.ok);
  CHECK(t, has_error(&c, 4, "missing return statement"));
  CHECK(t, has_error(&c, 7, "variable y might not have been initialized"));
  CHECK(t, has_error(&c, 8, "incompatible types: int cannot be converted to String"));
  CHECK(t, has_error(&c, 9, "incompatible types: possible lossy conversion from double to int"));
  CHECK(t, has_error(&c, 11, "unreachable statement"));
  release(&c);
}

int main(void) {
  DrCheck t = {0, 0};
  test_prelude_and_main(&t);
  test_constants(&t);
  test_annotations(&t);
  test_errors(&t);
  return CHECK_DONE(&t);
}
