/* What `drvm hunt` and `drvm racefuzz` share: their common options, run
 * seeds, the run directory, children's command lines and text tables. */
#ifndef DR_HUNT_UTIL_H
#define DR_HUNT_UTIL_H

#include "../include/drvm.h" /* the exit statuses: DRVM_EXIT_* */
#include "hunt_proc.h"
#include "options.h"
#include "../vm/json.h"

/* The options both drivers take. */
typedef struct {
  const char *prog;       /* the program (its first file), as given */
  DrArgv progs;           /* all its files and directories */
  const char *main;       /* --main CLASS, or NULL */
  int runs, jobs;
  uint64_t seed;
  bool have_seed;
  const char *json;       /* --json FILE */
  const char *dir_opt;    /* --dir DIR */
  uint64_t max_steps;     /* 0: none */
  char **args;            /* the program's arguments */
  int nargs;
  char *dir;              /* the run directory in use (malloc'd) */
  char *exe;              /* the drvm executable (malloc'd) */
} DrHuntCommon;

/* Takes argv[*i] (and its value) if it is a common option, or the
 * program's file it names; returns 1 when taken, 0 when not one, -1
 * after a usage error was printed. */
int dr_hunt_common_option(DrHuntCommon *c, const char *cmd, int argc, char **argv, int *i);
/* Prints "drvm CMD: MESSAGE" and a hint; returns 2. */
int dr_hunt_usage(const char *cmd, const char *fmt, const char *arg);
/* An integer option's value in [min, max]. */
bool dr_hunt_parse_int(const char *s, long long min, long long max, long long *out);
/* Checks the program, draws the seed, creates the directory (printing
 * neither); returns false after printing why. */
bool dr_hunt_setup(DrHuntCommon *c, const char *cmd);
void dr_hunt_common_free(DrHuntCommon *c);

/* A run's seed from the hunt's: the same (seed, name, run) always gives
 * the same short seed, and different names or runs unrelated ones. */
uint64_t dr_hunt_run_seed(uint64_t seed, const char *name, int run);

/* A child's `drvm run` options: --max-steps, the program and its
 * arguments as the driver was given them, and when sched is not NULL
 * --sched sched --seed seed --detector detector. */
void dr_hunt_run_opts(DrRunOpts *o, const DrHuntCommon *c, const char *sched, uint64_t seed, const char *detector);
/* The child's argv (argv[0] is only a name: children exec drvm's own
 * executable), NULL-terminated; frees o. */
char **dr_hunt_argv(DrRunOpts *o);
/* The command that reruns a child, for people; frees o.  Malloc'd. */
char *dr_hunt_command(DrRunOpts *o);
/* Reads a child's JSON report: 1 read, 0 missing (and not required), -1
 * an error already printed as "who: ...". */
int dr_hunt_read_json(const char *who, const char *path, bool required, DrJson *out);
/* "DIR/name": malloc'd. */
char *dr_hunt_path(const DrHuntCommon *c, const char *name);

/* Shows why a child's run stopped the driver (usage or compile error). */
int dr_hunt_abort(const char *cmd, const DrHuntJob *job);

/* Text tables: cells added row by row, printed with aligned columns
 * (numbers right-aligned, text left-aligned). */
typedef struct {
  int ncols;
  char **cells;
  int ncells, cap;
} DrTable;
void dr_table_init(DrTable *t, int ncols);
void dr_table_add(DrTable *t, const char *fmt, ...) DR_PRINTF(2, 3);
void dr_table_print(const DrTable *t, FILE *out, const char *indent);
void dr_table_free(DrTable *t);

/* n zeroed elements of size bytes; exits when out of memory, as
 * dr_xrealloc does (dr_xcalloc is the VM's, and the drivers need none of
 * the VM). */
void *dr_hunt_calloc(size_t n, size_t size);

/* Writes a DrBuf's text to path; false after printing why. */
bool dr_hunt_write_file(const char *cmd, const char *path, const DrBuf *b);
bool dr_hunt_file_exists(const char *path);

#endif
