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
#ifndef DR_SCHED_IFACE_H
#define DR_SCHED_IFACE_H

#include "vm.h"

/* Extra scheduling points a scheduler may ask for. */
enum {
  DR_SP_ACCESS = 1 << 0, /* before every field/static/array access in user code */
  DR_SP_CALL = 1 << 1,   /* before every call and return in user code */
  /* (the same bits as include/drvm.h's DRVM_POINT_*) */
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
  /* The host overrode this scheduler's last pick (a person stepping the
   * run chose another thread): a recording writes the thread really
   * chosen.  May be NULL. */
  void (*overridden)(DrScheduler *s, DrVM *vm, DrThread *chosen);
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
/* Installs s (NULL: none) as vm's scheduler, with its scheduling points
 * and any extra ones (DR_SP_*) a stepping host wants: the one way to
 * wire a scheduler.  The caller keeps s and destroys it after the run. */
void dr_vm_set_scheduler(DrVM *vm, DrScheduler *s, unsigned extra_points);
/* The end of a scheduling point once t is chosen (by the scheduler or a
 * stepping host): returns t, ready to run. */
DrThread *dr_sched_chosen(DrVM *vm, DrThread *t);
/* Live threads (not ended), in start order. */
int dr_sched_threads(DrVM *vm, DrThread *const **out);
/* Enabled threads: those whose pending event can execute now, in start
 * order.  The array is owned by the VM and valid until the next call. */
int dr_sched_enabled(DrVM *vm, DrThread *const **out);
bool dr_sched_is_enabled(const DrVM *vm, const DrThread *t);
/* Time passes (the virtual clock jumps to the earliest timed sleep, wait
 * or join, which wakes): for a scheduler that holds runnable threads back
 * while the thread it waits for sleeps (DrFinder).  false: none waits
 * with a timeout. */
bool dr_sched_advance_clock(DrVM *vm);
/* t's pending event: what it executes when picked. */
void dr_sched_pending(DrVM *vm, DrThread *t, DrEvent *ev);
/* Only its kind, cheaply: for a scheduler that looks at every point. */
DrEventKind dr_sched_pending_kind(DrVM *vm, const DrThread *t);

#endif
