/* outcomes.c -- runs a DL program under 100 seeds of drvm's random
 * scheduler and prints which outcomes occurred: each distinct standard
 * output (with how the run ended), how many seeds gave it, and the first
 * seed that did, so that `drvm run --sched random --seed N` shows it.
 *
 *   cc -Iinclude outcomes.c libdrvm.a -lffi -ldl -lm -o outcomes
 *   ./outcomes                 # a built-in program with a lost update
 *   ./outcomes student.dl      # any program
 *
 * Exits 0 when every run could be made, 3 when the program does not
 * compile, 2 on other errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drvm.h"

#define SEEDS 100

/* Two threads add to a shared counter without a lock. */
static const char LOST_UPDATE[] =
    "public class LostUpdate {\n"
    "    static int count;\n"
    "    static class Adder implements Runnable {\n"
    "        public void run() {\n"
    "            for (int i = 0; i < 3; i++) count++;\n"
    "        }\n"
    "    }\n"
    "    public static void main(String[] args) throws InterruptedException {\n"
    "        Thread a = new Thread(new Adder()), b = new Thread(new Adder());\n"
    "        a.start();\n"
    "        b.start();\n"
    "        a.join();\n"
    "        b.join();\n"
    "        System.out.println(\"count = \" + count + \" of 6\");\n"
    "    }\n"
    "}\n";

/* What one run wrote to its standard output. */
typedef struct {
  char *text;
  size_t len;
} Text;

static void collect(void *user, const char *s, size_t n) {
  Text *t = user;
  char *grown = realloc(t->text, t->len + n + 1);
  if (!grown) return; /* out of memory: this piece is lost */
  memcpy(grown + t->len, s, n);
  t->text = grown;
  t->len += n;
  t->text[t->len] = 0;
}

static void discard(void *user, const char *s, size_t n) {
  (void)user, (void)s, (void)n; /* exception traces and the like */
}

/* A distinct outcome: the output, how the run ended, the seeds. */
typedef struct {
  char *text;
  DrvmOutcome outcome;
  int seeds, first_seed;
} Outcome;

/* One run under seed; 1 when it ran (*text, *r filled), 0 on a compile
 * error (printed), -1 on another error. */
static int run_seed(const char *path, uint64_t seed, Text *text, DrvmResult *r) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.seed = seed;                /* the scheduler's seed and new Random()'s */
  cfg.max_steps = 10000000;       /* a program that never ends is an outcome too */
  cfg.write_out = collect;
  cfg.write_err = discard;
  cfg.write_user = text;
  char why[256];
  DrVM *vm = drvm_new(&cfg, why, sizeof why);
  if (!vm) {
    fprintf(stderr, "outcomes: %s\n", why);
    return -1;
  }
  bool compiled = path ? drvm_compile_file(vm, path)
                       : drvm_compile_string(vm, "LostUpdate.dl", LOST_UPDATE, strlen(LOST_UPDATE));
  int ok = 1;
  if (!compiled) {
    if (drvm_diag_count(vm) > 0) drvm_print_diags(vm, stderr); /* javac-like */
    else fprintf(stderr, "outcomes: %s\n", drvm_error(vm));    /* e.g. no such file */
    ok = drvm_diag_count(vm) > 0 ? 0 : -1;
  } else if (!drvm_set_scheduler(vm, "random", NULL) || !drvm_set_detector(vm, "none", NULL) ||
             drvm_run(vm, 0, NULL, r) < 0) {
    fprintf(stderr, "outcomes: %s\n", drvm_error(vm));
    ok = -1;
  }
  drvm_free(vm);
  return ok;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : NULL;
  Outcome seen[SEEDS];
  int nseen = 0, status = 0;
  for (int seed = 1; seed <= SEEDS && status == 0; seed++) {
    Text text = {NULL, 0};
    DrvmResult r;
    int ran = run_seed(path, (uint64_t)seed, &text, &r);
    if (ran <= 0) {
      status = ran == 0 ? 3 : 2;
    } else {
      const char *out = text.text ? text.text : "";
      int i = 0;
      while (i < nseen && (seen[i].outcome != r.outcome || strcmp(seen[i].text, out) != 0)) i++;
      if (i == nseen) {
        char *copy = malloc(strlen(out) + 1);
        if (!copy) return 2;
        seen[nseen++] = (Outcome){strcpy(copy, out), r.outcome, 0, seed};
      }
      seen[i].seeds++;
    }
    free(text.text);
  }
  if (status == 0) {
    printf("%s: %d seeds of the random scheduler, %d distinct outcome%s\n", path ? path : "LostUpdate.dl", SEEDS,
           nseen, nseen == 1 ? "" : "s");
    for (int i = 0; i < nseen; i++) {
      printf("\n%d seed%s (first: --seed %d), %s:\n", seen[i].seeds, seen[i].seeds == 1 ? "" : "s",
             seen[i].first_seed, drvm_outcome_word(seen[i].outcome));
      printf("%s", seen[i].text);
      if (!seen[i].text[0] || seen[i].text[strlen(seen[i].text) - 1] != '\n') printf("\n");
    }
  }
  for (int i = 0; i < nseen; i++) free(seen[i].text);
  return status;
}
