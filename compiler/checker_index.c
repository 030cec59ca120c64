/* The checker's indexes by name, so that no lookup scans a list as long
 * as the program (issue 18: 200,000 methods, 70,000 locals):
 *
 *  - names: (owner, namespace, name) -> the symbol.  Top-level classes
 *    (the user's and the prelude's apart), member classes, fields and
 *    methods of each class.  A namespace holds the first symbol declared
 *    with a name, as the scans it replaces found; methods keep every
 *    overload, chained in declaration order (DrChkMethod.next_named).
 *  - the scope: each visible local's name -> its innermost entry of
 *    c->scope; scope_prev links an entry to the one with the same name it
 *    shadows, so leaving a block restores the outer one.
 * Entries are only ever added in declaration order, so every lookup
 * answers what the linear search over the same list answered, and the
 * errors (which depend on it) stay the same. */
#include <string.h>

#include "checker_internal.h"

/* ----------------------------------------------------------- names */

typedef struct {
  const DrChecker *c;
  const void *owner;
  DrChkNs ns;
  const char *name;
} NameKey;

static bool same_name(const void *key, int32_t val) {
  const NameKey *k = key;
  const DrChkName *e = &k->c->names[val];
  return e->owner == k->owner && e->ns == k->ns && strcmp(e->name, k->name) == 0;
}

static uint32_t name_hash(const void *owner, DrChkNs ns, const char *name) {
  return dr_hash_mix(dr_hash_str(name), (uint64_t)(uintptr_t)owner ^ (uint64_t)ns);
}

static DrChkName *name_entry(DrChecker *c, const void *owner, DrChkNs ns, const char *name, bool create) {
  NameKey key = {c, owner, ns, name};
  uint32_t h = name_hash(owner, ns, name);
  int32_t *v = dr_hidx_find(&c->name_idx, h, same_name, &key);
  if (v) return &c->names[*v];
  if (!create) return NULL;
  DrChkName e = {owner, ns, name, NULL, NULL};
  DR_ARENA_PUSH(c->arena, c->names, c->nnames, c->names_cap, e);
  dr_hidx_add(&c->name_idx, h, c->nnames - 1);
  return &c->names[c->nnames - 1];
}

void *chk_name_get(DrChecker *c, const void *owner, DrChkNs ns, const char *name) {
  DrChkName *e = name_entry(c, owner, ns, name, false);
  return e ? e->first : NULL;
}

void chk_name_put(DrChecker *c, const void *owner, DrChkNs ns, const char *name, void *sym) {
  DrChkName *e = name_entry(c, owner, ns, name, true);
  if (!e->first) e->first = e->last = sym;
}

void chk_index_method(DrChecker *c, DrMethodSym *m) {
  DrChkName *e = name_entry(c, m->owner, CHK_NS_METHOD, m->name, true);
  if (e->last)
    chk_method(e->last)->next_named = m;
  else
    e->first = m;
  e->last = m;
}

DrMethodSym *chk_methods_named(DrChecker *c, DrClassSym *k, const char *name) {
  return chk_name_get(c, k, CHK_NS_METHOD, name);
}

void chk_names_free(DrChecker *c) {
  dr_hidx_free(&c->name_idx);
  dr_hidx_free(&c->scope_idx);
}

/* ----------------------------------------------------------- scope */

typedef struct {
  const DrChecker *c;
  const char *name;
} ScopeKey;

static bool same_local(const void *key, int32_t val) {
  const ScopeKey *k = key;
  return strcmp(k->c->scope[val]->name, k->name) == 0;
}

DrLocalSym *chk_find_local(DrChecker *c, const char *name) {
  ScopeKey key = {c, name};
  int32_t *v = dr_hidx_find(&c->scope_idx, dr_hash_str(name), same_local, &key);
  /* entries below scope_base belong to code around the one being checked
   * (a field initializer checked while a method's locals are in scope) */
  return v && *v >= c->cur.scope_base ? c->scope[*v] : NULL;
}

void chk_scope_push(DrChecker *c, DrLocalSym *l) {
  ScopeKey key = {c, l->name};
  uint32_t h = dr_hash_str(l->name);
  int32_t *v = dr_hidx_find(&c->scope_idx, h, same_local, &key);
  int i = c->nscope, nprev = c->nscope;
  chk_local(l)->scope_idx = i;
  DR_ARENA_PUSH(c->arena, c->scope, c->nscope, c->scope_cap, l);
  DR_ARENA_PUSH(c->arena, c->scope_prev, nprev, c->scope_prev_cap, v ? *v : -1);
  if (v)
    *v = i;
  else
    dr_hidx_add(&c->scope_idx, h, i);
}

void chk_scope_pop(DrChecker *c, int to) {
  while (c->nscope > to) {
    int i = --c->nscope;
    uint32_t h = dr_hash_str(c->scope[i]->name);
    if (c->scope_prev[i] >= 0)
      *dr_hidx_slot(&c->scope_idx, h, i) = c->scope_prev[i];
    else
      dr_hidx_remove(&c->scope_idx, h, i);
  }
}
