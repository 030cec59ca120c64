/* RaceFuzzer (Sen, PLDI'08): being written; see issue 6. */
#include "sched.h"

DrScheduler *dr_sched_racefuzzer_create(const DrSchedOptions *opt) {
  (void)opt;
  return NULL;
}
