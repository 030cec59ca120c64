/* `drvm run`, `check` and `disasm` (run.h), through include/drvm.h only. */
#include <errno.h>
#include <string.h>

#include "help.h"
#include "minimize.h"
#include "confirm.h"
#include "run.h"
#include "stop.h"

/* The failed API call's message; a usage error's exit status. */
static int api_error(const DrVM *vm) {
  fprintf(stderr, "drvm: %s\n", drvm_error(vm));
  return DRVM_EXIT_USAGE;
}

static void make_config(const DrRun *r, DrvmConfig *cfg, const char *rerun) {
  drvm_config_init(cfg);
  dr_ro_vm_config(&r->o, cfg);
  cfg->seed = r->seed;
  cfg->rerun = rerun;
}

/* The seed a recording was made with: the rerun command of a
 * --replay-prefix run given no --seed names it (the real run prints
 * whatever is wrong with the recording). */
static uint64_t recorded_seed(const DrRun *r) {
  uint64_t seed = 0;
  char err[256];
  if (!drvm_recording_seed(r->recording, &seed, err, sizeof err)) seed = 0;
  return seed;
}

/* The scheduler: the recording's (--replay), or the chosen one with its
 * options, after a --replay-prefix recording or alone. */
static bool set_scheduler(const DrRun *r, DrVM *vm) {
  uint64_t recorded;
  if (r->recording && !drvm_replay(vm, r->recording, r->prefix, &recorded)) return false;
  if (r->recording && !r->prefix) return true;
  char more[64] = "";
  size_t n = 0;
  if (r->prefix) n += (size_t)snprintf(more, sizeof more, "seed=%llu", (unsigned long long)r->then_seed);
  /* a restarted run's scheduler draws anew, from the same seed */
  if (r->attempt) snprintf(more + n, sizeof more - n, "%sattempt=%d", n ? " " : "", r->attempt);
  const char *sched = dr_ro_get(&r->o, DR_RO_SCHED);
  char *opts = dr_ro_sched_options(&r->o, sched, more);
  bool ok = drvm_set_scheduler(vm, sched, opts);
  free(opts);
  return ok;
}

/* The detector and its options; false after saying why. */
static bool set_detector(const DrRun *r, DrVM *vm) {
  const char *det = dr_ro_get(&r->o, DR_RO_DETECTOR);
  DrRoId refused;
  char *opts = dr_ro_det_options(&r->o, det, &refused);
  bool ok = refused == DR_RO__COUNT;
  if (!ok) {
    DrBuf which = {0};
    dr_buf_append_choices(&which, dr_ro_entry(refused)->applies, ' ');
    dr_buf_append(&which, "", 1);
    fprintf(stderr, "drvm: %s needs --detector %s\n", dr_ro_row(refused)->name, which.data);
    free(which.data);
  } else if (!drvm_set_detector(vm, det, opts)) {
    api_error(vm);
    ok = false;
  }
  free(opts);
  return ok;
}

/* Runs the compiled program; *restart: the scheduler asks for a fresh run. */
static int run_program(const DrRun *r, DrVM *vm, bool *restart, DrPredictions *predicted) {
  const DrRunOpts *o = &r->o;
  const char *trace = dr_ro_get(o, DR_RO_TRACE);
  dr_stop_watch(vm); /* from here on the program's output may be pending */
  if (!set_scheduler(r, vm)) return api_error(vm);
  if (dr_ro_given(o, DR_RO_RECORD) && !drvm_record(vm, dr_ro_get(o, DR_RO_RECORD))) return api_error(vm);
  if (trace && !drvm_trace(vm, *trace ? trace : NULL)) return api_error(vm);
  if (!set_detector(r, vm)) return DRVM_EXIT_USAGE;
  if (r->tl && !dr_tl_attach(r->tl, vm)) return api_error(vm);
  DrvmResult res;
  if (!drvm_start(vm, o->nargs, (const char *const *)o->args) || !drvm_run_to_end(vm)) return api_error(vm);
  dr_predictions_collect(vm, predicted); /* before drvm_finish ends the detector */
  int status = drvm_finish(vm, &res);
  if (status < 0) return api_error(vm);
  if (res.outcome == DRVM_OUTCOME_RACES) status = r->race_exit;
  if (r->tl) {
    dr_tl_finish(r->tl, vm, drvm_outcome_word(res.outcome));
    char err[600];
    if (!dr_tl_write(r->tl, dr_ro_get(o, DR_RO_TIMELINE), err, sizeof err)) {
      fprintf(stderr, "drvm: %s\n", err);
      status = DRVM_EXIT_USAGE; /* the picture asked for is missing: that comes first */
    }
  }
  if (dr_stop_signal()) status = dr_stop_exit(); /* said before the seed line, which comes last */
  *restart = res.restart;
  return dr_run_report(r, vm, &res, status);
}

/* One VM: compile, then check, disassemble or run. */
static int run_vm(const DrRun *r, bool *restart, DrPredictions *predicted) {
  *restart = false;
  bool run = !strcmp(r->cmd, "run");
  char *rerun = NULL;
  if (run) {
    DrRerun rr = {r->prefix ? r->then_seed : r->seed, r->attempt};
    rerun = dr_ro_command(&r->o, &rr);
  }
  DrvmConfig cfg;
  make_config(r, &cfg, rerun);
  if (run && r->tl) {
    dr_tl_config(r->tl, &cfg);
    dr_tl_set_titles(r->tl, r->o.prog, r->recording && !r->prefix ? "a replayed run" : NULL, rerun);
  }
  char err[600];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  free(rerun); /* the VM keeps a copy */
  if (!vm) {
    fprintf(stderr, "drvm: %s\n", err);
    return DRVM_EXIT_USAGE;
  }
  int status = 0;
  if (!dr_prog_compile(vm, &r->files)) {
    drvm_print_diags(vm, stderr);
    if (!drvm_diag_count(vm)) fprintf(stderr, "drvm: %s\n", drvm_error(vm));
    status = DRVM_EXIT_COMPILE;
  } else if (!strcmp(r->cmd, "disasm")) {
    if (!drvm_disassemble(vm, dr_ro_given(&r->o, DR_RO_ALL), stdout)) status = api_error(vm);
  } else if (run) {
    status = run_program(r, vm, restart, predicted);
  }
  dr_stop_watch(NULL);
  drvm_free(vm);
  return status;
}

/* The options' values as the run uses them. */
static void plan(DrRun *r) {
  const DrRunOpts *o = &r->o;
  r->prefix = dr_ro_given(o, DR_RO_PREFIX);
  r->recording = dr_ro_get(o, r->prefix ? DR_RO_PREFIX : DR_RO_REPLAY);
  r->have_seed = dr_ro_given(o, DR_RO_SEED);
  r->seed = dr_ro_num(o, DR_RO_SEED);
  /* drawn once: a restarted run derives its seed from it */
  if (!strcmp(r->cmd, "run") && !r->have_seed && !r->recording) r->seed = dr_draw_seed();
  r->restarts = (int)dr_ro_num(o, DR_RO_RESTARTS);
  r->race_exit = dr_ro_given(o, DR_RO_RACE_EXIT) ? (int)dr_ro_num(o, DR_RO_RACE_EXIT) : DRVM_EXIT_RACES;
}

/* Reads the program once for every VM a run may need; false after
 * saying why. */
static bool read_program(DrRun *r) { return dr_prog_read(&r->o, "drvm", &r->files); }

int dr_cmd_run(int argc, char **argv) {
  DrRun r;
  memset(&r, 0, sizeof r);
  r.cmd = argv[0];
  int status = dr_ro_parse(&r.o, argc, argv);
  bool go = status == 0;
  if (status == DR_RO_HELP) {
    dr_help_topic(r.cmd, stdout);
    status = 0;
  } else if (go) {
    plan(&r);
    go = read_program(&r);
    if (!go) status = DRVM_EXIT_USAGE;
  }
  if (go && dr_ro_given(&r.o, DR_RO_TIMELINE)) {
    DrTlFormat f;
    char err[300];
    if (!dr_tl_format_of(dr_ro_get(&r.o, DR_RO_TIMELINE), &f, err, sizeof err)) {
      status = dr_usage_error("%s", err);
      go = false;
    }
  }
  /* confirming is what follows a wcp run's predictions */
  for (int i = 0; go && i < 2; i++) {
    DrRoId id = i ? DR_RO_WITNESS_DIR : DR_RO_CONFIRM;
    if (dr_ro_given(&r.o, id) && strcmp(dr_ro_get(&r.o, DR_RO_DETECTOR), "wcp") != 0) {
      status = dr_usage_error("%s needs --detector wcp", dr_ro_row(id)->name);
      go = false;
    }
  }
  if (go && r.prefix) r.then_seed = r.have_seed ? r.seed : recorded_seed(&r);
  if (go && dr_ro_given(&r.o, DR_RO_MINIMIZE)) {
    if (!r.recording || r.prefix) status = dr_usage_error("%s needs --replay REC: the recording to shrink", "--minimize");
    else status = dr_minimize(&r.o, r.recording, &r.files, recorded_seed(&r));
    go = false;
  }
  DrPredictions predicted = {0};
  if (go && !strcmp(r.cmd, "run")) dr_stop_install();
  for (bool restart = go; restart;) {
    if (dr_ro_given(&r.o, DR_RO_TIMELINE)) {
      dr_tl_free(r.tl); /* a restart draws anew */
      r.tl = dr_tl_new(DR_TL_LIMIT);
    }
    dr_predictions_free(&predicted); /* a restart predicts anew */
    status = run_vm(&r, &restart, &predicted);
    if (!restart || r.attempt >= r.restarts || dr_stop_signal()) break;
    /* the scheduler's suspensions may have caused the deadlock */
    r.attempt++;
    fprintf(stderr, "drvm: %s suspended threads in this run; restarting it (restart %d of at most %d)\n\n",
            dr_ro_get(&r.o, DR_RO_SCHED), r.attempt, r.restarts);
  }
  if (predicted.n && (status == 0 || status == r.race_exit) && !dr_stop_signal()) {
    int confirmed = 0, st = dr_confirm(&r, &predicted, &confirmed);
    if (st) status = st;
    else if (confirmed) status = r.race_exit;
  }
  dr_predictions_free(&predicted);
  if (dr_stop_signal()) status = dr_stop_exit(); /* a signal after the run's end */
  dr_prog_free(&r.files);
  dr_tl_free(r.tl);
  dr_ro_free(&r.o);
  return status;
}
