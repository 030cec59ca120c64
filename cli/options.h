/* `drvm run`'s command-line options: one table, DR_RUN_OPTIONS, from
 * which the parser, `drvm help run` and `drvm --help`, the rerun command
 * of race reports and seed lines (DrvmConfig.rerun), and the argv of
 * `drvm hunt`'s and `drvm racefuzz`'s children are all made.  Options
 * that are a scheduler's or a detector's take their argument's name, help
 * and rerun flag from the registries (drvm_scheduler_option,
 * drvm_detector_option); the schedulers and detectors themselves are only
 * ever listed by the registries. */
#ifndef DR_CLI_OPTIONS_H
#define DR_CLI_OPTIONS_H

#include "../include/drvm.h"
#include "../vm/buf.h"
#include "../vm/common.h"

/* Where an option's value goes. */
typedef enum {
  DR_TO_CONFIG, /* a DrvmConfig field (run only) */
  DR_TO_LIMIT,  /* a DrvmConfig limit, which check and disasm honour too */
  DR_TO_SCHED,  /* drvm_set_scheduler: its name (key NULL), else the option key=value */
  DR_TO_DET,    /* drvm_set_detector: likewise */
  DR_TO_CLI,    /* the command line's own (run only) */
  DR_TO_DISASM, /* drvm disasm's own */
  DR_TO_REPL,   /* drvm repl's own */
  DR_TO_EXPLORE,/* drvm explore's own */
  DR_TO_GRADE,  /* drvm grade's own */
} DrOptTo;

/* How a value is read and checked. */
typedef enum {
  DR_V_FLAG,     /* no value */
  DR_V_STR,      /* any text */
  DR_V_FILE,     /* a non-empty file name */
  DR_V_OPT_FILE, /* a flag, or --NAME=FILE */
  DR_V_KEYED,    /* KEY=FILE (KEY the row's key), e.g. json=FILE */
  DR_V_U64,      /* 0, 1, ... */
  DR_V_COUNT,    /* 1, 2, ... */
  DR_V_INT,      /* min..max */
  DR_V_SIZE,     /* bytes: 64m, 2g (kept as the number of bytes) */
  DR_V_PROB,     /* a probability 0..1 */
  DR_V_REG,      /* a registry option's value: the registry checks it (drvm_*_option_check) */
} DrValKind;

typedef struct {
  DrValKind kind;
  long long min, max; /* DR_V_INT */
  const char *what;   /* a bad value's message: "NAME takes WHAT, not 'V'" (NULL: "bad value 'V'", or min..max) */
  const char *def;    /* the value when not given (NULL: none) */
} DrValSpec;

#define DR_VAL(kind) {kind, 0, 0, NULL, NULL}
#define DR_VAL_INT(min, max, what) {DR_V_INT, min, max, what, NULL}
#define DR_VAL_NAME(def) {DR_V_STR, 0, 0, NULL, def}

/* How the rerun command writes an option back.  "Unless replaying": a
 * --replay of a recording decides the schedule, so options that shape
 * it are left out after it. */
typedef enum {
  DR_RR_NO,       /* never (outputs, limits, the command line's reporting) */
  DR_RR_YES,      /* as given (a value equal to the default is left out) */
  DR_RR_REPLAY,   /* as given, and nothing that is left out "unless replaying" */
  DR_RR_SCHED,    /* as given, unless replaying */
  DR_RR_REGISTRY, /* as its registry entry's rerun says (a scheduler's: unless replaying) */
  DR_RR_SEED,     /* the seed the run used, unless replaying */
  DR_RR_ATTEMPT,  /* the restart the run is (when not 0), unless replaying */
} DrRerunKind;

enum {
  DR_F_REPEAT = 1 << 0, /* may be given again: every value counts, in order */
  DR_F_STRICT = 1 << 1, /* refused with a scheduler its registry entry does not apply to (unless replaying) */
  DR_F_NONEMPTY = 1 << 2, /* an empty value is a missing one (as DR_V_FILE's) */
  DR_F_RUN_ONLY = 1 << 3, /* run's, not repl's (repl takes every other run option) */
  DR_F_EXPLORE = 1 << 4,  /* explore takes it too (of run's options, only these) */
};

/* The options, in the order the rerun command and children's argv write
 * them (and help lists them).
 * X(id, name, alias, arg, to, key, value, rerun, flags, help):
 *   arg   the value's name; NULL for a flag and for registry options (the registry's)
 *   key   the registry option's name (DR_TO_SCHED, DR_TO_DET)
 *   help  NULL: the registry's; "\n  " starts a line shown as written */
#define DR_RUN_OPTIONS(X)                                                                                              \
  X(REPLAY, "--replay", NULL, "FILE", DR_TO_CLI, NULL, DR_VAL(DR_V_STR), DR_RR_REPLAY, 0,                              \
    "reproduce a recorded run exactly (other scheduling options are ignored)")                                         \
  X(PREFIX, "--replay-prefix", NULL, "FILE", DR_TO_CLI, NULL, DR_VAL(DR_V_STR), DR_RR_SCHED, DR_F_RUN_ONLY,                        \
    "replay FILE's decisions while they last, then let --sched decide (seeded by --seed, else FILE's seed)")           \
  X(SCHED, "--sched", NULL, "NAME", DR_TO_SCHED, NULL, DR_VAL_NAME("native"), DR_RR_SCHED, 0,                          \
    "the thread scheduler:")                                                                                           \
  X(SEED, "--seed", NULL, "N", DR_TO_CONFIG, NULL, DR_VAL(DR_V_U64), DR_RR_SEED, DR_F_EXPLORE,                                    \
    "seed of the scheduler and of new Random(); without it one is drawn, and printed when the run ends with an "       \
    "uncaught exception, a deadlock or a step limit (drvm explore: 0 unless given)")                                                                  \
  X(QUANTUM, "--quantum", NULL, NULL, DR_TO_SCHED, "quantum", DR_VAL(DR_V_REG), DR_RR_REGISTRY, 0, NULL)               \
  X(SPURIOUS, "--spurious-wakeups", NULL, NULL, DR_TO_CONFIG, NULL, DR_VAL(DR_V_FLAG), DR_RR_SCHED, DR_F_EXPLORE,                 \
    "wait() may return without notify, as Java allows")                                                                \
  X(DEPTH, "--depth", NULL, NULL, DR_TO_SCHED, "depth", DR_VAL(DR_V_REG), DR_RR_REGISTRY, 0, NULL)                     \
  X(PCT_STEPS, "--pct-steps", NULL, NULL, DR_TO_SCHED, "pct-steps", DR_VAL(DR_V_REG),                                  \
    DR_RR_REGISTRY, 0, NULL)                                                                                           \
  X(NOISE, "--noise", NULL, NULL, DR_TO_SCHED, "noise", DR_VAL(DR_V_REG),                                              \
    DR_RR_REGISTRY, 0, NULL)                                                                                           \
  X(MTR_IN, "--mtr-in", NULL, NULL, DR_TO_SCHED, "mtr-in", DR_VAL(DR_V_FILE), DR_RR_REGISTRY, DR_F_STRICT, NULL)       \
  X(MTR_OUT, "--mtr-out", NULL, NULL, DR_TO_SCHED, "mtr-out", DR_VAL(DR_V_FILE), DR_RR_REGISTRY, DR_F_STRICT, NULL)    \
  X(RACE_PAIRS, "--race-pairs", NULL, NULL, DR_TO_SCHED, "race-pairs", DR_VAL(DR_V_FILE), DR_RR_REGISTRY,              \
    DR_F_STRICT, NULL)                                                                                                 \
  X(ESCORTS, "--escorts", NULL, NULL, DR_TO_SCHED, "escorts", DR_VAL(DR_V_REG), DR_RR_REGISTRY, DR_F_STRICT, NULL)    \
  X(ORDER, "--order", NULL, NULL, DR_TO_SCHED, "order", DR_VAL(DR_V_REG), DR_RR_REGISTRY, DR_F_STRICT, NULL)          \
  X(CANDIDATES, "--candidates", NULL, NULL, DR_TO_SCHED, "candidates", DR_VAL(DR_V_REG), DR_RR_REGISTRY, DR_F_STRICT, \
    NULL)                                                                                                              \
  X(RESTARTS, "--restarts", NULL, "N", DR_TO_CLI, NULL, DR_VAL_INT(0, 1000, NULL), DR_RR_ATTEMPT, DR_F_NONEMPTY | DR_F_RUN_ONLY,       \
    "start a run over, up to N times, when it deadlocks after the scheduler suspended threads (drfinder; "             \
    "default 0)")                                                                                                      \
  X(PAIR, "--pair", NULL, NULL, DR_TO_SCHED, "pair", DR_VAL(DR_V_REG),                                                 \
    DR_RR_REGISTRY, DR_F_STRICT | DR_F_NONEMPTY, NULL)                                                                 \
  X(DETECTOR, "--detector", NULL, "NAME", DR_TO_DET, NULL, DR_VAL_NAME("ft"), DR_RR_YES, DR_F_EXPLORE,                            \
    "the race detector watching the run:")                                                                             \
  X(LIB, "--lib", NULL, "PATH", DR_TO_CONFIG, NULL, DR_VAL(DR_V_STR), DR_RR_YES, DR_F_REPEAT | DR_F_EXPLORE,                          \
    "open a C library for native methods (repeatable; libc and libm are always searched, after these)")                \
  X(RECORD, "--record", NULL, "FILE", DR_TO_CLI, NULL, DR_VAL(DR_V_STR), DR_RR_NO, 0,                                  \
    "write the schedule's decisions to FILE (for --replay)")                                                           \
  X(TRACE, "--trace", NULL, "FILE", DR_TO_CLI, NULL, DR_VAL(DR_V_OPT_FILE), DR_RR_NO, 0,                               \
    "one line per event (access, lock, call...) to FILE (default stderr):\n"                                           \
    "  T2 Thread-1  wr   Account#3.balance  bank.dl:14  Account.deposit")                                              \
  X(TIMELINE, "--timeline", NULL, "FILE", DR_TO_CLI, NULL, DR_VAL(DR_V_STR), DR_RR_NO, DR_F_NONEMPTY | DR_F_RUN_ONLY | DR_F_EXPLORE, \
    "draw the run: FILE.html (a page for the browser), FILE.svg (a picture for slides) or text (columns on "       \
    "standard output); drvm explore and drvm hunt draw each outcome or witness, FILE-outcome-1.html...")            \
  X(MINIMIZE, "--minimize", NULL, "OUT", DR_TO_CLI, NULL, DR_VAL(DR_V_OPT_FILE), DR_RR_NO, DR_F_RUN_ONLY,             \
    "with --replay REC: shrink the recording to fewer preemptions that still show its race, uncaught exception or "   \
    "deadlock (checked by replay), written to OUT (default REC.min.rec)")                                              \
  X(SCHED_REPORT, "--sched-report", NULL, "FILE", DR_TO_CLI, NULL, DR_VAL(DR_V_FILE), DR_RR_NO, DR_F_RUN_ONLY,                    \
    "write the scheduler's counters and the run's outcome as JSON (for scripts; docs/hunt.md)")                        \
  X(ALL_RACES, "--all-races", NULL, NULL, DR_TO_DET, "all-races", DR_VAL(DR_V_FLAG), DR_RR_REGISTRY, 0, NULL)          \
  X(RACE_EXIT, "--race-exit-code", NULL, "N", DR_TO_CLI, NULL, DR_VAL_INT(0, 255, NULL), DR_RR_NO, DR_F_RUN_ONLY,                 \
    "exit status of a run that found races (default 66)")                                                              \
  X(REPORT, "--report", NULL, NULL, DR_TO_DET, "json", DR_VAL(DR_V_KEYED), DR_RR_REGISTRY, 0, NULL)                    \
  X(POTENTIAL, "--potential-races", NULL, NULL, DR_TO_DET, "potential-races", DR_VAL(DR_V_STR), DR_RR_REGISTRY, 0,     \
    NULL)                                                                                                              \
  X(RELAXED, "--relaxed", NULL, NULL, DR_TO_DET, "relaxed", DR_VAL(DR_V_FLAG), DR_RR_REGISTRY, 0, NULL)              \
  X(FILTER, "--filter", NULL, NULL, DR_TO_DET, "filter", DR_VAL(DR_V_REG), DR_RR_REGISTRY, DR_F_EXPLORE, NULL)       \
  X(CLOCKS, "--clocks", NULL, NULL, DR_TO_DET, "clocks", DR_VAL(DR_V_REG), DR_RR_REGISTRY, DR_F_EXPLORE, NULL)       \
  X(CONFIRM, "--confirm", NULL, "N", DR_TO_CLI, NULL, DR_VAL_INT(0, 100, NULL), DR_RR_NO, DR_F_RUN_ONLY,             \
    "wcp: steered runs that try to make each predicted race happen (default 3; 0: only report the predictions)")     \
  X(WITNESS_DIR, "--witness-dir", NULL, "DIR", DR_TO_CLI, NULL, DR_VAL(DR_V_FILE), DR_RR_NO, DR_F_RUN_ONLY,          \
    "wcp: where each confirmed race's witness recording goes (default: a new directory under $TMPDIR)")              \
  X(STATS, "--stats", NULL, NULL, DR_TO_DET, "stats", DR_VAL(DR_V_FLAG), DR_RR_REGISTRY, 0,                            \
    "print the detector's rule counts, clocks and memory, and the scheduler's counters, at the end")                   \
  X(VERBOSE, "-v", "--verbose", NULL, DR_TO_CLI, NULL, DR_VAL(DR_V_FLAG), DR_RR_NO, DR_F_RUN_ONLY,                                \
    "at the end, print the scheduler, steps and the seed")                                                             \
  X(MAIN, "--main", NULL, "CLASS", DR_TO_LIMIT, NULL, DR_VAL(DR_V_STR), DR_RR_YES, DR_F_NONEMPTY,                      \
    "the class whose main method starts the program (a.b.Main); default: the first class of a one-file "             \
    "program, else the one class that declares main")                                                                 \
  X(MAX_HEAP, "--max-heap", NULL, "SIZE", DR_TO_LIMIT, NULL, DR_VAL(DR_V_SIZE), DR_RR_NO, 0,                           \
    "heap limit, e.g. 64m or 2g (default 2g); beyond it allocation throws OutOfMemoryError")                           \
  X(MAX_MEMORY, "--max-memory", NULL, "SIZE", DR_TO_LIMIT, NULL, DR_VAL(DR_V_SIZE), DR_RR_NO, 0,                       \
    "limit on all the VM holds: the heap, the detector's clocks and shadows, threads' stacks (default 4g); "         \
    "past it the run ends (exit status 70)")                                                                           \
  X(MAX_STEPS, "--max-steps", NULL, "N", DR_TO_LIMIT, NULL, DR_VAL(DR_V_COUNT), DR_RR_NO, 0,                           \
    "stop a runaway program after N steps, branches and calls (exit status 5)")                                        \
  X(ALL, "--all", NULL, NULL, DR_TO_DISASM, NULL, DR_VAL(DR_V_FLAG), DR_RR_NO, 0, "include drvm's built-in library")  \
  X(SCRIPT, "--script", NULL, "FILE", DR_TO_REPL, NULL, DR_VAL(DR_V_FILE), DR_RR_NO, 0,                                \
    "read the commands from FILE: a transcript without prompts or colours (as from a pipe)")                           \
  X(EVERY, "--every-decision", NULL, NULL, DR_TO_REPL, NULL, DR_VAL(DR_V_FLAG), DR_RR_NO, 0,                           \
    "stop also at decisions where only one thread can run")                                                        \
  X(POR, "--por", NULL, "MODE", DR_TO_EXPLORE, NULL, DR_VAL_NAME("optimal"), DR_RR_NO, 0,                              \
    "the partial-order reduction:")                                                                                    \
  X(PREEMPTIONS, "--preemptions", NULL, "K", DR_TO_EXPLORE, NULL, DR_VAL_INT(0, 1000000, NULL), DR_RR_NO, 0,           \
    "explore only executions with at most K preemptions (switches away from a thread that could go on)")               \
  X(MAX_EXECUTIONS, "--max-executions", NULL, "N", DR_TO_EXPLORE, NULL, DR_VAL(DR_V_COUNT), DR_RR_NO, 0,               \
    "stop after N executions")                                                                                         \
  X(TIME, "--time", NULL, "LIMIT", DR_TO_EXPLORE, NULL, DR_VAL(DR_V_STR), DR_RR_NO, DR_F_NONEMPTY,                     \
    "stop after LIMIT of wall time: 30 (seconds), 30s, 5m, 1h")                                                        \
  X(WITNESSES, "--witnesses", NULL, "DIR", DR_TO_EXPLORE, NULL, DR_VAL(DR_V_FILE), DR_RR_NO, 0,                        \
    "where each outcome's and race's witness recording goes (default: PROG.explore, beside the current directory's "   \
    "files)")                                                                                                          \
  X(JSON, "--json", NULL, "FILE", DR_TO_EXPLORE, NULL, DR_VAL(DR_V_FILE), DR_RR_NO, 0,                                 \
    "write the whole result as JSON (docs/explore.md)")                                                                \
  X(FINGERPRINTS, "--fingerprints", NULL, "FILE", DR_TO_EXPLORE, NULL, DR_VAL(DR_V_FILE), DR_RR_NO, 0,               \
    "write each execution's trace fingerprint, one per line: executions of one Mazurkiewicz trace share it "          \
    "(to check a reduction: optimal runs each once)")                                                                  \
  X(PROGRESS, "--progress", NULL, NULL, DR_TO_EXPLORE, NULL, DR_VAL(DR_V_FLAG), DR_RR_NO, 0,                           \
    "show progress even when stderr is not a terminal (on a terminal it is shown)")                                    \
  X(GRADE_JSON, "--json", NULL, NULL, DR_TO_GRADE, NULL, DR_VAL(DR_V_FLAG), DR_RR_NO, 0,                                \
    "print the verdict as one JSON object on standard output instead of a line (for autograders)")

typedef enum {
#define DR_RO_ENUM(id, name, alias, arg, to, key, value, rerun, flags, help) DR_RO_##id,
  DR_RUN_OPTIONS(DR_RO_ENUM)
#undef DR_RO_ENUM
  DR_RO__COUNT
} DrRoId;

/* A row of the table. */
typedef struct {
  const char *name, *alias, *arg;
  DrOptTo to;
  const char *key;
  DrValSpec value;
  DrRerunKind rerun;
  unsigned flags;
  const char *help;
} DrRoRow;

const DrRoRow *dr_ro_row(DrRoId id);
/* The registry's entry of a scheduler or detector option row, else NULL. */
const DrvmEntry *dr_ro_entry(DrRoId id);
/* The value's name as help shows it ("D", "json=FILE"), NULL for a flag. */
const char *dr_ro_arg(DrRoId id);
/* The row's help text (the registry's for its options). */
const char *dr_ro_help(DrRoId id);
/* Whether an option row applies to command cmd ("run", "check", "disasm"). */
bool dr_ro_for(DrRoId id, const char *cmd);
/* Whether word is in a registry entry's applies list (NULL: every one). */
bool dr_ro_applies(const char *applies, const char *word);

/* A list of strings, each malloc'd: an option's values, a child's argv. */
typedef struct {
  char **v;
  int n, cap;
} DrArgv;
void dr_argv_add(DrArgv *a, const char *s);
void dr_argv_addf(DrArgv *a, const char *fmt, ...) DR_PRINTF(2, 3);
void dr_argv_free(DrArgv *a);

/* A command's options: every option's values (normalized: numbers in
 * decimal; a flag's value is ""), the program and its arguments. */
typedef struct {
  DrArgv val[DR_RO__COUNT];
  const char *prog;   /* the first of progs (not owned): what messages name the program by */
  DrArgv progs;       /* the program's files and directories (program.h) */
  const char *schedule; /* drvm grade's recording, the file after the program (not owned) */
  char **args;        /* not owned */
  int nargs;
} DrRunOpts;

void dr_ro_init(DrRunOpts *o);
void dr_ro_free(DrRunOpts *o);
/* Gives an option a value (a repeatable one: one more). */
void dr_ro_set(DrRunOpts *o, DrRoId id, const char *value);
void dr_ro_setf(DrRunOpts *o, DrRoId id, const char *fmt, ...) DR_PRINTF(3, 4);
bool dr_ro_given(const DrRunOpts *o, DrRoId id);
/* The value given last, else the default, else NULL. */
const char *dr_ro_get(const DrRunOpts *o, DrRoId id);
/* A number's value (0 when not given). */
uint64_t dr_ro_num(const DrRunOpts *o, DrRoId id);

enum { DR_RO_HELP = -1 };
/* Parses `drvm CMD` (argv[0] is CMD): options, the program, its
 * arguments.  0; DR_RO_HELP for -h/--help; or the exit status of a usage
 * error, already printed. */
int dr_ro_parse(DrRunOpts *o, int argc, char **argv);

/* The rerun command's view of a run: what it used. */
typedef struct {
  uint64_t seed;
  int attempt;
} DrRerun;

/* Appends o as `drvm run` arguments: with rerun, the options that rerun
 * the run and the program arguments right after the program (as race
 * reports show them); without, every option given and the program
 * arguments after "--" (a child's argv). */
void dr_ro_write(const DrRunOpts *o, const DrRerun *rerun, DrArgv *out);
/* "drvm run ..." with dr_ro_write's arguments shell-quoted.  Malloc'd. */
char *dr_ro_command(const DrRunOpts *o, const DrRerun *rerun);
/* The "key=value ..." options of o for drvm_set_scheduler(sched), those
 * the scheduler takes, values escaped; more (NULL: none) is appended as
 * is.  Malloc'd. */
char *dr_ro_sched_options(const DrRunOpts *o, const char *sched, const char *more);
/* Likewise for drvm_set_detector(det), without the options det does not
 * take: the first of them given goes to *refused (DR_RO__COUNT: none, or
 * det is no detector at all, which drvm_set_detector reports). */
char *dr_ro_det_options(const DrRunOpts *o, const char *det, DrRoId *refused);

/* The DrvmConfig fields the options set for any command's VM: the heap
 * and step limits, the C libraries, spurious wake-ups. */
void dr_ro_vm_config(const DrRunOpts *o, DrvmConfig *c);

/* A fresh seed for a command given none (run, hunt, racefuzz), short
 * enough to retype.  Only the command line draws one: the library never
 * reads the time or the OS's randomness, so the printed seed reruns
 * everything. */
uint64_t dr_draw_seed(void);
/* Appends "key=value" (or "key") to an option string for
 * drvm_set_scheduler / drvm_set_detector, escaping as they read it. */
void dr_ro_option_item(DrBuf *b, const char *key, const char *value);

#endif
