/* The interpreter loop.
 *
 * Hot state -- ip, the register window R and the frame -- lives in locals;
 * SAVE() writes ip back to the frame before anything that may look at the
 * frames (a call, an allocation that may collect or build a stack trace,
 * an exception, a scheduling point), and LOAD() reads them after the
 * frame stack changed or another green thread took over.
 *
 * Threads switch only at scheduling points (vm/sched_iface.h): before
 * synchronization instructions (SYNC_POINT), before a synchronizing
 * native (Thread.start, Object.wait...), at a thread's end, when its
 * quantum of steps runs out (step_slow), and -- with the hooked dispatch
 * -- before accesses and calls.  The chosen thread resumes at the start of
 * its pending instruction with granted_ip set to it, so it executes it
 * without asking again.
 *
 * Hooks cost nothing when unused: with listeners or extra scheduling
 * points the dispatch table is swapped for one whose READ/WRITE/CALL/
 * RETURN/NEWOBJ entries lead to hook_pre; the event is reported by
 * hook_post at the next dispatch, once the instruction took effect (an
 * exception, a re-execution or a switch drops it).
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

#include "natives.h" /* dr_field */
#include "sched_iface.h"
#include "opcodes.h"

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
  if (!dr_thread_reserve(vm, th, &regs, need)) return NULL;
  DrFrame *f = dr_frame_push(th);
  f->method = m;
  f->regs = regs;
  f->ip = m->code;
  f->ret_reg = 0;
  return f;
}

/* th waits until another thread has initialized cls (or failed to). */
static int init_wait(DrVM *vm, DrThread *th, DrClass *cls) {
  th->state = DR_TS_BLOCKED;
  th->init_class = cls;
  th->monitor = NULL;
  vm->sched_gen++;
  return 2;
}

/* No room for all the <clinit> frames (StackOverflowError pending): the
 * initialization has not begun, the frames pushed for it go.  Returns -1. */
static int init_unpush(DrVM *vm, DrThread *th, int base) {
  while (th->nframes > base) {
    DrClass *c = th->frames[--th->nframes].method->owner;
    c->init_state = DR_INIT_NONE;
    c->init_thread = NULL;
  }
  vm->sched_gen++;
  return -1;
}

/* Starts initialization of cls (JLS 12.4.2) by pushing <clinit> frames for
 * it and its uninitialized superclasses, the topmost superclass on top so
 * it runs first.  The caller re-executes its instruction when they return.
 * Returns 1 if frames were pushed, 0 if the class is usable now, 2 if
 * another thread is initializing it or a superclass (th is now BLOCKED
 * until it is done), -1 on an exception. */
static int class_init(DrVM *vm, DrThread *th, DrClass *cls) {
  if (cls->init_state == DR_INIT_FAILED) {
    dr_throw_no_class_def(vm, cls);
    return -1;
  }
  if (cls->init_state == DR_INIT_RUNNING && cls->init_thread && cls->init_thread != th) return init_wait(vm, th, cls);
  if (cls->init_state != DR_INIT_NONE) return 0;
  /* the nearest superclass begun, and the topmost class needing a <clinit> */
  DrClass *begun = cls, *top_clinit = NULL;
  for (; begun && begun->init_state == DR_INIT_NONE; begun = begun->super)
    if (begun->clinit) top_clinit = begun;
  if (begun && begun->init_state == DR_INIT_FAILED) {
    dr_init_chain_failed(vm, th, cls, begun);
    return -1;
  }
  if (begun && begun->init_state == DR_INIT_RUNNING && begun->init_thread && begun->init_thread != th)
    return init_wait(vm, th, begun);
  int pushed = 0, base = th->nframes;
  bool above_clinits = !top_clinit;
  for (DrClass *c = cls; c && c->init_state == DR_INIT_NONE; c = c->super) {
    if (!c->clinit) {
      /* below a <clinit> still to run it is done only after it: the
       * re-executed instruction finds it again (or it fails with it) */
      if (above_clinits) {
        c->init_state = DR_INIT_DONE;
        vm->sched_gen++;
      }
      continue;
    }
    DrMethod *m = c->clinit;
    DrFrame *top = &th->frames[th->nframes - 1];
    DrFrame *f = push_frame(vm, th, m, frame_top(top));
    if (!f) return init_unpush(vm, th, base);
    memset(f->regs, 0, sizeof(DrValue) * (size_t)m->nregs);
    c->init_state = DR_INIT_RUNNING;
    vm->sched_gen++;
    c->init_thread = th;
    pushed = 1;
    above_clinits = above_clinits || c == top_clinit;
  }
  if (pushed && !(cls->flags & DR_CLS_BUILTIN)) {
    vm->inits++;
    vm->init_last = cls;
  }
  return pushed;
}

/* Rewrites the instruction at ip to its quick form, logged: the next
 * run after drvm_reset initializes the class anew, so it gets the slow
 * form back (dr_vm_reset). */
static void quicken(DrVM *vm, uint32_t *ip, int quick) {
  struct DrQuickened q = {ip, ip[0]};
  DR_PUSH(vm->snap.quickened, vm->snap.nquickened, vm->snap.quickened_cap, q);
  ip[0] = (uint32_t)quick;
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

static void step_limit_reached(DrVM *vm) {
  dr_flush_output(vm);
  fprintf(vm->err_file, "drvm: stopped after %llu steps (--max-steps limit)\n", (unsigned long long)vm->max_steps);
  dr_halt(vm, DR_EXIT_STEPS, DRVM_OUTCOME_STEP_LIMIT);
}

void dr_halt(DrVM *vm, int status, int outcome) {
  vm->halting = true;
  vm->exit_status = status;
  vm->halt_outcome = outcome;
}

/* All the VM holds passed --max-memory: the run ends as a clear error,
 * with what it held (a detector's state can outgrow the program's). */
static void memory_limit_reached(DrVM *vm) {
  dr_flush_output(vm);
  double mb = 1024.0 * 1024.0;
  fprintf(vm->err_file,
          "drvm: out of memory: the VM holds %.1f MB (heap %.1f MB; outside it %.1f MB: the race detector's "
          "clocks and shadows, threads' stacks), past --max-memory %.1f MB\n",
          (double)(vm->bytes_allocated + vm->ext_bytes) / mb, (double)vm->bytes_allocated / mb,
          (double)vm->ext_bytes / mb, (double)vm->max_memory / mb);
  dr_halt(vm, DR_EXIT_MEMORY, DRVM_OUTCOME_MEMORY_LIMIT);
}

bool dr_stop_check(DrVM *vm) {
  if (DR_UNLIKELY(vm->max_memory && vm->bytes_allocated + vm->ext_bytes > vm->max_memory)) {
    if (!vm->halting) memory_limit_reached(vm);
    return true;
  }
  if (!atomic_load_explicit(&vm->stop_request, memory_order_relaxed)) return false;
  if (!vm->halting) dr_halt(vm, DR_EXIT_INTERRUPTED, DRVM_OUTCOME_INTERRUPTED);
  return true;
}

#ifdef DR_TRACE_EXEC
static void trace_instruction(DrVM *vm, const DrFrame *fr, const uint32_t *ip) {
  const DrMethod *m = fr->method;
  fprintf(vm->err_file, "[T%d %d] %s.%s %4u: %s\n", vm->thread->id, vm->thread->nframes, m->owner->name, m->name,
          (unsigned)(ip - m->code), dr_op_info[*ip].name);
}
#endif

static bool is_user(const DrMethod *m) { return m && !(m->owner->flags & DR_CLS_BUILTIN); }

/* A miss of the inline check, handed to its owner directly (vm.h's
 * DrFastCheck.miss) where the access cannot fail: the object is not null
 * and the index in bounds (the slot exists), and a reference stored into
 * an array is checked for ArrayStoreException only on the generic path.
 * Accesses in library methods are no events.  With the filter on, o is
 * global here (fast_same_epoch answered a local one) and the access
 * stores no reference: the filter has nothing to do for it. */
static DR_ALWAYS_INLINE bool fast_miss(DrVM *vm, DrThread *th, const DrFrame *fr, const uint32_t *ip, const DrObj *o,
                                       uint32_t idx, const char *slot, bool write, int shape) {
  if (!vm->fast.miss || !o || !is_user(fr->method)) return false;
  if (shape == DR_SHAPE_ARRAY_STORE && o->cls->elem_kind == DR_K_REF) return false;
  ((DrFrame *)fr)->ip = (uint32_t *)ip; /* SAVE(): a report reads the stack */
  return vm->fast.miss(vm->fast.owner, th, (DrObj *)o, idx, (char *)slot, write, fr->method,
                       (uint32_t)(ip - fr->method->code));
}

/* The inline same-epoch check (vm.h's DrFastCheck) before an instance
 * field or array element access of the given operand shape (a constant
 * where the caller knows the opcode), and its miss.  A reference store
 * while the filter is on is not answered here: it may publish what it
 * stores. */
static DR_ALWAYS_INLINE bool fast_same_epoch(DrVM *vm, DrThread *th, const DrFrame *fr, const uint32_t *ip,
                                             const DrValue *R, int shape) {
  const DrObj *o = NULL;
  const char *sh;
  uint32_t idx;
  bool write;
  switch (shape) {
  case DR_SHAPE_STATIC_GET:
    sh = vm->classes[ip[2]]->shadow;
    idx = ip[3];
    write = false;
    goto have_shadow;
  case DR_SHAPE_STATIC_PUT: {
    const DrClass *c = vm->classes[ip[1]];
    idx = ip[2];
    write = true;
    if (vm->esc_on && c->static_is_ref[idx]) return false;
    sh = c->shadow;
    goto have_shadow;
  }
  case DR_SHAPE_FIELD_GET:
    o = R[ip[2]].ref;
    idx = ip[3];
    write = false;
    break;
  case DR_SHAPE_FIELD_PUT:
    o = R[ip[1]].ref;
    idx = ip[2];
    write = true;
    if (vm->esc_on && o && o->cls->field_is_ref[idx]) return false;
    break;
  case DR_SHAPE_ARRAY_LOAD:
    o = R[ip[2]].ref;
    idx = (uint32_t)R[ip[3]].i;
    write = false;
    break;
  case DR_SHAPE_ARRAY_STORE:
    o = R[ip[1]].ref;
    idx = (uint32_t)R[ip[2]].i;
    write = true;
    if (vm->esc_on && o && o->cls->elem_kind == DR_K_REF) return false;
    break;
  default: return false;
  }
  if (!o) return false;
  if (DR_UNLIKELY(vm->esc_on) && dr_obj_owner(o)) {
    /* th's own object whose record already holds this kind of access to
     * this slot in th's epoch: noting it again would change nothing
     * (escape.h; keeping the epoch's first access only) */
    const DrLocalRec *r = o->local;
    if (dr_obj_owner(o) != (uint32_t)th->id + 1u || !r || vm->esc_sink.keep_last || r->epoch != th->esc_epoch ||
        idx >= r->nslots || !r->ctx[2 * idx + write])
      return false;
    vm->esc_stats.filtered++;
    return true;
  }
  sh = o->shadow;
have_shadow:;
  uint32_t n;
  if (!vm->fast.on || !sh) return false;
  memcpy(&n, sh + vm->fast.nslots_off, sizeof n);
  if (idx >= n) return false; /* no slots yet, or an index out of bounds: it throws */
  const char *slot = sh + vm->fast.base + (size_t)idx * vm->fast.stride;
  uint64_t w;
  memcpy(&w, slot + (write ? vm->fast.write_off : vm->fast.read_off), sizeof w);
  if (w == th->fast_epoch) {
    vm->fast.hits[write]++;
    return true;
  }
  if (write) return fast_miss(vm, th, fr, ip, o, idx, slot, true, shape);
  memcpy(&w, slot + vm->fast.shared_off, sizeof w);
  if (!(w & vm->fast.shared_bit)) return fast_miss(vm, th, fr, ip, o, idx, slot, false, shape);
  const char *v = (const char *)(uintptr_t)(w & ~vm->fast.shared_bit);
  const uint32_t *c;
  memcpy(&n, v + vm->fast.vec_len_off, sizeof n);
  memcpy(&c, v + vm->fast.vec_off, sizeof c);
  if (th->fast_slot >= n || c[th->fast_slot] != (uint32_t)th->fast_epoch)
    return fast_miss(vm, th, fr, ip, o, idx, slot, false, shape);
  vm->fast.hits[2]++;
  return true;
}

/* A static final read (DR_OPF_FINAL), where the scheduler does not stop
 * at every access and the detector answering inline (vm.h's DrFastCheck)
 * is the only listener of accesses -- a trace or a timeline beside it sees
 * every one -- is no access: it can race with nothing.  Except a
 * thread's first of its class once the class is initialized: that is its
 * use of the class, which the initialization happens-before (JLS 12.4.2),
 * and a detector joins the edge at it.  True: not the first, run it
 * unhooked. */
static bool final_first(DrVM *vm, DrThread *th, uint32_t cid) {
  if (vm->classes[cid]->init_state != DR_INIT_DONE) return false; /* the event comes once it is */
  if ((int)cid >= th->final_seen_len) {
    int n = vm->nclasses > (int)cid ? vm->nclasses : (int)cid + 1;
    th->final_seen = dr_xrealloc(th->final_seen, (size_t)n);
    memset(th->final_seen + th->final_seen_len, 0, (size_t)(n - th->final_seen_len));
    th->final_seen_len = n;
  }
  th->final_seen[cid] = 1;
  return false;
}

/* ... and its test, in the access opcodes' dispatch: the common answer
 * (seen) inline, the first read out of line */
static DR_ALWAYS_INLINE bool final_seen(DrVM *vm, DrThread *th, const uint32_t *ip) {
  uint32_t cid = ip[2];
  if (DR_LIKELY((int)cid < th->final_seen_len && th->final_seen[cid])) return true;
  return final_first(vm, th, cid);
}

/* An opcode's DR_SHAPE_* from its operand format and flags, for
 * fast_same_epoch: a constant in each expansion of the opcode table. */
#define DR_SHAPE_OF(fmt, flags)                                                                               \
  (((flags) & DR_OPF_SYNC) || !((flags) & (DR_OPF_READ | DR_OPF_WRITE)) ? DR_SHAPE_NONE                        \
   : ((fmt)[0] == 'c' || (fmt)[1] == 'c') ? (((flags) & DR_OPF_WRITE) ? DR_SHAPE_STATIC_PUT : DR_SHAPE_STATIC_GET) \
   : ((fmt)[1] == 'f' || (fmt)[2] == 'f') ? (((flags) & DR_OPF_WRITE) ? DR_SHAPE_FIELD_PUT : DR_SHAPE_FIELD_GET) \
   : (((flags) & DR_OPF_WRITE) ? DR_SHAPE_ARRAY_STORE : DR_SHAPE_ARRAY_LOAD))

/* The topological filter (escape.h) at a decoded access about to
 * execute: a reference stored into a global location publishes what it
 * references.  True if the access is to an object local to th: it is
 * noted in the object's record (the program's own code only) instead of
 * reported. */
static bool esc_filter(DrVM *vm, DrThread *th, const DrEvent *ev, const uint32_t *ip, const DrValue *R, bool user) {
  bool write = ev->kind == DR_EV_WRITE;
  if (!ev->is_static && !ev->obj) return false; /* it throws */
  if (write && vm->access_shape[ip[0]] == DR_SHAPE_ARRAY_STORE && ev->cls->elem_class) {
    const DrObj *v = R[ip[3]].ref;
    if (v && !dr_instance_of(v, ev->cls->elem_class)) return false; /* ArrayStoreException: no access, no event */
  }
  if (ev->is_static || !dr_obj_owner(ev->obj)) {
    DrObj *v = write ? ev->stored : NULL;
    if (v && dr_obj_owner(v)) dr_esc_publish(vm, v);
    return false;
  }
  if (dr_obj_owner(ev->obj) != (uint32_t)th->id + 1u) return false; /* cannot be: checked as global */
  if (user) dr_esc_note(vm, th, ev->obj, ev->field, write, ev->method, ev->pc);
  return true;
}

/* Before a hooked instruction, at th's saved ip: the scheduling point if
 * the scheduler asked for this kind of event, and the event to report
 * once it has taken effect (*post).  Only the program's own code is
 * observed: the built-in library is uninstrumented, as the JDK is for
 * RoadRunner (calls between the two are reported).  Returns the thread
 * to run: th to go on. */
static DrThread *hook_before(DrVM *vm, DrThread *th, DrEvent *ev, bool *post) {
  DrFrame *fr = &th->frames[th->nframes - 1];
  const uint32_t *ip = fr->ip;
  unsigned fl = dr_op_info[*ip].flags;
  *post = false;
  dr_sched_pending(vm, th, ev);
  bool user = is_user(fr->method);
  if (ev->kind == DR_EV_CALL) user = user || is_user(ev->callee);
  else if (ev->kind == DR_EV_RETURN) user = user || (th->nframes > 1 && is_user(th->frames[th->nframes - 2].method));
  else if (ev->kind != DR_EV_READ && ev->kind != DR_EV_WRITE && ev->kind != DR_EV_NEW)
    return th; /* a sync native or a thread's end: its own point consumes the grant */
  bool granted = th->granted_ip == ip;
  th->granted_ip = NULL;
  if (th->init_return_ip == ip && th->nframes == th->init_return_depth) {
    granted = true;
    th->init_return_ip = NULL;
  }
  bool access = ev->kind == DR_EV_READ || ev->kind == DR_EV_WRITE;
  if (!user) {
    if (vm->esc_on && access) esc_filter(vm, th, ev, ip, fr->regs, false);
    return th;
  }
  unsigned cat = (fl & (DR_OPF_READ | DR_OPF_WRITE)) ? DR_SP_ACCESS : (fl & (DR_OPF_CALL | DR_OPF_RETURN)) ? DR_SP_CALL : 0;
  if (!granted && (vm->sched_points & cat)) {
    DrThread *next = dr_sched_point(vm, DR_PICK_EVENT);
    if (next != th) return next;
  }
  if (vm->esc_on && access && esc_filter(vm, th, ev, ip, fr->regs, true)) return th;
  if (!dr_listening(vm, ev->kind)) return th;
  if (ev->kind == DR_EV_CALL && ev->callee && (ev->callee->flags & DR_M_NATIVE)) {
    dr_emit_event(vm, ev); /* a native call returns within the instruction */
    ev->kind = DR_EV_RETURN;
  }
  *post = true;
  return th;
}

/* An access when the scheduler wants no point before it: reported right
 * away, before it executes, if it cannot fail -- nothing can come between
 * the two, and the listeners see it as if after, without the generic
 * pending-event decoding and the second dispatch.  False: take the slow
 * path (it may throw, or wait for class initialization). */
static bool access_now(DrVM *vm, DrThread *th, const DrFrame *fr, const uint32_t *ip, const DrValue *R) {
  th->granted_ip = NULL;
  bool user = is_user(fr->method);
  if (!user && !vm->esc_on) return true;
  DrEvent ev;
  ev.kind = DR_EV_READ;
  ev.obj = NULL;
  ev.is_static = false;
  switch (vm->access_shape[ip[0]]) {
  case DR_SHAPE_STATIC_PUT:
    ev.kind = DR_EV_WRITE;
    ev.cls = vm->classes[ip[1]];
    ev.field = (int32_t)ip[2];
    goto is_static;
  case DR_SHAPE_STATIC_GET:
    ev.cls = vm->classes[ip[2]];
    ev.field = (int32_t)ip[3];
  is_static:
    ev.is_static = true;
    if ((dr_op_info[ip[0]].flags & DR_OPF_INIT) && ev.cls->init_state != DR_INIT_DONE) return false;
    break;
  case DR_SHAPE_FIELD_PUT:
    ev.kind = DR_EV_WRITE;
    ev.obj = R[ip[1]].ref;
    ev.field = (int32_t)ip[2];
    goto is_field;
  case DR_SHAPE_FIELD_GET:
    ev.obj = R[ip[2]].ref;
    ev.field = (int32_t)ip[3];
  is_field:
    if (!ev.obj) return false;
    ev.cls = ev.obj->cls;
    break;
  case DR_SHAPE_ARRAY_STORE: {
    ev.kind = DR_EV_WRITE;
    const DrArray *a = (const DrArray *)R[ip[1]].ref;
    if (!a) return false;
    ev.field = R[ip[2]].i;
    if (ev.field < 0 || ev.field >= a->length) return false;
    const DrObj *v = R[ip[3]].ref;
    if (a->hdr.cls->elem_class && v && !dr_instance_of(v, a->hdr.cls->elem_class)) return false; /* ArrayStoreException */
    ev.obj = (DrObj *)&a->hdr;
    ev.cls = a->hdr.cls;
    break;
  }
  case DR_SHAPE_ARRAY_LOAD: {
    const DrArray *a = (const DrArray *)R[ip[2]].ref;
    if (!a) return false;
    ev.field = R[ip[3]].i;
    if (ev.field < 0 || ev.field >= a->length) return false;
    ev.obj = (DrObj *)&a->hdr;
    ev.cls = a->hdr.cls;
    break;
  }
  default: return false;
  }
  ev.thread = th;
  ev.method = fr->method;
  ev.pc = (uint32_t)(ip - fr->method->code);
  ev.stored = ev.kind == DR_EV_WRITE ? dr_access_stored(&ev, ip, R) : NULL;
  if (vm->esc_on && esc_filter(vm, th, &ev, ip, R, user)) return true;
  if (!user) return true;
  ev.callee = NULL;
  ev.other = NULL;
  ev.arg = 0;
  dr_emit_event(vm, &ev);
  return true;
}

/* Reports a hooked instruction's event once it took effect: a new
 * object is known only then. */
static void emit_post(DrVM *vm, DrEvent *ev, const uint32_t *ip, const DrValue *R) {
  if (ev->kind == DR_EV_NEW) {
    ev->obj = R[ip[1]].ref;
    ev->cls = ev->obj ? ev->obj->cls : ev->cls;
  }
  dr_emit_event(vm, ev);
}

/* The monitor a suspended thread's pending instruction needs: a
 * monitorenter's, or at its end its own Thread object's (see RETURN). */
static DrObj *pending_lock(const DrThread *th) {
  const DrFrame *top = &th->frames[th->nframes - 1];
  if (!top->ip) return NULL;
  if (top->ip[0] == DR_OP_MONITORENTER) return top->regs[top->ip[1]].ref;
  if (th->nframes == 1 && (top->ip[0] == DR_OP_RETURN || top->ip[0] == DR_OP_RETURN_VOID)) return th->jthread;
  return NULL;
}

/* th is switched away from: suspended before a monitorenter, it is an
 * acquisition pending, enabled only while the monitor is free
 * (dr_sched_is_enabled). */
static void leave_pending(DrVM *vm, DrThread *th) {
  DrObj *lock = th->state == DR_TS_RUNNABLE ? pending_lock(th) : NULL;
  if (!lock) return;
  th->state = DR_TS_BLOCKED;
  th->monitor = lock;
  vm->sched_gen++;
}

/* t's quantum starts now: its preemption point (never for 0). */
static void start_quantum(DrVM *vm, DrThread *t) {
  uint64_t q = vm->sched->quantum ? vm->sched->quantum(vm->sched, vm, t) : 0;
  vm->preempt_at = q ? vm->steps + q : UINT64_MAX;
}

static void emit_unwind(DrVM *vm, DrThread *th, DrFrame *fr) {
  if (!dr_listening(vm, DR_EV_RETURN) || !(is_user(fr->method) || (th->nframes > 1 && is_user(th->frames[th->nframes - 2].method))))
    return;
  DrEvent ev;
  dr_event_at(&ev, DR_EV_RETURN, th);
  ev.callee = fr->method;
  ev.arg = 1;
  if (!is_user(fr->method) && th->nframes > 1) {
    /* placed at the program's call site, as its call was */
    const DrFrame *caller = &th->frames[th->nframes - 2];
    if (caller->ip) {
      ev.method = caller->method;
      ev.pc = (uint32_t)(caller->ip - caller->method->code);
    }
  }
  dr_emit_event(vm, &ev);
}

static void emit_access(DrVM *vm, DrThread *th, DrEventKind kind, DrObj *o, DrClass *c, int32_t field, bool is_static,
                        DrObj *stored) {
  if (!is_user(th->frames[th->nframes - 1].method)) return;
  DrEvent ev;
  dr_event_at(&ev, kind, th);
  ev.obj = o;
  ev.cls = o ? o->cls : c;
  ev.field = field;
  ev.is_static = is_static;
  ev.stored = stored;
  dr_emit_event(vm, &ev);
}

/* Steps between two looks at drvm_stop's request when nothing else
 * brings the interpreter to step_slow (no quantum, no step limit): a
 * signal handler cannot reach the local step_limit, and a load at every
 * step would cost the fast path.  2^16 steps take well under a second. */
enum { DR_STOP_CHECK_STEPS = 1 << 16 };

/* The step at which step_slow runs next: the quantum's end, the step
 * limit or the next stop check, whichever comes first. */
static uint64_t step_limit_of(const DrVM *vm) {
  uint64_t lim = vm->max_steps ? vm->max_steps : UINT64_MAX;
  if (vm->preempt_at < lim) lim = vm->preempt_at;
  uint64_t check = vm->steps + DR_STOP_CHECK_STEPS;
  return check < lim ? check : lim;
}

/* Runs every thread until all have ended or the VM halts. */
static unsigned hook_ops_of(const DrVM *vm) {
  unsigned ops = 0;
  if ((vm->sched_points & DR_SP_ACCESS) || (vm->listen_mask & (DR_EV_BIT(DR_EV_READ) | DR_EV_BIT(DR_EV_WRITE))))
    ops |= DR_OPF_READ | DR_OPF_WRITE;
  if ((vm->sched_points & DR_SP_CALL) || (vm->listen_mask & (DR_EV_BIT(DR_EV_CALL) | DR_EV_BIT(DR_EV_RETURN))))
    ops |= DR_OPF_CALL | DR_OPF_RETURN;
  if (vm->listen_mask & DR_EV_BIT(DR_EV_NEW)) ops |= DR_OPF_NEWOBJ;
  return ops;
}

static void interp_run(DrVM *vm) {
  DrThread *th = vm->thread;
  DrThread *next;
  DrFrame *fr;
  DrValue *R;
  uint32_t *ip;
  DrMethod *callee;
  uint64_t step_limit = step_limit_of(vm);
  DrEvent hev;                 /* the hooked instruction's event */
  const uint32_t *hook_ip = NULL;
  DrValue *hook_R = NULL;
  bool hook_post_wanted;

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
/* Counts a step at an instruction boundary (ip at an instruction start):
 * the step limit and the end of the quantum are one comparison. */
#define STEP_HERE()                                                           \
  do {                                                                        \
    if (DR_UNLIKELY(++vm->steps > step_limit)) goto step_slow;                \
  } while (0)
/* A synchronization instruction's scheduling point. */
#define SYNC_POINT()                                                          \
  do {                                                                        \
    SAVE();                                                                   \
    if (th->granted_ip != ip) {                                               \
      next = dr_sched_point(vm, DR_PICK_EVENT);                               \
      if (next != th) goto switch_to;                                         \
    }                                                                         \
    th->granted_ip = NULL;                                                    \
  } while (0)
#define ENSURE_INIT(c, quick)                                                 \
  do {                                                                        \
    if (DR_UNLIKELY((c)->init_state != DR_INIT_DONE)) {                       \
      SAVE();                                                                 \
      int depth_ = th->nframes;                                               \
      int r_ = class_init(vm, th, (c));                                       \
      if (r_ < 0) goto handle_exception;                                      \
      if (r_ == 1) {                                                          \
        th->init_return_ip = ip;                                              \
        th->init_return_depth = depth_;                                       \
        LOAD();                                                               \
        REDISPATCH();                                                         \
      }                                                                       \
      if (r_ == 2) {                                                          \
        next = dr_sched_point(vm, DR_PICK_BLOCKED);                           \
        goto switch_to;                                                       \
      }                                                                       \
      if ((c)->init_state == DR_INIT_DONE && (quick) >= 0) quicken(vm, ip, (quick)); \
    }                                                                         \
  } while (0)

#ifdef DR_TRACE_EXEC
#define TRACE() trace_instruction(vm, fr, ip)
#else
#define TRACE() ((void)0)
#endif

  /* the instructions whose events the scheduler or a listener wants;
   * listeners may change what they want during the run (hooks_gen) */
  unsigned hook_ops = hook_ops_of(vm);
  uint32_t hooks_gen = vm->hooks_gen;
#ifdef DR_COMPUTED_GOTO
  static const void *const labels[DR_OP__COUNT] = {
#define DR_OP_LABEL(name, fmt, flags) &&L_##name,
      DR_OPCODES(DR_OP_LABEL)
#undef DR_OP_LABEL
  };
  /* per-opcode entries for accesses reported at once (access_now): each
   * ends in a direct jump to its instruction, which predicts well */
  static const void *const access_labels[DR_OP__COUNT] = {
#define DR_OP_ACCESS_LABEL(name, fmt, flags) &&H_##name,
      DR_OPCODES(DR_OP_ACCESS_LABEL)
#undef DR_OP_ACCESS_LABEL
  };
  const void *hooked[DR_OP__COUNT], *posted[DR_OP__COUNT];
#define BUILD_HOOKS()                                                         \
  for (int i = 0; i < DR_OP__COUNT; i++) {                                    \
    unsigned f = dr_op_info[i].flags;                                         \
    hooked[i] = ((f & hook_ops) && !(f & DR_OPF_SYNC)) ? &&hook_pre : labels[i]; \
    if (hooked[i] != labels[i] && (f & (DR_OPF_READ | DR_OPF_WRITE)) && !(vm->sched_points & DR_SP_ACCESS)) \
      hooked[i] = (f & DR_OPF_FINAL) && vm->fast.on ? &&final_read : access_labels[i]; \
    posted[i] = &&hook_post;                                                  \
  }
  BUILD_HOOKS();
#ifdef DR_NO_HOOKS
  /* A build without the event stream's hooks, only to measure what they
   * cost when unused (make bench): no listener can be attached. */
  if (vm->hooks) dr_panic(__FILE__, __LINE__, "this drvm is built with DR_NO_HOOKS: no listeners or access points");
  const void *const *const base = labels;
  const void *const *const disp = labels;
  (void)hooked;
  (void)access_labels;
  (void)posted;
  (void)base;
#define SET_POST() ((void)0)
#define CLEAR_POST() ((void)0)
#define POST_PENDING() false
#else
  const void *const *base = vm->hooks ? hooked : labels;
  const void *const *disp = base;
#define SET_POST() (disp = posted)
#define CLEAR_POST() (disp = base)
#define POST_PENDING() (disp == posted)
#endif
  /* hooked[] is rebuilt in place: base and disp stay valid */
#define REHOOK()                                                              \
  do {                                                                        \
    if (DR_UNLIKELY(hooks_gen != vm->hooks_gen)) {                            \
      hooks_gen = vm->hooks_gen;                                              \
      hook_ops = hook_ops_of(vm);                                             \
      BUILD_HOOKS();                                                          \
    }                                                                         \
  } while (0)
#define CASE(op) L_##op:
#define DISPATCH()                                                            \
  do {                                                                        \
    TRACE();                                                                  \
    goto *disp[*ip];                                                          \
  } while (0)
#define RUN_OP() goto *labels[*ip]
#else
  bool post_pending = false;
#define CASE(op) case DR_OP_##op:
#define DISPATCH() goto dispatch
#define RUN_OP() goto run_op
#define SET_POST() (post_pending = true)
#define CLEAR_POST() (post_pending = false)
#define POST_PENDING() post_pending
#define REHOOK()                                                              \
  do {                                                                        \
    if (DR_UNLIKELY(hooks_gen != vm->hooks_gen)) {                            \
      hooks_gen = vm->hooks_gen;                                              \
      hook_ops = hook_ops_of(vm);                                             \
    }                                                                         \
  } while (0)
#endif
#define NEXT(n)                                                               \
  do {                                                                        \
    ip += (n);                                                                \
    DISPATCH();                                                               \
  } while (0)
/* Re-executes the instruction at ip (after class initialization...):
 * a hooked event waiting to be reported did not happen. */
#define REDISPATCH()                                                          \
  do {                                                                        \
    CLEAR_POST();                                                             \
    DISPATCH();                                                               \
  } while (0)
#define BRANCH(offset)                                                        \
  do {                                                                        \
    int32_t off_ = (int32_t)(offset);                                         \
    ip += off_;                                                               \
    if (off_ <= 0) STEP_HERE(); /* an empty loop branches to itself */       \
    DISPATCH();                                                               \
  } while (0)

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
#define F_BIN(name, expr)                                                     \
  CASE(name) {                                                                \
    float a = R[A2].f, b = R[A3].f;                                           \
    R[A1].f = (expr);                                                         \
    NEXT(4);                                                                  \
  }
#define CVT(name, dst, expr)                                                  \
  CASE(name) {                                                                \
    R[A1].dst = (expr);                                                       \
    NEXT(3);                                                                  \
  }
#define CMP(name, field, op)                                                  \
  CASE(name) {                                                                \
    R[A1].i = R[A2].field op R[A3].field;                                     \
    NEXT(4);                                                                  \
  }
#define JCMP(name, field, op)                                                 \
  CASE(name) {                                                                \
    if (R[A1].field op R[A2].field) BRANCH(A3);                               \
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
  if (DR_UNLIKELY(vm->hooks)) {
    if (post_pending) goto hook_post;
    unsigned f_ = dr_op_info[*ip].flags;
    if ((f_ & hook_ops) && !(f_ & DR_OPF_SYNC)) goto hook_pre;
  }
run_op:
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
  CASE(CONST_F) {
    uint32_t bits = ip[2];
    memcpy(&R[A1].f, &bits, sizeof bits);
    NEXT(3);
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

  /* C's float operations are IEEE single precision (FLT_EVAL_METHOD 0 on
   * the SSE targets drvm builds for), as Java's */
  F_BIN(ADD_F, a + b)
  F_BIN(SUB_F, a - b)
  F_BIN(MUL_F, a * b)
  F_BIN(DIV_F, a / b)
  F_BIN(REM_F, fmodf(a, b))
  CVT(NEG_F, f, -R[A2].f)
  CVT(I2B, i, (int8_t)(uint8_t)(uint32_t)R[A2].i)
  CVT(I2S, i, (int16_t)(uint16_t)(uint32_t)R[A2].i)
  CVT(I2F, f, (float)R[A2].i)
  CVT(J2F, f, (float)R[A2].j)
  CVT(D2F, f, (float)R[A2].d)
  CVT(F2I, i, d2i((double)R[A2].f))
  CVT(F2J, j, d2j((double)R[A2].f))
  CVT(F2D, d, (double)R[A2].f)

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
  CMP(CMPEQ_F, f, ==)
  CMP(CMPNE_F, f, !=)
  CMP(CMPLT_F, f, <)
  CMP(CMPLE_F, f, <=)
  CMP(CMPGT_F, f, >)
  CMP(CMPGE_F, f, >=)
  CMP(CMPEQ_A, ref, ==)
  CMP(CMPNE_A, ref, !=)
  CASE(NOT_Z) {
    R[A1].i = R[A2].i ^ 1;
    NEXT(3);
  }

  CASE(JMP) BRANCH(A1);
  CASE(JZ) {
    if (R[A1].i == 0) BRANCH(A2);
    NEXT(3);
  }
  CASE(JNZ) {
    if (R[A1].i != 0) BRANCH(A2);
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
    if (R[A1].ref == NULL) BRANCH(A2);
    NEXT(3);
  }
  CASE(JNONNULL) {
    if (R[A1].ref != NULL) BRANCH(A2);
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
    BRANCH(off);
  }

  CASE(NEW) {
    DrClass *c = vm->classes[A2];
    ENSURE_INIT(c, DR_OP_NEW_Q);
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
    ENSURE_INIT(c, DR_OP_GETSTATIC_Q);
    R[A1] = c->statics[A3];
    NEXT(4);
  }
  CASE(GETSTATIC_Q) {
    R[A1] = vm->classes[A2]->statics[A3];
    NEXT(4);
  }
  CASE(GETSTATIC_F) {
    DrClass *c = vm->classes[A2];
    ENSURE_INIT(c, DR_OP_GETSTATIC_F_Q);
    R[A1] = c->statics[A3];
    NEXT(4);
  }
  CASE(GETSTATIC_F_Q) {
    R[A1] = vm->classes[A2]->statics[A3];
    NEXT(4);
  }
  CASE(PUTSTATIC) {
    DrClass *c = vm->classes[A1];
    ENSURE_INIT(c, DR_OP_PUTSTATIC_Q);
    c->statics[A2] = R[A3];
    NEXT(4);
  }
  CASE(PUTSTATIC_Q) {
    vm->classes[A1]->statics[A2] = R[A3];
    NEXT(4);
  }
  CASE(GETFIELD_V) {
    DrInstance *o = (DrInstance *)R[A2].ref;
    if (DR_UNLIKELY(!o)) THROW_WITH(dr_throw_npe(vm));
    SYNC_POINT();
    int32_t slot = (int32_t)A3;
    R[A1] = o->fields[slot];
    if (DR_UNLIKELY(dr_listening(vm, DR_EV_VREAD))) emit_access(vm, th, DR_EV_VREAD, &o->hdr, NULL, slot, false, NULL);
    NEXT(4);
  }
  CASE(PUTFIELD_V) {
    DrInstance *o = (DrInstance *)R[A1].ref;
    if (DR_UNLIKELY(!o)) THROW_WITH(dr_throw_npe(vm));
    SYNC_POINT();
    o->fields[A2] = R[A3];
    if (DR_UNLIKELY(vm->esc_on) && !dr_obj_owner(&o->hdr) && o->hdr.cls->field_is_ref[A2]) dr_esc_publish(vm, R[A3].ref);
    if (DR_UNLIKELY(dr_listening(vm, DR_EV_VWRITE)))
      emit_access(vm, th, DR_EV_VWRITE, &o->hdr, NULL, (int32_t)A2, false,
                  o->hdr.cls->field_is_ref[A2] ? R[A3].ref : NULL);
    NEXT(4);
  }
  CASE(GETSTATIC_V) {
    DrClass *c = vm->classes[A2];
    ENSURE_INIT(c, -1);
    SYNC_POINT();
    int32_t slot = (int32_t)A3;
    R[A1] = c->statics[slot];
    if (DR_UNLIKELY(dr_listening(vm, DR_EV_VREAD))) emit_access(vm, th, DR_EV_VREAD, NULL, c, slot, true, NULL);
    NEXT(4);
  }
  CASE(PUTSTATIC_V) {
    DrClass *c = vm->classes[A1];
    ENSURE_INIT(c, -1);
    SYNC_POINT();
    c->statics[A2] = R[A3];
    if (DR_UNLIKELY(vm->esc_on) && c->static_is_ref[A2]) dr_esc_publish(vm, R[A3].ref);
    if (DR_UNLIKELY(dr_listening(vm, DR_EV_VWRITE)))
      emit_access(vm, th, DR_EV_VWRITE, NULL, c, (int32_t)A2, true, c->static_is_ref[A2] ? R[A3].ref : NULL);
    NEXT(4);
  }
  CASE(CLASSLOCK) {
    SAVE();
    DrObj *lock = dr_class_object(vm, vm->classes[A2]);
    if (!lock) goto handle_exception;
    R[A1].ref = lock;
    NEXT(3);
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
  ALOAD(ALOAD_B, int8_t, i)
  ALOAD(ALOAD_S, int16_t, i)
  ALOAD(ALOAD_F, float, f)
  ASTORE(ASTORE_B, int8_t, i)
  ASTORE(ASTORE_S, int16_t, i)
  ASTORE(ASTORE_F, float, f)
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
    ENSURE_INIT(c, DR_OP_INVOKESTATIC_Q);
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
    SAVE();
    if (callee->flags & DR_M_NATIVE) {
      if (DR_UNLIKELY(!callee->native))
        THROW_WITH(dr_throw(vm, DR_WK_UNSUPPORTED, "native method %s.%s is not bound to a C function",
                            callee->owner->name, callee->desc));
      if (DR_UNLIKELY(callee->sync_event >= 0)) SYNC_POINT();
      DrValue *nr = R + fr->method->nregs;
      if (DR_UNLIKELY(th->nframes >= th->frames_cap || nr + argc > th->stack + th->stack_slots)) {
        if (!dr_thread_reserve(vm, th, &nr, argc)) goto handle_exception;
        LOAD();
      }
      for (uint32_t i = 0; i < argc; i++) nr[i] = R[argv[i]];
      DrFrame *nf = dr_frame_push(th);
      nf->method = callee;
      nf->ip = NULL;
      nf->regs = nr;
      nf->ret_reg = 0;
      DrValue ret;
      ret.j = 0;
      bool ok = callee->native(vm, nr, &ret);
      th->nframes--;
      if (!ok) {
        if (vm->blocked) {
          vm->blocked = false;
          next = dr_sched_point(vm, DR_PICK_BLOCKED);
          goto switch_to;
        }
        if (POST_PENDING()) { /* the native's return, by an exception */
          CLEAR_POST();
          hev.arg = 1;
          dr_emit_event(vm, &hev);
        }
        goto handle_exception;
      }
      if (callee->ret_kind != DR_K_VOID) R[A1] = ret;
      ip += 4 + argc;
      REHOOK(); /* e.g. Thread.start: a detector now wants the accesses */
      STEP_HERE();
      DISPATCH();
    }
    if (DR_UNLIKELY(callee->flags & DR_M_ABSTRACT))
      THROW_WITH(dr_throw(vm, DR_WK_UNSUPPORTED, "abstract method %s.%s called", callee->owner->name, callee->desc));
    DrValue *nr = R + fr->method->nregs;
    if (DR_UNLIKELY(th->nframes >= th->frames_cap || nr + callee->nregs > th->stack + th->stack_slots)) {
      if (!dr_thread_reserve(vm, th, &nr, (size_t)callee->nregs)) goto handle_exception;
      LOAD();
    }
    for (uint32_t i = 0; i < argc; i++) nr[i] = R[argv[i]];
    memset(nr + argc, 0, sizeof(DrValue) * (size_t)(callee->nregs - (int)argc));
    uint32_t dst = A1;
    fr = dr_frame_push(th);
    fr->method = callee;
    fr->regs = nr;
    fr->ip = callee->code;
    fr->ret_reg = dst;
    R = nr;
    ip = callee->code;
    STEP_HERE();
    DISPATCH();
  }

  {
    DrValue rv;
  CASE(RETURN)
    rv = R[A1];
    goto do_return;
  CASE(RETURN_VOID)
    rv.j = 0;
  do_return:;
    DrMethod *m = fr->method;
    if (DR_UNLIKELY(th->nframes == 1)) {
      /* The thread's END.  The JDK's exiting thread locks its Thread
       * object to notify joiners: no end while another thread holds it
       * (a `while (t.isAlive()) t.wait()` loop relies on that). */
      SAVE();
      DrObj *jt = th->jthread;
      bool held = jt && jt->monitor && jt->monitor->owner && jt->monitor->owner != th;
      if (th->granted_ip != ip || held) {
        if (held) {
          th->state = DR_TS_BLOCKED;
          th->monitor = jt;
          vm->sched_gen++;
        }
        next = dr_sched_point(vm, DR_PICK_EVENT);
        if (next != th) goto switch_to;
      }
      th->granted_ip = NULL;
      th->state = DR_TS_RUNNABLE;
      th->monitor = NULL;
      vm->sched_gen++;
      goto thread_over;
    }
    if (m->flags & DR_M_CLINIT) {
      m->owner->init_state = DR_INIT_DONE;
      vm->sched_gen++;
      m->owner->init_thread = NULL;
      if (dr_listening(vm, DR_EV_INIT) && is_user(m)) {
        DrEvent ev;
        dr_event_at(&ev, DR_EV_INIT, th);
        ev.cls = m->owner;
        dr_emit_event(vm, &ev);
      }
    }
    uint32_t rr = fr->ret_reg;
    th->nframes--;
    LOAD();
    if (m->flags & DR_M_CLINIT) REDISPATCH(); /* re-execute what waited for it */
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
    DrObj *o = R[A1].ref;
    if (DR_UNLIKELY(!o)) THROW_WITH(dr_throw_npe(vm));
    SAVE();
    DrMonitor *mon = o->monitor;
    if (th->granted_ip != ip || (mon && mon->owner && mon->owner != th)) {
      if (mon && mon->owner && mon->owner != th) {
        th->state = DR_TS_BLOCKED;
        th->monitor = o;
        vm->sched_gen++;
      }
      next = dr_sched_point(vm, DR_PICK_EVENT);
      if (next != th) goto switch_to;
    }
    th->granted_ip = NULL;
    dr_monitor_enter(vm, th, o);
    NEXT(2);
  }
  CASE(MONITOREXIT) {
    DrObj *o = R[A1].ref;
    if (DR_UNLIKELY(!o)) THROW_WITH(dr_throw_npe(vm));
    SYNC_POINT();
    if (!dr_monitor_exit(vm, th, o)) goto handle_exception;
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

hook_pre:
  /* before a READ/WRITE/CALL/RETURN/NEWOBJ instruction, hooks on */
  SAVE();
  if (!(vm->sched_points & DR_SP_ACCESS) && (dr_op_info[*ip].flags & (DR_OPF_READ | DR_OPF_WRITE))) {
    if ((dr_op_info[*ip].flags & DR_OPF_FINAL) && vm->fast.on && final_seen(vm, th, ip)) RUN_OP();
    if (fast_same_epoch(vm, th, fr, ip, R, vm->access_shape[*ip])) {
      th->granted_ip = NULL;
      RUN_OP();
    }
    if (access_now(vm, th, fr, ip, R)) RUN_OP();
  }
#ifdef DR_COMPUTED_GOTO
hook_pre_saved:
#endif
  next = hook_before(vm, th, &hev, &hook_post_wanted);
  if (next != th) goto switch_to;
  if (hook_post_wanted) {
    hook_ip = ip;
    hook_R = R;
    SET_POST();
  }
  RUN_OP();

#ifdef DR_COMPUTED_GOTO
final_read:
  /* a static final read, hooks on, no access points */
  if (final_seen(vm, th, ip)) goto *labels[*ip];
  goto *access_labels[*ip];

#define DR_OP_ACCESS_HOOK(name, fmt, flags)                                   \
  H_##name:                                                                   \
  if (fast_same_epoch(vm, th, fr, ip, R, DR_SHAPE_OF(fmt, flags))) {          \
    th->granted_ip = NULL;                                                    \
    goto L_##name;                                                            \
  }                                                                           \
  SAVE();                                                                     \
  if (access_now(vm, th, fr, ip, R)) goto L_##name;                           \
  goto hook_pre_saved;
  DR_OPCODES(DR_OP_ACCESS_HOOK)
#undef DR_OP_ACCESS_HOOK
#endif

hook_post:
  /* the hooked instruction took effect: report it */
  CLEAR_POST();
  SAVE();
  emit_post(vm, &hev, hook_ip, hook_R);
  DISPATCH();

step_slow:
  /* ip is at an instruction start: a stop check, the step limit, or the
   * quantum's end.
   * The instruction before it took effect: its event is due first. */
  SAVE();
  if (POST_PENDING()) {
    CLEAR_POST();
    emit_post(vm, &hev, hook_ip, hook_R);
  }
  if (dr_stop_check(vm)) goto run_over;
  if (vm->max_steps && vm->steps > vm->max_steps) {
    step_limit_reached(vm);
    goto run_over;
  }
  if (vm->steps <= vm->preempt_at) {
    /* only a stop check: the quantum goes on, no scheduling point */
    step_limit = step_limit_of(vm);
    REDISPATCH();
  }
  next = dr_sched_point(vm, DR_PICK_PREEMPT);
  if (next == th) {
    start_quantum(vm, th);
    step_limit = step_limit_of(vm);
    th->granted_ip = ip;
    REDISPATCH();
  }
  goto switch_to;

switch_to:
  /* next executes its pending event; NULL: the run is over */
  if (!next) goto run_over;
  if (next != th) leave_pending(vm, th);
  vm->thread = th = next;
  REHOOK();
  start_quantum(vm, th);
  step_limit = step_limit_of(vm);
  LOAD();
  th->granted_ip = ip;
  REDISPATCH();

thread_over:
  /* th's first frame returned: the thread ends */
  if (dr_listening(vm, DR_EV_RETURN)) {
    DrEvent ev;
    dr_event_at(&ev, DR_EV_RETURN, th);
    ev.callee = th->frames[0].method;
    if (is_user(ev.callee)) dr_emit_event(vm, &ev);
  }
  th->nframes = 0;
  dr_thread_end(vm, th);
  next = dr_sched_point(vm, DR_PICK_BLOCKED);
  goto switch_to;

handle_exception:
  /* fr->ip of the top frame points at the instruction that raised. */
  CLEAR_POST();
  /* a frame that has not begun (dr_frame_pending) has no handler in force */
  bool not_begun = false;
  for (;;) {
    if (vm->halting) goto run_over;
    fr = &th->frames[th->nframes - 1];
    DrMethod *m = fr->method;
    if (vm->exception && !(m->flags & DR_M_NATIVE) && !not_begun) {
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
    /* a <clinit> that began threw: its class fails (and with it those whose
     * pending <clinit>s lie below, already marked by dr_init_failed) */
    if (!not_begun && (m->flags & DR_M_CLINIT) && m->owner->init_state == DR_INIT_RUNNING)
      dr_init_failed(vm, th, m->owner);
    not_begun = dr_frame_pending(th, th->nframes - 2);
    emit_unwind(vm, th, fr);
    if (th->nframes > 1) {
      th->nframes--;
      continue;
    }
    /* The exception escaped the thread's first frame: the JDK's default
     * handler prints it, on the dying thread (drvm.Boot.uncaught). */
    DrObj *e = vm->exception;
    vm->exception = NULL;
    if (!th->in_uncaught && e) {
      th->in_uncaught = true;
      th->died = true;
      vm->uncaught++;
      DrMethod *h = vm->uncaught_handler;
      th->nframes = 0;
      DrValue *regs = th->stack;
      if (!dr_thread_reserve(vm, th, &regs, (size_t)h->nregs)) goto thread_over;
      memset(regs, 0, sizeof(DrValue) * (size_t)h->nregs);
      regs[0].ref = e;
      fr = dr_frame_push(th);
      fr->method = h;
      fr->regs = regs;
      fr->ip = h->code;
      fr->ret_reg = 0;
      LOAD();
      DISPATCH();
    }
    if (e) {
      char buf[128];
      dr_flush_output(vm);
      /* The handler could not print what escaped (System's initializer
       * failed on a full heap, say: System.err is gone): it is said here,
       * by name and message, before the JDK's line about the handler. */
      const DrObj *first = th->nframes == 1 && th->frames[0].method == vm->uncaught_handler ? th->frames[0].regs[0].ref : NULL;
      if (first) {
        DrBuf b = {0};
        const DrString *msg = (const DrString *)dr_field((DrObj *)first, "detailMessage")->ref;
        if (msg) dr_buf_append_jstring(&b, msg);
        fprintf(vm->err_file, "Exception in thread \"%s\" %s%s%s\n", dr_thread_name(vm, th, buf, sizeof buf),
                first->cls->name, msg ? ": " : "", msg ? b.data : "");
        free(b.data);
      }
      fprintf(vm->err_file, "\nException: %s thrown from the UncaughtExceptionHandler in thread \"%s\"\n",
              e->cls->name, dr_thread_name(vm, th, buf, sizeof buf));
    }
    th->nframes = 1;
    th->pushes++;
    goto thread_over;
  }

run_over:
  return;
#undef LOAD
#undef SAVE
#undef THROW
#undef THROW_WITH
#undef STEP_HERE
#undef SYNC_POINT
#undef ENSURE_INIT
}

static DrMethod *find_method(DrVM *vm, const DrClass *c, const char *desc, bool want_static) {
  for (int i = 0; i < vm->nmethods; i++) {
    DrMethod *m = vm->methods[i];
    if (m->owner == c && strcmp(m->desc, desc) == 0 && ((m->flags & DR_M_STATIC) != 0) == want_static) return m;
  }
  return NULL;
}

bool dr_main_start(DrVM *vm, DrClass *cls, int argc, const char *const *argv, int *status) {
  DrMethod *main = find_method(vm, cls, "main(String[])", true);
  if (!main) {
    fprintf(vm->err_file, "drvm: class %s has no method 'public static void main(String[] args)'\n", cls->name);
    *status = DR_EXIT_USAGE;
    return false;
  }
  DrThread *t = dr_thread_new(vm);
  vm->thread = t;
  *status = DR_EXIT_EXCEPTION;
  DrArray *args = dr_new_array(vm, dr_array_class(vm, vm->known[DR_WK_STRING]), argc);
  if (args) dr_push_root(vm, &args->hdr);
  for (int i = 0; args && i < argc; i++) {
    DrString *s = dr_new_string_utf8(vm, argv[i]);
    if (!s) {
      dr_pop_roots(vm, 1);
      args = NULL;
      break;
    }
    ((DrObj **)DR_ARRAY_DATA(args))[i] = &s->hdr;
  }
  if (!args) { /* as a JVM whose heap cannot hold its start: no program ran */
    vm->exception = NULL;
    fprintf(vm->err_file, "drvm: the heap limit (--max-heap %zu bytes) is too small to start the program: "
                          "main's arguments do not fit\n", vm->max_heap);
    *status = DR_EXIT_USAGE;
    return false;
  }
  DrFrame *f = push_frame(vm, t, main, t->stack);
  dr_pop_roots(vm, 1);
  if (!f) return false;
  memset(f->regs, 0, sizeof(DrValue) * (size_t)main->nregs);
  f->regs[0].ref = &args->hdr;
  /* Java initializes the main class before main runs: its <clinit>
   * frames go above main's. */
  if (dr_listening(vm, DR_EV_CALL)) {
    DrEvent ev;
    dr_event_at(&ev, DR_EV_CALL, t);
    ev.callee = main;
    dr_emit_event(vm, &ev);
  }
  if (class_init(vm, t, cls) < 0) vm->exception = NULL;
  start_quantum(vm, t);
  return true;
}

int dr_interp_continue(DrVM *vm) {
  interp_run(vm);
  if (vm->suspended) return -1;
  dr_flush_output(vm);
  if (vm->halting) return vm->exit_status;
  return vm->nall_threads > 0 && vm->all_threads[0]->died ? DR_EXIT_EXCEPTION : DR_EXIT_OK;
}

/* What the interpreter does after a scheduling point when the pick is t
 * (see switch_to and step_slow): the current thread, unless it is t,
 * leaves a pending acquisition blocked; t is asked for a quantum when it
 * takes over or its own quantum ran out; and it executes its pending
 * instruction without asking again. */
int dr_interp_resume(DrVM *vm, DrThread *t) {
  DrThread *cur = vm->thread;
  ASSERT(vm->suspended, "resume without a decision");
  vm->suspended = false;
  dr_sched_chosen(vm, t);
  if (t != cur) leave_pending(vm, cur);
  if (t != cur || vm->suspend_reason == DR_PICK_PREEMPT) start_quantum(vm, t);
  vm->thread = t;
  t->granted_ip = t->frames[t->nframes - 1].ip;
  return dr_interp_continue(vm);
}

int dr_run_main(DrVM *vm, DrClass *cls, int argc, char **argv) {
  int status;
  if (!dr_main_start(vm, cls, argc, (const char *const *)argv, &status)) return status;
  return dr_interp_continue(vm);
}
