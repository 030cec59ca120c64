/* include/drvm.h: events and decisions as a host sees them, a host's
 * own scheduler, and inspection of threads, values and the detector. */
#include <string.h>

#include "api.h"
#include "trace.h"

/* ------------------------------------------------------------ events */

void dr_api_event(DrVM *vm, const DrEvent *e, DrvmEvent *out) {
  memset(out, 0, sizeof *out);
  out->kind = (DrvmEventKind)e->kind;
  out->thread = e->thread ? e->thread->id : -1;
  out->other = e->other ? e->other->id : -1;
  if (e->kind == DR_EV_WAKE && e->thread) out->other = e->thread->notified_by;
  out->index = -1;
  out->line = -1;
  DrClass *c = e->cls;
  out->cls = c ? c->name : NULL;
  if (c && (c->flags & (DR_CLS_ARRAY | DR_CLS_BUILTIN))) { /* as reports and print name them: int[], Object */
    if (!c->host_name) {
      char buf[256];
      c->host_name = dr_strdup(dr_class_display_name(c, buf, sizeof buf));
    }
    out->cls = c->host_name;
  }
  out->is_static = e->is_static;
  /* a start not yet done names the Thread object: the child has no id yet */
  if (e->obj && ((e->kind != DR_EV_FORK && e->kind != DR_EV_JOIN) || !e->other)) out->object = e->obj->serial;
  bool access = (dr_event_info[e->kind].flags & DR_EVF_ACCESS) || e->kind == DR_EV_VREAD || e->kind == DR_EV_VWRITE;
  if (access && c && e->field >= 0) {
    if (e->is_static) out->field = e->field < c->nstatics ? c->static_names[e->field] : NULL;
    else if (c->flags & DR_CLS_ARRAY) out->index = e->field;
    else out->field = e->field < c->nfields ? c->field_names[e->field] : NULL;
  }
  if (e->method) {
    out->method_class = e->method->owner->name;
    out->method = e->method->name;
    out->line = dr_method_line(e->method, e->pc);
    out->file = dr_method_file(vm, e->method);
  } else {
    out->file = vm->source_name;
  }
  if (e->callee) out->callee = e->callee->desc;
  out->arg = e->arg;
}

static const char *verb(DrvmEventKind k) {
  switch (k) {
  case DRVM_EV_READ: return "read";
  case DRVM_EV_WRITE: return "write";
  case DRVM_EV_VREAD: return "read volatile";
  case DRVM_EV_VWRITE: return "write volatile";
  case DRVM_EV_ACQUIRE: return "lock";
  case DRVM_EV_RELEASE: return "unlock";
  case DRVM_EV_WAIT: return "wait on";
  case DRVM_EV_WAKE: return "wake up in";
  case DRVM_EV_NOTIFY: return "notify";
  case DRVM_EV_NOTIFY_ALL: return "notifyAll";
  case DRVM_EV_FORK: return "start";
  case DRVM_EV_JOIN: return "join";
  case DRVM_EV_END: return "end";
  case DRVM_EV_CALL: return "call";
  case DRVM_EV_RETURN: return "return from";
  case DRVM_EV_NEW: return "create";
  default: return drvm_event_word(k);
  }
}

const char *drvm_event_text(const DrvmEvent *e, char *buf, size_t size) {
  DrBuf b = {0};
  dr_buf_append_str(&b, verb(e->kind));
  bool on_monitor = e->kind == DRVM_EV_WAIT || e->kind == DRVM_EV_WAKE || e->kind == DRVM_EV_NOTIFY ||
                    e->kind == DRVM_EV_NOTIFY_ALL;
  if (e->kind == DRVM_EV_FORK || e->kind == DRVM_EV_JOIN || e->kind == DRVM_EV_INTERRUPT) {
    if (e->other >= 0) dr_buf_printf(&b, " T%d", e->other);
    else if (e->object && e->cls) dr_buf_printf(&b, " %s#%u", e->cls, e->object);
  } else if (e->kind == DRVM_EV_SLEEP) {
    if (e->arg > 0) dr_buf_printf(&b, " %lld ms", (long long)e->arg);
  } else if (e->callee && !(on_monitor && e->object)) {
    dr_buf_printf(&b, " %s", e->callee);
  } else if (e->cls) {
    dr_buf_printf(&b, " %s", e->cls);
    if (e->object) dr_buf_printf(&b, "#%u", e->object);
    if (e->field) dr_buf_printf(&b, ".%s", e->field);
    if (e->index >= 0) dr_buf_printf(&b, "[%d]", e->index);
  }
  if (e->line >= 0) dr_buf_printf(&b, " at %s:%d", e->file, e->line);
  if (e->method) dr_buf_printf(&b, " (%s.%s)", e->method_class, e->method);
  snprintf(buf, size, "%s", b.data ? b.data : "");
  free(b.data);
  return buf;
}

/* ------------------------------------------------------------ decisions */

void dr_api_build_decision(DrVM *vm, DrThread *suggested) {
  DrApi *a = vm->api;
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  if (n > a->choices_cap) {
    a->choices_cap = n * 2;
    a->choices = dr_xrealloc(a->choices, sizeof *a->choices * (size_t)a->choices_cap);
    a->choice_events = dr_xrealloc(a->choice_events, sizeof *a->choice_events * (size_t)a->choices_cap);
  }
  for (int i = 0; i < n; i++) {
    DrEvent ev;
    dr_sched_pending(vm, en[i], &ev);
    dr_api_event(vm, &ev, &a->choice_events[i]);
    a->choices[i].thread = en[i]->id;
    a->choices[i].next = &a->choice_events[i];
  }
  DrvmDecision *d = &a->decision;
  d->reason = (DrvmDecideReason)vm->suspend_reason;
  d->current = vm->thread ? vm->thread->id : -1;
  d->suggested = suggested ? suggested->id : -1;
  d->nchoices = n;
  d->choices = a->choices;
  d->number = vm->sched_decisions - 1;
}

/* ------------------------------------------------------------ a host's scheduler */

typedef struct {
  DrScheduler base;
  DrVM *vm;
} HostSched;

static DrThread *host_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  DrApi *a = vm->api;
  (void)s;
  DrThread *saved = vm->thread;
  vm->thread = cur;
  int keep = vm->suspend_reason;
  vm->suspend_reason = (int)reason;
  dr_api_build_decision(vm, NULL);
  vm->suspend_reason = keep;
  vm->thread = saved;
  vm->in_listener = true;
  int id = a->host.pick(a->host_user, vm, &a->decision);
  vm->in_listener = false;
  for (int i = 0; i < a->decision.nchoices; i++)
    if (a->decision.choices[i].thread == id) return vm->all_threads[id];
  /* the host's bug ends the run, with the reason, not the process */
  dr_flush_output(vm);
  fprintf(vm->err_file, "drvm: host scheduler %s picked T%d, which cannot run now; the run stops\n", s->name, id);
  dr_api_fail(vm, "host scheduler %s picked T%d, which cannot run now", s->name, id);
  a->run_failed = true;
  dr_halt(vm, DR_EXIT_USAGE, DRVM_OUTCOME_ERROR);
  return vm->all_threads[a->decision.choices[0].thread];
}

static int host_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  DrApi *a = vm->api;
  (void)s;
  (void)lock;
  if (!a->host.pick_waiter) return 0;
  int ids[64], m = n < 64 ? n : 64;
  for (int i = 0; i < m; i++) ids[i] = waiters[i]->id;
  vm->in_listener = true;
  int k = a->host.pick_waiter(a->host_user, vm, ids, m);
  vm->in_listener = false;
  return k >= 0 && k < m ? k : 0;
}

static uint64_t host_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  DrApi *a = vm->api;
  (void)s;
  if (!a->host.quantum) return 0;
  vm->in_listener = true;
  uint64_t q = a->host.quantum(a->host_user, vm, t->id);
  vm->in_listener = false;
  return q;
}

static void host_destroy(DrScheduler *s) { free(s); }

DrScheduler *dr_api_host_sched_new(DrVM *vm) {
  HostSched *h = dr_xcalloc(1, sizeof *h);
  h->vm = vm;
  h->base.name = vm->api->host.name ? vm->api->host.name : "host";
  h->base.points = vm->api->host.points & (DR_SP_ACCESS | DR_SP_CALL);
  h->base.pick = host_pick;
  h->base.pick_waiter = host_pick_waiter;
  h->base.quantum = host_quantum;
  h->base.destroy = host_destroy;
  return &h->base;
}

/* ------------------------------------------------------------ threads */

int drvm_thread_count(const DrVM *vm) { return vm->nall_threads; }

int drvm_current_thread(const DrVM *vm) { return vm->thread && vm->thread->state != DR_TS_ENDED ? vm->thread->id : -1; }

static DrThread *thread_of(DrVM *vm, int id) {
  if (id < 0 || id >= vm->nall_threads) {
    dr_api_fail(vm, "no thread T%d", id);
    return NULL;
  }
  return vm->all_threads[id];
}

static void waiting_for(DrVM *vm, const DrThread *t, DrvmThreadInfo *out) {
  out->lock_owner = -1;
  if ((t->state == DR_TS_BLOCKED || t->state == DR_TS_WAITING) && t->monitor) {
    dr_lock_name(vm, t->monitor, out->waiting_for, sizeof out->waiting_for);
    const DrMonitor *m = t->monitor->monitor;
    if (t->state == DR_TS_BLOCKED && m && m->owner && m->owner != t) out->lock_owner = m->owner->id;
  } else if (t->state == DR_TS_BLOCKED && t->init_class) {
    snprintf(out->waiting_for, sizeof out->waiting_for, "%s (initialization)", t->init_class->name);
  } else if (t->state == DR_TS_JOINING && t->join_target) {
    snprintf(out->waiting_for, sizeof out->waiting_for, "T%d", t->join_target->id);
  }
}

bool drvm_thread_info(DrVM *vm, int id, DrvmThreadInfo *out) {
  DrThread *t = thread_of(vm, id);
  if (!t) return false;
  memset(out, 0, sizeof *out);
  out->id = id;
  const char *name = dr_thread_name(vm, t, out->name, sizeof out->name);
  if (name != out->name) snprintf(out->name, sizeof out->name, "%s", name); /* an ended thread's kept name */
  out->state = (DrvmThreadState)t->state;
  out->enabled = t->state != DR_TS_ENDED && dr_sched_is_enabled(vm, t);
  out->nframes = t->nframes;
  out->nlocks = t->nheld;
  waiting_for(vm, t, out);
  DrEvent ev;
  dr_sched_pending(vm, t, &ev);
  dr_api_event(vm, &ev, &out->next);
  /* about to lock a monitor someone else holds: who */
  const DrMonitor *m = ev.kind == DR_EV_ACQUIRE && ev.obj ? ev.obj->monitor : NULL;
  if (m && m->owner && m->owner != t) out->lock_owner = m->owner->id;
  return true;
}

bool drvm_thread_frame(DrVM *vm, int id, int depth, DrvmFrame *out) {
  DrThread *t = thread_of(vm, id);
  if (!t) return false;
  if (depth < 0 || depth >= t->nframes) return dr_api_fail(vm, "T%d has no frame %d", id, depth);
  const DrFrame *f = &t->frames[t->nframes - 1 - depth];
  out->cls = f->method->owner->name;
  out->method = f->method->name;
  out->file = dr_method_file(vm, f->method);
  out->line = f->ip && !(f->method->flags & DR_M_NATIVE) ? dr_method_line(f->method, (uint32_t)(f->ip - f->method->code)) : -1;
  return true;
}

bool drvm_thread_lock(DrVM *vm, int id, int i, char *buf, size_t size) {
  DrThread *t = thread_of(vm, id);
  if (!t) return false;
  if (i < 0 || i >= t->nheld) return dr_api_fail(vm, "T%d holds no lock %d", id, i);
  dr_lock_name(vm, t->held[i].obj, buf, size);
  return true;
}
