/* The shared text formats: printf into a DrBuf, the JSON reader and
 * writer (vm/json.h), and the race pairs file (vm/pairs.h). */
#include <string.h>

#include "../../vm/buf.h"
#include "../../vm/json.h"
#include "../../vm/pairs.h"
#include "check.h"

/* ------------------------------------------------------------ DrBuf */

static void test_buf_printf(DrCheck *t) {
  DrBuf b = {0};
  dr_buf_printf(&b, "%s", "");
  CHECK(t, b.data && b.len == 0 && b.data[0] == '\0'); /* a C string even when empty */
  dr_buf_printf(&b, "%d-%s", 42, "x");
  CHECK(t, b.len == 4 && !strcmp(b.data, "42-x"));
  /* past the first 64 bytes, in one call and then a little at a time */
  char big[200];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  dr_buf_printf(&b, "[%s]", big);
  CHECK(t, b.len == 4 + 201 && b.cap > b.len);
  CHECK(t, !strncmp(b.data, "42-x[aaaa", 9) && b.data[b.len - 1] == ']' && b.data[b.len] == '\0');
  for (int i = 0; i < 100; i++) dr_buf_printf(&b, "%d,", i % 10);
  CHECK(t, b.len == 205 + 200 && !strcmp(b.data + b.len - 4, "8,9,"));
  free(b.data);

  char *s = dr_fmt("%s/%s-%03d", "dir", "name", 7);
  CHECK(t, s && !strcmp(s, "dir/name-007"));
  free(s);
  s = dr_fmt("%s", "");
  CHECK(t, s && !strcmp(s, ""));
  free(s);
  s = dr_fmt("%.*s|%100d", 3, "abcdef", 1);
  CHECK(t, s && strlen(s) == 104 && !strncmp(s, "abc|   ", 7) && s[103] == '1');
  free(s);
}

/* ------------------------------------------------------------- JSON */

/* Every kind of value, pretty and flat containers, strings to escape. */
static void write_sample(DrJsonW *w) {
  dr_jw_begin(w, NULL, '{');
  dr_jw_str(w, "name", "a \"quoted\"\\path\n\ttab\x01");
  dr_jw_str(w, "utf8", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac");
  dr_jw_int(w, "neg", -12345678901LL);
  dr_jw_uint(w, "big", 18446744073709551615ULL);
  dr_jw_num(w, "ratio", 0.25);
  dr_jw_fixed(w, "rate", 1.0 / 3.0, 4);
  dr_jw_num(w, "nan", 0.0 / 0.0);
  dr_jw_bool(w, "yes", true);
  dr_jw_bool(w, "no", false);
  dr_jw_null(w, "nothing");
  dr_jw_str(w, "null_str", NULL);
  dr_jw_begin(w, "empty", '[');
  dr_jw_end(w, ']');
  dr_jw_begin(w, "list", '[');
  for (int i = 0; i < 3; i++) {
    dr_jw_begin_flat(w, NULL, '{');
    dr_jw_int(w, "i", i);
    dr_jw_begin(w, "inner", '['); /* flat too: inside a flat container */
    dr_jw_int(w, NULL, i * 10);
    dr_jw_int(w, NULL, i * 10 + 1);
    dr_jw_end(w, ']');
    dr_jw_wrap(w);
    dr_jw_str(w, "s", "x");
    dr_jw_end(w, '}');
  }
  dr_jw_end(w, ']');
  dr_jw_end(w, '}');
}

/* a line of a file quoted in a message: text as is, the rest as \xNN */
static void test_buf_shown(DrCheck *t) {
  DrBuf b = {0};
  dr_buf_append_shown(&b, "Z\xC3\xA4hler.run\tx\x01\xFF\xC3", 100);
  CHECK(t, b.data && !strcmp(b.data, "Z\xC3\xA4hler.run\\x09x\\x01\\xFF\\xC3"));
  b.len = 0;
  dr_buf_append_shown(&b, "abcdef", 3);
  CHECK(t, !strcmp(b.data, "abc..."));
  b.len = 0;
  dr_buf_append_shown(&b, "\xE2\x82\xAC\xE2\x82", 10); /* a euro sign, then a cut sequence */
  CHECK(t, !strcmp(b.data, "\xE2\x82\xAC\\xE2\\x82"));
  free(b.data);
}

static void test_json_writer_layout(DrCheck *t) {
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_int(&w, "a", 1);
  dr_jw_begin(&w, "l", '[');
  dr_jw_begin_flat(&w, NULL, '{');
  dr_jw_str(&w, "k", "v");
  dr_jw_begin(&w, "n", '['); /* flat too: inside a flat container */
  dr_jw_int(&w, NULL, 1);
  dr_jw_int(&w, NULL, 2);
  dr_jw_end(&w, ']');
  dr_jw_wrap(&w);
  dr_jw_begin(&w, "m", '[');
  dr_jw_end(&w, ']');
  dr_jw_end(&w, '}');
  dr_jw_end(&w, ']');
  dr_jw_begin(&w, "e", '{');
  dr_jw_end(&w, '}');
  dr_jw_end(&w, '}');
  CHECK(t, !strcmp(w.buf.data, "{\n  \"a\": 1,\n  \"l\": [\n    {\"k\": \"v\", \"n\": [1, 2],\n     \"m\": []}\n  ],\n  \"e\": {}\n}\n"));
  free(w.buf.data);

  /* a scheduler's members of --sched-report: the separator is the caller's */
  w = (DrJsonW){0};
  dr_jw_resume(&w, 1);
  dr_jw_int(&w, "pair", 2);
  dr_jw_fixed(&w, "rate", 0.5, 4);
  dr_jw_fixed(&w, "none", 0.0 / 0.0, 4);
  dr_jw_begin(&w, "races", '[');
  dr_jw_end(&w, ']');
  CHECK(t, !strcmp(w.buf.data, "\"pair\": 2,\n  \"rate\": 0.5000,\n  \"none\": null,\n  \"races\": []"));
  free(w.buf.data);

  DrBuf q = {0};
  dr_json_quote(&q, "\"\\\b\f\n\r\t\x1f/");
  CHECK(t, !strcmp(q.data, "\"\\\"\\\\\\b\\f\\n\\r\\t\\u001f/\""));
  free(q.data);
}

static void test_json_round_trip(DrCheck *t) {
  DrJsonW w = {0};
  write_sample(&w);
  DrJson j;
  char err[200] = "";
  bool ok = dr_json_parse(w.buf.data, w.buf.len, &j, err, sizeof err);
  CHECK(t, ok);
  if (!ok) {
    fprintf(stderr, "  %s\n%s", err, w.buf.data);
    free(w.buf.data);
    return;
  }
  CHECK(t, j.kind == DR_JSON_OBJ && j.count == 13);
  CHECK(t, dr_json_str(&j, "name") && !strcmp(dr_json_str(&j, "name"), "a \"quoted\"\\path\n\ttab\x01"));
  CHECK(t, dr_json_str(&j, "utf8") && !strcmp(dr_json_str(&j, "utf8"), "\xc3\xa9t\xc3\xa9 \xe2\x82\xac"));
  CHECK(t, dr_json_num(&j, "neg", 0) == -12345678901.0);
  CHECK(t, dr_json_num(&j, "big", 0) == 18446744073709551615.0);
  CHECK(t, dr_json_num(&j, "ratio", 0) == 0.25 && dr_json_num(&j, "rate", 0) == 0.3333);
  CHECK(t, dr_json_get(&j, "nan") && dr_json_get(&j, "nan")->kind == DR_JSON_NULL);
  CHECK(t, dr_json_num(&j, "yes", -1) == 1 && dr_json_num(&j, "no", -1) == 0);
  CHECK(t, dr_json_get(&j, "nothing")->kind == DR_JSON_NULL && dr_json_get(&j, "null_str")->kind == DR_JSON_NULL);
  CHECK(t, dr_json_str(&j, "ratio") == NULL && dr_json_num(&j, "missing", 7) == 7 && !dr_json_get(&j, "missing"));
  const DrJson *e = dr_json_get(&j, "empty"), *l = dr_json_get(&j, "list");
  CHECK(t, e && e->kind == DR_JSON_ARR && e->count == 0);
  CHECK(t, l && l->kind == DR_JSON_ARR && l->count == 3);
  if (l && l->count == 3) {
    const DrJson *item = &l->items[2], *inner = dr_json_get(item, "inner");
    CHECK(t, dr_json_num(item, "i", -1) == 2 && !strcmp(dr_json_str(item, "s"), "x"));
    CHECK(t, inner && inner->kind == DR_JSON_ARR && inner->count == 2 && inner->items[1].num == 21);
  }
  dr_json_free(&j);
  free(w.buf.data);

  /* the reader's own escapes: \/, \u with a surrogate pair */
  const char *text = "[\"\\/\\u00e9\\ud83d\\ude00\", -0.5e1, 1E+2]";
  ok = dr_json_parse(text, strlen(text), &j, err, sizeof err);
  CHECK(t, ok && j.count == 3 && !strcmp(j.items[0].str, "/\xc3\xa9\xf0\x9f\x98\x80"));
  CHECK(t, ok && j.items[1].num == -5 && j.items[2].num == 100);
  if (ok) dr_json_free(&j);
}

static void test_json_malformed(DrCheck *t) {
  static const struct {
    const char *text, *message;
  } cases[] = {
      {"", "line 1: unexpected end of text"},
      {"   \n  ", "line 2: unexpected end of text"},
      {"{", "line 1: expected a member name"},
      {"{\"a\" 1}", "expected ':'"},
      {"{\"a\": 1,}", "expected a member name"},
      {"{\n\"a\": 1\n\"b\": 2}", "line 3: expected ',' or '}'"},
      {"[1,]", "expected a value"},
      {"[1 2]", "expected ',' or ']'"},
      {"\"abc", "unterminated string"},
      {"\"a\\x\"", "bad escape in a string"},
      {"\"\\u12G4\"", "bad \\u escape"},
      {"\"a\tb\"", "control character in a string"},
      {"tru", "expected a value"},
      {"01", "text after the value"},
      {"1 2", "text after the value"},
      {"-", "expected a value"},
      {"1.", "expected a value"},
      {"1e", "expected a value"},
      {"{1: 2}", "expected a member name"},
      {"[\n\n\n nul]", "line 4: expected a value"},
  };
  for (size_t i = 0; i < DR_ARRAY_LEN(cases); i++) {
    DrJson j;
    char err[200] = "";
    bool ok = dr_json_parse(cases[i].text, strlen(cases[i].text), &j, err, sizeof err);
    CHECK(t, !ok && strstr(err, cases[i].message));
    if (ok || !strstr(err, cases[i].message)) fprintf(stderr, "  input %zu: '%s' gave '%s'\n", i, cases[i].text, err);
    if (ok) dr_json_free(&j);
  }
  /* nesting deeper than any report: refused, not a stack overflow */
  char deep[300];
  memset(deep, '[', sizeof deep);
  DrJson j;
  char err[200] = "";
  CHECK(t, !dr_json_parse(deep, sizeof deep, &j, err, sizeof err) && strstr(err, "nested too deeply"));
  CHECK(t, !dr_json_read_file("/nonexistent/drvm-test.json", &j, err, sizeof err) && strstr(err, "cannot read"));
}

/* ------------------------------------------------------------ pairs */

static DrPair pair(const char *loc, const char *m1, uint32_t pc1, int line1, const char *m2, uint32_t pc2, int line2) {
  DrPair p = {0};
  p.location = dr_strdup(loc);
  p.first = (DrPairStmt){m1 ? dr_strdup(m1) : NULL, pc1, line1};
  p.second = (DrPairStmt){m2 ? dr_strdup(m2) : NULL, pc2, line2};
  return p;
}

static bool stmt_is(const DrPairStmt *s, const char *method, uint32_t pc, int line) {
  if (!method) return !s->method;
  return s->method && !strcmp(s->method, method) && s->pc == pc && s->line == line;
}

static void test_pairs_round_trip(DrCheck *t) {
  DrPairs ps = {0};
  CHECK(t, dr_pairs_add(&ps, pair("Counter.count", "Counter$Adder.run()", 5, 8, "Counter$Adder.run()", 13, 8)));
  /* the same pair the other way round, and again: one pair */
  CHECK(t, !dr_pairs_add(&ps, pair("Counter.count", "Counter$Adder.run()", 13, 8, "Counter$Adder.run()", 5, 8)));
  CHECK(t, !dr_pairs_add(&ps, pair("Counter.count", "Counter$Adder.run()", 5, 8, "Counter$Adder.run()", 13, 8)));
  CHECK(t, dr_pairs_add(&ps, pair("Other.count", "Counter$Adder.run()", 5, 8, "Counter$Adder.run()", 13, 8)));
  CHECK(t, dr_pairs_add(&ps, pair("int[]", "Bank.deposit(int, long)", 0, -1, NULL, 0, 0)));
  CHECK(t, ps.count == 3);
  /* found either way round; another location is another pair */
  DrPair probe = pair("Counter.count", "Counter$Adder.run()", 13, 8, "Counter$Adder.run()", 5, 8);
  CHECK(t, dr_pairs_index(&ps, &probe) == 0);
  free(probe.location);
  probe.location = dr_strdup("Counter.total");
  CHECK(t, dr_pairs_index(&ps, &probe) == -1);
  dr_pair_free(&probe);
  /* a race's location as pairs files name it: an array element by its class */
  const char *locs[][2] = {{"Counter.count", "Counter.count"}, {"int[]#7[3]", "int[]"},
                           {"Account[][]#2[0]", "Account[][]"}, {"Outer$In.x", "Outer$In.x"}};
  for (int i = 0; i < 4; i++) {
    char *got = dr_pairs_location(locs[i][0]);
    CHECK(t, !strcmp(got, locs[i][1]));
    free(got);
  }
  /* a choice of words as messages print it */
  const char *choices[][3] = {{"a|b|c", "|", "a or b or c"}, {"hybrid wcp", " ", "hybrid or wcp"}, {"wcp", " ", "wcp"}};
  for (int i = 0; i < 3; i++) {
    DrBuf w = {0};
    dr_buf_append_choices(&w, choices[i][0], choices[i][1][0]);
    dr_buf_append(&w, "", 1);
    CHECK(t, !strcmp(w.data, choices[i][2]));
    free(w.data);
  }
  DrBuf text = {0};
  dr_pairs_write(&text, &ps);
  /* statements in sorted order; a method's spaces kept; "? ? 0" */
  CHECK(t, text.data && !strcmp(text.data, DR_PAIRS_COMMENT "\n"
                                           "Counter.count\tCounter$Adder.run() 13 8\tCounter$Adder.run() 5 8\n"
                                           "Other.count\tCounter$Adder.run() 13 8\tCounter$Adder.run() 5 8\n"
                                           "int[]\t? ? 0\tBank.deposit(int, long) 0 -1\n"));

  DrPairs back = {0};
  char err[300] = "";
  bool ok = dr_pairs_parse(text.data, text.len, "p.txt", &back, err, sizeof err);
  CHECK(t, ok && back.count == 3 && back.comment && !strcmp(back.comment, DR_PAIRS_COMMENT));
  if (ok && back.count == 3) {
    CHECK(t, !strcmp(back.items[0].location, "Counter.count") && back.items[0].lineno == 2);
    CHECK(t, stmt_is(&back.items[0].first, "Counter$Adder.run()", 13, 8));
    CHECK(t, stmt_is(&back.items[0].second, "Counter$Adder.run()", 5, 8));
    CHECK(t, stmt_is(&back.items[2].first, NULL, 0, 0));
    CHECK(t, stmt_is(&back.items[2].second, "Bank.deposit(int, long)", 0, -1) && back.items[2].lineno == 4);
  }
  DrBuf again = {0};
  dr_pairs_write(&again, &back);
  CHECK(t, again.data && !strcmp(again.data, text.data));
  free(again.data);
  free(text.data);
  dr_pairs_free(&back);
  dr_pairs_free(&ps);

  /* the reader keeps the file's order, duplicates, CRLF ends, skips blanks */
  const char *crlf = "\r\n# one\r\n\r\nA.f\tB.m() 1 2\tA.m() 3 4\r\nA.f\tB.m() 1 2\tA.m() 3 4\n# two\n";
  ok = dr_pairs_parse(crlf, strlen(crlf), "c.txt", &ps, err, sizeof err);
  CHECK(t, ok && ps.count == 2 && ps.items[1].lineno == 5 && !strcmp(ps.comment, "# one"));
  CHECK(t, ok && stmt_is(&ps.items[0].first, "B.m()", 1, 2) && stmt_is(&ps.items[0].second, "A.m()", 3, 4));
  dr_pairs_free(&ps);
  ok = dr_pairs_parse("", 0, "e.txt", &ps, err, sizeof err);
  CHECK(t, ok && ps.count == 0 && !ps.comment);
  dr_pairs_free(&ps);
}

static void test_pairs_malformed(DrCheck *t) {
  static const struct {
    const char *text, *message;
  } cases[] = {
      {"# c\nA.f\tB.m() 1 2\n", "bad.txt:2: malformed line"},
      {"A.f B.m() 1 2 A.m() 3 4\n", "bad.txt:1: malformed line"},
      {"\n\nA.f\tB.m() 1 2\tA.m() 3 4\textra\n", "bad.txt:3: malformed line"},
      {"\tB.m() 1 2\tA.m() 3 4\n", "bad.txt:1: malformed line"},
      {"A.f\tB.m() 1 2\tA.m() 3 4\nA.f\tB.m() x 2\tA.m() 3 4\n", "bad.txt:2: malformed statement"},
      {"A.f\tB.m() -1 2\tA.m() 3 4\n", "bad.txt:1: malformed statement"},
      {"A.f\tB.m() 1\tA.m() 3 4\n", "bad.txt:1: malformed statement"},
      {"A.f\tB.m() 1 2\t 3 4\n", "bad.txt:1: malformed statement"},
      {"A.f\tB.m() 1 2\tA.m() 3 4x\n", "bad.txt:1: malformed statement"},
      {"A.f\tB.m() 99999999999 2\tA.m() 3 4\n", "bad.txt:1: malformed statement"},
      {"A.f\tB.m()  1 2\t\n", "bad.txt:1: malformed statement"},
      {"A.f\t? ? 1\tA.m() 3 4\n", "bad.txt:1: malformed statement"},
  };
  for (size_t i = 0; i < DR_ARRAY_LEN(cases); i++) {
    DrPairs ps = {0};
    char err[300] = "";
    bool ok = dr_pairs_parse(cases[i].text, strlen(cases[i].text), "bad.txt", &ps, err, sizeof err);
    CHECK(t, !ok && strstr(err, cases[i].message));
    if (ok || !strstr(err, cases[i].message)) fprintf(stderr, "  pairs input %zu gave '%s'\n", i, err);
    dr_pairs_free(&ps);
  }
  /* a NUL byte inside a line: not read as the end of the line */
  const char nul[] = "A.f\tB.m() 1 2\tA.m() 3 4\0junk\n";
  DrPairs ps = {0};
  char err[300] = "";
  CHECK(t, !dr_pairs_parse(nul, sizeof nul - 1, "bad.txt", &ps, err, sizeof err) && strstr(err, "bad.txt:1: malformed line"));
  dr_pairs_free(&ps);
}

int main(void) {
  DrCheck t = {0};
  test_buf_printf(&t);
  test_buf_shown(&t);
  test_json_writer_layout(&t);
  test_json_round_trip(&t);
  test_json_malformed(&t);
  test_pairs_round_trip(&t);
  test_pairs_malformed(&t);
  return CHECK_DONE(&t);
}
