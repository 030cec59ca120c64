/* One run of the program at a position (repl.h): its VM, the events it
 * logged, its output; a new run led to a position by a prefix. */
#include <string.h>

#include "repl.h"

ReplEvent *repl_event(ReplVM *v, size_t i) { return &v->log[i % REPL_LOG_MAX]; }

static void capture_out(void *user, const char *text, size_t len) {
  ReplVM *v = user;
  dr_buf_append(&v->out, text, len);
}

static void capture_err(void *user, const char *text, size_t len) {
  ReplVM *v = user;
  dr_buf_append(&v->err, text, len);
}

/* Every event but allocation, initialization, returns and native calls:
 * what a person follows. */
static void log_event(void *user, DrVM *vm, const DrvmEvent *e) {
  ReplVM *v = user;
  if (v->nlog == v->log_cap && v->log_cap < REPL_LOG_MAX) {
    v->log_cap = v->log_cap ? v->log_cap * 4 : 1024;
    v->log = dr_xrealloc(v->log, sizeof *v->log * v->log_cap);
  }
  ReplEvent *x = repl_event(v, v->nlog);
  uint64_t n = drvm_decision_count(vm);
  x->number = n ? n - 1 : 0;
  x->e = *e;
  v->nlog++;
  if (v->nlog - v->log_start > REPL_LOG_MAX) v->log_start = v->nlog - REPL_LOG_MAX;
  /* a race or an escaped exception stops a move right after it, not at
   * the next decision with a choice */
  if (v->stop_on_news && (drvm_race_count(vm) > v->nraces || drvm_uncaught_count(vm) > v->uncaught_seen)) {
    v->uncaught_seen = drvm_uncaught_count(vm);
    drvm_interrupt(vm);
  }
}

#define LOGGED                                                                                               \
  (DRVM_EV_ALL & ~(DRVM_EV_BIT(DRVM_EV_NEW) | DRVM_EV_BIT(DRVM_EV_INIT) | DRVM_EV_BIT(DRVM_EV_RETURN) |       \
                   DRVM_EV_BIT(DRVM_EV_NATIVE_ENTER) | DRVM_EV_BIT(DRVM_EV_NATIVE_EXIT) |                   \
                   DRVM_EV_BIT(DRVM_EV_STEP)))

/* The scheduler continue starts with, its options from the command line. */
static bool set_scheduler(const Repl *r, ReplVM *v) {
  char *opts = dr_ro_sched_options(&r->o, r->sched, NULL);
  bool ok = drvm_set_scheduler(v->vm, r->sched, opts);
  free(opts);
  return ok;
}

static bool set_detector(const Repl *r, ReplVM *v, char *err, size_t errsize) {
  const char *det = dr_ro_get(&r->o, DR_RO_DETECTOR);
  DrRoId refused;
  char *opts = dr_ro_det_options(&r->o, det, &refused);
  bool ok = refused == DR_RO__COUNT;
  if (!ok) snprintf(err, errsize, "%s needs --detector %s", dr_ro_row(refused)->name, dr_ro_entry(refused)->applies);
  else if (!drvm_set_detector(v->vm, det, opts)) ok = false;
  free(opts);
  return ok;
}

/* A compiled VM with the session's settings, not started; NULL with a
 * message in err (compile errors: printed when diags). */
static ReplVM *vm_new(const Repl *r, bool diags, char *err, size_t errsize) {
  ReplVM *v = dr_xcalloc(1, sizeof *v);
  v->rec_left = UINT64_MAX;
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  dr_ro_vm_config(&r->o, &cfg);
  cfg.seed = r->seed;
  cfg.write_out = capture_out;
  cfg.write_err = capture_err;
  cfg.write_user = v;
  v->tl = dr_tl_new(DR_TL_LIMIT);
  dr_tl_set_titles(v->tl, r->o.prog, "drvm repl", NULL);
  dr_tl_config(v->tl, &cfg);
  v->vm = drvm_new(&cfg, err, errsize);
  if (!v->vm) {
    dr_tl_free(v->tl);
    free(v);
    return NULL;
  }
  if (!dr_prog_compile(v->vm, &r->files)) {
    if (diags) drvm_print_diags(v->vm, stderr);
    snprintf(err, errsize, "%s", drvm_diag_count(v->vm) ? "" : drvm_error(v->vm));
    repl_vm_free(v);
    return NULL;
  }
  return v;
}

void repl_vm_free(ReplVM *v) {
  if (!v) return;
  drvm_free(v->vm);
  dr_tl_free(v->tl);
  free(v->log);
  free(v->out.data);
  free(v->err.data);
  for (int i = 0; i < v->nraces; i++) free(v->races[i]), free(v->race_lines[i]);
  free(v->races);
  free(v->race_lines);
  for (int i = 0; i < v->nclocks; i++) free(v->clocks[i]);
  free(v->clocks);
  free(v);
}

/* Copies the races the detector reported since the last call. */
static void new_races(ReplVM *v) {
  int n = drvm_race_count(v->vm);
  for (int i = v->nraces; i < n; i++) {
    DrvmRace race;
    if (!drvm_race(v->vm, i, &race)) break;
    if (v->nraces == v->races_cap) {
      v->races_cap = v->races_cap ? v->races_cap * 2 : 8;
      v->races = dr_xrealloc(v->races, sizeof *v->races * (size_t)v->races_cap);
      v->race_lines = dr_xrealloc(v->race_lines, sizeof *v->race_lines * (size_t)v->races_cap);
    }
    v->races[v->nraces] = dr_strdup(race.text);
    /* wcp: a race of another order of this run, not of this one */
    v->race_lines[v->nraces++] = dr_fmt("%s: T%d %s, T%d %s before it%s", race.location, race.thread,
                                        race.write ? "write" : "read", race.prev_thread,
                                        race.prev_write ? "write" : "read",
                                        race.predicted ? " (predicted for another order: not in this run)" : "");
  }
}

void repl_vm_settle(ReplVM *v, int rc) {
  new_races(v);
  v->at_decision = rc == 1;
  if (rc == 1) {
    v->pos = v->d.number;
    return;
  }
  if (!v->ended) {
    v->ended = true;
    v->pos = drvm_decision_count(v->vm);
    v->nclocks = drvm_thread_count(v->vm);
    v->clocks = dr_xcalloc((size_t)v->nclocks + 1, sizeof *v->clocks);
    for (int t = 0; t < v->nclocks; t++) {
      char buf[2048];
      if (drvm_detector_clock(v->vm, t, buf, sizeof buf)) v->clocks[t] = dr_strdup(buf);
    }
    drvm_finish(v->vm, &v->res);
  }
}

ReplVM *repl_vm_prepare(const Repl *r, const char *rec, ReplVM *src, uint64_t n, bool diags, char *err,
                        size_t errsize) {
  err[0] = 0;
  ReplVM *v = vm_new(r, diags, err, errsize);
  if (!v) return NULL;
  DrVM *vm = v->vm;
  uint64_t seed;
  bool ok = (!rec || drvm_replay(vm, rec, true, &seed)) && (!src || drvm_replay_decisions(vm, src->vm, n)) &&
            set_scheduler(r, v) && set_detector(r, v, err, errsize) &&
            drvm_record(vm, dr_ro_given(&r->o, DR_RO_RECORD) ? dr_ro_get(&r->o, DR_RO_RECORD) : NULL) &&
            drvm_add_listener(vm, LOGGED, log_event, v) && dr_tl_attach(v->tl, vm) &&
            drvm_set_stepping(vm, DRVM_POINT_ACCESS | DRVM_POINT_CALL, r->every) &&
            drvm_start(vm, r->o.nargs, (const char *const *)r->o.args);
  if (!ok) {
    if (!err[0]) snprintf(err, errsize, "%s", drvm_error(vm));
    repl_vm_free(v);
    return NULL;
  }
  return v;
}

bool repl_vm_go(ReplVM *v, uint64_t to, char *err, size_t errsize) {
  int rc = to != UINT64_MAX ? drvm_run_to_decision(v->vm, to, &v->d) : drvm_run_until_decision(v->vm, &v->d);
  if (rc < 0) {
    snprintf(err, errsize, "%s", drvm_error(v->vm));
    return false;
  }
  repl_vm_settle(v, rc);
  /* what was shown before is not news in the run that repeats it */
  v->out_shown = v->out.len;
  v->err_shown = v->err.len;
  v->races_told = v->nraces;
  return true;
}

ReplVM *repl_vm_make(const Repl *r, const char *rec, ReplVM *src, uint64_t to, bool diags, char *err,
                     size_t errsize) {
  ReplVM *v = repl_vm_prepare(r, rec, src, to, diags, err, errsize);
  if (v && !repl_vm_go(v, to, err, errsize)) {
    repl_vm_free(v);
    return NULL;
  }
  return v;
}

ReplVM *repl_vm_start(Repl *r, const char *prefix, uint64_t to) {
  char err[1024];
  ReplVM *v = repl_vm_make(r, prefix, NULL, to, true, err, sizeof err);
  if (!v && err[0]) repl_err(r, "%s", err);
  return v;
}

ReplVM *repl_vm_at(Repl *r, ReplVM *src, uint64_t to) {
  char err[1024];
  ReplVM *v = repl_vm_make(r, NULL, src, to, false, err, sizeof err);
  if (!v) {
    repl_err(r, "%s", err);
    return NULL;
  }
  /* a prefix of src's decisions has no recording's future after it */
  if (r->rec) v->rec_left = src->rec_left < to ? src->rec_left : to;
  if ((!v->at_decision || v->pos != to) && !(v->ended && to >= v->pos)) {
    repl_err(r, "internal: the replay stopped at decision %llu, not %llu", (unsigned long long)v->pos,
             (unsigned long long)to);
    repl_vm_free(v);
    return NULL;
  }
  return v;
}
