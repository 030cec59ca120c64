/* `drvm repl`: a person is the scheduler.  The REPL is a host of the
 * library (include/drvm.h) in four parts:
 *   repl.c       the command line, the session and its loop of commands
 *   repl_vm.c    one run of the program at a position: a VM, its event
 *                log, its output; reaching a position by replaying a prefix
 *   repl_move.c  the commands that move (step, next, run, continue,
 *                finish, back, goto) and the stops they honour
 *   repl_show.c  the commands that look (threads, where, print, history...)
 *   repl_hb.c    hb: the chain of synchronization that orders two events
 *   repl_input.c reading commands: GNU readline with completion on a
 *                terminal, plain lines from a script
 * Going back is a replay: every run is decided by its seed and its
 * decisions, so a prefix of the recording leads a fresh VM to exactly the
 * same state (drvm_replay_decisions, drvm_run_to_decision); copies of
 * the run at the last positions, made in the background (repl_stage.c),
 * make going back a swap. */
#ifndef DR_CLI_REPL_H
#define DR_CLI_REPL_H

#include <signal.h>

#include "../include/drvm.h"
#include "../vm/buf.h"
#include "options.h"
#include "program.h"
#include "timeline.h"

/* One event of the run, as the history and hb see it. */
typedef struct {
  uint64_t number;          /* the decision it followed: its #number */
  DrvmEvent e;              /* strings owned by the VM that logged it */
} ReplEvent;

/* A run of the program, standing at a position. */
typedef struct {
  DrVM *vm;
  ReplEvent *log;           /* the last REPL_LOG_MAX events, a ring */
  size_t nlog, log_start;   /* events logged; index of the oldest kept */
  size_t log_cap;           /* grows to REPL_LOG_MAX, then the ring turns */
  DrBuf out, err;           /* the program's output and error streams */
  size_t out_shown, err_shown;
  char **races;             /* reports seen so far (copies) */
  char **race_lines;        /* each one's summary: "Account.balance: T2 read, T1 write" */
  int nraces, races_cap, races_told;
  DrTimeline *tl;           /* the run so far, for `timeline` */
  DrvmDecision d;           /* where it stands, when at_decision */
  bool at_decision;
  bool stop_on_news;        /* a move that stops at a race or an uncaught exception */
  int uncaught_seen;
  bool ended;               /* the run is over (finished: res is valid) */
  DrvmResult res;
  char **clocks;            /* at the end: each thread's vector clock (the detector is gone) */
  int nclocks;
  uint64_t pos;             /* the decision it stands at (at the end: decisions taken) */
  uint64_t rec_left;        /* --replay: the decision where this run left the recording (UINT64_MAX: it follows it) */
} ReplVM;

enum { REPL_LOG_MAX = 1 << 16 };

/* The i-th event logged (i in [log_start, nlog)). */
ReplEvent *repl_event(ReplVM *v, size_t i);

/* A stop a move honours. */
typedef enum { BP_LINE, BP_WATCH, BP_RACE, BP_DEADLOCK } ReplBpKind;
typedef struct {
  ReplBpKind kind;
  int line;                 /* BP_LINE */
  char *cls, *field;        /* BP_WATCH: Class.field, or an object's field */
  uint32_t object;          /* 0: every object of the class (and statics) */
  int32_t index;            /* an array element, or -1 */
  int id;
} ReplBp;

typedef struct {
  char *cmd;                /* the command that made the move */
  uint64_t before, pos;     /* where it started and ended */
  int line;                 /* the line of decisions `before` is on (Repl.line: the run's) */
  char *file;               /* a line left behind: its recording, replayed to go back to `before` */
} ReplMove;

typedef struct Repl {
  DrRunOpts o;
  DrProgFiles files;        /* the program's files */
  const char *text;         /* the first one's source (a challenge's goal) */
  size_t len;
  uint64_t seed;
  ReplVM *cur;              /* the run the person is at */
  struct ReplStager *stager;/* copies of the run at the last positions (repl_stage.c) */
  ReplVM *redo;             /* the run `back` left, for goto forward */
  const char *rec;          /* --replay: the recording walked through */
  ReplMove *moves;          /* moves[0]: the start */
  int nmoves, moves_cap;
  int line, nlines;         /* the line of decisions the run is on; lines so far */
  char tmpdir[64];          /* recordings of lines left behind (made when first needed) */
  int nfiles;
  ReplBp *bps;
  int nbps, bps_cap, next_bp;
  char *sched;              /* the scheduler continue uses */
  bool every;               /* stop at single-choice decisions too */
  bool tty;                 /* interactive: prompts, readline */
  FILE *script;             /* --script FILE, else NULL: standard input */
  bool color;
  int width;                /* of the terminal (scripts: 100) */
  bool quit;
  bool input_failed;        /* the commands' input had a line without an end: exit status 2 */
  volatile sig_atomic_t *interrupted;
  struct Explore *explored; /* the last explore's outcomes and races (repl_explore.c) */
  int nexplores;            /* explores so far: each has its directory of witnesses */
  struct Challenge *challenge; /* drvm challenge: the goal and its verdicts (challenge.c); NULL in drvm repl */
} Repl;

/* repl_vm.c */
/* A fresh run along the recording prefix (NULL: none), stopped at
 * decision `to` (UINT64_MAX: the first decision with a choice), NULL
 * after saying why. */
ReplVM *repl_vm_start(Repl *r, const char *prefix, uint64_t to);
/* The same without printing, in two halves (the second may run on a
 * background thread): a started run along the recording rec or the
 * first n decisions of src (each may be NULL), and running it to
 * decision `to`.  NULL or false with a message in err; compile errors
 * printed only when diags. */
ReplVM *repl_vm_prepare(const Repl *r, const char *rec, ReplVM *src, uint64_t n, bool diags, char *err,
                        size_t errsize);
bool repl_vm_go(ReplVM *v, uint64_t to, char *err, size_t errsize);
ReplVM *repl_vm_make(const Repl *r, const char *rec, ReplVM *src, uint64_t to, bool diags, char *err,
                     size_t errsize);
void repl_vm_free(ReplVM *v);
/* A new run of src's decisions up to decision `to`, standing there. */
ReplVM *repl_vm_at(Repl *r, ReplVM *src, uint64_t to);
/* After the VM moved: where it stands now (decision or end). */
void repl_vm_settle(ReplVM *v, int rc);

/* repl_move.c */
bool repl_cmd_move(Repl *r, const char *cmd, char **argv, int argc);

/* repl_explore.c */
void repl_cmd_explore(Repl *r, char **argv, int argc);
/* Outcome n's witness (race n's), 1-based, and its decisions; NULL after
 * saying why. */
const char *repl_witness(Repl *r, bool race, int n, uint64_t *decisions);
void repl_explore_free(Repl *r);

/* repl_move.c */
/* The session's directory for recordings (made when first needed); false
 * after saying why. */
bool repl_tmpdir(Repl *r);

/* repl_stage.c */
typedef struct ReplStager ReplStager;
/* Copies kept, and the smallest position worth a copy (below it a replay
 * takes a few milliseconds). */
enum { REPL_STAGED = 4, REPL_STAGE_MIN = 20000 };
/* Queues a copy of the run where it stands, made in the background. */
void repl_stage(Repl *r);
/* Frees the copies no longer worth keeping: before each command. */
void repl_stage_poll(Repl *r);
/* A copy standing at decision pos (removed from the cache), or NULL. */
ReplVM *repl_stage_take(Repl *r, uint64_t pos);
/* Drops the copies past pos: the history after it is being rewritten. */
void repl_stage_forget_after(Repl *r, uint64_t pos);
void repl_stage_free(Repl *r);

/* repl_show.c */
void repl_show_position(Repl *r);
/* Output and races that appeared since they were last shown. */
void repl_show_news(Repl *r);
bool repl_cmd_show(Repl *r, const char *cmd, char **argv, int argc);
/* "T1 Thread-0" with its state, or what it is about to do. */
void repl_thread_line(Repl *r, int t, DrBuf *b);
/* Parses "T1" or "1": the thread id, or -1 after saying why. */
int repl_thread_arg(Repl *r, const char *s);

/* challenge.c: drvm challenge, the REPL with a goal */
/* Reads the goal of the session's program; false (with *status) after
 * saying why there is none. */
bool challenge_start(Repl *r, int *status);
void challenge_intro(Repl *r);
/* After a command: if the run moved, judge it and announce the goal. */
void challenge_check(Repl *r);
/* The goal and hint commands. */
void challenge_cmd(Repl *r, const char *name);
void challenge_free(Repl *r);

/* repl_hb.c */
void repl_cmd_hb(Repl *r, char **argv, int argc);
/* The short text of an event: "write Account#1.balance :14". */
void repl_event_short(const DrvmEvent *e, DrBuf *b);

/* repl_input.c */
/* The next command line (malloc'd), NULL at the end of the input, or
 * after a line longer than REPL_LINE_MAX (said; r->input_failed). */
enum { REPL_LINE_MAX = 1 << 20 };
char *repl_read_line(Repl *r, const char *prompt);
void repl_input_init(Repl *r);
void repl_input_done(Repl *r);

/* repl.c */
/* A message of the REPL's own (not the program's). */
void repl_say(Repl *r, const char *fmt, ...) DR_PRINTF(2, 3);
/* A one-line error; the session goes on. */
void repl_err(Repl *r, const char *fmt, ...) DR_PRINTF(2, 3);
/* s as a number 0..max: decimal digits only (no sign, no spaces). */
bool repl_number(const char *s, uint64_t max, uint64_t *out);
/* Colour escapes (empty without colour). */
const char *repl_c(Repl *r, const char *esc);
#define REPL_BOLD "\033[1m"
#define REPL_DIM "\033[2m"
#define REPL_RED "\033[31m"
#define REPL_GREEN "\033[32m"
#define REPL_YELLOW "\033[33m"
#define REPL_CYAN "\033[36m"
#define REPL_OFF "\033[0m"

/* The commands: X(name, alias, args, help).  The table drives dispatch,
 * `help`, completion and the docs' reference. */
#define REPL_COMMANDS(X)                                                                               \
  X("threads", "t", "", "every thread: its state and what it is about to do")                       \
  X("step", "s", "T", "run thread T to its next event (access, lock, unlock, wait, notify, start, "   \
                      "join, call, end)")                                                             \
  X("next", "n", "T", "run thread T to its next source line (over calls)")                            \
  X("run", "r", "T to LINE | T until read|write|access FIELD",                                        \
    "run thread T alone until it is about to execute LINE, or to access FIELD")                       \
  X("continue", "c", "[SCHED [key=value...]]",                                                        \
    "let a scheduler decide until a breakpoint, a watch, a race, a deadlock, an uncaught exception "  \
    "or the end")                                                                                     \
  X("finish", NULL, "[T]", "run to the end, ignoring breakpoints (T: until T's current method returns)") \
  X("back", "b", "[N]", "undo the last N moves (default 1)")                                          \
  X("goto", "g", "K", "go to decision #K (back, or forward again after back)")                        \
  X("history", "h", "[N|all]", "the last N events (default 20), one column per thread")              \
  X("timeline", NULL, "FILE|text",                                                                    \
    "draw the run so far: FILE.html (a page for the browser), FILE.svg (a picture) or text (columns)") \
  X("where", "w", "[T]", "T's stack with file:line, locks held and the lock it waits for (default: all)") \
  X("print", "p", "WHAT", "Class.field, Class.field[3], Account#1, Account#1.balance, int[]#2[3], a " \
                          "local (T1 x, T1.2 x: frame 2)")                                            \
  X("locks", NULL, "", "every monitor held, by whom, and who waits for it")                          \
  X("clock", NULL, "T", "T's vector clock, as the race detector sees it")                            \
  X("hb", NULL, "A B", "are events #A and #B (or thread B's next event: T2) ordered? the chain, or why "  \
                       "not (#12.2: the second event of #12)")                                          \
  X("races", NULL, "", "the races reported so far, both stacks")                                     \
  X("output", "o", "", "the program's output so far")                                               \
  X("break", NULL, "LINE | file:LINE | race | deadlock", "stop before a line runs, at a race, at a deadlock") \
  X("watch", NULL, "Class.field | Account#1.balance | int[]#2[3]", "stop before any thread accesses it") \
  X("breaks", NULL, "", "the breakpoints and watches")                                               \
  X("delete", "d", "[ID]", "remove breakpoint ID (default: all)")                                    \
  X("explore", NULL, "[optimal|source|none] [K]",                                                    \
    "run every interleaving from here (K: at most K preemptions): each outcome and race, with a witness") \
  X("witness", NULL, "N | race N", "follow outcome N's witness (or race N's) from here to its end")  \
  X("goal", NULL, "", "drvm challenge: the goal, its preemption limit, and whether this run reached it") \
  X("hint", NULL, "", "drvm challenge: the challenge's hint")                                         \
  X("save", NULL, "FILE", "write the decisions so far: drvm run --replay FILE reproduces them")      \
  X("time", NULL, "COMMAND", "run COMMAND and say how long it took")                                 \
  X("help", "?", "[COMMAND]", "the commands, or one")                                                \
  X("quit", "q", "", "leave (also Ctrl-D)")

typedef struct {
  const char *name, *alias, *args, *help;
} ReplCommand;
extern const ReplCommand repl_commands[];
extern const int repl_ncommands;

/* `drvm repl` (argv[0] is "repl"): the exit status. */
int dr_cmd_repl(int argc, char **argv);
/* The commands' reference for `drvm help repl`. */
void repl_help(FILE *out);

#endif
