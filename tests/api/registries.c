/* The registries: schedulers, detectors and their options as data;
 * choosing by name with options, and clear errors for an unknown name,
 * an unknown option, an option of another scheduler and a bad value. */
#include <unistd.h>

#include "check.h"

static const char SRC[] = "public class P {\n"
                          "  static int c;\n"
                          "  static class W implements Runnable { public void run() { c++; } }\n"
                          "  public static void main(String[] args) throws InterruptedException {\n"
                          "    Thread t = new Thread(new W());\n"
                          "    t.start();\n"
                          "    c++;\n"
                          "    t.join();\n"
                          "    System.out.println(c);\n"
                          "  }\n"
                          "}\n";

static bool has_entry(int n, const DrvmEntry *(*entry)(int), const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(entry(i)->name, name)) return true;
  return false;
}

static const DrvmEntry *option(int n, const DrvmEntry *(*entry)(int), const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(entry(i)->name, name)) return entry(i);
  return NULL;
}

static void lists(Check *t) {
  int ns = drvm_scheduler_count(), nd = drvm_detector_count();
  CHECK(t, ns >= 7);
  CHECK(t, !strcmp(drvm_scheduler_entry(0)->name, "native")); /* the default first */
  const char *scheds[] = {"native", "random", "rr", "pct", "contest", "drfinder", "racefuzzer"};
  for (int i = 0; i < 7; i++) CHECK(t, has_entry(ns, drvm_scheduler_entry, scheds[i]));
  int helpless = 0;
  for (int i = 0; i < ns; i++) helpless += !drvm_scheduler_entry(i)->help || !drvm_scheduler_entry(i)->help[0];
  for (int i = 0; i < nd; i++) helpless += !drvm_detector_entry(i)->help || !drvm_detector_entry(i)->help[0];
  CHECK(t, helpless == 0);
  CHECK(t, drvm_scheduler_entry(-1) == NULL && drvm_scheduler_entry(ns) == NULL);
  CHECK(t, drvm_detector_entry(-1) == NULL && drvm_detector_entry(nd) == NULL);

  CHECK(t, nd >= 5);
  CHECK_STR(t, drvm_detector_entry(0)->name, "ft");
  const char *dets[] = {"ft", "djit", "basicvc", "eraser", "hybrid", "none"};
  for (int i = 0; i < 6; i++) CHECK(t, has_entry(nd, drvm_detector_entry, dets[i]));

  int nso = drvm_scheduler_option_count(), ndo = drvm_detector_option_count();
  const DrvmEntry *seed = option(nso, drvm_scheduler_option, "seed");
  const DrvmEntry *depth = option(nso, drvm_scheduler_option, "depth");
  CHECK(t, seed && seed->arg && seed->applies == NULL && seed->rerun);
  CHECK(t, depth && depth->arg && depth->applies && strstr(depth->applies, "pct"));
  const DrvmEntry *all = option(ndo, drvm_detector_option, "all-races");
  CHECK(t, all && all->arg == NULL); /* a flag */
  CHECK(t, option(ndo, drvm_detector_option, "json") != NULL);
  CHECK(t, drvm_scheduler_option(nso) == NULL && drvm_detector_option(ndo) == NULL);
}

/* name/options that must fail, and a part of the message they give */
static void refuse(Check *t, DrVM *vm, bool sched, const char *name, const char *opts, const char *part) {
  bool ok = sched ? drvm_set_scheduler(vm, name, opts) : drvm_set_detector(vm, name, opts);
  CHECK(t, !ok);
  CHECK_HAS(t, drvm_error(vm), part);
}

static void errors(Check *t) {
  DrVM *vm = drvm_new(NULL, NULL, 0);
  refuse(t, vm, true, "nosuch", NULL, "unknown scheduler 'nosuch'");
  refuse(t, vm, true, "nosuch", NULL, "native, native-random, random"); /* lists the choices */
  refuse(t, vm, true, "pct", "depth=0", "depth takes 1..1000, not '0'");
  refuse(t, vm, true, "pct", "depth=x", "not 'x'");
  refuse(t, vm, true, "pct", "depth", "depth needs a value");
  refuse(t, vm, true, "pct", "frob=1", "unknown option 'frob' for pct");
  refuse(t, vm, true, "random", "depth=2", "depth goes with pct");
  refuse(t, vm, false, "nosuch", NULL, "unknown detector 'nosuch'");
  refuse(t, vm, false, "ft", "bogus", "unknown option 'bogus' for ft");
  refuse(t, vm, false, "ft", "all-races=3", "all-races takes no value");
  /* a refusal keeps the earlier choice */
  CHECK(t, drvm_set_scheduler(vm, "pct", NULL));
  refuse(t, vm, true, "rr", "depth=2", "depth");
  CHECK_STR(t, drvm_scheduler_name(vm), "pct");
  drvm_free(vm);
}

/* Options that parse, and take effect: the seed is the run's. */
static void choose(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(SRC, &s, 1, 0);
  CHECK_STR(t, drvm_scheduler_name(vm), "native"); /* the default */
  CHECK(t, drvm_set_scheduler(vm, "pct", NULL));
  CHECK_STR(t, drvm_error(vm), "");
  CHECK_STR(t, drvm_scheduler_name(vm), "pct");
  CHECK(t, drvm_set_scheduler(vm, "pct", "depth=2,seed=9"));
  CHECK(t, drvm_set_scheduler(vm, "pct", ""));
  CHECK(t, drvm_set_scheduler(vm, "pct", "depth=2 seed=9"));
  CHECK(t, drvm_set_detector(vm, "ft", "all-races"));
  CHECK(t, drvm_set_detector(vm, "djit", NULL));
  DrvmResult r;
  CHECK(t, drvm_run(vm, 0, NULL, &r) == 66);
  CHECK(t, r.seed == 9);
  CHECK(t, r.races >= 1);
  /* after the start nothing more can be chosen */
  CHECK(t, !drvm_set_scheduler(vm, "random", NULL));
  CHECK_HAS(t, drvm_error(vm), "drvm_set_scheduler");
  CHECK(t, !drvm_set_detector(vm, "ft", NULL));
  drvm_free(vm);
  sinks_free(&s);

  /* without seed=, the config's seed; "none" detects nothing */
  vm = vm_with(SRC, &s, 12, 0);
  CHECK(t, drvm_set_scheduler(vm, "random", "quantum=3") && drvm_set_detector(vm, "none", NULL));
  CHECK(t, drvm_run(vm, 0, NULL, &r) == 0);
  CHECK(t, r.seed == 12 && r.races == 0);
  drvm_free(vm);
  sinks_free(&s);
}

/* One option checked without a VM; a recording's seed read without one. */
static void without_a_vm(Check *t) {
  char err[200];
  CHECK(t, drvm_scheduler_option_check("depth", "3", err, sizeof err));
  CHECK(t, !drvm_scheduler_option_check("depth", "0", err, sizeof err));
  CHECK_STR(t, err, "depth takes 1..1000, not '0'");
  CHECK(t, !drvm_scheduler_option_check("pair", "x", err, sizeof err));
  CHECK_STR(t, err, "pair takes a pair number 1, 2, ..., not 'x'");
  CHECK(t, !drvm_scheduler_option_check("frob", "1", err, sizeof err));
  CHECK_HAS(t, err, "unknown option 'frob'");
  CHECK(t, drvm_detector_option_check("all-races", NULL, err, sizeof err));
  CHECK(t, !drvm_detector_option_check("json", "", err, sizeof err));
  char path[] = "/tmp/drvm-api-seed-XXXXXX";
  int fd = mkstemp(path);
  CHECK(t, fd >= 0);
  if (fd < 0) return;
  close(fd);
  Sinks s = {0};
  DrVM *vm = vm_with(SRC, &s, 4242, 0);
  uint64_t seed = 0;
  CHECK(t, vm && drvm_record(vm, path) && drvm_run(vm, 0, NULL, NULL) >= 0);
  drvm_free(vm);
  CHECK(t, drvm_recording_seed(path, &seed, err, sizeof err) && seed == 4242);
  CHECK(t, !drvm_recording_seed("/nonexistent/x", &seed, err, sizeof err));
  CHECK_HAS(t, err, "cannot read /nonexistent/x");
  unlink(path);
  sinks_free(&s);
}

int main(void) {
  Check t = {0};
  without_a_vm(&t);
  lists(&t);
  errors(&t);
  choose(&t);
  return CHECK_DONE(&t);
}
