/* `drvm hunt`'s runs: the plain runs (baseline time, PCT's k) and
 * DrFinder's Phase I first, then every technique's N runs, then what
 * their reports say. */
#include <string.h>

#include "hunt_predict.h"
#include "hunt_run.h"

/* restarts allowed to a DrFinder run that deadlocks */
enum { DR_HUNT_RESTARTS = 10 };


/* Reads a child's JSON file: 1 read, 0 missing (allowed), -1 ill-formed
 * (after saying which file). */
static int read_json(const char *path, DrJson *out) { return dr_hunt_read_json("drvm hunt", path, false, out); }

/* Option id of o: a file of the run directory named by fmt and n. */
static void set_file(DrRunOpts *o, const DrHuntCommon *c, DrRoId id, const char *fmt, int n) {
  char name[128];
  snprintf(name, sizeof name, fmt, n);
  char *p = dr_hunt_path(c, name);
  dr_ro_set(o, id, p);
  free(p);
}

static void set_job(DrHuntJob *job, DrRunOpts *o, const DrHuntCommon *c, const char *logname) {
  job->argv = dr_hunt_argv(o);
  job->log = dr_hunt_path(c, logname);
  job->after = -1;
}

/* DrFinder's options given to the hunt, for one of its runs. */
static void set_drf_options(DrRunOpts *o, const DrHunt *h) {
  dr_ro_setf(o, DR_RO_DEPTH, "%d", h->depth);
  for (int id = 0; id < DR_RO__COUNT; id++)
    if (h->drf_option[id]) dr_ro_set(o, (DrRoId)id, h->drf_option[id]);
}

static void free_jobs(DrHuntJob *jobs, int n) {
  for (int i = 0; i < n; i++) dr_hunt_job_free(&jobs[i]);
  free(jobs);
}

/* The plain runs, PCT's calibration run and DrFinder's Phase I (unless
 * --phase1 detect makes Phase I DrFinder's run 1). */
static int first_batch(DrHunt *h) {
  DrHuntCommon *c = &h->c;
  bool pct = false, drf = false;
  for (int i = 0; i < h->ntech; i++) {
    pct = pct || !strcmp(h->tech[i].name, "pct");
    drf = drf || (!strcmp(h->tech[i].name, "drfinder") && !h->phase1_detect);
  }
  h->nbase = c->runs < 3 ? c->runs : 3;
  /* PCT draws its change points over k scheduling points, so k comes from
   * a plain pct run: a native run passes far fewer points than pct does. */
  bool calibrate = pct && !h->pct_steps_given;
  int n = h->nbase + calibrate + drf, pct_job = -1, drf_job = -1;
  DrHuntJob *jobs = dr_hunt_calloc((size_t)n, sizeof *jobs);
  char logname[64];
  for (int b = 0; b < h->nbase; b++) {
    DrRunOpts o;
    dr_hunt_run_opts(&o, c, "native", dr_hunt_run_seed(c->seed, "plain", b + 1), "none");
    set_file(&o, c, DR_RO_SCHED_REPORT, "plain-%d.sched.json", b + 1);
    snprintf(logname, sizeof logname, "plain-%d.log", b + 1);
    set_job(&jobs[b], &o, c, logname);
  }
  int k = h->nbase;
  if (calibrate) {
    DrRunOpts o;
    dr_hunt_run_opts(&o, c, "pct", dr_hunt_run_seed(c->seed, "pct", 0), "none");
    dr_ro_setf(&o, DR_RO_DEPTH, "%d", h->pct_depth);
    set_file(&o, c, DR_RO_SCHED_REPORT, "pct-%d.sched.json", 0);
    set_job(&jobs[k], &o, c, "pct-0.log");
    pct_job = k++;
  }
  if (drf) {
    DrRunOpts o;
    dr_hunt_run_opts(&o, c, "drfinder", dr_hunt_run_seed(c->seed, "drfinder", 0), "none");
    set_drf_options(&o, h);
    set_file(&o, c, DR_RO_MTR_OUT, "drfinder-mtr-%d.txt", 0);
    set_file(&o, c, DR_RO_RECORD, "drfinder-%d.rec", 0);
    set_file(&o, c, DR_RO_SCHED_REPORT, "drfinder-%d.sched.json", 0);
    set_job(&jobs[k], &o, c, "drfinder-0.log");
    drf_job = k++;
  }
  int bad = dr_hunt_run_jobs(c->exe, jobs, n, c->jobs, "plain runs");
  if (bad >= 0) {
    int st = dr_hunt_abort("hunt", &jobs[bad]);
    free_jobs(jobs, n);
    return st;
  }
  int st = 0;
  double sum = 0;
  for (int b = 0; b < h->nbase; b++) sum += jobs[b].cpu_seconds;
  h->baseline = h->nbase ? sum / h->nbase : 0;
  DrJson j;
  char *path = dr_hunt_path(c, "plain-1.sched.json");
  int got = read_json(path, &j);
  free(path);
  if (got < 0) st = DRVM_EXIT_USAGE;
  if (got > 0) h->base_points = (uint64_t)dr_json_num(&j, "points", 0);
  dr_json_free(&j);
  if (pct_job >= 0 && !st) {
    path = dr_hunt_path(c, "pct-0.sched.json");
    got = read_json(path, &j);
    free(path);
    if (got < 0) st = DRVM_EXIT_USAGE;
    double pts = got > 0 ? dr_json_num(&j, "points", 0) : 0;
    if (pts >= 1) {
      h->pct_steps = (uint64_t)pts;
      h->pct_steps_from = "the scheduling points of a plain pct run, pct-0";
    } else if (h->base_points) {
      h->pct_steps = h->base_points;
      h->pct_steps_from = "the scheduling points of a plain native run";
    }
    dr_json_free(&j);
  }
  if (drf_job >= 0 && !st) {
    h->phase1_seconds = jobs[drf_job].cpu_seconds;
    path = dr_hunt_path(c, "drfinder-0.sched.json");
    got = read_json(path, &j);
    free(path);
    if (got < 0) st = DRVM_EXIT_USAGE;
    h->phase1_relations = (int)dr_json_num(&j, "relations_out", 0);
    dr_json_free(&j);
  }
  free_jobs(jobs, n);
  return st;
}

/* DrFinder's run r reads run r-1's relations; a run that died (signal)
 * may have written none, so the newest earlier file is used, and with
 * none at all the run is a Phase I run again. */
static void drfinder_prepare(DrHuntJob *jobs, int index, void *ctx) {
  DrHunt *h = ctx;
  char **v = jobs[index].argv;
  int k = 0;
  while (v[k] && strcmp(v[k], dr_ro_row(DR_RO_MTR_IN)->name) != 0) k++;
  if (!v[k] || dr_hunt_file_exists(v[k + 1])) return;
  for (int r = index - 1; r >= 0; r--) { /* the chain's job i is run i + 1: it reads mtr-i */
    char name[64];
    snprintf(name, sizeof name, "drfinder-mtr-%d.txt", r);
    char *p = dr_hunt_path(&h->c, name);
    if (dr_hunt_file_exists(p)) {
      free(v[k + 1]);
      v[k + 1] = p;
      return;
    }
    free(p);
  }
  free(v[k]);
  free(v[k + 1]);
  int len = k + 2;
  while (v[len]) len++;
  memmove(&v[k], &v[k + 2], sizeof *v * (size_t)(len - k - 1)); /* with the NULL end */
}

static void technique_job(DrHunt *h, DrHuntJob *job, int ti, int r) {
  DrHuntCommon *c = &h->c;
  DrHuntTech *te = &h->tech[ti];
  DrHuntRun *run = &te->runs[r - 1];
  bool drf = !strcmp(te->name, "drfinder"), pct = !strcmp(te->name, "pct");
  run->seed = dr_hunt_run_seed(c->seed, te->name, r);
  DrRunOpts o, again, rep;
  dr_hunt_run_opts(&o, c, te->name, run->seed, "ft");
  /* the command that reruns it from its seed: its scheduling, not its outputs */
  dr_hunt_run_opts(&again, c, NULL, 0, NULL);
  dr_ro_set(&again, DR_RO_SCHED, te->name);
  dr_ro_setf(&again, DR_RO_SEED, "%llu", (unsigned long long)run->seed);
  char name[128];
  snprintf(name, sizeof name, "%s-%%d.rec", te->name);
  set_file(&o, c, DR_RO_RECORD, name, r);
  snprintf(name, sizeof name, "%s-%%d.json", te->name);
  set_file(&o, c, DR_RO_REPORT, name, r);
  snprintf(name, sizeof name, "%s-%%d.sched.json", te->name);
  set_file(&o, c, DR_RO_SCHED_REPORT, name, r);
  if (pct) {
    if (h->pct_steps) {
      dr_ro_setf(&o, DR_RO_PCT_STEPS, "%llu", (unsigned long long)h->pct_steps);
      dr_ro_setf(&again, DR_RO_PCT_STEPS, "%llu", (unsigned long long)h->pct_steps);
    }
    dr_ro_setf(&o, DR_RO_DEPTH, "%d", h->pct_depth);
    dr_ro_setf(&again, DR_RO_DEPTH, "%d", h->pct_depth);
  }
  if (drf) {
    set_drf_options(&o, h);
    /* --phase1 detect: run 1 is Phase I (no relations in), under
     * FastTrack, so that the races of its random order count and DR
     * still makes exactly --runs runs (the paper's 6.3.2) */
    if (r > 1 || !h->phase1_detect) set_file(&o, c, DR_RO_MTR_IN, "drfinder-mtr-%d.txt", r - 1);
    set_file(&o, c, DR_RO_MTR_OUT, "drfinder-mtr-%d.txt", r);
    /* the paper restarts a run DrFinder's suspensions deadlocked (5.4) */
    dr_ro_setf(&o, DR_RO_RESTARTS, "%d", DR_HUNT_RESTARTS);
  }
  /* a DrFinder run depends on the previous run's relations: only its
   * recording reruns it */
  if (drf) dr_ro_free(&again);
  else run->seed_cmd = dr_hunt_command(&again);
  dr_hunt_run_opts(&rep, c, NULL, 0, NULL);
  dr_ro_set(&rep, DR_RO_REPLAY, dr_ro_get(&o, DR_RO_RECORD));
  run->replay_cmd = dr_hunt_command(&rep);
  run->record = dr_strdup(dr_ro_get(&o, DR_RO_RECORD));
  snprintf(name, sizeof name, "%s-%d.log", te->name, r);
  set_job(job, &o, c, name);
  if (drf) {
    job->prepare = drfinder_prepare;
    job->ctx = h;
  }
}

/* Adds a race found in technique ti's run r (one count per run). */
static void note_race(DrHunt *h, const char *key, const char *location, int ti, int r) {
  DrHuntRace *race = NULL;
  for (int i = 0; i < h->nraces && !race; i++)
    if (!strcmp(h->races[i].key, key)) race = &h->races[i];
  if (!race) {
    DrHuntRace fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.key = dr_strdup(key);
    fresh.location = dr_strdup(location);
    DR_PUSH(h->races, h->nraces, h->capraces, fresh);
    race = &h->races[h->nraces - 1];
  }
  if (race->last_run[ti] == r) return;
  race->last_run[ti] = r;
  race->runs_found[ti]++;
  if (!race->first_run[ti]) race->first_run[ti] = r;
}

/* The key of a race for counting: a field's location, or for arrays
 * (whose object numbers and indexes vary from run to run) the array type
 * and allocation site. */
static char *race_key(const DrJson *race) {
  const char *loc = dr_json_str(race, "location");
  const char *alloc = dr_json_str(race, "allocated_at");
  if (!loc) return NULL;
  if (!alloc) return dr_strdup(loc);
  const char *obj = dr_json_str(race, "object");
  const char *type = obj ? obj : loc;
  const char *hash = strchr(type, '#');
  size_t n = hash ? (size_t)(hash - type) : strlen(type);
  return dr_fmt("%.*s allocated at %s", (int)n, type, alloc);
}

static int read_run(DrHunt *h, const DrHuntJob *job, int ti, int r) {
  DrHuntTech *te = &h->tech[ti];
  DrHuntRun *run = &te->runs[r - 1];
  run->status = job->status;
  run->signo = job->signo;
  run->cpu = job->cpu_seconds;
  run->failed = !(run->status == 0 || run->status == 1 || run->status == DRVM_EXIT_RACES);
  run->exception = run->status == 1;
  char name[128];
  snprintf(name, sizeof name, "%s-%d.json", te->name, r);
  char *path = dr_hunt_path(&h->c, name);
  DrJson rep;
  int got = read_json(path, &rep);
  if (got == 0 && !run->failed) {
    fprintf(stderr, "drvm hunt: run %d of %s wrote no race report %s (exit %d); see %s\n", r, te->name, path,
            run->status, job->log);
    got = -1;
  }
  const DrJson *races = got > 0 ? dr_json_get(&rep, "races") : NULL;
  if (got > 0 && (!races || races->kind != DR_JSON_ARR)) {
    fprintf(stderr, "drvm hunt: %s has no \"races\" array\n", path);
    got = -1;
  }
  for (int i = 0; got > 0 && i < races->count; i++) {
    /* a prediction is not a race until a run shows it (hunt_predict.c) */
    const DrJson *pred = dr_json_get(&races->items[i], "predicted");
    if (pred && pred->kind == DR_JSON_BOOL && pred->num) continue;
    char *key = race_key(&races->items[i]);
    if (!key) {
      fprintf(stderr, "drvm hunt: %s: race %d has no \"location\"\n", path, i + 1);
      got = -1;
      break;
    }
    note_race(h, key, dr_json_str(&races->items[i], "location"), ti, r);
    run->nraces++;
    free(key);
  }
  dr_json_free(&rep);
  free(path);
  if (got < 0) return DRVM_EXIT_USAGE;
  snprintf(name, sizeof name, "%s-%d.sched.json", te->name, r);
  path = dr_hunt_path(&h->c, name);
  DrJson sr;
  got = read_json(path, &sr);
  free(path);
  if (got < 0) return DRVM_EXIT_USAGE;
  if (dr_json_num(&sr, "uncaught", 0) > 0) run->exception = true;
  if (h->phase1_detect && r == 1 && !strcmp(te->name, "drfinder")) { /* Phase I is this run */
    h->phase1_seconds = run->cpu;
    h->phase1_relations = (int)dr_json_num(&sr, "relations_out", 0);
  }
  te->suspensions += (long long)dr_json_num(&sr, "suspensions", 0);
  te->thrashings += (long long)dr_json_num(&sr, "thrashings", 0);
  te->escorts += (long long)dr_json_num(&sr, "escorts", 0);
  te->reversals += (long long)dr_json_num(&sr, "reversals", 0);
  te->giveups += (long long)dr_json_num(&sr, "giveups", 0);
  te->restarts += (long long)dr_json_num(&sr, "restarts", 0);
  dr_json_free(&sr);
  return 0;
}

static void summarize(DrHunt *h) {
  int n = h->c.runs;
  for (int ti = 0; ti < h->ntech; ti++) {
    DrHuntTech *te = &h->tech[ti];
    double sum = 0;
    for (int r = 0; r < n; r++) {
      sum += te->runs[r].cpu;
      te->failed += te->runs[r].failed;
      te->exceptions += te->runs[r].exception;
    }
    te->mean_seconds = sum / n;
    te->thrash_rate = te->suspensions > 0 ? (double)te->thrashings / (double)te->suspensions : 0;
    for (int i = 0; i < h->nraces; i++) {
      const DrHuntRace *race = &h->races[i];
      if (!race->first_run[ti]) continue;
      te->found++;
      bool other = false;
      for (int tj = 0; tj < h->ntech; tj++) other = other || (tj != ti && race->first_run[tj]);
      te->only += !other;
      for (int r = race->first_run[ti]; r <= n; r++) te->cumulative[r - 1]++;
    }
  }
}

/* Techniques whose run r depends on run r-1's outputs. */
static bool is_chain(const char *name) { return !strcmp(name, "drfinder") || !strcmp(name, "predict"); }

int dr_hunt_execute(DrHunt *h) {
  int st = first_batch(h);
  if (st) return st;
  int n = h->c.runs, njobs = h->ntech * n;
  for (int ti = 0; ti < h->ntech; ti++) {
    h->tech[ti].runs = dr_hunt_calloc((size_t)n, sizeof *h->tech[ti].runs);
    h->tech[ti].cumulative = dr_hunt_calloc((size_t)n, sizeof *h->tech[ti].cumulative);
  }
  /* the chains (drfinder's, predict's) go first so that they start at
   * once: their runs are sequential and take longest; the other runs
   * fill the other slots */
  int *order = dr_hunt_calloc((size_t)h->ntech, sizeof *order), k = 0;
  for (int ti = 0; ti < h->ntech; ti++)
    if (is_chain(h->tech[ti].name)) order[k++] = ti;
  for (int ti = 0; ti < h->ntech; ti++)
    if (!is_chain(h->tech[ti].name)) order[k++] = ti;
  DrHuntPredict *predict = NULL;
  DrHuntJob *jobs = dr_hunt_calloc((size_t)njobs, sizeof *jobs);
  for (int o = 0; o < h->ntech; o++)
    for (int r = 1; r <= n; r++) {
      int j = o * n + r - 1;
      if (!strcmp(h->tech[order[o]].name, "predict")) {
        if (!predict) predict = dr_hunt_predict_new(h, order[o], o * n);
        dr_hunt_predict_job(predict, &jobs[j], r);
        continue;
      }
      technique_job(h, &jobs[j], order[o], r);
      /* the feedback chain: drfinder's run r needs run r-1's relations */
      if (jobs[j].prepare) jobs[j].after = r > 1 ? j - 1 : -1;
    }
  int bad = dr_hunt_run_jobs(h->c.exe, jobs, njobs, h->c.jobs, "hunting");
  if (bad >= 0) st = dr_hunt_abort("hunt", &jobs[bad]);
  /* read in technique order and run order, whatever order the runs
   * ended in, so that the tables do not depend on --jobs */
  for (int ti = 0; ti < h->ntech && !st; ti++) {
    int o = 0;
    while (order[o] != ti) o++;
    for (int r = 1; r <= n && !st; r++) st = read_run(h, &jobs[o * n + r - 1], ti, r);
  }
  if (!st) summarize(h);
  free_jobs(jobs, njobs);
  free(order);
  dr_hunt_predict_free(predict);
  return st;
}

void dr_hunt_free(DrHunt *h) {
  for (int ti = 0; ti < h->ntech; ti++) {
    DrHuntTech *te = &h->tech[ti];
    for (int r = 0; te->runs && r < h->c.runs; r++) {
      free(te->runs[r].replay_cmd);
      free(te->runs[r].seed_cmd);
      free(te->runs[r].record);
    }
    free(te->runs);
    free(te->cumulative);
  }
  for (int i = 0; i < h->nraces; i++) {
    free(h->races[i].key);
    free(h->races[i].location);
    free(h->races[i].timeline);
  }
  free(h->races);
  dr_hunt_common_free(&h->c);
}
