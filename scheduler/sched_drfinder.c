/* DrFinder (Cai & Cao, FSE'15): being written; see issue 6. */
#include "sched.h"

DrScheduler *dr_sched_drfinder_create(const DrSchedOptions *opt) {
  (void)opt;
  return NULL;
}
