/* `drvm hunt`'s predict technique (hunt_predict.c): runs observed under
 * the WCP detector, whose predicted races the next runs confirm with
 * RaceFuzzer steering on the predicted pair, under FastTrack. */
#ifndef DR_HUNT_PREDICT_H
#define DR_HUNT_PREDICT_H

#include "hunt_run.h"

typedef struct DrHuntPredict DrHuntPredict;

/* The chain of technique ti's runs, whose job for run r is jobs[base + r - 1]. */
DrHuntPredict *dr_hunt_predict_new(DrHunt *h, int ti, int base);
void dr_hunt_predict_free(DrHuntPredict *p);
/* Sets up run r's job: what it runs is decided when it starts, from what
 * the runs before it predicted and confirmed. */
void dr_hunt_predict_job(DrHuntPredict *p, DrHuntJob *job, int r);

#endif
