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

#include "../include/drvm.h"
#include "object.h"

/* The table itself is public (include/drvm.h's DRVM_EVENTS): hosts and
 * the VM share one vocabulary, and the kinds' numbers are the same. */
#define DR_EVENTS(X) DRVM_EVENTS(X)

enum {
  DR_EVF_ACCESS = DRVM_EVF_ACCESS,
  DR_EVF_SYNC = DRVM_EVF_SYNC,
  DR_EVF_CALL = DRVM_EVF_CALL,
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
  /* WRITE / VWRITE of a reference field, static or array element: the
   * reference stored (NULL: null, or not a reference) -- what publishes an
   * object to other threads (the topological filter, escape.h) */
  DrObj *stored;
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
