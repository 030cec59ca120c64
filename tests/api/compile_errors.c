/* Compile errors as data: drvm_diag_count, each DrvmDiag's fields,
 * drvm_print_diags' javac-like text, an unreadable file, and a VM that
 * compiles one program only. */
#include <unistd.h>

#include "check.h"

static const char BAD[] = "public class Bad {\n"
                          "  public static void main(String[] args) {\n"
                          "    int x = y;\n"
                          "    String s = 5;\n"
                          "  }\n"
                          "}\n";

static const char GOOD[] = "public class Good {\n"
                           "  public static void main(String[] args) {\n"
                           "    System.out.println(\"good\");\n"
                           "  }\n"
                           "}\n";

static const char PRINTED[] = "bad.dl:3:13: error: cannot find symbol 'y'\n"
                              "    int x = y;\n"
                              "            ^\n"
                              "bad.dl:4:16: error: incompatible types: int cannot be converted to String\n"
                              "    String s = 5;\n"
                              "               ^\n"
                              "2 errors\n";

/* The diagnostics as data and as printed. */
static void diags_of_string(Check *t) {
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, vm != NULL);
  CHECK(t, !drvm_compile_string(vm, "bad.dl", BAD, strlen(BAD)));
  CHECK_STR(t, drvm_error(vm), "2 compile errors");
  CHECK(t, drvm_diag_count(vm) == 2);

  DrvmDiag d;
  CHECK(t, drvm_diag(vm, 0, &d));
  CHECK_STR(t, d.file, "bad.dl");
  CHECK(t, d.line == 3 && d.col == 13);
  CHECK_STR(t, d.message, "cannot find symbol 'y'");
  CHECK_STR(t, d.source_line, "    int x = y;");

  CHECK(t, drvm_diag(vm, 1, &d));
  CHECK_STR(t, d.file, "bad.dl");
  CHECK(t, d.line == 4 && d.col == 16);
  CHECK_STR(t, d.message, "incompatible types: int cannot be converted to String");
  CHECK_STR(t, d.source_line, "    String s = 5;");

  CHECK(t, !drvm_diag(vm, 2, &d));
  CHECK(t, !drvm_diag(vm, -1, &d));

  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  drvm_print_diags(vm, f);
  fclose(f);
  CHECK_STR(t, text, PRINTED);
  free(text);

  /* a failed VM cannot start */
  CHECK(t, !drvm_start(vm, 0, NULL));
  CHECK(t, drvm_error(vm)[0] != 0);
  drvm_free(vm);
}

/* A file: its path is the diagnostics' file; one error, "1 error". */
static void diags_of_file(Check *t) {
  char path[] = "/tmp/drvm_api_compileXXXXXX";
  int fd = mkstemp(path);
  CHECK(t, fd >= 0);
  if (fd < 0) return;
  const char *one = "public class One {\n  public static void main(String[] args) {\n    undefined();\n  }\n}\n";
  CHECK(t, write(fd, one, strlen(one)) == (ssize_t)strlen(one));
  close(fd);

  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, !drvm_compile_file(vm, path));
  CHECK(t, drvm_diag_count(vm) == 1);
  DrvmDiag d;
  CHECK(t, drvm_diag(vm, 0, &d));
  CHECK_STR(t, d.file, path);
  CHECK(t, d.line == 3 && d.col == 5);
  CHECK_HAS(t, d.message, "undefined");
  CHECK_STR(t, d.source_line, "    undefined();");
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  drvm_print_diags(vm, f);
  fclose(f);
  char head[300];
  snprintf(head, sizeof head, "%s:3:5: error: ", path);
  CHECK(t, text && !strncmp(text, head, strlen(head)));
  CHECK_HAS(t, text, "\n    undefined();\n    ^\n1 error\n");
  free(text);
  drvm_free(vm);
  unlink(path);
}

/* A missing file: false, a message naming it, no diagnostics. */
static void missing_file(Check *t) {
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, !drvm_compile_file(vm, "/nonexistent/dir/prog.dl"));
  CHECK_HAS(t, drvm_error(vm), "/nonexistent/dir/prog.dl");
  CHECK_HAS(t, drvm_error(vm), "No such file");
  CHECK(t, drvm_diag_count(vm) == 0);
  drvm_free(vm);
}

/* A VM compiles one program: a second compile is refused. */
static void compile_twice(Check *t) {
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, drvm_compile_string(vm, "good.dl", GOOD, strlen(GOOD)));
  CHECK(t, drvm_diag_count(vm) == 0);
  CHECK_STR(t, drvm_error(vm), "");
  CHECK(t, !drvm_compile_string(vm, "good.dl", GOOD, strlen(GOOD)));
  CHECK_HAS(t, drvm_error(vm), "not allowed");
  CHECK(t, !drvm_compile_file(vm, "whatever.dl"));
  CHECK_HAS(t, drvm_error(vm), "not allowed");
  drvm_free(vm);
}

/* After a failed compile too: the first attempt's diagnostics stay as
 * they were (they once pointed into a second program's text). */
static void compile_after_failure(Check *t) {
  const char *bad1 = "public class B {\n  public static void main(String[] args) {\n    int x = y;\n  }\n}\n";
  DrVM *vm = drvm_new(NULL, NULL, 0);
  CHECK(t, !drvm_compile_string(vm, "bad.dl", bad1, strlen(bad1)));
  CHECK(t, drvm_diag_count(vm) == 1);
  CHECK(t, !drvm_compile_string(vm, "good.dl", GOOD, strlen(GOOD)));
  CHECK_HAS(t, drvm_error(vm), "not allowed");
  CHECK(t, drvm_diag_count(vm) == 1);
  DrvmDiag d;
  CHECK(t, drvm_diag(vm, 0, &d));
  CHECK_STR(t, d.file, "bad.dl");
  CHECK_STR(t, d.source_line, "    int x = y;");
  CHECK(t, !drvm_start(vm, 0, NULL));
  drvm_free(vm);
}

int main(void) {
  Check t = {0};
  diags_of_string(&t);
  diags_of_file(&t);
  missing_file(&t);
  compile_twice(&t);
  compile_after_failure(&t);
  return CHECK_DONE(&t);
}
