/* The detector registry: every race detector drvm has and the options
 * they take, one table each.  Help texts, option parsing and rerun
 * commands are made from these rows. */
#include <stddef.h>
#include <string.h>

#include "../vm/registry.h"
#include "det.h"
#include "detector.h"

/* X(name, ops (NULL: built in det_core.c), help) */
#define DR_DETECTORS(X)                                                                               \
  X("ft", &dr_ft_ops, "FastTrack (default): precise, no false alarms")                                \
  X("djit", &dr_djit_ops, "DJIT+ vector clocks (same races as ft, slower)")                           \
  X("basicvc", &dr_basicvc_ops, "plain vector clocks (same races, slowest)")                          \
  X("eraser", &dr_eraser_ops, "Eraser locksets (false alarms on hand-offs)")                          \
  X("hybrid", &dr_hybrid_ops, "locksets + start/join/notify order: potential races")                  \
  X("wcp", &dr_wcp_ops, "FastTrack plus WCP prediction: races another order would show")              \
  X("empty", NULL, "receives every event, does nothing")                                              \
  X("none", NULL, "no detector")

static const DrvmEntry entries[] = {
#define DR_DET_ENTRY(name, ops, help) {name, NULL, help, NULL, false},
    DR_DETECTORS(DR_DET_ENTRY)
#undef DR_DET_ENTRY
};

static const DrDetOps *const all_ops[] = {
#define DR_DET_OPS(name, ops, help) ops,
    DR_DETECTORS(DR_DET_OPS)
#undef DR_DET_OPS
};

#define OFF(field) offsetof(DrDetectorOptions, field)
/* X(name, arg, kind, field, what (DR_OPT_CHOICE: the values "a|b"), applies, rerun, help) */
#define DR_DET_OPTIONS(X)                                                                             \
  X("all-races", NULL, DR_OPT_FLAG, OFF(all_races), NULL, NULL, false,                                      \
    "report every racing pair (default: one report per field or per array access site)")             \
  X("stats", NULL, DR_OPT_FLAG, OFF(stats), NULL, NULL, false,                                              \
    "print the detector's rule counts, clocks and memory at the end")                                \
  X("quiet", NULL, DR_OPT_FLAG, OFF(quiet), NULL, NULL, false,                                              \
    "print no report: the host reads the races (drvm_race), as drvm explore does")                   \
  X("json", "FILE", DR_OPT_STR, OFF(json_path), NULL, NULL, false, "write the races as JSON (a stable id per race)") \
  X("potential-races", "FILE", DR_OPT_STR, OFF(potential_path), NULL, "hybrid wcp", false,                  \
    "write the potentially racing (hybrid) or predicted (wcp) statement pairs (RaceFuzzer's input)")   \
  X("relaxed", NULL, DR_OPT_FLAG, OFF(relaxed), NULL, "wcp", true,                                          \
    "predict also behind critical sections that touch the same data (drops WCP's rule (a); a steered run confirms)") \
  X("filter", "WHICH", DR_OPT_CHOICE, OFF(filter), "none|trade", "ft djit basicvc eraser hybrid", true,         \
    "trade: accesses to objects only one thread can reach skip the detector (TRaDe), same races")             \
  X("clocks", "WHICH", DR_OPT_CHOICE, OFF(clocks), "accordion|grow", "ft djit basicvc", true,                   \
    "accordion (default): an ended thread's clock slot goes to a new thread once no location refers to it "   \
    "(TRaDe), same races; grow: one slot per thread ever started")

static const DrOptSpec options[] = {
#define DR_DET_OPTION(name, arg, kind, off, what, applies, rerun, help) {{name, arg, help, applies, rerun}, kind, off, 0, 0, what},
    DR_DET_OPTIONS(DR_DET_OPTION)
#undef DR_DET_OPTION
};

int dr_reg_det_count(void) { return (int)DR_ARRAY_LEN(entries); }
const DrvmEntry *dr_reg_det_entry(int i) { return i >= 0 && i < dr_reg_det_count() ? &entries[i] : NULL; }
int dr_reg_det_option_count(void) { return (int)DR_ARRAY_LEN(options); }
const DrvmEntry *dr_reg_det_option(int i) { return i >= 0 && i < dr_reg_det_option_count() ? &options[i].e : NULL; }

const DrDetOps *dr_det_ops(const char *name) {
  for (int i = 0; i < dr_reg_det_count(); i++)
    if (!strcmp(entries[i].name, name)) return all_ops[i];
  return NULL;
}

void dr_det_names(char *out, size_t size) { dr_entry_names(dr_reg_det_entry, dr_reg_det_count(), out, size); }

static bool known(const char *name) {
  for (int i = 0; i < dr_reg_det_count(); i++)
    if (!strcmp(entries[i].name, name)) return true;
  return false;
}

bool dr_reg_det_check(const char *name, const char *text, DrStrPool *pool, char *err, size_t errsize) {
  if (!known(name)) {
    char list[256];
    dr_det_names(list, sizeof list);
    snprintf(err, errsize, "unknown detector '%s' (choose one of: %s)", name, list);
    return false;
  }
  DrDetectorOptions o = {.name = name};
  return dr_opts_parse(options, dr_reg_det_option_count(), name, text, &o, pool, err, errsize);
}

DrListener *dr_reg_det_new(DrVM *vm, const char *name, const char *text, uint64_t seed, const char *rerun,
                           DrDetectorResult *result, DrStrPool *pool, char *err, size_t errsize) {
  memset(result, 0, sizeof *result);
  err[0] = 0;
  if (!known(name)) {
    char list[256];
    dr_det_names(list, sizeof list);
    snprintf(err, errsize, "unknown detector '%s' (choose one of: %s)", name, list);
    return NULL;
  }
  DrDetectorOptions o = {.name = name, .replay_cmd = rerun, .seed = seed};
  if (!dr_opts_parse(options, dr_reg_det_option_count(), name, text, &o, pool, err, errsize)) return NULL;
  return dr_detector_new(vm, &o, result, err, errsize);
}

bool dr_reg_det_option_check(const char *key, const char *value, char *err, size_t errsize) {
  return dr_opts_check(options, dr_reg_det_option_count(), key, value, err, errsize);
}
