/* What `drvm run` shows after a run (run.h): the scheduler's statistics
 * (--stats), the run's JSON report (--sched-report, docs/hunt.md), the
 * -v line and the seed line that reruns it. */
#include <errno.h>
#include <string.h>

#include "../vm/json.h"
#include "run.h"

/* The scheduler's report (text lines, or JSON members), NULL if it has
 * none: asked for into memory, since the lines around it depend on
 * whether there is one.  Malloc'd. */
static char *scheduler_report(DrVM *vm, bool json) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  bool any = drvm_scheduler_report(vm, f, json);
  fclose(f);
  if (!any || !len) {
    free(text);
    return NULL;
  }
  return text;
}

/* The scheduler deciding the run; NULL when a --replay decides it all. */
static const char *deciding_scheduler(const DrRun *r, const DrVM *vm) {
  return r->recording && !r->prefix ? NULL : drvm_scheduler_name(vm);
}

/* --sched-report FILE: one JSON object about the run, for drivers such as
 * `drvm hunt`: the run's members, then the scheduler's own. */
static bool write_sched_report(const DrRun *r, DrVM *vm, const DrvmResult *res, int status) {
  const char *path = dr_ro_get(&r->o, DR_RO_SCHED_REPORT);
  const char *sched = deciding_scheduler(r, vm);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "drvm: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  DrJsonW w = {0};
  dr_jw_begin(&w, NULL, '{');
  dr_jw_str(&w, "scheduler", sched ? sched : "replay");
  /* a recording's run reports the seed given, if any */
  dr_jw_uint(&w, "seed", r->recording ? r->seed : res->seed);
  dr_jw_int(&w, "exit", status);
  dr_jw_int(&w, "uncaught", res->uncaught);
  dr_jw_uint(&w, "steps", res->steps);
  dr_jw_uint(&w, "points", res->decisions);
  dr_jw_int(&w, "threads", res->threads);
  dr_jw_int(&w, "attempts", r->attempt + 1);
  char *members = sched ? scheduler_report(vm, true) : NULL;
  if (members) {
    dr_buf_append_str(&w.buf, ",\n  ");
    dr_buf_append_str(&w.buf, members);
    free(members);
  }
  dr_jw_end(&w, '}');
  fwrite(w.buf.data, 1, w.buf.len, f);
  free(w.buf.data);
  if (fclose(f) != 0) {
    fprintf(stderr, "drvm: cannot write %s\n", path);
    return false;
  }
  return true;
}

static void print_stats(const DrRun *r, DrVM *vm) {
  const char *sched = deciding_scheduler(r, vm);
  char *text = sched ? scheduler_report(vm, false) : NULL;
  if (!text) return;
  fprintf(stderr, "drvm: %s scheduler statistics\n", sched);
  fputs(text, stderr);
  free(text);
}

static void print_verbose(const DrRun *r, const DrvmResult *res) {
  const char *how = r->recording ? (r->prefix ? "prefix replay of " : "replay of ") : dr_ro_get(&r->o, DR_RO_SCHED);
  fprintf(stderr, "drvm: scheduler %s%s, %d thread%s, %llu steps, %llu scheduling points, virtual time %.3f ms\n", how,
          r->recording ? r->recording : "", res->threads, res->threads == 1 ? "" : "s",
          (unsigned long long)res->steps, (unsigned long long)res->decisions, res->virtual_ms);
}

/* The seed line: last on stderr when the run is worth reproducing. */
static void print_seed(const DrRun *r, const DrvmResult *res) {
  if (r->prefix) {
    fprintf(stderr, "drvm: seed %llu (rerun with --replay-prefix %s --seed %llu)\n", (unsigned long long)r->then_seed,
            r->recording, (unsigned long long)r->then_seed);
  } else if (r->attempt) {
    fprintf(stderr, "drvm: seed %llu, restart %d (rerun with --seed %llu --restarts %d)\n", (unsigned long long)r->seed,
            r->attempt, (unsigned long long)r->seed, r->attempt);
  } else {
    /* a replay's is the recorded seed, which the run used */
    unsigned long long seed = r->recording ? res->seed : r->seed;
    fprintf(stderr, "drvm: seed %llu (rerun with --seed %llu)\n", seed, seed);
  }
}

int dr_run_report(const DrRun *r, DrVM *vm, const DrvmResult *res, int status) {
  bool verbose = dr_ro_given(&r->o, DR_RO_VERBOSE);
  if (dr_ro_given(&r->o, DR_RO_STATS)) print_stats(r, vm);
  if (dr_ro_given(&r->o, DR_RO_SCHED_REPORT) && !write_sched_report(r, vm, res, status) && status == DRVM_EXIT_OK)
    status = DRVM_EXIT_USAGE;
  if (verbose) print_verbose(r, res);
  /* a run stopped by a signal may be a livelock worth a second look */
  bool worth = res->uncaught > 0 || status == DRVM_EXIT_DEADLOCK || status == DRVM_EXIT_STEPS ||
               res->outcome == DRVM_OUTCOME_INTERRUPTED;
  if (worth || verbose) print_seed(r, res);
  return status;
}
