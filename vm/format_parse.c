/* Formatter.parse of JDK 17: the format string split into fixed texts and
 * specifiers, each specifier checked as FormatSpecifier's constructor
 * checks it, so every error of the format is found before anything is
 * formatted.  The JDK matches specifiers with the regular expression
 * %(\d+\$)?([-#+ 0,(\<]*)?(\d+)?(\.\d+)?([tT])?([a-zA-Z%]); the matcher
 * below takes the same groups (no backtracking can change them: a flag,
 * a digit or a '.' is never a conversion). */
#include "format.h"

#include <stdlib.h>
#include <string.h>

static bool is_digit(uint16_t c) { return c >= '0' && c <= '9'; }
static bool is_letter(uint16_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_upper(uint16_t c) { return c >= 'A' && c <= 'Z'; }

static bool in_set(uint16_t c, const char *set) { return c != 0 && c < 128 && strchr(set, (char)c) != NULL; }

static bool conv_valid(uint16_t c) { return in_set(c, "bBsShHcCdoxXeEgGfaAn%"); }
static bool conv_text(uint16_t c) { return c == 'n' || c == '%'; }
static bool datetime_valid(uint16_t c) { return in_set(c, "HIklMNLQpsSTzZaAbBCdehjmyYrRcDF"); }

static const char flag_chars[] = "-^#+ 0,(<";

void fmt_flags_text(int32_t flags, DrBuf16 *out) {
  for (int i = 0; flag_chars[i]; i++) {
    if (!(flags & (1 << i))) continue;
    uint16_t c = (uint16_t)flag_chars[i];
    dr_buf16_append(out, &c, 1);
  }
}

static void append_int(DrBuf16 *out, int64_t v) {
  char buf[24];
  dr_long_to_string(v, buf);
  dr_buf16_append_ascii(out, buf);
}

void fmt_spec_text(const DrFmtSpec *sp, DrBuf16 *out) {
  dr_buf16_append_ascii(out, "%");
  fmt_flags_text(sp->flags & ~DR_FMT_UPPER, out);
  if (sp->index > 0) {
    append_int(out, sp->index);
    dr_buf16_append_ascii(out, "$");
  }
  if (sp->width != -1) append_int(out, sp->width);
  if (sp->precision != -1) {
    dr_buf16_append_ascii(out, ".");
    append_int(out, sp->precision);
  }
  bool upper = (sp->flags & DR_FMT_UPPER) != 0;
  if (sp->datetime) dr_buf16_append_ascii(out, upper ? "T" : "t");
  uint16_t c = (uint16_t)sp->conv;
  if (upper && c >= 'a' && c <= 'z') c = (uint16_t)(c - 'a' + 'A');
  dr_buf16_append(out, &c, 1);
}

/* --- errors --- */

static bool fail_text(DrFmtError *err, DrFmtErrKind kind, const uint16_t *u, int32_t n) {
  err->kind = kind;
  if (n > (int32_t)DR_ARRAY_LEN(err->text)) n = (int32_t)DR_ARRAY_LEN(err->text);
  memcpy(err->text, u, sizeof(uint16_t) * (size_t)n);
  err->len = n;
  return false;
}

static bool fail_buf(DrFmtError *err, DrFmtErrKind kind, DrBuf16 *b) {
  fail_text(err, kind, b->data, b->len);
  dr_buf16_free(b);
  return false;
}

static bool fail_num(DrFmtError *err, DrFmtErrKind kind, int32_t num) {
  err->kind = kind;
  err->num = num;
  err->len = 0;
  return false;
}

static bool fail_spec(DrFmtError *err, DrFmtErrKind kind, const DrFmtSpec *sp) {
  DrBuf16 b = {0};
  fmt_spec_text(sp, &b);
  return fail_buf(err, kind, &b);
}

static bool fail_flags(DrFmtError *err, DrFmtErrKind kind, int32_t flags) {
  DrBuf16 b = {0};
  fmt_flags_text(flags, &b);
  return fail_buf(err, kind, &b);
}

/* FormatFlagsConversionMismatchException for the first of bad that sp has. */
static bool check_bad_flags(const DrFmtSpec *sp, const int32_t *bad, int nbad, DrFmtError *err) {
  for (int i = 0; i < nbad; i++)
    if (sp->flags & bad[i]) {
      err->conv = sp->conv;
      return fail_flags(err, DR_FMT_E_MISMATCH, bad[i]);
    }
  return true;
}

#define BAD_FLAGS(sp, err, ...)                                                              \
  check_bad_flags(sp, (const int32_t[]){__VA_ARGS__}, (int)(sizeof((int32_t[]){__VA_ARGS__}) / sizeof(int32_t)), err)

/* --- FormatSpecifier's checks --- */

static bool left_needs_width(const DrFmtSpec *sp, DrFmtError *err) {
  if (sp->width == -1 && (sp->flags & DR_FMT_LEFT)) return fail_spec(err, DR_FMT_E_MISSING_WIDTH, sp);
  return true;
}

static bool check_general(const DrFmtSpec *sp, DrFmtError *err) {
  if ((sp->conv == 'b' || sp->conv == 'h') && (sp->flags & DR_FMT_ALT)) {
    err->conv = sp->conv;
    return fail_flags(err, DR_FMT_E_MISMATCH, DR_FMT_ALT);
  }
  return left_needs_width(sp, err) &&
         BAD_FLAGS(sp, err, DR_FMT_PLUS, DR_FMT_SPACE, DR_FMT_ZERO, DR_FMT_GROUP, DR_FMT_PAREN);
}

static bool check_character(const DrFmtSpec *sp, DrFmtError *err) {
  if (sp->precision != -1) return fail_num(err, DR_FMT_E_PRECISION, sp->precision);
  return BAD_FLAGS(sp, err, DR_FMT_ALT, DR_FMT_PLUS, DR_FMT_SPACE, DR_FMT_ZERO, DR_FMT_GROUP, DR_FMT_PAREN) &&
         left_needs_width(sp, err);
}

static bool check_datetime(const DrFmtSpec *sp, DrFmtError *err) {
  if (sp->precision != -1) return fail_num(err, DR_FMT_E_PRECISION, sp->precision);
  if (!datetime_valid((uint16_t)sp->conv)) {
    uint16_t t[2] = {'t', (uint16_t)sp->conv};
    return fail_text(err, DR_FMT_E_UNKNOWN_CONVERSION, t, 2);
  }
  return BAD_FLAGS(sp, err, DR_FMT_ALT, DR_FMT_PLUS, DR_FMT_SPACE, DR_FMT_ZERO, DR_FMT_GROUP, DR_FMT_PAREN) &&
         left_needs_width(sp, err);
}

static bool check_numeric(const DrFmtSpec *sp, DrFmtError *err) {
  int32_t f = sp->flags;
  if (sp->width == -1 && (f & (DR_FMT_LEFT | DR_FMT_ZERO))) return fail_spec(err, DR_FMT_E_MISSING_WIDTH, sp);
  if (((f & DR_FMT_PLUS) && (f & DR_FMT_SPACE)) || ((f & DR_FMT_LEFT) && (f & DR_FMT_ZERO)))
    return fail_flags(err, DR_FMT_E_ILLEGAL_FLAGS, f);
  return true;
}

static bool check_integer(const DrFmtSpec *sp, DrFmtError *err) {
  if (!check_numeric(sp, err)) return false;
  if (sp->precision != -1) return fail_num(err, DR_FMT_E_PRECISION, sp->precision);
  if (sp->conv == 'd') return BAD_FLAGS(sp, err, DR_FMT_ALT);
  return BAD_FLAGS(sp, err, DR_FMT_GROUP);
}

static bool check_float(const DrFmtSpec *sp, DrFmtError *err) {
  if (!check_numeric(sp, err)) return false;
  switch (sp->conv) {
  case 'a': return BAD_FLAGS(sp, err, DR_FMT_PAREN, DR_FMT_GROUP);
  case 'e': return BAD_FLAGS(sp, err, DR_FMT_GROUP);
  case 'g': return BAD_FLAGS(sp, err, DR_FMT_ALT);
  default: return true;
  }
}

static bool check_text(const DrFmtSpec *sp, DrFmtError *err) {
  if (sp->precision != -1) return fail_num(err, DR_FMT_E_PRECISION, sp->precision);
  if (sp->conv == '%') {
    if (sp->flags != DR_FMT_LEFT && sp->flags != 0) return fail_flags(err, DR_FMT_E_ILLEGAL_FLAGS, sp->flags);
    return left_needs_width(sp, err);
  }
  if (sp->width != -1) return fail_num(err, DR_FMT_E_WIDTH, sp->width);
  if (sp->flags != 0) return fail_flags(err, DR_FMT_E_ILLEGAL_FLAGS, sp->flags);
  return true;
}

static bool check_spec(const DrFmtSpec *sp, DrFmtError *err) {
  if (sp->datetime) return check_datetime(sp, err);
  if (in_set((uint16_t)sp->conv, "bsh")) return check_general(sp, err);
  if (sp->conv == 'c') return check_character(sp, err);
  if (in_set((uint16_t)sp->conv, "dox")) return check_integer(sp, err);
  if (in_set((uint16_t)sp->conv, "efga")) return check_float(sp, err);
  return check_text(sp, err);
}

/* --- the specifier's groups --- */

/* Integer.parseInt of digits s[a..b): -1 when it overflows an int. */
static int32_t parse_decimal(const uint16_t *s, int32_t a, int32_t b) {
  int64_t v = 0;
  for (int32_t i = a; i < b; i++) {
    v = v * 10 + (s[i] - '0');
    if (v > INT32_MAX) return -1;
  }
  return (int32_t)v;
}

static int32_t skip_digits(const uint16_t *s, int32_t i, int32_t n) {
  while (i < n && is_digit(s[i])) i++;
  return i;
}

typedef struct {
  int32_t index_a, index_b; /* the digits before '$', or -1 */
  int32_t flags_a, flags_b;
  int32_t width_a, width_b;
  int32_t prec_a, prec_b;   /* the digits after '.' */
  int32_t tt;               /* the position of t or T, or -1 */
  int32_t conv_at, end;
} Groups;

/* Matches the specifier at s[i] (just after the '%'). */
static bool match_groups(const uint16_t *s, int32_t i, int32_t n, Groups *g) {
  int32_t j = skip_digits(s, i, n);
  g->index_a = g->index_b = -1;
  if (j > i && j < n && s[j] == '$') {
    g->index_a = i;
    g->index_b = j;
    i = j + 1;
  }
  g->flags_a = i;
  while (i < n && in_set(s[i], "-#+ 0,(<")) i++;
  g->flags_b = i;
  g->width_a = i;
  i = g->width_b = skip_digits(s, i, n);
  g->prec_a = g->prec_b = -1;
  if (i + 1 < n && s[i] == '.' && is_digit(s[i + 1])) {
    g->prec_a = i + 1;
    i = g->prec_b = skip_digits(s, i + 1, n);
  }
  g->tt = -1;
  if (i < n && (s[i] == 't' || s[i] == 'T')) g->tt = i++;
  if (i >= n || !(is_letter(s[i]) || s[i] == '%')) {
    /* [tT] is optional: a lone t or T is the conversion itself */
    if (g->tt < 0) return false;
    i = g->tt;
    g->tt = -1;
  }
  g->conv_at = i;
  g->end = i + 1;
  return true;
}

static bool spec_flags(const uint16_t *s, const Groups *g, DrFmtSpec *sp, DrFmtError *err) {
  for (int32_t i = g->flags_a; i < g->flags_b; i++) {
    int32_t bit = 1 << (int)(strchr(flag_chars, (char)s[i]) - flag_chars);
    if (sp->flags & bit) return fail_flags(err, DR_FMT_E_DUPLICATE_FLAGS, bit);
    sp->flags |= bit;
  }
  if (sp->flags & DR_FMT_PREV) sp->index = -1;
  return true;
}

/* FormatSpecifier(String, Matcher): the groups in the JDK's order, each
 * with its own error, then the conversion's checks. */
static bool spec_from_groups(const uint16_t *s, const Groups *g, DrFmtSpec *sp, DrFmtError *err) {
  if (g->index_a >= 0) {
    int32_t v = parse_decimal(s, g->index_a, g->index_b);
    if (v <= 0) return fail_num(err, DR_FMT_E_ARGUMENT_INDEX, v < 0 ? INT32_MIN : v);
    sp->index = v;
  }
  if (!spec_flags(s, g, sp, err)) return false;
  if (g->width_b > g->width_a) {
    sp->width = parse_decimal(s, g->width_a, g->width_b);
    if (sp->width < 0) return fail_num(err, DR_FMT_E_WIDTH, INT32_MIN);
  }
  if (g->prec_a >= 0) {
    sp->precision = parse_decimal(s, g->prec_a, g->prec_b);
    if (sp->precision < 0) return fail_num(err, DR_FMT_E_PRECISION, INT32_MIN);
  }
  uint16_t c = s[g->conv_at];
  if (g->tt >= 0) {
    sp->datetime = 1;
    if (s[g->tt] == 'T') sp->flags |= DR_FMT_UPPER;
  } else {
    if (!conv_valid(c)) return fail_text(err, DR_FMT_E_UNKNOWN_CONVERSION, &c, 1);
    if (is_upper(c)) {
      sp->flags |= DR_FMT_UPPER;
      c = (uint16_t)(c - 'A' + 'a');
    }
    if (conv_text(c)) sp->index = -2;
  }
  sp->conv = c;
  return check_spec(sp, err);
}

static DrFmtSpec blank_spec(int32_t start, int32_t end) {
  DrFmtSpec sp = {.index = 0, .start = start, .end = end, .width = -1, .precision = -1};
  return sp;
}

/* The specifier whose '%' is at s[at]; *next: where the text goes on. */
static bool parse_spec(const uint16_t *s, int32_t n, int32_t at, DrFmtSpec *sp, int32_t *next, DrFmtError *err) {
  int32_t i = at + 1;
  if (i >= n) {
    uint16_t pct = '%';
    return fail_text(err, DR_FMT_E_UNKNOWN_CONVERSION, &pct, 1);
  }
  uint16_t c = s[i];
  if (conv_valid(c)) { /* the JDK's shortcut: no flags, no checks */
    *sp = blank_spec(at, i + 1);
    if (is_upper(c)) {
      sp->flags = DR_FMT_UPPER;
      c = (uint16_t)(c - 'A' + 'a');
    }
    if (conv_text(c)) sp->index = -2;
    sp->conv = c;
    *next = i + 1;
    return true;
  }
  Groups g;
  if (!match_groups(s, i, n, &g)) return fail_text(err, DR_FMT_E_UNKNOWN_CONVERSION, &c, 1);
  *sp = blank_spec(at, g.end);
  *next = g.end;
  return spec_from_groups(s, &g, sp, err);
}

static void push_item(DrFmtSpec **items, int32_t *count, int32_t *cap, DrFmtSpec sp) {
  if (*count == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    *items = dr_xrealloc(*items, sizeof(DrFmtSpec) * (size_t)*cap);
  }
  (*items)[(*count)++] = sp;
}

bool fmt_parse(const uint16_t *s, int32_t n, DrFmtSpec **items, int32_t *count, DrFmtError *err) {
  int32_t cap = 0;
  *items = NULL;
  *count = 0;
  err->kind = DR_FMT_OK;
  for (int32_t i = 0; i < n;) {
    int32_t at = i;
    while (at < n && s[at] != '%') at++;
    if (at > i) {
      DrFmtSpec text = blank_spec(i, at);
      text.index = -2;
      push_item(items, count, &cap, text);
    }
    if (at == n) break;
    DrFmtSpec sp;
    if (!parse_spec(s, n, at, &sp, &i, err)) {
      free(*items);
      *items = NULL;
      *count = 0;
      return false;
    }
    push_item(items, count, &cap, sp);
  }
  return true;
}
