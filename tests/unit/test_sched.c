/* The scheduler interface and the event stream, from the outside: a
 * scripted scheduler and a counting listener plugged into real runs.
 * Checks what schedulers see (pending events, enabled threads, reasons),
 * that holding a thread back works, that listeners see balanced
 * synchronization, and that two VMs with one seed run identically side by
 * side in one process. */
#include <string.h>

#include "../../compiler/compile.h"
#include "../../scheduler/sched.h"
#include "../../vm/trace.h"
#include "check.h"
#include "run_prog.h"


static const char *const counter_prog =
    "public class Main {\n"
    "  public static void main(String[] a) throws Exception {\n"
    "    Counter c = new Counter();\n"
    "    Worker w1 = new Worker(c, \"a\"), w2 = new Worker(c, \"b\");\n"
    "    w1.start(); w2.start(); w1.join(); w2.join();\n"
    "    System.out.println(c.log + \" \" + c.n);\n"
    "  }\n"
    "}\n"
    "class Counter { int n; String log = \"\"; synchronized void inc(String who) { n++; log = log + who; } }\n"
    "class Worker extends Thread {\n"
    "  Counter c; String who;\n"
    "  Worker(Counter c, String who) { this.c = c; this.who = who; }\n"
    "  public void run() { for (int i = 0; i < 3; i++) c.inc(who); }\n"
    "}\n";

/* Runs main while it can, then the enabled thread with the highest id:
 * both workers are held back until main joins, then the last started
 * runs first. */
typedef struct {
  DrScheduler base;
  DrCheck *t;
  int picks, preempts, blocked, acquires_seen, bad_enabled;
  int max_enabled;
} Scripted;

static DrThread *scripted_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Scripted *sc = (Scripted *)s;
  sc->picks++;
  if (reason == DR_PICK_PREEMPT) sc->preempts++;
  if (reason == DR_PICK_BLOCKED) sc->blocked++;
  DrThread *const *en;
  int n = dr_sched_enabled(vm, &en);
  if (n > sc->max_enabled) sc->max_enabled = n;
  for (int i = 0; i < n; i++) {
    DrEvent ev;
    dr_sched_pending(vm, en[i], &ev);
    if (ev.kind == DR_EV_ACQUIRE) {
      sc->acquires_seen++;
      /* an enabled acquisition never waits for a monitor someone else holds */
      if (ev.obj && ev.obj->monitor && ev.obj->monitor->owner && ev.obj->monitor->owner != en[i]) sc->bad_enabled++;
      if (!ev.method || strcmp(ev.method->name, "inc") != 0) sc->bad_enabled++;
    }
  }
  (void)cur;
  return en[0]->id == 0 ? en[0] : en[n - 1];
}

static int scripted_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *w, int n) {
  (void)s, (void)vm, (void)lock, (void)w;
  return n - 1;
}

static uint64_t scripted_quantum(DrScheduler *s, DrVM *vm, DrThread *t) {
  (void)s, (void)vm, (void)t;
  return 7;
}

static void scripted_destroy(DrScheduler *s) { (void)s; }

typedef struct {
  DrListener base;
  int count[DR_EV__COUNT];
  DrBuf text;
} Counting;

static void counting_event(DrListener *self, DrVM *vm, const DrEvent *e) {
  Counting *c = (Counting *)self;
  c->count[e->kind]++;
  dr_event_line(vm, e, &c->text);
}

static char *run(DrVM *vm, DrClass *main, int *status) { return run_captured_io(vm, main, status, false); }

static void test_scripted(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  vm.source_name = "t.dl";
  DrClass *m = compile_text(&vm, counter_prog, "t.dl");
  CHECK(t, m != NULL);
  if (!m) return;
  Scripted sc;
  memset(&sc, 0, sizeof sc);
  sc.base.name = "scripted";
  sc.base.pick = scripted_pick;
  sc.base.pick_waiter = scripted_waiter;
  sc.base.quantum = scripted_quantum;
  sc.base.destroy = scripted_destroy;
  sc.t = t;
  dr_vm_set_scheduler(&vm, &sc.base, 0);
  Counting cnt;
  memset(&cnt, 0, sizeof cnt);
  cnt.base.name = "count";
  cnt.base.event = counting_event;
  dr_add_listener(&vm, &cnt.base);
  int status;
  char *out = run(&vm, m, &status);
  CHECK(t, status == 0);
  /* the last started thread (b) always goes first: holding back works */
  CHECK(t, strcmp(out, "bbbaaa 6\n") == 0);
  CHECK(t, sc.picks > 0);
  CHECK(t, sc.preempts > 0);          /* quantum 7 ran out */
  CHECK(t, sc.blocked >= 2);          /* joins and thread ends */
  CHECK(t, sc.acquires_seen > 0);
  CHECK(t, sc.bad_enabled == 0);
  CHECK(t, sc.max_enabled == 3);
  CHECK(t, cnt.count[DR_EV_FORK] == 2);
  CHECK(t, cnt.count[DR_EV_JOIN] == 2);
  CHECK(t, cnt.count[DR_EV_END] == 3);
  CHECK(t, cnt.count[DR_EV_ACQUIRE] == 6 && cnt.count[DR_EV_RELEASE] == 6);
  CHECK(t, cnt.count[DR_EV_CALL] == cnt.count[DR_EV_RETURN]);
  CHECK(t, cnt.count[DR_EV_WRITE] >= 12);
  CHECK(t, strstr(cnt.text.data, "T2 Thread-1  acq  Counter#1  t.dl:9  Counter.inc\n") != NULL);
  CHECK(t, strstr(cnt.text.data, "T0 main  fork T1 Thread-0  t.dl:5  Main.main\n") != NULL);
  free(out);
  free(cnt.text.data);
  vm.listeners = NULL;
  dr_vm_free(&vm);
}

/* Three VMs alive at once in one process, all compiled before any runs:
 * two with one seed report the same events in the same order, the third
 * (another seed) interleaves differently -- no state is shared. */
static void test_two_vms_same_seed(DrCheck *t) {
  DrVM vm[3];
  DrClass *m[3];
  Counting cnt[3];
  for (int k = 0; k < 3; k++) {
    dr_vm_init(&vm[k]);
    m[k] = compile_text(&vm[k], counter_prog, "t.dl");
    CHECK(t, m[k] != NULL);
    DrSchedOptions so = {.seed = k < 2 ? 42u : 43u, .noise = -1};
    dr_vm_set_scheduler(&vm[k], dr_sched_create("random", &so), 0);
    memset(&cnt[k], 0, sizeof cnt[k]);
    cnt[k].base.name = "count";
    cnt[k].base.event = counting_event;
    dr_add_listener(&vm[k], &cnt[k].base);
  }
  for (int k = 2; k >= 0; k--) {
    int status = -1;
    char *out = m[k] ? run(&vm[k], m[k], &status) : NULL;
    CHECK(t, status == 0);
    free(out);
  }
  char *texts[3];
  for (int k = 0; k < 3; k++) {
    texts[k] = cnt[k].text.data ? cnt[k].text.data : calloc(1, 1);
    vm[k].sched->destroy(vm[k].sched);
    vm[k].listeners = NULL;
    dr_vm_free(&vm[k]);
  }
  CHECK(t, strcmp(texts[0], texts[1]) == 0);
  CHECK(t, strcmp(texts[0], texts[2]) != 0); /* another seed, another interleaving */
  for (int k = 0; k < 3; k++) free(texts[k]);
}

/* Systematic exploration's building block: record a run, replay all of
 * its answers (then rr, never asked) for the identical run, and replay a
 * prefix of them continued by other schedulers: every such run completes
 * and starts like the recorded one. */
static void test_prefix_replay(DrCheck *t) {
  DrSchedAnswer *answers = NULL;
  int nanswers = 0;
  char *texts[3] = {NULL, NULL, NULL};
  unsigned points = 0;
  for (int k = 0; k < 3; k++) {
    DrVM vm;
    dr_vm_init(&vm);
    DrClass *m = compile_text(&vm, counter_prog, "t.dl");
    CHECK(t, m != NULL);
    DrSchedOptions so = {.seed = k == 2 ? 99u : 42u, .noise = -1};
    DrScheduler *rec = NULL;
    char err[300];
    if (k == 0) {
      DrScheduler *inner = dr_sched_create("random", &so);
      points = inner->points;
      rec = dr_sched_record(inner, points, "/dev/null", "t.dl", 0, 42, false, err, sizeof err);
      dr_vm_set_scheduler(&vm, rec, 0);
    } else {
      int n = k == 1 ? nanswers : nanswers / 3;
      dr_vm_set_scheduler(&vm, dr_sched_prefix(answers, n, points, dr_sched_create(k == 1 ? "rr" : "random", &so)), 0);
    }
    Counting cnt;
    memset(&cnt, 0, sizeof cnt);
    cnt.base.name = "count";
    cnt.base.event = counting_event;
    dr_add_listener(&vm, &cnt.base);
    int status = -1;
    char *out = m ? run(&vm, m, &status) : NULL;
    CHECK(t, status == 0);
    CHECK(t, out && strlen(out) == 9 && strcmp(out + 6, " 6\n") == 0);
    free(out);
    if (rec) {
      const DrSchedAnswer *log;
      nanswers = dr_sched_record_log(rec, &log);
      answers = malloc(sizeof *answers * (size_t)(nanswers ? nanswers : 1));
      memcpy(answers, log, sizeof *answers * (size_t)nanswers);
      CHECK(t, dr_sched_record_finish(rec, err, sizeof err));
    }
    texts[k] = cnt.text.data ? cnt.text.data : calloc(1, 1);
    vm.sched->destroy(vm.sched);
    vm.listeners = NULL;
    dr_vm_free(&vm);
  }
  CHECK(t, nanswers > 3);
  CHECK(t, strcmp(texts[0], texts[1]) == 0);
  /* the prefix run starts as the recorded one: its first events agree */
  size_t same = 0;
  while (texts[0][same] && texts[0][same] == texts[2][same]) same++;
  CHECK(t, same > 200);
  for (int k = 0; k < 3; k++) free(texts[k]);
  free(answers);
}

static void test_rng(DrCheck *t) {
  DrRng a, b;
  dr_rng_seed(&a, 7);
  dr_rng_seed(&b, 7);
  bool same = true, in_range = true;
  int hist[3] = {0, 0, 0};
  for (int i = 0; i < 3000; i++) {
    uint64_t x = dr_rng_below(&a, 3);
    same = same && x == dr_rng_below(&b, 3);
    in_range = in_range && x < 3;
    if (x < 3) hist[x]++;
  }
  CHECK(t, same && in_range);
  CHECK(t, hist[0] > 900 && hist[1] > 900 && hist[2] > 900);
  CHECK(t, dr_sched_create("nonesuch", &(DrSchedOptions){.seed = 1, .noise = -1}) == NULL);
}

/* A write's event carries the reference it stores: what publishes an
 * object to other threads (DrEvent.stored). */
typedef struct {
  DrListener base;
  DrBuf text;
} Stores;

static void stores_event(DrListener *self, DrVM *vm, const DrEvent *e) {
  (void)vm;
  Stores *st = (Stores *)self;
  if (e->kind != DR_EV_WRITE && e->kind != DR_EV_VWRITE) return;
  char a[64], b[64];
  dr_buf_printf(&st->text, "%s%s:%s ", e->kind == DR_EV_VWRITE ? "v" : "", dr_class_display_name(e->cls, a, sizeof a),
                e->stored ? dr_class_display_name(e->stored->cls, b, sizeof b) : "-");
}

static void test_stored_reference(DrCheck *t) {
  static const char *const prog = "public class Main {\n"
                                  "  static Box s; static volatile Box v;\n"
                                  "  public static void main(String[] a) {\n"
                                  "    Box b = new Box(); Holder h = new Holder(); Object[] arr = new Object[2];\n"
                                  "    h.box = b; h.n = 3; h.box = null; arr[1] = b; arr[0] = \"x\"; s = b; v = b;\n"
                                  "    int[] ia = new int[1]; ia[0] = 5;\n"
                                  "  }\n"
                                  "}\n"
                                  "class Box { }\n"
                                  "class Holder { Box box; int n; }\n";
  DrVM vm;
  dr_vm_init(&vm);
  vm.source_name = "t.dl";
  DrClass *m = compile_text(&vm, prog, "t.dl");
  CHECK(t, m != NULL);
  if (!m) return;
  Stores st;
  memset(&st, 0, sizeof st);
  st.base.name = "stores";
  st.base.event = stores_event;
  dr_add_listener(&vm, &st.base);
  int status;
  free(run(&vm, m, &status));
  CHECK(t, status == 0);
  const char *want = "Holder:Box Holder:- Holder:- Object[]:Box Object[]:String Main:Box vMain:Box int[]:- ";
  CHECK(t, st.text.data && strcmp(st.text.data, want) == 0);
  if (st.text.data && strcmp(st.text.data, want) != 0) fprintf(stderr, "  writes seen: %s\n", st.text.data);
  free(st.text.data);
  vm.listeners = NULL;
  dr_vm_free(&vm);
}

int main(void) {
  DrCheck t = {0, 0};
  test_scripted(&t);
  test_stored_reference(&t);
  test_two_vms_same_seed(&t);
  test_prefix_replay(&t);
  test_rng(&t);
  return CHECK_DONE(&t);
}
