/* include/drvm.h: the program's values (statics, fields, a frame's
 * locals) and the detector's view, for hosts (a REPL's `print`, `hb`). */
#include <string.h>

#include "api.h"
#include "opcodes.h"

static DrClass *class_named(DrVM *vm, const char *name) {
  char buf[256];
  DrClass *nested = NULL;
  for (int i = 0; i < vm->nclasses; i++) {
    DrClass *c = vm->classes[i];
    if (!strcmp(c->name, name) || !strcmp(dr_class_display_name(c, buf, sizeof buf), name)) return c;
    /* a nested class by its simple name (Adder for Lost$Adder), if only one has it */
    const char *dollar = strrchr(c->name, '$');
    if (dollar && !strcmp(dollar + 1, name)) nested = nested ? (DrClass *)-1 : c;
  }
  return nested == (DrClass *)-1 ? NULL : nested;
}

/* "Account#3" (or "int[]#2"): the object of that class and number. */
static DrObj *object_named(DrVM *vm, const char *name) {
  const char *hash = strrchr(name, '#');
  if (!hash || !hash[1]) return NULL;
  char *end;
  unsigned long serial = strtoul(hash + 1, &end, 10);
  if (*end) return NULL;
  char cls[256];
  snprintf(cls, sizeof cls, "%.*s", (int)(hash - name), name);
  DrClass *c = class_named(vm, cls);
  for (DrObj *o = vm->objects; c && o; o = o->gc_next)
    if (o->cls == c && o->serial == serial) return o;
  return NULL;
}

/* A value as Java prints it; strings quoted, objects by name. */
static void value_text(DrKind k, DrValue v, DrBuf *b) {
  if (k != DR_K_REF) {
    dr_buf_append_value(b, k, v);
    return;
  }
  char buf[300];
  if (v.ref && (v.ref->cls->flags & DR_CLS_STRING)) {
    dr_buf_append_str(b, "\"");
    dr_buf_append_jstring(b, (const DrString *)v.ref);
    dr_buf_append_str(b, "\"");
  } else {
    dr_buf_append_str(b, dr_obj_name(v.ref, buf, sizeof buf));
  }
}

static bool put(DrBuf *b, char *out, size_t size) {
  snprintf(out, size, "%s", b->data ? b->data : "");
  free(b->data);
  return true;
}

/* The last slot of that name: a subclass's field hides its superclass's. */
static int slot_named(const char **names, int n, const char *field) {
  for (int i = n - 1; i >= 0; i--)
    if (names[i] && !strcmp(names[i], field)) return i;
  return -1;
}

bool drvm_static_value(DrVM *vm, const char *cls, const char *field, char *out, size_t size) {
  DrClass *c = class_named(vm, cls);
  if (!c) return dr_api_fail(vm, "no class %s", cls);
  int s = slot_named(c->static_names, c->nstatics, field);
  if (s < 0 || !c->static_kinds) return dr_api_fail(vm, "%s has no static field %s", cls, field);
  DrBuf b = {0};
  value_text((DrKind)c->static_kinds[s], c->statics[s], &b);
  return put(&b, out, size);
}

bool drvm_field_value(DrVM *vm, const char *obj, const char *field, char *out, size_t size) {
  DrObj *o = object_named(vm, obj);
  if (!o) return dr_api_fail(vm, "no object %s (objects are named like Account#1)", obj);
  DrClass *c = o->cls;
  DrBuf b = {0};
  if (c->flags & DR_CLS_ARRAY) {
    const DrArray *a = (const DrArray *)o;
    char *end;
    long i = strtol(field, &end, 10);
    if (!strcmp(field, "length")) {
      dr_buf_printf(&b, "%d", a->length);
      return put(&b, out, size);
    }
    if (*end || end == field || i < 0 || i >= a->length) return dr_api_fail(vm, "%s has no element %s", obj, field);
    DrValue v;
    const char *base = DR_ARRAY_DATA(a);
    memset(&v, 0, sizeof v);
    switch (c->elem_kind) {
    case DR_K_BOOLEAN: v.i = ((const uint8_t *)base)[i]; break;
    case DR_K_CHAR: v.i = ((const uint16_t *)base)[i]; break;
    case DR_K_INT: v.i = ((const int32_t *)base)[i]; break;
    case DR_K_BYTE: v.i = ((const int8_t *)base)[i]; break;
    case DR_K_SHORT: v.i = ((const int16_t *)base)[i]; break;
    case DR_K_FLOAT: v.f = ((const float *)base)[i]; break;
    case DR_K_LONG: v.j = ((const int64_t *)base)[i]; break;
    case DR_K_DOUBLE: v.d = ((const double *)base)[i]; break;
    default: v.ref = ((DrObj *const *)base)[i]; break;
    }
    value_text(c->elem_kind, v, &b);
    return put(&b, out, size);
  }
  if (c->flags & DR_CLS_STRING) return dr_api_fail(vm, "%s is a String: its fields are not the program's", obj);
  int s = slot_named(c->field_names, c->nfields, field);
  if (s < 0 || !c->field_kinds) return dr_api_fail(vm, "%s has no field %s", obj, field);
  value_text((DrKind)c->field_kinds[s], ((DrInstance *)o)->fields[s], &b);
  return put(&b, out, size);
}

/* ------------------------------------------------------------ a frame's locals */

/* Frame depth (innermost 0) of thread and its position: the pc of the
 * instruction it is about to run, or of the call it waits in. */
static const DrFrame *frame_at(DrVM *vm, int thread, int depth, uint32_t *pc) {
  if (thread < 0 || thread >= vm->nall_threads) {
    dr_api_fail(vm, "no thread T%d", thread);
    return NULL;
  }
  const DrThread *t = vm->all_threads[thread];
  if (depth < 0 || depth >= t->nframes) {
    dr_api_fail(vm, "T%d has no frame %d", thread, depth);
    return NULL;
  }
  const DrFrame *f = &t->frames[t->nframes - 1 - depth];
  if (!f->ip || (f->method->flags & DR_M_NATIVE)) {
    dr_api_fail(vm, "frame %d of T%d is the native method %s.%s: it has no local variables", depth, thread,
                f->method->owner->name, f->method->name);
    return NULL;
  }
  *pc = (uint32_t)(f->ip - f->method->code);
  return f;
}

/* Whether local v holds its value at pc (see DrLocalVar). */
static bool in_scope(const DrLocalVar *v, uint32_t pc) { return v->start <= pc && pc < v->end; }

bool drvm_frame_local_name(DrVM *vm, int thread, int depth, int i, const char **name) {
  uint32_t pc;
  const DrFrame *f = frame_at(vm, thread, depth, &pc);
  if (!f) return false;
  const DrMethod *m = f->method;
  for (int k = 0, n = 0; k < m->nlocal_vars; k++) {
    if (!in_scope(&m->local_vars[k], pc)) continue;
    if (n++ == i) {
      *name = m->local_vars[k].name;
      return true;
    }
  }
  return dr_api_fail(vm, "%s.%s has no local variable %d in scope here", m->owner->name, m->name, i);
}

bool drvm_frame_local(DrVM *vm, int thread, int depth, const char *name, char *out, size_t size) {
  uint32_t pc;
  const DrFrame *f = frame_at(vm, thread, depth, &pc);
  if (!f) return false;
  const DrMethod *m = f->method;
  for (int k = m->nlocal_vars - 1; k >= 0; k--) { /* the innermost of equal names */
    const DrLocalVar *v = &m->local_vars[k];
    if (!in_scope(v, pc) || strcmp(v->name, name) != 0) continue;
    DrBuf b = {0};
    value_text(v->kind, f->regs[v->reg], &b);
    return put(&b, out, size);
  }
  return dr_api_fail(vm, "%s.%s has no local variable %s in scope here (line %d)", m->owner->name, m->name, name,
                     dr_method_line(m, pc));
}

/* ------------------------------------------------------------ the detector's view */

bool drvm_detector_clock(DrVM *vm, int thread, char *out, size_t size) {
  DrApi *a = vm->api;
  if (thread < 0 || thread >= vm->nall_threads) return dr_api_fail(vm, "no thread T%d", thread);
  DrBuf b = {0};
  if (!dr_reg_det_clock(a->detector, thread, &b)) {
    free(b.data);
    return dr_api_fail(vm, "the detector keeps no vector clocks (ft, djit and basicvc do)");
  }
  return put(&b, out, size);
}

/* "Account#1.balance", "Bank.total" or "int[]#2[3]" as a location. */
static bool location_named(DrVM *vm, const char *loc, DrObj **obj, DrClass **cls, int32_t *index, bool *is_static) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", loc);
  char *hash = strrchr(buf, '#');
  char *br = hash ? strchr(hash, '[') : NULL; /* the element's, not the type's ("int[]#2[3]") */
  if (br) {
    *br = 0;
    *obj = object_named(vm, buf);
    char *end;
    long i = strtol(br + 1, &end, 10);
    if (!*obj || !((*obj)->cls->flags & DR_CLS_ARRAY) || strcmp(end, "]") != 0 || i < 0 ||
        i >= ((DrArray *)*obj)->length)
      return dr_api_fail(vm, "no array element %s", loc);
    *cls = (*obj)->cls, *index = (int32_t)i, *is_static = false;
    return true;
  }
  char *dot = strrchr(buf, '.');
  if (!dot) return dr_api_fail(vm, "%s names no location (Account#1.balance, Bank.total, int[]#2[3])", loc);
  *dot = 0;
  *obj = strchr(buf, '#') ? object_named(vm, buf) : NULL;
  *is_static = !*obj;
  *cls = *obj ? (*obj)->cls : class_named(vm, buf);
  if (!*cls) return dr_api_fail(vm, "no object or class %s", buf);
  *index = *is_static ? slot_named((*cls)->static_names, (*cls)->nstatics, dot + 1)
                      : slot_named((*cls)->field_names, (*cls)->nfields, dot + 1);
  if (*index < 0) return dr_api_fail(vm, "%s has no field %s", buf, dot + 1);
  return true;
}

bool drvm_detector_explain(DrVM *vm, const char *location, int thread, bool write, char *out, size_t size) {
  DrApi *a = vm->api;
  if (thread < 0 || thread >= vm->nall_threads) return dr_api_fail(vm, "no thread T%d", thread);
  DrObj *obj;
  DrClass *cls;
  int32_t index;
  bool is_static;
  if (!location_named(vm, location, &obj, &cls, &index, &is_static)) return false;
  DrBuf b = {0};
  if (!dr_reg_det_explain(a->detector, vm, obj, cls, index, is_static, thread, write, &b)) {
    free(b.data);
    return dr_api_fail(vm, "the detector cannot explain orders (ft can)");
  }
  return put(&b, out, size);
}

int drvm_race_count(const DrVM *vm) { return vm->api->detector ? dr_reg_det_race_count(vm->api->detector) : 0; }

bool drvm_race(const DrVM *vm, int i, DrvmRace *out) {
  return vm->api->detector && dr_reg_det_race(vm->api->detector, i, out);
}

int drvm_uncaught_count(const DrVM *vm) { return vm->uncaught; }

/* The first line at or after pc in m with an instruction a stepping run
 * stops before, or -1. */
static int next_event_line(const DrMethod *m, uint32_t pc) {
  const unsigned events = DR_OPF_READ | DR_OPF_WRITE | DR_OPF_SYNC | DR_OPF_CALL | DR_OPF_RETURN;
  while (pc < (uint32_t)m->code_len) {
    const uint32_t *ip = m->code + pc;
    if (dr_op_info[ip[0]].flags & events) return dr_method_line(m, pc);
    pc += (uint32_t)dr_op_length(ip);
  }
  return -1;
}

int drvm_line_event(const DrVM *vm, int line) {
  int found = 0;
  for (int i = 0; i < vm->nmethods; i++) {
    const DrMethod *m = vm->methods[i];
    if (m->owner->flags & DR_CLS_BUILTIN) continue;
    for (int k = 0; k < m->nlines; k++) {
      if (m->lines[k].line != line) continue;
      int at = next_event_line(m, m->lines[k].pc);
      if (at == line) return line;
      if (at > 0 && (found <= 0 || at < found)) found = at;
      else if (found == 0) found = -1;
    }
  }
  return found;
}

bool drvm_line_has_code(const DrVM *vm, int line) {
  for (int i = 0; i < vm->nmethods; i++) {
    const DrMethod *m = vm->methods[i];
    if (m->owner->flags & DR_CLS_BUILTIN) continue;
    for (int k = 0; k < m->nlines; k++)
      if (m->lines[k].line == line) return true;
  }
  return false;
}

bool drvm_class_name(const DrVM *vm, int i, const char **name) {
  for (int k = 0; k < vm->nclasses; k++) {
    const DrClass *c = vm->classes[k];
    if ((c->flags & (DR_CLS_BUILTIN | DR_CLS_ARRAY)) || i-- > 0) continue;
    *name = c->name;
    return true;
  }
  return false;
}

bool drvm_field_name(DrVM *vm, const char *cls, int i, const char **name, bool *is_static) {
  const DrClass *c = class_named(vm, cls);
  if (!c || i < 0) return false;
  if (i < c->nfields) {
    *name = c->field_names[i];
    *is_static = false;
    return *name != NULL;
  }
  i -= c->nfields;
  if (i >= c->nstatics) return false;
  *name = c->static_names[i];
  *is_static = true;
  return *name != NULL;
}
