/* The DL lexer: JLS chapter 3 for the subset DL needs, with javac's error
 * wording.  Unicode escapes (JLS 3.3) are translated only inside char and
 * string literals, where they are processed exactly as Java would (an
 * escape may even produce the closing quote); elsewhere they are reported. */
#include "lexer.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static const char *const lex_spellings[DR_TOK_COUNT] = {
#define LEX_SPELLING(name, spelling, flags) [T_##name] = spelling,
    DR_TOKENS(LEX_SPELLING)
#undef LEX_SPELLING
};

/* Messages quote keywords and operators ("';' expected") but not the
 * descriptions of valued tokens ("<identifier> expected"). */
static const char *const lex_quoted[DR_TOK_COUNT] = {
#define LEX_QUOTED(name, spelling, flags) [T_##name] = "'" spelling "'",
    DR_TOKENS(LEX_QUOTED)
#undef LEX_QUOTED
};

/* Spelling lengths: the lookups compare these before any bytes. */
static const unsigned char lex_lengths[DR_TOK_COUNT] = {
#define LEX_LENGTH(name, spelling, flags) [T_##name] = sizeof(spelling) - 1,
    DR_TOKENS(LEX_LENGTH)
#undef LEX_LENGTH
};

static const unsigned lex_flags[DR_TOK_COUNT] = {
#define LEX_FLAGS(name, spelling, flags) [T_##name] = (flags),
    DR_TOKENS(LEX_FLAGS)
#undef LEX_FLAGS
};

const char *dr_token_spelling(DrTokKind k) { return (unsigned)k < DR_TOK_COUNT ? lex_spellings[k] : "?"; }

const char *dr_token_name(DrTokKind k) {
  if ((unsigned)k >= DR_TOK_COUNT) return "?";
  return (lex_flags[k] & DR_TKF_VALUE) ? lex_spellings[k] : lex_quoted[k];
}

unsigned dr_token_flags(DrTokKind k) { return (unsigned)k < DR_TOK_COUNT ? lex_flags[k] : 0; }

DrTokKind dr_keyword_lookup(const char *s, size_t n) {
  for (int k = 0; k < DR_TOK_COUNT; k++) {
    if (!(lex_flags[k] & DR_TKF_KEYWORD) || lex_lengths[k] != n || lex_spellings[k][0] != s[0]) continue;
    if (memcmp(lex_spellings[k], s, n) == 0) return (DrTokKind)k;
  }
  return T_IDENT;
}

/* ------------------------------------------------------------- cursor */

void dr_lexer_init(DrLexer *lx, DrArena *arena, DrDiagList *diags, const DrSource *src) {
  memset(lx, 0, sizeof *lx);
  lx->arena = arena;
  lx->diags = diags;
  lx->src = src;
  lx->p = (const unsigned char *)(src->text ? src->text : "");
  lx->end = lx->p + (src->text ? src->len : 0);
  lx->line = 1;
  lx->col = 1;
  /* A UTF-8 byte order mark is an editor artifact, not source text. */
  if (lx->end - lx->p >= 3 && lx->p[0] == 0xEF && lx->p[1] == 0xBB && lx->p[2] == 0xBF) lx->p += 3;
}

static DR_PRINTF(3, 4) void lex_error(DrLexer *lx, DrPos pos, const char *fmt, ...) {
  lx->tok_error = true;
  if (lx->quiet) return;
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  dr_error(lx->diags, pos, "%s", buf);
  lx->nerrors++;
}

static DrPos lex_pos(const DrLexer *lx) { return (DrPos){lx->line, lx->col}; }

/* The byte k ahead of the cursor, or -1 past the end (NUL is a byte like
 * any other here: the text is not assumed to be NUL-terminated). */
static int lex_at(const DrLexer *lx, ptrdiff_t k) {
  return lx->end - lx->p > k ? lx->p[k] : -1;
}

static void lex_bump(DrLexer *lx) {
  if (lx->p >= lx->end) return;
  unsigned char b = *lx->p++;
  if (b == '\n' || (b == '\r' && (lx->p >= lx->end || *lx->p != '\n'))) {
    lx->line++;
    lx->col = 1;
  } else if (b == '\r') {
    /* the \n of \r\n ends the line */
  } else if ((b & 0xC0) != 0x80) {
    /* columns count characters: continuation bytes do not advance */
    lx->col++;
  }
}

static void lex_bump_n(DrLexer *lx, int n) {
  while (n-- > 0) lex_bump(lx);
}

/* Decodes one UTF-8 character at p; -1 (with *len = 1) if malformed. */
static int32_t lex_utf8(const unsigned char *p, const unsigned char *end, int *len) {
  *len = 1;
  unsigned char b = p[0];
  if (b < 0x80) return b;
  int n;
  int32_t cp, min;
  if (b >= 0xC2 && b <= 0xDF) n = 2, cp = b & 0x1F, min = 0x80;
  else if (b >= 0xE0 && b <= 0xEF) n = 3, cp = b & 0x0F, min = 0x800;
  else if (b >= 0xF0 && b <= 0xF4) n = 4, cp = b & 0x07, min = 0x10000;
  else return -1;
  if (end - p < n) return -1;
  for (int i = 1; i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  *len = n;
  return cp;
}

static bool lex_is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool lex_is_ident_part(int c) { return lex_is_ident_start(c) || (c >= '0' && c <= '9'); }

/* Java accepts Unicode letters in identifiers; DL keeps to ASCII.  These
 * ranges (common letter blocks) only decide which message a user sees: a
 * letter gets "non-ASCII identifiers", anything else "illegal character". */
static bool lex_is_nonascii_letter(int32_t cp) {
  return cp == 0xAA || cp == 0xB5 || cp == 0xBA || (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) ||
         (cp >= 0x370 && cp <= 0x3FF && cp != 0x37E && cp != 0x387) || (cp >= 0x400 && cp <= 0x52F && (cp < 0x482 || cp > 0x489)) ||
         (cp >= 0x531 && cp <= 0x587) || (cp >= 0x5D0 && cp <= 0x5EA) || (cp >= 0x620 && cp <= 0x64A) ||
         (cp >= 0x1E00 && cp <= 0x1FFF) || (cp >= 0x3041 && cp <= 0x30FF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3);
}

static void lex_illegal_char(DrLexer *lx, DrPos pos, int32_t cp) {
  if (cp >= 0x20 && cp < 0x7F)
    lex_error(lx, pos, "illegal character: '%c'", (char)cp);
  else if (cp <= 0xFFFF)
    lex_error(lx, pos, "illegal character: '\\u%04x'", (unsigned)cp);
  else
    lex_error(lx, pos, "illegal character: '\\U%08x'", (unsigned)cp);
}

/* ------------------------------------------------- identifiers, keywords */

static void lex_ident(DrLexer *lx, DrToken *t) {
  const unsigned char *start = lx->p;
  bool nonascii = false;
  for (;;) {
    int c = lex_at(lx, 0);
    if (c >= 0 && lex_is_ident_part(c)) {
      lex_bump(lx);
      continue;
    }
    if (c >= 0x80) {
      int len;
      int32_t cp = lex_utf8(lx->p, lx->end, &len);
      if (cp >= 0 && lex_is_nonascii_letter(cp)) {
        nonascii = true;
        lex_bump_n(lx, len);
        continue;
      }
    }
    break;
  }
  size_t n = (size_t)(lx->p - start);
  if (nonascii) lex_error(lx, t->pos, "non-ASCII characters in identifiers are not supported in DL");
  t->kind = nonascii ? T_IDENT : dr_keyword_lookup((const char *)start, n);
  if (t->kind == T_IDENT) t->text = dr_arena_strndup(lx->arena, (const char *)start, n);
}

/* ---------------------------------------------------------------- numbers */

/* The digits of a number literal without underscores (arena, grown as
 * needed: a double literal may legally have hundreds of digits). */
typedef struct {
  char *s;
  int n, cap;
} DrLexBuf;

static void lex_buf_put(DrLexer *lx, DrLexBuf *b, char c) {
  /* one spare byte for the terminating NUL */
  if (b->n + 1 >= b->cap) b->s = dr_arena_grow(lx->arena, b->s, 1, b->n, &b->cap);
  b->s[b->n++] = c;
  b->s[b->n] = '\0';
}

static int lex_digit_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

/* Scans digits of radix with underscores between them into b and returns
 * how many digits there were.  Underscores must sit between digits
 * (JLS 3.10.1); javac reports others as "illegal underscore". */
static int lex_digits(DrLexer *lx, int radix, DrLexBuf *b) {
  int ndigits = 0;
  bool in_run = false;
  DrPos run_pos = {0, 0};
  for (;;) {
    int c = lex_at(lx, 0);
    if (c == '_') {
      if (!in_run) run_pos = lex_pos(lx);
      in_run = true;
      lex_bump(lx);
      continue;
    }
    if (c < 0 || lex_digit_value(c) >= radix) break;
    if (in_run && ndigits == 0) lex_error(lx, run_pos, "illegal underscore");
    in_run = false;
    lex_buf_put(lx, b, (char)c);
    lex_bump(lx);
    ndigits++;
  }
  if (in_run) lex_error(lx, run_pos, "illegal underscore");
  return ndigits;
}

static int64_t lex_u64_to_i64(uint64_t v) {
  /* two's complement reinterpretation without implementation-defined casts */
  if (v <= (uint64_t)INT64_MAX) return (int64_t)v;
  return -(int64_t)(~v) - 1;
}

static bool lex_digits_nonzero(const char *s, int from, int to) {
  for (int i = from; i < to; i++)
    if (s[i] != '0' && s[i] != '.' && s[i] != 'x') return true;
  return false;
}

/* An optional exponent sign and digits; false if there are no digits. */
static bool lex_exponent(DrLexer *lx, DrLexBuf *b, char marker) {
  lex_bump(lx);
  lex_buf_put(lx, b, marker);
  int c = lex_at(lx, 0);
  if (c == '+' || c == '-') {
    lex_buf_put(lx, b, (char)c);
    lex_bump(lx);
  }
  return lex_digits(lx, 10, b) > 0;
}

/* The d/D or f/F suffix of a floating literal, and its value from the
 * text in b (strtod rounds correctly, as Java requires). */
static void lex_float_end(DrLexer *lx, DrToken *t, DrLexBuf *b, bool malformed, bool mantissa_nonzero) {
  int c = lex_at(lx, 0);
  bool is_float = c == 'f' || c == 'F';
  if (is_float || c == 'd' || c == 'D') lex_bump(lx);
  t->kind = is_float ? T_FLOAT_LIT : T_DOUBLE_LIT;
  if (malformed) {
    lex_error(lx, t->pos, "malformed floating-point literal");
    return;
  }
  /* a float literal rounds once, from its text (strtof), not via double */
  double d = is_float ? (double)strtof(b->s, NULL) : strtod(b->s, NULL);
  if (isinf(d)) {
    lex_error(lx, t->pos, "floating-point number too large");
  } else if (d == 0 && mantissa_nonzero) {
    lex_error(lx, t->pos, "floating-point number too small");
  } else {
    t->dval = d;
  }
}

/* Converts the digits of an integer literal and range-checks them
 * (JLS 3.10.1): decimal ints up to 2^31 (that one only after unary minus),
 * hex/octal/binary up to 32 bits; longs likewise with 64. */
static void lex_int_value(DrLexer *lx, DrToken *t, const DrLexBuf *b, int radix) {
  bool is_long = false;
  int c = lex_at(lx, 0);
  if (c == 'l' || c == 'L') {
    is_long = true;
    lex_bump(lx);
  }
  t->kind = is_long ? T_LONG_LIT : T_INT_LIT;
  uint64_t v = 0;
  bool overflow = false;
  for (int i = 0; i < b->n; i++) {
    int d = lex_digit_value((unsigned char)b->s[i]);
    if (d >= radix) {
      lex_error(lx, t->pos, "malformed number");
      return;
    }
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)radix) overflow = true;
    v = v * (uint64_t)radix + (uint64_t)d;
  }
  if (radix == 10) {
    uint64_t limit = is_long ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT32_MAX + 1;
    if (overflow || v > limit) {
      lex_error(lx, t->pos, "integer number too large");
    } else if (v == limit) {
      t->flags |= DR_TOKF_NEEDS_MINUS;
      t->ival = is_long ? INT64_MIN : INT32_MIN;
    } else {
      t->ival = (int64_t)v;
    }
  } else if (is_long) {
    if (overflow) lex_error(lx, t->pos, "integer number too large");
    else t->ival = lex_u64_to_i64(v);
  } else if (overflow || v > UINT32_MAX) {
    lex_error(lx, t->pos, "integer number too large");
  } else {
    t->ival = v > (uint64_t)INT32_MAX ? (int64_t)v - ((int64_t)1 << 32) : (int64_t)v;
  }
}

static void lex_number(DrLexer *lx, DrToken *t) {
  DrLexBuf b = {NULL, 0, 0};
  int c0 = lex_at(lx, 0), c1 = lex_at(lx, 1);
  lex_buf_put(lx, &b, '0'); /* keeps b.s non-NULL; harmless leading zero */
  b.n = 0;

  if (c0 == '0' && (c1 == 'x' || c1 == 'X')) {
    lex_bump_n(lx, 2);
    lex_buf_put(lx, &b, '0');
    lex_buf_put(lx, &b, 'x');
    int ndigits = lex_digits(lx, 16, &b);
    int c = lex_at(lx, 0);
    if (c == '.' || c == 'p' || c == 'P') {
      if (c == '.') {
        lex_bump(lx);
        lex_buf_put(lx, &b, '.');
        ndigits += lex_digits(lx, 16, &b);
        c = lex_at(lx, 0);
      }
      bool nonzero = lex_digits_nonzero(b.s, 2, b.n);
      bool ok = ndigits > 0 && (c == 'p' || c == 'P') && lex_exponent(lx, &b, 'p');
      lex_float_end(lx, t, &b, !ok, nonzero);
    } else if (ndigits == 0) {
      t->kind = T_INT_LIT;
      lex_error(lx, t->pos, "hexadecimal numbers must contain at least one hexadecimal digit");
    } else {
      memmove(b.s, b.s + 2, (size_t)b.n - 1);
      b.n -= 2;
      lex_int_value(lx, t, &b, 16);
    }
  } else if (c0 == '0' && (c1 == 'b' || c1 == 'B')) {
    lex_bump_n(lx, 2);
    if (lex_digits(lx, 2, &b) == 0) {
      t->kind = T_INT_LIT;
      lex_error(lx, t->pos, "binary numbers must contain at least one binary digit");
    } else {
      lex_int_value(lx, t, &b, 2);
    }
  } else {
    if (c0 != '.') lex_digits(lx, 10, &b);
    int c = lex_at(lx, 0);
    bool is_float = false, malformed = false;
    if (c == '.') {
      is_float = true;
      lex_bump(lx);
      lex_buf_put(lx, &b, '.');
      if (lex_at(lx, 0) == '_') lex_error(lx, lex_pos(lx), "illegal underscore");
      lex_digits(lx, 10, &b);
      c = lex_at(lx, 0);
    }
    bool nonzero = lex_digits_nonzero(b.s, 0, b.n);
    if (c == 'e' || c == 'E') {
      is_float = true;
      if (!lex_exponent(lx, &b, 'e')) malformed = true;
      c = lex_at(lx, 0);
    }
    if (is_float || c == 'd' || c == 'D' || c == 'f' || c == 'F') {
      lex_float_end(lx, t, &b, malformed, nonzero);
    } else if (b.n > 1 && b.s[0] == '0') {
      memmove(b.s, b.s + 1, (size_t)b.n);
      b.n--;
      lex_int_value(lx, t, &b, 8);
    } else {
      lex_int_value(lx, t, &b, 10);
    }
  }

  /* `123abc`, `0b12`, `1.5e3x`: what is glued to a number belongs to one
   * malformed literal rather than starting another token */
  int c = lex_at(lx, 0);
  if (c >= 0 && lex_is_ident_part(c)) {
    while (lex_at(lx, 0) >= 0 && lex_is_ident_part(lex_at(lx, 0))) lex_bump(lx);
    if (!lx->tok_error) lex_error(lx, t->pos, "malformed number");
  }
}

/* ---------------------------------------------------- char and string */

enum { LEX_EOF = -1 };

/* The next character of a char or string literal, with unicode escapes
 * translated (JLS 3.3: a backslash starts one only if preceded by an even
 * number of raw backslashes).  Returns a code point or LEX_EOF. */
static int32_t lex_lit_char(DrLexer *lx, const unsigned char *lit_start) {
  if (lx->p >= lx->end) return LEX_EOF;
  int c = lx->p[0];
  if (c == '\\' && lex_at(lx, 1) == 'u') {
    int nb = 0;
    for (const unsigned char *q = lx->p; q > lit_start && q[-1] == '\\'; q--) nb++;
    if (nb % 2 == 0) {
      DrPos epos = lex_pos(lx);
      lex_bump(lx);
      while (lex_at(lx, 0) == 'u') lex_bump(lx);
      int32_t v = 0;
      for (int i = 0; i < 4; i++) {
        int c2 = lex_at(lx, 0);
        int d = c2 < 0 ? 99 : lex_digit_value(c2);
        if (d >= 16) {
          lex_error(lx, epos, "illegal unicode escape");
          return 0xFFFD;
        }
        v = v * 16 + d;
        lex_bump(lx);
      }
      return v;
    }
  }
  if (c < 0x80) {
    lex_bump(lx);
    return c;
  }
  int len;
  int32_t cp = lex_utf8(lx->p, lx->end, &len);
  if (cp < 0) {
    lex_error(lx, lex_pos(lx), "unmappable character (0x%02X) for encoding UTF-8", (unsigned)c);
    lex_bump(lx);
    return 0xFFFD;
  }
  lex_bump_n(lx, len);
  return cp;
}

static bool lex_is_octal(int32_t c) { return c >= '0' && c <= '7'; }

static bool lex_at_line_end(const DrLexer *lx) {
  return lx->p >= lx->end || *lx->p == '\n' || *lx->p == '\r';
}

/* The character an escape sequence stands for, after its backslash;
 * LEX_EOF if the line ends first. */
static int32_t lex_escape(DrLexer *lx, const unsigned char *lit_start) {
  if (lex_at_line_end(lx)) return LEX_EOF;
  DrPos pos = lex_pos(lx);
  int32_t c = lex_lit_char(lx, lit_start);
  switch (c) {
  case 'b': return '\b';
  case 't': return '\t';
  case 'n': return '\n';
  case 'f': return '\f';
  case 'r': return '\r';
  case 's': return ' ';
  case '"': return '"';
  case '\'': return '\'';
  case '\\': return '\\';
  case '\n': case '\r': return LEX_EOF; /* an escaped line end: \u000a */
  default: break;
  }
  if (lex_is_octal(c)) {
    int32_t v = c - '0';
    int more = c <= '3' ? 2 : 1;
    for (int i = 0; i < more && !lex_at_line_end(lx); i++) {
      DrLexer save = *lx;
      int32_t d = lex_lit_char(lx, lit_start);
      if (!lex_is_octal(d)) {
        *lx = save;
        break;
      }
      v = v * 8 + (d - '0');
    }
    return v;
  }
  lex_error(lx, pos, "illegal escape character");
  return c;
}

static int lex_put_utf16(uint16_t *out, int n, int32_t cp) {
  if (cp > 0xFFFF) {
    if (out) {
      out[n] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
      out[n + 1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
    }
    return n + 2;
  }
  if (out) out[n] = (uint16_t)cp;
  return n + 1;
}

/* Decodes a string body after the opening quote into out (NULL: count
 * only) and returns the number of UTF-16 code units. */
static int lex_string_body(DrLexer *lx, uint16_t *out, DrPos start, const unsigned char *lit_start) {
  int n = 0;
  for (;;) {
    /* a raw line end is left for white space, so lines keep counting */
    int32_t c = lex_at_line_end(lx) ? LEX_EOF : lex_lit_char(lx, lit_start);
    if (c == '"') break;
    if (c == '\\') c = lex_escape(lx, lit_start);
    else if (c == '\n' || c == '\r') c = LEX_EOF;
    if (c == LEX_EOF) {
      lex_error(lx, start, "unclosed string literal");
      break;
    }
    n = lex_put_utf16(out, n, c);
  }
  return n;
}

/* ---------------------------------------------------------- text blocks */

static bool lex_is_blank_char(unsigned char c) { return c == ' ' || c == '\t' || c == '\f'; }

/* The raw content of a text block, from after the opening delimiter's
 * line end to its closing delimiter (consumed), line ends normalized to
 * \n (JLS 3.10.6 step 1).  *len is its length in bytes. */
static char *lex_text_block_raw(DrLexer *lx, DrToken *t, size_t *len) {
  size_t cap = 64, n = 0;
  char *buf = dr_xmalloc(cap);
  for (;;) {
    if (lx->p >= lx->end) {
      lex_error(lx, t->pos, "unclosed text block");
      break;
    }
    if (lex_at(lx, 0) == '"' && lex_at(lx, 1) == '"' && lex_at(lx, 2) == '"') {
      lex_bump_n(lx, 3);
      break;
    }
    int take = lex_at(lx, 0) == '\\' && lx->p + 1 < lx->end ? 2 : 1; /* \" does not close */
    for (int i = 0; i < take; i++) {
      unsigned char c = *lx->p;
      lex_bump(lx);
      if (c == '\r') {
        if (lex_at(lx, 0) == '\n') lex_bump(lx);
        c = '\n';
      }
      if (n + 1 >= cap) buf = dr_xrealloc(buf, cap *= 2);
      buf[n++] = (char)c;
    }
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

/* The indentation every line shares (JLS 3.10.6 steps 2-3): non-blank
 * lines count, and so does the last (the closing delimiter's) line. */
static size_t lex_text_block_indent(const char *raw, size_t len) {
  size_t min = (size_t)-1;
  for (size_t i = 0; i <= len;) {
    size_t e = i, ws = 0;
    while (e < len && raw[e] != '\n') e++;
    while (i + ws < e && lex_is_blank_char((unsigned char)raw[i + ws])) ws++;
    bool last = e >= len;
    if ((i + ws < e || last) && ws < min) min = ws;
    i = e + 1;
  }
  return min == (size_t)-1 ? 0 : min;
}

/* Strips the shared indentation and each line's trailing white space
 * (steps 3-5); a blank last line leaves nothing after the last \n. */
static char *lex_text_block_strip(const char *raw, size_t len, size_t *out_len) {
  size_t indent = lex_text_block_indent(raw, len), n = 0;
  char *out = dr_xmalloc(len + 1);
  for (size_t i = 0; i <= len;) {
    size_t e = i;
    while (e < len && raw[e] != '\n') e++;
    size_t b = i + indent < e ? i + indent : e, f = e;
    while (f > b && lex_is_blank_char((unsigned char)raw[f - 1])) f--;
    memcpy(out + n, raw + b, f - b);
    n += f - b;
    if (e < len) out[n++] = '\n';
    i = e + 1;
  }
  out[n] = 0;
  *out_len = n;
  return out;
}

/* A text block (JLS 3.10.6): the opening delimiter must end its line;
 * the content loses its incidental indentation and trailing blanks, then
 * its escapes are interpreted (with \<line end> joining lines). */
static void lex_text_block(DrLexer *lx, DrToken *t) {
  lex_bump_n(lx, 3);
  while (lx->p < lx->end && lex_is_blank_char(*lx->p)) lex_bump(lx);
  if (!lex_at_line_end(lx) || lx->p >= lx->end)
    lex_error(lx, t->pos, "illegal text block open delimiter sequence, missing line terminator");
  else if (lex_bump(lx), lex_at(lx, 0) == '\n' && lx->p[-1] == '\r')
    lex_bump(lx);
  size_t rlen, slen;
  char *raw = lex_text_block_raw(lx, t, &rlen);
  char *text = lex_text_block_strip(raw, rlen, &slen);
  free(raw);
  /* the escapes, read by a lexer over the stripped text */
  DrLexer sub = *lx;
  sub.p = (const unsigned char *)text;
  sub.end = sub.p + slen;
  sub.line = t->pos.line + 1; /* the content starts on the next line */
  sub.col = 1;
  uint16_t *s = dr_arena_alloc(lx->arena, sizeof(uint16_t) * (slen + 1));
  int n = 0;
  while (sub.p < sub.end) {
    int32_t c = lex_lit_char(&sub, (const unsigned char *)text);
    if (c == '\\') {
      if (lex_at(&sub, 0) == '\n') {
        lex_bump(&sub);
        continue;
      }
      c = lex_escape(&sub, (const unsigned char *)text);
      if (c == LEX_EOF) break;
    }
    if (c == LEX_EOF) break;
    n = lex_put_utf16(s, n, c);
  }
  lx->nerrors = sub.nerrors;
  lx->tok_error = sub.tok_error;
  free(text);
  t->str = s;
  t->slen = n;
}

static void lex_string(DrLexer *lx, DrToken *t) {
  t->kind = T_STRING_LIT;
  if (lex_at(lx, 1) == '"' && lex_at(lx, 2) == '"') {
    lex_text_block(lx, t);
    return;
  }
  lex_bump(lx);
  const unsigned char *lit_start = lx->p;
  /* Two passes (count, then decode) so the arena holds exactly the units. */
  DrLexer measure = *lx;
  measure.quiet = true;
  int n = lex_string_body(&measure, NULL, t->pos, lit_start);
  uint16_t *s = dr_arena_alloc(lx->arena, sizeof(uint16_t) * (size_t)(n + 1));
  int n2 = lex_string_body(lx, s, t->pos, lit_start);
  ASSERT(n == n2, "string passes disagree");
  (void)n2;
  t->str = s;
  t->slen = n;
}

static void lex_char(DrLexer *lx, DrToken *t) {
  lex_bump(lx);
  const unsigned char *lit_start = lx->p;
  t->kind = T_CHAR_LIT;
  if (lex_at(lx, 0) == '\'') {
    lex_bump(lx);
    lex_error(lx, t->pos, "empty character literal");
    return;
  }
  int32_t c = lex_at_line_end(lx) ? LEX_EOF : lex_lit_char(lx, lit_start);
  if (c == '\\') {
    c = lex_escape(lx, lit_start);
  } else if (c == '\'') {
    lex_error(lx, t->pos, "empty character literal"); /* '\u0027' */
    return;
  } else if (c == '\n' || c == '\r') {
    c = LEX_EOF;
  }
  if (c == LEX_EOF) {
    lex_error(lx, t->pos, "illegal line end in character literal");
    return;
  }
  t->ival = c > 0xFFFF ? 0xFFFD : c;
  DrLexer save = *lx;
  int32_t close = lex_at_line_end(lx) ? LEX_EOF : lex_lit_char(lx, lit_start);
  if (close != '\'' || c > 0xFFFF) {
    *lx = save;
    lex_error(lx, t->pos, "unclosed character literal");
    /* `'ab'`: swallow up to a closing quote on the same line */
    const unsigned char *q = lx->p;
    while (q < lx->end && *q != '\'' && *q != '\n' && *q != '\r') q++;
    if (q < lx->end && *q == '\'') lex_bump_n(lx, (int)(q - lx->p) + 1);
  }
}

/* -------------------------------------------------------------- tokens */

/* One character of a comment: its bytes must be UTF-8 too, as javac
 * requires (each bad byte is an error, reported once; the error belongs
 * to no token, so the next token is not marked as an error). */
static void lex_comment_char(DrLexer *lx) {
  if (*lx->p < 0x80) {
    lex_bump(lx);
    return;
  }
  int len;
  if (lex_utf8(lx->p, lx->end, &len) < 0) {
    bool tok_error = lx->tok_error;
    lex_error(lx, lex_pos(lx), "unmappable character (0x%02X) for encoding UTF-8", (unsigned)*lx->p);
    lx->tok_error = tok_error;
  }
  lex_bump_n(lx, len);
}

/* Skips white space and comments (an unclosed comment is reported). */
static void lex_skip_space(DrLexer *lx) {
  for (;;) {
    int c = lex_at(lx, 0);
    if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r') {
      lex_bump(lx);
    } else if (c == '/' && lex_at(lx, 1) == '/') {
      while (lx->p < lx->end && *lx->p != '\n' && *lx->p != '\r') lex_comment_char(lx);
    } else if (c == '/' && lex_at(lx, 1) == '*') {
      DrPos start = lex_pos(lx);
      lex_bump_n(lx, 2);
      for (;;) {
        if (lx->p >= lx->end) {
          lex_error(lx, start, "unclosed comment");
          return;
        }
        if (lx->p[0] == '*' && lex_at(lx, 1) == '/') {
          lex_bump_n(lx, 2);
          break;
        }
        lex_comment_char(lx);
      }
    } else {
      return;
    }
  }
}

/* Longest operator or separator at the cursor (T_EOF if none). */
static DrTokKind lex_operator(const DrLexer *lx, size_t *len) {
  DrTokKind best = T_EOF;
  size_t best_len = 0;
  size_t avail = (size_t)(lx->end - lx->p);
  for (int k = 0; k < DR_TOK_COUNT; k++) {
    if (!(lex_flags[k] & DR_TKF_OP) || (unsigned char)lex_spellings[k][0] != lx->p[0]) continue;
    const char *s = lex_spellings[k];
    size_t n = lex_lengths[k];
    if (n > best_len && n <= avail && memcmp(s, lx->p, n) == 0) {
      best = (DrTokKind)k;
      best_len = n;
    }
  }
  *len = best_len;
  return best;
}

void dr_lexer_next(DrLexer *lx, DrToken *t) {
  for (;;) {
    lx->tok_error = false;
    lex_skip_space(lx);
    memset(t, 0, sizeof *t);
    t->pos = lex_pos(lx);
    if (lx->p >= lx->end) {
      t->kind = T_EOF;
      t->end = t->pos;
      return;
    }
    int c = lx->p[0];
    if (lex_is_ident_start(c)) {
      lex_ident(lx, t);
    } else if ((c >= '0' && c <= '9') || (c == '.' && lex_at(lx, 1) >= '0' && lex_at(lx, 1) <= '9')) {
      lex_number(lx, t);
    } else if (c == '"') {
      lex_string(lx, t);
    } else if (c == '\'') {
      lex_char(lx, t);
    } else if (c == '\\' && lex_at(lx, 1) == 'u') {
      lex_error(lx, t->pos, "unicode escapes outside character and string literals are not supported in DL");
      lex_bump(lx);
      while (lex_at(lx, 0) == 'u') lex_bump(lx);
      for (int i = 0; i < 4 && lex_at(lx, 0) >= 0 && lex_digit_value(lex_at(lx, 0)) < 16; i++) lex_bump(lx);
      continue;
    } else if (c >= 0x80) {
      int len;
      int32_t cp = lex_utf8(lx->p, lx->end, &len);
      if (cp < 0) {
        lex_error(lx, t->pos, "unmappable character (0x%02X) for encoding UTF-8", (unsigned)c);
        lex_bump(lx);
        continue;
      }
      if (lex_is_nonascii_letter(cp)) {
        lex_ident(lx, t);
      } else {
        lex_illegal_char(lx, t->pos, cp);
        lex_bump_n(lx, len);
        continue;
      }
    } else {
      size_t len;
      DrTokKind k = lex_operator(lx, &len);
      if (k == T_EOF) {
        lex_illegal_char(lx, t->pos, c);
        lex_bump(lx);
        continue;
      }
      t->kind = k;
      lex_bump_n(lx, (int)len);
    }
    if (lx->tok_error) t->flags |= DR_TOKF_ERROR;
    t->end = lex_pos(lx);
    return;
  }
}

DrToken *dr_lex_all(DrLexer *lx, int *count) {
  /* Sized from the text (real code has about one token per 3-5 bytes) so
   * the array is rarely regrown: every regrowth is a copy the arena keeps. */
  int cap = (int)((lx->end - lx->p) / 4 < 1 << 24 ? (lx->end - lx->p) / 4 : 1 << 24) + 16;
  DrToken *toks = dr_arena_alloc(lx->arena, sizeof *toks * (size_t)cap);
  int n = 0;
  for (;;) {
    DrToken t;
    dr_lexer_next(lx, &t);
    DR_ARENA_PUSH(lx->arena, toks, n, cap, t);
    if (t.kind == T_EOF) break;
  }
  *count = n;
  return toks;
}
