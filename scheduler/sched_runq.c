/* A JVM's run queue on one core, for native and DrFinder's Phase II: the
 * thread that has been ready longest runs next (threads in the order they
 * became ready, first started first), and a thread that is preempted or
 * yields goes to the back.  A thread becomes ready when it is started or
 * when what blocked it lets go (a lock, a join, a notify, a timeout).
 * Nothing here is random: the order a plain run shows is the usual one,
 * which is the premise of DrFinder (its Section 2). */
#include <string.h>

#include "sched.h"

static void grow(DrRunQueue *q, int id) {
  if (id < q->cap) return;
  int cap = q->cap ? q->cap : 16;
  while (cap <= id) cap *= 2;
  q->stamp = dr_xrealloc(q->stamp, sizeof *q->stamp * (size_t)cap);
  q->ready = dr_xrealloc(q->ready, sizeof *q->ready * (size_t)cap);
  memset(q->stamp + q->cap, 0, sizeof *q->stamp * (size_t)(cap - q->cap));
  memset(q->ready + q->cap, 0, sizeof *q->ready * (size_t)(cap - q->cap));
  q->cap = cap;
}

void dr_rq_update(DrRunQueue *q, DrVM *vm) {
  if (q->seen && q->gen == vm->sched_gen) return; /* no thread changed state */
  q->seen = true;
  q->gen = vm->sched_gen;
  DrThread *const *all;
  int n = dr_sched_threads(vm, &all);
  for (int i = 0; i < n; i++) {
    DrThread *t = all[i];
    grow(q, t->id);
    bool ready = dr_sched_is_enabled(vm, t);
    if (ready && !q->ready[t->id]) q->stamp[t->id] = ++q->clock; /* newly ready: to the back */
    q->ready[t->id] = ready;
  }
}

static void requeue(DrRunQueue *q, const DrThread *t) {
  grow(q, t->id);
  q->stamp[t->id] = ++q->clock;
}

static DrThread *first(DrRunQueue *q, DrThread *const *c, int n, const DrThread *avoid) {
  DrThread *best = NULL;
  for (int i = 0; i < n; i++) {
    if (c[i] == avoid) continue;
    grow(q, c[i]->id);
    /* ties (threads that became ready at one update) in start order */
    if (!best || q->stamp[c[i]->id] < q->stamp[best->id]) best = c[i];
  }
  return best ? best : n > 0 ? c[0] : NULL;
}

DrThread *dr_rq_pick(DrRunQueue *q, DrVM *vm, DrThread *cur, DrPickReason reason, DrThread *const *c, int n) {
  dr_rq_update(q, vm);
  bool cur_ok = false;
  for (int i = 0; i < n && !cur_ok; i++) cur_ok = c[i] == cur;
  bool moves = reason != DR_PICK_EVENT || dr_sched_pending_kind(vm, cur) == DR_EV_YIELD;
  if (cur_ok && !moves) return cur;
  DrThread *t = first(q, c, n, cur_ok ? cur : NULL);
  if (cur_ok && t != cur) requeue(q, cur);
  return t;
}

void dr_rq_free(DrRunQueue *q) {
  free(q->stamp);
  free(q->ready);
  memset(q, 0, sizeof *q);
}
