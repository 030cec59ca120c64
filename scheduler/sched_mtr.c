/* May-trigger relations: the set, Algorithm 1's collection, the file. */
#include <errno.h>
#include <string.h>

#include "sched_mtr.h"
#include "../vm/natives.h"
#include "../vm/opcodes.h"

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
  free(m->first);
  memset(m, 0, sizeof *m);
}

static bool insert(DrMtr *m, uint64_t k, uint64_t first) {
  if ((m->count + 1) * 2 > m->cap) {
    int cap = m->cap ? m->cap * 2 : 64;
    DrMtr bigger = {dr_xcalloc((size_t)cap, sizeof(uint64_t)), dr_xcalloc((size_t)cap, sizeof(uint64_t)), cap, 0};
    for (int i = 0; i < m->cap; i++)
      if (m->keys[i]) insert(&bigger, m->keys[i], m->first[i]);
    free(m->keys);
    free(m->first);
    *m = bigger;
  }
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = hash_key(k) & mask;; i = (i + 1) & mask) {
    if (m->keys[i] == k) {
      /* the earliest acquisition wins: a file's lines may come in any order */
      if (first && (!m->first[i] || first < m->first[i])) m->first[i] = first;
      return false;
    }
    if (!m->keys[i]) {
      m->keys[i] = k;
      m->first[i] = first;
      m->count++;
      return true;
    }
  }
}

bool dr_mtr_add(DrMtr *m, const DrMethod *f, const DrClass *c) { return insert(m, key_of(f, c), 0); }

bool dr_mtr_add_at(DrMtr *m, const DrMethod *f, const DrClass *c, uint64_t first) {
  return insert(m, key_of(f, c), first);
}

/* The slot of mt(f, c), or -1. */
static int slot_of(const DrMtr *m, const DrMethod *f, const DrClass *c) {
  if (!m->count) return -1;
  uint64_t k = key_of(f, c);
  size_t mask = (size_t)m->cap - 1;
  for (size_t i = hash_key(k) & mask; m->keys[i]; i = (i + 1) & mask)
    if (m->keys[i] == k) return (int)i;
  return -1;
}

bool dr_mtr_has(const DrMtr *m, const DrMethod *f, const DrClass *c) { return slot_of(m, f, c) >= 0; }

uint64_t dr_mtr_first(const DrMtr *m, const DrMethod *f, const DrClass *c) {
  int i = slot_of(m, f, c);
  return i < 0 ? 0 : m->first[i];
}

static bool program_method(const DrMethod *f) {
  return !(f->flags & DR_M_NATIVE) && !(f->owner->flags & DR_CLS_BUILTIN);
}

void dr_mtr_collect(DrMtr *m, const DrThread *t, const DrClass *c, int depth, uint64_t when) {
  for (int i = t->nframes - 1, n = 0; i >= 0 && n < depth; i--) {
    const DrMethod *f = t->frames[i].method;
    if (!program_method(f)) continue;
    dr_mtr_add_at(m, f, c, when);
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

/* --- what is ahead of a thread (--candidates able) --- */

static bool method_acquires(DrMtrAhead *a, const DrMtr *m, const DrMethod *f) {
  if (!a->acquires[f->id]) {
    bool yes = (f->flags & DR_M_SYNCHRONIZED) && program_method(f);
    for (int i = 0; i < m->cap && !yes; i++) /* any class: the set has no index by method */
      yes = m->keys[i] && (int)(m->keys[i] >> 32) - 1 == f->id;
    a->acquires[f->id] = yes ? 1 : 2;
  }
  return a->acquires[f->id] == 1;
}

/* Whether the instruction at code[0] may acquire: a monitorenter, or a
 * call that may reach a synchronized method or one with a relation. */
static bool may_acquire(DrMtrAhead *a, const DrMtr *m, const DrVM *vm, const uint32_t *code) {
  if (code[0] == DR_OP_MONITORENTER) return true;
  if (!(dr_op_info[code[0]].flags & DR_OPF_CALL)) return false;
  const char *fmt = dr_op_info[code[0]].format;
  int k = 1;
  for (; *fmt && *fmt != 'm'; fmt++) k++; /* the operands before the method are one word each ("rma") */
  if (!*fmt) return false;
  const DrMethod *f = vm->methods[code[k]];
  if (method_acquires(a, m, f)) return true;
  if (code[0] != DR_OP_INVOKEVIRTUAL && code[0] != DR_OP_INVOKEINTERFACE) return false;
  for (int i = 0; i < vm->nmethods; i++) /* an override runs instead */
    if (vm->methods[i] != f && !strcmp(vm->methods[i]->desc, f->desc) && method_acquires(a, m, vm->methods[i]))
      return true;
  return false;
}

/* Whether a successor of the instruction at pc is in set: the next
 * instruction, a jump target, an exception handler covering pc. */
static bool any_successor(const DrMethod *f, uint32_t pc, const uint8_t *set) {
  const uint32_t *code = f->code + pc;
  unsigned flags = dr_op_info[code[0]].flags;
  int len = dr_op_length(code);
  if (!(flags & DR_OPF_END) && pc + (uint32_t)len < (uint32_t)f->code_len && set[pc + (uint32_t)len]) return true;
  if (flags & DR_OPF_BRANCH) {
    int k = 1;
    for (const char *fmt = dr_op_info[code[0]].format; *fmt; fmt++) {
      if (*fmt == 'j' && set[pc + code[k]]) return true;
      if (*fmt == 'S') {
        for (uint32_t e = 0; e < code[k]; e++)
          if (set[pc + code[k + 2 + 2 * e]]) return true;
        k += 1 + 2 * (int)code[k];
        continue;
      }
      k += *fmt == 'J' ? 2 : *fmt == 'a' ? 1 + (int)code[k] : *fmt == 'p' ? 1 + 2 * (int)code[k] : 1;
    }
  }
  for (int h = 0; h < f->nhandlers; h++)
    if (pc >= f->handlers[h].start && pc < f->handlers[h].end && set[f->handlers[h].handler]) return true;
  return false;
}

static const uint8_t *ahead_of(DrMtrAhead *a, const DrMtr *m, const DrVM *vm, const DrMethod *f) {
  if (a->n < vm->nmethods) {
    a->ahead = dr_xrealloc(a->ahead, sizeof *a->ahead * (size_t)vm->nmethods);
    a->acquires = dr_xrealloc(a->acquires, (size_t)vm->nmethods);
    memset(a->ahead + a->n, 0, sizeof *a->ahead * (size_t)(vm->nmethods - a->n));
    memset(a->acquires + a->n, 0, (size_t)(vm->nmethods - a->n));
    a->n = vm->nmethods;
  }
  if (a->ahead[f->id]) return a->ahead[f->id];
  uint8_t *set = dr_xcalloc((size_t)f->code_len + 1, 1);
  uint32_t *starts = dr_xcalloc((size_t)f->code_len + 1, sizeof *starts), nstarts = 0;
  for (uint32_t pc = 0; pc < (uint32_t)f->code_len; pc += (uint32_t)dr_op_length(f->code + pc)) {
    starts[nstarts++] = pc;
    set[pc] = may_acquire(a, m, vm, f->code + pc);
  }
  /* backward to a fixed point: a loop's back edge needs another pass */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = nstarts; i-- > 0;)
      if (!set[starts[i]] && any_successor(f, starts[i], set)) set[starts[i]] = changed = true;
  }
  free(starts);
  a->ahead[f->id] = set;
  return set;
}

bool dr_mtr_ahead(DrMtrAhead *a, const DrMtr *m, const DrVM *vm, const DrThread *t) {
  bool any_program = false;
  for (int i = t->nframes - 1; i >= 0; i--) {
    const DrFrame *fr = &t->frames[i];
    if (!program_method(fr->method) || !fr->ip) continue;
    any_program = true;
    uint32_t pc = (uint32_t)(fr->ip - fr->method->code);
    const uint8_t *set = ahead_of(a, m, vm, fr->method);
    /* the innermost frame stands at its next instruction; a caller at the
     * call in progress, and goes on after it */
    if (i == t->nframes - 1 ? set[pc] : any_successor(fr->method, pc, set)) return true;
  }
  if (any_program) return false;
  const DrMethod *run = run_of(t); /* not started yet */
  return run && ahead_of(a, m, vm, run)[0];
}

void dr_mtr_ahead_free(DrMtrAhead *a) {
  for (int i = 0; i < a->n; i++) free(a->ahead[i]);
  free(a->ahead);
  free(a->acquires);
  memset(a, 0, sizeof *a);
}

/* "Owner.desc" of method f, into buf */
static void method_text(const DrMethod *f, DrBuf *b) {
  b->len = 0;
  dr_buf_append_str(b, f->owner->name);
  dr_buf_append_str(b, ".");
  dr_buf_append_str(b, f->desc);
  dr_buf_append(b, "", 1);
}

/* The file's text (NUL-terminated at len, split into lines in place). */
static bool parse_lines(DrMtr *m, DrVM *vm, char *text, size_t len, const char *path, int *unknown, char *err,
                        size_t errsize) {
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
      char *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
      uint64_t first = 0;
      if (tab2) {
        char *after;
        errno = 0;
        first = tab2[1] >= '0' && tab2[1] <= '9' ? strtoull(tab2 + 1, &after, 10) : 0;
        if (!first || errno || *after) tab = NULL; /* malformed */
      }
      if (!tab || tab == line || !tab[1] || tab2 == tab + 1) {
        DrBuf shown = {0};
        dr_buf_append_shown(&shown, line, 80);
        snprintf(err, errsize,
                 "--mtr-in %s:%d: expected 'method<TAB>lock class' (optionally <TAB>N, the first acquisition), "
                 "not '%s'",
                 path, lineno, shown.data ? shown.data : "");
        free(shown.data);
        ok = false;
        break;
      }
      *tab = 0;
      if (tab2) *tab2 = 0;
      const DrMethod *f = NULL;
      const DrClass *c = NULL;
      for (int i = 0; i < vm->nmethods && !f; i++)
        if (!strcmp(names[i], line)) f = vm->methods[i];
      for (int i = 0; i < vm->nclasses && !c; i++)
        if (!strcmp(vm->classes[i]->name, tab + 1)) c = vm->classes[i];
      if (f && c) dr_mtr_add_at(m, f, c, first);
      else (*unknown)++;
    }
    line = end + 1;
  }
  for (int i = 0; i < vm->nmethods; i++) free(names[i]);
  free(names);
  return ok;
}

bool dr_mtr_load(DrMtr *m, DrVM *vm, const char *path, int *unknown, char *err, size_t errsize) {
  size_t len;
  char *text = dr_read_file(path, &len);
  if (!text) {
    snprintf(err, errsize, "--mtr-in %s: %s", path, strerror(errno));
    return false;
  }
  bool ok = parse_lines(m, vm, text, len, path, unknown, err, errsize);
  free(text);
  return ok;
}

bool dr_mtr_parse(DrMtr *m, DrVM *vm, const char *text, size_t len, const char *path, int *unknown, char *err,
                  size_t errsize) {
  char *copy = dr_xmalloc(len + 1); /* parse_lines splits it in place */
  memcpy(copy, text, len);
  copy[len] = 0;
  bool ok = parse_lines(m, vm, copy, len, path, unknown, err, errsize);
  free(copy);
  return ok;
}

typedef struct {
  char *method;
  const char *cls;
  uint64_t first;
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
    lines[n].first = m->first[i];
    n++;
  }
  free(b.data);
  qsort(lines, (size_t)n, sizeof *lines, cmp_line);
  FILE *f = fopen(path, "w");
  bool ok = f != NULL;
  if (f) {
    fprintf(f,
            "# drvm may-trigger relations (DrFinder): method<TAB>lock class<TAB>first acquisition; %d relation%s "
            "from a run of %s\n",
            n, n == 1 ? "" : "s", vm->source_name ? vm->source_name : "?");
    for (int i = 0; i < n; i++) {
      fprintf(f, "%s\t%s", lines[i].method, lines[i].cls);
      if (lines[i].first) fprintf(f, "\t%llu", (unsigned long long)lines[i].first);
      fprintf(f, "\n");
    }
    ok = fclose(f) == 0;
  }
  if (!ok) snprintf(err, errsize, "--mtr-out %s: cannot write: %s", path, strerror(errno));
  for (int i = 0; i < n; i++) free(lines[i].method);
  free(lines);
  return ok;
}
