/* `hb A B`: are two events ordered by happens-before, by which chain of
 * synchronization, or why not (repl.h).  The order is the detectors':
 * program order, a lock's release (or wait) before its next acquisition
 * (or wake-up), start before the child's first event, a thread's end
 * before the join that waits for it, a volatile write before every later
 * read of it, an interrupt before the interrupted thread sees it.  It is
 * searched backwards from B over the logged events. */
#include <string.h>

#include "repl.h"

void repl_event_short(const DrvmEvent *e, DrBuf *b) {
  char text[300];
  drvm_event_text(e, text, sizeof text);
  char *at = strstr(text, " at ");
  if (at) *at = 0;
  dr_buf_append_str(b, text);
  if (e->line >= 0) dr_buf_printf(b, " :%d", e->line);
}

/* ------------------------------------------------------------ keys */

/* A lock or a volatile location: VM strings are interned, so pointers
 * compare. */
typedef struct {
  const char *cls, *field;
  uint32_t object;
  int32_t index;
} Key;

typedef struct {
  Key *keys;
  int *last_release;        /* locks: the latest release/wait so far */
  int **writes;             /* volatiles: every write so far */
  int *nwrites, *caps;
  int *slot_of;             /* open addressing: key index + 1 */
  int n, cap, table;
} KeyMap;

static Key key_of(const DrvmEvent *e) {
  Key k = {e->cls, e->field, e->object, e->index};
  return k;
}

static uint32_t key_hash(const Key *k) {
  uintptr_t h = (uintptr_t)k->cls * 31u + (uintptr_t)k->field * 17u + k->object * 2654435761u + (uint32_t)k->index;
  return (uint32_t)(h ^ (h >> 16));
}

static int key_find(KeyMap *m, const Key *k) {
  if (!m->table) {
    m->table = 1024;
    m->slot_of = dr_xcalloc((size_t)m->table, sizeof *m->slot_of);
  }
  if (m->n * 2 >= m->table) {
    free(m->slot_of);
    m->table *= 4;
    m->slot_of = dr_xcalloc((size_t)m->table, sizeof *m->slot_of);
    for (int i = 0; i < m->n; i++) {
      uint32_t h = key_hash(&m->keys[i]) & (uint32_t)(m->table - 1);
      while (m->slot_of[h]) h = (h + 1) & (uint32_t)(m->table - 1);
      m->slot_of[h] = i + 1;
    }
  }
  uint32_t h = key_hash(k) & (uint32_t)(m->table - 1);
  for (; m->slot_of[h]; h = (h + 1) & (uint32_t)(m->table - 1)) {
    const Key *o = &m->keys[m->slot_of[h] - 1];
    if (o->cls == k->cls && o->field == k->field && o->object == k->object && o->index == k->index)
      return m->slot_of[h] - 1;
  }
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 64;
    m->keys = dr_xrealloc(m->keys, sizeof *m->keys * (size_t)m->cap);
    m->last_release = dr_xrealloc(m->last_release, sizeof *m->last_release * (size_t)m->cap);
    m->writes = dr_xrealloc(m->writes, sizeof *m->writes * (size_t)m->cap);
    m->nwrites = dr_xrealloc(m->nwrites, sizeof *m->nwrites * (size_t)m->cap);
    m->caps = dr_xrealloc(m->caps, sizeof *m->caps * (size_t)m->cap);
  }
  int i = m->n++;
  m->keys[i] = *k;
  m->last_release[i] = -1;
  m->writes[i] = NULL;
  m->nwrites[i] = m->caps[i] = 0;
  m->slot_of[h] = i + 1;
  return i;
}

static void keymap_free(KeyMap *m) {
  for (int i = 0; i < m->n; i++) free(m->writes[i]);
  free(m->keys), free(m->last_release), free(m->writes), free(m->nwrites), free(m->caps), free(m->slot_of);
}

/* ------------------------------------------------------------ the graph */

typedef enum { E_NONE, E_PO, E_LOCK, E_START, E_JOIN, E_VOLATILE, E_INTERRUPT } EdgeKind;

/* Events [0, n) are the logged window; n is B when B is a thread's next
 * event.  pred holds one synchronization predecessor per event (locks,
 * start, join, interrupt); a volatile read's are its location's writes. */
typedef struct {
  ReplVM *v;
  size_t base;              /* log index of event 0 */
  int n;
  int *po;                  /* previous event of the same thread, -1 */
  int *sync;                /* a synchronization predecessor, -1 */
  EdgeKind *sync_kind;
  int *vol_key;             /* volatile reads: their key, -1 */
  int *vol_count;           /* writes of it before the read */
  KeyMap keys;
  int *next;                /* the search: the successor towards B */
  EdgeKind *via;
} Graph;

static const DrvmEvent *ev(Graph *g, int i) { return &repl_event(g->v, g->base + (size_t)i)->e; }

static void link_sync(Graph *g, int i, const DrvmEvent *e, int *last_of, int *end_of, int *fork_of, int nt) {
  KeyMap *m = &g->keys;
  Key k = key_of(e);
  int t = e->thread;
  bool lock = e->kind == DRVM_EV_ACQUIRE || e->kind == DRVM_EV_WAKE || e->kind == DRVM_EV_RELEASE ||
              e->kind == DRVM_EV_WAIT;
  int s = lock ? key_find(m, &k) : -1; /* before the arrays it may move are read */
  switch (e->kind) {
  case DRVM_EV_ACQUIRE:
  case DRVM_EV_WAKE: g->sync[i] = m->last_release[s], g->sync_kind[i] = E_LOCK; break;
  case DRVM_EV_RELEASE:
  case DRVM_EV_WAIT: m->last_release[s] = i; break;
  case DRVM_EV_VWRITE: {
    s = key_find(m, &k);
    DR_PUSH(m->writes[s], m->nwrites[s], m->caps[s], i);
    break;
  }
  case DRVM_EV_VREAD: {
    s = key_find(m, &k);
    g->vol_key[i] = s;
    g->vol_count[i] = m->nwrites[s];
    break;
  }
  case DRVM_EV_JOIN:
    if (e->other >= 0 && e->other < nt) g->sync[i] = end_of[e->other], g->sync_kind[i] = E_JOIN;
    break;
  case DRVM_EV_END: end_of[t] = i; break;
  case DRVM_EV_FORK:
    if (e->other >= 0 && e->other < nt) fork_of[e->other] = i;
    break;
  default: break;
  }
  if (g->po[i] < 0 && g->sync[i] < 0 && fork_of[t] >= 0) g->sync[i] = fork_of[t], g->sync_kind[i] = E_START;
  (void)last_of;
}

static void build(Graph *g, ReplVM *v, size_t from, int nt) {
  memset(g, 0, sizeof *g);
  g->v = v;
  g->base = from;
  g->n = (int)(v->nlog - from);
  size_t sz = (size_t)g->n + 1;
  g->po = dr_xcalloc(sz, sizeof *g->po);
  g->sync = dr_xcalloc(sz, sizeof *g->sync);
  g->sync_kind = dr_xcalloc(sz, sizeof *g->sync_kind);
  g->vol_key = dr_xcalloc(sz, sizeof *g->vol_key);
  g->vol_count = dr_xcalloc(sz, sizeof *g->vol_count);
  g->next = dr_xcalloc(sz, sizeof *g->next);
  g->via = dr_xcalloc(sz, sizeof *g->via);
  int *last_of = dr_xcalloc((size_t)nt + 1, sizeof *last_of);
  int *end_of = dr_xcalloc((size_t)nt + 1, sizeof *end_of);
  int *fork_of = dr_xcalloc((size_t)nt + 1, sizeof *fork_of);
  int *intr_to = dr_xcalloc((size_t)nt + 1, sizeof *intr_to);
  for (int t = 0; t <= nt; t++) last_of[t] = end_of[t] = fork_of[t] = intr_to[t] = -1;
  for (int i = 0; i < g->n; i++) {
    const DrvmEvent *e = ev(g, i);
    int t = e->thread >= 0 && e->thread < nt ? e->thread : nt;
    g->po[i] = last_of[t];
    g->sync[i] = g->vol_key[i] = -1;
    link_sync(g, i, e, last_of, end_of, fork_of, nt);
    if (e->kind == DRVM_EV_INTERRUPT && e->other >= 0 && e->other < nt) intr_to[e->other] = i;
    if (e->kind == DRVM_EV_INTERRUPTED && g->sync[i] < 0) g->sync[i] = intr_to[t], g->sync_kind[i] = E_INTERRUPT;
    last_of[t] = i;
  }
  g->po[g->n] = -1;
  g->sync[g->n] = g->vol_key[g->n] = -1;
  free(last_of), free(end_of), free(fork_of), free(intr_to);
}

static void graph_free(Graph *g) {
  free(g->po), free(g->sync), free(g->sync_kind), free(g->vol_key), free(g->vol_count), free(g->next), free(g->via);
  keymap_free(&g->keys);
}

/* Backwards from b: the first event of thread ta at or after a that
 * reaches b, or -1.  g->next/via lead from it to b. */
static int search(Graph *g, int a, int ta, int b) {
  int *queue = dr_xcalloc((size_t)g->n + 1, sizeof *queue);
  char *seen = dr_xcalloc((size_t)g->n + 1, 1);
  int head = 0, tail = 0, found = -1;
  queue[tail++] = b;
  seen[b] = 1;
  g->next[b] = -1;
  while (head < tail && found < 0) {
    int i = queue[head++];
    if (i < g->n && i >= a && ev(g, i)->thread == ta) {
      found = i;
      break;
    }
    int preds[3] = {g->po[i], g->sync[i], -1};
    EdgeKind kinds[3] = {E_PO, g->sync_kind[i], E_NONE};
    for (int p = 0; p < 2; p++) {
      int j = preds[p];
      if (j < 0 || j < a || seen[j]) continue;
      seen[j] = 1, g->next[j] = i, g->via[j] = kinds[p], queue[tail++] = j;
    }
    if (g->vol_key[i] >= 0) {
      const int *w = g->keys.writes[g->vol_key[i]];
      for (int k = 0; k < g->vol_count[i]; k++) {
        int j = w[k];
        if (j < a || seen[j]) continue;
        seen[j] = 1, g->next[j] = i, g->via[j] = E_VOLATILE, queue[tail++] = j;
      }
    }
  }
  free(queue);
  free(seen);
  return found;
}

/* ------------------------------------------------------------ explaining */

static const char *edge_text(EdgeKind k) {
  switch (k) {
  case E_LOCK: return "the lock's next holder: unlock (or wait) happens before the next lock (or wake-up)";
  case E_START: return "start() happens before the new thread's first event";
  case E_JOIN: return "a thread's end happens before the join() that waited for it";
  case E_VOLATILE: return "a volatile write happens before every later read of it";
  case E_INTERRUPT: return "interrupt() happens before the thread sees it";
  default: return "program order";
  }
}

static void node_line(Repl *r, Graph *g, int i, const DrvmEvent *pending, int tb) {
  DrBuf b = {0};
  if (i == g->n) {
    repl_event_short(pending, &b);
    repl_say(r, "  next T%d %s", tb, b.data);
  } else {
    repl_event_short(ev(g, i), &b);
    repl_say(r, "  #%-5llu T%d %s", (unsigned long long)repl_event(g->v, g->base + (size_t)i)->number,
             ev(g, i)->thread, b.data);
  }
  free(b.data);
}

/* The locks thread t holds at event i of the window ("Account#1 ..."). */
static void held_at(Graph *g, int i, DrBuf *out) {
  int t = ev(g, i)->thread;
  const char *names[32];
  uint32_t objs[32];
  int n = 0;
  for (int j = 0; j <= i; j++) {
    const DrvmEvent *e = ev(g, j);
    if (e->thread != t) continue;
    if ((e->kind == DRVM_EV_ACQUIRE || e->kind == DRVM_EV_WAKE) && n < 32) names[n] = e->cls, objs[n++] = e->object;
    if (e->kind == DRVM_EV_RELEASE || e->kind == DRVM_EV_WAIT)
      for (int k = n - 1; k >= 0; k--)
        if (names[k] == e->cls && objs[k] == e->object) {
          memmove(&names[k], &names[k + 1], sizeof *names * (size_t)(n - k - 1));
          memmove(&objs[k], &objs[k + 1], sizeof *objs * (size_t)(n - k - 1));
          n--;
          break;
        }
  }
  for (int k = 0; k < n; k++) dr_buf_printf(out, " %s#%u ", names[k], objs[k]);
}

static void held_now(Repl *r, int t, DrBuf *out) {
  DrvmThreadInfo ti;
  if (!drvm_thread_info(r->cur->vm, t, &ti)) return;
  for (int i = 0; i < ti.nlocks; i++) {
    char name[128];
    if (drvm_thread_lock(r->cur->vm, t, i, name, sizeof name)) dr_buf_printf(out, " %s ", name);
  }
}

static bool common_lock(const char *a, const char *b) {
  for (const char *p = a; p && (p = strchr(p, ' ')) && p[1];) {
    const char *q = strchr(p + 1, ' ');
    if (!q) break;
    char name[160];
    snprintf(name, sizeof name, " %.*s ", (int)(q - p - 1), p + 1);
    if (strstr(b, name)) return true;
    p = q + 1;
  }
  return false;
}

/* " a  b " as "a, b" (or "no lock"). */
static char *lock_list(const DrBuf *set) {
  DrBuf out = {0};
  const char *p = set->data ? set->data : "";
  while (*p) {
    while (*p == ' ') p++;
    size_t n = strcspn(p, " ");
    if (n) dr_buf_printf(&out, "%s%.*s", out.len ? ", " : "", (int)n, p);
    p += n;
  }
  if (!out.len) dr_buf_append_str(&out, "no lock");
  return out.data;
}

static bool same_location(const DrvmEvent *x, const DrvmEvent *y) {
  return x->cls == y->cls && x->object == y->object && x->field == y->field && x->index == y->index;
}

static bool is_write(DrvmEventKind k) { return k == DRVM_EV_WRITE; }
static bool is_plain(DrvmEventKind k) { return k == DRVM_EV_READ || k == DRVM_EV_WRITE; }

/* A conflicting pair: what the order (or its absence) means. */
static void verdict(Repl *r, Graph *g, int a, const DrvmEvent *eb, int b, bool ordered, bool only_locks) {
  const DrvmEvent *ea = ev(g, a);
  bool vol_a = ea->kind == DRVM_EV_VREAD || ea->kind == DRVM_EV_VWRITE;
  bool vol_b = eb->kind == DRVM_EV_VREAD || eb->kind == DRVM_EV_VWRITE;
  if (vol_a && vol_b && same_location(ea, eb)) {
    repl_say(r, "Both are accesses of a volatile: synchronization, never a data race.");
    return;
  }
  if (!is_plain(ea->kind) || !is_plain(eb->kind) || !same_location(ea, eb)) return;
  if (!is_write(ea->kind) && !is_write(eb->kind)) {
    repl_say(r, "Both only read %s%s%s: reads never race.", ea->cls, ea->field ? "." : "", ea->field ? ea->field : "");
    return;
  }
  if (!ordered) {
    repl_say(r, "They access the same location and one writes: a data race.");
    return;
  }
  if (!only_locks) return;
  DrBuf la = {0}, lb = {0};
  held_at(g, a, &la);
  if (b == g->n) held_now(r, eb->thread, &lb);
  else held_at(g, b, &lb);
  char *sa = lock_list(&la), *sb = lock_list(&lb);
  if (la.len && lb.len && common_lock(la.data, lb.data))
    repl_say(r, "Both hold a common lock (T%d holds %s; T%d holds %s): in every order of their critical sections "
                "they stay ordered. Not a race.", ea->thread, sa, eb->thread, sb);
  else
    repl_say(r, "But they hold no common lock (T%d holds %s; T%d holds %s): only the order in which the threads took "
                "the lock orders them. Had T%d taken it first, they would race: a race this schedule hides "
                "(drvm run --sched drfinder looks for these).", ea->thread, sa, eb->thread, sb, eb->thread);
  free(sa), free(sb);
  free(la.data), free(lb.data);
}

static void explain(Repl *r, Graph *g, int a, int b, const DrvmEvent *eb, int tb, const char *na, const char *nb) {
  const DrvmEvent *ea = ev(g, a);
  if (ea->thread == tb) {
    repl_say(r, "%s happens before %s: both are T%d's, in program order.", na, nb, tb);
    return;
  }
  int s = search(g, a, ea->thread, b);
  if (s < 0) {
    repl_say(r, "%s and %s are not ordered: no chain of synchronization leads from T%d at %s to T%d at %s (no lock "
                "T%d released that T%d took afterwards, no start, join, volatile write and read, or interrupt "
                "between them).", na, nb, ea->thread, na, tb, nb, ea->thread, tb);
    verdict(r, g, a, eb, b, false, false);
    return;
  }
  repl_say(r, "%s happens before %s:", na, nb);
  node_line(r, g, a, eb, tb);
  if (s != a) {
    repl_say(r, "     |  program order");
    node_line(r, g, s, eb, tb);
  }
  bool only_locks = true;
  for (int i = s; i != b;) {
    EdgeKind k = g->via[i];
    int j = g->next[i];
    while (k == E_PO && j != b && g->via[j] == E_PO) j = g->next[j]; /* a run of program order: one line */
    if (k != E_PO) only_locks &= k == E_LOCK;
    repl_say(r, "     |  %s", edge_text(k));
    node_line(r, g, j, eb, tb);
    i = j;
  }
  verdict(r, g, a, eb, b, true, only_locks);
}

/* "#12" or "12": the first logged event with that number, "#12.2" the
 * second; -1 if none (said), -2 if it is no event name. */
static int event_arg(Repl *r, Graph *g, const char *s) {
  const char *p = s[0] == '#' ? s + 1 : s;
  char num[32];
  const char *dot = strchr(p, '.');
  snprintf(num, sizeof num, "%.*s", dot ? (int)(dot - p) : (int)strlen(p), p);
  uint64_t k, nth = 1;
  if (!repl_number(num, UINT64_MAX - 1, &k) || (dot && (!repl_number(dot + 1, 1000000, &nth) || nth == 0))) return -2;
  for (int i = 0; i < g->n; i++)
    if (repl_event(g->v, g->base + (size_t)i)->number == k && --nth == 0) return i;
  if (g->n && k < repl_event(g->v, g->base)->number)
    repl_err(r, "event %s is no longer kept (the history keeps the last %d events)", s, REPL_LOG_MAX);
  else
    repl_err(r, "no event %s (history lists them)", s);
  return -1;
}

void repl_cmd_hb(Repl *r, char **argv, int argc) {
  if (argc != 3) {
    repl_err(r, "hb A B: two events (#12 #20), or an event and a thread's next one (#12 T2)");
    return;
  }
  ReplVM *v = r->cur;
  int nt = drvm_thread_count(v->vm);
  Graph g;
  build(&g, v, v->log_start, nt);
  int a = event_arg(r, &g, argv[1]);
  int b = a >= 0 ? event_arg(r, &g, argv[2]) : -1;
  DrvmThreadInfo ti;
  const DrvmEvent *eb = NULL;
  int tb = -1;
  bool swapped = false;
  if (a == -2) repl_err(r, "'%s' is not an event: #12 (history lists them)", argv[1]);
  if (b == -2) { /* a thread: its next event */
    tb = repl_thread_arg(r, argv[2]);
    if (tb >= 0 && (!drvm_thread_info(v->vm, tb, &ti) || ti.state == DRVM_TS_ENDED)) {
      repl_err(r, "T%d has ended: it has no next event", tb);
      tb = -1;
    }
    if (tb >= 0) {
      b = g.n;
      eb = &ti.next;
      g.po[b] = -1;
      for (int i = g.n - 1; i >= 0 && g.po[b] < 0; i--)
        if (ev(&g, i)->thread == tb) g.po[b] = i;
    }
  } else if (b >= 0) {
    eb = ev(&g, b);
    tb = eb->thread;
    if (b < a) {
      int t = a;
      a = b, b = t;
      swapped = true;
      eb = ev(&g, b);
      tb = eb->thread;
    }
  }
  if (a >= 0 && b >= 0 && eb) {
    char na[48], nb[48];
    const char *sa = swapped ? argv[2] : argv[1], *sb = swapped ? argv[1] : argv[2];
    snprintf(na, sizeof na, "%s%s", sa[0] == '#' ? "" : "#", sa);
    if (b == g.n) snprintf(nb, sizeof nb, "T%d's next event", tb);
    else snprintf(nb, sizeof nb, "%s%s", sb[0] == '#' ? "" : "#", sb);
    if (a == b) repl_say(r, "%s is one event", na);
    else explain(r, &g, a, b, eb, tb, na, nb);
  }
  graph_free(&g);
}
