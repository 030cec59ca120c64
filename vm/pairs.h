/* The race pairs file: the potentially racing statement pairs that
 * `drvm run --detector hybrid --potential-races FILE` writes, `drvm
 * racefuzz` merges, and `--sched racefuzzer --race-pairs FILE` reads.
 * This header is the format's specification (docs/races.md shows it):
 *
 *   # drvm potential races (hybrid): location, then two statements as Class.method(params) pc line
 *   Counter.count<TAB>Counter$Adder.run() 13 8<TAB>Counter$Adder.run() 5 8
 *
 * Lines starting with '#' are comments (the writer puts one first) and
 * empty lines are skipped; a trailing CR is dropped.  Every other line is
 * one pair: three fields separated by single tabs,
 *   1. the location: "Class.field", or the array class ("int[]");
 *   2. and 3. the two statements, each "METHOD PC LINE": the method as
 *      `drvm disasm` names it, "Class.method(parameter types)" (it may
 *      contain spaces: PC and LINE are the last two words), the bytecode
 *      offset of the access, and its source line; or "? ? 0", a position
 *      hybrid did not know (it matches no statement).
 * The writer puts a pair's statements in sorted order (by their text) and
 * each pair once; a reader keeps the file's order and counts every line,
 * since --pair N names the Nth pair line.  Needs nothing of the VM. */
#ifndef DR_PAIRS_H
#define DR_PAIRS_H

#include "buf.h"

#define DR_PAIRS_COMMENT \
  "# drvm potential races (hybrid): location, then two statements as Class.method(params) pc line"

typedef struct {
  char *method; /* "Counter$Adder.run()"; NULL for "? ? 0" */
  uint32_t pc;
  int line;
} DrPairStmt;

typedef struct {
  char *location;
  DrPairStmt first, second;
  int lineno;   /* where the parser found it (1-based), 0 when not parsed */
} DrPair;

typedef struct {
  char *comment; /* the first comment line ("# ..."), or NULL: the writer then puts DR_PAIRS_COMMENT */
  DrPair *items;
  int count, cap;
} DrPairs;

/* Appends a statement's text, "Class.m(params) pc line" or "? ? 0". */
void dr_pairs_stmt_text(DrBuf *b, const DrPairStmt *s);
/* Adds a pair (taking what it points to) with its statements in sorted
 * order, unless the same pair, either way round, is there already (then
 * frees it).  Returns whether it was added. */
bool dr_pairs_add(DrPairs *ps, DrPair p);
/* Appends the file's text: the comment line, then a line per pair. */
void dr_pairs_write(DrBuf *b, const DrPairs *ps);
/* Parses a file's text, appending its pairs to out (and its first
 * comment, if out has none).  name starts the message ("NAME:LINE: ...")
 * given in err when a line is malformed; out then holds the pairs before
 * that line. */
bool dr_pairs_parse(const char *text, size_t len, const char *name, DrPairs *out, char *err, size_t errsize);
/* The index of p in ps (either way round), or -1. */
int dr_pairs_index(const DrPairs *ps, const DrPair *p);
/* A race's location as a pairs file names it: a field as it is, an array
 * element ("int[]#7[3]") as its array class ("int[]").  Malloc'd. */
char *dr_pairs_location(const char *race_location);
void dr_pair_free(DrPair *p);
void dr_pairs_free(DrPairs *ps);

#endif
