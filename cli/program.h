/* A program's files as the command line names them: files, or a
 * directory standing for every .dl and .java file in it (as javac
 * compiles DIR/<star>.java), read once for every VM a command makes. */
#ifndef DR_CLI_PROGRAM_H
#define DR_CLI_PROGRAM_H

#include "../include/drvm.h"
#include "options.h"

typedef struct {
  DrArgv paths;  /* the files, a directory's in name order */
  char **texts;  /* malloc'd, one per path */
  size_t *lens;
} DrProgFiles;

/* Whether a word after the program names another of its files (a word
 * that does not is the first program argument of drvm run). */
bool dr_prog_is_source(const char *word);
/* Lists and reads the files of o->progs; false after printing
 * "WHO: cannot read ..." (or why a directory will not do). */
bool dr_prog_read(const DrRunOpts *o, const char *who, DrProgFiles *p);
/* drvm_compile_strings of the files. */
bool dr_prog_compile(DrVM *vm, const DrProgFiles *p);
void dr_prog_free(DrProgFiles *p);
/* The program as a command names it after its other options: "--main
 * CLASS" if given, then the files, shell-quoted ("A.dl B.dl").  Malloc'd. */
char *dr_prog_words(const DrRunOpts *o);

#endif
