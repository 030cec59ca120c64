/* `drvm hunt` and `drvm racefuzz`: being written (issue 6). */
#include <stdio.h>

#include "hunt.h"

int dr_cmd_hunt(const char *self, int argc, char **argv) {
  (void)self;
  (void)argc;
  (void)argv;
  fputs("drvm: hunt is not built yet\n", stderr);
  return 2;
}

int dr_cmd_racefuzz(const char *self, int argc, char **argv) {
  (void)self;
  (void)argc;
  (void)argv;
  fputs("drvm: racefuzz is not built yet\n", stderr);
  return 2;
}
