/* The VM side of the scheduler interface: scheduling points, enabled
 * threads, pending events, the virtual clock's timers, and the event
 * stream's dispatch to listeners. */
#include <string.h>

#include "sched_iface.h"
#include "opcodes.h"

const DrEventInfo dr_event_info[DR_EV__COUNT] = {
#define DR_EV_INFO(name, word, flags) {word, flags},
    DR_EVENTS(DR_EV_INFO)
#undef DR_EV_INFO
};

/* The inline same-epoch check answers for its listener alone: it is on
 * only while no other listener wants the accesses (a trace beside the
 * detector shows every one). */
static void fast_update(DrVM *vm) {
  const uint32_t acc = DR_EV_BIT(DR_EV_READ) | DR_EV_BIT(DR_EV_WRITE);
  bool alone = vm->fast.owner != NULL && !vm->shadow_multi; /* it reads DrObj.shadow as its own */
  for (DrListener *l = vm->listeners; l && alone; l = l->next)
    if (l != vm->fast.owner && (!l->events || (l->events & acc))) alone = false;
  vm->fast.on = alone;
}

void dr_add_listener(DrVM *vm, DrListener *l) {
  DrListener **p = &vm->listeners;
  while (*p) p = &(*p)->next;
  l->next = NULL;
  *p = l;
  vm->listen_mask |= l->events ? l->events : DR_EV_ALL;
  vm->hooks = true;
  fast_update(vm);
}

void dr_listeners_changed(DrVM *vm) {
  uint32_t mask = 0;
  for (DrListener *l = vm->listeners; l; l = l->next) mask |= l->events ? l->events : DR_EV_ALL;
  vm->listen_mask = mask;
  vm->hooks_gen++;
  fast_update(vm);
}

void dr_finish_listeners(DrVM *vm) {
  for (DrListener *l = vm->listeners; l;) {
    DrListener *next = l->next; /* finish may free l */
    if (l->finish) l->finish(l, vm);
    l = next;
  }
  vm->listeners = NULL;
  vm->listen_mask = 0;
  vm->fast.owner = NULL;
  vm->fast.on = false;
}

void dr_emit_event_all(DrVM *vm, const DrEvent *e) {
  uint32_t bit = DR_EV_BIT(e->kind);
  for (DrListener *l = vm->listeners; l; l = l->next)
    if (!l->events || (l->events & bit)) l->event(l, vm, e);
}

void dr_event_at(DrEvent *e, DrEventKind kind, DrThread *t) {
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->thread = t;
  e->field = -1;
  for (int i = t->nframes - 1; i >= 0; i--) {
    const DrFrame *f = &t->frames[i];
    if (f->method->flags & DR_M_NATIVE || !f->ip) continue;
    e->method = f->method;
    e->pc = (uint32_t)(f->ip - f->method->code);
    return;
  }
}

int dr_sched_threads(DrVM *vm, DrThread *const **out) {
  *out = vm->threads;
  return vm->nthreads;
}

bool dr_sched_is_enabled(const DrVM *vm, const DrThread *t) {
  (void)vm;
  switch (t->state) {
  case DR_TS_RUNNABLE: return true;
  case DR_TS_BLOCKED:
    if (t->monitor) {
      const DrMonitor *m = t->monitor->monitor;
      return !m || !m->owner || m->owner == t;
    }
    return !t->init_class || t->init_class->init_state != DR_INIT_RUNNING;
  default: return false;
  }
}

int dr_sched_enabled(DrVM *vm, DrThread *const **out) {
  *out = vm->enabled;
  if (vm->enabled && vm->enabled_gen == vm->sched_gen) {
#ifdef DR_DEBUG
    int k = 0;
    for (int i = 0; i < vm->nthreads; i++)
      if (dr_sched_is_enabled(vm, vm->threads[i])) {
        ASSERT(k < vm->nenabled && vm->enabled[k] == vm->threads[i], "stale enabled list: a state change without sched_gen++");
        k++;
      }
    ASSERT(k == vm->nenabled, "stale enabled list: a state change without sched_gen++");
#endif
    return vm->nenabled;
  }
  if (vm->enabled_cap < vm->nthreads || !vm->enabled) {
    vm->enabled_cap = vm->nthreads * 2 + 1;
    vm->enabled = dr_xrealloc(vm->enabled, sizeof(DrThread *) * (size_t)vm->enabled_cap);
  }
  int n = 0;
  for (int i = 0; i < vm->nthreads; i++)
    if (dr_sched_is_enabled(vm, vm->threads[i])) vm->enabled[n++] = vm->threads[i];
  *out = vm->enabled;
  vm->nenabled = n;
  vm->enabled_gen = vm->sched_gen;
  return n;
}

/* The method a call instruction at ip enters, dispatching on its
 * receiver as the interpreter will; NULL if the receiver is null. */
static DrMethod *call_target(DrVM *vm, const uint32_t *ip, const DrValue *R) {
  DrMethod *m = vm->methods[ip[2]];
  DrOpcode op = (DrOpcode)ip[0];
  if (op == DR_OP_INVOKESTATIC || op == DR_OP_INVOKESTATIC_Q || op == DR_OP_INVOKESPECIAL) return m;
  const DrObj *recv = R[ip[4]].ref;
  if (!recv) return NULL;
  if (op == DR_OP_INVOKEVIRTUAL) return recv->cls->vtable[m->vtable_index];
  const DrClass *rc = recv->cls;
  return (rc->itable && m->selector < rc->itable_len) ? rc->itable[m->selector] : NULL;
}

void dr_decode_access(DrVM *vm, const uint32_t *ip, const DrValue *R, DrEvent *ev) {
  unsigned fl = dr_op_info[ip[0]].flags;
  bool write = fl & DR_OPF_WRITE;
  bool vol = fl & DR_OPF_SYNC;
  ev->kind = vol ? (write ? DR_EV_VWRITE : DR_EV_VREAD) : (write ? DR_EV_WRITE : DR_EV_READ);
  const char *f = dr_op_info[ip[0]].format; /* "rcs"/"csr", "rrf"/"rfr" or "rrr" */
  if (f[0] == 'c' || f[1] == 'c') { /* static */
    int c = f[0] == 'r' ? 2 : 1;
    ev->cls = vm->classes[ip[c]];
    ev->field = (int32_t)ip[c + 1];
    ev->is_static = true;
  } else if (f[1] == 'f' || f[2] == 'f') { /* instance field */
    ev->obj = R[f[0] == 'r' && f[1] == 'r' ? ip[2] : ip[1]].ref;
    ev->field = (int32_t)(f[1] == 'r' ? ip[3] : ip[2]);
  } else { /* array element: ALOAD dst, arr, idx / ASTORE arr, idx, val */
    bool load = !write;
    ev->obj = R[load ? ip[2] : ip[1]].ref;
    ev->field = R[load ? ip[3] : ip[2]].i;
  }
  if (ev->obj) ev->cls = ev->obj->cls;
  ev->stored = write ? dr_access_stored(ev, ip, R) : NULL;
}

DrObj *dr_access_stored(const DrEvent *ev, const uint32_t *ip, const DrValue *R) {
  if (!ev->cls) return NULL;
  bool ref = ev->is_static                        ? ev->cls->static_is_ref[ev->field]
             : (ev->cls->flags & DR_CLS_ARRAY) != 0 ? ev->cls->elem_kind == DR_K_REF
                                                  : ev->cls->field_is_ref[ev->field];
  return ref ? R[ip[3]].ref : NULL; /* a write's value is its third operand (PUT*, ASTORE_*) */
}

DrEventKind dr_sched_pending_kind(DrVM *vm, const DrThread *t) {
  if (t->state == DR_TS_ENDED || t->nframes == 0) return DR_EV_END;
  const DrFrame *fr = &t->frames[t->nframes - 1];
  if (!fr->ip || (fr->method->flags & DR_M_NATIVE)) return DR_EV_STEP;
  const uint32_t *ip = fr->ip;
  unsigned fl = dr_op_info[ip[0]].flags;
  if (fl & (DR_OPF_READ | DR_OPF_WRITE)) {
    bool write = fl & DR_OPF_WRITE;
    if (fl & DR_OPF_SYNC) return write ? DR_EV_VWRITE : DR_EV_VREAD;
    return write ? DR_EV_WRITE : DR_EV_READ;
  }
  if (ip[0] == DR_OP_MONITORENTER) return DR_EV_ACQUIRE;
  if (ip[0] == DR_OP_MONITOREXIT) return DR_EV_RELEASE;
  if (fl & DR_OPF_CALL) {
    const DrMethod *callee = call_target(vm, ip, fr->regs);
    if (!callee || callee->sync_event < 0) return DR_EV_CALL;
    if (callee->sync_event == DR_EV_WAIT && t->resume == DR_RESUME_WAIT) return DR_EV_WAKE;
    if (callee->sync_event == DR_EV_SLEEP && t->resume == DR_RESUME_SLEEP) return DR_EV_STEP; /* it slept: it returns */
    return (DrEventKind)callee->sync_event;
  }
  if (fl & DR_OPF_RETURN) return t->nframes == 1 ? DR_EV_END : DR_EV_RETURN;
  if (fl & DR_OPF_NEWOBJ) return DR_EV_NEW;
  return DR_EV_STEP;
}

void dr_sched_pending(DrVM *vm, DrThread *t, DrEvent *ev) {
  dr_event_at(ev, DR_EV_STEP, t);
  if (t->state == DR_TS_ENDED || t->nframes == 0) {
    ev->kind = DR_EV_END;
    return;
  }
  const DrFrame *fr = &t->frames[t->nframes - 1];
  if (!fr->ip || (fr->method->flags & DR_M_NATIVE)) return;
  const uint32_t *ip = fr->ip;
  const DrValue *R = fr->regs;
  unsigned fl = dr_op_info[ip[0]].flags;
  if (fl & (DR_OPF_READ | DR_OPF_WRITE)) {
    dr_decode_access(vm, ip, R, ev);
  } else if (ip[0] == DR_OP_MONITORENTER || ip[0] == DR_OP_MONITOREXIT) {
    ev->kind = ip[0] == DR_OP_MONITORENTER ? DR_EV_ACQUIRE : DR_EV_RELEASE;
    ev->obj = R[ip[1]].ref;
  } else if (fl & DR_OPF_CALL) {
    DrMethod *callee = call_target(vm, ip, R);
    ev->kind = DR_EV_CALL;
    ev->callee = callee;
    ev->obj = (callee && !(callee->flags & DR_M_STATIC)) ? R[ip[4]].ref : NULL;
    if (callee && callee->sync_event >= 0) {
      ev->kind = (DrEventKind)callee->sync_event;
      if (ev->kind == DR_EV_WAIT && t->resume == DR_RESUME_WAIT) ev->kind = DR_EV_WAKE;
      if (ev->kind == DR_EV_SLEEP && t->resume == DR_RESUME_SLEEP) ev->kind = DR_EV_STEP; /* it slept: it returns */
      if (ev->kind == DR_EV_INTERRUPTED && !ev->obj) ev->other = t; /* Thread.interrupted() */
      if ((ev->kind == DR_EV_FORK || ev->kind == DR_EV_JOIN || ev->kind == DR_EV_INTERRUPT ||
           ev->kind == DR_EV_INTERRUPTED) && ev->obj) {
        int32_t tid = ((DrInstance *)ev->obj)->fields[vm->thread_tid_slot].i;
        ev->other = tid > 0 && tid <= vm->nall_threads ? vm->all_threads[tid - 1] : NULL;
      }
      if (ip[3] >= 2 && callee->param_kinds[callee->nparams - 1] == DR_K_LONG) ev->arg = R[ip[4 + ip[3] - 1]].j;
      else if (ip[3] >= 1 && (callee->flags & DR_M_STATIC) && callee->nparams == 1) ev->arg = R[ip[4]].j;
    }
  } else if (fl & DR_OPF_RETURN) {
    ev->kind = t->nframes == 1 ? DR_EV_END : DR_EV_RETURN;
    ev->callee = fr->method;
    if (t->nframes > 1 && (fr->method->owner->flags & DR_CLS_BUILTIN)) {
      /* a library method returning to the program: placed at the call
       * site, as its call was, since library code is not observed */
      const DrFrame *caller = &t->frames[t->nframes - 2];
      if (caller->ip) {
        ev->method = caller->method;
        ev->pc = (uint32_t)(caller->ip - caller->method->code);
      }
    }
  } else if (fl & DR_OPF_NEWOBJ) {
    ev->kind = DR_EV_NEW;
    ev->cls = vm->classes[ip[2]];
  }
  if (ev->obj && !ev->cls) ev->cls = ev->obj->cls;
}

/* Wakes the threads whose timed sleep, wait or join has run out. */
static void wake_timers(DrVM *vm) {
  int64_t now = dr_now_ns(vm), next = INT64_MAX;
  for (int i = 0; i < vm->nthreads; i++) {
    DrThread *t = vm->threads[i];
    if (t->deadline == INT64_MAX) continue;
    if (t->deadline <= now) dr_thread_timeout(vm, t);
    else if (t->deadline < next) next = t->deadline;
  }
  vm->next_deadline = next;
}

/* Nothing can run: if a thread waits for a deadline, jump the virtual
 * clock to the earliest one. */
static bool advance_clock(DrVM *vm) {
  int64_t next = INT64_MAX;
  for (int i = 0; i < vm->nthreads; i++)
    if (vm->threads[i]->deadline < next) next = vm->threads[i]->deadline;
  if (next == INT64_MAX) return false;
  int64_t now = dr_now_ns(vm);
  if (next > now) vm->vclock_ns += next - now;
  wake_timers(vm);
  return true;
}

bool dr_sched_advance_clock(DrVM *vm) { return advance_clock(vm); }

static void maybe_spurious(DrVM *vm) {
  DrThread **waiting = NULL;
  int n = 0, cap = 0;
  for (int i = 0; i < vm->nthreads; i++)
    if (vm->threads[i]->state == DR_TS_WAITING) DR_PUSH(waiting, n, cap, vm->threads[i]);
  if (n > 0) {
    int k = vm->sched->spurious(vm->sched, vm, waiting, n);
    if (k >= 0 && k < n) dr_thread_spurious_wake(vm, waiting[k]);
  }
  free(waiting);
}

void dr_vm_set_scheduler(DrVM *vm, DrScheduler *s, unsigned extra_points) {
  vm->sched = s;
  vm->sched_points = s ? s->points | extra_points : 0;
  if (vm->sched_points) vm->hooks = true;
}

/* A stepping host sees this decision: it has a choice, or wants all. */
static bool step_here(DrVM *vm) {
  if (atomic_exchange(&vm->step_interrupt, 0)) return true;
  if (vm->step_target != UINT64_MAX) return vm->sched_decisions - 1 >= vm->step_target;
  if (vm->step_goal) return false;
  if (vm->step_every) return true;
  DrThread *const *en;
  return dr_sched_enabled(vm, &en) > 1;
}

DrThread *dr_sched_point(DrVM *vm, int reason) {
  DrThread *cur = vm->thread;
  vm->sched_decisions++;
  cur->events++;
  for (;;) {
    /* drvm_stop also ends a run that only waits or sleeps */
    if (vm->halting || dr_stop_check(vm)) return NULL;
    if (dr_now_ns(vm) >= vm->next_deadline) wake_timers(vm);
    if (vm->spurious_wakeups && vm->sched->spurious) maybe_spurious(vm);
    DrPickReason why = (DrPickReason)reason;
    if (!dr_sched_is_enabled(vm, cur)) {
      if (vm->nthreads == 0) return NULL;
      bool any = false;
      for (int i = 0; i < vm->nthreads && !any; i++) any = dr_sched_is_enabled(vm, vm->threads[i]);
      if (!any) {
        if (advance_clock(vm)) continue;
        dr_report_deadlock(vm);
        if (vm->sched->deadlocked && vm->sched->deadlocked(vm->sched, vm)) vm->restart = true;
        return NULL;
      }
      why = DR_PICK_BLOCKED;
    }
    DrThread *t = vm->sched->pick(vm->sched, vm, cur, why);
    if (vm->halting) return NULL;
    if (!t || !dr_sched_is_enabled(vm, t))
      dr_panic(__FILE__, __LINE__, "scheduler %s picked a thread that cannot run", vm->sched->name);
    if (DR_UNLIKELY(vm->step_mode) && step_here(vm)) {
      /* the host decides: the interpreter returns, state saved */
      vm->suspended = true;
      vm->suspend_reason = (int)why;
      vm->suggested = t;
      return NULL;
    }
    return dr_sched_chosen(vm, t);
  }
}

DrThread *dr_sched_chosen(DrVM *vm, DrThread *t) {
  if (t->state == DR_TS_BLOCKED && !t->monitor) {
    t->state = DR_TS_RUNNABLE; /* the class it waited for is initialized */
    vm->sched_gen++;
    t->init_class = NULL;
  }
  return t;
}
