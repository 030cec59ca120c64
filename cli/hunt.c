/* `drvm hunt`: every technique N times under FastTrack, then the DrFinder
 * paper's Table 3 and Figure 6 for the program (docs/hunt.md).  The runs
 * happen in hunt_run.c; this file parses options and prints. */
#include <math.h>
#include <string.h>

#include "help.h"
#include "hunt.h"
#include "timeline.h"
#include "hunt_run.h"

/* --phase1's default: measured on tests/races' hidden-race programs
 * (docs/hunting.md 9.1) */
enum { DR_HUNT_PHASE1_DETECT = 1 };

/* DrFinder's names for the techniques, for the table. */
static const char *const tech_names[][2] = {{"native", "FT"},  {"contest", "CT"}, {"pct", "PCT"},
                                            {"drfinder", "DR"}, {"random", "RND"}, {"rr", "RR"},
                                            {"native-random", "NR"}, {"predict", "WCP"}};

static const char *tech_label(const char *name) {
  for (int i = 0; i < (int)DR_ARRAY_LEN(tech_names); i++)
    if (!strcmp(tech_names[i][0], name)) return tech_names[i][1];
  return NULL;
}

static int parse_techniques(DrHunt *h, const char *list) {
  const char *p = list;
  h->ntech = 0;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    char name[32];
    if (n == 0 || n >= sizeof name) return dr_hunt_usage("hunt", "--techniques: bad list '%s'", list);
    memcpy(name, p, n);
    name[n] = 0;
    if (!strcmp(name, "racefuzzer"))
      return dr_hunt_usage("hunt", "--techniques: %s needs its own driver: use 'drvm racefuzz'", name);
    const char *label = tech_label(name);
    if (!label) {
      DrBuf msg = {0};
      dr_buf_printf(&msg, "--techniques: unknown technique '%s' (choose among", name);
      for (int i = 0; i < (int)DR_ARRAY_LEN(tech_names); i++) dr_buf_printf(&msg, "%s %s", i ? "," : "", tech_names[i][0]);
      dr_buf_append_str(&msg, ")");
      int st = dr_hunt_usage("hunt", "%s", msg.data);
      free(msg.data);
      return st;
    }
    for (int i = 0; i < h->ntech; i++)
      if (!strcmp(h->tech[i].name, name)) return dr_hunt_usage("hunt", "--techniques: '%s' given twice", name);
    if (h->ntech == DR_HUNT_MAX_TECH) return dr_hunt_usage("hunt", "--techniques: too many in '%s'", list);
    DrHuntTech *t = &h->tech[h->ntech++];
    for (int i = 0; i < (int)DR_ARRAY_LEN(tech_names); i++)
      if (!strcmp(tech_names[i][0], name)) t->name = tech_names[i][0];
    t->label = label;
    if (!comma) break;
    p = comma + 1;
  }
  return 0;
}

bool dr_hunt_passes_drfinder(int id) {
  if (id < 0 || id >= DR_RO__COUNT || id == DR_RO_MTR_IN || id == DR_RO_MTR_OUT) return false; /* the hunt chains these */
  const DrvmEntry *e = dr_ro_entry((DrRoId)id);
  return dr_ro_row((DrRoId)id)->to == DR_TO_SCHED && e && e->applies && !strcmp(e->applies, "drfinder");
}

/* Takes drfinder's own option argv[*i] and its value: 1, or 0 when a is
 * not one, or the exit status after a usage error. */
static int drfinder_option(DrHunt *h, int argc, char **argv, int *i) {
  int id = 0;
  while (id < DR_RO__COUNT && !(dr_hunt_passes_drfinder(id) && !strcmp(dr_ro_row((DrRoId)id)->name, argv[*i]))) id++;
  if (id == DR_RO__COUNT) return 0;
  if (*i + 1 >= argc) return dr_hunt_usage("hunt", "%s needs a value", argv[*i]);
  const char *v = argv[++*i];
  char err[300];
  if (!drvm_scheduler_option_check(dr_ro_row((DrRoId)id)->key, v, err, sizeof err))
    return dr_hunt_usage("hunt", "--%s", err);
  h->drf_option[id] = v;
  return 1;
}

static int parse_options(DrHunt *h, int argc, char **argv) {
  const char *techs = "native,contest,pct,drfinder,predict";
  DrHuntCommon *c = &h->c;
  c->runs = 10;
  c->jobs = 1;
  h->phase1_detect = DR_HUNT_PHASE1_DETECT;
  h->depth = 12;
  h->pct_depth = 3;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    long long n;
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    int taken = dr_hunt_common_option(c, "hunt", argc, argv, &i);
    if (taken < 0) return DRVM_EXIT_USAGE;
    if (taken) continue;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      dr_help_topic("hunt", stdout);
      return -1;
    }
    int drf = drfinder_option(h, argc, argv, &i);
    if (drf == 1) continue;
    if (drf) return drf;
    if (!strcmp(a, "--phase1")) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return dr_hunt_usage("hunt", "%s needs a value", a);
      if (strcmp(v, "collect") != 0 && strcmp(v, "detect") != 0)
        return dr_hunt_usage("hunt", "--phase1 takes collect or detect, not '%s'", v);
      h->phase1_detect = !strcmp(v, "detect");
      continue;
    }
    if (!strcmp(a, "--techniques") || !strcmp(a, "--depth") || !strcmp(a, "--pct-depth") || !strcmp(a, "--pct-steps") ||
        !strcmp(a, "--timeline")) {
      if (i + 1 >= argc) return dr_hunt_usage("hunt", "%s needs a value", a);
      const char *v = argv[++i];
      DrTlFormat f;
      char err[300];
      if (!strcmp(a, "--techniques")) techs = v;
      else if (!strcmp(a, "--timeline")) {
        if (!dr_tl_format_of(v, &f, err, sizeof err)) return dr_hunt_usage("hunt", "%s", err);
        h->timeline = v;
      }
      else if (!strcmp(a, "--pct-steps")) {
        if (!dr_hunt_parse_int(v, 1, (long long)(~0ULL >> 1), &n))
          return dr_hunt_usage("hunt", "--pct-steps takes a positive count, not '%s'", v);
        h->pct_steps = (uint64_t)n;
        h->pct_steps_given = true;
      } else if (!dr_hunt_parse_int(v, 1, 1000, &n)) {
        fprintf(stderr, "drvm hunt: %s takes 1..1000, not '%s'\nTry 'drvm hunt --help'.\n", a, v);
        return DRVM_EXIT_USAGE;
      } else if (!strcmp(a, "--depth")) {
        h->depth = (int)n;
      } else {
        h->pct_depth = (int)n;
      }
    } else if (a[0] == '-' && a[1]) {
      return dr_hunt_usage("hunt", "unknown option '%s'", a);
    } else {
      return dr_hunt_usage("hunt", "unexpected argument '%s' (program arguments go after --)", a);
    }
  }
  if (!c->prog) return dr_hunt_usage("hunt", "%s", "needs a program file (prog.dl)");
  c->args = argv + i;
  c->nargs = argc - i;
  return parse_techniques(h, techs);
}

/* --- printing --- */

static void print_time(char *buf, size_t size, double sec) {
  if (sec < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.3fs", sec);
}

static void print_slowdown(char *buf, size_t size, double sec, double base) {
  if (sec < 0 || base <= 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.1fx", sec / base);
}

static void print_header(const DrHunt *h) {
  const DrHuntCommon *c = &h->c;
  printf("drvm hunt %s: %d run%s per technique, seed %llu (--seed %llu reruns this hunt)\n", c->prog, c->runs,
         c->runs == 1 ? "" : "s", (unsigned long long)c->seed, (unsigned long long)c->seed);
  printf("run directory: %s\n", c->dir);
  char t[32];
  print_time(t, sizeof t, h->baseline);
  printf("plain runs (native, no detector): %d, mean %s", h->nbase, t);
  if (h->base_points) printf(", %llu scheduling points", (unsigned long long)h->base_points);
  printf("\n");
}

static void print_table3(const DrHunt *h) {
  char t[32], s[32];
  printf("\nRaces found in %d run%s per technique (DrFinder's Table 3):\n", h->c.runs, h->c.runs == 1 ? "" : "s");
  DrTable tab;
  dr_table_init(&tab, 8);
  const char *head[] = {"technique", "races", "only", "missed", "failed", "exc", "time/run", "slowdown"};
  for (int i = 0; i < 8; i++) dr_table_add(&tab, "%s", head[i]);
  for (int i = 0; i < h->ntech; i++) {
    const DrHuntTech *te = &h->tech[i];
    dr_table_add(&tab, "%-3s %s", te->label, te->name);
    dr_table_add(&tab, "%d", te->found);
    dr_table_add(&tab, "%d", te->only);
    dr_table_add(&tab, "%d", h->nraces - te->found);
    dr_table_add(&tab, "%d", te->failed);
    dr_table_add(&tab, "%d", te->exceptions);
    print_time(t, sizeof t, te->mean_seconds);
    dr_table_add(&tab, "%s", t);
    print_slowdown(s, sizeof s, te->mean_seconds, h->baseline);
    dr_table_add(&tab, "%s", s);
  }
  dr_table_print(&tab, stdout, "  ");
  dr_table_free(&tab);
  printf("  total distinct races: %d\n", h->nraces);
  for (int i = 0; i < h->ntech; i++) {
    const DrHuntTech *te = &h->tech[i];
    if (!strcmp(te->name, "pct")) {
      if (h->pct_steps)
        printf("  PCT: depth %d, k = %llu scheduling points (%s)\n", h->pct_depth, (unsigned long long)h->pct_steps,
               h->pct_steps_given ? "--pct-steps" : h->pct_steps_from);
      else
        printf("  PCT: depth %d, k = drvm's default (no run reported its scheduling points)\n", h->pct_depth);
    }
    if (strcmp(te->name, "drfinder") != 0) continue;
    char t1[32], s1[32];
    print_time(t1, sizeof t1, h->phase1_seconds);
    print_slowdown(s1, sizeof s1, h->phase1_seconds, h->baseline);
    print_time(t, sizeof t, te->mean_seconds);
    print_slowdown(s, sizeof s, te->mean_seconds, h->baseline);
    printf("  DR: depth %d; Phase I %s (%s)%s, %d may-trigger relations; %s %s per run (%s)\n", h->depth, t1, s1,
           h->phase1_detect ? " as run 1" : "", h->phase1_relations, h->phase1_detect ? "all runs" : "Phase II", t, s);
    if (te->suspensions > 0)
      printf("  DR: thrash rate %.1f%% (%lld thrashings in %lld suspensions)", 100.0 * te->thrash_rate,
             (long long)te->thrashings, (long long)te->suspensions);
    else
      printf("  DR: thrash rate - (no suspensions)");
    printf("; escorts %lld, reversals %lld, give-ups %lld, restarts %lld\n", (long long)te->escorts,
           (long long)te->reversals, (long long)te->giveups, (long long)te->restarts);
  }
}

static void print_races(const DrHunt *h) {
  printf("\nDistinct races (%d):\n", h->nraces);
  if (!h->nraces) printf("  none found\n");
  for (int r = 0; r < h->nraces; r++) {
    const DrHuntRace *race = &h->races[r];
    printf("  #%d %s\n", r + 1, race->key);
    printf("     found by:");
    bool any = false;
    for (int i = 0; i < h->ntech; i++) {
      printf("%s %s %d/%d", i ? "," : "", h->tech[i].label, race->runs_found[i], h->c.runs);
      any = any || race->first_run[i];
    }
    printf("\n");
    for (int i = 0; any && i < h->ntech; i++) {
      int fr = race->first_run[i];
      if (!fr) continue;
      const DrHuntRun *run = &h->tech[i].runs[fr - 1];
      char head[64];
      snprintf(head, sizeof head, "     %-3s run %d, seed %llu: ", h->tech[i].label, fr, (unsigned long long)run->seed);
      printf("%s%s\n", head, run->replay_cmd);
      if (run->seed_cmd) printf("%*s%s\n", (int)strlen(head), "", run->seed_cmd);
    }
    if (race->timeline) printf("     timeline: %s\n", race->timeline);
  }
}

/* The first run that found race r: its technique's index, or -1. */
static int first_finder(const DrHunt *h, int r) {
  for (int i = 0; i < h->ntech; i++)
    if (h->races[r].first_run[i]) return i;
  return -1;
}

/* --timeline: each race's first witness drawn, as files before the
 * report names them, or as text after it (text_pass). */
static bool draw_races(DrHunt *h, bool text_pass) {
  if (!h->timeline || (strcmp(h->timeline, "text") == 0) != text_pass) return true;
  DrRunOpts o;
  dr_hunt_run_opts(&o, &h->c, NULL, 0, NULL);
  bool ok = true;
  for (int r = 0; ok && r < h->nraces; r++) {
    int i = first_finder(h, r);
    if (i < 0) continue;
    const DrHuntRun *run = &h->tech[i].runs[h->races[r].first_run[i] - 1];
    char *name = dr_tl_nth_name(h->timeline, "race", r + 1);
    char *title = dr_fmt("race #%d: %s (%s run %d)", r + 1, h->races[r].key, h->tech[i].name, h->races[r].first_run[i]);
    ok = dr_tl_draw_recording(&o, run->record, name, title);
    free(title);
    if (ok && !text_pass) h->races[r].timeline = name;
    else free(name);
  }
  dr_ro_free(&o);
  return ok;
}

static void print_figure6(const DrHunt *h) {
  printf("\nDistinct races after each run (DrFinder's Figure 6):\n");
  DrTable tab;
  dr_table_init(&tab, h->ntech + 1);
  dr_table_add(&tab, "run");
  for (int i = 0; i < h->ntech; i++) dr_table_add(&tab, "%s", h->tech[i].label);
  for (int r = 0; r < h->c.runs; r++) {
    dr_table_add(&tab, "%d", r + 1);
    for (int i = 0; i < h->ntech; i++) dr_table_add(&tab, "%d", h->tech[i].cumulative[r]);
  }
  dr_table_print(&tab, stdout, "  ");
  dr_table_free(&tab);
}

/* --- JSON --- */

static void json_tech(DrJsonW *w, const DrHunt *h, int ti) {
  const DrHuntTech *te = &h->tech[ti];
  dr_jw_begin(w, te->name, '{');
  dr_jw_str(w, "label", te->label);
  dr_jw_begin(w, "races", '[');
  for (int r = 0; r < h->nraces; r++) {
    const DrHuntRace *race = &h->races[r];
    int fr = race->first_run[ti];
    if (!fr) continue;
    const DrHuntRun *run = &te->runs[fr - 1];
    dr_jw_begin(w, NULL, '{');
    dr_jw_str(w, "location", race->location);
    dr_jw_str(w, "key", race->key);
    dr_jw_int(w, "first_run", fr);
    dr_jw_int(w, "seed", (long long)run->seed);
    dr_jw_int(w, "runs_found", race->runs_found[ti]);
    dr_jw_str(w, "replay", run->replay_cmd);
    dr_jw_str(w, "rerun", run->seed_cmd);
    dr_jw_end(w, '}');
  }
  dr_jw_end(w, ']');
  dr_jw_int(w, "found", te->found);
  dr_jw_int(w, "only", te->only);
  dr_jw_int(w, "missed", h->nraces - te->found);
  dr_jw_num(w, "mean_seconds", te->mean_seconds);
  if (h->baseline > 0) dr_jw_num(w, "slowdown", te->mean_seconds / h->baseline);
  else dr_jw_null(w, "slowdown");
  dr_jw_begin(w, "cumulative", '[');
  for (int r = 0; r < h->c.runs; r++) dr_jw_int(w, NULL, te->cumulative[r]);
  dr_jw_end(w, ']');
  dr_jw_int(w, "failed_runs", te->failed);
  dr_jw_int(w, "exceptions", te->exceptions);
  if (!strcmp(te->name, "pct")) {
    dr_jw_int(w, "depth", h->pct_depth);
    if (h->pct_steps) dr_jw_int(w, "pct_steps", (long long)h->pct_steps);
    else dr_jw_null(w, "pct_steps");
  }
  if (!strcmp(te->name, "drfinder")) {
    dr_jw_int(w, "depth", h->depth);
    if (te->suspensions > 0) dr_jw_num(w, "thrash_rate", te->thrash_rate);
    else dr_jw_null(w, "thrash_rate");
    dr_jw_num(w, "phase1_seconds", h->phase1_seconds);
    dr_jw_int(w, "phase1_relations", h->phase1_relations);
    dr_jw_str(w, "phase1", h->phase1_detect ? "detect" : "collect");
    dr_jw_num(w, "phase2_mean_seconds", te->mean_seconds);
    dr_jw_int(w, "suspensions", (long long)te->suspensions);
    dr_jw_int(w, "thrashings", (long long)te->thrashings);
    dr_jw_int(w, "escorts", (long long)te->escorts);
    dr_jw_int(w, "reversals", (long long)te->reversals);
    dr_jw_int(w, "giveups", (long long)te->giveups);
    dr_jw_int(w, "restarts", (long long)te->restarts);
  }
  dr_jw_begin(w, "runs", '[');
  for (int r = 0; r < h->c.runs; r++) {
    const DrHuntRun *run = &te->runs[r];
    dr_jw_begin(w, NULL, '{');
    dr_jw_int(w, "run", r + 1);
    dr_jw_int(w, "seed", (long long)run->seed);
    if (run->status >= 0) dr_jw_int(w, "exit", run->status);
    else dr_jw_null(w, "exit");
    if (run->signo) dr_jw_int(w, "signal", run->signo);
    dr_jw_num(w, "seconds", run->cpu);
    dr_jw_int(w, "races", run->nraces);
    dr_jw_bool(w, "failed", run->failed);
    dr_jw_str(w, "replay", run->replay_cmd);
    dr_jw_end(w, '}');
  }
  dr_jw_end(w, ']');
  dr_jw_end(w, '}');
}

static bool write_json(const DrHunt *h) {
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_str(&w, "program", h->c.prog);
  dr_jw_int(&w, "runs", h->c.runs);
  dr_jw_int(&w, "seed", (long long)h->c.seed);
  dr_jw_str(&w, "dir", h->c.dir);
  dr_jw_num(&w, "baseline_seconds", h->baseline);
  dr_jw_int(&w, "baseline_points", (long long)h->base_points);
  dr_jw_int(&w, "total_races", h->nraces);
  dr_jw_begin(&w, "techniques", '{');
  for (int i = 0; i < h->ntech; i++) json_tech(&w, h, i);
  dr_jw_end(&w, '}');
  dr_jw_begin(&w, "races", '[');
  for (int r = 0; r < h->nraces; r++) {
    dr_jw_begin(&w, NULL, '{');
    dr_jw_str(&w, "key", h->races[r].key);
    dr_jw_str(&w, "location", h->races[r].location);
    dr_jw_begin(&w, "runs_found", '{');
    for (int i = 0; i < h->ntech; i++) dr_jw_int(&w, h->tech[i].name, h->races[r].runs_found[i]);
    dr_jw_end(&w, '}');
    dr_jw_end(&w, '}');
  }
  dr_jw_end(&w, ']');
  dr_jw_end(&w, '}');
  bool ok = dr_hunt_write_file("hunt", h->c.json, &w.buf);
  free(w.buf.data);
  return ok;
}

int dr_cmd_hunt(const char *self, int argc, char **argv) {
  DrHunt h;
  memset(&h, 0, sizeof h);
  int st = parse_options(&h, argc, argv);
  if (st || !dr_hunt_setup(&h.c, "hunt")) {
    dr_hunt_common_free(&h.c); /* the program's words */
    return st < 0 ? 0 : st ? st : DRVM_EXIT_USAGE;
  }
  h.c.exe = dr_hunt_self_exe(self);
  st = dr_hunt_execute(&h);
  if (st == 0) {
    if (!draw_races(&h, false)) st = DRVM_EXIT_USAGE;
    print_header(&h);
    print_table3(&h);
    print_races(&h);
    print_figure6(&h);
    if (!draw_races(&h, true)) st = DRVM_EXIT_USAGE;
    if (h.c.json && !write_json(&h)) st = DRVM_EXIT_USAGE;
    fflush(stdout);
  }
  dr_hunt_free(&h);
  return st;
}
