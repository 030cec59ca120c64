/* Exceptions raised by the VM itself (NullPointerException, / by zero,
 * ...): created without running bytecode -- the message and the stack
 * trace are stored straight into Throwable's fields. */
#include "vm.h"

#include <stdarg.h>
#include <string.h>

/* Throwable's field slots, by name (prelude field order may change). */
static int exc_field_slot(const DrClass *throwable, const char *name) {
  for (int i = 0; i < throwable->nfields; i++)
    if (strcmp(throwable->field_names[i], name) == 0) return i;
  dr_panic(__FILE__, __LINE__, "java.lang.Throwable has no field %s", name);
}

bool dr_throw_obj(DrVM *vm, DrObj *exception) {
  vm->exception = exception;
  return false;
}

bool dr_throw(DrVM *vm, DrWellKnown wk, const char *fmt, ...) {
  DrClass *cls = vm->known[wk];
  if (!cls) dr_panic(__FILE__, __LINE__, "exception class %d not loaded", (int)wk);
  DrString *msg = NULL;
  if (fmt) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    msg = dr_new_string_utf8(vm, buf);
    if (!msg) return false; /* OutOfMemoryError is pending instead */
  }
  dr_push_root(vm, (DrObj *)msg);
  DrObj *e = dr_new_instance(vm, cls);
  if (!e) {
    dr_pop_roots(vm, 1);
    return false;
  }
  DrClass *throwable = vm->known[DR_WK_THROWABLE];
  ((DrInstance *)e)->fields[exc_field_slot(throwable, "detailMessage")].ref = (DrObj *)msg;
  dr_push_root(vm, e);
  dr_build_stack_trace(vm, e, 0);
  dr_pop_roots(vm, 2);
  vm->exception = e;
  return false;
}

bool dr_throw_npe(DrVM *vm) { return dr_throw(vm, DR_WK_NPE, NULL); }
