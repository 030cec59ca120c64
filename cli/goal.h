/* A challenge's goal: what a student must make a program do by choosing
 * its schedule (drvm challenge, drvm grade), and what drvm explore tells
 * a teacher about it.  The goal is written in the program's comments:
 *
 *     // goal: deadlock
 *     // max-preemptions: 1
 *     // hint: which lock does each thread take first?
 *
 * goal.c reads those comments and decides whether what a run showed
 * reaches the goal; grade.c replays a student's recording against it;
 * goal_explore.c reports it after an exploration; challenge.c shows it in
 * the REPL.  docs/challenges.md describes them. */
#ifndef DR_CLI_GOAL_H
#define DR_CLI_GOAL_H

#include "../include/drvm.h"
#include "../vm/common.h"

/* The kinds of goal.  X(id, word, argument, help): the one table that
 * drives parsing, the help text, the words of the JSON and the docs.  A
 * word may be two words ("race on"); the argument is NULL for none. */
#define DR_GOAL_KINDS(X)                                                                                     \
  X(DEADLOCK, "deadlock", NULL,                                                                              \
    "the run comes to a deadlock: threads remain and none can run (drvm run's exit status 4; a lost "       \
    "notify counts too)")                                                                                    \
  X(OUTPUT, "output", "TEXT",                                                                                \
    "one line the program prints on standard output is exactly TEXT (a whole line, spaces included)")       \
  X(RACE, "race on", "Class.field",                                                                          \
    "the race detector (FastTrack) reports a data race on Class.field, named as race reports name it "      \
    "(Outer$Inner.field; Inner.field also matches a nested class)")                                           \
  X(ASSERTION, "assertion fails", NULL, "an assert fails and its AssertionError escapes a thread, any thread") \
  X(EXCEPTION, "exception", "NAME",                                                                          \
    "an exception of class NAME escapes a thread, any thread (NAME: java.lang.IllegalStateException or "     \
    "IllegalStateException)")

typedef enum {
#define DR_GOAL_ENUM(id, word, arg, help) DR_GOAL_##id,
  DR_GOAL_KINDS(DR_GOAL_ENUM)
#undef DR_GOAL_ENUM
  DR_GOAL__COUNT
} DrGoalKind;

typedef struct {
  const char *word, *arg, *help;
} DrGoalKindInfo;
const DrGoalKindInfo *dr_goal_kind(DrGoalKind k);

/* A challenge's goal, as its comments state it. */
typedef struct DrGoal {
  bool present;             /* the program has a goal comment */
  DrGoalKind kind;
  char *arg;                /* TEXT, Class.field or NAME; NULL for none */
  int line;                 /* of the goal comment */
  int max_preemptions;      /* -1: no limit */
  char *hint;               /* the hint lines, joined by newlines; NULL: none */
} DrGoal;

/* Reads the goal comments of a program's text.  false when one is
 * malformed, with "path:line: error: ..." in err; true otherwise (with
 * g->present false when there is no goal). */
bool dr_goal_parse(const char *path, const char *text, size_t len, DrGoal *g, char *err, size_t errsize);
/* dr_goal_parse of a file; false with the message in err also when it
 * cannot be read (then *unreadable is set). */
bool dr_goal_load(const char *path, DrGoal *g, bool *unreadable, char *err, size_t errsize);
void dr_goal_free(DrGoal *g);
/* The goal as written: "deadlock", "output count = 1" (malloc'd). */
char *dr_goal_text(const DrGoal *g);
/* The goal kinds with their help, for drvm help. */
void dr_goal_help(FILE *out);

/* What a run has shown so far (or a whole outcome of drvm explore). */
typedef struct {
  const char *out, *err;    /* its standard output and error so far */
  const char *const *races; /* the locations of the races reported ("Account.balance") */
  int nraces;
  bool ended;               /* the run is over, with outcome */
  DrvmOutcome outcome;
} DrGoalView;

/* Whether the run reached the goal. */
bool dr_goal_reached(const DrGoal *g, const DrGoalView *v);
/* Whether one race location is the goal's (kind RACE). */
bool dr_goal_race_matches(const DrGoal *g, const char *location);

#endif
