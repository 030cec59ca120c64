/* Accordion clocks (TRaDe, Christiaens & De Bosschere, section 4): a
 * thread's entry in every vector clock is a slot, and the slot of a
 * thread that ended can go to a new thread, so clocks stop growing with
 * every thread ever started.
 *
 * A slot can be given back once its thread retired (det_core.c: ended,
 * and its Thread object collected, so nothing can join or interrupt it)
 * and no shadow state refers to its epochs any more.  The check runs
 * after each collection, as the paper's does, over every shadow: an
 * epoch of a retired thread that every running thread has seen (its
 * clock is at most their minimum, the floor) can no longer race with
 * any access -- every later access is by a running thread or one it
 * starts -- so it is forgotten; an epoch that some running thread has
 * not seen keeps the slot.
 *
 * The slot's next thread counts on from its predecessor's last clock,
 * not from 1: an entry other clocks still hold for the slot (a lock's,
 * a volatile's, a joined thread's) is then below every clock of the new
 * thread, which is what "never heard of it" means.  Reports name
 * threads and their clocks as counted without reuse (dr_det_slot_tid). */
#include <string.h>

#include "det.h"

void dr_det_accordion_retired(DrDet *d, DrDetThread *t) {
  /* a slot whose clock is near the top is not worth handing on */
  if (!d->accordion || t->last > UINT32_MAX / 2) return;
  t->pending = true;
  d->npending++;
}

uint32_t dr_det_accordion_take(DrDet *d, uint32_t *base) {
  if (!d->nfree) return UINT32_MAX;
  uint32_t slot = d->free_slots[--d->nfree];
  *base = d->threads[slot].last;
  d->slots_reused++;
  return slot;
}

bool dr_det_forget_epoch(DrEpoch *e, const DrVC *floor, const uint8_t *dead, uint8_t *still) {
  uint32_t u = dr_epoch_tid(*e);
  if (!*e || u >= floor->n || !dead[u]) return false;
  if (dr_epoch_clock(*e) <= floor->c[u]) {
    *e = DR_EPOCH_NONE;
    return true;
  }
  still[u] = 1;
  return false;
}

uint32_t dr_det_forget_cvc(DrCtxVC *v, const DrVC *floor, const uint8_t *dead, uint8_t *still) {
  uint32_t n = 0;
  for (uint32_t u = 0; u < v->vc.n && u < floor->n; u++) {
    if (!v->vc.c[u] || !dead[u]) continue;
    if (v->vc.c[u] <= floor->c[u]) {
      v->vc.c[u] = 0;
      v->ctx[u] = 0;
      v->seq[u] = 0;
      n++;
    } else {
      still[u] = 1;
    }
  }
  return n;
}

typedef struct {
  DrVC floor;              /* per slot, the least clock a running thread has of it */
  uint8_t *dead, *still;   /* per slot: retired, waiting; referred to by an epoch still */
  uint64_t forgotten, slots;
} Scan;

static void scan_shadow(DrDet *d, DrShadow *sh, Scan *s) {
  if (!sh) return;
  for (uint32_t i = 0; i < sh->nslots; i++)
    s->forgotten += d->ops->slot_forget(d, DR_SHADOW_SLOTS(sh) + d->ops->slot_size * i, &s->floor, s->dead, s->still);
  s->slots += sh->nslots;
}

/* Every slot's floor over the running threads (UINT32_MAX when none
 * runs: no access can come at all). */
static void compute_floor(DrDet *d, Scan *s) {
  uint32_t n = (uint32_t)d->nthreads;
  s->floor.c = dr_xmalloc(sizeof(uint32_t) * n);
  s->floor.n = s->floor.cap = n;
  for (uint32_t u = 0; u < n; u++) s->floor.c[u] = UINT32_MAX;
  for (uint32_t t = 0; t < n; t++) {
    const DrDetThread *th = &d->threads[t];
    if (!th->live || th->ended || th->retired) continue;
    for (uint32_t u = 0; u < n; u++) {
      uint32_t c = dr_vc_get(&th->C, u);
      if (c < s->floor.c[u]) s->floor.c[u] = c;
    }
  }
}

/* vm->shadow_gc_end: after a collection that retired threads. */
void dr_det_accordion_gc_end(void *ctx) {
  DrDet *d = ctx;
  if (!d->npending || d->disabled) return;
  uint32_t n = (uint32_t)d->nthreads;
  Scan s = {0};
  compute_floor(d, &s);
  s.dead = dr_xcalloc(n, 1);
  s.still = dr_xcalloc(n, 1);
  for (uint32_t u = 0; u < n; u++) s.dead[u] = d->threads[u].pending;
  for (DrObj *o = d->vm->objects; o; o = o->gc_next) scan_shadow(d, dr_det_obj_shadow(d, o), &s);
  for (int i = 0; i < d->nstatics; i++) scan_shadow(d, d->statics[i], &s);
  /* given back highest first, so the lowest is taken first: clocks stay short */
  for (uint32_t u = n; u-- > 0;) {
    DrDetThread *t = &d->threads[u];
    if (!t->pending || s.still[u]) continue;
    t->pending = false;
    d->npending--;
    DR_PUSH(d->free_slots, d->nfree, d->free_cap, u);
  }
  d->scans++;
  d->epochs_cleared += s.forgotten;
  d->scan_slots += s.slots;
  free(s.floor.c);
  free(s.dead);
  free(s.still);
}

void dr_det_accordion_print_stats(DrDet *d, FILE *out) {
  fprintf(out, "  %-26s %12llu  (%d slots in all, %d free)\n", "clock slots reused",
          (unsigned long long)d->slots_reused, d->nthreads, d->nfree);
  fprintf(out, "  %-26s %12llu  (%llu shadow slots looked at)\n", "accordion scans", (unsigned long long)d->scans,
          (unsigned long long)d->scan_slots);
  fprintf(out, "  %-26s %12llu\n", "dead threads' epochs gone", (unsigned long long)d->epochs_cleared);
}
