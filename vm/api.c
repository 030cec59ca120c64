/* include/drvm.h: a VM's life, its output sinks, compiling, errors and
 * the registries' lists.  Running is api_run.c; inspection api_view.c. */
#define _GNU_SOURCE /* fopencookie: the host's output callbacks as FILE streams */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "api.h"
#include "disasm.h"
#include "hashidx.h"

bool dr_api_fail(DrVM *vm, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(vm->api->err, sizeof vm->api->err, fmt, ap);
  va_end(ap);
  return false;
}

static const char *const state_words[] = {"before compiling", "after compiling", "after drvm_start",
                                          "at a decision", "after drvm_decide", "after the run ended",
                                          "after drvm_finish"};

bool dr_api_check(DrVM *vm, const char *fn, DrApiState lo, DrApiState hi) {
  if (vm->in_listener) return dr_api_fail(vm, "%s: called from a listener (listeners may only inspect)", fn);
  DrApiState s = vm->api->state;
  if (s < lo || s > hi) return dr_api_fail(vm, "%s: not allowed %s", fn, state_words[s]);
  if (!vm->api->run_failed) vm->api->err[0] = 0; /* a run's own failure stays to be read */
  return true;
}

/* ------------------------------------------------------------ words */

const char *drvm_event_word(DrvmEventKind kind) {
  return (unsigned)kind < DRVM_EV__COUNT ? dr_event_info[kind].word : "?";
}

const char *drvm_thread_state_word(DrvmThreadState state) {
  return (unsigned)state < DRVM_TS__COUNT ? dr_thread_state_names[state] : "?";
}

const char *drvm_outcome_word(DrvmOutcome outcome) {
  static const char *const words[] = {
#define DR_OUTCOME_WORD(name, status, text) #name,
      DRVM_OUTCOMES(DR_OUTCOME_WORD)
#undef DR_OUTCOME_WORD
  };
  return (unsigned)outcome < DRVM_OUTCOME__COUNT ? words[outcome] : "?";
}

/* ------------------------------------------------------------ life */

void drvm_config_init(DrvmConfig *c) {
  memset(c, 0, sizeof *c);
  c->out = stdout;
  c->err = stderr;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n, bool err) {
  DrApi *a = cookie;
  (err ? a->write_err : a->write_out)(a->write_user, buf, n);
  return (ssize_t)n;
}
static ssize_t out_write(void *cookie, const char *buf, size_t n) { return sink_write(cookie, buf, n, false); }
static ssize_t err_write(void *cookie, const char *buf, size_t n) { return sink_write(cookie, buf, n, true); }

/* A callback as a FILE: everything the VM writes goes through it. */
static FILE *sink_open(DrApi *a, bool err) {
  cookie_io_functions_t io = {NULL, err ? err_write : out_write, NULL, NULL};
  FILE *f = fopencookie(a, "w", io);
  if (f) setvbuf(f, NULL, _IONBF, 0); /* the VM buffers stdout itself; stderr goes at once */
  return f;
}

static bool setup_output(DrVM *vm, const DrvmConfig *c) {
  DrApi *a = vm->api;
  a->write_out = c->write_out;
  a->write_err = c->write_err;
  a->write_user = c->write_user;
  vm->out_file = c->out ? c->out : stdout;
  vm->err_file = c->err ? c->err : stderr;
  vm->out_unbuffered = c->unbuffered;
  if (c->write_out && !(vm->out_file = a->out_sink = sink_open(a, false))) return false;
  if (c->write_err && !(vm->err_file = a->err_sink = sink_open(a, true))) return false;
  return true;
}

DrVM *drvm_new(const DrvmConfig *c, char *err, size_t errsize) {
  DrvmConfig defaults;
  if (!c) {
    drvm_config_init(&defaults);
    c = &defaults;
  }
  DrVM *vm = dr_xcalloc(1, sizeof *vm);
  dr_vm_init(vm);
  vm->api = dr_xcalloc(1, sizeof *vm->api);
  DrApi *a = vm->api;
  dr_diag_init(&a->diags);
  if (c->max_heap) vm->max_heap = c->max_heap;
  if (c->max_memory) vm->max_memory = c->max_memory;
  vm->max_steps = c->max_steps;
  a->seed = c->seed;
  a->spurious = a->spurious_given = c->spurious_wakeups;
  a->source_name = c->source_name ? dr_strdup(c->source_name) : NULL;
  a->rerun = c->rerun ? dr_strdup(c->rerun) : NULL;
  a->main_given = c->main_class ? dr_strdup(c->main_class) : NULL;
  bool ok = setup_output(vm, c);
  if (!ok && err) snprintf(err, errsize, "cannot set up the output callbacks: %s", strerror(errno));
  for (int i = 0; ok && i < c->nlibs; i++) {
    char why[512];
    ok = dr_ffi_load(vm, c->libs[i], why, sizeof why);
    if (!ok && err) snprintf(err, errsize, "--lib %s: %s", c->libs[i], why);
  }
  if (!ok) {
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

static void free_parts(DrApi *a) {
  if (a->top) a->top->destroy(a->top); /* owns the recorder, replay and core */
  else {
    if (a->replay) a->replay->destroy(a->replay);
    if (a->core) a->core->destroy(a->core);
  }
  a->top = a->core = a->replay = a->recorder = NULL;
}

/* Ends the run where it stands (not started, at a decision, ended or
 * finished) and frees what its parts own (api.h's run_begin..run_end):
 * listeners not yet finished finish now (a detector writes its
 * summary), the scheduler chain and a host's scheduler go. */
static void release_run(DrVM *vm) {
  DrApi *a = vm->api;
  /* listeners not yet finished (a run never ended) free themselves in finish */
  if (a->state < DR_API_FINISHED) {
    dr_finish_listeners(vm);
    if (a->state < DR_API_STARTED && a->tracer) a->tracer->finish(a->tracer, vm); /* never attached */
    for (int i = 0; i < a->nlisteners; i++) free(a->listeners[i]);
  }
  free_parts(a);
  vm->sched = NULL;
  if (a->host.destroy) a->host.destroy(a->host_user);
  free(a->listeners);
  dr_str_pool_free(&a->pool);
  free(a->choices);
  free(a->choice_events);
  free(a->record_path);
  free(a->det_name);
  free(a->det_options);
}

void drvm_free(DrVM *vm) {
  if (!vm) return;
  DrApi *a = vm->api;
  release_run(vm);
  dr_api_explore_free(a);
  if (vm->out_file) fflush(vm->out_file);
  dr_vm_free(vm);
  if (a->out_sink) fclose(a->out_sink);
  if (a->err_sink) fclose(a->err_sink);
  for (int i = 0; a->diag_lines && i < a->diags.count; i++) free(a->diag_lines[i]);
  free(a->diag_lines);
  dr_diag_free(&a->diags);
  free(a->source_name);
  free(a->rerun);
  free(a->main_given);
  for (int i = 0; i < a->nfiles; i++) {
    free((char *)a->files[i].path);
    free((char *)a->files[i].text);
    free((char *)a->files[i].file_name);
  }
  free(a->files);
  free(a);
  free(vm);
}

bool drvm_reset(DrVM *vm) {
  DrApi *a = vm->api;
  if (a->state == DR_API_NEW && !vm->in_listener)
    return dr_api_fail(vm, "drvm_reset: no program compiled yet (a reset returns to the state right after compiling)");
  if (!dr_api_check(vm, "drvm_reset", DR_API_COMPILED, DR_API_FINISHED)) return false;
  release_run(vm);
  dr_vm_reset(vm);
  memset(&a->run_begin, 0, offsetof(DrApi, run_end) - offsetof(DrApi, run_begin));
  a->spurious = a->spurious_given; /* a replay sets the recording's */
  a->err[0] = 0;
  a->run_failed = false;
  a->state = DR_API_COMPILED;
  return true;
}

const char *drvm_error(const DrVM *vm) { return vm && vm->api ? vm->api->err : ""; }

/* ------------------------------------------------------------ compiling */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

bool drvm_compile_strings(DrVM *vm, int n, const char *const *names, const char *const *texts, const size_t *lens) {
  if (!dr_api_check(vm, "drvm_compile", DR_API_NEW, DR_API_NEW)) return false;
  DrApi *a = vm->api;
  if (a->nfiles)
    return dr_api_fail(vm, "drvm_compile: not allowed again: a VM compiles one program (it was given %s; "
                           "drvm_compile_files compiles several files as one)", a->files[0].path);
  if (n < 1) return dr_api_fail(vm, "drvm_compile: no file given");
  for (int i = 0; i < n; i++) {
    const char *name = names && names[i] ? names[i] : "prog.dl";
    if (memchr(texts[i], '\0', lens[i])) return dr_api_fail(vm, "%s is not a text file (it contains NUL bytes)", name);
  }
  a->files = dr_xcalloc((size_t)n, sizeof *a->files);
  a->nfiles = n;
  uint64_t hash = 0;
  for (int i = 0; i < n; i++) {
    const char *name = names && names[i] ? names[i] : "prog.dl";
    DrSource *f = &a->files[i];
    f->path = dr_strdup(name);
    f->text = dr_strndup(texts[i], lens[i]); /* no NUL inside: all of it */
    f->len = lens[i];
    /* one file shows the name the host gave; several show their own */
    f->file_name = dr_strdup(n == 1 && a->source_name ? a->source_name : base_name(name));
    /* a recording names the program text it was made from */
    hash = i == 0 ? dr_fnv1a(texts[i], lens[i]) : hash * 0x100000001b3u ^ dr_fnv1a(texts[i], lens[i]);
  }
  a->program_hash = hash;
  vm->source_name = a->files[0].file_name;
  a->main_class = dr_compile_units(vm, a->files, n, a->main_given, &a->diags);
  dr_diag_sort(&a->diags); /* drvm_diag's order is the printed one */
  if (!a->main_class) {
    if (!a->diags.count) return dr_api_fail(vm, "compilation failed");
    return dr_api_fail(vm, "%d compile error%s", a->diags.count, a->diags.count == 1 ? "" : "s");
  }
  dr_vm_snapshot(vm); /* what drvm_reset returns to */
  a->state = DR_API_COMPILED;
  return true;
}

bool drvm_compile_string(DrVM *vm, const char *name, const char *text, size_t len) {
  return drvm_compile_strings(vm, 1, &name, &text, &len);
}

bool drvm_compile_files(DrVM *vm, int n, const char *const *paths) {
  if (!dr_api_check(vm, "drvm_compile_files", DR_API_NEW, DR_API_NEW)) return false;
  if (n < 1) return dr_api_fail(vm, "drvm_compile_files: no file given");
  char **texts = dr_xcalloc((size_t)n, sizeof *texts);
  size_t *lens = dr_xcalloc((size_t)n, sizeof *lens);
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    texts[i] = dr_read_file(paths[i], &lens[i]);
    if (!texts[i]) ok = dr_api_fail(vm, "cannot read %s: %s", paths[i], strerror(errno));
  }
  if (ok) ok = drvm_compile_strings(vm, n, (const char *const *)paths, (const char *const *)texts, lens);
  for (int i = 0; i < n; i++) free(texts[i]);
  free(texts);
  free(lens);
  return ok;
}

bool drvm_compile_file(DrVM *vm, const char *path) { return drvm_compile_files(vm, 1, &path); }

int drvm_diag_count(const DrVM *vm) { return vm->api->diags.count; }

/* The text of line n (1-based) of src, malloc'd. */
static char *source_line(const DrSource *src, int n) {
  const char *p = src->text, *end = src->text + src->len;
  for (int i = 1; i < n && p < end; i++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : end;
  }
  const char *e = p;
  while (e < end && *e != '\n' && *e != '\r') e++;
  return dr_strndup(p, (size_t)(e - p));
}

bool drvm_diag(const DrVM *vm, int i, DrvmDiag *out) {
  DrApi *a = vm->api;
  if (i < 0 || i >= a->diags.count) return false;
  if (!a->diag_lines) a->diag_lines = dr_xcalloc((size_t)a->diags.count, sizeof(char *));
  const DrDiag *d = &a->diags.items[i];
  if (!a->diag_lines[i]) a->diag_lines[i] = d->src && d->src->text ? source_line(d->src, d->line) : dr_strdup("");
  out->file = d->src && d->src->path ? d->src->path : "<input>";
  out->line = d->line;
  out->col = d->col;
  out->message = d->msg;
  out->source_line = a->diag_lines[i];
  return true;
}

void drvm_print_diags(const DrVM *vm, FILE *out) {
  dr_diag_print(&vm->api->diags, out);
}

bool drvm_disassemble(DrVM *vm, bool all, FILE *out) {
  if (!dr_api_check(vm, "drvm_disassemble", DR_API_COMPILED, DR_API_FINISHED)) return false;
  dr_disasm_program(vm, all, out);
  return true;
}

/* ------------------------------------------------------------ registries */

int drvm_scheduler_count(void) { return dr_reg_sched_count(); }
const DrvmEntry *drvm_scheduler_entry(int i) { return dr_reg_sched_entry(i); }
int drvm_detector_count(void) { return dr_reg_det_count(); }
const DrvmEntry *drvm_detector_entry(int i) { return dr_reg_det_entry(i); }
int drvm_scheduler_option_count(void) { return dr_reg_sched_option_count(); }
const DrvmEntry *drvm_scheduler_option(int i) { return dr_reg_sched_option(i); }
int drvm_detector_option_count(void) { return dr_reg_det_option_count(); }
const DrvmEntry *drvm_detector_option(int i) { return dr_reg_det_option(i); }
bool drvm_scheduler_option_check(const char *key, const char *value, char *err, size_t errsize) {
  return dr_reg_sched_option_check(key, value, err, errsize);
}
bool drvm_detector_option_check(const char *key, const char *value, char *err, size_t errsize) {
  return dr_reg_det_option_check(key, value, err, errsize);
}

bool drvm_recording_seed(const char *path, uint64_t *seed, char *err, size_t errsize) {
  bool spurious;
  FILE *quiet = fopen("/dev/null", "w");
  DrScheduler *r = dr_sched_replay(path, "", 0, seed, &spurious, quiet ? quiet : stderr, err, errsize);
  if (quiet) fclose(quiet);
  if (r) r->destroy(r);
  return r != NULL;
}
