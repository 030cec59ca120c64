/* The detectors' side of the topological filter (vm/escape.h, TRaDe):
 * the contexts a local object's record keeps, and its accesses applied
 * to the shadow when the record ends.
 *
 * Why no race is lost: a record holds only its owner's accesses, and a
 * detector applies them in their order, at the owner's epoch and lockset
 * of the time, with their contexts.  Between two accesses of one thread
 * no detector reports a race, so the state after applying them is the
 * state the unfiltered detector would have had: FastTrack's W_x and R_x
 * keep an epoch's first access (the record keeps the first), Eraser's
 * last access and hybrid's history the last ones (the record keeps the
 * last, and starts anew when the lockset changes).  Every later access,
 * by any thread, then meets the same state. */
#include <string.h>

#include "det.h"

static uint32_t filter_ctx(void *self, DrThread *th, DrMethod *m, uint32_t pc, bool write) {
  DrDet *d = self;
  DrEvent e;
  memset(&e, 0, sizeof e);
  e.kind = write ? DR_EV_WRITE : DR_EV_READ;
  e.thread = th;
  e.method = m;
  e.pc = pc;
  return dr_det_ctx(d, &e);
}

static void apply(DrDet *d, uint32_t tid, DrShadow *sh, DrLoc *loc, DrEvent *e, uint32_t ctx, bool write) {
  if (!ctx) return;
  d->ctx_override = ctx;
  e->kind = write ? DR_EV_WRITE : DR_EV_READ;
  d->seeded++;
  if (write) d->writes++;
  else d->reads++;
  d->ops->access(d, tid, DR_SHADOW_SLOTS(sh) + d->ops->slot_size * (size_t)loc->index, loc, e, write);
  d->ctx_override = 0;
}

static void filter_flush(void *self, DrThread *owner, DrObj *o, const DrLocalRec *rec) {
  DrDet *d = self;
  if (d->disabled) return;
  uint32_t tid = dr_det_slot(d, owner);
  DrDetThread *t = dr_det_thread(d, tid);
  /* the owner's clock and locks as they were (its clock only grew since) */
  uint32_t now = dr_vc_get(&t->C, tid), held = t->lockset;
  dr_vc_set(&t->C, tid, rec->epoch, &d->mem);
  t->lockset = rec->lockset;
  DrShadow *sh = dr_det_shadow_slots(d, o);
  DrLoc loc = {o, o->cls, 0, false, (o->cls->flags & DR_CLS_ARRAY) != 0};
  DrEvent e;
  dr_event_at(&e, DR_EV_READ, owner);
  e.obj = o;
  e.cls = o->cls;
  for (uint32_t i = 0; i < rec->nslots && i < sh->nslots; i++) {
    uint32_t r = rec->ctx[2 * i], w = rec->ctx[2 * i + 1] & ~DR_LOCAL_WRITE_LAST;
    if (!r && !w) continue;
    loc.index = (int32_t)i;
    e.field = (int32_t)i;
    if (rec->ctx[2 * i + 1] & DR_LOCAL_WRITE_LAST) {
      apply(d, tid, sh, &loc, &e, r, false);
      apply(d, tid, sh, &loc, &e, w, true);
    } else {
      apply(d, tid, sh, &loc, &e, w, true);
      apply(d, tid, sh, &loc, &e, r, false);
    }
  }
  dr_vc_set(&t->C, tid, now, &d->mem);
  t->lockset = held;
}

void dr_det_filter_enable(DrDet *d) {
  DrVM *vm = d->vm;
  for (int i = 0; i < vm->nall_threads; i++) dr_det_publish(d, vm->all_threads[i]);
  DrEscSink sink = {
      .self = d,
      .ctx = filter_ctx,
      .flush = filter_flush,
      .keep_last = d->ops->filter_keep_last,
  };
  dr_esc_enable(vm, &sink);
}

void dr_det_filter_print_stats(DrDet *d, FILE *out) {
  const DrEscStats *s = dr_esc_stats(d->vm);
  fprintf(out, "  %-26s %12llu\n", "objects made local", (unsigned long long)s->allocated);
  fprintf(out, "  %-26s %12llu\n", "objects that escaped", (unsigned long long)s->escaped);
  fprintf(out, "  %-26s %12llu\n", "accesses filtered", (unsigned long long)s->filtered);
  fprintf(out, "  %-26s %12llu\n", "records applied", (unsigned long long)s->flushes);
  fprintf(out, "  %-26s %12llu\n", "accesses applied", (unsigned long long)d->seeded);
  fprintf(out, "  %-26s %12.1f KB\n", "peak record memory", (double)s->record_peak / 1024.0);
}
