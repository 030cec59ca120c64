/* Systematic exploration (stateless model checking with dynamic
 * partial-order reduction): the engine's parts, shared by explore.c (the
 * search: the stack of decisions, choosing, backtracking, and its face
 * as a scheduler and a listener) and explore_dpor.c (the model: events,
 * their dependence, happens-before clocks, races, sleep sets, wakeup
 * trees).
 *
 * The algorithms are Abdulla, Aronis, Jonsson and Sagonas, "Source Sets:
 * A Foundation for Optimal Dynamic Partial Order Reduction" (JACM 2017):
 * Algorithm 1 (source-set DPOR) and Algorithm 2 (optimal DPOR with
 * wakeup trees).  An execution E is the sequence of steps the VM took
 * between scheduling points: step i is thread tid's pending event at
 * decision i and the local work after it, up to its next point.  The
 * search is a depth-first walk over a stack of nodes, node i being the
 * state before step i; every execution re-runs the program from the
 * start (drvm_reset) and replays the stack's branches up to the node
 * where a new branch begins. */
#ifndef DR_EXPLORE_H
#define DR_EXPLORE_H

#include "../vm/registry.h"

/* What a step does, as far as dependence is concerned. */
typedef enum {
  XOP_LOCAL,   /* nothing another thread can observe (yield, calls, new) */
  XOP_READ,    /* reads loc (a field, static, array element, or a thread's interrupt status) */
  XOP_WRITE,   /* writes loc */
  XOP_TAKE,    /* takes monitor loc: an outermost monitorenter, or wait() returning */
  XOP_RELEASE, /* gives monitor loc up: an outermost monitorexit, or wait() */
  XOP_NOTIFY,  /* notify / notifyAll on monitor loc: enables its waiters' WAKE */
} XOp;

/* A step's identity for dependence: comparable across executions, since
 * objects are named by who made them (the thread and its count of
 * allocations), not by address or by a class-wide serial. */
typedef struct {
  int tid;
  uint8_t kind;   /* DrEventKind of the pending event */
  uint8_t op;     /* XOp */
  bool prints;    /* the step wrote program output */
  bool fence;     /* the virtual clock advanced before it: it follows everything */
  uint64_t loc;
  int other;      /* FORK, JOIN, INTERRUPT: the other thread; else -1 */
  /* A class's initialization: the step in which a thread starts it
   * writes the class's init state, a static access reads it.  Which
   * thread initializes a class first decides what the others see (JLS
   * 12.4.2), and it happens in a step's local work. */
  uint8_t init_op;  /* XOP_LOCAL (none), XOP_READ or XOP_WRITE */
  uint64_t init_loc;
} XEv;

/* Two steps of different threads are dependent (their order matters). */
bool dr_xev_dependent(const XEv *a, const XEv *b);

/* ---- one execution's steps and their happens-before (explore_dpor.c) ---- */

typedef struct XLoc XLoc;

/* A direct predecessor of a step being added (explore_dpor.c). */
typedef struct {
  int step, how;
} Pred;

typedef struct {
  XEv *ev;              /* steps 0 .. n-1 */
  uint32_t *seq;        /* seq[i]: step i is the seq[i]-th step of its thread (from 1) */
  uint32_t *clock;      /* n * width: clock[i*width + t] = steps of t that happen before step i (inclusive for its own) */
  int *read_prev;       /* a location's reads since its last write, as a list through step indices */
  int n, cap;
  int nreal;            /* steps that ran; those after are blocked lock takes added at the end */
  int width;            /* clock entries per step: threads known */
  /* per thread */
  int *last;            /* its latest step, -1 */
  int *enabler;         /* the step whose enable edge its next step receives (fork, notify, interrupt), -1 */
  int *intr_last;       /* the latest interrupt of it, -1 */
  bool *fence_next;     /* its next step follows a clock advance */
  int nthreads_cap;
  bool spurious;        /* waiting threads may wake by themselves */
  int last_print;       /* the latest printing step, -1 */
  int last_fork;        /* the latest FORK step, -1 */
  /* locations touched, by key (open addressing, cleared per execution) */
  XLoc *locs;
  int nlocs, locs_cap;
  /* races found: pairs (i, j), step i before step j */
  int *races;
  int nraces, races_cap;
  /* scratch of dr_xexec_add */
  Pred *preds;
  int preds_cap;
  uint32_t *base;
} XExec;

void dr_xexec_reset(XExec *x);
/* Makes room for thread tid in the per-thread arrays. */
void dr_xexec_threads(XExec *x, int tid);
void dr_xexec_free(XExec *x);
/* Appends step ev (its happens-before computed and its races with earlier
 * steps recorded) and returns its index. */
int dr_xexec_add(XExec *x, const XEv *ev);
/* Whether step a happens before step b (a < b). */
bool dr_xexec_hb(const XExec *x, int a, int b);

/* ---- wakeup trees (explore_dpor.c) ---- */

typedef struct {
  int tid;
  XEv ev;
  int child, sibling, parent; /* -1: none */
} XTNode;

typedef struct {
  XTNode *nodes;
  int n, cap;
  int free_list;
} XTree;

int dr_xtree_new(XTree *t, int parent, const XEv *ev);
/* Removes node and its subtree (and unlinks it from its parent). */
void dr_xtree_remove(XTree *t, int node);
void dr_xtree_free(XTree *t);

/* A sequence of steps of the current execution (indices into XExec). */
typedef struct {
  int *s;
  int n, cap;
} XSeq;

/* notdep(e, E).e' of the paper: the steps after i that do not happen
 * after i, then j. */
void dr_xseq_notdep(XSeq *v, const XExec *x, int i, int j);
/* Whether thread tid, whose next step is ev (tid's first step in v, or
 * ev itself if tid has none there), is a weak initial of v: it may come
 * first in an execution equivalent to E'.v. */
bool dr_xseq_weak_initial(const XSeq *v, const XExec *x, int tid, const XEv *ev);
/* Whether tid's first step in v has no predecessor in v (an initial). */
bool dr_xseq_initial(const XSeq *v, const XExec *x, int tid);
/* Inserts v under root (insert_[E'](v, wut) of the paper); false if an
 * existing leaf already covers it. */
bool dr_xtree_insert(XTree *t, int root, XSeq *v, const XExec *x);

#endif
