/* drvm's one JSON reader and writer.  The reader is strict (the drivers
 * read children's --report and --sched-report files: a report that is
 * not well-formed must be reported, not half-read); the writer makes
 * every JSON document drvm writes (--report json, --sched-report, hunt
 * and racefuzz --json).  It needs nothing of the VM. */
#ifndef DR_JSON_H
#define DR_JSON_H

#include "buf.h"

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

/* The writer: commas, line breaks and indentation are kept by the
 * writer, so that callers just name members in order.  Containers are
 * pretty-printed (a member per line, indented two spaces a level) or flat
 * (on one line, members separated by ", ": everything inside a flat
 * container is flat too).  Start with DrJsonW w = {0}; the text is in
 * w.buf. */
enum { DR_JSON_MAX_DEPTH = 64 };

typedef struct {
  bool first; /* nothing written in it yet */
  bool flat;
  int col;    /* the column of the opening bracket */
} DrJsonLevel;

typedef struct {
  DrBuf buf;
  int depth;
  DrJsonLevel level[DR_JSON_MAX_DEPTH];
  bool wrap;    /* dr_jw_wrap was called */
  bool resumed; /* dr_jw_resume was called */
} DrJsonW;

void dr_jw_begin(DrJsonW *w, const char *key, char open); /* key NULL inside arrays and at the top */
void dr_jw_begin_flat(DrJsonW *w, const char *key, char open);
void dr_jw_end(DrJsonW *w, char close);
/* In a flat container: the next member goes on a new line, under the
 * first one (a long flat object broken where it reads best). */
void dr_jw_wrap(DrJsonW *w);
/* Goes on with an object someone else opened, at nesting level depth,
 * having written the separator before its next member: a scheduler's
 * members of --sched-report (the scheduler interface's report). */
void dr_jw_resume(DrJsonW *w, int depth);

void dr_jw_str(DrJsonW *w, const char *key, const char *s); /* s NULL writes null */
void dr_jw_int(DrJsonW *w, const char *key, long long v);
void dr_jw_uint(DrJsonW *w, const char *key, unsigned long long v);
void dr_jw_num(DrJsonW *w, const char *key, double v);     /* %.6g; a non-finite v writes null */
void dr_jw_fixed(DrJsonW *w, const char *key, double v, int decimals); /* %.*f; non-finite: null */
void dr_jw_bool(DrJsonW *w, const char *key, bool v);
void dr_jw_null(DrJsonW *w, const char *key);
/* Appends s as a JSON string literal: the two-character escapes where
 * JSON has one, \u00XX for the other control characters, UTF-8 as is. */
void dr_json_quote(DrBuf *b, const char *s);

#endif
