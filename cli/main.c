/* The drvm command line: which command runs.  drvm is a host of its own
 * library (include/drvm.h) like any other. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../include/drvm.h"
#include "explore.h"
#include "grade.h"
#include "help.h"
#include "hunt.h"
#include "repl.h"
#include "run.h"

static int dispatch(int argc, char **argv);

/* drvm's own output (help, listings, reports) lost on a full disk is an
 * error, as for any command-line tool; the program's output under `run`
 * is not: java's System.out keeps its errors to itself. */
int main(int argc, char **argv) {
  int rc = dispatch(argc, argv);
  if (argc >= 2 && !strcmp(argv[1], "run")) return rc;
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
  if (errno) fprintf(stderr, "drvm: cannot write standard output: %s\n", strerror(errno));
  else fprintf(stderr, "drvm: cannot write standard output\n"); /* an earlier write failed */
  /* as for an output file: before 66, the report asked for is missing */
  return rc == 0 || rc == DRVM_EXIT_RACES ? DRVM_EXIT_USAGE : rc;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    dr_help_usage(stderr);
    return DRVM_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
    dr_help_usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("drvm %s\n", DRVM_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "help")) {
    const char *topic = argc > 2 ? argv[2] : "";
    return dr_help_topic(topic, stdout) ? 0 : dr_usage_error("no help for '%s'", topic);
  }
  if (!strcmp(cmd, "hunt")) return dr_cmd_hunt(argv[0], argc - 1, argv + 1);
  if (!strcmp(cmd, "repl")) return dr_cmd_repl(argc - 1, argv + 1);
  if (!strcmp(cmd, "explore")) return dr_cmd_explore(argc - 1, argv + 1);
  if (!strcmp(cmd, "grade")) return dr_cmd_grade(argc - 1, argv + 1);
  if (!strcmp(cmd, "challenge")) return dr_cmd_repl(argc - 1, argv + 1);
  if (!strcmp(cmd, "racefuzz")) return dr_cmd_racefuzz(argv[0], argc - 1, argv + 1);
  if (!strcmp(cmd, "run") || !strcmp(cmd, "check") || !strcmp(cmd, "disasm")) return dr_cmd_run(argc - 1, argv + 1);
  return dr_usage_error("unknown command '%s'", cmd);
}
