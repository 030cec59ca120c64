/* A minimal unit-test harness: CHECK records a pass or a failure with its
 * location; CHECK_DONE prints "N passed, N failed" and gives the exit
 * status.  Counters live in a struct the test passes around (no globals). */
#ifndef DR_CHECK_H
#define DR_CHECK_H

#include <stdio.h>

typedef struct {
  int passed, failed;
} DrCheck;

#define CHECK(t, cond)                                                        \
  do {                                                                        \
    if (cond) {                                                               \
      (t)->passed++;                                                          \
    } else {                                                                  \
      (t)->failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                         \
  } while (0)

#define CHECK_DONE(t)                                                         \
  (printf("%s: %d passed, %d failed\n", __FILE__, (t)->passed, (t)->failed), (t)->failed ? 1 : 0)

#endif
