/* Listeners (drvm_add_listener): counts by kind with a mask and with 0
 * (all), one known write's fields, the order listeners are told in, and
 * that a listener cannot drive the VM (re-entry refused). */
#include "check.h"

/* 5 synchronized blocks run (2 threads x 2 + main's 1), 2 threads
 * started and joined, one write of Account#1.balance on line 17. */
static const char SRC[] = "public class Events {\n"
                          "  static final Object lock = new Object();\n"
                          "  static int shared;\n"
                          "  static class Account {\n"
                          "    int balance;\n"
                          "  }\n"
                          "  static class Worker implements Runnable {\n"
                          "    public void run() {\n"
                          "      for (int i = 0; i < 2; i++) {\n"
                          "        synchronized (lock) { shared++; }\n"
                          "      }\n"
                          "    }\n"
                          "  }\n"
                          "  public static void main(String[] args) throws InterruptedException {\n"
                          "    Account acc = new Account();\n"
                          "    Thread a = new Thread(new Worker()), b = new Thread(new Worker());\n"
                          "    acc.balance = 42;\n"
                          "    a.start();\n"
                          "    b.start();\n"
                          "    synchronized (lock) { shared++; }\n"
                          "    a.join();\n"
                          "    b.join();\n"
                          "    System.out.println(shared + \" \" + acc.balance);\n"
                          "  }\n"
                          "}\n";

typedef struct {
  int count[DRVM_EV__COUNT];
  int outside;          /* events of kinds not in the mask */
  uint32_t mask;
  int balance_writes;   /* writes of Account.balance */
  int shared_writes;    /* writes of Events.shared */
  DrvmEvent balance;    /* the write of acc.balance (strings copied below) */
  char cls[64], field[64], method_class[64], method[64], text[200];
  int forked[4], nforked;
  int seq[64], nseq;    /* which listener was told, in order (shared by two) */
  int tag;
  int *order;           /* where this listener appends its tag */
  int *norder;
} Counter;

static void copy(char *dst, size_t size, const char *s) { snprintf(dst, size, "%s", s ? s : "(null)"); }

static void count_event(void *user, DrVM *vm, const DrvmEvent *e) {
  Counter *c = user;
  (void)vm;
  if ((unsigned)e->kind >= DRVM_EV__COUNT) return;
  c->count[e->kind]++;
  if (c->mask && !(c->mask & DRVM_EV_BIT(e->kind))) c->outside++;
  if (c->order && *c->norder < 64) c->order[(*c->norder)++] = c->tag;
  if (e->kind == DRVM_EV_FORK && c->nforked < 4) c->forked[c->nforked++] = e->other;
  if (e->kind != DRVM_EV_WRITE || !e->field) return;
  if (!strcmp(e->field, "shared")) c->shared_writes++;
  if (!strcmp(e->field, "balance")) {
    if (c->balance_writes++ == 0) {
      c->balance = *e;
      copy(c->cls, sizeof c->cls, e->cls);
      copy(c->field, sizeof c->field, e->field);
      copy(c->method_class, sizeof c->method_class, e->method_class);
      copy(c->method, sizeof c->method, e->method);
      drvm_event_text(e, c->text, sizeof c->text);
    }
  }
}

static void counts(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(SRC, &s, 1, 0);
  Counter some = {0}, all = {0};
  some.mask = DRVM_EV_BIT(DRVM_EV_WRITE) | DRVM_EV_BIT(DRVM_EV_ACQUIRE) | DRVM_EV_BIT(DRVM_EV_FORK);
  int order[64], norder = 0;
  some.tag = 1, some.order = order, some.norder = &norder;
  all.tag = 2, all.order = order, all.norder = &norder;
  CHECK(t, vm && drvm_set_scheduler(vm, "random", NULL));
  CHECK(t, drvm_add_listener(vm, some.mask, count_event, &some));
  CHECK(t, drvm_add_listener(vm, 0, count_event, &all));
  CHECK(t, !drvm_add_listener(vm, 0, NULL, NULL));
  DrvmResult r;
  CHECK(t, drvm_run(vm, 0, NULL, &r) == 0);
  CHECK_STR(t, out_text(&s.out), "5 42\n");
  CHECK(t, !drvm_add_listener(vm, 0, count_event, &all)); /* after the run */
  drvm_free(vm);
  sinks_free(&s);

  /* the masked listener: only its kinds, the program's counts */
  CHECK(t, some.outside == 0);
  CHECK(t, some.count[DRVM_EV_ACQUIRE] == 5);
  CHECK(t, some.count[DRVM_EV_FORK] == 2);
  CHECK(t, some.count[DRVM_EV_READ] == 0 && some.count[DRVM_EV_RELEASE] == 0 && some.count[DRVM_EV_END] == 0);
  CHECK(t, some.shared_writes == 5);
  CHECK(t, some.balance_writes == 1);
  CHECK(t, some.nforked == 2 && some.forked[0] == 1 && some.forked[1] == 2);

  /* the listener of everything sees the same and more */
  CHECK(t, all.count[DRVM_EV_ACQUIRE] == 5 && all.count[DRVM_EV_RELEASE] == 5);
  CHECK(t, all.count[DRVM_EV_FORK] == 2 && all.count[DRVM_EV_JOIN] == 2);
  CHECK(t, all.count[DRVM_EV_END] == 3);
  CHECK(t, all.count[DRVM_EV_WRITE] == some.count[DRVM_EV_WRITE]);
  CHECK(t, all.count[DRVM_EV_READ] >= 5);
  CHECK(t, all.count[DRVM_EV_CALL] > 0 && all.count[DRVM_EV_NEW] > 0);
  CHECK(t, all.shared_writes == 5 && all.balance_writes == 1);

  /* listeners are told in the order they were added */
  int firsts = 0, misordered = 0;
  for (int i = 0; i < norder; i++) {
    firsts += order[i] == 1;
    if (order[i] == 1 && (i + 1 >= norder || order[i + 1] != 2)) misordered++;
  }
  CHECK(t, firsts > 0 && misordered == 0);

  /* the write of acc.balance, field by field */
  const DrvmEvent *e = &some.balance;
  CHECK(t, e->kind == DRVM_EV_WRITE);
  CHECK(t, e->thread == 0);
  CHECK(t, e->other == -1);
  CHECK_STR(t, some.cls, "Events$Account");
  CHECK_STR(t, some.field, "balance");
  CHECK(t, e->object == 1);
  CHECK(t, e->index == -1 && !e->is_static);
  CHECK_STR(t, some.method_class, "Events");
  CHECK_STR(t, some.method, "main");
  CHECK(t, e->line == 17);
  CHECK_STR(t, some.text, "write Events$Account#1.balance at prog.dl:17 (Events.main)");
}

/* A listener may only inspect: driving the VM from inside fails. */
typedef struct {
  int calls, decide_ok, run_ok, start_ok, finish_ok, inspect_ok;
  char err[200];
} Reenter;

static void reenter(void *user, DrVM *vm, const DrvmEvent *e) {
  Reenter *r = user;
  r->calls++;
  r->decide_ok += drvm_decide(vm, e->thread);
  r->decide_ok += drvm_decide(vm, DRVM_SUGGESTED);
  r->run_ok += drvm_run_to_end(vm);
  r->start_ok += drvm_start(vm, 0, NULL);
  r->finish_ok += drvm_finish(vm, NULL) >= 0;
  copy(r->err, sizeof r->err, drvm_error(vm));
  DrvmThreadInfo ti;
  r->inspect_ok += drvm_thread_info(vm, e->thread, &ti) && ti.id == e->thread;
}

static void reentry(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(SRC, &s, 1, 0);
  Reenter re = {0};
  CHECK(t, vm && drvm_add_listener(vm, DRVM_EV_BIT(DRVM_EV_ACQUIRE), reenter, &re));
  CHECK(t, drvm_set_stepping(vm, 0, true));
  CHECK(t, drvm_start(vm, 0, NULL));
  DrvmDecision d;
  while (drvm_run_until_decision(vm, &d) == 1 && drvm_decide(vm, DRVM_SUGGESTED)) {
  }
  DrvmResult r;
  CHECK(t, drvm_finish(vm, &r) == 0);
  CHECK_STR(t, out_text(&s.out), "5 42\n");
  CHECK(t, re.calls == 5);
  CHECK(t, re.decide_ok == 0);
  CHECK(t, re.run_ok == 0);
  CHECK(t, re.start_ok == 0);
  CHECK(t, re.finish_ok == 0);
  CHECK(t, re.inspect_ok == 5);
  CHECK_HAS(t, re.err, "listener");
  drvm_free(vm);
  sinks_free(&s);
}

/* Listeners only look: the run with them is the run without them. */
static void unchanged(Check *t) {
  Sinks s1 = {0}, s2 = {0};
  DrVM *a = vm_with(SRC, &s1, 3, 0), *b = vm_with(SRC, &s2, 3, 0);
  Counter c = {0};
  CHECK(t, a && b && drvm_set_scheduler(a, "random", NULL) && drvm_set_scheduler(b, "random", NULL));
  CHECK(t, drvm_add_listener(b, 0, count_event, &c));
  DrvmResult r1, r2;
  CHECK(t, drvm_run(a, 0, NULL, &r1) == 0 && drvm_run(b, 0, NULL, &r2) == 0);
  CHECK(t, r1.steps == r2.steps && r1.decisions == r2.decisions);
  CHECK_STR(t, out_text(&s2.out), out_text(&s1.out));
  CHECK(t, c.count[DRVM_EV_ACQUIRE] == 5);
  drvm_free(a);
  drvm_free(b);
  sinks_free(&s1);
  sinks_free(&s2);
}

int main(void) {
  Check t = {0};
  counts(&t);
  unchanged(&t);
  reentry(&t);
  return CHECK_DONE(&t);
}
