/* The drvm command line. */
#include <errno.h>
#include <string.h>

#include "../compiler/compile.h"
#include "../detector/detector.h"
#include "../scheduler/sched.h"
#include "disasm.h"
#include "hunt.h"
#include "trace.h"

#include <fcntl.h>
#include <unistd.h>

static const char *const usage_text =
    "usage: drvm <command> [options] prog.dl [-- args...]\n"
    "\n"
    "commands:\n"
    "  run      compile and run a program\n"
    "  check    compile only and report every error\n"
    "  disasm   print the program's bytecode with source lines\n"
    "  hunt     run a program many times under several race-hunting schedulers\n"
    "           and compare the races each finds (drvm hunt --help)\n"
    "  racefuzz RaceFuzzer: potential races from the hybrid detector, then runs\n"
    "           that try to create each one (drvm racefuzz --help)\n"
    "  help     show help for a command (drvm help run)\n"
    "\n"
    "options:\n"
    "  --max-heap SIZE   heap limit, e.g. 64m or 2g (default 2g); beyond it\n"
    "                    allocation throws OutOfMemoryError\n"
    "  --max-steps N     stop a runaway program after N steps (exit status 5)\n"
    "  --sched NAME      thread scheduler: native (default), random, rr, pct,\n"
    "                    contest, drfinder, racefuzzer\n"
    "  --seed N          seed of every random choice (default: drawn)\n"
    "  --record FILE     write the run's schedule to FILE\n"
    "  --replay FILE     rerun the schedule recorded in FILE exactly\n"
    "  --replay-prefix FILE  replay FILE while it lasts, then --sched decides\n"
    "  --trace[=FILE]    print every event (access, lock, call...) to FILE or stderr\n"
    "  --detector NAME   race detector: ft (default), djit, basicvc, eraser,\n"
    "                    hybrid, empty, none\n"
    "  --all-races       report every racing pair, not one report per field\n"
    "  --race-exit-code N  exit status when races are found (default 66)\n"
    "  --lib PATH        open a C library for native methods (repeatable)\n"
    "  --report json=FILE  also write the races as JSON\n"
    "  --potential-races FILE  hybrid: write potentially racing statement pairs\n"
    "  --stats           print the detector's statistics at the end\n"
    "  --quantum N       steps between preemptions (rr; native's mean)\n"
    "  --spurious-wakeups  let wait() return now and then without notify\n"
    "  -v, --verbose     at the end, print the scheduler, steps and the seed\n"
    "  --all             disasm: include the built-in library\n"
    "  -h, --help        show this help\n"
    "  --version         print drvm's version\n";

static const char *const help_run =
    "usage: drvm run [options] prog.dl [args...]\n"
    "\n"
    "Compiles prog.dl (DL, a subset of Java 17) and runs main(String[] args)\n"
    "of its first class, and every thread it starts, as green threads under a\n"
    "deterministic scheduler: the same program, arguments, options and seed\n"
    "give the same run.  Arguments after the file (or after --) become args.\n"
    "\n"
    "options:\n"
    "  --sched NAME      native (default): like an OS, a thread runs a random\n"
    "                    quantum of steps; random: a random thread at every\n"
    "                    access, call and synchronization; rr: round-robin;\n"
    "                    pct: random priorities with --depth change points\n"
    "                    (Burckhardt et al.); contest: native plus random\n"
    "                    delays at synchronization (--noise); drfinder: reverses\n"
    "                    lock orders a previous run showed (--mtr-in; Cai & Cao);\n"
    "                    racefuzzer: brings a potential race's two statements\n"
    "                    together (--race-pairs; Sen)\n"
    "  --seed N          seed of the scheduler and of new Random(); without it\n"
    "                    one is drawn, and printed when the run ends with an\n"
    "                    uncaught exception, a deadlock or a step limit\n"
    "  --record FILE     write the schedule's decisions to FILE\n"
    "  --replay FILE     reproduce a recorded run exactly (other scheduling\n"
    "                    options are ignored)\n"
    "  --replay-prefix FILE  replay FILE's decisions while they last, then let\n"
    "                    --sched decide (seeded by --seed, else FILE's seed)\n"
    "  --trace[=FILE]    one line per event to FILE (default stderr):\n"
    "                      T2 Thread-1  wr   Account#3.balance  bank.dl:14  Account.deposit\n"
    "  --quantum N       steps between preemptions (rr: exactly; native: mean)\n"
    "  --depth D         pct: the bug depth, D-1 priority change points (default 3);\n"
    "                    drfinder: the stack depth of may-trigger relations (12)\n"
    "  --mtr-in FILE     drfinder: the may-trigger relations a previous run wrote;\n"
    "                    without it the run is DrFinder's Phase I (random\n"
    "                    scheduling that only collects relations)\n"
    "  --mtr-out FILE    drfinder: write this run's relations (the next run's input)\n"
    "  --restarts N      start a run over, up to N times, when it deadlocks after\n"
    "                    the scheduler suspended threads (drfinder; default 0)\n"
    "  --race-pairs FILE racefuzzer: potentially racing statement pairs, as\n"
    "                    --detector hybrid --potential-races FILE writes them\n"
    "  --pair N          racefuzzer: target the Nth pair only (default: all)\n"
    "  --sched-report FILE  write the scheduler's counters and the run's outcome\n"
    "                    as JSON (for scripts; docs/hunt.md)\n"
    "  --pct-steps K     pct: the steps a run is expected to take, over which the\n"
    "                    change points are drawn (default 10000; -v prints a\n"
    "                    run's scheduling points)\n"
    "  --noise P         contest: the chance of a delay at each synchronization\n"
    "                    event (default 0.2)\n"
    "  --spurious-wakeups  wait() may return without notify, as Java allows\n"
    "  --detector NAME   the race detector watching the run:\n"
    "                      ft       FastTrack (default): precise, no false alarms\n"
    "                      djit     DJIT+ vector clocks (same races as ft, slower)\n"
    "                      basicvc  plain vector clocks (same races, slowest)\n"
    "                      eraser   Eraser locksets (false alarms on hand-offs)\n"
    "                      hybrid   locksets + start/join/notify order: potential races\n"
    "                      empty    receives every event, does nothing\n"
    "                      none     no detector\n"
    "  --all-races       report every racing pair (default: one report per field\n"
    "                    or per array access site)\n"
    "  --race-exit-code N  exit status of a run that found races (default 66)\n"
    "  --report json=FILE  write the races as JSON (a stable id per race)\n"
    "  --potential-races FILE  with --detector hybrid: write the potentially\n"
    "                    racing statement pairs (RaceFuzzer's input)\n"
    "  --stats           print the detector's rule counts, clocks and memory, and\n"
    "                    the scheduler's counters (drfinder, racefuzzer)\n"
    "  --lib PATH        open a C library for native methods (repeatable; libc\n"
    "                    and libm are always searched, after these)\n"
    "  --max-heap SIZE   heap limit (default 2g)\n"
    "  --max-steps N     stop after N steps (branches and calls)\n"
    "  -v, --verbose     at the end, print the scheduler, steps and the seed\n"
    "\n"
    "exit status:\n"
    "  0   the program ended normally (or the status given to System.exit)\n"
    "  1   an exception escaped main (other threads' do not count, as in java)\n"
    "  2   usage error (bad command line, unreadable file)\n"
    "  3   compile error\n"
    "  4   deadlock: threads remain and none can run (a thread dump is printed)\n"
    "  5   the --max-steps limit was reached\n"
    "  6   --replay: the recording does not fit the program's run\n"
    "  66  the detector found data races (--race-exit-code), if the program\n"
    "      itself ended with status 0\n";

static const char *const help_check =
    "usage: drvm check prog.dl\n\nCompiles prog.dl and reports every error; exit status 3 if any, else 0.\n";
static const char *const help_disasm =
    "usage: drvm disasm [--all] prog.dl\n\n"
    "Prints each method's bytecode, grouped by source line, with its registers\n"
    "(R = holds a reference, p = primitive) and exception handlers.\n";

typedef struct {
  const char *sched, *record, *replay, *trace_file;
  uint64_t seed, quantum;
  bool have_seed, verbose, spurious, trace, prefix;
  const char *detector, *json, *potential;
  bool all_races, stats;
  int race_exit;
  DrSchedOptions sched_opts; /* --depth, --pct-steps, --noise, --mtr-*, --race-pairs, --pair (seed and quantum set at creation) */
  const char **libs;       /* --lib, in order */
  int nlibs;
  const char *path;
  int argc;
  char **argv;             /* the program's arguments */
  const char *sched_report; /* --sched-report FILE */
} RunOptions;

static const char *base_name(const char *path);

/* --restarts: at most this many. */
enum { DR_MAX_RESTARTS = 1000 };

/* --sched-report FILE: one JSON object about the run, for drivers such as
 * `drvm hunt` (docs/hunt.md). */
static bool write_sched_report(const char *path, DrVM *vm, DrScheduler *core, const RunOptions *o, uint64_t seed,
                               int status) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(vm->err_file, "drvm: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  fprintf(f, "{\n  \"scheduler\": \"%s\",\n  \"seed\": %llu,\n  \"exit\": %d,\n  \"uncaught\": %d,\n", core ? core->name : "replay",
          (unsigned long long)seed, status, vm->uncaught);
  fprintf(f, "  \"steps\": %llu,\n  \"points\": %llu,\n  \"threads\": %d,\n  \"attempts\": %d",
          (unsigned long long)vm->steps, (unsigned long long)vm->sched_decisions, vm->nall_threads,
          o->sched_opts.attempt + 1);
  if (core && core->report) {
    fputs(",\n  ", f);
    core->report(core, vm, f, true);
  }
  fputs("\n}\n", f);
  if (fclose(f) != 0) {
    fprintf(vm->err_file, "drvm: cannot write %s\n", path);
    return false;
  }
  return true;
}

static int usage_error(const char *fmt, const char *arg) {
  fputs("drvm: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'drvm --help'.\n", stderr);
  return DR_EXIT_USAGE;
}

static bool parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-') return false;
  unsigned long long mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1024ULL, end++;
  else if (*end == 'm' || *end == 'M') mul = 1024ULL * 1024, end++;
  else if (*end == 'g' || *end == 'G') mul = 1024ULL * 1024 * 1024, end++;
  if (*end || v == 0 || v > (unsigned long long)SIZE_MAX / mul) return false;
  *out = (size_t)(v * mul);
  return true;
}

static bool parse_count(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v == 0) return false;
  *out = v;
  return true;
}

static bool parse_seed(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-') return false;
  *out = v;
  return true;
}

static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
  return h;
}


/* The command line that reruns this run exactly, for race reports. */
static char *replay_command(const RunOptions *o, uint64_t seed, uint64_t then_seed) {
  DrBuf b = {0};
  char num[32];
  dr_buf_append_str(&b, "drvm run");
  if (o->replay && !o->prefix) {
    dr_buf_append_shell_arg(&b, "--replay");
    dr_buf_append_shell_arg(&b, o->replay);
  } else {
    if (o->prefix) {
      dr_buf_append_shell_arg(&b, "--replay-prefix");
      dr_buf_append_shell_arg(&b, o->replay);
    }
    if (strcmp(o->sched, "native") != 0) {
      dr_buf_append_shell_arg(&b, "--sched");
      dr_buf_append_shell_arg(&b, o->sched);
    }
    snprintf(num, sizeof num, "%llu", (unsigned long long)(o->prefix ? then_seed : seed));
    dr_buf_append_shell_arg(&b, "--seed");
    dr_buf_append_shell_arg(&b, num);
    if (o->quantum) {
      snprintf(num, sizeof num, "%llu", (unsigned long long)o->quantum);
      dr_buf_append_shell_arg(&b, "--quantum");
      dr_buf_append_shell_arg(&b, num);
    }
    if (o->spurious) dr_buf_append_shell_arg(&b, "--spurious-wakeups");
    if (o->sched_opts.depth) {
      snprintf(num, sizeof num, "%d", o->sched_opts.depth);
      dr_buf_append_shell_arg(&b, "--depth");
      dr_buf_append_shell_arg(&b, num);
    }
    if (o->sched_opts.pct_steps) {
      snprintf(num, sizeof num, "%llu", (unsigned long long)o->sched_opts.pct_steps);
      dr_buf_append_shell_arg(&b, "--pct-steps");
      dr_buf_append_shell_arg(&b, num);
    }
    if (o->sched_opts.noise >= 0) {
      snprintf(num, sizeof num, "%g", o->sched_opts.noise);
      dr_buf_append_shell_arg(&b, "--noise");
      dr_buf_append_shell_arg(&b, num);
    }
    if (o->sched_opts.mtr_in) {
      dr_buf_append_shell_arg(&b, "--mtr-in");
      dr_buf_append_shell_arg(&b, o->sched_opts.mtr_in);
    }
    if (o->sched_opts.race_pairs) {
      dr_buf_append_shell_arg(&b, "--race-pairs");
      dr_buf_append_shell_arg(&b, o->sched_opts.race_pairs);
    }
    if (o->sched_opts.attempt) { /* the same restarts lead to this attempt */
      snprintf(num, sizeof num, "%d", o->sched_opts.attempt);
      dr_buf_append_shell_arg(&b, "--restarts");
      dr_buf_append_shell_arg(&b, num);
    }
    if (o->sched_opts.pair) {
      snprintf(num, sizeof num, "%d", o->sched_opts.pair);
      dr_buf_append_shell_arg(&b, "--pair");
      dr_buf_append_shell_arg(&b, num);
    }
  }
  if (strcmp(o->detector, "ft") != 0) {
    dr_buf_append_shell_arg(&b, "--detector");
    dr_buf_append_shell_arg(&b, o->detector);
  }
  for (int i = 0; i < o->nlibs; i++) {
    dr_buf_append_shell_arg(&b, "--lib");
    dr_buf_append_shell_arg(&b, o->libs[i]);
  }
  dr_buf_append_shell_arg(&b, o->path);
  for (int i = 0; i < o->argc; i++) dr_buf_append_shell_arg(&b, o->argv[i]);
  dr_buf_append(&b, "", 1);
  return b.data;
}

/* Runs the compiled program under the chosen scheduler; returns the exit
 * status.  The seed line goes last on stderr when the run is worth
 * reproducing. */
static int run_program(DrVM *vm, DrClass *main_class, int argc, char **argv, const char *path, const char *text,
                       size_t len, const RunOptions *o) {
  uint64_t seed = o->seed; /* drawn by main when not given; a replay reads its own */
  bool spurious = o->spurious;
  uint64_t hash = fnv1a(text, len);
  DrScheduler *sched, *core = NULL; /* core: the scheduler deciding, not a replay or a recording */
  uint64_t then_seed = 0, run_seed = seed;
  if (o->replay) {
    sched = dr_sched_replay(o->replay, base_name(path), hash, &seed, &spurious);
    if (!sched) return DR_EXIT_USAGE;
    if (o->prefix) {
      /* after the recording, --sched decides, seeded by --seed or the recording's seed */
      then_seed = o->have_seed ? o->seed : seed;
      DrSchedOptions so = o->sched_opts;
      so.seed = then_seed;
      so.quantum = o->quantum;
      DrScheduler *then = dr_sched_create(o->sched, &so);
      if (!then) {
        fprintf(stderr, "drvm: unknown scheduler '%s' (choose one of: %s)\n", o->sched, dr_sched_names);
        sched->destroy(sched);
        return DR_EXIT_USAGE;
      }
      dr_sched_replay_then(sched, then);
      core = then; /* its inputs and outputs (--mtr-in...) work after the prefix too */
    }
  } else {
    DrSchedOptions so = o->sched_opts;
    /* a restarted run (DrFinder after a deadlock) draws anew, but from
     * the seed given, so --seed still reproduces the whole sequence */
    so.seed = so.attempt ? (seed ^ ((uint64_t)so.attempt * 0x9E3779B97F4A7C15u)) % 1000003u : seed;
    so.quantum = o->quantum;
    char *rerun_cmd = replay_command(o, seed, 0);
    so.rerun = rerun_cmd;
    sched = dr_sched_create(o->sched, &so);
    free(rerun_cmd);
    if (!sched) {
      fprintf(stderr, "drvm: unknown scheduler '%s' (choose one of: %s)\n", o->sched, dr_sched_names);
      return DR_EXIT_USAGE;
    }
    core = sched;
    run_seed = so.seed;
  }
  if (core && core->start) {
    char err[512];
    if (!core->start(core, vm, err, sizeof err)) {
      fprintf(stderr, "drvm: %s\n", err);
      sched->destroy(sched); /* core itself, or the prefix replay that owns it */
      return DR_EXIT_USAGE;
    }
  }
  if (o->record) {
    DrScheduler *rec = dr_sched_record(sched, o->record, base_name(path), hash, run_seed, spurious);
    if (!rec) {
      sched->destroy(sched);
      return DR_EXIT_USAGE;
    }
    sched = rec;
  }
  DrScheduler *tape = o->replay ? (o->record ? NULL : sched) : NULL;
  DrListener *tracer = NULL;
  if (o->trace) {
    tracer = dr_tracer_new(o->trace_file);
    if (!tracer) {
      fprintf(stderr, "drvm: cannot write %s: %s\n", o->trace_file, strerror(errno));
      sched->destroy(sched);
      return DR_EXIT_USAGE;
    }
    dr_add_listener(vm, tracer);
  }
  char *replay_cmd = replay_command(o, seed, then_seed);
  DrDetectorOptions dopt = {o->detector, o->all_races, o->stats, o->json, o->potential, replay_cmd,
                            o->prefix ? then_seed : seed};
  DrDetectorResult dres;
  char derr[256];
  DrListener *det = dr_detector_new(vm, &dopt, &dres, derr, sizeof derr);
  if (!det && derr[0]) {
    fprintf(stderr, "drvm: %s\n", derr);
    free(replay_cmd);
    for (DrListener *l = vm->listeners; l;) {
      DrListener *next = l->next;
      if (l->finish) l->finish(l, vm);
      l = next;
    }
    vm->listeners = NULL;
    sched->destroy(sched);
    return DR_EXIT_USAGE;
  }
  if (det) dr_add_listener(vm, det);
  vm->sched = sched;
  vm->sched_points = sched->points;
  if (sched->points) vm->hooks = true;
  vm->seed = o->replay ? seed : run_seed;
  vm->spurious_wakeups = spurious;
  int status = dr_run_main(vm, main_class, argc, argv);
  for (DrListener *l = vm->listeners; l;) {
    DrListener *next = l->next;
    if (l->finish) l->finish(l, vm);
    l = next;
  }
  vm->listeners = NULL;
  vm->listen_mask = 0;
  free(replay_cmd);
  if (dres.races > 0 && status == DR_EXIT_OK) status = o->race_exit;
  if (dres.failed && status == DR_EXIT_OK) status = DR_EXIT_USAGE;
  if (o->replay && !dr_sched_replay_done(tape ? tape : dr_sched_record_inner(sched), vm)) status = DR_EXIT_REPLAY;
  if (o->record && !dr_sched_record_finish(sched) && status == DR_EXIT_OK) status = DR_EXIT_USAGE;
  if (core && core->finish) {
    char err[512];
    dr_flush_output(vm);
    if (!core->finish(core, vm, err, sizeof err)) {
      fprintf(vm->err_file, "drvm: %s\n", err);
      if (status == DR_EXIT_OK || status == o->race_exit) status = DR_EXIT_USAGE;
    }
  }
  if (o->stats && core && core->report) {
    dr_flush_output(vm);
    fprintf(vm->err_file, "drvm: %s scheduler statistics\n", core->name);
    core->report(core, vm, vm->err_file, false);
  }
  if (o->sched_report && !write_sched_report(o->sched_report, vm, core, o, run_seed, status) && status == DR_EXIT_OK)
    status = DR_EXIT_USAGE;
  if (o->verbose) {
    dr_flush_output(vm);
    fprintf(vm->err_file, "drvm: scheduler %s%s, %d thread%s, %llu steps, %llu scheduling points, virtual time %.3f ms\n",
            o->replay ? (o->prefix ? "prefix replay of " : "replay of ") : o->sched, o->replay ? o->replay : "", vm->nall_threads,
            vm->nall_threads == 1 ? "" : "s", (unsigned long long)vm->steps,
            (unsigned long long)vm->sched_decisions, (double)dr_now_ns(vm) / 1e6);
  }
  sched->destroy(sched);
  vm->sched = NULL;
  bool worth = vm->uncaught > 0 || status == DR_EXIT_DEADLOCK || status == DR_EXIT_STEPS;
  if (worth || o->verbose) {
    dr_flush_output(vm);
    if (o->prefix)
      fprintf(vm->err_file, "drvm: seed %llu (rerun with --replay-prefix %s --seed %llu)\n",
              (unsigned long long)then_seed, o->replay, (unsigned long long)then_seed);
    else if (o->sched_opts.attempt)
      fprintf(vm->err_file, "drvm: seed %llu, restart %d (rerun with --seed %llu --restarts %d)\n",
              (unsigned long long)seed, o->sched_opts.attempt, (unsigned long long)seed, o->sched_opts.attempt);
    else
      fprintf(vm->err_file, "drvm: seed %llu (rerun with --seed %llu)\n", (unsigned long long)seed,
              (unsigned long long)seed);
  }
  return status;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return DR_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("drvm %s\n", DR_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "help")) {
    const char *topic = argc > 2 ? argv[2] : "";
    if (!strcmp(topic, "run")) fputs(help_run, stdout);
    else if (!strcmp(topic, "check")) fputs(help_check, stdout);
    else if (!strcmp(topic, "disasm")) fputs(help_disasm, stdout);
    else if (!*topic) fputs(usage_text, stdout);
    else return usage_error("no help for '%s'", topic);
    return 0;
  }
  if (!strcmp(cmd, "hunt")) return dr_cmd_hunt(argv[0], argc - 1, argv + 1);
  if (!strcmp(cmd, "racefuzz")) return dr_cmd_racefuzz(argv[0], argc - 1, argv + 1);
  bool is_run = !strcmp(cmd, "run"), is_check = !strcmp(cmd, "check"), is_disasm = !strcmp(cmd, "disasm");
  if (!is_run && !is_check && !is_disasm) return usage_error("unknown command '%s'", cmd);

  size_t max_heap = 0;
  uint64_t max_steps = 0, seed = 0, quantum = 0;
  DrSchedOptions sched_opts = {.noise = -1};
  bool all = false, have_seed = false, verbose = false, spurious = false, trace = false, prefix = false;
  const char *sched_name = "native", *record = NULL, *replay = NULL, *trace_file = NULL;
  const char *detector = "ft", *json = NULL, *potential = NULL, *sched_report = NULL;
  bool all_races = false, stats = false;
  uint64_t race_exit = DR_EXIT_RACES, max_restarts = 0;
  const char *path = NULL;
  enum { MAX_LIBS = 64 };
  const char *libs[MAX_LIBS];
  int nlibs = 0;
  int i = 2;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (!strcmp(a, "--max-heap") || !strcmp(a, "--max-steps")) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--max-heap") ? !parse_size(v, &max_heap) : !parse_count(v, &max_steps))
        return usage_error("bad value '%s'", v);
    } else if (is_run && (!strcmp(a, "--sched") || !strcmp(a, "--seed") || !strcmp(a, "--record") ||
                          !strcmp(a, "--replay") || !strcmp(a, "--replay-prefix") || !strcmp(a, "--quantum"))) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--sched")) sched_name = v;
      else if (!strcmp(a, "--record")) record = v;
      else if (!strcmp(a, "--replay") || !strcmp(a, "--replay-prefix")) {
        if (replay) return usage_error("%s: give one recording (--replay or --replay-prefix), once", a);
        replay = v;
        prefix = a[8] == '-';
      }
      else if (!strcmp(a, "--quantum") ? !parse_count(v, &quantum) : !parse_seed(v, &seed))
        return usage_error("bad value '%s'", v);
      if (!strcmp(a, "--seed")) have_seed = true;
    } else if (is_run && (!strcmp(a, "--detector") || !strcmp(a, "--report") || !strcmp(a, "--potential-races") ||
                          !strcmp(a, "--race-exit-code"))) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--detector")) {
        detector = v;
      } else if (!strcmp(a, "--report")) {
        if (strncmp(v, "json=", 5) != 0 || !v[5]) return usage_error("--report takes json=FILE, not '%s'", v);
        json = v + 5;
      } else if (!strcmp(a, "--potential-races")) {
        potential = v;
      } else if (!parse_seed(v, &race_exit) || race_exit > 255) {
        return usage_error("--race-exit-code takes 0..255, not '%s'", v);
      }
    } else if (is_run && (!strcmp(a, "--depth") || !strcmp(a, "--pct-steps") || !strcmp(a, "--noise"))) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      uint64_t n;
      if (!strcmp(a, "--depth")) {
        if (!parse_count(v, &n) || n < 1 || n > 1000) return usage_error("--depth takes 1..1000, not '%s'", v);
        sched_opts.depth = (int)n;
      } else if (!strcmp(a, "--pct-steps")) {
        if (!parse_count(v, &n) || n < 1) return usage_error("--pct-steps takes a positive count, not '%s'", v);
        sched_opts.pct_steps = n;
      } else {
        char *end;
        double p = strtod(v, &end);
        if (end == v || *end || !(p >= 0 && p <= 1)) return usage_error("--noise takes a probability 0..1, not '%s'", v);
        sched_opts.noise = p;
      }
    } else if (is_run && (!strcmp(a, "--mtr-in") || !strcmp(a, "--mtr-out") || !strcmp(a, "--race-pairs") ||
                          !strcmp(a, "--sched-report") || !strcmp(a, "--pair") || !strcmp(a, "--restarts"))) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      const char *v = argv[++i];
      uint64_t n;
      if (!*v) return usage_error("%s needs a value", a);
      if (!strcmp(a, "--restarts")) {
        if (!parse_seed(v, &max_restarts) || max_restarts > DR_MAX_RESTARTS)
          return usage_error("--restarts takes 0..1000, not '%s'", v);
      } else if (!strcmp(a, "--mtr-in")) sched_opts.mtr_in = v;
      else if (!strcmp(a, "--mtr-out")) sched_opts.mtr_out = v;
      else if (!strcmp(a, "--race-pairs")) sched_opts.race_pairs = v;
      else if (!strcmp(a, "--sched-report")) sched_report = v;
      else if (!parse_count(v, &n) || n > 1000000) return usage_error("--pair takes a pair number 1, 2, ..., not '%s'", v);
      else sched_opts.pair = (int)n;
    } else if (is_run && !strcmp(a, "--lib")) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      if (nlibs == MAX_LIBS) return usage_error("too many --lib options (at most 64): '%s'", argv[i + 1]);
      libs[nlibs++] = argv[++i];
    } else if (is_run && !strcmp(a, "--all-races")) {
      all_races = true;
    } else if (is_run && !strcmp(a, "--stats")) {
      stats = true;
    } else if (is_run && (!strcmp(a, "--trace") || !strncmp(a, "--trace=", 8))) {
      trace = true;
      trace_file = a[7] == '=' ? a + 8 : NULL;
      if (trace_file && !*trace_file) return usage_error("%s needs a file name", a);
    } else if (is_run && !strcmp(a, "--spurious-wakeups")) {
      spurious = true;
    } else if (is_run && (!strcmp(a, "-v") || !strcmp(a, "--verbose"))) {
      verbose = true;
    } else if (!strcmp(a, "--all") && is_disasm) {
      all = true;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(is_run ? help_run : is_check ? help_check : help_disasm, stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      return usage_error("unknown option '%s'", a);
    } else if (!path) {
      path = a;
    } else if (is_run) {
      /* Java-style: arguments after the file need no "--". */
      break;
    } else {
      return usage_error("unexpected argument '%s'", a);
    }
  }
  if (!path) return usage_error("%s needs a program file (prog.dl)", cmd);
  if ((sched_opts.mtr_in || sched_opts.mtr_out) && strcmp(sched_name, "drfinder") != 0 && !replay)
    return usage_error("--mtr-in and --mtr-out go with --sched drfinder%s", "");
  if ((sched_opts.race_pairs || sched_opts.pair) && strcmp(sched_name, "racefuzzer") != 0 && !replay)
    return usage_error("--race-pairs and --pair go with --sched racefuzzer%s", "");
  /* drawn once: a restarted run derives its seed from it */
  if (is_run && !have_seed && !replay) {
    seed = dr_draw_seed();
    have_seed = true;
  }
  if (!is_run && i < argc) return usage_error("'%s' takes no program arguments", cmd);

  size_t len;
  char *text = dr_read_file(path, &len);
  if (!text) {
    fprintf(stderr, "drvm: cannot read %s: %s\n", path, strerror(errno));
    return DR_EXIT_USAGE;
  }
  if (memchr(text, '\0', len)) {
    fprintf(stderr, "drvm: %s is not a text file (it contains NUL bytes)\n", path);
    free(text);
    return DR_EXIT_USAGE;
  }
  DrSource src = {path, text, len};
  DrVM vm;
  int status;
restart:
  dr_vm_init(&vm);
  for (int k = 0; k < nlibs; k++) {
    char err[512];
    if (!dr_ffi_load(&vm, libs[k], err, sizeof err)) {
      fprintf(stderr, "drvm: --lib %s: %s\n", libs[k], err);
      dr_vm_free(&vm);
      free(text);
      return DR_EXIT_USAGE;
    }
  }
  vm.source_name = base_name(path);
  if (max_heap) vm.max_heap = max_heap;
  vm.max_steps = max_steps;
  DrDiagList diags;
  dr_diag_init(&diags);
  DrClass *main_class = dr_compile(&vm, &src, &diags);
  if (!main_class) {
    dr_diag_print(&diags, stderr);
    if (!diags.count) fprintf(stderr, "drvm: compilation failed\n");
    status = DR_EXIT_COMPILE;
  } else if (is_check) {
    status = 0;
  } else if (is_disasm) {
    dr_disasm_program(&vm, all, stdout);
    status = 0;
  } else {
    RunOptions ro = {sched_name, record, replay, trace_file, seed, quantum, have_seed, verbose, spurious, trace, prefix,
                     detector, json, potential, all_races, stats, (int)race_exit, sched_opts, libs, nlibs, path, argc - i,
                     argv + i, sched_report};
    status = run_program(&vm, main_class, argc - i, argv + i, path, text, len, &ro);
    if (vm.restart && sched_opts.attempt < (int)max_restarts) {
      /* the scheduler's suspensions may have caused the deadlock */
      dr_flush_output(&vm);
      sched_opts.attempt++;
      fprintf(vm.err_file, "drvm: %s suspended threads in this run; restarting it (restart %d of at most %d)\n\n",
              sched_name, sched_opts.attempt, (int)max_restarts);
      dr_diag_free(&diags);
      dr_vm_free(&vm);
      goto restart;
    }
  }
  dr_diag_free(&diags);
  dr_vm_free(&vm);
  free(text);
  return status;
}
