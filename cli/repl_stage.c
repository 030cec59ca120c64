/* Staged runs (repl.h): a copy of the run at each of the last positions
 * the person reached, made by a background thread while they read and
 * type, so that `back` swaps runs instead of replaying a long prefix.
 * VMs share nothing (include/drvm.h), so a second OS thread may run one
 * while the first steps another. */
#include <pthread.h>
#include <string.h>

#include "repl.h"

struct ReplStager {
  pthread_t thread;
  bool running;
  uint64_t pos;
  ReplVM *job;             /* the run the job moves to pos */
  bool ok;
  char err[512];
  ReplVM *vms[REPL_STAGED];/* done: a run at pos[i] */
  uint64_t at[REPL_STAGED];
  int n;
};

static void *stage_job(void *arg) {
  ReplStager *s = arg;
  s->ok = repl_vm_go(s->job, s->pos, s->err, sizeof s->err);
  return NULL;
}

/* Waits for the job under way (cut short when abandon) and keeps its
 * run if it got there. */
static void finish_job(ReplStager *s, bool abandon) {
  if (!s->running) return;
  if (abandon) drvm_interrupt(s->job->vm);
  pthread_join(s->thread, NULL);
  s->running = false;
  ReplVM *done = s->job;
  s->job = NULL;
  if (!s->ok || !done->at_decision || done->pos != s->pos) { /* a copy is an optimization: back replays instead */
    repl_vm_free(done);
    return;
  }
  if (s->n == REPL_STAGED) {
    repl_vm_free(s->vms[0]);
    memmove(&s->vms[0], &s->vms[1], sizeof s->vms[0] * (REPL_STAGED - 1));
    memmove(&s->at[0], &s->at[1], sizeof s->at[0] * (REPL_STAGED - 1));
    s->n--;
  }
  s->vms[s->n] = done;
  s->at[s->n++] = s->pos;
}

void repl_stage(Repl *r) {
  ReplVM *v = r->cur;
  if (v->ended || v->pos < REPL_STAGE_MIN) return;
  if (!r->stager) r->stager = dr_xcalloc(1, sizeof *r->stager);
  ReplStager *s = r->stager;
  if (s->running && s->pos == v->pos) return;
  finish_job(s, true); /* a copy of where the person no longer is */
  for (int i = 0; i < s->n; i++)
    if (s->at[i] == v->pos) return;
  /* the decisions are copied here, while v stands still; the job runs
   * its own VM */
  bool along = r->rec && v->rec_left == UINT64_MAX; /* keep the recording's future */
  s->job = repl_vm_prepare(r, along ? r->rec : NULL, along ? NULL : v, v->pos, false, s->err, sizeof s->err);
  if (!s->job) return;
  s->job->rec_left = v->rec_left;
  s->pos = v->pos;
  /* Ctrl-C is the main thread's */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  s->running = pthread_create(&s->thread, NULL, stage_job, s) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!s->running) {
    repl_vm_free(s->job);
    s->job = NULL;
  }
}

ReplVM *repl_stage_take(Repl *r, uint64_t pos) {
  ReplStager *s = r->stager;
  if (!s) return NULL;
  if (s->running && s->pos == pos) finish_job(s, false);
  for (int i = 0; i < s->n; i++) {
    if (s->at[i] != pos) continue;
    ReplVM *v = s->vms[i];
    memmove(&s->vms[i], &s->vms[i + 1], sizeof s->vms[0] * (size_t)(s->n - i - 1));
    memmove(&s->at[i], &s->at[i + 1], sizeof s->at[0] * (size_t)(s->n - i - 1));
    s->n--;
    return v;
  }
  return NULL;
}

/* After the person left the recorded line (a new move from an earlier
 * position): copies past that position belong to another history. */
void repl_stage_forget_after(Repl *r, uint64_t pos) {
  ReplStager *s = r->stager;
  if (!s) return;
  finish_job(s, s->pos > pos);
  for (int i = 0; i < s->n;) {
    if (s->at[i] <= pos) {
      i++;
      continue;
    }
    repl_vm_free(s->vms[i]);
    memmove(&s->vms[i], &s->vms[i + 1], sizeof s->vms[0] * (size_t)(s->n - i - 1));
    memmove(&s->at[i], &s->at[i + 1], sizeof s->at[0] * (size_t)(s->n - i - 1));
    s->n--;
  }
}

void repl_stage_wait(Repl *r) {
  if (r->stager) finish_job(r->stager, false);
}

void repl_stage_free(Repl *r) {
  ReplStager *s = r->stager;
  if (!s) return;
  finish_job(s, true);
  for (int i = 0; i < s->n; i++) repl_vm_free(s->vms[i]);
  free(s);
  r->stager = NULL;
}
