/* `drvm hunt`'s predict technique.  Its runs form a chain, each decided
 * when the one before it has ended:
 *   - an observed run: native scheduling (a new seed each time), the
 *     relaxed WCP detector, which reports the races this run shows and
 *     writes the pairs of statements it predicts another order would make
 *     race (predict-R.pairs);
 *   - a confirming run: RaceFuzzer steering on one predicted pair not yet
 *     confirmed (at most DR_PREDICT_TRIES runs each, in the order they
 *     were predicted), under FastTrack.
 * A prediction counts for nothing by itself: a race counts in the run
 * whose FastTrack (or WCP's own happens-before) report shows it, so every
 * race the technique reports has a run that replays to it, and the runs
 * spent confirming are counted in its budget like any other. */
#include <string.h>

#include "../vm/pairs.h"
#include "hunt_predict.h"

enum { DR_PREDICT_TRIES = 2 };

typedef struct {
  char *file;            /* the pairs file it came from */
  int number;            /* its pair number there (--pair) */
  int tries;
  bool done;             /* confirmed, or its location raced in some run */
} PPair;

struct DrHuntPredict {
  DrHunt *h;
  int ti, base;
  DrPairs known;         /* every pair predicted so far, each once */
  PPair *pairs;          /* parallel to known.items */
  int npairs, cap;
  int *confirming;       /* per run: the pair it confirms + 1, 0 for an observed run */
};

DrHuntPredict *dr_hunt_predict_new(DrHunt *h, int ti, int base) {
  DrHuntPredict *p = dr_hunt_calloc(1, sizeof *p);
  p->h = h;
  p->ti = ti;
  p->base = base;
  p->confirming = dr_hunt_calloc((size_t)h->c.runs + 1, sizeof *p->confirming);
  return p;
}

void dr_hunt_predict_free(DrHuntPredict *p) {
  if (!p) return;
  for (int i = 0; i < p->npairs; i++) free(p->pairs[i].file);
  free(p->pairs);
  dr_pairs_free(&p->known);
  free(p->confirming);
  free(p);
}

static char *run_file(DrHuntPredict *p, const char *suffix, int r) {
  char name[64];
  snprintf(name, sizeof name, "predict-%d%s", r, suffix);
  return dr_hunt_path(&p->h->c, name);
}

/* A location raced in run r (its JSON report): every pair on it is done. */
static void absorb_races(DrHuntPredict *p, int r) {
  char *path = run_file(p, ".json", r);
  DrJson j;
  int got = dr_hunt_read_json("drvm hunt", path, false, &j);
  free(path);
  if (got <= 0) return;
  const DrJson *races = dr_json_get(&j, "races");
  for (int i = 0; races && races->kind == DR_JSON_ARR && i < races->count; i++) {
    const DrJson *race = &races->items[i];
    const DrJson *pred = dr_json_get(race, "predicted");
    const char *loc = dr_json_str(race, "location");
    if (!loc || (pred && pred->kind == DR_JSON_BOOL && pred->num)) continue;
    char *field = dr_pairs_location(loc);
    for (int k = 0; k < p->npairs; k++)
      if (!strcmp(p->known.items[k].location, field)) p->pairs[k].done = true;
    free(field);
  }
  dr_json_free(&j);
}

/* The pairs observed run r predicted, each once over the chain. */
static void absorb_pairs(DrHuntPredict *p, int r) {
  char *path = run_file(p, ".pairs", r);
  size_t len;
  char *text = dr_read_file(path, &len);
  DrPairs ps = {0};
  char err[300];
  if (text && dr_pairs_parse(text, len, path, &ps, err, sizeof err)) {
    for (int i = 0; i < ps.count; i++) {
      if (dr_pairs_index(&p->known, &ps.items[i]) >= 0) continue;
      DR_PUSH(p->known.items, p->known.count, p->known.cap, ps.items[i]);
      memset(&ps.items[i], 0, sizeof ps.items[i]); /* now known's */
      PPair np = {dr_strdup(path), i + 1, 0, false};
      DR_PUSH(p->pairs, p->npairs, p->cap, np);
    }
  }
  dr_pairs_free(&ps);
  free(text);
  free(path);
}

/* Run r's options: the next pair to confirm, else a new observed run. */
static DrRunOpts plan_run(DrHuntPredict *p, int r) {
  DrHuntCommon *c = &p->h->c;
  uint64_t seed = dr_hunt_run_seed(c->seed, "predict", r);
  int next = -1;
  for (int k = 0; k < p->npairs && next < 0; k++)
    if (!p->pairs[k].done && p->pairs[k].tries < DR_PREDICT_TRIES) next = k;
  DrRunOpts o;
  p->confirming[r] = next + 1;
  if (next >= 0) {
    PPair *pp = &p->pairs[next];
    pp->tries++;
    dr_hunt_run_opts(&o, c, "racefuzzer", seed, "ft");
    dr_ro_set(&o, DR_RO_RACE_PAIRS, pp->file);
    dr_ro_setf(&o, DR_RO_PAIR, "%d", pp->number);
  } else {
    dr_hunt_run_opts(&o, c, "native", seed, "wcp");
    dr_ro_set(&o, DR_RO_RELAXED, "");
    dr_ro_set(&o, DR_RO_CONFIRM, "0"); /* the chain's next runs confirm, counted */
    char *pairs = run_file(p, ".pairs", r);
    dr_ro_set(&o, DR_RO_POTENTIAL, pairs);
    free(pairs);
  }
  char *f = run_file(p, ".rec", r);
  dr_ro_set(&o, DR_RO_RECORD, f);
  free(f);
  f = run_file(p, ".json", r);
  dr_ro_set(&o, DR_RO_REPORT, f);
  free(f);
  f = run_file(p, ".sched.json", r);
  dr_ro_set(&o, DR_RO_SCHED_REPORT, f);
  free(f);
  return o;
}

static void prepare(DrHuntJob *jobs, int index, void *ctx) {
  DrHuntPredict *p = ctx;
  int r = index - p->base + 1;
  if (r > 1) {
    if (!p->confirming[r - 1]) absorb_pairs(p, r - 1);
    absorb_races(p, r - 1);
  }
  DrRunOpts o = plan_run(p, r);
  for (char **v = jobs[index].argv; v && *v; v++) free(*v);
  free(jobs[index].argv);
  jobs[index].argv = dr_hunt_argv(&o);
}

void dr_hunt_predict_job(DrHuntPredict *p, DrHuntJob *job, int r) {
  DrHuntRun *run = &p->h->tech[p->ti].runs[r - 1];
  run->seed = dr_hunt_run_seed(p->h->c.seed, "predict", r);
  DrRunOpts o, rep;
  dr_hunt_run_opts(&o, &p->h->c, "native", run->seed, "wcp"); /* replaced when it starts */
  job->argv = dr_hunt_argv(&o);
  char name[64];
  snprintf(name, sizeof name, "predict-%d.log", r);
  job->log = dr_hunt_path(&p->h->c, name);
  job->after = r > 1 ? p->base + r - 2 : -1;
  job->prepare = prepare;
  job->ctx = p;
  run->record = run_file(p, ".rec", r);
  dr_hunt_run_opts(&rep, &p->h->c, NULL, 0, NULL);
  dr_ro_set(&rep, DR_RO_REPLAY, run->record);
  run->replay_cmd = dr_hunt_command(&rep);
}
