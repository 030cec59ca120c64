/* The interpreter loop.
 *
 * Hot state -- ip, the register window R and the frame -- lives in locals;
 * SAVE() writes ip back to the frame before anything that may look at the
 * frames (a call, an allocation that may collect or build a stack trace,
 * an exception), and LOAD() reads them after the frame stack changed.  A
 * green-thread switch (next issue) is one more such point.
 *
 * Every instruction reads its operands relative to ip and advances ip only
 * when it completes, so an instruction that throws or waits for class
 * initialization still has ip at its first word: handler lookup, stack
 * traces and re-execution all rely on that.
 *
 * Dispatch is computed goto under GCC/Clang and a switch elsewhere (or with
 * -DDR_NO_COMPUTED_GOTO): the CASE/DISPATCH macros hide which. */
#include <math.h>
#include <string.h>

#include "opcodes.h"
#include "vm.h"

#if !defined(DR_NO_COMPUTED_GOTO) && defined(__GNUC__)
#define DR_COMPUTED_GOTO 1
#endif

/* Register window above the frame's own registers: where a call's
 * arguments go. */
static DrValue *frame_top(const DrFrame *fr) {
  const DrMethod *m = fr->method;
  return fr->regs + ((m->flags & DR_M_NATIVE) ? m->nparams : m->nregs);
}

static DrFrame *push_frame(DrVM *vm, DrThread *th, DrMethod *m, DrValue *regs) {
  size_t need = (m->flags & DR_M_NATIVE) ? (size_t)m->nparams : (size_t)m->nregs;
  if (th->nframes >= th->max_frames || regs + need > th->stack + th->stack_slots) {
    dr_throw(vm, DR_WK_STACK_OVERFLOW, NULL);
    return NULL;
  }
  DrFrame *f = &th->frames[th->nframes++];
  f->method = m;
  f->regs = regs;
  f->ip = m->code;
  f->ret_reg = 0;
  f->sync_obj = NULL;
  f->boundary = false;
  return f;
}

/* --- monitors (single-threaded semantics until green threads exist) --- */

static bool monitor_enter(DrVM *vm, DrObj *o) {
  if (!o) return dr_throw_npe(vm);
  if (!o->monitor) o->monitor = dr_xcalloc(1, sizeof(DrMonitor));
  DrMonitor *mon = o->monitor;
  if (mon->owner && mon->owner != vm->thread)
    dr_panic(__FILE__, __LINE__, "monitor contention needs green threads");
  mon->owner = vm->thread;
  mon->count++;
  return true;
}

static bool monitor_exit(DrVM *vm, DrObj *o) {
  if (!o) return dr_throw_npe(vm);
  DrMonitor *mon = o->monitor;
  if (!mon || mon->owner != vm->thread) return dr_throw(vm, DR_WK_ILLEGAL_MONITOR, "current thread is not owner");
  if (--mon->count == 0) mon->owner = NULL;
  return true;
}

static DrObj *class_lock(DrVM *vm, DrClass *c) {
  if (!c->lock) c->lock = dr_new_instance(vm, vm->known[DR_WK_OBJECT]);
  return c->lock;
}

/* Starts initialization of cls (JLS 12.4.2) by pushing <clinit> frames for
 * it and its uninitialized superclasses, the topmost superclass on top so
 * it runs first.  The caller re-executes its instruction when they return.
 * Returns 1 if frames were pushed, 0 if the class is usable now, -1 on an
 * exception. */
static int class_init(DrVM *vm, DrThread *th, DrClass *cls) {
  if (cls->init_state != DR_INIT_NONE) return 0;
  int pushed = 0;
  for (DrClass *c = cls; c && c->init_state == DR_INIT_NONE; c = c->super) {
    if (!c->clinit) {
      c->init_state = DR_INIT_DONE;
      continue;
    }
    c->init_state = DR_INIT_RUNNING;
    DrMethod *m = c->clinit;
    DrFrame *top = &th->frames[th->nframes - 1];
    DrFrame *f = push_frame(vm, th, m, frame_top(top));
    if (!f) return -1;
    memset(f->regs, 0, sizeof(DrValue) * (size_t)m->nregs);
    pushed = 1;
  }
  return pushed;
}

static DrArray *multi_new_array(DrVM *vm, DrClass *cls, const int32_t *dims, int n) {
  DrArray *a = dr_new_array(vm, cls, dims[0]);
  if (!a || n == 1) return a;
  dr_push_root(vm, &a->hdr);
  DrObj **el = DR_ARRAY_DATA(a);
  for (int32_t i = 0; i < dims[0]; i++) {
    DrArray *sub = multi_new_array(vm, cls->elem_class, dims + 1, n - 1);
    if (!sub) {
      dr_pop_roots(vm, 1);
      return NULL;
    }
    el[i] = &sub->hdr;
  }
  dr_pop_roots(vm, 1);
  return a;
}

static int32_t d2i(double d) {
  if (d != d) return 0;
  if (d >= 2147483647.0) return INT32_MAX;
  if (d <= -2147483648.0) return INT32_MIN;
  return (int32_t)d;
}

static int64_t d2j(double d) {
  if (d != d) return 0;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

static bool step_limit_reached(DrVM *vm) {
  dr_flush_output(vm);
  fprintf(vm->err_file, "drvm: stopped after %llu steps (--max-steps limit)\n", (unsigned long long)vm->max_steps);
  dr_halt(vm, DR_EXIT_STEPS);
  return false;
}

void dr_halt(DrVM *vm, int status) {
  vm->halting = true;
  vm->exit_status = status;
}

#ifdef DR_TRACE_EXEC
static void trace_instruction(DrVM *vm, const DrFrame *fr, const uint32_t *ip) {
  const DrMethod *m = fr->method;
  fprintf(vm->err_file, "[%d] %s.%s %4u: %s\n", vm->thread->nframes, m->owner->name, m->name,
          (unsigned)(ip - m->code), dr_op_info[*ip].name);
}
#endif

/* Runs the top frame of the current thread until the frame marked
 * `boundary` returns (true, result stored) or an exception escapes it. */
static bool interp_run(DrVM *vm, DrValue *result) {
  DrThread *th = vm->thread;
  DrFrame *fr;
  DrValue *R;
  uint32_t *ip;
  DrMethod *callee;
  DrValue *const stack_end = th->stack + th->stack_slots;
  uint64_t step_limit = vm->max_steps ? vm->max_steps : UINT64_MAX;

#define LOAD() (fr = &th->frames[th->nframes - 1], R = fr->regs, ip = fr->ip)
#define SAVE() (fr->ip = ip)
#define THROW()                                                               \
  do {                                                                        \
    SAVE();                                                                   \
    goto handle_exception;                                                    \
  } while (0)
#define THROW_WITH(call)                                                      \
  do {                                                                        \
    SAVE();                                                                   \
    (void)(call);                                                             \
    goto handle_exception;                                                    \
  } while (0)
#define STEP()                                                                \
  do {                                                                        \
    if (DR_UNLIKELY(++vm->steps > step_limit)) THROW_WITH(step_limit_reached(vm)); \
  } while (0)

#ifdef DR_TRACE_EXEC
#define TRACE() trace_instruction(vm, fr, ip)
#else
#define TRACE() ((void)0)
#endif

#ifdef DR_COMPUTED_GOTO
  static const void *const labels[DR_OP__COUNT] = {
#define DR_OP_LABEL(name, fmt, flags) &&L_##name,
      DR_OPCODES(DR_OP_LABEL)
#undef DR_OP_LABEL
  };
#define CASE(op) L_##op:
#define DISPATCH()                                                            \
  do {                                                                        \
    TRACE();                                                                  \
    goto *labels[*ip];                                                        \
  } while (0)
#define NEXT(n)                                                               \
  do {                                                                        \
    ip += (n);                                                                \
    DISPATCH();                                                               \
  } while (0)
#else
#define CASE(op) case DR_OP_##op:
#define DISPATCH() goto dispatch
#define NEXT(n)                                                               \
  do {                                                                        \
    ip += (n);                                                                \
    goto dispatch;                                                            \
  } while (0)
#endif

#define A1 ip[1]
#define A2 ip[2]
#define A3 ip[3]
#define I_BIN(name, expr)                                                     \
  CASE(name) {                                                                \
    int32_t a = R[A2].i, b = R[A3].i;                                         \
    R[A1].i = (expr);                                                         \
    NEXT(4);                                                                  \
  }
#define J_BIN(name, expr)                                                     \
  CASE(name) {                                                                \
    int64_t a = R[A2].j, b = R[A3].j;                                         \
    R[A1].j = (expr);                                                         \
    NEXT(4);                                                                  \
  }
#define D_BIN(name, expr)                                                     \
  CASE(name) {                                                                \
    double a = R[A2].d, b = R[A3].d;                                          \
    R[A1].d = (expr);                                                         \
    NEXT(4);                                                                  \
  }
#define CMP(name, field, op)                                                  \
  CASE(name) {                                                                \
    R[A1].i = R[A2].field op R[A3].field;                                     \
    NEXT(4);                                                                  \
  }
#define JCMP(name, field, op)                                                 \
  CASE(name) {                                                                \
    if (R[A1].field op R[A2].field) {                                         \
      int32_t off = (int32_t)A3;                                              \
      if (off < 0) STEP();                                                    \
      NEXT(off);                                                              \
    }                                                                         \
    NEXT(4);                                                                  \
  }
#define ALOAD(name, T, field)                                                 \
  CASE(name) {                                                                \
    DrArray *arr = (DrArray *)R[A2].ref;                                      \
    int32_t idx = R[A3].i;                                                    \
    if (DR_UNLIKELY(!arr)) THROW_WITH(dr_throw_npe(vm));                      \
    if (DR_UNLIKELY((uint32_t)idx >= (uint32_t)arr->length))                  \
      THROW_WITH(dr_throw(vm, DR_WK_AIOOBE, "Index %d out of bounds for length %d", idx, arr->length)); \
    R[A1].field = ((T *)DR_ARRAY_DATA(arr))[idx];                             \
    NEXT(4);                                                                  \
  }
#define ASTORE(name, T, field)                                                \
  CASE(name) {                                                                \
    DrArray *arr = (DrArray *)R[A1].ref;                                      \
    int32_t idx = R[A2].i;                                                    \
    if (DR_UNLIKELY(!arr)) THROW_WITH(dr_throw_npe(vm));                      \
    if (DR_UNLIKELY((uint32_t)idx >= (uint32_t)arr->length))                  \
      THROW_WITH(dr_throw(vm, DR_WK_AIOOBE, "Index %d out of bounds for length %d", idx, arr->length)); \
    ((T *)DR_ARRAY_DATA(arr))[idx] = (T)R[A3].field;                          \
    NEXT(4);                                                                  \
  }

  LOAD();
#ifdef DR_COMPUTED_GOTO
  DISPATCH();
#else
dispatch:
  TRACE();
  switch ((DrOpcode)*ip) {
#endif

  CASE(NOP) NEXT(1);
  CASE(MOV) {
    R[A1] = R[A2];
    NEXT(3);
  }
  CASE(CONST_I) {
    R[A1].i = (int32_t)A2;
    NEXT(3);
  }
  CASE(CONST_J) {
    R[A1].j = (int64_t)((uint64_t)ip[2] | ((uint64_t)ip[3] << 32));
    NEXT(4);
  }
  CASE(CONST_D) {
    uint64_t bits = (uint64_t)ip[2] | ((uint64_t)ip[3] << 32);
    memcpy(&R[A1].d, &bits, sizeof bits);
    NEXT(4);
  }
  CASE(CONST_NULL) {
    R[A1].ref = NULL;
    NEXT(2);
  }
  CASE(CONST_STR) {
    R[A1].ref = vm->strings[A2];
    NEXT(3);
  }

  /* Java int arithmetic wraps; computing in unsigned avoids C's UB. */
  I_BIN(ADD_I, (int32_t)((uint32_t)a + (uint32_t)b))
  I_BIN(SUB_I, (int32_t)((uint32_t)a - (uint32_t)b))
  I_BIN(MUL_I, (int32_t)((uint32_t)a * (uint32_t)b))
  CASE(DIV_I) {
    int32_t a = R[A2].i, b = R[A3].i;
    if (DR_UNLIKELY(b == 0)) THROW_WITH(dr_throw(vm, DR_WK_ARITHMETIC, "/ by zero"));
    R[A1].i = (b == -1) ? (int32_t)(0u - (uint32_t)a) : a / b;
    NEXT(4);
  }
  CASE(REM_I) {
    int32_t a = R[A2].i, b = R[A3].i;
    if (DR_UNLIKELY(b == 0)) THROW_WITH(dr_throw(vm, DR_WK_ARITHMETIC, "/ by zero"));
    R[A1].i = (b == -1) ? 0 : a % b;
    NEXT(4);
  }
  I_BIN(AND_I, a & b)
  I_BIN(OR_I, a | b)
  I_BIN(XOR_I, a ^ b)
  I_BIN(SHL_I, (int32_t)((uint32_t)a << (b & 31)))
  I_BIN(SHR_I, a >> (b & 31))
  I_BIN(USHR_I, (int32_t)((uint32_t)a >> (b & 31)))
  CASE(ADDK_I) {
    R[A1].i = (int32_t)((uint32_t)R[A2].i + A3);
    NEXT(4);
  }
  CASE(NEG_I) {
    R[A1].i = (int32_t)(0u - (uint32_t)R[A2].i);
    NEXT(3);
  }

  J_BIN(ADD_J, (int64_t)((uint64_t)a + (uint64_t)b))
  J_BIN(SUB_J, (int64_t)((uint64_t)a - (uint64_t)b))
  J_BIN(MUL_J, (int64_t)((uint64_t)a * (uint64_t)b))
  CASE(DIV_J) {
    int64_t a = R[A2].j, b = R[A3].j;
    if (DR_UNLIKELY(b == 0)) THROW_WITH(dr_throw(vm, DR_WK_ARITHMETIC, "/ by zero"));
    R[A1].j = (b == -1) ? (int64_t)(0u - (uint64_t)a) : a / b;
    NEXT(4);
  }
  CASE(REM_J) {
    int64_t a = R[A2].j, b = R[A3].j;
    if (DR_UNLIKELY(b == 0)) THROW_WITH(dr_throw(vm, DR_WK_ARITHMETIC, "/ by zero"));
    R[A1].j = (b == -1) ? 0 : a % b;
    NEXT(4);
  }
  J_BIN(AND_J, a & b)
  J_BIN(OR_J, a | b)
  J_BIN(XOR_J, a ^ b)
  CASE(SHL_J) {
    R[A1].j = (int64_t)((uint64_t)R[A2].j << (R[A3].i & 63));
    NEXT(4);
  }
  CASE(SHR_J) {
    R[A1].j = R[A2].j >> (R[A3].i & 63);
    NEXT(4);
  }
  CASE(USHR_J) {
    R[A1].j = (int64_t)((uint64_t)R[A2].j >> (R[A3].i & 63));
    NEXT(4);
  }
  CASE(NEG_J) {
    R[A1].j = (int64_t)(0u - (uint64_t)R[A2].j);
    NEXT(3);
  }

  D_BIN(ADD_D, a + b)
  D_BIN(SUB_D, a - b)
  D_BIN(MUL_D, a * b)
  D_BIN(DIV_D, a / b)
  D_BIN(REM_D, fmod(a, b))
  CASE(NEG_D) {
    R[A1].d = -R[A2].d;
    NEXT(3);
  }

  CASE(I2J) {
    R[A1].j = R[A2].i;
    NEXT(3);
  }
  CASE(I2D) {
    R[A1].d = R[A2].i;
    NEXT(3);
  }
  CASE(J2I) {
    R[A1].i = (int32_t)(uint32_t)(uint64_t)R[A2].j;
    NEXT(3);
  }
  CASE(J2D) {
    R[A1].d = (double)R[A2].j;
    NEXT(3);
  }
  CASE(D2I) {
    R[A1].i = d2i(R[A2].d);
    NEXT(3);
  }
  CASE(D2J) {
    R[A1].j = d2j(R[A2].d);
    NEXT(3);
  }
  CASE(I2C) {
    R[A1].i = (uint16_t)R[A2].i;
    NEXT(3);
  }

  CMP(CMPEQ_I, i, ==)
  CMP(CMPNE_I, i, !=)
  CMP(CMPLT_I, i, <)
  CMP(CMPLE_I, i, <=)
  CMP(CMPGT_I, i, >)
  CMP(CMPGE_I, i, >=)
  CMP(CMPEQ_J, j, ==)
  CMP(CMPNE_J, j, !=)
  CMP(CMPLT_J, j, <)
  CMP(CMPLE_J, j, <=)
  CMP(CMPGT_J, j, >)
  CMP(CMPGE_J, j, >=)
  CMP(CMPEQ_D, d, ==)
  CMP(CMPNE_D, d, !=)
  CMP(CMPLT_D, d, <)
  CMP(CMPLE_D, d, <=)
  CMP(CMPGT_D, d, >)
  CMP(CMPGE_D, d, >=)
  CMP(CMPEQ_A, ref, ==)
  CMP(CMPNE_A, ref, !=)
  CASE(NOT_Z) {
    R[A1].i = R[A2].i ^ 1;
    NEXT(3);
  }

  CASE(JMP) {
    int32_t off = (int32_t)A1;
    if (off < 0) STEP();
    NEXT(off);
  }
  CASE(JZ) {
    if (R[A1].i == 0) {
      int32_t off = (int32_t)A2;
      if (off < 0) STEP();
      NEXT(off);
    }
    NEXT(3);
  }
  CASE(JNZ) {
    if (R[A1].i != 0) {
      int32_t off = (int32_t)A2;
      if (off < 0) STEP();
      NEXT(off);
    }
    NEXT(3);
  }
  JCMP(JEQ_I, i, ==)
  JCMP(JNE_I, i, !=)
  JCMP(JLT_I, i, <)
  JCMP(JLE_I, i, <=)
  JCMP(JGT_I, i, >)
  JCMP(JGE_I, i, >=)
  JCMP(JEQ_A, ref, ==)
  JCMP(JNE_A, ref, !=)
  CASE(JNULL) {
    if (R[A1].ref == NULL) {
      int32_t off = (int32_t)A2;
      if (off < 0) STEP();
      NEXT(off);
    }
    NEXT(3);
  }
  CASE(JNONNULL) {
    if (R[A1].ref != NULL) {
      int32_t off = (int32_t)A2;
      if (off < 0) STEP();
      NEXT(off);
    }
    NEXT(3);
  }
  CASE(LOOKUPSWITCH) {
    int32_t key = R[A1].i;
    uint32_t n = ip[3];
    const uint32_t *tab = ip + 4;
    uint32_t lo = 0, hi = n;
    int32_t off = (int32_t)A2;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      int32_t k = (int32_t)tab[2 * mid];
      if (k == key) {
        off = (int32_t)tab[2 * mid + 1];
        break;
      }
      if (k < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (off < 0) STEP();
    NEXT(off);
  }

  CASE(NEW) {
    DrClass *c = vm->classes[A2];
    if (DR_UNLIKELY(c->init_state != DR_INIT_DONE)) {
      SAVE();
      int r = class_init(vm, th, c);
      if (r < 0) goto handle_exception;
      if (r > 0) {
        LOAD();
        DISPATCH();
      }
      if (c->init_state == DR_INIT_DONE) ip[0] = DR_OP_NEW_Q;
    }
    goto do_new;
  }
  CASE(NEW_Q) {
  do_new:;
    DrClass *c = vm->classes[A2];
    SAVE();
    DrObj *o = dr_new_instance(vm, c);
    if (!o) goto handle_exception;
    R[A1].ref = o;
    NEXT(3);
  }
  CASE(GETFIELD) {
    DrInstance *o = (DrInstance *)R[A2].ref;
    if (DR_UNLIKELY(!o)) THROW_WITH(dr_throw_npe(vm));
    R[A1] = o->fields[A3];
    NEXT(4);
  }
  CASE(PUTFIELD) {
    DrInstance *o = (DrInstance *)R[A1].ref;
    if (DR_UNLIKELY(!o)) THROW_WITH(dr_throw_npe(vm));
    o->fields[A2] = R[A3];
    NEXT(4);
  }
  CASE(GETSTATIC) {
    DrClass *c = vm->classes[A2];
    if (DR_UNLIKELY(c->init_state != DR_INIT_DONE)) {
      SAVE();
      int r = class_init(vm, th, c);
      if (r < 0) goto handle_exception;
      if (r > 0) {
        LOAD();
        DISPATCH();
      }
      if (c->init_state == DR_INIT_DONE) ip[0] = DR_OP_GETSTATIC_Q;
    }
    R[A1] = c->statics[A3];
    NEXT(4);
  }
  CASE(GETSTATIC_Q) {
    R[A1] = vm->classes[A2]->statics[A3];
    NEXT(4);
  }
  CASE(PUTSTATIC) {
    DrClass *c = vm->classes[A1];
    if (DR_UNLIKELY(c->init_state != DR_INIT_DONE)) {
      SAVE();
      int r = class_init(vm, th, c);
      if (r < 0) goto handle_exception;
      if (r > 0) {
        LOAD();
        DISPATCH();
      }
      if (c->init_state == DR_INIT_DONE) ip[0] = DR_OP_PUTSTATIC_Q;
    }
    c->statics[A2] = R[A3];
    NEXT(4);
  }
  CASE(PUTSTATIC_Q) {
    vm->classes[A1]->statics[A2] = R[A3];
    NEXT(4);
  }
  CASE(INSTANCEOF) {
    DrObj *o = R[A2].ref;
    R[A1].i = o != NULL && dr_is_subclass(o->cls, vm->classes[A3]);
    NEXT(4);
  }
  CASE(CHECKCAST) {
    DrObj *o = R[A1].ref;
    DrClass *c = vm->classes[A2];
    if (o && o->cls != c && !dr_is_subclass(o->cls, c))
      THROW_WITH(dr_throw(vm, DR_WK_CLASS_CAST, "class %s cannot be cast to class %s", o->cls->name, c->name));
    NEXT(3);
  }

  CASE(NEWARRAY) {
    SAVE();
    DrArray *a = dr_new_array(vm, vm->classes[A2], R[A3].i);
    if (!a) goto handle_exception;
    R[A1].ref = &a->hdr;
    NEXT(4);
  }
  CASE(MULTINEWARRAY) {
    uint32_t n = ip[3];
    int32_t dims[256];
    if (n > 255) n = 255;
    for (uint32_t i = 0; i < n; i++) {
      dims[i] = R[ip[4 + i]].i;
      if (dims[i] < 0) THROW_WITH(dr_throw(vm, DR_WK_NEG_ARRAY_SIZE, "%d", dims[i]));
    }
    SAVE();
    DrArray *a = multi_new_array(vm, vm->classes[A2], dims, (int)n);
    if (!a) goto handle_exception;
    R[A1].ref = &a->hdr;
    NEXT(4 + ip[3]);
  }
  CASE(ALEN) {
    DrArray *a = (DrArray *)R[A2].ref;
    if (DR_UNLIKELY(!a)) THROW_WITH(dr_throw_npe(vm));
    R[A1].i = a->length;
    NEXT(3);
  }
  ALOAD(ALOAD_I, int32_t, i)
  ALOAD(ALOAD_J, int64_t, j)
  ALOAD(ALOAD_D, double, d)
  ALOAD(ALOAD_C, uint16_t, i)
  ALOAD(ALOAD_Z, uint8_t, i)
  ALOAD(ALOAD_A, DrObj *, ref)
  ASTORE(ASTORE_I, int32_t, i)
  ASTORE(ASTORE_J, int64_t, j)
  ASTORE(ASTORE_D, double, d)
  ASTORE(ASTORE_C, uint16_t, i)
  ASTORE(ASTORE_Z, uint8_t, i)
  CASE(ASTORE_A) {
    DrArray *arr = (DrArray *)R[A1].ref;
    int32_t idx = R[A2].i;
    DrObj *v = R[A3].ref;
    if (DR_UNLIKELY(!arr)) THROW_WITH(dr_throw_npe(vm));
    if (DR_UNLIKELY((uint32_t)idx >= (uint32_t)arr->length))
      THROW_WITH(dr_throw(vm, DR_WK_AIOOBE, "Index %d out of bounds for length %d", idx, arr->length));
    if (v && arr->hdr.cls->elem_class != v->cls && !dr_is_subclass(v->cls, arr->hdr.cls->elem_class))
      THROW_WITH(dr_throw(vm, DR_WK_ARRAY_STORE, "%s", v->cls->name));
    ((DrObj **)DR_ARRAY_DATA(arr))[idx] = v;
    NEXT(4);
  }

  CASE(INVOKESTATIC) {
    callee = vm->methods[A2];
    DrClass *c = callee->owner;
    if (DR_UNLIKELY(c->init_state != DR_INIT_DONE)) {
      SAVE();
      int r = class_init(vm, th, c);
      if (r < 0) goto handle_exception;
      if (r > 0) {
        LOAD();
        DISPATCH();
      }
      if (c->init_state == DR_INIT_DONE) ip[0] = DR_OP_INVOKESTATIC_Q;
    }
    goto do_invoke;
  }
  CASE(INVOKESTATIC_Q) {
    callee = vm->methods[A2];
    goto do_invoke;
  }
  CASE(INVOKESPECIAL) {
    callee = vm->methods[A2];
    if (DR_UNLIKELY(!R[ip[4]].ref)) THROW_WITH(dr_throw_npe(vm));
    goto do_invoke;
  }
  CASE(INVOKEVIRTUAL) {
    DrObj *recv = R[ip[4]].ref;
    if (DR_UNLIKELY(!recv)) THROW_WITH(dr_throw_npe(vm));
    callee = recv->cls->vtable[vm->methods[A2]->vtable_index];
    goto do_invoke;
  }
  CASE(INVOKEINTERFACE) {
    DrObj *recv = R[ip[4]].ref;
    if (DR_UNLIKELY(!recv)) THROW_WITH(dr_throw_npe(vm));
    DrMethod *im = vm->methods[A2];
    const DrClass *rc = recv->cls;
    callee = (rc->itable && im->selector < rc->itable_len) ? rc->itable[im->selector] : NULL;
    if (DR_UNLIKELY(!callee))
      THROW_WITH(dr_throw(vm, DR_WK_UNSUPPORTED, "%s does not implement %s.%s", rc->name, im->owner->name, im->desc));
    goto do_invoke;
  }
  {
  do_invoke:;
    uint32_t argc = ip[3];
    const uint32_t *argv = ip + 4;
    DrValue *nr = R + fr->method->nregs;
    SAVE();
    STEP();
    if (callee->flags & DR_M_NATIVE) {
      if (DR_UNLIKELY(!callee->native))
        THROW_WITH(dr_throw(vm, DR_WK_UNSUPPORTED, "native method %s.%s is not bound to a C function",
                            callee->owner->name, callee->desc));
      if (DR_UNLIKELY(th->nframes >= th->max_frames || nr + argc > stack_end))
        THROW_WITH(dr_throw(vm, DR_WK_STACK_OVERFLOW, NULL));
      for (uint32_t i = 0; i < argc; i++) nr[i] = R[argv[i]];
      DrFrame *nf = push_frame(vm, th, callee, nr);
      nf->ip = NULL;
      DrValue ret;
      ret.j = 0;
      bool ok = callee->native(vm, nr, &ret);
      th->nframes--;
      if (!ok) goto handle_exception;
      if (callee->ret_kind != DR_K_VOID) R[A1] = ret;
      NEXT(4 + argc);
    }
    if (DR_UNLIKELY(callee->flags & DR_M_ABSTRACT))
      THROW_WITH(dr_throw(vm, DR_WK_UNSUPPORTED, "abstract method %s.%s called", callee->owner->name, callee->desc));
    if (DR_UNLIKELY(th->nframes >= th->max_frames || nr + callee->nregs > stack_end))
      THROW_WITH(dr_throw(vm, DR_WK_STACK_OVERFLOW, NULL));
    for (uint32_t i = 0; i < argc; i++) nr[i] = R[argv[i]];
    memset(nr + argc, 0, sizeof(DrValue) * (size_t)(callee->nregs - (int)argc));
    uint32_t dst = A1;
    fr = push_frame(vm, th, callee, nr);
    fr->ret_reg = dst;
    R = nr;
    ip = callee->code;
    if (callee->flags & DR_M_SYNCHRONIZED) {
      DrObj *lock = (callee->flags & DR_M_STATIC) ? class_lock(vm, callee->owner) : R[0].ref;
      if (!lock || !monitor_enter(vm, lock)) THROW();
      fr->sync_obj = lock;
    }
    DISPATCH();
  }

  {
    DrValue rv;
  CASE(RETURN)
    rv = R[A1];
    goto do_return;
  CASE(RETURN_VOID)
    rv.j = 0;
  do_return:
    if (fr->sync_obj && !monitor_exit(vm, fr->sync_obj)) THROW();
    DrMethod *m = fr->method;
    if (m->flags & DR_M_CLINIT) m->owner->init_state = DR_INIT_DONE;
    if (fr->boundary) {
      th->nframes--;
      if (result) *result = rv;
      return true;
    }
    uint32_t rr = fr->ret_reg;
    th->nframes--;
    LOAD();
    if (m->flags & DR_M_CLINIT) DISPATCH(); /* re-execute what waited for it */
    if (m->ret_kind != DR_K_VOID) R[rr] = rv;
    NEXT(4 + ip[3]);
  }

  CASE(THROW) {
    DrObj *e = R[A1].ref;
    if (!e) THROW_WITH(dr_throw_npe(vm));
    vm->exception = e;
    THROW();
  }
  CASE(MONITORENTER) {
    SAVE();
    if (!monitor_enter(vm, R[A1].ref)) goto handle_exception;
    NEXT(2);
  }
  CASE(MONITOREXIT) {
    SAVE();
    if (!monitor_exit(vm, R[A1].ref)) goto handle_exception;
    NEXT(2);
  }
  CASE(STRCAT) {
    uint32_t n = ip[2];
    DrBuf16 *b = &vm->scratch16;
    b->len = 0;
    for (uint32_t i = 0; i < n; i++) dr_buf16_append_value(b, (DrKind)ip[3 + 2 * i], R[ip[4 + 2 * i]]);
    SAVE();
    DrString *s = dr_new_string(vm, b->data, b->len);
    if (!s) goto handle_exception;
    R[A1].ref = &s->hdr;
    NEXT(3 + 2 * n);
  }

#ifndef DR_COMPUTED_GOTO
  default:
    UNREACHABLE();
  }
#endif

handle_exception:
  /* fr->ip of the top frame points at the instruction that raised. */
  for (;;) {
    fr = &th->frames[th->nframes - 1];
    DrMethod *m = fr->method;
    if (!vm->halting && vm->exception && !(m->flags & DR_M_NATIVE)) {
      uint32_t pc = (uint32_t)(fr->ip - m->code);
      for (int i = 0; i < m->nhandlers; i++) {
        const DrHandler *h = &m->handlers[i];
        if (pc >= h->start && pc < h->end && (!h->cls || dr_instance_of(vm->exception, h->cls))) {
          R = fr->regs;
          R[h->reg].ref = vm->exception;
          vm->exception = NULL;
          ip = m->code + h->handler;
          DISPATCH();
        }
      }
    }
    if (fr->sync_obj && fr->sync_obj->monitor && fr->sync_obj->monitor->owner == th) {
      if (--fr->sync_obj->monitor->count == 0) fr->sync_obj->monitor->owner = NULL;
    }
    if (m->flags & DR_M_CLINIT) m->owner->init_state = DR_INIT_FAILED;
    bool boundary = fr->boundary;
    th->nframes--;
    if (boundary) return false;
  }
#undef LOAD
#undef SAVE
#undef THROW
#undef THROW_WITH
#undef STEP
}

bool dr_call(DrVM *vm, DrMethod *m, DrValue *args, DrValue *ret) {
  DrThread *th = vm->thread;
  DrValue *base = th->nframes ? frame_top(&th->frames[th->nframes - 1]) : th->stack;
  DrFrame *f = push_frame(vm, th, m, base);
  if (!f) return false;
  for (int i = 0; i < m->nparams; i++) base[i] = args[i];
  DrValue dummy;
  if (!ret) ret = &dummy;
  if (m->flags & DR_M_NATIVE) {
    f->ip = NULL;
    bool ok = m->native ? m->native(vm, base, ret)
                        : dr_throw(vm, DR_WK_UNSUPPORTED, "native method %s.%s is not bound", m->owner->name, m->desc);
    th->nframes--;
    return ok;
  }
  memset(base + m->nparams, 0, sizeof(DrValue) * (size_t)(m->nregs - m->nparams));
  f->boundary = true;
  if (m->flags & DR_M_SYNCHRONIZED) {
    DrObj *lock = (m->flags & DR_M_STATIC) ? class_lock(vm, m->owner) : base[0].ref;
    if (!lock || !monitor_enter(vm, lock)) {
      th->nframes--;
      return false;
    }
    f->sync_obj = lock;
  }
  return interp_run(vm, ret);
}

static DrMethod *find_method(DrVM *vm, const DrClass *c, const char *desc, bool want_static) {
  for (int i = 0; i < vm->nmethods; i++) {
    DrMethod *m = vm->methods[i];
    if (m->owner == c && strcmp(m->desc, desc) == 0 && ((m->flags & DR_M_STATIC) != 0) == want_static) return m;
  }
  return NULL;
}

/* Prints an exception that escaped main the way the JDK's default handler
 * does, through drvm.Boot.uncaught (bytecode: toString may be overridden). */
static void report_uncaught(DrVM *vm) {
  DrObj *e = vm->exception;
  vm->exception = NULL;
  DrMethod *h = find_method(vm, vm->known[DR_WK_BOOT], "uncaught(Throwable)", true);
  dr_push_root(vm, e);
  DrValue arg;
  arg.ref = e;
  if (!h || !dr_call(vm, h, &arg, NULL)) {
    if (!vm->halting) {
      dr_flush_output(vm);
      fprintf(vm->err_file, "Exception in thread \"main\" %s\n", e->cls->name);
    }
    vm->exception = NULL;
  }
  dr_pop_roots(vm, 1);
}

int dr_run_main(DrVM *vm, DrClass *cls, int argc, char **argv) {
  DrMethod *main = find_method(vm, cls, "main(String[])", true);
  if (!main) {
    fprintf(vm->err_file, "drvm: class %s has no method 'public static void main(String[] args)'\n", cls->name);
    return DR_EXIT_USAGE;
  }
  DrArray *args = dr_new_array(vm, dr_array_class(vm, vm->known[DR_WK_STRING]), argc);
  if (!args) return DR_EXIT_EXCEPTION;
  dr_push_root(vm, &args->hdr);
  for (int i = 0; i < argc; i++) {
    DrString *s = dr_new_string_utf8(vm, argv[i]);
    if (!s) break;
    ((DrObj **)DR_ARRAY_DATA(args))[i] = &s->hdr;
  }
  int status = DR_EXIT_OK;
  /* Java initializes the main class before main runs. */
  DrValue a;
  a.ref = &args->hdr;
  DrThread *th = vm->thread;
  bool ok = true;
  if (cls->init_state == DR_INIT_NONE) {
    /* Run each pending <clinit>, superclasses first, through dr_call. */
    DrClass *chain[256];
    int n = 0;
    for (DrClass *c = cls; c && c->init_state == DR_INIT_NONE && n < 256; c = c->super) chain[n++] = c;
    for (int i = n - 1; i >= 0 && ok; i--) {
      DrClass *c = chain[i];
      if (c->init_state != DR_INIT_NONE) continue;
      if (!c->clinit) {
        c->init_state = DR_INIT_DONE;
        continue;
      }
      c->init_state = DR_INIT_RUNNING;
      ok = dr_call(vm, c->clinit, NULL, NULL);
      c->init_state = ok ? DR_INIT_DONE : DR_INIT_FAILED;
    }
  }
  if (ok) ok = dr_call(vm, main, &a, NULL);
  (void)th;
  if (!ok) {
    if (vm->halting) {
      status = vm->exit_status;
    } else {
      report_uncaught(vm);
      status = vm->halting ? vm->exit_status : DR_EXIT_EXCEPTION;
    }
  }
  dr_pop_roots(vm, 1);
  dr_flush_output(vm);
  return status;
}
