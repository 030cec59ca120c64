/* DJIT+ (Pozniansky & Schuster) and BasicVC, the FastTrack paper's
 * vector-clock baselines: a read vector clock R_x and a write vector
 * clock W_x per location, each entry with the context of its access.
 * DJIT+ skips an access when its thread already made one of the same
 * kind in its current epoch; BasicVC compares whole clocks on every
 * access.  Both report the most recent unordered previous access, named
 * by the first access of its epoch as FastTrack's epochs name it, so the
 * three agree race for race. */
#include "det.h"

enum { VC_READ_SAME_EPOCH, VC_READ, VC_WRITE_SAME_EPOCH, VC_WRITE, VC_COMPARISONS, VC__RULES };

static const char *const vc_rule_names[VC__RULES] = {"read same epoch", "read (full check)", "write same epoch",
                                                      "write (full check)", "vector clock comparisons"};

typedef struct {
  DrCtxVC *R, *W;
} VcSlot;

static void vc_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write,
                      bool fast) {
  VcSlot *s = slot;
  DrDetThread *t = &d->threads[tid];
  const DrVC *C = &t->C;
  uint32_t now = dr_vc_get(C, tid);
  DrCtxVC **mine = write ? &s->W : &s->R;
  if (fast && *mine && dr_vc_get(&(*mine)->vc, tid) == now) {
    d->rule[write ? VC_WRITE_SAME_EPOCH : VC_READ_SAME_EPOCH]++;
    return;
  }
  d->rule[write ? VC_WRITE : VC_READ]++;
  uint32_t u;
  DrAccess prev;
  bool racy = false;
  d->rule[VC_COMPARISONS]++;
  if (s->W && dr_cvc_unordered(s->W, C, &u)) { /* W_x ⊑ C_t */
    prev = dr_cvc_access(s->W, u, true);
    racy = true;
  } else if (write && s->R) { /* R_x ⊑ C_t */
    d->rule[VC_COMPARISONS]++;
    if (dr_cvc_unordered(s->R, C, &u)) {
      prev = dr_cvc_access(s->R, u, false);
      racy = true;
    }
  }
  uint32_t ctx = dr_det_ctx(d, e);
  if (racy) {
    DrAccess cur = {write, tid, ctx, now};
    dr_det_race(d, loc, e, cur, prev, DR_WHY_HB, dr_vc_get(C, prev.tid));
  }
  if (!*mine) *mine = dr_cvc_new(d);
  /* an epoch keeps the context of its first access, as FastTrack's
   * same-epoch rules leave it: the reports of the three then agree */
  if (dr_vc_get(&(*mine)->vc, tid) != now) dr_cvc_set(d, *mine, tid, now, ctx);
}

static void djit_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write) {
  vc_access(d, tid, slot, loc, e, write, true);
}

static void basicvc_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write) {
  vc_access(d, tid, slot, loc, e, write, false);
}

static void vc_slot_free(DrDet *d, void *slot) {
  VcSlot *s = slot;
  dr_cvc_delete(d, s->R);
  dr_cvc_delete(d, s->W);
  s->R = s->W = NULL;
}

static uint32_t vc_slot_forget(DrDet *d, void *slot, const DrVC *floor, const uint8_t *dead, uint8_t *still) {
  (void)d;
  VcSlot *s = slot;
  return (s->R ? dr_det_forget_cvc(s->R, floor, dead, still) : 0) +
         (s->W ? dr_det_forget_cvc(s->W, floor, dead, still) : 0);
}

static void vc_stats(DrDet *d, FILE *out) {
  for (int i = 0; i < VC__RULES; i++)
    fprintf(out, "  %-26s %12llu\n", vc_rule_names[i], (unsigned long long)d->rule[i]);
}

const DrDetOps dr_djit_ops = {
    .name = "djit",
    .slot_size = sizeof(VcSlot),
    .vector_clocks = true,
    .lock_edges = true,
    .stop_at_race = true,
    .access = djit_access,
    .slot_free = vc_slot_free,
    .slot_forget = vc_slot_forget,
    .print_stats = vc_stats,
};

const DrDetOps dr_basicvc_ops = {
    .name = "basicvc",
    .slot_size = sizeof(VcSlot),
    .vector_clocks = true,
    .lock_edges = true,
    .stop_at_race = true,
    .access = basicvc_access,
    .slot_free = vc_slot_free,
    .slot_forget = vc_slot_forget,
    .print_stats = vc_stats,
};
