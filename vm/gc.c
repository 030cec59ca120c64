/* The garbage collector: precise, non-moving mark-sweep over a list of
 * every object.  dr_gc_alloc is the one allocation entry point; it counts
 * bytes and collects when the heap doubles since the last collection.
 *
 * Roots are explicit: each frame's registers (a per-method bitmap says
 * which hold references), class statics, the interned string constants,
 * C code's temporary roots, the pending exception and VM-held objects. */
#include "opcodes.h"
#include "vm.h"

#include <string.h>

enum { DR_GC_MIN_HEAP = 4 * 1024 * 1024 };

/* Small objects come from size-class pools: 64 KiB pages carved into
 * equal cells, freed cells kept on a per-class list.  Most objects are
 * small and a program allocates the same few sizes over and over, so this
 * reuses memory exactly instead of fragmenting malloc's heap (binary-trees
 * with 10^8 short-lived nodes stays at a few tens of MB), and it is faster
 * than calloc/free.  Under AddressSanitizer every object is malloc'd on
 * its own so use-after-free of a collected object is still caught. */
#if defined(__SANITIZE_ADDRESS__)
#define DR_GC_MALLOC_EACH 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DR_GC_MALLOC_EACH 1
#endif
#endif

enum {
  DR_POOL_GRAIN = 8,
  DR_POOL_MAX = 256, /* larger objects are malloc'd one by one */
  DR_POOL_CLASSES = DR_POOL_MAX / DR_POOL_GRAIN + 1,
  DR_POOL_PAGE = 64 * 1024,
};

typedef struct DrFreeCell {
  struct DrFreeCell *next;
} DrFreeCell;

typedef struct DrHeapPools {
  DrFreeCell *free[DR_POOL_CLASSES];
  char **pages;
  int npages, pages_cap;
  char *cur;               /* bump region of the newest page */
  size_t left;
} DrHeapPools;

static bool pool_sized(size_t size) {
#ifdef DR_GC_MALLOC_EACH
  (void)size;
  return false;
#else
  return size <= DR_POOL_MAX;
#endif
}

static void *pool_alloc(DrVM *vm, size_t size) {
  if (!pool_sized(size)) return calloc(1, size);
  if (!vm->pools) vm->pools = dr_xcalloc(1, sizeof(DrHeapPools));
  DrHeapPools *p = vm->pools;
  size_t cls = (size + DR_POOL_GRAIN - 1) / DR_POOL_GRAIN;
  size_t cell = cls * DR_POOL_GRAIN;
  void *o = p->free[cls];
  if (o) {
    p->free[cls] = p->free[cls]->next;
  } else {
    if (p->left < cell) {
      char *page = malloc(DR_POOL_PAGE);
      if (!page) return NULL;
      DR_PUSH(p->pages, p->npages, p->pages_cap, page);
      p->cur = page;
      p->left = DR_POOL_PAGE;
    }
    o = p->cur;
    p->cur += cell;
    p->left -= cell;
  }
  memset(o, 0, cell);
  return o;
}

static void pool_free(DrVM *vm, DrObj *o, size_t size) {
  if (!pool_sized(size)) {
    free(o);
    return;
  }
  DrHeapPools *p = vm->pools;
  size_t cls = (size + DR_POOL_GRAIN - 1) / DR_POOL_GRAIN;
  DrFreeCell *c = (DrFreeCell *)o;
  c->next = p->free[cls];
  p->free[cls] = c;
}

void *dr_xmalloc(size_t size) { return dr_xrealloc(NULL, size); }

void *dr_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "drvm: out of memory\n");
    exit(DR_EXIT_MEMORY);
  }
  return p;
}

static size_t gc_object_size(const DrObj *o) {
  const DrClass *c = o->cls;
  if (c->flags & DR_CLS_STRING) return sizeof(DrString) + sizeof(uint16_t) * (size_t)((const DrString *)o)->length;
  if (c->flags & DR_CLS_ARRAY) return sizeof(DrArray) + (size_t)c->elem_size * (size_t)((const DrArray *)o)->length;
  return sizeof(DrInstance) + sizeof(DrValue) * (size_t)c->nfields;
}

static void gc_mark(DrVM *vm, DrObj *o) {
  if (!o || (o->flags & DR_OBJ_MARKED)) return;
  o->flags |= DR_OBJ_MARKED;
  DR_PUSH(vm->gray, vm->ngray, vm->gray_cap, o);
}

static const DrGcPoint *gc_point_at(const DrMethod *m, uint32_t pc) {
  int lo = 0, hi = m->ngc_points;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (m->gc_points[mid].pc == pc) return &m->gc_points[mid];
    if (m->gc_points[mid].pc < pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* Whether an instruction names register r: its operands stay live while
 * it waits (a call in progress, class initialization it re-executes). */
static bool gc_is_operand(const uint32_t *ip, uint32_t r) {
  const char *f = dr_op_info[ip[0]].format;
  int n = 1;
  for (; *f; f++) {
    switch (*f) {
    case 'r':
      if (ip[n++] == r) return true;
      break;
    case 'J': n += 2; break;
    case 'a':
      for (uint32_t i = 0; i < ip[n]; i++)
        if (ip[n + 1 + i] == r) return true;
      n += 1 + (int)ip[n];
      break;
    case 'p':
      for (uint32_t i = 0; i < ip[n]; i++)
        if (ip[n + 2 + 2 * i] == r) return true;
      n += 1 + 2 * (int)ip[n];
      break;
    case 'S': n += 1 + 2 * (int)ip[n]; break;
    default: n++; break;
    }
  }
  return false;
}

static void gc_mark_frame(DrVM *vm, const DrFrame *fr) {
  const DrMethod *m = fr->method;
  if (m->flags & DR_M_NATIVE) {
    for (int i = 0; i < m->nparams; i++)
      if (m->param_kinds[i] == DR_K_REF) gc_mark(vm, fr->regs[i].ref);
    return;
  }
  const DrGcPoint *pt = (m->gc_points && fr->ip) ? gc_point_at(m, (uint32_t)(fr->ip - m->code)) : NULL;
  if (!pt) {
    for (int i = 0; i < m->nregs; i++)
      if (m->reg_is_ref[i]) gc_mark(vm, fr->regs[i].ref);
    return;
  }
  for (int i = 0; i < m->nlocal_regs && i < m->nregs; i++)
    if (m->reg_is_ref[i]) gc_mark(vm, fr->regs[i].ref);
  for (int r = m->nlocal_regs; r < m->nregs; r++) {
    if (!m->reg_is_ref[r]) continue;
    uint32_t t = (uint32_t)(r - m->nlocal_regs), w = t / 32; /* the bits start at the first temporary */
    bool live = w < pt->nwords && (m->gc_bits[pt->off + w] >> (t % 32)) & 1;
    if (live || gc_is_operand(fr->ip, (uint32_t)r))
      gc_mark(vm, fr->regs[r].ref);
    else
      fr->regs[r].ref = NULL; /* dead: cleared, so no stale pointer outlives its object */
  }
}

static void gc_mark_thread(DrVM *vm, DrThread *t) {
  for (int f = 0; f < t->nframes; f++) gc_mark_frame(vm, &t->frames[f]);
  gc_mark(vm, t->jthread);
  gc_mark(vm, t->monitor);
  for (int i = 0; i < t->nheld; i++) gc_mark(vm, t->held[i].obj);
}

static void gc_free_monitor(DrMonitor *m) {
  if (!m) return;
  free(m->waiters);
  free(m);
}

/* What a dying object holds outside the heap: a detector's shadow, the
 * filter's record, its monitor. */
static void gc_release(DrVM *vm, DrObj *o) {
  if (o->shadow) dr_shadow_release(vm, o);
  if (o->local) dr_esc_free(vm, o);
  gc_free_monitor(o->monitor);
}

static void gc_trace(DrVM *vm, DrObj *o) {
  const DrClass *c = o->cls;
  if (c->flags & DR_CLS_STRING) return;
  if (c->flags & DR_CLS_ARRAY) {
    if (c->elem_kind != DR_K_REF) return;
    DrArray *a = (DrArray *)o;
    DrObj **el = DR_ARRAY_DATA(a);
    for (int32_t i = 0; i < a->length; i++) gc_mark(vm, el[i]);
    return;
  }
  DrInstance *in = (DrInstance *)o;
  for (int i = 0; i < c->nfields; i++)
    if (c->field_is_ref[i]) gc_mark(vm, in->fields[i].ref);
}

void dr_gc_collect(DrVM *vm) {
  if (vm->gc_running) return;
  vm->gc_running = true;
  vm->gc_count++;
  for (int i = 0; i < vm->nthreads; i++) gc_mark_thread(vm, vm->threads[i]);
  for (int i = 0; i < vm->nclasses; i++) {
    DrClass *c = vm->classes[i];
    for (int s = 0; s < c->nstatics; s++)
      if (c->static_is_ref[s]) gc_mark(vm, c->statics[s].ref);
    gc_mark(vm, c->lock);
    gc_mark(vm, c->init_error);
  }
  for (int i = 0; i < vm->nstrings; i++) gc_mark(vm, vm->strings[i]);
  for (int i = 0; i < vm->nroots; i++) gc_mark(vm, vm->roots[i]);
  gc_mark(vm, vm->exception);
  while (vm->ngray > 0) gc_trace(vm, vm->gray[--vm->ngray]);

  size_t live = 0;
  DrObj **link = &vm->objects;
  while (*link) {
    DrObj *o = *link;
    if (o->flags & DR_OBJ_MARKED) {
      o->flags &= ~(uint32_t)DR_OBJ_MARKED;
      live += gc_object_size(o);
      link = &o->gc_next;
    } else {
      *link = o->gc_next;
      gc_release(vm, o);
      pool_free(vm, o, gc_object_size(o));
    }
  }
  vm->bytes_allocated = live;
  dr_shadow_gc_end(vm);
  /* what stays outside the heap counts as live, or it would start the
   * next collection at once */
  size_t keep = live + vm->gc_extra;
  vm->next_gc = keep * 2 > DR_GC_MIN_HEAP ? keep * 2 : DR_GC_MIN_HEAP;
#ifdef DR_TRACE_GC
  fprintf(stderr, "[gc %llu] live %zu bytes, next at %zu, %d pool pages\n", (unsigned long long)vm->gc_count, live,
          vm->next_gc, vm->pools ? vm->pools->npages : 0);
#endif
  vm->gc_running = false;
}

/* The heap's limit: --max-heap, or less when what the VM holds outside
 * the heap leaves less than that of --max-memory (the program then gets
 * its OutOfMemoryError, as from the heap limit).  0: none. */
static size_t heap_limit(const DrVM *vm) {
  if (!vm->max_memory) return vm->max_heap;
  size_t room = vm->max_memory > vm->ext_bytes ? vm->max_memory - vm->ext_bytes : 1;
  return vm->max_heap && vm->max_heap < room ? vm->max_heap : room;
}

void *dr_gc_alloc(DrVM *vm, DrClass *cls, size_t size) {
  ASSERT(!vm->in_listener, "a listener allocated a GC object (listeners may only read)");
#ifdef DR_GC_STRESS
  dr_gc_collect(vm);
#else
  if (vm->bytes_allocated + vm->gc_extra + size > vm->next_gc) dr_gc_collect(vm);
#endif
  /* before the exception classes are loaded (the program's string
   * constants) nothing could be thrown: the limit applies from there on */
  size_t limit = heap_limit(vm);
  if (limit && vm->bytes_allocated + size > limit && vm->known[DR_WK_OUT_OF_MEMORY]) {
    dr_gc_collect(vm);
    if (vm->bytes_allocated + size > heap_limit(vm)) {
      /* The error object itself is small; let it past the limit once. */
      size_t saved = vm->max_heap, saved_memory = vm->max_memory;
      vm->max_heap = vm->max_memory = 0;
      dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
      vm->max_heap = saved;
      vm->max_memory = saved_memory;
      return NULL;
    }
  }
  DrObj *o = pool_alloc(vm, size);
  if (!o) {
    dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
    return NULL;
  }
  o->cls = cls;
  o->serial = ++cls->nallocated;
  o->gc_next = vm->objects;
  vm->objects = o;
  vm->bytes_allocated += size;
  if (vm->esc_on) dr_esc_new(vm, o);
  return o;
}

void dr_push_root(DrVM *vm, DrObj *o) { DR_PUSH(vm->roots, vm->nroots, vm->roots_cap, o); }

void dr_pop_roots(DrVM *vm, int n) {
  ASSERT(vm->nroots >= n, "root stack underflow");
  vm->nroots -= n;
}

DrObj *dr_new_instance(DrVM *vm, DrClass *cls) {
  return dr_gc_alloc(vm, cls, sizeof(DrInstance) + sizeof(DrValue) * (size_t)cls->nfields);
}

DrArray *dr_new_array(DrVM *vm, DrClass *arrcls, int32_t length) {
  if (length < 0) {
    dr_throw(vm, DR_WK_NEG_ARRAY_SIZE, "%d", length);
    return NULL;
  }
  DrArray *a = dr_gc_alloc(vm, arrcls, sizeof(DrArray) + (size_t)arrcls->elem_size * (size_t)length);
  if (a) a->length = length;
  return a;
}

DrString *dr_new_string(DrVM *vm, const uint16_t *chars, int32_t len) {
  /* String constants are made while loading, before linking. */
  if (!vm->known[DR_WK_STRING]) vm->known[DR_WK_STRING] = dr_find_class(vm, "java.lang.String");
  DrString *s = dr_gc_alloc(vm, vm->known[DR_WK_STRING], sizeof(DrString) + sizeof(uint16_t) * (size_t)len);
  if (!s) return NULL;
  s->length = len;
  if (chars && len) memcpy(s->chars, chars, sizeof(uint16_t) * (size_t)len);
  return s;
}

void dr_gc_free_all(DrVM *vm) {
  DrObj *o = vm->objects;
  while (o) {
    DrObj *n = o->gc_next;
    gc_release(vm, o);
    if (!pool_sized(gc_object_size(o))) free(o);
    o = n;
  }
  vm->objects = NULL;
  vm->bytes_allocated = 0;
  if (vm->pools) {
    for (int i = 0; i < vm->pools->npages; i++) free(vm->pools->pages[i]);
    free(vm->pools->pages);
    free(vm->pools);
    vm->pools = NULL;
  }
}

void dr_gc_make_permanent(DrVM *vm) {
  for (DrObj *o = vm->objects; o; o = o->gc_next) {
    /* a reset restores no object's contents: only immutable ones may stay */
    ASSERT(o->cls->flags & DR_CLS_STRING, "compiling made only string constants");
    o->flags |= DR_OBJ_PERM;
  }
}

/* New objects are prepended and sweeping keeps the list's order, so the
 * run's objects are the list's head, up to the first permanent one: the
 * walk costs what the run allocated, never the whole heap. */
void dr_gc_free_run(DrVM *vm) {
  DrObj *o = vm->objects;
  while (o && !(o->flags & DR_OBJ_PERM)) {
    DrObj *next = o->gc_next;
    gc_release(vm, o);
    pool_free(vm, o, gc_object_size(o));
    o = next;
  }
  vm->objects = o;
  DrSnapshot *s = &vm->snap;
  for (int i = 0; i < s->nmonitored; i++) {
    gc_free_monitor(s->monitored[i]->monitor);
    s->monitored[i]->monitor = NULL;
  }
  s->nmonitored = 0;
}
