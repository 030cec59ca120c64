/* Vector clocks and epochs, the currency of the happens-before detectors
 * (FastTrack, DJIT+, BasicVC, hybrid).
 *
 * A vector clock maps thread ids to clocks; entries past its length are 0,
 * so clocks grow only as far as the threads they have heard of.  An epoch
 * c@t is one entry: FastTrack's point is that most locations need only
 * one.  Clocks are 32 bits, as in the paper's implementation; a thread
 * that would pass 2^32-1 synchronizations stops the detector with an
 * error rather than wrap. */
#ifndef DR_VC_H
#define DR_VC_H

#include "../vm/common.h"

typedef uint64_t DrEpoch; /* tid in the high 32 bits, clock in the low 32 */

#define DR_EPOCH(tid, clock) (((uint64_t)(tid) << 32) | (uint32_t)(clock))
#define DR_EPOCH_NONE ((DrEpoch)0) /* 0@0: before everything (clocks start at 1) */

static inline uint32_t dr_epoch_tid(DrEpoch e) { return (uint32_t)(e >> 32); }
static inline uint32_t dr_epoch_clock(DrEpoch e) { return (uint32_t)e; }

/* Memory the detector's clocks and shadows use, for --stats and the
 * benchmarks' peak-memory column. */
typedef struct {
  size_t bytes, peak;
  uint64_t vcs_allocated;
  size_t *total;           /* the VM's memory outside its heap (vm->ext_bytes), kept in step */
} DrDetMem;

void dr_mem_add(DrDetMem *m, size_t n);
void dr_mem_sub(DrDetMem *m, size_t n);

typedef struct {
  uint32_t *c;
  uint32_t n, cap;
} DrVC;

static inline uint32_t dr_vc_get(const DrVC *v, uint32_t t) { return t < v->n ? v->c[t] : 0; }
void dr_vc_set(DrVC *v, uint32_t t, uint32_t clock, DrDetMem *m);
/* v(t) += 1; false on overflow */
bool dr_vc_inc(DrVC *v, uint32_t t, DrDetMem *m);
/* a := a join b (pointwise max) */
void dr_vc_join(DrVC *a, const DrVC *b, DrDetMem *m);
/* a := b */
void dr_vc_copy(DrVC *a, const DrVC *b, DrDetMem *m);
/* a is below-or-equal b pointwise (the paper's a ⊑ b); when not, *who is
 * the first thread id where a(t) > b(t) */
bool dr_vc_leq(const DrVC *a, const DrVC *b, uint32_t *who);
void dr_vc_free(DrVC *v, DrDetMem *m);
/* A new empty clock on the heap (counted in vcs_allocated). */
DrVC *dr_vc_new(DrDetMem *m);
void dr_vc_delete(DrVC *v, DrDetMem *m);

/* The epoch c@t is below-or-equal v: c <= v(t) (the paper's ≼). */
static inline bool dr_epoch_leq(DrEpoch e, const DrVC *v) {
  return dr_epoch_clock(e) <= dr_vc_get(v, dr_epoch_tid(e));
}

/* The thread's current epoch E(t) = C_t(t)@t. */
static inline DrEpoch dr_vc_epoch(const DrVC *v, uint32_t t) { return DR_EPOCH(t, dr_vc_get(v, t)); }

#endif
