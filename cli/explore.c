/* `drvm explore` (explore.h): the options, the loop over the library's
 * executions, and what each one adds to the outcomes and races found. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../vm/buf.h"
#include "explore.h"
#include "program.h"
#include "goal.h"
#include "timeline.h"
#include "help.h"

static void capture_out(void *user, const char *text, size_t len) { dr_buf_append(&((Explore *)user)->out, text, len); }
static void capture_err(void *user, const char *text, size_t len) { dr_buf_append(&((Explore *)user)->err, text, len); }

DrVM *explore_new_vm(Explore *x, const DrRunOpts *o, char *err, size_t errsize) {
  DrvmConfig c;
  drvm_config_init(&c);
  dr_ro_vm_config(o, &c);
  c.seed = x->seed;
  c.write_out = capture_out;
  c.write_err = capture_err;
  c.write_user = x;
  return drvm_new(&c, err, errsize);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t hash_text(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
  return h;
}

static const char *buf_text(const DrBuf *b) { return b->len ? b->data : ""; }

/* ------------------------------------------------------------ witnesses */

/* Whether an execution with p preemptions and d decisions is a shorter
 * witness than the one kept (fewest preemptions, then fewest decisions). */
static bool shorter(int p, uint64_t d, int bp, uint64_t bd) { return p < bp || (p == bp && d < bd); }

static bool save_witness(Explore *x, DrVM *vm, char **path, const char *what, int n) {
  if (!*path) *path = dr_fmt("%s/%s-%d.rec", x->dir, what, n);
  if (drvm_save_decisions(vm, *path)) return true;
  snprintf(x->error, sizeof x->error, "%s", drvm_error(vm)); /* it names the file */
  return false;
}

/* ------------------------------------------------------------ what an execution showed */

/* The program's own ending: a race found does not change it. */
static DrvmOutcome program_outcome(const DrvmResult *r, int *status) {
  *status = r->exit_status;
  if (r->outcome == DRVM_OUTCOME_RACES || (r->outcome == DRVM_OUTCOME_ERROR && r->exit_status == DRVM_EXIT_RACES)) {
    *status = 0;
    return DRVM_OUTCOME_NORMAL;
  }
  return r->outcome;
}

/* A deadlock's thread dump names the step and virtual time it came at:
 * deadlocks that differ only there are one outcome. */
static void drop_dump_time(DrBuf *err) {
  char *p = err->len ? strstr(err->data, "Full thread dump (drvm, virtual time ") : NULL;
  if (!p) return;
  char *end = strstr(p, "):\n");
  if (!end) return;
  static const char plain[] = "Full thread dump (drvm";
  size_t from = (size_t)(p - err->data) + sizeof plain - 1, to = (size_t)(end - err->data);
  memmove(err->data + from, err->data + to, err->len - to + 1);
  err->len -= to - from;
}

static bool add_outcome(Explore *x, DrVM *vm, const DrvmResult *r) {
  int status;
  DrvmOutcome kind = program_outcome(r, &status);
  drop_dump_time(&x->err);
  uint64_t h = hash_text(0xcbf29ce484222325u ^ (uint64_t)kind, buf_text(&x->out), x->out.len);
  h = hash_text(h ^ (uint64_t)status * 31, buf_text(&x->err), x->err.len);
  ExOutcome *o = NULL;
  for (int i = 0; i < x->nouts && !o; i++) {
    ExOutcome *c = &x->outs[i];
    if (c->hash == h && c->kind == kind && c->status == status && !strcmp(c->out, buf_text(&x->out)) &&
        !strcmp(c->err, buf_text(&x->err)))
      o = c;
  }
  if (!o) {
    if (x->nouts == x->outs_cap) {
      x->outs_cap = x->outs_cap ? x->outs_cap * 2 : 16;
      x->outs = dr_xrealloc(x->outs, sizeof *x->outs * (size_t)x->outs_cap);
    }
    o = &x->outs[x->nouts++];
    memset(o, 0, sizeof *o);
    o->out = dr_strdup(buf_text(&x->out));
    o->err = dr_strdup(buf_text(&x->err));
    o->kind = kind;
    o->status = status;
    o->uncaught = r->uncaught;
    o->hash = h;
    o->preemptions = x->st.last_preemptions + 1; /* any witness is shorter */
  }
  o->count++;
  if (!shorter(x->st.last_preemptions, x->st.last_decisions, o->preemptions, o->decisions)) return true;
  o->preemptions = x->st.last_preemptions;
  o->decisions = x->st.last_decisions;
  return save_witness(x, vm, &o->witness, "outcome", (int)(o - x->outs) + 1);
}

/* The first "    at " line after from in a race report: an access's place. */
static char *site_after(const char *text, const char *from) {
  const char *p = from ? strstr(text, from) : text;
  p = p ? strstr(p, "\n    at ") : NULL;
  if (!p) return dr_strdup("?");
  p += 8;
  return dr_strndup(p, strcspn(p, "\n"));
}

/* A race is its location and its two places, in either order: the same
 * race seen from the other side in another interleaving is one race. */
static char *race_key(const DrvmRace *r) {
  char *a = site_after(r->text, NULL), *b = site_after(r->text, "\nPrevious ");
  char *k = strcmp(a, b) <= 0 ? dr_fmt("%s|%s|%s", r->location, a, b) : dr_fmt("%s|%s|%s", r->location, b, a);
  free(a);
  free(b);
  return k;
}

static bool add_races(Explore *x, DrVM *vm) {
  int n = drvm_race_count(vm);
  for (int i = 0; i < n; i++) {
    DrvmRace r;
    /* a wcp prediction is some other execution's race: the search runs
     * that execution itself, where the race is seen */
    if (!drvm_race(vm, i, &r) || r.predicted) continue;
    char *key = race_key(&r);
    ExRace *e = NULL;
    for (int k = 0; k < x->nraces && !e; k++)
      if (!strcmp(x->races[k].key, key)) e = &x->races[k];
    if (!e) {
      if (x->nraces == x->races_cap) {
        x->races_cap = x->races_cap ? x->races_cap * 2 : 16;
        x->races = dr_xrealloc(x->races, sizeof *x->races * (size_t)x->races_cap);
      }
      e = &x->races[x->nraces++];
      memset(e, 0, sizeof *e);
      e->key = key;
      e->location = dr_strdup(r.location);
      e->preemptions = x->st.last_preemptions + 1;
    } else {
      free(key);
    }
    if (e->seen_in == x->st.executions) continue;
    e->seen_in = x->st.executions;
    e->count++;
    if (!shorter(x->st.last_preemptions, x->st.last_decisions, e->preemptions, e->decisions)) continue;
    free(e->text);
    e->text = dr_strdup(r.text);
    e->preemptions = x->st.last_preemptions;
    e->decisions = x->st.last_decisions;
    if (!save_witness(x, vm, &e->witness, "race", (int)(e - x->races) + 1)) return false;
  }
  return true;
}

/* ------------------------------------------------------------ the loop */

static void show_progress(const Explore *x, double elapsed, bool last) {
  if (!x->progress) return;
  if (last) {
    fputs("\r\033[K", stderr);
    return;
  }
  double rate = elapsed > 0 ? (double)x->st.executions / elapsed : 0;
  fprintf(stderr, "\r\033[K  %llu executions, %llu traces, %d outcome%s, %d race%s, %.0f/s, %.1f s",
          (unsigned long long)x->st.executions, (unsigned long long)x->st.traces, x->nouts, x->nouts == 1 ? "" : "s",
          x->nraces, x->nraces == 1 ? "" : "s", rate, elapsed);
  fflush(stderr);
}

bool explore_run(Explore *x, DrVM *vm) {
  if (!drvm_explore(vm, &x->cfg)) {
    snprintf(x->error, sizeof x->error, "%s", drvm_error(vm));
    return false;
  }
  double start = now_s(), shown = start;
  int st;
  bool ok = true;
  while (ok) {
    x->out.len = x->err.len = 0;
    if (x->max_executions && x->st.executions >= x->max_executions) {
      x->stopped_by = "--max-executions";
      break;
    }
    st = drvm_explore_next(vm, x->nargs, (const char *const *)x->args);
    if (st < 0) {
      snprintf(x->error, sizeof x->error, "%s", drvm_error(vm));
      ok = false;
      break;
    }
    if (st == 0) break;
    drvm_explore_stats(vm, &x->st);
    if (x->fingerprints && !x->st.last_blocked)
      fprintf(x->fingerprints, "%016llx\n", (unsigned long long)drvm_explore_fingerprint(vm));
    if (!x->st.last_blocked) {
      ok = add_races(x, vm);
      DrvmResult r;
      drvm_finish(vm, &r);
      ok = ok && add_outcome(x, vm, &r);
    }
    double t = now_s();
    if (x->time_limit > 0 && t - start >= x->time_limit) x->stopped_by = "--time";
    if (x->stop && *x->stop) x->stopped_by = "Ctrl-C";
    if (t - shown >= 0.2) {
      show_progress(x, t - start, false);
      shown = t;
    }
    if (x->stopped_by) break;
  }
  drvm_explore_stats(vm, &x->st);
  x->seconds = now_s() - start;
  show_progress(x, x->seconds, true);
  return ok;
}

void explore_free(Explore *x) {
  free(x->prog_words);
  x->prog_words = NULL;
  for (int i = 0; i < x->nouts; i++) {
    free(x->outs[i].out);
    free(x->outs[i].err);
    free(x->outs[i].witness);
    free(x->outs[i].timeline);
  }
  for (int i = 0; i < x->nraces; i++) {
    free(x->races[i].key);
    free(x->races[i].location);
    free(x->races[i].text);
    free(x->races[i].witness);
    free(x->races[i].timeline);
  }
  free(x->outs);
  free(x->races);
  free(x->out.data);
  free(x->err.data);
}

/* ------------------------------------------------------------ the command */

/* "30", "30s", "5m", "1h": seconds, or -1. */
static double parse_time(const char *s) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || v <= 0) return -1;
  if (!strcmp(end, "") || !strcmp(end, "s")) return v;
  if (!strcmp(end, "m")) return v * 60;
  if (!strcmp(end, "h")) return v * 3600;
  return -1;
}

static bool parse_por(const char *word, DrvmPor *por) {
  for (int i = 0; i < DRVM_POR__COUNT; i++)
    if (!strcmp(word, drvm_por_word((DrvmPor)i))) {
      *por = (DrvmPor)i;
      return true;
    }
  return false;
}

/* PROG.explore for prog.dl, in the current directory. */
static char *default_dir(const char *prog) {
  const char *base = strrchr(prog, '/');
  base = base ? base + 1 : prog;
  size_t n = strlen(base);
  if (n > 3 && !strcmp(base + n - 3, ".dl")) n -= 3;
  return dr_fmt("%.*s.explore", (int)n, base);
}

/* The witness directory, made if needed, emptied of old witnesses. */
static bool prepare_dir(const char *dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "drvm: cannot make %s: %s\n", dir, strerror(errno));
    return false;
  }
  for (int i = 1;; i++) {
    char *a = dr_fmt("%s/outcome-%d.rec", dir, i), *b = dr_fmt("%s/race-%d.rec", dir, i);
    bool any = unlink(a) == 0;
    any = (unlink(b) == 0) || any;
    free(a);
    free(b);
    if (!any) break;
  }
  return true;
}

static int usage_checks(Explore *x, const DrRunOpts *o) {
  DrTlFormat f;
  char err[300];
  if (dr_ro_given(o, DR_RO_TIMELINE) && !dr_tl_format_of(dr_ro_get(o, DR_RO_TIMELINE), &f, err, sizeof err))
    return dr_usage_error("%s", err);
  if (!parse_por(dr_ro_get(o, DR_RO_POR), &x->cfg.por))
    return dr_usage_error("--por takes optimal, source or none, not '%s'", dr_ro_get(o, DR_RO_POR));
  if (dr_ro_given(o, DR_RO_TIME) && (x->time_limit = parse_time(dr_ro_get(o, DR_RO_TIME))) < 0)
    return dr_usage_error("--time takes a duration such as 30, 30s, 5m or 1h, not '%s'", dr_ro_get(o, DR_RO_TIME));
  return 0;
}

/* --timeline: each outcome's and each race's witness drawn, as files
 * before the report names them, or as text after it (text_pass). */
static bool draw_timelines(Explore *x, const DrRunOpts *o, bool text_pass) {
  const char *value = dr_ro_get(o, DR_RO_TIMELINE);
  if (!value || (strcmp(value, "text") == 0) != text_pass) return true;
  char title[64];
  for (int i = 0; i < x->nouts; i++) {
    char *name = dr_tl_nth_name(value, "outcome", i + 1);
    snprintf(title, sizeof title, "outcome %d", i + 1);
    if (!dr_tl_draw_recording(o, x->outs[i].witness, name, title)) return free(name), false;
    if (text_pass) free(name);
    else x->outs[i].timeline = name;
  }
  for (int i = 0; i < x->nraces; i++) {
    char *name = dr_tl_nth_name(value, "race", i + 1);
    snprintf(title, sizeof title, "race %d: %s", i + 1, x->races[i].location);
    if (!dr_tl_draw_recording(o, x->races[i].witness, name, title)) return free(name), false;
    if (text_pass) free(name);
    else x->races[i].timeline = name;
  }
  return true;
}

static int explore_program(Explore *x, const DrRunOpts *o) {
  char err[512];
  DrVM *vm = explore_new_vm(x, o, err, sizeof err);
  if (!vm) {
    fprintf(stderr, "drvm: %s\n", err);
    return DRVM_EXIT_USAGE;
  }
  DrProgFiles files;
  bool compiled = dr_prog_read(o, "drvm", &files) && dr_prog_compile(vm, &files);
  dr_prog_free(&files);
  if (!compiled) {
    int status = drvm_diag_count(vm) ? DRVM_EXIT_COMPILE : DRVM_EXIT_USAGE;
    if (drvm_diag_count(vm)) drvm_print_diags(vm, stderr);
    else fprintf(stderr, "drvm: %s\n", drvm_error(vm));
    drvm_free(vm);
    return status;
  }
  if (!prepare_dir(x->dir)) { /* only for a program that compiles */
    drvm_free(vm);
    return DRVM_EXIT_USAGE;
  }
  bool ok = explore_run(x, vm);
  drvm_free(vm);
  if (!ok) {
    fprintf(stderr, "drvm: %s\n", x->error);
    return DRVM_EXIT_USAGE;
  }
  if (!draw_timelines(x, o, false)) return DRVM_EXIT_USAGE;
  explore_print(x, stdout);
  goal_explore_print(x, stdout);
  if (!draw_timelines(x, o, true)) return DRVM_EXIT_USAGE;
  const char *json = dr_ro_get(o, DR_RO_JSON);
  if (json && !explore_write_json(x, json, err, sizeof err)) {
    fprintf(stderr, "drvm: %s\n", err);
    return DRVM_EXIT_USAGE;
  }
  return explore_status(x);
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) {
  (void)sig;
  interrupted = 1;
}

int dr_cmd_explore(int argc, char **argv) {
  DrRunOpts o;
  dr_ro_init(&o);
  int status = dr_ro_parse(&o, argc, argv);
  if (status == DR_RO_HELP) {
    dr_help_topic("explore", stdout);
    dr_ro_free(&o);
    return 0;
  }
  Explore x;
  memset(&x, 0, sizeof x);
  drvm_explore_config_init(&x.cfg);
  if (!status) status = usage_checks(&x, &o);
  if (status) {
    dr_ro_free(&o);
    return status;
  }
  /* a challenge: its goal is reported */
  DrGoal goal;
  bool unreadable;
  char gerr[1024];
  if (!dr_goal_load(o.prog, &goal, &unreadable, gerr, sizeof gerr) && !unreadable) {
    fprintf(stderr, "%s\n", gerr);
    dr_ro_free(&o);
    return DRVM_EXIT_COMPILE;
  }
  x.goal = &goal;
  x.prog = o.prog;
  x.prog_words = dr_prog_words(&o);
  x.args = o.args;
  x.nargs = o.nargs;
  x.seed = dr_ro_num(&o, DR_RO_SEED);
  /* a challenge's limit judges the witnesses; it does not bound the
   * search, which a bound makes incomplete (a goal within the limit can be
   * missed: NotifyOne.dl at 2) */
  x.cfg.preemptions = dr_ro_given(&o, DR_RO_PREEMPTIONS) ? (int)dr_ro_num(&o, DR_RO_PREEMPTIONS) : -1;
  x.cfg.detector = dr_ro_get(&o, DR_RO_DETECTOR);
  x.cfg.record = true;
  x.max_executions = dr_ro_num(&o, DR_RO_MAX_EXECUTIONS);
  x.progress = isatty(2) || dr_ro_given(&o, DR_RO_PROGRESS);
  /* Ctrl-C ends the search after the execution under way, with the report */
  x.stop = &interrupted;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, NULL);
  char *dir = dr_ro_given(&o, DR_RO_WITNESSES) ? dr_strdup(dr_ro_get(&o, DR_RO_WITNESSES)) : default_dir(o.prog);
  x.dir = dir;
  const char *fp = dr_ro_get(&o, DR_RO_FINGERPRINTS);
  if (fp && !(x.fingerprints = fopen(fp, "w"))) {
    fprintf(stderr, "drvm: cannot write %s: %s\n", fp, strerror(errno));
    status = DRVM_EXIT_USAGE;
  } else {
    status = explore_program(&x, &o);
  }
  if (x.fingerprints) fclose(x.fingerprints);
  explore_free(&x);
  dr_goal_free(&goal);
  free(dir);
  dr_ro_free(&o);
  return status;
}
