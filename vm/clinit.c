/* A static initializer that fails (JLS 12.4.2 steps 7 and 10-12): the
 * class becomes erroneous, the exception reaches the code that caused the
 * initialization as an ExceptionInInitializerError (an Error as it is), and
 * every later use, in any thread, throws NoClassDefFoundError.
 *
 * As in HotSpot, an erroneous class does not keep the exception itself (it
 * would keep alive whatever its stack trace reaches) but a new
 * ExceptionInInitializerError saying what was thrown in which thread, with
 * the thrown exception's stack trace: the cause of each later
 * NoClassDefFoundError (JDK 17.0.15 prints it; older JDKs left it out). */
#include "natives.h"
#include "opcodes.h"

bool dr_frame_pending(const DrThread *th, int i) {
  if (i < 0 || i + 1 >= th->nframes) return false;
  const DrFrame *f = &th->frames[i], *above = &th->frames[i + 1];
  if ((f->method->flags & DR_M_NATIVE) || f->ip != f->method->code) return false;
  /* a frame that has begun never has its own class's or a superclass's
   * <clinit> right above its first instruction: they ran before it */
  return (above->method->flags & DR_M_CLINIT) && dr_is_subclass(f->method->owner, above->method->owner);
}

/* The record of a failed initialization that threw `thrown` on th (NULL,
 * with OutOfMemoryError pending, if it does not fit). */
static DrObj *new_init_record(DrVM *vm, DrThread *th, DrObj *thrown) {
  DrBuf b = {0};
  char name[128];
  dr_buf_append_str(&b, "Exception ");
  dr_buf_append_str(&b, thrown->cls->name);
  const DrString *msg = (const DrString *)dr_field(thrown, "detailMessage")->ref;
  if (msg) {
    dr_buf_append_str(&b, ": ");
    dr_buf_append_jstring(&b, msg);
  }
  dr_buf_append_str(&b, " [in thread \"");
  dr_buf_append_str(&b, dr_thread_name(vm, th, name, sizeof name));
  dr_buf_append_str(&b, "\"]");
  dr_push_root(vm, thrown);
  DrString *s = dr_new_string_utf8(vm, b.data);
  free(b.data);
  DrObj *rec = NULL;
  if (s) {
    dr_push_root(vm, &s->hdr);
    rec = dr_new_instance(vm, vm->known[DR_WK_INIT_ERROR]);
    if (rec) {
      dr_field(rec, "detailMessage")->ref = &s->hdr;
      dr_field(rec, "stackTrace")->ref = dr_field(thrown, "stackTrace")->ref;
      dr_field(rec, "causeSet")->i = 1;
    }
    dr_pop_roots(vm, 1);
  }
  dr_pop_roots(vm, 1);
  return rec;
}

/* Step 11: an exception that is not an Error becomes the cause of a new
 * ExceptionInInitializerError, whose stack trace is the code that caused
 * the initialization (the top frame, the initializer, is skipped). */
static void wrap_pending(DrVM *vm) {
  DrObj *thrown = vm->exception;
  if (!thrown || dr_instance_of(thrown, vm->known[DR_WK_ERROR])) return;
  dr_push_root(vm, thrown);
  DrObj *e = dr_new_instance(vm, vm->known[DR_WK_INIT_ERROR]);
  if (e) {
    dr_field(e, "cause")->ref = thrown;
    dr_field(e, "causeSet")->i = 1;
    dr_push_root(vm, e);
    if (dr_build_stack_trace(vm, e, 1)) vm->exception = e;
    dr_pop_roots(vm, 1);
  }
  dr_pop_roots(vm, 1);
}

static void mark_failed(DrVM *vm, DrClass *c, DrObj *record) {
  c->init_state = DR_INIT_FAILED;
  c->init_error = record;
  c->init_thread = NULL;
  vm->sched_gen++;
}

/* The class an instruction that starts initialization names. */
static DrClass *named_class(DrVM *vm, const uint32_t *ip) {
  switch (ip[0]) {
  case DR_OP_NEW:
  case DR_OP_GETSTATIC:
  case DR_OP_GETSTATIC_F:
  case DR_OP_GETSTATIC_V: return vm->classes[ip[2]];
  case DR_OP_PUTSTATIC:
  case DR_OP_PUTSTATIC_V: return vm->classes[ip[1]];
  case DR_OP_INVOKESTATIC: return vm->methods[ip[2]]->owner;
  default: return NULL;
  }
}

/* The frame below the top one whose instruction started the failed
 * initialization, past the pending <clinit> frames of subclasses; its
 * index in *at (-1 if none).  Returns the class it initializes: a pending
 * main is its own class's. */
static DrClass *init_trigger(DrVM *vm, const DrThread *th, int *at) {
  int i = th->nframes - 2;
  while (i >= 0 && dr_frame_pending(th, i) && (th->frames[i].method->flags & DR_M_CLINIT)) i--;
  *at = i;
  if (i < 0) return NULL;
  const DrFrame *f = &th->frames[i];
  return dr_frame_pending(th, i) ? f->method->owner : named_class(vm, f->ip);
}

void dr_init_failed(DrVM *vm, DrThread *th, DrClass *c) {
  DrObj *thrown = vm->exception;
  DrObj *record = thrown ? new_init_record(vm, th, thrown) : NULL;
  dr_push_root(vm, record);
  mark_failed(vm, c, record);
  thrown = vm->exception; /* OutOfMemoryError if the record did not fit */
  wrap_pending(vm);
  DrObj *sub_record = record;
  if (vm->exception && vm->exception != thrown) sub_record = new_init_record(vm, th, vm->exception);
  /* Step 7: the subclasses whose initialization started it fail with the
   * same exception, pending <clinit> frames and classes without one */
  int at;
  DrClass *trigger = init_trigger(vm, th, &at);
  if (trigger && dr_is_subclass(trigger, c)) {
    for (DrClass *k = trigger; k != c; k = k->super)
      if (k->init_state == DR_INIT_NONE || (k->init_state == DR_INIT_RUNNING && k->init_thread == th))
        mark_failed(vm, k, sub_record);
  }
  /* the triggering instruction is not re-executed: a later execution of it
   * gets its own scheduling point */
  if (at >= 0 && th->init_return_depth == at + 1) th->init_return_ip = NULL;
  dr_pop_roots(vm, 1);
}

bool dr_throw_no_class_def(DrVM *vm, DrClass *c) {
  dr_throw(vm, DR_WK_NO_CLASS_DEF, "Could not initialize class %s", c->name);
  DrObj *e = vm->exception;
  if (e && e->cls == vm->known[DR_WK_NO_CLASS_DEF]) {
    dr_field(e, "cause")->ref = c->init_error;
    dr_field(e, "causeSet")->i = 1;
  }
  return false;
}

void dr_init_chain_failed(DrVM *vm, DrThread *th, DrClass *cls, DrClass *failed) {
  dr_throw_no_class_def(vm, failed);
  DrObj *record = vm->exception ? new_init_record(vm, th, vm->exception) : NULL;
  for (DrClass *k = cls; k != failed; k = k->super) mark_failed(vm, k, record);
}
