/* A small JSON reader (for the children's --report and --sched-report
 * files) and writer (for `drvm hunt --json`), shared by the drivers. */
#ifndef DR_HUNT_JSON_H
#define DR_HUNT_JSON_H

#include "vm.h"

typedef enum { DR_JSON_NULL, DR_JSON_BOOL, DR_JSON_NUM, DR_JSON_STR, DR_JSON_ARR, DR_JSON_OBJ } DrJsonKind;

typedef struct DrJson {
  DrJsonKind kind;
  double num;             /* NUM; BOOL as 0/1 */
  char *str;              /* STR */
  struct DrJson *items;   /* ARR elements, OBJ values */
  char **keys;            /* OBJ keys, parallel to items */
  int count;
} DrJson;

/* Parses text; false with a message in err (with the line) when it is not
 * one well-formed JSON value. */
bool dr_json_parse(const char *text, size_t len, DrJson *out, char *err, size_t errsize);
/* Reads and parses a file; the message names the file. */
bool dr_json_read_file(const char *path, DrJson *out, char *err, size_t errsize);
void dr_json_free(DrJson *j);
/* The member named key of an object, or NULL (also when j is no object). */
const DrJson *dr_json_get(const DrJson *j, const char *key);
/* A member's number or string, with a fallback when missing or of another kind. */
double dr_json_num(const DrJson *j, const char *key, double fallback);
const char *dr_json_str(const DrJson *j, const char *key);

/* The writer: pretty-printed, commas and indentation kept by the writer
 * so that callers just name members in order. */
typedef struct {
  DrBuf buf;
  int depth;
  bool first[64]; /* per nesting level: nothing written yet at this level */
} DrJsonW;

void dr_jw_begin(DrJsonW *w, const char *key, char open); /* key NULL inside arrays and at the top */
void dr_jw_end(DrJsonW *w, char close);
void dr_jw_str(DrJsonW *w, const char *key, const char *s); /* s NULL writes null */
void dr_jw_int(DrJsonW *w, const char *key, long long v);
void dr_jw_num(DrJsonW *w, const char *key, double v);     /* a non-finite v writes null */
void dr_jw_bool(DrJsonW *w, const char *key, bool v);
void dr_jw_null(DrJsonW *w, const char *key);
/* Appends s as a JSON string literal, escaped. */
void dr_json_quote(DrBuf *b, const char *s);

#endif
