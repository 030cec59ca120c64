/* What `drvm explore` found, as text for people and as JSON for scripts
 * (the schema is in docs/explore.md). */
#include <string.h>

#include "../vm/buf.h"
#include "../vm/json.h"
#include "explore.h"

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }
static char *ending_kind(const ExOutcome *o);

char *explore_replay_command(const Explore *x, const char *witness) {
  DrBuf b = {0};
  dr_buf_append_str(&b, "drvm run --replay");
  dr_buf_append_shell_arg(&b, witness);
  dr_buf_printf(&b, " %s", x->prog_words);
  for (int i = 0; i < x->nargs; i++) dr_buf_append_shell_arg(&b, x->args[i]);
  return b.data;
}

/* How an outcome ended, in words. */
static char *ending(const ExOutcome *o) {
  if (o->uncaught && o->kind != DRVM_OUTCOME_EXCEPTION) {
    char *how = ending_kind(o);
    char *s = dr_fmt("%s, after an exception escaped %d thread%s", how, o->uncaught, o->uncaught == 1 ? "" : "s");
    free(how);
    return s;
  }
  return ending_kind(o);
}

static char *ending_kind(const ExOutcome *o) {
  switch (o->kind) {
  case DRVM_OUTCOME_NORMAL: return dr_strdup("ended normally");
  case DRVM_OUTCOME_EXIT: return dr_fmt("System.exit(%d)", o->status);
  case DRVM_OUTCOME_EXCEPTION: return dr_strdup("an exception escaped main (exit 1)");
  case DRVM_OUTCOME_DEADLOCK: return dr_strdup("deadlock");
  case DRVM_OUTCOME_STEP_LIMIT: return dr_strdup("--max-steps reached (a livelock, or a long run)");
  default: return dr_fmt("%s (exit %d)", drvm_outcome_word(o->kind), o->status);
  }
}

/* Text as an indented block, "(none)" when empty. */
static void block(FILE *out, const char *label, const char *text) {
  if (!*text) {
    fprintf(out, "    %s: (none)\n", label);
    return;
  }
  fprintf(out, "    %s:\n", label);
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, "\n");
    fprintf(out, "      | %.*s\n", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

static void witness_line(const Explore *x, FILE *out, const char *path, int preemptions, uint64_t decisions,
                         const char *timeline) {
  char *cmd = explore_replay_command(x, path);
  fprintf(out, "    witness: %d preemption%s, %llu decision%s: %s\n", preemptions, plural((uint64_t)preemptions),
          (unsigned long long)decisions, plural(decisions), cmd);
  if (timeline) fprintf(out, "    timeline: %s\n", timeline);
  free(cmd);
}

/* Whether the search covered every trace, and if not, what cut it. */
static void coverage(const Explore *x, FILE *out) {
  const DrvmExploreStats *s = &x->st;
  if (s->complete) {
    fprintf(out, "  complete: every %s was explored\n", x->cfg.por == DRVM_POR_NONE ? "interleaving" : "trace");
    return;
  }
  fputs("  INCOMPLETE: some executions were not explored:\n", out);
  if (x->stopped_by) fprintf(out, "    %s stopped the search before its end\n", x->stopped_by);
  if (s->cut)
    fprintf(out, "    the preemption bound (--preemptions %d) cut %llu branch%s\n", x->cfg.preemptions,
            (unsigned long long)s->cut, s->cut == 1 ? "" : "es");
  if (s->step_limited)
    fprintf(out, "    %llu execution%s hit --max-steps: what follows in them was not explored\n",
            (unsigned long long)s->step_limited, plural(s->step_limited));
}

void explore_print(const Explore *x, FILE *out) {
  const DrvmExploreStats *s = &x->st;
  if (x->cfg.por == DRVM_POR_NONE) fprintf(out, "drvm explore %s (no reduction)\n", x->prog);
  else fprintf(out, "drvm explore %s (%s DPOR)\n", x->prog, drvm_por_word(x->cfg.por));
  const char *unit = x->cfg.por == DRVM_POR_NONE ? "interleaving" : "trace";
  fprintf(out, "  %llu execution%s: %llu %s%s, %llu abandoned as redundant (sleep sets)", (unsigned long long)s->executions,
          plural(s->executions), (unsigned long long)s->traces, unit, plural(s->traces), (unsigned long long)s->blocked);
  if (s->bounded) fprintf(out, ", %llu stopped by the preemption bound", (unsigned long long)s->bounded);
  fprintf(out, ", %.2f s\n", x->seconds);
  coverage(x, out);
  fprintf(out, "\n%d distinct outcome%s:\n", x->nouts, plural((uint64_t)x->nouts));
  for (int i = 0; i < x->nouts; i++) {
    const ExOutcome *o = &x->outs[i];
    char *how = ending(o);
    fprintf(out, "  outcome %d: %s, in %llu execution%s\n", i + 1, how, (unsigned long long)o->count, plural(o->count));
    free(how);
    block(out, "stdout", o->out);
    if (*o->err) block(out, "stderr", o->err);
    witness_line(x, out, o->witness, o->preemptions, o->decisions, o->timeline);
  }
  if (x->cfg.detector && !strcmp(x->cfg.detector, "none")) return;
  fprintf(out, "\n%d data race%s in the explored executions%s\n", x->nraces, plural((uint64_t)x->nraces),
          x->nraces ? ":" : ".");
  for (int i = 0; i < x->nraces; i++) {
    const ExRace *r = &x->races[i];
    fprintf(out, "  race %d: %s, in %llu execution%s\n", i + 1, r->location, (unsigned long long)r->count,
            plural(r->count));
    for (const char *p = r->text; *p;) {
      size_t n = strcspn(p, "\n");
      if (n && strncmp(p, "=====", 5) != 0 && strncmp(p, "WARNING:", 8) != 0 && strncmp(p, "Replay:", 7) != 0 &&
          strncmp(p, "SUMMARY:", 8) != 0)
        fprintf(out, "      %.*s\n", (int)n, p);
      p += n + (p[n] == '\n');
    }
    witness_line(x, out, r->witness, r->preemptions, r->decisions, r->timeline);
  }
}

int explore_status(const Explore *x) {
  int worst = 0;
  for (int i = 0; i < x->nouts; i++) {
    DrvmOutcome k = x->outs[i].kind;
    int st = k == DRVM_OUTCOME_EXCEPTION || x->outs[i].uncaught ? DRVM_EXIT_EXCEPTION
             : k == DRVM_OUTCOME_DEADLOCK ? DRVM_EXIT_DEADLOCK
             : k == DRVM_OUTCOME_STEP_LIMIT ? DRVM_EXIT_STEPS
                                            : 0;
    if (st && (!worst || st < worst)) worst = st;
  }
  if (!worst && x->nraces) worst = DRVM_EXIT_RACES;
  return worst;
}

bool explore_write_json(const Explore *x, const char *path, char *err, size_t errsize) {
  const DrvmExploreStats *s = &x->st;
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_str(&w, "program", x->prog);
  dr_jw_str(&w, "por", drvm_por_word(x->cfg.por));
  dr_jw_int(&w, "preemption_bound", x->cfg.preemptions);
  dr_jw_uint(&w, "executions", s->executions);
  dr_jw_uint(&w, "traces", s->traces);
  dr_jw_uint(&w, "blocked", s->blocked);
  dr_jw_uint(&w, "bounded", s->bounded);
  dr_jw_uint(&w, "cut", s->cut);
  dr_jw_uint(&w, "step_limited", s->step_limited);
  dr_jw_bool(&w, "complete", s->complete);
  dr_jw_str(&w, "stopped_by", x->stopped_by);
  dr_jw_fixed(&w, "seconds", x->seconds, 3);
  dr_jw_begin(&w, "outcomes", '[');
  for (int i = 0; i < x->nouts; i++) {
    const ExOutcome *o = &x->outs[i];
    dr_jw_begin(&w, NULL, '{');
    dr_jw_str(&w, "outcome", drvm_outcome_word(o->kind));
    dr_jw_int(&w, "exit_status", o->status);
    dr_jw_int(&w, "uncaught", o->uncaught);
    dr_jw_str(&w, "stdout", o->out);
    dr_jw_str(&w, "stderr", o->err);
    dr_jw_uint(&w, "count", o->count);
    dr_jw_str(&w, "witness", o->witness);
    if (o->timeline) dr_jw_str(&w, "timeline", o->timeline);
    dr_jw_int(&w, "preemptions", o->preemptions);
    dr_jw_uint(&w, "decisions", o->decisions);
    dr_jw_end(&w, '}');
  }
  dr_jw_end(&w, ']');
  dr_jw_begin(&w, "races", '[');
  for (int i = 0; i < x->nraces; i++) {
    const ExRace *r = &x->races[i];
    dr_jw_begin(&w, NULL, '{');
    dr_jw_str(&w, "location", r->location);
    dr_jw_uint(&w, "count", r->count);
    dr_jw_str(&w, "witness", r->witness);
    if (r->timeline) dr_jw_str(&w, "timeline", r->timeline);
    dr_jw_int(&w, "preemptions", r->preemptions);
    dr_jw_uint(&w, "decisions", r->decisions);
    dr_jw_str(&w, "report", r->text);
    dr_jw_end(&w, '}');
  }
  dr_jw_end(&w, ']');
  goal_explore_json(x, &w);
  dr_jw_end(&w, '}');
  dr_buf_append_str(&w.buf, "\n");
  FILE *f = fopen(path, "w");
  bool ok = f != NULL;
  if (f) {
    fwrite(w.buf.data, 1, w.buf.len, f);
    ok = fclose(f) == 0;
  }
  if (!ok) snprintf(err, errsize, "cannot write %s", path);
  free(w.buf.data);
  return ok;
}
