/* The event stream: what the interpreter tells listeners (detectors, the
 * tracer, statistics) and what a scheduler sees as a thread's pending
 * event.  One table, DR_EVENTS, names every kind; the tracer, the
 * scheduler view and the record/replay code all expand it.
 *
 * Order of things at one event: the scheduler is asked before it executes
 * (for synchronization events always; for accesses and calls when it asks
 * for them), listeners learn of it after it has taken effect.  A listener
 * must not run bytecode, allocate GC objects, or re-enter the VM; it may
 * read the heap and the thread's frames (its call stack). */
#ifndef DR_EVENT_H
#define DR_EVENT_H

#include "object.h"

/* X(enum suffix, trace word, flags) */
#define DR_EVENTS(X)                                                          \
  X(READ, "rd", DR_EVF_ACCESS)            /* field, static or array element */ \
  X(WRITE, "wr", DR_EVF_ACCESS)                                               \
  X(VREAD, "vrd", DR_EVF_SYNC)            /* volatile read */                 \
  X(VWRITE, "vwr", DR_EVF_SYNC)           /* volatile write */                \
  X(ACQUIRE, "acq", DR_EVF_SYNC)          /* outermost monitor enter */       \
  X(RELEASE, "rel", DR_EVF_SYNC)          /* outermost monitor exit */        \
  X(WAIT, "wait", DR_EVF_SYNC)            /* wait(): releases every hold */   \
  X(WAKE, "wake", DR_EVF_SYNC)            /* wait() returns: holds retaken */ \
  X(NOTIFY, "notify", DR_EVF_SYNC)                                            \
  X(NOTIFY_ALL, "nall", DR_EVF_SYNC)                                          \
  X(FORK, "fork", DR_EVF_SYNC)            /* Thread.start; other = child */   \
  X(JOIN, "join", DR_EVF_SYNC)            /* join returned; other = joined */ \
  X(END, "end", DR_EVF_SYNC)              /* the thread's last event */       \
  X(SLEEP, "sleep", DR_EVF_SYNC)                                              \
  X(YIELD, "yield", DR_EVF_SYNC)                                              \
  X(INTERRUPT, "intr", DR_EVF_SYNC)       /* other = the interrupted thread */ \
  /* a thread found interrupted (isInterrupted/interrupted true, or an   \
   * InterruptedException thrown): the interrupt synchronizes with it   \
   * (JLS 17.4.4); other = that thread */                               \
  X(INTERRUPTED, "intr-seen", DR_EVF_SYNC)                                    \
  X(CALL, "call", DR_EVF_CALL)            /* callee = the method entered */   \
  X(RETURN, "ret", DR_EVF_CALL)           /* arg = 1 when unwound by an exception */ \
  X(NEW, "new", 0)                        /* object allocated */             \
  /* a class's static initializer completed: it happens-before every use  \
   * of the class by other threads (JLS 12.4.2); cls = the class */       \
  X(INIT, "init", 0)                                                          \
  /* a native method bound to C (vm/ffi.c) is entered / returns: one opaque \
   * step, no thread switch inside; callee = the native method */          \
  X(NATIVE_ENTER, "native-enter", 0)                                          \
  X(NATIVE_EXIT, "native-exit", 0)                                            \
  X(STEP, "step", 0)                      /* pending only: any other instruction */

enum {
  DR_EVF_ACCESS = 1 << 0, /* a plain shared-memory access */
  DR_EVF_SYNC = 1 << 1,   /* synchronization: always a scheduling point */
  DR_EVF_CALL = 1 << 2,   /* call or return */
};

typedef enum {
#define DR_EV_ENUM(name, word, flags) DR_EV_##name,
  DR_EVENTS(DR_EV_ENUM)
#undef DR_EV_ENUM
  DR_EV__COUNT
} DrEventKind;

typedef struct {
  const char *word;
  unsigned flags;
} DrEventInfo;

extern const DrEventInfo dr_event_info[DR_EV__COUNT];

struct DrThread;

typedef struct DrEvent {
  DrEventKind kind;
  struct DrThread *thread; /* who executes it */
  DrObj *obj;              /* instance, array, lock, Thread object, new object; NULL for statics */
  DrClass *cls;            /* obj's class, or the class owning a static field */
  int32_t field;           /* field slot, static slot or array index; -1 if none */
  bool is_static;          /* field is a static slot of cls */
  DrMethod *method;        /* method whose code executes the event */
  uint32_t pc;             /* its position in method (line: dr_method_line) */
  DrMethod *callee;        /* CALL / RETURN: the method entered or left */
  struct DrThread *other;  /* FORK / JOIN / INTERRUPT: the other thread */
  int64_t arg;             /* SLEEP / WAIT / JOIN: milliseconds (0 = none); RETURN: unwound */
} DrEvent;

/* A listener: receives the events it asks for after they took effect.
 * Listeners are called in the order they were added. */
#define DR_EV_BIT(kind) (1u << (kind))
#define DR_EV_ALL ((1u << DR_EV__COUNT) - 1u)
typedef struct DrListener {
  const char *name;
  /* DR_EV_BIT()s of the kinds it receives; 0 means all.  The interpreter
   * hooks only what some listener (or the scheduler) needs: a detector
   * that ignores calls does not pay for them. */
  uint32_t events;
  void (*event)(struct DrListener *self, DrVM *vm, const DrEvent *e);
  void (*finish)(struct DrListener *self, DrVM *vm); /* the run ended; may be NULL */
  struct DrListener *next;
} DrListener;

#endif
