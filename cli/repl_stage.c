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
  const Repl *r;
  char path[128];          /* the prefix the job replays */
  uint64_t pos;
  ReplVM *result;          /* NULL: it failed (err says why) */
  char err[512];
  ReplVM *vms[REPL_STAGED];/* done: a run at pos[i] */
  uint64_t at[REPL_STAGED];
  int n, jobs;
};

static void *stage_job(void *arg) {
  ReplStager *s = arg;
  s->result = repl_vm_make(s->r, s->path, s->pos, false, s->err, sizeof s->err);
  return NULL;
}

/* Waits for the job under way and keeps its run. */
static void finish_job(ReplStager *s) {
  if (!s->running) return;
  pthread_join(s->thread, NULL);
  s->running = false;
  remove(s->path);
  if (!s->result) return; /* a copy is an optimization: going back replays instead */
  if (s->n == REPL_STAGED) {
    repl_vm_free(s->vms[0]);
    memmove(&s->vms[0], &s->vms[1], sizeof s->vms[0] * (REPL_STAGED - 1));
    memmove(&s->at[0], &s->at[1], sizeof s->at[0] * (REPL_STAGED - 1));
    s->n--;
  }
  s->vms[s->n] = s->result;
  s->at[s->n++] = s->pos;
  s->result = NULL;
}

void repl_stage(Repl *r) {
  ReplVM *v = r->cur;
  if (v->ended || v->pos < REPL_STAGE_MIN) return;
  if (!r->stager) r->stager = dr_xcalloc(1, sizeof *r->stager);
  ReplStager *s = r->stager;
  finish_job(s);
  for (int i = 0; i < s->n; i++)
    if (s->at[i] == v->pos) return;
  snprintf(s->path, sizeof s->path, "%s/stage%d.rec", r->tmpdir, s->jobs++);
  if (!drvm_save_decisions_upto(v->vm, s->path, v->pos)) return;
  s->r = r;
  s->pos = v->pos;
  /* Ctrl-C is the main thread's */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  s->running = pthread_create(&s->thread, NULL, stage_job, s) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!s->running) remove(s->path);
}

ReplVM *repl_stage_take(Repl *r, uint64_t pos) {
  ReplStager *s = r->stager;
  if (!s) return NULL;
  finish_job(s);
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
  finish_job(s);
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
  if (r->stager) finish_job(r->stager);
}

void repl_stage_free(Repl *r) {
  ReplStager *s = r->stager;
  if (!s) return;
  finish_job(s);
  for (int i = 0; i < s->n; i++) repl_vm_free(s->vms[i]);
  free(s);
  r->stager = NULL;
}
