/* The registries: the schedulers and detectors a VM can be given by name,
 * and their options.  The VM declares what it needs of them here; the
 * tables live with what they list (scheduler/registry.c,
 * detector/registry.c), so adding a scheduler is its file plus one row
 * there, and the VM's own sources include nothing of scheduler/ or
 * detector/. */
#ifndef DR_REGISTRY_H
#define DR_REGISTRY_H

#include "options.h"
#include "sched_iface.h"

/* --- scheduler/registry.c --- */
int dr_reg_sched_count(void);
const DrvmEntry *dr_reg_sched_entry(int i);
int dr_reg_sched_option_count(void);
const DrvmEntry *dr_reg_sched_option(int i);
/* One scheduler option's value, checked (drvm_scheduler_option_check). */
bool dr_reg_sched_option_check(const char *key, const char *value, char *err, size_t errsize);
/* A scheduler by name with "key=value" options; seed is the default for
 * seed= (the seed given goes to *seed_given, and the one its choices
 * use, which a restart derives from it, to *seed_run), rerun the command
 * that reruns the run.  Option strings it keeps are added to pool.  NULL with
 * a message in err. */
DrScheduler *dr_reg_sched_new(const char *name, const char *options, uint64_t seed, const char *rerun,
                              uint64_t *seed_given, uint64_t *seed_run, DrStrPool *pool, char *err, size_t errsize);
/* --- record and replay (scheduler/sched_replay.c) --- */
/* One recorded answer: type 'P' a pick (value: thread id), 'Q' a quantum,
 * 'W' a notify's waiter index, 'S' a spurious wake-up (-1 none); count
 * repeats it. */
typedef struct {
  char type;
  int64_t value;
  uint64_t count;
} DrSchedAnswer;

/* Wraps inner: every decision is passed through and kept, to be written
 * to path (NULL: kept only) by dr_sched_record_finish, or anywhere by
 * dr_sched_record_write.  points: the run's scheduling points (inner's
 * and any a stepping host added).  NULL with a message in err if path
 * cannot be written. */
DrScheduler *dr_sched_record(DrScheduler *inner, unsigned points, const char *path, const char *program,
                             uint64_t program_hash, uint64_t seed, bool spurious, char *err, size_t errsize);
bool dr_sched_record_finish(DrScheduler *rec, char *err, size_t errsize);
/* Writes the answers before decision picks (UINT64_MAX: all). */
bool dr_sched_record_write(DrScheduler *rec, const char *path, uint64_t picks, char *err, size_t errsize);
/* The scheduler a recording wraps; another one from now on (the caller
 * destroys the old one). */
DrScheduler *dr_sched_record_inner(DrScheduler *rec);
void dr_sched_record_set_inner(DrScheduler *rec, DrScheduler *inner);
/* Reads a recording.  Returns NULL with a message in err if it cannot
 * be read; a recording of another program is replayed with a warning on
 * warn.  *seed and *spurious receive the recorded run's settings. */
DrScheduler *dr_sched_replay(const char *path, const char *program, uint64_t program_hash, uint64_t *seed,
                             bool *spurious, FILE *warn, char *err, size_t errsize);
/* The same from an open stream (not closed), path naming it in messages:
 * a recording held in memory (fmemopen), as tests/fuzz reads one. */
DrScheduler *dr_sched_replay_read(FILE *f, const char *path, const char *program, uint64_t program_hash,
                                  uint64_t *seed, bool *spurious, FILE *warn, char *err, size_t errsize);
/* After a replayed run: false (message on stderr) if it diverged or ended
 * before the recording did. */
bool dr_sched_replay_done(DrScheduler *s, DrVM *vm);
/* A recording's answers so far (valid until its next decision). */
int dr_sched_record_log(DrScheduler *rec, const DrSchedAnswer **out);
/* The recording's answers before decision picks, as a prefix replay
 * (dr_sched_replay_then gives it its successor). */
DrScheduler *dr_sched_record_prefix(DrScheduler *rec, uint64_t picks);
/* Replays answers[0..n) (a run recorded with `points`), then lets `then`
 * decide: the re-playable prefix that systematic exploration branches
 * from.  Destroying it destroys then. */
DrScheduler *dr_sched_prefix(const DrSchedAnswer *answers, int n, unsigned points, DrScheduler *then);
/* Makes a replay (dr_sched_replay) a prefix replay continued by then. */
void dr_sched_replay_then(DrScheduler *replay, DrScheduler *then);
/* A person's goal (scheduler/sched_goal.c): wraps inner; set or clear
 * the goal (NULL) at a decision. */
DrScheduler *dr_sched_goal(DrScheduler *inner);
void dr_sched_goal_set(DrScheduler *goal, DrVM *vm, const DrvmGoal *g);
void dr_sched_goal_set_inner(DrScheduler *goal, DrScheduler *inner);
DrvmGoalStop dr_sched_goal_stop(DrScheduler *goal, int *index);
/* Ends a replay here: the rest of its recording is dropped. */
void dr_sched_replay_cut(DrScheduler *replay);

/* --- systematic exploration (scheduler/explore.c) --- */
typedef struct DrExplorer DrExplorer;
/* An explorer; prefix (a recording's answers, may be NULL) fixes the
 * first decisions of every execution; spurious: waiting threads may wake
 * by themselves (--spurious-wakeups), a branch of their own. */
DrExplorer *dr_explore_new(const DrvmExploreConfig *c, bool spurious, const DrSchedAnswer *prefix, int nprefix);
void dr_explore_free(DrExplorer *x);
/* The next execution's scheduler and listener (new each time: whoever
 * runs it destroys them), or false when no execution is left. */
bool dr_explore_begin(DrExplorer *x, DrScheduler **sched, DrListener **listener);
/* After the execution ended: its races become new branches, and the
 * next execution is chosen. */
void dr_explore_end(DrExplorer *x, DrVM *vm);
void dr_explore_stats(const DrExplorer *x, DrvmExploreStats *s);
/* The latest execution's trace, as drvm_explore_fingerprint gives it. */
uint64_t dr_explore_fingerprint(const DrExplorer *x);

/* --- detector/registry.c --- */
/* What a finished detector found. */
typedef struct {
  int races;                 /* reports printed (races seen in the run) */
  int predicted;             /* wcp: races predicted for another order, not seen */
  bool failed;               /* it could not do its job (a file, a clock overflow) */
} DrDetectorResult;

int dr_reg_det_count(void);
const DrvmEntry *dr_reg_det_entry(int i);
int dr_reg_det_option_count(void);
const DrvmEntry *dr_reg_det_option(int i);
/* A detector by name with "key=value" options, reporting into *result
 * when its listener finishes (it frees itself there).  NULL with err
 * empty for "none"; NULL with a message otherwise. */
DrListener *dr_reg_det_new(DrVM *vm, const char *name, const char *options, uint64_t seed, const char *rerun,
                           DrDetectorResult *result, DrStrPool *pool, char *err, size_t errsize);
bool dr_reg_det_option_check(const char *key, const char *value, char *err, size_t errsize);
/* Whether name and options make a detector (false with a message). */
bool dr_reg_det_check(const char *name, const char *options, DrStrPool *pool, char *err, size_t errsize);
/* The detector's view for hosts (include/drvm.h): false if it has none. */
bool dr_reg_det_clock(DrListener *det, int tid, DrBuf *out);
int dr_reg_det_race_count(DrListener *det);
bool dr_reg_det_race(DrListener *det, int i, DrvmRace *out);
bool dr_reg_det_explain(DrListener *det, DrVM *vm, DrObj *obj, DrClass *cls, int32_t field, bool is_static, int tid,
                        bool write, DrBuf *out);

#endif
