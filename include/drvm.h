/* drvm.h -- the embedding API of drvm, a bytecode VM for DL (a subset of
 * Java 17) that runs a program's threads as green threads under a
 * deterministic scheduler and reports the data races it can expose.
 *
 * A host creates a VM, compiles one program into it, chooses a scheduler
 * and a race detector, and then either runs the program to its end or
 * steps it one scheduling decision at a time:
 *
 *     DrvmConfig cfg;
 *     drvm_config_init(&cfg);
 *     cfg.seed = 7;
 *     DrVM *vm = drvm_new(&cfg, NULL, 0);
 *     if (!drvm_compile_file(vm, "bank.dl")) {
 *       drvm_print_diags(vm, stderr);        // or read drvm_diag(vm, i)
 *     } else if (drvm_set_scheduler(vm, "random", NULL) &&
 *                drvm_set_detector(vm, "ft", NULL)) {
 *       DrvmResult r;
 *       drvm_run(vm, 0, NULL, &r);          // r.outcome, r.exit_status, r.races
 *     }
 *     drvm_free(vm);
 *
 * Every function that can fail returns false (or a negative number) and
 * leaves a message in drvm_error(vm).  The library never exits, never
 * prints except into the configured sinks, and keeps no global state:
 * any number of VMs may live, and be stepped alternately, in one
 * process (each VM is used from one OS thread at a time).  Nothing but
 * the program, its arguments, the options and the seed decide a run.
 * docs/embedding.md walks through a complete host. */
#ifndef DRVM_H
#define DRVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DRVM_VERSION "0.2.0"

typedef struct DrVM DrVM;

/* ------------------------------------------------------------ vocabularies */

/* The event stream: what a thread does, as listeners receive it and as a
 * stepping host sees a thread's next action.  X(name, short word, flags) */
#define DRVM_EVENTS(X)                                                        \
  X(READ, "rd", DRVM_EVF_ACCESS)          /* field, static or array element */ \
  X(WRITE, "wr", DRVM_EVF_ACCESS)                                             \
  X(VREAD, "vrd", DRVM_EVF_SYNC)          /* volatile read */                 \
  X(VWRITE, "vwr", DRVM_EVF_SYNC)         /* volatile write */                \
  X(ACQUIRE, "acq", DRVM_EVF_SYNC)        /* outermost monitor enter */       \
  X(RELEASE, "rel", DRVM_EVF_SYNC)        /* outermost monitor exit */        \
  X(WAIT, "wait", DRVM_EVF_SYNC)          /* wait(): releases every hold */   \
  X(WAKE, "wake", DRVM_EVF_SYNC)          /* wait() returns: holds retaken */ \
  X(NOTIFY, "notify", DRVM_EVF_SYNC)                                          \
  X(NOTIFY_ALL, "nall", DRVM_EVF_SYNC)                                        \
  X(FORK, "fork", DRVM_EVF_SYNC)          /* Thread.start; other = child */   \
  X(JOIN, "join", DRVM_EVF_SYNC)          /* join returned; other = joined */ \
  X(END, "end", DRVM_EVF_SYNC)            /* the thread's last event */       \
  X(SLEEP, "sleep", DRVM_EVF_SYNC)                                            \
  X(YIELD, "yield", DRVM_EVF_SYNC)                                            \
  X(INTERRUPT, "intr", DRVM_EVF_SYNC)     /* other = the interrupted thread */ \
  /* a thread found interrupted (isInterrupted/interrupted true, or an   \
   * InterruptedException thrown): the interrupt synchronizes with it   \
   * (JLS 17.4.4); other = that thread */                               \
  X(INTERRUPTED, "intr-seen", DRVM_EVF_SYNC)                                  \
  X(CALL, "call", DRVM_EVF_CALL)          /* callee = the method entered */   \
  X(RETURN, "ret", DRVM_EVF_CALL)         /* arg = 1 when unwound by an exception */ \
  X(NEW, "new", 0)                        /* object allocated */             \
  /* a class's static initializer completed: it happens-before every use  \
   * of the class by other threads (JLS 12.4.2) */                        \
  X(INIT, "init", 0)                                                          \
  /* a native method bound to C is entered / returns: one opaque step */  \
  X(NATIVE_ENTER, "native-enter", 0)                                          \
  X(NATIVE_EXIT, "native-exit", 0)                                            \
  X(STEP, "step", 0)                      /* pending only: any other instruction */

enum {
  DRVM_EVF_ACCESS = 1 << 0, /* a plain shared-memory access */
  DRVM_EVF_SYNC = 1 << 1,   /* synchronization: always a scheduling point */
  DRVM_EVF_CALL = 1 << 2,   /* call or return */
};

typedef enum {
#define DRVM_EV_ENUM(name, word, flags) DRVM_EV_##name,
  DRVM_EVENTS(DRVM_EV_ENUM)
#undef DRVM_EV_ENUM
  DRVM_EV__COUNT
} DrvmEventKind;

#define DRVM_EV_BIT(kind) (1u << (kind))
#define DRVM_EV_ALL ((1u << DRVM_EV__COUNT) - 1u)

/* A thread's state.  X(name, word shown in thread dumps) */
#define DRVM_THREAD_STATES(X)                                                 \
  X(RUNNABLE, "RUNNABLE")                                                     \
  X(BLOCKED, "BLOCKED")      /* entering a monitor, re-entering after wait, or class init */ \
  X(WAITING, "WAITING")      /* in Object.wait, in the monitor's wait set */  \
  X(JOINING, "JOINING")      /* in Thread.join, the target still alive */     \
  X(SLEEPING, "SLEEPING")                                                     \
  X(ENDED, "TERMINATED")

typedef enum {
#define DRVM_TS_ENUM(name, word) DRVM_TS_##name,
  DRVM_THREAD_STATES(DRVM_TS_ENUM)
#undef DRVM_TS_ENUM
  DRVM_TS__COUNT
} DrvmThreadState;

/* How a run ended, and the exit status `drvm run` gives it.
 * X(name, exit status, description) */
#define DRVM_OUTCOMES(X)                                                      \
  X(NORMAL, 0, "the program ended normally")                                  \
  X(EXIT, 0, "the program called System.exit (its status)")                   \
  X(EXCEPTION, 1, "an exception escaped main")                                \
  X(ERROR, 2, "the run could not start or finish (an option, a file)")        \
  X(DEADLOCK, 4, "threads remain and none can run")                           \
  X(STEP_LIMIT, 5, "the step limit was reached")                              \
  X(REPLAY_DIVERGED, 6, "a replayed recording does not fit the run")          \
  X(RACES, 66, "the detector found data races (the program ended normally)") \
  X(MEMORY_LIMIT, 70, "the VM's memory passed max_memory (heap, detector, threads), or none was left") \
  X(INTERRUPTED, 130, "a signal ended the run (drvm_stop; drvm run exits 128 + the signal)")

typedef enum {
#define DRVM_OUTCOME_ENUM(name, status, text) DRVM_OUTCOME_##name,
  DRVM_OUTCOMES(DRVM_OUTCOME_ENUM)
#undef DRVM_OUTCOME_ENUM
  DRVM_OUTCOME__COUNT
} DrvmOutcome;

/* Exit statuses (as `drvm run`'s): the program's own for System.exit. */
enum {
  DRVM_EXIT_OK = 0,
  DRVM_EXIT_EXCEPTION = 1,
  DRVM_EXIT_USAGE = 2,
  DRVM_EXIT_COMPILE = 3,
  DRVM_EXIT_DEADLOCK = 4,
  DRVM_EXIT_STEPS = 5,
  DRVM_EXIT_REPLAY = 6,
  DRVM_EXIT_RACES = 66,
  DRVM_EXIT_MEMORY = 70,       /* max_memory reached, or the system had no memory left */
  DRVM_EXIT_INTERRUPTED = 130, /* drvm_stop; `drvm run` gives 128 + the signal */
};

/* The words of the vocabularies above, e.g. "wr", "BLOCKED", "deadlock". */
const char *drvm_event_word(DrvmEventKind kind);
const char *drvm_thread_state_word(DrvmThreadState state);
const char *drvm_outcome_word(DrvmOutcome outcome);

/* ------------------------------------------------------------ a VM */

/* Where the program's output goes: a callback receives every piece of
 * text written to that stream (UTF-8, in order); without one, the FILE. */
typedef void (*DrvmWriteFn)(void *user, const char *text, size_t len);

typedef struct {
  size_t max_heap;          /* bytes; beyond it allocation throws OutOfMemoryError (0: 2 GiB) */
  /* bytes of all the VM holds -- the heap, the race detector's clocks and
   * shadows, threads' stacks, the filter's records -- beyond which the run
   * ends (DRVM_OUTCOME_MEMORY_LIMIT; 0: 4 GiB) */
  size_t max_memory;
  uint64_t max_steps;       /* stop a runaway program after this many steps (0: never) */
  uint64_t seed;            /* of new Random() in the program, and the scheduler's default seed */
  bool spurious_wakeups;    /* wait() may return without notify, as Java allows */
  FILE *out, *err;          /* default stdout, stderr */
  DrvmWriteFn write_out, write_err; /* if set, used instead of out / err */
  void *write_user;         /* passed to write_out / write_err */
  bool unbuffered;          /* stdout is written at every print, not in large pieces (a host that
                             * places the output among the events: timelines) */
  const char *const *libs;  /* C libraries for native methods, searched in order */
  int nlibs;
  const char *source_name;  /* the name stack traces show (default: the file's base name) */
  const char *rerun;        /* the command that reruns this run, shown in race reports */
  const char *main_class;   /* the class whose main starts the program ("a.b.Main"; NULL: see drvm_compile_files) */
} DrvmConfig;

/* Fills c with the defaults. */
void drvm_config_init(DrvmConfig *c);
/* A new VM.  NULL only if a library in c->libs cannot be opened; the
 * reason is then in err (if err is not NULL). */
DrVM *drvm_new(const DrvmConfig *c, char *err, size_t errsize);
void drvm_free(DrVM *vm);
/* Compile once, run many: takes a VM whose program compiled, wherever its
 * run stands (not started, stopped at a decision, ended or finished),
 * back to the state right after compiling -- the same program, every
 * class uninitialized with the statics compiling left, no object but the
 * string constants, no thread, no output pending.  The next run is
 * exactly the run a fresh VM compiling the same program would make:
 * object numbers (Account#3), identity hashes, output, races and
 * recordings alike.  It costs what the run allocated, not a compile.
 *
 * What the host set for the run goes with it: the scheduler (a host
 * scheduler's destroy is called), the detector, recording, replay,
 * trace, stepping and listeners; set them again before drvm_start.  The
 * DrvmConfig given to drvm_new stays (seed, max_steps, spurious wakeups,
 * sinks, rerun, source name), as do libraries a run loaded.  A run not
 * finished ends as drvm_free ends it: listeners finish (a detector
 * writes its summary) and no recording file is written.  Events,
 * decisions and races read before are no longer valid.  false with
 * drvm_error before compiling, or from a listener. */
bool drvm_reset(DrVM *vm);
/* The message of the last failure, "" if none. */
const char *drvm_error(const DrVM *vm);

/* ------------------------------------------------------------ compiling */

/* Compiles a program (from a file, or from text in memory named name).
 * false: compile errors (drvm_diag_count > 0) or an unreadable file
 * (drvm_error).  A VM compiles one program: one call, of one of these. */
bool drvm_compile_file(DrVM *vm, const char *path);
bool drvm_compile_string(DrVM *vm, const char *name, const char *text, size_t len);
/* A program of several files, compiled together as `javac *.java` does
 * (each may declare a package and import the others' classes).  The main
 * class is DrvmConfig.main_class, else, for one file, its first class (as
 * `java prog.java`), else the one class that declares public static void
 * main(String[]).  Stack traces name each class's own file. */
bool drvm_compile_files(DrVM *vm, int n, const char *const *paths);
bool drvm_compile_strings(DrVM *vm, int n, const char *const *names, const char *const *texts, const size_t *lens);

/* A compile error, as data. */
typedef struct {
  const char *file;         /* as given to drvm_compile_* */
  int line, col;            /* 1-based */
  const char *message;      /* "cannot find symbol 'balanse'" */
  const char *source_line;  /* the line's text, without its newline */
} DrvmDiag;

int drvm_diag_count(const DrVM *vm);
bool drvm_diag(const DrVM *vm, int i, DrvmDiag *out);
/* Prints every error as javac and gcc do (path:line:col: error: ..., the
 * line, a caret) and "N error(s)". */
void drvm_print_diags(const DrVM *vm, FILE *out);
/* The compiled program's bytecode, with source lines (all: also drvm's
 * built-in library). */
bool drvm_disassemble(DrVM *vm, bool all, FILE *out);

/* ------------------------------------------------------------ registries */

/* A scheduler, detector or option of the registries.  Every list of them
 * (help texts, option parsing, rerun commands) comes from these. */
typedef struct {
  const char *name;         /* "pct", "ft", "depth" */
  const char *arg;          /* options: the value's name ("N", "FILE"), NULL for a flag */
  const char *help;         /* one line (options: may span lines) */
  const char *applies;      /* options: the schedulers/detectors it goes with ("pct drfinder"), NULL: all */
  bool rerun;               /* options: part of the command that reruns a run */
} DrvmEntry;

/* Entry 0 of each list is the default ("native", "ft"). */
int drvm_scheduler_count(void);
const DrvmEntry *drvm_scheduler_entry(int i);
int drvm_detector_count(void);
const DrvmEntry *drvm_detector_entry(int i);
int drvm_scheduler_option_count(void);
const DrvmEntry *drvm_scheduler_option(int i);
int drvm_detector_option_count(void);
const DrvmEntry *drvm_detector_option(int i);
/* Checks one option's value without a VM, e.g. for a command line that
 * reports bad values as it parses them: false with "depth takes
 * 1..1000, not '0'" (or "unknown option 'x'") in err. */
bool drvm_scheduler_option_check(const char *key, const char *value, char *err, size_t errsize);
bool drvm_detector_option_check(const char *key, const char *value, char *err, size_t errsize);
/* The seed a recording (drvm run --record, drvm_record) was made with:
 * what a replay's rerun command names before any VM exists. */
bool drvm_recording_seed(const char *path, uint64_t *seed, char *err, size_t errsize);

/* ------------------------------------------------------------ setting up a run */

/* Chooses the scheduler by name, with options "key=value ..." (separated
 * by spaces or commas; a flag is just its key) from
 * drvm_scheduler_option: e.g. drvm_set_scheduler(vm, "pct", "depth=3
 * seed=9").  Without seed=, the config's seed.  Default: "native". */
bool drvm_set_scheduler(DrVM *vm, const char *name, const char *options);
/* Chooses the race detector ("ft", the default; "none" for none), with
 * options from drvm_detector_option (e.g. "all-races json=races.json"). */
bool drvm_set_detector(DrVM *vm, const char *name, const char *options);

/* Points where a scheduler may be asked besides synchronization events
 * and the end of a quantum. */
enum {
  DRVM_POINT_ACCESS = 1 << 0, /* before every field/static/array access in program code */
  DRVM_POINT_CALL = 1 << 1,   /* before every call and return in program code */
};

/* A decision: at a scheduling point, the threads that can run next. */
typedef struct DrvmEvent DrvmEvent;
typedef struct {
  int thread;               /* T<thread>: 0 is main */
  const DrvmEvent *next;    /* what it does when chosen */
} DrvmChoice;

typedef enum {
  DRVM_DECIDE_EVENT,        /* the current thread is about to do something */
  DRVM_DECIDE_PREEMPT,      /* the current thread's quantum ran out */
  DRVM_DECIDE_BLOCKED,      /* the current thread cannot go on */
} DrvmDecideReason;

typedef struct {
  DrvmDecideReason reason;
  int current;              /* the thread at the point */
  int suggested;            /* what the scheduler chose (stepping); -1 in a host scheduler */
  int nchoices;             /* enabled threads, in start order */
  const DrvmChoice *choices;/* valid until the run goes on */
  uint64_t number;          /* decisions so far (0 for the first) */
} DrvmDecision;

/* A scheduler written by the host.  pick returns the id of one of
 * d->choices; the optional ones may be NULL. */
typedef struct {
  const char *name;
  unsigned points;          /* DRVM_POINT_* */
  int (*pick)(void *user, DrVM *vm, const DrvmDecision *d);
  /* notify() wakes waiters[i] of n (default: the first) */
  int (*pick_waiter)(void *user, DrVM *vm, const int *waiters, int n);
  /* steps thread runs before a preemption point (default 0: none) */
  uint64_t (*quantum)(void *user, DrVM *vm, int thread);
  void (*destroy)(void *user); /* when the VM is freed or the scheduler replaced */
} DrvmHostScheduler;

bool drvm_set_host_scheduler(DrVM *vm, const DrvmHostScheduler *s, void *user);

/* Record the run's decisions (path NULL: in memory only, for
 * drvm_save_decisions).  The file is a recording `drvm run --replay`
 * accepts, written when the run finishes. */
bool drvm_record(DrVM *vm, const char *path);
/* Replays a recording (prefix: while it lasts, then the chosen scheduler
 * decides).  *seed receives the recorded seed; it becomes the run's. */
bool drvm_replay(DrVM *vm, const char *path, bool prefix, uint64_t *seed);
/* Replays, as a prefix, the first n decisions of another VM that runs
 * the same program and records (drvm_record): going back to decision n
 * without a file.  The seed and settings are the other run's.  Before
 * drvm_start; from must not run meanwhile. */
bool drvm_replay_decisions(DrVM *vm, DrVM *from, uint64_t n);
/* One line per event to path (NULL: the err sink), as `drvm run --trace`. */
bool drvm_trace(DrVM *vm, const char *path);

/* ------------------------------------------------------------ events */

struct DrvmEvent {
  DrvmEventKind kind;
  int thread;               /* who does it */
  int other;                /* FORK/JOIN/INTERRUPT(ED): the other thread; NOTIFY: the thread it
                             * woke; WAKE: the thread whose notify woke it (-1: a timeout, an
                             * interrupt, a spurious wake-up); otherwise -1 */
  const char *cls;          /* the class of the object, array or static: "Account", "int[]" */
  const char *field;        /* field or static name; NULL for array elements and other events */
  uint32_t object;          /* the object's number (Account#3: 3); 0 for statics and none */
  int32_t index;            /* array index; -1 otherwise */
  bool is_static;
  const char *method_class, *method; /* where it happens: "Account", "deposit" */
  const char *file;         /* the source file's name */
  int line;                 /* -1: unknown */
  const char *callee;       /* CALL/RETURN: "Account.deposit(int)"; NULL otherwise */
  int64_t arg;              /* SLEEP/WAIT/JOIN: milliseconds; RETURN: 1 when unwound */
};

/* The event's target and place as people read it:
 * "write Account#3.balance at bank.dl:14 (Account.deposit)". */
const char *drvm_event_text(const DrvmEvent *e, char *buf, size_t size);

typedef void (*DrvmListenFn)(void *user, DrVM *vm, const DrvmEvent *e);
/* Adds a listener for the kinds in mask (DRVM_EV_BIT()s, 0: all), told of
 * each event after it took effect, in the order listeners were added.  A
 * listener must not call back into the VM except the inspection
 * functions below (re-entry fails; debug builds also check that nothing
 * is allocated).  Before drvm_start. */
bool drvm_add_listener(DrVM *vm, uint32_t mask, DrvmListenFn fn, void *user);

/* ------------------------------------------------------------ running */

/* The outcome of a finished run. */
typedef struct {
  DrvmOutcome outcome;
  int exit_status;          /* as `drvm run` exits */
  int races;                /* data races the detector reported */
  int predicted;            /* wcp: races predicted for another order of the run, not seen in it */
  int uncaught;             /* threads an exception escaped from */
  int threads;              /* threads started, main included */
  uint64_t steps;           /* instructions counted (branches and calls) */
  uint64_t decisions;       /* scheduling points passed */
  uint64_t seed;            /* the scheduler's seed */
  double virtual_ms;        /* the virtual clock at the end */
  bool restart;             /* the scheduler caused a deadlock and asks for a fresh run */
} DrvmResult;

/* Starts main(String[] args) of the program's first class.  argv may be
 * NULL when argc is 0. */
bool drvm_start(DrVM *vm, int argc, const char *const *argv);
/* Runs until the next scheduling decision (returns 1, *d filled) or the
 * end of the run (0); -1 on misuse.  Only decisions with more than one
 * choice stop, unless drvm_set_stepping asks for all.  At a decision,
 * drvm_decide chooses; calling this again without deciding returns the
 * same decision. */
int drvm_run_until_decision(DrVM *vm, DrvmDecision *d);
/* The thread that runs next (one of the choices), or DRVM_SUGGESTED for
 * the scheduler's choice.  A host that decides as a scheduler would gets
 * exactly that scheduler's run. */
enum { DRVM_SUGGESTED = -1 };
bool drvm_decide(DrVM *vm, int thread);
/* Which decisions stop drvm_run_until_decision: extra scheduling points
 * (DRVM_POINT_*, before drvm_start) and whether single-choice decisions
 * stop too. */
bool drvm_set_stepping(DrVM *vm, unsigned points, bool every_decision);
/* Runs with the scheduler deciding until decision number (as
 * DrvmDecision.number counts them) and stops there even if it has one
 * choice (1, *d filled), or until the end (0); -1 on misuse or a number
 * already passed.  A person going back to a point re-runs its prefix
 * with this (drvm_replay of drvm_save_decisions_upto). */
int drvm_run_to_decision(DrVM *vm, uint64_t number, DrvmDecision *d);
/* Scheduling points passed so far (the next decision's number); also
 * inside a listener. */
uint64_t drvm_decision_count(const DrVM *vm);
/* Asks a stepping run to stop at its next scheduling point, even a
 * single-choice one: for Ctrl-C in an interactive host.  Safe to call
 * from a signal handler or from another thread (with drvm_stop, the only
 * calls that are).  A run that is not stepping goes on: drvm_stop ends it. */
void drvm_interrupt(DrVM *vm);
/* Ends the run, stepping or not, at its next step check (at least every
 * few ten thousand steps, and at every scheduling point): its outcome is
 * DRVM_OUTCOME_INTERRUPTED, its output so far written.  For SIGINT and
 * SIGTERM: only an atomic store, so safe from a signal handler or another
 * thread.  The VM stays stopped: a later run of it ends at once. */
void drvm_stop(DrVM *vm);
/* Writes the program's buffered output now (stdout is buffered up to
 * 64 KiB between scheduling decisions).  For a host about to exit in the
 * middle of a run, e.g. from an atexit handler when memory ran out; not
 * from a signal handler. */
void drvm_flush_output(DrVM *vm);
/* At a decision: another scheduler (registry name and options, as
 * drvm_set_scheduler) suggests from here on; it suggests this decision
 * anew.  A prefix replay still running ends here. */
bool drvm_switch_scheduler(DrVM *vm, const char *name, const char *options);
/* A person's goal, pursued without stopping at each decision on the way
 * (a debugger's step, next, run to, continue): the run picks `thread`
 * whenever it can run (-1: the scheduler decides) and stops at the first
 * decision where `until` holds, where the goal's thread cannot run,
 * where the thread about to run arrives at one of `lines` (once per
 * arrival, not at each event of the line) or is about to access one of
 * `watches`, or (deadlock) where threads wait for each other's locks. */
typedef enum {
  DRVM_UNTIL_NONE,          /* only breakpoints, watches, drvm_interrupt, the end */
  DRVM_UNTIL_EVENT,         /* the thread's next event (not a return or a preemption) */
  DRVM_UNTIL_NEW_LINE,      /* another line than `line` at `depth` frames, or a shallower frame */
  DRVM_UNTIL_LINE,          /* about to execute `line` */
  DRVM_UNTIL_RETURN,        /* fewer than `depth` frames */
  DRVM_UNTIL_ACCESS,        /* about to access `where` */
} DrvmUntil;

/* A location: a field of every object of cls (object 0) or of one
 * ("Account", 1, "balance"), a static, or array elements (field NULL,
 * index -1: any).  access: 0 any, 1 reads, 2 writes. */
typedef struct {
  const char *cls, *field;
  uint32_t object;
  int32_t index;
  int access;
} DrvmLocation;

typedef struct {
  int thread;
  DrvmUntil until;
  int line, depth;
  DrvmLocation where;
  const int *lines;         /* breakpoints */
  int nlines;
  const DrvmLocation *watches;
  int nwatches;
  bool deadlock;            /* stop when threads come to wait in a cycle for each other's locks */
  uint64_t budget;          /* stop after this many decisions (0: no limit) */
} DrvmGoal;

/* Why a goal stopped the run where it stands. */
typedef enum {
  DRVM_GOAL_NOT_STOPPED,    /* it did not: drvm_interrupt, the end, or no goal */
  DRVM_GOAL_REACHED,        /* `until` holds */
  DRVM_GOAL_BLOCKED,        /* the goal's thread cannot run */
  DRVM_GOAL_DEADLOCK,       /* a cycle of lock waits formed */
  DRVM_GOAL_LINE,           /* the thread about to run arrives at lines[index] */
  DRVM_GOAL_WATCH,          /* it is about to access watches[index] */
  DRVM_GOAL_BUDGET,         /* `budget` decisions passed */
} DrvmGoalStop;

/* At a decision of a stepping run (drvm_set_stepping before drvm_start):
 * the goal of the next drvm_run_until_decision, which then stops only
 * where the goal says (or drvm_interrupt, or the end); NULL: none (the
 * goal is copied).  Decide the first move with drvm_decide as usual. */
bool drvm_set_goal(DrVM *vm, const DrvmGoal *goal);
/* At the decision the run stopped at: why the goal stopped it, and
 * *index (may be NULL) the breakpoint or watch. */
DrvmGoalStop drvm_goal_stop(const DrVM *vm, int *index);
/* Runs to the end with the scheduler deciding. */
bool drvm_run_to_end(DrVM *vm);
/* After the end: finishes the detector (its summary), the scheduler and
 * the recording, and returns the exit status. */
int drvm_finish(DrVM *vm, DrvmResult *r);
/* drvm_start, drvm_run_to_end and drvm_finish in one. */
int drvm_run(DrVM *vm, int argc, const char *const *argv, DrvmResult *r);
/* The chosen scheduler's name ("native"; for a replay, the recorded one's). */
const char *drvm_scheduler_name(const DrVM *vm);
/* The scheduler's statistics (text lines, or JSON object members for
 * json), after the run; false if it has none. */
bool drvm_scheduler_report(DrVM *vm, FILE *out, bool json);

/* ------------------------------------------------------------ inspection */

typedef struct {
  int id;                   /* T<id> */
  char name[64];            /* the Thread's name: "main", "Thread-0" */
  DrvmThreadState state;
  bool enabled;             /* could run now */
  int nframes;              /* call stack depth */
  int nlocks;               /* monitors held */
  char waiting_for[64];     /* BLOCKED/WAITING: the monitor ("Account#1"); JOINING: "T2"; else "" */
  int lock_owner;           /* the owner of the monitor it is BLOCKED on or about to lock; -1 */
  DrvmEvent next;           /* what it does when it runs next */
} DrvmThreadInfo;

typedef struct {
  const char *cls, *method; /* "Account", "deposit" */
  const char *file;
  int line;
} DrvmFrame;

/* Threads ever started (ids 0 .. count-1). */
int drvm_thread_count(const DrVM *vm);
/* The thread running now (the one whose output a write_out callback is
 * receiving); -1 before the start and after the end. */
int drvm_current_thread(const DrVM *vm);
bool drvm_thread_info(DrVM *vm, int thread, DrvmThreadInfo *out);
/* Frame depth of thread's stack, innermost first (program frames and
 * the built-in library's). */
bool drvm_thread_frame(DrVM *vm, int thread, int depth, DrvmFrame *out);
/* The i-th monitor thread holds, in acquisition order: "Account#1". */
bool drvm_thread_lock(DrVM *vm, int thread, int i, char *buf, size_t size);

/* Values as Java prints them ("42", "3.5", "true", "\"hi\"", "null"),
 * objects by name ("Account#2", "int[]#1"; an array's elements by index,
 * "0", "1"..., and "length").  obj names an object as drvm does
 * ("Account#2"). */
bool drvm_static_value(DrVM *vm, const char *cls, const char *field, char *buf, size_t size);
bool drvm_field_value(DrVM *vm, const char *obj, const char *field, char *buf, size_t size);
/* The local variables of thread's frame depth (innermost 0) that are in
 * scope at the frame's current position, in declaration order: name i
 * (0 ..) or false past the last. */
bool drvm_frame_local_name(DrVM *vm, int thread, int depth, int i, const char **name);
/* A local's value as Java prints it (objects by name, "Account#2"), false
 * with a message in drvm_error if there is no such local in scope. */
bool drvm_frame_local(DrVM *vm, int thread, int depth, const char *name, char *buf, size_t size);

/* The detector's view: thread's vector clock ("T0:4 T1:2") ... */
bool drvm_detector_clock(DrVM *vm, int thread, char *buf, size_t size);
/* ... and whether thread, accessing a location now (write or read), would
 * be ordered after the location's last accesses, and why:
 * location is "Account#1.balance", "Bank.total" or "int[]#2[3]". */
bool drvm_detector_explain(DrVM *vm, const char *location, int thread, bool write, char *buf, size_t size);

/* The decisions so far, as a recording (after drvm_record): at an
 * undecided decision, the ones before it. */
bool drvm_save_decisions(DrVM *vm, const char *path);
/* Only the first n decisions (and what was asked between them): replayed
 * as a prefix (drvm_replay), it leads the run back to decision n. */
bool drvm_save_decisions_upto(DrVM *vm, const char *path, uint64_t n);

/* The races the detector reported so far (until drvm_finish). */
typedef struct {
  const char *location;     /* "Account.balance", "int[]#7[3]" */
  const char *object;       /* the object ("Account#3", "int[]#7"); NULL for a static */
  const char *text;         /* the report as printed, both stacks */
  int thread, prev_thread;  /* the racing access's thread, and the earlier one's */
  bool write, prev_write;
  bool predicted;           /* wcp: not seen in this run; another order of its events would show it */
  const char *statement, *prev_statement; /* "Class.method(params) pc line", as race pairs files name them */
} DrvmRace;
int drvm_race_count(const DrVM *vm);
bool drvm_race(const DrVM *vm, int i, DrvmRace *out);
/* Threads an exception escaped from so far (an assertion's included). */
int drvm_uncaught_count(const DrVM *vm);

/* The program's classes (i = 0, 1, ...; false past the last) and their
 * fields, instance fields first, then statics: for completion and checks. */
bool drvm_class_name(const DrVM *vm, int i, const char **name);
bool drvm_field_name(DrVM *vm, const char *cls, int i, const char **name, bool *is_static);

/* Whether line of the program's source has code (a breakpoint can stop
 * there). */
bool drvm_line_has_code(const DrVM *vm, int line);
/* Where a stepping run stops for a breakpoint on line: the line itself if
 * it has an access, a call, a return or a synchronization, else the next line of
 * its method that has one; 0 if line has no code, -1 if no such line
 * follows. */
int drvm_line_event(const DrVM *vm, int line);

/* ------------------------------------------------------------ exploring */

/* Systematic exploration: the program is run again and again, each time
 * in another interleaving, until every Mazurkiewicz trace (every
 * ordering of dependent steps) has been run once -- stateless model
 * checking with dynamic partial-order reduction.  Two steps are
 * dependent when they touch the same field, static or array element and
 * one writes, take the same monitor, print, or are a start, join,
 * notify or interrupt and its partner.  X(name, word, help) */
#define DRVM_POR_MODES(X)                                                                     \
  X(OPTIMAL, "optimal", "optimal DPOR: each trace exactly once (source sets and wakeup trees)") \
  X(SOURCE, "source", "source-set DPOR with sleep sets: each trace once, but some runs abandoned") \
  X(NONE, "none", "no reduction: every interleaving of the steps")

typedef enum {
#define DRVM_POR_ENUM(name, word, help) DRVM_POR_##name,
  DRVM_POR_MODES(DRVM_POR_ENUM)
#undef DRVM_POR_ENUM
  DRVM_POR__COUNT
} DrvmPor;

const char *drvm_por_word(DrvmPor por);

typedef struct {
  DrvmPor por;
  int preemptions;          /* at most this many preemptions per execution (-1: no bound) */
  const char *detector;     /* each execution's race detector (NULL: "ft") and its options */
  const char *detector_options;
  bool record;              /* record each execution, for drvm_save_decisions */
  unsigned points;          /* DRVM_POINT_CALL: calls and returns are scheduling points too */
  /* Explore only the executions that begin as another VM's run did (a
   * person stepping in the REPL): its first prefix_len decisions are
   * kept.  from must record (drvm_record) and outlive the exploration. */
  DrVM *prefix_from;
  uint64_t prefix_len;
} DrvmExploreConfig;

void drvm_explore_config_init(DrvmExploreConfig *c);

typedef struct {
  uint64_t executions;      /* runs made */
  uint64_t traces;          /* runs that ended, each a different trace (with por none: interleaving) */
  uint64_t blocked;         /* runs abandoned before the end: every thread that could run was asleep (redundant) */
  uint64_t bounded;         /* runs stopped before the end by the preemption bound */
  uint64_t cut;             /* branches not taken because of the preemption bound */
  uint64_t step_limited;    /* runs stopped by max_steps */
  bool done;                /* no execution is left to run */
  bool complete;            /* done, and no bound cut the search: every trace was run */
  /* the latest execution */
  bool last_blocked;        /* abandoned: not an outcome */
  int last_preemptions;     /* preemptions in it (a switch away from a thread that could go on) */
  uint64_t last_decisions;
  uint64_t max_decisions;   /* the longest execution so far */
} DrvmExploreStats;

/* Makes vm, compiled and not started, an explorer (before drvm_explore_next). */
bool drvm_explore(DrVM *vm, const DrvmExploreConfig *c);
/* Runs the next execution to its end (resetting the VM first, drvm_reset,
 * if it ran): 1 then, with the VM ended as after drvm_run_to_end, so the
 * host can read races (drvm_race), drvm_finish it for the result and save
 * its decisions; 0 when no execution is left; -1 on misuse. */
int drvm_explore_next(DrVM *vm, int argc, const char *const *argv);
bool drvm_explore_stats(const DrVM *vm, DrvmExploreStats *s);
/* A fingerprint of the latest execution's Mazurkiewicz trace: executions
 * that are the same trace (that only reorder independent steps) share it;
 * for checking a reduction.  0 if no execution ran. */
uint64_t drvm_explore_fingerprint(const DrVM *vm);

#ifdef __cplusplus
}
#endif

#endif
