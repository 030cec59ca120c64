/* libFuzzer harness for the files and option texts drvm reads besides
 * programs.  The first input byte chooses the format, the rest is the
 * file's text:
 *
 *   R  a schedule recording (drvm run --record / --replay): parsed as
 *      drvm_replay reads it, its seed read as drvm_recording_seed does,
 *      then replayed (fully or as a prefix) on tests/fuzz/bank.dl;
 *   M  DrFinder's may-trigger relations (--mtr-in / --mtr-out): parsed
 *      against bank.dl's methods and classes, written back and read
 *      again (the same set), then a drfinder run reads them;
 *   P  RaceFuzzer's race pairs (--potential-races, --race-pairs, drvm
 *      racefuzz): parsed, merged and written as drvm racefuzz does, the
 *      written file read back (the same pairs), then a racefuzzer run
 *      reads them;
 *   J  JSON (--report json=, --sched-report: what drvm hunt reads back
 *      from its children): parsed, looked into as hunt does, written with
 *      drvm's writer and read back (the same document);
 *   G  a challenge's goal comments (// goal: ..., drvm challenge, grade,
 *      explore): parsed, written back as text, matched against runs;
 *   O  scheduler and detector option texts (drvm_set_scheduler's
 *      "key=value ..."): four lines, scheduler name, its options,
 *      detector name, its options; parsed by the registries, each
 *      key=value checked alone, then a run with them on bank.dl (unless
 *      an option names a file: a fuzzer must not write files anywhere).
 *
 * Any other first byte picks one of these by its value.  Every parser
 * must either accept the text or say why; nothing may crash, leak or
 * hang.  The runs are bounded like fuzz_run's and their output dropped.
 *
 * A run that needs a file (drvm_replay, mtr-in=, race-pairs=) gets the
 * input in a temporary file, one per process, removed at exit.
 *
 * Build and run (from the repository root; docs/user-guide.md's
 * "Fuzzing" section has the campaign):
 *   make fuzz
 *   ./build-libfuzzer/fuzz/fuzz_files -dict=tests/fuzz/dl.dict -max_len=2048 -timeout=10 \
 *     work/ tests/fuzz/corpus/fuzz_files
 *
 * Without libFuzzer, -DDR_FUZZ_MAIN builds a main() that runs the inputs
 * named on the command line, and with --mutate N also N deterministic
 * variants of each (see fuzz_main.h; `make fuzz-smoke` runs it). */
#include "../../include/drvm.h"
#include "../../cli/goal.h"
#include "../../scheduler/sched_mtr.h"
#include "../../vm/json.h"
#include "../../vm/pairs.h"
#include "../../vm/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const char dr_fuzz_bank_source[]; /* tests/fuzz/bank.dl, generated */

static void fz_fail(const char *what) {
  fprintf(stderr, "fuzz_files: invariant violated: %s\n", what);
  abort();
}

#define FZ_REQUIRE(cond)                                                      \
  do {                                                                        \
    if (!(cond)) fz_fail(#cond);                                              \
  } while (0)

enum { FZ_MAX_STEPS = 20000, FZ_MAX_HEAP = 4 << 20, FZ_MAX_MEMORY = 64 << 20 };

static void fz_discard(void *user, const char *text, size_t len) {
  (void)user;
  (void)text;
  (void)len;
}

static uint64_t fz_hash(const uint8_t *data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

/* ------------------------------------------------------------ helpers */

/* A VM with bank.dl compiled, bounded, its output dropped. */
static DrVM *fz_bank(uint64_t seed) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.max_steps = FZ_MAX_STEPS;
  cfg.max_heap = FZ_MAX_HEAP;
  cfg.max_memory = FZ_MAX_MEMORY;
  cfg.seed = seed;
  cfg.write_out = cfg.write_err = fz_discard;
  DrVM *vm = drvm_new(&cfg, NULL, 0);
  FZ_REQUIRE(vm != NULL);
  FZ_REQUIRE(drvm_compile_string(vm, "bank.dl", dr_fuzz_bank_source, strlen(dr_fuzz_bank_source)));
  return vm;
}

/* bank.dl compiled once: the relations parser only reads the VM's
 * methods and classes, and compiling for every input would dwarf it. */
static DrVM *fz_bank_shared(void) {
  static DrVM *vm;
  if (!vm) vm = fz_bank(1);
  return vm;
}

/* The process's temporary file, removed at exit. */
static char fz_tmp[4096];

static void fz_tmp_remove(void) {
  if (fz_tmp[0]) unlink(fz_tmp);
}

/* Writes text to the temporary file and returns its path: a name
 * without spaces, commas or backslashes, which option texts would split
 * or escape.  NULL if it cannot be written (the run is skipped). */
static const char *fz_tmp_write(const char *text, size_t len) {
  if (!fz_tmp[0]) {
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir || strpbrk(dir, " ,\\")) dir = "/tmp";
    snprintf(fz_tmp, sizeof fz_tmp, "%s/drvm-fuzz-files-XXXXXX", dir);
    int fd = mkstemp(fz_tmp);
    if (fd < 0) {
      fz_tmp[0] = 0;
      return NULL;
    }
    close(fd);
    atexit(fz_tmp_remove);
  }
  FILE *f = fopen(fz_tmp, "wb");
  if (!f) return NULL;
  bool ok = fwrite(text, 1, len, f) == len;
  ok = fclose(f) == 0 && ok;
  return ok ? fz_tmp : NULL;
}

/* Runs a VM whose scheduler and detector are set, and checks the
 * outcome is one the API documents.  A file that does not fit bank.dl
 * is an error with a message, not a crash. */
static void fz_run(DrVM *vm) {
  DrvmResult r;
  int status = drvm_run(vm, 0, NULL, &r);
  if (status < 0) {
    FZ_REQUIRE(drvm_error(vm)[0] != '\0');
    return;
  }
  FZ_REQUIRE(status == r.exit_status);
  FZ_REQUIRE(r.outcome >= 0 && r.outcome < DRVM_OUTCOME__COUNT);
  FZ_REQUIRE(r.outcome != DRVM_OUTCOME_ERROR || drvm_error(vm)[0] != '\0');
}

/* ------------------------------------------------------------ recordings */

static bool fz_recording(const char *text, size_t len, uint64_t h) {
  if (!len) return false; /* fmemopen may refuse an empty buffer */
  FILE *in = fmemopen((void *)text, len, "r");
  FILE *warn = fopen("/dev/null", "w");
  if (!in || !warn) {
    if (in) fclose(in);
    if (warn) fclose(warn);
    return false;
  }
  uint64_t seed = 0;
  bool spurious;
  char err[512] = "";
  DrScheduler *s = dr_sched_replay_read(in, "fuzz.rec", "bank.dl", 0, &seed, &spurious, warn, err, sizeof err);
  fclose(in);
  fclose(warn);
  if (!s) {
    FZ_REQUIRE(err[0] != '\0');
    return false;
  }
  s->destroy(s);
  const char *path = fz_tmp_write(text, len);
  if (!path) return true;
  uint64_t seed2;
  FZ_REQUIRE(drvm_recording_seed(path, &seed2, err, sizeof err) && seed2 == seed);
  DrVM *vm = fz_bank(1);
  bool prefix = h & 1;
  if (drvm_replay(vm, path, prefix, &seed2)) {
    FZ_REQUIRE(seed2 == seed);
    FZ_REQUIRE(!prefix || drvm_set_scheduler(vm, (h >> 1) & 1 ? "pct" : "random", NULL));
    FZ_REQUIRE(drvm_set_detector(vm, "ft", NULL));
    fz_run(vm);
  } else {
    FZ_REQUIRE(drvm_error(vm)[0] != '\0');
  }
  drvm_free(vm);
  return true;
}

/* ------------------------------------------------------------ relations */

static bool fz_relations(const char *text, size_t len, uint64_t h) {
  DrVM *bank = fz_bank_shared();
  DrMtr m = {0};
  int unknown;
  char err[512] = "";
  bool ok = dr_mtr_parse(&m, bank, text, len, "fuzz.mtr", &unknown, err, sizeof err);
  FZ_REQUIRE(ok || err[0] != '\0');
  if (ok) {
    /* a drfinder run reads the file: Phase II */
    static const char *const opts[] = {"", "order=previous", "candidates=able", "escorts=2 depth=1"};
    const char *path = fz_tmp_write(text, len);
    if (path) {
      char o[4200];
      snprintf(o, sizeof o, "mtr-in=%s %s", path, opts[h % 4]);
      DrVM *vm = fz_bank(h % 1000003u);
      FZ_REQUIRE(drvm_set_scheduler(vm, "drfinder", o));
      FZ_REQUIRE(drvm_set_detector(vm, "ft", NULL));
      fz_run(vm);
      drvm_free(vm);
    }
    /* what --mtr-out writes, --mtr-in reads back as the same set */
    if (path && dr_mtr_save(&m, bank, path, err, sizeof err)) {
      DrMtr again = {0};
      FZ_REQUIRE(dr_mtr_load(&again, bank, path, &unknown, err, sizeof err));
      FZ_REQUIRE(unknown == 0 && again.count == m.count);
      dr_mtr_free(&again);
    }
  }
  dr_mtr_free(&m);
  return ok;
}

/* ------------------------------------------------------------ race pairs */

/* As drvm racefuzz merges its hybrid runs' files (cli/racefuzz.c). */
static void fz_pairs_merge(DrPairs *merged, DrPairs *one) {
  for (int k = 0; k < one->count; k++) dr_pairs_add(merged, one->items[k]);
  if (!merged->comment) merged->comment = one->comment, one->comment = NULL;
  free(one->items);
  free(one->comment);
  memset(one, 0, sizeof *one);
}

static bool fz_pairs(const char *text, size_t len, uint64_t h) {
  DrPairs ps = {0};
  char err[512] = "";
  bool ok = dr_pairs_parse(text, len, "fuzz.pairs", &ps, err, sizeof err);
  FZ_REQUIRE(ok || err[0] != '\0');
  int count = ps.count;
  DrPairs merged = {0};
  fz_pairs_merge(&merged, &ps);
  FZ_REQUIRE(merged.count <= count);
  /* what the merge writes reads back as the same pairs, in order */
  DrBuf out = {0};
  dr_pairs_write(&out, &merged);
  DrPairs back = {0};
  FZ_REQUIRE(dr_pairs_parse(out.data, out.len, "merged", &back, err, sizeof err));
  FZ_REQUIRE(back.count == merged.count);
  for (int i = 0; i < back.count; i++) FZ_REQUIRE(dr_pairs_index(&merged, &back.items[i]) == i);
  dr_pairs_free(&back);
  free(out.data);
  dr_pairs_free(&merged);
  if (!ok || count == 0) return ok;
  const char *path = fz_tmp_write(text, len);
  if (!path) return true;
  char o[4200];
  int pair = (int)(h % (uint64_t)(count + 1)); /* 0: every pair */
  if (pair) snprintf(o, sizeof o, "race-pairs=%s pair=%d", path, pair);
  else snprintf(o, sizeof o, "race-pairs=%s", path);
  DrVM *vm = fz_bank(h % 1000003u);
  FZ_REQUIRE(drvm_set_scheduler(vm, "racefuzzer", o));
  FZ_REQUIRE(drvm_set_detector(vm, "ft", NULL));
  fz_run(vm);
  drvm_free(vm);
  return true;
}

/* ------------------------------------------------------------ JSON */

/* Writes j with drvm's writer, member names and all. */
static void fz_json_write(DrJsonW *w, const char *key, const DrJson *j) {
  switch (j->kind) {
  case DR_JSON_NULL: dr_jw_null(w, key); break;
  case DR_JSON_BOOL: dr_jw_bool(w, key, j->num != 0); break;
  case DR_JSON_NUM: dr_jw_num(w, key, j->num); break;
  case DR_JSON_STR: dr_jw_str(w, key, j->str); break;
  case DR_JSON_ARR:
  case DR_JSON_OBJ: {
    bool obj = j->kind == DR_JSON_OBJ;
    dr_jw_begin(w, key, obj ? '{' : '[');
    for (int i = 0; i < j->count; i++) fz_json_write(w, obj ? j->keys[i] : NULL, &j->items[i]);
    dr_jw_end(w, obj ? '}' : ']');
    break;
  }
  }
}

/* The same document, but for what the writer cannot say: a number only
 * to 6 digits (a non-finite one as null), text only up to a NUL. */
static void fz_json_same(const DrJson *a, const DrJson *b) {
  if (a->kind == DR_JSON_NUM && !isfinite(a->num)) {
    FZ_REQUIRE(b->kind == DR_JSON_NULL);
    return;
  }
  FZ_REQUIRE(a->kind == b->kind && a->count == b->count);
  if (a->kind == DR_JSON_BOOL) FZ_REQUIRE(a->num == b->num);
  if (a->kind == DR_JSON_STR) FZ_REQUIRE(strcmp(a->str, b->str) == 0);
  for (int i = 0; i < a->count; i++) {
    if (a->kind == DR_JSON_OBJ) FZ_REQUIRE(strcmp(a->keys[i], b->keys[i]) == 0);
    fz_json_same(&a->items[i], &b->items[i]);
  }
}

static int fz_json_depth(const DrJson *j) {
  int d = 0;
  for (int i = 0; i < j->count; i++) {
    int k = fz_json_depth(&j->items[i]);
    if (k > d) d = k;
  }
  return d + (j->kind == DR_JSON_ARR || j->kind == DR_JSON_OBJ);
}

static bool fz_json(const char *text, size_t len) {
  DrJson j;
  char err[512] = "";
  if (!dr_json_parse(text, len, &j, err, sizeof err)) {
    FZ_REQUIRE(err[0] != '\0');
    return false;
  }
  /* as drvm hunt looks into a child's report */
  const DrJson *races = dr_json_get(&j, "races");
  for (int i = 0; races && races->kind == DR_JSON_ARR && i < races->count; i++) {
    (void)dr_json_get(&races->items[i], "predicted");
    const char *loc = dr_json_str(&races->items[i], "location");
    if (loc) free(dr_pairs_location(loc));
  }
  (void)dr_json_num(&j, "decisions", 0);
  /* the writer nests only so deep: drvm's own documents are shallow */
  if (fz_json_depth(&j) < DR_JSON_MAX_DEPTH - 1) {
    DrJsonW w = {0};
    fz_json_write(&w, NULL, &j);
    DrJson back;
    FZ_REQUIRE(dr_json_parse(w.buf.data, w.buf.len, &back, err, sizeof err));
    fz_json_same(&j, &back);
    dr_json_free(&back);
    free(w.buf.data);
  }
  dr_json_free(&j);
  return true;
}

/* ------------------------------------------------------------ goals */

static bool fz_goal(const char *text, size_t len) {
  DrGoal g;
  char err[512] = "";
  if (!dr_goal_parse("fuzz.dl", text, len, &g, err, sizeof err)) {
    FZ_REQUIRE(err[0] != '\0');
    return false;
  }
  if (g.present) {
    free(dr_goal_text(&g));
    /* runs that showed the input itself, and races on bank.dl's fields */
    char *shown = dr_strndup(text, len);
    const char *const races[] = {"Bank.audits", "Account.note", "Teller$X.y"};
    DrGoalView v = {shown, shown, races, 3, true, DRVM_OUTCOME_DEADLOCK};
    (void)dr_goal_reached(&g, &v);
    DrGoalView quiet = {"", "", NULL, 0, false, DRVM_OUTCOME_NORMAL};
    (void)dr_goal_reached(&g, &quiet);
    free(shown);
  }
  dr_goal_free(&g);
  return true;
}

/* ------------------------------------------------------------ options */

/* Line i (0-based) of text as a string (malloc'd; "" past the end). */
static char *fz_line(const char *text, size_t len, int i) {
  size_t at = 0;
  for (; i > 0 && at < len; i--) {
    const char *nl = memchr(text + at, '\n', len - at);
    at = nl ? (size_t)(nl - text) + 1 : len;
  }
  const char *nl = memchr(text + at, '\n', len - at);
  return dr_strndup(text + at, nl ? (size_t)(nl - text) - at : len - at);
}

/* Each "key=value" of an option text checked alone, as a command line
 * checks the values it parses. */
static void fz_option_words(const char *opts, bool sched) {
  char *copy = dr_strdup(opts);
  char err[512];
  for (char *w = strtok(copy, " ,"); w; w = strtok(NULL, " ,")) {
    char *eq = strchr(w, '=');
    if (eq) *eq = 0;
    err[0] = 0;
    bool ok = sched ? drvm_scheduler_option_check(w, eq ? eq + 1 : NULL, err, sizeof err)
                    : drvm_detector_option_check(w, eq ? eq + 1 : NULL, err, sizeof err);
    FZ_REQUIRE(ok || err[0] != '\0');
  }
  free(copy);
}

/* Whether an option text might name a file: those options are not run. */
static bool fz_names_file(const char *opts) {
  if (strchr(opts, '\\')) return true; /* an escaped key */
  for (int i = 0; i < drvm_scheduler_option_count(); i++) {
    const DrvmEntry *e = drvm_scheduler_option(i);
    if (e->arg && !strcmp(e->arg, "FILE") && strstr(opts, e->name)) return true;
  }
  for (int i = 0; i < drvm_detector_option_count(); i++) {
    const DrvmEntry *e = drvm_detector_option(i);
    if (e->arg && !strcmp(e->arg, "FILE") && strstr(opts, e->name)) return true;
  }
  return false;
}

static bool fz_options(const char *text, size_t len, uint64_t h) {
  if (memchr(text, '\0', len)) return false; /* a C string cannot hold one */
  char *sname = fz_line(text, len, 0), *sopts = fz_line(text, len, 1);
  char *dname = fz_line(text, len, 2), *dopts = fz_line(text, len, 3);
  DrStrPool pool = {0};
  char err[512] = "";
  uint64_t given, run;
  DrScheduler *s = dr_reg_sched_new(sname, sopts, 7, NULL, &given, &run, &pool, err, sizeof err);
  bool sched_ok = s != NULL;
  FZ_REQUIRE(sched_ok || err[0] != '\0');
  if (s) s->destroy(s);
  err[0] = 0;
  bool det_ok = dr_reg_det_check(dname, dopts, &pool, err, sizeof err);
  FZ_REQUIRE(det_ok || err[0] != '\0');
  dr_str_pool_free(&pool);
  fz_option_words(sopts, true);
  fz_option_words(dopts, false);
  if (sched_ok && det_ok && !fz_names_file(sopts) && !fz_names_file(dopts)) {
    DrVM *vm = fz_bank(h % 1000003u);
    /* the API's own checks may still refuse (e.g. racefuzzer without pairs) */
    if (drvm_set_scheduler(vm, sname, sopts) && drvm_set_detector(vm, dname, dopts)) fz_run(vm);
    drvm_free(vm);
  }
  free(sname);
  free(sopts);
  free(dname);
  free(dopts);
  return sched_ok && det_ok;
}

/* ------------------------------------------------------------ dispatch */

static const char fz_formats[] = "RMPJGO";

/* true when the file was accepted (parsed without error) */
static bool fz_one(const uint8_t *data, size_t size) {
  if (size == 0) return false;
  const char *f = strchr(fz_formats, data[0]);
  char format = f && data[0] ? *f : fz_formats[data[0] % (sizeof fz_formats - 1)];
  /* a private copy: the parsers must not read past len, which ASan
   * checks better without a NUL after the bytes */
  size_t len = size - 1;
  char *text = malloc(len ? len : 1);
  FZ_REQUIRE(text != NULL);
  if (len) memcpy(text, data + 1, len);
  uint64_t h = fz_hash(data, size);
  bool ok;
  switch (format) {
  case 'R': ok = fz_recording(text, len, h); break;
  case 'M': ok = fz_relations(text, len, h); break;
  case 'P': ok = fz_pairs(text, len, h); break;
  case 'J': ok = fz_json(text, len); break;
  case 'G': ok = fz_goal(text, len); break;
  default: ok = fz_options(text, len, h); break;
  }
  free(text);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_one(data, size);
  return 0;
}

#ifdef DR_FUZZ_MAIN
#define FZ_NAME "fuzz_files"
#define FZ_CLEAN "read"
#include "fuzz_main.h"
#endif
