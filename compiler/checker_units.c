/* Programs of several files: packages, imports and the main class (JLS
 * 7).  A user class is known at top level by its qualified name ("a.b.C",
 * or "C" in the unnamed package); a simple name is looked up as JLS 6.4.1
 * orders the declarations that may shadow one another: the file's own
 * classes, its single-type imports, the rest of its package, then the
 * on-demand imports and java.lang. */
#include <string.h>

#include "checker_internal.h"

/* Packages of the JDK that DL's library has no class of: importing one on
 * demand is valid Java and imports nothing; a class of it is then "cannot
 * find symbol" where it is used, which names it. */
static const char *const jdk_packages[] = {
    "java.io", "java.math", "java.net", "java.nio", "java.nio.file", "java.text", "java.time",
    "java.util.concurrent", "java.util.concurrent.atomic", "java.util.concurrent.locks", "java.util.function",
    "java.util.regex", "java.util.stream", "java.lang.reflect", "java.awt", "javax.swing"};

const char *chk_qualify(DrChecker *c, const char *pkg, const char *name) {
  return pkg ? dr_arena_printf(c->arena, "%s.%s", pkg, name) : name;
}

DrUnit *chk_cur_unit(DrChecker *c) {
  if (c->cur.unit) return c->cur.unit;
  DrClassSym *top = chk_top(c->cur.cls);
  return top && top->decl ? top->decl->unit : NULL;
}

static bool same_str(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

const char *chk_package_of(DrClassSym *k) {
  DrClassSym *top = chk_top(k);
  return top && top->decl ? top->decl->package : NULL;
}

bool chk_same_package(DrChecker *c, DrClassSym *k) {
  DrUnit *u = chk_cur_unit(c);
  return same_str(u ? u->package : NULL, chk_package_of(k));
}

/* Whether user code may name top-level class k (JLS 6.6.1): public, or in
 * its own package. */
bool chk_class_accessible(DrChecker *c, DrClassSym *k) {
  if (c->cur.prelude || !k || k->outer || (k->flags & DR_CLS_SYM_PRELUDE)) return true;
  return (k->decl->mods & DR_MOD_PUBLIC) || chk_same_package(c, k);
}

void chk_report_class_access(DrChecker *c, DrPos pos, DrClassSym *k) {
  const char *pkg = chk_package_of(k);
  chk_error(c, pos, "%s is not public in %s; cannot be accessed from outside package", k->name,
            pkg ? pkg : "unnamed package");
}

bool chk_user_package(DrChecker *c, const char *pkg) {
  size_t n = strlen(pkg);
  for (int i = 0; i < c->prog->nunits; i++) {
    const char *p = c->prog->units[i]->package;
    if (p && strncmp(p, pkg, n) == 0 && (p[n] == 0 || p[n] == '.')) return true;
  }
  return false;
}

static bool jdk_package(const char *pkg) {
  for (size_t i = 0; i < DR_ARRAY_LEN(jdk_packages); i++)
    if (strcmp(jdk_packages[i], pkg) == 0) return true;
  return false;
}

/* A class that import a.b.C names: a class of a package, or a member
 * class of a class (import a.b.C.D). */
static DrClassSym *import_target(DrChecker *c, const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot) return NULL;
  const char *pkg = dr_arena_strndup(c->arena, name, (size_t)(dot - name));
  if (chk_is_package(c, pkg)) return chk_qualified_class(c, pkg, dot + 1);
  DrClassSym *outer = import_target(c, pkg);
  return outer ? chk_member_class(c, outer, dot + 1) : NULL;
}

/* Whether pkg names no package and no class that an import could start
 * from: javac's "package pkg does not exist". */
static bool missing_package(DrChecker *c, const char *pkg) {
  return !chk_is_package(c, pkg) && !jdk_package(pkg) && !import_target(c, pkg);
}

static void resolve_single(DrChecker *c, DrUnit *u, DrImport *im) {
  DrClassSym *k = import_target(c, im->name);
  if (!k) {
    const char *dot = strrchr(im->name, '.');
    const char *pkg = dot ? dr_arena_strndup(c->arena, im->name, (size_t)(dot - im->name)) : NULL;
    if (!dot)
      chk_error(c, im->pos, "'.' expected");
    else if (missing_package(c, pkg))
      chk_error(c, im->pos, "package %s does not exist", pkg);
    else if (strncmp(im->name, "java.", 5) == 0 || strncmp(im->name, "javax.", 6) == 0)
      chk_error(c, im->pos, "cannot find symbol '%s' (DL's library has only the classes listed in docs/language.md)",
                im->name);
    else
      chk_error(c, im->pos, "cannot find symbol '%s'", im->name);
    return;
  }
  if (!chk_class_accessible(c, k)) {
    chk_report_class_access(c, im->pos, k);
    return;
  }
  /* JLS 7.5.1: the file's own class, or another import, of that simple name */
  DrClassSym *own = chk_name_get(c, NULL, CHK_NS_TYPE, chk_qualify(c, u->package, k->name));
  if (own && own != k && own->decl->unit == u) {
    chk_error(c, im->pos, "%s is already defined in this compilation unit", k->name);
    return;
  }
  for (DrImport *o = u->imports; o < im; o++)
    if (!o->on_demand && o->sym && o->sym != k && strcmp(o->sym->name, k->name) == 0) {
      chk_error(c, im->pos, "a type with the same simple name %s is already defined by the single-type-import of %s",
                k->name, o->name);
      return;
    }
  im->sym = k;
}

static void resolve_on_demand(DrChecker *c, DrImport *im) {
  if (chk_is_package(c, im->name) || jdk_package(im->name)) return;
  im->sym = import_target(c, im->name);
  if (im->sym) return;
  chk_error(c, im->pos, "package %s does not exist", im->name);
}

/* Whether k has a static method (methods) or static field named name:
 * what a static import of it imports (JLS 7.5.3). */
static bool has_static_member(DrChecker *c, DrClassSym *k, const char *name, bool methods) {
  if (!methods) {
    DrFieldSym *f = chk_lookup_field(c, k, name);
    return f && ((f->mods & DR_MOD_STATIC) || chk_field(f)->is_interface_const);
  }
  int guard = 0;
  for (DrClassSym *s = k; s && guard < 256; s = s->super, guard++)
    for (DrMethodSym *m = chk_methods_named(c, s, name); m; m = chk_method(m)->next_named)
      if ((m->mods & DR_MOD_STATIC) && !(m->mods & DR_MOD_PRIVATE)) return true;
  return false;
}

/* import static a.B.m; and import static a.B.*; (JLS 7.5.3, 7.5.4): the
 * class must exist, and a single import's member must be a static field,
 * method or member class of it. */
static void resolve_static(DrChecker *c, DrImport *im) {
  DrClassSym *k = import_target(c, im->name);
  if (!k) {
    const char *dot = strrchr(im->name, '.');
    const char *pkg = dot ? dr_arena_strndup(c->arena, im->name, (size_t)(dot - im->name)) : im->name;
    if (!dot || missing_package(c, pkg))
      chk_error(c, im->pos, "package %s does not exist", pkg);
    else
      chk_error(c, im->pos, "cannot find symbol '%s'%s", im->name,
                strncmp(im->name, "java.", 5) == 0 ? " (DL's library has only the classes listed in docs/language.md)" : "");
    return;
  }
  if (!chk_class_accessible(c, k)) {
    chk_report_class_access(c, im->pos, k);
    return;
  }
  im->sym = k;
}

/* Once members are declared: a single static import's member exists. */
void chk_units_check_static(DrChecker *c) {
  for (int i = 0; i < c->prog->nunits; i++) {
    DrUnit *u = c->prog->units[i];
    for (int j = 0; j < u->nimports; j++) {
      DrImport *im = &u->imports[j];
      if (!im->is_static || !im->member || !im->sym) continue;
      if (has_static_member(c, im->sym, im->member, true) || has_static_member(c, im->sym, im->member, false) ||
          chk_member_class(c, im->sym, im->member))
        continue;
      memset(&c->cur, 0, sizeof c->cur);
      c->cur.unit = u;
      chk_error(c, im->pos, "cannot find symbol: static %s in class %s", im->member, im->sym->source_name);
      im->sym = NULL;
    }
  }
  memset(&c->cur, 0, sizeof c->cur);
}

DrClassSym *chk_static_import(DrChecker *c, const char *name, bool methods) {
  DrUnit *u = chk_cur_unit(c);
  for (int pass = 0; pass < 2 && u; pass++)
    for (int i = 0; i < u->nimports; i++) {
      const DrImport *im = &u->imports[i];
      if (!im->is_static || !im->sym || im->on_demand != (pass == 1)) continue;
      if (im->member && strcmp(im->member, name) != 0) continue;
      if (has_static_member(c, im->sym, name, methods)) return im->sym;
    }
  return NULL;
}

static void check_package_name(DrChecker *c, DrUnit *u) {
  if (!u->package) return;
  if (strcmp(u->package, "java") == 0 || strncmp(u->package, "java.", 5) == 0)
    chk_error(c, u->package_pos, "prohibited package name: %s (java is the JDK's)", u->package);
}

void chk_units_resolve(DrChecker *c) {
  for (int i = 0; i < c->prog->nunits; i++) {
    DrUnit *u = c->prog->units[i];
    memset(&c->cur, 0, sizeof c->cur);
    c->cur.unit = u;
    check_package_name(c, u);
    for (int j = 0; j < u->nimports; j++) {
      if (u->imports[j].is_static) resolve_static(c, &u->imports[j]);
      else if (u->imports[j].on_demand) resolve_on_demand(c, &u->imports[j]);
      else resolve_single(c, u, &u->imports[j]);
    }
  }
  memset(&c->cur, 0, sizeof c->cur);
}

/* A class named name that an on-demand import of im (or java.lang's) makes
 * visible: public (or of the file's own package). */
static DrClassSym *on_demand_class(DrChecker *c, const char *pkg, DrClassSym *outer, const char *name) {
  DrClassSym *k = outer ? chk_member_class(c, outer, name) : chk_qualified_class(c, pkg, name);
  return k && chk_class_accessible(c, k) ? k : NULL;
}

DrClassSym *chk_unit_class(DrChecker *c, const char *name) {
  DrUnit *u = chk_cur_unit(c);
  const char *pkg = u ? u->package : NULL;
  DrClassSym *same = chk_name_get(c, NULL, CHK_NS_TYPE, chk_qualify(c, pkg, name));
  if (same && same->decl->unit == u) return same;
  for (int i = 0; u && i < u->nimports; i++) {
    const DrImport *im = &u->imports[i];
    if (im->is_static && im->member && im->sym && strcmp(im->member, name) == 0) {
      DrClassSym *mk = chk_member_class(c, im->sym, name);
      if (mk) return mk;
    }
    if (!im->on_demand && !im->is_static && im->sym && strcmp(im->sym->name, name) == 0) return im->sym;
  }
  if (same) return same;
  DrClassSym *found = NULL;
  for (int i = 0; u && i < u->nimports && !found; i++)
    if (u->imports[i].on_demand) found = on_demand_class(c, u->imports[i].name, u->imports[i].sym, name);
  return found ? found : on_demand_class(c, "java.lang", NULL, name);
}

static bool declares_main(DrChecker *c, DrClassSym *k) {
  for (DrMethodSym *m = chk_methods_named(c, k, "main"); m; m = chk_method(m)->next_named)
    if ((m->mods & DR_MOD_STATIC) && (m->mods & DR_MOD_PUBLIC) && m->ret->kind == TY_VOID && m->nparams == 1 &&
        m->params[0]->kind == TY_ARRAY && m->params[0]->elem == c->t_string)
      return true;
  return false;
}

static DrClassDecl *first_class(DrChecker *c) {
  for (int i = 0; i < c->prog->nclasses; i++) {
    DrClassDecl *d = c->prog->classes[i];
    if (!d->from_prelude && !d->is_interface) return d;
  }
  return NULL;
}

/* The classes that declare main, "A, B and C", and how many. */
static int main_classes(DrChecker *c, const char **names) {
  int n = 0;
  *names = "";
  for (int i = 0; i < c->prog->nclasses; i++) {
    DrClassDecl *d = c->prog->classes[i];
    if (d->from_prelude || !d->sym || !declares_main(c, d->sym)) continue;
    *names = dr_arena_printf(c->arena, "%s%s%s", *names, n ? ", " : "", chk_qualify(c, d->package, d->name));
    n++;
  }
  return n;
}

void chk_find_main(DrChecker *c) {
  DrProgram *prog = c->prog;
  memset(&c->cur, 0, sizeof c->cur);
  DrClassDecl *d = NULL;
  if (prog->main_given) {
    DrClassSym *k = chk_name_get(c, NULL, CHK_NS_TYPE, prog->main_given);
    if (!k) {
      c->cur.unit = prog->nunits ? prog->units[0] : NULL;
      chk_error(c, (DrPos){1, 1}, "could not find or load main class %s (--main names a top-level class of the program)",
                prog->main_given);
      return;
    }
    d = k->decl;
  } else if (prog->nunits == 1) {
    d = first_class(c); /* as `java prog.java` */
    if (!d) {
      c->cur.unit = prog->units[0];
      chk_error(c, (DrPos){1, 1}, "no class declared: a program needs a class with 'public static void main(String[] args)'");
      return;
    }
  } else {
    const char *names;
    int n = main_classes(c, &names);
    c->cur.unit = prog->units[0];
    if (n == 0) {
      chk_error(c, (DrPos){1, 1}, "no class declares 'public static void main(String[] args)'");
      return;
    }
    if (n > 1) {
      chk_error(c, (DrPos){1, 1}, "%d classes declare 'public static void main(String[] args)': %s (choose one with --main CLASS)",
                n, names);
      return;
    }
    for (int i = 0; i < prog->nclasses && !d; i++)
      if (!prog->classes[i]->from_prelude && prog->classes[i]->sym && declares_main(c, prog->classes[i]->sym))
        d = prog->classes[i];
  }
  if (!d || !d->sym) return;
  c->cur.unit = d->unit;
  if (!declares_main(c, d->sym)) {
    chk_error(c, d->pos, "class %s has no method 'public static void main(String[] args)'", d->name);
    return;
  }
  prog->main_decl = d;
}
