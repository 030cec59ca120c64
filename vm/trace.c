/* Names of objects and classes as traces and reports show them, and the
 * --trace listener: one readable line per executed event, e.g.
 *
 *   T2 Thread-1  wr   Account#3.balance  bank.dl:14  Account.deposit
 *
 * thread id and name, event, target, source position, method. */
#include <string.h>

#include "trace.h"

const char *dr_class_display_name(const DrClass *c, char *buf, size_t size) {
  static const char *const prim[] = {[DR_K_BOOLEAN] = "boolean", [DR_K_CHAR] = "char", [DR_K_BYTE] = "byte",
                                     [DR_K_SHORT] = "short",     [DR_K_INT] = "int",   [DR_K_LONG] = "long",
                                     [DR_K_FLOAT] = "float",     [DR_K_DOUBLE] = "double"};
  if (c->flags & DR_CLS_ARRAY) {
    char inner[256];
    const char *e = c->elem_class ? dr_class_display_name(c->elem_class, inner, sizeof inner)
                                  : (c->elem_kind <= DR_K_DOUBLE && prim[c->elem_kind] ? prim[c->elem_kind] : "?");
    snprintf(buf, size, "%s[]", e);
    return buf;
  }
  /* the library's java.lang.String shows as String */
  const char *dot = (c->flags & DR_CLS_BUILTIN) ? strrchr(c->name, '.') : NULL;
  snprintf(buf, size, "%s", dot ? dot + 1 : c->name);
  return buf;
}

const char *dr_obj_name(const DrObj *o, char *buf, size_t size) {
  if (!o) {
    snprintf(buf, size, "null");
    return buf;
  }
  char cn[256];
  snprintf(buf, size, "%s#%u", dr_class_display_name(o->cls, cn, sizeof cn), (unsigned)o->serial);
  return buf;
}

/* A static synchronized method's lock is its class's Class object. */
const DrClass *dr_lock_class(const DrVM *vm, const DrObj *o) {
  for (int i = 0; i < vm->nclasses; i++)
    if (vm->classes[i]->lock == o) return vm->classes[i];
  return NULL;
}

const char *dr_lock_name(const DrVM *vm, const DrObj *o, char *buf, size_t size) {
  const DrClass *c = o ? dr_lock_class(vm, o) : NULL;
  if (!c) return dr_obj_name(o, buf, size);
  char cn[256];
  snprintf(buf, size, "%s.class", dr_class_display_name(c, cn, sizeof cn));
  return buf;
}

bool dr_is_class_lock(const DrVM *vm, const DrObj *o) { return o && dr_lock_class(vm, o) != NULL; }

static void append_lock(const DrVM *vm, const DrObj *o, DrBuf *b) {
  char buf[300];
  dr_buf_append_str(b, dr_lock_name(vm, o, buf, sizeof buf));
}

void dr_event_target(DrVM *vm, const DrEvent *e, DrBuf *b) {
  char buf[300];
  switch (e->kind) {
  case DR_EV_READ:
  case DR_EV_WRITE:
  case DR_EV_VREAD:
  case DR_EV_VWRITE:
    if (e->is_static) {
      dr_buf_append_str(b, dr_class_display_name(e->cls, buf, sizeof buf));
      dr_buf_append_str(b, ".");
      dr_buf_append_str(b, e->cls->static_names[e->field]);
    } else if (e->obj && (e->obj->cls->flags & DR_CLS_ARRAY)) {
      dr_buf_append_str(b, dr_obj_name(e->obj, buf, sizeof buf));
      snprintf(buf, sizeof buf, "[%d]", e->field);
      dr_buf_append_str(b, buf);
    } else {
      dr_buf_append_str(b, dr_obj_name(e->obj, buf, sizeof buf));
      if (e->obj && e->field >= 0 && e->field < e->obj->cls->nfields) {
        dr_buf_append_str(b, ".");
        dr_buf_append_str(b, e->obj->cls->field_names[e->field]);
      }
    }
    break;
  case DR_EV_ACQUIRE:
  case DR_EV_RELEASE:
  case DR_EV_WAIT:
  case DR_EV_WAKE:
  case DR_EV_NOTIFY:
  case DR_EV_NOTIFY_ALL: append_lock(vm, e->obj, b); break;
  case DR_EV_FORK:
  case DR_EV_JOIN:
  case DR_EV_INTERRUPT:
  case DR_EV_INTERRUPTED:
    if (e->other) {
      char nb[128];
      snprintf(buf, sizeof buf, "T%d %s", e->other->id, dr_thread_name(vm, e->other, nb, sizeof nb));
      dr_buf_append_str(b, buf);
    } else {
      dr_buf_append_str(b, "-");
    }
    break;
  case DR_EV_CALL:
  case DR_EV_RETURN:
  case DR_EV_NATIVE_ENTER:
  case DR_EV_NATIVE_EXIT:
    if (e->callee) {
      dr_buf_append_str(b, dr_class_display_name(e->callee->owner, buf, sizeof buf));
      dr_buf_append_str(b, ".");
      dr_buf_append_str(b, e->callee->name);
    }
    if (e->kind == DR_EV_RETURN && e->arg) dr_buf_append_str(b, " (exception)");
    break;
  case DR_EV_NEW: dr_buf_append_str(b, dr_obj_name(e->obj, buf, sizeof buf)); break;
  case DR_EV_INIT: dr_buf_append_str(b, e->cls ? dr_class_display_name(e->cls, buf, sizeof buf) : "-"); break;
  case DR_EV_SLEEP:
    snprintf(buf, sizeof buf, "%lld ms", (long long)e->arg);
    dr_buf_append_str(b, buf);
    break;
  default: dr_buf_append_str(b, "-"); break;
  }
}

void dr_event_line(DrVM *vm, const DrEvent *e, DrBuf *b) {
  char buf[300], nb[128];
  snprintf(buf, sizeof buf, "T%d %s  %-4s ", e->thread->id, dr_thread_name(vm, e->thread, nb, sizeof nb),
           dr_event_info[e->kind].word);
  dr_buf_append_str(b, buf);
  dr_event_target(vm, e, b);
  if (e->method) {
    dr_buf_append_str(b, "  ");
    dr_position_text(vm, e->method, e->pc, false, b);
    dr_buf_append_str(b, "  ");
    dr_buf_append_str(b, dr_class_display_name(e->method->owner, buf, sizeof buf));
    dr_buf_append_str(b, ".");
    dr_buf_append_str(b, e->method->name);
  }
  dr_buf_append_str(b, "\n");
}

typedef struct {
  DrListener base;
  FILE *out;               /* NULL: stderr, in order with the program's output */
  char *path;
  bool *failed;
  DrBuf line;
} Tracer;

static void tracer_event(DrListener *self, DrVM *vm, const DrEvent *e) {
  Tracer *t = (Tracer *)self;
  t->line.len = 0;
  dr_event_line(vm, e, &t->line);
  if (t->out) fwrite(t->line.data, 1, t->line.len, t->out);
  else dr_write_fd(vm, 2, t->line.data, t->line.len);
}

static void tracer_finish(DrListener *self, DrVM *vm) {
  Tracer *t = (Tracer *)self;
  /* a full disk shows only now: a lost trace is an error, as for every
   * other file drvm writes */
  if (t->out && (ferror(t->out) | fclose(t->out))) {
    dr_flush_output(vm);
    fprintf(vm->err_file, "drvm: cannot write %s\n", t->path);
    *t->failed = true;
  }
  free(t->path);
  free(t->line.data);
  free(t);
}

DrListener *dr_tracer_new(const char *path, bool *failed) {
  FILE *out = NULL;
  if (path) {
    out = fopen(path, "w");
    if (!out) return NULL;
  }
  Tracer *t = dr_xcalloc(1, sizeof *t);
  t->base.name = "trace";
  t->base.event = tracer_event;
  t->base.finish = tracer_finish;
  t->out = out;
  t->path = path ? dr_strdup(path) : NULL;
  t->failed = failed;
  return &t->base;
}
