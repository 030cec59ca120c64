/* The race detectors from the inside: vector clocks and epochs (vc.h),
 * then FastTrack rule by rule, each rule driven by a hand-written event
 * sequence fed straight to the detector's listener (no interpreter, no
 * scheduler: the threads are DrThreads with no frames, the locations are
 * fields of real objects of a compiled class).  The same sequences run
 * through DJIT+ and BasicVC, which must report the very same races, and
 * through Eraser and hybrid, whose imprecision shows where FastTrack is
 * right.  Last, a report and its JSON, line by line. */
#include <string.h>
#include <unistd.h>

#include "../../detector/det.h"
#include "check.h"
#include "run_prog.h"

/* ================================================ vector clocks, epochs */

static void test_vc_basics(DrCheck *t) {
  DrDetMem m;
  memset(&m, 0, sizeof m);
  DrVC a = {0}, b = {0};
  /* entries past the length are 0 */
  CHECK(t, dr_vc_get(&a, 0) == 0 && dr_vc_get(&a, 1000) == 0);
  CHECK(t, a.n == 0 && m.bytes == 0);
  dr_vc_set(&a, 3, 7, &m);
  CHECK(t, a.n == 4);
  CHECK(t, dr_vc_get(&a, 3) == 7);
  CHECK(t, dr_vc_get(&a, 0) == 0 && dr_vc_get(&a, 2) == 0 && dr_vc_get(&a, 4) == 0 && dr_vc_get(&a, 99) == 0);
  CHECK(t, m.bytes == sizeof(uint32_t) * a.cap && a.cap >= 4);
  /* inc extends and counts from 0 */
  CHECK(t, dr_vc_inc(&a, 6, &m));
  CHECK(t, a.n == 7 && dr_vc_get(&a, 6) == 1 && dr_vc_get(&a, 5) == 0);
  CHECK(t, dr_vc_inc(&a, 3, &m) && dr_vc_get(&a, 3) == 8);
  CHECK(t, m.bytes == sizeof(uint32_t) * a.cap);

  /* join: pointwise max, a grows to b's length, b unchanged */
  dr_vc_set(&b, 0, 5, &m);
  dr_vc_set(&b, 3, 2, &m);
  dr_vc_set(&b, 9, 4, &m);
  dr_vc_join(&a, &b, &m);
  CHECK(t, dr_vc_get(&a, 0) == 5 && dr_vc_get(&a, 3) == 8 && dr_vc_get(&a, 6) == 1 && dr_vc_get(&a, 9) == 4);
  CHECK(t, a.n == 10);
  CHECK(t, dr_vc_get(&b, 3) == 2 && dr_vc_get(&b, 6) == 0 && b.n == 10);

  /* leq (⊑) and its witness */
  uint32_t who = 12345;
  CHECK(t, dr_vc_leq(&b, &a, &who));
  CHECK(t, who == 12345); /* untouched when it holds */
  CHECK(t, !dr_vc_leq(&a, &b, &who));
  CHECK(t, who == 3); /* the first t with a(t) > b(t): 8 > 2 at 3 (6 too, later) */
  CHECK(t, dr_vc_leq(&a, &a, NULL));
  CHECK(t, !dr_vc_leq(&a, &b, NULL));
  DrVC e = {0}, z = {0};
  CHECK(t, dr_vc_leq(&e, &a, &who) && dr_vc_leq(&e, &e, &who));
  /* a longer clock whose extra entries are 0 is still below a shorter one */
  dr_vc_set(&z, 5, 0, &m);
  dr_vc_set(&z, 1, 3, &m);
  dr_vc_set(&e, 1, 3, &m);
  CHECK(t, z.n == 6 && e.n == 2);
  CHECK(t, dr_vc_leq(&z, &e, NULL) && dr_vc_leq(&e, &z, NULL));
  dr_vc_set(&z, 4, 1, &m);
  CHECK(t, !dr_vc_leq(&z, &e, &who) && who == 4);

  /* copy: a := b, shrinking too (entries past b's length read 0) */
  size_t before = m.bytes;
  dr_vc_copy(&a, &e, &m);
  CHECK(t, a.n == 2 && dr_vc_get(&a, 1) == 3 && dr_vc_get(&a, 0) == 0);
  CHECK(t, dr_vc_get(&a, 3) == 0 && dr_vc_get(&a, 9) == 0);
  CHECK(t, m.bytes == before); /* a already had room: nothing allocated */
  CHECK(t, dr_vc_leq(&a, &e, NULL) && dr_vc_leq(&e, &a, NULL));
  DrVC c = {0};
  dr_vc_copy(&c, &b, &m);
  CHECK(t, c.n == b.n && dr_vc_get(&c, 9) == 4 && dr_vc_get(&c, 0) == 5 && dr_vc_get(&c, 3) == 2);
  CHECK(t, m.bytes == before + sizeof(uint32_t) * c.cap);
  DrVC empty = {0};
  dr_vc_copy(&c, &empty, &m); /* copying an empty clock empties it */
  CHECK(t, c.n == 0 && dr_vc_get(&c, 9) == 0);

  dr_vc_free(&a, &m);
  dr_vc_free(&b, &m);
  dr_vc_free(&c, &m);
  dr_vc_free(&e, &m);
  dr_vc_free(&z, &m);
  CHECK(t, a.c == NULL && a.n == 0 && a.cap == 0);
  CHECK(t, m.bytes == 0);
  CHECK(t, m.peak >= 5 * 4 * sizeof(uint32_t));
  CHECK(t, m.vcs_allocated == 0); /* only dr_vc_new counts clocks */
}

static void test_epochs(DrCheck *t) {
  DrEpoch e = DR_EPOCH(3, 9);
  CHECK(t, dr_epoch_tid(e) == 3 && dr_epoch_clock(e) == 9);
  CHECK(t, e == (((uint64_t)3 << 32) | 9));
  DrEpoch big = DR_EPOCH(0x7fffffffu, UINT32_MAX);
  CHECK(t, dr_epoch_tid(big) == 0x7fffffffu && dr_epoch_clock(big) == UINT32_MAX);
  CHECK(t, dr_epoch_tid(DR_EPOCH(1, 0)) == 1 && dr_epoch_clock(DR_EPOCH(1, 0)) == 0);
  CHECK(t, DR_EPOCH(0, 0) == DR_EPOCH_NONE);
  CHECK(t, dr_epoch_tid(DR_EPOCH_NONE) == 0 && dr_epoch_clock(DR_EPOCH_NONE) == 0);
  /* a clock wider than 32 bits is cut to its low half, not spilled into the tid */
  CHECK(t, DR_EPOCH(2, (uint64_t)1 << 32 | 5) == DR_EPOCH(2, 5));

  DrDetMem m;
  memset(&m, 0, sizeof m);
  DrVC v = {0};
  CHECK(t, dr_epoch_leq(DR_EPOCH_NONE, &v)); /* ⊥e is below everything */
  CHECK(t, !dr_epoch_leq(DR_EPOCH(0, 1), &v));
  dr_vc_set(&v, 3, 7, &m);
  CHECK(t, dr_epoch_leq(DR_EPOCH(3, 7), &v));
  CHECK(t, dr_epoch_leq(DR_EPOCH(3, 6), &v));
  CHECK(t, !dr_epoch_leq(DR_EPOCH(3, 8), &v));
  CHECK(t, dr_epoch_leq(DR_EPOCH(2, 0), &v) && !dr_epoch_leq(DR_EPOCH(2, 1), &v));
  CHECK(t, dr_epoch_leq(DR_EPOCH(50, 0), &v) && !dr_epoch_leq(DR_EPOCH(50, 1), &v)); /* beyond the length */
  CHECK(t, dr_vc_epoch(&v, 3) == DR_EPOCH(3, 7));
  CHECK(t, dr_vc_epoch(&v, 1) == DR_EPOCH(1, 0));
  CHECK(t, dr_vc_epoch(&v, 77) == DR_EPOCH(77, 0));
  CHECK(t, dr_epoch_leq(dr_vc_epoch(&v, 3), &v));
  dr_vc_free(&v, &m);
  CHECK(t, m.bytes == 0);
}

static void test_vc_memory(DrCheck *t) {
  DrDetMem m;
  memset(&m, 0, sizeof m);
  DrVC *a = dr_vc_new(&m);
  CHECK(t, a && a->n == 0 && a->c == NULL);
  CHECK(t, m.vcs_allocated == 1 && m.bytes == sizeof(DrVC) && m.peak == sizeof(DrVC));
  DrVC *b = dr_vc_new(&m);
  CHECK(t, m.vcs_allocated == 2 && m.bytes == 2 * sizeof(DrVC));
  dr_vc_set(a, 9, 1, &m); /* room for 10 entries: capacity 16 */
  CHECK(t, a->cap >= 10);
  size_t a_bytes = sizeof(uint32_t) * a->cap;
  CHECK(t, m.bytes == 2 * sizeof(DrVC) + a_bytes);
  dr_vc_set(b, 0, 1, &m);
  size_t b_bytes = sizeof(uint32_t) * b->cap;
  size_t top = 2 * sizeof(DrVC) + a_bytes + b_bytes;
  CHECK(t, m.bytes == top && m.peak == top);
  dr_vc_delete(a, &m);
  CHECK(t, m.bytes == sizeof(DrVC) + b_bytes);
  CHECK(t, m.peak == top); /* the peak is kept */
  dr_vc_join(b, b, &m);    /* joining itself changes nothing */
  CHECK(t, dr_vc_get(b, 0) == 1 && m.bytes == sizeof(DrVC) + b_bytes);
  dr_vc_delete(b, &m);
  dr_vc_delete(NULL, &m); /* no-op */
  CHECK(t, m.bytes == 0);
  CHECK(t, m.peak == top);
  CHECK(t, m.vcs_allocated == 2); /* a count of allocations, not of live clocks */
  /* the adders themselves */
  dr_mem_add(&m, 10);
  dr_mem_sub(&m, 4);
  dr_mem_add(&m, 2);
  CHECK(t, m.bytes == 8 && m.peak == top);
  dr_mem_sub(&m, 8);
  CHECK(t, m.bytes == 0);
}

static void test_vc_overflow(DrCheck *t) {
  DrDetMem m;
  memset(&m, 0, sizeof m);
  DrVC v = {0};
  dr_vc_set(&v, 2, UINT32_MAX - 1, &m);
  CHECK(t, dr_vc_inc(&v, 2, &m));
  CHECK(t, dr_vc_get(&v, 2) == UINT32_MAX);
  CHECK(t, !dr_vc_inc(&v, 2, &m));            /* would wrap: refused */
  CHECK(t, dr_vc_get(&v, 2) == UINT32_MAX);   /* and unchanged */
  CHECK(t, !dr_vc_inc(&v, 2, &m));
  CHECK(t, dr_vc_inc(&v, 1, &m) && dr_vc_get(&v, 1) == 1); /* others unaffected */
  CHECK(t, dr_epoch_clock(dr_vc_epoch(&v, 2)) == UINT32_MAX && dr_epoch_tid(dr_vc_epoch(&v, 2)) == 2);
  dr_vc_free(&v, &m);
  CHECK(t, m.bytes == 0);
}

/* ======================================================== the fixture */

/* Line numbers matter: reports and ids name them. */
static const char *const prog =
    "public class Main {\n"                     /* 1 */
    "  public static void main(String[] a) {\n" /* 2 */
    "    System.out.println(1);\n"              /* 3: forks, joins, locks happen here */
    "  }\n"                                     /* 4 */
    "}\n"                                       /* 5 */
    "class Acc {\n"                             /* 6 */
    "  int x; int y; int v;\n"                  /* 7 */
    "  static int s;\n"                         /* 8 */
    "  void writer() {\n"                       /* 9 */
    "    x = 1;\n"                              /* 10: every write */
    "  }\n"                                     /* 11 */
    "  int reader() {\n"                        /* 12 */
    "    return x;\n"                           /* 13: every read */
    "  }\n"                                     /* 14 */
    "}\n";

#define NTH 4 /* T0 = main, T1..T3 */

typedef struct {
  DrCheck *t;
  DrVM vm;
  bool ok;
  DrClass *acc;
  DrObj *obj[2];   /* Acc#1, Acc#2 */
  DrObj *lk[2];    /* Main#1, Main#2: locks */
  DrArray *arr;    /* int[]#1, 4 elements */
  DrThread *th[NTH];
  DrMethod *m_main, *m_writer, *m_reader;
  uint32_t pc_main, pc_writer, pc_reader;
  int fx, fy, fv, ss;
  DrListener *l;
  DrDet *d;
  DrDetectorResult res;
  FILE *err;
  char *err_text;  /* after fx_close */
} Fx;

static DrMethod *find_method(DrVM *vm, const char *cls, const char *name) {
  for (int i = 0; i < vm->nmethods; i++)
    if (!strcmp(vm->methods[i]->name, name) && !strcmp(vm->methods[i]->owner->name, cls)) return vm->methods[i];
  return NULL;
}

static uint32_t pc_of_line(const DrMethod *m, int line) {
  for (int pc = 0; m && pc < m->code_len; pc++)
    if (dr_method_line(m, (uint32_t)pc) == line) return (uint32_t)pc;
  return UINT32_MAX;
}

static int field_slot(const DrClass *c, const char *name) {
  for (int i = 0; i < c->nfields; i++)
    if (!strcmp(c->field_names[i], name)) return i;
  return -1;
}

/* A VM with the compiled program, objects and threads, and detector `name`
 * attached (not through dr_add_listener: events are fed by hand). */
static bool fx_open(Fx *f, DrCheck *t, const char *name, const DrDetectorOptions *base) {
  memset(f, 0, sizeof *f);
  f->t = t;
  dr_vm_init(&f->vm);
  f->vm.source_name = "t.dl";
  DrClass *mainc = compile_text(&f->vm, prog, "t.dl");
  CHECK(t, mainc != NULL);
  if (!mainc) {
    dr_vm_free(&f->vm);
    return false;
  }
  f->err = tmpfile();
  CHECK(t, f->err != NULL);
  if (!f->err) {
    dr_vm_free(&f->vm);
    return false;
  }
  f->vm.err_file = f->err;
  f->vm.out_file = f->err;
  f->acc = dr_find_class(&f->vm, "Acc");
  f->m_main = find_method(&f->vm, "Main", "main");
  f->m_writer = find_method(&f->vm, "Acc", "writer");
  f->m_reader = find_method(&f->vm, "Acc", "reader");
  f->pc_main = pc_of_line(f->m_main, 3);
  f->pc_writer = pc_of_line(f->m_writer, 10);
  f->pc_reader = pc_of_line(f->m_reader, 13);
  CHECK(t, f->acc && f->m_main && f->m_writer && f->m_reader);
  CHECK(t, f->pc_main != UINT32_MAX && f->pc_writer != UINT32_MAX && f->pc_reader != UINT32_MAX);
  f->fx = field_slot(f->acc, "x");
  f->fy = field_slot(f->acc, "y");
  f->fv = field_slot(f->acc, "v");
  f->ss = -1;
  for (int i = 0; i < f->acc->nstatics; i++)
    if (!strcmp(f->acc->static_names[i], "s")) f->ss = i;
  CHECK(t, f->fx >= 0 && f->fy >= 0 && f->fv >= 0 && f->ss >= 0);
  for (int i = 0; i < 2; i++) {
    f->obj[i] = dr_new_instance(&f->vm, f->acc);
    dr_push_root(&f->vm, f->obj[i]);
  }
  for (int i = 0; i < 2; i++) {
    f->lk[i] = dr_new_instance(&f->vm, mainc);
    dr_push_root(&f->vm, f->lk[i]);
  }
  f->arr = dr_new_array(&f->vm, dr_prim_array_class(&f->vm, DR_K_INT), 4);
  dr_push_root(&f->vm, &f->arr->hdr);
  CHECK(t, f->obj[0]->serial == 1 && f->obj[1]->serial == 2 && f->lk[0]->serial == 1 && f->arr->hdr.serial == 1);
  CHECK(t, f->vm.nall_threads == 0);
  for (int i = 0; i < NTH; i++) {
    f->th[i] = dr_thread_new(&f->vm);
    CHECK(t, f->th[i]->id == i);
    if (i > 0) {
      char nb[32];
      snprintf(nb, sizeof nb, "Thread-%d", i - 1);
      f->th[i]->ended_name = dr_strdup(nb); /* the name it reports under */
    }
  }
  f->vm.thread = f->th[0];
  DrDetectorOptions o;
  if (base) o = *base;
  else memset(&o, 0, sizeof o);
  o.name = name;
  char err[200];
  f->l = dr_detector_new(&f->vm, &o, &f->res, err, sizeof err);
  CHECK(t, f->l != NULL);
  if (!f->l) {
    fprintf(stderr, "detector %s: %s\n", name, err);
    fclose(f->err);
    dr_vm_free(&f->vm);
    return false;
  }
  f->d = strcmp(name, "empty") ? (DrDet *)f->l : NULL;
  f->ok = f->acc && f->m_main && f->m_writer && f->m_reader && f->fx >= 0 && f->ss >= 0;
  return true;
}

/* The whole of fp (a file just written, or just opened for reading). */
static char *read_all(FILE *fp) {
  fflush(fp);
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  rewind(fp);
  char *buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
  if (n > 0 && fread(buf, 1, (size_t)n, fp) != (size_t)n) buf[0] = 0;
  return buf;
}

/* Finishes the detector (it frees itself), keeps what it printed in
 * f->err_text (the caller frees it), frees the VM. */
static void fx_close(Fx *f) {
  f->l->finish(f->l, &f->vm);
  f->l = NULL;
  f->d = NULL;
  f->err_text = read_all(f->err);
  fclose(f->err);
  f->vm.err_file = stderr;
  f->vm.out_file = stdout;
  dr_vm_free(&f->vm);
}

static void emit(Fx *f, DrEvent *e) { f->l->event(f->l, &f->vm, e); }

static void ev_init(DrEvent *e, DrEventKind k, Fx *f, int tid) {
  memset(e, 0, sizeof *e);
  e->kind = k;
  e->thread = f->th[tid];
  e->field = -1;
  e->method = f->m_main;
  e->pc = f->pc_main;
}

/* An access by tid to field `field` of o (o NULL: the static slot). */
static void access_ev(Fx *f, DrEventKind k, int tid, DrObj *o, int field) {
  DrEvent e;
  ev_init(&e, k, f, tid);
  e.obj = o;
  e.cls = o ? o->cls : f->acc;
  e.is_static = o == NULL;
  e.field = field;
  bool w = k == DR_EV_WRITE || k == DR_EV_VWRITE;
  e.method = w ? f->m_writer : f->m_reader;
  e.pc = w ? f->pc_writer : f->pc_reader;
  f->vm.thread = f->th[tid];
  emit(f, &e);
}

/* the usual location: Acc#1.x */
static void rd(Fx *f, int tid) { access_ev(f, DR_EV_READ, tid, f->obj[0], f->fx); }
static void wr(Fx *f, int tid) { access_ev(f, DR_EV_WRITE, tid, f->obj[0], f->fx); }
static void vrd(Fx *f, int tid) { access_ev(f, DR_EV_VREAD, tid, f->obj[0], f->fv); }
static void vwr(Fx *f, int tid) { access_ev(f, DR_EV_VWRITE, tid, f->obj[0], f->fv); }

static void sync_ev(Fx *f, DrEventKind k, int tid, DrObj *o, int other) {
  DrEvent e;
  ev_init(&e, k, f, tid);
  e.obj = o;
  e.cls = o ? o->cls : NULL;
  e.other = other >= 0 ? f->th[other] : NULL;
  f->vm.thread = f->th[tid];
  emit(f, &e);
}

static void held_add(DrThread *th, DrObj *o) {
  DrHeld h = {o, 0};
  DR_PUSH(th->held, th->nheld, th->held_cap, h);
}

static void held_remove(DrThread *th, DrObj *o) {
  for (int i = 0; i < th->nheld; i++)
    if (th->held[i].obj == o) {
      memmove(&th->held[i], &th->held[i + 1], sizeof(DrHeld) * (size_t)(th->nheld - i - 1));
      th->nheld--;
      return;
    }
}

/* as the VM reports them: after they took effect */
static void acq(Fx *f, int tid, int lock) {
  held_add(f->th[tid], f->lk[lock]);
  sync_ev(f, DR_EV_ACQUIRE, tid, f->lk[lock], -1);
}
static void rel(Fx *f, int tid, int lock) {
  held_remove(f->th[tid], f->lk[lock]);
  sync_ev(f, DR_EV_RELEASE, tid, f->lk[lock], -1);
}
static void wait_(Fx *f, int tid, int lock) {
  held_remove(f->th[tid], f->lk[lock]);
  sync_ev(f, DR_EV_WAIT, tid, f->lk[lock], -1);
}
static void wake(Fx *f, int tid, int lock) {
  held_add(f->th[tid], f->lk[lock]);
  sync_ev(f, DR_EV_WAKE, tid, f->lk[lock], -1);
}
static void notify(Fx *f, int tid, int lock) { sync_ev(f, DR_EV_NOTIFY, tid, f->lk[lock], -1); }
static void fork_(Fx *f, int tid, int child) { sync_ev(f, DR_EV_FORK, tid, NULL, child); }
static void join_(Fx *f, int tid, int child) { sync_ev(f, DR_EV_JOIN, tid, NULL, child); }
/* T0 starts T1..Tn: C_1 = {0:1,1:1}, C_2 = {0:2,2:1}, C_3 = {0:3,3:1}; C_0(0) = n+1 */
static void start(Fx *f, int n) {
  for (int i = 1; i <= n; i++) fork_(f, 0, i);
}

/* FastTrack's rule counters, in ft.c's order (checked against the names
 * --stats prints for them, see ft_stats_agree) */
enum { R_SAME, R_SH_SAME, R_SHARED, R_EXCL, R_SHARE, W_SAME, W_EXCL, W_SHARED, NRULES };
static const char *const rule_names[NRULES] = {"READ SAME EPOCH", "READ SHARED SAME EPOCH", "READ SHARED",
                                                "READ EXCLUSIVE", "READ SHARE", "WRITE SAME EPOCH",
                                                "WRITE EXCLUSIVE", "WRITE SHARED"};
/* DJIT+/BasicVC's, in djit.c's order */
enum { VC_RSE, VC_READ, VC_WSE, VC_WRITE, VC_CMP };

/* FastTrack's per-location state (det.h's FtSlot): W an epoch, R an epoch
 * or (top bit set) a DrCtxVC pointer, Rlast the last read R holds. */
typedef FtSlot FtSlotView;
#define FT_SHARED ((uint64_t)1 << 63)

static FtSlotView *ft_slot(Fx *f, DrObj *o, int field) {
  DrShadow *sh = dr_det_obj_shadow(f->d, o);
  if (!sh || dr_ft_ops.slot_size != sizeof(FtSlotView)) return NULL;
  return (FtSlotView *)(DR_SHADOW_SLOTS(sh) + dr_ft_ops.slot_size * (size_t)field);
}

static DrCtxVC *ft_rvc(const FtSlotView *s) {
  return (s->R & FT_SHARED) ? (DrCtxVC *)(uintptr_t)(s->R & ~FT_SHARED) : NULL;
}

static bool rules_are(Fx *f, const uint64_t *want) {
  bool ok = true;
  for (int i = 0; i < NRULES; i++)
    if (f->d->rule[i] != want[i]) {
      fprintf(stderr, "  rule %s: %llu, expected %llu\n", rule_names[i], (unsigned long long)f->d->rule[i],
              (unsigned long long)want[i]);
      ok = false;
    }
  return ok;
}

/* Races as one string: "Acc.x:W2@1<R1@1;..." -- the location, the
 * current access (kind, thread, its clock), the previous one. */
static void race_sig(const DrDet *d, char *buf, size_t size) {
  buf[0] = 0;
  size_t n = 0;
  for (int i = 0; i < d->nraces && n < size; i++) {
    const DrRace *r = &d->races[i];
    n += (size_t)snprintf(buf + n, size - n, "%s%s:%c%u@%u<%c%u@%u", i ? ";" : "", r->location,
                          r->cur.write ? 'W' : 'R', (unsigned)r->cur.tid, (unsigned)r->cur.clock,
                          r->prev.write ? 'W' : 'R', (unsigned)r->prev.tid, (unsigned)r->prev.clock);
  }
}

static void race_ids(const DrDet *d, char *buf, size_t size) {
  buf[0] = 0;
  size_t n = 0;
  for (int i = 0; i < d->nraces && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ";" : "", d->races[i].id);
}

/* The number printed for `name` by --stats ("  NAME    123 ..."), or -1.
 * The whole name, then spaces, then the number: "READ SHARED" must not
 * match the line of "READ SHARED SAME EPOCH". */
static long long stat_of(const char *text, const char *name) {
  char key[64];
  snprintf(key, sizeof key, "\n  %s ", name);
  for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
    const char *q = p + strlen(key);
    while (*q == ' ') q++;
    if (*q >= '0' && *q <= '9') return strtoll(q, NULL, 10);
  }
  return -1;
}

static void test_stat_of(DrCheck *t) {
  static const char *const text = "drvm: ft statistics\n"
                                  "  READ SHARED SAME EPOCH                3   50.0% of reads\n"
                                  "  READ SHARED                           1   16.7% of reads\n"
                                  "  READ SAME EPOCH                       0    0.0% of reads\n";
  CHECK(t, stat_of(text, "READ SHARED") == 1);
  CHECK(t, stat_of(text, "READ SHARED SAME EPOCH") == 3);
  CHECK(t, stat_of(text, "READ SAME EPOCH") == 0);
  CHECK(t, stat_of(text, "READ") == -1 && stat_of(text, "WRITE SHARED") == -1);
}

/* ============================================== the event sequences */

typedef struct {
  const char *name;
  void (*run)(Fx *f);
  uint64_t ft[NRULES];     /* FastTrack's rule counts */
  const char *races;       /* race_sig of ft, djit and basicvc */
  int eraser, hybrid;      /* reports expected from the imprecise ones (-1: don't care) */
} Seq;

/* [READ EXCLUSIVE] then [READ SAME EPOCH] */
static void s_read_same_epoch(Fx *f) {
  start(f, 1);
  rd(f, 1);
  rd(f, 1);
}

/* [READ SHARE] (T2's read unordered with T1's), [READ SHARED SAME EPOCH]
 * for both readers, then [READ SHARED] once T1's epoch moved on */
static void s_read_share(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  rd(f, 1); /* READ EXCLUSIVE */
  rd(f, 2); /* READ SHARE */
  rd(f, 2); /* READ SHARED SAME EPOCH */
  rd(f, 1); /* READ SHARED SAME EPOCH: T1's entry is its epoch */
  rel(f, 1, 0);
  rd(f, 1); /* READ SHARED: new epoch 2@T1 */
  rd(f, 1); /* READ SHARED SAME EPOCH */
}

/* [WRITE SHARED] with a read-write race: the previous access named is the
 * most recent unordered read (T2's), not the lowest or highest thread */
static void s_write_shared_race3(Fx *f) {
  start(f, 3);
  rd(f, 1); /* READ EXCLUSIVE */
  rd(f, 3); /* READ SHARE */
  rd(f, 2); /* READ SHARED */
  wr(f, 0); /* WRITE SHARED: race with T2's read */
}

/* T1 writes after its own read and T2's unordered one */
static void s_write_shared_race(Fx *f) {
  start(f, 2);
  rd(f, 1);
  rd(f, 2);
  wr(f, 1); /* WRITE SHARED: race with T2's read; T1's own is ordered */
}

/* [WRITE SHARED] with every read joined: no race, R back to an epoch */
static void s_write_shared_ok(Fx *f) {
  start(f, 2);
  rd(f, 1);     /* READ EXCLUSIVE */
  rd(f, 2);     /* READ SHARE */
  join_(f, 0, 1);
  join_(f, 0, 2);
  wr(f, 0);     /* WRITE SHARED */
  wr(f, 0);     /* WRITE SAME EPOCH */
  rd(f, 0);     /* READ EXCLUSIVE: R is an epoch again (⊥) */
  rd(f, 0);     /* READ SAME EPOCH */
}

/* fork/join-ordered writes: [WRITE EXCLUSIVE] each time, no race (Eraser:
 * a false alarm on the hand-off) */
static void s_fork_join(Fx *f) {
  wr(f, 0);     /* WRITE EXCLUSIVE: W = ⊥ before */
  start(f, 1);
  wr(f, 1);     /* WRITE EXCLUSIVE: 1@T0 ≼ C_1 through the fork */
  rd(f, 1);     /* READ EXCLUSIVE */
  join_(f, 0, 1);
  wr(f, 0);     /* WRITE EXCLUSIVE: W and R of T1 ≼ C_0 through the join */
}

/* write-write race, no synchronization; later accesses to the raced
 * location are not checked again */
static void s_ww_race(Fx *f) {
  start(f, 2);
  wr(f, 1);
  wr(f, 2); /* WRITE EXCLUSIVE: race */
  wr(f, 1); /* not rechecked */
  rd(f, 2);
}

/* the same, ordered by release -> acquire of one lock */
static void s_lock_ok(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  wr(f, 1);
  rel(f, 1, 0);
  acq(f, 2, 0);
  wr(f, 2);
  rd(f, 2);
  rel(f, 2, 0);
}

/* the acquire came before the release: no edge */
static void s_lock_wrong_order(Fx *f) {
  start(f, 2);
  acq(f, 2, 0);
  rel(f, 2, 0);
  acq(f, 1, 0);
  wr(f, 1);
  rel(f, 1, 0);
  wr(f, 2);
}

/* two different locks: no edge.  Eraser misses this one: T1's write
 * leaves x exclusive (its lockset never enters C(x)), T2's write makes
 * it shared-modified with C(x) = {Main#2}, not empty. */
static void s_lock_different(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  wr(f, 1);
  rel(f, 1, 0);
  acq(f, 2, 1);
  wr(f, 2);
  rel(f, 2, 1);
}

/* ordered through a lock neither access holds: FastTrack says no race;
 * Eraser and hybrid flag it (the lock order could have been the other) */
static void s_lock_hidden(Fx *f) {
  start(f, 2);
  wr(f, 1);
  acq(f, 1, 0);
  rel(f, 1, 0);
  acq(f, 2, 0);
  rel(f, 2, 0);
  wr(f, 2);
}

/* volatile write -> later volatile read of the same field is an edge
 * (Eraser ignores volatiles and says nothing either: T2's read only makes
 * x shared, and reads alone never report) */
static void s_volatile_ok(Fx *f) {
  start(f, 2);
  wr(f, 1);
  vwr(f, 1);
  vrd(f, 2);
  rd(f, 2);
}

/* ... but not a volatile read that came first */
static void s_volatile_late(Fx *f) {
  start(f, 2);
  vrd(f, 2);
  wr(f, 1);
  vwr(f, 1);
  rd(f, 2);
}

/* ... nor a volatile write of another field */
static void s_volatile_other_field(Fx *f) {
  start(f, 2);
  wr(f, 1);
  vwr(f, 1);
  access_ev(f, DR_EV_VREAD, 2, f->obj[1], f->fv); /* Acc#2.v, not Acc#1.v */
  rd(f, 2);
}

/* wait = release then acquire: T1 never releases otherwise.  Every
 * access holds Main#1, so Eraser and hybrid are silent too. */
static void s_wait(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  wr(f, 1);
  wait_(f, 1, 0);
  acq(f, 2, 0);
  wr(f, 2);   /* ordered after T1's write by the wait's release */
  notify(f, 2, 0);
  rel(f, 2, 0);
  wake(f, 1, 0);
  rd(f, 1);   /* ordered after T2's write by the wake's acquire */
}

/* without the wake's acquire, T1's read races with T2's write; it holds
 * no lock, so Eraser's C(x) = {Main#1} ∩ {} is empty and hybrid finds
 * no common lock and no notify -> wake edge either */
static void s_wait_no_wake(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  wr(f, 1);
  wait_(f, 1, 0);
  acq(f, 2, 0);
  wr(f, 2);
  notify(f, 2, 0);
  rel(f, 2, 0);
  rd(f, 1);
}

/* child's end -> join */
static void s_join(Fx *f) {
  start(f, 1);
  wr(f, 1);
  join_(f, 0, 1);
  rd(f, 0);
}

static void s_join_missing(Fx *f) {
  start(f, 1);
  wr(f, 1);
  rd(f, 0);
}

static void s_join_wrong_thread(Fx *f) {
  start(f, 2);
  wr(f, 1);
  join_(f, 0, 2);
  rd(f, 0);
}

/* interrupt -> the interrupted thread noticing it */
static void s_interrupt(Fx *f) {
  start(f, 2);
  wr(f, 1);
  sync_ev(f, DR_EV_INTERRUPT, 1, NULL, 2);
  sync_ev(f, DR_EV_INTERRUPTED, 2, NULL, 2);
  rd(f, 2);
}

static void s_interrupt_unseen(Fx *f) {
  start(f, 2);
  wr(f, 1);
  sync_ev(f, DR_EV_INTERRUPT, 1, NULL, 2);
  rd(f, 2);
}

/* a class's initialization -> another thread's static access */
static void s_init(Fx *f) {
  start(f, 2);
  access_ev(f, DR_EV_WRITE, 1, NULL, f->ss);
  DrEvent e;
  ev_init(&e, DR_EV_INIT, f, 1);
  e.cls = f->acc;
  emit(f, &e);
  access_ev(f, DR_EV_READ, 2, NULL, f->ss);
}

static void s_init_missing(Fx *f) {
  start(f, 2);
  access_ev(f, DR_EV_WRITE, 1, NULL, f->ss);
  access_ev(f, DR_EV_READ, 2, NULL, f->ss);
}

/* locations are per object and per field; one report per field */
static void s_locations(Fx *f) {
  start(f, 2);
  wr(f, 1);                                       /* Acc#1.x */
  access_ev(f, DR_EV_WRITE, 2, f->obj[1], f->fx); /* Acc#2.x: another location, no race */
  access_ev(f, DR_EV_WRITE, 2, f->obj[0], f->fy); /* Acc#1.y: another location, no race */
  access_ev(f, DR_EV_READ, 1, f->obj[0], f->fy);  /* race on Acc.y: the read's [READ EXCLUSIVE] fails W ≼ C */
  access_ev(f, DR_EV_WRITE, 1, f->obj[1], f->fx); /* race on Acc#2.x: the first on field Acc.x, reported */
  wr(f, 2);                                       /* race on Acc#1.x: same field Acc.x, not reported again */
}

/* array elements are locations */
static void s_array(Fx *f) {
  DrEvent e;
  ev_init(&e, DR_EV_NEW, f, 0);
  e.obj = &f->arr->hdr;
  e.cls = f->arr->hdr.cls;
  emit(f, &e);
  start(f, 2);
  access_ev(f, DR_EV_WRITE, 1, &f->arr->hdr, 1);
  access_ev(f, DR_EV_WRITE, 2, &f->arr->hdr, 2);
  access_ev(f, DR_EV_READ, 2, &f->arr->hdr, 1);
}

static const Seq seqs[] = {
    /* name                  run                     RSE RSSE RSH REX RSHARE WSE WEX WSH */
    {"read same epoch", s_read_same_epoch, {1, 0, 0, 1, 0, 0, 0, 0}, "", 0, 0},
    {"read share", s_read_share, {0, 3, 1, 1, 1, 0, 0, 0}, "", 0, 0},
    {"write shared race (3 readers)", s_write_shared_race3, {0, 0, 1, 1, 1, 0, 0, 1}, "Acc.x:W0@4<R2@1", 1, 1},
    {"write shared race", s_write_shared_race, {0, 0, 0, 1, 1, 0, 0, 1}, "Acc.x:W1@1<R2@1", 1, 1},
    {"write shared, reads joined", s_write_shared_ok, {1, 0, 0, 2, 1, 1, 0, 1}, "", 1, 0},
    {"fork/join hand-off", s_fork_join, {0, 0, 0, 1, 0, 0, 3, 0}, "", 1, 0},
    {"write-write race", s_ww_race, {0, 0, 0, 0, 0, 0, 2, 0}, "Acc.x:W2@1<W1@1", 1, 1},
    {"lock orders writes", s_lock_ok, {0, 0, 0, 1, 0, 0, 2, 0}, "", 0, 0},
    {"lock acquired before release", s_lock_wrong_order, {0, 0, 0, 0, 0, 0, 2, 0}, "Acc.x:W2@2<W1@1", 1, 1},
    {"different locks", s_lock_different, {0, 0, 0, 0, 0, 0, 2, 0}, "Acc.x:W2@1<W1@1", 0, 1},
    {"ordered through an unheld lock", s_lock_hidden, {0, 0, 0, 0, 0, 0, 2, 0}, "", 1, 1},
    {"volatile edge", s_volatile_ok, {0, 0, 0, 1, 0, 0, 1, 0}, "", 0, 0},
    {"volatile read first", s_volatile_late, {0, 0, 0, 1, 0, 0, 1, 0}, "Acc.x:R2@1<W1@1", 0, 1},
    {"volatile of another field", s_volatile_other_field, {0, 0, 0, 1, 0, 0, 1, 0}, "Acc.x:R2@1<W1@1", 0, 1},
    {"wait = release + acquire", s_wait, {0, 0, 0, 1, 0, 0, 2, 0}, "", 0, 0},
    {"wait without wake", s_wait_no_wake, {0, 0, 0, 1, 0, 0, 2, 0}, "Acc.x:R1@2<W2@1", 1, 1},
    {"join edge", s_join, {0, 0, 0, 1, 0, 0, 1, 0}, "", 0, 0},
    {"no join", s_join_missing, {0, 0, 0, 1, 0, 0, 1, 0}, "Acc.x:R0@2<W1@1", 0, 1},
    {"join of another thread", s_join_wrong_thread, {0, 0, 0, 1, 0, 0, 1, 0}, "Acc.x:R0@3<W1@1", 0, 1},
    {"interrupt edge", s_interrupt, {0, 0, 0, 1, 0, 0, 1, 0}, "", 0, 0},
    {"interrupt not noticed", s_interrupt_unseen, {0, 0, 0, 1, 0, 0, 1, 0}, "Acc.x:R2@1<W1@1", 0, 1},
    {"class initialization edge", s_init, {0, 0, 0, 1, 0, 0, 1, 0}, "", 0, 0},
    {"no class initialization", s_init_missing, {0, 0, 0, 1, 0, 0, 1, 0}, "Acc.s:R2@1<W1@1", 0, 1},
    {"locations", s_locations, {0, 0, 0, 1, 0, 0, 5, 0}, "Acc.y:R1@1<W2@1;Acc.x:W1@1<W2@1", -1, -1},
    {"array elements", s_array, {0, 0, 0, 1, 0, 0, 2, 0}, "int[]#1[1]:R2@1<W1@1", -1, -1},
};

/* Each sequence under ft (rule counts, races), djit and basicvc (the very
 * same races, ids included), eraser and hybrid (report counts). */
static void test_sequences(DrCheck *t) {
  static const char *const dets[] = {"ft", "djit", "basicvc", "eraser", "hybrid"};
  for (size_t s = 0; s < DR_ARRAY_LEN(seqs); s++) {
    const Seq *q = &seqs[s];
    char ft_ids[512] = "";
    for (size_t k = 0; k < DR_ARRAY_LEN(dets); k++) {
      Fx f;
      DrDetectorOptions o;
      memset(&o, 0, sizeof o);
      o.stats = true;
      if (!fx_open(&f, t, dets[k], &o)) continue;
      q->run(&f);
      char sig[512], ids[512];
      race_sig(f.d, sig, sizeof sig);
      race_ids(f.d, ids, sizeof ids);
      int nraces = f.d->nraces;
      uint64_t rule[16];
      memcpy(rule, f.d->rule, sizeof rule);
      uint64_t reads = f.d->reads, writes = f.d->writes;
      bool rules_ok = k != 0 || rules_are(&f, q->ft);
      fx_close(&f);
      bool ok = true;
      if (k < 3) {
        /* the precise detectors: exactly these races */
        ok = !strcmp(sig, q->races);
        CHECK(t, ok);
        CHECK(t, f.res.races == nraces && !f.res.failed);
        if (k == 0) {
          CHECK(t, rules_ok);
          ok = ok && rules_ok;
          snprintf(ft_ids, sizeof ft_ids, "%s", ids);
          /* --stats names the counters as the paper does */
          bool names_ok = true;
          for (int i = 0; i < NRULES; i++) names_ok = names_ok && stat_of(f.err_text, rule_names[i]) == (long long)rule[i];
          CHECK(t, names_ok);
          ok = ok && names_ok;
          /* every read and write went through exactly one rule (until the first race) */
          uint64_t nr = 0, nw = 0;
          for (int i = R_SAME; i <= R_SHARE; i++) nr += rule[i];
          for (int i = W_SAME; i <= W_SHARED; i++) nw += rule[i];
          CHECK(t, nr <= reads && nw <= writes);
          if (!nraces) CHECK(t, nr == reads && nw == writes);
        } else {
          CHECK(t, !strcmp(ids, ft_ids));
          ok = ok && !strcmp(ids, ft_ids);
          if (k == 2) CHECK(t, rule[VC_RSE] == 0 && rule[VC_WSE] == 0); /* BasicVC: no fast paths */
          if (!nraces) CHECK(t, rule[VC_RSE] + rule[VC_READ] == reads && rule[VC_WSE] + rule[VC_WRITE] == writes);
          CHECK(t, rule[VC_CMP] >= rule[VC_READ] + rule[VC_WRITE]);
        }
        CHECK(t, (strstr(f.err_text, "WARNING: DATA RACE") != NULL) == (nraces > 0));
      } else {
        int want = k == 3 ? q->eraser : q->hybrid;
        if (want >= 0) {
          ok = nraces == want;
          CHECK(t, ok);
        }
        CHECK(t, strstr(f.err_text, "WARNING: DATA RACE") == NULL);
        if (nraces)
          CHECK(t, strstr(f.err_text, k == 3 ? "WARNING: POSSIBLE DATA RACE (Eraser: no common lock)"
                                             : "WARNING: POTENTIAL DATA RACE (hybrid)") != NULL);
      }
      if (!ok) fprintf(stderr, "  sequence '%s' under %s: races \"%s\" (%d) ids \"%s\"\n%s", q->name, dets[k], sig,
                       nraces, ids, f.err_text);
      free(f.err_text);
    }
  }
}

/* ============================================ state inside the rules */

/* R_x goes epoch -> vector clock -> epoch; W_x is E(t) after a write. */
static void test_ft_state(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t, "ft", NULL)) return;
  CHECK(t, dr_ft_ops.slot_size == sizeof(FtSlotView));
  uint32_t gen = f.vm.hooks_gen;
  CHECK(t, !(f.l->events & DR_EV_BIT(DR_EV_READ)));
  start(&f, 2);
  /* the first fork asks for the accesses, and the interpreter rehooks */
  CHECK(t, (f.l->events & DR_EV_BIT(DR_EV_READ)) && (f.l->events & DR_EV_BIT(DR_EV_WRITE)));
  CHECK(t, f.vm.hooks_gen == gen + 1);
  rd(&f, 1);
  FtSlotView *s = ft_slot(&f, f.obj[0], f.fx);
  CHECK(t, s != NULL);
  if (!s) {
    fx_close(&f);
    free(f.err_text);
    return;
  }
  CHECK(t, s->R == DR_EPOCH(1, 1) && s->W == DR_EPOCH_NONE);
  rd(&f, 2);
  DrCtxVC *rv = ft_rvc(s);
  CHECK(t, rv != NULL);
  if (rv) {
    CHECK(t, dr_vc_get(&rv->vc, 1) == 1 && dr_vc_get(&rv->vc, 2) == 1 && dr_vc_get(&rv->vc, 0) == 0);
    CHECK(t, rv->seq[1] < rv->seq[2]); /* the old epoch first */
    CHECK(t, rv->ctx[1] != 0 && rv->ctx[2] != 0);
  }
  acq(&f, 1, 0);
  rel(&f, 1, 0); /* C_1(1) = 2 */
  CHECK(t, dr_vc_get(&f.d->threads[1].C, 1) == 2);
  rd(&f, 1);     /* READ SHARED */
  CHECK(t, f.d->rule[R_SHARED] == 1);
  rv = ft_rvc(s);
  CHECK(t, rv && dr_vc_get(&rv->vc, 1) == 2 && dr_vc_get(&rv->vc, 2) == 1);
  join_(&f, 0, 1);
  join_(&f, 0, 2);
  CHECK(t, dr_vc_get(&f.d->threads[0].C, 1) == 2 && dr_vc_get(&f.d->threads[0].C, 2) == 1);
  CHECK(t, dr_vc_get(&f.d->threads[1].C, 1) == 3 && dr_vc_get(&f.d->threads[2].C, 2) == 2); /* join ticks the child */
  wr(&f, 0);     /* WRITE SHARED */
  CHECK(t, f.d->rule[W_SHARED] == 1 && f.d->nraces == 0);
  CHECK(t, s->W == DR_EPOCH(0, 3)); /* two forks: C_0(0) = 3 */
  CHECK(t, s->R == DR_EPOCH_NONE);  /* back to an epoch: ⊥ */
  CHECK(t, s->wctx != 0);
  size_t bytes = f.d->mem.bytes;
  CHECK(t, bytes > 0 && f.d->mem.peak >= bytes && f.d->mem.vcs_allocated >= NTH + 1);
  wr(&f, 0);
  CHECK(t, f.d->rule[W_SAME] == 1);
  /* an unrooted object's shadow dies with it in the GC */
  DrObj *tmp = dr_new_instance(&f.vm, f.acc);
  access_ev(&f, DR_EV_READ, 1, tmp, f.fx);
  access_ev(&f, DR_EV_READ, 2, tmp, f.fx);
  CHECK(t, tmp->shadow != NULL);
  size_t with_tmp = f.d->mem.bytes;
  CHECK(t, with_tmp > bytes);
  dr_gc_collect(&f.vm);
  CHECK(t, f.d->mem.bytes == bytes);
  /* the sync rules' clocks */
  start(&f, 3); /* T3 (T1, T2 again: harmless) */
  CHECK(t, dr_vc_get(&f.d->threads[3].C, 0) == 5 && dr_vc_get(&f.d->threads[3].C, 3) == 1);
  CHECK(t, dr_vc_get(&f.d->threads[0].C, 0) == 6);
  vwr(&f, 3);
  CHECK(t, dr_vc_get(&f.d->threads[3].C, 3) == 2); /* a volatile write ticks */
  vrd(&f, 2);
  CHECK(t, dr_vc_get(&f.d->threads[2].C, 3) == 1 && dr_vc_get(&f.d->threads[2].C, 2) == 2); /* a read doesn't */
  fx_close(&f);
  CHECK(t, f.res.races == 0);
  free(f.err_text);
}

/* With --all-races checking goes on after the first race: W_x is the
 * racing write, and the next race names it. */
static void test_all_races(DrCheck *t) {
  DrDetectorOptions o;
  memset(&o, 0, sizeof o);
  o.all_races = true;
  Fx f;
  if (!fx_open(&f, t, "ft", &o)) return;
  start(&f, 2);
  wr(&f, 1);
  wr(&f, 2); /* race W2<W1 */
  rd(&f, 1); /* race R1<W2 */
  rd(&f, 1); /* READ SAME EPOCH: no report */
  char sig[256];
  race_sig(f.d, sig, sizeof sig);
  CHECK(t, !strcmp(sig, "Acc.x:W2@1<W1@1;Acc.x:R1@1<W2@1"));
  uint64_t want[NRULES] = {1, 0, 0, 1, 0, 0, 2, 0};
  CHECK(t, rules_are(&f, want));
  CHECK(t, f.d->suppressed == 0);
  fx_close(&f);
  CHECK(t, f.res.races == 2);
  CHECK(t, strstr(f.err_text, "drvm: found 2 data races on 1 field (Acc.x); seed 0\n") != NULL);
  free(f.err_text);
}

/* A clock that would pass 2^32-1 stops the detector with an error. */
static void test_detector_overflow(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t, "ft", NULL)) return;
  start(&f, 2);
  dr_vc_set(&f.d->threads[1].C, 1, UINT32_MAX, &f.d->mem);
  acq(&f, 1, 0);
  CHECK(t, !f.d->disabled);
  rel(&f, 1, 0); /* the tick overflows */
  CHECK(t, f.d->disabled);
  CHECK(t, dr_vc_get(&f.d->threads[1].C, 1) == UINT32_MAX);
  wr(&f, 1);
  wr(&f, 2); /* would race: not checked any more */
  CHECK(t, f.d->nraces == 0 && f.d->writes == 0);
  fx_close(&f);
  CHECK(t, f.res.failed && f.res.races == 0);
  CHECK(t, strstr(f.err_text, "drvm: ft: a thread's clock passed 2^32-1; race detection stopped\n") != NULL);
  free(f.err_text);
}

/* The listener receives every event but calls, returns and steps; the
 * empty detector receives everything; unknown names are refused. */
static void test_detector_new(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  DrDetectorOptions o;
  memset(&o, 0, sizeof o);
  DrDetectorResult r;
  char err[200];
  o.name = "none";
  CHECK(t, dr_detector_new(&vm, &o, &r, err, sizeof err) == NULL && err[0] == 0);
  o.name = "fasttrack";
  CHECK(t, dr_detector_new(&vm, &o, &r, err, sizeof err) == NULL);
  CHECK(t, strstr(err, "unknown detector 'fasttrack'") && strstr(err, "ft, djit, basicvc, eraser, hybrid, wcp, empty, none"));
  o.name = "ft";
  o.potential_path = "/dev/null";
  CHECK(t, dr_detector_new(&vm, &o, &r, err, sizeof err) == NULL && strstr(err, "--potential-races"));
  o.potential_path = NULL;
  o.name = "empty";
  DrListener *l = dr_detector_new(&vm, &o, &r, err, sizeof err);
  CHECK(t, l && l->events == 0 && !strcmp(l->name, "empty"));
  if (l) l->finish(l, &vm);
  o.name = "ft";
  l = dr_detector_new(&vm, &o, &r, err, sizeof err);
  CHECK(t, l && !strcmp(l->name, "ft"));
  if (l) {
    CHECK(t, (l->events & DR_EV_BIT(DR_EV_CALL)) == 0 && (l->events & DR_EV_BIT(DR_EV_STEP)) == 0);
    /* no accesses while main runs alone: they cannot race (see DrDet.alone) */
    CHECK(t, !(l->events & DR_EV_BIT(DR_EV_READ)) && !(l->events & DR_EV_BIT(DR_EV_WRITE)) &&
                 (l->events & DR_EV_BIT(DR_EV_FORK)) && (l->events & DR_EV_BIT(DR_EV_JOIN)) &&
                 (l->events & DR_EV_BIT(DR_EV_INIT)) && (l->events & DR_EV_BIT(DR_EV_WAKE)));
    CHECK(t, vm.nshadow_users == 1 && vm.shadow_users[vm.shadow_solo].ctx == (void *)l && !vm.shadow_multi);
    DrDet *d = (DrDet *)l;
    /* a thread takes its clock slot when first heard of: main the first */
    DrThread mth;
    memset(&mth, 0, sizeof mth);
    CHECK(t, dr_det_slot(d, &mth) == 0 && d->nthreads == 1 && d->threads[0].tid == 0);
    CHECK(t, dr_vc_get(&d->threads[0].C, 0) == 1); /* C_0(0) = 1 */
    CHECK(t, mth.fast_slot == 0 && mth.fast_epoch == DR_EPOCH(0, 1)); /* published for the inline check */
    FILE *null = fopen("/dev/null", "w");
    if (null) vm.err_file = null;
    l->finish(l, &vm);
    if (null) fclose(null);
    vm.err_file = stderr;
    CHECK(t, vm.nshadow_users == 0);
    CHECK(t, r.races == 0 && !r.failed);
  }
  dr_vm_free(&vm);
}


/* ====================================================================== WCP */

/* WCP's verdict on a sequence: "" for none, else "loc:P" (predicted) or
 * "loc:S" (seen: not ordered by happens-before either) per race. */
static void wcp_sig(const DrDet *d, char *buf, size_t size) {
  buf[0] = 0;
  size_t n = 0;
  for (int i = 0; i < d->nraces && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s:%c", i ? ";" : "", d->races[i].location,
                          d->races[i].predicted ? 'P' : 'S');
}

static void wy(Fx *f, int tid) { access_ev(f, DR_EV_WRITE, tid, f->obj[0], f->fy); }
static void ry(Fx *f, int tid) { access_ev(f, DR_EV_READ, tid, f->obj[0], f->fy); }

typedef void (*WcpSeq)(Fx *f);

/* The classic hidden race: T1 w(y) acq rel; T2 acq rel r(y).  HB orders
 * them through the lock; the sections touch nothing in common, so WCP
 * does not: predicted. */
static void seq_hidden(Fx *f) {
  start(f, 2);
  wy(f, 1);
  acq(f, 1, 0);
  rel(f, 1, 0);
  acq(f, 2, 0);
  rel(f, 2, 0);
  ry(f, 2);
}

/* Rule (a): the sections conflict on x (T1 writes it, T2 reads it), so
 * T1's release is WCP-before T2's read of x and, by program order, its
 * read of y: ordered, no prediction (reading x first would read another
 * value). */
static void seq_rule_a(Fx *f) {
  start(f, 2);
  wy(f, 1);
  acq(f, 1, 0);
  wr(f, 1);
  rel(f, 1, 0);
  acq(f, 2, 0);
  rd(f, 2);
  rel(f, 2, 0);
  ry(f, 2);
}

/* Rule (b): T1 holds l (lk 0) around a section on n (lk 1) that writes
 * x, which T2's later section on n reads; T2 then takes l, empty.  acq_l
 * of T1 is WCP-before T2's release of l (through rule (a) on n), so T1's
 * release of l is WCP-before it, and T1's write of y inside l is ordered
 * before T2's read of y after it.  Truly ordered: T2 cannot take l
 * before T1 lets it go, having read what T1 wrote while holding it. */
static void seq_rule_b(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  acq(f, 1, 1);
  wr(f, 1);
  rel(f, 1, 1);
  wy(f, 1);
  rel(f, 1, 0);
  acq(f, 2, 1);
  rd(f, 2);
  rel(f, 2, 1);
  acq(f, 2, 0);
  rel(f, 2, 0);
  ry(f, 2);
}

/* A race HB sees too is reported as seen, not predicted. */
static void seq_seen(Fx *f) {
  start(f, 2);
  wy(f, 1);
  ry(f, 2);
}

/* Thread start and join are hard orders: nothing to predict. */
static void seq_fork_join(Fx *f) {
  wy(f, 0); /* before any start: main alone, not even seen */
  start(f, 1);
  wy(f, 1);
  join_(f, 0, 1);
  ry(f, 0);
  fork_(f, 0, 2);
  wy(f, 2);
}

/* A volatile edge is not a WCP edge (wcp.c): T1 w(y) vw(v); T2 vr(v) r(y). */
static void seq_volatile(Fx *f) {
  start(f, 2);
  wy(f, 1);
  vwr(f, 1);
  vrd(f, 2);
  ry(f, 2);
}

/* Both accesses under the same lock: mutual exclusion, never a race. */
static void seq_both_locked(Fx *f) {
  start(f, 2);
  acq(f, 1, 0);
  wy(f, 1);
  rel(f, 1, 0);
  acq(f, 2, 0);
  ry(f, 2);
  rel(f, 2, 0);
}

/* Rule (a)'s sequence with the read of y done twice, the second after a
 * section on the other lock: still ordered (transitivity through HB). */
static void seq_composed(Fx *f) {
  seq_rule_a(f);
  acq(f, 2, 1);
  rel(f, 2, 1);
  ry(f, 2);
}

static void wcp_case(DrCheck *t, const char *what, WcpSeq seq, bool relaxed, const char *want_wcp,
                     const char *want_ft) {
  const char *dets[] = {"wcp", "ft"};
  const char *wants[] = {want_wcp, want_ft};
  for (int k = 0; k < 2; k++) {
    Fx f;
    DrDetectorOptions o;
    memset(&o, 0, sizeof o);
    o.relaxed = relaxed && k == 0;
    if (!fx_open(&f, t, dets[k], &o)) return;
    seq(&f);
    char got[300];
    wcp_sig(f.d, got, sizeof got);
    if (strcmp(got, wants[k]) != 0) {
      fprintf(stderr, "  %s under %s%s: races \"%s\", expected \"%s\"\n", what, dets[k], o.relaxed ? " relaxed" : "",
              got, wants[k]);
      CHECK(t, false);
    }
    fx_close(&f);
    free(f.err_text);
  }
}

static void test_wcp(DrCheck *t) {
  wcp_case(t, "hidden by an empty section", seq_hidden, false, "Acc.y:P", "");
  wcp_case(t, "rule (a)", seq_rule_a, false, "", "");
  wcp_case(t, "rule (b)", seq_rule_b, false, "", "");
  wcp_case(t, "seen", seq_seen, false, "Acc.y:S", "Acc.y:S");
  wcp_case(t, "start and join", seq_fork_join, false, "", "");
  wcp_case(t, "volatile", seq_volatile, false, "Acc.y:P", "");
  wcp_case(t, "both locked", seq_both_locked, false, "", "");
  wcp_case(t, "composed", seq_composed, false, "", "");
  /* relaxed drops rule (a): the race behind conflicting sections is
   * predicted, the sections' own accesses (both locked) are not */
  wcp_case(t, "rule (a) relaxed", seq_rule_a, true, "Acc.y:P", "");
  wcp_case(t, "both locked relaxed", seq_both_locked, true, "", "");
  wcp_case(t, "rule (b) relaxed", seq_rule_b, true, "Acc.y:P", "");
}

static void test_wcp_rule_counts(DrCheck *t) {
  Fx f;
  if (!fx_open(&f, t, "wcp", NULL)) return;
  seq_rule_b(&f);
  CHECK(t, f.d->rule[9] >= 1);  /* rule (b) joined T1's release of l */
  CHECK(t, f.d->rule[8] >= 1);  /* rule (a) on n */
  CHECK(t, f.d->rule[10] == 4); /* sections */
  /* the predicted race's statements name the accesses, as pairs files do */
  fx_close(&f);
  free(f.err_text);
  if (!fx_open(&f, t, "wcp", NULL)) return;
  seq_hidden(&f);
  CHECK(t, f.d->nraces == 1 && f.d->races[0].predicted);
  if (f.d->nraces == 1) {
    CHECK(t, strstr(f.d->races[0].stmt, "Acc.reader()") && strstr(f.d->races[0].prev_stmt, "Acc.writer()"));
    CHECK(t, strstr(f.d->races[0].text, "PREDICTED DATA RACE") && strstr(f.d->races[0].text, "Predicted (WCP)"));
  }
  fx_close(&f);
  CHECK(t, f.res.predicted == 1 && f.res.races == 0);
  CHECK(t, strstr(f.err_text, "wcp found predicted 1 data race on 1 field (Acc.y)") != NULL);
  free(f.err_text);
}

/* ========================================================= reports */

/* A tiny JSON checker: true if s is one valid JSON value (RFC 8259). */
static const char *json_ws(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
  return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p) {
  if (*p != '"') return NULL;
  for (p++; *p != '"'; p++) {
    if (!*p || (unsigned char)*p < 0x20) return NULL;
    if (*p == '\\') {
      p++;
      if (*p == 'u') {
        for (int i = 1; i <= 4; i++)
          if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i])) return NULL;
        p += 4;
      } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
        return NULL;
      }
    }
  }
  return p + 1;
}

static const char *json_value(const char *p, int depth) {
  if (depth > 64) return NULL;
  p = json_ws(p);
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    p = json_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        p = json_string(json_ws(p));
        if (!p) return NULL;
        p = json_ws(p);
        if (*p != ':') return NULL;
        p++;
      }
      p = json_value(p, depth + 1);
      if (!p) return NULL;
      p = json_ws(p);
      if (*p == ',') {
        p++;
        continue;
      }
      return *p == close ? p + 1 : NULL;
    }
  }
  if (*p == '"') return json_string(p);
  if (!strncmp(p, "true", 4)) return p + 4;
  if (!strncmp(p, "false", 5)) return p + 5;
  if (!strncmp(p, "null", 4)) return p + 4;
  const char *q = p;
  if (*q == '-') q++;
  if (*q == '0') q++;
  else if (*q >= '1' && *q <= '9')
    while (*q >= '0' && *q <= '9') q++;
  else return NULL;
  if (*q == '.') {
    q++;
    if (!(*q >= '0' && *q <= '9')) return NULL;
    while (*q >= '0' && *q <= '9') q++;
  }
  if (*q == 'e' || *q == 'E') {
    q++;
    if (*q == '+' || *q == '-') q++;
    if (!(*q >= '0' && *q <= '9')) return NULL;
    while (*q >= '0' && *q <= '9') q++;
  }
  return q;
}

static bool json_valid(const char *s) {
  const char *p = json_value(s, 0);
  return p && *json_ws(p) == 0;
}

static void test_json_checker(DrCheck *t) {
  CHECK(t, json_valid("{\"a\": [1, -2.5e3, true, null, \"x\\n\\u00e9\"], \"b\": {}}"));
  CHECK(t, json_valid("[]") && json_valid(" 0 "));
  CHECK(t, !json_valid("{\"a\": 1,}") && !json_valid("[1 2]") && !json_valid("{\"a\" 1}"));
  CHECK(t, !json_valid("\"a\nb\"") && !json_valid("{} {}") && !json_valid("01") && !json_valid("{\"a\": \"\\q\"}"));
  CHECK(t, !json_valid("") && !json_valid("{\"a\": 1") && !json_valid("[1, 2") && !json_valid("\"abc"));
  CHECK(t, !json_valid("\"\\u12\"") && !json_valid("\"\\u12") && !json_valid("[1,]") && !json_valid("-") &&
               !json_valid("1.") && !json_valid("nul") && !json_valid("{1: 2}"));
  CHECK(t, json_valid("{\"a\": null, \"b\": [{\"c\": \"\\\"\\\\\"}]}\n"));
}

/* One read-write race, printed line by line, with --stats, the summary
 * and the JSON report. */
static void test_report(DrCheck *t) {
  char json_path[] = "/tmp/drvm-test-detector-XXXXXX";
  int fd = mkstemp(json_path);
  CHECK(t, fd >= 0);
  if (fd < 0) return;
  close(fd);
  DrDetectorOptions o;
  memset(&o, 0, sizeof o);
  o.json_path = json_path;
  o.replay_cmd = "drvm run t.dl --seed 7";
  o.seed = 7;
  Fx f;
  if (!fx_open(&f, t, "ft", &o)) {
    remove(json_path);
    return;
  }
  start(&f, 2);
  acq(&f, 1, 0);
  wr(&f, 1);
  rel(&f, 1, 0);
  f.th[1]->state = DR_TS_ENDED; /* T1 finished before T2's read */
  rd(&f, 2);
  CHECK(t, f.d->nraces == 1);
  if (f.d->nraces == 1) {
    const DrRace *r = &f.d->races[0];
    CHECK(t, !strcmp(r->location, "Acc.x"));
    CHECK(t, r->obj_name && !strcmp(r->obj_name, "Acc#1"));
    CHECK(t, !strcmp(r->id, "Acc.x@t.dl:10,t.dl:13"));
    CHECK(t, !r->cur.write && r->cur.tid == 2 && r->cur.clock == 1);
    CHECK(t, r->prev.write && r->prev.tid == 1 && r->prev.clock == 1);
    CHECK(t, r->seen_clock == 0);
    CHECK(t, r->alloc_site == NULL);
  }
  f.th[1]->state = DR_TS_RUNNABLE;
  /* a second race on the same field of another object: not reported again */
  access_ev(&f, DR_EV_WRITE, 1, f.obj[1], f.fx);
  access_ev(&f, DR_EV_WRITE, 2, f.obj[1], f.fx);
  CHECK(t, f.d->nraces == 1 && f.d->suppressed == 1);
  fx_close(&f);
  CHECK(t, f.res.races == 1 && !f.res.failed);
  static const char *const want =
      "==================\n"
      "WARNING: DATA RACE\n"
      "Read at Acc.x (Acc#1) by thread Thread-1 (locks held: none):\n"
      "    at Acc.reader(t.dl:13)\n"
      "\n"
      "Previous write at Acc.x (Acc#1) by thread Thread-0 (locks held: Main#1):\n"
      "    at Acc.writer(t.dl:10)\n"
      "\n"
      "Thread Thread-1 (running) created at:\n"
      "    at Main.main(t.dl:3)\n"
      "Thread Thread-0 (finished) created at:\n"
      "    at Main.main(t.dl:3)\n"
      "\n"
      "Not ordered by happens-before: the write was at 1@Thread-0; Thread-1 had seen Thread-0 only up to 0.\n"
      "Replay: drvm run t.dl --seed 7\n"
      "SUMMARY: drvm: data race t.dl:13 in Acc.reader\n"
      "==================\n"
      "drvm: found 1 data race on 1 field (Acc.x); seed 7\n";
  CHECK(t, !strcmp(f.err_text, want));
  if (strcmp(f.err_text, want)) fprintf(stderr, "report:\n%s---\n", f.err_text);
  CHECK(t, strstr(f.err_text, "WARNING: DATA RACE\n") && strstr(f.err_text, "Previous write at") &&
               strstr(f.err_text, "SUMMARY: drvm: data race"));
  free(f.err_text);

  FILE *jf = fopen(json_path, "r");
  CHECK(t, jf != NULL);
  char *json = jf ? read_all(jf) : NULL;
  if (jf) fclose(jf);
  remove(json_path);
  if (!json) return;
  CHECK(t, json_valid(json));
  CHECK(t, strstr(json, "\"program\": \"t.dl\"") && strstr(json, "\"detector\": \"ft\"") &&
               strstr(json, "\"seed\": 7") && strstr(json, "\"replay\": \"drvm run t.dl --seed 7\""));
  CHECK(t, strstr(json, "\"races\": [") != NULL);
  CHECK(t, strstr(json, "\"id\": \"Acc.x@t.dl:10,t.dl:13\"") != NULL);
  CHECK(t, strstr(json, "\"location\": \"Acc.x\"") && strstr(json, "\"object\": \"Acc#1\""));
  CHECK(t, strstr(json, "\"access\": {\"kind\": \"read\", \"thread\": \"Thread-1\", \"tid\": 2, \"clock\": 1, "
                        "\"locks\": \"none\", \"stack\": [{\"method\": \"Acc.reader\", \"position\": \"t.dl:13\", "
                        "\"line\": 13}]}") != NULL);
  CHECK(t, strstr(json, "\"previous\": {\"kind\": \"write\", \"thread\": \"Thread-0\", \"tid\": 1, \"clock\": 1, "
                        "\"locks\": \"Main#1\", \"stack\": [{\"method\": \"Acc.writer\", \"position\": \"t.dl:10\", "
                        "\"line\": 10}]}") != NULL);
  CHECK(t, strstr(json, "\"explanation\": \"Not ordered by happens-before: the write was at 1@Thread-0;") != NULL);
  CHECK(t, strstr(json, "\"count\": 1\n}") != NULL);
  free(json);
}

/* An array race: named by element, the allocation site reported. */
static void test_report_array_and_json_empty(DrCheck *t) {
  char json_path[] = "/tmp/drvm-test-detector-XXXXXX";
  int fd = mkstemp(json_path);
  CHECK(t, fd >= 0);
  if (fd < 0) return;
  close(fd);
  DrDetectorOptions o;
  memset(&o, 0, sizeof o);
  o.json_path = json_path;
  Fx f;
  if (!fx_open(&f, t, "djit", &o)) {
    remove(json_path);
    return;
  }
  s_array(&f);
  CHECK(t, f.d->nraces == 1);
  if (f.d->nraces == 1) {
    CHECK(t, !strcmp(f.d->races[0].location, "int[]#1[1]"));
    CHECK(t, f.d->races[0].alloc_site && !strcmp(f.d->races[0].alloc_site, "t.dl:3"));
  }
  fx_close(&f);
  CHECK(t, strstr(f.err_text, "Read at int[]#1[1] by thread Thread-1 (locks held: none):\n") != NULL);
  CHECK(t, strstr(f.err_text, "Previous write at int[]#1[1] by thread Thread-0") != NULL);
  CHECK(t, strstr(f.err_text, "Array int[]#1 allocated at:\n    at Main.main(t.dl:3)\n") != NULL);
  CHECK(t, strstr(f.err_text, "drvm: djit found 1 data race on 1 location (int[]#1[1]); seed 0\n") != NULL);
  free(f.err_text);
  FILE *jf = fopen(json_path, "r");
  char *json = jf ? read_all(jf) : NULL;
  if (jf) fclose(jf);
  CHECK(t, json && json_valid(json));
  CHECK(t, json && strstr(json, "\"allocated_at\": \"t.dl:3\"") && strstr(json, "\"location\": \"int[]#1[1]\"") &&
               strstr(json, "\"detector\": \"djit\""));
  free(json);

  /* no race: an empty list, still valid JSON, and nothing printed */
  if (fx_open(&f, t, "basicvc", &o)) {
    s_lock_ok(&f);
    fx_close(&f);
    CHECK(t, f.err_text[0] == 0);
    CHECK(t, f.res.races == 0);
    free(f.err_text);
    jf = fopen(json_path, "r");
    json = jf ? read_all(jf) : NULL;
    if (jf) fclose(jf);
    CHECK(t, json && json_valid(json) && strstr(json, "\"races\": [],\n  \"count\": 0\n}\n"));
    free(json);
  }
  remove(json_path);
}

/* Eraser's textbook false alarm: a value handed to a started thread and
 * back through join; FastTrack rightly says nothing. */
static void test_eraser_handoff(DrCheck *t) {
  Fx f;
  if (fx_open(&f, t, "eraser", NULL)) {
    s_fork_join(&f);
    CHECK(t, f.d->nraces == 1);
    if (f.d->nraces == 1) {
      CHECK(t, f.d->races[0].cur.tid == 1 && f.d->races[0].cur.write);
      CHECK(t, f.d->races[0].prev.tid == 0 && f.d->races[0].prev.write);
    }
    fx_close(&f);
    CHECK(t, f.res.races == 1);
    CHECK(t, strstr(f.err_text, "WARNING: POSSIBLE DATA RACE (Eraser: no common lock)\n") != NULL);
    CHECK(t, strstr(f.err_text, "(locksets are not happens-before: this may be a false alarm)") != NULL);
    CHECK(t, strstr(f.err_text, "drvm: eraser found 1 possible data race on 1 field (Acc.x); seed 0\n") != NULL);
    free(f.err_text);
  }
  if (fx_open(&f, t, "ft", NULL)) {
    s_fork_join(&f);
    CHECK(t, f.d->nraces == 0);
    fx_close(&f);
    CHECK(t, f.res.races == 0 && f.err_text[0] == 0);
    free(f.err_text);
  }
  /* Eraser: a lock held at every access after the hand-off is fine;
   * reads alone never report */
  if (fx_open(&f, t, "eraser", NULL)) {
    start(&f, 2);
    wr(&f, 0);
    acq(&f, 1, 0);
    wr(&f, 1);
    rel(&f, 1, 0);
    acq(&f, 2, 0);
    rd(&f, 2);
    wr(&f, 2);
    rel(&f, 2, 0);
    access_ev(&f, DR_EV_READ, 1, f.obj[0], f.fy);
    access_ev(&f, DR_EV_READ, 2, f.obj[0], f.fy);
    CHECK(t, f.d->nraces == 0);
    acq(&f, 1, 1); /* the wrong lock */
    wr(&f, 1);
    rel(&f, 1, 1);
    CHECK(t, f.d->nraces == 1);
    fx_close(&f);
    free(f.err_text);
  }
}

/* Several detectors at once, each with its own state beside every object
 * (vm/shadow.c): each reports what it reports alone, the GC frees every
 * one's state of a dead object, and the VM goes back to one state per
 * object when they finish.  A program with races on a field, an array
 * element and a static, and garbage both threads touch. */
static const char *const two_det_prog =
    "public class Main {\n"
    "  static int hits;\n"
    "  public static void main(String[] a) throws Exception {\n"
    "    Box b = new Box(); int[] arr = new int[4];\n"
    "    Thread t1 = new Thread(new W(b, arr)), t2 = new Thread(new W(b, arr));\n"
    "    t1.start(); t2.start(); t1.join(); t2.join();\n"
    "    System.out.println(b.n > 0);\n"
    "  }\n"
    "}\n"
    "class Box { int n; Box next; int[] junk; }\n"
    "class W implements Runnable {\n"
    "  Box b; int[] arr;\n"
    "  W(Box b, int[] arr) { this.b = b; this.arr = arr; }\n"
    "  public void run() {\n"
    "    for (int i = 0; i < 3000; i++) {\n"
    "      b.n++; arr[i % 4]++; Main.hits++;\n"
    "      Box g = new Box(); g.n = i; b.next = g; g.next = b.next; g.junk = new int[512]; g.junk[1] = i;\n"
    "    }\n"
    "  }\n"
    "}\n";

static int races_with(DrCheck *t, const char *const *names, int n, int *races) {
  DrVM vm;
  dr_vm_init(&vm);
  vm.source_name = "t.dl";
  DrClass *m = compile_text(&vm, two_det_prog, "t.dl");
  CHECK(t, m != NULL);
  if (!m) return -1;
  DrDetectorResult res[4];
  DrListener *l[4];
  for (int i = 0; i < n; i++) {
    DrDetectorOptions o;
    memset(&o, 0, sizeof o);
    o.name = names[i];
    char err[200];
    l[i] = dr_detector_new(&vm, &o, &res[i], err, sizeof err);
    CHECK(t, l[i] != NULL);
    if (!l[i]) return -1;
    dr_add_listener(&vm, l[i]);
  }
  CHECK(t, vm.nshadow_users == n && vm.shadow_multi == (n > 1));
  CHECK(t, n == 1 || !vm.fast.on); /* it reads DrObj.shadow as ft's own */
  DrSchedOptions so = {.seed = 3, .noise = -1};
  dr_vm_set_scheduler(&vm, dr_sched_create("random", &so), 0);
  int status;
  free(run_captured_io(&vm, m, &status, true));
  uint64_t gcs = vm.gc_count;
  FILE *null = fopen("/dev/null", "w"); /* the summaries (run_captured_io closed its file) */
  vm.err_file = vm.out_file = null ? null : stderr;
  dr_finish_listeners(&vm);
  if (null) fclose(null);
  vm.err_file = stderr;
  vm.out_file = stdout;
  CHECK(t, vm.nshadow_users == 0 && !vm.shadow_multi);
  for (DrObj *o = vm.objects; o; o = o->gc_next) CHECK(t, o->shadow == NULL);
  for (int i = 0; i < n; i++) races[i] = res[i].races;
  vm.sched->destroy(vm.sched);
  dr_vm_set_scheduler(&vm, NULL, 0);
  dr_vm_free(&vm);
  return (int)gcs;
}

static void test_two_detectors(DrCheck *t) {
  const char *const names[] = {"ft", "djit", "eraser", "basicvc"};
  int alone[4], together[4];
  for (int i = 0; i < 4; i++) races_with(t, &names[i], 1, &alone[i]);
  int gcs = races_with(t, names, 4, together);
  CHECK(t, gcs > 0); /* dead objects' states were freed in sets */
  for (int i = 0; i < 4; i++) {
    /* Box.n, Box.next, int[] and Main.hits */
    CHECK(t, alone[i] == 4 && together[i] == alone[i]);
    if (together[i] != alone[i]) fprintf(stderr, "  %s: %d races alone, %d beside others\n", names[i], alone[i], together[i]);
  }
  /* the filter hides local objects' accesses from every detector but its own */
  DrVM vm;
  dr_vm_init(&vm);
  DrDetectorOptions o;
  memset(&o, 0, sizeof o);
  DrDetectorResult r1, r2;
  char err[200];
  o.name = "ft";
  DrListener *a = dr_detector_new(&vm, &o, &r1, err, sizeof err);
  o.name = "djit";
  o.filter = DR_FILTER_TRADE;
  CHECK(t, a && dr_detector_new(&vm, &o, &r2, err, sizeof err) == NULL && strstr(err, "one detector at a time"));
  FILE *null = fopen("/dev/null", "w");
  if (null) vm.err_file = null;
  if (a) a->finish(a, &vm);
  if (null) fclose(null);
  vm.err_file = stderr;
  dr_vm_free(&vm);
}

int main(void) {
  DrCheck t = {0, 0};
  test_vc_basics(&t);
  test_epochs(&t);
  test_vc_memory(&t);
  test_vc_overflow(&t);
  test_json_checker(&t);
  test_stat_of(&t);
  test_detector_new(&t);
  test_two_detectors(&t);
  test_sequences(&t);
  test_ft_state(&t);
  test_all_races(&t);
  test_detector_overflow(&t);
  test_report(&t);
  test_report_array_and_json_empty(&t);
  test_eraser_handoff(&t);
  test_wcp(&t);
  test_wcp_rule_counts(&t);
  return CHECK_DONE(&t);
}
