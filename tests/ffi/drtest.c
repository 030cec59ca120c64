/* drtest: the C side of drvm's FFI tests (the .dl programs in tests/ffi).
 *
 * Built by `make test` into build/ffi/libdrtest.so
 * (cc -shared -fPIC -O2 -Wall -Wextra -Werror) and named by the tests with
 * `// drvm: --lib build/ffi/libdrtest.so`.  Every function is plain C with
 * the types of drvm's native-method mapping:
 *
 *   int <-> int32_t, long <-> int64_t, double <-> double,
 *   boolean <-> int (0/1), char <-> uint16_t, void (results only),
 *   String <-> const char * (UTF-8, NULL for null),
 *   int[]/long[]/double[]/char[] -> int32_t* / int64_t* / double* / uint16_t*.
 *
 * Arithmetic that may overflow is done in unsigned types (wrapping like
 * Java, no undefined behaviour).  Functions taking a pointer return -1 when
 * it is NULL, so a test can tell "null became NULL" from any other value. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DT_EXPORT __attribute__((visibility("default")))

/* ---- int (int32_t) ---------------------------------------------------- */

DT_EXPORT int32_t dt_id_int(int32_t x) { return x; }
DT_EXPORT int32_t dt_add_int(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
DT_EXPORT int32_t dt_neg_int(int32_t x) { return (int32_t)(0u - (uint32_t)x); }
DT_EXPORT int32_t dt_int_min(void) { return INT32_MIN; }
DT_EXPORT int32_t dt_int_max(void) { return INT32_MAX; }
DT_EXPORT int32_t dt_minus_one(void) { return -1; }
/* 1 if x is negative as C sees it: catches a sign lost on the way in. */
DT_EXPORT int32_t dt_int_is_negative(int32_t x) { return x < 0; }
DT_EXPORT int32_t dt_no_args(void) { return 42; }

/* ---- long (int64_t) --------------------------------------------------- */

DT_EXPORT int64_t dt_id_long(int64_t x) { return x; }
DT_EXPORT int64_t dt_add_long(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
DT_EXPORT int64_t dt_long_min(void) { return INT64_MIN; }
DT_EXPORT int64_t dt_long_max(void) { return INT64_MAX; }
/* An int widened by C: -1 must stay -1, not 4294967295. */
DT_EXPORT int64_t dt_int_to_long(int32_t x) { return x; }
DT_EXPORT int32_t dt_long_hi(int64_t x) { return (int32_t)(uint32_t)((uint64_t)x >> 32); }
DT_EXPORT int32_t dt_long_lo(int64_t x) { return (int32_t)(uint32_t)(uint64_t)x; }
DT_EXPORT int64_t dt_make_long(int32_t hi, int32_t lo) {
  return (int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}

/* ---- double ------------------------------------------------------------ */

DT_EXPORT double dt_id_double(double x) { return x; }
DT_EXPORT double dt_scale(double x, double f) { return x * f; }
DT_EXPORT double dt_neg_zero(void) { return -0.0; }
DT_EXPORT double dt_nan(void) { return NAN; }
DT_EXPORT double dt_inf(int32_t sign) { return sign < 0 ? -INFINITY : INFINITY; }
DT_EXPORT int32_t dt_is_nan(double x) { return isnan(x) ? 1 : 0; }
DT_EXPORT int32_t dt_signbit(double x) { return signbit(x) ? 1 : 0; }
/* -1, 0 or 1 for -Infinity, finite, +Infinity. */
DT_EXPORT int32_t dt_inf_kind(double x) { return isinf(x) ? (x < 0 ? -1 : 1) : 0; }
DT_EXPORT double dt_int_to_double(int32_t x) { return (double)x; }
DT_EXPORT int64_t dt_double_bits(double x) {
  int64_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}
DT_EXPORT double dt_min_subnormal(void) { return 4.9406564584124654e-324; }

/* ---- boolean (int, 0/1) ----------------------------------------------- */

DT_EXPORT int dt_is_even(int32_t x) { return x % 2 == 0; }
DT_EXPORT int dt_not(int b) { return !b; }
/* What C received for a boolean: must be exactly 0 or 1. */
DT_EXPORT int32_t dt_bool_value(int b) { return b; }
/* Returns x itself as a boolean: any non-zero value is true. */
DT_EXPORT int dt_bool_raw(int32_t x) { return x; }
DT_EXPORT int dt_and(int a, int b) { return a && b; }

/* ---- char (uint16_t) -------------------------------------------------- */

DT_EXPORT uint16_t dt_id_char(uint16_t c) { return c; }
DT_EXPORT uint16_t dt_char_next(uint16_t c) { return (uint16_t)(c + 1u); }
/* The code as C sees it: 0xFFFF must be 65535, not -1. */
DT_EXPORT int32_t dt_char_code(uint16_t c) { return (int32_t)c; }
DT_EXPORT uint16_t dt_char_max(void) { return 0xFFFF; }
DT_EXPORT uint16_t dt_char_from_int(int32_t x) { return (uint16_t)x; }
DT_EXPORT uint16_t dt_to_upper_ascii(uint16_t c) { return (c >= 'a' && c <= 'z') ? (uint16_t)(c - 32) : c; }

/* ---- void, and state kept across calls -------------------------------- */

static int64_t counter;
DT_EXPORT void dt_counter_reset(void) { counter = 0; }
DT_EXPORT void dt_counter_add(int32_t n) { counter += n; }
DT_EXPORT int64_t dt_counter_inc(void) { return ++counter; }
DT_EXPORT int64_t dt_counter_get(void) { return counter; }
static int32_t calls;
DT_EXPORT void dt_touch(void) { calls++; }
DT_EXPORT int32_t dt_touch_count(void) { return calls; }

/* ---- several types in one call ---------------------------------------- */

/* i + 10*l + 100*d + 1000*b + 10000*c: each argument lands in its own digit. */
DT_EXPORT double dt_mix(int32_t i, int64_t l, double d, int b, uint16_t c) {
  return (double)i + 10.0 * (double)l + 100.0 * d + 1000.0 * (double)b + 10000.0 * (double)c;
}

/* 8 integer and 10 double arguments, interleaved: 2 integers and 2 doubles
 * go on the stack (x86-64 passes 6 integers and 8 doubles in registers).
 * The result is sum(position * value) over positions 1..18, exact in a
 * double for the small values the tests pass, so any two swapped arguments
 * with different values change it. */
DT_EXPORT double dt_many(int32_t i1, double d2, int64_t l3, double d4, int32_t i5, double d6, int64_t l7,
                         double d8, int32_t i9, double d10, int64_t l11, double d12, double d13,
                         int32_t i14, double d15, int64_t l16, double d17, double d18) {
  return 1.0 * i1 + 2.0 * d2 + 3.0 * (double)l3 + 4.0 * d4 + 5.0 * i5 + 6.0 * d6 + 7.0 * (double)l7 +
         8.0 * d8 + 9.0 * i9 + 10.0 * d10 + 11.0 * (double)l11 + 12.0 * d12 + 13.0 * d13 + 14.0 * i14 +
         15.0 * d15 + 16.0 * (double)l16 + 17.0 * d17 + 18.0 * d18;
}

/* The same in 64-bit integers, with the last integer arguments on the
 * stack: a value that needs all 64 bits must survive a stack slot. */
DT_EXPORT int64_t dt_many_long(int64_t a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5, int64_t a6,
                               int64_t a7, int64_t a8) {
  uint64_t h = 0;
  const int64_t v[8] = {a1, a2, a3, a4, a5, a6, a7, a8};
  for (int k = 0; k < 8; k++) h = h * 31u + (uint64_t)v[k];
  return (int64_t)h;
}

/* Small types (boolean, char, int) passed on the stack after six ints. */
DT_EXPORT int64_t dt_stack_small(int32_t a1, int32_t a2, int32_t a3, int32_t a4, int32_t a5, int32_t a6,
                                 int b7, uint16_t c8, int32_t i9, int b10) {
  return (int64_t)a1 + 2 * (int64_t)a2 + 3 * (int64_t)a3 + 4 * (int64_t)a4 + 5 * (int64_t)a5 +
         6 * (int64_t)a6 + 7 * (int64_t)b7 + 8 * (int64_t)c8 + 9 * (int64_t)i9 + 10 * (int64_t)b10;
}

/* Doubles only: 12 of them, 4 on the stack. */
DT_EXPORT double dt_many_double(double d1, double d2, double d3, double d4, double d5, double d6, double d7,
                                double d8, double d9, double d10, double d11, double d12) {
  return d1 + 2 * d2 + 3 * d3 + 4 * d4 + 5 * d5 + 6 * d6 + 7 * d7 + 8 * d8 + 9 * d9 + 10 * d10 + 11 * d11 +
         12 * d12;
}

/* ---- arrays ------------------------------------------------------------ */

DT_EXPORT int64_t dt_sum_int(const int32_t *a, int32_t n) {
  if (!a) return -1;
  int64_t s = 0;
  for (int32_t k = 0; k < n; k++) s += a[k];
  return s;
}

/* a[k] = start + k*k; returns the number of elements written. */
DT_EXPORT int32_t dt_fill_int(int32_t *a, int32_t n, int32_t start) {
  if (!a) return -1;
  for (int32_t k = 0; k < n; k++) a[k] = (int32_t)((uint32_t)start + (uint32_t)(k * k));
  return n;
}

/* Reverses a[0..n) in place. */
DT_EXPORT int32_t dt_reverse_int(int32_t *a, int32_t n) {
  if (!a) return -1;
  for (int32_t i = 0, j = n - 1; i < j; i++, j--) {
    int32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return n;
}

/* a[k] = 1 << (9*k) (k < 7), then the extremes; returns the sum of what
 * was there before, as a check that C reads the elements DL wrote. */
DT_EXPORT int64_t dt_fill_long(int64_t *a, int32_t n) {
  if (!a) return -1;
  int64_t before = 0;
  for (int32_t k = 0; k < n; k++) {
    before += a[k];
    if (k < 7) a[k] = (int64_t)1 << (9 * k);
    else if (k == 7) a[k] = INT64_MIN;
    else a[k] = INT64_MAX;
  }
  return before;
}

/* a[k] = a[k] * 0.5 + k; returns the number of elements. */
DT_EXPORT int32_t dt_halve_double(double *a, int32_t n) {
  if (!a) return -1;
  for (int32_t k = 0; k < n; k++) a[k] = a[k] * 0.5 + k;
  return n;
}

DT_EXPORT double dt_sum_double(const double *a, int32_t n) {
  if (!a) return -1.0;
  double s = 0;
  for (int32_t k = 0; k < n; k++) s += a[k];
  return s;
}

/* Upper-cases ASCII letters in place and sets the last element to 0xFFFF
 * when n > 0; returns the sum of the codes seen (as unsigned values). */
DT_EXPORT int32_t dt_upcase_chars(uint16_t *a, int32_t n) {
  if (!a) return -1;
  int32_t sum = 0;
  for (int32_t k = 0; k < n; k++) {
    sum += a[k];
    if (a[k] >= 'a' && a[k] <= 'z') a[k] = (uint16_t)(a[k] - 32);
  }
  if (n > 0) a[n - 1] = 0xFFFF;
  return sum;
}

/* Two arrays at once: dst[k] = src[k] * 2; returns n. */
DT_EXPORT int32_t dt_copy_twice(const int32_t *src, int32_t *dst, int32_t n) {
  if (!src || !dst) return -1;
  for (int32_t k = 0; k < n; k++) dst[k] = (int32_t)((uint32_t)src[k] * 2u);
  return n;
}

/* 1 if the pointer is NULL (works for any array type). */
DT_EXPORT int dt_int_array_is_null(const int32_t *a) { return a == NULL; }
DT_EXPORT int dt_double_array_is_null(const double *a) { return a == NULL; }

/* ---- strings ----------------------------------------------------------- */

/* The length in bytes (UTF-8), -1 for NULL. */
DT_EXPORT int32_t dt_strlen(const char *s) { return s ? (int32_t)strlen(s) : -1; }

/* The number of code points in a UTF-8 string (bytes that do not
 * continue a sequence), -1 for NULL. */
DT_EXPORT int32_t dt_codepoints(const char *s) {
  if (!s) return -1;
  int32_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if ((*p & 0xC0) != 0x80) n++;
  return n;
}

/* Byte i of s as an unsigned value, -1 for NULL or out of range. */
DT_EXPORT int32_t dt_byte_at(const char *s, int32_t i) {
  if (!s || i < 0 || (size_t)i > strlen(s)) return -1;
  return (unsigned char)s[i];
}

DT_EXPORT int dt_is_null_string(const char *s) { return s == NULL; }
DT_EXPORT int dt_streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

DT_EXPORT const char *dt_greeting(void) { return "hello from C"; }
DT_EXPORT const char *dt_null_string(void) { return NULL; }
DT_EXPORT const char *dt_empty_string(void) { return ""; }
/* "héllo € 𝄞" in UTF-8: 2-, 3- and 4-byte sequences. */
DT_EXPORT const char *dt_utf8_string(void) { return "h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e"; }

static char upper_buf[256];
/* An upper-cased (ASCII letters only) copy of s in a static buffer; NULL for NULL. */
DT_EXPORT const char *dt_upper(const char *s) {
  if (!s) return NULL;
  size_t k = 0;
  for (; s[k] && k < sizeof upper_buf - 1; k++) {
    char c = s[k];
    upper_buf[k] = (c >= 'a' && c <= 'z') ? (char)(c - 32) : c;
  }
  upper_buf[k] = '\0';
  return upper_buf;
}

static char repeat_buf[256];
/* s repeated n times, joined with sep (sep may be NULL: nothing between). */
DT_EXPORT const char *dt_repeat(const char *s, int32_t n, const char *sep) {
  if (!s) return NULL;
  size_t len = 0;
  repeat_buf[0] = '\0';
  for (int32_t k = 0; k < n; k++) {
    if (k > 0 && sep) {
      size_t m = strlen(sep);
      if (len + m >= sizeof repeat_buf) break;
      memcpy(repeat_buf + len, sep, m);
      len += m;
    }
    size_t m = strlen(s);
    if (len + m >= sizeof repeat_buf) break;
    memcpy(repeat_buf + len, s, m);
    len += m;
  }
  repeat_buf[len] = '\0';
  return repeat_buf;
}

static char num_buf[64];
/* A string built from numbers: "<i>/<l>/<c as hex>". */
DT_EXPORT const char *dt_describe(int32_t i, int64_t l, uint16_t c) {
  static const char hex[] = "0123456789abcdef";
  char tmp[64];
  size_t n = 0;
  int64_t vals[2] = {i, l};
  for (int v = 0; v < 2; v++) {
    uint64_t u = vals[v] < 0 ? 0u - (uint64_t)vals[v] : (uint64_t)vals[v];
    size_t t = 0;
    do {
      tmp[t++] = (char)('0' + (int)(u % 10u));
      u /= 10u;
    } while (u);
    if (vals[v] < 0) num_buf[n++] = '-';
    while (t) num_buf[n++] = tmp[--t];
    num_buf[n++] = '/';
  }
  for (int s = 12; s >= 0; s -= 4) num_buf[n++] = hex[(c >> s) & 0xF];
  num_buf[n] = '\0';
  return num_buf;
}

/* ---- a symbol libm also has: --lib libraries are searched first ------- */

DT_EXPORT double fdim(double x, double y) { return 1000.0 * x + y; }

/* ---- malformed UTF-8 results: each bad byte becomes U+FFFD ------------- */

/* "a", a lone 0xFF, "b", a lone continuation byte 0x80, "c". */
DT_EXPORT const char *dt_bad_utf8(void) { return "a\xff" "b\x80" "c"; }

/* ---- results and arguments at the register level (x86-64) --------------
 * A C function returning a 32-bit or smaller type leaves the upper bits of
 * %rax unspecified, and a caller must extend small arguments to 32 bits
 * (clang relies on it).  These hand-written functions put garbage where
 * the ABI allows it, so drvm must use exactly the declared widths.  On
 * other machines they are plain C with the same results. */
int32_t dt_garbage_int(void);       /* -5, upper half of %rax not zero */
int dt_garbage_false(void);         /* 0 in %eax, 1 in the upper half: false */
uint16_t dt_garbage_char(void);     /* 0xABCD in %ax, garbage above */
int32_t dt_char_raw(uint16_t c);    /* the whole %edi it was given */
#if defined(__x86_64__) && defined(__ELF__)
__asm__(".text\n"
        ".globl dt_garbage_int\n.type dt_garbage_int, @function\n"
        "dt_garbage_int:\n  movabsq $0x12345678fffffffb, %rax\n  ret\n"
        ".size dt_garbage_int, .-dt_garbage_int\n"
        ".globl dt_garbage_false\n.type dt_garbage_false, @function\n"
        "dt_garbage_false:\n  movabsq $0x100000000, %rax\n  ret\n"
        ".size dt_garbage_false, .-dt_garbage_false\n"
        ".globl dt_garbage_char\n.type dt_garbage_char, @function\n"
        "dt_garbage_char:\n  movabsq $0x7777777712ffabcd, %rax\n  ret\n"
        ".size dt_garbage_char, .-dt_garbage_char\n"
        ".globl dt_char_raw\n.type dt_char_raw, @function\n"
        "dt_char_raw:\n  movl %edi, %eax\n  ret\n"
        ".size dt_char_raw, .-dt_char_raw\n");
#else
DT_EXPORT int32_t dt_garbage_int(void) { return -5; }
DT_EXPORT int dt_garbage_false(void) { return 0; }
DT_EXPORT uint16_t dt_garbage_char(void) { return 0xABCD; }
DT_EXPORT int32_t dt_char_raw(uint16_t c) { return c; }
#endif
