/* JSON: a strict reader and a writer (see json.h). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "json.h"

/* Deep enough for any report drvm writes; bounds the recursion on
 * malicious or corrupt input. */
enum { MAX_DEPTH = 100 };

typedef struct {
  const char *p, *end, *start;
  char *err;
  size_t errsize;
  bool failed;
} Parser;

static void fail(Parser *ps, const char *what) {
  if (ps->failed) return;
  ps->failed = true;
  int line = 1;
  for (const char *q = ps->start; q < ps->p && q < ps->end; q++)
    if (*q == '\n') line++;
  snprintf(ps->err, ps->errsize, "line %d: %s", line, what);
}

static void skip_ws(Parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool read_hex4(Parser *ps, unsigned *out) {
  if (ps->end - ps->p < 4) return false;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int d = hex_digit(ps->p[i]);
    if (d < 0) return false;
    v = v * 16 + (unsigned)d;
  }
  ps->p += 4;
  *out = v;
  return true;
}

static void append_utf8(DrBuf *b, unsigned cp) {
  char u[4];
  size_t n;
  if (cp < 0x80) u[0] = (char)cp, n = 1;
  else if (cp < 0x800) u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
  else if (cp < 0x10000)
    u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
  else
    u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
  dr_buf_append(b, u, n);
}

/* At the opening quote; returns a malloc'd string or NULL after fail(). */
static char *parse_string(Parser *ps) {
  ps->p++;
  DrBuf b = {0};
  for (;;) {
    if (ps->p >= ps->end) {
      fail(ps, "unterminated string");
      free(b.data);
      return NULL;
    }
    char c = *ps->p++;
    if (c == '"') break;
    if ((unsigned char)c < 0x20) {
      fail(ps, "control character in a string");
      free(b.data);
      return NULL;
    }
    if (c != '\\') {
      dr_buf_append(&b, &c, 1);
      continue;
    }
    if (ps->p >= ps->end) {
      fail(ps, "unterminated string");
      free(b.data);
      return NULL;
    }
    char e = *ps->p++;
    static const char escapes[] = "\"\\/bfnrt", repl[] = "\"\\/\b\f\n\r\t";
    const char *simple = e ? strchr(escapes, e) : NULL;
    if (simple) {
      dr_buf_append(&b, &repl[simple - escapes], 1);
    } else if (e == 'u') {
      unsigned cp;
      if (!read_hex4(ps, &cp)) {
        fail(ps, "bad \\u escape");
        free(b.data);
        return NULL;
      }
      if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
        const char *save = ps->p;
        unsigned lo;
        ps->p += 2;
        if (read_hex4(ps, &lo) && lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        else ps->p = save;
      }
      append_utf8(&b, cp);
    } else {
      fail(ps, "bad escape in a string");
      free(b.data);
      return NULL;
    }
  }
  dr_buf_append(&b, "", 1);
  return b.data;
}

static bool parse_number(Parser *ps, double *out) {
  const char *s = ps->p;
  const char *q = s;
  if (q < ps->end && *q == '-') q++;
  if (q >= ps->end || !(*q >= '0' && *q <= '9')) return false;
  if (*q == '0') q++;
  else
    while (q < ps->end && *q >= '0' && *q <= '9') q++;
  if (q < ps->end && *q == '.') {
    q++;
    if (q >= ps->end || !(*q >= '0' && *q <= '9')) return false;
    while (q < ps->end && *q >= '0' && *q <= '9') q++;
  }
  if (q < ps->end && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < ps->end && (*q == '+' || *q == '-')) q++;
    if (q >= ps->end || !(*q >= '0' && *q <= '9')) return false;
    while (q < ps->end && *q >= '0' && *q <= '9') q++;
  }
  /* strtod needs a terminated copy: the text need not end after the number */
  char tmp[64];
  size_t n = (size_t)(q - s);
  if (n >= sizeof tmp) return false;
  memcpy(tmp, s, n);
  tmp[n] = 0;
  *out = strtod(tmp, NULL);
  ps->p = q;
  return true;
}

static bool literal(Parser *ps, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return false;
  ps->p += n;
  return true;
}

static void parse_value(Parser *ps, DrJson *out, int depth);

static void parse_container(Parser *ps, DrJson *out, int depth, bool is_obj) {
  int cap = 0;
  out->kind = is_obj ? DR_JSON_OBJ : DR_JSON_ARR;
  ps->p++;
  skip_ws(ps);
  char close = is_obj ? '}' : ']';
  if (ps->p < ps->end && *ps->p == close) {
    ps->p++;
    return;
  }
  for (;;) {
    char *key = NULL;
    skip_ws(ps);
    if (is_obj) {
      if (ps->p >= ps->end || *ps->p != '"') {
        fail(ps, "expected a member name");
        return;
      }
      key = parse_string(ps);
      if (!key) return;
      skip_ws(ps);
      if (ps->p >= ps->end || *ps->p != ':') {
        free(key);
        fail(ps, "expected ':'");
        return;
      }
      ps->p++;
    }
    DrJson v = {0};
    parse_value(ps, &v, depth + 1);
    if (out->count == cap) {
      cap = cap ? cap * 2 : 8;
      out->items = dr_xrealloc(out->items, sizeof *out->items * (size_t)cap);
      if (is_obj) out->keys = dr_xrealloc(out->keys, sizeof *out->keys * (size_t)cap);
    }
    if (is_obj) out->keys[out->count] = key;
    out->items[out->count++] = v;
    if (ps->failed) return;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      return;
    }
    fail(ps, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    return;
  }
}

static void parse_value(Parser *ps, DrJson *out, int depth) {
  memset(out, 0, sizeof *out);
  if (depth > MAX_DEPTH) {
    fail(ps, "nested too deeply");
    return;
  }
  skip_ws(ps);
  if (ps->p >= ps->end) {
    fail(ps, "unexpected end of text");
    return;
  }
  char c = *ps->p;
  if (c == '{' || c == '[') {
    parse_container(ps, out, depth, c == '{');
  } else if (c == '"') {
    out->kind = DR_JSON_STR;
    out->str = parse_string(ps);
  } else if (literal(ps, "null")) {
    out->kind = DR_JSON_NULL;
  } else if (literal(ps, "true")) {
    out->kind = DR_JSON_BOOL, out->num = 1;
  } else if (literal(ps, "false")) {
    out->kind = DR_JSON_BOOL, out->num = 0;
  } else if (parse_number(ps, &out->num)) {
    out->kind = DR_JSON_NUM;
  } else {
    fail(ps, "expected a value");
  }
}

bool dr_json_parse(const char *text, size_t len, DrJson *out, char *err, size_t errsize) {
  Parser ps = {text, text + len, text, err, errsize, false};
  parse_value(&ps, out, 0);
  if (!ps.failed) {
    skip_ws(&ps);
    if (ps.p != ps.end) fail(&ps, "text after the value");
  }
  if (ps.failed) {
    dr_json_free(out);
    return false;
  }
  return true;
}

bool dr_json_read_file(const char *path, DrJson *out, char *err, size_t errsize) {
  size_t len;
  char *text = dr_read_file(path, &len);
  memset(out, 0, sizeof *out);
  if (!text) {
    snprintf(err, errsize, "cannot read %s: %s", path, strerror(errno));
    return false;
  }
  char why[200];
  bool ok = dr_json_parse(text, len, out, why, sizeof why);
  if (!ok) snprintf(err, errsize, "%s is not well-formed JSON: %s", path, why);
  free(text);
  return ok;
}

void dr_json_free(DrJson *j) {
  if (!j) return;
  free(j->str);
  for (int i = 0; i < j->count; i++) {
    dr_json_free(&j->items[i]);
    if (j->keys) free(j->keys[i]);
  }
  free(j->items);
  free(j->keys);
  memset(j, 0, sizeof *j);
}

const DrJson *dr_json_get(const DrJson *j, const char *key) {
  if (!j || j->kind != DR_JSON_OBJ) return NULL;
  for (int i = 0; i < j->count; i++)
    if (!strcmp(j->keys[i], key)) return &j->items[i];
  return NULL;
}

double dr_json_num(const DrJson *j, const char *key, double fallback) {
  const DrJson *v = dr_json_get(j, key);
  return v && (v->kind == DR_JSON_NUM || v->kind == DR_JSON_BOOL) ? v->num : fallback;
}

const char *dr_json_str(const DrJson *j, const char *key) {
  const DrJson *v = dr_json_get(j, key);
  return v && v->kind == DR_JSON_STR ? v->str : NULL;
}

/* --- writer --- */

void dr_json_quote(DrBuf *b, const char *s) {
  dr_buf_append(b, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': dr_buf_append_str(b, "\\\""); break;
    case '\\': dr_buf_append_str(b, "\\\\"); break;
    case '\n': dr_buf_append_str(b, "\\n"); break;
    case '\r': dr_buf_append_str(b, "\\r"); break;
    case '\t': dr_buf_append_str(b, "\\t"); break;
    case '\b': dr_buf_append_str(b, "\\b"); break;
    case '\f': dr_buf_append_str(b, "\\f"); break;
    default:
      if (*p < 0x20) {
        dr_buf_printf(b, "\\u%04x", *p);
      } else {
        dr_buf_append(b, (const char *)p, 1);
      }
    }
  }
  dr_buf_append(b, "\"", 1);
}

static void indent(DrBuf *b, int depth) {
  for (int i = 0; i < depth; i++) dr_buf_append(b, "  ", 2);
}

/* The separator before a member that is not the container's first. */
static void separator(DrJsonW *w, const DrJsonLevel *lv) {
  dr_buf_append(&w->buf, ",", 1);
  if (!lv->flat) {
    dr_buf_append(&w->buf, "\n", 1);
    indent(&w->buf, w->depth);
  } else if (w->wrap) {
    dr_buf_append(&w->buf, "\n", 1);
    for (int i = 0; i <= lv->col; i++) dr_buf_append(&w->buf, " ", 1);
  } else {
    dr_buf_append(&w->buf, " ", 1);
  }
}

/* The separator, line break, indentation and key before a member. */
static void member(DrJsonW *w, const char *key) {
  DrJsonLevel *lv = &w->level[w->depth];
  if (w->resumed) {
    w->resumed = false;
  } else if (w->depth == 0) {
    /* the document's one value */
  } else if (!lv->first) {
    separator(w, lv);
  } else if (!lv->flat) {
    dr_buf_append(&w->buf, "\n", 1);
    indent(&w->buf, w->depth);
  }
  w->wrap = false;
  lv->first = false;
  if (key) {
    dr_json_quote(&w->buf, key);
    dr_buf_append(&w->buf, ": ", 2);
  }
}

/* The column the next character goes to (for dr_jw_wrap). */
static int column(const DrBuf *b) {
  size_t i = b->len;
  while (i > 0 && b->data[i - 1] != '\n') i--;
  return (int)(b->len - i);
}

static void begin(DrJsonW *w, const char *key, char open, bool flat) {
  member(w, key);
  DrJsonLevel lv = {true, flat || w->level[w->depth].flat, column(&w->buf)};
  dr_buf_append(&w->buf, &open, 1);
  if (w->depth + 1 < DR_JSON_MAX_DEPTH) w->depth++;
  w->level[w->depth] = lv;
}

void dr_jw_begin(DrJsonW *w, const char *key, char open) { begin(w, key, open, false); }

void dr_jw_begin_flat(DrJsonW *w, const char *key, char open) { begin(w, key, open, true); }

void dr_jw_end(DrJsonW *w, char close) {
  DrJsonLevel lv = w->level[w->depth];
  if (w->depth > 0) w->depth--;
  if (!lv.first && !lv.flat) {
    dr_buf_append(&w->buf, "\n", 1);
    indent(&w->buf, w->depth);
  }
  dr_buf_append(&w->buf, &close, 1);
  if (w->depth == 0) dr_buf_append(&w->buf, "\n", 1);
}

void dr_jw_wrap(DrJsonW *w) { w->wrap = true; }

void dr_jw_resume(DrJsonW *w, int depth) {
  w->depth = depth > 0 && depth < DR_JSON_MAX_DEPTH ? depth : 1;
  w->level[w->depth] = (DrJsonLevel){true, false, 0};
  w->resumed = true;
}

void dr_jw_str(DrJsonW *w, const char *key, const char *s) {
  member(w, key);
  if (s) dr_json_quote(&w->buf, s);
  else dr_buf_append_str(&w->buf, "null");
}

void dr_jw_int(DrJsonW *w, const char *key, long long v) {
  member(w, key);
  dr_buf_printf(&w->buf, "%lld", v);
}

void dr_jw_uint(DrJsonW *w, const char *key, unsigned long long v) {
  member(w, key);
  dr_buf_printf(&w->buf, "%llu", v);
}

void dr_jw_num(DrJsonW *w, const char *key, double v) {
  member(w, key);
  if (isfinite(v)) dr_buf_printf(&w->buf, "%.6g", v);
  else dr_buf_append_str(&w->buf, "null");
}

void dr_jw_fixed(DrJsonW *w, const char *key, double v, int decimals) {
  member(w, key);
  if (isfinite(v)) dr_buf_printf(&w->buf, "%.*f", decimals, v);
  else dr_buf_append_str(&w->buf, "null");
}

void dr_jw_bool(DrJsonW *w, const char *key, bool v) {
  member(w, key);
  dr_buf_append_str(&w->buf, v ? "true" : "false");
}

void dr_jw_null(DrJsonW *w, const char *key) {
  member(w, key);
  dr_buf_append_str(&w->buf, "null");
}
