/* The scheduler registry: every scheduler drvm has, and every option
 * they take, in one table each.  Help texts, option parsing (the API's
 * "key=value" options and `drvm run --KEY VALUE`) and rerun commands are
 * all made from these rows. */
#include <stddef.h>
#include <string.h>

#include "../vm/registry.h"
#include "sched.h"

/* X(name, factory, help) */
#define DR_SCHEDULERS(X)                                                                                               \
  X("native", dr_sched_native_create,                                                                                  \
    "like a JVM on one core: a thread runs a seeded quantum of steps, then the one ready longest (default)")           \
  X("native-random", dr_sched_native_random_create,                                                                    \
    "native's quanta, but a random thread at each switch: a sampler of orders")                                        \
  X("random", dr_sched_random_create, "a random thread at every access, call and synchronization")                     \
  X("rr", dr_sched_rr_create, "round-robin, a fixed quantum")                                                          \
  X("pct", dr_sched_pct_create, "random priorities with --depth change points (Burckhardt et al.)")                    \
  X("contest", dr_sched_contest_create, "native plus random delays at synchronization (--noise)")                      \
  X("drfinder", dr_sched_drfinder_create,                                                                              \
    "reverses lock orders a previous run showed (--mtr-in; Cai & Cao)")                                                \
  X("racefuzzer", dr_sched_racefuzzer_create,                                                                          \
    "brings a potential race's two statements together (--race-pairs; Sen)")

typedef DrScheduler *(*DrSchedFactory)(const DrSchedOptions *opt);

static const DrvmEntry entries[] = {
#define DR_SCHED_ENTRY(name, factory, help) {name, NULL, help, NULL, false},
    DR_SCHEDULERS(DR_SCHED_ENTRY)
#undef DR_SCHED_ENTRY
};

static const DrSchedFactory factories[] = {
#define DR_SCHED_FACTORY(name, factory, help) factory,
    DR_SCHEDULERS(DR_SCHED_FACTORY)
#undef DR_SCHED_FACTORY
};

#define OFF(field) offsetof(DrSchedOptions, field)
/* X(name, arg, kind, field, min, max, what, applies, rerun, help): what
 * words a bad value's message (NULL: from the kind and range) */
#define DR_SCHED_OPTIONS(X)                                                                                            \
  X("seed", "N", DR_OPT_U64, OFF(seed), 0, 0, NULL, NULL, true,                                                        \
    "seed of the scheduler's random choices")                                                                          \
  X("quantum", "N", DR_OPT_COUNT, OFF(quantum), 0, 0, NULL, "native native-random random rr contest drfinder", true,                 \
    "steps between preemptions (rr: exactly; native: mean)")                                                           \
  X("depth", "D", DR_OPT_INT, OFF(depth), 1, 1000, NULL, "pct drfinder", true,                                         \
    "pct: the bug depth, D-1 priority change points (default 3);\n"                                                    \
    "drfinder: the stack depth of may-trigger relations (12)")                                                         \
  X("pct-steps", "K", DR_OPT_COUNT, OFF(pct_steps), 0, 0, NULL, "pct", true,                                           \
    "pct: the steps a run is expected to take, over which the change\n"                                                \
    "points are drawn (default 10000; -v prints a run's scheduling points)")                                           \
  X("noise", "P", DR_OPT_PROB, OFF(noise), 0, 0, NULL, "contest", true,                                                \
    "contest: the chance of a delay at each synchronization event (default 0.2)")                                      \
  X("mtr-in", "FILE", DR_OPT_STR, OFF(mtr_in), 0, 0, NULL, "drfinder", true,                                           \
    "drfinder: the may-trigger relations a previous run wrote; without it\n"                                           \
    "the run is DrFinder's Phase I (random scheduling that only collects relations)")                                  \
  X("mtr-out", "FILE", DR_OPT_STR, OFF(mtr_out), 0, 0, NULL, "drfinder", false,                                        \
    "drfinder: write this run's relations (the next run's input)")                                                     \
  X("race-pairs", "FILE", DR_OPT_STR, OFF(race_pairs), 0, 0, NULL, "racefuzzer", true,                                 \
    "racefuzzer: potentially racing statement pairs, as --detector hybrid\n"                                           \
    "--potential-races FILE writes them")                                                                              \
  X("pair", "N", DR_OPT_INT, OFF(pair), 1, 1000000, "a pair number 1, 2, ...", "racefuzzer", true,                     \
    "racefuzzer: target the Nth pair only (default: all)")                                                             \
  X("escorts", "N", DR_OPT_INT, OFF(escorts), 1, 1000, NULL, "drfinder", true,                                        \
    "drfinder: how many may-trigger candidates are escorted in turn when a\n"                                          \
    "thread is suspended at a lock (default 1, the paper's; 1000: every one)")                                          \
  X("order", "WHICH", DR_OPT_CHOICE, OFF(order), 0, 0, "arrival|previous", "drfinder", true,                           \
    "drfinder: which order of two threads' acquisitions of one lock class\n"                                            \
    "to reverse: arrival, this run's (the first to arrive waits; default);\n"                                            \
    "previous, the order of the run --mtr-in came from, so that a chain of\n"                                          \
    "runs alternates between the two orders")                                                                          \
  X("candidates", "WHICH", DR_OPT_CHOICE, OFF(candidates), 0, 0, "live|able", "drfinder", true,                        \
    "drfinder: the threads that may be escorted: live, any not ended nor in\n"                                          \
    "join() or wait() (default); able, also not blocked at a monitor and with\n"                                       \
    "an acquisition still ahead in its code")                                                                          \
  X("attempt", "N", DR_OPT_INT, OFF(attempt), 0, 1000, NULL, NULL, true,                                               \
    "how many times a deadlocked run was restarted before this one (drvm run --restarts)")

static const DrOptSpec options[] = {
#define DR_SCHED_OPTION(name, arg, kind, off, min, max, what, applies, rerun, help)                                    \
  {{name, arg, help, applies, rerun}, kind, off, min, max, what},
    DR_SCHED_OPTIONS(DR_SCHED_OPTION)
#undef DR_SCHED_OPTION
};

int dr_reg_sched_count(void) { return (int)DR_ARRAY_LEN(entries); }
const DrvmEntry *dr_reg_sched_entry(int i) { return i >= 0 && i < dr_reg_sched_count() ? &entries[i] : NULL; }
int dr_reg_sched_option_count(void) { return (int)DR_ARRAY_LEN(options); }
const DrvmEntry *dr_reg_sched_option(int i) { return i >= 0 && i < dr_reg_sched_option_count() ? &options[i].e : NULL; }

static int find(const char *name) {
  for (int i = 0; i < dr_reg_sched_count(); i++)
    if (!strcmp(entries[i].name, name)) return i;
  return -1;
}

DrScheduler *dr_sched_create(const char *name, const DrSchedOptions *opt) {
  int i = find(name);
  return i < 0 ? NULL : factories[i](opt);
}

DrScheduler *dr_reg_sched_new(const char *name, const char *text, uint64_t seed, const char *rerun,
                              uint64_t *seed_given, uint64_t *seed_run, DrStrPool *pool, char *err, size_t errsize) {
  int i = find(name);
  if (i < 0) {
    char list[256];
    dr_entry_names(dr_reg_sched_entry, dr_reg_sched_count(), list, sizeof list);
    snprintf(err, errsize, "unknown scheduler '%s' (choose one of: %s)", name, list);
    return NULL;
  }
  DrSchedOptions so = {.seed = seed, .noise = -1, .rerun = rerun};
  if (!dr_opts_parse(options, dr_reg_sched_option_count(), name, text, &so, pool, err, errsize)) return NULL;
  /* a restarted run (DrFinder after a deadlock) draws anew, but from
   * the seed given, so the seed still reproduces the whole sequence */
  *seed_given = so.seed;
  if (so.attempt) so.seed = (so.seed ^ ((uint64_t)so.attempt * 0x9E3779B97F4A7C15u)) % 1000003u;
  *seed_run = so.seed;
  return factories[i](&so);
}


bool dr_reg_sched_option_check(const char *key, const char *value, char *err, size_t errsize) {
  return dr_opts_check(options, dr_reg_sched_option_count(), key, value, err, errsize);
}
