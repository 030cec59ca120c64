/* The exploration's model: which steps are dependent, the happens-before
 * of one execution as vector clocks, the races in it, and the paper's
 * operations on sequences and wakeup trees (see explore.h). */
#include <string.h>

#include "explore.h"

/* ------------------------------------------------------------ dependence */

static bool is_access(uint8_t op) { return op == XOP_READ || op == XOP_WRITE; }

bool dr_xev_dependent(const XEv *a, const XEv *b) {
  if (a->tid == b->tid || a->fence || b->fence) return true;
  if (a->prints && b->prints) return true; /* the output's order is part of the outcome */
  /* thread ids are handed out in start order: starts are ordered so that
   * a thread has the same id in every execution of a trace */
  if (a->kind == DR_EV_FORK && (b->kind == DR_EV_FORK || b->tid == a->other)) return true;
  if (b->kind == DR_EV_FORK && a->tid == b->other) return true;
  if ((a->kind == DR_EV_JOIN && b->tid == a->other) || (b->kind == DR_EV_JOIN && a->tid == b->other)) return true;
  /* an interrupt is seen by every step of its target (sleep, wait, join,
   * isInterrupted read the status) */
  if ((a->kind == DR_EV_INTERRUPT && b->tid == a->other) || (b->kind == DR_EV_INTERRUPT && a->tid == b->other))
    return true;
  if (a->init_op && b->init_op && a->init_loc == b->init_loc && (a->init_op == XOP_WRITE || b->init_op == XOP_WRITE))
    return true;
  if (a->loc != b->loc) return false;
  if (is_access(a->op) && is_access(b->op)) return a->op == XOP_WRITE || b->op == XOP_WRITE;
  if (a->op == XOP_TAKE && b->op == XOP_TAKE) return true;
  /* a notify enables the WAKE of a waiter */
  if (a->op == XOP_NOTIFY && b->kind == DR_EV_WAKE) return true;
  if (b->op == XOP_NOTIFY && a->kind == DR_EV_WAKE) return true;
  return false;
}

/* ------------------------------------------------------------ locations */

struct XLoc {
  uint64_t key;  /* 0: empty slot */
  int last_write, reads, last_take, last_rel;
};

static XLoc *loc_get(XExec *x, uint64_t key) {
  if (key == 0) key = 1;
  if (x->nlocs * 2 >= x->locs_cap) {
    XLoc *old = x->locs;
    int oldcap = x->locs_cap;
    x->locs_cap = oldcap ? oldcap * 2 : 256;
    x->locs = dr_xcalloc((size_t)x->locs_cap, sizeof *x->locs);
    x->nlocs = 0;
    for (int i = 0; i < oldcap; i++)
      if (old[i].key) {
        XLoc *l = loc_get(x, old[i].key);
        *l = old[i];
      }
    free(old);
  }
  uint64_t h = key * 0x9E3779B97F4A7C15u;
  for (int i = (int)(h >> 40) & (x->locs_cap - 1);; i = (i + 1) & (x->locs_cap - 1)) {
    XLoc *l = &x->locs[i];
    if (l->key == key) return l;
    if (!l->key) {
      *l = (XLoc){key, -1, -1, -1, -1};
      x->nlocs++;
      return l;
    }
  }
}

/* ------------------------------------------------------------ one execution */

void dr_xexec_reset(XExec *x) {
  x->n = x->nreal = 0;
  x->nraces = 0;
  x->last_print = x->last_fork = -1;
  for (int t = 0; t < x->nthreads_cap; t++) {
    x->last[t] = x->enabler[t] = x->intr_last[t] = -1;
    x->fence_next[t] = false;
  }
  if (x->locs) memset(x->locs, 0, sizeof *x->locs * (size_t)x->locs_cap);
  x->nlocs = 0;
}

void dr_xexec_free(XExec *x) {
  free(x->ev);
  free(x->seq);
  free(x->clock);
  free(x->read_prev);
  free(x->last);
  free(x->enabler);
  free(x->intr_last);
  free(x->fence_next);
  free(x->locs);
  free(x->races);
  free(x->preds);
  free(x->base);
  memset(x, 0, sizeof *x);
}

void dr_xexec_threads(XExec *x, int tid) {
  if (tid < x->nthreads_cap) return;
  int cap = x->nthreads_cap ? x->nthreads_cap : 8;
  while (cap <= tid) cap *= 2;
  x->last = dr_xrealloc(x->last, sizeof(int) * (size_t)cap);
  x->enabler = dr_xrealloc(x->enabler, sizeof(int) * (size_t)cap);
  x->intr_last = dr_xrealloc(x->intr_last, sizeof(int) * (size_t)cap);
  x->fence_next = dr_xrealloc(x->fence_next, sizeof(bool) * (size_t)cap);
  for (int t = x->nthreads_cap; t < cap; t++) {
    x->last[t] = x->enabler[t] = x->intr_last[t] = -1;
    x->fence_next[t] = false;
  }
  x->nthreads_cap = cap;
}

/* Clocks are n x width; a thread beyond the width widens every clock. */
static void ensure_width(XExec *x, int tid) {
  if (tid < x->width) return;
  int w = x->width ? x->width : 4;
  while (w <= tid) w *= 2;
  uint32_t *c = dr_xcalloc((size_t)x->cap * (size_t)w + 1, sizeof *c);
  for (int i = 0; i < x->n; i++) memcpy(c + (size_t)i * (size_t)w, x->clock + (size_t)i * (size_t)x->width, sizeof *c * (size_t)x->width);
  free(x->clock);
  x->clock = c;
  x->width = w;
}

static void ensure_steps(XExec *x) {
  if (x->n < x->cap) return;
  int cap = x->cap ? x->cap * 2 : 256;
  x->ev = dr_xrealloc(x->ev, sizeof *x->ev * (size_t)cap);
  x->seq = dr_xrealloc(x->seq, sizeof *x->seq * (size_t)cap);
  x->read_prev = dr_xrealloc(x->read_prev, sizeof *x->read_prev * (size_t)cap);
  x->clock = dr_xrealloc(x->clock, sizeof *x->clock * ((size_t)cap * (size_t)(x->width ? x->width : 1) + 1));
  x->cap = cap;
}

static inline uint32_t *clock_of(const XExec *x, int i) { return x->clock + (size_t)i * (size_t)x->width; }

bool dr_xexec_hb(const XExec *x, int a, int b) { return clock_of(x, b)[x->ev[a].tid] >= x->seq[a]; }

static void join(const XExec *x, uint32_t *c, int k) {
  const uint32_t *o = clock_of(x, k);
  for (int t = 0; t < x->width; t++)
    if (o[t] > c[t]) c[t] = o[t];
}

/* How a step is a direct predecessor of the new one. */
enum { P_ENABLE, P_RACY, P_TAKE, P_REL, P_NOTIFIED };


static void pred(Pred **p, int *n, int *cap, int step, int how) {
  if (step < 0) return;
  DR_PUSH(*p, *n, *cap, ((Pred){step, how}));
}

static void add_race(XExec *x, int i, int j) {
  if (x->nraces + 2 > x->races_cap) {
    x->races_cap = x->races_cap ? x->races_cap * 2 : 64;
    x->races = dr_xrealloc(x->races, sizeof(int) * (size_t)x->races_cap);
  }
  x->races[x->nraces++] = i;
  x->races[x->nraces++] = j;
}

/* A class's initialization starts once per execution, before every
 * static access of the class: a read of its init state follows the
 * write, and no read comes before it (no list of reads needed). */
static void init_preds(XExec *x, const XEv *e, Pred **p, int *n, int *cap) {
  pred(p, n, cap, loc_get(x, e->init_loc)->last_write, P_RACY);
}

/* The direct predecessors of step j: its enablers, and the earlier
 * conflicting steps of other threads on what it touches. */
static int collect_preds(XExec *x, int j, Pred **p, int *cap) {
  const XEv *e = &x->ev[j];
  int n = 0, t = e->tid;
  /* with spurious wake-ups, a WAKE needs no notify: reversible past it */
  pred(p, &n, cap, x->enabler[t], x->spurious && e->kind == DR_EV_WAKE ? P_NOTIFIED : P_ENABLE);
  x->enabler[t] = -1;
  pred(p, &n, cap, x->intr_last[t], P_RACY);
  if (e->fence)
    for (int u = 0; u < x->nthreads_cap; u++)
      if (u != t) pred(p, &n, cap, x->last[u], P_ENABLE);
  if (e->kind == DR_EV_JOIN && e->other >= 0 && e->other < x->nthreads_cap) pred(p, &n, cap, x->last[e->other], P_ENABLE);
  if (e->prints) pred(p, &n, cap, x->last_print, P_RACY);
  if (e->kind == DR_EV_FORK) pred(p, &n, cap, x->last_fork, P_RACY);
  if (e->init_op) init_preds(x, e, p, &n, cap);
  if (e->op == XOP_LOCAL || e->op == XOP_NOTIFY) return n;
  XLoc *l = loc_get(x, e->loc);
  switch (e->op) {
  case XOP_READ: pred(p, &n, cap, l->last_write, P_RACY); break;
  case XOP_WRITE:
    for (int r = l->reads; r >= 0; r = x->read_prev[r]) pred(p, &n, cap, r, P_RACY);
    pred(p, &n, cap, l->last_write, P_RACY);
    break;
  case XOP_TAKE:
    pred(p, &n, cap, l->last_take, P_TAKE);
    pred(p, &n, cap, l->last_rel, P_REL);
    break;
  default: break;
  }
  return n;
}

static void update_loc(XExec *x, int j) {
  const XEv *e = &x->ev[j];
  if (e->prints) x->last_print = j;
  if (e->kind == DR_EV_FORK) x->last_fork = j;
  if (e->kind == DR_EV_FORK && e->other >= 0) x->enabler[e->other] = j; /* the child's first step follows */
  if (e->kind == DR_EV_INTERRUPT && e->other >= 0) x->intr_last[e->other] = j;
  if (e->init_op == XOP_WRITE) loc_get(x, e->init_loc)->last_write = j;
  if (e->op == XOP_LOCAL || e->op == XOP_NOTIFY) return;
  XLoc *l = loc_get(x, e->loc);
  switch (e->op) {
  case XOP_READ:
    x->read_prev[j] = l->reads;
    l->reads = j;
    break;
  case XOP_WRITE:
    l->last_write = j;
    l->reads = -1;
    break;
  case XOP_TAKE: l->last_take = j; break;
  case XOP_RELEASE: l->last_rel = j; break;
  default: break;
  }
}

static int by_step_desc(const void *a, const void *b) { return ((const Pred *)b)->step - ((const Pred *)a)->step; }

/* A race: an earlier step of another thread that conflicts with j and
 * does not happen before j by any other way than the conflict itself.
 * Predecessors are joined latest first, so a path i -> k -> j through a
 * later predecessor k is known when i is checked.  The previous take of
 * a monitor is checked without the release edge, which always follows
 * it: reversing the two takes is the race, not the release. */
int dr_xexec_add(XExec *x, const XEv *ev) {
  dr_xexec_threads(x, ev->tid);
  if (ev->other >= 0) dr_xexec_threads(x, ev->other);
  ensure_width(x, ev->tid > ev->other ? ev->tid : ev->other);
  ensure_steps(x);
  int j = x->n++, t = ev->tid;
  x->ev[j] = *ev;
  x->read_prev[j] = -1;
  uint32_t *c = clock_of(x, j);
  if (x->last[t] >= 0) memcpy(c, clock_of(x, x->last[t]), sizeof *c * (size_t)x->width);
  else memset(c, 0, sizeof *c * (size_t)x->width);
  x->seq[j] = c[t] + 1;
  c[t] = x->seq[j];
  Pred *p = x->preds;
  int np = collect_preds(x, j, &p, &x->preds_cap);
  x->preds = p;
  if (np > 1) qsort(p, (size_t)np, sizeof *p, by_step_desc);
  uint32_t *base = NULL;
  for (int k = 0; k < np; k++)
    if (p[k].how == P_TAKE) {
      x->base = dr_xrealloc(x->base, sizeof *c * (size_t)x->width);
      base = x->base;
    }
  if (base) memcpy(base, c, sizeof *c * (size_t)x->width);
  int take = -1;
  for (int k = 0; k < np; k++) {
    int s = p[k].step, st = x->ev[s].tid;
    if (p[k].how == P_RACY && st != t && c[st] < x->seq[s]) add_race(x, s, j);
    if (p[k].how == P_TAKE) take = s;
    else if (base && p[k].how != P_REL && p[k].how != P_NOTIFIED) join(x, base, s);
    join(x, c, s);
  }
  if (take >= 0 && x->ev[take].tid != t && base[x->ev[take].tid] < x->seq[take]) add_race(x, take, j);
  x->last[t] = j;
  update_loc(x, j);
  return j;
}

/* ------------------------------------------------------------ sequences */

static void seq_push(XSeq *v, int s) { DR_PUSH(v->s, v->n, v->cap, s); }

/* v[0..n) reordered, as any order that keeps its happens-before is the
 * same trace: each thread goes on as long as it can, starting with cur,
 * so that the executions the sequence leads to have few preemptions (and
 * witnesses are short).  Quadratic: only for short sequences. */
static void fewer_switches(XSeq *v, int n, const XExec *x, int cur) {
  enum { LIMIT = 64 };
  if (n < 3 || n > LIMIT) return;
  int in[LIMIT], out[LIMIT];
  memcpy(in, v->s, sizeof *in * (size_t)n);
  bool used[LIMIT] = {false};
  for (int m = 0; m < n; m++) {
    int pick = -1;
    for (int a = 0; a < n && pick < 0; a++) {
      if (used[a] || x->ev[in[a]].tid != cur) continue;
      bool ready = true; /* no step left before it happens before it */
      for (int b = 0; b < a && ready; b++) ready = used[b] || !dr_xexec_hb(x, in[b], in[a]);
      if (ready) pick = a;
      else break; /* cur's first step left is not ready: neither are its later ones */
    }
    if (pick < 0)
      for (pick = 0; used[pick]; pick++) {} /* the earliest left: always ready */
    used[pick] = true;
    out[m] = in[pick];
    cur = x->ev[in[pick]].tid;
  }
  memcpy(v->s, out, sizeof *out * (size_t)n);
}

void dr_xseq_notdep(XSeq *v, const XExec *x, int i, int j) {
  v->n = 0;
  for (int k = i + 1; k < x->nreal; k++)
    if (k != j && !dr_xexec_hb(x, i, k)) seq_push(v, k);
  fewer_switches(v, v->n, x, i > 0 ? x->ev[i - 1].tid : x->ev[i].tid);
  seq_push(v, j);
}

static int first_of(const XSeq *v, const XExec *x, int tid) {
  for (int k = 0; k < v->n; k++)
    if (x->ev[v->s[k]].tid == tid) return k;
  return -1;
}

static bool initial_at(const XSeq *v, const XExec *x, int f) {
  for (int k = 0; k < f; k++)
    if (dr_xexec_hb(x, v->s[k], v->s[f])) return false;
  return true;
}

bool dr_xseq_initial(const XSeq *v, const XExec *x, int tid) {
  int f = first_of(v, x, tid);
  return f >= 0 && initial_at(v, x, f);
}

bool dr_xseq_weak_initial(const XSeq *v, const XExec *x, int tid, const XEv *ev) {
  int f = first_of(v, x, tid);
  if (f >= 0) return initial_at(v, x, f);
  for (int k = 0; k < v->n; k++)
    if (dr_xev_dependent(ev, &x->ev[v->s[k]])) return false;
  return true;
}

/* ------------------------------------------------------------ wakeup trees */

int dr_xtree_new(XTree *t, int parent, const XEv *ev) {
  int id;
  if (t->free_list >= 0) {
    id = t->free_list;
    t->free_list = t->nodes[id].sibling;
  } else {
    if (t->n == t->cap) {
      t->cap = t->cap ? t->cap * 2 : 256;
      t->nodes = dr_xrealloc(t->nodes, sizeof *t->nodes * (size_t)t->cap);
    }
    id = t->n++;
  }
  XTNode *nd = &t->nodes[id];
  nd->tid = ev ? ev->tid : -1;
  if (ev) nd->ev = *ev;
  else memset(&nd->ev, 0, sizeof nd->ev);
  nd->child = nd->sibling = -1;
  nd->parent = parent;
  if (parent >= 0) { /* the last child: children are tried in insertion order */
    int *link = &t->nodes[parent].child;
    while (*link >= 0) link = &t->nodes[*link].sibling;
    *link = id;
  }
  return id;
}

static void free_subtree(XTree *t, int node) {
  while (node >= 0) {
    int next = t->nodes[node].sibling;
    free_subtree(t, t->nodes[node].child);
    t->nodes[node].sibling = t->free_list;
    t->nodes[node].parent = -2;
    t->free_list = node;
    node = next;
  }
}

void dr_xtree_remove(XTree *t, int node) {
  int parent = t->nodes[node].parent;
  if (parent >= 0) {
    int *link = &t->nodes[parent].child;
    while (*link != node) link = &t->nodes[*link].sibling;
    *link = t->nodes[node].sibling;
  }
  free_subtree(t, t->nodes[node].child);
  t->nodes[node].child = -1;
  t->nodes[node].sibling = t->free_list;
  t->nodes[node].parent = -2;
  t->free_list = node;
}

void dr_xtree_free(XTree *t) {
  free(t->nodes);
  memset(t, 0, sizeof *t);
  t->free_list = -1;
}

static void seq_drop(XSeq *v, int k) {
  memmove(v->s + k, v->s + k + 1, sizeof *v->s * (size_t)(v->n - k - 1));
  v->n--;
}

bool dr_xtree_insert(XTree *t, int root, XSeq *v, const XExec *x) {
  int cur = root;
  for (;;) {
    if (v->n == 0) return false;
    int c = t->nodes[cur].child;
    for (; c >= 0; c = t->nodes[c].sibling)
      if (dr_xseq_weak_initial(v, x, t->nodes[c].tid, &t->nodes[c].ev)) break;
    if (c < 0) break;
    if (t->nodes[c].child < 0) return false; /* a leaf: what follows it is free, and covers v */
    int f = first_of(v, x, t->nodes[c].tid);
    if (f >= 0) seq_drop(v, f);
    cur = c;
  }
  for (int k = 0; k < v->n; k++) cur = dr_xtree_new(t, cur, &x->ev[v->s[k]]);
  return true;
}
