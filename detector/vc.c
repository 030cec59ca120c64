/* Vector clocks: dense arrays indexed by thread id (see vc.h). */
#include <string.h>

#include "../vm/vm.h"
#include "vc.h"

void dr_mem_add(DrDetMem *m, size_t n) {
  m->bytes += n;
  if (m->total) *m->total += n;
  if (m->bytes > m->peak) m->peak = m->bytes;
}

void dr_mem_sub(DrDetMem *m, size_t n) {
  m->bytes -= n;
  if (m->total) *m->total -= n;
}

static void vc_reserve(DrVC *v, uint32_t n, DrDetMem *m) {
  if (n <= v->cap) return;
  uint32_t cap = v->cap ? v->cap : 4;
  while (cap < n) cap *= 2;
  v->c = dr_xrealloc(v->c, sizeof(uint32_t) * cap);
  dr_mem_add(m, sizeof(uint32_t) * (cap - v->cap));
  v->cap = cap;
}

static void vc_extend(DrVC *v, uint32_t n, DrDetMem *m) {
  if (n <= v->n) return;
  vc_reserve(v, n, m);
  memset(v->c + v->n, 0, sizeof(uint32_t) * (n - v->n));
  v->n = n;
}

void dr_vc_set(DrVC *v, uint32_t t, uint32_t clock, DrDetMem *m) {
  vc_extend(v, t + 1, m);
  v->c[t] = clock;
}

bool dr_vc_inc(DrVC *v, uint32_t t, DrDetMem *m) {
  vc_extend(v, t + 1, m);
  if (v->c[t] == UINT32_MAX) return false;
  v->c[t]++;
  return true;
}

void dr_vc_join(DrVC *a, const DrVC *b, DrDetMem *m) {
  vc_extend(a, b->n, m);
  for (uint32_t i = 0; i < b->n; i++)
    if (b->c[i] > a->c[i]) a->c[i] = b->c[i];
}

void dr_vc_copy(DrVC *a, const DrVC *b, DrDetMem *m) {
  vc_reserve(a, b->n, m);
  if (b->n) memcpy(a->c, b->c, sizeof(uint32_t) * b->n);
  a->n = b->n;
}

bool dr_vc_leq(const DrVC *a, const DrVC *b, uint32_t *who) {
  for (uint32_t i = 0; i < a->n; i++)
    if (a->c[i] > dr_vc_get(b, i)) {
      if (who) *who = i;
      return false;
    }
  return true;
}

void dr_vc_free(DrVC *v, DrDetMem *m) {
  dr_mem_sub(m, sizeof(uint32_t) * v->cap);
  free(v->c);
  v->c = NULL;
  v->n = v->cap = 0;
}

DrVC *dr_vc_new(DrDetMem *m) {
  DrVC *v = dr_xcalloc(1, sizeof *v);
  dr_mem_add(m, sizeof *v);
  m->vcs_allocated++;
  return v;
}

void dr_vc_delete(DrVC *v, DrDetMem *m) {
  if (!v) return;
  dr_vc_free(v, m);
  dr_mem_sub(m, sizeof *v);
  free(v);
}
