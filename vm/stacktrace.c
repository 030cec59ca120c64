/* Stack traces: Throwable.stackTrace is a String[] of
 * "Class.method(FILE:LINE)", most recent call first, built when the
 * throwable is created (fillInStackTrace, or dr_throw for VM exceptions).
 *
 * FILE is the class's file ("Bank.java"; vm->source_name for a program of
 * one file, "prog.dl" or as the host named it) for the program's classes and
 * "prelude.dl" for the built-in library (vm/prelude.dl, embedded in drvm),
 * whose lines are real lines of that file.  ":LINE" is left out when the
 * pc has no line. */
#include "natives.h"

#include <string.h>

enum { DR_MAX_TRACE = 1024 }; /* the JDK's default MaxJavaStackTraceDepth */

const char *dr_method_file(const DrVM *vm, const DrMethod *m) {
  if (m->owner->flags & DR_CLS_BUILTIN) return "prelude.dl";
  return m->owner->source_file ? m->owner->source_file : vm->source_name;
}

static bool is_throwable_class(DrVM *vm, const DrClass *c) {
  return (c->flags & DR_CLS_THROWABLE) || dr_is_subclass(c, vm->known[DR_WK_THROWABLE]);
}

/* The JDK hides the frames that create the throwable: fillInStackTrace
 * and the constructors of Throwable classes running on this object. */
static bool is_creation_frame(DrVM *vm, const DrFrame *f, const DrObj *throwable) {
  const DrMethod *m = f->method;
  if (m->flags & DR_M_STATIC || f->regs[0].ref != throwable || !is_throwable_class(vm, m->owner)) return false;
  return (m->flags & DR_M_CTOR) || strcmp(m->name, "<init>") == 0 || strcmp(m->name, "fillInStackTrace") == 0;
}

void dr_frame_text(DrVM *vm, const DrFrame *f, DrBuf *b) {
  dr_position_text(vm, f->method, f->ip ? (int64_t)(f->ip - f->method->code) : -1, true, b);
}

void dr_position_text(DrVM *vm, const DrMethod *m, int64_t pc, bool with_method, DrBuf *b) {
  if (with_method) {
    dr_buf_append_str(b, m->owner->name);
    dr_buf_append_str(b, ".");
    dr_buf_append_str(b, m->name);
    dr_buf_append_str(b, "(");
  }
  dr_buf_append_str(b, dr_method_file(vm, m));
  /* ip is saved at the start of the instruction that left the frame */
  int line = pc >= 0 ? dr_method_line(m, (uint32_t)pc) : -1;
  if (line >= 0) {
    char num[24];
    snprintf(num, sizeof num, ":%d", line);
    dr_buf_append_str(b, num);
  }
  if (with_method) dr_buf_append_str(b, ")");
}

static DrString *frame_text(DrVM *vm, const DrFrame *f) {
  DrBuf b = {0};
  dr_frame_text(vm, f, &b);
  DrString *s = dr_new_string_utf8(vm, b.data);
  free(b.data);
  return s;
}

bool dr_build_stack_trace(DrVM *vm, DrObj *throwable, int skip_top) {
  DrThread *th = vm->thread;
  DrValue *field = dr_field(throwable, "stackTrace");
  field->ref = NULL;
  /* most recent first; native frames (no ip) and frames that have not
   * begun (below the <clinit>s that run first) are never shown */
  int skipped = 0;
  bool leading = true;
  int *shown = dr_xmalloc(sizeof(int) * DR_MAX_TRACE);
  int n = 0;
  /* a throwable built outside any thread (embedding API) has no frames */
  for (int i = th ? th->nframes - 1 : -1; i >= 0 && n < DR_MAX_TRACE; i--) {
    const DrFrame *f = &th->frames[i];
    if ((f->method->flags & (DR_M_NATIVE | DR_M_HIDDEN)) || dr_frame_pending(th, i)) continue;
    if (skipped < skip_top) {
      skipped++;
      continue;
    }
    if (leading && is_creation_frame(vm, f, throwable)) continue;
    leading = false;
    shown[n++] = i;
  }
  dr_push_root(vm, throwable);
  DrArray *arr = dr_new_array(vm, dr_array_class(vm, vm->known[DR_WK_STRING]), n);
  if (!arr) {
    dr_pop_roots(vm, 1);
    free(shown);
    return false;
  }
  dr_push_root(vm, &arr->hdr);
  DrObj **el = DR_ARRAY_DATA(arr);
  bool ok = true;
  for (int k = 0; k < n && ok; k++) {
    DrString *s = frame_text(vm, &th->frames[shown[k]]);
    if (s) el[k] = &s->hdr;
    else ok = false;
  }
  /* on failure stackTrace stays null and the OutOfMemoryError is pending */
  if (ok) field->ref = &arr->hdr; /* objects never move: field is still valid */
  dr_pop_roots(vm, 2);
  free(shown);
  return ok;
}
