/* WCP, weak causal precedence (Kini, Mathur & Viswanathan, "Dynamic Race
 * Prediction in Linear Time", PLDI'17): from one observed run, the races
 * that a correct reordering of the same events would show, including
 * those a lock's happens-before edge hid in this run.
 *
 * ≺WCP is the smallest relation with
 *   (a) rel(CS1) ≺ e2 when CS1 and CS2 are critical sections of one lock,
 *       CS1 first, and e2 in CS2 conflicts with an access of CS1;
 *   (b) rel(CS1) ≺ rel(CS2) for sections of one lock when acq(CS1) ≺ rel(CS2);
 *   (c) closure under composition with happens-before on either side;
 * and two conflicting accesses of different threads race when the first
 * is not ≺WCP-or-thread-ordered before the second.  The algorithm (the
 * paper's Algorithm 1) keeps per thread P_t (its WCP predecessors), H_t
 * (happens-before: det_core.c's C_t) and N_t = H_t(t); per lock P_l, the
 * sections' acquire times and release times in trace order (the queues
 * Acq_l(t), Rel_l(t): one list per lock, with a read position per
 * thread, skipping the thread's own sections), and per lock and
 * location the happens-before times of the releases of sections that
 * read or wrote it (L^r, L^w).  An access is checked by FastTrack's rules
 * (ft.c) against C_t = P_t[t := N_t]: a race whose earlier access H_t
 * orders is *predicted*; one H_t does not order was seen in this run.
 *
 * WCP is sound for the first race it predicts in a run without volatile
 * or interrupt edges.  This implementation gives volatile accesses and
 * interrupts no WCP edge (only happens-before, through (c)), so that
 * races a volatile edge hid are predicted too; such a prediction assumes
 * the reader would go on the same way after reading the other value, so
 * every prediction is a candidate that a steered run confirms (cli/
 * confirm.c) before drvm calls it a race.  Thread start, join and class
 * initialization are hard orders: WCP edges.  A lock's list keeps at most
 * WCP_SECTIONS sections; older ones are dropped (counted in --stats),
 * which can only weaken the order, so more is predicted, never less. */
#include <string.h>

#include "det.h"

enum { WCP_SECTIONS = 1 << 14 };

/* counters after FastTrack's (ft.c uses rule[0..7]) */
enum { WR_RULE_A = 8, WR_RULE_B, WR_SECTIONS, WR_DROPPED, WR__END };
static const char *const wr_names[] = {"rule (a) joins", "rule (b) joins", "critical sections", "sections dropped"};

/* One location as rule (a) sees it within one lock's sections. */
typedef struct {
  uint64_t obj;            /* class id << 32 | serial; statics: top bit | class id */
  int32_t index;
  DrVC r, w;               /* L^r_{l,x}, L^w_{l,x} */
  uint64_t cs_r, cs_w;     /* the section that last noted a read, a write */
} WcpLoc;

typedef struct {
  uint32_t tid;            /* who acquired */
  bool released;
  DrVC acq;                /* C_t at the acquire: its WCP time */
  DrVC rel;                /* H_t at the release */
} WcpSection;

typedef struct {
  DrVC P;                  /* P_l: WCP predecessors of the last release */
  WcpSection *cs;          /* in trace order; cs[0] is section number base */
  uint32_t ncs, cs_cap, base;
  uint32_t *next;          /* per thread: the next section rule (b) tests */
  uint32_t nnext;
  WcpLoc *locs;
  uint32_t nlocs, locs_cap;
  uint32_t *hash;          /* open addressing over locs, index + 1 */
  uint32_t hash_cap;
} WcpLock;

typedef struct {
  WcpLock *lk;
  uint64_t id;             /* this section's number, for the cs_r/cs_w stamps */
  uint32_t index;          /* its place in lk->cs (absolute) */
} WcpOpen;

typedef struct {
  WcpLock *lk;
  uint32_t loc;            /* index into lk->locs */
  uint8_t rw;              /* 1 read, 2 write */
} WcpTouch;

typedef struct {
  DrVC C;                  /* P_t with C(t) = N_t: the clock accesses are checked against */
  uint32_t p_self;         /* P_t(t) */
  WcpOpen *open;
  int nopen, open_cap;
  WcpTouch *touch;
  int ntouch, touch_cap;
} WcpThread;

typedef struct {
  WcpThread *th;
  int nth;
  DrVC **init;             /* per class: C_t at the end of its initializer */
  int ninit;
  uint64_t sections;
} WcpPriv;

static WcpThread *wth(DrDet *d, uint32_t tid) {
  WcpPriv *p = d->priv;
  if ((int)tid >= p->nth) {
    int n = p->nth ? p->nth : 8;
    while (n <= (int)tid) n *= 2;
    p->th = dr_xrealloc(p->th, sizeof *p->th * (size_t)n);
    memset(p->th + p->nth, 0, sizeof *p->th * (size_t)(n - p->nth));
    p->nth = n;
  }
  return &p->th[tid];
}

/* C_t(t) := N_t, the thread's own clock in det_core's H_t */
static WcpThread *fresh(DrDet *d, uint32_t tid) {
  WcpThread *w = wth(d, tid);
  dr_vc_set(&w->C, tid, dr_vc_get(&dr_det_thread(d, tid)->C, tid), &d->mem);
  return w;
}

/* P_t := P_t ⊔ X (X(t) never passes N_t: only t makes its own time) */
static void p_join(DrDet *d, WcpThread *w, uint32_t tid, const DrVC *X) {
  uint32_t own = dr_vc_get(X, tid);
  if (own > w->p_self) w->p_self = own;
  uint32_t n = dr_vc_get(&w->C, tid);
  dr_vc_join(&w->C, X, &d->mem);
  dr_vc_set(&w->C, tid, n, &d->mem);
}

static uint64_t lock_key_of(const DrObj *o) { return (uint64_t)(uint32_t)o->cls->id << 32 | o->serial; }

static WcpLock *lock_of(DrDet *d, DrObj *o) {
  DrShadow *sh = dr_det_shadow(d, o);
  if (!sh->ext) {
    sh->ext = dr_xcalloc(1, sizeof(WcpLock));
    dr_mem_add(&d->mem, sizeof(WcpLock));
  }
  return sh->ext;
}

static uint32_t loc_hash(uint64_t obj, int32_t index) {
  uint64_t h = (obj ^ ((uint64_t)(uint32_t)index << 17)) * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32);
}

static void lock_rehash(DrDet *d, WcpLock *lk) {
  uint32_t cap = lk->hash_cap ? lk->hash_cap * 2 : 16;
  uint32_t *h = dr_xcalloc(cap, sizeof *h);
  for (uint32_t i = 0; i < lk->nlocs; i++) {
    uint32_t k = loc_hash(lk->locs[i].obj, lk->locs[i].index) & (cap - 1);
    while (h[k]) k = (k + 1) & (cap - 1);
    h[k] = i + 1;
  }
  dr_mem_add(&d->mem, sizeof *h * cap);
  dr_mem_sub(&d->mem, sizeof *h * lk->hash_cap);
  free(lk->hash);
  lk->hash = h;
  lk->hash_cap = cap;
}

/* x's entry in lk, made on first use */
static uint32_t lock_loc(DrDet *d, WcpLock *lk, uint64_t obj, int32_t index) {
  if (2 * (lk->nlocs + 1) > lk->hash_cap) lock_rehash(d, lk);
  uint32_t k = loc_hash(obj, index) & (lk->hash_cap - 1);
  for (; lk->hash[k]; k = (k + 1) & (lk->hash_cap - 1)) {
    const WcpLoc *l = &lk->locs[lk->hash[k] - 1];
    if (l->obj == obj && l->index == index) return lk->hash[k] - 1;
  }
  if (lk->nlocs == lk->locs_cap) {
    uint32_t cap = lk->locs_cap ? lk->locs_cap * 2 : 8;
    lk->locs = dr_xrealloc(lk->locs, sizeof *lk->locs * cap);
    dr_mem_add(&d->mem, sizeof *lk->locs * (cap - lk->locs_cap));
    lk->locs_cap = cap;
  }
  WcpLoc *l = &lk->locs[lk->nlocs];
  memset(l, 0, sizeof *l);
  l->obj = obj;
  l->index = index;
  lk->hash[k] = ++lk->nlocs;
  return lk->nlocs - 1;
}

static void section_free(DrDet *d, WcpSection *s) {
  dr_vc_free(&s->acq, &d->mem);
  dr_vc_free(&s->rel, &d->mem);
}

static void wcp_ext_free(DrDet *d, void *ext) {
  WcpLock *lk = ext;
  dr_vc_free(&lk->P, &d->mem);
  for (uint32_t i = 0; i < lk->ncs; i++) section_free(d, &lk->cs[i]);
  for (uint32_t i = 0; i < lk->nlocs; i++) {
    dr_vc_free(&lk->locs[i].r, &d->mem);
    dr_vc_free(&lk->locs[i].w, &d->mem);
  }
  dr_mem_sub(&d->mem, sizeof(WcpLock) + sizeof *lk->cs * lk->cs_cap + sizeof *lk->locs * lk->locs_cap +
                          sizeof *lk->hash * lk->hash_cap + sizeof *lk->next * lk->nnext);
  free(lk->cs);
  free(lk->next);
  free(lk->locs);
  free(lk->hash);
  free(lk);
}

/* The oldest half of a long list goes: a thread that had not read that
 * far loses rule (b) edges (weaker order, more predictions). */
static void drop_sections(DrDet *d, WcpLock *lk) {
  uint32_t n = lk->ncs / 2;
  for (uint32_t i = 0; i < n; i++) section_free(d, &lk->cs[i]);
  memmove(lk->cs, lk->cs + n, sizeof *lk->cs * (lk->ncs - n));
  lk->ncs -= n;
  lk->base += n;
  d->rule[WR_DROPPED] += n;
}

static void wcp_acquire(DrDet *d, uint32_t tid, DrObj *o) {
  WcpPriv *p = d->priv;
  WcpLock *lk = lock_of(d, o);
  WcpThread *w = fresh(d, tid);
  p_join(d, w, tid, &lk->P); /* rel ≤HB acq: the release's WCP predecessors are the acquire's (c) */
  if (lk->ncs == WCP_SECTIONS) drop_sections(d, lk);
  if (lk->ncs == lk->cs_cap) {
    uint32_t cap = lk->cs_cap ? lk->cs_cap * 2 : 8;
    lk->cs = dr_xrealloc(lk->cs, sizeof *lk->cs * cap);
    dr_mem_add(&d->mem, sizeof *lk->cs * (cap - lk->cs_cap));
    lk->cs_cap = cap;
  }
  WcpSection *s = &lk->cs[lk->ncs++];
  memset(s, 0, sizeof *s);
  s->tid = tid;
  dr_vc_copy(&s->acq, &w->C, &d->mem);
  WcpOpen op = {lk, ++p->sections, lk->base + lk->ncs - 1};
  DR_PUSH(w->open, w->nopen, w->open_cap, op);
  d->rule[WR_SECTIONS]++;
}

/* rule (b): every other thread's section whose acquire is WCP-before this
 * release has its release WCP-before it.  Acquires come in trace order
 * and each is happens-before the next, so the test is monotone: stop at
 * the first that fails. */
static void rule_b(DrDet *d, WcpLock *lk, WcpThread *w, uint32_t tid) {
  if (tid >= lk->nnext) {
    uint32_t n = lk->nnext ? lk->nnext : 4;
    while (n <= tid) n *= 2;
    lk->next = dr_xrealloc(lk->next, sizeof *lk->next * n);
    memset(lk->next + lk->nnext, 0, sizeof *lk->next * (n - lk->nnext));
    dr_mem_add(&d->mem, sizeof *lk->next * (n - lk->nnext));
    lk->nnext = n;
  }
  uint32_t i = lk->next[tid] > lk->base ? lk->next[tid] : lk->base;
  for (; i < lk->base + lk->ncs; i++) {
    const WcpSection *s = &lk->cs[i - lk->base];
    if (s->tid == tid) continue;
    if (!s->released || !dr_vc_leq(&s->acq, &w->C, NULL)) break;
    p_join(d, w, tid, &s->rel);
    d->rule[WR_RULE_B]++;
  }
  lk->next[tid] = i;
}

static void wcp_release(DrDet *d, uint32_t tid, DrObj *o) {
  WcpThread *w = fresh(d, tid);
  int k = w->nopen - 1;
  WcpLock *lk = lock_of(d, o);
  while (k >= 0 && w->open[k].lk != lk) k--;
  if (k < 0) return; /* acquired before this detector saw it */
  WcpOpen op = w->open[k];
  memmove(&w->open[k], &w->open[k + 1], sizeof *w->open * (size_t)(w->nopen - k - 1));
  w->nopen--;
  const DrVC *H = &dr_det_thread(d, tid)->C;
  rule_b(d, lk, w, tid);
  /* the section's accesses: L^r, L^w ⊔= H_t */
  int kept = 0;
  for (int i = 0; i < w->ntouch; i++) {
    WcpTouch *t = &w->touch[i];
    if (t->lk != lk) {
      w->touch[kept++] = *t;
      continue;
    }
    WcpLoc *l = &lk->locs[t->loc];
    if (t->rw & 1) dr_vc_join(&l->r, H, &d->mem);
    if (t->rw & 2) dr_vc_join(&l->w, H, &d->mem);
  }
  w->ntouch = kept;
  dr_vc_copy(&lk->P, &w->C, &d->mem);
  dr_vc_set(&lk->P, tid, w->p_self, &d->mem);
  if (op.index >= lk->base) {
    WcpSection *s = &lk->cs[op.index - lk->base];
    dr_vc_copy(&s->rel, H, &d->mem);
    s->released = true;
  }
}

static DrVC **init_clock(DrDet *d, int id) {
  WcpPriv *p = d->priv;
  if (id >= p->ninit) {
    int n = p->ninit ? p->ninit : 16;
    while (n <= id) n *= 2;
    p->init = dr_xrealloc(p->init, sizeof *p->init * (size_t)n);
    memset(p->init + p->ninit, 0, sizeof *p->init * (size_t)(n - p->ninit));
    p->ninit = n;
  }
  return &p->init[id];
}

static void wcp_sync(DrDet *d, uint32_t tid, const DrEvent *e) {
  uint32_t u = e->other ? dr_det_slot(d, e->other) : 0;
  wth(d, u > tid ? u : tid); /* both threads' state first: making one may move the other */
  switch (e->kind) {
  case DR_EV_ACQUIRE:
  case DR_EV_WAKE:
    if (e->obj) wcp_acquire(d, tid, e->obj);
    break;
  case DR_EV_RELEASE:
  case DR_EV_WAIT:
    if (e->obj) wcp_release(d, tid, e->obj);
    break;
  case DR_EV_FORK:
    if (e->other) {
      const DrVC *C = &fresh(d, tid)->C;
      p_join(d, wth(d, u), u, C);
    }
    break;
  case DR_EV_JOIN:
    if (e->other) {
      const DrVC *C = &fresh(d, u)->C;
      p_join(d, wth(d, tid), tid, C);
    }
    break;
  case DR_EV_INIT:
    if (e->cls) {
      DrVC **v = init_clock(d, e->cls->id);
      if (!*v) *v = dr_vc_new(&d->mem);
      dr_vc_copy(*v, &fresh(d, tid)->C, &d->mem);
    }
    break;
  default: break; /* volatile and interrupt edges: happens-before only */
  }
}

static uint64_t loc_key(const DrLoc *loc) {
  if (loc->is_static) return (uint64_t)1 << 63 | (uint32_t)loc->cls->id;
  return lock_key_of(loc->obj);
}

/* rule (a): in each section t is in, the earlier sections of the same
 * lock that wrote x (for a read) or touched x (for a write) are
 * WCP-before this access; and x is noted for this section's release. */
static void rule_a(DrDet *d, WcpThread *w, uint32_t tid, const DrLoc *loc, bool write) {
  uint64_t key = loc_key(loc);
  for (int i = 0; i < w->nopen; i++) {
    WcpLock *lk = w->open[i].lk;
    uint32_t li = lock_loc(d, lk, key, loc->index);
    WcpLoc *l = &lk->locs[li];
    if (l->w.n) {
      p_join(d, w, tid, &l->w);
      d->rule[WR_RULE_A]++;
    }
    if (write && l->r.n) {
      p_join(d, w, tid, &l->r);
      d->rule[WR_RULE_A]++;
    }
    uint64_t *stamp = write ? &l->cs_w : &l->cs_r;
    if (*stamp == w->open[i].id) continue;
    *stamp = w->open[i].id;
    WcpTouch t = {lk, li, (uint8_t)(write ? 2 : 1)};
    DR_PUSH(w->touch, w->ntouch, w->touch_cap, t);
  }
}

static void wcp_access(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write) {
  WcpPriv *p = d->priv;
  WcpThread *w = fresh(d, tid);
  if (w->nopen && !d->opt.relaxed) rule_a(d, w, tid, loc, write);
  if (loc->is_static && loc->cls->id < p->ninit && p->init[loc->cls->id]) p_join(d, w, tid, p->init[loc->cls->id]);
  /* a location reported once is not checked again (as stop_at_race does
   * for the others), but its accesses still order sections above */
  if (!d->opt.all_races && dr_det_raced(d, loc)) {
    d->suppressed++;
    return;
  }
  dr_ft_access_against(d, tid, slot, loc, e, write, &w->C);
}

static void wcp_finish(DrDet *d) {
  WcpPriv *p = d->priv;
  if (d->opt.potential_path) {
    DrPairs pairs = {0};
    pairs.comment = dr_strdup("# drvm predicted races (wcp): location, then two statements as Class.method(params) pc line");
    for (int i = 0; i < d->nraces; i++) {
      const DrRace *r = &d->races[i];
      if (!r->predicted) continue;
      DrPair pair = {.location = dr_pairs_location(r->location), .first = dr_det_stmt(d, r->cur.ctx), .second = dr_det_stmt(d, r->prev.ctx)};
      dr_pairs_add(&pairs, pair);
    }
    dr_det_write_pairs(d, &pairs, d->opt.potential_path);
    dr_pairs_free(&pairs);
  }
  for (int i = 0; i < p->nth; i++) {
    dr_vc_free(&p->th[i].C, &d->mem);
    free(p->th[i].open);
    free(p->th[i].touch);
  }
  free(p->th);
  for (int i = 0; i < p->ninit; i++) dr_vc_delete(p->init[i], &d->mem);
  free(p->init);
  memset(p, 0, sizeof *p);
}

static void wcp_stats(DrDet *d, FILE *out) {
  dr_ft_print_stats(d, out);
  for (int i = WR_RULE_A; i < WR__END; i++)
    fprintf(out, "  %-26s %12llu\n", wr_names[i - WR_RULE_A], (unsigned long long)d->rule[i]);
  fprintf(out, "  %-26s %12d\n", "predicted races", d->result->predicted);
}

const DrDetOps dr_wcp_ops = {
    .name = "wcp",
    .slot_size = sizeof(FtSlot),
    .vector_clocks = true,
    .lock_edges = true,
    /* rule (a) needs every access in a section, raced or not */
    .stop_at_race = false,
    .priv_size = sizeof(WcpPriv),
    .access = wcp_access,
    .slot_free = dr_ft_slot_free,
    .sync = wcp_sync,
    .ext_free = wcp_ext_free,
    .finish = wcp_finish,
    .print_stats = wcp_stats,
};
