/* Internals shared by the built-in library's C files (natives*.c,
 * stacktrace.c): native tables, prelude field access, exception and
 * literal helpers. */
#ifndef DR_NATIVES_H
#define DR_NATIVES_H

#include "vm.h"

/* One row of a native table: a prelude class's runtime name, the
 * method's "name(T1,T2)" and its C implementation. */
typedef struct {
  const char *cls;
  const char *desc;
  DrNativeFn fn;
} DrNativeEntry;

DrNativeFn dr_natives_find(const DrNativeEntry *table, size_t n, const char *cls, const char *desc);
/* Per-file tables (natives_lang.c, natives_string.c, natives_num.c). */
DrNativeFn dr_natives_lang_lookup(const char *cls, const char *desc);
DrNativeFn dr_natives_string_lookup(const char *cls, const char *desc);
DrNativeFn dr_natives_num_lookup(const char *cls, const char *desc);
DrNativeFn dr_natives_format_lookup(const char *cls, const char *desc);
/* ffi.c: System.load and System.loadLibrary */
DrNativeFn dr_natives_ffi_lookup(const char *cls, const char *desc);
/* threads.c: also gives the event kind of a synchronizing native, or -1. */
DrNativeFn dr_natives_thread_lookup(const char *cls, const char *desc, int *sync_event);

/* The slot of a prelude-declared instance field, found by name (the
 * prelude's field order may change); panics if the prelude lacks it. */
int dr_field_slot(const DrClass *cls, const char *name);
static inline DrValue *dr_field(DrObj *o, const char *name) {
  return &((DrInstance *)o)->fields[dr_field_slot(o->cls, name)];
}

/* Like dr_throw, with a message that is already a String (it may hold
 * any UTF-16 text); msg must be reachable (a root) while this runs. */
bool dr_throw_jstring(DrVM *vm, DrWellKnown wk, DrString *msg);
/* Throws NullPointerException with the JDK's helpful message. */
bool dr_throw_npe_msg(DrVM *vm, const char *msg);

/* The interned "" / "false" / "true": Java returns these very objects
 * from, e.g., "abc".substring(3) and String.valueOf(true). */
enum { DR_LIT_EMPTY, DR_LIT_FALSE, DR_LIT_TRUE };
DrString *dr_lib_literal(DrVM *vm, int which);

/* A new String of units, or the interned "" when n == 0 (as the JDK). */
DrString *dr_lib_string(DrVM *vm, const uint16_t *u, int32_t n);

#endif
