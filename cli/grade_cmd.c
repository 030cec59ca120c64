/* `drvm grade prog.dl answer.sched [--json]` (grade.h): the command
 * line, and the verdict as a line or as JSON. */
#include <errno.h>
#include <string.h>

#include "../vm/buf.h"
#include "../vm/json.h"
#include "grade.h"
#include "program.h"
#include "help.h"

enum { GRADE_FAIL = 1 };

static void print_json(const DrRunOpts *o, const DrGoal *goal, const DrGrade *g) {
  DrJsonW w = {0};
  char *gt = dr_goal_text(goal);
  dr_jw_begin(&w, NULL, '{');
  dr_jw_str(&w, "program", o->prog);
  dr_jw_str(&w, "schedule", o->schedule);
  dr_jw_str(&w, "goal", gt);
  dr_jw_str(&w, "kind", dr_goal_kind(goal->kind)->word);
  dr_jw_int(&w, "max_preemptions", goal->max_preemptions);
  dr_jw_bool(&w, "pass", g->pass);
  dr_jw_bool(&w, "reached", g->reached);
  dr_jw_str(&w, "reason", g->reason);
  dr_jw_int(&w, "preemptions", g->preemptions);
  dr_jw_uint(&w, "decisions", g->decisions);
  dr_jw_str(&w, "outcome", g->ended ? drvm_outcome_word(g->outcome) : NULL);
  dr_jw_bool(&w, "diverged", g->diverged);
  dr_jw_bool(&w, "schedule_ended_early", g->cut);
  dr_jw_end(&w, '}');
  fwrite(w.buf.data, 1, w.buf.len, stdout);
  fputc('\n', stdout);
  free(w.buf.data);
  free(gt);
}

/* The program's text and goal; 0 or the exit status after saying why. */
static int load(const DrRunOpts *o, DrProgFiles *files, DrGoal *goal) {
  if (!dr_prog_read(o, "drvm", files)) return DRVM_EXIT_USAGE;
  char err[1024];
  if (!dr_goal_parse(o->prog, files->texts[0], files->lens[0], goal, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return DRVM_EXIT_COMPILE;
  }
  if (!goal->present) {
    fprintf(stderr, "drvm: %s has no goal (a comment such as // goal: deadlock): it is not a challenge\n", o->prog);
    return DRVM_EXIT_USAGE;
  }
  uint64_t seed;
  if (!drvm_recording_seed(o->schedule, &seed, err, sizeof err)) {
    fprintf(stderr, "drvm: %s\n", err);
    return DRVM_EXIT_USAGE;
  }
  return 0;
}

static int grade(const DrRunOpts *o) {
  DrProgFiles files;
  memset(&files, 0, sizeof files);
  DrGoal goal;
  memset(&goal, 0, sizeof goal);
  int st = load(o, &files, &goal);
  if (!st) {
    DrGradeSetup s = {o->prog, files.texts[0], files.lens[0], &files, o->args, o->nargs, o, &goal, true};
    DrGrade g;
    char err[1024];
    st = dr_grade_replay(&s, o->schedule, &g, err, sizeof err);
    if (st == DRVM_EXIT_USAGE) fprintf(stderr, "drvm: %s\n", err);
    if (!st && dr_ro_given(o, DR_RO_GRADE_JSON)) print_json(o, &goal, &g);
    else if (!st) printf("%s: %s\n", g.pass ? "PASS" : "FAIL", g.reason);
    if (!st) st = g.pass ? 0 : GRADE_FAIL;
  }
  dr_goal_free(&goal);
  dr_prog_free(&files);
  return st;
}

int dr_cmd_grade(int argc, char **argv) {
  DrRunOpts o;
  dr_ro_init(&o);
  int st = dr_ro_parse(&o, argc, argv);
  if (st == DR_RO_HELP) {
    dr_help_topic("grade", stdout);
    st = 0;
  } else if (!st && !o.schedule) {
    st = dr_usage_error("grade needs the student's recording: drvm grade %s answer.sched", o.prog);
  } else if (!st) {
    st = grade(&o);
  }
  dr_ro_free(&o);
  return st;
}
