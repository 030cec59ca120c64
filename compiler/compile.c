/* The compiler driver: prelude + the user's files -> parse -> check ->
 * emit -> link.  Errors in the prelude are drvm's own bugs and reported
 * as such. */
#include "compile.h"

#include <string.h>

DrClass *dr_compile_units(DrVM *vm, const DrSource *srcs, int nsrcs, const char *main_given, DrDiagList *diags) {
  DrArena arena;
  dr_arena_init(&arena);
  DrProgram prog;
  memset(&prog, 0, sizeof prog);
  prog.main_given = main_given;
  DrTypes types;
  memset(&types, 0, sizeof types);
  DrSource prelude = {"<prelude>", dr_prelude_source, strlen(dr_prelude_source), "prelude.dl"};
  DrClass *main_class = NULL;

  diags->src = &prelude;
  bool ok = dr_parse(&arena, diags, &prelude, true, &prog);
  int nprelude = prog.nclasses;
  for (int i = 0; i < nsrcs; i++) {
    diags->src = &srcs[i];
    ok = dr_parse(&arena, diags, &srcs[i], false, &prog) && ok;
  }
  if (ok && prog.nclasses == nprelude) {
    diags->src = nsrcs ? &srcs[0] : NULL;
    dr_error(diags, (DrPos){1, 1}, "no class declared: a program needs a class with 'public static void main(String[] args)'");
    ok = false;
  }
  if (ok) ok = dr_check(&arena, diags, &types, &prog);
  if (ok && diags->count == 0) {
    main_class = dr_emit(vm, &arena, &types, &prog);
    if (main_class && !dr_vm_link(vm)) main_class = NULL;
  }
  dr_arena_free(&arena);
  return diags->count ? NULL : main_class;
}

DrClass *dr_compile(DrVM *vm, const DrSource *src, DrDiagList *diags) {
  return dr_compile_units(vm, src, 1, NULL, diags);
}
