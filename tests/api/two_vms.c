/* Two VMs in one process, stepped alternately decision by decision:
 * each gives exactly the run it gives alone (no shared state). */
#include "check.h"

/* Output that depends on the interleaving: who prints when, and how
 * many updates are lost. */
static const char PRINTERS[] = "public class Printers {\n"
                               "  static int count;\n"
                               "  static class P implements Runnable {\n"
                               "    final String name;\n"
                               "    P(String name) { this.name = name; }\n"
                               "    public void run() {\n"
                               "      for (int i = 0; i < 4; i++) { count++; System.out.print(name + i + \" \"); }\n"
                               "    }\n"
                               "  }\n"
                               "  public static void main(String[] args) throws InterruptedException {\n"
                               "    Thread a = new Thread(new P(\"a\")), b = new Thread(new P(\"b\"));\n"
                               "    a.start();\n"
                               "    b.start();\n"
                               "    for (int i = 0; i < 4; i++) count++;\n"
                               "    a.join();\n"
                               "    b.join();\n"
                               "    System.out.println(\"count \" + count);\n"
                               "  }\n"
                               "}\n";

static const char QUEUE[] = "public class Queue {\n"
                            "  static final int[] buf = new int[2];\n"
                            "  static int n, sum;\n"
                            "  static class Producer implements Runnable {\n"
                            "    public void run() {\n"
                            "      for (int i = 1; i <= 6; i++) {\n"
                            "        synchronized (buf) {\n"
                            "          while (n == buf.length) { try { buf.wait(); } catch (InterruptedException e) { } }\n"
                            "          buf[n++] = i;\n"
                            "          System.out.println(\"put \" + i);\n"
                            "          buf.notifyAll();\n"
                            "        }\n"
                            "      }\n"
                            "    }\n"
                            "  }\n"
                            "  public static void main(String[] args) throws InterruptedException {\n"
                            "    new Thread(new Producer()).start();\n"
                            "    for (int k = 0; k < 6; k++) {\n"
                            "      synchronized (buf) {\n"
                            "        while (n == 0) buf.wait();\n"
                            "        int v = buf[--n];\n"
                            "        sum += v;\n"
                            "        System.out.println(\"got \" + v);\n"
                            "        buf.notifyAll();\n"
                            "      }\n"
                            "    }\n"
                            "    System.out.println(\"sum \" + sum);\n"
                            "  }\n"
                            "}\n";

typedef struct {
  const char *src, *sched, *options;
} Setup;

typedef struct {
  Sinks s;
  DrvmResult r;
  int status;
  DrVM *vm;
  int stops;
} Run;

static DrVM *make(const Setup *u, Sinks *s) {
  DrVM *vm = vm_with(u->src, s, 11, 0);
  if (vm && !drvm_set_scheduler(vm, u->sched, u->options)) {
    fprintf(stderr, "%s\n", drvm_error(vm));
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

static void alone(const Setup *u, Run *out) {
  memset(out, 0, sizeof *out);
  DrVM *vm = make(u, &out->s);
  out->status = vm ? drvm_run(vm, 0, NULL, &out->r) : -100;
  drvm_free(vm);
}

/* One step of a stepped run: true while it goes on. */
static bool step(Run *x) {
  if (!x->vm) return false;
  DrvmDecision d;
  if (drvm_run_until_decision(x->vm, &d) == 1 && drvm_decide(x->vm, DRVM_SUGGESTED)) {
    x->stops++;
    return true;
  }
  x->status = drvm_finish(x->vm, &x->r);
  drvm_free(x->vm);
  x->vm = NULL;
  return false;
}

static void interleaved(Check *t, const Setup *ua, const Setup *ub) {
  Run la, lb, a, b;
  alone(ua, &la);
  alone(ub, &lb);
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.vm = make(ua, &a.s);
  b.vm = make(ub, &b.s);
  CHECK(t, a.vm && b.vm);
  CHECK(t, drvm_set_stepping(a.vm, 0, true) && drvm_set_stepping(b.vm, 0, true));
  CHECK(t, drvm_start(a.vm, 0, NULL) && drvm_start(b.vm, 0, NULL));
  bool go_a = true, go_b = true;
  while (go_a || go_b) {
    if (go_a) go_a = step(&a);
    if (go_b) go_b = step(&b);
  }
  CHECK(t, a.stops > 5 && b.stops > 5);
  CHECK(t, la.status >= 0 && lb.status >= 0);
  CHECK_STR(t, out_text(&a.s.out), out_text(&la.s.out));
  CHECK_STR(t, out_text(&b.s.out), out_text(&lb.s.out));
  CHECK_STR(t, out_text(&a.s.err), out_text(&la.s.err));
  CHECK_STR(t, out_text(&b.s.err), out_text(&lb.s.err));
  CHECK(t, a.status == la.status && b.status == lb.status);
  CHECK(t, a.r.outcome == la.r.outcome && b.r.outcome == lb.r.outcome);
  CHECK(t, a.r.steps == la.r.steps && b.r.steps == lb.r.steps);
  CHECK(t, a.r.decisions == la.r.decisions && b.r.decisions == lb.r.decisions);
  sinks_free(&la.s);
  sinks_free(&lb.s);
  sinks_free(&a.s);
  sinks_free(&b.s);
}

int main(void) {
  Check t = {0};
  Setup printers3 = {PRINTERS, "random", "seed=3"};
  Setup printers4 = {PRINTERS, "random", "seed=4"};
  Setup queue_pct = {QUEUE, "pct", "depth=2 seed=9"};
  Setup queue_native = {QUEUE, "native", NULL};
  interleaved(&t, &printers3, &queue_pct);    /* different programs */
  interleaved(&t, &printers3, &printers4);    /* one program, two seeds */
  interleaved(&t, &queue_native, &printers4); /* different schedulers */

  /* the two seeds really give different runs (else the above proves less) */
  Run x, y;
  alone(&printers3, &x);
  alone(&printers4, &y);
  CHECK(&t, strcmp(out_text(&x.s.out), out_text(&y.s.out)) != 0);
  sinks_free(&x.s);
  sinks_free(&y.s);
  return CHECK_DONE(&t);
}
