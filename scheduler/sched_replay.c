/* Record and replay: a run is decided by its seed (program-visible
 * randomness such as new Random()) and by its scheduler's decisions, so
 * a recording is the seed plus every decision in order:
 *
 *   drvm-schedule 1
 *   program bank.dl 9f3a6c01d2e4b587
 *   seed 8731
 *   spurious 0
 *   points 3
 *   scheduler random
 *   decisions
 *   P0*412 Q1873 P2 W0 P1*37 ...
 *   end
 *
 * P<id> a pick (the thread id), Q<n> a quantum, W<i> the waiter notify
 * woke, S<i> a spurious wake-up (-1: none); `*k` repeats an entry k
 * times.  Replaying feeds the same answers back whatever scheduler made
 * them; an answer that no longer fits (a thread that cannot run, another
 * kind of question) is a divergence, reported with where it happened.
 *
 * A prefix replay (--replay-prefix, dr_sched_prefix) answers from the
 * recording while it lasts, then hands every question to another
 * scheduler: systematic exploration re-runs a prefix of decisions and
 * branches after it; a person replays up to a point and explores on. */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "sched.h"

typedef DrSchedAnswer Entry;

typedef struct {
  DrScheduler base;
  DrScheduler *inner;  /* recording: the scheduler deciding; replay: the one
                          continuing after a prefix (NULL: a full replay) */
  char *path;          /* recording: the file written at the end (NULL: none) */
  /* recording: the header's facts */
  char *program;
  uint64_t program_hash, seed;
  bool spurious;
  Entry *log;
  int nlog, log_cap;
  uint64_t used;       /* replay: answers given */
  int pos;             /* replay: current entry */
  uint64_t pos_used;   /* replay: repeats of log[pos] used */
  char sched_name[64]; /* replay: the recorded scheduler's name */
} Tape;

/* ---------------------------------------------------------- recording */

static void tape_add(Tape *t, char type, int64_t value) {
  if (t->nlog > 0 && t->log[t->nlog - 1].type == type && t->log[t->nlog - 1].value == value) {
    t->log[t->nlog - 1].count++;
    return;
  }
  Entry e = {type, value, 1};
  DR_PUSH(t->log, t->nlog, t->log_cap, e);
}

static DrThread *rec_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Tape *t = (Tape *)s;
  DrThread *r = t->inner->pick(t->inner, vm, cur, reason);
  if (r) tape_add(t, 'P', r->id); /* none: the scheduler ended the run (an explorer abandons it) */
  return r;
}

/* The host chose another thread than the one recorded: the recording
 * keeps the thread that really ran. */
static void rec_overridden(DrScheduler *s, DrVM *vm, DrThread *chosen) {
  Tape *t = (Tape *)s;
  Entry *last = t->nlog ? &t->log[t->nlog - 1] : NULL;
  ASSERT(last && last->type == 'P', "an override without a pick");
  if (last && last->type == 'P') {
    if (--last->count == 0) t->nlog--;
    tape_add(t, 'P', chosen->id);
  }
  if (t->inner->overridden) t->inner->overridden(t->inner, vm, chosen);
}

static int rec_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  Tape *t = (Tape *)s;
  int r = t->inner->pick_waiter(t->inner, vm, lock, waiters, n);
  tape_add(t, 'W', r);
  return r;
}

static uint64_t rec_quantum(DrScheduler *s, DrVM *vm, DrThread *th) {
  Tape *t = (Tape *)s;
  uint64_t q = t->inner->quantum ? t->inner->quantum(t->inner, vm, th) : 0;
  tape_add(t, 'Q', (int64_t)q);
  return q;
}

static int rec_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  Tape *t = (Tape *)s;
  int r = t->inner->spurious ? t->inner->spurious(t->inner, vm, waiting, n) : -1;
  tape_add(t, 'S', r);
  return r;
}

static void tape_destroy(DrScheduler *s) {
  Tape *t = (Tape *)s;
  if (t->inner) t->inner->destroy(t->inner);
  free(t->log);
  free(t->path);
  free(t->program);
  free(t);
}

DrScheduler *dr_sched_record(DrScheduler *inner, unsigned points, const char *path, const char *program,
                             uint64_t program_hash, uint64_t seed, bool spurious, char *err, size_t errsize) {
  if (path) { /* fail before the run, not after it */
    FILE *f = fopen(path, "w");
    if (!f || fclose(f) != 0) {
      snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
      return NULL;
    }
  }
  Tape *t = dr_xcalloc(1, sizeof *t);
  t->base.name = inner->name;
  t->base.points = points;
  t->base.pick = rec_pick;
  t->base.overridden = rec_overridden;
  t->base.pick_waiter = rec_pick_waiter;
  t->base.quantum = rec_quantum;
  t->base.spurious = rec_spurious;
  t->base.destroy = tape_destroy;
  t->inner = inner;
  t->path = path ? dr_strdup(path) : NULL;
  t->program = dr_strdup(program);
  t->program_hash = program_hash;
  t->seed = seed;
  t->spurious = spurious;
  return &t->base;
}

/* One entry as the file writes it, wrapped at 78 columns. */
static void write_entry(FILE *f, char type, int64_t value, uint64_t count, int *col) {
  char buf[64];
  int n = count > 1 ? snprintf(buf, sizeof buf, "%c%lld*%llu", type, (long long)value, (unsigned long long)count)
                    : snprintf(buf, sizeof buf, "%c%lld", type, (long long)value);
  if (*col + n + 1 > 78) {
    fputc('\n', f);
    *col = 0;
  }
  if (*col) fputc(' ', f), (*col)++;
  fputs(buf, f);
  *col += n;
}

/* The answers before decision `picks` (0-based): every pick before it
 * and the quanta, waiters and wake-ups asked between them.  Returns how
 * many entries; *last_count is the last one's count (a run of repeated
 * picks cut inside ends there: what follows it came later). */
static int prefix_len(const Tape *t, uint64_t picks, uint64_t *last_count) {
  int n = 0;
  *last_count = 0;
  for (; n < t->nlog; n++) {
    uint64_t count = t->log[n].count;
    *last_count = count;
    if (t->log[n].type != 'P') continue;
    if (picks == 0) break;
    if (count > picks) {
      *last_count = picks;
      return n + 1;
    }
    picks -= count;
  }
  if (n > 0) *last_count = t->log[n - 1].count;
  return n;
}

bool dr_sched_record_write(DrScheduler *s, const char *path, uint64_t picks, char *err, size_t errsize) {
  Tape *t = (Tape *)s;
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
    return false;
  }
  fprintf(f, "drvm-schedule 1\nprogram %s %016llx\nseed %llu\nspurious %d\npoints %u\nscheduler %s\ndecisions\n",
          t->program, (unsigned long long)t->program_hash, (unsigned long long)t->seed, t->spurious ? 1 : 0,
          t->base.points, t->inner->name);
  int col = 0;
  uint64_t last;
  int n = prefix_len(t, picks, &last);
  for (int i = 0; i < n; i++)
    write_entry(f, t->log[i].type, t->log[i].value, i == n - 1 ? last : t->log[i].count, &col);
  if (col) fputc('\n', f);
  fputs("end\n", f);
  bool ok = !ferror(f);
  ok = fclose(f) == 0 && ok;
  if (!ok) snprintf(err, errsize, "cannot write %s", path);
  return ok;
}

bool dr_sched_record_finish(DrScheduler *s, char *err, size_t errsize) {
  Tape *t = (Tape *)s;
  return !t->path || dr_sched_record_write(s, t->path, UINT64_MAX, err, errsize);
}

/* ------------------------------------------------------------- replay */

static const char *kind_question(char type) {
  switch (type) {
  case 'P': return "which thread runs next";
  case 'Q': return "how long a thread may run";
  case 'W': return "which waiter notify wakes";
  case 'S': return "whether a waiter wakes spuriously";
  }
  return "?";
}

/* Stops the run: the recording does not fit this program any more. */
static void diverged(Tape *t, DrVM *vm, char want, const char *why) {
  DrThread *cur = vm->thread;
  DrEvent ev;
  dr_sched_pending(vm, cur, &ev);
  char name[128];
  dr_flush_output(vm);
  fprintf(vm->err_file, "drvm: replay of %s diverged at decision %llu (step %llu, T%d %s", t->path,
          (unsigned long long)(vm->sched_decisions ? vm->sched_decisions - 1 : 0), (unsigned long long)vm->steps, cur->id,
          dr_thread_name(vm, cur, name, sizeof name));
  if (ev.method) {
    int line = dr_method_line(ev.method, ev.pc);
    fprintf(vm->err_file, " about to %s in %s.%s", dr_event_info[ev.kind].word, ev.method->owner->name,
            ev.method->name);
    if (line >= 0) fprintf(vm->err_file, " at line %d", line);
  }
  fprintf(vm->err_file, "): the run asks %s, but %s\n", kind_question(want), why);
  dr_halt(vm, DR_EXIT_REPLAY, DRVM_OUTCOME_REPLAY_DIVERGED);
}

/* The next recorded answer of type want, or false (the run is stopped). */
static bool next_answer(Tape *t, DrVM *vm, char want, int64_t *value) {
  if (t->pos >= t->nlog) {
    diverged(t, vm, want, "the recording has ended");
    return false;
  }
  Entry *e = &t->log[t->pos];
  if (e->type != want) {
    char why[96];
    snprintf(why, sizeof why, "the recording answers %s here", kind_question(e->type));
    diverged(t, vm, want, why);
    return false;
  }
  *value = e->value;
  t->used++;
  if (++t->pos_used == e->count) {
    t->pos++;
    t->pos_used = 0;
  }
  return true;
}

/* A prefix replay whose recording is used up hands over to its successor. */
#define CONTINUE_AFTER_PREFIX(call)                                           \
  do {                                                                        \
    if (t->inner && t->pos >= t->nlog) return t->inner->call;                 \
  } while (0)

/* A point the recorded run did not have (a stepping host added access or
 * call points): there the recorded run went on with the same thread. */
static bool unrecorded_point(const Tape *t, DrVM *vm, const DrThread *cur, DrPickReason reason) {
  if (reason != DR_PICK_EVENT || !dr_sched_is_enabled(vm, cur)) return false;
  DrEventKind k = dr_sched_pending_kind(vm, cur);
  if (k == DR_EV_READ || k == DR_EV_WRITE) return !(t->base.points & DR_SP_ACCESS);
  if (k == DR_EV_CALL || k == DR_EV_RETURN) return !(t->base.points & DR_SP_CALL);
  return false;
}

static DrThread *rep_pick(DrScheduler *s, DrVM *vm, DrThread *cur, DrPickReason reason) {
  Tape *t = (Tape *)s;
  CONTINUE_AFTER_PREFIX(pick(t->inner, vm, cur, reason));
  if (unrecorded_point(t, vm, cur, reason)) return (DrThread *)cur;
  int64_t id;
  if (!next_answer(t, vm, 'P', &id)) return cur;
  /* a scheduler that held runnable threads back let time pass for a
   * sleeping one (DrFinder, dr_sched_advance_clock): so does the replay */
  while (id >= 0 && id < vm->nall_threads && !dr_sched_is_enabled(vm, vm->all_threads[id]) &&
         vm->all_threads[id]->deadline != INT64_MAX && dr_sched_advance_clock(vm)) {
  }
  if (id < 0 || id >= vm->nall_threads || !dr_sched_is_enabled(vm, vm->all_threads[id])) {
    char why[96];
    snprintf(why, sizeof why, "the recorded thread T%lld cannot run here", (long long)id);
    diverged(t, vm, 'P', why);
    return cur;
  }
  return vm->all_threads[id];
}

static int rep_pick_waiter(DrScheduler *s, DrVM *vm, DrObj *lock, DrThread *const *waiters, int n) {
  Tape *t = (Tape *)s;
  CONTINUE_AFTER_PREFIX(pick_waiter(t->inner, vm, lock, waiters, n));
  int64_t i;
  if (!next_answer(t, vm, 'W', &i)) return 0;
  if (i < 0 || i >= n) {
    char why[96];
    snprintf(why, sizeof why, "the recorded waiter #%lld does not exist here", (long long)i);
    diverged(t, vm, 'W', why);
    return 0;
  }
  return (int)i;
}

static uint64_t rep_quantum(DrScheduler *s, DrVM *vm, DrThread *th) {
  Tape *t = (Tape *)s;
  CONTINUE_AFTER_PREFIX(quantum ? t->inner->quantum(t->inner, vm, th) : 0);
  int64_t q;
  return next_answer(t, vm, 'Q', &q) ? (uint64_t)q : 0;
}

static int rep_spurious(DrScheduler *s, DrVM *vm, DrThread *const *waiting, int n) {
  Tape *t = (Tape *)s;
  CONTINUE_AFTER_PREFIX(spurious ? t->inner->spurious(t->inner, vm, waiting, n) : -1);
  int64_t i;
  if (!next_answer(t, vm, 'S', &i)) return -1;
  return i < n ? (int)i : -1;
}

static bool parse_entries(Tape *t, FILE *f) {
  int c;
  for (;;) {
    while ((c = fgetc(f)) != EOF && isspace(c)) {}
    if (c == EOF) return false;
    char word[64];
    int n = 0;
    while (c != EOF && !isspace(c) && n < 63) {
      word[n++] = (char)c;
      c = fgetc(f);
    }
    word[n] = 0;
    if (strcmp(word, "end") == 0) return true;
    if (!strchr("PQWS", word[0])) return false;
    char *end;
    errno = 0;
    long long v = strtoll(word + 1, &end, 10);
    unsigned long long k = 1;
    if (end == word + 1 || errno) return false;
    if (*end == '*') {
      char *e2;
      k = strtoull(end + 1, &e2, 10);
      if (e2 == end + 1 || *e2 || k == 0 || errno || end[1] == '-') return false;
    } else if (*end) {
      return false;
    }
    Entry e = {word[0], v, k};
    DR_PUSH(t->log, t->nlog, t->log_cap, e);
  }
}

/* The host overrode a replayed decision.  A prefix ends there: the run
 * left the recording, and the scheduler after it decides from now on (a
 * person who went back to a point and tries another order).  A full
 * replay goes on by its recording (and reports the divergence if it no
 * longer fits). */
static void rep_overridden(DrScheduler *s, DrVM *vm, DrThread *chosen) {
  Tape *t = (Tape *)s;
  if (!t->inner) return;
  bool was_replaying = t->pos < t->nlog;
  dr_sched_replay_cut(s);
  if (!was_replaying && t->inner->overridden) t->inner->overridden(t->inner, vm, chosen);
}

void dr_sched_replay_cut(DrScheduler *s) {
  Tape *t = (Tape *)s;
  t->pos = t->nlog;
  t->pos_used = 0;
}

static DrScheduler *replay_init(Tape *t, unsigned points) {
  t->base.name = "replay";
  t->base.overridden = rep_overridden;
  t->base.points = points;
  t->base.pick = rep_pick;
  t->base.pick_waiter = rep_pick_waiter;
  t->base.quantum = rep_quantum;
  t->base.spurious = rep_spurious;
  t->base.destroy = tape_destroy;
  return &t->base;
}

/* A prefix replay of answers (malloc'd), taken over, not copied. */
static DrScheduler *prefix_take(DrSchedAnswer *answers, int n, unsigned points, DrScheduler *then) {
  Tape *t = dr_xcalloc(1, sizeof *t);
  t->path = dr_strdup("a decision prefix");
  t->log = answers;
  t->nlog = t->log_cap = n;
  t->inner = then;
  return replay_init(t, points);
}

DrScheduler *dr_sched_prefix(const DrSchedAnswer *answers, int n, unsigned points, DrScheduler *then) {
  DrSchedAnswer *copy = dr_xmalloc(sizeof *copy * (size_t)(n > 0 ? n : 1));
  if (n > 0) memcpy(copy, answers, sizeof *copy * (size_t)n);
  return prefix_take(copy, n, points, then);
}

void dr_sched_replay_then(DrScheduler *replay, DrScheduler *then) {
  Tape *t = (Tape *)replay;
  t->inner = then;
  t->base.name = "prefix";
}

DrScheduler *dr_sched_record_inner(DrScheduler *rec) { return ((Tape *)rec)->inner; }

void dr_sched_record_set_inner(DrScheduler *rec, DrScheduler *inner) { ((Tape *)rec)->inner = inner; }

int dr_sched_record_log(DrScheduler *rec, const DrSchedAnswer **out) {
  Tape *t = (Tape *)rec;
  *out = t->log;
  return t->nlog;
}

DrScheduler *dr_sched_record_prefix(DrScheduler *rec, uint64_t picks) {
  Tape *t = (Tape *)rec;
  uint64_t last;
  int n = prefix_len(t, picks, &last);
  DrSchedAnswer *copy = dr_xmalloc(sizeof *copy * (size_t)(n > 0 ? n : 1));
  if (n > 0) {
    memcpy(copy, t->log, sizeof *copy * (size_t)n);
    copy[n - 1].count = last;
  }
  return prefix_take(copy, n, t->base.points, NULL);
}

DrScheduler *dr_sched_replay_read(FILE *f, const char *path, const char *program, uint64_t program_hash,
                                  uint64_t *seed, bool *spurious, FILE *warn, char *err, size_t errsize) {
  char prog[256], sched[64];
  unsigned long long hash, sd;
  int sp;
  unsigned points;
  int ok = fscanf(f, "drvm-schedule 1 program %255s %llx seed %llu spurious %d points %u scheduler %63s decisions",
                  prog, &hash, &sd, &sp, &points, sched);
  Tape *t = dr_xcalloc(1, sizeof *t);
  t->path = dr_strdup(path);
  if (ok != 6 || !parse_entries(t, f)) {
    /* a directory opens, then fails to read */
    if (ferror(f))
      snprintf(err, errsize, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
    else
      snprintf(err, errsize, "%s is not a drvm schedule recording (drvm run --record FILE writes one)", path);
    tape_destroy(&t->base);
    return NULL;
  }
  if (strcmp(prog, program) != 0 || hash != program_hash)
    fprintf(warn, "drvm: warning: %s was recorded for %s%s; replaying anyway\n", path, prog,
            strcmp(prog, program) ? "" : " before it changed");
  *seed = sd;
  *spurious = sp != 0;
  snprintf(t->sched_name, sizeof t->sched_name, "%s", sched);
  replay_init(t, points);
  t->base.name = t->sched_name; /* a recording of this replay names the original */
  return &t->base;
}

DrScheduler *dr_sched_replay(const char *path, const char *program, uint64_t program_hash, uint64_t *seed,
                             bool *spurious, FILE *warn, char *err, size_t errsize) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errsize, "cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  DrScheduler *s = dr_sched_replay_read(f, path, program, program_hash, seed, spurious, warn, err, errsize);
  fclose(f);
  return s;
}

bool dr_sched_replay_done(DrScheduler *s, DrVM *vm) {
  Tape *t = (Tape *)s;
  if (vm->halting && vm->halt_outcome == DRVM_OUTCOME_REPLAY_DIVERGED) return false;
  if (t->pos < t->nlog && !t->inner) {
    dr_flush_output(vm);
    fprintf(vm->err_file, "drvm: replay of %s diverged: the run ended after %llu decisions, the recording has more\n",
            t->path, (unsigned long long)t->used);
    return false;
  }
  return true;
}
