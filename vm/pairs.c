/* The race pairs file (see pairs.h, its specification). */
#include "pairs.h"

#include <string.h>

/* The text "? ? 0" of a statement hybrid had no position for. */
static const char unknown_stmt[] = "? ? 0";

void dr_pairs_stmt_text(DrBuf *b, const DrPairStmt *s) {
  if (!s->method) dr_buf_append_str(b, unknown_stmt);
  else dr_buf_printf(b, "%s %u %d", s->method, (unsigned)s->pc, s->line);
}

static int stmt_cmp(const DrPairStmt *a, const DrPairStmt *b) {
  DrBuf ta = {0}, tb = {0};
  dr_pairs_stmt_text(&ta, a);
  dr_pairs_stmt_text(&tb, b);
  int c = strcmp(ta.data, tb.data);
  free(ta.data);
  free(tb.data);
  return c;
}

static bool stmt_equal(const DrPairStmt *a, const DrPairStmt *b) {
  if (!a->method || !b->method) return !a->method && !b->method;
  return !strcmp(a->method, b->method) && a->pc == b->pc && a->line == b->line;
}

static bool pair_equal(const DrPair *a, const DrPair *b) {
  if (strcmp(a->location, b->location) != 0) return false;
  return (stmt_equal(&a->first, &b->first) && stmt_equal(&a->second, &b->second)) ||
         (stmt_equal(&a->first, &b->second) && stmt_equal(&a->second, &b->first));
}

int dr_pairs_index(const DrPairs *ps, const DrPair *p) {
  for (int i = 0; i < ps->count; i++)
    if (pair_equal(&ps->items[i], p)) return i;
  return -1;
}

char *dr_pairs_location(const char *race_location) {
  const char *hash = strchr(race_location, '#');
  bool element = hash && race_location[strlen(race_location) - 1] == ']';
  return element ? dr_strndup(race_location, (size_t)(hash - race_location)) : dr_strdup(race_location);
}

bool dr_pairs_add(DrPairs *ps, DrPair p) {
  if (dr_pairs_index(ps, &p) >= 0) {
    dr_pair_free(&p);
    return false;
  }
  if (stmt_cmp(&p.first, &p.second) > 0) {
    DrPairStmt t = p.first;
    p.first = p.second;
    p.second = t;
  }
  DR_PUSH(ps->items, ps->count, ps->cap, p);
  return true;
}

void dr_pairs_write(DrBuf *b, const DrPairs *ps) {
  dr_buf_append_str(b, ps->comment ? ps->comment : DR_PAIRS_COMMENT);
  dr_buf_append_str(b, "\n");
  for (int i = 0; i < ps->count; i++) {
    const DrPair *p = &ps->items[i];
    dr_buf_append_str(b, p->location);
    dr_buf_append_str(b, "\t");
    dr_pairs_stmt_text(b, &p->first);
    dr_buf_append_str(b, "\t");
    dr_pairs_stmt_text(b, &p->second);
    dr_buf_append_str(b, "\n");
  }
}

/* A decimal number filling [s, end): digits, after a '-' if negative_ok. */
static bool parse_num(const char *s, const char *end, bool negative_ok, long long max, long long *out) {
  bool neg = negative_ok && s < end && *s == '-';
  if (neg) s++;
  if (s == end) return false;
  long long v = 0;
  for (; s < end; s++) {
    if (*s < '0' || *s > '9') return false;
    v = v * 10 + (*s - '0');
    if (v > max) return false;
  }
  *out = neg ? -v : v;
  return true;
}

/* "METHOD PC LINE", the method possibly with spaces of its own. */
static bool parse_stmt(const char *text, DrPairStmt *out) {
  memset(out, 0, sizeof *out);
  if (!strcmp(text, unknown_stmt)) return true;
  const char *end = text + strlen(text);
  const char *sp2 = strrchr(text, ' ');
  if (!sp2) return false;
  const char *sp1 = sp2;
  while (sp1 > text && sp1[-1] != ' ') sp1--;
  if (sp1 - 1 <= text) return false; /* no space before PC, or an empty method */
  long long pc, line;
  if (!parse_num(sp1, sp2, false, UINT32_MAX, &pc) || !parse_num(sp2 + 1, end, true, INT32_MAX, &line)) return false;
  out->method = dr_strndup(text, (size_t)(sp1 - 1 - text));
  out->pc = (uint32_t)pc;
  out->line = (int)line;
  return true;
}

static bool fail(char *err, size_t errsize, const char *name, int lineno, const char *what) {
  snprintf(err, errsize, "%s:%d: %s", name, lineno, what);
  return false;
}

/* One line, without its line end. */
static bool parse_line(const char *s, size_t n, const char *name, int lineno, DrPairs *out, char *err,
                       size_t errsize) {
  if (n == 0) return true;
  if (s[0] == '#') {
    if (!out->comment) out->comment = dr_strndup(s, n);
    return true;
  }
  char *line = dr_strndup(s, n);
  char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
  if (memchr(s, '\0', n) || !tab2 || strchr(tab2 + 1, '\t') || tab1 == line) {
    free(line);
    return fail(err, errsize, name, lineno,
                "malformed line (expected 'location<TAB>statement<TAB>statement', as "
                "'drvm run --detector hybrid --potential-races FILE' writes)");
  }
  *tab1 = *tab2 = '\0';
  DrPair p = {.lineno = lineno};
  bool ok = parse_stmt(tab1 + 1, &p.first) && parse_stmt(tab2 + 1, &p.second);
  if (ok) {
    p.location = dr_strdup(line);
    DR_PUSH(out->items, out->count, out->cap, p);
  } else {
    dr_pair_free(&p);
  }
  free(line);
  return ok || fail(err, errsize, name, lineno, "malformed statement (expected 'Class.method(params) pc line')");
}

bool dr_pairs_parse(const char *text, size_t len, const char *name, DrPairs *out, char *err, size_t errsize) {
  int lineno = 0;
  for (size_t pos = 0; pos < len;) {
    const char *s = text + pos;
    const char *nl = memchr(s, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - s) : len - pos;
    pos += n + 1;
    lineno++;
    while (n > 0 && s[n - 1] == '\r') n--;
    if (!parse_line(s, n, name, lineno, out, err, errsize)) return false;
  }
  return true;
}

void dr_pair_free(DrPair *p) {
  free(p->location);
  free(p->first.method);
  free(p->second.method);
  memset(p, 0, sizeof *p);
}

void dr_pairs_free(DrPairs *ps) {
  for (int i = 0; i < ps->count; i++) dr_pair_free(&ps->items[i]);
  free(ps->items);
  free(ps->comment);
  memset(ps, 0, sizeof *ps);
}
