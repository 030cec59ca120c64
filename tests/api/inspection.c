/* Inspection at decisions: drvm_thread_info (names, states, enabled, the
 * monitor a BLOCKED thread waits for and its owner, a join target),
 * drvm_thread_frame, drvm_thread_lock, drvm_static_value /
 * drvm_field_value, drvm_detector_clock and drvm_detector_explain; a
 * frame's local variables (drvm_frame_local_name, drvm_frame_local). */
#include "check.h"

/* main holds Account#1 and sleeps: Thread-0, having written
 * Bank.counter without a lock, blocks entering deposit (line 6). */
static const char SRC[] = "public class Bank {\n"                                          /* 1 */
                          "  static Account shared;\n"                                     /* 2 */
                          "  static String label = \"bank\";\n"                            /* 3 */
                          "  static int[] hist = new int[3];\n"                            /* 4 */
                          "  static int counter;\n"                                        /* 5 */
                          "  public static void main(String[] args) throws InterruptedException {\n" /* 6 */
                          "    shared = new Account();\n"                                  /* 7 */
                          "    hist[1] = 7;\n"                                             /* 8 */
                          "    Thread t = new Thread(new Worker());\n"                     /* 9 */
                          "    synchronized (shared) {\n"                                  /* 10 */
                          "      shared.balance = 100;\n"                                  /* 11 */
                          "      t.start();\n"                                             /* 12 */
                          "      Thread.sleep(5);\n"                                       /* 13 */
                          "      shared.balance += 1;\n"                                   /* 14 */
                          "    }\n"                                                        /* 15 */
                          "    t.join();\n"                                                /* 16 */
                          "    System.out.println(shared.balance + \" \" + counter);\n"    /* 17 */
                          "  }\n"                                                          /* 18 */
                          "}\n"                                                            /* 19 */
                          "class Account {\n"                                              /* 20 */
                          "  int balance;\n"                                               /* 21 */
                          "  String owner = \"ann\";\n"                                    /* 22 */
                          "  Account next;\n"                                              /* 23 */
                          "  synchronized void deposit(int x) { balance += x; }\n"         /* 24 */
                          "}\n"                                                            /* 25 */
                          "class Worker implements Runnable {\n"                           /* 26 */
                          "  public void run() {\n"                                        /* 27 */
                          "    Bank.counter = 1;\n"                                        /* 28 */
                          "    Bank.shared.deposit(5);\n"                                  /* 29 */
                          "  }\n"                                                          /* 30 */
                          "}\n";                                                           /* 31 */

typedef struct {
  int blocked_seen, joining_seen, end_seen;
} Seen;

static bool value_is(DrVM *vm, const char *obj, const char *field, const char *want) {
  char buf[100];
  bool ok = drvm_field_value(vm, obj, field, buf, sizeof buf) && !strcmp(buf, want);
  if (!ok) fprintf(stderr, "  %s.%s is \"%s\" (%s), not \"%s\"\n", obj, field, buf, drvm_error(vm), want);
  return ok;
}

static bool static_is(DrVM *vm, const char *cls, const char *field, const char *want) {
  char buf[100];
  bool ok = drvm_static_value(vm, cls, field, buf, sizeof buf) && !strcmp(buf, want);
  if (!ok) fprintf(stderr, "  %s.%s is \"%s\" (%s), not \"%s\"\n", cls, field, buf, drvm_error(vm), want);
  return ok;
}

static bool frame_is(DrVM *vm, int thread, int depth, const char *cls, const char *method, int line) {
  DrvmFrame f;
  bool ok = drvm_thread_frame(vm, thread, depth, &f) && !strcmp(f.cls, cls) && !strcmp(f.method, method) &&
            f.line == line;
  if (!ok) fprintf(stderr, "  T%d frame %d: %s.%s:%d\n", thread, depth, f.cls, f.method, f.line);
  return ok;
}

/* T1 blocked on Account#1, which T0 holds (T0 just woke from its sleep). */
static void at_blocked(Check *t, DrVM *vm) {
  DrvmThreadInfo m, w;
  CHECK(t, drvm_thread_info(vm, 0, &m) && drvm_thread_info(vm, 1, &w));
  CHECK_STR(t, m.name, "main");
  CHECK_STR(t, w.name, "Thread-0");
  CHECK(t, m.id == 0 && w.id == 1);
  CHECK(t, m.state == DRVM_TS_RUNNABLE && m.enabled);
  CHECK(t, !w.enabled);
  CHECK_STR(t, drvm_thread_state_word(w.state), "BLOCKED");
  CHECK_STR(t, w.waiting_for, "Account#1");
  CHECK(t, w.lock_owner == 0);
  CHECK_STR(t, m.waiting_for, "");
  CHECK(t, m.lock_owner == -1);
  CHECK(t, m.nlocks == 1 && w.nlocks == 0);
  CHECK(t, w.next.kind == DRVM_EV_ACQUIRE && w.next.thread == 1 && w.next.line == 24);

  char lock[64];
  CHECK(t, drvm_thread_lock(vm, 0, 0, lock, sizeof lock));
  CHECK_STR(t, lock, "Account#1");
  CHECK(t, !drvm_thread_lock(vm, 0, 1, lock, sizeof lock));
  CHECK(t, !drvm_thread_lock(vm, 1, 0, lock, sizeof lock));
  CHECK_HAS(t, drvm_error(vm), "T1");

  CHECK(t, m.nframes == 1 && w.nframes == 3);
  CHECK(t, frame_is(vm, 0, 0, "Bank", "main", 13));
  CHECK(t, frame_is(vm, 1, 0, "Account", "deposit", 24));
  CHECK(t, frame_is(vm, 1, 1, "Worker", "run", 29));
  DrvmFrame f;
  CHECK(t, drvm_thread_frame(vm, 1, 2, &f));
  CHECK_STR(t, f.file, "prelude.dl");
  CHECK(t, drvm_thread_frame(vm, 1, 1, &f));
  CHECK_STR(t, f.file, "prog.dl");
  CHECK(t, !drvm_thread_frame(vm, 1, 3, &f) && !drvm_thread_frame(vm, 1, -1, &f));
  CHECK(t, !drvm_thread_frame(vm, 2, 0, &f));

  /* values */
  CHECK(t, value_is(vm, "Account#1", "balance", "100"));
  CHECK(t, value_is(vm, "Account#1", "owner", "\"ann\""));
  CHECK(t, value_is(vm, "Account#1", "next", "null"));
  CHECK(t, static_is(vm, "Bank", "label", "\"bank\""));
  CHECK(t, static_is(vm, "Bank", "shared", "Account#1"));
  CHECK(t, static_is(vm, "Bank", "counter", "1"));
  /* NOTE: drvm.h's comment shows arrays as "int[3]#1"; the library
   * writes "int[]#1", the name drvm_field_value takes back */
  CHECK(t, static_is(vm, "Bank", "hist", "int[]#1"));
  CHECK(t, value_is(vm, "int[]#1", "1", "7"));
  CHECK(t, value_is(vm, "int[]#1", "0", "0"));
  CHECK(t, value_is(vm, "int[]#1", "length", "3"));
  char buf[100];
  CHECK(t, !drvm_field_value(vm, "int[]#1", "3", buf, sizeof buf));
  CHECK_HAS(t, drvm_error(vm), "no element 3");
  CHECK(t, !drvm_field_value(vm, "int[]#1", "x", buf, sizeof buf));
  CHECK(t, !drvm_field_value(vm, "Account#1", "nope", buf, sizeof buf));
  CHECK_HAS(t, drvm_error(vm), "no field nope");
  CHECK(t, !drvm_field_value(vm, "Account#9", "balance", buf, sizeof buf));
  CHECK_HAS(t, drvm_error(vm), "Account#9");
  CHECK(t, !drvm_static_value(vm, "Nowhere", "x", buf, sizeof buf));
  CHECK_HAS(t, drvm_error(vm), "no class Nowhere");
  CHECK(t, !drvm_static_value(vm, "Bank", "nope", buf, sizeof buf));

  /* the detector: T1's write of Bank.counter is not ordered before T0 */
  CHECK(t, drvm_detector_clock(vm, 0, buf, sizeof buf));
  CHECK_HAS(t, buf, "T0:");
  CHECK(t, drvm_detector_clock(vm, 1, buf, sizeof buf));
  CHECK_HAS(t, buf, "T1:");
  CHECK(t, !drvm_detector_clock(vm, 7, buf, sizeof buf));
  CHECK(t, drvm_detector_explain(vm, "Bank.counter", 0, false, buf, sizeof buf));
  CHECK_HAS(t, buf, "NOT ordered");
  CHECK(t, drvm_detector_explain(vm, "Account#1.balance", 0, true, buf, sizeof buf));
  CHECK(t, strstr(buf, "NOT ordered") == NULL); /* T0 wrote it itself */
  /* array locations are named as drvm.h documents: "int[]#2[3]" (the
   * element's bracket is the one after '#') */
  CHECK(t, drvm_detector_explain(vm, "int[]#1[1]", 1, true, buf, sizeof buf));
  CHECK(t, !drvm_detector_explain(vm, "int[]#1[5]", 1, true, buf, sizeof buf));
  CHECK(t, !drvm_detector_explain(vm, "Bank.nope", 0, true, buf, sizeof buf));
  CHECK(t, !drvm_detector_explain(vm, "nothing", 0, true, buf, sizeof buf));
}

static void at_joining(Check *t, DrVM *vm) {
  DrvmThreadInfo m;
  CHECK(t, drvm_thread_info(vm, 0, &m));
  CHECK_STR(t, drvm_thread_state_word(m.state), "JOINING");
  CHECK(t, !m.enabled);
  CHECK_STR(t, m.waiting_for, "T1");
  CHECK(t, m.nlocks == 0);
  CHECK(t, frame_is(vm, 0, 0, "Bank", "main", 16));
}

/* main about to end, after joining T1: T1's write is ordered now. */
static void at_end(Check *t, DrVM *vm) {
  DrvmThreadInfo m, w;
  CHECK(t, drvm_thread_info(vm, 0, &m) && drvm_thread_info(vm, 1, &w));
  CHECK(t, w.state == DRVM_TS_ENDED && !w.enabled && w.nframes == 0);
  CHECK_STR(t, drvm_thread_state_word(w.state), "TERMINATED");
  /* an ended thread keeps its name */
  CHECK_STR(t, w.name, "Thread-0");
  CHECK(t, m.next.kind == DRVM_EV_END);
  char buf[300];
  CHECK(t, drvm_detector_explain(vm, "Bank.counter", 0, false, buf, sizeof buf));
  CHECK_HAS(t, buf, "ordered");
  CHECK(t, strstr(buf, "NOT ordered") == NULL);
  CHECK(t, value_is(vm, "Account#1", "balance", "106"));
}

static void inspect(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(SRC, &s, 1, 0);
  CHECK(t, vm && drvm_set_stepping(vm, 0, true));
  CHECK(t, drvm_start(vm, 0, NULL));
  CHECK(t, drvm_thread_count(vm) == 1);
  DrvmThreadInfo ti;
  CHECK(t, !drvm_thread_info(vm, 1, &ti));
  CHECK_HAS(t, drvm_error(vm), "no thread T1");
  Seen seen = {0};
  DrvmDecision d;
  while (drvm_run_until_decision(vm, &d) == 1) {
    DrvmThreadInfo m, w;
    bool two = drvm_thread_count(vm) == 2 && drvm_thread_info(vm, 0, &m) && drvm_thread_info(vm, 1, &w);
    if (two && w.state == DRVM_TS_BLOCKED && m.enabled && !seen.blocked_seen++) at_blocked(t, vm);
    if (two && m.state == DRVM_TS_JOINING && !seen.joining_seen++) at_joining(t, vm);
    if (two && m.next.kind == DRVM_EV_END && !seen.end_seen++) at_end(t, vm);
    if (!drvm_decide(vm, DRVM_SUGGESTED)) break;
  }
  CHECK(t, seen.blocked_seen > 0 && seen.joining_seen > 0 && seen.end_seen > 0);
  DrvmResult r;
  CHECK(t, drvm_finish(vm, &r) == 0); /* main reads Bank.counter after the join: no race */
  CHECK_STR(t, out_text(&s.out), "106 1\n");
  drvm_free(vm);
  sinks_free(&s);
}

/* ------------------------------------------------------------ a frame's locals */

static const char LOCALS[] = "public class Locals {\n"                                    /* 1 */
                             "  static int[] vals = {5, 6, 7};\n"                         /* 2 */
                             "  public static void main(String[] args) {\n"               /* 3 */
                             "    int n = 3;\n"                                           /* 4 */
                             "    String s = \"hi\";\n"                                   /* 5 */
                             "    Acct a = new Acct();\n"                                 /* 6 */
                             "    int sum = 0;\n"                                         /* 7 */
                             "    for (int i = 0; i < n; i++) sum += vals[i];\n"          /* 8 */
                             "    int late;\n"                                            /* 9 */
                             "    late = a.work(n + 1, s);\n"                             /* 10 */
                             "    a.bal = late + sum;\n"                                  /* 11 */
                             "    for (int v : vals) a.bal += v;\n"                       /* 12 */
                             "    try { a.fail(); } catch (IllegalStateException e) {\n"  /* 13 */
                             "      a.bal = -1;\n"                                        /* 14 */
                             "    } { int tmp = n; sum += tmp; }\n"                       /* 15 */
                             "    int got = a.peek();\n"                                  /* 16 */
                             "    System.out.println(a.bal + \" \" + late + \" \" + got);\n" /* 17 */
                             "  }\n"                                                      /* 18 */
                             "}\n"                                                        /* 19 */
                             "class Acct {\n"                                             /* 20 */
                             "  int bal;\n"                                               /* 21 */
                             "  Acct() { bal = 2; }\n"                                    /* 22 */
                             "  int work(int k, String tag) {\n"                          /* 23 */
                             "    int x = k * 10;\n"                                      /* 24 */
                             "    Acct self = this;\n"                                    /* 25 */
                             "    bal = x;\n"                                             /* 26 */
                             "    int after = bal + 1;\n"                                 /* 27 */
                             "    return after;\n"                                        /* 28 */
                             "  }\n"                                                      /* 29 */
                             "  void fail() { throw new IllegalStateException(); }\n"     /* 30 */
                             "  int peek() { return bal; }\n"                             /* 31 */
                             "}\n";                                                       /* 32 */

/* The names in scope in T0's frame depth, space-separated. */
static const char *local_names(DrVM *vm, int depth, char *buf, size_t size) {
  buf[0] = 0;
  const char *name;
  for (int i = 0; drvm_frame_local_name(vm, 0, depth, i, &name); i++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? " " : "", name);
  return buf;
}

static bool local_is(DrVM *vm, int depth, const char *name, const char *want) {
  char buf[100] = "";
  bool ok = drvm_frame_local(vm, 0, depth, name, buf, sizeof buf) && !strcmp(buf, want);
  if (!ok) fprintf(stderr, "  local %s at depth %d is \"%s\" (%s), not \"%s\"\n", name, depth, buf, drvm_error(vm), want);
  return ok;
}

/* Not in scope: an error that names it. */
static bool local_absent(DrVM *vm, int depth, const char *name) {
  char buf[100] = "";
  bool ok = !drvm_frame_local(vm, 0, depth, name, buf, sizeof buf) && strstr(drvm_error(vm), name);
  if (!ok) fprintf(stderr, "  local %s at depth %d: \"%s\" (%s), wanted none\n", name, depth, buf, drvm_error(vm));
  return ok;
}

/* Stopped in the constructor `new Acct()` of line 6 runs: a is assigned
 * only after it returns. */
static void in_ctor(Check *t, DrVM *vm) {
  char names[200];
  CHECK_STR(t, local_names(vm, 0, names, sizeof names), "this");
  CHECK_STR(t, local_names(vm, 1, names, sizeof names), "args n s");
  CHECK(t, local_absent(vm, 1, "a"));
}

/* Stopped at the first access of line 8: inside the loop, i is there. */
static void in_loop(Check *t, DrVM *vm) {
  char names[200];
  CHECK_STR(t, local_names(vm, 0, names, sizeof names), "args n s a sum i");
  CHECK(t, local_is(vm, 0, "i", "0") && local_is(vm, 0, "sum", "0"));
  CHECK(t, local_absent(vm, 0, "late"));
}

/* Stopped at work's write of bal (line 26), called from line 10. */
static void in_work(Check *t, DrVM *vm) {
  char names[200], buf[100];
  /* the callee: this and parameters first, then locals as declared;
   * after is not declared yet */
  CHECK_STR(t, local_names(vm, 0, names, sizeof names), "this k tag x self");
  CHECK(t, local_is(vm, 0, "k", "4"));              /* a parameter */
  CHECK(t, local_is(vm, 0, "tag", "\"hi\""));        /* a String */
  CHECK(t, local_is(vm, 0, "x", "40"));             /* an int */
  CHECK(t, local_is(vm, 0, "self", "Acct#1"));      /* an object, by name */
  CHECK(t, local_is(vm, 0, "this", "Acct#1"));
  CHECK(t, local_absent(vm, 0, "after"));           /* declared further down */
  CHECK_HAS(t, drvm_error(vm), "no local variable after in scope");
  CHECK(t, local_absent(vm, 0, "nothing"));
  /* the caller, at its call: i's loop is over, late is assigned by the
   * call in progress */
  CHECK_STR(t, local_names(vm, 1, names, sizeof names), "args n s a sum");
  CHECK(t, local_is(vm, 1, "n", "3") && local_is(vm, 1, "s", "\"hi\"") && local_is(vm, 1, "a", "Acct#1"));
  CHECK(t, local_is(vm, 1, "sum", "18"));
  CHECK(t, drvm_frame_local(vm, 0, 1, "args", buf, sizeof buf));
  CHECK_HAS(t, buf, "String[]#");
  CHECK(t, local_absent(vm, 1, "i"));
  CHECK(t, local_absent(vm, 1, "late"));
  CHECK(t, local_absent(vm, 1, "x"));               /* the callee's */
  /* past the last name, frames and threads that are not there */
  const char *name = NULL;
  CHECK(t, !drvm_frame_local_name(vm, 0, 0, 5, &name));
  CHECK(t, !drvm_frame_local_name(vm, 0, 0, -1, &name));
  CHECK(t, !drvm_frame_local_name(vm, 0, 2, 0, &name));
  CHECK_HAS(t, drvm_error(vm), "no frame 2");
  CHECK(t, !drvm_frame_local(vm, 0, 2, "n", buf, sizeof buf));
  CHECK(t, !drvm_frame_local(vm, 3, 0, "n", buf, sizeof buf));
  CHECK_HAS(t, drvm_error(vm), "no thread T3");
}

/* Line 11: late is assigned now; line 12: the for-each variable;
 * line 14: the catch parameter. */
static void after_call(Check *t, DrVM *vm) {
  char names[200];
  CHECK_STR(t, local_names(vm, 0, names, sizeof names), "args n s a sum late");
  CHECK(t, local_is(vm, 0, "late", "41"));
}

static void in_foreach(Check *t, DrVM *vm) {
  CHECK(t, local_is(vm, 0, "v", "5"));
  CHECK(t, local_is(vm, 0, "late", "41"));
}

static void in_catch(Check *t, DrVM *vm) {
  char names[200];
  CHECK_STR(t, local_names(vm, 0, names, sizeof names), "args n s a sum late e");
  CHECK(t, local_is(vm, 0, "e", "IllegalStateException#1"));
  CHECK(t, local_absent(vm, 0, "v"));
}

/* In peek, called by `int got = a.peek();`, whose result goes straight
 * into got's register: got is not there yet; tmp's block is over. */
static void in_peek(Check *t, DrVM *vm) {
  char names[200];
  CHECK_STR(t, local_names(vm, 1, names, sizeof names), "args n s a sum late");
  CHECK(t, local_absent(vm, 1, "got") && local_absent(vm, 1, "tmp"));
  CHECK(t, local_is(vm, 1, "sum", "21"));
  CHECK(t, local_is(vm, 1, "late", "41"));
}

static void locals(Check *t) {
  Sinks s = {0};
  DrVM *vm = vm_with(LOCALS, &s, 1, 0);
  const char *name;
  CHECK(t, vm && !drvm_frame_local_name(vm, 0, 0, 0, &name)); /* no thread yet */
  CHECK(t, drvm_set_stepping(vm, DRVM_POINT_ACCESS | DRVM_POINT_CALL, true));
  CHECK(t, drvm_start(vm, 0, NULL));
  /* where to look: the first time T0 is about to access that field on
   * that line (NULL: any first access or call there) */
  static const struct {
    int line;
    const char *field;
    void (*fn)(Check *, DrVM *);
  } at[] = {{22, NULL, in_ctor},          {8, NULL, in_loop},    {26, NULL, in_work}, {11, NULL, after_call},
             {12, "bal", in_foreach},       {14, NULL, in_catch},  {31, NULL, in_peek}};
  enum { N = sizeof at / sizeof at[0] };
  int seen[N] = {0};
  DrvmDecision d;
  while (drvm_run_until_decision(vm, &d) == 1) {
    DrvmThreadInfo ti;
    CHECK(t, drvm_thread_info(vm, 0, &ti));
    for (int i = 0; i < N; i++)
      if (ti.next.line == at[i].line && ti.next.file && !strcmp(ti.next.file, "prog.dl") &&
          (!at[i].field || (ti.next.field && !strcmp(ti.next.field, at[i].field))) && !seen[i]++)
        at[i].fn(t, vm);
    if (!drvm_decide(vm, DRVM_SUGGESTED)) break;
  }
  for (int i = 0; i < N; i++) CHECK(t, seen[i] > 0);
  DrvmResult r;
  CHECK(t, drvm_finish(vm, &r) == 0);
  CHECK_STR(t, out_text(&s.out), "-1 41 -1\n");
  drvm_free(vm);
  sinks_free(&s);
}

int main(void) {
  Check t = {0};
  inspect(&t);
  locals(&t);
  return CHECK_DONE(&t);
}
