/* The main() of a fuzz harness built with -DDR_FUZZ_MAIN (no libFuzzer):
 *
 *   fuzz_X [--mutate N] [--seed S] [--shard K/M] [--timeout SECS] [--save-clean DIR] FILES...
 *
 * runs every file, and with --mutate N also N mutated variants of each.
 * The mutations are deterministic (splitmix64 from the seed, the file's
 * position and the variant's index), so a run with the same arguments
 * repeats exactly, on any machine.  That makes a cheap, reproducible
 * smoke test with any C compiler, where libFuzzer is not available.
 * --shard K/M runs only the files whose position is K modulo M, with the
 * same variants as a run of all: M processes share the work.
 *
 * A crash ends the process (the sanitizers abort), so before each variant
 * the bytes are written to $TMPDIR/drvm-<harness>-last.dl (with
 * --shard, drvm-<harness>-K-last.dl): after a crash that file is the
 * reproducer.  With DR_FUZZ_VERBOSE set in the
 * environment each run is also announced on stderr (file and variant).
 * A run that takes longer than --timeout seconds (default 10) is a hang:
 * the process exits with status 124 and says so.
 *
 * --save-clean DIR writes every variant that ran without error (and
 * differs from its file) to DIR/<file>-<variant>.dl: for fuzz_check these
 * are programs drvm accepts, which javac must accept too (DL is a subset
 * of Java), so a differential check against javac finds what the checker
 * wrongly lets through.
 *
 * The including harness defines, before including this file:
 *   FZ_NAME   its name, e.g. "fuzz_check"
 *   FZ_CLEAN  what a clean run did, e.g. "compiled"
 *   static bool fz_one(const uint8_t *data, size_t size);
 *             runs one input; true when it produced no error. */
#ifndef DR_FUZZ_MAIN_H
#define DR_FUZZ_MAIN_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  uint64_t s;
} FzRng;

static uint64_t fz_next(FzRng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* 0 <= result < n (n > 0); the modulo bias is irrelevant here */
static size_t fz_below(FzRng *r, size_t n) { return n ? (size_t)(fz_next(r) % n) : 0; }

typedef struct {
  uint8_t *p;
  size_t len, cap;
} FzBuf;

/* Variants stop growing at this size: duplications compound, and a huge
 * input tests the allocator, not the compiler. */
enum { FZ_MAX_LEN = 1 << 16 };

static void fz_reserve(FzBuf *b, size_t extra) {
  if (b->len + extra <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra) cap *= 2;
  b->p = dr_xrealloc(b->p, cap);
  b->cap = cap;
}

static void fz_insert(FzBuf *b, size_t at, const uint8_t *bytes, size_t n) {
  if (b->len + n > FZ_MAX_LEN) return;
  fz_reserve(b, n);
  memmove(b->p + at + n, b->p + at, b->len - at);
  memcpy(b->p + at, bytes, n);
  b->len += n;
}

static void fz_erase(FzBuf *b, size_t at, size_t n) {
  memmove(b->p + at, b->p + at + n, b->len - at - n);
  b->len -= n;
}

/* Token classes, so that spans start and end where the lexer's tokens
 * do: a word (identifier, keyword, number), white space, or one
 * punctuation byte. */
static int fz_tok_class(uint8_t c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80)
    return 1;
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return 2;
  return 3;
}

/* A random span of 1 to 3 tokens: [*start, *end). */
static void fz_span(FzRng *r, const FzBuf *b, size_t *start, size_t *end) {
  *start = *end = 0;
  if (!b->len) return;
  size_t s = fz_below(r, b->len);
  int c = fz_tok_class(b->p[s]);
  if (c != 3)
    while (s > 0 && fz_tok_class(b->p[s - 1]) == c) s--;
  size_t e = s;
  size_t ntok = 1 + (fz_below(r, 4) == 0 ? 1 + fz_below(r, 2) : 0);
  for (size_t k = 0; k < ntok && e < b->len; k++) {
    int ce = fz_tok_class(b->p[e++]);
    if (ce != 3)
      while (e < b->len && fz_tok_class(b->p[e]) == ce) e++;
  }
  *start = s;
  *end = e;
}

/* Where a line starts: a random position moved back to the start of its line. */
static size_t fz_line_start(FzRng *r, const uint8_t *p, size_t len) {
  size_t at = fz_below(r, len + 1);
  while (at > 0 && p[at - 1] != '\n') at--;
  return at;
}

/* Bytes that mean something to a Java lexer or parser, and CR and NUL,
 * which a file may hold too (libFuzzer's first finding in fuzz_check was a
 * NUL: the smoke run missed it while no mutation made one). */
static const char fz_bytes[] = "{}[]();,.=+-*/%<>!&|^~?:@\"'\\ \n\t0123456789aeilnxzLDEF_$\r\0";

/* Words that steer the checker into its corners: keywords (DL's and the
 * ones DL rejects), library names, and literals at the edges of their
 * types. */
static const char *const fz_words[] = {
    "class", "interface", "extends", "implements", "static", "final", "abstract", "public", "private",
    "protected", "void", "int", "long", "double", "boolean", "char", "byte", "short", "float", "var",
    "String", "Object", "null", "this", "super", "new", "return", "if", "else", "while", "for", "do",
    "switch", "case", "default", "break", "continue", "try", "catch", "finally", "throw", "throws",
    "synchronized", "instanceof", "assert", "native", "true", "false", "enum", "record", "main", "args",
    "length", "Math", "System.out.println", "Integer.MAX_VALUE", "Long.MIN_VALUE", "Exception",
    "RuntimeException", "Throwable", "Thread", "Runnable", "StringBuilder", "x", "y", "0x7fffffff",
    "2147483648", "-2147483648", "9223372036854775808L", "0x8000000000000000L", "1e309", "0.0", "'\\u0000'",
    "'\\uD800'", "\"\\n\"", "\"\"", "int[]", "[]", "[0]", "...", "->", "::", "<T>", "@Override", "0L",
    ".0", "1_000", "010", "0b101", "'a'", "(int)", "(String)", "(Object)", "= null", "+=", ">>>=",
    "new int[-1]", "{ }", "( )", "; }", "return;", "throw null;", "}", "{",
};

/* One mutation of b, in place.  others are the other inputs of the run,
 * the source of spliced lines. */
static void fz_mutate_once(FzRng *r, FzBuf *b, const FzBuf *others, int nothers) {
  size_t s, e, s2, e2;
  switch (fz_below(r, 9)) {
  case 0: /* truncate */
    b->len = fz_below(r, b->len + 1);
    break;
  case 1: /* delete a span */
    fz_span(r, b, &s, &e);
    fz_erase(b, s, e - s);
    break;
  case 2: { /* duplicate a span, here or elsewhere */
    fz_span(r, b, &s, &e);
    size_t at = fz_below(r, 2) ? e : fz_below(r, b->len + 1);
    uint8_t tmp[256];
    size_t n = e - s < sizeof tmp ? e - s : sizeof tmp;
    memcpy(tmp, b->p + s, n);
    fz_insert(b, at, tmp, n);
    break;
  }
  case 3: { /* swap two spans */
    fz_span(r, b, &s, &e);
    fz_span(r, b, &s2, &e2);
    if (s2 < s) {
      size_t t = s; s = s2; s2 = t;
      t = e; e = e2; e2 = t;
    }
    if (e > s2) break; /* overlapping: nothing to swap */
    /* rotate [s, e2) so the two spans trade places around the middle part */
    size_t n = e2 - s;
    uint8_t *tmp = dr_xrealloc(NULL, n ? n : 1);
    size_t l1 = e - s, mid = s2 - e, l2 = e2 - s2;
    memcpy(tmp, b->p + s2, l2);
    memcpy(tmp + l2, b->p + e, mid);
    memcpy(tmp + l2 + mid, b->p + s, l1);
    memcpy(b->p + s, tmp, n);
    free(tmp);
    break;
  }
  case 4: /* flip a byte */
    if (b->len) b->p[fz_below(r, b->len)] = (uint8_t)fz_bytes[fz_below(r, sizeof fz_bytes - 1)];
    break;
  case 5: { /* insert a byte */
    uint8_t c = (uint8_t)fz_bytes[fz_below(r, sizeof fz_bytes - 1)];
    fz_insert(b, fz_below(r, b->len + 1), &c, 1);
    break;
  }
  case 6: { /* replace a span with a word */
    const char *w = fz_words[fz_below(r, sizeof fz_words / sizeof fz_words[0])];
    fz_span(r, b, &s, &e);
    fz_erase(b, s, e - s);
    fz_insert(b, s, (const uint8_t *)w, strlen(w));
    break;
  }
  case 7: { /* insert a word, between tokens */
    const char *w = fz_words[fz_below(r, sizeof fz_words / sizeof fz_words[0])];
    fz_span(r, b, &s, &e);
    uint8_t sp = ' ';
    fz_insert(b, s, &sp, 1);
    fz_insert(b, s, (const uint8_t *)w, strlen(w));
    fz_insert(b, s, &sp, 1);
    break;
  }
  default: { /* splice a line of another input (or this one) */
    const FzBuf *o = nothers ? &others[fz_below(r, (size_t)nothers)] : b;
    if (!o->len) break;
    size_t from = fz_line_start(r, o->p, o->len > 0 ? o->len - 1 : 0);
    size_t to = from;
    while (to < o->len && o->p[to] != '\n') to++;
    if (to < o->len) to++;
    size_t n = to - from;
    uint8_t *line = dr_xrealloc(NULL, n ? n : 1);
    memcpy(line, o->p + from, n); /* o may be b itself */
    fz_insert(b, fz_line_start(r, b->p, b->len), line, n);
    free(line);
    break;
  }
  }
}

static void fz_on_alarm(int sig) {
  (void)sig;
  static const char msg[] = FZ_NAME ": timeout: the input hangs (it is in $TMPDIR/drvm-" FZ_NAME "*-last.dl)\n";
  ssize_t n = write(2, msg, sizeof msg - 1);
  (void)n;
  _exit(124);
}

static bool fz_save(const char *path, const FzBuf *b) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(b->p, 1, b->len, f) == b->len;
  return fclose(f) == 0 && ok;
}

static bool fz_parse_u64(const char *s, uint64_t *out) {
  char *end;
  if (!*s || *s == '-') return false;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end) return false;
  *out = v;
  return true;
}

int main(int argc, char **argv) {
  uint64_t nmutate = 0, seed = 1, timeout = 10, shard = 0, nshards = 1;
  const char *save_dir = NULL;
  int first = 1;
  for (; first < argc; first++) {
    const char *a = argv[first];
    if (!strcmp(a, "--save-clean") && first + 1 < argc) {
      save_dir = argv[++first];
      continue;
    }
    if (!strcmp(a, "--shard")) {
      char *end;
      const char *v = first + 1 < argc ? argv[first + 1] : "";
      shard = strtoull(v, &end, 10);
      if (*v < '0' || *v > '9' || *end != '/' || !fz_parse_u64(end + 1, &nshards) || !nshards || shard >= nshards) {
        fprintf(stderr, "%s: --shard needs K/M with K < M\n", FZ_NAME);
        return 2;
      }
      first++;
      continue;
    }
    uint64_t *opt = !strcmp(a, "--mutate") ? &nmutate : !strcmp(a, "--seed") ? &seed
                  : !strcmp(a, "--timeout") ? &timeout : NULL;
    if (!opt) break;
    if (first + 1 >= argc || !fz_parse_u64(argv[first + 1], opt)) {
      fprintf(stderr, "%s: %s needs a number\n", FZ_NAME, a);
      return 2;
    }
    first++;
  }
  if (first < argc && argv[first][0] == '-' && argv[first][1] != '\0') {
    fprintf(stderr, "usage: %s [--mutate N] [--seed S] [--shard K/M] [--timeout SECS] [--save-clean DIR] FILES...\n",
            FZ_NAME);
    return 2;
  }

  int nfiles = argc - first;
  FzBuf *inputs = dr_xrealloc(NULL, sizeof(FzBuf) * (size_t)(nfiles ? nfiles : 1));
  for (int i = 0; i < nfiles; i++) {
    size_t len;
    char *text = dr_read_file(argv[first + i], &len);
    if (!text) {
      perror(argv[first + i]);
      return 2;
    }
    inputs[i] = (FzBuf){(uint8_t *)text, len, len + 1};
  }

  const char *tmp = getenv("TMPDIR");
  char last[4096];
  char shard_part[32] = "";
  if (nshards > 1) snprintf(shard_part, sizeof shard_part, "-%llu", (unsigned long long)shard);
  snprintf(last, sizeof last, "%s/drvm-%s%s-last.dl", tmp && *tmp ? tmp : "/tmp", FZ_NAME, shard_part);
  bool verbose = getenv("DR_FUZZ_VERBOSE") != NULL;
  signal(SIGALRM, fz_on_alarm);

  uint64_t runs = 0, clean = 0;
  int ninputs = 0;
  FzBuf v = {NULL, 0, 0};
  for (int i = 0; i < nfiles; i++) {
    if ((uint64_t)i % nshards != shard) continue;
    ninputs++;
    for (uint64_t k = 0; k <= nmutate; k++) {
      v.len = 0;
      fz_reserve(&v, inputs[i].len + 1); /* never NULL, even for an empty file */
      memcpy(v.p, inputs[i].p, inputs[i].len);
      v.len = inputs[i].len;
      if (k > 0) {
        /* each variant has its own stream: one can be rerun alone */
        FzRng r = {seed ^ ((uint64_t)i << 32) ^ (k * 0xD1B54A32D192ED03ull)};
        fz_next(&r);
        size_t n = 1 + (fz_below(&r, 3) == 0 ? 1 + fz_below(&r, 3) : 0);
        for (size_t m = 0; m < n; m++) fz_mutate_once(&r, &v, inputs, nfiles);
      }
      if (verbose) {
        fprintf(stderr, "%s: %s variant %llu (%zu bytes)\n", FZ_NAME, argv[first + i], (unsigned long long)k, v.len);
        fflush(stderr);
      }
      if (!fz_save(last, &v) && runs == 0) fprintf(stderr, "%s: cannot write %s\n", FZ_NAME, last);
      alarm((unsigned)timeout);
      bool ok = fz_one(v.p, v.len);
      alarm(0);
      clean += ok;
      if (ok && save_dir && k > 0 && (v.len != inputs[i].len || memcmp(v.p, inputs[i].p, v.len))) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%d-%llu.dl", save_dir, i, (unsigned long long)k);
        if (!fz_save(path, &v)) fprintf(stderr, "%s: cannot write %s\n", FZ_NAME, path);
      }
      runs++;
    }
  }
  printf("%s: %d inputs, %llu variants (seed %llu): %llu %s cleanly, %llu with errors\n", FZ_NAME, ninputs,
         (unsigned long long)(runs - (uint64_t)ninputs), (unsigned long long)seed, (unsigned long long)clean, FZ_CLEAN,
         (unsigned long long)(runs - clean));
  free(v.p);
  for (int i = 0; i < nfiles; i++) free(inputs[i].p);
  free(inputs);
  return 0;
}

#endif
