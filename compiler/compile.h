/* The compiler's entry points, one per pass, and the driver that chains
 * them.  Each pass reports into a DrDiagList and returns false when it
 * recorded an error. */
#ifndef DR_COMPILE_H
#define DR_COMPILE_H

#include "ast.h"
#include "diag.h"
#include "../vm/vm.h"

/* parser.c: parses src and appends its top-level classes to prog.
 * prelude = true marks drvm's own library source (it may declare
 * `package`-less java.lang classes and native methods bound to C). */
bool dr_parse(DrArena *arena, DrDiagList *diags, const DrSource *src, bool prelude, DrProgram *prog);

/* checker.c: resolves names and types of the whole program, annotates the
 * AST (see ast.h), and enforces Java's static rules for the DL subset.
 * Sets prog->main_decl: the class named by prog->main_given, else (one
 * file) its first class, as `java prog.java` runs it, else (several
 * files) the one class that declares public static void main(String[]),
 * as `javac *.java && java Main` would be asked to. */
bool dr_check(DrArena *arena, DrDiagList *diags, DrTypes *types, DrProgram *prog);

/* emit.c: builds the runtime classes and methods in vm from a checked
 * program and returns the runtime class of prog->main_decl. */
DrClass *dr_emit(DrVM *vm, DrArena *arena, DrTypes *types, DrProgram *prog);

/* compile.c: prelude + the user's files -> loaded, linked program in vm.
 * main_given (--main, a qualified class name) or NULL: the class that
 * declares main (dr_check).  Returns the main class, or NULL after
 * recording errors in diags. */
DrClass *dr_compile_units(DrVM *vm, const DrSource *srcs, int nsrcs, const char *main_given, DrDiagList *diags);
/* One file. */
DrClass *dr_compile(DrVM *vm, const DrSource *src, DrDiagList *diags);

/* The prelude's source text (generated from vm/prelude.dl). */
extern const char dr_prelude_source[];

#endif
