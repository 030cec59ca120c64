/* The runtime object model: values, objects, strings, arrays, classes and
 * methods.  Classes and methods are not GC objects: the VM owns them for
 * its whole life.  Every heap object starts with a DrObj header. */
#ifndef DR_OBJECT_H
#define DR_OBJECT_H

#include "common.h"

typedef struct DrObj DrObj;
typedef struct DrClass DrClass;
typedef struct DrMethod DrMethod;
typedef struct DrVM DrVM;

/* A register, field, static or argument slot.  The static type decides
 * which member is live; the VM never needs a tag. */
typedef union DrValue {
  int32_t i; /* int, char, boolean, byte, short */
  int64_t j; /* long */
  float f;
  double d;
  DrObj *ref;
} DrValue;

typedef enum {
  DR_K_VOID,
  DR_K_BOOLEAN,
  DR_K_CHAR,
  DR_K_BYTE,
  DR_K_SHORT,
  DR_K_INT,
  DR_K_LONG,
  DR_K_FLOAT,
  DR_K_DOUBLE,
  DR_K_REF,
} DrKind;

/* Object flags in the header. */
enum {
  DR_OBJ_MARKED = 1 << 0,
  /* made by compiling (string constants): survives drvm_reset, which frees
   * every other object (vm.c's dr_vm_reset) */
  DR_OBJ_PERM = 1 << 1,
};

struct DrMonitor;

struct DrObj {
  DrClass *cls;
  DrObj *gc_next;          /* all-objects list, for sweeping */
  uint32_t serial;         /* n for the n-th object of its class (from 1): "Account#3";
                              the identity hash is derived from it */
  uint32_t flags;
  struct DrMonitor *monitor; /* created on first synchronized use */
  void *shadow;            /* detector state; dies with the object */
  struct DrLocalRec *local;/* the topological filter's record while local (escape.h) */
};

/* An ordinary instance: DrValue fields[cls->nfields]. */
typedef struct {
  DrObj hdr;
  DrValue fields[];
} DrInstance;

typedef struct {
  DrObj hdr;
  int32_t length;
  int32_t hash;            /* cached String.hashCode, 0 = not computed */
  uint16_t chars[];        /* UTF-16 code units, as Java */
} DrString;

typedef struct {
  DrObj hdr;
  int32_t length;
  int32_t pad_;
  /* elements follow, aligned to 8; size per element from the class */
  union {
    int32_t i[1];
    int64_t j[1];
    float f[1];
    double d[1];
    uint16_t c[1];
    uint8_t z[1];
    DrObj *a[1];
  } data[];
} DrArray;

#define DR_ARRAY_DATA(arr) ((void *)((char *)(arr) + sizeof(DrArray)))

/* Class initialization states (JLS 12.4.2). */
typedef enum {
  DR_INIT_NONE,
  DR_INIT_RUNNING,
  DR_INIT_DONE,
  DR_INIT_FAILED,
} DrInitState;

enum {
  DR_CLS_INTERFACE = 1 << 0,
  DR_CLS_ABSTRACT = 1 << 1,
  DR_CLS_FINAL = 1 << 2,
  DR_CLS_ARRAY = 1 << 3,
  DR_CLS_STRING = 1 << 4,   /* java.lang.String: DrString layout */
  DR_CLS_BUILTIN = 1 << 5,  /* from the prelude */
  DR_CLS_THROWABLE = 1 << 6,/* java.lang.Throwable or a subclass */
};

struct DrClass {
  const char *name;        /* runtime (binary) name: "java.lang.String", "Outer$Inner", "[I" */
  const char *source_file; /* the file it was declared in, as stack traces name it (not owned); NULL: vm->source_name */
  int id;                  /* index in vm->classes; deterministic */
  uint32_t flags;
  DrClass *super;
  DrClass **interfaces;    /* directly implemented (or extended) interfaces */
  int ninterfaces;
  int depth;               /* superclass chain length; Object has 0 */

  /* instance layout: nfields DrValue slots, super's slots first */
  int nfields;
  uint8_t *field_is_ref;   /* nfields entries */
  const char **field_names;/* nfields entries, for diagnostics */
  uint8_t *field_kinds;    /* nfields DrKinds, for hosts reading values */

  /* statics */
  int nstatics;
  DrValue *statics;
  void *shadow;            /* detector state of the statics, laid out as an object's (DrFastCheck) */
  uint8_t *static_is_ref;
  const char **static_names;
  char *host_name;         /* as hosts see it ("int[]", "Object"), when it differs from name; made when first asked */
  uint8_t *static_kinds;

  DrMethod **vtable;
  int vtable_len;
  DrMethod **itable;       /* indexed by interface selector; NULL if none */
  int itable_len;
  DrMethod *clinit;        /* NULL if the class has no static initializer */
  DrInitState init_state;
  struct DrThread *init_thread; /* the thread running its initializer */
  DrObj *init_error;       /* DR_INIT_FAILED: the cause of NoClassDefFoundError (vm/clinit.c; a root) */
  uint32_t nallocated;     /* objects of this class made so far (serials) */

  /* arrays: the element kind, and the element class for reference arrays */
  DrKind elem_kind;
  DrClass *elem_class;
  DrClass *array_class;    /* cache: the class of this[] */
  int elem_size;
  DrObj *lock;             /* monitor object of static synchronized methods (a root) */
};

/* An exception handler: a throw at pc in [start, end) whose exception is
 * an instance of cls (NULL catches everything) jumps to handler with the
 * exception in register reg. */
typedef struct {
  uint32_t start, end, handler;
  DrClass *cls;
  uint32_t reg;
} DrHandler;

/* A GC point: an instruction that may allocate or call.  When a frame is
 * stopped there, its live registers are the locals (registers below
 * nlocal_regs), the temporaries set in bits[off .. off+nwords) (bit i:
 * register nlocal_regs + i) and the instruction's own register operands;
 * other temporaries are dead, so a stale reference left in one does not
 * keep garbage alive. */
typedef struct {
  uint32_t pc;
  uint32_t off, nwords;
} DrGcPoint;

typedef struct {
  uint32_t pc;             /* first pc of the run of code from this line */
  int32_t line;
} DrLineEntry;

/* A local variable (this, a parameter, a local, a loop or catch
 * variable) as debuggers see it: its register holds its value at the pcs
 * in [start, end), from its first assignment to the end of its scope.
 * Outside it the register holds nothing yet or a stale value: not to
 * be read.  One variable may have several entries (a finally block's locals
 * in each inlined copy). */
typedef struct {
  const char *name;
  uint32_t start, end;
  int reg;
  DrKind kind;
} DrLocalVar;

enum {
  DR_M_STATIC = 1 << 0,
  DR_M_NATIVE = 1 << 1,
  DR_M_ABSTRACT = 1 << 2,
  DR_M_SYNCHRONIZED = 1 << 3,
  DR_M_CTOR = 1 << 4,      /* <init> */
  DR_M_CLINIT = 1 << 5,    /* <clinit> */
  DR_M_PRIVATE = 1 << 6,
  DR_M_FINAL = 1 << 7,
  DR_M_HIDDEN = 1 << 8,    /* a lambda's forwarder: not in stack traces (as the
                              JVM's lambda forms are not) */
};

/* A native implementation: args[0..nparams) hold the arguments (receiver
 * first for instance methods).  Returns false with vm->exception set when
 * it throws.  Natives that allocate more than once must keep earlier
 * results reachable (dr_push_root). */
typedef bool (*DrNativeFn)(DrVM *vm, DrValue *args, DrValue *ret);

struct DrMethod {
  const char *name;        /* "foo", "<init>", "<clinit>" */
  const char *desc;        /* readable signature, e.g. "foo(int,String)" */
  int id;                  /* index in vm->methods */
  DrClass *owner;
  uint32_t flags;
  int nparams;             /* argument slots, receiver included */
  int nregs;               /* registers, >= nparams */
  uint8_t *reg_is_ref;     /* nregs entries */
  DrKind ret_kind;
  DrKind *param_kinds;     /* nparams entries, receiver included */

  uint32_t *code;
  int code_len;
  DrLineEntry *lines;
  int nlines;
  DrHandler *handlers;
  int nhandlers;
  int nlocal_regs;         /* this + parameters + locals: always live */
  DrLocalVar *local_vars;  /* for debuggers (drvm_frame_local), in declaration
                              order; one block with the names */
  int nlocal_vars;
  DrGcPoint *gc_points;    /* sorted by pc; NULL: every register is live */
  int ngc_points;
  uint32_t *gc_bits;

  DrNativeFn native;       /* for DR_M_NATIVE */
  int8_t sync_event;       /* a synchronizing native (Thread.start, wait...): its DrEventKind, else -1 */
  int vtable_index;        /* -1 for static / private / constructors */
  int selector;            /* interface method selector, or -1 */
};

/* Object.hashCode's identity hash: looks arbitrary like the JVM's, yet
 * is the same in every run (it comes from the class and serial). */
static inline int32_t dr_identity_hash(const DrObj *o) {
  uint32_t h = (o->serial + ((uint32_t)o->cls->id << 20)) * 0x9E3779B1u;
  h ^= h >> 15;
  return (int32_t)(h & 0x7fffffffu);
}

/* The locations an object has as the papers count them: an array's
 * elements, an instance's fields; a String none (it is immutable). */
static inline uint32_t dr_obj_slots(const DrObj *o) {
  if (o->cls->flags & DR_CLS_ARRAY) return (uint32_t)((const DrArray *)o)->length;
  if (o->cls->flags & DR_CLS_STRING) return 0;
  return (uint32_t)o->cls->nfields;
}

/* Source line of pc in m, or -1. */
int dr_method_line(const DrMethod *m, uint32_t pc);

#endif
