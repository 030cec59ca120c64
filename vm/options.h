/* Options as "key=value" text: how the registries' schedulers and
 * detectors take their settings (include/drvm.h's drvm_set_scheduler),
 * parsed by one table of typed specs into an options struct. */
#ifndef DR_OPTIONS_H
#define DR_OPTIONS_H

#include "../include/drvm.h"
#include "common.h"

typedef enum {
  DR_OPT_FLAG,   /* bool; no value */
  DR_OPT_COUNT,  /* uint64_t >= 1 */
  DR_OPT_U64,    /* uint64_t >= 0 (seeds) */
  DR_OPT_INT,    /* int in [min, max] */
  DR_OPT_PROB,   /* double in [0, 1] */
  DR_OPT_STR,    /* const char *, non-empty (kept in a DrStrPool) */
  DR_OPT_CHOICE, /* int: 1 + the index of the value among the words of `what` ("a|b|c"); 0 when not given */
} DrOptKind;

typedef struct {
  DrvmEntry e;   /* name, arg, help, applies, rerun */
  DrOptKind kind;
  size_t offset; /* of the field in the options struct */
  long long min, max; /* DR_OPT_INT */
  const char *what;   /* a bad value's words ("a pair number 1, 2, ..."); NULL: from the kind;
                         DR_OPT_CHOICE: the values, "a|b|c" */
} DrOptSpec;

/* Strings the parsed options point to, freed together. */
typedef struct {
  char **items;
  int count, cap;
} DrStrPool;

/* Parses text ("k=v k2=v2", separated by spaces or commas; NULL or ""
 * for none) into the struct at base, for the scheduler or detector
 * `owner` (a backslash makes the next character part of a value; specs whose applies list does not name it are refused).
 * false with a message in err. */
bool dr_opts_parse(const DrOptSpec *specs, int n, const char *owner, const char *text, void *base, DrStrPool *pool,
                   char *err, size_t errsize);
/* Checks one option's value, whoever it is for: false with "KEY takes
 * ..., not 'VALUE'" or "unknown option" in err. */
bool dr_opts_check(const DrOptSpec *specs, int n, const char *key, const char *value, char *err, size_t errsize);
/* Whether owner is in a spec's applies list (NULL: everyone). */
bool dr_opts_applies(const DrOptSpec *spec, const char *owner);
void dr_str_pool_free(DrStrPool *p);
/* "a, b, c": the names of a registry's n entries, for messages. */
void dr_entry_names(const DrvmEntry *(*entry)(int i), int n, char *out, size_t size);

#endif
