/* Confirming predicted races (confirm.h).  A prediction is a pair of
 * statements on one location; RaceFuzzer's scheduler with that pair
 * (--sched racefuzzer --race-pairs FILE --pair 1) postpones whichever
 * thread reaches one of them first until another thread is about to
 * execute the other on the same location, which is the order WCP says
 * exists.  FastTrack watches with --all-races, so any report of that
 * pair counts, not only the first on the field.  Each attempt has its
 * own seed, derived from the run's, so confirmations are reproducible;
 * the program's output in these runs is not shown. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../vm/pairs.h"
#include "confirm.h"
#include "program.h"

enum { DR_CONFIRM_DEFAULT = 3 };

void dr_predictions_collect(DrVM *vm, DrPredictions *out) {
  int n = drvm_race_count(vm);
  for (int i = 0; i < n; i++) {
    DrvmRace r;
    if (!drvm_race(vm, i, &r) || !r.predicted || !r.statement || !r.prev_statement) continue;
    DrPrediction p;
    p.location = dr_strdup(r.location);
    p.field = dr_pairs_location(r.location);
    p.stmt = dr_strdup(r.statement);
    p.prev_stmt = dr_strdup(r.prev_statement);
    DR_PUSH(out->items, out->n, out->cap, p);
  }
}

void dr_predictions_free(DrPredictions *p) {
  for (int i = 0; i < p->n; i++)
    free(p->items[i].location), free(p->items[i].field), free(p->items[i].stmt), free(p->items[i].prev_stmt);
  free(p->items);
  memset(p, 0, sizeof *p);
}

static void discard(void *user, const char *text, size_t len) { (void)user, (void)text, (void)len; }

/* The pairs file of one prediction. */
static bool write_pair(const char *path, const DrPrediction *p) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "# drvm predicted race (wcp), to confirm\n%s\t%s\t%s\n", p->field, p->stmt, p->prev_stmt);
  return fclose(f) == 0;
}

/* Two statements on the same source line of the same method: a race's
 * id (field@file:line,file:line) does not tell them apart either, and
 * the other order may reach the line by another branch (another pc). */
static bool same_line(const char *a, const char *b) {
  const char *pa = strrchr(a, ' '), *pb = strrchr(b, ' ');
  if (!pa || !pb || strcmp(pa, pb) != 0) return false;
  const char *ma = pa, *mb = pb; /* back over " PC" to the method's end */
  while (ma > a && ma[-1] != ' ') ma--;
  while (mb > b && mb[-1] != ' ') mb--;
  return ma - a == mb - b && !strncmp(a, b, (size_t)(ma - a));
}

static bool same_pair(const DrvmRace *r, const DrPrediction *p) {
  if (!r->statement || !r->prev_statement) return false;
  return (same_line(r->statement, p->stmt) && same_line(r->prev_statement, p->prev_stmt)) ||
         (same_line(r->statement, p->prev_stmt) && same_line(r->prev_statement, p->stmt));
}

static uint64_t attempt_seed(uint64_t seed, int race, int attempt) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(race * 1000 + attempt);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) % 1000000007ull;
}

/* One steered run; the FastTrack report that confirms p (malloc'd), or
 * NULL.  *failed: the run could not be set up (said why). */
static char *steer(const DrRun *r, const DrPrediction *p, const char *pairs, const char *rec, uint64_t seed,
                   bool *failed) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  dr_ro_vm_config(&r->o, &cfg);
  cfg.seed = seed;
  cfg.write_out = cfg.write_err = discard;
  char *words = dr_prog_words(&r->o);
  char *rerun = dr_fmt("drvm run --replay %s %s", rec, words);
  free(words);
  cfg.rerun = rerun;
  char err[600];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  free(rerun);
  *failed = vm == NULL;
  if (!vm) {
    fprintf(stderr, "drvm: %s\n", err);
    return NULL;
  }
  DrBuf so = {0};
  dr_ro_option_item(&so, "race-pairs", pairs);
  dr_ro_option_item(&so, "pair", "1");
  char sb[32];
  snprintf(sb, sizeof sb, "%llu", (unsigned long long)seed);
  dr_ro_option_item(&so, "seed", sb);
  char *found = NULL;
  bool ok = dr_prog_compile(vm, &r->files) && drvm_set_scheduler(vm, "racefuzzer", so.data) &&
            drvm_set_detector(vm, "ft", "all-races quiet") && drvm_record(vm, rec) &&
            drvm_start(vm, r->o.nargs, (const char *const *)r->o.args) && drvm_run_to_end(vm);
  if (!ok) {
    fprintf(stderr, "drvm: confirming a race on %s: %s\n", p->location, drvm_error(vm));
    *failed = true;
  }
  for (int i = 0; ok && !found && i < drvm_race_count(vm); i++) {
    DrvmRace race;
    if (drvm_race(vm, i, &race) && same_pair(&race, p)) found = dr_strdup(race.text);
  }
  if (ok) drvm_finish(vm, NULL);
  drvm_free(vm);
  free(so.data);
  if (!found) remove(rec);
  return found;
}

static char *witness_dir(const DrRun *r) {
  if (dr_ro_given(&r->o, DR_RO_WITNESS_DIR)) {
    const char *d = dr_ro_get(&r->o, DR_RO_WITNESS_DIR);
    if (mkdir(d, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "drvm: cannot make %s: %s\n", d, strerror(errno));
      return NULL;
    }
    return dr_strdup(d);
  }
  const char *tmp = getenv("TMPDIR");
  char *templ = dr_fmt("%s/drvm-witness-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(templ)) {
    fprintf(stderr, "drvm: cannot make a directory like %s: %s\n", templ, strerror(errno));
    free(templ);
    return NULL;
  }
  return templ;
}

int dr_confirm(const DrRun *r, const DrPredictions *p, int *confirmed) {
  *confirmed = 0;
  int tries = dr_ro_given(&r->o, DR_RO_CONFIRM) ? (int)dr_ro_num(&r->o, DR_RO_CONFIRM) : DR_CONFIRM_DEFAULT;
  if (!p->n || tries == 0) return 0;
  char *dir = witness_dir(r);
  if (!dir) return DRVM_EXIT_USAGE;
  fprintf(stderr, "drvm: confirming %d predicted race%s: up to %d steered run%s each (RaceFuzzer on the two "
                  "statements, FastTrack watching)\n",
          p->n, p->n == 1 ? "" : "s", tries, tries == 1 ? "" : "s");
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int runs = 0, st = 0;
  for (int i = 0; i < p->n && !st; i++) {
    const DrPrediction *pr = &p->items[i];
    char *pairs = dr_fmt("%s/race-%d.pairs", dir, i + 1), *rec = dr_fmt("%s/race-%d.rec", dir, i + 1);
    if (!write_pair(pairs, pr)) {
      fprintf(stderr, "drvm: cannot write %s\n", pairs);
      st = DRVM_EXIT_USAGE;
    }
    char *report = NULL;
    int a = 1;
    for (; !st && !report && a <= tries; a++) {
      bool failed;
      runs++;
      report = steer(r, pr, pairs, rec, attempt_seed(r->seed, i + 1, a), &failed);
      if (failed) st = DRVM_EXIT_USAGE;
    }
    if (report) {
      fprintf(stderr, "drvm: the predicted race on %s is real: steered run %d made it happen; its witness "
                      "replays with `drvm run --replay %s %s`\n%s",
              pr->location, a - 1, rec, r->o.prog, report);
      ++*confirmed;
    } else if (!st) {
      fprintf(stderr, "drvm: the predicted race on %s (%s / %s) did not happen in %d steered run%s: not confirmed "
                      "(in the other order a thread may take another path)\n",
              pr->location, pr->stmt, pr->prev_stmt, tries, tries == 1 ? "" : "s");
    }
    if (!report) remove(pairs);
    free(report), free(pairs), free(rec);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  if (!st)
    fprintf(stderr, "drvm: wcp: %d of %d predicted race%s confirmed in %d steered run%s (%.2f s)%s%s\n", *confirmed,
            p->n, p->n == 1 ? "" : "s", runs, runs == 1 ? "" : "s", secs, *confirmed ? "; witnesses in " : "",
            *confirmed ? dir : "");
  if (!*confirmed) rmdir(dir); /* nothing to replay: no directory left behind */
  free(dir);
  return st;
}
