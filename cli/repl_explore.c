/* The REPL's explore command: every interleaving from where the person
 * stands (the decisions so far kept, drvm_explore's prefix), each outcome
 * and race with a witness that `witness N` follows (repl_move.c). */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explore.h"
#include "repl.h"

void repl_explore_free(Repl *r) {
  Explore *x = r->explored;
  if (!x) return;
  for (int i = 0; i < x->nouts; i++)
    if (x->outs[i].witness) unlink(x->outs[i].witness);
  for (int i = 0; i < x->nraces; i++)
    if (x->races[i].witness) unlink(x->races[i].witness);
  if (x->dir) rmdir(x->dir);
  free((char *)x->dir);
  explore_free(x);
  free(x);
  r->explored = NULL;
}

const char *repl_witness(Repl *r, bool race, int n, uint64_t *decisions) {
  Explore *x = r->explored;
  if (!x) {
    repl_err(r, "no exploration yet: explore first");
    return NULL;
  }
  if (n > (race ? x->nraces : x->nouts)) {
    int have = race ? x->nraces : x->nouts;
    repl_err(r, "the last explore found %d %s%s", have, race ? "race" : "outcome", have == 1 ? "" : "s");
    return NULL;
  }
  *decisions = race ? x->races[n - 1].decisions : x->outs[n - 1].decisions;
  return race ? x->races[n - 1].witness : x->outs[n - 1].witness;
}

/* "optimal", "none", a number K: the reduction and the preemption bound. */
static bool parse_args(Repl *r, char **argv, int argc, DrvmExploreConfig *c) {
  for (int i = 1; i < argc; i++) {
    bool known = false;
    for (int p = 0; p < DRVM_POR__COUNT && !known; p++)
      if (!strcmp(argv[i], drvm_por_word((DrvmPor)p))) c->por = (DrvmPor)p, known = true;
    uint64_t k;
    if (!known && repl_number(argv[i], 1000000, &k)) c->preemptions = (int)k, known = true;
    if (!known) {
      repl_err(r, "explore [optimal|source|none] [K]: K is a preemption bound, not '%s'", argv[i]);
      return false;
    }
  }
  return true;
}

/* A fresh VM of the session's program whose output goes to x. */
static DrVM *new_vm(Repl *r, Explore *x) {
  char err[512];
  DrVM *vm = explore_new_vm(x, &r->o, err, sizeof err);
  if (!vm) {
    repl_err(r, "%s", err);
    return NULL;
  }
  if (!dr_prog_compile(vm, &r->files)) {
    repl_err(r, "%s", drvm_error(vm));
    drvm_free(vm);
    return NULL;
  }
  return vm;
}

/* Text on one line: "got 1 | got 2". */
static void one_line(DrBuf *b, const char *text) {
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, "\n");
    dr_buf_printf(b, "%s%.*s", p == text ? "" : " | ", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

static void show(Repl *r, const Explore *x) {
  const DrvmExploreStats *s = &x->st;
  char took[32] = ""; /* at a terminal only: a transcript stays the same */
  if (r->tty) snprintf(took, sizeof took, " (%.2f s)", x->seconds);
  repl_say(r, "explored from #%llu: %llu executions, %llu %s, %s%s", (unsigned long long)r->cur->pos,
           (unsigned long long)s->executions, (unsigned long long)s->traces,
           x->cfg.por == DRVM_POR_NONE ? "interleavings" : "traces",
           s->complete ? "complete" : x->stopped_by ? x->stopped_by : s->cut ? "INCOMPLETE (the preemption bound cut it)"
                                                                             : "INCOMPLETE",
           took);
  for (int i = 0; i < x->nouts; i++) {
    const ExOutcome *o = &x->outs[i];
    DrBuf b = {0};
    dr_buf_printf(&b, "  outcome %d (%llu execution%s, witness %d preemption%s): ", i + 1,
                  (unsigned long long)o->count, o->count == 1 ? "" : "s", o->preemptions, o->preemptions == 1 ? "" : "s");
    if (o->kind == DRVM_OUTCOME_DEADLOCK) dr_buf_append_str(&b, "deadlock; ");
    else if (o->kind == DRVM_OUTCOME_EXCEPTION) dr_buf_append_str(&b, "an exception escaped; ");
    else if (o->kind == DRVM_OUTCOME_STEP_LIMIT) dr_buf_append_str(&b, "--max-steps reached; ");
    else if (o->kind == DRVM_OUTCOME_EXIT) dr_buf_printf(&b, "System.exit(%d); ", o->status);
    if (o->uncaught && o->kind != DRVM_OUTCOME_EXCEPTION)
      dr_buf_printf(&b, "an exception escaped %d thread%s; ", o->uncaught, o->uncaught == 1 ? "" : "s");
    if (*o->out) one_line(&b, o->out);
    else dr_buf_append_str(&b, "(no output)");
    repl_say(r, "%s", b.data);
    free(b.data);
  }
  for (int i = 0; i < x->nraces; i++)
    repl_say(r, "  race %d: %s (in %llu execution%s)", i + 1, x->races[i].location,
             (unsigned long long)x->races[i].count, x->races[i].count == 1 ? "" : "s");
  if (x->nouts) repl_say(r, "witness N follows outcome N from here (witness race N: race N's)");
}

void repl_cmd_explore(Repl *r, char **argv, int argc) {
  if (!r->cur->at_decision) {
    repl_err(r, "the run is over: explore works from a decision (back, goto)");
    return;
  }
  Explore *x = dr_xcalloc(1, sizeof *x);
  drvm_explore_config_init(&x->cfg);
  if (!parse_args(r, argv, argc, &x->cfg) || !repl_tmpdir(r)) {
    free(x);
    return;
  }
  x->prog = r->o.prog;
  x->prog_words = dr_prog_words(&r->o);
  x->args = r->o.args;
  x->nargs = r->o.nargs;
  x->seed = r->seed;
  x->cfg.detector = dr_ro_get(&r->o, DR_RO_DETECTOR);
  x->cfg.record = true;
  x->cfg.points = DRVM_POINT_CALL; /* the REPL's decisions: the prefix fits them */
  x->cfg.prefix_from = r->cur->vm;
  x->cfg.prefix_len = r->cur->pos;
  x->progress = r->tty;
  x->stop = r->interrupted;
  *r->interrupted = 0;
  char *dir = dr_fmt("%s/explore%d", r->tmpdir, ++r->nexplores);
  x->dir = dir;
  DrVM *vm = mkdir(dir, 0700) == 0 ? new_vm(r, x) : NULL;
  bool ok = vm && explore_run(x, vm);
  if (vm && !ok) repl_err(r, "%s", x->error);
  drvm_free(vm);
  if (!ok) {
    rmdir(dir);
    explore_free(x);
    free(dir);
    free(x);
    return;
  }
  repl_explore_free(r);
  r->explored = x;
  show(r, x);
}
