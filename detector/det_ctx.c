/* Access contexts: where an access happened (its call stack) and which
 * locks its thread held, as one 32-bit id stored beside each epoch, so
 * a report prints the previous access's whole stack too.
 *
 * Stacks are hash-consed chains: a node is (parent, method, pc), the
 * leaf also carries the lockset.  A thread caches the nodes of its
 * caller frames, so computing a context costs one comparison per frame
 * and a hash lookup for frames that changed. */
#include <string.h>

#include "det.h"

static uint32_t hash_words(const uint32_t *w, int n) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < n; i++) {
    h ^= w[i];
    h *= 16777619u;
    h ^= h >> 15;
  }
  return h;
}

static uint32_t node_hash(const DrCtxNode *n) {
  uint32_t w[4] = {n->parent, n->method, n->pc, n->lockset};
  return hash_words(w, 4);
}

static void node_rehash(DrDet *d) {
  uint32_t cap = d->node_hash_cap ? d->node_hash_cap * 2 : 1024;
  uint32_t *h = dr_xcalloc(cap, sizeof(uint32_t));
  for (uint32_t i = 1; i < d->nnodes; i++) {
    uint32_t k = node_hash(&d->nodes[i]) & (cap - 1);
    while (h[k]) k = (k + 1) & (cap - 1);
    h[k] = i + 1;
  }
  dr_mem_sub(&d->mem, sizeof(uint32_t) * d->node_hash_cap);
  dr_mem_add(&d->mem, sizeof(uint32_t) * cap);
  free(d->node_hash);
  d->node_hash = h;
  d->node_hash_cap = cap;
}

static uint32_t node_intern(DrDet *d, uint32_t parent, uint32_t method, uint32_t pc, uint32_t lockset) {
  if (!d->nnodes) {
    DrCtxNode root = {0, 0, 0, 0};
    DR_PUSH(d->nodes, d->nnodes, d->nodes_cap, root);
  }
  if ((d->nnodes + 1) * 2 > d->node_hash_cap) node_rehash(d);
  DrCtxNode n = {parent, method, pc, lockset};
  uint32_t k = node_hash(&n) & (d->node_hash_cap - 1);
  while (d->node_hash[k]) {
    const DrCtxNode *m = &d->nodes[d->node_hash[k] - 1];
    if (m->parent == parent && m->method == method && m->pc == pc && m->lockset == lockset) return d->node_hash[k] - 1;
    k = (k + 1) & (d->node_hash_cap - 1);
  }
  uint32_t old_cap = d->nodes_cap;
  DR_PUSH(d->nodes, d->nnodes, d->nodes_cap, n);
  dr_mem_add(&d->mem, sizeof(DrCtxNode) * (d->nodes_cap - old_cap));
  d->node_hash[k] = d->nnodes;
  return d->nnodes - 1;
}

static struct DrSiteCtx *site_of(DrDet *d, const DrMethod *m, uint32_t pc) {
  if (m->id >= d->nsite_ctx) {
    int n = d->nsite_ctx ? d->nsite_ctx : 64;
    while (n <= m->id) n *= 2;
    d->site_ctx = dr_xrealloc(d->site_ctx, sizeof *d->site_ctx * (size_t)n);
    memset(d->site_ctx + d->nsite_ctx, 0, sizeof *d->site_ctx * (size_t)(n - d->nsite_ctx));
    dr_mem_add(&d->mem, sizeof *d->site_ctx * (size_t)(n - d->nsite_ctx));
    d->nsite_ctx = n;
  }
  if (!d->site_ctx[m->id]) {
    d->site_ctx[m->id] = dr_xcalloc((size_t)m->code_len, sizeof **d->site_ctx);
    dr_mem_add(&d->mem, sizeof **d->site_ctx * (size_t)m->code_len);
  }
  return &d->site_ctx[m->id][pc];
}

/* node_intern's answer through the site table: the same (callers,
 * locks) at a position as the last time there is one load away */
static uint32_t site_intern(DrDet *d, uint32_t parent, const DrMethod *m, uint32_t pc, uint32_t lockset) {
  struct DrSiteCtx *s = site_of(d, m, pc);
  if (s->ctx && s->parent == parent && s->lockset == lockset) return s->ctx;
  uint32_t ctx = node_intern(d, parent, (uint32_t)m->id + 1, pc, lockset);
  *s = (struct DrSiteCtx){parent, lockset, ctx};
  return ctx;
}

static bool frame_shown(const DrFrame *f) {
  return f->ip && !(f->method->flags & DR_M_NATIVE) && !(f->method->owner->flags & DR_CLS_BUILTIN);
}

/* The chain node of th's caller frames (those below the leaf), walked
 * and interned as far as they changed since the last walk. */
static uint32_t caller_chain(DrDet *d, DrDetThread *t, const DrThread *th, int leaf) {
  uint32_t parent = 0;
  int i = 0;
  for (; i < leaf && i < t->nchain; i++) {
    const DrFrame *f = &th->frames[i];
    if (t->chain_m[i] != f->method || t->chain_ip[i] != f->ip) break;
    parent = t->chain_node[i];
  }
  t->nchain = i;
  for (; i < leaf; i++) {
    const DrFrame *f = &th->frames[i];
    if (frame_shown(f))
      parent = site_intern(d, parent, f->method, (uint32_t)(f->ip - f->method->code), 0);
    if (t->nchain == t->chain_cap) {
      int cap = t->chain_cap ? t->chain_cap * 2 : 16;
      t->chain_m = dr_xrealloc(t->chain_m, sizeof(DrMethod *) * (size_t)cap);
      t->chain_ip = dr_xrealloc(t->chain_ip, sizeof(uint32_t *) * (size_t)cap);
      t->chain_node = dr_xrealloc(t->chain_node, sizeof(uint32_t) * (size_t)cap);
      t->chain_cap = cap;
    }
    t->chain_m[t->nchain] = f->method;
    t->chain_ip[t->nchain] = f->ip;
    t->chain_node[t->nchain] = parent;
    t->nchain++;
  }
  return parent;
}

uint32_t dr_det_ctx_make(DrDet *d, DrDetThread *t, const DrThread *th, const DrMethod *m, uint32_t pc) {
  if (d->ctx_override) return d->ctx_override;
  uint32_t parent;
  if (th->pushes == t->memo_pushes && th->nframes == t->memo_nframes) {
    /* no frame pushed and as many as then: the same caller frames */
    parent = t->memo_parent;
  } else {
    /* the leaf is the innermost bytecode frame, as dr_event_at chose it */
    int leaf = th->nframes - 1;
    while (leaf >= 0 && ((th->frames[leaf].method->flags & DR_M_NATIVE) || !th->frames[leaf].ip)) leaf--;
    parent = caller_chain(d, t, th, leaf);
    t->memo_pushes = th->pushes;
    t->memo_nframes = th->nframes;
    t->memo_parent = parent;
  }
  return m ? site_intern(d, parent, m, pc, t->lockset) : node_intern(d, parent, 0, pc, t->lockset);
}

uint32_t dr_det_ctx(DrDet *d, const DrEvent *e) {
  if (d->ctx_override) return d->ctx_override;
  const DrThread *th = e->thread;
  DrDetThread *t = dr_det_thread_of(d, th);
  return e->method ? dr_det_ctx_at(d, t, th, e->method, e->pc) : dr_det_ctx_make(d, t, th, NULL, e->pc);
}

uint32_t dr_det_ctx_lockset(const DrDet *d, uint32_t ctx) { return ctx < d->nnodes ? d->nodes[ctx].lockset : 0; }

static void frame_line(DrDet *d, const DrCtxNode *n, DrBuf *b) {
  dr_buf_append_str(b, "    at ");
  dr_position_text(d->vm, d->vm->methods[n->method - 1], n->pc, true, b);
  dr_buf_append_str(b, "\n");
}

void dr_det_ctx_stack(DrDet *d, uint32_t ctx, DrBuf *b) {
  if (!ctx || ctx >= d->nnodes) {
    dr_buf_append_str(b, "    (no stack)\n");
    return;
  }
  for (uint32_t c = ctx; c; c = d->nodes[c].parent)
    if (d->nodes[c].method && !(d->vm->methods[d->nodes[c].method - 1]->flags & DR_M_HIDDEN))
      frame_line(d, &d->nodes[c], b);
}

void dr_det_ctx_pos(DrDet *d, uint32_t ctx, DrBuf *pos, DrBuf *method) {
  if (!ctx || ctx >= d->nnodes || !d->nodes[ctx].method) {
    if (pos) dr_buf_append_str(pos, "?");
    if (method) dr_buf_append_str(method, "?");
    return;
  }
  const DrCtxNode *n = &d->nodes[ctx];
  const DrMethod *m = d->vm->methods[n->method - 1];
  if (pos) dr_position_text(d->vm, m, n->pc, false, pos);
  if (method) {
    char buf[300];
    dr_buf_append_str(method, dr_class_display_name(m->owner, buf, sizeof buf));
    dr_buf_append_str(method, ".");
    dr_buf_append_str(method, m->name);
  }
}

/* ------------------------------------------------------------- locksets */

static uint64_t lock_key(const DrObj *o) { return ((uint64_t)(uint32_t)o->cls->id << 32) | o->serial; }

static uint32_t lockset_hash(const uint64_t *k, uint32_t n) {
  uint32_t h = 2166136261u ^ n;
  for (uint32_t i = 0; i < n; i++) {
    h = (h ^ (uint32_t)k[i]) * 16777619u;
    h = (h ^ (uint32_t)(k[i] >> 32)) * 16777619u;
  }
  return h;
}

static void lockset_rehash(DrDet *d) {
  uint32_t cap = d->lockset_hash_cap ? d->lockset_hash_cap * 2 : 64;
  uint32_t *h = dr_xcalloc(cap, sizeof(uint32_t));
  for (uint32_t i = 0; i < d->nlocksets; i++) {
    const DrLockset *l = &d->locksets[i];
    /* the empty set has no keys, and there may be none at all yet: no
     * arithmetic on a null pointer */
    uint32_t k = lockset_hash(l->n ? d->lock_keys + l->first : NULL, l->n) & (cap - 1);
    while (h[k]) k = (k + 1) & (cap - 1);
    h[k] = i + 1;
  }
  free(d->lockset_hash);
  d->lockset_hash = h;
  d->lockset_hash_cap = cap;
}

/* keys sorted, no duplicates.  A new set's names come from objs[i]
 * (the lock objects) or, when objs is NULL, from names[i]. */
static uint32_t lockset_intern(DrDet *d, const uint64_t *keys, uint32_t n, DrObj *const *objs, char *const *names) {
  if (!d->nlocksets) {
    DrLockset empty = {0, 0, dr_strdup("none")};
    DR_PUSH(d->locksets, d->nlocksets, d->locksets_cap, empty);
  }
  if (!n) return 0;
  if ((d->nlocksets + 1) * 2 > d->lockset_hash_cap) lockset_rehash(d);
  uint32_t k = lockset_hash(keys, n) & (d->lockset_hash_cap - 1);
  while (d->lockset_hash[k]) {
    const DrLockset *l = &d->locksets[d->lockset_hash[k] - 1];
    if (l->n == n && !memcmp(d->lock_keys + l->first, keys, sizeof(uint64_t) * n)) return d->lockset_hash[k] - 1;
    k = (k + 1) & (d->lockset_hash_cap - 1);
  }
  DrLockset l = {n, d->nlock_keys, NULL};
  DrBuf text = {0};
  for (uint32_t i = 0; i < n; i++) {
    char buf[300];
    const char *name = objs ? dr_lock_name(d->vm, objs[i], buf, sizeof buf) : names[i];
    if (d->nlock_keys == d->lock_keys_cap) {
      d->lock_keys_cap = d->lock_keys_cap ? d->lock_keys_cap * 2 : 16;
      d->lock_keys = dr_xrealloc(d->lock_keys, sizeof(uint64_t) * d->lock_keys_cap);
      d->lock_names = dr_xrealloc(d->lock_names, sizeof(char *) * d->lock_keys_cap);
    }
    d->lock_keys[d->nlock_keys] = keys[i];
    d->lock_names[d->nlock_keys] = dr_strdup(name);
    d->nlock_keys++;
    if (i) dr_buf_append_str(&text, ", ");
    dr_buf_append_str(&text, name);
  }
  dr_buf_append(&text, "", 1);
  l.text = text.data;
  DR_PUSH(d->locksets, d->nlocksets, d->locksets_cap, l);
  d->lockset_hash[k] = d->nlocksets;
  return d->nlocksets - 1;
}

uint32_t dr_det_lockset_of(DrDet *d, const DrThread *t) {
  if (!t->nheld) return 0;
  enum { SMALL = 8 };
  uint64_t kbuf[SMALL];
  DrObj *obuf[SMALL];
  uint64_t *keys = t->nheld <= SMALL ? kbuf : dr_xmalloc(sizeof(uint64_t) * (size_t)t->nheld);
  DrObj **objs = t->nheld <= SMALL ? obuf : dr_xmalloc(sizeof(DrObj *) * (size_t)t->nheld);
  uint32_t n = 0;
  /* insertion sort by key: few locks are held at once */
  for (int i = 0; i < t->nheld; i++) {
    uint64_t k = lock_key(t->held[i].obj);
    uint32_t j = n;
    while (j > 0 && keys[j - 1] > k) {
      keys[j] = keys[j - 1];
      objs[j] = objs[j - 1];
      j--;
    }
    if (j > 0 && keys[j - 1] == k) { /* held twice: close the gap */
      memmove(keys + j, keys + j + 1, sizeof(uint64_t) * (n - j));
      memmove(objs + j, objs + j + 1, sizeof(DrObj *) * (n - j));
      continue;
    }
    keys[j] = k;
    objs[j] = t->held[i].obj;
    n++;
  }
  uint32_t id = lockset_intern(d, keys, n, objs, NULL);
  if (keys != kbuf) free(keys);
  if (objs != obuf) free(objs);
  return id;
}

uint32_t dr_det_lockset_intersect(DrDet *d, uint32_t a, uint32_t b) {
  if (a == b) return a;
  if (!a || !b) return 0;
  const DrLockset *la = &d->locksets[a], *lb = &d->locksets[b];
  uint32_t na = la->n, nb = lb->n, fa = la->first, fb = lb->first;
  uint32_t cap = na < nb ? na : nb;
  uint64_t *keys = dr_xmalloc(sizeof(uint64_t) * cap);
  char **names = dr_xmalloc(sizeof(char *) * cap);
  uint32_t i = 0, j = 0, m = 0;
  while (i < na && j < nb) {
    uint64_t x = d->lock_keys[fa + i], y = d->lock_keys[fb + j];
    if (x == y) {
      keys[m] = x;
      names[m] = d->lock_names[fa + i];
      m++;
      i++;
      j++;
    } else if (x < y) {
      i++;
    } else {
      j++;
    }
  }
  uint32_t id = lockset_intern(d, keys, m, NULL, names);
  free(keys);
  free(names);
  return id;
}

const char *dr_det_lockset_text(const DrDet *d, uint32_t ls) {
  return ls < d->nlocksets ? d->locksets[ls].text : "none";
}

void dr_det_ctx_free(DrDet *d) {
  free(d->nodes);
  free(d->node_hash);
  for (int i = 0; i < d->nsite_ctx; i++) free(d->site_ctx[i]);
  free(d->site_ctx);
  for (uint32_t i = 0; i < d->nlocksets; i++) free(d->locksets[i].text);
  free(d->locksets);
  for (uint32_t i = 0; i < d->nlock_keys; i++) free(d->lock_names[i]);
  free(d->lock_names);
  free(d->lock_keys);
  free(d->lockset_hash);
}
