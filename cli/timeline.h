/* Timelines: a run drawn as one column per thread, time going down.
 *
 * A DrTimeline listens to a run through include/drvm.h only (a listener,
 * the output callbacks, the races the detector reported) and keeps what
 * a picture needs: the synchronization and access events in the order
 * they happened, the program's output lines where they were printed, the
 * happens-before edges between threads, the spans where a thread held a
 * lock, and each race linked to its two accesses.  The renderers draw
 * that model three ways: a self-contained HTML page (timeline_html.c,
 * the page itself is cli/timeline_page.html), a static SVG
 * (timeline_svg.c) and columns of text for a terminal (timeline_text.c).
 *
 * The HTML page receives the model as JSON (dr_tl_json), in this shape:
 *   {"version": 1, "program": "bank.dl", "title": "...", "command": "...",
 *    "outcome": "races",                  // drvm_outcome_word
 *    "threads": [{"id": 0, "name": "main", "parent": -1, "created": -1,
 *                 "place": "", "end": 41, "state": "TERMINATED", "waiting": "",
 *                 "owner": -1}],
 *        created/end: event indices (-1: none); place: "bank.dl:12";
 *        state: the thread's at the end of the picture (a DrvmThreadState
 *        word); waiting: the monitor a BLOCKED or WAITING thread waits
 *        for ("Account#1"), the thread a JOINING one waits for ("T2"), else "";
 *        owner: the thread holding the monitor a BLOCKED one waits for, -1
 *    "locks": ["Account#1", ...],
 *    "locations": [{"name": "Account#1.balance", "local": false}, ...],
 *    "methods": ["Account.deposit", ...],
 *    "texts": ["hello", ...],             // output lines
 *    "events": [[thread, kind, x, line, method], ...],
 *        kind: an event word ("rd" "wr" "vrd" "vwr" "acq" "rel" "wait"
 *              "wake" "notify" "nall" "fork" "join" "end" "sleep" "yield"
 *              "intr" "intr-seen"), or "out"/"err" for an output line;
 *        x: locations index (rd wr vrd vwr), locks index (acq rel wait
 *           wake notify nall), thread id (fork join intr intr-seen),
 *           texts index (out err), else -1;
 *        line: source line or -1; method: methods index or -1
 *    "edges": [[from, to, kind], ...],    // event indices; kind one of
 *                                          // DR_TL_EDGES' words
 *    "spans": [[thread, lock, from, to], ...], // to: -1 held at the end
 *    "races": [{"cur": i, "prev": j, "location": "...", "text": "..."}],
 *    "truncated": 0}                      // events left out (the limit)
 * An event's index is its time: the picture's rows. */
#ifndef DR_CLI_TIMELINE_H
#define DR_CLI_TIMELINE_H

#include <stdio.h>

#include "../include/drvm.h"
#include "../vm/buf.h"
#include "../vm/common.h"
#include "options.h"

/* Happens-before edges between threads.  X(name, word, what it is) */
#define DR_TL_EDGES(X)                                                           \
  X(LOCK, "lock", "a release of a lock before its next acquisition")            \
  X(START, "start", "Thread.start before the thread's first event")             \
  X(JOIN, "join", "a thread's end before the join that waited for it")          \
  X(VOLATILE, "volatile", "a volatile write before a read that sees it")         \
  X(NOTIFY, "notify", "a notify before the wake-up it caused")                   \
  X(INTERRUPT, "interrupt", "an interrupt before the thread sees it")

typedef enum {
#define DR_TL_EDGE_ENUM(name, word, text) DR_TL_##name,
  DR_TL_EDGES(DR_TL_EDGE_ENUM)
#undef DR_TL_EDGE_ENUM
  DR_TL__EDGE_COUNT
} DrTlEdgeKind;

/* What is kept of an event.  kind: a DrvmEventKind, or DR_TL_OUT /
 * DR_TL_ERR for a line of output. */
enum { DR_TL_OUT = DRVM_EV__COUNT, DR_TL_ERR };

typedef struct {
  int thread;
  int kind;
  int x;          /* see the JSON above */
  int line;
  int method;     /* methods index, -1 */
} DrTlEvent;

typedef struct {
  int from, to;
  DrTlEdgeKind kind;
} DrTlEdge;

typedef struct {
  int thread, lock, from, to;
} DrTlSpan;

typedef struct {
  int cur, prev;  /* event indices (prev -1: not among the kept events) */
  char *location; /* "Account#1.balance" */
  char *text;     /* the report, both stacks */
} DrTlRace;

typedef struct {
  char *name;
  int parent;     /* -1: main */
  int created;    /* the parent's fork event, -1 */
  char *place;    /* "bank.dl:12": where it was started */
  int end;        /* its end event, -1 */
  char *state;    /* at the end of the picture: "TERMINATED", "BLOCKED"... */
  char *waiting;  /* BLOCKED/WAITING: the monitor ("Account#1"); JOINING: "T2"; else "" */
  int owner;      /* BLOCKED: the thread holding that monitor, -1 */
} DrTlThread;

/* A string table: index by name. */
typedef struct {
  char **s;
  int n, cap;
  int *slot;      /* open addressing: index + 1 */
  int table;
} DrTlNames;

typedef struct DrTimeline {
  DrTlEvent *ev;
  int nev, ev_cap;
  int limit;                /* events kept at most; more are counted in truncated */
  long long truncated;
  DrTlThread *threads;
  int nthreads;
  DrTlNames locks, locations, methods, texts;
  bool *loc_shared;         /* per location: touched by two threads */
  int *loc_owner;           /* per location: the first thread, -1 */
  int loc_cap;
  DrTlEdge *edges;
  int nedges, edges_cap;
  DrTlSpan *spans;
  int nspans, spans_cap;
  DrTlRace *races;
  int nraces, races_cap;
  int races_seen;           /* drvm_race_count at the last event */
  /* output: a line is kept when its newline arrives (per stream) */
  DrBuf line[2];
  int line_thread[2];
  bool in_report;           /* the error stream is in a race report */
  bool in_dump;             /* the error stream is the deadlock's thread dump (to the end) */
  DrvmWriteFn pass[2];      /* the host's callbacks, or NULL: the FILEs */
  FILE *pass_file[2];
  void *pass_user;
  DrVM *vm;                 /* while listening: who prints (drvm_current_thread) */
  char *program, *title, *command, *outcome;
} DrTimeline;

/* Formats a timeline file can have, by its name: FILE.html, FILE.svg,
 * "text" (the terminal). */
typedef enum { DR_TL_HTML, DR_TL_SVG, DR_TL_TEXT } DrTlFormat;

/* The format of a --timeline value, or false with a message in err. */
bool dr_tl_format_of(const char *value, DrTlFormat *f, char *err, size_t errsize);

/* Events a timeline keeps by default: beyond, it counts what it leaves out. */
enum { DR_TL_LIMIT = 500000 };

DrTimeline *dr_tl_new(int limit);
void dr_tl_free(DrTimeline *tl);
/* Before drvm_new: the output of the run passes through the timeline
 * (to where cfg sent it). */
void dr_tl_config(DrTimeline *tl, DrvmConfig *cfg);
/* After compiling, before the start: listen. */
bool dr_tl_attach(DrTimeline *tl, DrVM *vm);
/* After the run (before drvm_free): threads' names, the last races and
 * output. outcome: drvm_outcome_word's; NULL for a picture of a run that
 * goes on (the REPL's), which may be finished again later. */
void dr_tl_finish(DrTimeline *tl, DrVM *vm, const char *outcome);
void dr_tl_set_titles(DrTimeline *tl, const char *program, const char *title, const char *command);

/* The model as JSON (the shape above). */
void dr_tl_json(const DrTimeline *tl, DrBuf *b);
/* What a thread that did not end was doing at the end: "BLOCKED on
 * Account#1 held by T2", "WAITING on Object#2", "JOINING T2",
 * "RUNNABLE"; NULL for a thread that ended. */
const char *dr_tl_final_state(const DrTimeline *tl, int thread, char *buf, size_t size);
/* Runs of at least DR_TL_FOLD_MIN accesses of one thread to locations
 * no other thread touches fold into one row (unless an edge or a race
 * marks one of them). */
enum { DR_TL_FOLD_MIN = 3 };
/* Event i is a plain access to a location only its thread touches. */
bool dr_tl_is_local(const DrTimeline *tl, int i);
/* An event as short text: "wr Account#1.balance :14". */
void dr_tl_event_text(const DrTimeline *tl, int i, DrBuf *b);
/* The edge kinds' words. */
const char *dr_tl_edge_word(DrTlEdgeKind k);

/* Renderers; false with errno set when the file cannot be written. */
bool dr_tl_write_html(const DrTimeline *tl, FILE *out);
bool dr_tl_write_svg(const DrTimeline *tl, FILE *out);
/* Columns that fit width characters; color: ANSI colours. */
void dr_tl_write_text(const DrTimeline *tl, FILE *out, int width, bool color);
/* The terminal's width (COLUMNS, else 100). */
int dr_tl_terminal_width(void);
/* Writes the timeline where value says (a file by its extension, or
 * "text": stdout); false with the reason in err. */
bool dr_tl_write(const DrTimeline *tl, const char *value, char *err, size_t errsize);

/* timeline_replay.c: the run recording rec makes of o's program, drawn
 * where value says under the title; false after saying why. */
bool dr_tl_draw_recording(const DrRunOpts *o, const char *rec, const char *value, const char *title);
/* value for the n-th of several pictures: "t.html" -> "t-outcome-2.html"
 * (what "outcome", n 2); "text" stays "text".  malloc'd. */
char *dr_tl_nth_name(const char *value, const char *what, int n);

#endif
