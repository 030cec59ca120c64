/* The topological filter (vm/escape.h, TRaDe) from the inside and from
 * the outside.  First the mechanism alone, driven by hand on a compiled
 * program's classes with DrThreads that have no frames and a spy sink
 * that records what the filter asks and hands over: who owns a new
 * object, how publication spreads (and where it stops), what a local
 * record keeps (an epoch's first access or the last, and their order)
 * and when it is handed over.  Then real programs, one per way an object
 * escapes, run with detector options "filter=trade" and without: the
 * detectors must report the very same races, and FastTrack the expected
 * locations. */
#include <string.h>

#include "../../include/drvm.h"
#include "../../vm/vm.h"
#include "check.h"
#include "run_prog.h"

/* ================================================ the spy sink */

typedef struct {
  DrThread *th;
  DrMethod *m;
  uint32_t pc;
  bool write;
} CtxCall;

#define SPY_SLOTS 8

typedef struct {
  DrThread *owner;
  DrObj *o;
  bool rec_is_o_local; /* the record handed over is o->local */
  bool in_listener;
  uint32_t epoch, lockset, nslots, used;
  uint32_t ctx[2 * SPY_SLOTS];
} FlushCall;

typedef struct {
  DrVM *vm;
  CtxCall ctx[256];
  int nctx;
  FlushCall fl[64];
  int nfl;
} Spy;

/* The context id of an access at pc: 100 + pc, so an entry names its access. */
#define CTX_OF(pc) (100u + (uint32_t)(pc))

static uint32_t spy_ctx(void *self, DrThread *th, DrMethod *m, uint32_t pc, bool write) {
  Spy *s = self;
  if (s->nctx < (int)DR_ARRAY_LEN(s->ctx)) s->ctx[s->nctx] = (CtxCall){th, m, pc, write};
  s->nctx++;
  return CTX_OF(pc);
}

static void spy_flush(void *self, DrThread *owner, DrObj *o, const DrLocalRec *rec) {
  Spy *s = self;
  if (s->nfl >= (int)DR_ARRAY_LEN(s->fl)) {
    s->nfl++;
    return;
  }
  FlushCall *f = &s->fl[s->nfl++];
  memset(f, 0, sizeof *f);
  f->owner = owner;
  f->o = o;
  f->rec_is_o_local = o->local == rec;
  f->in_listener = s->vm->in_listener;
  f->epoch = rec->epoch;
  f->lockset = rec->lockset;
  f->nslots = rec->nslots;
  f->used = rec->used;
  for (uint32_t i = 0; i < 2 * rec->nslots && i < 2 * SPY_SLOTS; i++) f->ctx[i] = rec->ctx[i];
}

static DrEscSink spy_sink(Spy *s, DrVM *vm, bool keep_last) {
  memset(s, 0, sizeof *s);
  s->vm = vm;
  DrEscSink k = {.self = s, .ctx = spy_ctx, .flush = spy_flush, .keep_last = keep_last};
  return k;
}

/* ================================================ the fixture */

static const char *const unit_prog = "public class Main { public static void main(String[] a) {} }\n"
                                     "class Node { Node next; Node other; Object any; long bits; int v; int w; }\n";

#define NTH 3

typedef struct {
  DrVM vm;
  bool ok;
  DrClass *node, *node_arr, *obj_arr, *int_arr, *long_arr;
  int f_next, f_other, f_any, f_bits, f_v, f_w;
  DrThread *th[NTH];
  DrMethod *m; /* any method: the spy only records it */
} Fx;

static int field_slot(const DrClass *c, const char *name) {
  for (int i = 0; c && i < c->nfields; i++)
    if (!strcmp(c->field_names[i], name)) return i;
  return -1;
}

static bool fx_open(Fx *f, DrCheck *t) {
  memset(f, 0, sizeof *f);
  dr_vm_init(&f->vm);
  DrClass *mainc = compile_text(&f->vm, unit_prog, "esc.dl");
  CHECK(t, mainc != NULL);
  if (!mainc) {
    dr_vm_free(&f->vm);
    return false;
  }
  f->node = dr_find_class(&f->vm, "Node");
  CHECK(t, f->node != NULL);
  if (!f->node) {
    dr_vm_free(&f->vm);
    return false;
  }
  f->node_arr = dr_array_class(&f->vm, f->node);
  f->obj_arr = dr_array_class(&f->vm, f->vm.known[DR_WK_OBJECT]);
  f->int_arr = dr_prim_array_class(&f->vm, DR_K_INT);
  f->long_arr = dr_prim_array_class(&f->vm, DR_K_LONG);
  f->f_next = field_slot(f->node, "next");
  f->f_other = field_slot(f->node, "other");
  f->f_any = field_slot(f->node, "any");
  f->f_bits = field_slot(f->node, "bits");
  f->f_v = field_slot(f->node, "v");
  f->f_w = field_slot(f->node, "w");
  CHECK(t, f->f_next >= 0 && f->f_other >= 0 && f->f_any >= 0 && f->f_bits >= 0 && f->f_v >= 0 && f->f_w >= 0);
  CHECK(t, f->node->field_is_ref[f->f_next] && !f->node->field_is_ref[f->f_bits]);
  for (int i = 0; i < NTH; i++) {
    f->th[i] = dr_thread_new(&f->vm);
    CHECK(t, f->th[i]->id == i);
  }
  for (int i = 0; i < f->vm.nmethods && !f->m; i++)
    if (f->vm.methods[i]->owner == mainc) f->m = f->vm.methods[i];
  CHECK(t, f->m != NULL);
  f->vm.thread = f->th[0];
  f->ok = f->f_next >= 0 && f->f_bits >= 0 && f->f_v >= 0 && f->f_w >= 0 && f->f_other >= 0 && f->f_any >= 0;
  return f->ok;
}

static void fx_close(Fx *f) {
  if (f->vm.esc_on) dr_esc_enable(&f->vm, NULL);
  dr_vm_free(&f->vm);
}

/* A new rooted Node / array, made by thread tid. */
static DrObj *mk(Fx *f, int tid) {
  f->vm.thread = tid >= 0 ? f->th[tid] : NULL;
  DrObj *o = dr_new_instance(&f->vm, f->node);
  dr_push_root(&f->vm, o);
  return o;
}

static DrArray *mk_arr(Fx *f, int tid, DrClass *c, int32_t n) {
  f->vm.thread = tid >= 0 ? f->th[tid] : NULL;
  DrArray *a = dr_new_array(&f->vm, c, n);
  dr_push_root(&f->vm, &a->hdr);
  return a;
}

static void set_ref(DrObj *o, int slot, DrObj *v) { ((DrInstance *)o)->fields[slot].ref = v; }

static void set_elem(DrArray *a, int i, DrObj *v) { ((DrObj **)DR_ARRAY_DATA(a))[i] = v; }

static int has_owner(DrObj *o) { return dr_obj_owner(o) != 0; }

/* ================================================ 1. ownership at allocation */

static void test_ownership(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t)) return;
  DrVM *vm = &f.vm;
  const DrEscStats *st = dr_esc_stats(vm);

  /* off: every object is global, nothing is counted */
  CHECK(t, !vm->esc_on);
  DrObj *before = mk(&f, 1);
  DrArray *before_arr = mk_arr(&f, 2, f.int_arr, 4);
  CHECK(t, dr_obj_owner(before) == 0 && dr_obj_owner(&before_arr->hdr) == 0);
  CHECK(t, st->allocated == 0);
  /* the compiler's objects (string constants) are global too */
  for (DrObj *o = vm->objects; o; o = o->gc_next) CHECK(t, dr_obj_owner(o) == 0);

  Spy spy;
  DrEscSink sink = spy_sink(&spy, vm, false);
  dr_esc_enable(vm, &sink);
  CHECK(t, vm->esc_on);
  CHECK(t, before->flags >> DR_OBJ_OWNER_SHIFT == 0); /* made before: stays global */

  DrObj *inst[NTH];
  DrArray *ia[NTH], *ra[NTH];
  DrString *str[NTH];
  for (int i = 0; i < NTH; i++) {
    inst[i] = mk(&f, i);
    ia[i] = mk_arr(&f, i, f.int_arr, 3);
    ra[i] = mk_arr(&f, i, f.node_arr, 2);
    vm->thread = f.th[i];
    str[i] = dr_new_string_utf8(vm, "local text");
    dr_push_root(vm, &str[i]->hdr);
  }
  for (int i = 0; i < NTH; i++) {
    uint32_t want = (uint32_t)f.th[i]->id + 1u;
    CHECK(t, dr_obj_owner(inst[i]) == want);
    CHECK(t, dr_obj_owner(&ia[i]->hdr) == want);
    CHECK(t, dr_obj_owner(&ra[i]->hdr) == want);
    CHECK(t, dr_obj_owner(&str[i]->hdr) == want);
  }
  CHECK(t, dr_obj_owner(inst[0]) == 1 && dr_obj_owner(inst[2]) == 3);
  CHECK(t, st->allocated == 4 * NTH);
  CHECK(t, st->escaped == 0 && st->filtered == 0 && st->flushes == 0);
  /* no running thread (the VM's own allocations): global */
  DrObj *nobody = mk(&f, -1);
  CHECK(t, dr_obj_owner(nobody) == 0);
  CHECK(t, st->allocated == 4 * NTH);

  /* the owner lives in the high bits: the GC's mark bit does not disturb it */
  dr_gc_collect(vm);
  for (int i = 0; i < NTH; i++) {
    CHECK(t, dr_obj_owner(inst[i]) == (uint32_t)i + 1u);
    CHECK(t, !(inst[i]->flags & DR_OBJ_MARKED));
  }
  CHECK(t, dr_obj_owner(before) == 0);

  /* the largest owner id that fits, and one that does not (global) */
  int saved = f.th[2]->id;
  f.th[2]->id = (int)DR_OBJ_OWNER_MAX - 1;
  DrObj *top = mk(&f, 2);
  CHECK(t, dr_obj_owner(top) == DR_OBJ_OWNER_MAX);
  CHECK(t, st->allocated == 4 * NTH + 1);
  f.th[2]->id = (int)DR_OBJ_OWNER_MAX;
  DrObj *over = mk(&f, 2);
  CHECK(t, dr_obj_owner(over) == 0);
  CHECK(t, st->allocated == 4 * NTH + 1);
  f.th[2]->id = saved;
  top->flags &= (1u << DR_OBJ_OWNER_SHIFT) - 1u; /* no such thread: make it global before anything flushes */

  /* a record, then off: every object global, every record gone */
  dr_esc_note(vm, f.th[0], inst[0], f.f_v, true, f.m, 7);
  CHECK(t, inst[0]->local != NULL && st->record_bytes > 0);
  dr_esc_enable(vm, NULL);
  CHECK(t, !vm->esc_on);
  CHECK(t, inst[0]->local == NULL && st->record_bytes == 0);
  for (DrObj *o = vm->objects; o; o = o->gc_next) CHECK(t, dr_obj_owner(o) == 0);
  DrObj *after = mk(&f, 1);
  CHECK(t, dr_obj_owner(after) == 0);
  CHECK(t, st->allocated == 4 * NTH + 1);
  fx_close(&f);
}

/* ================================================ 2. publication */

static void test_publish(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t)) return;
  DrVM *vm = &f.vm;
  const DrEscStats *st = dr_esc_stats(vm);
  Spy spy;
  DrEscSink sink = spy_sink(&spy, vm, false);
  dr_esc_enable(vm, &sink);

  /* NULL and a global object: nothing */
  dr_esc_publish(vm, NULL);
  CHECK(t, st->escaped == 0);

  /* a chain of 10,000 nodes: iterative, every one global, each counted once */
  enum { CHAIN = 10000 };
  dr_push_root(vm, NULL);
  int head_root = vm->nroots - 1;
  DrObj *head = NULL;
  f.vm.thread = f.th[1];
  for (int i = 0; i < CHAIN; i++) {
    DrObj *n = dr_new_instance(vm, f.node);
    set_ref(n, f.f_next, head);
    ((DrInstance *)n)->fields[f.f_v].i = i;
    head = n;
    vm->roots[head_root] = head;
  }
  int local = 0, len = 0;
  for (DrObj *n = head; n; n = ((DrInstance *)n)->fields[f.f_next].ref, len++) local += dr_obj_owner(n) == 2;
  CHECK(t, len == CHAIN && local == CHAIN);
  uint64_t esc0 = st->escaped;
  dr_esc_publish(vm, head);
  int global = 0;
  for (DrObj *n = head; n; n = ((DrInstance *)n)->fields[f.f_next].ref) global += !has_owner(n);
  CHECK(t, global == CHAIN);
  CHECK(t, st->escaped - esc0 == CHAIN);
  CHECK(t, spy.nfl == 0); /* no records: nothing to hand over */
  CHECK(t, vm->esc_nstack == 0);
  /* publishing it again changes nothing */
  dr_esc_publish(vm, head);
  CHECK(t, st->escaped - esc0 == CHAIN);

  /* through a reference array, and an array of arrays */
  DrArray *outer = mk_arr(&f, 0, dr_array_class(vm, f.obj_arr), 2);
  DrArray *inner = mk_arr(&f, 0, f.obj_arr, 3);
  DrObj *e0 = mk(&f, 0), *e2 = mk(&f, 0), *e2next = mk(&f, 0);
  set_elem(outer, 1, &inner->hdr);
  set_elem(inner, 0, e0);
  set_elem(inner, 2, e2); /* element 1 stays null */
  set_ref(e2, f.f_next, e2next);
  CHECK(t, has_owner(&outer->hdr) && has_owner(&inner->hdr) && has_owner(e0) && has_owner(e2) && has_owner(e2next));
  esc0 = st->escaped;
  dr_esc_publish(vm, &outer->hdr);
  CHECK(t,
        !has_owner(&outer->hdr) && !has_owner(&inner->hdr) && !has_owner(e0) && !has_owner(e2) && !has_owner(e2next));
  CHECK(t, st->escaped - esc0 == 5);

  /* primitive slots are not references: a long field or long[] element
   * holding a local object's address does not make it global */
  DrObj *hidden = mk(&f, 0);
  DrObj *carrier = mk(&f, 0);
  ((DrInstance *)carrier)->fields[f.f_bits].j = (int64_t)(intptr_t)hidden;
  DrArray *longs = mk_arr(&f, 0, f.long_arr, 2);
  ((int64_t *)DR_ARRAY_DATA(longs))[0] = (int64_t)(intptr_t)hidden;
  ((int64_t *)DR_ARRAY_DATA(longs))[1] = (int64_t)(intptr_t)hidden;
  esc0 = st->escaped;
  dr_esc_publish(vm, carrier);
  dr_esc_publish(vm, &longs->hdr);
  CHECK(t, !has_owner(carrier) && !has_owner(&longs->hdr));
  CHECK(t, dr_obj_owner(hidden) == 1);
  CHECK(t, st->escaped - esc0 == 2);
  /* an int[] and a String: themselves only */
  DrArray *ints = mk_arr(&f, 0, f.int_arr, 5);
  vm->thread = f.th[0];
  DrString *s = dr_new_string_utf8(vm, "text");
  dr_push_root(vm, &s->hdr);
  CHECK(t, has_owner(&ints->hdr) && has_owner(&s->hdr));
  dr_esc_publish(vm, &ints->hdr);
  dr_esc_publish(vm, &s->hdr);
  CHECK(t, !has_owner(&ints->hdr) && !has_owner(&s->hdr));
  CHECK(t, st->escaped - esc0 == 4);

  /* an object already global stops the walk: what only it references
   * stays as it is (a global object never references a local one, so
   * nothing behind it can be local; here we make one that does) */
  DrObj *a = mk(&f, 0), *g = mk(&f, 0), *beyond = mk(&f, 0), *side = mk(&f, 0);
  set_ref(a, f.f_next, g);
  set_ref(a, f.f_other, side);
  set_ref(g, f.f_next, beyond);
  g->flags &= (1u << DR_OBJ_OWNER_SHIFT) - 1u; /* g is global */
  esc0 = st->escaped;
  dr_esc_publish(vm, a);
  CHECK(t, !has_owner(a) && !has_owner(side));
  CHECK(t, dr_obj_owner(beyond) == 1);
  CHECK(t, st->escaped - esc0 == 2);
  dr_esc_publish(vm, g); /* global: nothing, not even behind it */
  CHECK(t, dr_obj_owner(beyond) == 1);
  CHECK(t, st->escaped - esc0 == 2);

  /* cycles: a two-node cycle, a self-loop, an array holding itself, and
   * a diamond (two paths to one node): each once */
  DrObj *c1 = mk(&f, 2), *c2 = mk(&f, 2), *self = mk(&f, 2), *d1 = mk(&f, 2), *d2 = mk(&f, 2), *d3 = mk(&f, 2);
  DrArray *selfarr = mk_arr(&f, 2, f.obj_arr, 3);
  set_ref(c1, f.f_next, c2);
  set_ref(c2, f.f_next, c1);
  set_ref(c2, f.f_other, self);
  set_ref(self, f.f_next, self);
  set_ref(self, f.f_any, &selfarr->hdr);
  set_elem(selfarr, 0, &selfarr->hdr);
  set_elem(selfarr, 1, d1);
  set_elem(selfarr, 2, &selfarr->hdr);
  set_ref(d1, f.f_next, d2);
  set_ref(d1, f.f_other, d3);
  set_ref(d2, f.f_next, d3);
  set_ref(d3, f.f_next, c1); /* back to the start */
  esc0 = st->escaped;
  dr_esc_publish(vm, c1);
  CHECK(t, !has_owner(c1) && !has_owner(c2) && !has_owner(self) && !has_owner(&selfarr->hdr));
  CHECK(t, !has_owner(d1) && !has_owner(d2) && !has_owner(d3));
  CHECK(t, st->escaped - esc0 == 7);
  CHECK(t, vm->esc_nstack == 0);
  CHECK(t, spy.nfl == 0);
  fx_close(&f);
}

/* ================================================ 3. records and their flushes */

#define RD(f, o, slot, pc) dr_esc_note(&(f)->vm, (f)->th[0], (o), (slot), false, (f)->m, (pc))
#define WR(f, o, slot, pc) dr_esc_note(&(f)->vm, (f)->th[0], (o), (slot), true, (f)->m, (pc))
#define R_OF(o, slot) ((o)->local->ctx[2 * (slot)])
#define W_OF(o, slot) ((o)->local->ctx[2 * (slot) + 1] & ~DR_LOCAL_WRITE_LAST)
#define WLAST(o, slot) (((o)->local->ctx[2 * (slot) + 1] & DR_LOCAL_WRITE_LAST) != 0)

static void test_records_first(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t)) return;
  DrVM *vm = &f.vm;
  const DrEscStats *st = dr_esc_stats(vm);
  Spy spy;
  DrEscSink sink = spy_sink(&spy, vm, false); /* FastTrack's: an epoch's first */
  dr_esc_enable(vm, &sink);
  DrThread *th = f.th[0];
  th->esc_epoch = 5;
  th->esc_lockset = 0;
  DrObj *o = mk(&f, 0);
  int v = f.f_v, w = f.f_w;

  /* read then write: both the first of their kind, the write last */
  CHECK(t, o->local == NULL);
  RD(&f, o, v, 1);
  CHECK(t, o->local != NULL);
  if (!o->local) {
    fx_close(&f);
    return;
  }
  CHECK(t, o->local->nslots == (uint32_t)f.node->nfields);
  CHECK(t, o->local->epoch == 5 && o->local->lockset == 0);
  CHECK(t, st->record_bytes == sizeof(DrLocalRec) + 2 * sizeof(uint32_t) * (size_t)f.node->nfields);
  CHECK(t, st->record_peak >= st->record_bytes);
  WR(&f, o, v, 2);
  RD(&f, o, v, 3); /* not the first: no context asked */
  WR(&f, o, v, 4);
  CHECK(t, R_OF(o, v) == CTX_OF(1));
  CHECK(t, W_OF(o, v) == CTX_OF(2));
  CHECK(t, WLAST(o, v)); /* the first write came after the first read */
  CHECK(t, o->local->used == 2);
  CHECK(t, spy.nctx == 2);
  CHECK(t, spy.nctx >= 2 && spy.ctx[0].pc == 1 && !spy.ctx[0].write && spy.ctx[0].th == th && spy.ctx[0].m == f.m);
  CHECK(t, spy.nctx >= 2 && spy.ctx[1].pc == 2 && spy.ctx[1].write);
  /* write then read, on another slot: the write is not last */
  WR(&f, o, w, 5);
  CHECK(t, WLAST(o, w));
  RD(&f, o, w, 6);
  CHECK(t, W_OF(o, w) == CTX_OF(5) && R_OF(o, w) == CTX_OF(6));
  CHECK(t, !WLAST(o, w));
  WR(&f, o, w, 7); /* a later write: the first stays, and its order */
  CHECK(t, W_OF(o, w) == CTX_OF(5) && !WLAST(o, w));
  CHECK(t, o->local->used == 4);
  CHECK(t, st->filtered == 7);
  CHECK(t, spy.nfl == 0 && st->flushes == 0);

  /* a slot past the end: counted, not kept */
  RD(&f, o, f.node->nfields + 3, 8);
  CHECK(t, o->local->used == 4 && st->filtered == 8 && spy.nctx == 4);

  /* another lockset in the same epoch: FastTrack's record goes on */
  th->esc_lockset = 9;
  RD(&f, o, v, 9);
  CHECK(t, spy.nfl == 0 && o->local->epoch == 5 && o->local->lockset == 0 && R_OF(o, v) == CTX_OF(1));

  /* a new epoch: the record goes to the sink with the old epoch, then starts anew */
  th->esc_epoch = 6;
  WR(&f, o, v, 10);
  CHECK(t, spy.nfl == 1 && st->flushes == 1);
  if (spy.nfl >= 1) {
    FlushCall *c = &spy.fl[0];
    CHECK(t, c->owner == th && c->o == o && c->rec_is_o_local && c->in_listener);
    CHECK(t, c->epoch == 5 && c->lockset == 0);
    CHECK(t, c->used == 4);
    CHECK(t, c->ctx[2 * v] == CTX_OF(1) && c->ctx[2 * v + 1] == (CTX_OF(2) | DR_LOCAL_WRITE_LAST));
    CHECK(t, c->ctx[2 * w] == CTX_OF(6) && c->ctx[2 * w + 1] == CTX_OF(5));
  }
  CHECK(t, !vm->in_listener);
  CHECK(t, o->local->epoch == 6 && o->local->lockset == 9);
  CHECK(t, o->local->used == 1);
  CHECK(t, W_OF(o, v) == CTX_OF(10) && R_OF(o, v) == 0 && R_OF(o, w) == 0 && W_OF(o, w) == 0);
  CHECK(t, WLAST(o, v));

  /* publishing hands the record over once, frees it, and no more */
  uint64_t esc0 = st->escaped;
  dr_esc_publish(vm, o);
  CHECK(t, spy.nfl == 2 && st->flushes == 2);
  if (spy.nfl >= 2) {
    FlushCall *c = &spy.fl[1];
    CHECK(t, c->owner == th && c->o == o && c->epoch == 6 && c->lockset == 9 && c->used == 1);
    CHECK(t, c->ctx[2 * v + 1] == (CTX_OF(10) | DR_LOCAL_WRITE_LAST) && c->ctx[2 * v] == 0);
  }
  CHECK(t, o->local == NULL && !has_owner(o));
  CHECK(t, st->record_bytes == 0);
  CHECK(t, st->escaped - esc0 == 1);
  dr_esc_publish(vm, o);
  CHECK(t, spy.nfl == 2 && st->flushes == 2);

  /* a record that keeps nothing (its only access was past the end) is
   * freed at publication, not handed over */
  DrObj *p = mk(&f, 0);
  RD(&f, p, f.node->nfields, 11);
  CHECK(t, p->local != NULL && p->local->used == 0);
  dr_esc_publish(vm, p);
  CHECK(t, spy.nfl == 2 && st->flushes == 2 && p->local == NULL && !has_owner(p));

  /* a string has no slots: no record */
  vm->thread = th;
  DrString *s = dr_new_string_utf8(vm, "x");
  dr_push_root(vm, &s->hdr);
  RD(&f, &s->hdr, 0, 13);
  CHECK(t, s->hdr.local == NULL);

  /* an array's slots are its elements */
  DrArray *arr = mk_arr(&f, 0, f.int_arr, 3);
  WR(&f, &arr->hdr, 2, 14);
  CHECK(t, arr->hdr.local && arr->hdr.local->nslots == 3 && W_OF(&arr->hdr, 2) == CTX_OF(14));
  /* the GC frees a dead local object's record */
  CHECK(t, st->record_bytes > 0);
  vm->nroots = 0;
  dr_gc_collect(vm);
  CHECK(t, st->record_bytes == 0);
  CHECK(t, spy.nfl == 2);

  CHECK(t, st->filtered == 13);
  CHECK(t, st->allocated == 4);
  CHECK(t, st->escaped == 2);
  CHECK(t, st->flushes == (uint64_t)spy.nfl);
  fx_close(&f);
}

static void test_records_last(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t)) return;
  DrVM *vm = &f.vm;
  const DrEscStats *st = dr_esc_stats(vm);
  Spy spy;
  DrEscSink sink = spy_sink(&spy, vm, true); /* Eraser's and hybrid's: the last */
  dr_esc_enable(vm, &sink);
  DrThread *th = f.th[0];
  th->esc_epoch = 3;
  th->esc_lockset = 1;
  DrObj *o = mk(&f, 0);
  int v = f.f_v, w = f.f_w;

  RD(&f, o, v, 1);
  RD(&f, o, v, 2);
  CHECK(t, o->local && R_OF(o, v) == CTX_OF(2));
  if (!o->local) {
    fx_close(&f);
    return;
  }
  CHECK(t, spy.nctx == 2); /* each access asks its context */
  WR(&f, o, v, 3);
  CHECK(t, W_OF(o, v) == CTX_OF(3) && WLAST(o, v)); /* read then write: the write last */
  WR(&f, o, v, 4);
  CHECK(t, W_OF(o, v) == CTX_OF(4) && WLAST(o, v));
  RD(&f, o, v, 5);
  CHECK(t, R_OF(o, v) == CTX_OF(5) && W_OF(o, v) == CTX_OF(4));
  CHECK(t, !WLAST(o, v)); /* write then read: cleared */
  WR(&f, o, v, 6);
  CHECK(t, WLAST(o, v) && W_OF(o, v) == CTX_OF(6));
  /* a read on another slot leaves this slot's order alone */
  RD(&f, o, w, 7);
  CHECK(t, WLAST(o, v) && !WLAST(o, w) && W_OF(o, w) == 0 && R_OF(o, w) == CTX_OF(7));
  CHECK(t, o->local->used == 3 && spy.nctx == 7 && spy.nfl == 0);

  /* another lockset in the same epoch: handed over, starts anew */
  th->esc_lockset = 2;
  WR(&f, o, w, 8);
  CHECK(t, spy.nfl == 1 && st->flushes == 1);
  if (spy.nfl >= 1) {
    FlushCall *c = &spy.fl[0];
    CHECK(t, c->o == o && c->owner == th && c->epoch == 3 && c->lockset == 1 && c->used == 3);
    CHECK(t, c->ctx[2 * v] == CTX_OF(5) && c->ctx[2 * v + 1] == (CTX_OF(6) | DR_LOCAL_WRITE_LAST));
    CHECK(t, c->ctx[2 * w] == CTX_OF(7) && c->ctx[2 * w + 1] == 0);
  }
  CHECK(t, o->local->epoch == 3 && o->local->lockset == 2 && o->local->used == 1);
  CHECK(t, W_OF(o, w) == CTX_OF(8) && WLAST(o, w) && R_OF(o, v) == 0 && W_OF(o, v) == 0);

  /* another epoch, same lockset: handed over too */
  th->esc_epoch = 4;
  RD(&f, o, v, 9);
  CHECK(t, spy.nfl == 2);
  if (spy.nfl >= 2) {
    FlushCall *c = &spy.fl[1];
    CHECK(t,
          c->epoch == 3 && c->lockset == 2 && c->used == 1 && c->ctx[2 * w + 1] == (CTX_OF(8) | DR_LOCAL_WRITE_LAST));
  }
  CHECK(t, o->local->epoch == 4 && o->local->lockset == 2 && R_OF(o, v) == CTX_OF(9) && W_OF(o, w) == 0);

  /* publish: once, freed */
  dr_esc_publish(vm, o);
  CHECK(t, spy.nfl == 3 && st->flushes == 3 && o->local == NULL && !has_owner(o));
  if (spy.nfl >= 3) CHECK(t, spy.fl[2].epoch == 4 && spy.fl[2].used == 1 && spy.fl[2].ctx[2 * v] == CTX_OF(9));
  dr_esc_publish(vm, o);
  CHECK(t, spy.nfl == 3);
  /* published transitively: each record once, from the object that holds it */
  DrObj *h = mk(&f, 0), *in = mk(&f, 0);
  set_ref(h, f.f_next, in);
  WR(&f, h, v, 10);
  WR(&f, in, w, 11);
  dr_esc_publish(vm, h);
  CHECK(t, spy.nfl == 5 && h->local == NULL && in->local == NULL);
  bool saw_h = false, saw_in = false;
  for (int i = 3; i < spy.nfl && i < 5; i++) {
    saw_h |= spy.fl[i].o == h && spy.fl[i].ctx[2 * v + 1] == (CTX_OF(10) | DR_LOCAL_WRITE_LAST);
    saw_in |= spy.fl[i].o == in && spy.fl[i].ctx[2 * w + 1] == (CTX_OF(11) | DR_LOCAL_WRITE_LAST);
  }
  CHECK(t, saw_h && saw_in);
  CHECK(t, st->filtered == 11 && st->flushes == 5 && st->escaped == 3 && st->allocated == 3);
  CHECK(t, st->record_bytes == 0);
  fx_close(&f);
}

/* ================================================ 4. real programs */

typedef struct {
  char *key; /* every field of the race, for comparing runs */
  char *location;
} Race;

typedef struct {
  Race *r;
  int n;
  int status;
  uint64_t allocated, escaped, filtered, flushes;
  int news_checked, news_local, access_checked, access_local, access_unknown, child_news_local;
} RunOut;

static void out_free(RunOut *o) {
  for (int i = 0; i < o->n; i++) {
    free(o->r[i].key);
    free(o->r[i].location);
  }
  free(o->r);
  memset(o, 0, sizeof *o);
}

static void discard(void *user, const char *text, size_t len) {
  (void)user;
  (void)text;
  (void)len;
}

/* The object a listener's event names ("int[]", 3: int[]#3). */
static DrObj *find_obj(DrVM *vm, const char *cls, uint32_t serial) {
  char buf[128];
  for (DrObj *o = vm->objects; o; o = o->gc_next)
    if (o->serial == serial && !strcmp(dr_class_display_name(o->cls, buf, sizeof buf), cls)) return o;
  return NULL;
}

/* A host listener that checks every object it is told of: a new one is
 * local to its maker once the filter is on (global before), and no
 * access to a local object reaches a listener. */
static void watch(void *user, DrVM *vm, const DrvmEvent *e) {
  RunOut *o = user;
  if (e->kind == DRVM_EV_NEW) {
    DrObj *n = vm->objects; /* the newest */
    if (!n || n->serial != e->object) return;
    o->news_checked++;
    if (vm->esc_on) {
      if (dr_obj_owner(n) == (uint32_t)e->thread + 1u) {
        o->news_local++;
        if (e->thread > 0) o->child_news_local++;
      }
    } else if (dr_obj_owner(n) != 0) {
      o->news_local = -1000000; /* owned while the filter is off */
    }
  } else if ((e->kind == DRVM_EV_READ || e->kind == DRVM_EV_WRITE) && !e->is_static && e->object) {
    DrObj *x = find_obj(vm, e->cls, e->object);
    if (!x) {
      o->access_unknown++;
      return;
    }
    o->access_checked++;
    if (dr_obj_owner(x)) o->access_local++;
  }
}

static char *dupstr(const char *s) { return dr_strdup(s ? s : "(null)"); }

/* Runs src under det (its options plus "all-races quiet", and
 * "filter=trade" if filter) with sched and seed. */
static bool run_dl_keep(const char *src, const char *det, bool filter, const char *sched, uint64_t seed,
                        bool watch_events, RunOut *out, DrVM **keep) {
  memset(out, 0, sizeof *out);
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.seed = seed;
  cfg.max_steps = 5000000;
  cfg.write_out = discard;
  cfg.write_err = discard;
  char err[256];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  if (!vm) return false;
  bool ok = drvm_compile_string(vm, "esc.dl", src, strlen(src));
  if (!ok) drvm_print_diags(vm, stderr);
  ok = ok && drvm_set_scheduler(vm, sched, NULL);
  ok = ok && drvm_set_detector(vm, det, filter ? "all-races quiet filter=trade" : "all-races quiet");
  if (ok && watch_events)
    ok = drvm_add_listener(vm, DRVM_EV_BIT(DRVM_EV_NEW) | DRVM_EV_BIT(DRVM_EV_READ) | DRVM_EV_BIT(DRVM_EV_WRITE), watch,
                           out);
  ok = ok && drvm_start(vm, 0, NULL) && drvm_run_to_end(vm);
  if (!ok) {
    fprintf(stderr, "run_dl %s %s: %s\n", det, sched, drvm_error(vm));
    drvm_free(vm);
    return false;
  }
  const DrEscStats *st = dr_esc_stats(vm);
  out->allocated = st->allocated;
  out->escaped = st->escaped;
  out->filtered = st->filtered;
  out->flushes = st->flushes;
  int n = drvm_race_count(vm);
  out->r = calloc((size_t)(n > 0 ? n : 1), sizeof(Race));
  for (int i = 0; i < n; i++) {
    DrvmRace r;
    if (!drvm_race(vm, i, &r)) continue;
    /* the report's text names the rerun command, which names the filter */
    char *text = dupstr(r.text);
    for (char *p; (p = strstr(text, " --filter trade"));) memmove(p, p + 15, strlen(p + 15) + 1);
    char *key = dr_fmt("%s|%s|T%d %c|T%d %c|%s|%s|%d|%s", r.location, r.object ? r.object : "-", r.thread,
                       r.write ? 'w' : 'r', r.prev_thread, r.prev_write ? 'w' : 'r', r.statement ? r.statement : "-",
                       r.prev_statement ? r.prev_statement : "-", r.predicted, text);
    free(text);
    out->r[out->n].key = key;
    out->r[out->n].location = dupstr(r.location);
    out->n++;
  }
  if (keep) {
    *keep = vm; /* the caller looks at it, then run_end */
    return true;
  }
  DrvmResult res;
  out->status = drvm_finish(vm, &res);
  drvm_free(vm);
  return true;
}

static void run_end(DrVM *vm, RunOut *out) {
  DrvmResult res;
  out->status = drvm_finish(vm, &res);
  drvm_free(vm);
}

static bool run_dl(const char *src, const char *det, bool filter, const char *sched, uint64_t seed, bool watch_events,
                   RunOut *out) {
  return run_dl_keep(src, det, filter, sched, seed, watch_events, out, NULL);
}

static int cmp_race(const void *a, const void *b) { return strcmp(((const Race *)a)->key, ((const Race *)b)->key); }

static bool same_races(RunOut *a, RunOut *b) {
  if (a->n != b->n) return false;
  qsort(a->r, (size_t)a->n, sizeof(Race), cmp_race);
  qsort(b->r, (size_t)b->n, sizeof(Race), cmp_race);
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->r[i].key, b->r[i].key)) return false;
  return true;
}

static void print_races(const char *what, const RunOut *o) {
  fprintf(stderr, "  %s: %d races\n", what, o->n);
  for (int i = 0; i < o->n; i++) fprintf(stderr, "    %.*s\n", (int)strcspn(o->r[i].key, "\n"), o->r[i].key);
}

/* The distinct race locations are exactly want (NULL-terminated). */
static bool locations_are(const RunOut *o, const char *const *want) {
  int nwant = 0;
  for (; want[nwant]; nwant++) {
    bool found = false;
    for (int i = 0; i < o->n; i++) found |= !strcmp(o->r[i].location, want[nwant]);
    if (!found) return false;
  }
  for (int i = 0; i < o->n; i++) {
    bool expected = false;
    for (int k = 0; k < nwant; k++) expected |= !strcmp(o->r[i].location, want[k]);
    if (!expected) return false;
  }
  return true;
}

static const char *const detectors[] = {"ft", "djit", "basicvc", "eraser", "hybrid"};
static const char *const scheds[] = {"native", "random"};

/* src under every detector the filter applies to, both schedulers and
 * seeds 1..3: the same races with the filter as without; FastTrack's
 * locations are want; with the filter, ft filtered at least min_filtered
 * accesses and at least min_escaped objects escaped. */
static void differential(DrCheck *t, const char *name, const char *src, const char *const *want, uint64_t min_filtered,
                         uint64_t min_escaped) {
  for (size_t d = 0; d < DR_ARRAY_LEN(detectors); d++)
    for (size_t s = 0; s < DR_ARRAY_LEN(scheds); s++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        RunOut plain, filt;
        bool ok1 = run_dl(src, detectors[d], false, scheds[s], seed, false, &plain);
        bool ok2 = run_dl(src, detectors[d], true, scheds[s], seed, false, &filt);
        CHECK(t, ok1 && ok2);
        if (!ok1 || !ok2) {
          fprintf(stderr, "  %s: %s %s seed %llu did not run\n", name, detectors[d], scheds[s],
                  (unsigned long long)seed);
          out_free(&plain);
          out_free(&filt);
          return;
        }
        bool same = same_races(&plain, &filt) && plain.status == filt.status;
        CHECK(t, same);
        CHECK(t, plain.allocated == 0 && plain.filtered == 0); /* off without the option */
        CHECK(t, filt.allocated > 0);
        if (!same) {
          fprintf(stderr, "  %s: %s %s seed %llu: the filter changed the races (status %d vs %d)\n", name, detectors[d],
                  scheds[s], (unsigned long long)seed, plain.status, filt.status);
          print_races("without", &plain);
          print_races("with filter=trade", &filt);
        }
        if (!strcmp(detectors[d], "ft")) {
          bool loc = locations_are(&filt, want);
          CHECK(t, loc);
          CHECK(t, filt.status == (want[0] ? DRVM_EXIT_RACES : 0));
          CHECK(t, filt.filtered >= min_filtered);
          CHECK(t, filt.escaped >= min_escaped);
          if (!loc || filt.filtered < min_filtered || filt.escaped < min_escaped) {
            fprintf(stderr, "  %s: ft %s seed %llu: filtered %llu escaped %llu flushes %llu\n", name, scheds[s],
                    (unsigned long long)seed, (unsigned long long)filt.filtered, (unsigned long long)filt.escaped,
                    (unsigned long long)filt.flushes);
            print_races("ft with filter=trade", &filt);
          }
        }
        out_free(&plain);
        out_free(&filt);
      }
}

/* the reader of the programs below: waits for the publication by
 * spinning on a racy (or volatile) reference */

static void test_static_field(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static Box shared;\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Reader r = new Reader();\n"
                    "    r.start();\n"
                    "    Box b = new Box();\n"
                    "    b.x = 1;\n"
                    "    b.x = b.x + 1;\n"
                    "    b.y = 7;\n"
                    "    shared = b;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Box { int x; int y; }\n"
                    "class Reader extends Thread {\n"
                    "  public void run() {\n"
                    "    Box b;\n"
                    "    while ((b = Main.shared) == null) Thread.yield();\n"
                    "    int v = b.x;\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Main.shared", "Box.x", NULL};
  differential(t, "static field", src, want, 4, 1);
}

static void test_global_field(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Holder h = new Holder();\n"
                    "    Reader r = new Reader(h);\n"
                    "    r.start();\n"
                    "    Box b = new Box();\n"
                    "    b.x = 1;\n"
                    "    b.y = 2;\n"
                    "    h.box = b;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Holder { Box box; }\n"
                    "class Box { int x; int y; }\n"
                    "class Reader extends Thread {\n"
                    "  Holder h;\n"
                    "  Reader(Holder h) { this.h = h; }\n"
                    "  public void run() {\n"
                    "    Box b;\n"
                    "    while ((b = h.box) == null) Thread.yield();\n"
                    "    int v = b.y;\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Holder.box", "Box.y", NULL};
  differential(t, "global object's field", src, want, 2, 1);
}

static void test_global_array(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Box[] slots = new Box[3];\n"
                    "    Reader r = new Reader(slots);\n"
                    "    r.start();\n"
                    "    Box b = new Box();\n"
                    "    b.x = 1;\n"
                    "    int[] data = new int[4];\n"
                    "    data[2] = 5;\n"
                    "    b.data = data;\n"
                    "    slots[1] = b;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Box { int x; int[] data; }\n"
                    "class Reader extends Thread {\n"
                    "  Box[] slots;\n"
                    "  Reader(Box[] s) { slots = s; }\n"
                    "  public void run() {\n"
                    "    Box b;\n"
                    "    while ((b = slots[1]) == null) Thread.yield();\n"
                    "    int v = b.x + b.data[2];\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Box[]#1[1]", "Box.x", "Box.data", "int[]#1[2]", NULL};
  differential(t, "global array's element", src, want, 3, 2);
}

static void test_thread_subclass(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Thread first = new Thread(new Nop());\n"
                    "    first.start();\n"
                    "    first.join();\n"
                    "    Box d = new Box();\n"
                    "    d.x = 5;\n"
                    "    Worker w = new Worker();\n"
                    "    w.data = d;\n"
                    "    w.count = 1;\n"
                    "    w.other = 3;\n"
                    "    w.start();\n"
                    "    w.count = 2;\n"
                    "    w.join();\n"
                    "  }\n"
                    "}\n"
                    "class Nop implements Runnable { public void run() { } }\n"
                    "class Box { int x; }\n"
                    "class Worker extends Thread {\n"
                    "  Box data;\n"
                    "  int count;\n"
                    "  int other;\n"
                    "  public void run() {\n"
                    "    int c = count + other;\n"
                    "    int v = data.x;\n"
                    "    data.x = v + c;\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Worker.count", NULL};
  /* the Worker and its Box were made local, and escaped at start() */
  differential(t, "Thread subclass", src, want, 4, 2);
}

static void test_runnable(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Thread first = new Thread(new Nop());\n"
                    "    first.start();\n"
                    "    first.join();\n"
                    "    Task r = new Task();\n"
                    "    r.x = 1;\n"
                    "    r.y = 1;\n"
                    "    r.box = new Box();\n"
                    "    r.box.z = 4;\n"
                    "    Thread t = new Thread(r);\n"
                    "    t.start();\n"
                    "    r.x = 2;\n"
                    "    t.join();\n"
                    "  }\n"
                    "}\n"
                    "class Nop implements Runnable { public void run() { } }\n"
                    "class Box { int z; }\n"
                    "class Task implements Runnable {\n"
                    "  int x;\n"
                    "  int y;\n"
                    "  Box box;\n"
                    "  public void run() { int v = x + y + box.z; }\n"
                    "}\n";
  const char *const want[] = {"Task.x", NULL};
  differential(t, "Runnable", src, want, 4, 3);
}

static void test_transitive(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static Holder shared;\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Reader r = new Reader();\n"
                    "    r.start();\n"
                    "    Holder h = new Holder();\n"
                    "    Box b = new Box();\n"
                    "    b.x = 1;\n"
                    "    h.box = b;\n"
                    "    h.n = 3;\n"
                    "    Box[] more = new Box[2];\n"
                    "    Box c = new Box();\n"
                    "    c.x = 9;\n"
                    "    more[1] = c;\n"
                    "    h.more = more;\n"
                    "    shared = h;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Holder { Box box; int n; Box[] more; }\n"
                    "class Box { int x; }\n"
                    "class Reader extends Thread {\n"
                    "  public void run() {\n"
                    "    Holder h;\n"
                    "    while ((h = Main.shared) == null) Thread.yield();\n"
                    "    Box b = h.box;\n"
                    "    int v = b.x + h.n;\n"
                    "    Box c = h.more[1];\n"
                    "    int w = c.x;\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Main.shared", "Holder.box", "Holder.n", "Holder.more", "Box[]#1[1]", "Box.x", NULL};
  differential(t, "transitive", src, want, 6, 4);
}

/* main's write to b.x before it releases L is ordered before the reader's
 * read, which follows its acquisition of L: only the racy reference and
 * b.y, written again after the release, race.  With the filter, b's
 * record of b.x must be applied at main's epoch of the time, not its
 * current one. */
static void test_lock_then_publish(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static Box shared;\n"
                    "  static final Object L = new Object();\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Reader r = new Reader();\n"
                    "    r.start();\n"
                    "    Box b = new Box();\n"
                    "    b.x = 1;\n"
                    "    b.y = 1;\n"
                    "    synchronized (L) { b.z = 1; }\n"
                    "    b.y = 2;\n"
                    "    shared = b;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Box { int x; int y; int z; }\n"
                    "class Reader extends Thread {\n"
                    "  public void run() {\n"
                    "    Box b;\n"
                    "    while ((b = Main.shared) == null) Thread.yield();\n"
                    "    synchronized (Main.L) { }\n"
                    "    int v = b.x + b.y + b.z;\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Main.shared", "Box.y", NULL};
  differential(t, "publication after a release", src, want, 4, 1);
}

static void test_volatile(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static volatile Box shared;\n"
                    "  static final Object L = new Object();\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Reader r = new Reader();\n"
                    "    r.start();\n"
                    "    Box b = new Box();\n"
                    "    b.x = 1;\n"
                    "    synchronized (L) { b.y = 1; }\n"
                    "    b.x = 2;\n"
                    "    b.inner = new Box();\n"
                    "    b.inner.x = 3;\n"
                    "    shared = b;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Box { int x; int y; Box inner; }\n"
                    "class Reader extends Thread {\n"
                    "  public void run() {\n"
                    "    Box b;\n"
                    "    while ((b = Main.shared) == null) Thread.yield();\n"
                    "    int v = b.x + b.y + b.inner.x;\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {NULL};
  differential(t, "volatile publication", src, want, 5, 2);

  /* the volatile write made b global: main's write after it is seen, and
   * races with the reader's read (b kept local would hide it) */
  const char *late = "public class Main {\n"
                     "  static volatile Box shared;\n"
                     "  public static void main(String[] a) throws InterruptedException {\n"
                     "    Reader r = new Reader();\n"
                     "    r.start();\n"
                     "    Box b = new Box();\n"
                     "    b.x = 1;\n"
                     "    shared = b;\n"
                     "    b.late = 2;\n"
                     "    r.join();\n"
                     "  }\n"
                     "}\n"
                     "class Box { int x; int late; }\n"
                     "class Reader extends Thread {\n"
                     "  public void run() {\n"
                     "    Box b;\n"
                     "    while ((b = Main.shared) == null) Thread.yield();\n"
                     "    int v = b.x + b.late;\n"
                     "  }\n"
                     "}\n";
  const char *const want_late[] = {"Box.late", NULL};
  differential(t, "volatile publication, then a write", late, want_late, 1, 1);
}

/* Inside a run: every object made once the filter is on is its maker's
 * (main's and a child's), and no access to a local object reaches a
 * listener, while the detector still sees the races. */
static void test_in_run(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static Box shared;\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Maker m = new Maker();\n"
                    "    m.start();\n"
                    "    int sum = 0;\n"
                    "    for (int i = 0; i < 50; i++) {\n"
                    "      Box b = new Box();\n"
                    "      b.x = i;\n"
                    "      sum += b.x;\n"
                    "    }\n"
                    "    Box last = new Box();\n"
                    "    last.x = sum;\n"
                    "    shared = last;\n"
                    "    m.join();\n"
                    "  }\n"
                    "}\n"
                    "class Box { int x; }\n"
                    "class Maker extends Thread {\n"
                    "  public void run() {\n"
                    "    int[] a = new int[10];\n"
                    "    for (int i = 0; i < 10; i++) a[i] = i;\n"
                    "    Box b;\n"
                    "    while ((b = Main.shared) == null) Thread.yield();\n"
                    "    a[0] = b.x;\n"
                    "  }\n"
                    "}\n";
  RunOut o, p;
  bool ok = run_dl(src, "ft", true, "native", 1, true, &o);
  bool ok2 = run_dl(src, "ft", false, "native", 1, true, &p);
  CHECK(t, ok && ok2);
  if (ok && ok2) {
    CHECK(t, o.news_checked >= 53);
    CHECK(t, o.news_local >= 52);      /* main's 51 boxes and the child's int[] */
    CHECK(t, o.child_news_local >= 1); /* the child's int[]: owner 2 */
    CHECK(t, o.access_checked > 0);
    CHECK(t, o.access_local == 0); /* no local object's access reached the listener */
    CHECK(t, o.access_unknown == 0 && p.access_unknown == 0);
    CHECK(t, o.filtered >= 100);
    CHECK(t, p.access_checked > o.access_checked + 100); /* without the filter the listener sees them */
    CHECK(t, p.news_local == 0);
    const char *const want[] = {"Main.shared", "Box.x", NULL};
    CHECK(t, locations_are(&o, want) && same_races(&o, &p));
  }
  out_free(&o);
  out_free(&p);
}

/* An array passed to a user's native method (libm's frexp writes through
 * its int* argument) escapes with it; an array not passed stays local. */
static void test_ffi_array(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static native double frexp(double x, int[] exp);\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Thread first = new Thread(new Nop());\n"
                    "    first.start();\n"
                    "    first.join();\n"
                    "    int[] passed = new int[1];\n"
                    "    int[] kept = new int[1];\n"
                    "    passed[0] = 1;\n"
                    "    kept[0] = 1;\n"
                    "    double m = frexp(8.0, passed);\n"
                    "    if (m != 0.5 || passed[0] != 4) throw new RuntimeException(\"frexp\");\n"
                    "  }\n"
                    "}\n"
                    "class Nop implements Runnable { public void run() { } }\n";
  RunOut o;
  DrVM *vm = NULL;
  bool ok = run_dl_keep(src, "ft", true, "native", 1, true, &o, &vm);
  CHECK(t, ok && vm);
  if (!ok || !vm) return;
  DrObj *passed = NULL, *kept = NULL;
  for (DrObj *x = vm->objects; x; x = x->gc_next)
    if (!strcmp(x->cls->name, "[I")) {
      if (x->serial == 1) passed = x;
      if (x->serial == 2) kept = x;
    }
  CHECK(t, passed && kept);
  if (passed && kept) {
    CHECK(t, dr_obj_owner(passed) == 0);
    CHECK(t, dr_obj_owner(kept) == 1);
    CHECK(t, passed->local == NULL);
    CHECK(t, kept->local != NULL); /* kept[0] = 1, never handed over */
  }
  CHECK(t, o.flushes >= 1); /* passed[0] = 1, handed over at the call */
  CHECK(t, o.access_local == 0);
  CHECK(t, o.access_checked == 1); /* passed[0] read after the call: global */
  CHECK(t, o.news_local == 2);     /* passed and kept, main's */
  run_end(vm, &o);
  CHECK(t, o.status == 0);
  out_free(&o);
}

/* A store into a local array that throws ArrayStoreException is no
 * access: kept in the array's record as a write, it made the detector
 * report a race on an element nobody wrote once the array escaped. */
static void test_failed_array_store(DrCheck *t) {
  const char *src = "public class Main {\n"
                    "  static Object[] shared;\n"
                    "  public static void main(String[] a) throws InterruptedException {\n"
                    "    Reader r = new Reader();\n"
                    "    r.start();\n"
                    "    Object[] arr = new String[1];\n"
                    "    try { arr[0] = new Object(); } catch (ArrayStoreException e) { }\n"
                    "    shared = arr;\n"
                    "    r.join();\n"
                    "  }\n"
                    "}\n"
                    "class Reader extends Thread {\n"
                    "  public void run() {\n"
                    "    Object[] b;\n"
                    "    while ((b = Main.shared) == null) Thread.yield();\n"
                    "    Object v = b[0];\n"
                    "  }\n"
                    "}\n";
  const char *const want[] = {"Main.shared", NULL};
  differential(t, "failed array store", src, want, 0, 1); /* the throwing store is its only access */
}

int main(void) {
  DrCheck t = {0, 0};
  test_ownership(&t);
  test_publish(&t);
  test_records_first(&t);
  test_records_last(&t);
  test_static_field(&t);
  test_global_field(&t);
  test_global_array(&t);
  test_thread_subclass(&t);
  test_runnable(&t);
  test_transitive(&t);
  test_lock_then_publish(&t);
  test_volatile(&t);
  test_in_run(&t);
  test_ffi_array(&t);
  test_failed_array_store(&t);
  return CHECK_DONE(&t);
}
