/* The type checker's driver: the class table, supertypes, members,
 * overriding and abstract-method rules, then the bodies (see
 * checker_internal.h for the phases). */
#include <stdarg.h>
#include <string.h>

#include "checker_generic.h"

/* --------------------------------------------------------- diagnostics */

void chk_error(DrChecker *c, DrPos pos, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  c->errors++;
  if (c->cur.prelude) {
    /* An error in the prelude is drvm's own bug; its positions are not in
     * the user's file, so it is reported without a source line. */
    const DrSource *saved = c->diags->src;
    c->diags->src = NULL;
    dr_error(c->diags, pos, "in drvm's prelude: %s", buf);
    c->diags->src = saved;
    return;
  }
  /* the file of the code being checked */
  DrUnit *u = chk_cur_unit(c);
  const DrSource *saved = c->diags->src;
  if (u && u->src) c->diags->src = u->src;
  dr_error(c->diags, pos, "%s", buf);
  c->diags->src = saved;
}

/* ------------------------------------------------------------- helpers */

bool chk_is_interface(const DrClassSym *cls) { return cls && (cls->flags & DR_CLS_SYM_INTERFACE); }

DrClassSym *chk_top(DrClassSym *cls) {
  return cls ? chk_class(cls)->top : NULL;
}

const char *chk_method_sig(DrChecker *c, const DrMethodSym *m) {
  const char *s = dr_arena_printf(c->arena, "%s(", m->is_ctor ? m->owner->name : m->name);
  if (m->decl && m->decl->ntparams) { /* javac: <T,U>name(T,U) */
    const char *tp = "<";
    for (int i = 0; i < m->decl->ntparams; i++) tp = dr_arena_printf(c->arena, "%s%s%s", tp, i ? "," : "", m->decl->tparams[i].name);
    s = dr_arena_printf(c->arena, "%s>%s", tp, s);
  }
  for (int i = 0; i < m->nparams; i++)
    s = dr_arena_printf(c->arena, "%s%s%s", s, i ? "," : "", chk_type_str(c, m->params[i]));
  return dr_arena_printf(c->arena, "%s)", s);
}

const char *chk_method_where(DrChecker *c) {
  DrMethodSym *m = c->cur.meth;
  while (m && chk_method(m)->lambda_in) m = chk_method(m)->lambda_in;
  if (!m) return "class";
  if (strcmp(m->name, "<clinit>") == 0) return dr_arena_printf(c->arena, "static initializer of class %s", m->owner->source_name);
  if (strcmp(m->name, "<instinit>") == 0) return dr_arena_printf(c->arena, "instance initializer of class %s", m->owner->source_name);
  return dr_arena_printf(c->arena, "%s %s", m->is_ctor ? "constructor" : "method", chk_method_sig(c, m));
}

static DrLocalSym *add_local(DrChecker *c, const char *name, DrType *type, DrPos pos, bool is_final) {
  DrChkLocal *l = dr_arena_alloc(c->arena, sizeof(DrChkLocal));
  l->sym.name = name;
  l->sym.type = type;
  l->sym.is_final = is_final;
  l->sym.pos = pos;
  DrMethodSym *m = c->cur.meth;
  if (m) {
    DrChkMethod *cm = chk_method(m);
    l->sym.index = m->nlocals;
    DR_ARENA_PUSH(c->arena, m->locals, m->nlocals, cm->locals_cap, &l->sym);
  }
  return &l->sym;
}

DrLocalSym *chk_declare_local(DrChecker *c, const char *name, DrType *type, DrPos pos, bool is_final, bool blank) {
  if (!name) name = "?";
  DrLocalSym *prev = chk_find_local(c, name);
  if (prev && chk_local(prev)->scope_idx >= c->cur.decl_base)
    chk_error(c, pos, "variable %s is already defined in %s", name, chk_method_where(c));
  DrLocalSym *l = add_local(c, name, type, pos, is_final);
  chk_local(l)->blank_final = is_final && blank;
  chk_scope_push(c, l);
  return l;
}

DrLocalSym *chk_hidden_local(DrChecker *c, const char *name, DrType *type, DrPos pos) {
  return add_local(c, name, type, pos, false);
}

/* --------------------------------------------------------- class table */

static DrClassSym *declare_class(DrChecker *c, DrClassDecl *d, DrClassSym *outer) {
  DrChkClass *ck = dr_arena_alloc(c->arena, sizeof(DrChkClass));
  DrClassSym *k = &ck->sym;
  k->name = d->name ? d->name : "?";
  k->decl = d;
  k->outer = outer;
  ck->top = outer ? chk_top(outer) : k;
  if (d->is_interface) k->flags |= DR_CLS_SYM_INTERFACE | DR_CLS_SYM_ABSTRACT;
  if (d->mods & DR_MOD_ABSTRACT) k->flags |= DR_CLS_SYM_ABSTRACT;
  if (d->mods & DR_MOD_FINAL) k->flags |= DR_CLS_SYM_FINAL;
  if (d->from_prelude) k->flags |= DR_CLS_SYM_PRELUDE;
  if (outer) {
    k->source_name = dr_arena_printf(c->arena, "%s.%s", outer->source_name, k->name);
    k->binary_name = dr_arena_printf(c->arena, "%s$%s", outer->binary_name, k->name);
  } else if (d->package) {
    k->source_name = k->name;
    k->binary_name = dr_arena_printf(c->arena, "%s.%s", d->package, k->name);
  } else {
    k->source_name = k->name;
    k->binary_name = k->name;
  }
  k->type = dr_arena_alloc(c->arena, sizeof(DrType));
  k->type->kind = TY_CLASS;
  k->type->cls = k;
  d->sym = k;
  DR_ARENA_PUSH(c->arena, c->classes, c->nclasses, c->classes_cap, k);

  int nested_cap = 0;
  for (int i = 0; i < d->nmembers; i++) {
    DrMember *mem = &d->members[i];
    if (mem->kind != M_CLASS || !mem->nested) continue;
    DrClassDecl *nd = mem->nested;
    bool dup = chk_name_get(c, k, CHK_NS_NESTED, nd->name ? nd->name : "?") != NULL;
    for (DrClassSym *o = k; o && !dup; o = o->outer) dup = nd->name && strcmp(o->name, nd->name) == 0;
    c->cur.prelude = d->from_prelude;
    if (dup) chk_error(c, nd->pos, "class %s is already defined in %s %s", nd->name, d->is_interface ? "interface" : "class", k->source_name);
    nd->from_prelude = d->from_prelude;
    if (!nd->package) nd->package = d->package;
    DrClassSym *n = declare_class(c, nd, k);
    if (!nd->is_interface && !d->is_interface && !((mem->mods | nd->mods) & DR_MOD_STATIC))
      n->outer_this = chk_synthetic_field(c, n, "this$0", k->type);
    if (!dup) {
      DR_ARENA_PUSH(c->arena, k->nested, k->nnested, nested_cap, n);
      chk_name_put(c, k, CHK_NS_NESTED, n->name, n);
    }
  }
  return k;
}

DrClassSym *chk_declare_local_class(DrChecker *c, DrClassDecl *d, const char *binary_name) {
  DrClassSym *outer = c->cur.cls;
  DrChkCtx saved = c->cur;
  d->from_prelude = outer && (outer->flags & DR_CLS_SYM_PRELUDE);
  int n = c->nclasses;
  DrClassSym *k = declare_class(c, d, outer);
  c->nclasses = n; /* the phases of checker.c are past it: it has its own */
  c->cur = saved;
  k->is_local = true;
  k->binary_name = binary_name;
  k->source_name = d->name[0] ? d->name : dr_arena_printf(c->arena, "<anonymous %s>", binary_name);
  DrChkClass *ck = chk_class(k);
  ck->scope_lo = c->cur.scope_base;
  ck->scope_hi = c->nscope;
  ck->in_meth = c->cur.meth;
  ck->in_static = c->cur.is_static;
  if (!c->cur.is_static && outer) k->outer_this = chk_synthetic_field(c, k, "this$0", outer->type);
  /* the emitter reaches every class through its outer's nested list */
  int cap = outer->nnested;
  DR_ARENA_PUSH(c->arena, outer->nested, outer->nnested, cap, k);
  return k;
}

static DrClassSym *prelude_class(DrChecker *c, const char *name) {
  return chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, name);
}

static void build_class_table(DrChecker *c) {
  for (int i = 0; i < c->prog->nclasses; i++) {
    DrClassDecl *d = c->prog->classes[i];
    if (!d) continue;
    memset(&c->cur, 0, sizeof c->cur);
    c->cur.prelude = d->from_prelude;
    c->cur.unit = d->unit;
    DrChkNs ns = d->from_prelude ? CHK_NS_PRELUDE_TYPE : CHK_NS_TYPE;
    const char *key = d->from_prelude || !d->name ? d->name : chk_qualify(c, d->package, d->name);
    bool dup = key && chk_name_get(c, NULL, ns, key);
    if (dup) chk_error(c, d->pos, "duplicate class: %s", key);
    DrClassSym *k = declare_class(c, d, NULL);
    if (dup) k->name = dr_arena_printf(c->arena, "%s$duplicate", k->name); /* unreachable by name */
    chk_name_put(c, NULL, ns, dup ? k->name : key, k);
  }
  memset(&c->cur, 0, sizeof c->cur);
  c->c_object = prelude_class(c, "Object");
  c->c_string = prelude_class(c, "String");
  c->c_throwable = prelude_class(c, "Throwable");
  c->c_assertion_error = prelude_class(c, "AssertionError");
  c->c_enum = prelude_class(c, "Enum");
  c->c_record = prelude_class(c, "Record");
  c->t_object = c->c_object ? c->c_object->type : &c->T->t_error;
  c->t_string = c->c_string ? c->c_string->type : &c->T->t_error;
  chk_box_init(c);
}

/* ---------------------------------------------------------- supertypes */

/* Whether target is reachable from k through supertypes (bounded: cycles
 * not yet cut must not hang the walk). */
static bool reaches(DrClassSym *k, DrClassSym *target, int depth) {
  if (!k || depth > 256) return depth > 256;
  if (k == target) return true;
  if (reaches(k->super, target, depth + 1)) return true;
  for (int i = 0; i < k->ninterfaces; i++)
    if (reaches(k->interfaces[i], target, depth + 1)) return true;
  return false;
}
/* Only an enum's own constant bodies extend it (JLS 8.9: an enum class
 * with bodies is not final, yet no other class may extend it). */
static bool enum_not_extensible(const DrClassDecl *d, const DrClassSym *super) {
  return super->decl && super->decl->is_enum && !(d->outer == super->decl && d->name[0] >= '0' && d->name[0] <= '9');
}


void chk_resolve_supers(DrChecker *c, DrClassSym *k) {
  DrChkClass *ck = chk_class(k);
  if (ck->super_state != 0) return;
  ck->super_state = 1;
  DrChkCtx saved = c->cur;
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k->outer;
  c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
  c->cur.unit = chk_top(k)->decl->unit;
  chk_class_scope(c, k);
  c->cur.label_base = c->nlabels;
  DrClassDecl *d = k->decl;
  DrClassSym *supers_of = c->gen.supers_of;
  c->gen.supers_of = k;
  if (d->extends && !d->is_interface) {
    DrType *t = chk_resolve_tref(c, d->extends);
    if (t->kind == TY_CLASS) {
      if (chk_is_interface(t->cls))
        chk_error(c, d->extends->pos, "no interface expected here");
      else if ((t->cls->flags & DR_CLS_SYM_FINAL) || enum_not_extensible(d, t->cls))
        chk_error(c, d->extends->pos, "cannot inherit from final %s", t->cls->source_name);
      else if (!d->is_enum && !d->from_prelude && t->cls == c->c_enum)
        chk_error(c, d->extends->pos, "classes cannot directly extend java.lang.Enum");
      else if (!d->is_record && !d->from_prelude && t->cls == c->c_record)
        chk_error(c, d->extends->pos, "classes cannot directly extend java.lang.Record");
      else
        k->super = t->cls;
    } else if (t->kind != TY_ERROR) {
      chk_error(c, d->extends->pos, "unexpected type: class expected here");
    }
  }
  if (!k->super && !d->is_interface && k != c->c_object) k->super = c->c_object;
  int cap = 0;
  for (int i = 0; i < d->nimplements; i++) {
    DrType *t = chk_resolve_tref(c, &d->implements[i]);
    if (t->kind == TY_ERROR) continue;
    if (t->kind != TY_CLASS || !chk_is_interface(t->cls)) {
      chk_error(c, d->implements[i].pos, "interface expected here");
      continue;
    }
    bool dup = false;
    for (int j = 0; j < k->ninterfaces; j++) dup = dup || k->interfaces[j] == t->cls;
    if (dup) {
      chk_error(c, d->implements[i].pos, "repeated interface");
      continue;
    }
    DR_ARENA_PUSH(c->arena, k->interfaces, k->ninterfaces, cap, t->cls);
  }
  c->gen.supers_of = supers_of;
  /* cycles: resolve the supertypes first, then see whether k is above
   * itself; cut the edge that closes the cycle */
  if (k->super) chk_resolve_supers(c, k->super);
  for (int i = 0; i < k->ninterfaces; i++) chk_resolve_supers(c, k->interfaces[i]);
  bool cyclic = (k->super && reaches(k->super, k, 0));
  for (int i = 0; i < k->ninterfaces && !cyclic; i++) cyclic = reaches(k->interfaces[i], k, 0);
  if (cyclic) {
    chk_error(c, d->pos, "cyclic inheritance involving %s", k->source_name);
    ck->cyclic = true;
    k->super = d->is_interface ? NULL : c->c_object;
    if (k == c->c_object) k->super = NULL;
    k->ninterfaces = 0;
  }
  ck->super_state = 2;
  c->cur = saved;
}

/* ------------------------------------------------------------- members */

DrChkMethod *chk_new_method(DrChecker *c, DrClassSym *k, const char *name, unsigned mods, DrPos pos) {
  DrChkMethod *m = dr_arena_alloc(c->arena, sizeof(DrChkMethod));
  m->sym.name = name;
  m->sym.owner = k;
  m->sym.mods = mods;
  m->sym.pos = pos;
  m->sym.ret = &c->T->t_void;
  return m;
}

static bool same_sig(const DrMethodSym *a, const DrMethodSym *b) {
  if (a->is_ctor != b->is_ctor || strcmp(a->name, b->name) != 0 || a->nparams != b->nparams) return false;
  for (int i = 0; i < a->nparams; i++)
    if (a->params[i] != b->params[i]) return false;
  return true;
}

/* Modifier names in the order javac lists them (its Flags.toString). */
static const struct {
  unsigned bit;
  const char *name;
} mod_names[] = {
    {DR_MOD_PUBLIC, "public"},     {DR_MOD_PRIVATE, "private"},   {DR_MOD_PROTECTED, "protected"},
    {DR_MOD_STATIC, "static"},     {DR_MOD_FINAL, "final"},       {DR_MOD_SYNCHRONIZED, "synchronized"},
    {DR_MOD_VOLATILE, "volatile"}, {DR_MOD_TRANSIENT, "transient"}, {DR_MOD_NATIVE, "native"},
    {DR_MOD_ABSTRACT, "abstract"}, {DR_MOD_DEFAULT, "default"},   {DR_MOD_STRICTFP, "strictfp"},
    {DR_MOD_SEALED, "sealed"},     {DR_MOD_NON_SEALED, "non-sealed"},
};

static const char *first_mod(unsigned mods) {
  for (size_t i = 0; i < sizeof mod_names / sizeof mod_names[0]; i++)
    if (mods & mod_names[i].bit) return mod_names[i].name;
  return "?";
}

/* The modifiers a kind of declaration allows (JLS 8.1.1, 8.3.1, 8.4.3,
 * 8.6, 8.7, 8.8.3, 9.1.1, 9.3, 9.4), then the pairs that exclude each
 * other, each as javac reports them: one error per declaration, the
 * disallowed ones listed together.  Without this a program javac rejects,
 * e.g. with a `volatile` method, would run.  false after an error. */
static bool check_mods(DrChecker *c, DrPos pos, unsigned mods, unsigned allowed) {
  unsigned bad = mods & ~allowed;
  if (bad) {
    char list[160] = "";
    for (size_t i = 0; i < sizeof mod_names / sizeof mod_names[0]; i++)
      if (bad & mod_names[i].bit) {
        if (list[0]) strcat(list, ",");
        strcat(list, mod_names[i].name);
      }
    chk_error(c, pos, "modifier %s not allowed here", list);
    return false;
  }
  static const unsigned pairs[][2] = {
      {DR_MOD_PUBLIC, DR_MOD_PRIVATE | DR_MOD_PROTECTED},
      {DR_MOD_PRIVATE, DR_MOD_PUBLIC | DR_MOD_PROTECTED},
      {DR_MOD_FINAL, DR_MOD_VOLATILE},
      {DR_MOD_FINAL, DR_MOD_SEALED | DR_MOD_NON_SEALED},
      {DR_MOD_SEALED, DR_MOD_NON_SEALED},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if ((mods & pairs[i][0]) && (mods & pairs[i][1])) {
      chk_error(c, pos, "illegal combination of modifiers: %s and %s", first_mod(mods & pairs[i][0]),
                first_mod(mods & pairs[i][1]));
      return false;
    }
  return true;
}

enum {
  MODS_ACCESS = DR_MOD_PUBLIC | DR_MOD_PRIVATE | DR_MOD_PROTECTED,
  MODS_CLASS_FIELD = MODS_ACCESS | DR_MOD_STATIC | DR_MOD_FINAL | DR_MOD_VOLATILE | DR_MOD_TRANSIENT,
  MODS_IFACE_FIELD = DR_MOD_PUBLIC | DR_MOD_STATIC | DR_MOD_FINAL,
  MODS_CLASS_METHOD = MODS_ACCESS | DR_MOD_ABSTRACT | DR_MOD_STATIC | DR_MOD_FINAL | DR_MOD_SYNCHRONIZED |
                      DR_MOD_NATIVE | DR_MOD_STRICTFP | DR_MOD_HIDDEN, /* no keyword: the compiler's own */
  /* default, static and private ones pass here: DL rejects them by name */
  MODS_IFACE_METHOD = DR_MOD_PUBLIC | DR_MOD_PRIVATE | DR_MOD_ABSTRACT | DR_MOD_DEFAULT | DR_MOD_STATIC |
                      DR_MOD_STRICTFP,
  MODS_CTOR = MODS_ACCESS,
  MODS_TOP_CLASS = DR_MOD_PUBLIC | DR_MOD_ABSTRACT | DR_MOD_FINAL | DR_MOD_STRICTFP | DR_MOD_SEALED | DR_MOD_NON_SEALED,
  MODS_MEMBER_CLASS = MODS_TOP_CLASS | DR_MOD_PRIVATE | DR_MOD_PROTECTED | DR_MOD_STATIC,
};

static void check_ffi_signature(DrChecker *c, const DrMember *mem, const DrMethodSym *m, unsigned mods);

/* An interface method (JLS 9.4): abstract unless default, static or
 * private, which have bodies; public unless private. */
static unsigned iface_method_mods(DrChecker *c, const DrMember *mem, unsigned mods) {
  static const struct {
    unsigned a, b;
    const char *text;
  } clash[] = {
      {DR_MOD_ABSTRACT, DR_MOD_DEFAULT, "abstract and default"},
      {DR_MOD_ABSTRACT, DR_MOD_STATIC, "abstract and static"},
      {DR_MOD_ABSTRACT, DR_MOD_PRIVATE, "abstract and private"},
      {DR_MOD_STATIC, DR_MOD_DEFAULT, "static and default"},
      {DR_MOD_PRIVATE, DR_MOD_DEFAULT, "private and default"},
  };
  for (size_t i = 0; i < DR_ARRAY_LEN(clash); i++)
    if ((mods & clash[i].a) && (mods & clash[i].b)) {
      chk_error(c, mem->pos, "illegal combination of modifiers: %s", clash[i].text);
      return mods | DR_MOD_PUBLIC; /* as written: no cascade */
    }
  bool concrete = (mods & (DR_MOD_DEFAULT | DR_MOD_STATIC | DR_MOD_PRIVATE)) != 0;
  if (!concrete && mem->body) chk_error(c, mem->pos, "interface abstract methods cannot have body");
  if (concrete && !mem->body) chk_error(c, mem->pos, "missing method body, or declare abstract");
  if (!(mods & DR_MOD_PRIVATE)) mods |= DR_MOD_PUBLIC;
  /* a wrongly given body still counts as an implementation: no cascade of
   * "does not override abstract method" errors */
  if (!concrete && !mem->body) mods |= DR_MOD_ABSTRACT;
  return mods;
}

static void declare_method(DrChecker *c, DrClassSym *k, DrMember *mem, int *mcap) {
  DrClassDecl *d = k->decl;
  bool ctor = mem->kind == M_CTOR;
  unsigned mods = mem->mods;
  check_mods(c, mem->pos, mods, ctor ? MODS_CTOR : d->is_interface ? MODS_IFACE_METHOD : MODS_CLASS_METHOD);
  /* DL does not check the use of checked exceptions, but a throws clause
   * still has to name Throwables */
  for (int i = 0; i < mem->nthrows; i++) {
    DrType *t = chk_resolve_tref(c, &mem->throws[i]);
    if (!chk_is_err(t) && (t->kind != TY_CLASS || !c->c_throwable || !chk_subclass(t->cls, c->c_throwable)))
      chk_error(c, mem->throws[i].pos, "incompatible types: %s cannot be converted to Throwable", chk_type_str(c, t));
  }
  if (d->is_interface) {
    if (ctor) {
      chk_error(c, mem->pos, "interfaces cannot have constructors");
      return;
    }
    mods = iface_method_mods(c, mem, mods);
  }
  if (ctor && mem->name && strcmp(mem->name, k->name) != 0) {
    chk_error(c, mem->pos, "invalid method declaration; return type required");
    return;
  }
  DrChkMethod *cm = chk_new_method(c, k, ctor ? "<init>" : (mem->name ? mem->name : "?"), mods, mem->pos);
  DrMethodSym *m = &cm->sym;
  m->is_ctor = ctor;
  m->decl = mem;
  c->gen.sig = mem;
  chk_gen_method_tvars(c, mem, m);
  m->ret = ctor ? &c->T->t_void : chk_resolve_tref(c, &mem->ret);
  m->nparams = mem->nparams;
  m->params = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)(mem->nparams + 1));
  for (int i = 0; i < mem->nparams; i++) {
    DrType *t = chk_resolve_tref(c, &mem->params[i].tref);
    if (t->kind == TY_VOID) {
      chk_error(c, mem->params[i].tref.pos, "'void' type not allowed here");
      t = &c->T->t_error;
    }
    m->params[i] = t;
  }
  c->gen.sig = NULL;
  m->is_varargs = mem->nparams > 0 && mem->params[mem->nparams - 1].is_varargs;
  mem->method = m;
  if (!d->is_interface) {
    bool abstract = (mods & DR_MOD_ABSTRACT) != 0;
    if (abstract && mem->body) chk_error(c, mem->pos, "abstract methods cannot have a body");
    if (!abstract && !mem->body && !(mods & DR_MOD_NATIVE))
      chk_error(c, mem->pos, "missing method body, or declare abstract");
    if (abstract && (mods & (DR_MOD_PRIVATE | DR_MOD_STATIC | DR_MOD_FINAL | DR_MOD_NATIVE | DR_MOD_SYNCHRONIZED))) {
      const char *other = (mods & DR_MOD_PRIVATE)  ? "private"
                          : (mods & DR_MOD_STATIC) ? "static"
                          : (mods & DR_MOD_FINAL)  ? "final"
                          : (mods & DR_MOD_NATIVE) ? "native"
                                                   : "synchronized";
      chk_error(c, mem->pos, "illegal combination of modifiers: abstract and %s", other);
    }
    if ((mods & DR_MOD_NATIVE) && mem->body) chk_error(c, mem->pos, "native methods cannot have a body");
    if ((mods & DR_MOD_NATIVE) && !d->from_prelude) check_ffi_signature(c, mem, m, mods);
    if (ctor && (mods & (DR_MOD_STATIC | DR_MOD_ABSTRACT | DR_MOD_FINAL | DR_MOD_NATIVE | DR_MOD_SYNCHRONIZED)))
      chk_error(c, mem->pos, "modifier not allowed here");
  }
  for (DrMethodSym *o = chk_methods_named(c, k, m->name); o; o = chk_method(o)->next_named)
    if (same_sig(o, m)) {
      chk_error(c, mem->pos, "%s %s is already defined in %s %s", ctor ? "constructor" : "method", chk_method_sig(c, m),
                d->is_interface ? "interface" : "class", k->source_name);
      return;
    }
  DR_ARENA_PUSH(c->arena, k->methods, k->nmethods, *mcap, m);
  chk_index_method(c, m);
}

/* A user's native method is bound to a C function through libffi
 * (vm/ffi.c): static, with types that have a C counterpart. */
static bool ffi_type_ok(const DrChecker *c, const DrType *t, bool result) {
  switch (t->kind) {
  case TY_ERROR:
  case TY_BOOLEAN:
  case TY_CHAR:
  case TY_INT:
  case TY_LONG:
  case TY_DOUBLE: return true;
  case TY_VOID: return result;
  case TY_CLASS: return t->cls && t->cls == c->c_string;
  case TY_ARRAY:
    return !result && (t->elem->kind == TY_INT || t->elem->kind == TY_LONG || t->elem->kind == TY_DOUBLE ||
                       t->elem->kind == TY_CHAR);
  default: return false;
  }
}

static void check_ffi_signature(DrChecker *c, const DrMember *mem, const DrMethodSym *m, unsigned mods) {
  if (!(mods & DR_MOD_STATIC)) chk_error(c, mem->pos, "native methods must be static (DL binds them to C functions)");
  if (!ffi_type_ok(c, m->ret, true))
    chk_error(c, mem->ret.pos,
              "result type %s is not allowed in a native method (allowed: void, int, long, double, boolean, char, String)",
              chk_type_str(c, m->ret));
  for (int i = 0; i < m->nparams; i++)
    if (!ffi_type_ok(c, m->params[i], false))
      chk_error(c, mem->params[i].tref.pos,
                "parameter type %s is not allowed in a native method (allowed: int, long, double, boolean, char, "
                "String, int[], long[], double[], char[])",
                chk_type_str(c, m->params[i]));
}

static void declare_members(DrChecker *c, DrClassSym *k) {
  DrChkClass *ck = chk_class(k);
  if (ck->members_done) return;
  ck->members_done = true;
  DrClassDecl *d = k->decl;
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k;
  c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
  chk_class_scope(c, k);
  c->cur.label_base = c->nlabels;
  int fcap = 0, mcap = 0;
  bool has_ctor = false;
  for (int i = 0; i < d->nmembers; i++) {
    DrMember *mem = &d->members[i];
    switch (mem->kind) {
    case M_FIELD: {
      c->gen.static_decl = (mem->mods & DR_MOD_STATIC) != 0;
      DrType *base = chk_resolve_tref(c, &mem->tref);
      c->gen.static_decl = false;
      if (base->kind == TY_VOID) {
        chk_error(c, mem->tref.pos, "'void' type not allowed here");
        base = &c->T->t_error;
      }
      unsigned mods = mem->mods;
      check_mods(c, mem->ndecls > 0 ? mem->decls[0].pos : mem->pos, mods,
                 d->is_interface ? MODS_IFACE_FIELD : MODS_CLASS_FIELD);
      if (d->is_interface) mods |= DR_MOD_PUBLIC | DR_MOD_STATIC | DR_MOD_FINAL;
      mem->field_syms = dr_arena_alloc(c->arena, sizeof(DrFieldSym *) * (size_t)(mem->ndecls + 1));
      for (int j = 0; j < mem->ndecls; j++) {
        DrDeclarator *dc = &mem->decls[j];
        DrChkField *f = dr_arena_alloc(c->arena, sizeof(DrChkField));
        DrType *t = base;
        for (int x = 0; x < dc->extra_dims; x++) t = chk_array_of(c, t);
        f->sym.name = dc->name ? dc->name : "?";
        f->sym.owner = k;
        f->sym.type = t;
        f->sym.mods = mods;
        f->sym.pos = dc->pos;
        f->sym.decl = dc;
        f->is_interface_const = d->is_interface;
        mem->field_syms[j] = &f->sym;
        if (chk_name_get(c, k, CHK_NS_FIELD, f->sym.name)) {
          chk_error(c, dc->pos, "variable %s is already defined in class %s", f->sym.name, k->source_name);
          continue;
        }
        if (d->is_interface && !dc->init) chk_error(c, dc->pos, "= expected");
        f->index = k->nfields;
        DR_ARENA_PUSH(c->arena, k->fields, k->nfields, fcap, &f->sym);
        chk_name_put(c, k, CHK_NS_FIELD, f->sym.name, &f->sym);
      }
      break;
    }
    case M_METHOD:
    case M_CTOR:
      if (mem->kind == M_CTOR) has_ctor = true;
      declare_method(c, k, mem, &mcap);
      break;
    case M_INIT:
      if (d->is_interface)
        chk_error(c, mem->pos, "initializers are not allowed in interfaces");
      else
        check_mods(c, mem->pos, mem->mods, DR_MOD_STATIC);
      break;
    case M_CLASS: break;
    }
  }
  if (!has_ctor && !d->is_interface) {
    unsigned mods = d->mods & (DR_MOD_PUBLIC | DR_MOD_PROTECTED | DR_MOD_PRIVATE);
    if (k->flags & DR_CLS_SYM_PRELUDE) mods |= DR_MOD_PUBLIC;
    DrChkMethod *m = chk_new_method(c, k, "<init>", mods, d->pos);
    m->sym.is_ctor = true;
    m->sym.params = dr_arena_alloc(c->arena, sizeof(DrType *));
    DR_ARENA_PUSH(c->arena, k->methods, k->nmethods, mcap, &m->sym);
    chk_index_method(c, &m->sym);
  }
  k->clinit = &chk_new_method(c, k, "<clinit>", DR_MOD_STATIC, d->pos)->sym;
  k->clinit->params = dr_arena_alloc(c->arena, sizeof(DrType *));
  k->instance_init = &chk_new_method(c, k, "<instinit>", 0, d->pos)->sym;
  k->instance_init->params = dr_arena_alloc(c->arena, sizeof(DrType *));
  if (!check_mods(c, d->pos, d->mods, d->outer ? MODS_MEMBER_CLASS : MODS_TOP_CLASS))
    return;
  if (d->is_interface && (d->mods & DR_MOD_FINAL))
    chk_error(c, d->pos, "illegal combination of modifiers: interface and final");
  else if ((d->mods & DR_MOD_ABSTRACT) && (d->mods & DR_MOD_FINAL))
    chk_error(c, d->pos, "illegal combination of modifiers: abstract and final");
}

/* ---------------------------------------------------------- overriding */

static int access_rank(unsigned mods) {
  if (mods & DR_MOD_PUBLIC) return 3;
  if (mods & DR_MOD_PROTECTED) return 2;
  if (mods & DR_MOD_PRIVATE) return 0;
  return 1;
}

static const char *access_name(unsigned mods) {
  if (mods & DR_MOD_PUBLIC) return "public";
  if (mods & DR_MOD_PROTECTED) return "protected";
  if (mods & DR_MOD_PRIVATE) return "private";
  return "package";
}

static bool check_override_pair(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrMethodSym *o) {
  const char *verb = (chk_is_interface(o->owner) && !chk_is_interface(k)) ? "implement" : "override";
  bool ms = (m->mods & DR_MOD_STATIC) != 0, os = (o->mods & DR_MOD_STATIC) != 0;
  const char *head = dr_arena_printf(c->arena, "%s in %s cannot %s %s in %s", chk_method_sig(c, m), k->source_name,
                                     ms && os ? "hide" : verb, chk_method_sig(c, o), o->owner->source_name);
  DrPos pos = m->pos;
  if (ms && !os) {
    chk_error(c, pos, "%s; overriding method is static", head);
    return false;
  }
  if (!ms && os) {
    chk_error(c, pos, "%s; overridden method is static", head);
    return false;
  }
  if (o->mods & DR_MOD_FINAL) {
    chk_error(c, pos, "%s; overridden method is %sfinal", head, os ? "static " : "");
    return false;
  }
  DrType *r = m->ret, *ro = chk_gen_override_ret(c, k, m, o);
  if (r->kind == TY_CLASS && r->is_raw) r = chk_gen_erasure(c, ro) == r ? ro : r; /* unchecked */
  bool ret_ok = r == ro || chk_is_err(r) || chk_is_err(ro) ||
                (chk_is_ref(r) && chk_is_ref(ro) && chk_subtype(c, r, ro));
  if (!ret_ok) {
    chk_error(c, pos, "%s; return type %s is not compatible with %s", head, chk_type_str(c, r), chk_type_str(c, ro));
    return false;
  }
  if (access_rank(m->mods) < access_rank(o->mods)) {
    chk_error(c, pos, "%s; attempting to assign weaker access privileges; was %s", head, access_name(o->mods));
    return false;
  }
  return true;
}

/* The first method with m's signature that m overrides, searching every
 * supertype of k (superclass chain, then interfaces). */
static void check_overrides_in(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrClassSym *s, int depth, bool *done) {
  if (!s || *done || depth > 256) return;
  DrMethodSym *o = chk_gen_find_overridden(c, k, m, s);
  if (o && !(o->mods & DR_MOD_PRIVATE) && chk_accessible(c, o->owner, o->mods)) {
    if (!check_override_pair(c, k, m, o)) *done = true;
  }
  check_overrides_in(c, k, m, s->super, depth + 1, done);
  for (int i = 0; i < s->ninterfaces; i++) check_overrides_in(c, k, m, s->interfaces[i], depth + 1, done);
}

static void check_overriding(DrChecker *c, DrClassSym *k) {
  for (int i = 0; i < k->nmethods; i++) {
    DrMethodSym *m = k->methods[i];
    if (m->is_ctor || (m->mods & DR_MOD_PRIVATE)) continue;
    bool done = false;
    check_overrides_in(c, k, m, k->super, 0, &done);
    for (int j = 0; j < k->ninterfaces; j++) check_overrides_in(c, k, m, k->interfaces[j], 0, &done);
    if (!done && chk_is_interface(k) && c->c_object) {
      DrMethodSym *o = chk_find_method_sig(c, c->c_object, m->name, m->params, m->nparams);
      if (o && (o->mods & DR_MOD_PUBLIC)) check_override_pair(c, k, m, o);
    }
  }
}

/* A default method of k's superinterfaces with a's signature that
 * overrides a: declared in a's interface or one extending it. */
static DrMethodSym *default_in(DrChecker *c, DrClassSym *k, DrMethodSym *a, int depth) {
  if (depth > 64) return NULL;
  for (int i = 0; i < k->ninterfaces; i++) {
    DrClassSym *ifc = k->interfaces[i];
    DrMethodSym *m = NULL; /* a's signature, as a member of ifc (generics: checker_bridge.c) */
    for (DrMethodSym *x = chk_methods_named(c, ifc, a->name); x && !m; x = chk_method(x)->next_named)
      if (!x->is_ctor && chk_gen_overrides(c, ifc, x, a)) m = x;
    if (m && (m->mods & DR_MOD_DEFAULT) && chk_subclass(ifc, a->owner)) return m;
    if ((m = default_in(c, ifc, a, depth + 1))) return m;
  }
  return NULL;
}

/* The method a concrete class k uses for signature a: the first one found
 * up its superclass chain, else a default method. */
static DrMethodSym *implementation(DrChecker *c, DrClassSym *k, DrMethodSym *a) {
  int guard = 0;
  for (DrClassSym *s = k; s && guard < 256; s = s->super, guard++) {
    DrMethodSym *m = NULL;
    for (DrMethodSym *x = chk_methods_named(c, s, a->name); x && !m; x = chk_method(x)->next_named)
      if (!x->is_ctor && chk_gen_overrides(c, k, x, a)) m = x;
    if (m && !(m->mods & DR_MOD_STATIC) && (!(m->mods & DR_MOD_PRIVATE) || s == k)) return m;
  }
  guard = 0;
  for (DrClassSym *s = k; s && guard < 256; s = s->super, guard++) {
    DrMethodSym *m = default_in(c, s, a, 0);
    if (m) return m;
  }
  return NULL;
}

static bool find_unimplemented(DrChecker *c, DrClassSym *k, DrClassSym *s, int depth, DrMethodSym **out) {
  if (!s || depth > 256) return false;
  for (int i = 0; i < s->nmethods; i++) {
    DrMethodSym *a = s->methods[i];
    if (!(a->mods & DR_MOD_ABSTRACT)) continue;
    DrMethodSym *impl = implementation(c, k, a);
    if (!impl || (impl->mods & DR_MOD_ABSTRACT)) {
      *out = a;
      return true;
    }
  }
  if (find_unimplemented(c, k, s->super, depth + 1, out)) return true;
  for (int i = 0; i < s->ninterfaces; i++)
    if (find_unimplemented(c, k, s->interfaces[i], depth + 1, out)) return true;
  return false;
}

/* k's superinterfaces, direct and inherited, each once */
static void iface_closure(DrChecker *c, DrClassSym *k, DrClassSym ***out, int *n, int *cap, int depth) {
  if (!k || depth > 64) return;
  for (int i = 0; i < k->ninterfaces; i++) {
    DrClassSym *ifc = k->interfaces[i];
    bool seen = false;
    for (int j = 0; j < *n && !seen; j++) seen = (*out)[j] == ifc;
    if (!seen) DR_ARENA_PUSH(c->arena, *out, *n, *cap, ifc);
    iface_closure(c, ifc, out, n, cap, depth + 1);
  }
  if (!chk_is_interface(k)) iface_closure(c, k->super, out, n, cap, depth + 1);
}

/* Two default methods with one signature from unrelated interfaces, which
 * neither k's classes nor a more specific interface override (JLS 8.4.8.4,
 * 9.4.1.3). */
static void check_default_clash(DrChecker *c, DrClassSym *k) {
  DrClassSym **ifs = NULL;
  int n = 0, cap = 0;
  iface_closure(c, k, &ifs, &n, &cap, 0);
  for (int i = 0; i < n; i++)
    for (int a = 0; a < ifs[i]->nmethods; a++) {
      DrMethodSym *m = ifs[i]->methods[a];
      if (!(m->mods & DR_MOD_DEFAULT)) continue;
      bool mine = false;
      int guard = 0;
      for (DrClassSym *s = k; s && !mine && guard < 256; s = chk_is_interface(k) ? NULL : s->super, guard++)
        mine = chk_find_method_sig(c, s, m->name, m->params, m->nparams) != NULL;
      for (int j = i + 1; j < n && !mine; j++) {
        DrMethodSym *o = chk_find_method_sig(c, ifs[j], m->name, m->params, m->nparams);
        if (!o || !(o->mods & DR_MOD_DEFAULT) || chk_subclass(ifs[i], ifs[j]) || chk_subclass(ifs[j], ifs[i])) continue;
        bool covered = false;
        for (int x = 0; x < n && !covered; x++)
          covered = chk_subclass(ifs[x], ifs[i]) && chk_subclass(ifs[x], ifs[j]) &&
                    chk_find_method_sig(c, ifs[x], m->name, m->params, m->nparams);
        if (covered) continue;
        chk_error(c, k->decl->pos, "types %s and %s are incompatible; %s %s inherits unrelated defaults for %s from types %s and %s",
                  ifs[i]->source_name, ifs[j]->source_name, chk_is_interface(k) ? "interface" : "class", k->source_name,
                  chk_method_sig(c, m), ifs[i]->source_name, ifs[j]->source_name);
        return;
      }
    }
}

static void check_class_rules(DrChecker *c, DrClassSym *k) {
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k;
  c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
  chk_class_scope(c, k);
  c->cur.label_base = c->nlabels;
  check_overriding(c, k);
  check_default_clash(c, k);
  chk_sealed_rules(c, k);
  if (!(k->flags & DR_CLS_SYM_ABSTRACT)) {
    DrMethodSym *a = NULL;
    if (find_unimplemented(c, k, k, 0, &a))
      chk_error(c, k->decl->pos, "%s is not abstract and does not override abstract method %s in %s", k->source_name,
                chk_method_sig(c, a), a->owner->source_name);
  }
}

/* -------------------------------------------------------------- bodies */

void chk_field_initializer(DrChecker *c, DrFieldSym *f) {
  DrChkField *cf = chk_field(f);
  if (cf->init_state != 0) return;
  cf->init_state = 1;
  DrDeclarator *d = f->decl;
  if (d && d->init) {
    DrChkCtx saved = c->cur;
    DrClassSym *k = f->owner;
    bool is_static = (f->mods & DR_MOD_STATIC) != 0;
    memset(&c->cur, 0, sizeof c->cur);
    c->cur.cls = k;
    c->cur.meth = is_static ? k->clinit : k->instance_init;
    c->cur.is_static = is_static;
    c->cur.in_init = true;
    c->cur.field_limit = cf->index;
    chk_class_scope(c, k);
    c->cur.label_base = c->nlabels;
    c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
    chk_init_expr(c, d->init, f->type);
    if ((f->mods & DR_MOD_FINAL) && d->init->is_const && (chk_is_prim(f->type) || chk_is_string(c, f->type))) {
      f->is_const = true;
      f->cval = d->init->cval;
    }
    c->cur = saved;
  }
  cf->init_state = 2;
}

static DrChkTrack *new_track(DrChecker *c, DrClassSym *k, bool statics) {
  DrChkTrack *t = dr_arena_alloc(c->arena, sizeof(DrChkTrack));
  int cap = 0;
  for (int i = 0; i < k->nfields; i++) {
    DrFieldSym *f = k->fields[i];
    bool blank = (f->mods & DR_MOD_FINAL) && (!f->decl || !f->decl->init) && !chk_field(f)->is_interface_const;
    if (!blank || ((f->mods & DR_MOD_STATIC) != 0) != statics) continue;
    chk_field(f)->track_pos = t->n;
    DR_ARENA_PUSH(c->arena, t->fields, t->n, cap, f);
  }
  t->da = dr_arena_alloc(c->arena, sizeof(bool) * (size_t)(t->n + 1));
  t->pa = dr_arena_alloc(c->arena, sizeof(bool) * (size_t)(t->n + 1));
  return t;
}

/* Blank finals that the initializers leave unassigned, where no
 * constructor body can assign them (javac's wording). */
static void report_unassigned(DrChecker *c, DrClassSym *k, DrChkTrack *t) {
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k;
  c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
  for (int i = 0; i < t->n; i++)
    if (!t->da[i]) chk_error(c, t->fields[i]->pos, "variable %s not initialized in the default constructor", t->fields[i]->name);
}

static void check_bodies(DrChecker *c, DrClassSym *k) {
  DrClassDecl *d = k->decl;
  DrChkTrack *statics = new_track(c, k, true), *inst = new_track(c, k, false);
  int nfields = 0;
  /* constructors last: the instance initializers run before their bodies */
  for (int i = 0; i < d->nmembers; i++) {
    DrMember *mem = &d->members[i];
    switch (mem->kind) {
    case M_FIELD:
      for (int j = 0; j < mem->ndecls; j++)
        if (mem->field_syms && mem->field_syms[j]) {
          chk_field_initializer(c, mem->field_syms[j]);
          nfields++;
        }
      break;
    case M_INIT:
      chk_init_block(c, k, mem, nfields, (mem->mods & DR_MOD_STATIC) ? statics : inst);
      break;
    case M_METHOD:
      if (mem->method) chk_method_body(c, mem->method, NULL);
      break;
    case M_CTOR:
    case M_CLASS: break;
    }
  }
  for (int i = 0; i < d->nmembers; i++) {
    DrMember *mem = &d->members[i];
    if (mem->kind == M_CTOR && mem->method) chk_method_body(c, mem->method, inst);
  }
  for (int i = 0; i < k->nmethods; i++)
    if (k->methods[i]->is_ctor && !k->methods[i]->decl) {
      chk_method_body(c, k->methods[i], NULL);
      report_unassigned(c, k, inst);
    }
  report_unassigned(c, k, statics);
  chk_gen_bridges(c, k);
}

/* this(...) chains must not loop (JLS 8.8.7). */
static void check_ctor_cycles(DrChecker *c, DrClassSym *k) {
  for (int i = 0; i < k->nmethods; i++) {
    DrMethodSym *m = k->methods[i];
    if (!m->is_ctor) continue;
    int steps = 0;
    DrMethodSym *p = chk_method(m)->ctor_target;
    while (p && p != m && steps < 1000) {
      p = chk_method(p)->ctor_target;
      steps++;
    }
    if (p == m && !chk_method(m)->visit) {
      /* report once per cycle: mark its members */
      DrMethodSym *q = m;
      do {
        chk_method(q)->visit = 1;
        q = chk_method(q)->ctor_target;
      } while (q && q != m);
      memset(&c->cur, 0, sizeof c->cur);
      c->cur.cls = k;
      c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
      chk_error(c, m->pos, "recursive constructor invocation");
    }
  }
}

DrLocalSym *chk_param_local(DrChecker *c, DrMethodSym *m, const char *name, DrType *type, DrPos pos) {
  DrChkCtx saved = c->cur;
  c->cur.meth = m;
  DrLocalSym *l = add_local(c, name, type, pos, false);
  chk_local(l)->is_param = true;
  c->cur = saved;
  return l;
}

void chk_local_class_phases(DrChecker *c, DrClassSym *k, DrMethodSym *anon_super) {
  DrChkCtx saved = c->cur;
  bool lv = c->want_lvalue, sa = c->simple_assign;
  chk_resolve_supers(c, k);
  declare_members(c, k);
  if (anon_super)
    for (int i = 0; i < k->nmethods; i++)
      if (k->methods[i]->is_ctor) {
        k->methods[i]->params = anon_super->params;
        k->methods[i]->nparams = anon_super->nparams;
        k->methods[i]->pass_super = anon_super;
      }
  check_class_rules(c, k);
  c->cur = saved;
  check_bodies(c, k);
  check_ctor_cycles(c, k);
  c->cur = saved;
  c->want_lvalue = lv;
  c->simple_assign = sa;
}

bool dr_check(DrArena *arena, DrDiagList *diags, DrTypes *types, DrProgram *prog) {
  DrChecker ck;
  memset(&ck, 0, sizeof ck);
  DrChecker *c = &ck;
  c->arena = arena;
  c->diags = diags;
  c->T = types;
  c->prog = prog;
  chk_init_types(c);
  build_class_table(c);
  if (!c->c_object || !c->c_string) {
    chk_error(c, (DrPos){1, 1}, "drvm's prelude lacks java.lang.Object or java.lang.String");
    chk_names_free(c);
    return false;
  }
  chk_units_resolve(c);
  for (int i = 0; i < c->nclasses; i++) chk_resolve_supers(c, c->classes[i]);
  for (int i = 0; i < c->nclasses; i++) declare_members(c, c->classes[i]);
  chk_units_check_static(c);
  for (int i = 0; i < c->nclasses; i++) check_class_rules(c, c->classes[i]);
  for (int i = 0; i < c->nclasses; i++) chk_class_annotations(c, c->classes[i]);
  for (int i = 0; i < c->nclasses; i++) check_bodies(c, c->classes[i]);
  for (int i = 0; i < c->nclasses; i++) check_ctor_cycles(c, c->classes[i]);
  chk_find_main(c);
  for (int i = 0; i < c->nclasses; i++)
    if (!c->classes[i]->outer) chk_number_local_classes(c, c->classes[i]);
  chk_names_free(c);
  return c->errors == 0;
}
