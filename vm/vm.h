/* The VM: all state of one running program lives in a DrVM, passed first
 * to every function.  No globals, so several VMs can live in one process. */
#ifndef DR_VM_H
#define DR_VM_H

#include <stdatomic.h>

#include "buf.h"
#include "hashidx.h"
#include "escape.h"
#include "thread.h"

struct DrScheduler;

enum {
  DR_SHAPE_NONE,
  DR_SHAPE_STATIC_GET,     /* "rcs": dst, class, slot */
  DR_SHAPE_STATIC_PUT,     /* "csr": class, slot, src */
  DR_SHAPE_FIELD_GET,      /* "rrf": dst, obj, field */
  DR_SHAPE_FIELD_PUT,      /* "rfr": obj, field, src */
  DR_SHAPE_ARRAY_LOAD,     /* "rrr": dst, arr, idx */
  DR_SHAPE_ARRAY_STORE,    /* "rrr": arr, idx, src */
};

/* Exit statuses of `drvm run` (include/drvm.h's). */
enum {
  DR_EXIT_OK = DRVM_EXIT_OK,
  DR_EXIT_EXCEPTION = DRVM_EXIT_EXCEPTION,
  DR_EXIT_USAGE = DRVM_EXIT_USAGE,
  DR_EXIT_COMPILE = DRVM_EXIT_COMPILE,
  DR_EXIT_DEADLOCK = DRVM_EXIT_DEADLOCK,
  DR_EXIT_STEPS = DRVM_EXIT_STEPS,
  DR_EXIT_REPLAY = DRVM_EXIT_REPLAY,
  DR_EXIT_RACES = DRVM_EXIT_RACES,
  DR_EXIT_INTERRUPTED = DRVM_EXIT_INTERRUPTED,
  DR_EXIT_MEMORY = DRVM_EXIT_MEMORY,
};

/* Classes the VM itself needs to know; found by name after loading.
 * X(enum suffix, runtime name) */
#define DR_WELL_KNOWN(X)                                                      \
  X(OBJECT, "java.lang.Object")                                               \
  X(CLASS, "java.lang.Class")                                                 \
  X(STRING, "java.lang.String")                                               \
  X(STRING_BUILDER, "java.lang.StringBuilder")                                \
  X(THROWABLE, "java.lang.Throwable")                                         \
  X(THREAD, "java.lang.Thread")                                               \
  X(ARITHMETIC, "java.lang.ArithmeticException")                              \
  X(NPE, "java.lang.NullPointerException")                                    \
  X(AIOOBE, "java.lang.ArrayIndexOutOfBoundsException")                       \
  X(SIOOBE, "java.lang.StringIndexOutOfBoundsException")                      \
  X(IOOBE, "java.lang.IndexOutOfBoundsException")                             \
  X(CLASS_CAST, "java.lang.ClassCastException")                               \
  X(NEG_ARRAY_SIZE, "java.lang.NegativeArraySizeException")                   \
  X(ARRAY_STORE, "java.lang.ArrayStoreException")                             \
  X(STACK_OVERFLOW, "java.lang.StackOverflowError")                           \
  X(OUT_OF_MEMORY, "java.lang.OutOfMemoryError")                              \
  X(ILLEGAL_MONITOR, "java.lang.IllegalMonitorStateException")                \
  X(ILLEGAL_ARGUMENT, "java.lang.IllegalArgumentException")                   \
  X(ILLEGAL_THREAD_STATE, "java.lang.IllegalThreadStateException")           \
  X(INTERRUPTED, "java.lang.InterruptedException")                            \
  X(NUMBER_FORMAT, "java.lang.NumberFormatException")                         \
  X(UNSUPPORTED, "java.lang.UnsupportedOperationException")                   \
  X(ASSERTION, "java.lang.AssertionError")                                    \
  X(UNSATISFIED_LINK, "java.lang.UnsatisfiedLinkError")                       \
  X(ERROR, "java.lang.Error")                                                 \
  X(INIT_ERROR, "java.lang.ExceptionInInitializerError")                      \
  X(NO_CLASS_DEF, "java.lang.NoClassDefFoundError")                           \
  X(BOOT, "drvm.Boot")

typedef enum {
#define DR_WK_ENUM(id, name) DR_WK_##id,
  DR_WELL_KNOWN(DR_WK_ENUM)
#undef DR_WK_ENUM
  DR_WK__COUNT
} DrWellKnown;


/* A UTF-16 text builder: strings are built here, then copied once. */
typedef struct {
  uint16_t *data;
  int32_t len, cap;
} DrBuf16;

/* What compiling left that a run changes, kept so that dr_vm_reset can
 * put it back (vm.c): taken once, when the program is compiled. */
typedef struct {
  bool taken;
  int nclasses;            /* classes made later (array classes) are a run's */
  int nstrings;            /* strings interned later (dr_lib_literal) are a run's */
  int lib_str_ids[3];
  size_t bytes_allocated, next_gc;
  DrValue *statics;        /* every class's statics, in class order */
  uint32_t *nallocated;    /* per class: its objects' serial counter */
  uint8_t *init_state;     /* per class: a DrInitState */
  /* What a run changes in place, logged as it happens so a reset undoes
   * only that (its cost follows the run, not the program or the heap). */
  struct DrQuickened {
    uint32_t *ip;          /* an instruction rewritten to its quick form */
    uint32_t op;           /* its opcode before */
  } *quickened;
  int nquickened, quickened_cap;
  DrObj **monitored;       /* permanent objects a run gave a monitor */
  int nmonitored, monitored_cap;
} DrSnapshot;

/* The inline same-epoch check, for a listener whose per-location state
 * answers "this thread already did this kind of access in its current
 * epoch" by comparing one 64-bit word (FastTrack's W_x and R_x): an
 * access to an instance field or array element whose word (in the
 * object's shadow, where the listener keeps its slots) equals the
 * thread's fast_epoch is a no-op for it, and the interpreter answers it
 * without an event.  The listener says where the words are and keeps the
 * threads' words current; it stays exact because it only describes its
 * own first test.  Other listeners then miss those accesses too: only a
 * detector opts in, and `--detector empty` does not. */
typedef struct {
  DrListener *owner;       /* the listener that opted in (NULL: none) */
  bool on;                 /* it is the only one receiving accesses (sched_point.c) */
  uint32_t nslots_off;     /* offset in o->shadow of its uint32_t count of slots */
  uint32_t base;           /* offset of slot 0 */
  uint32_t stride;         /* bytes per slot */
  uint32_t read_off, write_off; /* in a slot, the uint64_t a read (a write) is compared with */
  /* A slot word (at shared_off) with this bit set (0: none) points to a clock vector, a
   * uint32_t array (its address at vec_off, its length at vec_len_off)
   * indexed by the thread's fast_slot: a read is a no-op when the thread's entry
   * equals the low 32 bits of its fast_epoch (FastTrack's read-shared
   * same epoch). */
  uint64_t shared_bit;
  uint32_t shared_off;     /* in a slot, the word that may so point */
  uint32_t vec_off, vec_len_off;
  uint64_t hits[3];        /* reads, writes, reads through a clock vector answered inline */
  /* Optional: the owner takes an instance field or array element access
   * of a program method that the check did not answer, straight from the
   * interpreter: at that point the access cannot fail (the object is not
   * null, the index is in bounds, no ArrayStoreException) and no other
   * listener wants it, so building the event and dispatching it would be
   * all the generic path adds.  slot is the location's slot in the shadow.
   * The owner must do all the event would have done; false: it did
   * nothing, the event goes the generic way. */
  bool (*miss)(DrListener *owner, struct DrThread *th, DrObj *o, uint32_t idx, char *slot, bool write,
               DrMethod *m, uint32_t pc);
} DrFastCheck;

/* A listener that keeps state beside each object (a detector's shadow).
 * Several may at once: with one, DrObj.shadow is its state itself (what
 * the interpreter's inline check reads); from the second on, DrObj.shadow
 * points to one state per user (vm/shadow.c). */
#define DR_SHADOW_USERS 4
typedef struct {
  bool used;
  /* the object holding state died (the GC frees it): free the state */
  void (*free)(void *ctx, void *state);
  /* after each collection, once the dead objects' states are gone: where
   * a detector looks over what is left (accordion clocks).  May be NULL. */
  void (*gc_end)(void *ctx);
  void *ctx;
} DrShadowUser;

typedef struct DrVM {
  /* the loaded program; ids are indices, assigned in load order */
  DrClass **classes;
  int nclasses, classes_cap;
  DrMethod **methods;
  int nmethods, methods_cap;
  DrObj **strings;         /* interned string constants (GC roots) */
  int nstrings, strings_cap;
  DrHashIdx string_idx;    /* their ids by text (vm.c) */
  int nselectors;          /* interface method selectors handed out */
  DrClass *prim_array[DR_K_REF + 1]; /* int[], char[], ... by element kind */
  DrClass *known[DR_WK__COUNT];
  const char *source_name; /* shown in stack traces: "prog.dl" */
  DrSnapshot snap;         /* the state after compiling, for drvm_reset */

  /* heap */
  DrObj *objects;
  struct DrHeapPools *pools; /* small-object size classes (gc.c) */
  size_t bytes_allocated;
  size_t next_gc;
  /* memory outside the heap that a collection could give back (a
   * detector's clocks of ended threads, freed with their Thread objects):
   * it counts toward the next collection as Lua's external memory does */
  size_t gc_extra;
  size_t max_heap;
  /* all the VM holds: the heap, plus what is outside it (ext_bytes: the
   * listeners' state as they count it, threads' stacks, the filter's
   * records); checked at every stop check (dr_stop_check) */
  size_t max_memory;
  size_t ext_bytes;
  DrObj **gray;
  int ngray, gray_cap;
  DrObj **roots;           /* temporary roots held by C code */
  int nroots, roots_cap;
  uint64_t gc_count;
  bool gc_running;

  /* execution: buffers a reset empties but keeps */
  DrThread **threads;      /* live threads (not ended), in start order */
  int nthreads, threads_cap;
  DrThread **all_threads;  /* every thread ever started, by id */
  int nall_threads, all_threads_cap;
  DrThread **enabled;      /* dr_sched_enabled's list, valid while enabled_gen == sched_gen */
  int enabled_cap, nenabled;
  uint64_t max_steps;      /* 0 = unlimited */
  struct DrFfi *ffi;       /* native methods' libraries and bindings (ffi.c) */
  DrMethod *thread_run;    /* Thread.run(): a started thread's first frame, by vtable */
  DrMethod *uncaught_handler; /* drvm.Boot.uncaught(Throwable) */
  int thread_intr_slot;    /* Thread.interrupted: the interrupt status */
  int thread_tid_slot;     /* Thread.tid: 1 + the DrThread id once started, 0 before */
  atomic_int step_interrupt; /* a host asked (maybe from a signal handler or
                              another thread) to stop at the next scheduling point */
  atomic_int stop_request; /* a host asked (drvm_stop, maybe from a signal handler)
                              to end the run: kept across resets, as the host's wish */
  struct DrApi *api;       /* the embedding API's state (api.c); NULL inside unit tests */

  /* ---- A run's scalars.  dr_vm_reset zeroes every field from run_begin
   * to run_end, then vm_run_defaults (vm.c, which dr_vm_init uses too)
   * sets the few that do not start at 0: a field added here starts each
   * run as it starts the first.  Nothing here owns memory. ---- */
  char run_begin;
  DrThread *thread;        /* the running thread */
  /* Bumped by every change that can make a thread enabled or not (its
   * state, a monitor's owner, a class's initialization): between two
   * synchronization events, hundreds of access points reuse one list. */
  uint64_t sched_gen, enabled_gen;
  DrObj *exception;        /* pending exception while unwinding */
  uint64_t steps;          /* instructions executed, counted at branches and calls */
  uint64_t preempt_at;     /* steps at which the running thread's quantum ends (UINT64_MAX: never) */
  bool halting;            /* System.exit, deadlock, step limit: stop every thread */
  int exit_status;
  int halt_outcome;        /* why it halted: a DrvmOutcome */
  int64_t vclock_ns;       /* virtual clock behind currentTimeMillis/nanoTime/sleep */
  int64_t next_deadline;   /* earliest deadline of a timed sleep/wait/join (INT64_MAX: none) */
  bool blocked;            /* a native just blocked the running thread */
  bool spurious_wakeups;   /* --spurious-wakeups */
  int uncaught;            /* threads an exception escaped from */
  bool restart;            /* the scheduler asked to restart a deadlocked run */

  /* scheduling and the event stream */
  struct DrScheduler *sched;
  DrListener *listeners;
  uint32_t listen_mask;    /* DR_EV_BIT()s some listener receives */
  uint32_t hooks_gen;      /* bumped when a listener changes its events */
  /* who keeps state beside objects (DrObj.shadow): vm/shadow.c */
  DrShadowUser shadow_users[DR_SHADOW_USERS];
  int nshadow_users;       /* registered now */
  int shadow_solo;         /* with one: its index, whose state DrObj.shadow is itself */
  bool shadow_multi;       /* DrObj.shadow is a DrShadowSet (more than one user) */
  unsigned sched_points;   /* the scheduler's DR_SP_* */
  bool hooks;              /* listeners or extra points: the interpreter's hooked dispatch */
  uint64_t sched_decisions;/* scheduling points passed */
  /* stepping: a host decides (include/drvm.h's drvm_run_until_decision);
   * at a decision the interpreter returns with suspended set, and
   * dr_interp_resume goes on with the thread the host chose */
  bool step_mode;          /* stop at decisions */
  bool step_every;         /* single-choice ones too */
  uint64_t step_target;    /* stop only at this decision (UINT64_MAX: none) */
  bool step_goal;          /* a goal scheduler decides where to stop (step_interrupt) */
  bool suspended;          /* the interpreter returned at a decision */
  int suspend_reason;      /* its DrPickReason */
  struct DrThread *suggested; /* the scheduler's pick there */
  bool in_listener;        /* a listener is running: no allocation, no re-entry */
  /* added for the built-in library (natives*.c, print.c): */
  uint16_t out_carry[3];   /* per fd: a high surrogate printed last, waiting
                              for its low half (as Java's stream encoder) */
  uint64_t seed;           /* base of drvm.Boot.randomSeed (default 0) */
  uint64_t seed_calls;     /* randomSeed calls so far */
  uint64_t prints;         /* writes to stdout or stderr so far: a scheduler sees which step printed */
  uint64_t timeouts;       /* timed sleeps, waits and joins that ran out: a scheduler sees the clock wake a thread */
  uint64_t inits;          /* program classes whose initialization started: a scheduler sees which step */
  const struct DrClass *init_last; /* ... started it, and the class */
  DrFastCheck fast;        /* the inline same-epoch check (above) */
  /* the topological filter (escape.h) */
  bool esc_on;
  bool esc_claimed;        /* a detector uses it: no other may run beside (it would miss local objects) */
  DrEscSink esc_sink;
  DrEscStats esc_stats;
  char run_end;
  /* ---- end of the run's scalars ---- */
  DrObj **esc_stack;       /* dr_esc_publish's work list */
  int esc_nstack, esc_stack_cap;

  /* per opcode, how an access instruction names its location (interp.c's
   * access_now), from the opcode table's operand formats: DR_SHAPE_* */
  uint8_t access_shape[256];

  DrBuf16 scratch16;       /* reused by string building (STRCAT, natives) */

  /* output: buffered so a run's output is written in order, once */
  DrBuf out;
  FILE *out_file, *err_file;
  bool out_unbuffered;     /* DrvmConfig.unbuffered: flushed at every print */

  int lib_str_ids[3];      /* 1 + vm->strings index of "", "false", "true"; 0 = not yet */
} DrVM;

/* --- per-object state of listeners (shadow.c) --- */
/* Registers a user; its index, or -1 when DR_SHADOW_USERS are. */
int dr_shadow_add(DrVM *vm, const DrShadowUser *u);
/* ... and takes it back, once it has freed every state it set. */
void dr_shadow_remove(DrVM *vm, int user);
static inline void *dr_shadow_get(const DrVM *vm, const DrObj *o, int user) {
  if (DR_LIKELY(!vm->shadow_multi)) return o->shadow;
  return o->shadow ? ((void *const *)o->shadow)[user] : NULL;
}
void dr_shadow_set(DrVM *vm, DrObj *o, int user, void *state);
/* o dies: its users free their states (gc.c) */
void dr_shadow_release(DrVM *vm, DrObj *o);
/* a collection ended (gc.c) */
void dr_shadow_gc_end(DrVM *vm);

/* --- lifecycle (vm.c) --- */
void dr_vm_init(DrVM *vm);
void dr_vm_free(DrVM *vm);
/* Once the program is compiled: what its runs change, kept (vm->snap)
 * and its objects made permanent. */
void dr_vm_snapshot(DrVM *vm);
/* Back to the snapshot, after a run at any stage: its objects, threads,
 * array classes and interned strings freed, every class uninitialized
 * with the statics compiling left, the run's scalars as at the start.
 * The caller has finished the listeners and dropped the scheduler. */
void dr_vm_reset(DrVM *vm);
DrClass *dr_class_new(DrVM *vm, const char *name);
/* c's java.lang.Class object, made at its first use: what C.class and
 * getClass() give and what static synchronized methods of c lock, one
 * monitor (NULL after throwing OutOfMemoryError). */
DrObj *dr_class_object(DrVM *vm, DrClass *c);
DrMethod *dr_method_new(DrVM *vm, DrClass *owner, const char *name, const char *desc);
DrClass *dr_find_class(DrVM *vm, const char *name);
/* The class of arrays whose elements are elem (a class) ... */
DrClass *dr_array_class(DrVM *vm, DrClass *elem);
/* ... or of a primitive kind. */
DrClass *dr_prim_array_class(DrVM *vm, DrKind kind);
/* Intern a string constant; returns its id.  chars are UTF-16. */
int dr_string_const(DrVM *vm, const uint16_t *chars, int len);
/* The id of the interned string with this text, or -1. */
int dr_string_find(DrVM *vm, const uint16_t *chars, int len);
/* Interns s, a new string whose text is not interned yet; returns its id. */
int dr_string_intern(DrVM *vm, DrObj *s);
/* Called once all classes are loaded: finds well-known classes, binds
 * prelude natives.  Returns false with a message on stderr if the
 * program is unusable. */
bool dr_vm_link(DrVM *vm);
bool dr_is_subclass(const DrClass *c, const DrClass *of);
bool dr_instance_of(const DrObj *o, const DrClass *cls);

/* --- memory (gc.c): the one allocation entry point --- */
void *dr_gc_alloc(DrVM *vm, DrClass *cls, size_t size); /* NULL + OutOfMemoryError pending */
void dr_gc_collect(DrVM *vm);
void dr_gc_free_all(DrVM *vm);
/* Marks every object permanent: the ones dr_gc_free_run keeps. */
void dr_gc_make_permanent(DrVM *vm);
/* Frees every object that is not permanent, and the monitors runs gave
 * permanent ones (vm->snap.monitored).  Classes must still be alive. */
void dr_gc_free_run(DrVM *vm);
void dr_push_root(DrVM *vm, DrObj *o);
void dr_pop_roots(DrVM *vm, int n);
DrObj *dr_new_instance(DrVM *vm, DrClass *cls);
DrArray *dr_new_array(DrVM *vm, DrClass *arrcls, int32_t length);
DrString *dr_new_string(DrVM *vm, const uint16_t *chars, int32_t len);
DrString *dr_new_string_utf8(DrVM *vm, const char *s);

/* --- exceptions (exceptions.c) --- */
/* Creates an exception of cls with an optional message and its stack
 * trace, makes it pending, and returns false (for `return dr_throw(...)`). */
bool dr_throw(DrVM *vm, DrWellKnown cls, const char *fmt, ...) DR_PRINTF(3, 4);
bool dr_throw_npe(DrVM *vm);
/* Fills a Throwable's stack trace from the current frames (stacktrace.c):
 * skips skip_top frames, then constructors of Throwable classes. */
bool dr_build_stack_trace(DrVM *vm, DrObj *throwable, int skip_top);
/* The source file m's code is in: "prelude.dl" or the program's. */
const char *dr_method_file(const DrVM *vm, const DrMethod *m);
/* "Class.method(file:line)" of a frame, appended to b. */
void dr_frame_text(DrVM *vm, const DrFrame *f, DrBuf *b);
/* "file:line" of pc (-1: unknown) in m, or with with_method the frame form. */
void dr_position_text(DrVM *vm, const DrMethod *m, int64_t pc, bool with_method, DrBuf *b);
/* Throws an already-created exception object. */
bool dr_throw_obj(DrVM *vm, DrObj *exception);

/* --- failed class initialization (clinit.c) --- */
/* Whether frame i of th has not begun: it waits below the <clinit> frames
 * pushed to initialize its class's superclasses first (or, for main, its
 * class).  Java has no frame for it yet: handlers and traces skip it. */
bool dr_frame_pending(const DrThread *th, int i);
/* The <clinit> of c, th's top frame, is unwinding with the pending
 * exception: c and the subclasses whose initialization waited for it
 * become erroneous, and the exception is wrapped as Java does. */
void dr_init_failed(DrVM *vm, DrThread *th, DrClass *c);
/* Throws NoClassDefFoundError for an erroneous class; returns false. */
bool dr_throw_no_class_def(DrVM *vm, DrClass *c);
/* Initializing cls found its superclass `failed` erroneous: throws its
 * NoClassDefFoundError and makes cls and the classes between erroneous. */
void dr_init_chain_failed(DrVM *vm, DrThread *th, DrClass *cls, DrClass *failed);

/* --- execution (interp.c) --- */
/* Runs `main(String[])` of cls with args and every thread it starts;
 * returns the process exit status.  vm->sched must be set. */
int dr_run_main(DrVM *vm, DrClass *cls, int argc, char **argv);
/* The same in steps: dr_main_start prepares main's thread (false: the
 * run ended at once, *status set); dr_interp_continue runs until the end
 * (the exit status) or, in step mode, a decision (-1, vm->suspended);
 * dr_interp_resume goes on from a decision with thread t. */
bool dr_main_start(DrVM *vm, DrClass *cls, int argc, const char *const *argv, int *status);
int dr_interp_continue(DrVM *vm);
int dr_interp_resume(DrVM *vm, struct DrThread *t);
/* Stops every thread: the run ends with status, as outcome (DrvmOutcome). */
void dr_halt(DrVM *vm, int status, int outcome);
/* drvm_stop was called: halts the run as DRVM_OUTCOME_INTERRUPTED (unless
 * it is halting already, for its own reason) and says true.  One relaxed
 * load: cheap enough for every scheduling point. */
bool dr_stop_check(DrVM *vm);

/* --- threads and monitors (threads.c, sched_point.c) --- */
DrThread *dr_thread_new(DrVM *vm);
/* Makes room for a frame of `need` registers at regs and one more frame;
 * false (StackOverflowError pending) beyond the limits.  Frames' regs
 * pointers are rebased; *regs too. */
bool dr_thread_reserve(DrVM *vm, DrThread *t, DrValue **regs, size_t need);
void dr_thread_end(DrVM *vm, DrThread *t);
void dr_thread_timeout(DrVM *vm, DrThread *t);
void dr_thread_spurious_wake(DrVM *vm, DrThread *t);
/* The current virtual time in ns. */
int64_t dr_now_ns(const DrVM *vm);
/* A thread's name (from its Thread object) as UTF-8 into buf. */
const char *dr_thread_name(DrVM *vm, const DrThread *t, char *buf, size_t size);
bool dr_monitor_enter(DrVM *vm, DrThread *t, DrObj *o); /* granted: the monitor is free or t's */
bool dr_monitor_exit(DrVM *vm, DrThread *t, DrObj *o);  /* false: IllegalMonitorStateException */
/* The scheduling point: the thread that executes its pending event next,
 * or NULL when the run stops (every thread ended, deadlock, halting). */
DrThread *dr_sched_point(DrVM *vm, int reason);
void dr_emit_event_all(DrVM *vm, const DrEvent *e);
/* Delivers e to the listeners that want it; one listener is the usual
 * case and costs one indirect call. */
static inline void dr_emit_event(DrVM *vm, const DrEvent *e) {
  DrListener *l = vm->listeners;
  if (DR_LIKELY(l && !l->next)) {
    if (!l->events || (l->events & DR_EV_BIT(e->kind))) l->event(l, vm, e);
    return;
  }
  dr_emit_event_all(vm, e);
}
/* Fills kind, obj, cls, field and is_static of an access instruction's
 * event (ev zeroed by the caller). */
void dr_decode_access(DrVM *vm, const uint32_t *ip, const DrValue *R, DrEvent *ev);
/* The reference the write ev (kind, cls, field, is_static filled) about
 * to execute at ip stores, if it stores one (DrEvent.stored). */
DrObj *dr_access_stored(const DrEvent *ev, const uint32_t *ip, const DrValue *R);
/* Fills the position fields of e from t's innermost bytecode frame. */
void dr_event_at(DrEvent *e, DrEventKind kind, DrThread *t);
void dr_add_listener(DrVM *vm, DrListener *l);
/* The run ended: every listener's finish, in order; none is left. */
void dr_finish_listeners(DrVM *vm);
/* Native methods bound to C through libffi (ffi.c). */
bool dr_ffi_load(DrVM *vm, const char *path, char *err, size_t errsize); /* --lib */
bool dr_ffi_call(DrVM *vm, DrValue *args, DrValue *ret); /* a user native method's DrNativeFn */
void dr_ffi_free(DrVM *vm);
/* A listener changed its events mask: the interpreter rehooks its
 * dispatch before the next instruction of the running thread that
 * follows a native call or a thread switch (a listener that widens its
 * mask from an event it receives, e.g. at a fork, gets the events of
 * the very next instruction). */
void dr_listeners_changed(DrVM *vm);
/* Whether some listener receives events of this kind. */
static inline bool dr_listening(const DrVM *vm, DrEventKind kind) { return vm->listen_mask & DR_EV_BIT(kind); }
/* Prints the JDK-like thread dump and the lock cycle; sets exit status 4. */
void dr_report_deadlock(DrVM *vm);
/* An object's name in traces and reports: "Account#3", "int[]#2". */
const char *dr_obj_name(const DrObj *o, char *buf, size_t size);
/* A lock as people name it: Account#3, or Bank.class for the lock of a
 * static synchronized method. */
const char *dr_lock_name(const DrVM *vm, const DrObj *o, char *buf, size_t size);
bool dr_is_class_lock(const DrVM *vm, const DrObj *o);
/* The class whose Class object o is, or NULL. */
const DrClass *dr_lock_class(const DrVM *vm, const DrObj *o);
/* A class's source-like name: "int[]", "Outer$Inner". */
const char *dr_class_display_name(const DrClass *c, char *buf, size_t size);

/* --- strings and output (string.c, print.c) --- */
/* Appends the Java text of a value of kind k (Double.toString etc.). */
void dr_buf_append_value(DrBuf *b, DrKind k, DrValue v);
/* Appends a String as UTF-8 ("null" for NULL). */
void dr_buf_append_jstring(DrBuf *b, const DrString *s);
void dr_flush_output(DrVM *vm);
/* Writes UTF-8 text to fd 1 (buffered in vm->out) or 2 (stdout flushed first). */
void dr_write_fd(DrVM *vm, int fd, const char *s, size_t n);
void dr_buf16_append_value(DrBuf16 *b, DrKind k, DrValue v);
void dr_buf16_append_ascii(DrBuf16 *b, const char *s);
void dr_buf16_free(DrBuf16 *b);
/* Java's Double.toString; buf must hold 32 bytes; returns length. */
int dr_double_to_string(double d, char *buf);
/* The digits java.util.Formatter rounds (FloatingDecimal's, not in
 * Double.toString's compatible form) of |d|, finite: value =
 * 0.DIGITS * 10^dec_exp; digits must hold 24; returns their number. */
int dr_double_digits(double d, char *digits, int *dec_exp);
int32_t dr_string_hash(DrString *s);
/* added for the built-in library: */
/* Long.toString / Integer.toHexString texts; buf holds 21 / 9 bytes. */
int dr_long_to_string(int64_t v, char *buf);
int dr_hex_to_string(uint32_t v, char *buf);
void dr_buf_append_utf16(DrBuf *b, const uint16_t *u, int32_t n);
void dr_buf16_append(DrBuf16 *b, const uint16_t *u, int32_t n);
/* Prints UTF-16 text to fd 1 or 2 as PrintStream does: UTF-8, a surrogate
 * pair split across two prints still joined. */
void dr_print_utf16(DrVM *vm, int fd, const uint16_t *u, int32_t n);
bool dr_string_equals(const DrString *a, const DrString *b);

/* --- natives (natives.c): prelude methods implemented in C --- */
DrNativeFn dr_native_lookup(const char *class_name, const char *desc);

#endif
