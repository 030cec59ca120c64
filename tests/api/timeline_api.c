/* What a host needs to draw a run (the command line's timelines use only
 * these): who a notify woke and who woke a waiter (DrvmEvent.other of
 * NOTIFY and WAKE), the thread whose output a write callback receives
 * (drvm_current_thread), output delivered at each print
 * (DrvmConfig.unbuffered), and the object a race is on (DrvmRace.object). */
#include "check.h"

/* main waits; T1 (after a sleep) sets the flag and notifies; T1 and T2
 * print; they race on Box#1.n (a field of an object) and on Handoff.s (a
 * static). */
static const char SRC_CLASSES[] =
    "public class Handoff {\n"
    "  static final Object lock = new Object();\n"
    "  static boolean ready;\n"
    "  static int s;\n"
    "  static class Box { int n; }\n"
    "  static Box box = new Box();\n"
    "  static class A extends Thread {\n"
    "    public void run() {\n"
    "      try { Thread.sleep(10); } catch (InterruptedException e) { }\n"
    "      System.out.println(\"a prints\");\n"
    "      box.n = 1; s = 1;\n"
    "      synchronized (lock) { ready = true; lock.notify(); }\n"
    "    }\n"
    "  }\n"
    "  static class B extends Thread {\n"
    "    public void run() { System.out.println(\"b prints\"); box.n = 2; s = 2; }\n"
    "  }\n"
    "  public static void main(String[] args) throws InterruptedException {\n"
    "    Thread a = new A(), b = new B();\n"
    "    a.start(); b.start();\n"
    "    synchronized (lock) { while (!ready) lock.wait(); }\n"
    "    a.join(); b.join();\n"
    "    System.out.println(\"main prints\");\n"
    "  }\n"
    "}\n";

typedef struct {
  DrVM *vm;
  int notify_other, wake_other, notifier, waker;
  int notifies, wakes;
  char printed_by[3][16]; /* "a prints" -> its thread, as the callback saw it */
  int nprinted;
  int events_seen;        /* when each line arrived: events before it */
  int line_at[3];
} Seen;

static void on_event(void *user, DrVM *vm, const DrvmEvent *e) {
  Seen *s = user;
  (void)vm;
  s->events_seen++;
  if (e->kind == DRVM_EV_NOTIFY) s->notifies++, s->notify_other = e->other, s->notifier = e->thread;
  if (e->kind == DRVM_EV_WAKE) s->wakes++, s->wake_other = e->other, s->waker = e->thread;
}

static void on_out(void *user, const char *text, size_t len) {
  Seen *s = user;
  if (s->nprinted >= 3 || len < 2) return;
  snprintf(s->printed_by[s->nprinted], sizeof s->printed_by[0], "%c T%d", text[0], drvm_current_thread(s->vm));
  s->line_at[s->nprinted] = s->events_seen;
  s->nprinted++;
}

static void discard(void *user, const char *text, size_t len) { (void)user, (void)text, (void)len; }

static DrVM *make(Seen *s, bool unbuffered) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.write_out = on_out;
  cfg.write_err = discard;
  cfg.write_user = s;
  cfg.unbuffered = unbuffered;
  char err[256];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  if (!vm) return NULL;
  s->vm = vm;
  if (!drvm_compile_string(vm, "prog.dl", SRC_CLASSES, strlen(SRC_CLASSES))) {
    drvm_print_diags(vm, stderr);
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

/* a sleeps first, so main waits before a's notify wakes it (T0). */
static void notify_and_wake(Check *t) {
  Seen s;
  memset(&s, 0, sizeof s);
  DrVM *vm = make(&s, true);
  CHECK(t, vm != NULL);
  if (!vm) return;
  CHECK(t, drvm_current_thread(vm) == -1);
  DrvmResult r;
  CHECK(t, drvm_set_scheduler(vm, "rr", NULL) && drvm_add_listener(vm, 0, on_event, &s) && drvm_start(vm, 0, NULL) &&
               drvm_run_to_end(vm));
  CHECK(t, s.notifies == 1 && s.notifier == 1 && s.notify_other == 0);
  CHECK(t, s.wakes == 1 && s.waker == 0 && s.wake_other == 1);
  /* each line reached the callback as it was printed, from its thread */
  CHECK(t, s.nprinted == 3);
  CHECK_STR(t, s.printed_by[0], "b T2");
  CHECK_STR(t, s.printed_by[1], "a T1");
  CHECK_STR(t, s.printed_by[2], "m T0");
  CHECK(t, s.line_at[0] < s.line_at[1] && s.line_at[1] < s.line_at[2] && s.line_at[0] > 0);
  CHECK(t, drvm_current_thread(vm) == -1); /* after the end */
  /* both races: on the object's field and on the static */
  int n = drvm_race_count(vm), on_field = 0, on_static = 0;
  for (int i = 0; i < n; i++) {
    DrvmRace race;
    CHECK(t, drvm_race(vm, i, &race));
    if (!strcmp(race.location, "Handoff$Box.n") && race.object && !strcmp(race.object, "Handoff$Box#1")) on_field++;
    if (!strcmp(race.location, "Handoff.s") && !race.object) on_static++;
  }
  CHECK(t, on_field == 1 && on_static == 1);
  CHECK(t, drvm_finish(vm, &r) >= 0);
  drvm_free(vm);
}

/* Buffered (the default), the output arrives in one piece at the end
 * (no detector: a race report on stderr would flush it earlier). */
static void buffered(Check *t) {
  Seen s;
  memset(&s, 0, sizeof s);
  DrVM *vm = make(&s, false);
  CHECK(t, vm != NULL);
  if (!vm) return;
  DrvmResult r;
  CHECK(t, drvm_set_scheduler(vm, "rr", NULL) && drvm_set_detector(vm, "none", NULL) &&
               drvm_add_listener(vm, 0, on_event, &s) && drvm_run(vm, 0, NULL, &r) >= 0);
  CHECK(t, s.nprinted == 1 && s.line_at[0] == s.events_seen);
  if (s.nprinted != 1) fprintf(stderr, "  %d pieces, the first after %d of %d events\n", s.nprinted, s.line_at[0], s.events_seen);
  drvm_free(vm);
}

int main(void) {
  Check t = {0};
  notify_and_wake(&t);
  buffered(&t);
  return CHECK_DONE(&t);
}
