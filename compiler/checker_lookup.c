/* Name resolution for the checker: type names (JLS 6.5.5), member classes,
 * fields (JLS 8.3), accessibility (JLS 6.6) and
 * method resolution with overloading (JLS 15.12.2, without boxing and
 * varargs: phase 1 and 2 coincide). */
#include <string.h>

#include "checker_generic.h"

/* ---------------------------------------------------------- type names */

/* Supertype walks are bounded: a cycle that is still being resolved (and
 * not yet cut) must not hang them. */
static DrClassSym *member_class(DrChecker *c, DrClassSym *cls, const char *name, int depth) {
  if (!cls || depth > 256) return NULL;
  DrClassSym *own = chk_name_get(c, cls, CHK_NS_NESTED, name);
  if (own) return own;
  chk_resolve_supers(c, cls);
  if (cls->super) {
    DrClassSym *k = member_class(c, cls->super, name, depth + 1);
    if (k) return k;
  }
  for (int i = 0; i < cls->ninterfaces; i++) {
    DrClassSym *k = member_class(c, cls->interfaces[i], name, depth + 1);
    if (k) return k;
  }
  return NULL;
}

DrClassSym *chk_member_class(DrChecker *c, DrClassSym *cls, const char *name) {
  return member_class(c, cls, name, 0);
}

/* A simple type name in the current context: member classes of the
 * enclosing classes (innermost first), then the program's top-level
 * classes (which shadow java.lang's), then the prelude's visible classes. */
DrClassSym *chk_find_class(DrChecker *c, const char *name, bool *is_package) {
  if (is_package) *is_package = false;
  bool locals_seen = false;
  for (DrClassSym *k = c->cur.cls; k; k = k->outer) {
    if (!k->outer && strcmp(k->name, name) == 0) return k;
    DrClassSym *m = chk_member_class(c, k, name);
    if (m) return m;
    /* the local classes in scope come between a local class's members
     * and those of the class around it */
    if (k->is_local && !locals_seen) {
      locals_seen = true;
      m = chk_find_local_class(c, name);
      if (m) return m;
    }
  }
  if (!locals_seen) {
    DrClassSym *m = chk_find_local_class(c, name);
    if (m) return m;
  }
  DrClassSym *k = c->cur.prelude ? chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, name) : chk_unit_class(c, name);
  if (k) return k;
  if (is_package) *is_package = chk_is_package(c, name);
  return NULL;
}

/* java.io and drvm are drvm's internals: the prelude sees them, the
 * program does not. */
bool chk_is_package(DrChecker *c, const char *pkg) {
  static const char *const user_pkgs[] = {"java", "java.lang", "java.util", "java.lang.annotation", "java.util.function"};
  static const char *const all_pkgs[] = {"java", "java.lang", "java.util", "java.lang.annotation", "java.io", "drvm",
                                         "java.util.function"};
  int n = c->cur.prelude ? (int)DR_ARRAY_LEN(all_pkgs) : (int)DR_ARRAY_LEN(user_pkgs);
  const char *const *list = c->cur.prelude ? all_pkgs : user_pkgs;
  for (int i = 0; i < n; i++)
    if (strcmp(list[i], pkg) == 0) return true;
  return !c->cur.prelude && chk_user_package(c, pkg);
}

/* The prelude's top-level names are unique (a second one would be
 * reported and renamed), so the class of that name is the only candidate. */
DrClassSym *chk_qualified_class(DrChecker *c, const char *pkg, const char *name) {
  if (!c->cur.prelude) {
    DrClassSym *own = chk_name_get(c, NULL, CHK_NS_TYPE, chk_qualify(c, pkg, name));
    if (own) return own;
  }
  DrClassSym *k = chk_name_get(c, NULL, CHK_NS_PRELUDE_TYPE, name);
  if (!k || !k->decl || !k->decl->package || strcmp(k->decl->package, pkg) != 0) return NULL;
  /* a qualified name reaches java.lang, java.util and java.lang.annotation;
   * java.io and drvm are drvm's internals */
  if (c->cur.prelude || strcmp(pkg, "java.lang") == 0 || strcmp(pkg, "java.util") == 0 ||
      strcmp(pkg, "java.lang.annotation") == 0 || strcmp(pkg, "java.util.function") == 0)
    return k;
  return NULL;
}

static const char *const library_hints[] = {
    "ArrayList", "LinkedList", "List", "HashMap", "TreeMap", "LinkedHashMap", "Map", "HashSet", "TreeSet",
    "LinkedHashSet", "Set", "Scanner", "Arrays", "Collections", "Iterator", "Iterable", "Collection", "Optional",
    "Objects", "Deque", "ArrayDeque", "Queue", "PriorityQueue", "Stack", "Vector", "Comparable", "Comparator", "Function", "Supplier", "Consumer", "Predicate",
    "AtomicInteger", "AtomicLong", "ConcurrentHashMap", "Executors", "ExecutorService", "CountDownLatch",
    "ReentrantLock", "Lock", "Semaphore", "StringBuffer", "Class", "CharSequence", "Cloneable",
    "AutoCloseable", "BufferedReader", "InputStreamReader", "IOException", "PrintStream", "Files", "Path",
    "BigInteger", "BigDecimal", "Void", "Override", "SuppressWarnings", "StringJoiner"};

static void report_unknown_type(DrChecker *c, DrPos pos, const char *name) {
  const char *simple = strrchr(name, '.');
  simple = simple ? simple + 1 : name;
  for (size_t i = 0; i < DR_ARRAY_LEN(library_hints); i++)
    if (strcmp(library_hints[i], simple) == 0) {
      chk_error(c, pos, "cannot find symbol '%s' (DL's library has only the classes listed in docs/language.md)",
                name);
      return;
    }
  chk_error(c, pos, "cannot find symbol '%s'", name);
}

static DrType *prim_named(DrChecker *c, const char *n) {
  DrTypes *T = c->T;
  if (strcmp(n, "int") == 0) return &T->t_int;
  if (strcmp(n, "long") == 0) return &T->t_long;
  if (strcmp(n, "double") == 0) return &T->t_double;
  if (strcmp(n, "boolean") == 0) return &T->t_boolean;
  if (strcmp(n, "char") == 0) return &T->t_char;
  if (strcmp(n, "byte") == 0) return &T->t_byte;
  if (strcmp(n, "short") == 0) return &T->t_short;
  if (strcmp(n, "float") == 0) return &T->t_float;
  if (strcmp(n, "void") == 0) return &T->t_void;
  return NULL;
}

/* Resolves a possibly dotted class name: Outer.Inner chains, or a package
 * prefix (java.util.Random) followed by member classes. */
static DrClassSym *resolve_dotted(DrChecker *c, const char *name) {
  const char *dot = strchr(name, '.');
  if (!dot) return chk_find_class(c, name, NULL);
  char *first = dr_arena_strndup(c->arena, name, (size_t)(dot - name));
  DrClassSym *k = chk_find_class(c, first, NULL);
  const char *rest = dot + 1;
  if (!k) {
    /* package prefix: extend while it names a package */
    const char *pkg = first;
    for (;;) {
      const char *d = strchr(rest, '.');
      char *seg = d ? dr_arena_strndup(c->arena, rest, (size_t)(d - rest)) : (char *)rest;
      if (!chk_is_package(c, pkg)) return NULL;
      k = chk_qualified_class(c, pkg, seg);
      if (k) {
        rest = d ? d + 1 : NULL;
        break;
      }
      if (!d) return NULL;
      pkg = dr_arena_printf(c->arena, "%s.%s", pkg, seg);
      rest = d + 1;
    }
  }
  while (k && rest) {
    const char *d = strchr(rest, '.');
    char *seg = d ? dr_arena_strndup(c->arena, rest, (size_t)(d - rest)) : (char *)rest;
    k = chk_member_class(c, k, seg);
    rest = d ? d + 1 : NULL;
  }
  return k;
}

DrType *chk_resolve_tref(DrChecker *c, DrTypeRef *tref) {
  if (!tref) return &c->T->t_error;
  if (tref->resolved) return tref->resolved;
  DrType *t = NULL;
  if (!tref->name) {
    t = &c->T->t_error;
  } else if (strcmp(tref->name, "var") == 0) {
    /* declarations that may use var resolve it themselves (chk_var_type) */
    chk_error(c, tref->pos, tref->dims ? "'var' is not allowed as an element type of an array" : "'var' is not allowed here");
    t = &c->T->t_error;
  } else {
    t = prim_named(c, tref->name);
    if (!t && !strchr(tref->name, '.')) {
      t = chk_gen_find_tvar(c, tref->name, tref->pos);
      if (t && tref->has_args) {
        chk_error(c, tref->pos, "unexpected type; required: class, found: type parameter %s", tref->name);
        t = &c->T->t_error;
      }
    }
    if (!t) {
      DrClassSym *k = resolve_dotted(c, tref->name);
      if (k && !chk_class_accessible(c, k)) chk_report_class_access(c, tref->pos, k);
      if (k) {
        t = chk_gen_apply_args(c, tref, k);
      } else {
        report_unknown_type(c, tref->pos, tref->name);
        t = &c->T->t_error;
      }
    }
  }
  if (t->kind == TY_VOID && tref->dims > 0) {
    chk_error(c, tref->pos, "'void' type not allowed here");
    t = &c->T->t_error;
  }
  for (int i = 0; i < tref->dims; i++) t = chk_array_of(c, t);
  tref->resolved = t;
  return t;
}

/* -------------------------------------------------------------- access */

/* Private members are accessible within the top-level class that encloses
 * their declaration, package-private ones within their package, protected
 * ones there and in subclasses; the prelude lives in packages of its own. */
bool chk_accessible(DrChecker *c, DrClassSym *owner, unsigned mods) {
  if (!owner) return true;
  if (mods & DR_MOD_PUBLIC) return true;
  if (mods & DR_MOD_PRIVATE) return c->cur.cls && chk_top(c->cur.cls) == chk_top(owner);
  if (c->cur.prelude || chk_same_package(c, owner)) return true;
  if (mods & DR_MOD_PROTECTED) return c->cur.cls && chk_subclass(c->cur.cls, owner);
  return false;
}

/* -------------------------------------------------------------- fields */

static DrFieldSym *lookup_field(DrChecker *c, DrClassSym *cls, const char *name, int depth) {
  if (!cls || depth > 256) return NULL;
  DrFieldSym *own = chk_name_get(c, cls, CHK_NS_FIELD, name);
  if (own) return own;
  chk_resolve_supers(c, cls);
  for (int i = 0; i < cls->ninterfaces; i++) {
    DrFieldSym *f = lookup_field(c, cls->interfaces[i], name, depth + 1);
    if (f) return f;
  }
  return lookup_field(c, cls->super, name, depth + 1);
}

DrFieldSym *chk_lookup_field(DrChecker *c, DrClassSym *cls, const char *name) {
  return lookup_field(c, cls, name, 0);
}

/* ------------------------------------------------------------- methods */

typedef struct {
  DrMethodSym **items;
  int count, cap;
} DrChkMethodList;

static bool same_params(const DrMethodSym *a, const DrMethodSym *b) {
  if (a->nparams != b->nparams) return false;
  for (int i = 0; i < a->nparams; i++)
    if (a->params[i] != b->params[i]) return false;
  return true;
}

static void collect_from(DrChecker *c, DrChkMethodList *out, DrClassSym *k, DrClassSym *start, const char *name) {
  for (DrMethodSym *m = chk_methods_named(c, k, name); m; m = chk_method(m)->next_named) {
    if (m->is_ctor || chk_method(m)->is_bridge) continue;
    if ((m->mods & DR_MOD_PRIVATE) && k != start) continue; /* not inherited */
    if ((m->mods & DR_MOD_STATIC) && chk_is_interface(k) && k != start) continue; /* JLS 8.4.8 */
    bool hidden = false;
    for (int j = 0; j < out->count && !hidden; j++)
      hidden = same_params(out->items[j], m) || chk_gen_overrides(c, start, out->items[j], m);
    if (!hidden) DR_ARENA_PUSH(c->arena, out->items, out->count, out->cap, m);
  }
}

static void collect_interfaces(DrChecker *c, DrChkMethodList *out, DrClassSym *k, DrClassSym *start, const char *name,
                               int depth) {
  if (depth > 64) return;
  chk_resolve_supers(c, k);
  for (int i = 0; i < k->ninterfaces; i++) {
    collect_from(c, out, k->interfaces[i], start, name);
    collect_interfaces(c, out, k->interfaces[i], start, name, depth + 1);
  }
}

/* The methods named `name` that are members of cls (JLS 8.4.8): declared
 * or inherited, overridden ones left out; for interfaces also Object's. */
static DrChkMethodList members_named(DrChecker *c, DrClassSym *cls, const char *name) {
  DrChkMethodList out = {NULL, 0, 0};
  int guard = 0;
  for (DrClassSym *k = cls; k && guard < 256; k = k->super, guard++) {
    chk_resolve_supers(c, k);
    collect_from(c, &out, k, cls, name);
  }
  guard = 0;
  for (DrClassSym *k = cls; k && guard < 256; k = k->super, guard++) collect_interfaces(c, &out, k, cls, name, 0);
  if (chk_is_interface(cls) && c->c_object) collect_from(c, &out, c->c_object, cls, name);
  return out;
}

bool chk_has_method_named(DrChecker *c, DrClassSym *cls, const char *name) {
  return members_named(c, cls, name).count > 0;
}

DrMethodSym *chk_find_method_sig(DrChecker *c, DrClassSym *cls, const char *name, DrType **params, int nparams) {
  for (DrMethodSym *m = chk_methods_named(c, cls, name); m; m = chk_method(m)->next_named) {
    if (m->is_ctor || m->nparams != nparams) continue;
    bool same = true;
    for (int j = 0; j < nparams && same; j++) same = m->params[j] == params[j];
    if (same) return m;
  }
  return NULL;
}

/* The type of m's i-th parameter, with a variable arity parameter
 * expanded (arity true) into as many of its element type as needed. */
static DrType *param_at(const DrMethodSym *m, int i, bool arity) {
  if (arity && m->is_varargs && i >= m->nparams - 1) return m->params[m->nparams - 1]->elem;
  return m->params[i];
}

/* Applicable by strict invocation (JLS 15.12.2.2), by loose invocation
 * (box: 15.12.2.3, with boxing), or (arity) by variable arity invocation
 * (15.12.2.4, with boxing).
 * A lambda or method reference fits a parameter by its shape
 * (chk_poly_fits): its type comes from the method chosen. */
static bool applicable(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs, bool arity, bool box) {
  if (arity ? !m->is_varargs || nargs < m->nparams - 1 : m->nparams != nargs) return false;
  chk_gen_begin_applicable(c, m, args, nargs, arity);
  for (int i = 0; i < nargs; i++) {
    DrType *p = chk_gen_param_for_call(c, m, param_at(m, i, arity));
    if (args[i] && chk_is_poly(args[i])) {
      if (!chk_poly_fits(c, args[i], p)) return false;
    } else if (!args[i] || !(box ? chk_loose_conv(c, args[i]->type, p) : chk_invocation_conv(c, args[i]->type, p))) {
      return false;
    }
  }
  return true;
}

/* m1 is at least as specific as m2 (JLS 15.12.2.5, non-generic) for a
 * call with these nargs arguments (args NULL: none known). */
static bool more_specific(DrChecker *c, DrMethodSym *m1, DrMethodSym *m2, DrExpr **args, int nargs, bool arity) {
  int n = arity ? nargs : m1->nparams;
  if (arity && m1->nparams > n) n = m1->nparams;
  if (arity && m2->nparams > n) n = m2->nparams;
  for (int i = 0; i < n; i++) {
    DrType *p1 = param_at(m1, i, arity), *p2 = param_at(m2, i, arity);
    if (chk_invocation_conv(c, p1, p2)) continue;
    if (!args || i >= nargs || !chk_fn_more_specific(c, args[i], p1, p2)) return false;
  }
  return true;
}

bool chk_needs_packing(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs) {
  return m && m->is_varargs && !applicable(c, m, args, nargs, false, true);
}

static const char *param_list(DrChecker *c, DrMethodSym *m) {
  if (m->nparams == 0) return "no arguments";
  const char *s = "";
  for (int i = 0; i < m->nparams; i++) /* as a member of the receiver's type */
    s = dr_arena_printf(c->arena, "%s%s%s", s, i ? "," : "", chk_type_str(c, chk_gen_param_for_call(c, m, m->params[i])));
  return s;
}

const char *chk_arg_types(DrChecker *c, DrExpr **args, int nargs) {
  const char *s = "";
  for (int i = 0; i < nargs; i++)
    s = dr_arena_printf(c->arena, "%s%s%s", s, i ? "," : "", args[i] ? chk_type_str(c, args[i]->type) : "?");
  return s;
}

static DrMethodSym *most_specific(DrChecker *c, DrChkMethodList *app, DrPos pos, const char *name, bool report,
                                  DrExpr **args, int nargs, bool arity) {
  for (int i = 0; i < app->count; i++) {
    bool best = true;
    for (int j = 0; j < app->count && best; j++)
      if (i != j) best = more_specific(c, app->items[i], app->items[j], args, nargs, arity);
    if (best) return app->items[i];
  }
  if (report) {
    DrMethodSym *a = app->items[0], *b = app->items[1];
    chk_error(c, pos, "reference to %s is ambiguous; both %s %s in %s and %s %s in %s match", name,
              a->is_ctor ? "constructor" : "method", chk_method_sig(c, a), a->owner->source_name,
              b->is_ctor ? "constructor" : "method", chk_method_sig(c, b), b->owner->source_name);
  }
  return app->items[0];
}

/* Selects the method (or constructor) of cls that a call with these
 * (already checked) arguments invokes.  Reports javac's errors; returns
 * NULL if nothing fits.  *found_name tells whether cls has any method of
 * that name (the caller reports `cannot find symbol` otherwise). */
DrMethodSym *chk_resolve_call(DrChecker *c, DrPos pos, DrClassSym *cls, const char *name, DrExpr **args,
                              int nargs, bool ctor, bool *found_name) {
  *found_name = false;
  if (!cls || !name) return NULL;
  DrChkMethodList all = {NULL, 0, 0};
  if (ctor) {
    for (DrMethodSym *m = chk_methods_named(c, cls, "<init>"); m; m = chk_method(m)->next_named)
      if (m->is_ctor) DR_ARENA_PUSH(c->arena, all.items, all.count, all.cap, m);
  } else {
    all = members_named(c, cls, name);
  }
  if (all.count == 0) return NULL;
  *found_name = true;
  bool arg_error = false;
  for (int i = 0; i < nargs; i++)
    if (!args[i] || chk_is_err(args[i]->type)) arg_error = true;
  DrChkMethodList app = {NULL, 0, 0}, hidden = {NULL, 0, 0};
  /* phase 1 (no boxing), phase 2 (boxing), then phase 3 (variable arity):
   * m(long) beats m(Integer) for m(5) */
  bool arity = false;
  for (int phase = 0; phase < 3 && app.count == 0 && hidden.count == 0; phase++) {
    arity = phase == 2;
    for (int i = 0; i < all.count; i++) {
      DrMethodSym *m = all.items[i];
      if (!applicable(c, m, args, nargs, arity, phase > 0)) continue;
      if (chk_accessible(c, m->owner, m->mods)) DR_ARENA_PUSH(c->arena, app.items, app.count, app.cap, m);
      else DR_ARENA_PUSH(c->arena, hidden.items, hidden.count, hidden.cap, m);
    }
  }
  if (app.count == 1) return app.items[0];
  if (app.count > 1) return most_specific(c, &app, pos, ctor ? cls->name : name, !arg_error, args, nargs, arity);
  if (hidden.count > 0) {
    DrMethodSym *m = most_specific(c, &hidden, pos, ctor ? cls->name : name, false, args, nargs, arity);
    const char *what = (m->mods & DR_MOD_PRIVATE) ? "private" : (m->mods & DR_MOD_PROTECTED) ? "protected" : NULL;
    if (what)
      chk_error(c, pos, "%s has %s access in %s", chk_method_sig(c, m), what, m->owner->source_name);
    else
      chk_error(c, pos, "%s is not public in %s; cannot be accessed from outside package", chk_method_sig(c, m),
                m->owner->source_name);
    return m;
  }
  if (arg_error) return NULL;
  const char *argl = chk_arg_types(c, args, nargs);
  if (all.count == 1) {
    DrMethodSym *m = all.items[0];
    const char *kind = chk_is_interface(m->owner) ? "interface" : "class";
    if (ctor)
      chk_error(c, pos, "constructor %s in %s %s cannot be applied to given types; required: %s; found: %s",
                cls->name, kind, m->owner->source_name, param_list(c, m),
                nargs ? argl : "no arguments");
    else
      chk_error(c, pos, "method %s in %s %s cannot be applied to given types; required: %s; found: %s", name, kind,
                m->owner->source_name, param_list(c, m), nargs ? argl : "no arguments");
  } else {
    chk_error(c, pos, "no suitable %s found for %s(%s)", ctor ? "constructor" : "method", ctor ? cls->name : name,
              argl);
  }
  return NULL;
}
