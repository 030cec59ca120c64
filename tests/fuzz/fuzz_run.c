/* libFuzzer harness for running programs: the input is a user program,
 * compiled through the embedding API and, if it compiles, run twice as a
 * host would run it (include/drvm.h):
 *
 *   1. the random scheduler and FastTrack ("ft"), seeded by the input;
 *   2. after drvm_reset (compile once, run many), a scheduler and another
 *      detector both chosen by the input's hash: djit, hybrid, eraser,
 *      basicvc or wcp, under random, pct, rr, contest, drfinder or native.
 *
 * Every run is bounded (max_steps, max_heap, max_memory) and its output
 * thrown away.  Threads, races, deadlocks, uncaught exceptions, step and
 * memory limits are all fine outcomes; a crash, a leak, a hang or a run
 * that ends without an outcome the API documents is not.
 *
 * Programs that declare native methods, or may call System.load or
 * loadLibrary, are compiled but not run: they call C (libc's abort, exit,
 * free...), which is the program's doing, not drvm's, and a fuzzer
 * would soon find it.
 *
 * Build and run (from the repository root; docs/user-guide.md's
 * "Fuzzing" section has the campaign):
 *   make fuzz
 *   ./build-libfuzzer/fuzz/fuzz_run -dict=tests/fuzz/dl.dict -max_len=4096 -timeout=10 \
 *     work/ tests/fuzz/corpus/fuzz_run tests/threads tests/races
 *
 * Without libFuzzer, -DDR_FUZZ_MAIN builds a main() that runs the inputs
 * named on the command line, and with --mutate N also N deterministic
 * variants of each (see fuzz_main.h; `make fuzz-smoke` runs it). */
#include "../../include/drvm.h"
#include "../../vm/vm.h" /* the compiled methods, to find native ones; dr_xrealloc for fuzz_main.h */

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what) {
  fprintf(stderr, "fuzz_run: invariant violated: %s\n", what);
  abort();
}

#define FZ_REQUIRE(cond)                                                      \
  do {                                                                        \
    if (!(cond)) fz_fail(#cond);                                              \
  } while (0)

/* Small enough that a runaway program ends in well under a second even
 * under the sanitizers; large enough for every test program. */
enum {
  FZ_MAX_STEPS = 20000,
  FZ_MAX_HEAP = 4 << 20,
  FZ_MAX_MEMORY = 64 << 20,
};

static void fz_discard(void *user, const char *text, size_t len) {
  (void)user;
  (void)text;
  (void)len;
}

/* FNV-1a: the input decides its seeds and choices, so a crash repeats. */
static uint64_t fz_hash(const uint8_t *data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

static bool fz_ident_char(uint8_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c >= 0x80;
}

/* Whether the source has word as a whole identifier. */
static bool fz_has_word(const uint8_t *data, size_t size, const char *word) {
  size_t n = strlen(word);
  for (size_t i = 0; i + n <= size; i++)
    if (!memcmp(data + i, word, n) && (i == 0 || !fz_ident_char(data[i - 1])) &&
        (i + n == size || !fz_ident_char(data[i + n])))
      return true;
  return false;
}

/* Whether the program can reach C code of its choosing. */
static bool fz_calls_c(const DrVM *vm, const uint8_t *data, size_t size) {
  for (int i = 0; i < vm->nmethods; i++) {
    const DrMethod *m = vm->methods[i];
    if (m && (m->flags & DR_M_NATIVE) && !(m->owner->flags & DR_CLS_BUILTIN)) return true;
  }
  /* the call's name is in the source: DL has no unicode escapes outside
   * literals and no reflection */
  return fz_has_word(data, size, "load") || fz_has_word(data, size, "loadLibrary");
}

/* One run to its end, with checks of what the API promises about it. */
static void fz_run(DrVM *vm, const char *sched, const char *det) {
  FZ_REQUIRE(drvm_set_scheduler(vm, sched, NULL));
  FZ_REQUIRE(drvm_set_detector(vm, det, NULL));
  DrvmResult r;
  int status = drvm_run(vm, 0, NULL, &r);
  FZ_REQUIRE(status == r.exit_status);
  FZ_REQUIRE(r.outcome >= 0 && r.outcome < DRVM_OUTCOME__COUNT);
  /* nothing about these settings can fail to start */
  FZ_REQUIRE(r.outcome != DRVM_OUTCOME_ERROR || drvm_error(vm)[0] != '\0');
  FZ_REQUIRE(r.outcome != DRVM_OUTCOME_INTERRUPTED && r.outcome != DRVM_OUTCOME_REPLAY_DIVERGED);
  FZ_REQUIRE(r.threads >= 1 && r.races >= 0 && r.uncaught >= 0);
  FZ_REQUIRE(r.steps <= FZ_MAX_STEPS + 1 || r.outcome == DRVM_OUTCOME_STEP_LIMIT);
  for (int i = 0; i < drvm_race_count(vm); i++) {
    DrvmRace race;
    FZ_REQUIRE(drvm_race(vm, i, &race));
    FZ_REQUIRE(race.location && race.text);
  }
}

static const char *const fz_scheds[] = {"random", "pct", "rr", "contest", "drfinder", "native"};
static const char *const fz_dets[] = {"djit", "hybrid", "eraser", "basicvc", "wcp"};

/* true when the input compiled and ran */
static bool fz_one(const uint8_t *data, size_t size) {
  uint64_t h = fz_hash(data, size);
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.max_steps = FZ_MAX_STEPS;
  cfg.max_heap = FZ_MAX_HEAP;
  cfg.max_memory = FZ_MAX_MEMORY;
  cfg.seed = h % 1000003u;
  cfg.spurious_wakeups = (h >> 20) & 1;
  cfg.write_out = cfg.write_err = fz_discard;
  cfg.source_name = "fuzz.dl";
  DrVM *vm = drvm_new(&cfg, NULL, 0);
  FZ_REQUIRE(vm != NULL);
  bool ok = drvm_compile_string(vm, "fuzz.dl", (const char *)data, size) && !fz_calls_c(vm, data, size);
  if (ok) {
    fz_run(vm, "random", "ft");
    FZ_REQUIRE(drvm_reset(vm));
    size_t ns = sizeof fz_scheds / sizeof fz_scheds[0], nd = sizeof fz_dets / sizeof fz_dets[0];
    fz_run(vm, fz_scheds[(h >> 8) % ns], fz_dets[(h >> 16) % nd]);
  }
  drvm_free(vm);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_one(data, size);
  return 0;
}

#ifdef DR_FUZZ_MAIN
#define FZ_NAME "fuzz_run"
#define FZ_CLEAN "ran"
#include "fuzz_main.h"
#endif
