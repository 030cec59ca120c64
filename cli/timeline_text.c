/* A timeline as columns of text (`--timeline=text`): one column per
 * thread, an event per row, time going down.  A column's rule shows the
 * thread's state: blank before it starts and after it ends, `│` while it
 * runs, the letter of the lock it holds (A, B...) while it holds one.
 * An arrow names the thread an edge of happens-before comes from
 * (`<-T1`) or goes to (`->T2`), races are `!R1` on both accesses, and
 * runs of local accesses fold into one row. */
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "timeline.h"

enum { GUTTER = 7, MIN_COL = 16, MAX_COL = 46 };

/* Columns of the UTF-8 text s (each code point one column). */
static int text_cols(const char *s, size_t n) {
  int c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
  return c;
}

/* Appends s cut or padded to exactly w columns. */
static void put_cell(DrBuf *b, const char *s, int w) {
  size_t n = strlen(s);
  int cols = text_cols(s, n);
  if (cols > w) {
    /* cut at a code point, leaving a column for the ellipsis */
    int keep = w - 1, c = 0;
    size_t i = 0;
    for (; i < n; i++) {
      if (((unsigned char)s[i] & 0xC0) != 0x80) {
        if (c == keep) break;
        c++;
      }
    }
    dr_buf_append(b, s, i);
    dr_buf_append_str(b, "…");
    return;
  }
  dr_buf_append(b, s, n);
  for (; cols < w; cols++) dr_buf_append(b, " ", 1);
}

typedef struct {
  const DrTimeline *tl;
  int ncols, colw;
  int *col_of;          /* thread -> column, -1 hidden */
  int *held;            /* per thread: locks held now (a count) */
  int *held_lock;       /* per thread: the innermost held lock */
  bool *started, *ended;
  char **in_edge, **out_edge; /* per event: "<-T1", "->T2" (NULL: none) */
  char **race_mark;     /* per event: "!R1" */
  bool color;
  int width;            /* of the terminal: no line is longer */
} Text;

static void mark_append(char **slot, const char *text) {
  if (*slot && strstr(*slot, text)) return; /* a lock's edge and a notify's from one thread: one mark */
  DrBuf b = {0};
  if (*slot) dr_buf_printf(&b, "%s ", *slot);
  dr_buf_append_str(&b, text);
  free(*slot);
  *slot = b.data;
}

static void collect_marks(Text *x) {
  const DrTimeline *tl = x->tl;
  x->in_edge = dr_xcalloc((size_t)tl->nev + 1, sizeof(char *));
  x->out_edge = dr_xcalloc((size_t)tl->nev + 1, sizeof(char *));
  x->race_mark = dr_xcalloc((size_t)tl->nev + 1, sizeof(char *));
  char buf[32];
  for (int i = 0; i < tl->nedges; i++) {
    const DrTlEdge *e = &tl->edges[i];
    if (e->from >= tl->nev || e->to >= tl->nev) continue;
    /* a join names the thread it joins, a start the one it starts */
    snprintf(buf, sizeof buf, "<-T%d", tl->ev[e->from].thread);
    if (e->kind != DR_TL_JOIN) mark_append(&x->in_edge[e->to], buf);
    snprintf(buf, sizeof buf, "->T%d", tl->ev[e->to].thread);
    if (e->kind != DR_TL_START) mark_append(&x->out_edge[e->from], buf);
  }
  for (int i = 0; i < tl->nraces; i++) {
    snprintf(buf, sizeof buf, "!R%d", i + 1);
    if (tl->races[i].cur >= 0) mark_append(&x->race_mark[tl->races[i].cur], buf);
    if (tl->races[i].prev >= 0) mark_append(&x->race_mark[tl->races[i].prev], buf);
  }
}

static char lock_letter(int lock) { return lock < 26 ? (char)('A' + lock) : '#'; }

/* The rule of a column no event is in, this row. */
static void put_rule(Text *x, DrBuf *b, int t) {
  char cell[8];
  if (!x->started[t] || x->ended[t]) snprintf(cell, sizeof cell, " ");
  else if (x->held[t] > 0) snprintf(cell, sizeof cell, "%c", lock_letter(x->held_lock[t]));
  else snprintf(cell, sizeof cell, "│");
  put_cell(b, cell, x->colw);
}

/* The state of thread t after event i. */
static void advance(Text *x, const DrTlEvent *e) {
  int t = e->thread;
  x->started[t] = true;
  switch (e->kind) {
  case DRVM_EV_ACQUIRE:
  case DRVM_EV_WAKE: x->held[t]++, x->held_lock[t] = e->x; break;
  case DRVM_EV_RELEASE:
  case DRVM_EV_WAIT:
    if (x->held[t] > 0) x->held[t]--;
    break;
  case DRVM_EV_END: x->ended[t] = true; break;
  default: break;
  }
}

static void put_row(Text *x, DrBuf *b, const char *gutter, int thread, const char *cell, bool red) {
  put_cell(b, gutter, GUTTER);
  for (int t = 0; t < x->tl->nthreads; t++) {
    if (x->col_of[t] < 0) continue;
    if (t != thread) {
      put_rule(x, b, t);
      continue;
    }
    if (red && x->color) dr_buf_append_str(b, "\033[1;31m");
    put_cell(b, cell, x->colw - 2); /* a gap before the next column */
    if (red && x->color) dr_buf_append_str(b, "\033[0m");
    dr_buf_append(b, "  ", 2);
  }
  while (b->len && b->data[b->len - 1] == ' ') b->len--;
  dr_buf_append(b, "\n", 1);
}

/* "!R1 <-T0 wr Account#1.balance :14 ->T2": what matters most first, as a
 * narrow column cuts the end. */
static void put_event(Text *x, DrBuf *b, int i) {
  const DrTimeline *tl = x->tl;
  DrBuf cell = {0};
  if (x->race_mark[i]) dr_buf_printf(&cell, "%s ", x->race_mark[i]);
  if (x->in_edge[i]) dr_buf_printf(&cell, "%s ", x->in_edge[i]);
  dr_tl_event_text(tl, i, &cell);
  if (x->out_edge[i]) dr_buf_printf(&cell, " %s", x->out_edge[i]);
  char gutter[24];
  snprintf(gutter, sizeof gutter, "%d", i);
  if (x->col_of[tl->ev[i].thread] >= 0) put_row(x, b, gutter, tl->ev[i].thread, cell.data, x->race_mark[i] != NULL);
  free(cell.data);
}

static void put_header(Text *x, DrBuf *b) {
  const DrTimeline *tl = x->tl;
  for (int row = 0; row < 2; row++) {
    put_cell(b, "", GUTTER);
    for (int t = 0; t < tl->nthreads; t++) {
      if (x->col_of[t] < 0) continue;
      char head[200];
      if (row == 0) snprintf(head, sizeof head, "T%d %s", t, tl->threads[t].name ? tl->threads[t].name : "?");
      else if (tl->threads[t].place && *tl->threads[t].place) snprintf(head, sizeof head, "@%s", tl->threads[t].place);
      else snprintf(head, sizeof head, "%s", "");
      put_cell(b, head, x->colw);
    }
    while (b->len && b->data[b->len - 1] == ' ') b->len--;
    dr_buf_append(b, "\n", 1);
  }
  put_cell(b, "", GUTTER);
  for (int c = 0; c < x->ncols; c++) {
    for (int k = 0; k < x->colw - 2; k++) dr_buf_append_str(b, "─");
    if (c + 1 < x->ncols) dr_buf_append_str(b, "  ");
  }
  dr_buf_append(b, "\n", 1);
}

/* One row: what each thread that did not end was doing at the end (a
 * deadlock's cycle, a thread waiting forever). */
static void put_final_states(Text *x, DrBuf *b) {
  const DrTimeline *tl = x->tl;
  bool any = false;
  char buf[160];
  for (int t = 0; t < tl->nthreads; t++) any = any || (x->col_of[t] >= 0 && dr_tl_final_state(tl, t, buf, sizeof buf));
  if (!any || !tl->outcome || !strcmp(tl->outcome, "running")) return;
  put_cell(b, "end", GUTTER);
  for (int t = 0; t < tl->nthreads; t++) {
    if (x->col_of[t] < 0) continue;
    const char *st = dr_tl_final_state(tl, t, buf, sizeof buf);
    if (st && x->color) dr_buf_append_str(b, "\033[1m");
    put_cell(b, st ? st : "", x->colw - 2);
    if (st && x->color) dr_buf_append_str(b, "\033[0m");
    dr_buf_append(b, "  ", 2);
  }
  while (b->len && b->data[b->len - 1] == ' ') b->len--;
  dr_buf_append(b, "\n", 1);
}

/* A line of the footer, cut to the width. */
static void put_line(Text *x, DrBuf *b, const char *text, bool red) {
  DrBuf cell = {0};
  put_cell(&cell, text, x->width);
  while (cell.len && cell.data[cell.len - 1] == ' ') cell.len--;
  if (red && x->color) dr_buf_append_str(b, "\033[1;31m");
  dr_buf_append(b, cell.data ? cell.data : "", cell.len);
  if (red && x->color) dr_buf_append_str(b, "\033[0m");
  dr_buf_append(b, "\n", 1);
  free(cell.data);
}

/* "locks: A=Account#1 B=Account#2", wrapped to the width. */
static void put_locks(Text *x, DrBuf *b) {
  const DrTimeline *tl = x->tl;
  DrBuf line = {0};
  dr_buf_append_str(&line, "locks:");
  for (int i = 0; i < tl->locks.n; i++) {
    char item[300];
    snprintf(item, sizeof item, " %c=%s", lock_letter(i), tl->locks.s[i]);
    if (text_cols(line.data, line.len) + text_cols(item, strlen(item)) > x->width && line.len > 7) {
      put_line(x, b, line.data, false);
      line.len = 0;
      dr_buf_append_str(&line, "      ");
    }
    dr_buf_append_str(&line, item);
  }
  put_line(x, b, line.data, false);
  free(line.data);
}

static void put_footer(Text *x, DrBuf *b, int hidden) {
  const DrTimeline *tl = x->tl;
  char buf[400];
  put_final_states(x, b);
  if (hidden) {
    snprintf(buf, sizeof buf, "(%d more threads do not fit: the HTML timeline shows them all)", hidden);
    put_line(x, b, buf, false);
  }
  if (tl->truncated) {
    snprintf(buf, sizeof buf, "(%lld later events left out)", tl->truncated);
    put_line(x, b, buf, false);
  }
  if (tl->locks.n) put_locks(x, b);
  for (int i = 0; i < tl->nraces; i++) {
    const DrTlRace *r = &tl->races[i];
    DrBuf line = {0};
    dr_buf_printf(&line, "R%d: data race on %s", i + 1, r->location);
    if (r->prev >= 0 && r->cur >= 0)
      dr_buf_printf(&line, ": events %d (T%d) and %d (T%d), no happens-before between them", r->prev,
                    tl->ev[r->prev].thread, r->cur, tl->ev[r->cur].thread);
    put_line(x, b, line.data, true);
    free(line.data);
  }
  if (tl->outcome && *tl->outcome) {
    snprintf(buf, sizeof buf, "outcome: %s", tl->outcome);
    put_line(x, b, buf, false);
  }
}

static void text_free(Text *x) {
  for (int i = 0; i <= x->tl->nev; i++) free(x->in_edge[i]), free(x->out_edge[i]), free(x->race_mark[i]);
  free(x->in_edge), free(x->out_edge), free(x->race_mark);
  free(x->col_of), free(x->held), free(x->held_lock), free(x->started), free(x->ended);
}

/* Lays out the columns: as many threads as fit, each as wide as the
 * width allows between MIN_COL and MAX_COL.  The number left out. */
static int layout(Text *x, int width) {
  int nt = x->tl->nthreads, fit = (width - GUTTER) / MIN_COL;
  if (fit < 1) fit = 1;
  x->ncols = nt < fit ? nt : fit;
  x->colw = x->ncols ? (width - GUTTER) / x->ncols : MIN_COL;
  if (x->colw > MAX_COL) x->colw = MAX_COL;
  if (x->colw < MIN_COL) x->colw = MIN_COL;
  x->col_of = dr_xcalloc((size_t)nt + 1, sizeof(int));
  for (int t = 0; t < nt; t++) x->col_of[t] = t < x->ncols ? t : -1;
  return nt - x->ncols;
}

void dr_tl_write_text(const DrTimeline *tl, FILE *out, int width, bool color) {
  Text x = {0};
  x.tl = tl;
  x.color = color;
  x.width = width > GUTTER + MIN_COL ? width : GUTTER + MIN_COL;
  int hidden = layout(&x, width);
  int nt = tl->nthreads + 1;
  x.held = dr_xcalloc((size_t)nt, sizeof(int));
  x.held_lock = dr_xcalloc((size_t)nt, sizeof(int));
  x.started = dr_xcalloc((size_t)nt, sizeof(bool));
  x.ended = dr_xcalloc((size_t)nt, sizeof(bool));
  x.started[0] = true;
  collect_marks(&x);
  DrBuf b = {0};
  put_header(&x, &b);
  for (int i = 0; i < tl->nev;) {
    const DrTlEvent *e = &tl->ev[i];
    int j = i;
    /* a run of local accesses of one thread, none marked, folds */
    while (j < tl->nev && tl->ev[j].thread == e->thread && dr_tl_is_local(tl, j) && !x.race_mark[j] &&
           !x.in_edge[j] && !x.out_edge[j])
      j++;
    if (j - i >= DR_TL_FOLD_MIN) {
      char cell[64], gutter[24];
      snprintf(cell, sizeof cell, "… %d local accesses", j - i);
      snprintf(gutter, sizeof gutter, "%d", i);
      if (x.col_of[e->thread] >= 0) put_row(&x, &b, gutter, e->thread, cell, false);
      i = j;
      continue;
    }
    put_event(&x, &b, i);
    advance(&x, e);
    i++;
  }
  put_footer(&x, &b, hidden);
  fwrite(b.data ? b.data : "", 1, b.len, out);
  free(b.data);
  text_free(&x);
}

int dr_tl_terminal_width(void) {
  struct winsize ws;
  if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
  const char *c = getenv("COLUMNS");
  int n = c ? atoi(c) : 0;
  return n >= 40 ? n : 100;
}
