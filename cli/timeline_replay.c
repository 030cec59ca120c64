/* Timelines of recorded runs: explore's outcomes and races, hunt's
 * witnesses.  Each recording is replayed in a fresh VM that draws it;
 * the replay's own output and reports go only into the picture. */
#include <string.h>

#include "timeline.h"
#include "program.h"

static void discard(void *user, const char *text, size_t len) { (void)user, (void)text, (void)len; }

char *dr_tl_nth_name(const char *value, const char *what, int n) {
  if (!strcmp(value, "text")) return dr_strdup(value);
  const char *dot = strrchr(value, '.');
  const char *slash = strrchr(value, '/');
  if (!dot || (slash && dot < slash)) dot = value + strlen(value);
  DrBuf b = {0};
  dr_buf_append(&b, value, (size_t)(dot - value));
  dr_buf_printf(&b, "-%s-%d%s", what, n, dot);
  return b.data;
}

/* Replays rec with tl listening; the outcome's word, or NULL after
 * saying why. */
static const char *replay_into(DrTimeline *tl, const DrRunOpts *o, const char *rec) {
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  dr_ro_vm_config(o, &cfg);
  cfg.write_out = cfg.write_err = discard;
  dr_tl_config(tl, &cfg);
  char err[600];
  DrVM *vm = drvm_new(&cfg, err, sizeof err);
  if (!vm) {
    fprintf(stderr, "drvm: %s\n", err);
    return NULL;
  }
  uint64_t seed;
  DrvmResult res;
  const char *outcome = NULL;
  DrProgFiles files;
  bool ok = dr_prog_read(o, "drvm", &files) && dr_prog_compile(vm, &files) && drvm_replay(vm, rec, false, &seed) &&
            drvm_set_detector(vm, dr_ro_get(o, DR_RO_DETECTOR), "quiet") && dr_tl_attach(tl, vm) &&
            drvm_run(vm, o->nargs, (const char *const *)o->args, &res) >= 0;
  if (ok) {
    outcome = drvm_outcome_word(res.outcome);
    dr_tl_finish(tl, vm, outcome);
  } else {
    fprintf(stderr, "drvm: cannot draw %s: %s\n", rec, drvm_error(vm));
  }
  dr_prog_free(&files);
  drvm_free(vm);
  return outcome;
}

bool dr_tl_draw_recording(const DrRunOpts *o, const char *rec, const char *value, const char *title) {
  DrTimeline *tl = dr_tl_new(DR_TL_LIMIT);
  DrBuf cmd = {0};
  dr_buf_append_str(&cmd, "drvm run --replay ");
  dr_buf_append_shell_arg(&cmd, rec);
  char *words = dr_prog_words(o);
  dr_buf_printf(&cmd, " %s", words);
  free(words);
  dr_tl_set_titles(tl, o->prog, title, cmd.data);
  free(cmd.data);
  bool ok = replay_into(tl, o, rec) != NULL;
  if (ok && !strcmp(value, "text")) printf("\n%s:\n", title);
  char err[600];
  if (ok && !(ok = dr_tl_write(tl, value, err, sizeof err))) fprintf(stderr, "drvm: %s\n", err);
  dr_tl_free(tl);
  return ok;
}
