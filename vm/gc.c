/* The garbage collector: precise, non-moving mark-sweep over a list of
 * every object.  dr_gc_alloc is the one allocation entry point; it counts
 * bytes and collects when the heap doubles since the last collection.
 *
 * Roots are explicit: each frame's registers (a per-method bitmap says
 * which hold references), class statics, the interned string constants,
 * C code's temporary roots, the pending exception and VM-held objects. */
#include "vm.h"

#include <string.h>

enum { DR_GC_MIN_HEAP = 4 * 1024 * 1024 };

void *dr_xmalloc(size_t size) { return dr_xrealloc(NULL, size); }

void *dr_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "drvm: out of memory\n");
    exit(70);
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

static void gc_mark_thread(DrVM *vm, DrThread *t) {
  for (int f = 0; f < t->nframes; f++) {
    DrFrame *fr = &t->frames[f];
    const DrMethod *m = fr->method;
    if (m->flags & DR_M_NATIVE) {
      for (int i = 0; i < m->nparams; i++)
        if (m->param_kinds[i] == DR_K_REF) gc_mark(vm, fr->regs[i].ref);
    } else {
      for (int i = 0; i < m->nregs; i++)
        if (m->reg_is_ref[i]) gc_mark(vm, fr->regs[i].ref);
    }
    gc_mark(vm, fr->sync_obj);
  }
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
  gc_mark_thread(vm, &vm->main_thread);
  for (int i = 0; i < vm->nclasses; i++) {
    DrClass *c = vm->classes[i];
    for (int s = 0; s < c->nstatics; s++)
      if (c->static_is_ref[s]) gc_mark(vm, c->statics[s].ref);
    gc_mark(vm, c->lock);
  }
  for (int i = 0; i < vm->nstrings; i++) gc_mark(vm, vm->strings[i]);
  for (int i = 0; i < vm->nroots; i++) gc_mark(vm, vm->roots[i]);
  gc_mark(vm, vm->exception);
  gc_mark(vm, vm->main_thread_obj);
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
      free(o->monitor);
      free(o);
    }
  }
  vm->bytes_allocated = live;
  vm->next_gc = live * 2 > DR_GC_MIN_HEAP ? live * 2 : DR_GC_MIN_HEAP;
  vm->gc_running = false;
}

void *dr_gc_alloc(DrVM *vm, DrClass *cls, size_t size) {
#ifdef DR_GC_STRESS
  dr_gc_collect(vm);
#else
  if (vm->bytes_allocated + size > vm->next_gc) dr_gc_collect(vm);
#endif
  if (vm->max_heap && vm->bytes_allocated + size > vm->max_heap) {
    dr_gc_collect(vm);
    if (vm->bytes_allocated + size > vm->max_heap) {
      /* The error object itself is small; let it past the limit once. */
      size_t saved = vm->max_heap;
      vm->max_heap = 0;
      dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
      vm->max_heap = saved;
      return NULL;
    }
  }
  DrObj *o = calloc(1, size);
  if (!o) {
    dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
    return NULL;
  }
  o->cls = cls;
  /* Identity hashes look arbitrary, like the JVM's, but come from a
   * counter so every run of a program sees the same ones. */
  uint32_t h = ++vm->next_hash * 0x9E3779B1u;
  h ^= h >> 15;
  o->hash = h & 0x7fffffffu;
  o->gc_next = vm->objects;
  vm->objects = o;
  vm->bytes_allocated += size;
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
    free(o->monitor);
    free(o);
    o = n;
  }
  vm->objects = NULL;
  vm->bytes_allocated = 0;
}
