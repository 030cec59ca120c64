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
#include "../../include/drvm.h"
#include "../../vm/common.h" /* dr_xrealloc, dr_read_file: fuzz_main.h's */

#include <stdlib.h>
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

/* true when the input compiled without error.  Through the embedding API,
 * as every host compiles (include/drvm.h). */
static bool fz_one(const uint8_t *data, size_t size) {
  DrVM *vm = drvm_new(NULL, NULL, 0);
  FZ_REQUIRE(vm != NULL);
  bool ok = drvm_compile_string(vm, "<fuzz>", (const char *)data, size);
  int n = drvm_diag_count(vm);
  /* a failure always says why: errors, or for NUL bytes (no text file,
   * refused before the lexer) a message alone */
  if (memchr(data, '\0', size)) FZ_REQUIRE(!ok && n == 0 && strstr(drvm_error(vm), "NUL") != NULL);
  else FZ_REQUIRE(ok == (n == 0));
  FZ_REQUIRE(ok || drvm_error(vm)[0] != '\0');
  /* lines end as in Java (JLS 3.4): LF, CR, or CR LF */
  int nlines = 1;
  for (size_t i = 0; i < size; i++)
    nlines += data[i] == '\n' || (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n'));
  for (int i = 0; i < n; i++) {
    DrvmDiag d;
    FZ_REQUIRE(drvm_diag(vm, i, &d));
    /* the prelude is drvm's own code: no user program can break it */
    FZ_REQUIRE(strcmp(d.file, "<fuzz>") == 0);
    FZ_REQUIRE(d.line >= 1 && d.line <= nlines && d.col >= 1);
    FZ_REQUIRE(d.message != NULL && d.message[0] != '\0');
    FZ_REQUIRE(d.source_line != NULL && !strchr(d.source_line, '\n'));
  }
  if (n) { /* printing reads the source lines around each position */
    FILE *null = fopen("/dev/null", "w");
    if (null) {
      drvm_print_diags(vm, null);
      fclose(null);
    }
  }
  drvm_free(vm);
  return ok;
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
