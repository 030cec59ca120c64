/* include/drvm.h: choosing the scheduler and the detector, listeners,
 * recording, and running -- to the end or one decision at a time. */
#include <errno.h>
#include <string.h>

#include "api.h"
#include "trace.h"

/* ------------------------------------------------------------ setting up */

static void drop_core(DrApi *a) {
  if (a->core) a->core->destroy(a->core);
  a->core = NULL;
}

bool drvm_set_scheduler(DrVM *vm, const char *name, const char *options) {
  if (!dr_api_check(vm, "drvm_set_scheduler", DR_API_NEW, DR_API_COMPILED)) return false;
  if (!name) return dr_api_fail(vm, "drvm_set_scheduler: no name");
  DrApi *a = vm->api;
  uint64_t given, seed;
  DrScheduler *s = dr_reg_sched_new(name, options, a->seed, a->rerun, &given, &seed, &a->pool, a->err, sizeof a->err);
  if (!s) return false;
  drop_core(a);
  a->core = s;
  a->given_seed = given;
  a->run_seed = seed;
  return true;
}

bool drvm_set_host_scheduler(DrVM *vm, const DrvmHostScheduler *hs, void *user) {
  if (!dr_api_check(vm, "drvm_set_host_scheduler", DR_API_NEW, DR_API_COMPILED)) return false;
  DrApi *a = vm->api;
  if (!hs || !hs->pick) return dr_api_fail(vm, "drvm_set_host_scheduler: a host scheduler needs pick");
  if (a->host.destroy) a->host.destroy(a->host_user);
  a->host = *hs;
  a->host_user = user;
  drop_core(a);
  a->core = dr_api_host_sched_new(vm);
  a->run_seed = a->given_seed = a->seed;
  return true;
}

/* The detector is made at drvm_start (it hooks the VM's objects); here
 * its name and options are only checked and kept. */
bool drvm_set_detector(DrVM *vm, const char *name, const char *options) {
  if (!dr_api_check(vm, "drvm_set_detector", DR_API_NEW, DR_API_COMPILED)) return false;
  if (!name) return dr_api_fail(vm, "drvm_set_detector: no name");
  DrApi *a = vm->api;
  if (!dr_reg_det_check(name, options, &a->pool, a->err, sizeof a->err)) return false;
  free(a->det_name);
  free(a->det_options);
  a->det_name = dr_strdup(name);
  a->det_options = options ? dr_strdup(options) : NULL;
  return true;
}

bool drvm_record(DrVM *vm, const char *path) {
  if (!dr_api_check(vm, "drvm_record", DR_API_NEW, DR_API_COMPILED)) return false;
  DrApi *a = vm->api;
  free(a->record_path);
  a->record_path = path ? dr_strdup(path) : NULL;
  a->recording = true;
  return true;
}

bool drvm_replay(DrVM *vm, const char *path, bool prefix, uint64_t *seed) {
  if (!dr_api_check(vm, "drvm_replay", DR_API_COMPILED, DR_API_COMPILED)) return false;
  DrApi *a = vm->api;
  bool spurious;
  DrScheduler *r = dr_sched_replay(path, vm->source_name, a->program_hash, &a->replay_seed, &spurious,
                                   vm->err_file, a->err, sizeof a->err);
  if (!r) return false;
  if (a->replay) a->replay->destroy(a->replay);
  a->replay = r;
  a->replay_prefix = prefix;
  a->spurious = spurious;
  if (seed) *seed = a->replay_seed;
  return true;
}

/* Decisions taken so far: at an undecided decision its pick is only a
 * suggestion, not yet part of the run. */
static uint64_t decided(const DrVM *vm) {
  const DrApi *a = vm->api;
  if (a->state == DR_API_DECISION) return a->decision.number;
  return vm->sched_decisions;
}

bool drvm_replay_decisions(DrVM *vm, DrVM *from, uint64_t n) {
  if (!dr_api_check(vm, "drvm_replay_decisions", DR_API_COMPILED, DR_API_COMPILED)) return false;
  DrApi *a = vm->api, *fa = from->api;
  if (fa->state < DR_API_STARTED || !fa->recorder)
    return dr_api_fail(vm, "drvm_replay_decisions: the other VM has no recording (drvm_record before its start)");
  if (fa->program_hash != a->program_hash) return dr_api_fail(vm, "drvm_replay_decisions: the VMs run other programs");
  if (n > decided(from))
    return dr_api_fail(vm, "drvm_replay_decisions: %llu decisions asked, the other VM has taken %llu",
                       (unsigned long long)n, (unsigned long long)decided(from));
  DrScheduler *r = dr_sched_record_prefix(fa->recorder, n);
  if (a->replay) a->replay->destroy(a->replay);
  a->replay = r;
  a->replay_prefix = true;
  a->replay_seed = from->seed;
  a->spurious = fa->spurious;
  return true;
}

bool drvm_trace(DrVM *vm, const char *path) {
  if (!dr_api_check(vm, "drvm_trace", DR_API_NEW, DR_API_COMPILED)) return false;
  DrApi *a = vm->api;
  if (a->tracer) return dr_api_fail(vm, "drvm_trace: the run is traced already");
  a->trace_failed = false;
  a->tracer = dr_tracer_new(path, &a->trace_failed);
  if (!a->tracer) return dr_api_fail(vm, "cannot write %s: %s", path, strerror(errno));
  return true;
}

static void host_listen(DrListener *self, DrVM *vm, const DrEvent *e) {
  DrApiListener *l = (DrApiListener *)self;
  DrvmEvent ev;
  dr_api_event(vm, e, &ev);
  vm->in_listener = true;
  l->fn(l->user, vm, &ev);
  vm->in_listener = false;
}

static void host_listen_finish(DrListener *self, DrVM *vm) {
  (void)vm;
  free(self);
}

bool drvm_add_listener(DrVM *vm, uint32_t mask, DrvmListenFn fn, void *user) {
  if (!dr_api_check(vm, "drvm_add_listener", DR_API_NEW, DR_API_COMPILED)) return false;
  if (!fn) return dr_api_fail(vm, "drvm_add_listener: no function");
  DrApi *a = vm->api;
  DrApiListener *l = dr_xcalloc(1, sizeof *l);
  l->base.name = "host";
  l->base.events = mask & DRVM_EV_ALL;
  l->base.event = host_listen;
  l->base.finish = host_listen_finish;
  l->fn = fn;
  l->user = user;
  DR_PUSH(a->listeners, a->nlisteners, a->listeners_cap, l);
  return true;
}

bool drvm_set_stepping(DrVM *vm, unsigned points, bool every_decision) {
  if (!dr_api_check(vm, "drvm_set_stepping", DR_API_NEW, DR_API_DECIDED)) return false;
  if (vm->api->state >= DR_API_STARTED && points != vm->api->step_points)
    return dr_api_fail(vm, "drvm_set_stepping: the points are set before drvm_start");
  vm->api->step_points = points & (DRVM_POINT_ACCESS | DRVM_POINT_CALL);
  vm->step_every = every_decision;
  if (vm->api->state < DR_API_STARTED) vm->api->stepping = true;
  return true;
}

/* ------------------------------------------------------------ starting */

/* The scheduler chain: the chosen one (or a replay of a recording, which
 * may hand over to it), wrapped by the recorder. */
static bool wire_scheduler(DrVM *vm) {
  DrApi *a = vm->api;
  if (a->replay && !a->replay_prefix) drop_core(a); /* a full replay decides everything */
  else if (!a->core && !drvm_set_scheduler(vm, dr_reg_sched_entry(0)->name, NULL)) return false;
  if (a->core && a->core->start && !a->core->start(a->core, vm, a->err, sizeof a->err)) return false;
  DrScheduler *s = a->core;
  if (a->replay) {
    if (a->replay_prefix) dr_sched_replay_then(a->replay, a->core);
    s = a->replay;
  }
  if (a->stepping && (!a->replay || a->replay_prefix)) s = a->goal = dr_sched_goal(s);
  a->top = s;
  unsigned points = s->points | a->step_points;
  uint64_t seed = a->replay ? a->replay_seed : a->run_seed;
  if (a->recording) {
    DrScheduler *rec = dr_sched_record(s, points, a->record_path, vm->source_name, a->program_hash, seed,
                                       a->spurious, a->err, sizeof a->err);
    if (!rec) return false;
    a->top = a->recorder = rec;
  }
  dr_vm_set_scheduler(vm, a->top, a->step_points);
  vm->seed = seed; /* new Random()'s, as recorded */
  vm->spurious_wakeups = a->spurious;
  return true;
}

static bool attach_listeners(DrVM *vm) {
  DrApi *a = vm->api;
  const char *det = a->det_name ? a->det_name : dr_reg_det_entry(0)->name;
  uint64_t shown = a->replay && !a->replay_prefix ? a->replay_seed : a->given_seed;
  a->detector = dr_reg_det_new(vm, det, a->det_options, shown, a->rerun, &a->det_result, &a->pool, a->err,
                               sizeof a->err);
  if (!a->detector && a->err[0]) return false;
  if (a->tracer) dr_add_listener(vm, a->tracer);
  if (a->detector) dr_add_listener(vm, a->detector);
  for (int i = 0; i < a->nlisteners; i++) dr_add_listener(vm, &a->listeners[i]->base);
  a->nlisteners = 0; /* the VM's now: they free themselves at the end */
  return true;
}

bool drvm_start(DrVM *vm, int argc, const char *const *argv) {
  if (!dr_api_check(vm, "drvm_start", DR_API_COMPILED, DR_API_COMPILED)) return false;
  DrApi *a = vm->api;
  if (argc < 0 || (argc > 0 && !argv)) return dr_api_fail(vm, "drvm_start: bad arguments");
  if (!wire_scheduler(vm) || !attach_listeners(vm)) return false;
  a->state = DR_API_STARTED;
  if (!dr_main_start(vm, a->main_class, argc, argv, &a->status)) a->state = DR_API_ENDED;
  return true;
}

/* ------------------------------------------------------------ running */

/* Runs from where the VM stands until the end or, in step mode, the
 * next decision. */
static void go_on(DrVM *vm) {
  DrApi *a = vm->api;
  int st = a->state == DR_API_DECIDED ? dr_interp_resume(vm, a->chosen) : dr_interp_continue(vm);
  if (st < 0) {
    dr_flush_output(vm); /* a stepping host sees the output so far */
    a->state = DR_API_DECISION;
    dr_api_build_decision(vm, vm->suggested);
  } else {
    a->state = DR_API_ENDED;
    a->status = st;
  }
}

int drvm_run_until_decision(DrVM *vm, DrvmDecision *d) {
  if (!dr_api_check(vm, "drvm_run_until_decision", DR_API_STARTED, DR_API_FINISHED)) return -1;
  DrApi *a = vm->api;
  if (a->state >= DR_API_ENDED) return 0;
  if (a->state != DR_API_DECISION) {
    vm->step_mode = true;
    go_on(vm);
  }
  if (a->state != DR_API_DECISION) return 0;
  if (d) *d = a->decision;
  return 1;
}

bool drvm_decide(DrVM *vm, int thread) {
  if (!dr_api_check(vm, "drvm_decide", DR_API_DECISION, DR_API_DECISION)) return false;
  DrApi *a = vm->api;
  DrThread *t = thread == DRVM_SUGGESTED ? vm->suggested : NULL;
  for (int i = 0; !t && i < a->decision.nchoices; i++)
    if (a->decision.choices[i].thread == thread) t = vm->all_threads[thread];
  if (!t) return dr_api_fail(vm, "drvm_decide: T%d cannot run at this decision", thread);
  if (t != vm->suggested && vm->sched->overridden) vm->sched->overridden(vm->sched, vm, t);
  a->chosen = t;
  a->state = DR_API_DECIDED;
  return true;
}

bool drvm_run_to_end(DrVM *vm) {
  if (!dr_api_check(vm, "drvm_run_to_end", DR_API_STARTED, DR_API_FINISHED)) return false;
  DrApi *a = vm->api;
  if (a->state == DR_API_DECISION && !drvm_decide(vm, DRVM_SUGGESTED)) return false;
  vm->step_mode = false;
  while (a->state < DR_API_ENDED) go_on(vm);
  return true;
}

int drvm_run_to_decision(DrVM *vm, uint64_t number, DrvmDecision *d) {
  if (!dr_api_check(vm, "drvm_run_to_decision", DR_API_STARTED, DR_API_FINISHED)) return -1;
  DrApi *a = vm->api;
  if (a->state >= DR_API_ENDED) return 0;
  uint64_t here = a->state == DR_API_STARTED ? 0 : a->decision.number + (a->state == DR_API_DECIDED);
  if (a->state == DR_API_DECISION && number == a->decision.number) {
    if (d) *d = a->decision;
    return 1;
  }
  if (number < here) {
    dr_api_fail(vm, "drvm_run_to_decision: decision %llu is past (the run is at %llu)", (unsigned long long)number,
                (unsigned long long)here);
    return -1;
  }
  if (a->state == DR_API_DECISION && !drvm_decide(vm, DRVM_SUGGESTED)) return -1;
  vm->step_mode = true;
  vm->step_target = number;
  go_on(vm);
  vm->step_target = UINT64_MAX;
  if (a->state != DR_API_DECISION) return 0;
  if (d) *d = a->decision;
  return 1;
}

uint64_t drvm_decision_count(const DrVM *vm) { return vm->sched_decisions; }

DrvmGoalStop drvm_goal_stop(const DrVM *vm, int *index) {
  const DrApi *a = vm->api;
  if (index) *index = -1;
  if (!a->goal || a->state != DR_API_DECISION) return DRVM_GOAL_NOT_STOPPED;
  return dr_sched_goal_stop(a->goal, index);
}

bool drvm_set_goal(DrVM *vm, const DrvmGoal *goal) {
  if (!dr_api_check(vm, "drvm_set_goal", DR_API_DECISION, DR_API_DECIDED)) return false;
  DrApi *a = vm->api;
  if (!a->goal) return dr_api_fail(vm, "drvm_set_goal: call drvm_set_stepping before drvm_start");
  dr_sched_goal_set(a->goal, vm, goal);
  vm->step_goal = goal != NULL;
  return true;
}

void drvm_interrupt(DrVM *vm) { vm->step_interrupt = 1; }

/* An atomic store and nothing else: a signal handler calls it. */
void drvm_stop(DrVM *vm) { atomic_store_explicit(&vm->stop_request, 1, memory_order_relaxed); }

void drvm_flush_output(DrVM *vm) { dr_flush_output(vm); }

/* The chosen scheduler's place in the chain (after a prefix replay, or
 * inside the recorder, or on top) taken by s. */
static void replace_core(DrVM *vm, DrScheduler *s) {
  DrApi *a = vm->api;
  if (a->replay) {
    dr_sched_replay_cut(a->replay);
    dr_sched_replay_then(a->replay, s);
  } else if (a->goal) {
    dr_sched_goal_set_inner(a->goal, s);
  } else if (a->recorder) {
    dr_sched_record_set_inner(a->recorder, s);
  } else {
    a->top = s;
  }
  vm->sched = a->top;
  if (a->core) a->core->destroy(a->core);
  a->core = s;
}

bool drvm_switch_scheduler(DrVM *vm, const char *name, const char *options) {
  if (!dr_api_check(vm, "drvm_switch_scheduler", DR_API_DECISION, DR_API_DECISION)) return false;
  DrApi *a = vm->api;
  if (!name) return dr_api_fail(vm, "drvm_switch_scheduler: no name");
  if (a->replay && !a->replay_prefix) return dr_api_fail(vm, "drvm_switch_scheduler: a full replay decides the run");
  uint64_t given, seed;
  DrScheduler *s = dr_reg_sched_new(name, options, a->seed, a->rerun, &given, &seed, &a->pool, a->err, sizeof a->err);
  if (!s) return false;
  if (s->points & ~vm->sched_points) {
    s->destroy(s);
    return dr_api_fail(vm, "drvm_switch_scheduler: %s needs scheduling points the run was not started with", name);
  }
  if (s->start && !s->start(s, vm, a->err, sizeof a->err)) {
    s->destroy(s);
    return false;
  }
  replace_core(vm, s);
  /* the new scheduler's own suggestion for this decision; the recording
   * keeps whatever is decided */
  DrThread *cur = vm->thread;
  DrThread *t = s->pick(s, vm, cur, (DrPickReason)vm->suspend_reason);
  if (!t || !dr_sched_is_enabled(vm, t)) return dr_api_fail(vm, "scheduler %s picked a thread that cannot run", name);
  if (t != vm->suggested && a->recorder) a->recorder->overridden(a->recorder, vm, t);
  vm->suggested = t;
  dr_api_build_decision(vm, t);
  return true;
}

/* ------------------------------------------------------------ finishing */

/* status is the finished run's: the detector's, the replay's and the
 * outputs' verdicts are in it, over how the program itself ended. */
static DrvmOutcome outcome_of(DrVM *vm, int status) {
  if (vm->halting && vm->halt_outcome == DRVM_OUTCOME_INTERRUPTED) return DRVM_OUTCOME_INTERRUPTED;
  if (status == DR_EXIT_REPLAY) return DRVM_OUTCOME_REPLAY_DIVERGED;
  if (vm->halting) return (DrvmOutcome)vm->halt_outcome;
  switch (status) {
  case DR_EXIT_OK: return DRVM_OUTCOME_NORMAL;
  case DR_EXIT_EXCEPTION: return DRVM_OUTCOME_EXCEPTION;
  case DR_EXIT_RACES: return DRVM_OUTCOME_RACES;
  default: return DRVM_OUTCOME_ERROR;
  }
}

/* The listeners' finish (the detector's summary), the replay's and the
 * recording's verdicts, and the scheduler's outputs. */
static int finish_parts(DrVM *vm, int status) {
  DrApi *a = vm->api;
  dr_finish_listeners(vm);
  a->detector = a->tracer = NULL;
  a->nlisteners = 0;
  bool races = a->det_result.races > 0 && status == DR_EXIT_OK;
  if (races) status = DR_EXIT_RACES;
  /* the trace, the JSON report or the pairs file asked for is lost: that
   * comes before the races found (a script reading the report must not
   * take exit status 66 for "the races are in the file") */
  if ((a->det_result.failed || a->trace_failed) && (status == DR_EXIT_OK || races)) status = DR_EXIT_USAGE;
  /* a stopped replay is cut short, not diverged */
  bool stopped = vm->halting && vm->halt_outcome == DRVM_OUTCOME_INTERRUPTED;
  if (a->replay && !stopped && !dr_sched_replay_done(a->replay, vm)) status = DR_EXIT_REPLAY;
  char err[512];
  if (a->recorder && !dr_sched_record_finish(a->recorder, err, sizeof err)) {
    dr_flush_output(vm);
    fprintf(vm->err_file, "drvm: %s\n", err);
    if (status == DR_EXIT_OK) status = DR_EXIT_USAGE;
  }
  if (a->core && a->core->finish) {
    dr_flush_output(vm);
    if (!a->core->finish(a->core, vm, err, sizeof err)) {
      fprintf(vm->err_file, "drvm: %s\n", err);
      if (status == DR_EXIT_OK || races) status = DR_EXIT_USAGE;
    }
  }
  return status;
}

int drvm_finish(DrVM *vm, DrvmResult *r) {
  if (!dr_api_check(vm, "drvm_finish", DR_API_STARTED, DR_API_ENDED)) return -1;
  DrApi *a = vm->api;
  if (a->state < DR_API_ENDED && !drvm_run_to_end(vm)) return -1;
  int status = finish_parts(vm, a->status);
  a->state = DR_API_FINISHED;
  a->status = status;
  if (r) {
    memset(r, 0, sizeof *r);
    r->outcome = outcome_of(vm, status);
    r->exit_status = status;
    r->races = a->det_result.races;
    r->predicted = a->det_result.predicted;
    r->uncaught = vm->uncaught;
    r->threads = vm->nall_threads;
    r->steps = vm->steps;
    r->decisions = vm->sched_decisions;
    r->seed = vm->seed;
    r->virtual_ms = (double)dr_now_ns(vm) / 1e6;
    r->restart = vm->restart;
  }
  dr_flush_output(vm);
  return status;
}

int drvm_run(DrVM *vm, int argc, const char *const *argv, DrvmResult *r) {
  if (!drvm_start(vm, argc, argv)) return -1;
  if (!drvm_run_to_end(vm)) return -1;
  return drvm_finish(vm, r);
}

const char *drvm_scheduler_name(const DrVM *vm) {
  const DrApi *a = vm->api;
  if (a->core) return a->core->name;
  if (a->replay) return a->replay->name;
  return dr_reg_sched_entry(0)->name; /* what drvm_start will choose */
}

bool drvm_scheduler_report(DrVM *vm, FILE *out, bool json) {
  DrApi *a = vm->api;
  if (!a->core || !a->core->report) return false;
  dr_flush_output(vm);
  a->core->report(a->core, vm, out, json);
  return true;
}

bool drvm_save_decisions_upto(DrVM *vm, const char *path, uint64_t n) {
  if (!dr_api_check(vm, "drvm_save_decisions", DR_API_STARTED, DR_API_FINISHED)) return false;
  DrApi *a = vm->api;
  if (!a->recorder) return dr_api_fail(vm, "drvm_save_decisions: call drvm_record before drvm_start");
  if (n > decided(vm))
    return dr_api_fail(vm, "drvm_save_decisions: %llu decisions asked, %llu taken", (unsigned long long)n,
                       (unsigned long long)decided(vm));
  return dr_sched_record_write(a->recorder, path, n, a->err, sizeof a->err);
}

bool drvm_save_decisions(DrVM *vm, const char *path) {
  if (!dr_api_check(vm, "drvm_save_decisions", DR_API_STARTED, DR_API_FINISHED)) return false;
  return drvm_save_decisions_upto(vm, path, decided(vm));
}
