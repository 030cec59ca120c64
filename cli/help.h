/* The command line's help texts and usage errors.  Option lists come from
 * the options table (options.h); schedulers, detectors and their options
 * from the registries. */
#ifndef DR_CLI_HELP_H
#define DR_CLI_HELP_H

#include <stdio.h>

#include "../vm/common.h"

/* drvm --help: the commands and every option's name. */
void dr_help_usage(FILE *out);
/* drvm help TOPIC (run, check, disasm, hunt, racefuzz); false if there is none. */
bool dr_help_topic(const char *topic, FILE *out);
/* Prints "drvm: MESSAGE" (fmt with arg) and the hint to stderr; returns
 * the usage error's exit status, 2. */
int dr_usage_error(const char *fmt, const char *arg);

#endif
