#include "hunt.h"
#include <stdio.h>
int dr_cmd_racefuzz(const char *self, int argc, char **argv) {
  (void)self; (void)argc; (void)argv;
  return 2;
}
