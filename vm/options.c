/* "key=value" option text, parsed by typed specs. */
#include "options.h"
#include "buf.h"

#include <errno.h>
#include <string.h>

bool dr_opts_applies(const DrOptSpec *spec, const char *owner) {
  const char *list = spec->e.applies;
  if (!list) return true;
  size_t n = strlen(owner);
  for (const char *p = list; (p = strstr(p, owner)) != NULL; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
  return false;
}

static bool parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!*s || *s == '-' || *s == '+' || *s == ' ') return false;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) return false;
  *out = v;
  return true;
}

/* One value into its field; false with the message. */
static bool set_value(const DrOptSpec *sp, const char *v, void *base, DrStrPool *pool, char *err, size_t errsize) {
  char *field = (char *)base + sp->offset;
  uint64_t u;
  switch (sp->kind) {
  case DR_OPT_FLAG: *(bool *)field = true; return true;
  case DR_OPT_COUNT:
    if (!parse_u64(v, &u) || u == 0) break;
    *(uint64_t *)field = u;
    return true;
  case DR_OPT_U64:
    if (!parse_u64(v, &u)) break;
    *(uint64_t *)field = u;
    return true;
  case DR_OPT_INT:
    if (!parse_u64(v, &u) || (long long)u < sp->min || (long long)u > sp->max) {
      if (sp->what) snprintf(err, errsize, "%s takes %s, not '%s'", sp->e.name, sp->what, v);
      else snprintf(err, errsize, "%s takes %lld..%lld, not '%s'", sp->e.name, sp->min, sp->max, v);
      return false;
    }
    *(int *)field = (int)u;
    return true;
  case DR_OPT_PROB: {
    char *end;
    double p = strtod(v, &end);
    if (end == v || *end || !(p >= 0 && p <= 1)) {
      snprintf(err, errsize, "%s takes a probability 0..1, not '%s'", sp->e.name, v);
      return false;
    }
    *(double *)field = p;
    return true;
  }
  case DR_OPT_CHOICE: {
    /* a word of "a|b|c" names a setting, so a typo is an error, not a
     * silent default */
    size_t n = strlen(v);
    int index = 0;
    for (const char *w = sp->what; *v && w; index++) {
      const char *bar = strchr(w, '|');
      size_t len = bar ? (size_t)(bar - w) : strlen(w);
      if (len == n && !strncmp(w, v, n)) {
        *(int *)field = index + 1; /* 0 stays "not given", so the default is the scheduler's */
        return true;
      }
      w = bar ? bar + 1 : NULL;
    }
    DrBuf words = {0};
    dr_buf_append_choices(&words, sp->what ? sp->what : "", '|');
    dr_buf_append(&words, "", 1);
    snprintf(err, errsize, "%s takes %s, not '%s'", sp->e.name, words.data, v);
    free(words.data);
    return false;
  }
  case DR_OPT_STR:
    if (!*v) break;
    DR_PUSH(pool->items, pool->count, pool->cap, dr_strdup(v));
    *(const char **)field = pool->items[pool->count - 1];
    return true;
  }
  snprintf(err, errsize, "%s takes %s, not '%s'", sp->e.name,
           sp->what                    ? sp->what
           : sp->kind == DR_OPT_COUNT ? "a positive count"
           : sp->kind == DR_OPT_U64   ? "a number 0, 1, ..."
                                       : "a value",
           v);
  return false;
}

static void list_names(const DrOptSpec *specs, int n, const char *owner, char *out, size_t size) {
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < n && len + 2 < size; i++)
    if (dr_opts_applies(&specs[i], owner))
      len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "", specs[i].e.name);
}

/* One "key=value" (or "key" for a flag) item. */
static bool parse_item(const DrOptSpec *specs, int n, const char *owner, char *item, void *base, DrStrPool *pool,
                       char *err, size_t errsize) {
  char *eq = strchr(item, '=');
  if (eq) *eq = 0;
  const DrOptSpec *sp = NULL;
  for (int i = 0; i < n && !sp; i++)
    if (!strcmp(specs[i].e.name, item)) sp = &specs[i];
  char names[512];
  if (!sp) {
    list_names(specs, n, owner, names, sizeof names);
    snprintf(err, errsize, "unknown option '%s' for %s (its options: %s)", item, owner, names[0] ? names : "none");
    return false;
  }
  if (!dr_opts_applies(sp, owner)) {
    snprintf(err, errsize, "%s goes with %s, not %s", sp->e.name, sp->e.applies, owner);
    return false;
  }
  if ((sp->kind == DR_OPT_FLAG) != !eq) {
    snprintf(err, errsize, sp->kind == DR_OPT_FLAG ? "%s takes no value" : "%s needs a value (%s=...)", sp->e.name,
             sp->e.name);
    return false;
  }
  return set_value(sp, eq ? eq + 1 : "", base, pool, err, errsize);
}

bool dr_opts_parse(const DrOptSpec *specs, int n, const char *owner, const char *text, void *base, DrStrPool *pool,
                   char *err, size_t errsize) {
  if (!text) return true;
  char *item = dr_xrealloc(NULL, strlen(text) + 1);
  bool ok = true;
  for (const char *p = text; *p && ok;) {
    size_t len = 0;
    for (; *p && *p != ' ' && *p != ','; p++) {
      if (*p == '\\' && p[1]) p++; /* "\ " "\," "\\": a value with spaces or commas */
      item[len++] = *p;
    }
    item[len] = 0;
    if (*p) p++;
    if (len) ok = parse_item(specs, n, owner, item, base, pool, err, errsize);
  }
  free(item);
  return ok;
}

bool dr_opts_check(const DrOptSpec *specs, int n, const char *key, const char *value, char *err, size_t errsize) {
  const DrOptSpec *sp = NULL;
  for (int i = 0; i < n && !sp; i++)
    if (!strcmp(specs[i].e.name, key)) sp = &specs[i];
  if (!sp) {
    snprintf(err, errsize, "unknown option '%s'", key);
    return false;
  }
  if (sp->kind == DR_OPT_FLAG) return true;
  union {
    uint64_t u;
    int i;
    double d;
    const char *s;
  } scratch;
  DrStrPool pool = {0};
  DrOptSpec one = *sp;
  one.offset = 0;
  bool ok = set_value(&one, value ? value : "", &scratch, &pool, err, errsize);
  dr_str_pool_free(&pool);
  return ok;
}

void dr_entry_names(const DrvmEntry *(*entry)(int i), int n, char *out, size_t size) {
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < n && len + 2 < size; i++)
    len += (size_t)snprintf(out + len, size - len, "%s%s", i ? ", " : "", entry(i)->name);
}

void dr_str_pool_free(DrStrPool *p) {
  for (int i = 0; i < p->count; i++) free(p->items[i]);
  free(p->items);
  memset(p, 0, sizeof *p);
}
