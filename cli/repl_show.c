/* The REPL's views (repl.h): the position, threads, stacks, values,
 * locks, clocks, races, output and the history of events. */
#include <string.h>

#include "repl.h"

int repl_thread_arg(Repl *r, const char *s) {
  const char *p = (s[0] == 'T' || s[0] == 't') ? s + 1 : s;
  uint64_t t;
  if (!repl_number(p, 1000000000, &t)) {
    repl_err(r, "'%s' is not a thread: T0 (main), T1, ...", s);
    return -1;
  }
  if (t >= (uint64_t)drvm_thread_count(r->cur->vm)) {
    repl_err(r, "no thread T%llu (threads lists them)", (unsigned long long)t);
    return -1;
  }
  return (int)t;
}

/* "at bank.dl:14 (Account.deposit)": where t's innermost frame stands. */
static void place(Repl *r, int t, DrBuf *b) {
  DrvmFrame f;
  if (drvm_thread_frame(r->cur->vm, t, 0, &f) && f.line >= 0)
    dr_buf_printf(b, " at %s:%d (%s.%s)", f.file, f.line, f.cls, f.method);
}

void repl_thread_line(Repl *r, int t, DrBuf *b) {
  DrvmThreadInfo ti;
  if (!drvm_thread_info(r->cur->vm, t, &ti)) return;
  dr_buf_printf(b, "T%-2d %-10s ", t, ti.name);
  char text[300];
  switch (ti.state) {
  case DRVM_TS_ENDED: dr_buf_append_str(b, "ended"); return;
  case DRVM_TS_BLOCKED:
    if (ti.enabled) break; /* about to lock a free monitor */
    dr_buf_printf(b, "%sBLOCKED%s on %s", repl_c(r, REPL_RED), repl_c(r, REPL_OFF), ti.waiting_for);
    if (ti.lock_owner >= 0) dr_buf_printf(b, " (held by T%d)", ti.lock_owner);
    place(r, t, b);
    return;
  case DRVM_TS_WAITING: dr_buf_printf(b, "WAITING in %s.wait()", ti.waiting_for), place(r, t, b); return;
  case DRVM_TS_JOINING: dr_buf_printf(b, "JOINING %s", ti.waiting_for), place(r, t, b); return;
  case DRVM_TS_SLEEPING: dr_buf_append_str(b, "SLEEPING"), place(r, t, b); return;
  default: break;
  }
  if (ti.next.kind == DRVM_EV_STEP) {
    if (ti.next.callee) dr_buf_printf(b, "about to return from %s", ti.next.callee); /* it slept */
    else dr_buf_append_str(b, "about to go on");
    place(r, t, b);
    return;
  }
  drvm_event_text(&ti.next, text, sizeof text);
  /* "lock Account#1 at ...": who holds it, before the place */
  char *at = strstr(text, " at ");
  if (ti.next.kind == DRVM_EV_ACQUIRE && ti.lock_owner >= 0 && at) {
    dr_buf_printf(b, "about to %.*s %s(held by T%d)%s%s", (int)(at - text), text, repl_c(r, REPL_RED), ti.lock_owner,
                  repl_c(r, REPL_OFF), at);
    return;
  }
  dr_buf_printf(b, "about to %s", text);
}

/* ------------------------------------------------------------ the position */

static const char *outcome_text(DrvmOutcome o) {
  switch (o) {
#define OUTCOME_TEXT(name, status, text)                                                                    \
  case DRVM_OUTCOME_##name: return text;
    DRVM_OUTCOMES(OUTCOME_TEXT)
#undef OUTCOME_TEXT
  default: return "";
  }
}

void repl_show_position(Repl *r) {
  ReplVM *v = r->cur;
  if (v->ended) {
    repl_say(r, "%sthe run is over:%s %s (%s, exit status %d) after %llu decisions; %d race%s reported",
             repl_c(r, REPL_BOLD), repl_c(r, REPL_OFF), outcome_text(v->res.outcome),
             drvm_outcome_word(v->res.outcome), v->res.exit_status, (unsigned long long)v->pos, v->nraces,
             v->nraces == 1 ? "" : "s");
    return;
  }
  int n = drvm_thread_count(v->vm), live = 0, shown = 0;
  DrBuf can = {0};
  for (int i = 0; i < v->d.nchoices && i < 12; i++) dr_buf_printf(&can, "%sT%d", i ? ", " : "", v->d.choices[i].thread);
  if (v->d.nchoices > 12) dr_buf_printf(&can, ", ... (%d more)", v->d.nchoices - 12);
  for (int t = 0; t < n; t++) {
    DrvmThreadInfo ti;
    live += drvm_thread_info(v->vm, t, &ti) && ti.state != DRVM_TS_ENDED;
  }
  repl_say(r, "%s#%llu%s  %d thread%s live, %d can run: %s", repl_c(r, REPL_BOLD), (unsigned long long)v->pos,
           repl_c(r, REPL_OFF), live, live == 1 ? "" : "s", v->d.nchoices, can.data ? can.data : "none");
  free(can.data);
  for (int t = 0; t < n; t++) {
    DrvmThreadInfo ti;
    if (!drvm_thread_info(v->vm, t, &ti) || ti.state == DRVM_TS_ENDED) continue;
    if (++shown > 12) {
      repl_say(r, "  ... and %d more (threads lists them all)", live - 12);
      break;
    }
    DrBuf b = {0};
    repl_thread_line(r, t, &b);
    repl_say(r, "%s%s%s %s", ti.enabled ? repl_c(r, REPL_GREEN) : "", ti.enabled ? "*" : " ",
             ti.enabled ? repl_c(r, REPL_OFF) : "", b.data);
    free(b.data);
  }
}

/* Prints text's lines with a gutter; a last line without its newline too. */
static void gutter(Repl *r, const char *mark, const char *text, size_t len) {
  while (len) {
    const char *nl = memchr(text, '\n', len);
    size_t n = nl ? (size_t)(nl - text) : len;
    printf("%s%s%s %.*s\n", repl_c(r, REPL_DIM), mark, repl_c(r, REPL_OFF), (int)n, text);
    if (!nl) break;
    len -= n + 1;
    text = nl + 1;
  }
}

/* The error stream since it was last shown, without the race reports
 * (announced in one line each). */
static void show_err(Repl *r, ReplVM *v) {
  const char *p = v->err.data ? v->err.data + v->err_shown : "";
  const char *end = v->err.data ? v->err.data + v->err.len : p;
  while (p < end) {
    const char *first = NULL;
    size_t skip = 0;
    for (int i = 0; i < v->nraces; i++) {
      const char *at = strstr(p, v->races[i]);
      if (at && (!first || at < first)) first = at, skip = strlen(v->races[i]);
    }
    const char *stop = first ? first : end;
    gutter(r, "!", p, (size_t)(stop - p));
    p = first ? first + skip : end;
  }
  v->err_shown = v->err.len;
}

void repl_show_news(Repl *r) {
  ReplVM *v = r->cur;
  if (v->out.len > v->out_shown) gutter(r, "|", v->out.data + v->out_shown, v->out.len - v->out_shown);
  v->out_shown = v->out.len;
  for (; v->races_told < v->nraces; v->races_told++)
    repl_say(r, "%srace:%s %s (races shows the report)", repl_c(r, REPL_RED), repl_c(r, REPL_OFF),
             v->race_lines[v->races_told]);
  show_err(r, v);
}

/* ------------------------------------------------------------ looking */

static void cmd_threads(Repl *r) {
  int n = drvm_thread_count(r->cur->vm);
  for (int t = 0; t < n; t++) {
    DrBuf b = {0};
    repl_thread_line(r, t, &b);
    repl_say(r, "  %s", b.data);
    free(b.data);
  }
}

static void where_one(Repl *r, int t) {
  DrVM *vm = r->cur->vm;
  DrvmThreadInfo ti;
  if (!drvm_thread_info(vm, t, &ti)) return;
  /* about to take a free monitor: it can run, it waits for nothing */
  bool about_to_lock = ti.enabled && ti.state == DRVM_TS_BLOCKED;
  repl_say(r, "T%d %s (%s)", t, ti.name, about_to_lock ? "RUNNABLE" : drvm_thread_state_word(ti.state));
  for (int i = 0; i < ti.nframes; i++) {
    DrvmFrame f;
    if (!drvm_thread_frame(vm, t, i, &f)) break;
    if (f.line >= 0) repl_say(r, "  #%d %s.%s (%s:%d)", i, f.cls, f.method, f.file, f.line);
    else repl_say(r, "  #%d %s.%s", i, f.cls, f.method);
  }
  DrBuf held = {0};
  for (int i = 0; i < ti.nlocks; i++) {
    char name[128];
    if (drvm_thread_lock(vm, t, i, name, sizeof name)) dr_buf_printf(&held, "%s%s", i ? ", " : "", name);
  }
  repl_say(r, "  holds: %s", held.data ? held.data : "no lock");
  free(held.data);
  if (ti.waiting_for[0] && !about_to_lock) {
    if (ti.lock_owner >= 0) repl_say(r, "  waits for: %s (held by T%d)", ti.waiting_for, ti.lock_owner);
    else repl_say(r, "  waits for: %s", ti.waiting_for);
  } else if (ti.next.kind == DRVM_EV_ACQUIRE && ti.lock_owner >= 0) {
    repl_say(r, "  about to lock: %s#%u (held by T%d)", ti.next.cls, ti.next.object, ti.lock_owner);
  }
}

static void cmd_where(Repl *r, char **argv, int argc) {
  if (argc > 1) {
    int t = repl_thread_arg(r, argv[1]);
    if (t >= 0) where_one(r, t);
    return;
  }
  int n = drvm_thread_count(r->cur->vm), shown = 0;
  for (int t = 0; t < n; t++) {
    DrvmThreadInfo ti;
    if (drvm_thread_info(r->cur->vm, t, &ti) && ti.state != DRVM_TS_ENDED) where_one(r, t), shown++;
  }
  if (!shown) repl_say(r, "every thread has ended (where T shows one; back returns into the run)");
}

static void cmd_locks(Repl *r) {
  DrVM *vm = r->cur->vm;
  int n = drvm_thread_count(vm), shown = 0;
  for (int t = 0; t < n; t++) {
    DrvmThreadInfo ti;
    if (!drvm_thread_info(vm, t, &ti)) continue;
    for (int i = 0; i < ti.nlocks; i++) {
      char name[128];
      if (!drvm_thread_lock(vm, t, i, name, sizeof name)) continue;
      DrBuf waiters = {0};
      for (int u = 0; u < n; u++) {
        DrvmThreadInfo tu;
        if (u == t || !drvm_thread_info(vm, u, &tu)) continue;
        char pending[160] = "";
        if (tu.next.kind == DRVM_EV_ACQUIRE && tu.next.cls)
          snprintf(pending, sizeof pending, "%s#%u", tu.next.cls, tu.next.object);
        bool blocked = tu.lock_owner == t && (!strcmp(tu.waiting_for, name) || !strcmp(pending, name));
        if (blocked) dr_buf_printf(&waiters, "%sT%d", waiters.len ? ", " : "", u);
      }
      repl_say(r, "  %-16s held by T%d%s%s%s", name, t, waiters.len ? "; " : "", waiters.len ? waiters.data : "",
               waiters.len ? " blocked on it" : "");
      free(waiters.data);
      shown++;
    }
    if (ti.state == DRVM_TS_WAITING) {
      repl_say(r, "  %-16s T%d waits in wait() for a notify", ti.waiting_for, t);
      shown++;
    }
  }
  if (!shown) repl_say(r, "no lock is held");
}

static void cmd_clock(Repl *r, char **argv, int argc) {
  if (argc != 2) {
    repl_err(r, "clock needs a thread: clock T1");
    return;
  }
  int t = repl_thread_arg(r, argv[1]);
  char buf[1024];
  if (t < 0) return;
  ReplVM *v = r->cur;
  if (v->ended) { /* the detector is gone: its clocks as the run ended */
    if (t < v->nclocks && v->clocks[t]) repl_say(r, "T%d: %s (as the run ended)", t, v->clocks[t]);
    else repl_err(r, "the detector keeps no vector clocks (ft, djit and basicvc do)");
    return;
  }
  if (!drvm_detector_clock(v->vm, t, buf, sizeof buf)) repl_err(r, "%s", drvm_error(v->vm));
  else repl_say(r, "T%d: %s", t, buf);
}

static void cmd_races(Repl *r) {
  ReplVM *v = r->cur;
  if (!v->nraces) repl_say(r, "no race reported so far");
  for (int i = 0; i < v->nraces; i++) fputs(v->races[i], stdout);
  v->races_told = v->nraces;
}

static void cmd_output(Repl *r) {
  ReplVM *v = r->cur;
  if (!v->out.len) repl_say(r, "(no output yet)");
  else fwrite(v->out.data, 1, v->out.len, stdout);
  if (v->out.len && v->out.data[v->out.len - 1] != '\n') putchar('\n');
  v->out_shown = v->out.len;
}

/* ------------------------------------------------------------ print */

/* An object's fields, or an array's length and first elements. */
static void print_object(Repl *r, const char *obj) {
  DrVM *vm = r->cur->vm;
  char val[512];
  char cls[256];
  snprintf(cls, sizeof cls, "%.*s", (int)strcspn(obj, "#"), obj);
  if (!drvm_field_value(vm, obj, strchr(cls, '[') ? "length" : "hashCode", val, sizeof val) &&
      strstr(drvm_error(vm), "no object")) {
    repl_err(r, "%s", drvm_error(vm));
    return;
  }
  if (!strchr(cls, '[')) {
    const char *name;
    bool is_static, any = false;
    for (int i = 0; drvm_field_name(vm, cls, i, &name, &is_static); i++) {
      if (is_static || !drvm_field_value(vm, obj, name, val, sizeof val)) continue;
      repl_say(r, "  %s.%s = %s", obj, name, val);
      any = true;
    }
    if (!any) repl_say(r, "  %s (no fields)", obj);
    return;
  }
  long len = atol(val);
  repl_say(r, "  %s.length = %ld", obj, len);
  for (long i = 0; i < len && i < 20; i++) {
    char idx[24];
    snprintf(idx, sizeof idx, "%ld", i);
    if (drvm_field_value(vm, obj, idx, val, sizeof val)) repl_say(r, "  %s[%ld] = %s", obj, i, val);
  }
  if (len > 20) repl_say(r, "  ... (%ld more)", len - 20);
}

/* "T1 x", "T1.2 x" or "x" (the current thread's innermost frame). */
static bool print_local(Repl *r, int t, int depth, const char *name) {
  char val[512];
  if (!drvm_frame_local(r->cur->vm, t, depth, name, val, sizeof val)) {
    repl_err(r, "%s", drvm_error(r->cur->vm));
    return false;
  }
  repl_say(r, "  %s = %s", name, val);
  return true;
}

static void cmd_print(Repl *r, char **argv, int argc) {
  DrVM *vm = r->cur->vm;
  if (argc == 3) {
    const char *dot = strchr(argv[1], '.');
    uint64_t depth = 0;
    if (dot && !repl_number(dot + 1, 100000, &depth)) {
      repl_err(r, "'%s' is not a thread's frame: T1 (the innermost), T1.2", argv[1]);
      return;
    }
    char tname[32];
    snprintf(tname, sizeof tname, "%.*s", dot ? (int)(dot - argv[1]) : (int)strlen(argv[1]), argv[1]);
    int t = repl_thread_arg(r, tname);
    if (t >= 0) print_local(r, t, (int)depth, argv[2]);
    return;
  }
  if (argc != 2) {
    repl_err(r, "print WHAT: Class.field, Account#1, Account#1.balance, int[]#2[3], or a local (T1 x)");
    return;
  }
  const char *w = argv[1];
  char val[512];
  const char *hash = strchr(w, '#');
  const char *br = hash ? strchr(hash, '[') : NULL;
  const char *last = strrchr(w, '[');
  if (!hash && last && last > w && w[strlen(w) - 1] == ']') { /* Class.field[3]: an element of an array a static holds */
    char left[256], idx[32];
    snprintf(left, sizeof left, "%.*s", (int)(last - w), w);
    snprintf(idx, sizeof idx, "%.*s", (int)strcspn(last + 1, "]"), last + 1);
    const char *dot = strrchr(left, '.');
    char cls[256];
    snprintf(cls, sizeof cls, "%.*s", dot ? (int)(dot - left) : 0, left);
    if (!dot || !drvm_static_value(vm, cls, dot + 1, val, sizeof val)) {
      repl_err(r, "%s", dot ? drvm_error(vm) : "print Class.field[3], or int[]#2[3]");
      return;
    }
    char arr[512];
    memcpy(arr, val, sizeof arr);
    if (!strcmp(arr, "null")) repl_err(r, "%s is null", left);
    else if (!drvm_field_value(vm, arr, idx, val, sizeof val)) repl_err(r, "%s", drvm_error(vm));
    else repl_say(r, "  %s = %s  (%s[%s])", w, val, arr, idx);
    return;
  }
  const char *dot = strrchr(w, '.');
  if (hash && br) { /* int[]#2[3] */
    char obj[256], idx[32];
    snprintf(obj, sizeof obj, "%.*s", (int)(br - w), w);
    snprintf(idx, sizeof idx, "%.*s", (int)strcspn(br + 1, "]"), br + 1);
    if (!drvm_field_value(vm, obj, idx, val, sizeof val)) repl_err(r, "%s", drvm_error(vm));
    else repl_say(r, "  %s = %s", w, val);
  } else if (hash && (!dot || dot < hash)) {
    print_object(r, w);
  } else if (dot) {
    char left[256];
    snprintf(left, sizeof left, "%.*s", (int)(dot - w), w);
    bool ok = hash ? drvm_field_value(vm, left, dot + 1, val, sizeof val)
                   : drvm_static_value(vm, left, dot + 1, val, sizeof val);
    if (!ok) repl_err(r, "%s", drvm_error(vm));
    else repl_say(r, "  %s = %s", w, val);
  } else if (r->cur->at_decision) {
    print_local(r, r->cur->d.current >= 0 ? r->cur->d.current : 0, 0, w);
  } else {
    repl_err(r, "the run is over: no frame has locals");
  }
}

/* ------------------------------------------------------------ history */

static void cmd_history(Repl *r, char **argv, int argc) {
  ReplVM *v = r->cur;
  size_t want = 20;
  if (argc > 1) {
    uint64_t n;
    if (!strcmp(argv[1], "all")) want = (size_t)-1;
    else if (repl_number(argv[1], 1000000000, &n) && n > 0) want = (size_t)n;
    else {
      repl_err(r, "history [N|all]");
      return;
    }
  }
  size_t from = v->nlog - v->log_start > want ? v->nlog - want : v->log_start;
  if (from == v->nlog) {
    repl_say(r, "no events yet");
    return;
  }
  if (from > 0 && from == v->log_start && want == (size_t)-1)
    repl_say(r, "(the first %zu events are no longer kept)", from);
  /* the columns: the threads with events in view */
  int nt = drvm_thread_count(v->vm);
  int *col = dr_xcalloc((size_t)nt + 1, sizeof *col), ncols = 0;
  for (size_t i = from; i < v->nlog; i++) {
    int t = repl_event(v, i)->e.thread;
    if (t >= 0 && t < nt && !col[t]) col[t] = 1;
  }
  for (int t = 0; t < nt; t++)
    if (col[t]) col[t] = ++ncols;
  int w = ncols ? (r->width - 8) / ncols : 20;
  if (w > 44) w = 44;
  if (w < 14) w = 14;
  DrBuf line = {0};
  dr_buf_printf(&line, "%-8s", "#");
  for (int t = 0; t < nt; t++) {
    if (!col[t]) continue;
    DrvmThreadInfo ti;
    drvm_thread_info(v->vm, t, &ti);
    char head[80];
    snprintf(head, sizeof head, "T%d %s", t, ti.name);
    dr_buf_printf(&line, "%-*.*s", w, w - 1, head);
  }
  while (line.len && line.data[line.len - 1] == ' ') line.data[--line.len] = 0;
  repl_say(r, "%s", line.data);
  for (size_t i = from; i < v->nlog; i++) {
    const ReplEvent *x = repl_event(v, i);
    if (x->e.thread < 0 || x->e.thread >= nt) continue;
    line.len = 0;
    dr_buf_printf(&line, "%-8llu", (unsigned long long)x->number);
    DrBuf text = {0};
    repl_event_short(&x->e, &text);
    /* too long for its column: the middle goes, the line number stays */
    const char *lineno = strrchr(text.data, ':');
    int keep = lineno && strrchr(text.data, ' ') < lineno ? (int)strlen(lineno) + 1 : 0;
    if ((int)text.len > w - 1 && keep)
      dr_buf_printf(&line, "%*s%.*s~%s", (col[x->e.thread] - 1) * w, "", w - 2 - keep, text.data, lineno - 1);
    else
      dr_buf_printf(&line, "%*s%-.*s", (col[x->e.thread] - 1) * w, "", w - 1, text.data);
    free(text.data);
    while (line.len && line.data[line.len - 1] == ' ') line.data[--line.len] = 0;
    repl_say(r, "%s", line.data);
  }
  free(line.data);
  free(col);
}

/* ------------------------------------------------------------ timeline */

static void cmd_timeline(Repl *r, char **argv, int argc) {
  DrTlFormat f;
  char err[300];
  if (argc != 2) {
    repl_err(r, "timeline needs a file or text: timeline run.html, timeline run.svg, timeline text");
    return;
  }
  if (!dr_tl_format_of(argv[1], &f, err, sizeof err)) {
    repl_err(r, "timeline takes FILE.html, FILE.svg or text, not '%s'", argv[1]);
    return;
  }
  ReplVM *v = r->cur;
  dr_tl_finish(v->tl, v->vm, v->ended ? drvm_outcome_word(v->res.outcome) : NULL);
  if (f == DR_TL_TEXT) {
    fflush(stdout);
    dr_tl_write_text(v->tl, stdout, r->width, r->tty);
    fflush(stdout);
    return;
  }
  if (!dr_tl_write(v->tl, argv[1], err, sizeof err)) {
    repl_err(r, "%s", err);
    return;
  }
  repl_say(r, "drew %d events of %d threads to %s", v->tl->nev, v->tl->nthreads, argv[1]);
}

bool repl_cmd_show(Repl *r, const char *cmd, char **argv, int argc) {
  if (!strcmp(cmd, "threads")) cmd_threads(r);
  else if (!strcmp(cmd, "where")) cmd_where(r, argv, argc);
  else if (!strcmp(cmd, "print")) cmd_print(r, argv, argc);
  else if (!strcmp(cmd, "locks")) cmd_locks(r);
  else if (!strcmp(cmd, "clock")) cmd_clock(r, argv, argc);
  else if (!strcmp(cmd, "races")) cmd_races(r);
  else if (!strcmp(cmd, "output")) cmd_output(r);
  else if (!strcmp(cmd, "history")) cmd_history(r, argv, argc);
  else if (!strcmp(cmd, "timeline")) cmd_timeline(r, argv, argc);
  else return false;
  return true;
}
