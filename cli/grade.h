/* `drvm grade prog.dl answer.sched`: replays a student's recording of a
 * challenge (goal.h) and says whether it reaches the goal within the
 * preemption limit.  The REPL's challenge mode judges the person's run
 * with the same replay, so that what it announces is what grade says. */
#ifndef DR_CLI_GRADE_H
#define DR_CLI_GRADE_H

#include "goal.h"
#include "options.h"
#include "program.h"

/* What the grading replay needs: the program and the goal. */
typedef struct {
  const char *prog;         /* its path, as given */
  const char *text;         /* its (first file's) source */
  size_t len;
  const DrProgFiles *files; /* all its files */
  char *const *args;
  int nargs;
  const DrRunOpts *o;       /* limits and libraries */
  const DrGoal *goal;
  bool diags;               /* print compile errors to stderr */
} DrGradeSetup;

/* The verdict on one recording. */
typedef struct {
  bool pass, reached;
  bool ended;               /* the run came to its end (then outcome) */
  DrvmOutcome outcome;      /* the program's own ending (races aside) */
  int status;               /* its exit status (races aside) */
  bool diverged;            /* the recording does not fit the program */
  bool cut;                 /* the recording ended before the run and before the goal */
  int preemptions;          /* up to the goal, or in the whole replay */
  uint64_t decisions;
  char reason[1024];        /* why it passes or fails, one line */
} DrGrade;

/* Replays recording rec with s's program and judges it: 0, or the exit
 * status of what stopped it (2 with a message in err: an unreadable or
 * malformed recording; 3: the program does not compile). */
int dr_grade_replay(const DrGradeSetup *s, const char *rec, DrGrade *g, char *err, size_t errsize);

/* `drvm grade` (argv[0] is "grade"): 0 pass, 1 fail, 2 usage, 3 compile. */
int dr_cmd_grade(int argc, char **argv);

#endif
