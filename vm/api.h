/* The embedding API's state (include/drvm.h), kept beside the DrVM it
 * drives: api.c (life, compiling, errors), api_run.c (scheduler,
 * detector, listeners, running and stepping), api_view.c (events as the
 * host sees them, inspection). */
#ifndef DR_API_H
#define DR_API_H

#include "../compiler/compile.h"
#include "registry.h"

typedef enum {
  DR_API_NEW,        /* nothing compiled */
  DR_API_COMPILED,   /* a program is loaded */
  DR_API_STARTED,    /* main's thread exists; not run yet */
  DR_API_DECISION,   /* stopped at a decision, undecided */
  DR_API_DECIDED,    /* stopped at a decision, the host chose */
  DR_API_ENDED,      /* the run is over; drvm_finish not called */
  DR_API_FINISHED,
} DrApiState;

/* A host's listener. */
typedef struct {
  DrListener base;
  DrvmListenFn fn;
  void *user;
} DrApiListener;

typedef struct DrApi {
  char err[1024];
  bool run_failed;            /* err says why the run stopped: kept */
  DrApiState state;
  /* output sinks */
  DrvmWriteFn write_out, write_err;
  void *write_user;
  FILE *out_sink, *err_sink;  /* callback-backed streams, or NULL */
  char *source_name, *rerun;
  uint64_t seed;
  bool spurious_given;        /* DrvmConfig.spurious_wakeups */
  /* the program: its files (path, text and file_name malloc'd) */
  DrSource *files;
  int nfiles;
  char *main_given;           /* DrvmConfig.main_class */
  uint64_t program_hash;      /* recordings name the program they fit */
  DrDiagList diags;
  DrClass *main_class;
  char **diag_lines;          /* each diagnostic's source line */
  /* ---- The run's parts.  drvm_reset frees what they own (release_run
   * in api.c) and zeroes every field from run_begin to run_end: a field
   * added here is a run's, gone with it. ---- */
  char run_begin;
  /* until drvm_start wires them */
  DrScheduler *core;          /* the chosen scheduler (NULL: native at start) */
  uint64_t run_seed;          /* its seed */
  uint64_t given_seed;        /* the seed given (a restart's run_seed derives from it) */
  char *det_name, *det_options; /* drvm_set_detector's (NULL: ft) */
  DrListener *detector;       /* made by drvm_start; NULL: none */
  DrDetectorResult det_result;
  DrListener *tracer;
  bool trace_failed;        /* the trace file could not be written whole */
  DrApiListener **listeners;
  int nlisteners, listeners_cap;
  DrStrPool pool;             /* option strings the scheduler and detector keep */
  char *record_path;
  bool recording;
  DrScheduler *recorder;
  DrScheduler *replay;        /* the replay tape (full or prefix) */
  bool replay_prefix;
  uint64_t replay_seed;
  bool spurious;
  unsigned step_points;
  bool stepping;              /* drvm_set_stepping was called before the start */
  DrScheduler *goal;          /* a stepping run's goal scheduler (in the chain) */
  /* a host scheduler */
  DrvmHostScheduler host;
  void *host_user;
  /* running */
  DrScheduler *top;           /* what vm->sched is: the outermost wrapper */
  int status;                 /* the exit status once ENDED */
  DrThread *chosen;           /* DECIDED: the host's thread */
  DrvmDecision decision;
  DrvmChoice *choices;
  DrvmEvent *choice_events;
  int choices_cap;
  char run_end;
  /* ---- end of the run's parts ---- */
  /* systematic exploration (api_explore.c) */
  DrExplorer *explorer;
  DrvmExploreConfig explore;  /* its settings (strings owned) */
} DrApi;

/* Sets vm's message for drvm_error; returns false. */
bool dr_api_fail(DrVM *vm, const char *fmt, ...) DR_PRINTF(2, 3);
/* Refuses a call from inside a listener, or outside the states
 * [lo, hi]: false with a message. */
bool dr_api_check(DrVM *vm, const char *fn, DrApiState lo, DrApiState hi);

/* api_explore.c */
void dr_api_explore_free(DrApi *a);

/* api_view.c */
/* e as a host sees it. */
void dr_api_event(DrVM *vm, const DrEvent *e, DrvmEvent *out);
/* The decision at which the VM stopped, in api->decision. */
void dr_api_build_decision(DrVM *vm, DrThread *suggested);
/* A host scheduler as a DrScheduler. */
DrScheduler *dr_api_host_sched_new(DrVM *vm);

#endif
