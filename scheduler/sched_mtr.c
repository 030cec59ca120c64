/* May-trigger relations: the set, Algorithm 1's collection, the file. */
#include <errno.h>
#include <string.h>

#include "sched_mtr.h"
#include "../vm/natives.h"

static uint64_t key_of(const DrMethod *f, const DrClass *c) {
  return ((uint64_t)(uint32_t)(f->id + 1) << 32) | (uint32_t)(c->id + 1);
}

static uint64_t hash_key(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdu;
  return k ^ (k >> 33);
}

void dr_mtr_free(DrMtr *m) {
  free(m->keys);
  memset(m, 0, sizeof *m);
}

static bool insert(DrMtr *m, uint64_t k) {
  if ((m->count + 1) * 2 > m->cap) {
    DrMtr bigger = {dr_xcalloc((size_t)(m->cap ? m->cap * 2 : 64), sizeof(uint64_t)), m->cap ? m->cap * 2 : 64, 0};
    for (int i = 0; i < m->cap; i++)
      if (m->keys[i]) insert(&bigger, m->keys[i]);
    free(m->keys);
    *m = bigger;
  }
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = hash_key(k) & mask;; i = (i + 1) & mask) {
    if (m->keys[i] == k) return false;
    if (!m->keys[i]) {
      m->keys[i] = k;
      m->count++;
      return true;
    }
  }
}

bool dr_mtr_add(DrMtr *m, const DrMethod *f, const DrClass *c) { return insert(m, key_of(f, c)); }

bool dr_mtr_has(const DrMtr *m, const DrMethod *f, const DrClass *c) {
  if (!m->count) return false;
  uint64_t k = key_of(f, c);
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = hash_key(k) & mask; m->keys[i]; i = (i + 1) & mask)
    if (m->keys[i] == k) return true;
  return false;
}

static bool program_method(const DrMethod *f) {
  return !(f->flags & DR_M_NATIVE) && !(f->owner->flags & DR_CLS_BUILTIN);
}

void dr_mtr_collect(DrMtr *m, const DrThread *t, const DrClass *c, int depth) {
  for (int i = t->nframes - 1, n = 0; i >= 0 && n < depth; i--) {
    const DrMethod *f = t->frames[i].method;
    if (!program_method(f)) continue;
    dr_mtr_add(m, f, c);
    n++;
  }
}

/* The program's run() of class c, or NULL. */
static const DrMethod *program_run(const DrClass *c) {
  for (int i = 0; i < c->vtable_len; i++) {
    const DrMethod *m = c->vtable[i];
    if (m && !strcmp(m->desc, "run()") && program_method(m)) return m;
  }
  return NULL;
}

/* A thread with no program frame yet (started, or stopped in the built-in
 * Thread.run()) is about to run its run(): a Thread subclass's own, or
 * its Runnable's.  Without this, a thread made from a Runnable could
 * never be a candidate before it runs, while a subclass could. */
static const DrMethod *run_of(const DrThread *t) {
  DrObj *th = t->jthread;
  if (!th) return NULL;
  const DrMethod *m = program_run(th->cls);
  if (m) return m;
  const DrObj *target = dr_field(th, "target")->ref;
  return target ? program_run(target->cls) : NULL;
}

const DrMethod *dr_mtr_current(const DrThread *t) {
  for (int i = t->nframes - 1; i >= 0; i--)
    if (program_method(t->frames[i].method)) return t->frames[i].method;
  return run_of(t);
}

/* "Owner.desc" of method f, into buf */
static void method_text(const DrMethod *f, DrBuf *b) {
  b->len = 0;
  dr_buf_append_str(b, f->owner->name);
  dr_buf_append_str(b, ".");
  dr_buf_append_str(b, f->desc);
  dr_buf_append(b, "", 1);
}

bool dr_mtr_load(DrMtr *m, DrVM *vm, const char *path, int *unknown, char *err, size_t errsize) {
  size_t len;
  char *text = dr_read_file(path, &len);
  if (!text) {
    snprintf(err, errsize, "--mtr-in %s: %s", path, strerror(errno));
    return false;
  }
  /* names of the program's methods, to resolve the file's by text */
  char **names = dr_xcalloc((size_t)vm->nmethods + 1, sizeof *names);
  DrBuf b = {0};
  for (int i = 0; i < vm->nmethods; i++) {
    method_text(vm->methods[i], &b);
    names[i] = dr_strdup(b.data);
  }
  free(b.data);
  bool ok = true;
  *unknown = 0;
  int lineno = 0;
  for (char *line = text; ok && line < text + len;) {
    char *end = memchr(line, '\n', (size_t)(text + len - line));
    if (!end) end = text + len;
    *end = 0;
    lineno++;
    if (end > line && end[-1] == '\r') end[-1] = 0;
    if (*line && *line != '#') {
      char *tab = strchr(line, '\t');
      if (!tab || tab == line || !tab[1] || strchr(tab + 1, '\t')) {
        snprintf(err, errsize, "--mtr-in %s:%d: expected 'method<TAB>lock class', not '%.80s'", path, lineno, line);
        ok = false;
        break;
      }
      *tab = 0;
      const DrMethod *f = NULL;
      const DrClass *c = NULL;
      for (int i = 0; i < vm->nmethods && !f; i++)
        if (!strcmp(names[i], line)) f = vm->methods[i];
      for (int i = 0; i < vm->nclasses && !c; i++)
        if (!strcmp(vm->classes[i]->name, tab + 1)) c = vm->classes[i];
      if (f && c) dr_mtr_add(m, f, c);
      else (*unknown)++;
    }
    line = end + 1;
  }
  for (int i = 0; i < vm->nmethods; i++) free(names[i]);
  free(names);
  free(text);
  return ok;
}

typedef struct {
  char *method;
  const char *cls;
} Line;

static int cmp_line(const void *a, const void *b) {
  const Line *x = a, *y = b;
  int d = strcmp(x->method, y->method);
  return d ? d : strcmp(x->cls, y->cls);
}

bool dr_mtr_save(const DrMtr *m, DrVM *vm, const char *path, char *err, size_t errsize) {
  Line *lines = dr_xcalloc((size_t)m->count + 1, sizeof *lines);
  int n = 0;
  DrBuf b = {0};
  for (int i = 0; i < m->cap; i++) {
    uint64_t k = m->keys[i];
    if (!k) continue;
    method_text(vm->methods[(k >> 32) - 1], &b);
    lines[n].method = dr_strdup(b.data);
    lines[n].cls = vm->classes[(k & 0xffffffffu) - 1]->name;
    n++;
  }
  free(b.data);
  qsort(lines, (size_t)n, sizeof *lines, cmp_line);
  FILE *f = fopen(path, "w");
  bool ok = f != NULL;
  if (f) {
    fprintf(f, "# drvm may-trigger relations (DrFinder): method<TAB>lock class; %d relation%s from a run of %s\n", n,
            n == 1 ? "" : "s", vm->source_name ? vm->source_name : "?");
    for (int i = 0; i < n; i++) fprintf(f, "%s\t%s\n", lines[i].method, lines[i].cls);
    ok = fclose(f) == 0;
  }
  if (!ok) snprintf(err, errsize, "--mtr-out %s: cannot write: %s", path, strerror(errno));
  for (int i = 0; i < n; i++) free(lines[i].method);
  free(lines);
  return ok;
}
