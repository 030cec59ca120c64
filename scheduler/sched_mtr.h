/* DrFinder's may-trigger relations mt(f, c): "method f may trigger an
 * acquisition of a lock of class c" (Cai & Cao, FSE'15, Section 4.3).
 * A set of (method, class) pairs, collected by Algorithm 1 and carried
 * between runs in a text file:
 *
 *   # drvm may-trigger relations (DrFinder): method<TAB>lock class<TAB>first
 *   Bank.transfer(Account,Account,int)<TAB>Account<TAB>3
 *
 * Methods are named as race reports and hybrid's pairs name them: the
 * class's name, '.', the method's readable signature.  The third column,
 * optional on input, is the number of the run's acquisition that first
 * gave the relation: what --order previous needs to know which of two
 * methods reached their locks first in that run. */
#ifndef DR_SCHED_MTR_H
#define DR_SCHED_MTR_H

#include "../vm/vm.h"

typedef struct {
  uint64_t *keys;  /* (method id + 1) << 32 | (class id + 1); 0 = empty slot */
  uint64_t *first; /* per slot: the acquisition that first gave it (1, 2, ...); 0 = unknown */
  int cap, count;
} DrMtr;

void dr_mtr_free(DrMtr *m);
/* true if newly added */
bool dr_mtr_add(DrMtr *m, const DrMethod *f, const DrClass *c);
/* Adds mt(f, c), first given by acquisition number `first` (0: unknown);
 * an earlier number than the one kept replaces it. */
bool dr_mtr_add_at(DrMtr *m, const DrMethod *f, const DrClass *c, uint64_t first);
bool dr_mtr_has(const DrMtr *m, const DrMethod *f, const DrClass *c);
/* The acquisition that first gave mt(f, c); 0 if absent or unknown. */
uint64_t dr_mtr_first(const DrMtr *m, const DrMethod *f, const DrClass *c);

/* Algorithm 1, lines 12-16, at t's acquisition of a lock of class c, the
 * run's acquisition number `when`: adds mt(f, c) for the top min(depth,
 * stack size) methods f of t's call stack.  The stack holds the program's
 * methods only: like the paper's tool, which does not instrument the
 * standard library, DrFinder does not see the built-in library's frames. */
void dr_mtr_collect(DrMtr *m, const DrThread *t, const DrClass *c, int depth, uint64_t when);

/* The method DrFinder calls t's current one (getCurrentMethod in
 * Algorithm 3): its innermost frame in the program's code; NULL if none. */
const DrMethod *dr_mtr_current(const DrThread *t);

/* Whether a thread still has a lock acquisition ahead in its code
 * (--candidates able): from where each of its program frames stands, a
 * path through the method's code (branches, exception handlers, the
 * caller after a return) reaches a monitorenter, or a call of a method
 * that is synchronized or has a relation in m (for a virtual call, any
 * method of the same signature).  Per method, computed on first use. */
typedef struct {
  uint8_t **ahead;    /* per method id: per pc, 1 if an acquisition may come at or after it; NULL: not yet */
  uint8_t *acquires;  /* per method id: 1 synchronized or with a relation, 2 neither; 0: not yet */
  int n;
} DrMtrAhead;
bool dr_mtr_ahead(DrMtrAhead *a, const DrMtr *m, const DrVM *vm, const DrThread *t);
void dr_mtr_ahead_free(DrMtrAhead *a);

/* Reads a relation file; relations naming a method or class this program
 * does not have are skipped and counted in *unknown (the program changed
 * since the file was written).  false with a message in err if the file
 * cannot be read or a line is malformed. */
bool dr_mtr_load(DrMtr *m, DrVM *vm, const char *path, int *unknown, char *err, size_t errsize);
/* The same from the file's text in memory (path names it in messages):
 * what tests/fuzz reads. */
bool dr_mtr_parse(DrMtr *m, DrVM *vm, const char *text, size_t len, const char *path, int *unknown, char *err,
                  size_t errsize);
/* Writes the relations sorted by text, so equal sets give equal files. */
bool dr_mtr_save(const DrMtr *m, DrVM *vm, const char *path, char *err, size_t errsize);

#endif
