/* The timeline model (timeline.h): built from a run's events as a
 * listener sees them, its output and its races. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../vm/json.h"
#include "timeline.h"

/* ------------------------------------------------------------ names */

static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void names_rehash(DrTlNames *t) {
  free(t->slot);
  t->table = t->table ? t->table * 2 : 256;
  t->slot = dr_xcalloc((size_t)t->table, sizeof *t->slot);
  for (int i = 0; i < t->n; i++) {
    uint32_t h = name_hash(t->s[i]) & (uint32_t)(t->table - 1);
    while (t->slot[h]) h = (h + 1) & (uint32_t)(t->table - 1);
    t->slot[h] = i + 1;
  }
}

/* The index of s, added if new. */
static int names_intern(DrTlNames *t, const char *s) {
  if ((t->n + 1) * 2 > t->table) names_rehash(t);
  uint32_t h = name_hash(s) & (uint32_t)(t->table - 1);
  for (; t->slot[h]; h = (h + 1) & (uint32_t)(t->table - 1))
    if (!strcmp(t->s[t->slot[h] - 1], s)) return t->slot[h] - 1;
  char *copy = dr_strdup(s);
  DR_PUSH(t->s, t->n, t->cap, copy);
  t->slot[h] = t->n;
  return t->n - 1;
}

static int names_find(const DrTlNames *t, const char *s) {
  if (!t->table) return -1;
  uint32_t h = name_hash(s) & (uint32_t)(t->table - 1);
  for (; t->slot[h]; h = (h + 1) & (uint32_t)(t->table - 1))
    if (!strcmp(t->s[t->slot[h] - 1], s)) return t->slot[h] - 1;
  return -1;
}

static void names_free(DrTlNames *t) {
  for (int i = 0; i < t->n; i++) free(t->s[i]);
  free(t->s);
  free(t->slot);
}

/* ------------------------------------------------------------ the model */

/* What listening needs beyond the model: the open lock spans of each
 * thread, the last release of each lock, the last volatile write of
 * each location, each thread's start and end and the interrupt sent to
 * it. */
typedef struct {
  int lock, from;
} Open;

typedef struct {
  Open *open;
  int nopen, open_cap;
  int fork;         /* the fork event that started it, -1 */
  int first;        /* its first event, -1 */
  int interrupt;    /* the last interrupt sent to it, -1 */
} PerThread;

typedef struct {
  DrTimeline pub;
  PerThread *per;
  int nper;
  int *last_release; /* per lock, event index, -1 */
  int *last_vwrite;  /* per location, -1 */
  int lock_cap, vloc_cap;
  int closed_spans;  /* spans[0..closed_spans) closed; the rest are a snapshot's open ones */
} Tl;

static Tl *tl_of(DrTimeline *t) { return (Tl *)t; }

const char *dr_tl_edge_word(DrTlEdgeKind k) {
  static const char *const words[] = {
#define DR_TL_EDGE_WORD(name, word, text) word,
    DR_TL_EDGES(DR_TL_EDGE_WORD)
#undef DR_TL_EDGE_WORD
  };
  return (unsigned)k < DR_TL__EDGE_COUNT ? words[k] : "?";
}

bool dr_tl_format_of(const char *value, DrTlFormat *f, char *err, size_t errsize) {
  size_t n = strlen(value);
  if (!strcmp(value, "text")) *f = DR_TL_TEXT;
  else if (n > 5 && !strcmp(value + n - 5, ".html")) *f = DR_TL_HTML;
  else if (n > 4 && !strcmp(value + n - 4, ".htm")) *f = DR_TL_HTML;
  else if (n > 4 && !strcmp(value + n - 4, ".svg")) *f = DR_TL_SVG;
  else {
    snprintf(err, errsize, "--timeline takes FILE.html, FILE.svg or text, not '%s'", value);
    return false;
  }
  return true;
}

DrTimeline *dr_tl_new(int limit) {
  Tl *t = dr_xcalloc(1, sizeof *t);
  t->pub.limit = limit > 0 ? limit : 1;
  t->pub.line_thread[0] = t->pub.line_thread[1] = -1;
  return &t->pub;
}

void dr_tl_free(DrTimeline *pub) {
  if (!pub) return;
  Tl *t = tl_of(pub);
  for (int i = 0; i < pub->nthreads; i++) {
    DrTlThread *th = &pub->threads[i];
    free(th->name), free(th->place), free(th->state), free(th->waiting);
  }
  free(pub->threads);
  for (int i = 0; i < t->nper; i++) free(t->per[i].open);
  free(t->per);
  free(t->last_release);
  free(t->last_vwrite);
  names_free(&pub->locks), names_free(&pub->locations), names_free(&pub->methods), names_free(&pub->texts);
  free(pub->loc_shared);
  free(pub->loc_owner);
  free(pub->ev);
  free(pub->edges);
  free(pub->spans);
  for (int i = 0; i < pub->nraces; i++) free(pub->races[i].location), free(pub->races[i].text);
  free(pub->races);
  free(pub->line[0].data), free(pub->line[1].data);
  free(pub->program), free(pub->title), free(pub->command), free(pub->outcome);
  free(t);
}

void dr_tl_set_titles(DrTimeline *tl, const char *program, const char *title, const char *command) {
  free(tl->program), free(tl->title), free(tl->command);
  tl->program = program ? dr_strdup(program) : NULL;
  tl->title = title ? dr_strdup(title) : NULL;
  tl->command = command ? dr_strdup(command) : NULL;
}

/* Grows the per-thread arrays to hold thread id. */
static void ensure_thread(Tl *t, int id) {
  DrTimeline *p = &t->pub;
  if (id < 0 || id < p->nthreads) return;
  int n = id + 1;
  p->threads = dr_xrealloc(p->threads, sizeof *p->threads * (size_t)n);
  t->per = dr_xrealloc(t->per, sizeof *t->per * (size_t)n);
  for (int i = p->nthreads; i < n; i++) {
    DrTlThread th = {NULL, -1, -1, NULL, -1, NULL, NULL, -1};
    p->threads[i] = th;
    PerThread pt = {NULL, 0, 0, -1, -1, -1};
    t->per[i] = pt;
  }
  p->nthreads = t->nper = n;
}

/* Grows an int array indexed by a table's names to n, new slots -1. */
static void grow_ints(int **a, int *cap, int n) {
  if (n <= *cap) return;
  int c = *cap ? *cap : 64;
  while (c < n) c *= 2;
  *a = dr_xrealloc(*a, sizeof **a * (size_t)c);
  for (int i = *cap; i < c; i++) (*a)[i] = -1;
  *cap = c;
}

static void add_edge(DrTimeline *p, int from, int to, DrTlEdgeKind k) {
  if (from < 0 || to < 0) return;
  DrTlEdge e = {from, to, k};
  DR_PUSH(p->edges, p->nedges, p->edges_cap, e);
}

/* ------------------------------------------------------------ events */

static void lock_name(const DrvmEvent *e, DrBuf *b) {
  if (e->object) dr_buf_printf(b, "%s#%u", e->cls ? e->cls : "?", e->object);
  else dr_buf_printf(b, "%s.class", e->cls ? e->cls : "?");
}

static void location_name(const DrvmEvent *e, DrBuf *b) {
  dr_buf_append_str(b, e->cls ? e->cls : "?");
  if (e->object) dr_buf_printf(b, "#%u", e->object);
  if (e->field) dr_buf_printf(b, ".%s", e->field);
  if (e->index >= 0) dr_buf_printf(b, "[%d]", e->index);
}

static bool is_access(int k) { return k == DRVM_EV_READ || k == DRVM_EV_WRITE || k == DRVM_EV_VREAD || k == DRVM_EV_VWRITE; }
static bool is_lock_event(int k) {
  return k == DRVM_EV_ACQUIRE || k == DRVM_EV_RELEASE || k == DRVM_EV_WAIT || k == DRVM_EV_WAKE ||
         k == DRVM_EV_NOTIFY || k == DRVM_EV_NOTIFY_ALL;
}

/* The x of an event (timeline.h), interning its location or lock. */
static int event_x(Tl *t, const DrvmEvent *e) {
  DrTimeline *p = &t->pub;
  if (is_access(e->kind) || is_lock_event(e->kind)) {
    DrBuf b = {0};
    bool access = is_access(e->kind);
    if (access) location_name(e, &b);
    else lock_name(e, &b);
    int x = names_intern(access ? &p->locations : &p->locks, b.data);
    free(b.data);
    if (access && x >= p->loc_cap) {
      int old = p->loc_cap;
      grow_ints(&p->loc_owner, &p->loc_cap, x + 1);
      p->loc_shared = dr_xrealloc(p->loc_shared, sizeof *p->loc_shared * (size_t)p->loc_cap);
      memset(p->loc_shared + old, 0, sizeof *p->loc_shared * (size_t)(p->loc_cap - old));
    }
    if (access) {
      if (p->loc_owner[x] < 0) p->loc_owner[x] = e->thread;
      else if (p->loc_owner[x] != e->thread) p->loc_shared[x] = true;
    }
    return x;
  }
  switch (e->kind) {
  case DRVM_EV_FORK:
  case DRVM_EV_JOIN:
  case DRVM_EV_INTERRUPT:
  case DRVM_EV_INTERRUPTED: return e->other;
  default: return -1;
  }
}

static void span_open(Tl *t, int thread, int lock, int at) {
  PerThread *pt = &t->per[thread];
  Open o = {lock, at};
  DR_PUSH(pt->open, pt->nopen, pt->open_cap, o);
}

static void span_close(Tl *t, int thread, int lock, int at) {
  PerThread *pt = &t->per[thread];
  for (int i = pt->nopen - 1; i >= 0; i--) {
    if (pt->open[i].lock != lock) continue;
    DrTlSpan s = {thread, lock, pt->open[i].from, at};
    t->pub.nspans = t->closed_spans; /* a snapshot's open spans go */
    DR_PUSH(t->pub.spans, t->pub.nspans, t->pub.spans_cap, s);
    t->closed_spans = t->pub.nspans;
    pt->open[i] = pt->open[--pt->nopen];
    return;
  }
}

/* The latest event before `before` of thread with one of the kinds (a
 * bit set) on x; -1. */
static int find_back(const DrTimeline *p, int before, int thread, unsigned kinds, int x) {
  for (int i = before - 1; i >= 0; i--) {
    const DrTlEvent *e = &p->ev[i];
    if (e->thread == thread && e->kind < DRVM_EV__COUNT && (kinds & DRVM_EV_BIT(e->kind)) && e->x == x) return i;
  }
  return -1;
}

/* The happens-before edges into event i, and the lock spans it opens or
 * closes. */
static void link_event(Tl *t, int i, const DrvmEvent *e) {
  DrTimeline *p = &t->pub;
  int x = p->ev[i].x, th = e->thread;
  PerThread *pt = &t->per[th];
  if (pt->first < 0) {
    pt->first = i;
    add_edge(p, pt->fork, i, DR_TL_START);
  }
  if (is_lock_event(e->kind)) grow_ints(&t->last_release, &t->lock_cap, x + 1);
  if (e->kind == DRVM_EV_VREAD || e->kind == DRVM_EV_VWRITE) grow_ints(&t->last_vwrite, &t->vloc_cap, x + 1);
  switch (e->kind) {
  case DRVM_EV_ACQUIRE:
  case DRVM_EV_WAKE:
    {
      int r = t->last_release[x];
      if (r >= 0 && p->ev[r].thread != th) add_edge(p, r, i, DR_TL_LOCK);
      if (e->kind == DRVM_EV_WAKE && e->other >= 0)
        add_edge(p, find_back(p, i, e->other, DRVM_EV_BIT(DRVM_EV_NOTIFY) | DRVM_EV_BIT(DRVM_EV_NOTIFY_ALL), x), i,
                 DR_TL_NOTIFY);
      span_open(t, th, x, i);
    }
    break;
  case DRVM_EV_RELEASE:
  case DRVM_EV_WAIT:
    t->last_release[x] = i;
    span_close(t, th, x, i);
    break;
  case DRVM_EV_VWRITE: t->last_vwrite[x] = i; break;
  case DRVM_EV_VREAD:
    if (t->last_vwrite[x] >= 0 && p->ev[t->last_vwrite[x]].thread != th) add_edge(p, t->last_vwrite[x], i, DR_TL_VOLATILE);
    break;
  case DRVM_EV_FORK:
    if (e->other >= 0) {
      ensure_thread(t, e->other);
      pt = &t->per[th]; /* moved */
      t->per[e->other].fork = i;
      p->threads[e->other].parent = th;
      p->threads[e->other].created = i;
      DrBuf b = {0};
      if (e->line >= 0) dr_buf_printf(&b, "%s:%d", e->file ? e->file : "?", e->line);
      else dr_buf_append_str(&b, "");
      p->threads[e->other].place = b.data ? b.data : dr_strdup("");
    }
    break;
  case DRVM_EV_JOIN:
    if (e->other >= 0 && e->other < p->nthreads) add_edge(p, p->threads[e->other].end, i, DR_TL_JOIN);
    break;
  case DRVM_EV_END:
    p->threads[th].end = i;
    while (pt->nopen > 0) span_close(t, th, pt->open[pt->nopen - 1].lock, i);
    break;
  case DRVM_EV_INTERRUPT:
    if (e->other >= 0) {
      ensure_thread(t, e->other);
      t->per[e->other].interrupt = i;
    }
    break;
  case DRVM_EV_INTERRUPTED: add_edge(p, t->per[th].interrupt, i, DR_TL_INTERRUPT); break;
  default: break;
  }
}

/* New races: each linked to its access (the latest of its thread on its
 * location) and the earlier one. */
static void link_races(DrTimeline *p, DrVM *vm) {
  int n = drvm_race_count(vm);
  for (; p->races_seen < n; p->races_seen++) {
    DrvmRace r;
    if (!drvm_race(vm, p->races_seen, &r)) continue;
    DrBuf loc = {0};
    const char *dot = strrchr(r.location, '.');
    if (r.object && dot && !strchr(r.location, '[')) dr_buf_printf(&loc, "%s%s", r.object, dot);
    else dr_buf_append_str(&loc, r.location);
    int x = names_find(&p->locations, loc.data);
    unsigned rd = DRVM_EV_BIT(DRVM_EV_READ), wr = DRVM_EV_BIT(DRVM_EV_WRITE);
    DrTlRace tr = {-1, -1, loc.data, dr_strdup(r.text ? r.text : "")};
    if (x >= 0) {
      tr.cur = find_back(p, p->nev, r.thread, r.write ? wr : rd, x);
      if (tr.cur >= 0) tr.prev = find_back(p, tr.cur, r.prev_thread, r.prev_write ? wr : rd, x);
    }
    DR_PUSH(p->races, p->nraces, p->races_cap, tr);
  }
}

static void push_event(DrTimeline *p, DrTlEvent ev) {
  if (p->nev >= p->limit) {
    p->truncated++;
    return;
  }
  DR_PUSH(p->ev, p->nev, p->ev_cap, ev);
}

static int method_of(DrTimeline *p, const DrvmEvent *e) {
  if (!e->method) return -1;
  DrBuf b = {0};
  dr_buf_printf(&b, "%s.%s", e->method_class ? e->method_class : "?", e->method);
  int m = names_intern(&p->methods, b.data);
  free(b.data);
  return m;
}

static void on_event(void *user, DrVM *vm, const DrvmEvent *e) {
  Tl *t = user;
  DrTimeline *p = &t->pub;
  if (e->thread < 0) return;
  /* System.out and System.err are final: reading them is never a race */
  if (e->kind == DRVM_EV_READ && e->is_static && e->cls && !strcmp(e->cls, "System")) return;
  ensure_thread(t, e->thread);
  if (p->nev < p->limit) {
    DrTlEvent ev = {e->thread, (int)e->kind, event_x(t, e), e->line, method_of(p, e)};
    push_event(p, ev);
    link_event(t, p->nev - 1, e);
  } else {
    p->truncated++;
  }
  link_races(p, vm);
}

/* ------------------------------------------------------------ output */

static void emit_line(DrTimeline *p, int stream) {
  DrBuf *l = &p->line[stream];
  dr_buf_append(l, "", 1);
  DrTlEvent ev = {p->line_thread[stream] >= 0 ? p->line_thread[stream] : 0, stream ? DR_TL_ERR : DR_TL_OUT,
                  names_intern(&p->texts, l->data), -1, -1};
  if (ev.thread >= 0) ensure_thread(tl_of(p), ev.thread);
  push_event(p, ev);
  l->len = 0;
  p->line_thread[stream] = -1;
}

/* Whether a finished line of the error stream is drvm's own: a race
 * report (between its rules of '='), a "drvm: " message, or the thread
 * dump after "drvm: deadlock" (the run's last words: the picture shows
 * each thread's state at the end instead). */
static bool drvm_says(DrTimeline *p, const char *line) {
  if (!strcmp(line, "==================")) {
    p->in_report = !p->in_report;
    return true;
  }
  if (!strncmp(line, "drvm: deadlock", 14)) p->in_dump = true;
  return p->in_report || p->in_dump || !strncmp(line, "drvm: ", 6);
}

static void take_output(DrTimeline *p, int stream, const char *text, size_t len) {
  if (p->pass[stream]) p->pass[stream](p->pass_user, text, len);
  else if (p->pass_file[stream]) fwrite(text, 1, len, p->pass_file[stream]);
  for (size_t i = 0; i < len; i++) {
    if (p->line_thread[stream] < 0 && p->vm) p->line_thread[stream] = drvm_current_thread(p->vm);
    if (text[i] != '\n') {
      dr_buf_append(&p->line[stream], text + i, 1);
      continue;
    }
    dr_buf_append(&p->line[stream], "", 1);
    p->line[stream].len--;
    if (stream == 1 && drvm_says(p, p->line[stream].data)) {
      p->line[stream].len = 0;
      p->line_thread[stream] = -1;
    } else {
      emit_line(p, stream);
    }
  }
}

static void write_out(void *user, const char *text, size_t len) { take_output(user, 0, text, len); }
static void write_err(void *user, const char *text, size_t len) { take_output(user, 1, text, len); }

void dr_tl_config(DrTimeline *tl, DrvmConfig *cfg) {
  tl->pass[0] = cfg->write_out, tl->pass[1] = cfg->write_err;
  tl->pass_file[0] = cfg->out ? cfg->out : stdout;
  tl->pass_file[1] = cfg->err ? cfg->err : stderr;
  tl->pass_user = cfg->write_user;
  cfg->write_out = write_out;
  cfg->write_err = write_err;
  cfg->write_user = tl;
  cfg->unbuffered = true;
}

bool dr_tl_attach(DrTimeline *tl, DrVM *vm) {
  uint32_t mask = DRVM_EV_ALL & ~(DRVM_EV_BIT(DRVM_EV_CALL) | DRVM_EV_BIT(DRVM_EV_RETURN) | DRVM_EV_BIT(DRVM_EV_NEW) |
                                  DRVM_EV_BIT(DRVM_EV_INIT) | DRVM_EV_BIT(DRVM_EV_STEP) |
                                  DRVM_EV_BIT(DRVM_EV_NATIVE_ENTER) | DRVM_EV_BIT(DRVM_EV_NATIVE_EXIT));
  tl->vm = vm;
  ensure_thread(tl_of(tl), 0);
  return drvm_add_listener(vm, mask, on_event, tl);
}

void dr_tl_finish(DrTimeline *tl, DrVM *vm, const char *outcome) {
  Tl *t = tl_of(tl);
  if (outcome)
    for (int s = 0; s < 2; s++)
      if (tl->line[s].len) emit_line(tl, s);
  link_races(tl, vm);
  int n = drvm_thread_count(vm);
  if (n > 0) ensure_thread(t, n - 1);
  /* the spans still open, drawn to the end (again at the next snapshot) */
  tl->nspans = t->closed_spans;
  for (int i = 0; i < tl->nthreads; i++) {
    DrvmThreadInfo info;
    free(tl->threads[i].name);
    bool known = drvm_thread_info(vm, i, &info);
    tl->threads[i].name = dr_strdup(known ? info.name : "?");
    free(tl->threads[i].state), free(tl->threads[i].waiting);
    tl->threads[i].state = dr_strdup(known ? drvm_thread_state_word(info.state) : "?");
    tl->threads[i].waiting = dr_strdup(known ? info.waiting_for : "");
    tl->threads[i].owner = known && info.state == DRVM_TS_BLOCKED ? info.lock_owner : -1;
    if (!tl->threads[i].place) tl->threads[i].place = dr_strdup("");
    for (int k = 0; k < t->per[i].nopen; k++) {
      DrTlSpan s = {i, t->per[i].open[k].lock, t->per[i].open[k].from, -1};
      DR_PUSH(tl->spans, tl->nspans, tl->spans_cap, s);
    }
  }
  free(tl->outcome);
  tl->outcome = dr_strdup(outcome ? outcome : "running");
  if (outcome) tl->vm = NULL;
}

/* ------------------------------------------------------------ text, JSON */

bool dr_tl_is_local(const DrTimeline *tl, int i) {
  const DrTlEvent *e = &tl->ev[i];
  return (e->kind == DRVM_EV_READ || e->kind == DRVM_EV_WRITE) && !tl->loc_shared[e->x];
}

void dr_tl_event_text(const DrTimeline *tl, int i, DrBuf *b) {
  const DrTlEvent *e = &tl->ev[i];
  if (e->kind == DR_TL_OUT || e->kind == DR_TL_ERR) {
    dr_buf_printf(b, "%s %s", e->kind == DR_TL_OUT ? ">" : "!>", tl->texts.s[e->x]);
    return;
  }
  dr_buf_append_str(b, drvm_event_word((DrvmEventKind)e->kind));
  if (is_access(e->kind)) dr_buf_printf(b, " %s", tl->locations.s[e->x]);
  else if (is_lock_event(e->kind)) dr_buf_printf(b, " %s", tl->locks.s[e->x]);
  else if (e->x >= 0) dr_buf_printf(b, " T%d", e->x);
  if (e->line >= 0) dr_buf_printf(b, " :%d", e->line);
}

const char *dr_tl_final_state(const DrTimeline *tl, int thread, char *buf, size_t size) {
  const DrTlThread *t = &tl->threads[thread];
  if (!t->state || !strcmp(t->state, "TERMINATED") || t->end >= 0) return NULL;
  bool on = !strcmp(t->state, "BLOCKED") || !strcmp(t->state, "WAITING");
  if (t->waiting && *t->waiting && t->owner >= 0)
    snprintf(buf, size, "%s on %s held by T%d", t->state, t->waiting, t->owner);
  else if (t->waiting && *t->waiting) snprintf(buf, size, "%s%s%s", t->state, on ? " on " : " ", t->waiting);
  else snprintf(buf, size, "%s", t->state);
  return buf;
}

static void json_names(DrJsonW *w, const char *key, const DrTlNames *t) {
  dr_jw_begin(w, key, '[');
  for (int i = 0; i < t->n; i++) dr_jw_str(w, NULL, t->s[i]);
  dr_jw_end(w, ']');
}

static void json_threads(const DrTimeline *tl, DrJsonW *w) {
  dr_jw_begin(w, "threads", '[');
  for (int i = 0; i < tl->nthreads; i++) {
    const DrTlThread *t = &tl->threads[i];
    dr_jw_begin_flat(w, NULL, '{');
    dr_jw_int(w, "id", i);
    dr_jw_str(w, "name", t->name ? t->name : "?");
    dr_jw_int(w, "parent", t->parent);
    dr_jw_int(w, "created", t->created);
    dr_jw_str(w, "place", t->place ? t->place : "");
    dr_jw_int(w, "end", t->end);
    dr_jw_str(w, "state", t->state ? t->state : "");
    dr_jw_str(w, "waiting", t->waiting ? t->waiting : "");
    dr_jw_int(w, "owner", t->owner);
    dr_jw_end(w, '}');
  }
  dr_jw_end(w, ']');
}

static const char *kind_word(int k) {
  return k == DR_TL_OUT ? "out" : k == DR_TL_ERR ? "err" : drvm_event_word((DrvmEventKind)k);
}

static void json_events(const DrTimeline *tl, DrJsonW *w) {
  dr_jw_begin(w, "events", '[');
  for (int i = 0; i < tl->nev; i++) {
    const DrTlEvent *e = &tl->ev[i];
    dr_jw_begin_flat(w, NULL, '[');
    dr_jw_int(w, NULL, e->thread);
    dr_jw_str(w, NULL, kind_word(e->kind));
    dr_jw_int(w, NULL, e->x);
    dr_jw_int(w, NULL, e->line);
    dr_jw_int(w, NULL, e->method);
    dr_jw_end(w, ']');
  }
  dr_jw_end(w, ']');
}

static void json_links(const DrTimeline *tl, DrJsonW *w) {
  dr_jw_begin(w, "edges", '[');
  for (int i = 0; i < tl->nedges; i++) {
    dr_jw_begin_flat(w, NULL, '[');
    dr_jw_int(w, NULL, tl->edges[i].from);
    dr_jw_int(w, NULL, tl->edges[i].to);
    dr_jw_str(w, NULL, dr_tl_edge_word(tl->edges[i].kind));
    dr_jw_end(w, ']');
  }
  dr_jw_end(w, ']');
  dr_jw_begin(w, "spans", '[');
  for (int i = 0; i < tl->nspans; i++) {
    const DrTlSpan *s = &tl->spans[i];
    dr_jw_begin_flat(w, NULL, '[');
    dr_jw_int(w, NULL, s->thread);
    dr_jw_int(w, NULL, s->lock);
    dr_jw_int(w, NULL, s->from);
    dr_jw_int(w, NULL, s->to);
    dr_jw_end(w, ']');
  }
  dr_jw_end(w, ']');
  dr_jw_begin(w, "races", '[');
  for (int i = 0; i < tl->nraces; i++) {
    const DrTlRace *r = &tl->races[i];
    dr_jw_begin(w, NULL, '{');
    dr_jw_int(w, "cur", r->cur);
    dr_jw_int(w, "prev", r->prev);
    dr_jw_str(w, "location", r->location);
    dr_jw_str(w, "text", r->text);
    dr_jw_end(w, '}');
  }
  dr_jw_end(w, ']');
}

void dr_tl_json(const DrTimeline *tl, DrBuf *b) {
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_int(&w, "version", 1);
  dr_jw_str(&w, "program", tl->program ? tl->program : "");
  dr_jw_str(&w, "title", tl->title ? tl->title : "");
  dr_jw_str(&w, "command", tl->command ? tl->command : "");
  dr_jw_str(&w, "outcome", tl->outcome ? tl->outcome : "");
  json_threads(tl, &w);
  json_names(&w, "locks", &tl->locks);
  dr_jw_begin(&w, "locations", '[');
  for (int i = 0; i < tl->locations.n; i++) {
    dr_jw_begin_flat(&w, NULL, '{');
    dr_jw_str(&w, "name", tl->locations.s[i]);
    dr_jw_bool(&w, "local", !tl->loc_shared[i]);
    dr_jw_end(&w, '}');
  }
  dr_jw_end(&w, ']');
  json_names(&w, "methods", &tl->methods);
  json_names(&w, "texts", &tl->texts);
  json_events(tl, &w);
  json_links(tl, &w);
  dr_jw_int(&w, "truncated", tl->truncated);
  dr_jw_end(&w, '}');
  dr_buf_append(&w.buf, "\n", 1);
  dr_buf_append(b, w.buf.data, w.buf.len);
  free(w.buf.data);
}

/* ------------------------------------------------------------ writing */

bool dr_tl_write(const DrTimeline *tl, const char *value, char *err, size_t errsize) {
  DrTlFormat f;
  if (!dr_tl_format_of(value, &f, err, errsize)) return false;
  if (f == DR_TL_TEXT) {
    fflush(stdout);
    dr_tl_write_text(tl, stdout, dr_tl_terminal_width(), isatty(1) && !getenv("NO_COLOR"));
    return true;
  }
  errno = 0;
  FILE *out = fopen(value, "w");
  bool ok = out && (f == DR_TL_HTML ? dr_tl_write_html(tl, out) : dr_tl_write_svg(tl, out));
  if (out && fclose(out) != 0) ok = false;
  if (!ok) snprintf(err, errsize, "cannot write %s: %s", value, strerror(errno ? errno : EIO));
  return ok;
}
