/* Race detectors: listeners on the VM's event stream (vm/event.h) that
 * report data races.  The VM knows nothing of them; `drvm run` attaches
 * one with --detector NAME:
 *
 *   ft       FastTrack (Flanagan & Freund), rule by rule (ft.c)
 *   djit     DJIT+: read and write vector clocks, same-epoch fast paths
 *   basicvc  BasicVC: read and write vector clocks, full comparisons
 *   eraser   Eraser's lockset algorithm (imprecise: false alarms)
 *   hybrid   O'Callahan & Choi's hybrid: lockset + start/join/notify
 *            happens-before; reports potentially racing statement pairs
 *   wcp      FastTrack plus weak causal precedence (Kini et al.): also
 *            predicts the races another order of the run would show
 *   empty    receives every event and does nothing (the stream's cost)
 *   none     attaches nothing */
#ifndef DR_DETECTOR_H
#define DR_DETECTOR_H

#include "../vm/registry.h"

/* --filter's values, 1 + their index in the option's words */
enum { DR_FILTER_NONE = 1, DR_FILTER_TRADE = 2 };
/* --clocks's values, likewise (0: the default, accordion) */
enum { DR_CLOCKS_ACCORDION = 1, DR_CLOCKS_GROW = 2 };

typedef struct {
  const char *name;          /* a name of the registry (registry.c) */
  bool all_races;            /* every racing pair, not one report per field */
  bool stats;                /* --stats: rule counts, clocks, shadow memory */
  bool quiet;                /* print nothing: a host reads the races (drvm explore) */
  const char *json_path;     /* --report json=FILE, or NULL */
  const char *potential_path;/* hybrid, wcp: --potential-races FILE, or NULL */
  bool relaxed;              /* wcp: without rule (a), with a lockset test (wcp.c) */
  int filter;                /* DR_FILTER_*: 0 when not given */
  int clocks;                /* DR_CLOCKS_*: 0 when not given */
  const char *replay_cmd;    /* the command that reruns this run, for reports */
  uint64_t seed;
} DrDetectorOptions;


/* A new detector for vm, or NULL with a message in err for an unknown name
 * (or, for "none", NULL with err empty).  Its listener's finish prints the
 * summary and fills *result; it frees itself there. */
DrListener *dr_detector_new(DrVM *vm, const DrDetectorOptions *o, DrDetectorResult *result, char *err,
                            size_t errsize);

#endif
