/* java.util.Formatter in C (vm/format*.c) against the JDK: every row of
 * tests/unit/format_cases.tsv (written by tests/tools/GenFormatCases.java
 * from what JDK 17's String.format printed) is one format applied to one
 * argument, with the text or the exception expected.  The loop over the
 * items and their arguments is drvm.Fmt's (prelude.dl), redone here for
 * one argument. */
#include <stdlib.h>
#include <string.h>

#include "../../vm/format.h"
#include "check.h"

typedef struct {
  uint16_t *u;
  int32_t n;
} Text;

static int hexval(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

/* The table's escapes: \\ \t \n \uXXXX */
static Text unescape(const char *s) {
  size_t len = strlen(s);
  Text t = {malloc(sizeof(uint16_t) * (len + 1)), 0};
  for (size_t i = 0; i < len; i++) {
    uint16_t c = (uint8_t)s[i];
    if (c == '\\' && i + 1 < len) {
      char e = s[++i];
      if (e == 't') c = '\t';
      else if (e == 'n') c = '\n';
      else if (e == 'u' && i + 4 < len) {
        c = (uint16_t)(hexval(s[i + 1]) << 12 | hexval(s[i + 2]) << 8 | hexval(s[i + 3]) << 4 | hexval(s[i + 4]));
        i += 4;
      } else c = (uint8_t)e;
    }
    t.u[t.n++] = c;
  }
  return t;
}

static void append_ascii16(DrBuf *b, const uint16_t *u, int32_t n) { dr_buf_append_utf16(b, u, n); }

/* "!SimpleName: getMessage()" as the generator writes an exception */
static void error_text(const DrFmtError *e, DrBuf *b) {
  char conv[2] = {(char)e->conv, 0};
  switch (e->kind) {
  case DR_FMT_E_UNKNOWN_CONVERSION: dr_buf_append_str(b, "!UnknownFormatConversionException: Conversion = '"); break;
  case DR_FMT_E_MISSING_ARGUMENT: dr_buf_append_str(b, "!MissingFormatArgumentException: Format specifier '"); break;
  case DR_FMT_E_CONVERSION: dr_buf_printf(b, "!IllegalFormatConversionException: %s != ", conv); break;
  case DR_FMT_E_MISMATCH: dr_buf_printf(b, "!FormatFlagsConversionMismatchException: Conversion = %s, Flags = ", conv); break;
  case DR_FMT_E_PRECISION: dr_buf_printf(b, "!IllegalFormatPrecisionException: %d", e->num); return;
  case DR_FMT_E_WIDTH: dr_buf_printf(b, "!IllegalFormatWidthException: %d", e->num); return;
  case DR_FMT_E_MISSING_WIDTH: dr_buf_append_str(b, "!MissingFormatWidthException: "); break;
  case DR_FMT_E_DUPLICATE_FLAGS: dr_buf_append_str(b, "!DuplicateFormatFlagsException: Flags = '"); break;
  case DR_FMT_E_ILLEGAL_FLAGS: dr_buf_append_str(b, "!IllegalFormatFlagsException: Flags = '"); break;
  case DR_FMT_E_CODE_POINT: dr_buf_printf(b, "!IllegalFormatCodePointException: Code point = 0x%x", (unsigned)e->num); return;
  case DR_FMT_E_ARGUMENT_INDEX:
    if (e->num == INT32_MIN) dr_buf_append_str(b, "!IllegalFormatArgumentIndexException: Format argument index: (not representable as int)");
    else dr_buf_printf(b, "!IllegalFormatArgumentIndexException: Illegal format argument index = %d", e->num);
    return;
  case DR_FMT_E_NULL: dr_buf_append_str(b, "!NullPointerException: null"); return;
  default: dr_buf_printf(b, "!drvm error %d", (int)e->kind); return;
  }
  append_ascii16(b, e->text, e->len);
  if (e->kind == DR_FMT_E_UNKNOWN_CONVERSION || e->kind == DR_FMT_E_MISSING_ARGUMENT ||
      e->kind == DR_FMT_E_DUPLICATE_FLAGS || e->kind == DR_FMT_E_ILLEGAL_FLAGS)
    dr_buf_append_str(b, "'");
}

static double double_of(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static float float_of(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* The argument of a row; *text keeps a str's characters. */
static DrFmtArg make_arg(const char *kind, const char *value, Text *text) {
  DrFmtArg a = {.kind = DR_FMT_NULL};
  static const struct {
    const char *name;
    DrFmtKind kind;
  } ints[] = {{"int", DR_FMT_INT}, {"long", DR_FMT_LONG}, {"byte", DR_FMT_BYTE}, {"short", DR_FMT_SHORT},
              {"char", DR_FMT_CHAR}};
  for (size_t i = 0; i < DR_ARRAY_LEN(ints); i++)
    if (strcmp(kind, ints[i].name) == 0) {
      a.kind = ints[i].kind;
      a.j = strtoll(value, NULL, 10);
    }
  if (strcmp(kind, "boolean") == 0) {
    a.kind = DR_FMT_BOOLEAN;
    a.j = strcmp(value, "true") == 0;
  } else if (strcmp(kind, "double") == 0) {
    a.kind = DR_FMT_DOUBLE;
    a.d = double_of(strtoull(value, NULL, 16));
  } else if (strcmp(kind, "float") == 0) {
    a.kind = DR_FMT_FLOAT;
    a.d = float_of((uint32_t)strtoul(value, NULL, 16));
  } else if (strcmp(kind, "str") == 0) {
    *text = unescape(value);
    a.kind = DR_FMT_TEXT;
    a.text = text->u;
    a.len = text->n;
  } else if (strcmp(kind, "obj") == 0) {
    a.kind = DR_FMT_OBJECT;
    a.class_name = value;
  }
  return a;
}

/* drvm.Fmt.run with the one argument a; false and err on an exception. */
static bool format_one(const Text *f, const DrFmtArg *a, DrBuf16 *out, DrFmtError *err) {
  DrFmtSpec *items;
  int32_t count;
  if (!fmt_parse(f->u, f->n, &items, &count, err)) return false;
  int32_t last = -1, lasto = -1;
  bool ok = true;
  for (int32_t i = 0; ok && i < count; i++) {
    const DrFmtSpec *sp = &items[i];
    if (sp->index == -1 && last < 0) ok = false;
    else if (sp->index == 0) last = ++lasto;
    else if (sp->index > 0) last = sp->index - 1;
    if (ok && sp->index != -2 && last > 0) ok = false;
    if (!ok) {
      DrBuf16 b = {0};
      fmt_spec_text(sp, &b);
      err->kind = DR_FMT_E_MISSING_ARGUMENT;
      err->len = b.len;
      memcpy(err->text, b.data, sizeof(uint16_t) * (size_t)b.len);
      dr_buf16_free(&b);
      break;
    }
    DrFmtArg arg = *a;
    if (arg.kind == DR_FMT_TEXT && sp->conv != 's') /* the String itself, not its text */
      arg = (DrFmtArg){.kind = DR_FMT_OBJECT, .class_name = "java.lang.String"};
    ok = fmt_print(f->u, f->n, sp, &arg, out, err);
  }
  free(items);
  return ok;
}

static void check_row(DrCheck *t, char *line, int lineno) {
  char *field[4];
  int n = 0;
  for (char *p = line; n < 4; n++) {
    field[n] = p;
    char *tab = strchr(p, '\t');
    if (!tab) {
      n++;
      break;
    }
    *tab = '\0';
    p = tab + 1;
  }
  if (n != 4) {
    fprintf(stderr, "format_cases.tsv:%d: not 4 fields\n", lineno);
    CHECK(t, n == 4);
    return;
  }
  Text f = unescape(field[0]), want16 = unescape(field[3]), text = {0};
  DrFmtArg a = make_arg(field[1], field[2], &text);
  DrBuf16 out = {0};
  DrFmtError err;
  DrBuf got = {0}, want = {0};
  if (format_one(&f, &a, &out, &err)) append_ascii16(&got, out.data, out.len);
  else error_text(&err, &got);
  append_ascii16(&want, want16.u, want16.n);
  bool same = strcmp(got.data ? got.data : "", want.data ? want.data : "") == 0;
  if (!same)
    fprintf(stderr, "format_cases.tsv:%d: format \"%s\" of %s %s: got \"%s\", want \"%s\"\n", lineno, field[0],
            field[1], field[2], got.data ? got.data : "", want.data ? want.data : "");
  CHECK(t, same);
  free(f.u);
  free(want16.u);
  free(text.u);
  dr_buf16_free(&out);
  free(got.data);
  free(want.data);
}

static char *read_table(void) {
  /* run from the repository's root (make, tests/runner.py) */
  FILE *fp = fopen("tests/unit/format_cases.tsv", "rb");
  if (!fp) return NULL;
  DrBuf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) dr_buf_append(&b, chunk, n);
  fclose(fp);
  return b.data;
}

/* A few rows by hand, so a broken table cannot hide a broken formatter. */
static void check_direct(DrCheck *t) {
  Text f = unescape("%.2f|%,d|%08.3e|%x");
  DrFmtSpec *items;
  int32_t count;
  DrFmtError err;
  CHECK(t, fmt_parse(f.u, f.n, &items, &count, &err) && count == 7);
  DrBuf16 out = {0};
  DrFmtArg d = {.kind = DR_FMT_DOUBLE, .d = 2.675}, i = {.kind = DR_FMT_INT, .j = -1234567};
  CHECK(t, fmt_print(f.u, f.n, &items[0], &d, &out, &err));
  CHECK(t, fmt_print(f.u, f.n, &items[2], &i, &out, &err));
  CHECK(t, fmt_print(f.u, f.n, &items[4], &d, &out, &err));
  CHECK(t, fmt_print(f.u, f.n, &items[6], &i, &out, &err));
  DrBuf got = {0};
  append_ascii16(&got, out.data, out.len);
  CHECK(t, got.data && strcmp(got.data, "2.68-1,234,5672.675e+00ffed2979") == 0);
  free(got.data);
  free(items);
  free(f.u);
  dr_buf16_free(&out);
}

/* Random formats of specifier characters, every item printed with every
 * kind of argument: no crash (ASan watches in make asan), and an error
 * always says which. */
static void check_random(DrCheck *t) {
  static const char alphabet[] = "%%%%-#+ 0,(<$.123456789tTsSdxXeEfgGaAcCbBhHnoqz";
  static const DrFmtArg args[] = {
      {.kind = DR_FMT_NULL},       {.kind = DR_FMT_INT, .j = -7},        {.kind = DR_FMT_LONG, .j = INT64_MIN},
      {.kind = DR_FMT_BYTE, .j = -1}, {.kind = DR_FMT_DOUBLE, .d = -1e300}, {.kind = DR_FMT_FLOAT, .d = 0.1f},
      {.kind = DR_FMT_CHAR, .j = 0xD800}, {.kind = DR_FMT_BOOLEAN, .j = 1}, {.kind = DR_FMT_OBJECT, .class_name = "X"},
      {.kind = DR_FMT_TEXT, .text = NULL},
  };
  uint64_t x = 0x9E3779B97F4A7C15u;
  int bad = 0;
  for (int round = 0; round < 20000; round++) {
    uint16_t f[16];
    int32_t n = 0;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int len = (int)(x % 12) + 1;
    for (int i = 0; i < len; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      f[n++] = (uint16_t)alphabet[x % (sizeof alphabet - 1)];
    }
    DrFmtSpec *items;
    int32_t count;
    DrFmtError err;
    if (!fmt_parse(f, n, &items, &count, &err)) {
      bad += err.kind == DR_FMT_OK;
      continue;
    }
    for (int32_t i = 0; i < count; i++)
      for (size_t k = 0; k < DR_ARRAY_LEN(args); k++) {
        DrBuf16 out = {0};
        if (!fmt_print(f, n, &items[i], &args[k], &out, &err)) bad += err.kind == DR_FMT_OK;
        dr_buf16_free(&out);
      }
    free(items);
  }
  CHECK(t, bad == 0);
}

int main(void) {
  DrCheck t = {0};
  check_direct(&t);
  check_random(&t);
  char *table = read_table();
  CHECK(&t, table != NULL);
  int lineno = 0, rows = 0;
  for (char *line = table; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    lineno++;
    if (*line) {
      check_row(&t, line, lineno);
      rows++;
    }
    line = nl ? nl + 1 : NULL;
  }
  CHECK(&t, rows > 8000);
  free(table);
  return CHECK_DONE(&t);
}
