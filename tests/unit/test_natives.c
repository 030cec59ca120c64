/* The built-in library's C side: Double.toString texts (expected values
 * are what JDK 17's Double.toString prints), integer texts, String hash,
 * UTF-8 <-> UTF-16, Unicode tables, native binding, and a few natives run
 * through a compiled program. */
#include <math.h>
#include <string.h>

#include "../../compiler/compile.h"
#include "../../vm/unicode.h"
#include "../../scheduler/sched.h"
#include "check.h"
#include "run_prog.h"

static bool dtoa_is(double d, const char *want) {
  char buf[32];
  int n = dr_double_to_string(d, buf);
  if (strcmp(buf, want) != 0 || n != (int)strlen(want)) {
    fprintf(stderr, "dr_double_to_string: got %s, want %s\n", buf, want);
    return false;
  }
  return true;
}

static double from_bits(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static void test_dtoa(DrCheck *t) {
  volatile double zero = 0.0; /* no constant folding of 0/0 */
  CHECK(t, dtoa_is(0.1, "0.1"));
  CHECK(t, dtoa_is(1.0 / 3, "0.3333333333333333"));
  CHECK(t, dtoa_is(2.0 / 3, "0.6666666666666666"));
  CHECK(t, dtoa_is(100.0, "100.0"));
  CHECK(t, dtoa_is(1e7, "1.0E7"));
  CHECK(t, dtoa_is(9999999.0, "9999999.0"));
  CHECK(t, dtoa_is(1e-3, "0.001"));
  CHECK(t, dtoa_is(1e-4, "1.0E-4"));
  CHECK(t, dtoa_is(0.002, "0.002"));
  CHECK(t, dtoa_is(123456789.0, "1.23456789E8"));
  CHECK(t, dtoa_is(4.9e-324, "4.9E-324"));          /* Double.MIN_VALUE */
  CHECK(t, dtoa_is(from_bits(2), "1.0E-323"));      /* 2 * MIN_VALUE */
  CHECK(t, dtoa_is(1.7976931348623157e308, "1.7976931348623157E308"));
  CHECK(t, dtoa_is(2.2250738585072014e-308, "2.2250738585072014E-308"));
  CHECK(t, dtoa_is(-0.0, "-0.0"));
  CHECK(t, dtoa_is(0.0, "0.0"));
  CHECK(t, dtoa_is(zero / zero, "NaN"));
  CHECK(t, dtoa_is(1 / zero, "Infinity"));
  CHECK(t, dtoa_is(-1 / zero, "-Infinity"));
  CHECK(t, dtoa_is(2e22, "2.0E22"));
  CHECK(t, dtoa_is(1e23, "9.999999999999999E22")); /* JDK 17, not shortest */
  CHECK(t, dtoa_is(0.1 + 0.2, "0.30000000000000004"));
  CHECK(t, dtoa_is(1e-5, "1.0E-5"));
  CHECK(t, dtoa_is(-1.5, "-1.5"));
  CHECK(t, dtoa_is(3.14, "3.14"));
  CHECK(t, dtoa_is(18014398509481988.0, "1.8014398509481988E16")); /* 2^54+4 */
  CHECK(t, dtoa_is(from_bits(0x43d4ac82ff202288u), "5.9588384360807875E18"));
  CHECK(t, dtoa_is(9007199254740993.0, "9.007199254740992E15"));
  CHECK(t, dtoa_is(1234567.125, "1234567.125"));
  CHECK(t, dtoa_is(0.5, "0.5"));
}

static void test_integers(DrCheck *t) {
  char buf[32];
  dr_long_to_string(INT64_MIN, buf);
  CHECK(t, strcmp(buf, "-9223372036854775808") == 0);
  dr_long_to_string(INT64_MAX, buf);
  CHECK(t, strcmp(buf, "9223372036854775807") == 0);
  dr_long_to_string(0, buf);
  CHECK(t, strcmp(buf, "0") == 0);
  dr_long_to_string(-42, buf);
  CHECK(t, strcmp(buf, "-42") == 0);
  dr_hex_to_string(0xffffffffu, buf);
  CHECK(t, strcmp(buf, "ffffffff") == 0);
  dr_hex_to_string(0, buf);
  CHECK(t, strcmp(buf, "0") == 0);
  DrBuf b = {0};
  DrValue v;
  v.i = 1;
  dr_buf_append_value(&b, DR_K_BOOLEAN, v);
  v.i = 0x20AC; /* euro sign */
  dr_buf_append_value(&b, DR_K_CHAR, v);
  v.i = 0xD800; /* a lone surrogate prints as '?' */
  dr_buf_append_value(&b, DR_K_CHAR, v);
  v.d = 1e7;
  dr_buf_append_value(&b, DR_K_DOUBLE, v);
  v.ref = NULL;
  dr_buf_append_value(&b, DR_K_REF, v);
  CHECK(t, strcmp(b.data, "true\xE2\x82\xAC?1.0E7null") == 0);
  free(b.data);
}

static void test_strings(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  /* enough of a String class for dr_new_string */
  DrClass *string = dr_class_new(&vm, "java.lang.String");
  string->flags = DR_CLS_STRING | DR_CLS_FINAL;
  DrString *s = dr_new_string_utf8(&vm, "hello");
  CHECK(t, s && s->length == 5 && dr_string_hash(s) == 99162322);
  DrString *q = dr_new_string_utf8(&vm, "The quick brown fox jumps over the lazy dog");
  CHECK(t, q && dr_string_hash(q) == -609428141);
  DrString *e = dr_new_string_utf8(&vm, "");
  CHECK(t, e && e->length == 0 && dr_string_hash(e) == 0);
  /* UTF-8 round trip: 2-, 3- and 4-byte sequences */
  const char *text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z";
  DrString *u = dr_new_string_utf8(&vm, text);
  CHECK(t, u && u->length == 6);
  CHECK(t, u && u->chars[1] == 0xE9 && u->chars[2] == 0x20AC && u->chars[3] == 0xD83D && u->chars[4] == 0xDE00);
  DrBuf b = {0};
  dr_buf_append_jstring(&b, u);
  CHECK(t, strcmp(b.data, text) == 0);
  b.len = 0;
  dr_buf_append_jstring(&b, NULL);
  CHECK(t, strcmp(b.data, "null") == 0);
  free(b.data);
  /* malformed input: one U+FFFD per maximal bad subsequence */
  DrString *bad = dr_new_string_utf8(&vm, "x\xE2\x82y\xFFz");
  CHECK(t, bad && bad->length == 5 && bad->chars[1] == 0xFFFD && bad->chars[2] == 'y' && bad->chars[3] == 0xFFFD);
  DrString *h2 = dr_new_string_utf8(&vm, "hello");
  CHECK(t, dr_string_equals(s, h2) && !dr_string_equals(s, q) && !dr_string_equals(s, NULL));
  DrBuf16 b16 = {0};
  DrValue v;
  v.j = INT64_MIN;
  dr_buf16_append_value(&b16, DR_K_LONG, v);
  v.ref = &s->hdr;
  dr_buf16_append_value(&b16, DR_K_REF, v);
  CHECK(t, b16.len == 25 && b16.data[0] == '-' && b16.data[20] == 'h');
  dr_buf16_free(&b16);
  dr_vm_free(&vm);
}

static void test_unicode(DrCheck *t) {
  CHECK(t, dr_uc_is_digit('7') && dr_uc_is_digit(0x0661) && !dr_uc_is_digit('a') && !dr_uc_is_digit(0x00B2));
  CHECK(t, dr_uc_digit_value(0x0669) == 9 && dr_uc_digit_value(0xFF10) == 0 && dr_uc_digit_value('x') == -1);
  CHECK(t, dr_uc_is_letter('Q') && dr_uc_is_letter(0x00E9) && dr_uc_is_letter(0x4E00) && !dr_uc_is_letter('_'));
  uint16_t out[3];
  CHECK(t, dr_uc_to_upper(0x00DF, out) == 2 && out[0] == 'S' && out[1] == 'S'); /* sharp s */
  CHECK(t, dr_uc_to_upper(0x0101, out) == 1 && out[0] == 0x0100);
  CHECK(t, dr_uc_to_lower(0x0130, out) == 2 && out[0] == 'i' && out[1] == 0x0307);
  CHECK(t, dr_uc_to_upper(0x10428, out) == 2 && out[0] == 0xD801 && out[1] == 0xDC00); /* Deseret */
  CHECK(t, dr_uc_to_lower('A', out) == 1 && out[0] == 'a');
  CHECK(t, dr_uc_to_upper(0x01C5, out) == 1 && out[0] == 0x01C4);
}

static void test_lookup(DrCheck *t) {
  CHECK(t, dr_native_lookup("java.lang.String", "charAt(int)") != NULL);
  CHECK(t, dr_native_lookup("java.lang.StringBuilder", "insert(int,String)") != NULL);
  CHECK(t, dr_native_lookup("java.io.PrintStream", "println()") != NULL);
  CHECK(t, dr_native_lookup("drvm.Boot", "className(Object)") != NULL);
  CHECK(t, dr_native_lookup("java.lang.Math", "min(double,double)") != NULL);
  CHECK(t, dr_native_lookup("java.lang.String", "charAt(long)") == NULL);
  CHECK(t, dr_native_lookup("java.lang.Strung", "charAt(int)") == NULL);
  CHECK(t, dr_native_lookup("java.lang.Math", "min(int,int)") == NULL); /* bytecode in the prelude */
}

static char *run_program(const char *text, int *status) {
  DrVM vm;
  dr_vm_init(&vm);
  vm.source_name = "t.dl"; /* as drvm run sets it from the file name */
  DrSource src = {"t.dl", text, strlen(text), NULL};
  DrDiagList d;
  dr_diag_init(&d);
  DrClass *c = dr_compile(&vm, &src, &d);
  if (!c) dr_diag_print(&d, stderr);
  dr_diag_free(&d);
  char *buf = NULL;
  if (c) buf = run_captured_io(&vm, c, status, true);
  dr_vm_free(&vm);
  return buf;
}

static void test_programs(DrCheck *t) {
  int status = -1;
  char *out = run_program(
      "class A { public static void main(String[] x) {\n"
      "  StringBuilder sb = new StringBuilder();\n"
      "  for (int i = 0; i < 40; i++) sb.append(i % 10);\n"
      "  sb.insert(0, \"<\").append(1.5).append('>');\n"
      "  System.out.println(sb.toString() + \" \" + sb.length());\n"
      "  System.out.println(\"Stra\\u00dfe\".toUpperCase() + \" \" + \"abc\".indexOf(\"c\") + \" \" + Integer.parseInt(\"-42\"));\n"
      "  System.out.println(Math.round(-2.5) + \" \" + Math.min(-0.0, 0.0) + \" \" + String.valueOf(1e-5));\n"
      "  try { \"ab\".substring(1, 5); } catch (StringIndexOutOfBoundsException e) { System.out.println(e.getMessage()); }\n"
      "  Object o = new Object(); System.out.println(o.hashCode() == o.hashCode());\n"
      "  System.exit(7);\n"
      "} }\n",
      &status);
  CHECK(t, out != NULL);
  if (out) {
    CHECK(t, strcmp(out, "<0123456789012345678901234567890123456789" "1.5> 45\n"
                         "STRASSE 2 -42\n"
                         "-2 -0.0 1.0E-5\n"
                         "begin 1, end 5, length 2\n"
                         "true\n") == 0);
    if (strstr(out, "STRASSE") == NULL) fprintf(stderr, "output: %s\n", out);
  }
  CHECK(t, status == 7);
  free(out);

  /* a stack trace: the exception's constructors are hidden */
  out = run_program("class B {\n"
                    "  static void f() { throw new IllegalStateException(\"bad\"); }\n"
                    "  public static void main(String[] x) {\n"
                    "    f();\n"
                    "  }\n"
                    "}\n",
                    &status);
  CHECK(t, out && strcmp(out, "Exception in thread \"main\" java.lang.IllegalStateException: bad\n"
                              "\tat B.f(t.dl:2)\n"
                              "\tat B.main(t.dl:4)\n") == 0);
  CHECK(t, status == 1);
  free(out);
}

int main(void) {
  DrCheck t = {0, 0};
  test_dtoa(&t);
  test_integers(&t);
  test_strings(&t);
  test_unicode(&t);
  test_lookup(&t);
  test_programs(&t);
  return CHECK_DONE(&t);
}
