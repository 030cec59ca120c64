/* libFuzzer harness for the whole front end: the input is a user program,
 * compiled as `drvm check` does it (prelude + input through the parser,
 * the checker and, when checking succeeded, the emitter into a fresh VM).
 * Any bytes must end in either a loaded program or a list of clear
 * errors: never a crash, leak or hang, and never a failure without an
 * error (drvm would have nothing to tell the user).
 *
 * Build and run (from the repository root):
 *   make fuzz
 *   ./build-libfuzzer/fuzz/fuzz_check -max_len=4096 -timeout=10 corpus/
 * (seed corpus/ with the .dl files of tests/lang).
 *
 * Without libFuzzer, -DDR_FUZZ_MAIN builds a main() that runs the inputs
 * named on the command line, and with --mutate N also N deterministic
 * variants of each (see fuzz_main.h; `make fuzz-smoke` runs it). */
#include "../../compiler/compile.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what) {
  fprintf(stderr, "fuzz_check: invariant violated: %s\n", what);
  abort();
}

#define FZ_REQUIRE(cond)                                                      \
  do {                                                                        \
    if (!(cond)) fz_fail(#cond);                                              \
  } while (0)

/* true when the input compiled without error */
static bool fz_one(const uint8_t *data, size_t size) {
  /* a private copy without a NUL after the bytes: the lexer must never
   * read past len, and ASan sees it only if nothing follows */
  char *text = dr_xrealloc(NULL, size ? size : 1);
  if (size) memcpy(text, data, size);
  DrSource src = {"<fuzz>", text, size};

  DrVM vm;
  dr_vm_init(&vm);
  DrDiagList diags;
  dr_diag_init(&diags);
  DrClass *main_class = dr_compile(&vm, &src, &diags);

  /* a failure always says why */
  FZ_REQUIRE((main_class != NULL) == (diags.count == 0));
  /* lines end as in Java (JLS 3.4): LF, CR, or CR LF */
  int nlines = 1;
  for (size_t i = 0; i < size; i++)
    nlines += text[i] == '\n' || (text[i] == '\r' && (i + 1 == size || text[i + 1] != '\n'));
  for (int i = 0; i < diags.count; i++) {
    const DrDiag *d = &diags.items[i];
    /* the prelude is drvm's own code: no user program can break it */
    FZ_REQUIRE(d->src == &src);
    FZ_REQUIRE(d->line >= 1 && d->line <= nlines && d->col >= 1);
    FZ_REQUIRE(d->msg != NULL && d->msg[0] != '\0');
  }

  /* Printing the errors reads the source lines around each position.
   * drvm prints from dr_read_file's buffer, which ends in a NUL, so the
   * printer gets one here too. */
  if (diags.count) {
    char *text0 = dr_xrealloc(NULL, size + 1);
    if (size) memcpy(text0, data, size);
    text0[size] = '\0';
    src.text = text0;
    FILE *null = fopen("/dev/null", "w");
    if (null) {
      dr_diag_print(&diags, null);
      fclose(null);
    }
    free(text0);
  }

  dr_diag_free(&diags);
  dr_vm_free(&vm);
  free(text);
  return main_class != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_one(data, size);
  return 0;
}

#ifdef DR_FUZZ_MAIN
#define FZ_NAME "fuzz_check"
#define FZ_CLEAN "compiled"
#include "fuzz_main.h"
#endif
