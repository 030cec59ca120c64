/* Accordion clocks (detector/det_accordion.c, TRaDe) from the inside and
 * from the outside.  First the compaction alone: which epochs and clock
 * vector entries of dead slots a scan forgets (those every running thread
 * has seen) and which keep their slot; how a reused slot's clocks map back
 * to the threads that held it.  Then real programs through the public
 * header, with detector option "clocks=accordion" and "clocks=grow": the
 * same races, named alike, and slots really reused. */
#include <string.h>

#include "../../detector/det.h"
#include "../../include/drvm.h"
#include "check.h"

/* ================================================ forgetting epochs */

static void test_forget_epoch(DrCheck *t) {
  /* slots 0..3: 1 and 3 dead; running threads have seen slot 1 up to 5
   * and slot 3 up to 2 */
  uint32_t fl[4] = {9, 5, 9, 2};
  DrVC floor = {fl, 4, 4};
  uint8_t dead[4] = {0, 1, 0, 1}, still[4] = {0};

  DrEpoch e = DR_EPOCH(1, 5); /* seen by all: forgotten */
  CHECK(t, dr_det_forget_epoch(&e, &floor, dead, still));
  CHECK(t, e == DR_EPOCH_NONE);
  CHECK(t, !still[1]);

  e = DR_EPOCH(3, 3); /* some running thread has not seen it: kept, slot kept */
  CHECK(t, !dr_det_forget_epoch(&e, &floor, dead, still));
  CHECK(t, e == DR_EPOCH(3, 3));
  CHECK(t, still[3] == 1);

  e = DR_EPOCH(2, 1); /* a live thread's epoch: never touched */
  CHECK(t, !dr_det_forget_epoch(&e, &floor, dead, still));
  CHECK(t, e == DR_EPOCH(2, 1));
  CHECK(t, !still[2]);

  e = DR_EPOCH_NONE; /* no access: nothing to do (0@0 is slot 0's, not dead) */
  CHECK(t, !dr_det_forget_epoch(&e, &floor, dead, still));
  CHECK(t, e == DR_EPOCH_NONE);
}

static void test_forget_cvc(DrCheck *t) {
  uint32_t fl[4] = {9, 5, 9, 2};
  DrVC floor = {fl, 4, 4};
  uint8_t dead[4] = {0, 1, 0, 1}, still[4] = {0};
  uint32_t ctx[4] = {11, 12, 13, 14};
  uint64_t seq[4] = {1, 2, 3, 4};
  DrCtxVC v;
  memset(&v, 0, sizeof v);
  v.vc.c = v.small;
  v.vc.cap = DR_CVC_SMALL;
  v.vc.n = 4;
  v.small[0] = 7; /* live */
  v.small[1] = 4; /* dead, seen: goes */
  v.small[2] = 3; /* live */
  v.small[3] = 6; /* dead, not seen: stays */
  v.ctx = ctx;
  v.seq = seq;
  v.cap = 4;
  CHECK(t, dr_det_forget_cvc(&v, &floor, dead, still) == 1);
  CHECK(t, v.small[0] == 7 && v.small[2] == 3);
  CHECK(t, v.small[1] == 0 && ctx[1] == 0 && seq[1] == 0);
  CHECK(t, v.small[3] == 6 && ctx[3] == 14);
  CHECK(t, !still[1] && still[3]);
  /* an unordered entry is still found as the most recent one after it */
  uint32_t cf[4] = {9, 9, 9, 5};
  DrVC C = {cf, 4, 4};
  uint32_t who = 99;
  CHECK(t, dr_cvc_unordered(&v, &C, &who) && who == 3);
}

/* ================================================ slots back to threads */

static void test_slot_tid(DrCheck *t) {
  DrDet d;
  memset(&d, 0, sizeof d);
  DrDetThread th[2];
  memset(th, 0, sizeof th);
  DrSlotGen g0[1] = {{1, 0}};              /* main, never reused */
  DrSlotGen g1[3] = {{1, 4}, {6, 9}, {20, 15}}; /* T4 up to 5, T9 up to 19, then T15 */
  th[0].gens = g0;
  th[0].ngens = 1;
  th[1].gens = g1;
  th[1].ngens = 3;
  d.threads = th;
  d.nthreads = 2;
  uint32_t rel = 0;
  CHECK(t, dr_det_slot_tid(&d, 0, 42, &rel) == 0 && rel == 42);
  CHECK(t, dr_det_slot_tid(&d, 1, 3, &rel) == 4 && rel == 3);
  CHECK(t, dr_det_slot_tid(&d, 1, 5, &rel) == 4 && rel == 5);
  CHECK(t, dr_det_slot_tid(&d, 1, 6, &rel) == 9 && rel == 1); /* a holder's first clock is its 1 */
  CHECK(t, dr_det_slot_tid(&d, 1, 19, &rel) == 9 && rel == 14);
  CHECK(t, dr_det_slot_tid(&d, 1, 25, &rel) == 15 && rel == 6);
  CHECK(t, dr_det_slot_tid(&d, 1, 0, &rel) == 4 && rel == 0); /* Eraser's clockless accesses */
}

/* ================================================ real programs */

typedef struct {
  char err[65536];
  size_t nerr;
} Captured;

static void capture(void *user, const char *text, size_t len) {
  Captured *c = user;
  if (!c) return;
  size_t room = sizeof c->err - 1 - c->nerr;
  if (len > room) len = room;
  memcpy(c->err + c->nerr, text, len);
  c->nerr += len;
  c->err[c->nerr] = 0;
}

typedef struct {
  char keys[64][512];
  int n;
  unsigned long long reused, retired;
} Races;

static unsigned long long stat_of(const char *err, const char *name) {
  const char *p = strstr(err, name);
  return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

static bool run_prog(const char *src, const char *det, const char *clocks, const char *sched, uint64_t seed,
                     Races *out) {
  memset(out, 0, sizeof *out);
  static Captured cap;
  memset(&cap, 0, sizeof cap);
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.seed = seed;
  cfg.max_steps = 5000000;
  cfg.write_out = capture;
  cfg.write_err = capture;
  cfg.write_user = &cap;
  char err[256], opts[128];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  if (!vm) return false;
  snprintf(opts, sizeof opts, "all-races stats clocks=%s", clocks);
  bool ok = drvm_compile_string(vm, "acc.dl", src, strlen(src)) && drvm_set_scheduler(vm, sched, NULL) &&
            drvm_set_detector(vm, det, opts) && drvm_start(vm, 0, NULL) && drvm_run_to_end(vm);
  if (!ok) {
    fprintf(stderr, "run_prog %s %s %s: %s\n", det, clocks, sched, drvm_error(vm));
    drvm_free(vm);
    return false;
  }
  for (int i = 0; i < drvm_race_count(vm) && out->n < 64; i++) {
    DrvmRace r;
    if (!drvm_race(vm, i, &r)) continue;
    /* everything a user sees of it but the rerun command (it names the option) */
    char text[400];
    snprintf(text, sizeof text, "%s", r.text ? r.text : "");
    char *replay = strstr(text, "Replay:");
    if (replay) *replay = 0;
    snprintf(out->keys[out->n++], sizeof out->keys[0], "%s|T%d %c|T%d %c|%s", r.location, r.thread,
             r.write ? 'w' : 'r', r.prev_thread, r.prev_write ? 'w' : 'r', text);
  }
  DrvmResult res;
  drvm_finish(vm, &res);
  drvm_free(vm);
  out->reused = stat_of(cap.err, "clock slots reused");
  out->retired = stat_of(cap.err, "ended threads retired");
  return true;
}

/* Threads that end, are collected and give their slots back, beside an
 * unjoined writer (its slot must stay taken: Late races with it) and a
 * race between two threads that both hold reused slots (Left, Right). */
static const char *const WAVES =
    "public class Waves {\n"
    "  static int early, pair; static int[] sink = new int[8]; static int[] garbage;\n"
    "  static class Early extends Thread { public void run() { early = 1; } }\n"
    "  static class Late extends Thread { public void run() { early = 2; } }\n"
    "  static class Left extends Thread { public void run() { pair = 1; } }\n"
    "  static class Right extends Thread { public void run() { pair = 2; } }\n"
    "  static class J extends Thread { final int i; J(int i) { this.i = i; }\n"
    "    public void run() { sink[i % 8] = i; } }\n"
    "  public static void main(String[] a) throws InterruptedException {\n"
    "    new Early().start(); Thread.sleep(5);\n"
    "    for (int r = 0; r < 25; r++) {\n"
    "      for (int k = 0; k < 10; k++) { Thread t = new J(r * 10 + k); t.start(); t.join(); }\n"
    "      garbage = new int[300000];\n"
    "    }\n"
    "    Thread l = new Late(); l.start(); l.join();\n"
    "    Thread x = new Left(), y = new Right(); x.start(); y.start(); x.join(); y.join();\n"
    "    System.out.println(\"done\");\n"
    "  }\n"
    "}\n";

static void test_programs(DrCheck *t) {
  static const char *const dets[] = {"ft", "djit", "basicvc"};
  static const char *const scheds[] = {"native", "random"};
  for (int di = 0; di < 3; di++)
    for (int si = 0; si < 2; si++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        static Races grow, acc;
        CHECK(t, run_prog(WAVES, dets[di], "grow", scheds[si], seed, &grow));
        CHECK(t, run_prog(WAVES, dets[di], "accordion", scheds[si], seed, &acc));
        CHECK(t, grow.reused == 0);
        CHECK(t, acc.reused > 100); /* 250 joined threads, collections every few rounds */
        CHECK(t, acc.retired > 100);
        CHECK(t, grow.n == acc.n);
        bool same = grow.n == acc.n, early = false, pair = false;
        for (int i = 0; same && i < grow.n; i++) same = !strcmp(grow.keys[i], acc.keys[i]);
        for (int i = 0; i < acc.n; i++) {
          early = early || !strncmp(acc.keys[i], "Waves.early|", 12);
          pair = pair || !strncmp(acc.keys[i], "Waves.pair|", 11);
        }
        CHECK(t, same);
        CHECK(t, early && pair);
        if (!same)
          for (int i = 0; i < grow.n || i < acc.n; i++)
            fprintf(stderr, "  grow: %s\n  acc:  %s\n", i < grow.n ? grow.keys[i] : "-", i < acc.n ? acc.keys[i] : "-");
      }
}

int main(void) {
  DrCheck t = {0, 0};
  test_forget_epoch(&t);
  test_forget_cvc(&t);
  test_slot_tid(&t);
  test_programs(&t);
  return CHECK_DONE(&t);
}
