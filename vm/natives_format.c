/* The natives of drvm.Fmt, java.util.Formatter's C half (vm/format*.c):
 * the parsed format as an int[] the DL loop walks, one item's text for
 * one argument, and the java.util exceptions Formatter throws, made here
 * with the fields their getMessage() reads (prelude.dl). */
#include "format.h"
#include "natives.h"

#include <stdlib.h>
#include <string.h>

/* Ints per item in the table parse() returns, in DrFmtSpec's order. */
enum { ITEM_INTS = 8 };

static DrString *new_string16(DrVM *vm, const uint16_t *u, int32_t n) { return dr_lib_string(vm, u, n); }

/* A String field of a new exception from the error's text. */
static bool set_text_field(DrVM *vm, DrObj *e, const char *field, const DrFmtError *err) {
  DrString *s = new_string16(vm, err->text, err->len);
  if (!s) return false;
  dr_field(e, field)->ref = &s->hdr;
  return true;
}

static const char *error_class(DrFmtErrKind k) {
  switch (k) {
  case DR_FMT_E_UNKNOWN_CONVERSION: return "java.util.UnknownFormatConversionException";
  case DR_FMT_E_MISSING_ARGUMENT: return "java.util.MissingFormatArgumentException";
  case DR_FMT_E_CONVERSION: return "java.util.IllegalFormatConversionException";
  case DR_FMT_E_MISMATCH: return "java.util.FormatFlagsConversionMismatchException";
  case DR_FMT_E_PRECISION: return "java.util.IllegalFormatPrecisionException";
  case DR_FMT_E_WIDTH: return "java.util.IllegalFormatWidthException";
  case DR_FMT_E_MISSING_WIDTH: return "java.util.MissingFormatWidthException";
  case DR_FMT_E_DUPLICATE_FLAGS: return "java.util.DuplicateFormatFlagsException";
  case DR_FMT_E_ILLEGAL_FLAGS: return "java.util.IllegalFormatFlagsException";
  case DR_FMT_E_CODE_POINT: return "java.util.IllegalFormatCodePointException";
  case DR_FMT_E_ARGUMENT_INDEX: return "java.util.IllegalFormatArgumentIndexException";
  default: return NULL;
  }
}

/* The fields of the exception's constructor arguments. */
static bool fill_fields(DrVM *vm, DrObj *e, const DrFmtError *err, DrClass *arg_class) {
  switch (err->kind) {
  case DR_FMT_E_UNKNOWN_CONVERSION:
  case DR_FMT_E_MISSING_ARGUMENT:
  case DR_FMT_E_MISSING_WIDTH: return set_text_field(vm, e, "s", err);
  case DR_FMT_E_DUPLICATE_FLAGS:
  case DR_FMT_E_ILLEGAL_FLAGS: return set_text_field(vm, e, "flags", err);
  case DR_FMT_E_MISMATCH:
    dr_field(e, "c")->i = err->conv;
    return set_text_field(vm, e, "f", err);
  case DR_FMT_E_CONVERSION: {
    DrObj *k = dr_class_object(vm, arg_class);
    if (!k) return false;
    dr_field(e, "c")->i = err->conv;
    dr_field(e, "arg")->ref = k;
    return true;
  }
  case DR_FMT_E_PRECISION: dr_field(e, "p")->i = err->num; return true;
  case DR_FMT_E_WIDTH: dr_field(e, "w")->i = err->num; return true;
  case DR_FMT_E_CODE_POINT: dr_field(e, "c")->i = err->num; return true;
  case DR_FMT_E_ARGUMENT_INDEX: dr_field(e, "illegalIndex")->i = err->num; return true;
  default: return true;
  }
}

static bool throw_error(DrVM *vm, const DrFmtError *err, DrClass *arg_class) {
  if (err->kind == DR_FMT_E_NULL) return dr_throw_npe(vm);
  if (err->kind == DR_FMT_E_TOO_LONG) return dr_throw(vm, DR_WK_OUT_OF_MEMORY, "Java heap space");
  if (err->kind == DR_FMT_E_DATETIME)
    return dr_throw(vm, DR_WK_UNSUPPORTED, "date/time conversions (%%t) are not supported in DL");
  DrClass *cls = dr_find_class(vm, error_class(err->kind));
  if (!cls) dr_panic(__FILE__, __LINE__, "prelude lacks %s", error_class(err->kind));
  DrObj *e = dr_new_instance(vm, cls);
  if (!e) return false;
  dr_push_root(vm, e);
  bool ok = fill_fields(vm, e, err, arg_class) && dr_build_stack_trace(vm, e, 0);
  dr_pop_roots(vm, 1);
  if (!ok) return false;
  vm->exception = e;
  return false;
}

/* --- parse(String): int[] --- */

static bool fmt_native_parse(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = (const DrString *)args[0].ref;
  if (!s) return dr_throw_npe(vm);
  DrFmtSpec *items;
  int32_t count;
  DrFmtError err;
  if (!fmt_parse(s->chars, s->length, &items, &count, &err)) return throw_error(vm, &err, NULL);
  DrArray *a = dr_new_array(vm, dr_prim_array_class(vm, DR_K_INT), count * ITEM_INTS);
  if (a) {
    int32_t *t = DR_ARRAY_DATA(a);
    for (int32_t i = 0; i < count; i++) {
      const DrFmtSpec *sp = &items[i];
      int32_t row[ITEM_INTS] = {sp->index, sp->start, sp->end, sp->flags, sp->width, sp->precision, sp->datetime, sp->conv};
      memcpy(t + i * ITEM_INTS, row, sizeof row);
    }
    ret->ref = &a->hdr;
  }
  free(items);
  return a != NULL;
}

/* Item k of the table, checked: the table is drvm.Fmt's, but a bad one
 * must not crash the VM. */
static bool table_item(const DrArray *t, int32_t k, const DrString *s, DrFmtSpec *sp) {
  if (!t || k < 0 || k % ITEM_INTS != 0 || k > t->length - ITEM_INTS) return false;
  const int32_t *r = (const int32_t *)DR_ARRAY_DATA(t) + k;
  *sp = (DrFmtSpec){r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]};
  return sp->start >= 0 && sp->start <= sp->end && sp->end <= s->length;
}

/* --- the argument --- */

/* The field named value (the wrapper classes' primitive), or -1. */
static int value_slot(const DrClass *c) {
  for (int i = 0; i < c->nfields; i++)
    if (strcmp(c->field_names[i], "value") == 0) return i;
  return -1;
}

static const struct {
  const char *name;
  DrFmtKind kind;
} wrappers[] = {
    {"java.lang.Integer", DR_FMT_INT},     {"java.lang.Long", DR_FMT_LONG},   {"java.lang.Short", DR_FMT_SHORT},
    {"java.lang.Byte", DR_FMT_BYTE},       {"java.lang.Double", DR_FMT_DOUBLE}, {"java.lang.Float", DR_FMT_FLOAT},
    {"java.lang.Boolean", DR_FMT_BOOLEAN}, {"java.lang.Character", DR_FMT_CHAR},
};

/* A boxed primitive: its class by name, its value from the field value
 * by the field's kind.  A float is a double field or 32 bits at the
 * start of the slot (a float member or its bits in i): both read here. */
static bool unbox(DrObj *o, DrFmtArg *a) {
  const DrClass *c = o->cls;
  for (size_t i = 0; i < DR_ARRAY_LEN(wrappers); i++) {
    if (strcmp(c->name, wrappers[i].name) != 0) continue;
    int slot = value_slot(c);
    if (slot < 0) return false;
    DrValue v = ((DrInstance *)o)->fields[slot];
    DrKind k = c->field_kinds[slot];
    if (k == DR_K_LONG) {
      a->j = v.j;
    } else if (k == DR_K_DOUBLE) {
      a->d = v.d;
    } else if (wrappers[i].kind == DR_FMT_FLOAT) {
      float f;
      memcpy(&f, &v, sizeof f);
      a->d = f;
    } else {
      a->j = v.i;
    }
    if (wrappers[i].kind == DR_FMT_BYTE) a->j = (int8_t)a->j;
    else if (wrappers[i].kind == DR_FMT_SHORT) a->j = (int16_t)a->j;
    a->kind = wrappers[i].kind;
    return true;
  }
  return false;
}

/* mode 1: o is the text the DL side made for %s or %h (NULL: a
 * toString() that returned null); mode 0: o is the argument itself. */
static void classify(DrVM *vm, DrObj *o, int32_t mode, DrFmtArg *a) {
  *a = (DrFmtArg){.kind = DR_FMT_NULL};
  if (mode == 1 && (!o || o->cls == vm->known[DR_WK_STRING])) {
    const DrString *s = (const DrString *)o;
    a->kind = DR_FMT_TEXT;
    a->text = s ? s->chars : NULL;
    a->len = s ? s->length : 0;
    return;
  }
  if (!o || unbox(o, a)) return;
  a->kind = DR_FMT_OBJECT;
  a->class_name = o->cls->name;
}

/* --- text(String format, int[] table, int k, Object arg, int mode): String --- */

static bool fmt_native_text(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrString *s = (const DrString *)args[0].ref;
  DrFmtSpec sp;
  if (!s || !table_item((const DrArray *)args[1].ref, args[2].i, s, &sp))
    return dr_throw(vm, DR_WK_ILLEGAL_ARGUMENT, "bad format table");
  DrObj *o = args[3].ref;
  DrFmtArg a;
  classify(vm, o, args[4].i, &a);
  DrBuf16 *b = &vm->scratch16;
  b->len = 0;
  DrFmtError err;
  if (!fmt_print(s->chars, s->length, &sp, &a, b, &err)) return throw_error(vm, &err, o ? o->cls : NULL);
  DrString *r = new_string16(vm, b->data, b->len);
  if (!r) return false;
  ret->ref = &r->hdr;
  return true;
}

/* --- missing(String format, int[] table, int k): throws --- */

static bool fmt_native_missing(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  const DrString *s = (const DrString *)args[0].ref;
  DrFmtSpec sp;
  if (!s || !table_item((const DrArray *)args[1].ref, args[2].i, s, &sp))
    return dr_throw(vm, DR_WK_ILLEGAL_ARGUMENT, "bad format table");
  DrBuf16 b = {0};
  fmt_spec_text(&sp, &b);
  DrFmtError err = {.kind = DR_FMT_E_MISSING_ARGUMENT};
  err.len = b.len < (int32_t)DR_ARRAY_LEN(err.text) ? b.len : (int32_t)DR_ARRAY_LEN(err.text);
  memcpy(err.text, b.data, sizeof(uint16_t) * (size_t)err.len);
  dr_buf16_free(&b);
  return throw_error(vm, &err, NULL);
}

#define FORMAT_NATIVES(X)                                                     \
  X("drvm.Fmt", "parse(String)", fmt_native_parse)                            \
  X("drvm.Fmt", "text(String,int[],int,Object,int)", fmt_native_text)         \
  X("drvm.Fmt", "missing(String,int[],int)", fmt_native_missing)

static const DrNativeEntry format_natives[] = {
#define DR_ROW(cls, desc, fn) {cls, desc, fn},
    FORMAT_NATIVES(DR_ROW)
#undef DR_ROW
};

DrNativeFn dr_natives_format_lookup(const char *cls, const char *desc) {
  return dr_natives_find(format_natives, DR_ARRAY_LEN(format_natives), cls, desc);
}
