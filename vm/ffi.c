/* Native methods: a user's `static native` method is bound to the C
 * function of the same name and called through libffi.  The symbol is
 * looked up, and the method's ffi_cif prepared, at its first call; both
 * are kept for the next ones.  Libraries are searched in the order the
 * program named them (--lib first, then System.load/loadLibrary), then
 * libc and libm.
 *
 * A call is one opaque step for the scheduler and the detectors: no
 * thread switch happens inside it, and the event stream shows it as a
 * native-enter / native-exit pair. */
#include <dirent.h>
#include <dlfcn.h>
#include <ffi.h>
#include <stdlib.h>
#include <string.h>

#include "natives.h"

typedef struct {
  void *handle;
  char *name;              /* the file name, for messages */
} DrFfiLib;

typedef enum {
  FFI_A_INT,
  FFI_A_LONG,
  FFI_A_DOUBLE,
  FFI_A_BOOLEAN,
  FFI_A_CHAR,
  FFI_A_STRING,
  FFI_A_ARRAY,             /* int[], long[], double[], char[]: the elements */
  FFI_A_VOID,
} FfiArg;

typedef struct {
  bool ready;
  void *fn;
  ffi_cif cif;
  ffi_type **atypes;
  FfiArg *args;
  FfiArg ret;
} DrFfiBinding;

struct DrFfi {
  DrFfiLib *libs;
  int nlibs, libs_cap;
  DrFfiLib std[2];         /* libc, libm: opened at the first lookup */
  bool std_tried;
  DrFfiBinding *bind;      /* by method id */
  int nbind;
};

static struct DrFfi *ffi_state(DrVM *vm) {
  if (!vm->ffi) vm->ffi = dr_xcalloc(1, sizeof *vm->ffi);
  return vm->ffi;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static void add_lib(DrVM *vm, void *handle, const char *path) {
  struct DrFfi *f = ffi_state(vm);
  if (f->nlibs == f->libs_cap) {
    f->libs_cap = f->libs_cap ? f->libs_cap * 2 : 4;
    f->libs = dr_xrealloc(f->libs, sizeof *f->libs * (size_t)f->libs_cap);
  }
  f->libs[f->nlibs].handle = handle;
  f->libs[f->nlibs].name = dr_strdup(base_name(path));
  f->nlibs++;
}

bool dr_ffi_load(DrVM *vm, const char *path, char *err, size_t errsize) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(err, errsize, "%s", e ? e : "cannot open the library");
    return false;
  }
  add_lib(vm, h, path);
  return true;
}

/* ------------------------------------------------ System.load/loadLibrary */

static char *jstring_utf8(const DrString *s) {
  DrBuf b = {0};
  dr_buf_append_jstring(&b, s);
  dr_buf_append(&b, "", 1);
  return b.data;
}

/* "12.3.1" > "12.3" > "9": compares versions part by part */
static int version_cmp(const char *a, const char *b) {
  while (*a || *b) {
    long x = strtol(a, (char **)&a, 10), y = strtol(b, (char **)&b, 10);
    if (x != y) return x < y ? -1 : 1;
    if (*a == '.') a++;
    if (*b == '.') b++;
    if (!*a || !*b) return (*a != 0) - (*b != 0);
  }
  return 0;
}

static bool all_version(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!(*s >= '0' && *s <= '9') && *s != '.') return false;
  return true;
}

/* libNAME.so.N with the highest N in the usual directories */
static char *find_versioned(const char *name) {
  static const char *const dirs[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
                                     "/lib", "/usr/lib", "/usr/local/lib"};
  DrBuf prefix = {0};
  dr_buf_append_str(&prefix, "lib");
  dr_buf_append_str(&prefix, name);
  dr_buf_append_str(&prefix, ".so.");
  dr_buf_append(&prefix, "", 1);
  char *best = NULL, *best_ver = NULL;
  const char *env = getenv("LD_LIBRARY_PATH");
  char *envcopy = env ? dr_strdup(env) : NULL;
  int ndirs = (int)DR_ARRAY_LEN(dirs);
  for (int pass = 0; pass < 2; pass++) {
    char *save = NULL;
    char *tok = pass == 0 && envcopy ? strtok_r(envcopy, ":", &save) : NULL;
    for (int i = 0; pass == 0 ? tok != NULL : i < ndirs; i++) {
      const char *dir = pass == 0 ? tok : dirs[i];
      DIR *dp = *dir ? opendir(dir) : NULL;
      if (dp) {
        struct dirent *de;
        size_t plen = strlen(prefix.data);
        while ((de = readdir(dp)) != NULL) {
          if (strncmp(de->d_name, prefix.data, plen) != 0 || !all_version(de->d_name + plen)) continue;
          const char *ver = de->d_name + plen;
          if (best && version_cmp(ver, best_ver) <= 0) continue;
          free(best);
          DrBuf p = {0};
          dr_buf_append_str(&p, dir);
          dr_buf_append_str(&p, "/");
          size_t vofs = p.len + plen;
          dr_buf_append_str(&p, de->d_name);
          dr_buf_append(&p, "", 1);
          best = p.data;
          best_ver = best + vofs;
        }
        closedir(dp);
      }
      if (pass == 0) tok = strtok_r(NULL, ":", &save);
    }
  }
  free(envcopy);
  free(prefix.data);
  return best;
}

static bool system_load_library(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  const DrString *s = (const DrString *)args[0].ref;
  if (!s) return dr_throw_npe(vm);
  char *name = jstring_utf8(s);
  char err[512];
  bool ok = false;
  if (strchr(name, '/')) { /* the JDK's words */
    dr_throw(vm, DR_WK_UNSATISFIED_LINK, "Directory separator should not appear in library name: %s", name);
    free(name);
    return false;
  } else {
    DrBuf file = {0};
    dr_buf_append_str(&file, "lib");
    dr_buf_append_str(&file, name);
    dr_buf_append_str(&file, ".so");
    dr_buf_append(&file, "", 1);
    ok = dr_ffi_load(vm, file.data, err, sizeof err);
    free(file.data);
    if (!ok) { /* libm.so is often only in the -dev package: libm.so.6 */
      char *path = find_versioned(name);
      char err2[512];
      ok = path && dr_ffi_load(vm, path, err2, sizeof err2);
      free(path);
    }
  }
  if (!ok) dr_throw(vm, DR_WK_UNSATISFIED_LINK, "no %s in the library path (%s)", name, err);
  free(name);
  return ok;
}

static bool system_load(DrVM *vm, DrValue *args, DrValue *ret) {
  (void)ret;
  const DrString *s = (const DrString *)args[0].ref;
  if (!s) return dr_throw_npe(vm);
  char *path = jstring_utf8(s);
  char err[512];
  bool ok = false;
  if (path[0] != '/')
    dr_throw(vm, DR_WK_UNSATISFIED_LINK, "Expecting an absolute path of the library: %s", path);
  else if (!(ok = dr_ffi_load(vm, path, err, sizeof err)))
    dr_throw(vm, DR_WK_UNSATISFIED_LINK, "Can't load library: %s (%s)", path, err);
  free(path);
  return ok;
}

static const DrNativeEntry ffi_natives[] = {
    {"java.lang.System", "loadLibrary(String)", system_load_library},
    {"java.lang.System", "load(String)", system_load},
};

DrNativeFn dr_natives_ffi_lookup(const char *cls, const char *desc) {
  return dr_natives_find(ffi_natives, DR_ARRAY_LEN(ffi_natives), cls, desc);
}

/* ------------------------------------------------------------ binding */

static void open_std(struct DrFfi *f) {
  if (f->std_tried) return;
  f->std_tried = true;
  static const char *const names[2] = {"libc.so.6", "libm.so.6"};
  for (int i = 0; i < 2; i++) {
    f->std[i].handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    f->std[i].name = dr_strdup(names[i]);
  }
}

static void *find_symbol(DrVM *vm, const char *sym, DrBuf *searched) {
  struct DrFfi *f = ffi_state(vm);
  open_std(f);
  for (int i = 0; i < f->nlibs + 2; i++) {
    const DrFfiLib *l = i < f->nlibs ? &f->libs[i] : &f->std[i - f->nlibs];
    if (!l->handle) continue;
    dlerror();
    void *p = dlsym(l->handle, sym);
    if (p && !dlerror()) return p;
    bool named = false; /* a library loaded twice is named once */
    for (int k = 0; k < i; k++)
      named = named || !strcmp(k < f->nlibs ? f->libs[k].name : f->std[k - f->nlibs].name, l->name);
    if (named) continue;
    if (searched->len) dr_buf_append_str(searched, ", ");
    dr_buf_append_str(searched, l->name);
  }
  return NULL;
}

/* a parameter's type from the runtime descriptor "name(int,String,int[])" */
static FfiArg arg_of(const char *t, size_t len) {
#define IS(s) (len == strlen(s) && memcmp(t, s, len) == 0)
  if (IS("int")) return FFI_A_INT;
  if (IS("long")) return FFI_A_LONG;
  if (IS("double")) return FFI_A_DOUBLE;
  if (IS("boolean")) return FFI_A_BOOLEAN;
  if (IS("char")) return FFI_A_CHAR;
  if (IS("String") || IS("java.lang.String")) return FFI_A_STRING;
  return FFI_A_ARRAY; /* the checker allows nothing else */
#undef IS
}

static ffi_type *ffi_type_of(FfiArg a) {
  switch (a) {
  case FFI_A_INT: return &ffi_type_sint32;
  case FFI_A_LONG: return &ffi_type_sint64;
  case FFI_A_DOUBLE: return &ffi_type_double;
  case FFI_A_BOOLEAN: return &ffi_type_sint;
  case FFI_A_CHAR: return &ffi_type_uint16;
  case FFI_A_VOID: return &ffi_type_void;
  case FFI_A_STRING:
  case FFI_A_ARRAY: return &ffi_type_pointer;
  }
  return &ffi_type_void;
}

static FfiArg ret_of(const DrMethod *m) {
  switch (m->ret_kind) {
  case DR_K_VOID: return FFI_A_VOID;
  case DR_K_BOOLEAN: return FFI_A_BOOLEAN;
  case DR_K_CHAR: return FFI_A_CHAR;
  case DR_K_INT: return FFI_A_INT;
  case DR_K_LONG: return FFI_A_LONG;
  case DR_K_DOUBLE: return FFI_A_DOUBLE;
  case DR_K_BYTE: /* the checker allows no byte, short or float in a native */
  case DR_K_SHORT:
  case DR_K_FLOAT:
  case DR_K_REF: break;
  }
  return FFI_A_STRING; /* the only reference result the checker allows */
}

static const char *kind_name(DrKind k) {
  switch (k) {
  case DR_K_VOID: return "void";
  case DR_K_BOOLEAN: return "boolean";
  case DR_K_CHAR: return "char";
  case DR_K_INT: return "int";
  case DR_K_LONG: return "long";
  case DR_K_DOUBLE: return "double";
  case DR_K_BYTE: return "byte";
  case DR_K_SHORT: return "short";
  case DR_K_FLOAT: return "float";
  case DR_K_REF: return "String";
  }
  return "?";
}

static DrFfiBinding *bind(DrVM *vm, DrMethod *m) {
  struct DrFfi *f = ffi_state(vm);
  if (m->id >= f->nbind) {
    int n = f->nbind ? f->nbind : 16;
    while (n <= m->id) n *= 2;
    f->bind = dr_xrealloc(f->bind, sizeof *f->bind * (size_t)n);
    memset(f->bind + f->nbind, 0, sizeof *f->bind * (size_t)(n - f->nbind));
    f->nbind = n;
  }
  DrFfiBinding *b = &f->bind[m->id];
  if (b->ready) return b;
  DrBuf searched = {0};
  void *fn = find_symbol(vm, m->name, &searched);
  if (!fn) {
    char cls[256];
    DrBuf sig = {0}; /* "f(int, long)", as the JDK writes a signature */
    for (const char *c = m->desc; *c; c++) {
      dr_buf_append(&sig, c, 1);
      if (*c == ',') dr_buf_append_str(&sig, " ");
    }
    dr_buf_append(&sig, "", 1);
    dr_throw(vm, DR_WK_UNSATISFIED_LINK, "'%s %s.%s': symbol %s not found in %s", kind_name(m->ret_kind),
             dr_class_display_name(m->owner, cls, sizeof cls), sig.data, m->name,
             searched.len ? searched.data : "(no library)");
    free(sig.data);
    free(searched.data);
    return NULL;
  }
  free(searched.data);
  int n = m->nparams;
  b->args = dr_xcalloc((size_t)n + 1, sizeof *b->args);
  b->atypes = dr_xcalloc((size_t)n + 1, sizeof *b->atypes);
  const char *p = strchr(m->desc, '(');
  for (int i = 0; i < n && p; i++) {
    const char *s = p + 1, *e = s;
    while (*e && *e != ',' && *e != ')') e++;
    b->args[i] = arg_of(s, (size_t)(e - s));
    b->atypes[i] = ffi_type_of(b->args[i]);
    p = *e == ',' ? e : NULL;
  }
  b->ret = ret_of(m);
  if (ffi_prep_cif(&b->cif, FFI_DEFAULT_ABI, (unsigned)n, ffi_type_of(b->ret), b->atypes) != FFI_OK) {
    free(b->args);
    free(b->atypes);
    b->args = NULL;
    b->atypes = NULL;
    return dr_throw(vm, DR_WK_UNSATISFIED_LINK, "libffi cannot call %s.%s", m->owner->name, m->desc), NULL;
  }
  b->fn = fn;
  b->ready = true;
  return b;
}

/* ------------------------------------------------------------- the call */

typedef union {
  int32_t i;
  int64_t j;
  double d;
  int b;
  uint16_t c;
  void *p;
} FfiSlot;

static void emit_native(DrVM *vm, DrEventKind kind, DrMethod *m) {
  if (!dr_listening(vm, kind)) return;
  DrEvent ev;
  dr_event_at(&ev, kind, vm->thread);
  ev.callee = m;
  dr_emit_event(vm, &ev);
}

bool dr_ffi_call(DrVM *vm, DrValue *args, DrValue *ret) {
  DrThread *th = vm->thread;
  DrMethod *m = th->frames[th->nframes - 1].method;
  DrFfiBinding *b = bind(vm, m);
  if (!b) return false;
  enum { SMALL = 16 };
  int n = m->nparams;
  FfiSlot small_slots[SMALL];
  void *small_vals[SMALL];
  char *small_strs[SMALL];
  FfiSlot *slots = n <= SMALL ? small_slots : dr_xcalloc((size_t)n, sizeof *slots);
  void **vals = n <= SMALL ? small_vals : dr_xcalloc((size_t)n, sizeof *vals);
  char **strs = n <= SMALL ? small_strs : dr_xcalloc((size_t)n, sizeof *strs);
  for (int i = 0; i < n; i++) {
    strs[i] = NULL;
    switch (b->args[i]) {
    case FFI_A_INT: slots[i].i = args[i].i; break;
    case FFI_A_LONG: slots[i].j = args[i].j; break;
    case FFI_A_DOUBLE: slots[i].d = args[i].d; break;
    case FFI_A_BOOLEAN: slots[i].b = args[i].i != 0; break;
    case FFI_A_CHAR: slots[i].c = (uint16_t)args[i].i; break;
    case FFI_A_STRING:
      /* valid during the call only, as the docs say */
      strs[i] = args[i].ref ? jstring_utf8((const DrString *)args[i].ref) : NULL;
      slots[i].p = strs[i];
      break;
    case FFI_A_ARRAY:
      /* the elements themselves: C's writes are the array's; no GC can
       * move or free them during the call (no bytecode runs).  C may keep
       * the pointer for a call by another thread: the array is global. */
      if (vm->esc_on) dr_esc_publish(vm, args[i].ref);
      slots[i].p = args[i].ref ? (void *)DR_ARRAY_DATA((DrArray *)args[i].ref) : NULL;
      break;
    case FFI_A_VOID: break;
    }
    vals[i] = &slots[i];
  }
  emit_native(vm, DR_EV_NATIVE_ENTER, m);
  union {
    ffi_arg a;
    ffi_sarg s;
    int64_t j;
    double d;
    void *p;
  } r;
  memset(&r, 0, sizeof r);
  ffi_call(&b->cif, FFI_FN(b->fn), &r, vals);
  emit_native(vm, DR_EV_NATIVE_EXIT, m);
  bool ok = true;
  switch (b->ret) {
  case FFI_A_VOID: ret->j = 0; break;
  case FFI_A_INT: ret->i = (int32_t)r.s; break;
  case FFI_A_LONG: ret->j = r.j; break;
  case FFI_A_DOUBLE: ret->d = r.d; break;
  case FFI_A_BOOLEAN: ret->i = (int)r.s != 0; break;
  case FFI_A_CHAR: ret->i = (uint16_t)r.a; break;
  case FFI_A_STRING:
  case FFI_A_ARRAY:
    /* copied before the arguments' strings are freed: strstr and the
     * like return a pointer into one */
    if (!r.p) {
      ret->ref = NULL;
    } else {
      DrString *s = dr_new_string_utf8(vm, (const char *)r.p);
      if (s) ret->ref = &s->hdr;
      ok = s != NULL;
    }
    break;
  }
  for (int i = 0; i < n; i++) free(strs[i]);
  if (n > SMALL) {
    free(slots);
    free(vals);
    free(strs);
  }
  return ok;
}

void dr_ffi_free(DrVM *vm) {
  struct DrFfi *f = vm->ffi;
  if (!f) return;
  for (int i = 0; i < f->nlibs; i++) {
    dlclose(f->libs[i].handle);
    free(f->libs[i].name);
  }
  for (int i = 0; i < 2; i++) {
    if (f->std[i].handle) dlclose(f->std[i].handle);
    free(f->std[i].name);
  }
  for (int i = 0; i < f->nbind; i++) {
    free(f->bind[i].args);
    free(f->bind[i].atypes);
  }
  free(f->libs);
  free(f->bind);
  free(f);
  vm->ffi = NULL;
}
