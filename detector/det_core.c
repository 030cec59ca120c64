/* The detectors' core: the listener that turns VM events into the
 * happens-before model of the papers, shadow memory beside each object,
 * and the choice of detector by name.
 *
 * Happens-before (FastTrack's Figure 5 sync rules, shared by ft, djit and
 * basicvc): acquire C_t := C_t ⊔ L_m; release L_m := C_t, C_t(t)++;
 * fork C_u := C_u ⊔ C_t, C_t(t)++; join C_t := C_t ⊔ C_u, C_u(u)++;
 * volatile write V_x := V_x ⊔ C_t, C_t(t)++; volatile read C_t := C_t ⊔ V_x;
 * wait = release then acquire.  Two more edges Java has: interrupt ->
 * the interrupted thread noticing it (JLS 17.4.4) works like a volatile
 * on the target thread, and a class's initialization -> its use by other
 * threads (JLS 12.4.2) is joined at a thread's first static access of the
 * class. */
#include <stddef.h>
#include <string.h>

#include "det.h"

/* A new thread's slot: one an ended thread gave back (its clocks go on
 * from where that thread's stopped), else the next one. */
static uint32_t slot_new(DrDet *d, DrThread *th) {
  uint32_t id = (uint32_t)th->id;
  if ((int)id >= d->ntids) {
    int n = d->ntids ? d->ntids * 2 : 16;
    while (n <= (int)id) n *= 2;
    d->tids = dr_xrealloc(d->tids, sizeof *d->tids * (size_t)n);
    memset(d->tids + d->ntids, 0, sizeof *d->tids * (size_t)(n - d->ntids));
    dr_mem_add(&d->mem, sizeof *d->tids * (size_t)(n - d->ntids));
    d->ntids = n;
  }
  uint32_t base = 0, slot = dr_det_accordion_take(d, &base);
  if (slot == UINT32_MAX) {
    if (d->nthreads == d->threads_cap) {
      int n = d->threads_cap ? d->threads_cap * 2 : 8;
      d->threads = dr_xrealloc(d->threads, sizeof(DrDetThread) * (size_t)n);
      memset(d->threads + d->threads_cap, 0, sizeof(DrDetThread) * (size_t)(n - d->threads_cap));
      dr_mem_add(&d->mem, sizeof(DrDetThread) * (size_t)(n - d->threads_cap));
      d->threads_cap = n;
    }
    slot = (uint32_t)d->nthreads++;
  }
  DrDetThread *t = &d->threads[slot];
  DrSlotGen *gens = t->gens;
  int ngens = t->ngens, gens_cap = t->gens_cap;
  memset(t, 0, sizeof *t); /* a slot given back was freed when its thread retired */
  t->gens = gens;
  t->ngens = ngens;
  t->gens_cap = gens_cap;
  DrSlotGen g = {base + 1, id};
  DR_PUSH(t->gens, t->ngens, t->gens_cap, g);
  if (t->ngens == 1) dr_mem_add(&d->mem, sizeof(DrSlotGen) * (size_t)t->gens_cap);
  t->live = true;
  t->tid = id;
  dr_vc_set(&t->C, slot, base + 1, &d->mem); /* C_t(t) = 1 initially, counted from the slot's base */
  d->mem.vcs_allocated++;
  d->tids[id].slot1 = slot + 1;
  if (d->filter || d->fast_owner) dr_det_publish(d, th);
  return slot;
}

uint32_t dr_det_slot(DrDet *d, const DrThread *th) {
  uint32_t id = (uint32_t)th->id;
  if (DR_LIKELY((int)id < d->ntids && d->tids[id].slot1)) return d->tids[id].slot1 - 1;
  return slot_new(d, (DrThread *)th);
}

uint32_t dr_det_slot_tid(const DrDet *d, uint32_t slot, uint32_t c, uint32_t *rel) {
  if ((int)slot >= d->nthreads || !d->threads[slot].ngens) {
    *rel = c;
    return slot;
  }
  const DrDetThread *t = &d->threads[slot];
  int i = t->ngens - 1;
  while (i > 0 && t->gens[i].first > c) i--;
  uint32_t base = t->gens[i].first - 1;
  *rel = c > base ? c - base : 0;
  return t->gens[i].tid;
}

/* ------------------------------------------------------ clocks with ctx */

/* Read vector clocks come and go with every READ SHARE and WRITE SHARED
 * (a location read by several threads and written again each phase): a
 * pool keeps their arrays instead of a malloc and free each time. */
#define DR_CVC_POOL 4096

DrCtxVC *dr_cvc_new(DrDet *d) {
  d->mem.vcs_allocated++;
  if (d->ncvc_pool) return d->cvc_pool[--d->ncvc_pool];
  DrCtxVC *v = dr_xcalloc(1, sizeof *v);
  v->vc.c = v->small;
  v->vc.cap = DR_CVC_SMALL;
  dr_mem_add(&d->mem, sizeof *v);
  return v;
}

static void cvc_free(DrDet *d, DrCtxVC *v) {
  dr_mem_sub(&d->mem, sizeof *v + (sizeof(uint32_t) + sizeof(uint64_t)) * v->cap);
  if (v->vc.c == v->small) v->vc = (DrVC){0}; /* part of v itself */
  dr_vc_free(&v->vc, &d->mem);
  free(v->ctx);
  free(v->seq);
  free(v);
}

void dr_cvc_delete(DrDet *d, DrCtxVC *v) {
  if (!v) return;
  if (d->ncvc_pool == DR_CVC_POOL) {
    cvc_free(d, v);
    return;
  }
  if (!d->cvc_pool) d->cvc_pool = dr_xmalloc(sizeof(DrCtxVC *) * DR_CVC_POOL);
  v->vc.n = 0; /* entries past n read as 0, and are zeroed when it grows again */
  d->cvc_pool[d->ncvc_pool++] = v;
}

void dr_cvc_set(DrDet *d, DrCtxVC *v, uint32_t tid, uint32_t clock, uint32_t ctx) {
  if (tid >= DR_CVC_SMALL && v->vc.c == v->small) { /* outgrown: to the heap, as any clock */
    uint32_t cap = DR_CVC_SMALL * 2;
    while (cap <= tid) cap *= 2;
    uint32_t *c = dr_xcalloc(cap, sizeof *c);
    memcpy(c, v->small, sizeof v->small);
    v->vc.c = c;
    v->vc.cap = cap;
    dr_mem_add(&d->mem, sizeof(uint32_t) * cap);
  }
  if (tid >= v->cap) {
    uint32_t cap = v->cap ? v->cap : 4;
    while (cap <= tid) cap *= 2;
    v->ctx = dr_xrealloc(v->ctx, sizeof(uint32_t) * cap);
    v->seq = dr_xrealloc(v->seq, sizeof(uint64_t) * cap);
    memset(v->ctx + v->cap, 0, sizeof(uint32_t) * (cap - v->cap));
    memset(v->seq + v->cap, 0, sizeof(uint64_t) * (cap - v->cap));
    dr_mem_add(&d->mem, (sizeof(uint32_t) + sizeof(uint64_t)) * (cap - v->cap));
    v->cap = cap;
  }
  dr_vc_set(&v->vc, tid, clock, &d->mem);
  v->ctx[tid] = ctx;
  v->seq[tid] = ++d->seq;
}

bool dr_cvc_unordered(const DrCtxVC *v, const DrVC *C, uint32_t *tid) {
  bool found = false;
  uint64_t best = 0;
  for (uint32_t u = 0; u < v->vc.n; u++)
    if (v->vc.c[u] > dr_vc_get(C, u) && v->seq[u] >= best) {
      best = v->seq[u];
      *tid = u;
      found = true;
    }
  return found;
}

/* --------------------------------------------------------------- shadow */

static size_t shadow_bytes(const DrDet *d, uint32_t nslots) {
  return sizeof(DrShadow) + d->ops->slot_size * nslots;
}

static DrShadow *shadow_new(DrDet *d, uint32_t nslots) {
  size_t n = shadow_bytes(d, nslots);
  DrShadow *sh = dr_xcalloc(1, n);
  sh->nslots = nslots;
  dr_mem_add(&d->mem, n);
  return sh;
}

static size_t thread_bytes(const DrDetThread *t) {
  return sizeof(uint32_t) * (t->C.cap + t->I.cap) +
         (sizeof(DrMethod *) + sizeof(uint32_t *) + sizeof(uint32_t)) * (size_t)t->chain_cap + (size_t)t->init_seen_len;
}

void dr_det_thread_free(DrDet *d, DrDetThread *t) {
  dr_vc_free(&t->C, &d->mem);
  dr_vc_free(&t->I, &d->mem);
  free(t->chain_m);
  free(t->chain_ip);
  free(t->chain_node);
  free(t->init_seen);
  t->chain_m = NULL;
  t->chain_ip = NULL;
  t->chain_node = NULL;
  t->init_seen = NULL;
  t->nchain = t->chain_cap = t->init_seen_len = 0;
}

/* A thread ended and its Thread object is gone: nothing can join or
 * interrupt it any more, and its accesses are compared against the
 * other threads' clocks, never its own, so its clocks can go (TRaDe's
 * observation; their entries for it stay, section 6.3 of races.md). */
static void thread_retire(DrDet *d, uint32_t tid) {
  if ((int)tid >= d->ntids || !d->tids[tid].slot1) return;
  uint32_t slot = d->tids[tid].slot1 - 1;
  DrDetThread *t = &d->threads[slot];
  if (!t->live || t->tid != tid || t->retired || !t->held_bytes) return; /* alive, or never ended */
  d->vm->gc_extra -= t->held_bytes;
  t->held_bytes = 0;
  t->last = dr_vc_get(&t->C, slot);
  dr_det_thread_free(d, t);
  t->retired = true;
  d->retired++;
  dr_det_accordion_retired(d, t);
}

static void shadow_delete(DrDet *d, DrShadow *sh) {
  if (!sh) return;
  if (sh->thread) thread_retire(d, sh->thread - 1);
  if (sh->ext && d->ops->ext_free) d->ops->ext_free(d, sh->ext);
  if (d->ops->slot_free)
    for (uint32_t i = 0; i < sh->nslots; i++) d->ops->slot_free(d, DR_SHADOW_SLOTS(sh) + d->ops->slot_size * i);
  dr_vc_delete(sh->lock, &d->mem);
  dr_vc_delete(sh->notify, &d->mem);
  if (sh->vol) {
    for (uint32_t i = 0; i < sh->nslots; i++) dr_vc_delete(sh->vol[i], &d->mem);
    dr_mem_sub(&d->mem, sizeof(DrVC *) * sh->nslots);
    free(sh->vol);
  }
  if (sh->raced) {
    dr_mem_sub(&d->mem, (sh->nslots + 7) / 8);
    free(sh->raced);
  }
  dr_mem_sub(&d->mem, shadow_bytes(d, sh->nslots));
  free(sh);
}

/* The GC frees an object: its shadow goes with it. */
static void shadow_free_hook(void *ctx, void *state) { shadow_delete((DrDet *)ctx, state); }

DrShadow *dr_det_obj_shadow(const DrDet *d, const DrObj *o) {
  return o ? dr_shadow_get(d->vm, o, d->shadow_user) : NULL;
}

/* An object's shadow without its slots (a lock's clocks, an array's
 * allocation site): most objects are never accessed by two threads, and
 * a big array allocated while main runs alone must not cost its slots. */
static inline DrShadow *obj_shadow(DrDet *d, DrObj *o) {
  DrShadow *sh = dr_shadow_get(d->vm, o, d->shadow_user);
  if (!sh) {
    sh = shadow_new(d, 0);
    dr_shadow_set(d->vm, o, d->shadow_user, sh);
  }
  return sh;
}

DrShadow *dr_det_shadow(DrDet *d, DrObj *o) { return obj_shadow(d, o); }

/* ... and with them, for an access */
static DrShadow *shadow_grow(DrDet *d, DrObj *o) {
  DrShadow *old = obj_shadow(d, o);
  uint32_t n = dr_obj_slots(o);
  if (n == 0) return old;
  DrShadow *sh = shadow_new(d, n);
  *sh = *old;               /* no slots, vol or raced yet: those come with accesses */
  sh->nslots = n;
  dr_mem_sub(&d->mem, shadow_bytes(d, 0));
  free(old);
  dr_shadow_set(d->vm, o, d->shadow_user, sh);
  return sh;
}

static DR_ALWAYS_INLINE DrShadow *obj_shadow_slots(DrDet *d, DrObj *o) {
  DrShadow *sh = dr_shadow_get(d->vm, o, d->shadow_user);
  if (DR_UNLIKELY(!sh || sh->nslots == 0)) sh = shadow_grow(d, o);
  return sh;
}

DrShadow *dr_det_shadow_slots(DrDet *d, DrObj *o) { return obj_shadow_slots(d, o); }

static DrShadow *static_shadow(DrDet *d, DrClass *c) {
  if (c->id >= d->nstatics) {
    int n = d->nstatics ? d->nstatics : 16;
    while (n <= c->id) n *= 2;
    d->statics = dr_xrealloc(d->statics, sizeof(DrShadow *) * (size_t)n);
    memset(d->statics + d->nstatics, 0, sizeof(DrShadow *) * (size_t)(n - d->nstatics));
    d->nstatics = n;
  }
  if (!d->statics[c->id]) {
    d->statics[c->id] = shadow_new(d, (uint32_t)c->nstatics);
    /* the inline check reads it there (a thread whose word matches has
     * accessed the class's statics in its epoch: it joined the class's
     * initialization then) */
    if (d->fast_owner) c->shadow = d->statics[c->id];
  }
  return d->statics[c->id];
}

static DR_ALWAYS_INLINE DrShadow *loc_shadow(DrDet *d, const DrLoc *loc) {
  return loc->is_static ? static_shadow(d, loc->cls) : obj_shadow_slots(d, loc->obj);
}

bool dr_det_raced(const DrDet *d, const DrLoc *loc) {
  const DrShadow *sh = loc->is_static ? (loc->cls->id < d->nstatics ? d->statics[loc->cls->id] : NULL)
                                      : dr_det_obj_shadow(d, loc->obj);
  return sh && sh->raced && (sh->raced[loc->index / 8] >> (loc->index % 8) & 1);
}

void dr_det_mark_raced(DrDet *d, const DrLoc *loc) {
  DrShadow *sh = loc_shadow(d, loc);
  if ((uint32_t)loc->index >= sh->nslots) return;
  if (!sh->raced) {
    sh->raced = dr_xcalloc((sh->nslots + 7) / 8, 1);
    dr_mem_add(&d->mem, (sh->nslots + 7) / 8);
  }
  sh->raced[loc->index / 8] |= (uint8_t)(1u << (loc->index % 8));
}

/* ------------------------------------------------------------ the events */

/* An array's allocation site; `new double[n][m]` makes its inner arrays
 * in one instruction, which is their site too. */
static void note_alloc(DrDet *d, DrObj *o, uint32_t ctx) {
  obj_shadow(d, o)->alloc_ctx = ctx;
  const DrClass *c = o->cls;
  if (c->elem_kind != DR_K_REF || !c->elem_class || !(c->elem_class->flags & DR_CLS_ARRAY)) return;
  const DrArray *a = (const DrArray *)o;
  DrObj *const *elems = (DrObj *const *)DR_ARRAY_DATA(a);
  for (int32_t i = 0; i < a->length; i++)
    if (elems[i]) note_alloc(d, elems[i], ctx);
}

static void overflow(DrDet *d) {
  if (d->disabled) return;
  d->disabled = true;
  d->result->failed = true;
  dr_flush_output(d->vm);
  fprintf(d->vm->err_file, "drvm: %s: a thread's clock passed 2^32-1; race detection stopped\n", d->ops->name);
}

static void tick(DrDet *d, DrDetThread *t, uint32_t tid) {
  if (!dr_vc_inc(&t->C, tid, &d->mem)) overflow(d);
}

static DrVC **lock_clock(DrDet *d, DrObj *o, bool notify) {
  DrShadow *sh = obj_shadow(d, o);
  DrVC **v = notify ? &sh->notify : &sh->lock;
  if (!*v) *v = dr_vc_new(&d->mem);
  return v;
}

static void acquire(DrDet *d, DrDetThread *t, DrObj *o) {
  if (o && d->ops->lock_edges) dr_vc_join(&t->C, *lock_clock(d, o, false), &d->mem);
}

static void release(DrDet *d, DrDetThread *t, uint32_t tid, DrObj *o) {
  if (!o || !d->ops->lock_edges) return;
  dr_vc_copy(*lock_clock(d, o, false), &t->C, &d->mem);
  tick(d, t, tid);
}

static void build_loc(const DrEvent *e, DrLoc *loc) {
  loc->obj = e->is_static ? NULL : e->obj;
  loc->cls = e->cls;
  loc->index = e->field;
  loc->is_static = e->is_static;
  loc->is_array = !e->is_static && e->obj && (e->obj->cls->flags & DR_CLS_ARRAY);
}

/* A thread's first static access to a class initialized by another
 * thread: the initialization happens-before it. */
static void join_init(DrDet *d, DrDetThread *t, const DrClass *c) {
  if (c->id >= d->ninit || !d->init_clocks[c->id]) return;
  if (c->id >= t->init_seen_len) {
    int n = d->ninit;
    t->init_seen = dr_xrealloc(t->init_seen, (size_t)n);
    memset(t->init_seen + t->init_seen_len, 0, (size_t)(n - t->init_seen_len));
    t->init_seen_len = n;
  }
  if (t->init_seen[c->id]) return;
  t->init_seen[c->id] = 1;
  dr_vc_join(&t->C, d->init_clocks[c->id], &d->mem);
}

static DR_ALWAYS_INLINE void on_access(DrDet *d, DrDetThread *t, uint32_t tid, const DrEvent *e, bool write) {
  DrLoc loc;
  build_loc(e, &loc);
  if (!loc.is_static && !loc.obj) return;
  if (write) d->writes++;
  else d->reads++;
  if (loc.is_static && d->ops->vector_clocks) join_init(d, t, loc.cls);
  DrShadow *sh = loc_shadow(d, &loc);
  if (loc.index < 0 || (uint32_t)loc.index >= sh->nslots) return;
  if (!d->opt.all_races && d->ops->stop_at_race && sh->raced && (sh->raced[loc.index / 8] >> (loc.index % 8) & 1)) {
    d->suppressed++;
    return;
  }
  d->ops->access(d, tid, DR_SHADOW_SLOTS(sh) + d->ops->slot_size * (size_t)loc.index, &loc, e, write);
}

static void on_volatile(DrDet *d, DrDetThread *t, uint32_t tid, const DrEvent *e, bool write) {
  DrLoc loc;
  build_loc(e, &loc);
  if (!loc.is_static && !loc.obj) return;
  if (loc.is_static) join_init(d, t, loc.cls);
  DrShadow *sh = loc_shadow(d, &loc);
  if (loc.index < 0 || (uint32_t)loc.index >= sh->nslots) return;
  if (!sh->vol) {
    sh->vol = dr_xcalloc(sh->nslots, sizeof(DrVC *));
    dr_mem_add(&d->mem, sizeof(DrVC *) * sh->nslots);
  }
  DrVC **v = &sh->vol[loc.index];
  if (!*v) *v = dr_vc_new(&d->mem);
  if (write) {
    dr_vc_join(*v, &t->C, &d->mem);
    tick(d, t, tid);
  } else {
    dr_vc_join(&t->C, *v, &d->mem);
  }
}

static void on_sync(DrDet *d, const DrEvent *e, uint32_t tid);

static void det_event(DrListener *self, DrVM *vm, const DrEvent *e) {
  DrDet *d = (DrDet *)self;
  (void)vm;
  d->events++;
  if (d->disabled) return;
  if (e->kind == DR_EV_NEW) { /* no clock changes: nothing to publish */
    d->syncs++;
    if (e->obj && (e->obj->cls->flags & DR_CLS_ARRAY)) {
      (void)dr_det_slot(d, e->thread); /* its context needs its state */
      note_alloc(d, e->obj, dr_det_ctx(d, e));
    }
    return;
  }
  uint32_t tid = dr_det_slot(d, e->thread);
  if (DR_LIKELY(e->kind <= DR_EV_WRITE)) { /* the hot path: a plain access */
    on_access(d, &d->threads[tid], tid, e, e->kind == DR_EV_WRITE);
    return;
  }
  on_sync(d, e, tid);
  if (d->filter || d->fast_owner) { /* the threads' epochs and locksets changed */
    dr_det_publish(d, e->thread);
    if (e->other) dr_det_publish(d, e->other);
  }
}

/* vm.h's DrFastCheck.miss: an instance field or array element access the
 * inline check did not answer, straight from the interpreter -- what
 * det_event and on_access do for it, without building the event first
 * and finding the slot again. */
static bool det_fast_miss(DrListener *self, DrThread *th, DrObj *o, uint32_t idx, char *slot, bool write,
                          DrMethod *m, uint32_t pc) {
  DrDet *d = (DrDet *)self;
  d->events++;
  if (DR_UNLIKELY(d->disabled)) return true;
  if (DR_UNLIKELY(th->fast_epoch == DR_FAST_NONE)) dr_det_publish(d, th);
  uint32_t tid = th->fast_slot;
  ASSERT(tid == dr_det_slot(d, th), "a published thread keeps its slot");
  if (write) d->writes++;
  else d->reads++;
  const DrShadow *sh = o->shadow; /* the inline check's owner: the only user (vm/shadow.c) */
  if (DR_UNLIKELY(sh->raced) && !d->opt.all_races && d->ops->stop_at_race && (sh->raced[idx / 8] >> (idx % 8) & 1)) {
    d->suppressed++;
    return true;
  }
  /* field by field: an initializer zeroes the whole struct first (a
   * rep stos that cost half of this function) */
  DrEvent e;
  e.kind = write ? DR_EV_WRITE : DR_EV_READ;
  e.thread = th;
  e.obj = o;
  e.cls = o->cls;
  e.field = (int32_t)idx;
  e.is_static = false;
  e.method = m;
  e.pc = pc;
  e.callee = NULL;
  e.other = NULL;
  e.arg = 0;
  e.stored = NULL;
  DrLoc loc = {o, o->cls, (int32_t)idx, false, (o->cls->flags & DR_CLS_ARRAY) != 0};
  d->ops->access(d, tid, slot, &loc, &e, write);
  return true;
}

void dr_det_publish(DrDet *d, DrThread *th) {
  uint32_t tid = dr_det_slot(d, th);
  const DrDetThread *t = &d->threads[tid];
  ASSERT(t->live && t->tid == (uint32_t)th->id, "a thread's words come from its state");
  /* the thread's words belong to the filter's detector and the inline
   * check's: another detector beside them keeps its own */
  if (d->filter) {
    th->esc_epoch = dr_vc_get(&t->C, tid);
    th->esc_lockset = t->lockset;
  }
  if (d->fast_owner) {
    th->fast_slot = tid;
    th->fast_epoch = dr_vc_epoch(&t->C, tid);
  }
}

static void on_sync(DrDet *d, const DrEvent *e, uint32_t tid) {
  /* both first: creating one may move the other */
  uint32_t uslot = e->other ? dr_det_slot(d, e->other) : 0;
  DrDetThread *t = dr_det_thread(d, tid);
  DrDetThread *u = e->other ? dr_det_thread(d, uslot) : NULL;
  bool vcs = d->ops->vector_clocks;
  switch (e->kind) {
  case DR_EV_READ:
  case DR_EV_WRITE: on_access(d, t, tid, e, e->kind == DR_EV_WRITE); return;
  case DR_EV_VREAD:
  case DR_EV_VWRITE:
    d->syncs++;
    if (vcs) on_volatile(d, t, tid, e, e->kind == DR_EV_VWRITE);
    return;
  default: break;
  }
  d->syncs++;
  if (d->ops->sync) d->ops->sync(d, tid, e);
  switch (e->kind) {
  case DR_EV_ACQUIRE:
    t->lockset = dr_det_lockset_of(d, e->thread);
    acquire(d, t, e->obj);
    break;
  case DR_EV_RELEASE:
    t->lockset = dr_det_lockset_of(d, e->thread);
    release(d, t, tid, e->obj);
    break;
  case DR_EV_WAIT:
    t->lockset = dr_det_lockset_of(d, e->thread);
    release(d, t, tid, e->obj);
    break;
  case DR_EV_WAKE:
    t->lockset = dr_det_lockset_of(d, e->thread);
    acquire(d, t, e->obj);
    if (d->ops->notify_edges && e->obj) dr_vc_join(&t->C, *lock_clock(d, e->obj, true), &d->mem);
    break;
  case DR_EV_NOTIFY:
  case DR_EV_NOTIFY_ALL:
    if (d->ops->notify_edges && e->obj) {
      dr_vc_join(*lock_clock(d, e->obj, true), &t->C, &d->mem);
      tick(d, t, tid);
    }
    break;
  case DR_EV_FORK:
    if (d->alone) { /* accesses from the next instruction on */
      d->alone = false;
      d->base.events |= DR_EV_BIT(DR_EV_READ) | DR_EV_BIT(DR_EV_WRITE);
      dr_listeners_changed(d->vm);
      if (d->filter) dr_det_filter_enable(d); /* what main made alone stays global */
    }
    if (!u) break;
    d->tids[e->other->id].created_ctx = dr_det_ctx(d, e);
    /* when its Thread object is collected after it ended, it retires */
    if (e->other->jthread) obj_shadow(d, e->other->jthread)->thread = (uint32_t)e->other->id + 1;
    if (vcs) {
      dr_vc_join(&u->C, &t->C, &d->mem);
      tick(d, t, tid);
    }
    break;
  case DR_EV_JOIN:
    if (u && vcs) {
      dr_vc_join(&t->C, &u->C, &d->mem);
      tick(d, u, uslot);
    }
    break;
  case DR_EV_INTERRUPT:
    if (u && vcs) {
      dr_vc_join(&u->I, &t->C, &d->mem);
      tick(d, t, tid);
    }
    break;
  case DR_EV_INTERRUPTED:
    if (vcs) dr_vc_join(&t->C, &(u ? u : t)->I, &d->mem);
    break;
  case DR_EV_INIT:
    if (vcs && e->cls) {
      int id = e->cls->id;
      if (id >= d->ninit) {
        int n = d->ninit ? d->ninit : 16;
        while (n <= id) n *= 2;
        d->init_clocks = dr_xrealloc(d->init_clocks, sizeof(DrVC *) * (size_t)n);
        memset(d->init_clocks + d->ninit, 0, sizeof(DrVC *) * (size_t)(n - d->ninit));
        d->ninit = n;
      }
      if (!d->init_clocks[id]) d->init_clocks[id] = dr_vc_new(&d->mem);
      dr_vc_copy(d->init_clocks[id], &t->C, &d->mem);
      tick(d, t, tid);
    }
    break;
  case DR_EV_END:
    /* what a collection can give back once its Thread object is gone
     * (main's never is: no one can join it) */
    t->ended = true;
    if (e->thread->id != 0 && !t->held_bytes) {
      t->held_bytes = thread_bytes(t);
      d->vm->gc_extra += t->held_bytes;
    }
    break;
  default: break; /* DR_EV_NEW: det_event */
  }
}

/* -------------------------------------------------------------- lifetime */

static void print_stats(DrDet *d) {
  FILE *out = d->vm->err_file;
  fprintf(out, "drvm: %s statistics\n", d->ops->name);
  fprintf(out, "  %-26s %12llu%s\n", "events", (unsigned long long)d->events,
          d->ops->lock_edges ? "  (accesses from main's first Thread.start on)" : "");
  fprintf(out, "  %-26s %12llu\n", "reads", (unsigned long long)d->reads);
  fprintf(out, "  %-26s %12llu\n", "writes", (unsigned long long)d->writes);
  fprintf(out, "  %-26s %12llu\n", "synchronization events", (unsigned long long)d->syncs);
  if (d->ops->print_stats) d->ops->print_stats(d, out);
  if (d->filter) dr_det_filter_print_stats(d, out);
  fprintf(out, "  %-26s %12llu\n", "accesses not rechecked", (unsigned long long)d->suppressed);
  fprintf(out, "  %-26s %12llu\n", "vector clocks allocated", (unsigned long long)d->mem.vcs_allocated);
  fprintf(out, "  %-26s %12llu\n", "ended threads retired", (unsigned long long)d->retired);
  if (d->accordion) dr_det_accordion_print_stats(d, out);
  fprintf(out, "  %-26s %12.1f KB\n", "peak shadow memory", (double)d->mem.peak / 1024.0);
}

static void det_free(DrDet *d) {
  DrVM *vm = d->vm;
  /* what it still counts goes with it, whatever the frees below subtract */
  d->mem.total = NULL;
  vm->ext_bytes -= d->mem.bytes < vm->ext_bytes ? d->mem.bytes : vm->ext_bytes;
  if (d->filter) {
    dr_esc_enable(vm, NULL);
    vm->esc_claimed = false;
  }
  if (d->fast_owner) {
    vm->fast.on = false;
    vm->fast.owner = NULL;
    for (int i = 0; i < vm->nall_threads; i++) vm->all_threads[i]->fast_epoch = DR_FAST_NONE;
  }
  for (DrObj *o = vm->objects; o; o = o->gc_next) {
    shadow_delete(d, dr_shadow_get(vm, o, d->shadow_user));
    dr_shadow_set(vm, o, d->shadow_user, NULL);
  }
  dr_shadow_remove(vm, d->shadow_user);
  for (int i = 0; i < d->nstatics; i++) shadow_delete(d, d->statics[i]);
  if (d->fast_owner)
    for (int i = 0; i < vm->nclasses; i++) vm->classes[i]->shadow = NULL;
  free(d->statics);
  for (int i = 0; i < d->ninit; i++) dr_vc_delete(d->init_clocks[i], &d->mem);
  free(d->init_clocks);
  for (int i = 0; i < d->nthreads; i++) {
    vm->gc_extra -= d->threads[i].held_bytes;
    dr_det_thread_free(d, &d->threads[i]);
    free(d->threads[i].gens);
  }
  free(d->threads);
  free(d->tids);
  free(d->free_slots);
  while (d->ncvc_pool) cvc_free(d, d->cvc_pool[--d->ncvc_pool]);
  free(d->cvc_pool);
  dr_det_ctx_free(d);
  dr_det_report_free(d);
  free(d->priv);
  free(d);
}

static void det_finish(DrListener *self, DrVM *vm) {
  DrDet *d = (DrDet *)self;
  (void)vm;
  if (d->ops->finish) d->ops->finish(d);
  /* the accesses the interpreter answered inline were the detector's too */
  if (d->fast_owner) {
    d->reads += d->vm->fast.hits[0] + d->vm->fast.hits[2];
    d->writes += d->vm->fast.hits[1];
  }
  dr_flush_output(d->vm);
  dr_det_report_finish(d);
  if (d->opt.stats) print_stats(d);
  det_free(d);
}

typedef struct {
  DrListener base;
  DrDetectorOptions opt;
  DrDetectorResult *result;
  uint64_t events;
} EmptyDet;

static void empty_event(DrListener *self, DrVM *vm, const DrEvent *e) {
  (void)vm;
  (void)e;
  ((EmptyDet *)self)->events++;
}

static void empty_finish(DrListener *self, DrVM *vm) {
  EmptyDet *d = (EmptyDet *)self;
  if (d->opt.stats) {
    dr_flush_output(vm);
    fprintf(vm->err_file, "drvm: empty statistics\n  %-26s %12llu\n", "events", (unsigned long long)d->events);
  }
  free(d);
}

DrListener *dr_detector_new(DrVM *vm, const DrDetectorOptions *o, DrDetectorResult *result, char *err,
                            size_t errsize) {
  memset(result, 0, sizeof *result);
  err[0] = 0;
  if (!strcmp(o->name, "none")) return NULL;
  if (!strcmp(o->name, "empty")) {
    EmptyDet *e = dr_xcalloc(1, sizeof *e);
    e->base.name = "empty";
    e->base.events = 0; /* every event */
    e->base.event = empty_event;
    e->base.finish = empty_finish;
    e->opt = *o;
    e->result = result;
    return &e->base;
  }
  const DrDetOps *ops = dr_det_ops(o->name);
  if (!ops) {
    char list[256];
    dr_det_names(list, sizeof list);
    snprintf(err, errsize, "unknown detector '%s' (choose one of: %s)", o->name, list);
    return NULL;
  }
  if (o->potential_path && ops != &dr_hybrid_ops && ops != &dr_wcp_ops) {
    snprintf(err, errsize, "--potential-races needs --detector hybrid or wcp");
    return NULL;
  }
  bool filter = o->filter == DR_FILTER_TRADE;
  if (vm->esc_claimed || (filter && vm->nshadow_users)) {
    snprintf(err, errsize, "--filter trade works with one detector at a time: it hides local objects' accesses from the others");
    return NULL;
  }
  DrShadowUser user = {.free = shadow_free_hook};
  if (vm->nshadow_users == DR_SHADOW_USERS) {
    snprintf(err, errsize, "at most %d detectors can run at once", DR_SHADOW_USERS);
    return NULL;
  }
  DrDet *d = dr_xcalloc(1, sizeof *d);
  d->vm = vm;
  d->mem.total = &vm->ext_bytes; /* counts toward --max-memory */
  d->ops = ops;
  d->opt = *o;
  d->result = result;
  d->base.name = ops->name;
  d->base.event = det_event;
  d->base.finish = det_finish;
  /* no calls, returns or steps: stacks are read from the frames when needed */
  d->base.events = DR_EV_ALL & ~(DR_EV_BIT(DR_EV_CALL) | DR_EV_BIT(DR_EV_RETURN) | DR_EV_BIT(DR_EV_STEP) |
                                 DR_EV_BIT(DR_EV_NATIVE_ENTER) | DR_EV_BIT(DR_EV_NATIVE_EXIT));
  if (ops->lock_edges) {
    d->alone = true;
    d->base.events &= ~(DR_EV_BIT(DR_EV_READ) | DR_EV_BIT(DR_EV_WRITE));
  }
  if (ops->priv_size) d->priv = dr_xcalloc(1, ops->priv_size);
  d->filter = filter;
  vm->esc_claimed = filter;
  if (ops->fast && !vm->fast.owner) { /* the first that can: it answers for itself alone */
    d->fast_owner = true;
    vm->fast = (DrFastCheck){
        .owner = &d->base, /* on once added, if no other listener wants accesses */
        .nslots_off = (uint32_t)offsetof(DrShadow, nslots),
        .base = (uint32_t)sizeof(DrShadow),
        .stride = (uint32_t)ops->slot_size,
        .read_off = ops->fast_read_off,
        .write_off = ops->fast_write_off,
        .shared_bit = ops->fast_shared_bit,
        .shared_off = ops->fast_shared_off,
        .vec_off = (uint32_t)offsetof(DrCtxVC, vc.c),
        .vec_len_off = (uint32_t)offsetof(DrCtxVC, vc.n),
        .miss = det_fast_miss,
    };
  }
  if (d->filter && !ops->lock_edges) dr_det_filter_enable(d); /* they take every access from the start */
  d->accordion = ops->slot_forget && o->clocks != DR_CLOCKS_GROW;
  user.gc_end = d->accordion ? dr_det_accordion_gc_end : NULL;
  user.ctx = d;
  d->shadow_user = dr_shadow_add(vm, &user);
  if (vm->nall_threads) dr_det_slot(d, vm->all_threads[0]);
  return &d->base;
}

/* ------------------------------------------------------------ the view for hosts */

static DrDet *as_det(DrListener *l) { return l && l->event == det_event ? (DrDet *)l : NULL; }

/* A running (or ended, not retired) thread's clock by DrThread id. */
static const DrVC *clock_of_tid(const DrDet *d, int tid, uint32_t *slot) {
  if (tid < 0 || tid >= d->ntids || !d->tids[tid].slot1) return NULL;
  *slot = d->tids[tid].slot1 - 1;
  const DrDetThread *t = &d->threads[*slot];
  return t->live && !t->retired && t->tid == (uint32_t)tid ? &t->C : NULL;
}

bool dr_reg_det_clock(DrListener *l, int tid, DrBuf *out) {
  DrDet *d = as_det(l);
  if (!d || !d->ops->vector_clocks || tid < 0) return false;
  uint32_t slot;
  const DrVC *C = clock_of_tid(d, tid, &slot);
  bool any = false;
  for (uint32_t u = 0; C && u < C->n; u++)
    if (C->c[u]) {
      uint32_t rel, who = dr_det_slot_tid(d, u, C->c[u], &rel);
      dr_buf_printf(out, "%sT%u:%u", any ? " " : "", who, rel);
      any = true;
    }
  if (!any) dr_buf_append_str(out, "(no clock yet)");
  return true;
}

int dr_reg_det_race_count(DrListener *l) {
  DrDet *d = as_det(l);
  return d ? (int)d->nraces : 0;
}

bool dr_reg_det_race(DrListener *l, int i, DrvmRace *out) {
  DrDet *d = as_det(l);
  if (!d || i < 0 || (uint32_t)i >= (uint32_t)d->nraces) return false;
  const DrRace *r = &d->races[i];
  out->location = r->location;
  out->object = r->obj_name;
  out->text = r->text;
  out->thread = (int)r->cur.tid;
  out->prev_thread = (int)r->prev.tid;
  out->write = r->cur.write;
  out->prev_write = r->prev.write;
  out->predicted = r->predicted;
  out->statement = r->stmt;
  out->prev_statement = r->prev_stmt;
  return true;
}

bool dr_reg_det_explain(DrListener *l, DrVM *vm, DrObj *obj, DrClass *cls, int32_t index, bool is_static, int tid,
                        bool write, DrBuf *out) {
  (void)vm;
  DrDet *d = as_det(l);
  if (!d || !d->ops->explain || tid < 0) return false;
  const DrShadow *sh = is_static ? (cls->id < d->nstatics ? d->statics[cls->id] : NULL) : dr_det_obj_shadow(d, obj);
  if (!sh || index < 0 || (uint32_t)index >= sh->nslots) {
    dr_buf_append_str(out, "no access to it has been seen yet: nothing to be ordered with");
    return true;
  }
  uint32_t slot = UINT32_MAX;
  const DrVC *C = clock_of_tid(d, tid, &slot);
  DrVC none = {0};
  d->ops->explain(d, (const char *)DR_SHADOW_SLOTS(sh) + d->ops->slot_size * (size_t)index, C ? C : &none, slot,
                  (uint32_t)tid, write, out);
  return true;
}
