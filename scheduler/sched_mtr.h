/* DrFinder's may-trigger relations mt(f, c): "method f may trigger an
 * acquisition of a lock of class c" (Cai & Cao, FSE'15, Section 4.3).
 * A set of (method, class) pairs, collected by Algorithm 1 and carried
 * between runs in a text file:
 *
 *   # drvm may-trigger relations (DrFinder): method<TAB>lock class
 *   Bank.transfer(Account,Account,int)<TAB>Account
 *
 * Methods are named as race reports and hybrid's pairs name them: the
 * class's name, '.', the method's readable signature. */
#ifndef DR_SCHED_MTR_H
#define DR_SCHED_MTR_H

#include "../vm/vm.h"

typedef struct {
  uint64_t *keys; /* (method id + 1) << 32 | (class id + 1); 0 = empty slot */
  int cap, count;
} DrMtr;

void dr_mtr_free(DrMtr *m);
/* true if newly added */
bool dr_mtr_add(DrMtr *m, const DrMethod *f, const DrClass *c);
bool dr_mtr_has(const DrMtr *m, const DrMethod *f, const DrClass *c);

/* Algorithm 1, lines 12-16, at t's acquisition of a lock of class c: adds
 * mt(f, c) for the top min(depth, stack size) methods f of t's call stack.
 * The stack holds the program's methods only: like the paper's tool, which
 * does not instrument the standard library, DrFinder does not see the
 * built-in library's frames. */
void dr_mtr_collect(DrMtr *m, const DrThread *t, const DrClass *c, int depth);

/* The method DrFinder calls t's current one (getCurrentMethod in
 * Algorithm 3): its innermost frame in the program's code; NULL if none. */
const DrMethod *dr_mtr_current(const DrThread *t);

/* Reads a relation file; relations naming a method or class this program
 * does not have are skipped and counted in *unknown (the program changed
 * since the file was written).  false with a message in err if the file
 * cannot be read or a line is malformed. */
bool dr_mtr_load(DrMtr *m, DrVM *vm, const char *path, int *unknown, char *err, size_t errsize);
/* Writes the relations sorted by text, so equal sets give equal files. */
bool dr_mtr_save(const DrMtr *m, DrVM *vm, const char *path, char *err, size_t errsize);

#endif
