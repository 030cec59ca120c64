/* Annotations (JLS 9.7): each names an annotation interface, appears at
 * most once on a declaration, and only where its interface may be applied
 * (its @Target, JLS 9.6.4.1); @Override and @FunctionalInterface are
 * checked as javac checks them.  Their arguments are not checked. */
#include <string.h>

#include "checker_generic.h"

/* The declaration contexts of JLS 9.6.4.1 that DL has. */
enum {
  CHK_AT_TYPE = 1 << 0,       /* class or interface */
  CHK_AT_ANNOTATION = 1 << 1, /* annotation interface */
  CHK_AT_FIELD = 1 << 2,
  CHK_AT_METHOD = 1 << 3,
  CHK_AT_CTOR = 1 << 4,
  CHK_AT_PARAM = 1 << 5,
  CHK_AT_LOCAL = 1 << 6,
  CHK_AT_ALL = (1 << 7) - 1,
};

/* Where the library's annotation interfaces apply (their @Target); an
 * annotation interface of the program's has none: it applies everywhere. */
#define DR_LIBRARY_ANNOTATIONS(X)                                                                                 \
  X("java.lang.Override", CHK_AT_METHOD)                                                                         \
  X("java.lang.FunctionalInterface", CHK_AT_TYPE | CHK_AT_ANNOTATION)                                            \
  X("java.lang.SafeVarargs", CHK_AT_METHOD | CHK_AT_CTOR)                                                        \
  X("java.lang.SuppressWarnings", CHK_AT_ALL)                                                                    \
  X("java.lang.Deprecated", CHK_AT_ALL)                                                                          \
  X("java.lang.annotation.Documented", CHK_AT_ANNOTATION)                                                        \
  X("java.lang.annotation.Inherited", CHK_AT_ANNOTATION)                                                         \
  X("java.lang.annotation.Retention", CHK_AT_ANNOTATION)                                                         \
  X("java.lang.annotation.Target", CHK_AT_ANNOTATION)                                                            \
  X("java.lang.annotation.Repeatable", CHK_AT_ANNOTATION)

static const struct {
  const char *name;
  unsigned targets;
} library_targets[] = {
#define DR_LIB_ANNOT_ROW(name, targets) {name, targets},
    DR_LIBRARY_ANNOTATIONS(DR_LIB_ANNOT_ROW)
#undef DR_LIB_ANNOT_ROW
};

static unsigned targets_of(const DrClassSym *k) {
  if (!(k->flags & DR_CLS_SYM_PRELUDE)) return CHK_AT_ALL;
  for (size_t i = 0; i < DR_ARRAY_LEN(library_targets); i++)
    if (strcmp(library_targets[i].name, k->binary_name) == 0) return library_targets[i].targets;
  return CHK_AT_ALL;
}

/* The annotation interface an annotation names, or NULL after an error. */
static DrClassSym *annotation_type(DrChecker *c, const DrAnnotation *a) {
  DrTypeRef t;
  memset(&t, 0, sizeof t);
  t.name = a->name;
  t.pos = a->pos;
  t.pos.col++; /* the name, after '@' */
  DrType *ty = chk_resolve_tref(c, &t);
  if (chk_is_err(ty)) return NULL;
  if (ty->kind != TY_CLASS || !ty->cls->decl || !ty->cls->decl->is_annotation) {
    chk_error(c, a->pos, "incompatible types: %s cannot be converted to Annotation", chk_type_str(c, ty));
    return NULL;
  }
  return ty->cls;
}

static bool is_named(const DrClassSym *k, const char *binary_name) {
  return k && (k->flags & DR_CLS_SYM_PRELUDE) && strcmp(k->binary_name, binary_name) == 0;
}

/* Checks a declaration's annotations; calls back for the ones whose
 * meaning is checked. */
typedef void (*DrAnnotCheck)(DrChecker *c, const DrAnnotation *a, DrClassSym *type, void *decl);

static void check_annots(DrChecker *c, const DrAnnotation *annots, int n, unsigned where, DrAnnotCheck fn, void *decl) {
  DrClassSym **seen = n ? dr_arena_alloc(c->arena, sizeof *seen * (size_t)n) : NULL;
  for (int i = 0; i < n; i++) {
    DrClassSym *k = seen[i] = annotation_type(c, &annots[i]);
    if (!k) continue;
    bool repeated = false;
    for (int j = 0; j < i; j++) repeated = repeated || seen[j] == k;
    if (repeated)
      chk_error(c, annots[i].pos, "%s is not a repeatable annotation type", k->source_name);
    else if (!(targets_of(k) & where))
      chk_error(c, annots[i].pos, "annotation type not applicable to this kind of declaration");
    else if (fn)
      fn(c, &annots[i], k, decl);
  }
}

/* ------------------------------------------------------------ @Override */

/* Whether m overrides or implements a method of a supertype of s's (JLS
 * 8.4.8.1, 9.4.1.1): an inherited instance method with its signature. */
static bool overrides_in(DrChecker *c, DrMethodSym *m, DrClassSym *s, int depth) {
  if (!s || depth > 256) return false;
  DrMethodSym *o = chk_gen_find_overridden(c, m->owner, m, s);
  if (o && !(o->mods & (DR_MOD_PRIVATE | DR_MOD_STATIC)) && chk_accessible(c, o->owner, o->mods)) return true;
  if (overrides_in(c, m, s->super, depth + 1)) return true;
  for (int i = 0; i < s->ninterfaces; i++)
    if (overrides_in(c, m, s->interfaces[i], depth + 1)) return true;
  return false;
}

static bool overrides(DrChecker *c, DrMethodSym *m) {
  DrClassSym *k = m->owner;
  if (overrides_in(c, m, k->super, 0)) return true;
  for (int i = 0; i < k->ninterfaces; i++)
    if (overrides_in(c, m, k->interfaces[i], 0)) return true;
  /* an interface's methods may override Object's public ones (JLS 9.4.1) */
  DrMethodSym *o = chk_is_interface(k) && c->c_object ? chk_find_method_sig(c, c->c_object, m->name, m->params, m->nparams) : NULL;
  return o && (o->mods & DR_MOD_PUBLIC) && !(o->mods & DR_MOD_STATIC);
}

/* @SafeVarargs (JLS 9.6.4.7): on a varargs method that cannot be
 * overridden. */
static void check_safe_varargs(DrChecker *c, const DrAnnotation *a, DrMethodSym *m) {
  const DrMember *mem = m->decl;
  bool varargs = mem && mem->nparams && mem->params[mem->nparams - 1].is_varargs;
  const char *sig = chk_method_sig(c, m);
  if (!varargs)
    chk_error(c, a->pos, "Invalid SafeVarargs annotation. Method %s is not a varargs method.", sig);
  else if (!m->is_ctor && !(m->mods & (DR_MOD_STATIC | DR_MOD_FINAL | DR_MOD_PRIVATE)))
    chk_error(c, a->pos, "Invalid SafeVarargs annotation. Instance method %s is neither final nor private.", sig);
}

static void check_method_annot(DrChecker *c, const DrAnnotation *a, DrClassSym *type, void *decl) {
  DrMethodSym *m = decl;
  if (m && is_named(type, "java.lang.SafeVarargs")) check_safe_varargs(c, a, m);
  if (!m || !is_named(type, "java.lang.Override")) return;
  if (m->mods & DR_MOD_STATIC)
    chk_error(c, a->pos, "static methods cannot be annotated with @Override");
  else if (!overrides(c, m))
    chk_error(c, a->pos, "method does not override or implement a method from a supertype");
}

/* ------------------------------------------------- @FunctionalInterface */

/* Counts k's abstract methods and those it inherits, each signature once,
 * leaving out those of Object's public methods (JLS 9.8). */
static void count_abstract(DrChecker *c, DrClassSym *k, DrMethodSym **found, int *n, int depth) {
  if (!k || depth > 256) return;
  for (int i = 0; i < k->nmethods; i++) {
    DrMethodSym *m = k->methods[i];
    if (!(m->mods & DR_MOD_ABSTRACT) || *n > 1) continue;
    DrMethodSym *o = c->c_object ? chk_find_method_sig(c, c->c_object, m->name, m->params, m->nparams) : NULL;
    if (o && (o->mods & DR_MOD_PUBLIC)) continue;
    bool same = false;
    for (int j = 0; j < *n; j++)
      same = same || chk_find_method_sig(c, found[j]->owner, m->name, m->params, m->nparams) == found[j];
    if (!same) found[(*n)++] = m;
  }
  for (int i = 0; i < k->ninterfaces; i++) count_abstract(c, k->interfaces[i], found, n, depth + 1);
}

static void check_type_annot(DrChecker *c, const DrAnnotation *a, DrClassSym *type, void *decl) {
  DrClassSym *k = decl;
  if (!is_named(type, "java.lang.FunctionalInterface")) return;
  const char *head = dr_arena_printf(c->arena, "Unexpected @FunctionalInterface annotation: %s is not a functional interface",
                                     k->source_name);
  if (!chk_is_interface(k) || k->decl->is_annotation) {
    chk_error(c, a->pos, "%s", head);
    return;
  }
  DrMethodSym *found[2];
  int n = 0;
  count_abstract(c, k, found, &n, 0);
  if (n == 0) chk_error(c, a->pos, "%s: no abstract method found in interface %s", head, k->source_name);
  if (n > 1) chk_error(c, a->pos, "%s: multiple non-overriding abstract methods found in interface %s", head, k->source_name);
}

/* -------------------------------------------------------------- driver */

static void check_member_annots(DrChecker *c, DrMember *mem) {
  switch (mem->kind) {
  case M_FIELD: check_annots(c, mem->annots, mem->nannots, CHK_AT_FIELD, NULL, NULL); break;
  case M_METHOD:
  case M_CTOR:
    check_annots(c, mem->annots, mem->nannots, mem->kind == M_CTOR ? CHK_AT_CTOR : CHK_AT_METHOD, check_method_annot,
                 mem->method);
    for (int i = 0; i < mem->nparams; i++)
      check_annots(c, mem->params[i].annots, mem->params[i].nannots, CHK_AT_PARAM, NULL, NULL);
    break;
  case M_INIT:
  case M_CLASS: break;
  }
}

void chk_class_annotations(DrChecker *c, DrClassSym *k) {
  DrClassDecl *d = k->decl;
  if (!d || d->from_prelude) return;
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k;
  check_annots(c, d->annots, d->nannots, d->is_annotation ? CHK_AT_TYPE | CHK_AT_ANNOTATION : CHK_AT_TYPE,
               check_type_annot, k);
  for (int i = 0; i < d->nmembers; i++) check_member_annots(c, &d->members[i]);
}

void chk_local_annotations(DrChecker *c, const DrStmt *s) {
  check_annots(c, s->annots, s->nannots, CHK_AT_LOCAL, NULL, NULL);
}
