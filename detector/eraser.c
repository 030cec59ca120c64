/* Eraser (Savage et al.): every shared variable must be protected by
 * some lock held at all of its accesses.  Per location a state --
 * virgin, exclusive (one thread so far), shared (read by several),
 * shared-modified -- and the candidate set C(v), refined by
 * intersection with the locks held at each access once shared.  An
 * empty C(v) in shared-modified is reported.  Locksets know nothing of
 * start/join or wait/notify hand-offs, so Eraser raises false alarms on
 * them, as the FastTrack paper says. */
#include "det.h"

enum { ER_VIRGIN, ER_EXCLUSIVE, ER_SHARED, ER_SHARED_MODIFIED };

enum { ER_TO_EXCLUSIVE, ER_TO_SHARED, ER_TO_SHARED_MODIFIED, ER_REFINE, ER_EMPTY, ER__RULES };

static const char *const er_rule_names[ER__RULES] = {"virgin -> exclusive", "exclusive -> shared",
                                                      "-> shared-modified", "lockset refinements",
                                                      "empty locksets"};

typedef struct {
  uint8_t state;
  uint8_t a_write, b_write;
  uint8_t pad_;
  uint32_t owner;          /* exclusive: the one thread */
  uint32_t cset;           /* candidate lockset */
  /* the last access, and the last by another thread: a report's "previous" */
  uint32_t a_tid, a_ctx, b_tid, b_ctx;
} EraserSlot;

static void er_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write) {
  EraserSlot *s = slot;
  DrDetThread *t = &d->threads[tid];
  uint32_t held = t->lockset;
  bool check = false;
  switch (s->state) {
  case ER_VIRGIN:
    d->rule[ER_TO_EXCLUSIVE]++;
    s->state = ER_EXCLUSIVE;
    s->owner = tid;
    break;
  case ER_EXCLUSIVE:
    if (tid == s->owner) break;
    s->cset = held;
    if (write) {
      d->rule[ER_TO_SHARED_MODIFIED]++;
      s->state = ER_SHARED_MODIFIED;
      check = true;
    } else {
      d->rule[ER_TO_SHARED]++;
      s->state = ER_SHARED;
    }
    break;
  case ER_SHARED:
    d->rule[ER_REFINE]++;
    s->cset = dr_det_lockset_intersect(d, s->cset, held);
    if (write) {
      d->rule[ER_TO_SHARED_MODIFIED]++;
      s->state = ER_SHARED_MODIFIED;
      check = true;
    }
    break;
  default:
    d->rule[ER_REFINE]++;
    s->cset = dr_det_lockset_intersect(d, s->cset, held);
    check = true;
    break;
  }
  uint32_t ctx = dr_det_ctx(d, e);
  if (check && s->cset == 0) {
    d->rule[ER_EMPTY]++;
    bool a_other = s->a_ctx && s->a_tid != tid;
    DrAccess prev = {a_other ? s->a_write : s->b_write, a_other ? s->a_tid : s->b_tid, a_other ? s->a_ctx : s->b_ctx,
                     0};
    DrAccess cur = {write, tid, ctx, 0};
    dr_det_race(d, loc, e, cur, prev, DR_WHY_LOCKSET, 0);
  }
  if (s->a_ctx && s->a_tid != tid) {
    s->b_tid = s->a_tid;
    s->b_ctx = s->a_ctx;
    s->b_write = s->a_write;
  }
  s->a_tid = tid;
  s->a_ctx = ctx;
  s->a_write = write;
}

static void er_stats(DrDet *d, FILE *out) {
  for (int i = 0; i < ER__RULES; i++)
    fprintf(out, "  %-26s %12llu\n", er_rule_names[i], (unsigned long long)d->rule[i]);
}

const DrDetOps dr_eraser_ops = {
    .name = "eraser",
    .slot_size = sizeof(EraserSlot),
    .stop_at_race = true,
    .access = er_access,
    .filter_keep_last = true, /* its last access */
    .print_stats = er_stats,
};
