/* Writing `drvm run`'s options back (options.h): as the command that
 * reruns a run, as a child's argv, and as the registries' "key=value"
 * option text. */
#include <string.h>

#include "../vm/buf.h"
#include "options.h"

/* Whether the rerun command writes row id of o (a run as it ran). */
static bool rerun_writes(const DrRunOpts *o, DrRoId id, const DrRerun *rr, bool replaying) {
  const DrRoRow *r = dr_ro_row(id);
  switch (r->rerun) {
  case DR_RR_NO: return false;
  case DR_RR_YES:
  case DR_RR_REPLAY: return dr_ro_given(o, id);
  case DR_RR_SCHED: return !replaying && dr_ro_given(o, id);
  case DR_RR_REGISTRY: {
    const DrvmEntry *e = dr_ro_entry(id);
    return e && e->rerun && dr_ro_given(o, id) && !(replaying && r->to == DR_TO_SCHED);
  }
  case DR_RR_SEED: return !replaying;
  case DR_RR_ATTEMPT: return !replaying && rr->attempt > 0;
  }
  return false;
}

/* Appends one value of row id as typed. */
static void write_value(DrRoId id, const char *v, bool rerun, DrArgv *out) {
  const DrRoRow *r = dr_ro_row(id);
  switch (r->value.kind) {
  case DR_V_FLAG: dr_argv_add(out, r->name); return;
  case DR_V_OPT_FILE:
    if (*v) dr_argv_addf(out, "%s=%s", r->name, v);
    else dr_argv_add(out, r->name);
    return;
  case DR_V_KEYED:
    dr_argv_add(out, r->name);
    dr_argv_addf(out, "%s=%s", r->key, v);
    return;
  case DR_V_PROB:
    dr_argv_add(out, r->name);
    /* what people read: the shortest form (a child gets the digits given) */
    if (rerun) dr_argv_addf(out, "%g", strtod(v, NULL));
    else dr_argv_add(out, v);
    return;
  default:
    dr_argv_add(out, r->name);
    dr_argv_add(out, v);
  }
}

void dr_ro_write(const DrRunOpts *o, const DrRerun *rerun, DrArgv *out) {
  bool replaying = dr_ro_given(o, DR_RO_REPLAY);
  for (int i = 0; i < DR_RO__COUNT; i++) {
    DrRoId id = (DrRoId)i;
    const DrRoRow *r = dr_ro_row(id);
    if (rerun && !rerun_writes(o, id, rerun, replaying)) continue;
    if (rerun && r->rerun == DR_RR_SEED) {
      char num[32];
      snprintf(num, sizeof num, "%llu", (unsigned long long)rerun->seed);
      write_value(id, num, true, out);
    } else if (rerun && r->rerun == DR_RR_ATTEMPT) {
      char num[32];
      snprintf(num, sizeof num, "%d", rerun->attempt);
      write_value(id, num, true, out);
    } else {
      for (int k = 0; k < o->val[id].n; k++) {
        const char *v = o->val[id].v[k];
        /* the default goes without saying in a rerun */
        if (rerun && r->value.def && !strcmp(v, r->value.def)) continue;
        write_value(id, v, rerun != NULL, out);
      }
    }
  }
  for (int i = 0; i < o->progs.n; i++) dr_argv_add(out, o->progs.v[i]);
  /* a rerun shows the arguments as Java does, right after the program
   * (run takes them so); a child gets them after "--", whatever they are */
  if (!rerun && o->nargs) dr_argv_add(out, "--");
  for (int i = 0; i < o->nargs; i++) dr_argv_add(out, o->args[i]);
}

char *dr_ro_command(const DrRunOpts *o, const DrRerun *rerun) {
  DrArgv a = {0};
  dr_ro_write(o, rerun, &a);
  DrBuf b = {0};
  dr_buf_append_str(&b, "drvm run");
  for (int i = 0; i < a.n; i++) dr_buf_append_shell_arg(&b, a.v[i]);
  dr_argv_free(&a);
  return b.data;
}

/* Appends "key=value" (or "key" for a flag) with the value's spaces,
 * commas and backslashes escaped, as drvm_set_scheduler reads them. */
void dr_ro_option_item(DrBuf *b, const char *key, const char *v) {
  if (b->len) dr_buf_append(b, " ", 1);
  dr_buf_append_str(b, key);
  if (!v) return;
  dr_buf_append(b, "=", 1);
  for (const char *p = v; *p; p++) {
    if (*p == ' ' || *p == ',' || *p == '\\') dr_buf_append(b, "\\", 1);
    dr_buf_append(b, p, 1);
  }
}

/* The options of o going to the scheduler or (det) detector `owner`;
 * *refused: the first one it does not take. */
static char *registry_options(const DrRunOpts *o, bool det, const char *owner, const char *more, DrRoId *refused) {
  DrBuf b = {0};
  for (int i = 0; i < DR_RO__COUNT; i++) {
    DrRoId id = (DrRoId)i;
    const DrRoRow *r = dr_ro_row(id);
    const DrvmEntry *e = dr_ro_entry(id);
    if (r->to != (det ? DR_TO_DET : DR_TO_SCHED) || !e || !dr_ro_given(o, id)) continue;
    /* a command line may carry options of schedulers it did not choose
     * (a test file's, run under every scheduler): left out, not refused */
    if (!dr_ro_applies(e->applies, owner)) {
      if (refused && *refused == DR_RO__COUNT) *refused = id;
      continue;
    }
    dr_ro_option_item(&b, r->key, r->value.kind == DR_V_FLAG ? NULL : dr_ro_get(o, id));
  }
  if (more && *more) dr_buf_printf(&b, "%s%s", b.len ? " " : "", more);
  return b.data;
}

char *dr_ro_sched_options(const DrRunOpts *o, const char *sched, const char *more) {
  return registry_options(o, false, sched, more, NULL);
}

char *dr_ro_det_options(const DrRunOpts *o, const char *det, DrRoId *refused) {
  *refused = DR_RO__COUNT;
  char *text = registry_options(o, true, det, NULL, refused);
  bool known = false;
  for (int i = 0; i < drvm_detector_count(); i++) known = known || !strcmp(drvm_detector_entry(i)->name, det);
  if (!known) *refused = DR_RO__COUNT; /* drvm_set_detector names the detectors there are */
  return text;
}
