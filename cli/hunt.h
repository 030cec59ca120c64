/* `drvm hunt` and `drvm racefuzz`: drivers that run `drvm run` many
 * times, in child processes, and compare race-hunting techniques as the
 * DrFinder and RaceFuzzer papers do (docs/hunt.md). */
#ifndef DR_HUNT_H
#define DR_HUNT_H

#include <stdbool.h>
#include <stdint.h>

/* argv[0] is the command name ("hunt"/"racefuzz"); self is the path of
 * the drvm executable to run children with.  Returns the exit status. */
int dr_cmd_hunt(const char *self, int argc, char **argv);
int dr_cmd_racefuzz(const char *self, int argc, char **argv);
/* drvm hunt passes drfinder's own options to DrFinder's runs: the `drvm
 * run` option rows (options.h's DrRoId) whose registry entry applies to
 * drfinder alone, but the relation files, which the hunt chains.  Its
 * help lists them from here. */
bool dr_hunt_passes_drfinder(int id);

#endif
