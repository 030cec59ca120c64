/* Help texts (help.h).  Every option list is printed from the options
 * table and the registries, so a new option or scheduler shows up here
 * without a word written in this file. */
#include <string.h>

#include "../include/drvm.h"
#include "../vm/buf.h"
#include "help.h"
#include "hunt.h"
#include "goal.h"
#include "options.h"
#include "repl.h"

/* Help lines: text from column HELP_COL, wrapped before HELP_WIDTH. */
enum { HELP_COL = 20, HELP_WIDTH = 79 };

static const char *const commands_text =
    "usage: drvm <command> [options] prog.dl [more.dl...] [-- args...]\n"
    "\n"
    "A program is one file, several (.dl or .java), or a directory standing for\n"
    "every .dl and .java file under it, compiled together as javac would.\n"
    "\n"
    "commands:\n"
    "  run      compile and run a program\n"
    "  check    compile only and report every error\n"
    "  disasm   print the program's bytecode with source lines\n"
    "  hunt     run a program many times under several race-hunting schedulers\n"
    "           and compare the races each finds (drvm hunt --help)\n"
    "  racefuzz RaceFuzzer: potential races from the hybrid detector, then runs\n"
    "           that try to create each one (drvm racefuzz --help)\n"
    "  repl     be the scheduler: step threads, watch races form, go back\n"
    "           (drvm repl --help)\n"
    "  explore  run every interleaving of a small program once (up to equivalence):\n"
    "           every outcome and every race, each with a witness (drvm explore --help)\n"
    "  challenge  play a challenge: the REPL with the goal in the program's comments\n"
    "           (// goal: deadlock), told when you reach it (drvm help challenge)\n"
    "  grade    check a saved schedule against a challenge's goal: PASS or FAIL\n"
    "           with the reason, exit 0 or 1 (drvm help grade)\n"
    "  help     show help for a command (drvm help run)\n";

static const char *const run_intro =
    "usage: drvm run [options] prog.dl [more.dl...] [args...]\n"
    "       drvm run [options] DIR [args...]\n"
    "\n"
    "Compiles prog.dl (DL, a subset of Java 17) and runs main(String[] args)\n"
    "of its first class, and every thread it starts, as green threads under a\n"
    "deterministic scheduler: the same program, arguments, options and seed\n"
    "give the same run.  A program of several files (.dl or .java; DIR: every\n"
    "one under it) runs the class --main names, else the one declaring main.\n"
    "Arguments after the files (or after --) become args.\n"
    "\n"
    "options:\n";

static const char *const run_exit_text =
    "\n"
    "exit status:\n"
    "  0   the program ended normally (or the status given to System.exit)\n"
    "  1   an exception escaped main (other threads' do not count, as in java)\n"
    "  2   usage error (bad command line, a file it cannot read or write)\n"
    "  3   compile error\n"
    "  4   deadlock: threads remain and none can run (a thread dump is printed)\n"
    "  5   the --max-steps limit was reached\n"
    "  6   --replay: the recording does not fit the program's run\n"
    "  66  the detector found data races (--race-exit-code), if the program\n"
    "      itself ended with status 0\n"
    "  70  out of memory outside the program's heap\n"
    "  130 SIGINT (Ctrl-C) stopped the run, 143 SIGTERM: the output so far is\n"
    "      written first; a second signal ends drvm at once\n";

static const char *const explore_intro =
    "usage: drvm explore [options] prog.dl [-- args...]\n"
    "\n"
    "Runs prog.dl again and again, each time in another interleaving of its\n"
    "threads, until every Mazurkiewicz trace (every order of its dependent\n"
    "steps: accesses to one location where one writes, takes of one monitor,\n"
    "prints, starts, joins, notifies) has run once.  Then it prints every\n"
    "distinct outcome (output, exit status, exception, deadlock), how many\n"
    "executions reach it and its shortest witness (fewest preemptions, then\n"
    "fewest decisions) as a recording for drvm run --replay or drvm repl\n"
    "--replay; and every data race FastTrack found in any execution, with its\n"
    "witness.  A bound that cuts the search is said; complete means every\n"
    "trace ran.  docs/explore.md explains it.\n"
    "\n"
    "options:\n";

static const char *const explore_exit_text =
    "\n"
    "exit status:\n"
    "  0   explored: no outcome had an uncaught exception, a deadlock or a step limit, and no race\n"
    "  1   in some execution an exception escaped a thread (an assertion's too)\n"
    "  2   usage error    3   compile error\n"
    "  4   some execution deadlocked (and none threw)\n"
    "  5   some execution hit --max-steps (and none threw or deadlocked)\n"
    "  66  the only findings are data races\n";

static const char *const repl_intro =
    "usage: drvm repl [options] prog.dl [-- args...]\n"
    "\n"
    "Runs prog.dl with you as the scheduler: it stops before the first decision\n"
    "where more than one thread can run, shows what each thread is about to do,\n"
    "and lets you pick who moves (step, next, run), let a scheduler go on\n"
    "(continue), go back (back, goto), and see why two accesses are or are not\n"
    "ordered (hb).  Commands come from the terminal (readline: history, Tab\n"
    "completion), or from --script FILE or a pipe as a plain transcript.\n"
    "--replay FILE walks through a recording (drvm run --record, drvm hunt's\n"
    "witnesses), forward and back.  The options are drvm run's; --sched is\n"
    "the scheduler that continue uses, and --seed is 0 unless given, so that\n"
    "a session is the same every time.  Exit status: 0 after a session, 2 on\n"
    "a usage error, 3 on a compile error.\n"
    "\n"
    "options:\n";

static const char *const check_text =
    "usage: drvm check prog.dl\n\nCompiles prog.dl and reports every error; exit status 3 if any, else 0.\n";

static const char *const disasm_text =
    "usage: drvm disasm [--all] prog.dl\n\n"
    "Prints each method's bytecode, grouped by source line, with its registers\n"
    "(R = holds a reference, p = primitive) and exception handlers.\n";

static const char *const hunt_text =
    "usage: drvm hunt prog.dl [more.dl ...] | DIR [options] [-- args...]\n"
    "\n"
    "Runs `drvm run` on prog.dl N times with each technique, FastTrack (ft)\n"
    "watching every run, and compares the races they find as the DrFinder\n"
    "paper (FSE'15) does: its Table 3 (races per technique, races only it\n"
    "found, races it missed, time and slowdown, DrFinder's thrash rate), the\n"
    "list of distinct races with the commands that reproduce them, and its\n"
    "Figure 6 (distinct races found after each run).\n"
    "\n"
    "options:\n"
    "  --runs N          runs per technique (default 10)\n"
    "  --techniques L    comma-separated, among native, contest, pct, drfinder,\n"
    "                    predict, random, rr, native-random (default\n"
    "                    native,contest,pct,drfinder,predict: the paper's FT,\n"
    "                    CT, PCT and DR, and WCP: runs observed under the WCP\n"
    "                    detector whose predictions the next runs confirm)\n"
    "  --depth D         drfinder's depth (default 12)\n"
    "  --phase1 WHICH    drfinder's Phase I: detect, under FastTrack as\n"
    "                    drfinder's run 1, its races counted (default); collect,\n"
    "                    a run apart that only collects relations\n"
    "  --pct-depth D     pct's bug depth (default 3)\n"
    "  --pct-steps K     pct's k (default: the scheduling points of a plain pct run)\n"
    "  --jobs N          children at once (default 1); drfinder's runs stay in order\n"
    "  --seed S          the hunt's seed: every run's seed is derived from it\n"
    "                    (default: drawn, and printed)\n"
    "  --dir DIR         where the runs' files go (default: a new directory\n"
    "                    $TMPDIR/drvm-hunt-<prog>-<seed>)\n"
    "  --json FILE       also write the results as JSON\n"
    "  --max-steps N     passed to every run (a run that reaches it is failed)\n"
    "  --main CLASS      passed to every run: the class whose main starts it\n"
    "  --timeline FILE   draw each distinct race's first witness: FILE.html,\n"
    "                    FILE.svg (as FILE-race-1.html...) or text\n"
    "  -h, --help        show this help\n"
    "\n"
    "exit status: 0 when the hunt ran (races found or not), 2 on a usage error\n"
    "or unreadable results, 3 when the program does not compile.\n";

static const char *const racefuzz_text =
    "usage: drvm racefuzz prog.dl [more.dl ...] | DIR [options] [-- args...]\n"
    "\n"
    "RaceFuzzer (Sen, PLDI'08) on prog.dl.  Phase 1 runs the hybrid detector\n"
    "(locksets + happens-before, --sched random) three times and merges the\n"
    "potentially racing statement pairs it reports into DIR/pairs.txt.  Phase\n"
    "2 runs `--sched racefuzzer --pair i` N times for every pair i: a run\n"
    "creates the pair's race for real or not, and the race may cause an\n"
    "exception.  Prints the paper's Table 1 for the program and, per pair,\n"
    "the probability of creating the race and the runs that threw.\n"
    "\n"
    "options:\n"
    "  --runs N          phase 2 runs per pair (default 100)\n"
    "  --jobs N          children at once (default 1)\n"
    "  --seed S          the driver's seed: every run's seed is derived from it\n"
    "                    (default: drawn, and printed)\n"
    "  --dir DIR         where the runs' files go (default: a new directory\n"
    "                    $TMPDIR/drvm-racefuzz-<prog>-<seed>)\n"
    "  --json FILE       also write the results as JSON\n"
    "  --max-steps N     passed to every run (a run that reaches it is failed)\n"
    "  --main CLASS      passed to every run: the class whose main starts it\n"
    "  -h, --help        show this help\n"
    "\n"
    "exit status: 0 when it ran (races found or not), 2 on a usage error or\n"
    "unreadable results, 3 when the program does not compile.\n";

static const char *const challenge_text =
    "usage: drvm challenge [options] prog.dl [-- args...]\n"
    "\n"
    "drvm repl with a goal: prog.dl states in its comments what you must make\n"
    "it do by choosing who runs (// goal: ...), and may limit the preemptions\n"
    "(// max-preemptions: K) and give hints (// hint: ...).  The goal is shown\n"
    "at the start; after every move the REPL judges your run as drvm grade\n"
    "would and says when the goal is reached (and whether within the limit).\n"
    "Then save FILE and drvm grade prog.dl FILE.  Commands goal and hint show\n"
    "the goal and the hint.  Exit status: 0 after a session, 2 on a usage\n"
    "error or a program without a goal, 3 on a compile error or a malformed\n"
    "goal comment.  docs/challenges.md explains it.\n"
    "\n";

static const char *const grade_intro =
    "usage: drvm grade [options] prog.dl answer.sched [-- args...]\n"
    "\n"
    "Replays answer.sched (a recording: the REPL's save, drvm run --record,\n"
    "a witness of drvm explore) on the challenge prog.dl, counts its\n"
    "preemptions as drvm explore does, and says whether it reaches the goal\n"
    "in prog.dl's comments within its limit: PASS: ... or FAIL: <reason>.\n"
    "\n"
    "options:\n";

static const char *const grade_exit_text =
    "\n"
    "exit status:\n"
    "  0   pass: the goal is reached within the limit\n"
    "  1   fail: not reached, over the limit, or the schedule does not fit the program\n"
    "  2   usage error: a missing file, a program without a goal, a malformed recording\n"
    "  3   the program does not compile, or a goal comment is malformed\n";

int dr_usage_error(const char *fmt, const char *arg) {
  fputs("drvm: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'drvm --help'.\n", stderr);
  return DRVM_EXIT_USAGE;
}

/* Prints head, then text word by word from column col, wrapped before
 * HELP_WIDTH under col.  Line breaks in text are only where the text's
 * source wrapped it (the registries'), so they are spaces here. */
static void print_item(FILE *out, const char *head, const char *text, int col) {
  int pos = fprintf(out, "%s", head);
  bool first = true;
  for (const char *p = text; *p;) {
    if (p[0] == '\n' && p[1] == ' ') {
      /* "\n  ...": a line as written (an example), under the text */
      size_t n = strcspn(p + 1, "\n");
      pos = fprintf(out, "\n%*s%.*s", col, "", (int)n, p + 1) - 1;
      p += 1 + n;
      continue;
    }
    while (*p == ' ' || *p == '\n') p++;
    size_t n = strcspn(p, " \n");
    if (!n) break;
    if (first && pos + 2 > col) {
      pos += fprintf(out, "  ");
    } else if (first) {
      pos += fprintf(out, "%*s", col - pos, "");
    } else if (pos + 1 + (int)n > HELP_WIDTH) {
      pos = fprintf(out, "\n%*s", col, "") - 1;
    } else {
      pos += fprintf(out, " ");
    }
    pos += fprintf(out, "%.*s", (int)n, p);
    first = false;
    p += n;
  }
  fputs("\n", out);
}

/* The option as typed: "--depth D", "--trace[=FILE]", "-v, --verbose". */
static void option_head(DrRoId id, char *buf, size_t size) {
  const DrRoRow *r = dr_ro_row(id);
  const char *arg = dr_ro_arg(id);
  if (r->alias) snprintf(buf, size, "%s, %s", r->name, r->alias);
  else if (r->value.kind == DR_V_OPT_FILE) snprintf(buf, size, "%s[=%s]", r->name, arg);
  else if (arg) snprintf(buf, size, "%s %s", r->name, arg);
  else snprintf(buf, size, "%s", r->name);
}

/* An option's help; a registry option that goes with some schedulers or
 * detectors only says which, unless its help names one.  Malloc'd. */
static char *option_text(DrRoId id) {
  const DrvmEntry *e = dr_ro_entry(id);
  const char *help = dr_ro_help(id);
  if (!e || !e->applies) return dr_strdup(help);
  char word[64];
  for (const char *p = e->applies; *p;) {
    size_t n = strcspn(p, " ");
    snprintf(word, sizeof word, "%.*s", (int)n, p);
    if (strstr(help, word)) return dr_strdup(help);
    p += n + (p[n] == ' ');
  }
  return dr_fmt("with --%s %s: %s", dr_ro_row(id)->to == DR_TO_DET ? "detector" : "sched", e->applies, help);
}

/* The schedulers or detectors, one per line under their option. */
static void print_entries(FILE *out, bool det) {
  int n = det ? drvm_detector_count() : drvm_scheduler_count(), width = 0;
  for (int i = 0; i < n; i++) {
    int w = (int)strlen((det ? drvm_detector_entry(i) : drvm_scheduler_entry(i))->name);
    if (w > width) width = w;
  }
  for (int i = 0; i < n; i++) {
    const DrvmEntry *e = det ? drvm_detector_entry(i) : drvm_scheduler_entry(i);
    char head[96];
    snprintf(head, sizeof head, "%*s%-*s", HELP_COL + 2, "", width, e->name);
    print_item(out, head, e->help, HELP_COL + 2 + width + 2);
  }
}

/* The reductions drvm explore offers, one per line under --por. */
static void print_por_modes(FILE *out) {
  static const char *const modes[][2] = {
#define DR_POR_HELP(name, word, help) {word, help},
      DRVM_POR_MODES(DR_POR_HELP)
#undef DR_POR_HELP
  };
  for (size_t i = 0; i < DR_ARRAY_LEN(modes); i++) {
    char head[96];
    snprintf(head, sizeof head, "%*s%-8s", HELP_COL + 2, "", modes[i][0]);
    print_item(out, head, modes[i][1], HELP_COL + 2 + 8 + 2);
  }
}

/* Every option of command cmd, with its help. */
static void print_options(FILE *out, const char *cmd) {
  for (int i = 0; i < DR_RO__COUNT; i++) {
    DrRoId id = (DrRoId)i;
    if (!dr_ro_for(id, cmd)) continue;
    char head[96] = "  ";
    option_head(id, head + 2, sizeof head - 2);
    char *text = option_text(id);
    print_item(out, head, text, HELP_COL);
    free(text);
    const DrRoRow *r = dr_ro_row(id);
    if (!r->key && (r->to == DR_TO_SCHED || r->to == DR_TO_DET)) print_entries(out, r->to == DR_TO_DET);
    if (id == DR_RO_POR) print_por_modes(out);
  }
}

/* Names, wrapped: "  a, b, c" or "  --x N  --y" (sep between). */
static void print_words(FILE *out, const char *const *words, int n, const char *sep) {
  int pos = 0;
  for (int i = 0; i < n; i++) {
    int w = (int)strlen(words[i]);
    if (pos && pos + (int)strlen(sep) + w > HELP_WIDTH) {
      fputs("\n", out);
      pos = 0;
    }
    pos += fprintf(out, "%s%s", pos ? sep : "  ", words[i]);
  }
  fputs("\n", out);
}

/* A registry's names as a list: "native, random, ...". */
static void print_names(FILE *out, const char *what, bool det) {
  int n = det ? drvm_detector_count() : drvm_scheduler_count();
  const char **names = dr_xrealloc(NULL, sizeof *names * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) names[i] = (det ? drvm_detector_entry(i) : drvm_scheduler_entry(i))->name;
  fprintf(out, "%s:\n", what);
  print_words(out, names, n, ", ");
  free(names);
}

void dr_help_usage(FILE *out) {
  fputs(commands_text, out);
  fputs("\nrun's options (drvm help run explains each):\n", out);
  char heads[DR_RO__COUNT][96];
  const char *words[DR_RO__COUNT];
  int n = 0;
  for (int i = 0; i < DR_RO__COUNT; i++) {
    if (!dr_ro_for((DrRoId)i, "run") || dr_ro_row((DrRoId)i)->to == DR_TO_LIMIT) continue;
    option_head((DrRoId)i, heads[n], sizeof heads[n]);
    words[n] = heads[n];
    n++;
  }
  print_words(out, words, n, "  ");
  fputs("\n", out);
  print_names(out, "schedulers (--sched)", false);
  print_names(out, "detectors (--detector)", true);
  fputs("\noptions of run, check and disasm:\n", out);
  for (int i = 0; i < DR_RO__COUNT; i++) {
    const DrRoRow *r = dr_ro_row((DrRoId)i);
    if (r->to != DR_TO_LIMIT && r->to != DR_TO_DISASM) continue;
    char head[96] = "  ";
    option_head((DrRoId)i, head + 2, sizeof head - 2);
    char *text = r->to == DR_TO_DISASM ? dr_fmt("disasm: %s", r->help) : dr_strdup(dr_ro_help((DrRoId)i));
    print_item(out, head, text, HELP_COL);
    free(text);
  }
  print_item(out, "  -h, --help", "show this help (drvm COMMAND --help: the command's)", HELP_COL);
  print_item(out, "  --version", "print drvm's version", HELP_COL);
}

bool dr_help_topic(const char *topic, FILE *out) {
  if (!*topic) {
    dr_help_usage(out);
  } else if (!strcmp(topic, "run")) {
    fputs(run_intro, out);
    print_options(out, "run");
    fputs(run_exit_text, out);
  } else if (!strcmp(topic, "check")) {
    fputs(check_text, out);
  } else if (!strcmp(topic, "disasm")) {
    fputs(disasm_text, out);
    fputs("\noptions:\n", out);
    print_options(out, "disasm");
  } else if (!strcmp(topic, "repl")) {
    fputs(repl_intro, out);
    print_options(out, "repl");
    fputs("\ncommands (threads are T0 (main), T1, ...; events are #numbers, as history shows):\n", out);
    repl_help(out);
  } else if (!strcmp(topic, "explore")) {
    fputs(explore_intro, out);
    print_options(out, "explore");
    fputs(explore_exit_text, out);
  } else if (!strcmp(topic, "challenge")) {
    fputs(challenge_text, out);
    dr_goal_help(out);
    fputs("\noptions: those of drvm repl (drvm help repl)\n", out);
  } else if (!strcmp(topic, "grade")) {
    fputs(grade_intro, out);
    print_options(out, "grade");
    fputs("\n", out);
    dr_goal_help(out);
    fputs(grade_exit_text, out);
  } else if (!strcmp(topic, "hunt")) {
    fputs(hunt_text, out);
    fputs("\ndrfinder's own options, passed to its runs (drvm help run):\n", out);
    for (int id = 0; id < DR_RO__COUNT; id++)
      if (dr_hunt_passes_drfinder(id)) fprintf(out, "  %s %s\n", dr_ro_row((DrRoId)id)->name, dr_ro_arg((DrRoId)id));
  } else if (!strcmp(topic, "racefuzz")) {
    fputs(racefuzz_text, out);
  } else {
    return false;
  }
  return true;
}
