/* The topological filter (escape.h): who owns an object, when it escapes,
 * and the local records that keep a detector exact. */
#include <string.h>

#include "escape.h"
#include "vm.h"

void dr_esc_enable(DrVM *vm, const DrEscSink *sink) {
  if (!sink) {
    for (DrObj *o = vm->objects; o; o = o->gc_next) {
      dr_esc_free(vm, o);
      o->flags &= (1u << DR_OBJ_OWNER_SHIFT) - 1u;
    }
    vm->esc_on = false;
    return;
  }
  vm->esc_sink = *sink;
  vm->esc_on = true;
}

const DrEscStats *dr_esc_stats(const DrVM *vm) { return &vm->esc_stats; }

void dr_esc_new(DrVM *vm, DrObj *o) {
  const DrThread *th = vm->thread;
  if (!th || (uint32_t)th->id + 1u > DR_OBJ_OWNER_MAX) return; /* global from the start */
  o->flags |= ((uint32_t)th->id + 1u) << DR_OBJ_OWNER_SHIFT;
  vm->esc_stats.allocated++;
}

static size_t rec_bytes(uint32_t nslots) { return sizeof(DrLocalRec) + sizeof(uint32_t) * 2 * (size_t)nslots; }

void dr_esc_free(DrVM *vm, DrObj *o) {
  DrLocalRec *r = o->local;
  if (!r) return;
  vm->esc_stats.record_bytes -= rec_bytes(r->nslots);
  vm->ext_bytes -= rec_bytes(r->nslots);
  free(r);
  o->local = NULL;
}

/* The record's accesses go to the listener; the record starts anew. */
static void flush(DrVM *vm, DrObj *o, DrLocalRec *r) {
  if (!r->used) return;
  uint32_t owner = dr_obj_owner(o);
  ASSERT(owner >= 1 && (int)owner <= vm->nall_threads, "a local object's owner is a thread");
  vm->esc_stats.flushes++;
  vm->in_listener = true;
  vm->esc_sink.flush(vm->esc_sink.self, vm->all_threads[owner - 1], o, r);
  vm->in_listener = false;
  memset(r->ctx, 0, sizeof(uint32_t) * 2 * (size_t)r->nslots);
  r->used = 0;
}

void dr_esc_note(DrVM *vm, DrThread *th, DrObj *o, int32_t slot, bool write, DrMethod *m, uint32_t pc) {
  vm->esc_stats.filtered++;
  DrLocalRec *r = o->local;
  if (DR_UNLIKELY(!r)) {
    uint32_t n = dr_obj_slots(o);
    if (n == 0) return;
    r = dr_xcalloc(1, rec_bytes(n));
    r->nslots = n;
    r->epoch = th->esc_epoch;
    r->lockset = th->esc_lockset;
    o->local = r;
    vm->esc_stats.record_bytes += rec_bytes(n);
    vm->ext_bytes += rec_bytes(n);
    if (vm->esc_stats.record_bytes > vm->esc_stats.record_peak) vm->esc_stats.record_peak = vm->esc_stats.record_bytes;
  }
  if ((uint32_t)slot >= r->nslots) return;
  bool keep_last = vm->esc_sink.keep_last;
  if (r->epoch != th->esc_epoch || (keep_last && r->lockset != th->esc_lockset)) {
    flush(vm, o, r);
    r->epoch = th->esc_epoch;
    r->lockset = th->esc_lockset;
  }
  uint32_t *e = &r->ctx[2 * (uint32_t)slot + write];
  if (*e && !keep_last) return; /* the epoch's first access of its kind stays */
  vm->in_listener = true;
  uint32_t ctx = vm->esc_sink.ctx(vm->esc_sink.self, th, m, pc, write);
  vm->in_listener = false;
  ASSERT(ctx && !(ctx & DR_LOCAL_WRITE_LAST), "a context id is nonzero and below 2^31");
  if (!*e) r->used++;
  *e = ctx;
  if (write) *e |= DR_LOCAL_WRITE_LAST;
  else r->ctx[2 * (uint32_t)slot + 1] &= ~DR_LOCAL_WRITE_LAST;
}

/* Marks o and everything local it references global, depth first with
 * an explicit stack (a long list must not overflow the C stack). */
void dr_esc_publish(DrVM *vm, DrObj *o) {
  if (!o || !dr_obj_owner(o)) return;
  DR_PUSH(vm->esc_stack, vm->esc_nstack, vm->esc_stack_cap, o);
  while (vm->esc_nstack) {
    DrObj *x = vm->esc_stack[--vm->esc_nstack];
    if (!dr_obj_owner(x)) continue;
    if (x->local) {
      flush(vm, x, x->local);
      dr_esc_free(vm, x);
    }
    x->flags &= (1u << DR_OBJ_OWNER_SHIFT) - 1u;
    vm->esc_stats.escaped++;
    const DrClass *c = x->cls;
    if (c->flags & DR_CLS_ARRAY) {
      if (c->elem_kind != DR_K_REF) continue;
      const DrArray *a = (const DrArray *)x;
      DrObj *const *el = (DrObj *const *)DR_ARRAY_DATA(a);
      for (int32_t i = 0; i < a->length; i++)
        if (el[i] && dr_obj_owner(el[i])) DR_PUSH(vm->esc_stack, vm->esc_nstack, vm->esc_stack_cap, el[i]);
    } else if (!(c->flags & DR_CLS_STRING)) {
      const DrInstance *in = (const DrInstance *)x;
      for (int i = 0; i < c->nfields; i++) {
        DrObj *v = c->field_is_ref[i] ? in->fields[i].ref : NULL;
        if (v && dr_obj_owner(v)) DR_PUSH(vm->esc_stack, vm->esc_nstack, vm->esc_stack_cap, v);
      }
    }
  }
}
