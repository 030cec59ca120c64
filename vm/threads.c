/* Green threads and monitors: thread creation and stacks, monitor enter
 * and exit, and the synchronizing natives of java.lang.Thread and
 * java.lang.Object (start, join, sleep, yield, interrupt, wait, notify).
 *
 * A native that must block (join on a live thread, sleep, wait) records
 * why in the thread (state, deadline, resume), sets vm->blocked and
 * returns false without an exception.  The interpreter then asks the
 * scheduler for another thread; the thread's ip still points at the call,
 * so when it is picked again it re-executes the call and the native, seeing
 * t->resume, finishes the operation (retakes the monitor, throws
 * InterruptedException...).  Nothing here runs bytecode. */
#include "natives.h"
#include "sched_iface.h"

#include <string.h>

enum {
  DR_STACK_INITIAL = 256,
  DR_STACK_MAX = 4 * 1024 * 1024, /* registers per thread (32 MiB) */
  DR_FRAMES_INITIAL = 16,
  DR_FRAMES_MAX = 100000,
};

const char *const dr_thread_state_names[DR_TS__COUNT] = {
#define DR_TS_NAME(name, word) word,
    DR_THREAD_STATES(DR_TS_NAME)
#undef DR_TS_NAME
};

/* What a thread's stacks hold (in vm->ext_bytes). */
static size_t stack_bytes(const DrThread *t) {
  return sizeof(DrValue) * t->stack_slots + sizeof(DrFrame) * (size_t)t->frames_cap;
}

DrThread *dr_thread_new(DrVM *vm) {
  DrThread *t = dr_xcalloc(1, sizeof *t);
  t->id = vm->nall_threads;
  t->notified_by = -1;
  t->state = DR_TS_RUNNABLE;
  vm->sched_gen++;
  t->deadline = INT64_MAX;
  t->fast_epoch = DR_FAST_NONE;
  t->stack_slots = DR_STACK_INITIAL;
  t->stack = dr_xcalloc(t->stack_slots, sizeof(DrValue));
  t->frames_cap = DR_FRAMES_INITIAL;
  t->frames = dr_xcalloc((size_t)t->frames_cap, sizeof(DrFrame));
  vm->ext_bytes += sizeof *t + stack_bytes(t);
  DR_PUSH(vm->all_threads, vm->nall_threads, vm->all_threads_cap, t);
  DR_PUSH(vm->threads, vm->nthreads, vm->threads_cap, t);
  return t;
}

bool dr_thread_reserve(DrVM *vm, DrThread *t, DrValue **regs, size_t need) {
  if (t->nframes >= t->frames_cap) {
    if (t->frames_cap >= DR_FRAMES_MAX) return dr_throw(vm, DR_WK_STACK_OVERFLOW, NULL);
    int cap = t->frames_cap * 2 > DR_FRAMES_MAX ? DR_FRAMES_MAX : t->frames_cap * 2;
    t->frames = dr_xrealloc(t->frames, sizeof(DrFrame) * (size_t)cap);
    vm->ext_bytes += sizeof(DrFrame) * (size_t)(cap - t->frames_cap);
    t->frames_cap = cap;
  }
  size_t off = (size_t)(*regs - t->stack);
  if (off + need > t->stack_slots) {
    if (off + need > DR_STACK_MAX) return dr_throw(vm, DR_WK_STACK_OVERFLOW, NULL);
    size_t cap = t->stack_slots;
    while (cap < off + need) cap *= 2;
    if (cap > DR_STACK_MAX) cap = DR_STACK_MAX;
    DrValue *old = t->stack;
    DrValue *stack = dr_xrealloc(old, sizeof(DrValue) * cap);
    memset(stack + t->stack_slots, 0, sizeof(DrValue) * (cap - t->stack_slots));
    for (int i = 0; i < t->nframes; i++) t->frames[i].regs = stack + (t->frames[i].regs - old);
    vm->ext_bytes += sizeof(DrValue) * (cap - t->stack_slots);
    t->stack = stack;
    t->stack_slots = cap;
    *regs = stack + off;
  }
  return true;
}

static DrThread *thread_of(DrVM *vm, DrObj *jthread) {
  int32_t tid = dr_field(jthread, "tid")->i;
  return tid > 0 && tid <= vm->nall_threads ? vm->all_threads[tid - 1] : NULL;
}

const char *dr_thread_name(DrVM *vm, const DrThread *t, char *buf, size_t size) {
  (void)vm;
  if (t->ended_name) return t->ended_name;
  const DrString *s = t->jthread ? (const DrString *)dr_field(t->jthread, "name")->ref : NULL;
  if (!s) {
    snprintf(buf, size, "%s", t->id == 0 ? "main" : "?");
    return buf;
  }
  DrBuf b = {0};
  dr_buf_append_jstring(&b, s);
  snprintf(buf, size, "%s", b.data ? b.data : "");
  free(b.data);
  return buf;
}

static void set_deadline(DrVM *vm, DrThread *t, int64_t ms) {
  if (ms <= 0) {
    t->deadline = INT64_MAX;
    return;
  }
  int64_t now = dr_now_ns(vm);
  int64_t room = (INT64_MAX - now) / 1000000;
  t->deadline = ms >= room ? INT64_MAX - 1 : now + ms * 1000000;
  if (t->deadline < vm->next_deadline) vm->next_deadline = t->deadline;
}

static void leave_wait_set(DrVM *vm, DrThread *t);

void dr_thread_end(DrVM *vm, DrThread *t) {
  /* An exception escaping a synchronized block releases it through the
   * block's handler, so nothing should be held; be safe anyway. */
  while (t->nheld > 0) {
    DrMonitor *m = t->held[t->nheld - 1].obj->monitor;
    m->owner = NULL;
    vm->sched_gen++;
    m->count = 0;
    t->nheld--;
  }
  DrEvent ev;
  dr_event_at(&ev, DR_EV_END, t);
  ev.obj = t->jthread;
  char buf[128];
  t->ended_name = dr_strdup(dr_thread_name(vm, t, buf, sizeof buf));
  t->state = DR_TS_ENDED;
  vm->sched_gen++;
  /* The JDK's exiting thread does notifyAll on its Thread object (join is
   * built on it); programs that wait on a Thread see that too. */
  if (t->jthread && t->jthread->monitor) {
    DrMonitor *m = t->jthread->monitor;
    while (m->nwaiters > 0) {
      m->waiters[0]->notified_by = t->id;
      leave_wait_set(vm, m->waiters[0]);
    }
  }
  for (int i = 0; i < vm->nthreads; i++) {
    DrThread *u = vm->threads[i];
    if (u->state == DR_TS_JOINING && u->join_target == t) {
      u->state = DR_TS_RUNNABLE;
      vm->sched_gen++;
      u->deadline = INT64_MAX;
    }
  }
  for (int i = 0; i < vm->nthreads; i++) {
    if (vm->threads[i] != t) continue;
    memmove(&vm->threads[i], &vm->threads[i + 1], sizeof(DrThread *) * (size_t)(vm->nthreads - i - 1));
    vm->nthreads--;
    break;
  }
  if (vm->listeners) dr_emit_event(vm, &ev);
  t->nframes = 0;
  vm->ext_bytes -= stack_bytes(t);
  free(t->stack);
  free(t->frames);
  free(t->held);
  free(t->final_seen);
  t->final_seen = NULL;
  t->final_seen_len = 0;
  t->stack = NULL;
  t->frames = NULL;
  t->held = NULL;
  t->stack_slots = 0;
  t->frames_cap = 0;
  t->held_cap = 0;
  t->jthread = NULL; /* the Thread object may die now */
}

/* ------------------------------------------------------------ monitors */

static DrMonitor *monitor_of(DrVM *vm, DrObj *o) {
  if (o->monitor) return o->monitor;
  o->monitor = dr_xcalloc(1, sizeof(DrMonitor));
  /* a string constant's monitor outlives the run: drvm_reset drops it */
  if (o->flags & DR_OBJ_PERM) DR_PUSH(vm->snap.monitored, vm->snap.nmonitored, vm->snap.monitored_cap, o);
  return o->monitor;
}

static void emit_obj(DrVM *vm, DrEventKind kind, DrThread *t, DrObj *o) {
  if (!vm->listeners) return;
  DrEvent ev;
  dr_event_at(&ev, kind, t);
  ev.obj = o;
  ev.cls = o ? o->cls : NULL;
  dr_emit_event(vm, &ev);
}

static void held_push(DrThread *t, DrObj *o) {
  DrHeld h = {o, t->nframes};
  DR_PUSH(t->held, t->nheld, t->held_cap, h);
}

static int held_remove(DrThread *t, DrObj *o) {
  for (int i = t->nheld - 1; i >= 0; i--) {
    if (t->held[i].obj != o) continue;
    int depth = t->held[i].depth;
    memmove(&t->held[i], &t->held[i + 1], sizeof(DrHeld) * (size_t)(t->nheld - i - 1));
    t->nheld--;
    return depth;
  }
  return t->nframes;
}

bool dr_monitor_enter(DrVM *vm, DrThread *t, DrObj *o) {
  DrMonitor *m = monitor_of(vm, o);
  if (m->owner == t) {
    m->count++;
    return true;
  }
  ASSERT(!m->owner, "monitor granted while owned");
  m->owner = t;
  m->count = 1;
  t->state = DR_TS_RUNNABLE;
  t->monitor = NULL;
  vm->sched_gen++;
  held_push(t, o);
  emit_obj(vm, DR_EV_ACQUIRE, t, o);
  return true;
}

bool dr_monitor_exit(DrVM *vm, DrThread *t, DrObj *o) {
  DrMonitor *m = o->monitor;
  if (!m || m->owner != t) return dr_throw(vm, DR_WK_ILLEGAL_MONITOR, "current thread is not owner");
  if (--m->count == 0) {
    m->owner = NULL;
    vm->sched_gen++;
    held_remove(t, o);
    emit_obj(vm, DR_EV_RELEASE, t, o);
  }
  return true;
}

/* Takes t out of m's wait set; it must retake the monitor (BLOCKED). */
static void leave_wait_set(DrVM *vm, DrThread *t) {
  DrMonitor *m = t->monitor->monitor;
  for (int i = 0; i < m->nwaiters; i++) {
    if (m->waiters[i] != t) continue;
    memmove(&m->waiters[i], &m->waiters[i + 1], sizeof(DrThread *) * (size_t)(m->nwaiters - i - 1));
    m->nwaiters--;
    break;
  }
  t->state = DR_TS_BLOCKED;
  vm->sched_gen++;
  t->deadline = INT64_MAX;
}

/* A timed sleep, wait or join ran out (sched_point.c calls this). */
void dr_thread_timeout(DrVM *vm, DrThread *t) {
  vm->timeouts++;
  t->deadline = INT64_MAX;
  if (t->state == DR_TS_WAITING) leave_wait_set(vm, t);
  else if (t->state == DR_TS_SLEEPING || t->state == DR_TS_JOINING) t->state = DR_TS_RUNNABLE;
  vm->sched_gen++;
}

/* A spurious wake-up (--spurious-wakeups). */
void dr_thread_spurious_wake(DrVM *vm, DrThread *t) {
  (void)vm;
  if (t->state == DR_TS_WAITING) leave_wait_set(vm, t);
}

static bool block(DrVM *vm) {
  vm->blocked = true;
  return false;
}

/* The interrupt status lives in the Thread object, as in the JDK: it is
 * set before start and read after the end.  main has no Thread object
 * until currentThread() makes one, and nothing can interrupt it before. */
static bool is_interrupted(const DrVM *vm, const DrThread *t) {
  return t->jthread && ((DrInstance *)t->jthread)->fields[vm->thread_intr_slot].i;
}

static void set_interrupted(DrVM *vm, DrObj *jt, bool on) {
  if (jt) ((DrInstance *)jt)->fields[vm->thread_intr_slot].i = on;
}

static void emit_other(DrVM *vm, DrEventKind kind, DrThread *t, DrThread *other, int64_t arg);

static bool throw_interrupted(DrVM *vm, DrThread *t, const char *msg) {
  set_interrupted(vm, t->jthread, false);
  emit_other(vm, DR_EV_INTERRUPTED, t, t, 0);
  t->woken_by_interrupt = false;
  return dr_throw(vm, DR_WK_INTERRUPTED, msg ? "%s" : NULL, msg);
}

static bool owns(const DrThread *t, const DrObj *o) { return o->monitor && o->monitor->owner == t; }

static bool wait_for(DrVM *vm, DrObj *o, int64_t ms) {
  DrThread *t = vm->thread;
  if (t->resume == DR_RESUME_WAIT) {
    /* Picked again: the monitor is free, take back every hold. */
    DrMonitor *m = monitor_of(vm, o);
    t->resume = DR_RESUME_NONE;
    m->owner = t;
    m->count = t->wait_count;
    t->state = DR_TS_RUNNABLE;
    t->monitor = NULL;
    vm->sched_gen++;
    held_push(t, o);
    emit_obj(vm, DR_EV_WAKE, t, o);
    if (t->woken_by_interrupt) return throw_interrupted(vm, t, NULL);
    return true;
  }
  if (ms < 0) return dr_throw(vm, DR_WK_ILLEGAL_ARGUMENT, "timeout value is negative");
  if (!owns(t, o)) return dr_throw(vm, DR_WK_ILLEGAL_MONITOR, "current thread is not owner");
  if (is_interrupted(vm, t)) return throw_interrupted(vm, t, NULL);
  DrMonitor *m = o->monitor;
  t->wait_count = m->count;
  m->owner = NULL;
  vm->sched_gen++;
  m->count = 0;
  held_remove(t, o);
  DR_PUSH(m->waiters, m->nwaiters, m->waiters_cap, t);
  t->state = DR_TS_WAITING;
  t->monitor = o;
  vm->sched_gen++;
  t->resume = DR_RESUME_WAIT;
  t->notified_by = -1;
  set_deadline(vm, t, ms);
  if (vm->listeners) {
    DrEvent ev;
    dr_event_at(&ev, DR_EV_WAIT, t);
    ev.obj = o;
    ev.cls = o->cls;
    ev.arg = ms;
    dr_emit_event(vm, &ev);
  }
  return block(vm);
}

static bool object_wait(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  return wait_for(vm, args[0].ref, 0);
}

static bool object_wait_ms(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  return wait_for(vm, args[0].ref, args[1].j);
}

static bool notify(DrVM *vm, DrObj *o, bool all) {
  DrThread *t = vm->thread;
  if (!owns(t, o)) return dr_throw(vm, DR_WK_ILLEGAL_MONITOR, "current thread is not owner");
  DrMonitor *m = o->monitor;
  DrThread *woken = NULL;
  if (all) {
    while (m->nwaiters > 0) {
      m->waiters[0]->notified_by = t->id;
      leave_wait_set(vm, m->waiters[0]);
    }
  } else if (m->nwaiters > 0) {
    int i = m->nwaiters > 1 ? vm->sched->pick_waiter(vm->sched, vm, o, m->waiters, m->nwaiters) : 0;
    if (i < 0 || i >= m->nwaiters) i = 0;
    woken = m->waiters[i];
    woken->notified_by = t->id;
    leave_wait_set(vm, woken);
  }
  if (vm->listeners) {
    DrEvent ev;
    dr_event_at(&ev, all ? DR_EV_NOTIFY_ALL : DR_EV_NOTIFY, t);
    ev.obj = o;
    ev.cls = o->cls;
    ev.other = woken; /* hosts see whom a notify woke (timelines draw the edge) */
    dr_emit_event(vm, &ev);
  }
  return true;
}

static bool object_notify(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  return notify(vm, args[0].ref, false);
}

static bool object_notify_all(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  return notify(vm, args[0].ref, true);
}

/* ------------------------------------------------------------- threads */

static void emit_other(DrVM *vm, DrEventKind kind, DrThread *t, DrThread *other, int64_t arg) {
  if (!vm->listeners) return;
  DrEvent ev;
  dr_event_at(&ev, kind, t);
  ev.other = other;
  ev.obj = other ? other->jthread : NULL;
  ev.cls = ev.obj ? ev.obj->cls : NULL;
  ev.arg = arg;
  dr_emit_event(vm, &ev);
}

static bool thread_start(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  DrObj *jt = args[0].ref;
  DrValue *tid = dr_field(jt, "tid");
  if (tid->i != 0) return dr_throw(vm, DR_WK_ILLEGAL_THREAD_STATE, NULL);
  if (vm->esc_on) dr_esc_publish(vm, jt); /* and its Runnable: the new thread reaches both */
  DrMethod *run = jt->cls->vtable[vm->thread_run->vtable_index];
  DrThread *t = dr_thread_new(vm);
  tid->i = t->id + 1;
  t->jthread = jt;
  DrValue *regs = t->stack;
  if (!dr_thread_reserve(vm, t, &regs, (size_t)run->nregs)) return false;
  DrFrame *f = dr_frame_push(t);
  f->method = run;
  f->ip = run->code;
  f->regs = regs;
  f->ret_reg = 0;
  regs[0].ref = jt;
  emit_other(vm, DR_EV_FORK, vm->thread, t, 0);
  if (dr_listening(vm, DR_EV_CALL) && !(run->owner->flags & DR_CLS_BUILTIN)) {
    /* a Runnable's run() is entered from the library's Thread.run: that
     * call is reported by the interpreter, like any library-to-program call */
    DrEvent ev;
    dr_event_at(&ev, DR_EV_CALL, t);
    ev.callee = run;
    ev.obj = jt;
    ev.cls = jt->cls;
    dr_emit_event(vm, &ev);
  }
  return true;
}

static bool join_for(DrVM *vm, DrObj *jt, int64_t ms) {
  DrThread *t = vm->thread;
  DrThread *target = thread_of(vm, jt);
  if (t->resume == DR_RESUME_WAIT) {
    /* Joined while holding the Thread object's monitor: the JDK's join
     * waits on that object, releasing it, and so did we (below). */
    if (!wait_for(vm, jt, ms)) return false;
    if (target && target->state == DR_TS_ENDED) {
      emit_other(vm, DR_EV_JOIN, t, target, ms);
      return true;
    }
    if (ms > 0) return true;     /* timed out */
    return wait_for(vm, jt, 0); /* a notifyAll by the program: still alive, wait on */
  }
  if (t->resume == DR_RESUME_JOIN) {
    t->resume = DR_RESUME_NONE;
    t->join_target = NULL;
    if (t->woken_by_interrupt) return throw_interrupted(vm, t, NULL);
    if (target && target->state == DR_TS_ENDED) emit_other(vm, DR_EV_JOIN, t, target, ms);
    return true;
  }
  if (ms < 0) return dr_throw(vm, DR_WK_ILLEGAL_ARGUMENT, "timeout value is negative");
  /* the JDK waits only while the target is alive: joining an ended (or
   * unstarted) thread returns even with the interrupt status set */
  if (!target || target->state == DR_TS_ENDED) {
    if (target) emit_other(vm, DR_EV_JOIN, t, target, ms);
    return true;
  }
  if (is_interrupted(vm, t)) return throw_interrupted(vm, t, NULL);
  if (owns(t, jt)) return wait_for(vm, jt, ms);
  t->state = DR_TS_JOINING;
  vm->sched_gen++;
  t->join_target = target;
  t->resume = DR_RESUME_JOIN;
  set_deadline(vm, t, ms);
  return block(vm);
}

static bool thread_join(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  return join_for(vm, args[0].ref, 0);
}

static bool thread_join_ms(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  return join_for(vm, args[0].ref, args[1].j);
}

static bool thread_sleep(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  DrThread *t = vm->thread;
  int64_t ms = args[0].j;
  if (t->resume == DR_RESUME_SLEEP) {
    t->resume = DR_RESUME_NONE;
    if (t->woken_by_interrupt) return throw_interrupted(vm, t, "sleep interrupted");
    return true;
  }
  if (ms < 0) return dr_throw(vm, DR_WK_ILLEGAL_ARGUMENT, "timeout value is negative");
  if (is_interrupted(vm, t)) return throw_interrupted(vm, t, "sleep interrupted");
  emit_other(vm, DR_EV_SLEEP, t, NULL, ms);
  if (ms == 0) return true;
  t->state = DR_TS_SLEEPING;
  vm->sched_gen++;
  t->resume = DR_RESUME_SLEEP;
  set_deadline(vm, t, ms);
  return block(vm);
}

/* The scheduler already had its say at the point before this event. */
static bool thread_yield(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)args;
  (void)ret;
  emit_other(vm, DR_EV_YIELD, vm->thread, NULL, 0);
  return true;
}

static bool thread_interrupt(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  set_interrupted(vm, args[0].ref, true);
  DrThread *target = thread_of(vm, args[0].ref);
  if (!target || target->state == DR_TS_ENDED) {
    emit_other(vm, DR_EV_INTERRUPT, vm->thread, target, 0);
    return true;
  }
  switch (target->state) {
  case DR_TS_SLEEPING:
  case DR_TS_JOINING:
    target->state = DR_TS_RUNNABLE;
    vm->sched_gen++;
    target->deadline = INT64_MAX;
    target->woken_by_interrupt = true;
    break;
  case DR_TS_WAITING:
    leave_wait_set(vm, target);
    target->woken_by_interrupt = true;
    break;
  default: break;
  }
  emit_other(vm, DR_EV_INTERRUPT, vm->thread, target, 0);
  return true;
}

static bool thread_is_interrupted(DrVM *vm, DrValue *args, DrValue *ret) {
  ret->i = ((DrInstance *)args[0].ref)->fields[vm->thread_intr_slot].i != 0;
  if (ret->i) emit_other(vm, DR_EV_INTERRUPTED, vm->thread, thread_of(vm, args[0].ref), 0);
  return true;
}

static bool thread_interrupted(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)args;
  ret->i = is_interrupted(vm, vm->thread);
  set_interrupted(vm, vm->thread->jthread, false);
  if (ret->i) emit_other(vm, DR_EV_INTERRUPTED, vm->thread, vm->thread, 0);
  return true;
}

/* Seeing a thread dead synchronizes with its end (JLS 17.4.4), as a join
 * does: reported as one. */
static bool thread_is_alive(DrVM *vm, DrValue *args, DrValue *ret) {
  DrThread *t = thread_of(vm, args[0].ref);
  ret->i = t && t->state != DR_TS_ENDED;
  if (t && !ret->i) emit_other(vm, DR_EV_JOIN, vm->thread, t, -1);
  return true;
}

/* Only the caller's own holds: no other thread's state is read. */
static bool thread_holds_lock(DrVM *vm, DrValue *args, DrValue *ret) {
  if (!args[0].ref) return dr_throw_npe(vm);
  ret->i = owns(vm->thread, args[0].ref);
  return true;
}

static bool thread_terminated(DrVM *vm, DrValue *args, DrValue *ret) {
  DrThread *t = thread_of(vm, args[0].ref);
  ret->i = t && t->state == DR_TS_ENDED;
  return true;
}

static bool thread_current(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)args;
  DrThread *t = vm->thread;
  if (!t->jthread) {
    /* main's Thread is made on first use, without a constructor, so it
     * takes no "Thread-N" number (as in the JDK). */
    DrObj *jt = dr_new_instance(vm, vm->known[DR_WK_THREAD]);
    if (!jt) return false;
    t->jthread = jt;
    dr_field(jt, "tid")->i = t->id + 1;
    DrString *name = dr_new_string_utf8(vm, t->id == 0 ? "main" : "?");
    if (!name) return false;
    dr_field(jt, "name")->ref = &name->hdr;
  }
  ret->ref = t->jthread;
  return true;
}

#define THREAD_NATIVES(X)                                                     \
  X("java.lang.Object", "wait()", object_wait, DR_EV_WAIT)                    \
  X("java.lang.Object", "wait(long)", object_wait_ms, DR_EV_WAIT)             \
  X("java.lang.Object", "notify()", object_notify, DR_EV_NOTIFY)              \
  X("java.lang.Object", "notifyAll()", object_notify_all, DR_EV_NOTIFY_ALL)   \
  X("java.lang.Thread", "start()", thread_start, DR_EV_FORK)                  \
  X("java.lang.Thread", "join()", thread_join, DR_EV_JOIN)                    \
  X("java.lang.Thread", "join(long)", thread_join_ms, DR_EV_JOIN)             \
  X("java.lang.Thread", "sleep(long)", thread_sleep, DR_EV_SLEEP)             \
  X("java.lang.Thread", "yield()", thread_yield, DR_EV_YIELD)                 \
  X("java.lang.Thread", "interrupt()", thread_interrupt, DR_EV_INTERRUPT)     \
  X("java.lang.Thread", "isInterrupted()", thread_is_interrupted, DR_EV_INTERRUPTED) \
  X("java.lang.Thread", "interrupted()", thread_interrupted, DR_EV_INTERRUPTED) \
  X("java.lang.Thread", "isAlive()", thread_is_alive, DR_EV_JOIN)             \
  X("java.lang.Thread", "terminated()", thread_terminated, -1)                \
  X("java.lang.Thread", "holdsLock(Object)", thread_holds_lock, -1)           \
  X("java.lang.Thread", "currentThread()", thread_current, -1)

static const struct {
  const char *cls, *desc;
  DrNativeFn fn;
  int event;
} thread_natives[] = {
#define DR_ROW(cls, desc, fn, ev) {cls, desc, fn, ev},
    THREAD_NATIVES(DR_ROW)
#undef DR_ROW
};

DrNativeFn dr_natives_thread_lookup(const char *cls, const char *desc, int *sync_event) {
  for (size_t i = 0; i < DR_ARRAY_LEN(thread_natives); i++) {
    if (strcmp(thread_natives[i].desc, desc) == 0 && strcmp(thread_natives[i].cls, cls) == 0) {
      *sync_event = thread_natives[i].event;
      return thread_natives[i].fn;
    }
  }
  return NULL;
}
