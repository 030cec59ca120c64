/* The built-in library's C side: binding prelude `native` methods to C
 * functions, and helpers every native file shares.  The natives
 * themselves are in natives_lang.c (Object, Thread, System, Throwable,
 * PrintStream, drvm.Boot), natives_string.c (String, StringBuilder) and
 * natives_num.c (Math, Integer, Long, Character), natives_format.c
 * (drvm.Fmt: String.format and printf). */
#include "natives.h"

#include <string.h>

DrNativeFn dr_natives_find(const DrNativeEntry *table, size_t n, const char *cls, const char *desc) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(table[i].desc, desc) == 0 && strcmp(table[i].cls, cls) == 0) return table[i].fn;
  return NULL;
}

DrNativeFn dr_native_lookup(const char *class_name, const char *desc) {
  int ev;
  DrNativeFn fn = dr_natives_thread_lookup(class_name, desc, &ev);
  if (!fn) fn = dr_natives_lang_lookup(class_name, desc);
  if (!fn) fn = dr_natives_string_lookup(class_name, desc);
  if (!fn) fn = dr_natives_num_lookup(class_name, desc);
  if (!fn) fn = dr_natives_format_lookup(class_name, desc);
  if (!fn) fn = dr_natives_ffi_lookup(class_name, desc);
  return fn;
}

int dr_field_slot(const DrClass *cls, const char *name) {
  /* From the first: superclass slots come first, so a user subclass's
   * field of the same name (class MyEx { String detailMessage; }) never
   * hides the prelude's. */
  for (int i = 0; i < cls->nfields; i++)
    if (strcmp(cls->field_names[i], name) == 0) return i;
  dr_panic(__FILE__, __LINE__, "%s has no field %s", cls->name, name);
}

bool dr_throw_jstring(DrVM *vm, DrWellKnown wk, DrString *msg) {
  dr_push_root(vm, &msg->hdr);
  DrObj *e = dr_new_instance(vm, vm->known[wk]);
  if (!e) {
    dr_pop_roots(vm, 1);
    return false;
  }
  dr_field(e, "detailMessage")->ref = &msg->hdr;
  dr_push_root(vm, e);
  dr_build_stack_trace(vm, e, 0);
  dr_pop_roots(vm, 2);
  vm->exception = e;
  return false;
}

bool dr_throw_npe_msg(DrVM *vm, const char *msg) { return dr_throw(vm, DR_WK_NPE, "%s", msg); }

DrString *dr_lib_literal(DrVM *vm, int which) {
  static const char *const texts[] = {"", "false", "true"};
  int id = vm->lib_str_ids[which] - 1;
  if (id >= 0) return (DrString *)vm->strings[id];
  const char *t = texts[which];
  int32_t n = (int32_t)strlen(t);
  uint16_t u[8];
  for (int32_t i = 0; i < n; i++) u[i] = (uint16_t)t[i];
  id = dr_string_find(vm, u, n);
  if (id >= 0) {
    vm->lib_str_ids[which] = id + 1;
    return (DrString *)vm->strings[id];
  }
  /* The program has no such constant: intern one now, where a constant
   * loaded later (dr_string_const) would find it. */
  DrString *s = dr_new_string(vm, u, n);
  if (!s) return NULL;
  vm->lib_str_ids[which] = dr_string_intern(vm, &s->hdr) + 1;
  return s;
}

DrString *dr_lib_string(DrVM *vm, const uint16_t *u, int32_t n) {
  return n == 0 ? dr_lib_literal(vm, DR_LIT_EMPTY) : dr_new_string(vm, u, n);
}
