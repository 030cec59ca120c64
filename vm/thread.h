/* Green threads and monitors: the data the interpreter, the scheduler
 * interface and the listeners share.  All threads run on one OS thread;
 * the VM switches only at scheduling points (vm/sched_iface.h). */
#ifndef DR_THREAD_H
#define DR_THREAD_H

#include "event.h"

/* The table is public: include/drvm.h's DRVM_THREAD_STATES. */
#define DR_THREAD_STATES(X) DRVM_THREAD_STATES(X)

typedef enum {
#define DR_TS_ENUM(name, word) DR_TS_##name,
  DR_THREAD_STATES(DR_TS_ENUM)
#undef DR_TS_ENUM
  DR_TS__COUNT
} DrThreadState;

extern const char *const dr_thread_state_names[DR_TS__COUNT];

typedef struct DrFrame {
  DrMethod *method;
  uint32_t *ip;            /* saved ip: at the START of the instruction that
                              left this frame (a call, a wait for class
                              initialization, a thread switch), so traces,
                              handler lookup and re-execution see its pc */
  DrValue *regs;
  uint32_t ret_reg;        /* caller register receiving the result */
} DrFrame;

/* A monitor, created on an object's first synchronized use. */
typedef struct DrMonitor {
  struct DrThread *owner;
  int count;               /* reentrant holds */
  struct DrThread **waiters; /* wait set, in arrival order */
  int nwaiters, waiters_cap;
} DrMonitor;

/* A monitor a thread holds, with the frame depth of its outermost
 * acquisition (thread dumps print "- locked" under that frame). */
typedef struct {
  DrObj *obj;
  int depth;
} DrHeld;

/* Why a blocking native is executing again when its thread is resumed. */
typedef enum {
  DR_RESUME_NONE,
  DR_RESUME_WAIT,
  DR_RESUME_JOIN,
  DR_RESUME_SLEEP,
} DrResume;

typedef struct DrThread {
  int id;                  /* T<id>: 0 is main, then in start order */
  DrThreadState state;
  DrObj *jthread;          /* its java.lang.Thread (main's is made on demand) */

  DrValue *stack;          /* register stack, grown on demand */
  size_t stack_slots;
  DrFrame *frames;
  int nframes, frames_cap;
  /* frames pushed so far (dr_frame_push): while it and nframes stay the
   * same, so do the caller frames -- a listener may keep what it derived
   * from them (the detectors' access contexts) */
  uint64_t pushes;
  /* by class id: it read one of the class's static finals since it was
   * initialized (interp.c's final_read); lazily */
  uint8_t *final_seen;
  int final_seen_len;

  /* what it waits for */
  DrObj *monitor;          /* BLOCKED / WAITING: the monitor's object */
  DrClass *init_class;     /* BLOCKED: another thread initializes it */
  struct DrThread *join_target;
  int64_t deadline;        /* virtual ns when a timed wait/sleep/join ends; INT64_MAX none */
  int wait_count;          /* holds released by wait, retaken by its WAKE */
  DrResume resume;
  bool woken_by_interrupt; /* its sleep/wait/join must throw InterruptedException */
  int notified_by;         /* WAITING: the id of the thread whose notify woke it; -1 (a timeout...) */

  DrHeld *held;            /* monitors held, in acquisition order */
  int nheld, held_cap;

  const uint32_t *granted_ip; /* the scheduler chose this pending event: execute it without asking again */
  /* the instruction that started a class's initialization, and the frame
   * count back in its frame: it re-executes after the initializer without
   * a second scheduling point, so whichever thread happens to initialize
   * a class passes the same points as the others (systematic exploration
   * relies on a thread's points not depending on other threads) */
  const uint32_t *init_return_ip;
  int init_return_depth;
  char *ended_name;        /* its name when it ended (the Thread object may be gone) */
  bool in_uncaught;        /* running drvm.Boot.uncaught for an escaped exception */
  bool died;               /* an exception escaped its run() (or main) */
  uint64_t events;         /* scheduling points passed: PCT-style step counts */
  /* the words a listener publishes for the topological filter (escape.h):
   * a local object's record is valid while they stay the same */
  uint32_t esc_epoch, esc_lockset;
  /* the word a listener publishes for the inline same-epoch check
   * (vm.h's DrFastCheck); DR_FAST_NONE matches no location */
  uint64_t fast_epoch;
  /* its entry's index in the listener's clock vectors (the read-shared
   * check's c[fast_slot]): not its id once ended threads' entries are
   * reused (accordion clocks) */
  uint32_t fast_slot;
} DrThread;

#define DR_FAST_NONE UINT64_MAX

/* A new top frame (room reserved by the caller): every push goes here. */
static inline DrFrame *dr_frame_push(DrThread *th) {
  th->pushes++;
  return &th->frames[th->nframes++];
}

#endif
