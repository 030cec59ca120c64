/* What drvm prints when live threads remain but none can run: a thread
 * dump in the JDK's style (jstack / Ctrl-\) -- each thread's state, the
 * lock it waits for and who holds it, the locks each frame holds -- then
 * every lock cycle, as the JDK's "Found one Java-level deadlock". */
#include <string.h>

#include "vm.h"

#define lock_name(o, buf, size) dr_lock_name(vm, (o), (buf), (size))

/* The thread t waits for: a monitor's owner, the thread running the
 * initializer of the class t needs, or the thread t joins. */
static DrThread *holder(const DrThread *t) {
  if (t->state == DR_TS_JOINING) return t->join_target;
  if (t->state != DR_TS_BLOCKED) return NULL;
  if (!t->monitor) return t->init_class ? t->init_class->init_thread : NULL;
  return t->monitor->monitor ? t->monitor->monitor->owner : NULL;
}

/* One edge of a cycle, in the JDK's words where it has them. */
static void edge_text(DrVM *vm, FILE *f, const DrThread *t, const DrThread *h) {
  char nb[128], ob[128], hb[128], cb[256];
  fprintf(f, "\"%s\":\n", dr_thread_name(vm, t, nb, sizeof nb));
  if (t->state == DR_TS_JOINING)
    fprintf(f, "  waiting in join() for \"%s\" to end\n", dr_thread_name(vm, h, hb, sizeof hb));
  else if (!t->monitor)
    fprintf(f, "  waiting for class %s to be initialized,\n  which is being initialized by \"%s\"\n",
            dr_class_display_name(t->init_class, cb, sizeof cb), dr_thread_name(vm, h, hb, sizeof hb));
  else
    fprintf(f, "  waiting to lock monitor %s (a %s),\n  which is held by \"%s\"\n", lock_name(t->monitor, ob, sizeof ob),
            dr_is_class_lock(vm, t->monitor) ? "java.lang.Class" : t->monitor->cls->name,
            dr_thread_name(vm, h, hb, sizeof hb));
}

static void state_line(DrVM *vm, FILE *f, const DrThread *t) {
  char nb[128], ob[128];
  switch (t->state) {
  case DR_TS_BLOCKED:
    if (t->monitor) fputs("   java.lang.Thread.State: BLOCKED (on object monitor)\n", f);
    else fprintf(f, "   java.lang.Thread.State: RUNNABLE (waiting for class %s to be initialized)\n",
                 t->init_class ? dr_class_display_name(t->init_class, ob, sizeof ob) : "?");
    break;
  case DR_TS_WAITING:
    fprintf(f, "   java.lang.Thread.State: %s (on object monitor %s)\n",
            t->deadline == INT64_MAX ? "WAITING" : "TIMED_WAITING", lock_name(t->monitor, ob, sizeof ob));
    break;
  case DR_TS_JOINING:
    fprintf(f, "   java.lang.Thread.State: WAITING (joining \"%s\")\n",
            t->join_target ? dr_thread_name(vm, t->join_target, nb, sizeof nb) : "?");
    break;
  default: fprintf(f, "   java.lang.Thread.State: %s\n", dr_thread_state_names[t->state]); break;
  }
}

static void dump_thread(DrVM *vm, FILE *f, const DrThread *t) {
  char nb[128], ob[128], hb[128];
  fprintf(f, "\"%s\" T%d\n", dr_thread_name(vm, t, nb, sizeof nb), t->id);
  state_line(vm, f, t);
  for (int i = t->nframes - 1; i >= 0; i--) {
    const DrFrame *fr = &t->frames[i];
    if (fr->method->flags & (DR_M_NATIVE | DR_M_HIDDEN)) continue;
    DrBuf b = {0};
    dr_frame_text(vm, fr, &b);
    fprintf(f, "\tat %s\n", b.data);
    free(b.data);
    if (i == t->nframes - 1) {
      DrThread *h = holder(t);
      if (t->state == DR_TS_BLOCKED && t->monitor) {
        fprintf(f, "\t- waiting to lock <%s>", lock_name(t->monitor, ob, sizeof ob));
        if (h) fprintf(f, " held by \"%s\" T%d", dr_thread_name(vm, h, hb, sizeof hb), h->id);
        fputs("\n", f);
      } else if (t->state == DR_TS_WAITING) {
        fprintf(f, "\t- waiting on <%s>\n", lock_name(t->monitor, ob, sizeof ob));
      }
    }
    for (int k = t->nheld - 1; k >= 0; k--) /* the most recent first, as the JDK lists them */
      if (t->held[k].depth - 1 == i) fprintf(f, "\t- locked <%s>\n", lock_name(t->held[k].obj, ob, sizeof ob));
  }
  fputs("\n", f);
}

/* Prints each cycle of "waits for a lock held by" once; returns how many. */
static int report_cycles(DrVM *vm, FILE *f) {
  int n = vm->nthreads, found = 0;
  int *mark = dr_xcalloc((size_t)n + 1, sizeof(int)); /* 0 new, k+1 visited from walk k, -1 done */
  for (int s = 0; s < n; s++) {
    if (mark[s]) continue;
    int i = s;
    while (i >= 0 && !mark[i]) {
      mark[i] = s + 1;
      DrThread *h = holder(vm->threads[i]);
      i = -1;
      for (int k = 0; h && k < n; k++)
        if (vm->threads[k] == h) i = k;
    }
    if (i >= 0 && mark[i] == s + 1) {
      /* a new cycle through threads[i] */
      fprintf(f, "Found one Java-level deadlock:\n=============================\n");
      int j = i;
      do {
        DrThread *t = vm->threads[j];
        DrThread *h = holder(t);
        edge_text(vm, f, t, h);
        for (int k = 0; k < n; k++)
          if (vm->threads[k] == h) j = k;
      } while (j != i);
      fputs("\n", f);
      found++;
    }
    for (int k = 0; k < n; k++)
      if (mark[k] == s + 1) mark[k] = -1;
  }
  free(mark);
  return found;
}

void dr_report_deadlock(DrVM *vm) {
  dr_flush_output(vm);
  FILE *f = vm->err_file;
  fprintf(f, "drvm: deadlock: %d thread%s alive and none can run\n\n", vm->nthreads, vm->nthreads == 1 ? "" : "s");
  int64_t now = dr_now_ns(vm);
  fprintf(f, "Full thread dump (drvm, virtual time %lld.%06lld ms, step %llu):\n\n", (long long)(now / 1000000),
          (long long)(now % 1000000), (unsigned long long)vm->steps);
  for (int i = 0; i < vm->nthreads; i++) dump_thread(vm, f, vm->threads[i]);
  int cycles = report_cycles(vm, f);
  if (cycles) fprintf(f, "Found %d deadlock%s.\n", cycles, cycles == 1 ? "" : "s");
  else fputs("No cycle of locks, joins or class initializations: the threads wait for notifications that can never come.\n", f);
  fflush(f);
  dr_halt(vm, DR_EXIT_DEADLOCK, DRVM_OUTCOME_DEADLOCK);
}
