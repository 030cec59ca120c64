/* The tests/api harness: tests/unit/check.h's CHECK pattern plus what
 * every host test needs -- an output sink for DrvmConfig.write_out /
 * write_err and a VM made from DL text.  Standard headers, drvm.h and
 * the unit tests' harness only: these tests see the library as any
 * embedding host does. */
#ifndef DRVM_API_CHECK_H
#define DRVM_API_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drvm.h"

#include "../unit/check.h" /* CHECK and the counters: standard headers only */

typedef DrCheck Check;

/* Two strings equal (NULL equals only NULL); both shown on failure. */
#define CHECK_STR(t, got, want)                                               \
  do {                                                                        \
    const char *g_ = (got), *w_ = (want);                                     \
    if (g_ == w_ || (g_ && w_ && !strcmp(g_, w_))) {                          \
      (t)->passed++;                                                          \
    } else {                                                                  \
      (t)->failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s == %s\n  got:  \"%s\"\n  want: \"%s\"\n", \
              __FILE__, __LINE__, #got, #want, g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
    }                                                                         \
  } while (0)

/* A substring present. */
#define CHECK_HAS(t, text, part)                                              \
  do {                                                                        \
    const char *x_ = (text), *p_ = (part);                                    \
    if (x_ && strstr(x_, p_)) {                                               \
      (t)->passed++;                                                          \
    } else {                                                                  \
      (t)->failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s contains \"%s\"\n  text: \"%s\"\n", \
              __FILE__, __LINE__, #text, p_, x_ ? x_ : "(null)");             \
    }                                                                         \
  } while (0)

/* ------------------------------------------------------------ output sinks */

/* Text a VM wrote, NUL-terminated. */
typedef struct {
  char *data;
  size_t len, cap;
} Out;

static inline void out_add(Out *o, const char *text, size_t len) {
  if (o->len + len + 1 > o->cap) {
    o->cap = (o->len + len + 1) * 2;
    o->data = realloc(o->data, o->cap);
    if (!o->data) abort();
  }
  memcpy(o->data + o->len, text, len);
  o->len += len;
  o->data[o->len] = 0;
}

static inline const char *out_text(const Out *o) { return o->data ? o->data : ""; }

static inline void out_free(Out *o) {
  free(o->data);
  o->data = NULL;
  o->len = o->cap = 0;
}

/* A VM's two sinks: write_user points at one of these. */
typedef struct {
  Out out, err;
} Sinks;

static inline void sink_out(void *user, const char *text, size_t len) { out_add(&((Sinks *)user)->out, text, len); }
static inline void sink_err(void *user, const char *text, size_t len) { out_add(&((Sinks *)user)->err, text, len); }

static inline void sinks_free(Sinks *s) {
  out_free(&s->out);
  out_free(&s->err);
}

/* A VM whose output goes to s, with that seed and step limit, and the
 * DL program src compiled (NULL, with the diagnostics on stderr, if it
 * does not compile). */
static inline DrVM *vm_with(const char *src, Sinks *s, uint64_t seed, uint64_t max_steps) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.seed = seed;
  cfg.max_steps = max_steps;
  cfg.write_out = sink_out;
  cfg.write_err = sink_err;
  cfg.write_user = s;
  char err[256];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  if (!vm) {
    fprintf(stderr, "drvm_new: %s\n", err);
    return NULL;
  }
  if (!drvm_compile_string(vm, "prog.dl", src, strlen(src))) {
    fprintf(stderr, "compile: %s\n", drvm_error(vm));
    drvm_print_diags(vm, stderr);
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

#endif
