/* Shared basics for every drvm module: fixed-width types, the debug
 * header (ASSERT / UNREACHABLE) and trace switches.
 *
 * Build switches (pass with -D):
 *   DR_DEBUG       enable ASSERT checks
 *   DR_GC_STRESS   collect garbage on every allocation
 *   DR_TRACE_EXEC  print every executed instruction to stderr
 *   DR_TRACE_GC    print a line per garbage collection to stderr
 *   DR_NO_COMPUTED_GOTO  use the portable switch dispatch
 *   DR_NO_HOOKS    compile the event stream's hooks out (to measure their
 *                  cost when unused; --trace and access points then fail)
 */
#ifndef DR_COMMON_H
#define DR_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DR_VERSION "0.1.0"

#if defined(__GNUC__)
#define DR_LIKELY(x) __builtin_expect(!!(x), 1)
#define DR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DR_NORETURN __attribute__((noreturn))
#define DR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define DR_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DR_LIKELY(x) (x)
#define DR_UNLIKELY(x) (x)
#define DR_NORETURN
#define DR_PRINTF(a, b)
#define DR_ALWAYS_INLINE inline
#endif

DR_NORETURN void dr_panic(const char *file, int line, const char *fmt, ...) DR_PRINTF(3, 4);

#ifdef DR_DEBUG
#define ASSERT(cond, msg)                                                     \
  do {                                                                        \
    if (!(cond)) dr_panic(__FILE__, __LINE__, "assertion failed: %s (%s)", #cond, msg); \
  } while (0)
#else
#define ASSERT(cond, msg) ((void)0)
#endif

/* Marks code the logic proves unreachable; in every build it stops loudly
 * rather than continuing with corrupt state. */
#define UNREACHABLE() dr_panic(__FILE__, __LINE__, "unreachable code reached")

#define DR_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Growable arrays without macros hiding control flow: the caller keeps
 * (items, count, cap) and calls dr_grow before appending. */
void *dr_xrealloc(void *p, size_t size);
/* Untracked malloc for VM-internal and host data (never NULL). */
void *dr_xmalloc(size_t size);
void *dr_xcalloc(size_t n, size_t size);
#define DR_PUSH(items, count, cap, value)                                    \
  do {                                                                        \
    if ((count) == (cap)) {                                                   \
      (cap) = (cap) ? (cap) * 2 : 8;                                          \
      (items) = dr_xrealloc((items), sizeof(*(items)) * (size_t)(cap));       \
    }                                                                         \
    (items)[(count)++] = (value);                                             \
  } while (0)

char *dr_strdup(const char *s);
char *dr_strndup(const char *s, size_t n);
/* Reads a whole file; NULL with errno set on failure. */
enum { DR_READ_MAX = 256 << 20 }; /* bytes: a longer file is an error (EFBIG) */
char *dr_read_file(const char *path, size_t *len_out);

#endif
