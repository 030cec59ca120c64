/* `drvm racefuzz`: RaceFuzzer's two phases (PLDI'08).  Phase 1 runs the
 * hybrid detector to collect potentially racing statement pairs; phase 2
 * runs the racefuzzer scheduler N times on each pair, which postpones
 * threads at the pair's statements to create the race for real, and
 * prints the paper's Table 1 for the program (docs/hunt.md). */
#include <string.h>

#include "help.h"
#include "hunt.h"
#include "hunt_util.h"
#include "../vm/json.h"
#include "../vm/pairs.h"

enum { HYBRID_RUNS = 3, MAX_PLAIN = 10 };

typedef struct {
  char *location, *first, *second;
  int created, exceptions, failed;
  int first_created, first_exception; /* run numbers, 0: none */
  uint64_t created_seed, exception_seed;
  char *created_replay, *exception_replay, *exception_rerun;
} Pair;

typedef struct {
  DrHuntCommon c;
  int nplain, plain_exceptions;
  double normal_seconds, hybrid_seconds, rf_seconds;
  char *pairs_file;
  Pair *pairs;
  int npairs, cappairs;
} RaceFuzz;

static int read_sched_report(const char *path, bool required, DrJson *out) {
  return dr_hunt_read_json("drvm racefuzz", path, required, out);
}

/* Option id of o: the file name of the run directory. */
static void set_path(DrRunOpts *o, const DrHuntCommon *c, DrRoId id, const char *name) {
  char *p = dr_hunt_path(c, name);
  dr_ro_set(o, id, p);
  free(p);
}

static void free_jobs(DrHuntJob *jobs, int n) {
  for (int i = 0; i < n; i++) dr_hunt_job_free(&jobs[i]);
  free(jobs);
}

/* Merges the hybrid runs' pair files into DIR/pairs.txt: the first
 * comment line, then each distinct pair once (a pair and its mirror image
 * are one), in the order first seen. */
static bool merge_pairs(RaceFuzz *rf) {
  DrPairs merged = {0};
  bool ok = true;
  for (int i = 1; i <= HYBRID_RUNS && ok; i++) {
    char name[64];
    snprintf(name, sizeof name, "pairs-%d.txt", i);
    char *path = dr_hunt_path(&rf->c, name);
    size_t len;
    char *text = dr_read_file(path, &len);
    free(path);
    if (!text) continue; /* a run that died wrote none */
    DrPairs one = {0};
    char err[600];
    ok = dr_pairs_parse(text, len, name, &one, err, sizeof err);
    if (!ok) fprintf(stderr, "drvm racefuzz: %s\n", err);
    for (int k = 0; k < one.count; k++) dr_pairs_add(&merged, one.items[k]);
    if (!merged.comment) merged.comment = one.comment, one.comment = NULL;
    free(one.items);
    free(one.comment);
    free(text);
  }
  if (!merged.comment) merged.comment = dr_strdup("# drvm potential races (hybrid)");
  for (int k = 0; k < merged.count && ok; k++) {
    const DrPair *mp = &merged.items[k];
    Pair p = {0};
    p.location = dr_strdup(mp->location);
    DrBuf s1 = {0}, s2 = {0};
    dr_pairs_stmt_text(&s1, &mp->first);
    dr_pairs_stmt_text(&s2, &mp->second);
    p.first = s1.data;
    p.second = s2.data;
    DR_PUSH(rf->pairs, rf->npairs, rf->cappairs, p);
  }
  DrBuf out = {0};
  dr_pairs_write(&out, &merged);
  dr_pairs_free(&merged);
  rf->pairs_file = dr_hunt_path(&rf->c, "pairs.txt");
  ok = ok && dr_hunt_write_file("racefuzz", rf->pairs_file, &out);
  free(out.data);
  return ok;
}

/* Phase 1 (and the plain runs for the "normal" time and the exceptions
 * a default scheduler shows). */
static int phase1(RaceFuzz *rf) {
  DrHuntCommon *c = &rf->c;
  rf->nplain = c->runs < MAX_PLAIN ? c->runs : MAX_PLAIN;
  int n = rf->nplain + HYBRID_RUNS;
  DrHuntJob *jobs = dr_hunt_calloc((size_t)n, sizeof *jobs);
  char name[64];
  for (int i = 0; i < n; i++) {
    bool plain = i < rf->nplain;
    int k = plain ? i + 1 : i - rf->nplain + 1;
    DrRunOpts o;
    dr_hunt_run_opts(&o, c, plain ? "native" : "random", dr_hunt_run_seed(c->seed, plain ? "plain" : "hybrid", k),
                     plain ? "none" : "hybrid");
    if (!plain) {
      snprintf(name, sizeof name, "pairs-%d.txt", k);
      set_path(&o, c, DR_RO_POTENTIAL, name);
    }
    snprintf(name, sizeof name, "%s-%d.sched.json", plain ? "plain" : "hybrid", k);
    set_path(&o, c, DR_RO_SCHED_REPORT, name);
    jobs[i].argv = dr_hunt_argv(&o);
    snprintf(name, sizeof name, "%s-%d.log", plain ? "plain" : "hybrid", k);
    jobs[i].log = dr_hunt_path(c, name);
    jobs[i].after = -1;
  }
  int bad = dr_hunt_run_jobs(c->exe, jobs, n, c->jobs, "phase 1");
  int st = bad >= 0 ? dr_hunt_abort("racefuzz", &jobs[bad]) : 0;
  double plain_sum = 0, hybrid_sum = 0;
  for (int i = 0; i < n && !st; i++) {
    if (i >= rf->nplain) {
      hybrid_sum += jobs[i].cpu_seconds;
      continue;
    }
    plain_sum += jobs[i].cpu_seconds;
    snprintf(name, sizeof name, "plain-%d.sched.json", i + 1);
    char *path = dr_hunt_path(c, name);
    DrJson j;
    int got = read_sched_report(path, false, &j);
    free(path);
    if (got < 0) st = DRVM_EXIT_USAGE;
    if (jobs[i].status == 1 || dr_json_num(&j, "uncaught", 0) > 0) rf->plain_exceptions++;
    dr_json_free(&j);
  }
  rf->normal_seconds = rf->nplain ? plain_sum / rf->nplain : 0;
  rf->hybrid_seconds = hybrid_sum / HYBRID_RUNS;
  free_jobs(jobs, n);
  if (!st && !merge_pairs(rf)) st = DRVM_EXIT_USAGE;
  return st;
}

/* Phase 2's run r of pair pi: its options, outputs only with outputs. */
static void phase2_opts(DrRunOpts *o, const RaceFuzz *rf, int pi, uint64_t seed, bool outputs) {
  dr_hunt_run_opts(o, &rf->c, NULL, 0, NULL);
  dr_ro_set(o, DR_RO_SCHED, "racefuzzer");
  dr_ro_setf(o, DR_RO_SEED, "%llu", (unsigned long long)seed);
  if (outputs) dr_ro_set(o, DR_RO_DETECTOR, "ft");
  dr_ro_set(o, DR_RO_RACE_PAIRS, rf->pairs_file);
  dr_ro_setf(o, DR_RO_PAIR, "%d", pi + 1);
}

/* The command that replays a recording. */
static char *replay_command(const RaceFuzz *rf, const char *rec) {
  DrRunOpts o;
  dr_hunt_run_opts(&o, &rf->c, NULL, 0, NULL);
  dr_ro_set(&o, DR_RO_REPLAY, rec);
  return dr_hunt_command(&o);
}

static int read_phase2_run(RaceFuzz *rf, const DrHuntJob *job, int pi, int r, uint64_t seed, double *cpu_sum) {
  Pair *p = &rf->pairs[pi];
  char name[64];
  *cpu_sum += job->cpu_seconds;
  bool failed = !(job->status == 0 || job->status == 1 || job->status == DRVM_EXIT_RACES);
  p->failed += failed;
  snprintf(name, sizeof name, "rf-%d-%d.sched.json", pi + 1, r);
  char *path = dr_hunt_path(&rf->c, name);
  DrJson j;
  int got = read_sched_report(path, !failed, &j);
  free(path);
  if (got < 0) return DRVM_EXIT_USAGE;
  const DrJson *real = dr_json_get(&j, "real_races");
  bool created = real && real->kind == DR_JSON_ARR && real->count > 0;
  bool exception = created && (job->status == 1 || dr_json_num(&j, "uncaught", 0) > 0);
  dr_json_free(&j);
  if (!created) return 0;
  p->created++;
  snprintf(name, sizeof name, "rf-%d-%d.rec", pi + 1, r);
  char *rec = dr_hunt_path(&rf->c, name);
  if (!p->first_created) {
    p->first_created = r;
    p->created_seed = seed;
    p->created_replay = replay_command(rf, rec);
  }
  if (exception) {
    p->exceptions++;
    if (!p->first_exception) {
      p->first_exception = r;
      p->exception_seed = seed;
      p->exception_replay = replay_command(rf, rec);
      DrRunOpts o;
      phase2_opts(&o, rf, pi, seed, false);
      p->exception_rerun = dr_hunt_command(&o);
    }
  }
  free(rec);
  return 0;
}

static int phase2(RaceFuzz *rf) {
  DrHuntCommon *c = &rf->c;
  int n = rf->npairs * c->runs;
  if (!n) return 0;
  DrHuntJob *jobs = dr_hunt_calloc((size_t)n, sizeof *jobs);
  uint64_t *seeds = dr_hunt_calloc((size_t)n, sizeof *seeds);
  char name[64];
  for (int pi = 0; pi < rf->npairs; pi++)
    for (int r = 1; r <= c->runs; r++) {
      int j = pi * c->runs + r - 1;
      snprintf(name, sizeof name, "racefuzzer-%d", pi + 1);
      seeds[j] = dr_hunt_run_seed(c->seed, name, r);
      DrRunOpts o;
      phase2_opts(&o, rf, pi, seeds[j], true);
      snprintf(name, sizeof name, "rf-%d-%d.rec", pi + 1, r);
      set_path(&o, c, DR_RO_RECORD, name);
      snprintf(name, sizeof name, "rf-%d-%d.sched.json", pi + 1, r);
      set_path(&o, c, DR_RO_SCHED_REPORT, name);
      jobs[j].argv = dr_hunt_argv(&o);
      snprintf(name, sizeof name, "rf-%d-%d.log", pi + 1, r);
      jobs[j].log = dr_hunt_path(c, name);
      jobs[j].after = -1;
    }
  int bad = dr_hunt_run_jobs(c->exe, jobs, n, c->jobs, "phase 2");
  int st = bad >= 0 ? dr_hunt_abort("racefuzz", &jobs[bad]) : 0;
  double sum = 0;
  for (int j = 0; j < n && !st; j++) st = read_phase2_run(rf, &jobs[j], j / c->runs, j % c->runs + 1, seeds[j], &sum);
  rf->rf_seconds = sum / n;
  free(seeds);
  free_jobs(jobs, n);
  return st;
}

/* --- output --- */

static int count_real(const RaceFuzz *rf, int *exc, double *mean_prob) {
  int real = 0;
  double sum = 0;
  *exc = 0;
  for (int k = 0; k < rf->npairs; k++) {
    real += rf->pairs[k].created > 0;
    *exc += rf->pairs[k].exceptions > 0;
    if (rf->pairs[k].created) sum += (double)rf->pairs[k].created / rf->c.runs;
  }
  *mean_prob = real ? sum / real : -1;
  return real;
}

static void print_results(const RaceFuzz *rf) {
  const DrHuntCommon *c = &rf->c;
  int exc;
  double prob;
  int real = count_real(rf, &exc, &prob);
  printf("drvm racefuzz %s: %d run%s per pair, seed %llu (--seed %llu reruns this)\n", c->prog, c->runs,
         c->runs == 1 ? "" : "s", (unsigned long long)c->seed, (unsigned long long)c->seed);
  printf("run directory: %s; potential racing pairs: %s\n", c->dir, rf->pairs_file);
  printf("\nRaceFuzzer's Table 1 (times are CPU seconds per run):\n");
  DrTable t;
  dr_table_init(&t, 9);
  const char *head[] = {"program", "normal", "hybrid", "RF", "potential", "real", "exc RF", "exc simple", "probability"};
  for (int i = 0; i < 9; i++) dr_table_add(&t, "%s", head[i]);
  const char *base = strrchr(c->prog, '/');
  dr_table_add(&t, "%s", base ? base + 1 : c->prog);
  dr_table_add(&t, "%.3fs", rf->normal_seconds);
  dr_table_add(&t, "%.3fs", rf->hybrid_seconds);
  if (rf->npairs) dr_table_add(&t, "%.3fs", rf->rf_seconds);
  else dr_table_add(&t, "-");
  dr_table_add(&t, "%d", rf->npairs);
  dr_table_add(&t, "%d", real);
  dr_table_add(&t, "%d", exc);
  dr_table_add(&t, "%d/%d", rf->plain_exceptions, rf->nplain);
  if (prob >= 0) dr_table_add(&t, "%.2f", prob);
  else dr_table_add(&t, "-");
  dr_table_print(&t, stdout, "  ");
  dr_table_free(&t);
  printf("  potential: statement pairs from the hybrid detector (%d runs); real: pairs whose race\n"
         "  racefuzzer created; exc RF: pairs whose created race some run ended with an exception;\n"
         "  exc simple: plain native runs that threw; probability: mean over the real pairs\n",
         HYBRID_RUNS);
  if (!rf->npairs) {
    printf("\nNo potentially racing pairs: nothing for phase 2 to run.\n");
    return;
  }
  printf("\nPairs (%d runs each):\n", c->runs);
  dr_table_init(&t, 6);
  const char *head2[] = {"pair", "location", "created", "probability", "exceptions", "failed"};
  for (int i = 0; i < 6; i++) dr_table_add(&t, "%s", head2[i]);
  for (int k = 0; k < rf->npairs; k++) {
    const Pair *p = &rf->pairs[k];
    dr_table_add(&t, "%d", k + 1);
    dr_table_add(&t, "%s", p->location);
    dr_table_add(&t, "%d/%d", p->created, c->runs);
    dr_table_add(&t, "%.2f", (double)p->created / c->runs);
    dr_table_add(&t, "%d", p->exceptions);
    dr_table_add(&t, "%d", p->failed);
  }
  dr_table_print(&t, stdout, "  ");
  dr_table_free(&t);
  for (int k = 0; k < rf->npairs; k++) {
    const Pair *p = &rf->pairs[k];
    printf("\n  pair %d: %s\n    %s\n    %s\n", k + 1, p->location, p->first, p->second);
    if (p->first_created)
      printf("    race created first in run %d, seed %llu: %s\n", p->first_created,
             (unsigned long long)p->created_seed, p->created_replay);
    else
      printf("    race never created in %d runs\n", c->runs);
    if (p->first_exception)
      printf("    HARMFUL: an exception in run %d, seed %llu:\n      %s\n      %s\n", p->first_exception,
             (unsigned long long)p->exception_seed, p->exception_replay, p->exception_rerun);
  }
}

static bool write_json(const RaceFuzz *rf) {
  int exc;
  double prob;
  int real = count_real(rf, &exc, &prob);
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_str(&w, "program", rf->c.prog);
  dr_jw_int(&w, "runs", rf->c.runs);
  dr_jw_int(&w, "seed", (long long)rf->c.seed);
  dr_jw_str(&w, "dir", rf->c.dir);
  dr_jw_str(&w, "pairs_file", rf->pairs_file);
  dr_jw_num(&w, "normal_seconds", rf->normal_seconds);
  dr_jw_num(&w, "hybrid_seconds", rf->hybrid_seconds);
  if (rf->npairs) dr_jw_num(&w, "racefuzzer_seconds", rf->rf_seconds);
  else dr_jw_null(&w, "racefuzzer_seconds");
  dr_jw_int(&w, "potential_races", rf->npairs);
  dr_jw_int(&w, "real_races", real);
  dr_jw_int(&w, "exceptions", exc);
  dr_jw_int(&w, "simple_runs", rf->nplain);
  dr_jw_int(&w, "simple_exceptions", rf->plain_exceptions);
  if (prob >= 0) dr_jw_num(&w, "probability", prob);
  else dr_jw_null(&w, "probability");
  dr_jw_begin(&w, "pairs", '[');
  for (int k = 0; k < rf->npairs; k++) {
    const Pair *p = &rf->pairs[k];
    dr_jw_begin(&w, NULL, '{');
    dr_jw_int(&w, "pair", k + 1);
    dr_jw_str(&w, "location", p->location);
    dr_jw_str(&w, "first", p->first);
    dr_jw_str(&w, "second", p->second);
    dr_jw_int(&w, "created", p->created);
    dr_jw_num(&w, "probability", (double)p->created / rf->c.runs);
    dr_jw_int(&w, "exceptions", p->exceptions);
    dr_jw_int(&w, "failed_runs", p->failed);
    if (p->first_created) {
      dr_jw_begin(&w, "first_created", '{');
      dr_jw_int(&w, "run", p->first_created);
      dr_jw_int(&w, "seed", (long long)p->created_seed);
      dr_jw_str(&w, "replay", p->created_replay);
      dr_jw_end(&w, '}');
    } else {
      dr_jw_null(&w, "first_created");
    }
    if (p->first_exception) {
      dr_jw_begin(&w, "exception", '{');
      dr_jw_int(&w, "run", p->first_exception);
      dr_jw_int(&w, "seed", (long long)p->exception_seed);
      dr_jw_str(&w, "replay", p->exception_replay);
      dr_jw_str(&w, "rerun", p->exception_rerun);
      dr_jw_end(&w, '}');
    } else {
      dr_jw_null(&w, "exception");
    }
    dr_jw_end(&w, '}');
  }
  dr_jw_end(&w, ']');
  dr_jw_end(&w, '}');
  bool ok = dr_hunt_write_file("racefuzz", rf->c.json, &w.buf);
  free(w.buf.data);
  return ok;
}

static int parse_options(RaceFuzz *rf, int argc, char **argv) {
  DrHuntCommon *c = &rf->c;
  c->runs = 100;
  c->jobs = 1;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    int taken = dr_hunt_common_option(c, "racefuzz", argc, argv, &i);
    if (taken < 0) return DRVM_EXIT_USAGE;
    if (taken) continue;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      dr_help_topic("racefuzz", stdout);
      return -1;
    }
    if (a[0] == '-' && a[1]) return dr_hunt_usage("racefuzz", "unknown option '%s'", a);
    return dr_hunt_usage("racefuzz", "unexpected argument '%s' (program arguments go after --)", a);
  }
  if (!c->prog) return dr_hunt_usage("racefuzz", "%s", "needs a program file (prog.dl)");
  c->args = argv + i;
  c->nargs = argc - i;
  return 0;
}

int dr_cmd_racefuzz(const char *self, int argc, char **argv) {
  RaceFuzz rf;
  memset(&rf, 0, sizeof rf);
  int st = parse_options(&rf, argc, argv);
  if (st || !dr_hunt_setup(&rf.c, "racefuzz")) {
    dr_hunt_common_free(&rf.c); /* the program's words */
    return st < 0 ? 0 : st ? st : DRVM_EXIT_USAGE;
  }
  rf.c.exe = dr_hunt_self_exe(self);
  st = phase1(&rf);
  if (!st) st = phase2(&rf);
  if (!st) {
    print_results(&rf);
    if (rf.c.json && !write_json(&rf)) st = DRVM_EXIT_USAGE;
    fflush(stdout);
  }
  for (int k = 0; k < rf.npairs; k++) {
    Pair *p = &rf.pairs[k];
    free(p->location);
    free(p->first);
    free(p->second);
    free(p->created_replay);
    free(p->exception_replay);
    free(p->exception_rerun);
  }
  free(rf.pairs);
  free(rf.pairs_file);
  dr_hunt_common_free(&rf.c);
  return st;
}
