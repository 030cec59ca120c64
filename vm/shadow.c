/* Per-object state of the listeners that keep some (detectors' shadows).
 *
 * The common case is one detector: DrObj.shadow is then its state itself,
 * so the interpreter's inline check (vm.h's DrFastCheck) finds it with
 * one load.  When a second user comes, every object's state moves into a
 * DrShadowSet, one pointer per user; the inline check is off while that
 * is so (sched_point.c), and the set goes once only one user is left. */
#include <stdlib.h>

#include "vm.h"

typedef struct {
  void *state[DR_SHADOW_USERS];
} DrShadowSet;

/* every object's state into a set (to_multi) or back out of it */
static void convert(DrVM *vm, bool to_multi, int solo) {
  for (DrObj *o = vm->objects; o; o = o->gc_next) {
    if (!o->shadow) continue;
    if (to_multi) {
      DrShadowSet *set = dr_xcalloc(1, sizeof *set);
      set->state[solo] = o->shadow;
      o->shadow = set;
    } else {
      DrShadowSet *set = o->shadow;
      o->shadow = set->state[solo];
      free(set);
    }
  }
  vm->shadow_multi = to_multi;
}

int dr_shadow_add(DrVM *vm, const DrShadowUser *u) {
  int i = 0;
  while (i < DR_SHADOW_USERS && vm->shadow_users[i].used) i++;
  if (i == DR_SHADOW_USERS) return -1;
  vm->shadow_users[i] = *u;
  vm->shadow_users[i].used = true;
  if (++vm->nshadow_users == 1) vm->shadow_solo = i;
  else if (!vm->shadow_multi) convert(vm, true, vm->shadow_solo);
  if (vm->shadow_multi) vm->fast.on = false;
  return i;
}

void dr_shadow_remove(DrVM *vm, int user) {
  if (user < 0 || !vm->shadow_users[user].used) return;
  vm->shadow_users[user] = (DrShadowUser){0};
  if (--vm->nshadow_users != 1 || !vm->shadow_multi) return;
  int solo = 0;
  while (!vm->shadow_users[solo].used) solo++;
  vm->shadow_solo = solo;
  convert(vm, false, solo);
}

void dr_shadow_set(DrVM *vm, DrObj *o, int user, void *state) {
  if (!vm->shadow_multi) {
    o->shadow = state;
    return;
  }
  if (!o->shadow) {
    if (!state) return;
    o->shadow = dr_xcalloc(1, sizeof(DrShadowSet));
  }
  ((DrShadowSet *)o->shadow)->state[user] = state;
}

void dr_shadow_release(DrVM *vm, DrObj *o) {
  if (!vm->shadow_multi) {
    const DrShadowUser *u = &vm->shadow_users[vm->shadow_solo];
    if (u->used && u->free) u->free(u->ctx, o->shadow);
  } else {
    DrShadowSet *set = o->shadow;
    for (int i = 0; i < DR_SHADOW_USERS; i++)
      if (set->state[i] && vm->shadow_users[i].used && vm->shadow_users[i].free)
        vm->shadow_users[i].free(vm->shadow_users[i].ctx, set->state[i]);
    free(set);
  }
  o->shadow = NULL;
}

void dr_shadow_gc_end(DrVM *vm) {
  for (int i = 0; i < DR_SHADOW_USERS; i++)
    if (vm->shadow_users[i].used && vm->shadow_users[i].gc_end) vm->shadow_users[i].gc_end(vm->shadow_users[i].ctx);
}
