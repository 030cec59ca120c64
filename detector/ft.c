/* FastTrack (Flanagan & Freund, PLDI'09), rule by rule as its Figure 5
 * states them, with the read-shared same-epoch fast path of its Figure 2
 * listing.  Per location: W_x, the epoch of the last write, and R_x,
 * the epoch of the last read while reads are totally ordered, or a read
 * vector clock once they are concurrent.  Each epoch carries the context
 * (stack and locks) of its access, for reports.
 *
 * Sync rules are in det_core.c (shared with DJIT+ and BasicVC). */
#include <stddef.h>

#include "det.h"

enum {
  FT_READ_SAME_EPOCH,
  FT_READ_SHARED_SAME_EPOCH,
  FT_READ_SHARED,
  FT_READ_EXCLUSIVE,
  FT_READ_SHARE,
  FT_WRITE_SAME_EPOCH,
  FT_WRITE_EXCLUSIVE,
  FT_WRITE_SHARED,
  FT__RULES
};

static const char *const ft_rule_names[FT__RULES] = {
    "READ SAME EPOCH", "READ SHARED SAME EPOCH", "READ SHARED", "READ EXCLUSIVE", "READ SHARE",
    "WRITE SAME EPOCH", "WRITE EXCLUSIVE", "WRITE SHARED",
};

/* FtSlot (det.h): W_x, and R_x an epoch or -- with the top bit set -- a
 * DrCtxVC pointer (READ_SHARED) */
#define FT_SHARED_BIT ((uint64_t)1 << 63)

static bool r_shared(const FtSlot *s) { return (s->R & FT_SHARED_BIT) != 0; }
static DrCtxVC *r_vc(const FtSlot *s) { return (DrCtxVC *)(uintptr_t)(s->R & ~FT_SHARED_BIT); }

/* the access's context; t's slot is tid */
static uint32_t ctx_of(DrDet *d, uint32_t tid, const DrEvent *e) {
  return e->method ? dr_det_ctx_at(d, &d->threads[tid], e->thread, e->method, e->pc) : dr_det_ctx(d, e);
}

static DrAccess epoch_access(DrEpoch e, uint32_t ctx, bool write) {
  DrAccess a = {write, dr_epoch_tid(e), ctx, dr_epoch_clock(e)};
  return a;
}

/* A race of the current access with prev.  C is the clock it was checked
 * against: C_t itself, or (WCP) a weaker clock, under which an earlier
 * access C_t orders is a predicted race. */
static void race(DrDet *d, const DrLoc *loc, const DrEvent *e, uint32_t tid, bool write, DrAccess prev,
                 const DrVC *C) {
  const DrVC *H = &d->threads[tid].C;
  DrAccess cur = {write, tid, ctx_of(d, tid, e), dr_vc_get(H, tid)};
  bool predicted = C != H && prev.clock <= dr_vc_get(H, prev.tid);
  /* relaxed WCP orders no critical sections: mutual exclusion is its lockset test */
  if (predicted && d->opt.relaxed &&
      dr_det_lockset_intersect(d, d->threads[tid].lockset, dr_det_ctx_lockset(d, prev.ctx)) != 0)
    return;
  dr_det_race(d, loc, e, cur, prev, predicted ? DR_WHY_WCP : DR_WHY_HB, dr_vc_get(predicted ? C : H, prev.tid));
}

/* W_x ≼ C_t, else a race with the last write */
static bool check_write_epoch(DrDet *d, FtSlot *s, const DrVC *C, const DrLoc *loc, const DrEvent *e, uint32_t tid,
                              bool write) {
  if (dr_epoch_leq(s->W, C)) return true;
  race(d, loc, e, tid, write, epoch_access(s->W, s->wctx, true), C);
  return false;
}

static void ft_read(DrDet *d, uint32_t tid, FtSlot *s, const DrLoc *loc, const DrEvent *e, const DrVC *C) {
  DrEpoch E = dr_vc_epoch(C, tid);
  s->Rlast = E; /* every rule below leaves this read in R_x */
  if (s->R == E) { /* [FT READ SAME EPOCH] */
    d->rule[FT_READ_SAME_EPOCH]++;
    return;
  }
  if (r_shared(s)) {
    DrCtxVC *rv = r_vc(s);
    if (dr_vc_get(&rv->vc, tid) == dr_epoch_clock(E)) { /* Figure 2: read shared, same epoch */
      d->rule[FT_READ_SHARED_SAME_EPOCH]++;
      return;
    }
    /* [FT READ SHARED] */
    d->rule[FT_READ_SHARED]++;
    check_write_epoch(d, s, C, loc, e, tid, false);
    dr_cvc_set(d, rv, tid, dr_epoch_clock(E), ctx_of(d, tid, e));
    return;
  }
  if (dr_epoch_leq(s->R, C)) { /* [FT READ EXCLUSIVE] */
    d->rule[FT_READ_EXCLUSIVE]++;
    check_write_epoch(d, s, C, loc, e, tid, false);
    s->R = E;
    s->rctx = ctx_of(d, tid, e);
    return;
  }
  /* [FT READ SHARE]: R_x becomes a vector clock holding the old epoch and E(t) */
  d->rule[FT_READ_SHARE]++;
  check_write_epoch(d, s, C, loc, e, tid, false);
  DrCtxVC *rv = dr_cvc_new(d);
  dr_cvc_set(d, rv, dr_epoch_tid(s->R), dr_epoch_clock(s->R), s->rctx);
  dr_cvc_set(d, rv, tid, dr_epoch_clock(E), ctx_of(d, tid, e));
  s->R = (uint64_t)(uintptr_t)rv | FT_SHARED_BIT;
  s->rctx = 0;
}

static void ft_write(DrDet *d, uint32_t tid, FtSlot *s, const DrLoc *loc, const DrEvent *e, const DrVC *C) {
  DrEpoch E = dr_vc_epoch(C, tid);
  if (s->W == E) { /* [FT WRITE SAME EPOCH] */
    d->rule[FT_WRITE_SAME_EPOCH]++;
    return;
  }
  if (!r_shared(s)) { /* [FT WRITE EXCLUSIVE] */
    d->rule[FT_WRITE_EXCLUSIVE]++;
    if (check_write_epoch(d, s, C, loc, e, tid, true) && !dr_epoch_leq(s->R, C))
      race(d, loc, e, tid, true, epoch_access(s->R, s->rctx, false), C);
  } else { /* [FT WRITE SHARED]: R_x ⊑ C_t, then R_x goes back to an epoch */
    d->rule[FT_WRITE_SHARED]++;
    DrCtxVC *rv = r_vc(s);
    uint32_t u;
    if (check_write_epoch(d, s, C, loc, e, tid, true) && dr_cvc_unordered(rv, C, &u))
      race(d, loc, e, tid, true, dr_cvc_access(rv, u, false), C);
    dr_cvc_delete(d, rv);
    s->R = DR_EPOCH_NONE;
    s->Rlast = DR_EPOCH_NONE;
    s->rctx = 0;
  }
  s->W = E;
  s->wctx = ctx_of(d, tid, e);
}

void dr_ft_access_against(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write,
                          const DrVC *C) {
  if (write) ft_write(d, tid, slot, loc, e, C);
  else ft_read(d, tid, slot, loc, e, C);
}

static void ft_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write) {
  dr_ft_access_against(d, tid, slot, loc, e, write, &d->threads[tid].C);
}

void dr_ft_slot_free(DrDet *d, void *slot) {
  FtSlot *s = slot;
  if (r_shared(s)) dr_cvc_delete(d, r_vc(s));
  s->R = 0;
  s->Rlast = 0;
}

static void pct_line(FILE *out, const char *name, uint64_t n, uint64_t of, const char *ofname) {
  fprintf(out, "  %-26s %12llu  %5.1f%% of %s\n", name, (unsigned long long)n, of ? 100.0 * (double)n / (double)of : 0.0,
          ofname);
}

void dr_ft_print_stats(DrDet *d, FILE *out) {
  const uint64_t *inline_hits = d->fast_owner ? d->vm->fast.hits : (const uint64_t[3]){0, 0, 0};
  for (int i = 0; i < FT__RULES; i++) {
    uint64_t n = d->rule[i] + (i == FT_READ_SAME_EPOCH          ? inline_hits[0]
                               : i == FT_WRITE_SAME_EPOCH       ? inline_hits[1]
                               : i == FT_READ_SHARED_SAME_EPOCH ? inline_hits[2]
                                                                : 0);
    pct_line(out, ft_rule_names[i], n, i < FT_WRITE_SAME_EPOCH ? d->reads : d->writes,
             i < FT_WRITE_SAME_EPOCH ? "reads" : "writes");
  }
  if (d->fast_owner)
    pct_line(out, "answered inline", inline_hits[0] + inline_hits[1] + inline_hits[2], d->reads + d->writes,
             "accesses");
}

/* One earlier access, against C: "the last write was at 3@T1, and T2 has
 * seen T1 up to 2: not ordered".  Threads by id and clocks as they count
 * them, not by slot (dr_det_slot_tid). */
static bool explain_epoch(DrDet *d, DrBuf *out, const char *what, DrEpoch e, const DrVC *C, uint32_t slot,
                          uint32_t who) {
  uint32_t u = dr_epoch_tid(e), clock = dr_epoch_clock(e), seen = dr_vc_get(C, u);
  bool ordered = u == slot || clock <= seen;
  uint32_t rel, by = dr_det_slot_tid(d, u, clock, &rel), base = clock - rel;
  if (u == slot)
    dr_buf_printf(out, "the last %s was T%u's own (at %u@T%u): ordered by program order", what, by, rel, by);
  else
    dr_buf_printf(out, "the last %s was at %u@T%u, and T%u has seen T%u up to %u: %s", what, rel, by, who, by,
                  seen > base ? seen - base : 0, ordered ? "ordered (happens-before)" : "NOT ordered");
  return ordered;
}

static void ft_explain(DrDet *d, const void *slot, const DrVC *C, uint32_t tid, uint32_t who, bool write,
                       DrBuf *out) {
  const FtSlot *s = slot;
  bool ok = true;
  if (s->W == 0 && s->R == 0) {
    dr_buf_append_str(out, "no access to it has been seen yet: nothing to be ordered with");
    return;
  }
  if (s->W) ok = explain_epoch(d, out, "write", s->W, C, tid, who) && ok;
  else dr_buf_append_str(out, "no write yet");
  if (write && r_shared(s)) {
    const DrCtxVC *rv = r_vc(s);
    for (uint32_t u = 0; u < rv->vc.n; u++) {
      if (!rv->vc.c[u]) continue;
      dr_buf_append_str(out, "; ");
      ok = explain_epoch(d, out, "read", DR_EPOCH(u, rv->vc.c[u]), C, tid, who) && ok;
    }
  } else if (write && s->R) {
    dr_buf_append_str(out, "; ");
    ok = explain_epoch(d, out, "read", s->R, C, tid, who) && ok;
  }
  dr_buf_printf(out, ". A %s by T%u now %s", write ? "write" : "read", who,
                ok ? "is ordered after them: no race" : "would race");
}

/* Accordion clocks: W_x, R_x (an epoch or its clock vector's entries)
 * and Rlast. */
static uint32_t ft_slot_forget(DrDet *d, void *slot, const DrVC *floor, const uint8_t *dead, uint8_t *still) {
  (void)d;
  FtSlot *s = slot;
  uint32_t n = 0;
  if (dr_det_forget_epoch(&s->W, floor, dead, still)) {
    s->wctx = 0;
    n++;
  }
  if (r_shared(s)) {
    n += dr_det_forget_cvc(r_vc(s), floor, dead, still);
  } else if (dr_det_forget_epoch(&s->R, floor, dead, still)) {
    s->rctx = 0;
    n++;
  }
  /* only the inline check's memo: a slot's next holder counts on from
   * past it, so it could not match; cleared all the same */
  if (s->Rlast && dead[dr_epoch_tid(s->Rlast)]) s->Rlast = DR_EPOCH_NONE;
  return n;
}

const DrDetOps dr_ft_ops = {
    .explain = ft_explain,
    .name = "ft",
    .slot_size = sizeof(FtSlot),
    /* [FT WRITE SAME EPOCH] is W_x == E(t); a read by t in its epoch
     * (READ SAME EPOCH or READ SHARED SAME EPOCH) shows as Rlast == E(t)
     * or as t's entry of R_x's clock vector: the interpreter answers them */
    .fast = true,
    .fast_read_off = offsetof(FtSlot, Rlast),
    .fast_shared_off = offsetof(FtSlot, R),
    .fast_write_off = offsetof(FtSlot, W),
    /* Figure 2's read-shared same epoch: R_x's clock vector, entry t */
    .fast_shared_bit = FT_SHARED_BIT,
    .vector_clocks = true,
    .lock_edges = true,
    .stop_at_race = true,
    .access = ft_access,
    .slot_free = dr_ft_slot_free,
    .slot_forget = ft_slot_forget,
    .print_stats = dr_ft_print_stats,
};
