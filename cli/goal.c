/* A challenge's goal (goal.h): reading it from the program's comments,
 * and deciding whether a run reached it. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "../vm/buf.h"
#include "goal.h"

static const DrGoalKindInfo kinds[] = {
#define DR_GOAL_ROW(id, word, arg, help) {word, arg, help},
    DR_GOAL_KINDS(DR_GOAL_ROW)
#undef DR_GOAL_ROW
};

const DrGoalKindInfo *dr_goal_kind(DrGoalKind k) { return &kinds[k]; }

/* The comment lines a challenge is made of.  X(id, key, help) */
#define DR_GOAL_KEYS(X)                                                                  \
  X(GOAL, "goal", "what the student must make the program do (one per program)")         \
  X(LIMIT, "max-preemptions", "at most this many preemptions (0..1000; default: none)") \
  X(HINT, "hint", "a hint, shown by the REPL's hint command (several lines: one each)")

typedef enum {
#define DR_GOAL_KEY_ENUM(id, key, help) KEY_##id,
  DR_GOAL_KEYS(DR_GOAL_KEY_ENUM)
#undef DR_GOAL_KEY_ENUM
  KEY__COUNT
} GoalKey;

static const char *const key_words[] = {
#define DR_GOAL_KEY_WORD(id, key, help) key,
    DR_GOAL_KEYS(DR_GOAL_KEY_WORD)
#undef DR_GOAL_KEY_WORD
};

static const char *const key_help[] = {
#define DR_GOAL_KEY_HELP(id, key, help) help,
    DR_GOAL_KEYS(DR_GOAL_KEY_HELP)
#undef DR_GOAL_KEY_HELP
};

void dr_goal_help(FILE *out) {
  fputs("comments of a challenge (each on a line of its own):\n", out);
  for (int i = 0; i < KEY__COUNT; i++) {
    char head[64];
    snprintf(head, sizeof head, "// %s: ...", key_words[i]);
    fprintf(out, "  %-26s %s\n", head, key_help[i]);
  }
  fputs("goals:\n", out);
  for (int i = 0; i < DR_GOAL__COUNT; i++) {
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", kinds[i].word, kinds[i].arg ? " " : "", kinds[i].arg ? kinds[i].arg : "");
    fprintf(out, "  %-26s %s\n", head, kinds[i].help);
  }
}

void dr_goal_free(DrGoal *g) {
  free(g->arg);
  free(g->hint);
  memset(g, 0, sizeof *g);
  g->max_preemptions = -1;
}

char *dr_goal_text(const DrGoal *g) {
  const DrGoalKindInfo *k = &kinds[g->kind];
  return g->arg ? dr_fmt("%s %s", k->word, g->arg) : dr_strdup(k->word);
}

/* ------------------------------------------------------------ parsing */

typedef struct {
  const char *path;
  int line;
  char *err;
  size_t errsize;
} Where;

static bool fail(const Where *w, const char *fmt, ...) DR_PRINTF(2, 3);
static bool fail(const Where *w, const char *fmt, ...) {
  int n = snprintf(w->err, w->errsize, "%s:%d: error: ", w->path, w->line);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < w->errsize) vsnprintf(w->err + n, w->errsize - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

/* "deadlock, output TEXT, race on Class.field, ..." for messages. */
static char *kind_list(void) {
  DrBuf b = {0};
  for (int i = 0; i < DR_GOAL__COUNT; i++)
    dr_buf_printf(&b, "%s%s%s%s", i ? ", " : "", kinds[i].word, kinds[i].arg ? " " : "",
                  kinds[i].arg ? kinds[i].arg : "");
  return b.data;
}

/* s starts with word, followed by its end or a space. */
static const char *after_word(const char *s, const char *word) {
  size_t n = strlen(word);
  if (strncmp(s, word, n) != 0 || (s[n] && s[n] != ' ' && s[n] != '\t')) return NULL;
  return s + n + strspn(s + n, " \t");
}

/* Class.field: a dot with a name on each side, no spaces. */
static bool is_location(const char *s) {
  const char *dot = strrchr(s, '.');
  return dot && dot != s && dot[1] && !strpbrk(s, " \t");
}

static bool parse_goal(const Where *w, const char *v, DrGoal *g) {
  if (g->present) return fail(w, "a second goal (the first is at line %d): a challenge has one goal", g->line);
  for (int i = 0; i < DR_GOAL__COUNT; i++) {
    const char *rest = after_word(v, kinds[i].word);
    if (!rest) continue;
    if (kinds[i].arg && !*rest) return fail(w, "goal '%s' needs %s: // goal: %s %s", kinds[i].word, kinds[i].arg,
                                            kinds[i].word, kinds[i].arg);
    if (!kinds[i].arg && *rest) return fail(w, "goal '%s' takes nothing after it, not '%s'", kinds[i].word, rest);
    if (i == DR_GOAL_RACE && !is_location(rest))
      return fail(w, "goal 'race on' takes Class.field (as race reports name it), not '%s'", rest);
    g->present = true;
    g->kind = (DrGoalKind)i;
    g->arg = kinds[i].arg ? dr_strdup(rest) : NULL;
    g->line = w->line;
    return true;
  }
  char *list = kind_list();
  fail(w, "unknown goal '%s' (the goals: %s)", v, list);
  free(list);
  return false;
}

static bool parse_limit(const Where *w, const char *v, DrGoal *g, int *limit_line) {
  if (*limit_line) return fail(w, "a second max-preemptions (the first is at line %d)", *limit_line);
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (!*v || *end || errno || n < 0 || n > 1000 || *v == '+' || *v == '-')
    return fail(w, "max-preemptions takes a number 0..1000, not '%s'", v);
  g->max_preemptions = (int)n;
  *limit_line = w->line;
  return true;
}

static void add_hint(DrGoal *g, const char *v) {
  char *h = g->hint ? dr_fmt("%s\n%s", g->hint, v) : dr_strdup(v);
  free(g->hint);
  g->hint = h;
}

/* One line: "// key: value" does something; any other line nothing. */
static bool parse_line(const Where *w, char *line, DrGoal *g, int *limit_line) {
  char *s = line + strspn(line, " \t");
  if (strncmp(s, "//", 2) != 0) return true;
  s += 2 + strspn(s + 2, " \t");
  for (int k = 0; k < KEY__COUNT; k++) {
    size_t n = strlen(key_words[k]);
    if (strncmp(s, key_words[k], n) != 0 || s[n] != ':') continue;
    char *v = s + n + 1;
    v += strspn(v, " \t");
    size_t len = strlen(v);
    while (len && (v[len - 1] == ' ' || v[len - 1] == '\t' || v[len - 1] == '\r')) v[--len] = 0;
    if (k == KEY_GOAL) return parse_goal(w, v, g);
    if (k == KEY_LIMIT) return parse_limit(w, v, g, limit_line);
    add_hint(g, v);
    return true;
  }
  return true;
}

bool dr_goal_parse(const char *path, const char *text, size_t len, DrGoal *g, char *err, size_t errsize) {
  memset(g, 0, sizeof *g);
  g->max_preemptions = -1;
  Where w = {path, 0, err, errsize};
  int limit_line = 0;
  bool ok = true;
  for (size_t i = 0; i < len && ok;) {
    size_t n = 0;
    while (i + n < len && text[i + n] != '\n') n++;
    char *line = dr_strndup(text + i, n);
    w.line++;
    ok = parse_line(&w, line, g, &limit_line);
    free(line);
    i += n + 1;
  }
  if (ok && !g->present && limit_line) {
    w.line = limit_line;
    ok = fail(&w, "max-preemptions without a goal (// goal: ...)");
  }
  if (!ok) dr_goal_free(g);
  return ok;
}

bool dr_goal_load(const char *path, DrGoal *g, bool *unreadable, char *err, size_t errsize) {
  size_t len;
  char *text = dr_read_file(path, &len);
  *unreadable = !text;
  if (!text) {
    memset(g, 0, sizeof *g);
    g->max_preemptions = -1;
    snprintf(err, errsize, "cannot read %s: %s", path, strerror(errno));
    return false;
  }
  bool ok = dr_goal_parse(path, text, len, g, err, errsize);
  free(text);
  return ok;
}

/* ------------------------------------------------------------ reaching it */

/* Whether one line of text (between newlines, the last one unfinished
 * or not) is exactly want. */
static bool has_line(const char *text, const char *want) {
  size_t n = strlen(want);
  for (const char *p = text; p && *p;) {
    size_t k = strcspn(p, "\n");
    if (k == n && !strncmp(p, want, n)) return true;
    p += k + (p[k] == '\n');
  }
  return false;
}

/* The class of an exception that escaped a thread, as the err stream
 * shows it: `Exception in thread "T" java.lang.AssertionError: msg`. */
static bool escaped(const char *err, const char *cls) {
  static const char head[] = "Exception in thread \"";
  for (const char *p = err ? strstr(err, head) : NULL; p; p = strstr(p + 1, head)) {
    if (p != err && p[-1] != '\n') continue;
    const char *q = strstr(p + sizeof head - 1, "\" ");
    if (!q) continue;
    q += 2;
    size_t n = strcspn(q, ":\n");
    const char *simple = q;
    for (size_t i = 0; i < n; i++)
      if (q[i] == '.') simple = q + i + 1;
    size_t sn = n - (size_t)(simple - q), c = strlen(cls);
    if ((n == c && !strncmp(q, cls, c)) || (sn == c && !strncmp(simple, cls, c))) return true;
  }
  return false;
}

bool dr_goal_race_matches(const DrGoal *g, const char *location) {
  if (g->kind != DR_GOAL_RACE || !location) return false;
  if (!strcmp(location, g->arg)) return true;
  /* Inner.field for Outer$Inner.field: the name a student sees in code */
  const char *inner = strrchr(location, '$');
  return inner && !strchr(g->arg, '$') && !strcmp(inner + 1, g->arg);
}

bool dr_goal_reached(const DrGoal *g, const DrGoalView *v) {
  switch (g->kind) {
  case DR_GOAL_DEADLOCK: return v->ended && v->outcome == DRVM_OUTCOME_DEADLOCK;
  case DR_GOAL_OUTPUT: return has_line(v->out, g->arg);
  case DR_GOAL_ASSERTION: return escaped(v->err, "java.lang.AssertionError");
  case DR_GOAL_EXCEPTION: return escaped(v->err, g->arg);
  case DR_GOAL_RACE:
    for (int i = 0; i < v->nraces; i++)
      if (dr_goal_race_matches(g, v->races[i])) return true;
    return false;
  default: return false;
  }
}
