/* include/drvm.h: systematic exploration.  The engine (a scheduler and
 * a listener per execution, scheduler/explore.c) decides each
 * execution's interleaving; here the VM is reset, set up and run once per
 * execution, the same program compiled once. */
#include <string.h>

#include "api.h"

const char *drvm_por_word(DrvmPor por) {
  static const char *const words[] = {
#define DR_POR_WORD(name, word, help) word,
      DRVM_POR_MODES(DR_POR_WORD)
#undef DR_POR_WORD
  };
  return (unsigned)por < DRVM_POR__COUNT ? words[por] : "?";
}

void drvm_explore_config_init(DrvmExploreConfig *c) {
  memset(c, 0, sizeof *c);
  c->por = DRVM_POR_OPTIMAL;
  c->preemptions = -1;
}

bool drvm_explore(DrVM *vm, const DrvmExploreConfig *c) {
  if (!dr_api_check(vm, "drvm_explore", DR_API_COMPILED, DR_API_COMPILED)) return false;
  DrApi *a = vm->api;
  if (a->explorer) return dr_api_fail(vm, "drvm_explore: this VM explores already");
  if ((unsigned)c->por >= DRVM_POR__COUNT) return dr_api_fail(vm, "drvm_explore: no such reduction (%d)", (int)c->por);
  if (!dr_reg_det_check(c->detector ? c->detector : "ft", c->detector_options, &a->pool, a->err, sizeof a->err))
    return false;
  const DrSchedAnswer *prefix = NULL;
  int nprefix = 0;
  if (c->prefix_from) {
    DrApi *fa = c->prefix_from->api;
    if (fa->state < DR_API_STARTED || !fa->recorder)
      return dr_api_fail(vm, "drvm_explore: the prefix's VM has no recording (drvm_record before its start)");
    if (fa->program_hash != a->program_hash) return dr_api_fail(vm, "drvm_explore: the VMs run other programs");
    nprefix = dr_sched_record_log(fa->recorder, &prefix);
    a->seed = c->prefix_from->seed;
  }
  a->explore = *c;
  /* the races are read, not printed: a report would be output, which
   * is part of an outcome and orders the steps that print */
  a->explore.detector = dr_strdup(c->detector ? c->detector : "ft");
  a->explore.detector_options = strcmp(a->explore.detector, "none") == 0
                                    ? NULL
                                    : dr_fmt("quiet %s", c->detector_options ? c->detector_options : "");
  a->explore.prefix_from = NULL;
  a->explorer = dr_explore_new(c, a->spurious, prefix, nprefix);
  return true;
}

void dr_api_explore_free(DrApi *a) {
  if (!a->explorer) return;
  dr_explore_free(a->explorer);
  free((char *)a->explore.detector);
  free((char *)a->explore.detector_options);
  a->explorer = NULL;
}

int drvm_explore_next(DrVM *vm, int argc, const char *const *argv) {
  DrApi *a = vm->api;
  if (!a->explorer) {
    dr_api_fail(vm, "drvm_explore_next: call drvm_explore first");
    return -1;
  }
  if (a->state > DR_API_COMPILED && !drvm_reset(vm)) return -1;
  DrScheduler *s;
  DrListener *l;
  if (!dr_explore_begin(a->explorer, &s, &l)) return 0;
  if (a->core) a->core->destroy(a->core);
  a->core = s;
  a->run_seed = a->given_seed = a->seed;
  if (!drvm_set_detector(vm, a->explore.detector, a->explore.detector_options) ||
      (a->explore.record && !drvm_record(vm, NULL)) || !drvm_start(vm, argc, argv)) {
    l->finish(l, vm);
    return -1;
  }
  dr_add_listener(vm, l);
  dr_listeners_changed(vm);
  if (!drvm_run_to_end(vm)) return -1;
  dr_explore_end(a->explorer, vm);
  return 1;
}

bool drvm_explore_stats(const DrVM *vm, DrvmExploreStats *s) {
  const DrApi *a = vm->api;
  if (!a->explorer) return false;
  dr_explore_stats(a->explorer, s);
  return true;
}

uint64_t drvm_explore_fingerprint(const DrVM *vm) {
  const DrApi *a = vm->api;
  return a->explorer ? dr_explore_fingerprint(a->explorer) : 0;
}
