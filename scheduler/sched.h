/* The scheduler interface: one interface for every scheduler drvm has or
 * will have -- native-like, random, round-robin, PCT, ConTest noise,
 * DrFinder, RaceFuzzer, replay, the interactive REPL, systematic
 * exploration.
 *
 * The VM runs green threads on one OS thread and switches only at
 * scheduling points: before every synchronization event (DR_EVF_SYNC in
 * vm/event.h), before accesses and calls/returns when the scheduler's
 * `points` ask for them, and when the running thread's quantum of steps
 * runs out.  At a point the VM calls pick(): the scheduler sees every
 * thread (dr_sched_threads), its state and its pending event
 * (dr_sched_pending: kind, object, class, field, method, position; the
 * call stack is th->frames and the held locks th->held) and returns the
 * thread that executes its pending event next, which must be enabled
 * (dr_sched_enabled).  Holding a thread back is simply not picking it.
 *
 * Every decision a scheduler makes goes through these callbacks, so
 * wrapping them (record/replay, sched_replay.c) captures a whole run.  A
 * scheduler draws randomness only from its own seeded DrRng. */
#ifndef DR_SCHED_H
#define DR_SCHED_H

#include "../vm/vm.h"

/* Extra scheduling points a scheduler may ask for. */
enum {
  DR_SP_ACCESS = 1 << 0, /* before every field/static/array access in user code */
  DR_SP_CALL = 1 << 1,   /* before every call and return in user code */
};

/* Why pick() is called. */
typedef enum {
  DR_PICK_EVENT,   /* cur is about to execute its pending event */
  DR_PICK_PREEMPT, /* cur's quantum ran out */
  DR_PICK_BLOCKED, /* cur cannot continue (blocked, waiting, ended): pick another */
} DrPickReason;

typedef struct DrScheduler DrScheduler;
struct DrScheduler {
  const char *name;
  unsigned points;         /* DR_SP_* */
  /* The thread to run next: an enabled one.  cur is the thread at the
   * point (not enabled when reason is DR_PICK_BLOCKED). */
  DrThread *(*pick)(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason);
  /* Which waiter notify() wakes: an index into waiters[0..n). */
  int (*pick_waiter)(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n);
  /* Steps (back-edges and calls) t may run before a preemption point;
   * 0 = no preemption.  Asked whenever t is (re)scheduled after a switch
   * or a preemption point. */
  uint64_t (*quantum)(DrScheduler *s, DrVM *vm, DrThread *t);
  /* With --spurious-wakeups: a waiting thread to wake without notify, as
   * an index into waiting[0..n), or -1 for none.  May be NULL. */
  int (*spurious)(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n);
  /* The optional ones below may be NULL. */
  /* Before the run, with the program compiled: read the scheduler's
   * inputs (drfinder's --mtr-in, racefuzzer's --race-pairs).  false with a
   * message in err: a usage error. */
  bool (*start)(DrScheduler *s, DrVM *vm, char *err, size_t errsize);
  /* After the run: write outputs (--mtr-out), say what the run showed
   * (racefuzzer's harmful races).  false with a message in err: the
   * outputs could not be written. */
  bool (*finish)(DrScheduler *s, DrVM *vm, char *err, size_t errsize);
  /* Its statistics: text lines for --stats (json false), or JSON object
   * members, `"name": value` separated by ",\n  " and without braces or a
   * trailing comma, for --sched-report (json true). */
  void (*report)(DrScheduler *s, DrVM *vm, FILE *f, bool json);
  /* The run deadlocked: true if the scheduler caused it and the run
   * should start over (DrFinder's restart; DrSchedOptions.attempt counts
   * them). */
  bool (*deadlocked)(DrScheduler *s, DrVM *vm);
  void (*destroy)(DrScheduler *s);
};

/* --- what the VM offers schedulers (vm/sched_point.c) --- */
/* Live threads (not ended), in start order. */
int dr_sched_threads(DrVM *vm, DrThread *const **out);
/* Enabled threads: those whose pending event can execute now, in start
 * order.  The array is owned by the VM and valid until the next call. */
int dr_sched_enabled(DrVM *vm, DrThread *const **out);
bool dr_sched_is_enabled(const DrVM *vm, const DrThread *t);
/* t's pending event: what it executes when picked. */
void dr_sched_pending(DrVM *vm, DrThread *t, DrEvent *ev);
/* Only its kind, cheaply: for a scheduler that looks at every point. */
DrEventKind dr_sched_pending_kind(DrVM *vm, const DrThread *t);

/* --- deterministic randomness (sched_rng.c) --- */
typedef struct {
  uint64_t s[4];
} DrRng;
void dr_rng_seed(DrRng *r, uint64_t seed);
uint64_t dr_rng_next(DrRng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t dr_rng_below(DrRng *r, uint64_t n);
/* The choices most schedulers make alike: a random waiter for notify()
 * among n, and with --spurious-wakeups a random one of n waiting threads
 * now and then (one point in DR_SPURIOUS_ONE_IN), else -1. */
enum { DR_SPURIOUS_ONE_IN = 64 };
int dr_rng_waiter(DrRng *r, int n);
int dr_rng_spurious(DrRng *r, int n);
/* A scheduler's per-thread counter, by thread id, grown on demand and
 * zero until set. */
uint64_t *dr_sched_slot(uint64_t **arr, int *n, const DrThread *t);

/* --- the built-in schedulers (sched_basic.c) --- */
typedef struct {
  uint64_t seed;
  uint64_t quantum;        /* --quantum: rr's fixed quantum, native's and contest's mean; 0 = default */
  int depth;               /* pct: --depth, the bug depth d; 0 = default */
  uint64_t pct_steps;      /* pct: --pct-steps, the expected steps k; 0 = default */
  double noise;            /* contest: --noise p in [0, 1]; < 0 = default */
  const char *mtr_in;      /* drfinder: --mtr-in, may-trigger relations of a previous run (none: Phase I) */
  const char *mtr_out;     /* drfinder: --mtr-out, this run's relations (Algorithm 1) */
  const char *race_pairs;  /* racefuzzer: --race-pairs FILE, hybrid's --potential-races output */
  int pair;                /* racefuzzer: --pair N, the Nth pair of the file (1-based); 0 = all at once */
  int attempt;             /* 0, or how many times a deadlocked run was restarted before this one */
  const char *rerun;       /* the command line that reruns this run, for messages: copy it, it is freed after creation; or NULL */
} DrSchedOptions;

enum {
  DR_DRF_DEFAULT_DEPTH = 12,
  DR_PCT_DEFAULT_DEPTH = 3,
  DR_PCT_DEFAULT_STEPS = 10000,
};
#define DR_CONTEST_DEFAULT_NOISE 0.2

/* "native", "random", "rr", "pct" or "contest"; NULL for an unknown name. */
DrScheduler *dr_sched_create(const char *name, const DrSchedOptions *opt);
extern const char *const dr_sched_names; /* "native, random, rr, pct, contest" for help texts */
/* sched_pct.c, sched_contest.c, sched_drfinder.c, sched_racefuzzer.c */
DrScheduler *dr_sched_pct_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_contest_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_drfinder_create(const DrSchedOptions *opt);
DrScheduler *dr_sched_racefuzzer_create(const DrSchedOptions *opt);

/* --- record and replay (sched_replay.c) --- */
/* One recorded answer: type 'P' a pick (value: thread id), 'Q' a quantum,
 * 'W' a notify's waiter index, 'S' a spurious wake-up (-1 none); count
 * repeats it. */
typedef struct {
  char type;
  int64_t value;
  uint64_t count;
} DrSchedAnswer;

/* Wraps inner: every decision is passed through and written to path when
 * dr_sched_record_finish is called.  Returns NULL (message on stderr) if
 * path cannot be written. */
DrScheduler *dr_sched_record(DrScheduler *inner, const char *path, const char *program, uint64_t program_hash,
                             uint64_t seed, bool spurious);
bool dr_sched_record_finish(DrScheduler *rec);
/* The scheduler a recording wraps. */
DrScheduler *dr_sched_record_inner(DrScheduler *rec);
/* Reads a recording.  Returns NULL with a message on stderr if it cannot
 * be read.  *seed and *spurious receive the recorded run's settings. */
DrScheduler *dr_sched_replay(const char *path, const char *program, uint64_t program_hash, uint64_t *seed,
                             bool *spurious);
/* After a replayed run: false (message on stderr) if it diverged or ended
 * before the recording did. */
bool dr_sched_replay_done(DrScheduler *s, DrVM *vm);
/* A recording's answers so far (valid until its next decision). */
int dr_sched_record_log(DrScheduler *rec, const DrSchedAnswer **out);
/* Replays answers[0..n) (a run recorded with `points`), then lets `then`
 * decide: the re-playable prefix that systematic exploration branches
 * from.  Destroying it destroys then. */
DrScheduler *dr_sched_prefix(const DrSchedAnswer *answers, int n, unsigned points, DrScheduler *then);
/* Makes a replay (dr_sched_replay) a prefix replay continued by then. */
void dr_sched_replay_then(DrScheduler *replay, DrScheduler *then);

#endif
