/* Ending `drvm run` on SIGINT or SIGTERM without losing the program's
 * output (stop.h).  The handler only stores: the signal in a
 * sig_atomic_t, and drvm_stop's request in the VM (an atomic store); the
 * interpreter notices the request within a few ten thousand steps and
 * ends the run as DRVM_OUTCOME_INTERRUPTED, writing the output, and
 * run.c then exits through dr_stop_exit.  What cannot wait for that
 * (no run to stop, or a second signal) uses write and _exit only. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stop.h"

static volatile sig_atomic_t stop_signal; /* the first SIGINT or SIGTERM */
static volatile sig_atomic_t said;        /* the line was printed */
/* The handler reads it: a lock-free atomic is what C11 allows there. */
static _Atomic(DrVM *) watched;
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the signal handler reads the watched VM");

static const char *signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"; }

/* Async-signal-safe: write(2) of fixed pieces. */
static void say_now(int sig) {
  const char *parts[] = {"drvm: interrupted (", signal_name(sig), ")\n"};
  for (int i = 0; i < 3; i++)
    if (write(2, parts[i], strlen(parts[i])) < 0) return;
}

static void on_stop_signal(int sig) {
  DrVM *vm = atomic_load(&watched);
  if (!vm || stop_signal) {
    /* no program output is pending, or the first signal was not enough */
    if (!said) say_now(sig);
    _exit(128 + sig);
  }
  stop_signal = sig;
  drvm_stop(vm);
}

/* exit() in the middle of a run (dr_xrealloc out of memory): the output
 * the program printed before still appears, as Java's would. */
static void flush_watched(void) {
  DrVM *vm = atomic_load(&watched);
  if (vm) drvm_flush_output(vm);
}

static void catch_signal(int sig) {
  struct sigaction old, sa;
  /* an ignored signal stays ignored (nohup, a shell's background job) */
  if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN) return;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sa.sa_flags = SA_RESTART; /* the output written meanwhile is not cut by EINTR */
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(sig, &sa, NULL);
}

void dr_stop_install(void) {
  catch_signal(SIGINT);
  catch_signal(SIGTERM);
  atexit(flush_watched);
}

void dr_stop_watch(DrVM *vm) { atomic_store(&watched, vm); }

int dr_stop_signal(void) { return stop_signal; }

int dr_stop_exit(void) {
  int sig = stop_signal;
  if (!said) {
    fflush(stdout);
    fprintf(stderr, "drvm: interrupted (%s)\n", signal_name(sig));
    said = 1;
  }
  return 128 + sig;
}
