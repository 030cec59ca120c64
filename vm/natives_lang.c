/* Natives of java.lang.Object, Thread, System, Throwable, of
 * java.io.PrintStream and of drvm.Boot. */
#include "natives.h"

#include <string.h>

/* --- Object --- */

static bool object_hash_code(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)vm;
  ret->i = dr_identity_hash(args[0].ref);
  return true;
}

static bool object_get_class(DrVM *vm, DrValue *args, DrValue *ret) {
  DrObj *k = dr_class_object(vm, args[0].ref->cls);
  if (!k) return false;
  ret->ref = k;
  return true;
}

/* --- Class --- */

static bool ret_utf8(DrVM *vm, DrValue *ret, const char *s) {
  DrString *str = dr_new_string_utf8(vm, s);
  if (!str) return false;
  ret->ref = &str->hdr;
  return true;
}

static bool class_get_name(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrClass *c = dr_lock_class(vm, args[0].ref);
  return ret_utf8(vm, ret, c ? c->name : "?");
}

/* The name without its package and enclosing classes (int[] for [I). */
static bool class_get_simple_name(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrClass *c = dr_lock_class(vm, args[0].ref);
  char buf[512];
  const char *name = c ? c->name : "?";
  if (c && (c->flags & DR_CLS_ARRAY)) {
    char inner[256];
    const char *e = dr_class_display_name(c, inner, sizeof inner);
    const char *cut = strchr(e, '[');
    const char *start = e;
    for (const char *p = e; p < cut; p++)
      if (*p == '.' || *p == '$') start = p + 1;
    snprintf(buf, sizeof buf, "%s", start);
    return ret_utf8(vm, ret, buf);
  }
  const char *start = name;
  for (const char *p = name; *p; p++)
    if (*p == '.' || *p == '$') start = p + 1;
  return ret_utf8(vm, ret, start);
}

static bool class_is_interface(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrClass *c = dr_lock_class(vm, args[0].ref);
  ret->i = c && (c->flags & DR_CLS_INTERFACE);
  return true;
}

static bool class_is_array(DrVM *vm, DrValue *args, DrValue *ret) {
  const DrClass *c = dr_lock_class(vm, args[0].ref);
  ret->i = c && (c->flags & DR_CLS_ARRAY);
  return true;
}

/* --- System --- */

static bool system_exit(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  /* the status the process exits with, as java's: the low 8 bits
   * (a negative one, System.exit(-1), is 255; kept negative it read as
   * the interpreter's "a decision is pending" and the run never ended) */
  dr_halt(vm, args[0].i & 0xFF, DRVM_OUTCOME_EXIT);
  return false; /* the interpreter unwinds everything while halting */
}

/* The virtual clock: runs are reproducible, so time never comes from the
 * host.  Virtual time is what Thread.sleep added plus DR_NS_PER_STEP for
 * every counted step (steps only grow), so it is monotonic and moves while
 * the program computes; currentTimeMillis starts at a fixed epoch
 * (2023-11-14T22:13:20Z). */
enum { DR_NS_PER_STEP = 10 };
static const int64_t dr_epoch_ms = 1700000000000;

int64_t dr_now_ns(const DrVM *vm) {
  uint64_t t = (uint64_t)vm->vclock_ns + vm->steps * DR_NS_PER_STEP;
  return t > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)t;
}

static bool system_current_time_millis(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)args;
  ret->j = dr_epoch_ms + dr_now_ns(vm) / 1000000;
  return true;
}

static bool system_nano_time(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)args;
  ret->j = dr_now_ns(vm);
  return true;
}

/* --- Throwable --- */

static bool throwable_fill_in_stack_trace(DrVM *vm, DrValue *args, DrValue *ret) {
  if (!dr_build_stack_trace(vm, args[0].ref, 0)) return false;
  ret->ref = args[0].ref;
  return true;
}

/* --- PrintStream --- */

static int print_fd(DrValue *args) { return dr_field(args[0].ref, "fd")->i; }

static void print_ascii(DrVM *vm, int fd, const char *s) {
  uint16_t u[48];
  int32_t n = 0;
  while (s[n]) {
    u[n] = (uint16_t)(unsigned char)s[n];
    n++;
  }
  dr_print_utf16(vm, fd, u, n);
}

static const uint16_t newline[1] = {'\n'};

static bool print_string_nl(DrVM *vm, DrValue *args, bool nl) {
  int fd = print_fd(args);
  const DrString *s = (const DrString *)args[1].ref;
  if (s) dr_print_utf16(vm, fd, s->chars, s->length);
  else print_ascii(vm, fd, "null");
  if (nl) dr_print_utf16(vm, fd, newline, 1);
  return true;
}

static bool print_chars_nl(DrVM *vm, DrValue *args, bool nl) {
  const DrArray *a = (const DrArray *)args[1].ref;
  if (!a) return dr_throw_npe_msg(vm, "Cannot read the array length because \"cbuf\" is null");
  int fd = print_fd(args);
  dr_print_utf16(vm, fd, DR_ARRAY_DATA(a), a->length);
  if (nl) dr_print_utf16(vm, fd, newline, 1);
  return true;
}

static bool print_value_nl(DrVM *vm, DrValue *args, DrKind k, bool nl) {
  int fd = print_fd(args);
  if (k == DR_K_CHAR) {
    uint16_t c = (uint16_t)args[1].i;
    dr_print_utf16(vm, fd, &c, 1);
  } else {
    DrBuf b = {0};
    dr_buf_append_value(&b, k, args[1]);
    print_ascii(vm, fd, b.data);
    free(b.data);
  }
  if (nl) dr_print_utf16(vm, fd, newline, 1);
  return true;
}

#define DR_PRINT_FNS(suffix, body_print, body_println)                                      \
  static bool ps_print_##suffix(DrVM *vm, DrValue *args, DrValue *ret) {                    \
    (void)ret;                                                                              \
    return body_print;                                                                      \
  }                                                                                         \
  static bool ps_println_##suffix(DrVM *vm, DrValue *args, DrValue *ret) {                  \
    (void)ret;                                                                              \
    return body_println;                                                                    \
  }
DR_PRINT_FNS(string, print_string_nl(vm, args, false), print_string_nl(vm, args, true))
DR_PRINT_FNS(chars, print_chars_nl(vm, args, false), print_chars_nl(vm, args, true))
DR_PRINT_FNS(char, print_value_nl(vm, args, DR_K_CHAR, false), print_value_nl(vm, args, DR_K_CHAR, true))
DR_PRINT_FNS(int, print_value_nl(vm, args, DR_K_INT, false), print_value_nl(vm, args, DR_K_INT, true))
DR_PRINT_FNS(long, print_value_nl(vm, args, DR_K_LONG, false), print_value_nl(vm, args, DR_K_LONG, true))
DR_PRINT_FNS(double, print_value_nl(vm, args, DR_K_DOUBLE, false), print_value_nl(vm, args, DR_K_DOUBLE, true))
DR_PRINT_FNS(boolean, print_value_nl(vm, args, DR_K_BOOLEAN, false), print_value_nl(vm, args, DR_K_BOOLEAN, true))
#undef DR_PRINT_FNS

static bool ps_println(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  dr_print_utf16(vm, print_fd(args), newline, 1);
  return true;
}

/* --- drvm.Boot --- */

static bool boot_class_name(DrVM *vm, DrValue *args, DrValue *ret) {
  if (!args[0].ref) return dr_throw_npe(vm);
  DrString *s = dr_new_string_utf8(vm, args[0].ref->cls->name);
  if (!s) return false;
  ret->ref = &s->hdr;
  return true;
}

static bool boot_to_hex(DrVM *vm, DrValue *args, DrValue *ret) {
  char buf[12];
  dr_hex_to_string((uint32_t)args[0].i, buf);
  DrString *s = dr_new_string_utf8(vm, buf);
  if (!s) return false;
  ret->ref = &s->hdr;
  return true;
}

/* new Random() seeds: different on every call, yet the same in every run
 * with the same vm->seed (splitmix64 over a counter). */
static bool boot_random_seed(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)args;
  uint64_t z = vm->seed + ++vm->seed_calls * 0x9E3779B97F4A7C15u;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  ret->j = (int64_t)z;
  return true;
}

#define LANG_NATIVES(X)                                                       \
  X("java.lang.Object", "hashCode()", object_hash_code)                       \
  X("java.lang.Object", "getClass()", object_get_class)                       \
  X("java.lang.Class", "getName()", class_get_name)                           \
  X("java.lang.Class", "getSimpleName()", class_get_simple_name)              \
  X("java.lang.Class", "isInterface()", class_is_interface)                   \
  X("java.lang.Class", "isArray()", class_is_array)                           \
  X("java.lang.System", "exit(int)", system_exit)                             \
  X("java.lang.System", "currentTimeMillis()", system_current_time_millis)    \
  X("java.lang.System", "nanoTime()", system_nano_time)                       \
  X("java.lang.Throwable", "fillInStackTrace()", throwable_fill_in_stack_trace) \
  X("java.io.PrintStream", "print(String)", ps_print_string)                  \
  X("java.io.PrintStream", "print(char[])", ps_print_chars)                   \
  X("java.io.PrintStream", "print(char)", ps_print_char)                      \
  X("java.io.PrintStream", "print(int)", ps_print_int)                        \
  X("java.io.PrintStream", "print(long)", ps_print_long)                      \
  X("java.io.PrintStream", "print(double)", ps_print_double)                  \
  X("java.io.PrintStream", "print(boolean)", ps_print_boolean)                \
  X("java.io.PrintStream", "println()", ps_println)                           \
  X("java.io.PrintStream", "println(String)", ps_println_string)              \
  X("java.io.PrintStream", "println(char[])", ps_println_chars)               \
  X("java.io.PrintStream", "println(char)", ps_println_char)                  \
  X("java.io.PrintStream", "println(int)", ps_println_int)                    \
  X("java.io.PrintStream", "println(long)", ps_println_long)                  \
  X("java.io.PrintStream", "println(double)", ps_println_double)              \
  X("java.io.PrintStream", "println(boolean)", ps_println_boolean)            \
  X("drvm.Boot", "className(Object)", boot_class_name)                        \
  X("drvm.Boot", "toHex(int)", boot_to_hex)                                   \
  X("drvm.Boot", "randomSeed()", boot_random_seed)

static const DrNativeEntry lang_natives[] = {
#define DR_ROW(cls, desc, fn) {cls, desc, fn},
    LANG_NATIVES(DR_ROW)
#undef DR_ROW
};

DrNativeFn dr_natives_lang_lookup(const char *cls, const char *desc) {
  return dr_natives_find(lang_natives, DR_ARRAY_LEN(lang_natives), cls, desc);
}
