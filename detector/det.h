/* The detectors' shared core (det_core.c, det_ctx.c, det_report.c): per
 * thread state, shadow memory beside each object, the table of access
 * contexts (hash-consed call stacks with the locks held), and race
 * reports.  Each detector is a DrDetOps: what it keeps per location and
 * what it does at an access. */
#ifndef DR_DET_H
#define DR_DET_H

#include "detector.h"
#include "vc.h"
#include "../vm/pairs.h"

typedef struct DrDet DrDet;

/* A memory location as the papers model it. */
typedef struct {
  DrObj *obj;              /* instance or array; NULL for a static */
  DrClass *cls;            /* the object's class, or the static's class */
  int32_t index;           /* field slot, static slot or array index */
  bool is_static, is_array;
} DrLoc;

/* One access as reports show it: who, where (context: stack + locks). */
typedef struct {
  bool write;
  uint32_t tid;
  uint32_t ctx;
  uint32_t clock;          /* its thread's clock at the access (epoch) */
} DrAccess;

/* Who held a clock slot from which clock on: a slot an ended thread gave
 * back (accordion clocks) goes on counting where it stopped. */
typedef struct {
  uint32_t first;          /* its first clock in the slot */
  uint32_t tid;            /* DrThread id */
} DrSlotGen;

/* Per clock slot: the thread whose entry of every clock vector it is.
 * A thread takes a slot when the detector first hears of it; an ended
 * thread's slot can later go to a new thread (det_accordion.c). */
typedef struct {
  DrVC C;                  /* C_t */
  DrVC I;                  /* interrupts sent to this thread (JLS 17.4.4) */
  uint32_t lockset;        /* id of the locks it holds now (det_ctx.c) */
  /* cache of the stack-chain nodes of its frames (det_ctx.c) */
  DrMethod **chain_m;
  const uint32_t **chain_ip;
  uint32_t *chain_node;
  int nchain, chain_cap;
  /* the chain node of the caller frames at the last context, valid while
   * the thread's pushes and nframes are these (vm/thread.h) */
  uint64_t memo_pushes;
  int memo_nframes;
  uint32_t memo_parent;
  uint8_t *init_seen;      /* class ids whose initialization it has joined */
  int init_seen_len;
  bool live;
  bool ended;              /* its END came: it makes no access any more */
  bool retired;            /* ended, and its Thread object collected: its clocks are freed */
  bool pending;            /* retired, its slot not given back yet (det_accordion.c) */
  size_t held_bytes;       /* ended: what retiring it gives back (counted in vm->gc_extra) */
  uint32_t tid;            /* the DrThread id holding the slot */
  uint32_t last;           /* retired: its last clock */
  DrSlotGen *gens;         /* every holder, in order (kept across holders) */
  int ngens, gens_cap;
} DrDetThread;

/* A detector's shadow beside an object (DrObj.shadow) or a class's statics. */
typedef struct {
  DrVC *lock;              /* L_m: the object as a lock (hb detectors) */
  DrVC *notify;            /* hybrid: notify -> woken waiter edges */
  DrVC **vol;              /* V_x per volatile location, lazily */
  uint8_t *raced;          /* locations already reported (one bit each), lazily */
  uint32_t nslots;
  uint32_t alloc_ctx;       /* arrays: where it was made (0: unknown) */
  uint32_t thread;          /* a started java.lang.Thread: its thread's id + 1 (0: none) */
  void *ext;               /* a detector's own state of the object as a lock (ops->ext_free) */
  /* nslots detector slots of ops->slot_size bytes follow, 8-aligned */
} DrShadow;

#define DR_SHADOW_SLOTS(sh) ((char *)(sh) + sizeof(DrShadow))

typedef struct {
  const char *name;
  size_t slot_size;        /* bytes of state per location (zeroed: never accessed) */
  bool vector_clocks;      /* keeps C_t: fork/join/volatile/interrupt edges */
  bool lock_edges;         /* release -> acquire is happens-before (not for hybrid) */
  bool notify_edges;       /* hybrid: notify -> the woken thread */
  /* without --all-races a reported location is not checked again: the
   * precise detectors then agree exactly, and Eraser's empty lockset is
   * terminal anyway (hybrid goes on: every statement pair counts) */
  bool stop_at_race;
  size_t priv_size;        /* bytes of DrDet.priv, zeroed */
  /* The inline same-epoch check (vm.h's DrFastCheck): a slot's words at
   * these offsets equal to the thread's epoch make a read (a write) by
   * it a no-op of access().  fast: it opts in. */
  bool fast;
  uint32_t fast_read_off, fast_write_off;
  /* --filter trade: its state keeps a location's last access of each
   * kind (Eraser, hybrid), not the epoch's first (vm/escape.h) */
  bool filter_keep_last;
  uint64_t fast_shared_bit; /* read words with it set point to a DrCtxVC (vm.h's shared_bit) */
  uint32_t fast_shared_off; /* in a slot, the word that may so point */
  /* An access to loc (after it took effect) by thread tid whose context
   * is ctx (computed lazily by dr_det_ctx). */
  void (*access)(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write);
  void (*slot_free)(DrDet *d, void *slot); /* may be NULL */
  /* Accordion clocks (det_accordion.c): forget each epoch of the slot
   * whose thread slot is marked in dead and whose clock is at most
   * floor(u) -- every running thread has seen it, so no access can race
   * with it any more -- and mark in still the dead slots it must keep.
   * Returns how many it forgot.  NULL: the detector keeps every slot. */
  uint32_t (*slot_forget)(DrDet *d, void *slot, const DrVC *floor, const uint8_t *dead, uint8_t *still);
  /* A synchronization event, before the shared happens-before rules
   * apply it (so C_t is still the clock before a release's increment).
   * May be NULL. */
  void (*sync)(DrDet *d, uint32_t tid, const DrEvent *e);
  void (*ext_free)(DrDet *d, void *ext);   /* may be NULL: frees DrShadow.ext */
  void (*finish)(DrDet *d);                /* may be NULL: after the run */
  void (*print_stats)(DrDet *d, FILE *out);/* may be NULL */
  /* For hosts (drvm_detector_explain): whether an access by tid, whose
   * clock is C (tid: its slot, UINT32_MAX if none; who: its DrThread
   * id), would be ordered after the slot's last accesses, and
   * why, as a sentence.  May be NULL. */
  void (*explain)(DrDet *d, const void *slot, const DrVC *C, uint32_t tid, uint32_t who, bool write, DrBuf *out);
} DrDetOps;

/* A found race, kept for the summary and the JSON report. */
typedef struct {
  char *location;          /* "Account.balance", "int[]#7[3]" */
  char *key;               /* dedup key */
  char *id;                /* stable id: location and the two positions */
  DrAccess cur, prev;
  char *text;              /* the whole printed report */
  char *why;               /* the explanation line */
  char *obj_name;          /* "Account#3" or NULL for statics */
  char *alloc_site;        /* arrays: where the array was made */
  uint32_t seen_clock;     /* C_cur(prev.tid) at the race */
  bool predicted;          /* WCP: ordered by happens-before in this run, not by WCP */
  char *stmt, *prev_stmt;  /* the two statements as the pairs file names them (vm/pairs.h) */
} DrRace;

/* Access contexts: nodes of hash-consed call chains.  Node 0 is the root;
 * a leaf node carries the access's own position and lockset. */
typedef struct {
  uint32_t parent;
  uint32_t method;         /* DrMethod id + 1 (0: none) */
  uint32_t pc;
  uint32_t lockset;
} DrCtxNode;

typedef struct {
  uint32_t n;              /* locks */
  uint32_t first;          /* index into lock_keys / lock_objs */
  char *text;              /* "Account#3, Bank.class" or "none" */
} DrLockset;

struct DrDet {
  DrListener base;
  DrVM *vm;
  const DrDetOps *ops;
  DrDetectorOptions opt;
  DrDetectorResult *result;
  DrDetMem mem;
  bool disabled;           /* a clock overflowed: stop quietly after saying so */
  /* Until main starts its first thread no access can race: each one
   * happens before everything any other thread will do (they all descend
   * from main's later forks).  A happens-before detector (ft, djit,
   * basicvc) so takes accesses only from the first fork on, and a
   * single-threaded program runs at full speed.  Eraser and hybrid take
   * them all: their first owner of a location is part of their states. */
  bool alone;
  bool fast_owner;         /* it answers the interpreter's inline check (vm.h's DrFastCheck) */
  int shadow_user;         /* its index among the VM's per-object state users (vm/shadow.c) */
  bool filter;             /* --filter trade: the topological filter (det_filter.c) */
  bool accordion;          /* --clocks accordion (ops->slot_forget): slots reused (det_accordion.c) */
  uint32_t ctx_override;   /* nonzero: dr_det_ctx's answer (a filtered access applied later) */
  /* by method id (lazily), per pc: the last context made there, with the
   * callers' chain node and the lockset it was made for.  Most accesses
   * repeat a position with the same callers and locks, whichever thread
   * makes them: one lookup answers them (dr_det_ctx_at). */
  struct DrSiteCtx {
    uint32_t parent, lockset, ctx;
  } **site_ctx;
  int nsite_ctx;
  uint64_t seeded;         /* accesses applied from the filter's records */
  uint64_t retired;        /* ended threads whose clocks were freed */
  uint64_t slots_reused, scans, epochs_cleared; /* accordion clocks (det_accordion.c) */
  uint64_t scan_slots;     /* shadow slots the scans looked at */
  int npending;            /* retired threads whose slots are not given back yet */
  uint32_t *free_slots;    /* slots given back, to take before new ones */
  int nfree, free_cap;
  /* by DrThread id: its slot + 1 (0: none yet), and where it was started */
  struct DrDetTid {
    uint32_t slot1;
    uint32_t created_ctx;
  } *tids;
  int ntids;
  struct DrCtxVC **cvc_pool; /* read clocks to reuse (det_core.c) */
  int ncvc_pool;

  DrDetThread *threads;    /* by slot (dr_det_slot) */
  int nthreads, threads_cap;

  DrShadow **statics;      /* by class id */
  int nstatics;
  DrVC **init_clocks;      /* by class id: C_t when its initializer ended */
  int ninit;

  /* contexts */
  DrCtxNode *nodes;
  uint32_t nnodes, nodes_cap;
  uint32_t *node_hash;     /* open addressing, node index + 1 */
  uint32_t node_hash_cap;
  DrLockset *locksets;
  uint32_t nlocksets, locksets_cap;
  uint64_t *lock_keys;      /* every set's sorted keys, back to back */
  char **lock_names;       /* parallel to lock_keys */
  uint32_t nlock_keys, lock_keys_cap;
  uint32_t *lockset_hash;
  uint32_t lockset_hash_cap;

  /* reports */
  DrRace *races;
  int nraces, races_cap;
  char **keys;             /* dedup keys seen (sorted insert) */
  int nkeys, keys_cap;
  uint64_t suppressed;     /* racing accesses not reported again */

  /* statistics */
  uint64_t events, reads, writes, syncs;
  uint64_t seq;            /* DrCtxVC entries set so far */
  uint64_t rule[16];       /* per-detector rule counters */
  void *priv;              /* per-detector data */
};

/* A vector clock whose entries also remember the context of the access
 * that set them and when (a run-wide sequence number), so a report can
 * name the most recent unordered access -- the same one in every
 * detector. */
#define DR_CVC_SMALL 8
typedef struct DrCtxVC {
  DrVC vc;                 /* vc.c is `small` until a thread id past it comes */
  uint32_t *ctx;
  uint64_t *seq;
  uint32_t cap;
  /* the clocks of the first threads beside the header: the interpreter's
   * read-shared check (vm.h's DrFastCheck) then misses the cache once
   * less */
  uint32_t small[DR_CVC_SMALL];
} DrCtxVC;

DrCtxVC *dr_cvc_new(DrDet *d);
void dr_cvc_delete(DrDet *d, DrCtxVC *v);
void dr_cvc_set(DrDet *d, DrCtxVC *v, uint32_t tid, uint32_t clock, uint32_t ctx);
/* The most recent entry of v not below C (v(u) > C(u)); false if v ⊑ C. */
bool dr_cvc_unordered(const DrCtxVC *v, const DrVC *C, uint32_t *tid);
static inline DrAccess dr_cvc_access(const DrCtxVC *v, uint32_t tid, bool write) {
  DrAccess a = {write, tid, v->ctx[tid], v->vc.c[tid]};
  return a;
}

/* --- det_core.c --- */
/* th's clock slot, taken when first asked (det_accordion.c's free slots
 * first); the detectors' "tid" is a slot */
uint32_t dr_det_slot(DrDet *d, const DrThread *th);
/* a slot's state; slot from dr_det_slot */
static inline DrDetThread *dr_det_thread(DrDet *d, uint32_t slot) { return &d->threads[slot]; }
static inline DrDetThread *dr_det_thread_of(DrDet *d, const DrThread *th) {
  return dr_det_thread(d, dr_det_slot(d, th));
}
/* The DrThread id whose clock c of the slot is, and c as that thread
 * counts (from 1, as if it had had the slot from the start). */
uint32_t dr_det_slot_tid(const DrDet *d, uint32_t slot, uint32_t c, uint32_t *rel);
void dr_det_thread_free(DrDet *d, DrDetThread *t);
void dr_det_shadow_each(DrDet *d, void (*fn)(DrDet *d, DrShadow *sh, void *arg), void *arg);
/* An object's shadow, made (without slots) if it has none. */
DrShadow *dr_det_shadow(DrDet *d, DrObj *o);
/* loc's raced bit: already reported (default mode skips it) */
bool dr_det_raced(const DrDet *d, const DrLoc *loc);
void dr_det_mark_raced(DrDet *d, const DrLoc *loc);
/* The shadow of an object, or NULL if it has none yet. */
DrShadow *dr_det_obj_shadow(const DrDet *d, const DrObj *o);

/* An object's shadow with its slots. */
DrShadow *dr_det_shadow_slots(DrDet *d, DrObj *o);

/* th's words for the filter's records and the inline check: its epoch
 * and lockset */
void dr_det_publish(DrDet *d, DrThread *th);

/* --- det_accordion.c: dead threads' slots given back at collections --- */
void dr_det_accordion_retired(DrDet *d, DrDetThread *t);
void dr_det_accordion_gc_end(void *ctx);
uint32_t dr_det_accordion_take(DrDet *d, uint32_t *base);
void dr_det_accordion_print_stats(DrDet *d, FILE *out);
/* one epoch / one clock vector's dead entries (the ops' slot_forget) */
bool dr_det_forget_epoch(DrEpoch *e, const DrVC *floor, const uint8_t *dead, uint8_t *still);
uint32_t dr_det_forget_cvc(DrCtxVC *v, const DrVC *floor, const uint8_t *dead, uint8_t *still);

/* --- det_filter.c: the topological filter's listener side (vm/escape.h) --- */
void dr_det_filter_enable(DrDet *d);
void dr_det_filter_print_stats(DrDet *d, FILE *out);

/* --- det_ctx.c --- */
/* The context of the event e by its thread: its stack and locks. */
uint32_t dr_det_ctx(DrDet *d, const DrEvent *e);
/* ... of an access by th (slot t) at pc of m, its innermost bytecode
 * frame's method: the common case (the same callers as at th's last
 * context, and a context made at this position for them and these
 * locks) inline, the rest in dr_det_ctx_make */
uint32_t dr_det_ctx_make(DrDet *d, DrDetThread *t, const DrThread *th, const DrMethod *m, uint32_t pc);
static inline uint32_t dr_det_ctx_at(DrDet *d, DrDetThread *t, const DrThread *th, const DrMethod *m, uint32_t pc) {
  if (DR_LIKELY(th->pushes == t->memo_pushes && th->nframes == t->memo_nframes && m->id < d->nsite_ctx &&
                d->site_ctx[m->id] && !d->ctx_override)) {
    const struct DrSiteCtx *s = &d->site_ctx[m->id][pc];
    if (s->ctx && s->parent == t->memo_parent && s->lockset == t->lockset) return s->ctx;
  }
  return dr_det_ctx_make(d, t, th, m, pc);
}
/* The lockset of thread t's held monitors (recomputed at sync events). */
uint32_t dr_det_lockset_of(DrDet *d, const DrThread *t);
uint32_t dr_det_lockset_intersect(DrDet *d, uint32_t a, uint32_t b);
const char *dr_det_lockset_text(const DrDet *d, uint32_t ls);
/* Appends "    at Class.method(file:line)\n" lines of ctx to b. */
void dr_det_ctx_stack(DrDet *d, uint32_t ctx, DrBuf *b);
/* "file:line" and "Class.method" of ctx's leaf. */
void dr_det_ctx_pos(DrDet *d, uint32_t ctx, DrBuf *pos, DrBuf *method);
uint32_t dr_det_ctx_lockset(const DrDet *d, uint32_t ctx);
void dr_det_ctx_free(DrDet *d);

/* --- det_report.c --- */
typedef enum {
  DR_WHY_HB,               /* not ordered by happens-before */
  DR_WHY_LOCKSET,          /* Eraser: the candidate lockset became empty */
  DR_WHY_HYBRID,           /* no common lock and not ordered by start/join/notify */
  DR_WHY_WCP,              /* ordered by happens-before, not by WCP: a predicted race */
} DrWhy;
/* Reports a race between the current access cur (at event e) and prev.
 * seen: C_cur(prev.tid) for hb detectors.  Deduplicates as the options
 * say; marks loc raced. */
void dr_det_race(DrDet *d, const DrLoc *loc, const DrEvent *e, DrAccess cur, DrAccess prev, DrWhy why, uint32_t seen);
void dr_det_report_finish(DrDet *d);
void dr_det_report_free(DrDet *d);
/* The statement at ctx as the pairs file names it ("? ? 0" unknown). */
DrPairStmt dr_det_stmt(DrDet *d, uint32_t ctx);
/* Writes pairs to path (the pairs file); false after saying so. */
bool dr_det_write_pairs(DrDet *d, const DrPairs *pairs, const char *path);
/* "Account.balance" or "int[]" of a location's field or array. */
void dr_det_loc_field_name(const DrLoc *loc, DrBuf *b);

/* --- detectors --- */
extern const DrDetOps dr_ft_ops, dr_djit_ops, dr_basicvc_ops, dr_eraser_ops, dr_hybrid_ops, dr_wcp_ops;
/* FastTrack's state of a location (ft.c, and wcp.c's): W_x an epoch, R_x
 * an epoch or, with the top bit set, a DrCtxVC pointer (READ SHARED). */
typedef struct {
  DrEpoch W;
  uint64_t R;
  /* the epoch of the last read R_x holds (DR_EPOCH_NONE once a write
   * empties R_x): a thread whose epoch it is already read here, so the
   * interpreter answers its next read without following R_x's clock
   * vector (vm.h's DrFastCheck) */
  DrEpoch Rlast;
  uint32_t wctx, rctx;
} FtSlot;
void dr_ft_print_stats(DrDet *d, FILE *out);
void dr_ft_slot_free(DrDet *d, void *slot);
/* FastTrack's rules for an access against the clock C instead of C_t
 * (wcp.c: the WCP clock).  A race whose earlier access C_t orders is
 * reported as predicted (DR_WHY_WCP). */
void dr_ft_access_against(DrDet *d, uint32_t tid, void *slot, const DrLoc *loc, const DrEvent *e, bool write,
                          const DrVC *C);
/* The registry (registry.c): a detector's ops by name (NULL: unknown;
 * "empty" and "none" are not DrDetOps), and every name for messages. */
const DrDetOps *dr_det_ops(const char *name);
void dr_det_names(char *out, size_t size);

#endif
