/* A timeline as a static SVG picture, for slides and papers: the same
 * drawing as the HTML page (columns, events, lock spans, arrows of
 * happens-before, races in red, output in place), without its controls.
 * Runs of local accesses fold; a picture of more than MAX_ROWS rows stops
 * there and says so (the HTML page is for long runs).  A race's report
 * is its <title>: viewers show it on hover. */
#include <string.h>

#include "timeline.h"

enum { GUTTER = 44, COL_W = 230, ROW_H = 18, HEAD_H = 64, MAX_ROWS = 4000 };

static const char *const LOCK_COLORS[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac"};
enum { NLOCK_COLORS = sizeof LOCK_COLORS / sizeof LOCK_COLORS[0] };

static const char *edge_color(DrTlEdgeKind k) {
  switch (k) {
  case DR_TL_LOCK: return "#4e79a7";
  case DR_TL_START:
  case DR_TL_JOIN: return "#555555";
  case DR_TL_VOLATILE: return "#59a14f";
  case DR_TL_NOTIFY: return "#b07aa1";
  default: return "#9c755f";
  }
}

static void xml_text(DrBuf *b, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': dr_buf_append_str(b, "&lt;"); break;
    case '>': dr_buf_append_str(b, "&gt;"); break;
    case '&': dr_buf_append_str(b, "&amp;"); break;
    case '"': dr_buf_append_str(b, "&quot;"); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') dr_buf_append(b, s, 1);
    }
  }
}

/* Characters of monospace text a column has room for. */
enum { COL_CHARS = (COL_W - 24) / 7 };

/* Text that fits a column: a long one keeps its first word (the event's
 * kind) and its end (the field and the line), cut in the middle. */
static void fit_text(DrBuf *b, const char *s) {
  size_t n = strlen(s), room = COL_CHARS;
  if (n <= room) {
    xml_text(b, s);
    return;
  }
  size_t head = strcspn(s, " ");
  if (head + 6 > room) head = 0;
  DrBuf cut = {0};
  dr_buf_append(&cut, s, head);
  dr_buf_append_str(&cut, head ? " …" : "…");
  size_t tail = room - head - (head ? 2 : 1);
  dr_buf_append_str(&cut, s + n - tail);
  xml_text(b, cut.data);
  free(cut.data);
}

typedef struct {
  const DrTimeline *tl;
  int *row_of;      /* event -> row (a folded event: its fold's row); -1 beyond the rows drawn */
  int nrows;
  bool *marked;     /* events an edge or a race touches: never folded */
  int cut_at;       /* the first event not drawn (nev: all) */
} Svg;

static int col_x(int thread) { return GUTTER + thread * COL_W; }
static int row_y(int row) { return HEAD_H + row * ROW_H + ROW_H / 2; }

static bool foldable(const Svg *s, int i, int thread) {
  return s->tl->ev[i].thread == thread && dr_tl_is_local(s->tl, i) && !s->marked[i];
}

/* Rows: one per event, a fold per run of local accesses. */
static void lay_out(Svg *s, DrBuf *b) {
  const DrTimeline *tl = s->tl;
  s->marked = dr_xcalloc((size_t)tl->nev + 1, sizeof(bool));
  for (int i = 0; i < tl->nedges; i++) s->marked[tl->edges[i].from] = s->marked[tl->edges[i].to] = true;
  for (int i = 0; i < tl->nraces; i++) {
    if (tl->races[i].cur >= 0) s->marked[tl->races[i].cur] = true;
    if (tl->races[i].prev >= 0) s->marked[tl->races[i].prev] = true;
  }
  s->row_of = dr_xcalloc((size_t)tl->nev + 1, sizeof(int));
  s->cut_at = tl->nev;
  for (int i = 0; i < tl->nev;) {
    if (s->nrows == MAX_ROWS) {
      s->cut_at = i;
      for (; i < tl->nev; i++) s->row_of[i] = -1;
      break;
    }
    int j = i, t = tl->ev[i].thread;
    while (j < tl->nev && foldable(s, j, t)) j++;
    if (j - i < DR_TL_FOLD_MIN) j = i + 1;
    for (int k = i; k < j; k++) s->row_of[k] = s->nrows;
    if (s->nrows % 5 == 0) /* time, every fifth row: the event's number */
      dr_buf_printf(b, "<text class=\"place\" x=\"4\" y=\"%d\">%d</text>\n", row_y(s->nrows) + 4, i);
    if (j - i > 1) {
      dr_buf_printf(b, "<text class=\"fold\" x=\"%d\" y=\"%d\">… %d local accesses</text>\n", col_x(t) + 14,
                    row_y(s->nrows) + 4, j - i);
    } else {
      const DrTlEvent *e = &tl->ev[i];
      bool out = e->kind == DR_TL_OUT || e->kind == DR_TL_ERR;
      DrBuf text = {0};
      dr_tl_event_text(tl, i, &text);
      dr_buf_printf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" class=\"dot\"/>", col_x(t) + 6, row_y(s->nrows));
      dr_buf_printf(b, "<text class=\"%s\" x=\"%d\" y=\"%d\"><title>", out ? "out" : "ev", col_x(t) + 14,
                    row_y(s->nrows) + 4);
      xml_text(b, text.data);
      dr_buf_append_str(b, "</title>");
      fit_text(b, text.data);
      dr_buf_append_str(b, "</text>\n");
      free(text.data);
    }
    s->nrows++;
    i = j;
  }
}

static int span_end_row(const Svg *s, int to) { return to >= 0 && s->row_of[to] >= 0 ? s->row_of[to] : s->nrows; }

static void draw_spans(const Svg *s, DrBuf *b) {
  for (int i = 0; i < s->tl->nspans; i++) {
    const DrTlSpan *sp = &s->tl->spans[i];
    int from = s->row_of[sp->from];
    if (from < 0) continue;
    int to = span_end_row(s, sp->to);
    const char *c = LOCK_COLORS[sp->lock % NLOCK_COLORS];
    int y0 = row_y(from) - ROW_H / 2, h = (to - from + 1) * ROW_H;
    dr_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.13\"/>", col_x(sp->thread),
                  y0, COL_W - 10, h, c);
    dr_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"4\" height=\"%d\" fill=\"%s\"><title>holds ", col_x(sp->thread), y0, h,
                  c);
    xml_text(b, s->tl->locks.s[sp->lock]);
    dr_buf_append_str(b, "</title></rect>\n");
  }
}

static void draw_threads(const Svg *s, DrBuf *b) {
  const DrTimeline *tl = s->tl;
  for (int t = 0; t < tl->nthreads; t++) {
    const DrTlThread *th = &tl->threads[t];
    int x = col_x(t);
    int first = th->created >= 0 && th->created < tl->nev && s->row_of[th->created] >= 0 ? s->row_of[th->created] : 0;
    int last = th->end >= 0 && s->row_of[th->end] >= 0 ? s->row_of[th->end] : s->nrows;
    dr_buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"life\"/>\n", x + 6, row_y(first), x + 6,
                  row_y(last > first ? last : first));
    dr_buf_printf(b, "<text class=\"head\" x=\"%d\" y=\"22\">T%d ", x, t);
    xml_text(b, th->name ? th->name : "?");
    dr_buf_printf(b, "</text><text class=\"place\" x=\"%d\" y=\"40\">", x);
    if (th->place && *th->place) {
      dr_buf_append_str(b, "started at ");
      xml_text(b, th->place);
    } else if (t == 0) {
      dr_buf_append_str(b, "the main thread");
    }
    dr_buf_append_str(b, "</text>\n");
  }
}

static void draw_edges(const Svg *s, DrBuf *b) {
  const DrTimeline *tl = s->tl;
  for (int i = 0; i < tl->nedges; i++) {
    const DrTlEdge *e = &tl->edges[i];
    int r0 = s->row_of[e->from], r1 = s->row_of[e->to];
    if (r0 < 0 || r1 < 0) continue;
    int x0 = col_x(tl->ev[e->from].thread) + 6, x1 = col_x(tl->ev[e->to].thread) + 6;
    dr_buf_printf(b,
                  "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.4\" "
                  "marker-end=\"url(#arrow)\"><title>%s: ",
                  x0, row_y(r0), x1, row_y(r1), edge_color(e->kind), dr_tl_edge_word(e->kind));
    xml_text(b, "happens-before");
    dr_buf_append_str(b, "</title></line>\n");
  }
}

static void draw_races(const Svg *s, DrBuf *b) {
  const DrTimeline *tl = s->tl;
  for (int i = 0; i < tl->nraces; i++) {
    const DrTlRace *r = &tl->races[i];
    if (r->cur < 0 || r->prev < 0 || s->row_of[r->cur] < 0 || s->row_of[r->prev] < 0) continue;
    int x0 = col_x(tl->ev[r->prev].thread) + 6, y0 = row_y(s->row_of[r->prev]);
    int x1 = col_x(tl->ev[r->cur].thread) + 6, y1 = row_y(s->row_of[r->cur]);
    dr_buf_printf(b, "<g class=\"race\"><title>");
    xml_text(b, r->text);
    dr_buf_printf(b, "</title><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", x0, y0, x1, y1);
    dr_buf_printf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"5\"/><circle cx=\"%d\" cy=\"%d\" r=\"5\"/>", x0, y0, x1, y1);
    dr_buf_printf(b, "<text x=\"%d\" y=\"%d\">race R%d: ", (x0 + x1) / 2 + 6, (y0 + y1) / 2 - 4, i + 1);
    xml_text(b, r->location);
    dr_buf_append_str(b, "</text></g>\n");
  }
}

/* Under each thread that did not end, what it was doing at the end (a
 * deadlock's cycle, a wait that never returned). */
static void draw_final_states(const Svg *s, DrBuf *b) {
  char buf[160];
  if (!s->tl->outcome || !strcmp(s->tl->outcome, "running")) return;
  for (int t = 0; t < s->tl->nthreads; t++) {
    const char *st = dr_tl_final_state(s->tl, t, buf, sizeof buf);
    if (!st) continue;
    /* "BLOCKED on Account#2" over "held by T2" */
    const char *held = strstr(st, " held by ");
    size_t first = held ? (size_t)(held - st) : strlen(st);
    char line[160];
    snprintf(line, sizeof line, "%.*s", (int)first, st);
    dr_buf_printf(b, "<text class=\"final\" x=\"%d\" y=\"%d\">", col_x(t) + 14, row_y(s->nrows) + 4);
    fit_text(b, line);
    dr_buf_append_str(b, "</text>\n");
    if (held)
      dr_buf_printf(b, "<text class=\"final\" x=\"%d\" y=\"%d\">%s</text>\n", col_x(t) + 14, row_y(s->nrows + 1) + 4,
                    held + 1);
  }
}

/* Where the next legend item of w pixels goes: on this line if it fits
 * the picture's width, else at the start of the next. */
static void legend_place(int *x, int *y, int w, int width) {
  if (*x > GUTTER && *x + w > width - 10) {
    *x = GUTTER;
    *y += 20;
  }
}

/* The lock colours, the edge kinds and the race, wrapped to width; the
 * y under the legend. */
static int draw_legend(const Svg *s, DrBuf *b, int y, int width) {
  const DrTimeline *tl = s->tl;
  int x = GUTTER;
  for (int i = 0; i < tl->locks.n && i < 12; i++) {
    int w = 30 + 7 * (int)strlen(tl->locks.s[i]);
    legend_place(&x, &y, w, width);
    dr_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" fill-opacity=\"0.5\"/>", x, y - 10,
                  LOCK_COLORS[i % NLOCK_COLORS]);
    dr_buf_printf(b, "<text class=\"place\" x=\"%d\" y=\"%d\">", x + 16, y);
    xml_text(b, tl->locks.s[i]);
    dr_buf_append_str(b, "</text>\n");
    x += w;
  }
  if (tl->locks.n) y += 20;
  x = GUTTER;
  for (int k = 0; k <= DR_TL__EDGE_COUNT; k++) {
    bool race = k == DR_TL__EDGE_COUNT;
    const char *word = race ? "data race" : dr_tl_edge_word((DrTlEdgeKind)k);
    int w = 40 + 7 * (int)strlen(word);
    legend_place(&x, &y, w, width);
    dr_buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>", x, y - 4, x + 20,
                  y - 4, race ? "#d62728" : edge_color((DrTlEdgeKind)k), race ? "2.5" : "1.4");
    dr_buf_printf(b, "<text class=\"place\" x=\"%d\" y=\"%d\">%s</text>", x + 24, y, word);
    x += w;
  }
  dr_buf_append(b, "\n", 1);
  if (s->cut_at < tl->nev || tl->truncated) {
    y += 20;
    dr_buf_printf(b, "<text class=\"place\" x=\"%d\" y=\"%d\">%lld later events are not drawn (the HTML timeline shows %d)</text>\n",
                  GUTTER, y, (long long)(tl->nev - s->cut_at) + tl->truncated, tl->nev);
  }
  return y + 20;
}

static const char STYLE[] =
    "<style>text{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;fill:#222}"
    ".head{font-size:14px;font-weight:bold}.place{font-size:11px;fill:#666}.fold{fill:#888;font-style:italic}"
    ".out{fill:#2a7a2a}.final{font-weight:bold;fill:#8a1c1c}.life{stroke:#bbb;stroke-width:2}.dot{fill:#666}"
    ".race line{stroke:#d62728;stroke-width:2.5}.race circle{fill:none;stroke:#d62728;stroke-width:2}"
    ".race text{fill:#d62728;font-weight:bold}</style>\n";

bool dr_tl_write_svg(const DrTimeline *tl, FILE *out) {
  Svg s = {0};
  s.tl = tl;
  DrBuf rows = {0}, body = {0}, b = {0};
  lay_out(&s, &rows);
  /* wide enough for the legend's first line and the note under it */
  int width = GUTTER + (tl->nthreads > 0 ? tl->nthreads : 1) * COL_W + 20;
  if (width < 640) width = 640;
  draw_spans(&s, &body);
  draw_threads(&s, &body);
  dr_buf_append(&body, rows.data ? rows.data : "", rows.len);
  draw_edges(&s, &body);
  draw_races(&s, &body);
  draw_final_states(&s, &body);
  int height = draw_legend(&s, &body, HEAD_H + (s.nrows + 2) * ROW_H + 20, width);
  dr_buf_printf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", width,
                height, width, height);
  dr_buf_append_str(&b, "<title>");
  xml_text(&b, tl->title && *tl->title ? tl->title : tl->program ? tl->program : "drvm timeline");
  dr_buf_append_str(&b, "</title>\n");
  dr_buf_append_str(&b, STYLE);
  dr_buf_append_str(&b, "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
                        "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
                        "fill=\"#555\"/></marker></defs>\n");
  dr_buf_printf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
  dr_buf_append(&b, body.data ? body.data : "", body.len);
  dr_buf_append_str(&b, "</svg>\n");
  fwrite(b.data, 1, b.len, out);
  free(rows.data), free(body.data), free(b.data), free(s.row_of), free(s.marked);
  return !ferror(out);
}
