/* A program of several files: drvm_compile_strings and
 * drvm_compile_files compile them as one (packages and imports across
 * them), DrvmConfig.main_class chooses the main class, each diagnostic
 * names its own file, stack traces name each class's file, and a second
 * compile is still refused. */
#include <unistd.h>

#include "check.h"

static const char *const NAMES[] = {"lib/Counter.java", "app/Main.java"};
static const char *const TEXTS[] = {
    "package lib;\n"
    "public class Counter {\n"
    "  private int n;\n"
    "  public synchronized void inc() { n++; }\n"
    "  public int get() { return n; }\n"
    "  public void boom() { throw new IllegalStateException(\"boom\"); }\n"
    "}\n",
    "package app;\n"
    "import lib.Counter;\n"
    "public class Main {\n"
    "  public static void main(String[] args) {\n"
    "    Counter c = new Counter();\n"
    "    c.inc();\n"
    "    System.out.println(c.get() + \" \" + c);\n"
    "    if (args.length > 0) c.boom();\n"
    "  }\n"
    "}\n"};

static DrVM *new_vm(Sinks *s, const char *main_class) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.write_out = sink_out;
  cfg.write_err = sink_err;
  cfg.write_user = s;
  cfg.main_class = main_class;
  return drvm_new(&cfg, NULL, 0);
}

static void lens_of(const char *const *texts, size_t *lens, int n) {
  for (int i = 0; i < n; i++) lens[i] = strlen(texts[i]);
}

/* Two files, one program; the stack trace names Counter.java and Main.java. */
static void two_strings(Check *t) {
  Sinks s = {0};
  DrVM *vm = new_vm(&s, NULL);
  size_t lens[2];
  lens_of(TEXTS, lens, 2);
  CHECK(t, drvm_compile_strings(vm, 2, NAMES, TEXTS, lens));
  CHECK(t, drvm_diag_count(vm) == 0);
  const char *args[] = {"x"};
  DrvmResult r;
  CHECK(t, drvm_run(vm, 1, args, &r) >= 0);
  CHECK(t, r.exit_status == 1);
  CHECK_HAS(t, out_text(&s.out), "1 lib.Counter@");
  CHECK_HAS(t, out_text(&s.err), "at lib.Counter.boom(Counter.java:6)");
  CHECK_HAS(t, out_text(&s.err), "at app.Main.main(Main.java:8)");
  /* one program per VM, however many files it has */
  CHECK(t, !drvm_compile_strings(vm, 2, NAMES, TEXTS, lens));
  CHECK_HAS(t, drvm_error(vm), "not allowed");
  drvm_free(vm);
  sinks_free(&s);
}

/* Errors in both files, each with its own file and line. */
static void errors_in_each_file(Check *t) {
  const char *const texts[] = {"package lib;\nclass Hidden { }\npublic class Counter { int x = \"s\"; }\n",
                               "package app;\nimport lib.Hidden;\npublic class Main {\n"
                               "  public static void main(String[] a) { }\n}\n"};
  size_t lens[2];
  lens_of(texts, lens, 2);
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, !drvm_compile_strings(vm, 2, NAMES, texts, lens));
  CHECK(t, drvm_diag_count(vm) == 2);
  DrvmDiag d;
  CHECK(t, drvm_diag(vm, 0, &d));
  CHECK_STR(t, d.file, "app/Main.java"); /* sorted by file, then position */
  CHECK(t, d.line == 2);
  CHECK_STR(t, d.message, "Hidden is not public in lib; cannot be accessed from outside package");
  CHECK_STR(t, d.source_line, "import lib.Hidden;");
  CHECK(t, drvm_diag(vm, 1, &d));
  CHECK_STR(t, d.file, "lib/Counter.java");
  CHECK(t, d.line == 3);
  CHECK_STR(t, d.source_line, "public class Counter { int x = \"s\"; }");
  drvm_free(vm);
}

/* Files on disk; the main class chosen by DrvmConfig.main_class, and a
 * name that is no class of the program refused. */
static void files_and_main(Check *t) {
  char dir[] = "/tmp/drvm_api_filesXXXXXX";
  CHECK(t, mkdtemp(dir) != NULL);
  const char *texts[] = {"public class A { public static void main(String[] a) { System.out.println(\"A\"); } }\n",
                         "public class B { public static void main(String[] a) { System.out.println(\"B \" + C.v); } }\n"
                         "class C { static int v = 7; }\n"};
  char paths[2][64];
  const char *ps[2];
  for (int i = 0; i < 2; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/%c.java", dir, 'A' + i);
    FILE *f = fopen(paths[i], "w");
    CHECK(t, f != NULL);
    if (!f) return;
    fputs(texts[i], f);
    fclose(f);
    ps[i] = paths[i];
  }
  /* two classes declare main: the host must choose */
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, !drvm_compile_files(vm, 2, ps));
  DrvmDiag d;
  CHECK(t, drvm_diag(vm, 0, &d) && strstr(d.message, "2 classes declare") && strstr(d.message, "A, B"));
  drvm_free(vm);

  Sinks s = {0};
  vm = new_vm(&s, "B");
  CHECK(t, drvm_compile_files(vm, 2, ps));
  DrvmResult r;
  CHECK(t, drvm_run(vm, 0, NULL, &r) >= 0 && r.exit_status == 0);
  CHECK_STR(t, out_text(&s.out), "B 7\n");
  drvm_free(vm);
  sinks_free(&s);

  vm = new_vm(&s, "C");
  CHECK(t, !drvm_compile_files(vm, 2, ps));
  CHECK(t, drvm_diag(vm, 0, &d) && strstr(d.message, "class C has no method 'public static void main"));
  drvm_free(vm);
  sinks_free(&s);

  vm = drvm_new(NULL, NULL, 0);
  const char *missing[] = {paths[0], "/nonexistent/X.java"};
  CHECK(t, !drvm_compile_files(vm, 2, missing));
  CHECK_HAS(t, drvm_error(vm), "cannot read /nonexistent/X.java");
  CHECK(t, !drvm_compile_files(vm, 0, missing));
  CHECK_HAS(t, drvm_error(vm), "no file given");
  drvm_free(vm);
  for (int i = 0; i < 2; i++) unlink(paths[i]);
  rmdir(dir);
}

int main(void) {
  Check t = {0};
  two_strings(&t);
  errors_in_each_file(&t);
  files_and_main(&t);
  return CHECK_DONE(&t);
}
