/* Hybrid race detection (O'Callahan & Choi, PPoPP'03): two accesses to a
 * location, one a write, by different threads, form a potential race
 * when their locksets share no lock and happens-before -- from start,
 * join and notify->wait only, never from locks -- does not order them.
 * So a race hidden behind a lock edge in this run is still found, at the
 * price of false alarms.  Reports name statement pairs; with
 * --potential-races FILE they are written for RaceFuzzer's second phase
 * (vm/pairs.h: the file format).
 *
 * Per location a short history: the latest access for each (thread,
 * read/write, lockset), at most HY_HISTORY of them (the oldest leaves). */
#include <string.h>

#include "../vm/pairs.h"
#include "det.h"

#define HY_HISTORY 8

enum { HY_ACCESSES, HY_COMPARED, HY_PAIRS, HY_EVICTED, HY__RULES };

static const char *const hy_rule_names[HY__RULES] = {"accesses recorded", "history comparisons",
                                                      "potential races", "history evictions"};

typedef struct {
  uint32_t tid, clock, ctx, lockset;
  bool write;
} HyEntry;

typedef struct {
  HyEntry *h;              /* HY_HISTORY entries, lazily */
  uint32_t n;
} HySlot;

typedef struct {
  DrPairs pairs;           /* for --potential-races */
} HyPriv;

/* A statement pair, once. */
static void record_pair(DrDet *d, const DrLoc *loc, uint32_t c1, uint32_t c2) {
  HyPriv *p = d->priv;
  DrBuf field = {0};
  dr_det_loc_field_name(loc, &field);
  DrPair pair = {.location = field.data, .first = dr_det_stmt(d, c1), .second = dr_det_stmt(d, c2)};
  if (dr_pairs_add(&p->pairs, pair)) d->rule[HY_PAIRS]++;
}

static void hy_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write) {
  HySlot *s = slot;
  DrDetThread *t = &d->threads[tid];
  uint32_t ls = t->lockset, ctx = dr_det_ctx(d, e), now = dr_vc_get(&t->C, tid);
  d->rule[HY_ACCESSES]++;
  if (!s->h) {
    s->h = dr_xcalloc(HY_HISTORY, sizeof(HyEntry));
    dr_mem_add(&d->mem, HY_HISTORY * sizeof(HyEntry));
  }
  for (uint32_t i = 0; i < s->n; i++) {
    const HyEntry *h = &s->h[i];
    if (h->tid == tid || !(h->write || write)) continue;
    d->rule[HY_COMPARED]++;
    if (dr_det_lockset_intersect(d, h->lockset, ls) != 0) continue;
    if (h->clock <= dr_vc_get(&t->C, h->tid)) continue; /* ordered by start/join/notify */
    record_pair(d, loc, h->ctx, ctx);
    DrAccess cur = {write, tid, ctx, now}, prev = {h->write, h->tid, h->ctx, h->clock};
    dr_det_race(d, loc, e, cur, prev, DR_WHY_HYBRID, dr_vc_get(&t->C, h->tid));
    break;
  }
  HyEntry ne = {tid, now, ctx, ls, write};
  for (uint32_t i = 0; i < s->n; i++)
    if (s->h[i].tid == tid && s->h[i].write == write && s->h[i].lockset == ls) {
      memmove(&s->h[i], &s->h[i + 1], sizeof(HyEntry) * (s->n - i - 1));
      s->n--;
      break;
    }
  if (s->n == HY_HISTORY) {
    d->rule[HY_EVICTED]++;
    memmove(&s->h[0], &s->h[1], sizeof(HyEntry) * (HY_HISTORY - 1));
    s->n--;
  }
  s->h[s->n++] = ne;
}

static void hy_slot_free(DrDet *d, void *slot) {
  HySlot *s = slot;
  if (s->h) dr_mem_sub(&d->mem, HY_HISTORY * sizeof(HyEntry));
  free(s->h);
  s->h = NULL;
}

static void hy_finish(DrDet *d) {
  HyPriv *p = d->priv;
  if (d->opt.potential_path) {
    DrPairs none = {0};
    dr_det_write_pairs(d, p ? &p->pairs : &none, d->opt.potential_path);
  }
  if (p) dr_pairs_free(&p->pairs);
}

static void hy_stats(DrDet *d, FILE *out) {
  for (int i = 0; i < HY__RULES; i++)
    fprintf(out, "  %-26s %12llu\n", hy_rule_names[i], (unsigned long long)d->rule[i]);
}

const DrDetOps dr_hybrid_ops = {
    .name = "hybrid",
    .slot_size = sizeof(HySlot),
    .vector_clocks = true,
    .filter_keep_last = true, /* its history: the latest per thread, kind and lockset */
    .notify_edges = true,
    .priv_size = sizeof(HyPriv),
    .access = hy_access,
    .slot_free = hy_slot_free,
    .finish = hy_finish,
    .print_stats = hy_stats,
};
