/* The exploration's search: a stack of nodes, one per decision of the
 * current execution, each with its branch (the thread that ran), its
 * sleep set and what is left to explore there (a wakeup tree for optimal
 * DPOR, a backtrack set for source DPOR, every enabled thread for none).
 * An execution replays the stack's branches up to the node where a new
 * branch begins, then goes on as the wakeup tree says, then freely
 * (preferring the thread that ran last: no preemption).  At its end its
 * races are reversed into new branches and the deepest node with
 * something left becomes the next execution's new branch.  The engine is
 * a scheduler (pick, pick_waiter) and a listener (who made each object)
 * of each execution. */
#include <string.h>

#include "explore.h"

typedef struct {
  int root;                 /* optimal: the wakeup tree here; its first child is the branch */
  XEv *sleep;               /* sleeping threads and their next steps: inherited, then explored branches */
  int nsleep, sleep_cap;
  int *todo;                /* source, none: branches left to explore */
  int ntodo, todo_cap;
  int branch;               /* the thread that runs at this decision */
  int wchoice, wcount;      /* a notify with several waiters: which one it wakes, of how many */
  int preempts;             /* preemptions before this decision */
  bool preempting;          /* the branch is one */
  int prev;                 /* the thread that ran the step before, -1 */
  bool prev_enabled;        /* it could have gone on (and did not yield) */
  bool prev_yielded;        /* its step was Thread.yield() */
  bool fixed;               /* a decision of the given prefix */
} XNode;

/* A decision of the given prefix, as a recording answered it. */
typedef struct {
  char type;                /* 'P' a pick, 'W' a notify's waiter, 'Q' a quantum */
  int64_t value;
} XAnswer;

struct DrExplorer {
  DrvmPor por;
  int bound;                /* preemptions, -1: none */
  unsigned points;
  XExec x;
  XTree tree;
  int root0;
  XSeq v;
  XNode *stack;
  int depth, cap;
  bool done;
  /* the execution */
  int pos;                  /* steps so far (the decisions once a thread was started) */
  uint64_t decisions;       /* decisions so far (the VM's count) */
  bool alone;               /* this decision is main's before any thread starts: not a step */
  bool aborted, blocked;
  bool bounded;             /* the preemption bound stopped this execution */
  bool planned;             /* this point's decision is made (plan_point) */
  int plan_tid;
  bool spurious;            /* waiting threads may wake without notify */
  bool *woke;               /* by thread: it woke by itself in this execution */
  int woke_cap;
  XEv pending;              /* the step under way, completed at the next decision */
  bool have_pending;
  uint64_t prints_seen;
  uint64_t inits_seen;     /* vm->inits when the step under way began */
  uint64_t timeouts_seen;
  /* objects by who made them: the thread and its allocation count */
  const DrObj **okey;
  uint64_t *oval;
  int on, ocap;
  uint32_t *allocs;
  int allocs_cap;
  /* the given prefix: its answers in the order they were asked, and
   * how many picks it has (the first nforced decisions are fixed) */
  XAnswer *pre;
  int npre, pre_cap, precur;
  int nforced;
  DrvmExploreStats st;
};

typedef struct {
  DrScheduler base;
  DrExplorer *x;
} XSched;

typedef struct {
  DrListener base;
  DrExplorer *x;
} XListen;

/* ------------------------------------------------------------ names */

static uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a * 0x9E3779B97F4A7C15u ^ (b + 0x7F4A7C159E3779B9u + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return (z ^ (z >> 31)) | 1;
}

static uint32_t ptr_hash(const void *p, int cap) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15u;
  return (uint32_t)(h >> 32) & (uint32_t)(cap - 1);
}

static void omap_put(DrExplorer *x, const DrObj *o, uint64_t key);

static void omap_grow(DrExplorer *x) {
  const DrObj **ok = x->okey;
  uint64_t *ov = x->oval;
  int oc = x->ocap;
  x->ocap = oc ? oc * 2 : 1024;
  x->okey = dr_xcalloc((size_t)x->ocap, sizeof *x->okey);
  x->oval = dr_xcalloc((size_t)x->ocap, sizeof *x->oval);
  x->on = 0;
  for (int i = 0; i < oc; i++)
    if (ok[i]) omap_put(x, ok[i], ov[i]);
  free(ok);
  free(ov);
}

static void omap_put(DrExplorer *x, const DrObj *o, uint64_t key) {
  if (x->on * 2 >= x->ocap) omap_grow(x);
  for (uint32_t i = ptr_hash(o, x->ocap);; i = (i + 1) & (uint32_t)(x->ocap - 1)) {
    if (!x->okey[i] || x->okey[i] == o) {
      if (!x->okey[i]) x->on++;
      x->okey[i] = o;
      x->oval[i] = key;
      return;
    }
  }
}

/* An object's name: made in this execution, (thread, its n-th
 * allocation); made before (the program's constants) or by the library
 * without an event, (class, serial) -- the same in every execution. */
static uint64_t obj_key(const DrExplorer *x, const DrObj *o) {
  if (x->ocap)
    for (uint32_t i = ptr_hash(o, x->ocap); x->okey[i]; i = (i + 1) & (uint32_t)(x->ocap - 1))
      if (x->okey[i] == o) return x->oval[i];
  return (1ull << 63) | ((uint64_t)(uint32_t)o->cls->id << 32) | o->serial;
}

static void listen_new(DrListener *self, DrVM *vm, const DrEvent *e) {
  (void)vm;
  DrExplorer *x = ((XListen *)self)->x;
  if (e->kind != DR_EV_NEW || !e->obj) return;
  int t = e->thread->id;
  if (t >= x->allocs_cap) {
    int cap = x->allocs_cap ? x->allocs_cap : 8;
    while (cap <= t) cap *= 2;
    x->allocs = dr_xrealloc(x->allocs, sizeof *x->allocs * (size_t)cap);
    memset(x->allocs + x->allocs_cap, 0, sizeof *x->allocs * (size_t)(cap - x->allocs_cap));
    x->allocs_cap = cap;
  }
  omap_put(x, e->obj, ((uint64_t)(t + 1) << 40) | ++x->allocs[t]);
}

static void listen_finish(DrListener *self, DrVM *vm) {
  (void)vm;
  free(self);
}

/* ------------------------------------------------------------ steps */

static uint64_t access_key(const DrExplorer *x, const DrEvent *e) {
  if (e->is_static) return mix(0x5747, ((uint64_t)(uint32_t)e->cls->id << 32) | (uint32_t)e->field);
  uint64_t o = obj_key(x, e->obj);
  if (e->obj->cls->flags & DR_CLS_ARRAY) return mix(o ^ 0xA77A, (uint32_t)e->field);
  return mix(o, (uint32_t)e->field + 1);
}

/* A class's init state, as a location. */
static uint64_t init_key(const DrClass *c) { return mix(0x1417, (uint64_t)(uint32_t)c->id); }

/* The class of e's static access is being initialized, by t or (mine
 * false) by another thread. */
static bool in_init(const DrEvent *e, const DrThread *t, bool mine) {
  return e->is_static && e->cls && e->cls->init_state == DR_INIT_RUNNING && (e->cls->init_thread == t) == mine;
}

/* What thread t's pending step is, for dependence. */
static XEv step_of(DrExplorer *x, DrVM *vm, DrThread *t, DrEvent *e) {
  dr_sched_pending(vm, t, e);
  XEv ev = {t->id, (uint8_t)e->kind, XOP_LOCAL, false, false, 0, e->other ? e->other->id : -1, XOP_LOCAL, 0};
  /* a thread not started yet gets the next id when it is */
  if (e->kind == DR_EV_FORK && !e->other) ev.other = vm->nall_threads;
  switch (e->kind) {
  case DR_EV_READ:
  case DR_EV_VREAD:
  case DR_EV_WRITE:
  case DR_EV_VWRITE:
    if (!e->obj && !e->is_static) break; /* a NullPointerException: nothing shared */
    /* a class's initializer on its own statics: no other thread can touch
     * them before it ends (they wait for it), so they are ordered by the
     * initialization itself (init_op), whose start is the race */
    if (in_init(e, t, true)) break;
    ev.op = e->kind == DR_EV_READ || e->kind == DR_EV_VREAD ? XOP_READ : XOP_WRITE;
    ev.loc = access_key(x, e);
    if (e->is_static && e->cls) ev.init_op = XOP_READ, ev.init_loc = init_key(e->cls);
    break;
  case DR_EV_ACQUIRE:
  case DR_EV_WAKE:
  case DR_EV_RELEASE:
  case DR_EV_WAIT:
  case DR_EV_NOTIFY:
  case DR_EV_NOTIFY_ALL:
    if (!e->obj) break;
    ev.op = e->kind == DR_EV_ACQUIRE || e->kind == DR_EV_WAKE    ? XOP_TAKE
            : e->kind == DR_EV_RELEASE || e->kind == DR_EV_WAIT ? XOP_RELEASE
                                                                 : XOP_NOTIFY;
    ev.loc = mix(obj_key(x, e->obj), 0xB0B);
    break;
  case DR_EV_INTERRUPT:
    if (ev.other < 0) break;
    ev.op = XOP_WRITE;
    ev.loc = mix(0x1A7, (uint64_t)ev.other);
    break;
  default: break;
  }
  dr_xexec_threads(&x->x, t->id);
  ev.fence = x->x.fence_next[t->id];
  x->x.fence_next[t->id] = false;
  return ev;
}

/* The step under way is complete: what it printed is known now. */
static void step_done(DrExplorer *x, DrVM *vm) {
  if (!x->have_pending) return;
  x->pending.prints = vm->prints != x->prints_seen;
  x->prints_seen = vm->prints;
  if (vm->inits != x->inits_seen && vm->init_last) {
    /* it started a class's initialization: whoever does decides */
    x->pending.init_op = XOP_WRITE;
    x->pending.init_loc = init_key(vm->init_last);
  }
  x->inits_seen = vm->inits;
  int d = dr_xexec_add(&x->x, &x->pending);
  x->have_pending = false;
  /* the branch's node in the wakeup tree describes the step as it ran
   * (whether it printed is known only now) */
  if (x->por == DRVM_POR_OPTIMAL && d < x->depth) {
    int c = x->tree.nodes[x->stack[d].root].child;
    if (c >= 0 && x->tree.nodes[c].tid == x->pending.tid) x->tree.nodes[c].ev = x->pending;
  }
}

/* A notify, notifyAll or interrupt enables the threads it wakes: their
 * next steps follow it (a notify among several waiters: pick_waiter). */
static void enables(DrExplorer *x, int tid, int step) {
  dr_xexec_threads(&x->x, tid);
  x->x.enabler[tid] = step;
}

static void note_enables(DrExplorer *x, const DrEvent *e, int step) {
  if ((e->kind == DR_EV_NOTIFY || e->kind == DR_EV_NOTIFY_ALL) && e->obj && e->obj->monitor) {
    const DrMonitor *m = e->obj->monitor;
    if (e->kind == DR_EV_NOTIFY_ALL || m->nwaiters == 1)
      for (int i = 0; i < m->nwaiters; i++) enables(x, m->waiters[i]->id, step);
  }
  if (e->kind == DR_EV_INTERRUPT && e->other) {
    DrThreadState s = e->other->state;
    if (s == DR_TS_WAITING || s == DR_TS_SLEEPING || s == DR_TS_JOINING) enables(x, e->other->id, step);
  }
}

/* ------------------------------------------------------------ choosing */

static bool asleep(const XNode *n, int tid) {
  for (int i = 0; i < n->nsleep; i++)
    if (n->sleep[i].tid == tid) return true;
  return false;
}

static bool preempts(const XNode *n, int tid) { return n->prev >= 0 && tid != n->prev && n->prev_enabled; }

static bool over_bound(const DrExplorer *x, const XNode *n, int tid) {
  return x->bound >= 0 && n->preempts + (preempts(n, tid) ? 1 : 0) > x->bound;
}

static DrThread *thread_by_id(DrVM *vm, int tid) {
  return tid >= 0 && tid < vm->nall_threads ? vm->all_threads[tid] : NULL;
}

static bool can_run(DrVM *vm, int tid) {
  DrThread *t = thread_by_id(vm, tid);
  return t && t->state != DR_TS_ENDED && dr_sched_is_enabled(vm, t);
}

/* With spurious wake-ups, a waiting thread whose monitor is free may wake
 * (and retake it) at any point: a step of its own, at most once per
 * thread in an execution. */
static bool may_wake(const DrExplorer *x, DrVM *vm, int tid) {
  DrThread *t = thread_by_id(vm, tid);
  if (!x->spurious || !t || t->state != DR_TS_WAITING || !t->monitor) return false;
  /* once per thread and execution: a wait() in a loop could otherwise
   * wake and wait again forever, and so would the search */
  if (tid < x->woke_cap && x->woke[tid]) return false;
  const DrMonitor *m = t->monitor->monitor;
  return !m || !m->owner;
}

/* Whether t, chosen, would only find that it cannot go on: a join of a
 * live thread, or a lock another thread holds.  Such a step changes
 * nothing, so it is taken only when no thread can do anything else (a
 * deadlock): otherwise one trace would be run once with the futile step
 * and once without. */
static bool futile(DrVM *vm, DrThread *t) {
  DrEventKind k = dr_sched_pending_kind(vm, t);
  bool access = k == DR_EV_READ || k == DR_EV_WRITE || k == DR_EV_VREAD || k == DR_EV_VWRITE;
  if (k != DR_EV_ACQUIRE && k != DR_EV_JOIN && !access) return false;
  DrEvent e;
  dr_sched_pending(vm, t, &e);
  if (k == DR_EV_JOIN) return e.other && e.other->state != DR_TS_ENDED;
  /* a static of a class another thread is initializing: it would wait */
  if (access) return in_init(&e, t, false);
  const DrMonitor *m = e.obj ? e.obj->monitor : NULL;
  return m && m->owner && m->owner != t;
}

static bool able(DrVM *vm, int tid) { return can_run(vm, tid) && !futile(vm, thread_by_id(vm, tid)); }

/* A new node's branch when nothing is planned: the thread that ran last
 * if it can go on, else the first in start order; asleep ones are
 * redundant.  -1: all asleep (blocked); -2: only a preemption is left
 * and the bound forbids it. */
static int free_choice(DrExplorer *x, DrVM *vm, const XNode *n) {
  bool go_on = n->prev >= 0 && able(vm, n->prev) && !asleep(n, n->prev);
  if (go_on && !n->prev_yielded) return n->prev;
  DrThread *const *en;
  int nen = dr_sched_enabled(vm, &en);
  int futile_one = -1;
  bool any_able = false;
  for (int i = 0; i < nen; i++) {
    int tid = en[i]->id;
    if (futile(vm, en[i])) {
      if (futile_one < 0) futile_one = tid;
      continue;
    }
    any_able = true;
    if (asleep(n, tid) || (go_on && tid == n->prev)) continue; /* after a yield: another first */
    if (over_bound(x, n, tid)) return -2;
    return tid;
  }
  if (go_on) return n->prev; /* it yielded, and no other thread can run */
  if (any_able) return -1;
  /* nothing else can go on: a waiting thread may wake by itself */
  DrThread *const *all;
  int nall = dr_sched_threads(vm, &all);
  for (int i = 0; i < nall; i++)
    if (may_wake(x, vm, all[i]->id) && !asleep(n, all[i]->id)) return all[i]->id;
  if (futile_one >= 0) return futile_one; /* every thread is stuck: let the VM see it */
  return -1;
}

static void push_sleep(XNode *n, const XEv *e) { DR_PUSH(n->sleep, n->nsleep, n->sleep_cap, *e); }

static XNode *grow_stack(DrExplorer *x, int d) {
  if (d >= x->cap) {
    int cap = x->cap ? x->cap * 2 : 256;
    while (cap <= d) cap *= 2;
    x->stack = dr_xrealloc(x->stack, sizeof *x->stack * (size_t)cap);
    memset(x->stack + x->cap, 0, sizeof *x->stack * (size_t)(cap - x->cap));
    x->cap = cap;
  }
  return &x->stack[d];
}

/* Node d, reached for the first time in this branch of the search. */
static XNode *new_node(DrExplorer *x, DrVM *vm, int d) {
  XNode *n = grow_stack(x, d);
  x->depth = d + 1;
  n->nsleep = n->ntodo = 0;
  n->wchoice = n->wcount = 0;
  n->fixed = x->decisions < (uint64_t)x->nforced;
  n->prev = d > 0 ? x->x.ev[d - 1].tid : -1;
  /* Thread.yield() gives way: the switch after it is no preemption (as
   * CHESS counts them), and a loop that yields lets the others run */
  n->prev_yielded = d > 0 && x->x.ev[d - 1].kind == DR_EV_YIELD;
  n->prev_enabled = n->prev >= 0 && able(vm, n->prev) && !n->prev_yielded;
  n->preempts = d > 0 ? x->stack[d - 1].preempts + x->stack[d - 1].preempting : 0;
  if (d > 0 && x->por != DRVM_POR_NONE) {
    const XNode *p = &x->stack[d - 1];
    const XEv *e = &x->x.ev[d - 1];
    for (int i = 0; i < p->nsleep; i++)
      if (!dr_xev_dependent(&p->sleep[i], e)) push_sleep(n, &p->sleep[i]);
  }
  if (x->por == DRVM_POR_OPTIMAL) n->root = d == 0 ? x->root0 : x->tree.nodes[x->stack[d - 1].root].child;
  return n;
}

/* The prefix's next answer of this type (the others asked meanwhile are
 * skipped), or def when it has none left. */
static int64_t prefix_next(DrExplorer *x, char type, int64_t def) {
  while (x->precur < x->npre && x->pre[x->precur].type != type) {
    if (type != 'P' && x->pre[x->precur].type == 'P') return def; /* not asked in this step */
    x->precur++;
  }
  return x->precur < x->npre ? x->pre[x->precur++].value : def;
}

/* Chooses a new node's branch: the prefix's, the wakeup tree's,
 * or a free one.  false: the execution is abandoned here. */
static bool plan_node(DrExplorer *x, DrVM *vm, XNode *n, int forced) {
  int planned = -1;
  if (n->fixed) planned = forced;
  else if (x->por == DRVM_POR_OPTIMAL && x->tree.nodes[n->root].child >= 0)
    planned = x->tree.nodes[x->tree.nodes[n->root].child].tid;
  if (planned < 0) {
    planned = free_choice(x, vm, n);
    if (planned == -2) x->bounded = true, x->st.cut++;
    if (planned < 0) return false;
    if (x->por == DRVM_POR_NONE) {
      DrThread *const *en;
      int nen = dr_sched_enabled(vm, &en);
      for (int i = 0; i < nen; i++)
        if (en[i]->id != planned && !futile(vm, en[i])) DR_PUSH(n->todo, n->ntodo, n->todo_cap, en[i]->id);
      DrThread *const *all;
      int nall = dr_sched_threads(vm, &all);
      for (int i = 0; i < nall; i++)
        if (all[i]->id != planned && may_wake(x, vm, all[i]->id)) DR_PUSH(n->todo, n->ntodo, n->todo_cap, all[i]->id);
    }
  }
  if (x->por == DRVM_POR_OPTIMAL && x->tree.nodes[n->root].child < 0) {
    DrEvent e;
    DrThread *t = thread_by_id(vm, planned);
    if (!t) return false;
    XEv ev = step_of(x, vm, t, &e);
    x->x.fence_next[planned] = ev.fence; /* only looked at: taken when it runs */
    dr_xtree_new(&x->tree, n->root, &ev);
  }
  n->branch = planned;
  n->preempting = !n->fixed && preempts(n, planned); /* the bound counts from where the prefix ends */
  if (!n->fixed && over_bound(x, n, planned)) {
    x->bounded = true;
    x->st.cut++;
    return false;
  }
  return true;
}

static DrThread *abandon(DrExplorer *x, DrVM *vm, bool blocked) {
  x->aborted = true;
  x->blocked = blocked;
  dr_halt(vm, DR_EXIT_OK, DRVM_OUTCOME_NORMAL);
  return NULL;
}

/* This point's decision, made once: the spurious-wake-up question comes
 * before the pick at the same point.  The thread, or -1 (abandoned). */
static int plan_point(DrExplorer *x, DrVM *vm) {
  if (x->planned) return x->plan_tid;
  x->planned = true;
  x->plan_tid = -1;
  if (x->decisions == 0) {
    x->prints_seen = vm->prints;
    x->timeouts_seen = vm->timeouts;
    x->inits_seen = vm->inits;
  }
  step_done(x, vm);
  int forced = x->decisions < (uint64_t)x->nforced ? (int)prefix_next(x, 'P', -1) : -1; /* consumed in every execution */
  if (vm->nall_threads == 1) {
    /* main alone, before it starts a thread: nothing to interleave, and
     * everything it does happens before whatever it starts -- not a step
     * of the search, so a single-threaded program, or a long setup, costs
     * no memory */
    x->prints_seen = vm->prints;
    x->timeouts_seen = vm->timeouts;
    x->inits_seen = vm->inits;
    x->alone = true;
    return x->plan_tid = vm->threads[0]->id;
  }
  x->alone = false;
  if (vm->timeouts != x->timeouts_seen) {
    /* the virtual clock woke a thread: when it does depends on how far
     * every thread got, so whatever runs next follows everything */
    x->timeouts_seen = vm->timeouts;
    for (int t = 0; t < vm->nall_threads; t++) {
      dr_xexec_threads(&x->x, t);
      x->x.fence_next[t] = true;
    }
  }
  int d = x->pos;
  XNode *n;
  if (d < x->depth) {
    n = &x->stack[d];
  } else {
    n = new_node(x, vm, d);
    if (!plan_node(x, vm, n, forced)) {
      abandon(x, vm, !x->bounded);
      return -1;
    }
  }
  if (!can_run(vm, n->branch) && !may_wake(x, vm, n->branch)) {
    abandon(x, vm, true); /* the plan does not fit the run (a divergence) */
    return -1;
  }
  return x->plan_tid = n->branch;
}

static int x_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int nw) {
  DrExplorer *x = ((XSched *)s)->x;
  int tid = plan_point(x, vm);
  for (int i = 0; i < nw; i++) {
    if (waiting[i]->id != tid) continue;
    if (tid >= x->woke_cap) {
      int cap = x->woke_cap ? x->woke_cap : 8;
      while (cap <= tid) cap *= 2;
      x->woke = dr_xrealloc(x->woke, (size_t)cap);
      memset(x->woke + x->woke_cap, 0, (size_t)(cap - x->woke_cap));
      x->woke_cap = cap;
    }
    x->woke[tid] = true;
    return i;
  }
  return -1;
}

static DrThread *x_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason why) {
  (void)cur;
  (void)why;
  DrExplorer *x = ((XSched *)s)->x;
  int tid = plan_point(x, vm);
  x->planned = false;
  if (tid < 0) return NULL;
  if (!can_run(vm, tid)) return abandon(x, vm, true);
  x->decisions++;
  DrThread *t = thread_by_id(vm, tid);
  if (x->alone) return t;
  DrEvent e;
  x->pending = step_of(x, vm, t, &e);
  x->have_pending = true;
  note_enables(x, &e, x->pos);
  x->pos++;
  return t;
}

static int x_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int nw) {
  (void)vm;
  (void)lock;
  DrExplorer *x = ((XSched *)s)->x;
  int d = x->pos - 1;
  XNode *n = &x->stack[d];
  int k = 0;
  if (n->fixed) {
    k = (int)prefix_next(x, 'W', 0);
    if (k < 0 || k >= nw) k = 0;
  } else {
    if (n->wcount != nw) n->wcount = nw, n->wchoice = 0;
    k = n->wchoice;
  }
  enables(x, waiters[k]->id, d);
  return k;
}

static uint64_t x_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)vm;
  (void)t;
  DrExplorer *x = ((XSched *)s)->x;
  /* within a prefix, the quanta its run had, so that its preemption
   * points come where they came; then none: only the points switch */
  if (x->decisions > (uint64_t)x->nforced || x->precur >= x->npre || x->pre[x->precur].type != 'Q') return 0;
  return (uint64_t)x->pre[x->precur++].value;
}

static void x_destroy(DrScheduler *s) { free(s); }

/* ------------------------------------------------------------ the search */

DrExplorer *dr_explore_new(const DrvmExploreConfig *c, bool spurious, const DrSchedAnswer *prefix, int nprefix) {
  DrExplorer *x = dr_xcalloc(1, sizeof *x);
  x->por = c->por;
  x->bound = c->preemptions;
  x->spurious = spurious;
  x->x.spurious = spurious;
  x->points = DR_SP_ACCESS | (c->points & DR_SP_CALL);
  x->tree.free_list = -1;
  x->root0 = dr_xtree_new(&x->tree, -1, NULL);
  /* the answers before pick number prefix_len: the quanta and waiters
   * asked within the prefix's last step belong to it */
  uint64_t picks = 0;
  for (int i = 0; i < nprefix; i++) {
    const DrSchedAnswer *a = &prefix[i];
    /* 'S': the explorer decides wake-ups itself (a prefix that had one
     * may not fit; its executions are then abandoned, not misread) */
    if (a->type != 'P' && a->type != 'W' && a->type != 'Q') continue;
    for (uint64_t k = 0; k < a->count; k++) {
      if (a->type == 'P' && picks == c->prefix_len) break;
      if (a->type == 'P') picks++;
      DR_PUSH(x->pre, x->npre, x->pre_cap, ((XAnswer){a->type, a->value}));
    }
    if (a->type == 'P' && picks == c->prefix_len) break;
  }
  x->nforced = (int)picks;
  return x;
}

void dr_explore_free(DrExplorer *x) {
  if (!x) return;
  for (int i = 0; i < x->cap; i++) {
    free(x->stack[i].sleep);
    free(x->stack[i].todo);
  }
  free(x->stack);
  dr_xexec_free(&x->x);
  dr_xtree_free(&x->tree);
  free(x->v.s);
  free(x->okey);
  free(x->oval);
  free(x->allocs);
  free(x->woke);
  free(x->pre);
  free(x);
}

bool dr_explore_begin(DrExplorer *x, DrScheduler **sched, DrListener **listener) {
  if (x->done) return false;
  x->st.executions++;
  x->pos = 0;
  x->decisions = 0;
  x->precur = 0;
  x->aborted = x->blocked = x->bounded = x->have_pending = x->planned = false;
  dr_xexec_reset(&x->x);
  if (x->ocap) {
    memset(x->okey, 0, sizeof *x->okey * (size_t)x->ocap);
    x->on = 0;
  }
  if (x->allocs) memset(x->allocs, 0, sizeof *x->allocs * (size_t)x->allocs_cap);
  if (x->woke) memset(x->woke, 0, (size_t)x->woke_cap);
  XSched *s = dr_xcalloc(1, sizeof *s);
  s->base.name = "explore";
  s->base.points = x->points;
  s->base.pick = x_pick;
  s->base.pick_waiter = x_pick_waiter;
  s->base.quantum = x_quantum;
  s->base.spurious = x_spurious;
  s->base.destroy = x_destroy;
  s->x = x;
  XListen *l = dr_xcalloc(1, sizeof *l);
  l->base.name = "explore";
  l->base.events = DR_EV_BIT(DR_EV_NEW);
  l->base.event = listen_new;
  l->base.finish = listen_finish;
  l->x = x;
  *sched = &s->base;
  *listener = &l->base;
  return true;
}

static bool in_sleep_or_todo(const XNode *n, int tid) {
  if (tid == n->branch || asleep(n, tid)) return true;
  for (int i = 0; i < n->ntodo; i++)
    if (n->todo[i] == tid) return true;
  return false;
}

/* Race i < j of the execution: the reversal, as the paper's algorithms
 * add it (Algorithm 1, source sets; Algorithm 2, wakeup trees). */
static void reverse(DrExplorer *x, int i, int j) {
  XNode *n = &x->stack[i];
  dr_xseq_notdep(&x->v, &x->x, i, j);
  if (x->por == DRVM_POR_OPTIMAL) {
    for (int k = 0; k < n->nsleep; k++)
      if (dr_xseq_weak_initial(&x->v, &x->x, n->sleep[k].tid, &n->sleep[k])) return; /* explored already */
    dr_xtree_insert(&x->tree, n->root, &x->v, &x->x);
    return;
  }
  int pick = -1;
  for (int k = 0; k < x->v.n; k++) {
    int tid = x->x.ev[x->v.s[k]].tid;
    if (!dr_xseq_initial(&x->v, &x->x, tid)) continue;
    if (in_sleep_or_todo(n, tid)) return;
    if (pick < 0 || tid < pick) pick = tid;
  }
  if (pick >= 0) DR_PUSH(n->todo, n->ntodo, n->todo_cap, pick);
}

/* Node d's next branch, if any is left; the explored one goes to sleep. */
static bool next_branch(DrExplorer *x, int d) {
  XNode *n = &x->stack[d];
  if (n->fixed) return false;
  if (n->wchoice + 1 < n->wcount) {
    n->wchoice++;
    return true;
  }
  n->wchoice = n->wcount = 0;
  if (x->por != DRVM_POR_NONE && d < x->x.nreal) push_sleep(n, &x->x.ev[d]);
  if (x->por == DRVM_POR_OPTIMAL) {
    XTree *t = &x->tree;
    int c = t->nodes[n->root].child;
    if (c >= 0) dr_xtree_remove(t, c);
    while ((c = t->nodes[n->root].child) >= 0) {
      if (!over_bound(x, n, t->nodes[c].tid)) {
        n->branch = t->nodes[c].tid;
        n->preempting = preempts(n, n->branch);
        return true;
      }
      x->st.cut++;
      dr_xtree_remove(t, c);
    }
    return false;
  }
  while (n->ntodo > 0) {
    int p = n->todo[0];
    memmove(n->todo, n->todo + 1, sizeof *n->todo * (size_t)--n->ntodo);
    if (asleep(n, p)) continue;
    if (over_bound(x, n, p)) {
      x->st.cut++;
      continue;
    }
    n->branch = p;
    n->preempting = preempts(n, p);
    return true;
  }
  return false;
}

/* A thread left blocked on a monitor at the end (a deadlock) would take
 * it next: that take races with the monitor's last one, and reversing
 * the two is how the other lock orders are found.  Likewise a waiting
 * thread that may wake by itself (spurious wake-ups). */
static void add_blocked_takes(DrExplorer *x, DrVM *vm) {
  x->x.nreal = x->x.n;
  for (int i = 0; i < vm->nthreads; i++) {
    DrThread *t = vm->threads[i];
    if ((t->state != DR_TS_BLOCKED || !t->monitor) && !may_wake(x, vm, t->id)) continue;
    DrEvent e;
    XEv ev = step_of(x, vm, t, &e);
    if (ev.op == XOP_TAKE) dr_xexec_add(&x->x, &ev);
  }
}

/* The trace as a set: each step (thread, its count), what it did and
 * what happens before it -- the same whatever the order of independent
 * steps, summed so that the order does not count. */
static uint64_t fingerprint(const XExec *e) {
  uint64_t h = 0;
  for (int j = 0; j < e->nreal; j++) {
    const XEv *ev = &e->ev[j];
    uint64_t s = mix(((uint64_t)(uint32_t)ev->tid << 32) | e->seq[j], ((uint64_t)ev->kind << 8) | ev->op);
    s = mix(s, ev->loc);
    const uint32_t *c = e->clock + (size_t)j * (size_t)e->width;
    for (int t = 0; t < e->width; t++)
      if (c[t]) s = mix(s, ((uint64_t)(uint32_t)t << 32) | c[t]);
    h += s;
  }
  return h;
}

/* After an execution stopped by the step limit, the threads that could
 * have run but did not since their last step (one thread spinning, the
 * others starved): each gets a branch of its own right after that step,
 * as a fair scheduler would have given it -- the spinner may be waiting
 * for exactly what they do. */
static void starved_branches(DrExplorer *x, DrVM *vm) {
  for (int i = 0; i < vm->nthreads; i++) {
    DrThread *t = vm->threads[i];
    if (!able(vm, t->id) || t->id >= x->x.nthreads_cap) continue;
    int p = x->x.last[t->id] + 1;
    for (int k = 0; p == 0 && k < x->x.nreal; k++)
      if (x->x.ev[k].kind == DR_EV_FORK && x->x.ev[k].other == t->id) p = k + 1;
    if (p >= x->depth) continue;
    XNode *n = &x->stack[p];
    if (n->fixed || n->branch == t->id || asleep(n, t->id) || in_sleep_or_todo(n, t->id)) continue;
    if (x->por == DRVM_POR_OPTIMAL) {
      bool planned = false;
      for (int c = x->tree.nodes[n->root].child; c >= 0 && !planned; c = x->tree.nodes[c].sibling)
        planned = x->tree.nodes[c].tid == t->id;
      DrEvent e;
      XEv ev = step_of(x, vm, t, &e);
      if (!planned) dr_xtree_new(&x->tree, n->root, &ev);
    } else {
      DR_PUSH(n->todo, n->ntodo, n->todo_cap, t->id);
    }
  }
}

void dr_explore_end(DrExplorer *x, DrVM *vm) {
  step_done(x, vm);
  add_blocked_takes(x, vm);
  DrvmExploreStats *st = &x->st;
  bool limited = !x->aborted && vm->halting && vm->halt_outcome == DRVM_OUTCOME_STEP_LIMIT;
  st->last_blocked = x->aborted;
  st->last_decisions = x->decisions;
  if (st->last_decisions > st->max_decisions) st->max_decisions = st->last_decisions;
  int last = x->pos < x->depth ? x->pos : x->depth;
  st->last_preemptions = last > 0 ? x->stack[last - 1].preempts + x->stack[last - 1].preempting : 0;
  if (x->aborted && x->blocked) st->blocked++;
  else if (x->aborted) st->bounded++;
  else if (limited) st->step_limited++;
  else st->traces++;
  if (x->depth > x->x.nreal) x->depth = x->x.nreal; /* nodes past where the run stopped were not reached */
  if (limited && x->por != DRVM_POR_NONE) starved_branches(x, vm);
  if (x->por != DRVM_POR_NONE && !(x->aborted && x->por == DRVM_POR_OPTIMAL))
    for (int r = 0; r < x->x.nraces; r += 2) {
      int i = x->x.races[r], j = x->x.races[r + 1];
      if (i < x->depth && !x->stack[i].fixed) reverse(x, i, j); /* the prefix is not explored */
    }
  for (int d = x->depth - 1; d >= 0; d--) {
    if (next_branch(x, d)) {
      x->depth = d + 1;
      /* node d is replayed with its new branch: nothing planned below it */
      return;
    }
  }
  x->depth = 0;
  x->done = true;
}

uint64_t dr_explore_fingerprint(const DrExplorer *x) { return fingerprint(&x->x); }

void dr_explore_stats(const DrExplorer *x, DrvmExploreStats *s) {
  *s = x->st;
  s->done = x->done;
  s->complete = x->done && x->st.cut == 0 && x->st.step_limited == 0;
}
