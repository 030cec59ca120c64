/* Staged runs (repl.h): a copy of the run at each of the last positions
 * the person reached, made by a background thread while they read and
 * type, so that `back` swaps runs instead of replaying a long prefix.
 * VMs share nothing (include/drvm.h), so a second OS thread may run one
 * while the first steps another.
 *
 * The main thread prepares each copy where the person stands (a new VM
 * given the decisions so far: drvm_replay_decisions, cheap) and queues
 * it; the worker runs the queued copies to their positions one after
 * the other.  A copy of a position the person left for another line of
 * decisions is dropped (or cut short). */
#include <pthread.h>
#include <string.h>

#include "repl.h"

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE } JobState;

typedef struct {
  ReplVM *vm;
  uint64_t pos;
  JobState state;
  bool ok, dropped;        /* dropped: the person left that line; freed when done */
} Job;

enum { MAX_JOBS = 2 * REPL_STAGED };

struct ReplStager {
  pthread_t thread;
  bool started, stop;
  pthread_mutex_t mu;
  pthread_cond_t work, done; /* a job queued; a job done */
  Job jobs[MAX_JOBS];        /* in the order they were queued */
  int n;
};

static void *worker(void *arg) {
  ReplStager *s = arg;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    Job *j = NULL;
    for (int i = 0; i < s->n && !j; i++)
      if (s->jobs[i].state == JOB_QUEUED && !s->jobs[i].dropped) j = &s->jobs[i];
    if (!j && s->stop) break;
    if (!j) {
      pthread_cond_wait(&s->work, &s->mu);
      continue;
    }
    j->state = JOB_RUNNING;
    ReplVM *vm = j->vm;
    uint64_t pos = j->pos;
    pthread_mutex_unlock(&s->mu);
    char err[512];
    bool ok = repl_vm_go(vm, pos, err, sizeof err) && vm->at_decision && vm->pos == pos;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < s->n; i++) /* the array may have moved: find it again */
      if (s->jobs[i].vm == vm) s->jobs[i].ok = ok, s->jobs[i].state = JOB_DONE;
    pthread_cond_broadcast(&s->done);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* Removes job i (the lock held); its VM is the caller's. */
static ReplVM *remove_job(ReplStager *s, int i) {
  ReplVM *vm = s->jobs[i].vm;
  memmove(&s->jobs[i], &s->jobs[i + 1], sizeof s->jobs[0] * (size_t)(s->n - i - 1));
  s->n--;
  return vm;
}

/* Frees the jobs that are done but failed or dropped, and the oldest
 * copies beyond REPL_STAGED (the lock held). */
static void tidy(ReplStager *s) {
  for (int i = 0; i < s->n;) {
    Job *j = &s->jobs[i];
    if (j->state == JOB_DONE && (!j->ok || j->dropped)) repl_vm_free(remove_job(s, i));
    else if (j->state == JOB_QUEUED && j->dropped) repl_vm_free(remove_job(s, i));
    else i++;
  }
  int done = 0;
  for (int i = 0; i < s->n; i++) done += s->jobs[i].state == JOB_DONE;
  for (int i = 0; i < s->n && done > REPL_STAGED;)
    if (s->jobs[i].state == JOB_DONE) repl_vm_free(remove_job(s, i)), done--;
    else i++;
}

static ReplStager *stager(Repl *r) {
  if (r->stager) return r->stager;
  ReplStager *s = dr_xcalloc(1, sizeof *s);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->work, NULL);
  pthread_cond_init(&s->done, NULL);
  /* Ctrl-C is the main thread's */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  s->started = pthread_create(&s->thread, NULL, worker, s) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  r->stager = s;
  return s;
}

void repl_stage(Repl *r) {
  ReplVM *v = r->cur;
  if (v->ended || v->pos < REPL_STAGE_MIN) return;
  ReplStager *s = stager(r);
  if (!s->started) return;
  pthread_mutex_lock(&s->mu);
  tidy(s);
  bool have = false;
  for (int i = 0; i < s->n; i++) have |= s->jobs[i].pos == v->pos && !s->jobs[i].dropped;
  int busy = 0;
  for (int i = 0; i < s->n; i++) busy += s->jobs[i].state != JOB_DONE;
  pthread_mutex_unlock(&s->mu);
  if (have || busy >= REPL_STAGED || s->n >= MAX_JOBS) return;
  /* the decisions are copied here, while v stands still */
  bool along = r->rec && v->rec_left == UINT64_MAX; /* keep the recording's future */
  char err[512];
  ReplVM *copy = repl_vm_prepare(r, along ? r->rec : NULL, along ? NULL : v, v->pos, false, err, sizeof err);
  if (!copy) return; /* a copy is an optimization: back replays instead */
  copy->rec_left = v->rec_left;
  pthread_mutex_lock(&s->mu);
  Job j = {copy, v->pos, JOB_QUEUED, false, false};
  s->jobs[s->n++] = j;
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
}

void repl_stage_poll(Repl *r) {
  if (!r->stager) return;
  pthread_mutex_lock(&r->stager->mu);
  tidy(r->stager);
  pthread_mutex_unlock(&r->stager->mu);
}

ReplVM *repl_stage_take(Repl *r, uint64_t pos) {
  ReplStager *s = r->stager;
  if (!s) return NULL;
  ReplVM *vm = NULL;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    int at = -1;
    for (int i = 0; i < s->n; i++)
      if (s->jobs[i].pos == pos && !s->jobs[i].dropped) at = i;
    if (at < 0) break;
    if (s->jobs[at].state == JOB_DONE) {
      if (s->jobs[at].ok) vm = remove_job(s, at);
      break;
    }
    pthread_cond_wait(&s->done, &s->mu); /* being made: the rest of a replay is the fastest way there */
  }
  tidy(s);
  pthread_mutex_unlock(&s->mu);
  return vm;
}

void repl_stage_forget_after(Repl *r, uint64_t pos) {
  ReplStager *s = r->stager;
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  for (int i = 0; i < s->n; i++) {
    Job *j = &s->jobs[i];
    if (j->pos <= pos || j->dropped) continue;
    j->dropped = true;
    if (j->state == JOB_RUNNING) drvm_interrupt(j->vm->vm); /* cut it short */
  }
  tidy(s);
  pthread_mutex_unlock(&s->mu);
}

void repl_stage_free(Repl *r) {
  ReplStager *s = r->stager;
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->stop = true;
  for (int i = 0; i < s->n; i++) {
    s->jobs[i].dropped = true;
    if (s->jobs[i].state == JOB_RUNNING) drvm_interrupt(s->jobs[i].vm->vm);
  }
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
  if (s->started) pthread_join(s->thread, NULL);
  for (int i = 0; i < s->n; i++) repl_vm_free(s->jobs[i].vm);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->work);
  pthread_cond_destroy(&s->done);
  free(s);
  r->stager = NULL;
}
