/* TRaDe's topological filter (Christiaens & De Bosschere, the paper in
 * ../shared/papers/004_*): an object only one thread can reach cannot be
 * in a race, so accesses to it need not reach a detector.
 *
 * A new object is local to the thread that made it.  It becomes global
 * -- for good -- when a reference to it is stored into a global object's
 * field or array element or into a static field, when it is a started
 * Thread (its Runnable is one of its fields), or when it is passed to a
 * user's native method; becoming global is transitive over the references
 * it holds at that moment.  Objects made before the filter was switched
 * on are global.
 *
 * Exactness.  An object written while local and then published without
 * synchronization races with its readers, and a detector must report
 * those races with the right positions and clocks.  So an access to a
 * local object is not dropped but summarized in the object's local
 * record: per slot the context (stack and locks, the listener's id for
 * it) of the read and of the write a detector would keep -- the first of
 * the thread's current epoch (FastTrack, DJIT+, BasicVC keep that one) or
 * the last (Eraser, hybrid).  While the owner's epoch (and, keeping the
 * last, its lockset) stays the same, a local access costs a comparison
 * and at most a store; when it changes, or when the object escapes, the
 * record is handed to the listener (`flush`), which applies the accesses
 * to its state as if it had seen them.  Its state then equals the
 * unfiltered one: every access it summarizes is by one thread, so none
 * of them could have raced with another.
 *
 * The filter is switched on by the listener that wants it (a detector
 * with --filter trade), with the sink below.  Accesses it keeps from the
 * event stream are missing from every listener's stream (a trace shows
 * them only without the filter). */
#ifndef DR_ESCAPE_H
#define DR_ESCAPE_H

#include "object.h"

struct DrThread;

/* An object's owner in its header flags: the id + 1 of the thread it is
 * local to; 0 when global. */
#define DR_OBJ_OWNER_SHIFT 8
#define DR_OBJ_OWNER_MAX ((1u << (32 - DR_OBJ_OWNER_SHIFT)) - 1u)

static inline uint32_t dr_obj_owner(const DrObj *o) { return o->flags >> DR_OBJ_OWNER_SHIFT; }

/* A local object's accesses since its owner's epoch began. */
typedef struct DrLocalRec {
  uint32_t epoch, lockset;   /* the owner's words (DrThread.esc_epoch/esc_lockset) when it began */
  uint32_t nslots;
  uint32_t used;             /* entries set */
  /* per slot i: ctx[2i] the read's context, ctx[2i+1] the write's (0:
   * none); DR_LOCAL_WRITE_LAST in the write entry: the write came after
   * the read */
  uint32_t ctx[];
} DrLocalRec;

#define DR_LOCAL_WRITE_LAST 0x80000000u

/* What a listener gives the filter (dr_esc_enable). */
typedef struct DrEscSink {
  void *self;
  /* the context id of th's access at (m, pc) now: its stack and locks */
  uint32_t (*ctx)(void *self, struct DrThread *th, DrMethod *m, uint32_t pc, bool write);
  /* o's record ends (o escapes or its owner's epoch changed): apply the
   * accesses it summarizes, made by owner */
  void (*flush)(void *self, struct DrThread *owner, DrObj *o, const DrLocalRec *rec);
  bool keep_last;            /* the last access of each kind, not the epoch's first */
} DrEscSink;

/* The filter's counters, for --stats. */
typedef struct {
  uint64_t allocated;        /* objects made local */
  uint64_t escaped;          /* of them, became global */
  uint64_t filtered;         /* accesses to local objects kept from the stream */
  uint64_t flushes;          /* records handed to the listener */
  uint64_t record_bytes, record_peak;
} DrEscStats;

/* Switches the filter on for objects made from now on; NULL switches it
 * off (every object becomes global). */
void dr_esc_enable(DrVM *vm, const DrEscSink *sink);
/* A new object, made by the running thread. */
void dr_esc_new(DrVM *vm, DrObj *o);
/* o becomes reachable by other threads, and with it what it references. */
void dr_esc_publish(DrVM *vm, DrObj *o);
/* An access by th (which owns o) to slot, at (m, pc). */
void dr_esc_note(DrVM *vm, struct DrThread *th, DrObj *o, int32_t slot, bool write, DrMethod *m, uint32_t pc);
/* The GC frees o (local, with a record). */
void dr_esc_free(DrVM *vm, DrObj *o);
const DrEscStats *dr_esc_stats(const DrVM *vm);

#endif
