/* VM lifecycle and the loaded program's registries: classes, methods,
 * array classes, interned string constants, and linking. */
#include "hashidx.h"
#include "natives.h"
#include "opcodes.h"

#include <string.h>

/* The run's scalars that do not start at 0 (vm.h's run_begin..run_end). */
static void vm_run_defaults(DrVM *vm) {
  vm->preempt_at = UINT64_MAX;
  vm->step_target = UINT64_MAX;
  vm->next_deadline = INT64_MAX;
}

void dr_vm_init(DrVM *vm) {
  memset(vm, 0, sizeof(*vm));
  vm->next_gc = 4 * 1024 * 1024;
  vm->max_heap = (size_t)2 * 1024 * 1024 * 1024;
  vm->max_memory = (size_t)4 * 1024 * 1024 * 1024;
  vm->source_name = "prog.dl";
  vm->out_file = stdout;
  vm->err_file = stderr;
  vm_run_defaults(vm);
  _Static_assert(DR_OP__COUNT <= 256, "access_shape has 256 entries");
  for (int op = 0; op < DR_OP__COUNT; op++) {
    unsigned f = dr_op_info[op].flags;
    const char *fmt = dr_op_info[op].format;
    if (!(f & (DR_OPF_READ | DR_OPF_WRITE))) continue;
    bool w = f & DR_OPF_WRITE;
    if (fmt[0] == 'c' || fmt[1] == 'c') vm->access_shape[op] = w ? DR_SHAPE_STATIC_PUT : DR_SHAPE_STATIC_GET;
    else if (fmt[1] == 'f' || fmt[2] == 'f') vm->access_shape[op] = w ? DR_SHAPE_FIELD_PUT : DR_SHAPE_FIELD_GET;
    else vm->access_shape[op] = w ? DR_SHAPE_ARRAY_STORE : DR_SHAPE_ARRAY_LOAD;
  }
}

static void vm_free_method(DrMethod *m) {
  free(m->reg_is_ref);
  free(m->param_kinds);
  free(m->code);
  free(m->lines);
  free(m->local_vars);
  free(m->handlers);
  free(m->gc_points);
  free(m->gc_bits);
  free((char *)m->name);
  free((char *)m->desc);
  free(m);
}

static void vm_free_class(DrClass *c) {
  free(c->interfaces);
  free(c->field_is_ref);
  free(c->field_kinds);
  free(c->field_names);
  free(c->statics);
  free(c->static_is_ref);
  free(c->static_kinds);
  free(c->static_names);
  free(c->host_name);
  if (!(c->flags & DR_CLS_ARRAY)) free(c->vtable); /* arrays share Object's */
  free(c->itable);
  free((char *)c->name);
  free(c);
}

static void vm_free_threads(DrVM *vm) {
  for (int i = 0; i < vm->nall_threads; i++) {
    DrThread *t = vm->all_threads[i];
    free(t->stack);
    free(t->frames);
    free(t->held);
    free(t->final_seen);
    free(t->ended_name);
    free(t);
  }
  vm->nall_threads = vm->nthreads = vm->nenabled = 0;
}

static void vm_free_snapshot(DrSnapshot *s) {
  free(s->statics);
  free(s->nallocated);
  free(s->init_state);
  free(s->quickened);
  free(s->monitored);
}

void dr_vm_free(DrVM *vm) {
  dr_gc_free_all(vm);
  dr_ffi_free(vm);
  /* Field names are owned by the class declaring them; inherited entries
   * share the superclass's copies, so free them while all classes live. */
  for (int i = 0; i < vm->nclasses; i++) {
    DrClass *c = vm->classes[i];
    if (c->flags & DR_CLS_ARRAY) continue;
    for (int f = c->super ? c->super->nfields : 0; f < c->nfields; f++) free((char *)c->field_names[f]);
    for (int f = 0; f < c->nstatics; f++) free((char *)c->static_names[f]);
  }
  for (int i = 0; i < vm->nmethods; i++) vm_free_method(vm->methods[i]);
  for (int i = 0; i < vm->nclasses; i++) vm_free_class(vm->classes[i]);
  free(vm->methods);
  free(vm->classes);
  free(vm->strings);
  dr_hidx_free(&vm->string_idx);
  free(vm->gray);
  free(vm->roots);
  free(vm->esc_stack);
  vm_free_threads(vm);
  free(vm->all_threads);
  free(vm->threads);
  free(vm->enabled);
  free(vm->out.data);
  dr_buf16_free(&vm->scratch16);
  vm_free_snapshot(&vm->snap);
  memset(vm, 0, sizeof(*vm));
}

DrObj *dr_class_object(DrVM *vm, DrClass *c) {
  if (!c->lock) c->lock = dr_new_instance(vm, vm->known[DR_WK_CLASS]);
  return c->lock;
}

DrClass *dr_class_new(DrVM *vm, const char *name) {
  DrClass *c = dr_xcalloc(1, sizeof(DrClass));
  c->name = dr_strdup(name);
  c->id = vm->nclasses;
  c->elem_kind = DR_K_VOID;
  DR_PUSH(vm->classes, vm->nclasses, vm->classes_cap, c);
  return c;
}

DrMethod *dr_method_new(DrVM *vm, DrClass *owner, const char *name, const char *desc) {
  DrMethod *m = dr_xcalloc(1, sizeof(DrMethod));
  m->name = dr_strdup(name);
  m->desc = dr_strdup(desc);
  m->owner = owner;
  m->id = vm->nmethods;
  m->vtable_index = -1;
  m->sync_event = -1;
  m->selector = -1;
  DR_PUSH(vm->methods, vm->nmethods, vm->methods_cap, m);
  return m;
}

DrClass *dr_find_class(DrVM *vm, const char *name) {
  for (int i = 0; i < vm->nclasses; i++)
    if (strcmp(vm->classes[i]->name, name) == 0) return vm->classes[i];
  return NULL;
}

static const char vm_kind_code[] = {
    [DR_K_BOOLEAN] = 'Z', [DR_K_CHAR] = 'C', [DR_K_BYTE] = 'B', [DR_K_SHORT] = 'S',
    [DR_K_INT] = 'I',     [DR_K_LONG] = 'J', [DR_K_FLOAT] = 'F', [DR_K_DOUBLE] = 'D'};
static const int vm_kind_size[] = {[DR_K_BOOLEAN] = 1, [DR_K_CHAR] = 2, [DR_K_BYTE] = 1,
                                   [DR_K_SHORT] = 2,   [DR_K_INT] = 4,  [DR_K_LONG] = 8,
                                   [DR_K_FLOAT] = 4,   [DR_K_DOUBLE] = 8, [DR_K_REF] = sizeof(DrObj *)};

static DrClass *vm_new_array_class(DrVM *vm, const char *name, DrKind kind, DrClass *elem) {
  DrClass *c = dr_class_new(vm, name);
  c->flags = DR_CLS_ARRAY | DR_CLS_FINAL;
  c->elem_kind = kind;
  c->elem_class = elem;
  c->elem_size = vm_kind_size[kind];
  c->init_state = DR_INIT_DONE;
  c->super = vm->known[DR_WK_OBJECT];
  if (c->super) {
    c->vtable = c->super->vtable;
    c->vtable_len = c->super->vtable_len;
  }
  return c;
}

DrClass *dr_prim_array_class(DrVM *vm, DrKind kind) {
  ASSERT(kind >= DR_K_BOOLEAN && kind <= DR_K_DOUBLE, "primitive kind");
  if (!vm->prim_array[kind]) {
    char name[3] = {'[', vm_kind_code[kind], 0};
    vm->prim_array[kind] = vm_new_array_class(vm, name, kind, NULL);
  }
  return vm->prim_array[kind];
}

/* Array classes are named as the JVM names them: [I, [[I, [LFoo; */
DrClass *dr_array_class(DrVM *vm, DrClass *elem) {
  if (!elem->array_class) {
    size_t n = strlen(elem->name);
    char *name = dr_xmalloc(n + 4);
    if (elem->flags & DR_CLS_ARRAY)
      snprintf(name, n + 4, "[%s", elem->name);
    else
      snprintf(name, n + 4, "[L%s;", elem->name);
    elem->array_class = vm_new_array_class(vm, name, DR_K_REF, elem);
    free(name);
  }
  return elem->array_class;
}

/* ------------------------------------------------- interned strings */

/* The constants are found by their text through vm->string_idx (a
 * program may have many thousands), which holds every vm->strings entry. */
typedef struct {
  const DrVM *vm;
  const uint16_t *chars;
  int len;
} VmStrKey;

static bool vm_same_string(const void *key, int32_t id) {
  const VmStrKey *k = key;
  const DrString *s = (const DrString *)k->vm->strings[id];
  return s->length == k->len && memcmp(s->chars, k->chars, sizeof(uint16_t) * (size_t)k->len) == 0;
}

static uint32_t vm_string_hash(const uint16_t *chars, int len) {
  return dr_hash_bytes(chars, sizeof(uint16_t) * (size_t)len);
}

int dr_string_find(DrVM *vm, const uint16_t *chars, int len) {
  VmStrKey key = {vm, chars, len};
  int32_t *id = dr_hidx_find(&vm->string_idx, vm_string_hash(chars, len), vm_same_string, &key);
  return id ? *id : -1;
}

static void vm_index_string(DrVM *vm, int id) {
  const DrString *s = (const DrString *)vm->strings[id];
  dr_hidx_add(&vm->string_idx, vm_string_hash(s->chars, s->length), id);
}

int dr_string_intern(DrVM *vm, DrObj *s) {
  DR_PUSH(vm->strings, vm->nstrings, vm->strings_cap, s);
  vm_index_string(vm, vm->nstrings - 1);
  return vm->nstrings - 1;
}

/* The strings a run interned (dr_lib_literal) go with the run: out of
 * the index while their text is still there. */
static void vm_drop_run_strings(DrVM *vm) {
  for (int id = vm->nstrings - 1; id >= vm->snap.nstrings; id--) {
    const DrString *s = (const DrString *)vm->strings[id];
    dr_hidx_remove(&vm->string_idx, vm_string_hash(s->chars, s->length), id);
  }
  vm->nstrings = vm->snap.nstrings;
}

int dr_string_const(DrVM *vm, const uint16_t *chars, int len) {
  int id = dr_string_find(vm, chars, len);
  if (id >= 0) return id;
  /* Constants are created while loading, before any code runs; the slot
   * is reserved first so the new string is a root at once. */
  DR_PUSH(vm->strings, vm->nstrings, vm->strings_cap, NULL);
  DrString *s = dr_new_string(vm, chars, len);
  if (!s) dr_panic(__FILE__, __LINE__, "out of memory while loading string constants");
  vm->strings[vm->nstrings - 1] = &s->hdr;
  vm_index_string(vm, vm->nstrings - 1);
  return vm->nstrings - 1;
}

bool dr_is_subclass(const DrClass *c, const DrClass *of) {
  if (c == of) return true;
  if (of->flags & DR_CLS_ARRAY) {
    if (!(c->flags & DR_CLS_ARRAY) || of->elem_kind != DR_K_REF || c->elem_kind != DR_K_REF) return false;
    return dr_is_subclass(c->elem_class, of->elem_class);
  }
  if (of->flags & DR_CLS_INTERFACE) {
    for (const DrClass *k = c; k; k = k->super)
      for (int i = 0; i < k->ninterfaces; i++)
        if (dr_is_subclass(k->interfaces[i], of)) return true;
    return false;
  }
  if (!of->super) return true; /* java.lang.Object */
  for (const DrClass *k = c->super; k; k = k->super)
    if (k == of) return true;
  return false;
}

bool dr_instance_of(const DrObj *o, const DrClass *cls) { return o && dr_is_subclass(o->cls, cls); }

int dr_method_line(const DrMethod *m, uint32_t pc) {
  int line = -1;
  for (int i = 0; i < m->nlines; i++) {
    if (m->lines[i].pc > pc) break;
    line = m->lines[i].line;
  }
  return line;
}

bool dr_vm_link(DrVM *vm) {
  static const char *const names[DR_WK__COUNT] = {
#define DR_WK_NAME(id, name) name,
      DR_WELL_KNOWN(DR_WK_NAME)
#undef DR_WK_NAME
  };
  bool ok = true;
  for (int i = 0; i < DR_WK__COUNT; i++) {
    vm->known[i] = dr_find_class(vm, names[i]);
    if (!vm->known[i]) {
      fprintf(vm->err_file, "drvm: internal error: built-in class %s missing\n", names[i]);
      ok = false;
    }
  }
  if (!ok) return false;
  /* Array classes made before Object's vtable existed get it now. */
  DrClass *object = vm->known[DR_WK_OBJECT];
  for (int i = 0; i < vm->nclasses; i++) {
    DrClass *c = vm->classes[i];
    if (c->flags & DR_CLS_ARRAY) {
      c->super = object;
      c->vtable = object->vtable;
      c->vtable_len = object->vtable_len;
    }
  }
  for (int i = 0; i < vm->nmethods; i++) {
    DrMethod *m = vm->methods[i];
    if (!(m->flags & DR_M_NATIVE)) continue;
    if (!(m->owner->flags & DR_CLS_BUILTIN)) { /* a user's: bound to C at its first call */
      m->native = dr_ffi_call;
      m->sync_event = -1;
      continue;
    }
    int ev = -1;
    m->native = dr_natives_thread_lookup(m->owner->name, m->desc, &ev);
    m->sync_event = (int8_t)ev;
    if (!m->native) m->native = dr_native_lookup(m->owner->name, m->desc);
    if (!m->native) {
      fprintf(vm->err_file, "drvm: internal error: no native for %s.%s\n", m->owner->name, m->desc);
      ok = false;
    }
  }
  for (int i = 0; i < vm->nmethods; i++) {
    DrMethod *m = vm->methods[i];
    if (m->owner == vm->known[DR_WK_THREAD] && strcmp(m->desc, "run()") == 0) vm->thread_run = m;
    if (m->owner == vm->known[DR_WK_BOOT] && strcmp(m->desc, "uncaught(Throwable)") == 0) vm->uncaught_handler = m;
  }
  vm->thread_tid_slot = -1;
  vm->thread_intr_slot = -1;
  for (int i = 0; i < vm->known[DR_WK_THREAD]->nfields; i++)
    if (strcmp(vm->known[DR_WK_THREAD]->field_names[i], "tid") == 0) vm->thread_tid_slot = i;
    else if (strcmp(vm->known[DR_WK_THREAD]->field_names[i], "interrupted") == 0) vm->thread_intr_slot = i;
  if (!vm->thread_run || !vm->uncaught_handler || vm->thread_tid_slot < 0 || vm->thread_intr_slot < 0) {
    fprintf(vm->err_file, "drvm: internal error: Thread.run or Boot.uncaught missing\n");
    ok = false;
  }
  return ok;
}

/* ------------------------------------------------------------ reset */

void dr_vm_snapshot(DrVM *vm) {
  DrSnapshot *s = &vm->snap;
  ASSERT(!s->taken, "one snapshot per VM");
  size_t nstatics = 0;
  for (int i = 0; i < vm->nclasses; i++) nstatics += (size_t)vm->classes[i]->nstatics;
  s->statics = dr_xcalloc(nstatics, sizeof(DrValue));
  s->nallocated = dr_xcalloc((size_t)vm->nclasses, sizeof(uint32_t));
  s->init_state = dr_xcalloc((size_t)vm->nclasses, sizeof(uint8_t));
  DrValue *v = s->statics;
  for (int i = 0; i < vm->nclasses; i++) {
    const DrClass *c = vm->classes[i];
    if (c->nstatics) memcpy(v, c->statics, sizeof(DrValue) * (size_t)c->nstatics);
    v += c->nstatics;
    s->nallocated[i] = c->nallocated;
    s->init_state[i] = (uint8_t)c->init_state;
  }
  s->nclasses = vm->nclasses;
  s->nstrings = vm->nstrings;
  memcpy(s->lib_str_ids, vm->lib_str_ids, sizeof s->lib_str_ids);
  s->bytes_allocated = vm->bytes_allocated;
  s->next_gc = vm->next_gc;
  dr_gc_make_permanent(vm);
  s->taken = true;
}

/* Array classes a run made go, with the caches that name them: a fresh
 * VM's run makes them anew, with the ids (so the identity hashes) its
 * own order gives them. */
static void vm_drop_run_classes(DrVM *vm) {
  for (int i = vm->nclasses - 1; i >= vm->snap.nclasses; i--) {
    DrClass *c = vm->classes[i];
    ASSERT(c->flags & DR_CLS_ARRAY, "only array classes are made while running");
    if (c->elem_class && c->elem_class->array_class == c) c->elem_class->array_class = NULL;
    if (!c->elem_class && vm->prim_array[c->elem_kind] == c) vm->prim_array[c->elem_kind] = NULL;
    vm_free_class(c);
  }
  vm->nclasses = vm->snap.nclasses;
}

static void vm_restore_classes(DrVM *vm) {
  const DrSnapshot *s = &vm->snap;
  const DrValue *v = s->statics;
  for (int i = 0; i < s->nclasses; i++) {
    DrClass *c = vm->classes[i];
    if (c->nstatics) memcpy(c->statics, v, sizeof(DrValue) * (size_t)c->nstatics);
    v += c->nstatics;
    c->nallocated = s->nallocated[i];
    c->init_state = (DrInitState)s->init_state[i];
    c->init_thread = NULL;
    c->lock = NULL; /* a run's object, freed with the others */
    c->init_error = NULL;
  }
}

/* Instructions quickened once their class was initialized check it again. */
static void vm_unquicken(DrVM *vm) {
  DrSnapshot *s = &vm->snap;
  for (int i = s->nquickened - 1; i >= 0; i--) *s->quickened[i].ip = s->quickened[i].op;
  s->nquickened = 0;
}

void dr_vm_reset(DrVM *vm) {
  const DrSnapshot *s = &vm->snap;
  ASSERT(s->taken && !vm->listeners && !vm->gc_running, "a reset after compiling, listeners finished");
  dr_flush_output(vm);
  vm_drop_run_strings(vm); /* before the run's objects go: the index reads their text */
  dr_gc_free_run(vm); /* before the run's classes go: object sizes read them */
  vm_free_threads(vm);
  vm_drop_run_classes(vm);
  vm_restore_classes(vm);
  vm_unquicken(vm);
  memcpy(vm->lib_str_ids, s->lib_str_ids, sizeof vm->lib_str_ids);
  vm->bytes_allocated = s->bytes_allocated;
  vm->ext_bytes = 0; /* the threads and the listeners are gone */
  vm->next_gc = s->next_gc;
  vm->nroots = vm->ngray = 0;
  vm->out.len = 0;
  vm->scratch16.len = 0;
  atomic_store(&vm->step_interrupt, 0);
  memset(&vm->run_begin, 0, offsetof(DrVM, run_end) - offsetof(DrVM, run_begin));
  vm_run_defaults(vm);
}
