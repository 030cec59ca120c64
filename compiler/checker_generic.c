/* Generics for the checker (JLS 4.4-4.9, 8.1.2, 8.4.4): type variables,
 * parameterized, raw and wildcard types, substitution, subtyping of
 * parameterized types and the supertype of a type at a given class.
 *
 * Every generic type is a TY_CLASS whose cls is the class of its erasure
 * (ast.h), so the code that only needs the erasure (the emitter, member
 * lookup, the runtime) works unchanged: a Box<String> is a Box at run
 * time.  The types are canonical like every other: a class's
 * parameterizations hang off its cls->type (insts), wildcards off their
 * bound. */
#include <string.h>

#include "checker_generic.h"

/* ---------------------------------------------------------- type variables */

static DrType *new_type(DrChecker *c) {
  DrType *t = dr_arena_alloc(c->arena, sizeof(DrType));
  t->kind = TY_CLASS;
  return t;
}

static DrTypeVar *new_tvar(DrChecker *c, const char *name, DrPos pos, int index) {
  DrTypeVar *v = dr_arena_alloc(c->arena, sizeof(DrTypeVar));
  v->name = name;
  v->pos = pos;
  v->index = index;
  v->type = new_type(c);
  v->type->tvar = v;
  v->type->cls = c->c_object;
  return v;
}

/* Resolves the bounds of the declared parameters ps in the current
 * context (the variables themselves already exist). */
static void resolve_bounds(DrChecker *c, DrTypeParam *ps, int n) {
  c->gen.in_bounds++;
  for (int i = 0; i < n; i++) {
    DrTypeVar *v = ps[i].sym;
    if (v->bounds_done) continue;
    v->bounds_done = true;
    int nb = ps[i].nbounds ? ps[i].nbounds : 1;
    v->bounds = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)nb);
    v->nbounds = nb;
    v->bounds[0] = c->t_object;
    for (int b = 0; b < ps[i].nbounds; b++) {
      DrType *t = chk_resolve_tref(c, &ps[i].bounds[b]);
      if (t->kind != TY_CLASS || t->wild) {
        if (!chk_is_err(t)) chk_error(c, ps[i].bounds[b].pos, "unexpected type; required: class, found: %s", chk_type_str(c, t));
        t = c->t_object;
      } else if (b > 0 && (t->tvar || !chk_is_interface(t->cls))) {
        chk_error(c, ps[i].bounds[b].pos, "interface expected here");
      } else if (b == 0 && t->tvar && ps[i].nbounds > 1) {
        chk_error(c, ps[i].bounds[1].pos, "a type variable may not be followed by other bounds");
      }
      v->bounds[b] = t;
    }
  }
  /* T extends T, A extends B & B extends A: javac's error, then Object */
  for (int i = 0; i < n; i++) {
    DrType *t = ps[i].sym->type;
    int steps = 0;
    while (t->tvar && t->tvar->nbounds && t->tvar->bounds[0]->tvar && steps <= n) {
      t = t->tvar->bounds[0];
      steps++;
    }
    if (steps > n) {
      chk_error(c, ps[i].pos, "cyclic inheritance involving %s", ps[i].name);
      ps[i].sym->bounds[0] = c->t_object;
    }
  }
  for (int i = 0; i < n; i++) ps[i].sym->type->cls = chk_gen_erasure(c, ps[i].sym->type)->cls;
  c->gen.in_bounds--; /* <E extends Enum<E>>: checked with the class (chk_gen_bridges) */
}

static void declare_tparams(DrChecker *c, DrTypeParam *ps, int n, DrClassSym *k, DrMethodSym *m) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++)
      if (strcmp(ps[i].name, ps[j].name) == 0) {
        const char *where = k ? dr_arena_printf(c->arena, "class %s", k->source_name) : chk_method_sig(c, m);
        chk_error(c, ps[i].pos, "type variable %s is already defined in %s", ps[i].name, where);
      }
    DrTypeVar *v = new_tvar(c, ps[i].name ? ps[i].name : "?", ps[i].pos, i);
    v->owner_cls = k;
    v->owner_meth = m;
    ps[i].sym = v;
  }
}

void chk_gen_class_tvars(DrChecker *c, DrClassSym *k) {
  DrClassDecl *d = k ? k->decl : NULL;
  if (!d || d->ntparams == 0 || d->tparams[0].sym) return;
  declare_tparams(c, d->tparams, d->ntparams, k, NULL);
  DrChkGenState gsaved = c->gen;
  memset(&c->gen, 0, sizeof c->gen);
  c->gen.in_bounds = 1; /* checked with the class's other rules */
  DrChkCtx saved = c->cur;
  memset(&c->cur, 0, sizeof c->cur);
  c->cur.cls = k;
  c->cur.prelude = (k->flags & DR_CLS_SYM_PRELUDE) != 0;
  c->cur.unit = chk_top(k)->decl->unit;
  c->cur.label_base = c->nlabels;
  resolve_bounds(c, d->tparams, d->ntparams);
  c->cur = saved;
  c->gen = gsaved;
}

void chk_gen_method_tvars(DrChecker *c, DrMember *mem, DrMethodSym *m) {
  if (!mem || mem->ntparams == 0 || mem->tparams[0].sym) return;
  declare_tparams(c, mem->tparams, mem->ntparams, NULL, m);
  c->gen.sig = mem;
  resolve_bounds(c, mem->tparams, mem->ntparams);
}

int chk_gen_ntparams(const DrClassSym *k) { return k && k->decl ? k->decl->ntparams : 0; }

DrTypeVar *chk_gen_class_tvar(DrChecker *c, DrClassSym *k, int i) {
  chk_gen_class_tvars(c, k);
  return k->decl->tparams[i].sym;
}

int chk_gen_method_ntparams(const DrMethodSym *m) { return m && m->decl ? m->decl->ntparams : 0; }

/* The type variable a simple name means here, or NULL. */
static DrTypeVar *find_in(DrTypeParam *ps, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (ps[i].sym && strcmp(ps[i].name, name) == 0) return ps[i].sym;
  return NULL;
}

static DrMember *method_decl_of(DrMethodSym *m) {
  while (m && chk_method(m)->lambda_in) m = chk_method(m)->lambda_in;
  return m ? m->decl : NULL;
}

static DrMember *method_decl_here(DrChecker *c) {
  if (c->gen.sig) return c->gen.sig;
  return method_decl_of(c->cur.meth);
}

DrType *chk_gen_find_tvar(DrChecker *c, const char *name, DrPos pos) {
  DrClassSym *sk = c->gen.supers_of; /* class C<T> extends B<T>: C's own T */
  if (sk && sk->decl && sk->decl->ntparams) {
    chk_gen_class_tvars(c, sk);
    DrTypeVar *v = find_in(sk->decl->tparams, sk->decl->ntparams, name);
    if (v) return v->type;
  }
  DrMember *mem = method_decl_here(c);
  if (mem) {
    DrTypeVar *v = find_in(mem->tparams, mem->ntparams, name);
    if (v) return v->type;
  }
  bool is_static = c->cur.is_static || c->gen.static_decl || (c->gen.sig && (c->gen.sig->mods & DR_MOD_STATIC));
  for (DrClassSym *k = c->cur.cls; k; k = k->outer) {
    DrClassDecl *d = k->decl;
    if (d && d->ntparams) {
      chk_gen_class_tvars(c, k);
      DrTypeVar *v = find_in(d->tparams, d->ntparams, name);
      if (v) {
        if (is_static) {
          chk_error(c, pos, "non-static type variable %s cannot be referenced from a static context", name);
          return &c->T->t_error;
        }
        return v->type;
      }
    }
    if (k->is_local) {
      /* a local or anonymous class sees the variables of the method
       * around it, and its class's unless that code is static */
      DrChkClass *ck = chk_class(k);
      DrMember *in = method_decl_of(ck->in_meth);
      DrTypeVar *v = in ? find_in(in->tparams, in->ntparams, name) : NULL;
      if (v) return v->type;
      is_static = ck->in_static;
      continue;
    }
    /* a static nested class does not see its outer class's variables */
    if (k->decl && (k->decl->mods & DR_MOD_STATIC || k->decl->is_interface || k->decl->is_enum || k->decl->is_record))
      is_static = true;
  }
  return NULL;
}

/* ------------------------------------------------------------- the types */

DrType *chk_gen_param_type(DrChecker *c, DrClassSym *k, DrType **args, int n) {
  /* C<T1..Tn> inside C itself is its self type */
  bool self = n == chk_gen_ntparams(k);
  for (int i = 0; i < n && self; i++) self = args[i]->tvar && args[i]->tvar == chk_gen_class_tvar(c, k, i);
  if (self) return k->type;
  for (DrType *t = k->type->insts; t; t = t->next_inst) {
    if (t->is_raw || t->ntargs != n) continue;
    bool same = true;
    for (int i = 0; i < n && same; i++) same = t->targs[i] == args[i];
    if (same) return t;
  }
  DrType *t = new_type(c);
  t->cls = k;
  t->targs = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)n);
  memcpy(t->targs, args, sizeof(DrType *) * (size_t)n);
  t->ntargs = n;
  t->next_inst = k->type->insts;
  k->type->insts = t;
  return t;
}

DrType *chk_gen_raw(DrChecker *c, DrClassSym *k) {
  if (chk_gen_ntparams(k) == 0) return k->type;
  for (DrType *t = k->type->insts; t; t = t->next_inst)
    if (t->is_raw) return t;
  DrType *t = new_type(c);
  t->cls = k;
  t->is_raw = true;
  t->next_inst = k->type->insts;
  k->type->insts = t;
  return t;
}

DrType *chk_gen_wildcard(DrChecker *c, int wild, DrType *bound) {
  if (wild == DR_WILD_ANY || !bound) bound = c->t_object;
  for (DrType *t = bound->insts; t; t = t->next_inst)
    if (t->wild == wild) return t;
  DrType *t = new_type(c);
  t->cls = wild == DR_WILD_EXTENDS && bound->kind == TY_CLASS ? bound->cls : c->c_object;
  t->wild = wild;
  t->bound = bound;
  t->next_inst = bound->insts;
  bound->insts = t;
  return t;
}

bool chk_gen_is_generic(const DrType *t) {
  if (!t) return false;
  if (t->kind == TY_ARRAY) return chk_gen_is_generic(t->elem);
  return t->kind == TY_CLASS && (t->tvar || t->targs || t->wild || chk_gen_ntparams(t->cls) > 0);
}

DrType *chk_gen_erasure(DrChecker *c, DrType *t) {
  if (!t) return t;
  if (t->kind == TY_ARRAY) return chk_array_of(c, chk_gen_erasure(c, t->elem));
  if (t->kind != TY_CLASS) return t;
  if (t->tvar) {
    DrTypeVar *v = t->tvar;
    if (!v->nbounds || v->index < 0) return c->t_object;
    int saved = v->index;
    v->index = -1; /* T extends U, U extends T: reported elsewhere, cut here */
    DrType *e = chk_gen_erasure(c, v->bounds[0]);
    v->index = saved;
    return e;
  }
  if (t->wild) return t->wild == DR_WILD_EXTENDS ? chk_gen_erasure(c, t->bound) : c->t_object;
  return chk_gen_raw(c, t->cls);
}

/* ---------------------------------------------------------- substitution */

DrType *chk_gen_subst(DrChecker *c, DrType *t, const DrChkSubst *s) {
  if (!t || !s || s->n == 0) return t;
  if (t->kind == TY_ARRAY) {
    DrType *e = chk_gen_subst(c, t->elem, s);
    return e == t->elem ? t : chk_array_of(c, e);
  }
  if (t->kind != TY_CLASS) return t;
  if (t->tvar) {
    for (int i = 0; i < s->n; i++)
      if (s->vars[i] == t->tvar) return s->types[i] ? s->types[i] : t;
    return t;
  }
  if (t->wild) {
    if (t->wild == DR_WILD_ANY) return t;
    DrType *b = chk_gen_subst(c, t->bound, s);
    if (b && b->wild) return b; /* ? extends T with T := ? ...: the wildcard itself */
    return b == t->bound ? t : chk_gen_wildcard(c, t->wild, b);
  }
  int n = t->ntargs;
  DrType **args = t->targs;
  if (!args && !t->is_raw && chk_gen_ntparams(t->cls) > 0) { /* the self type */
    n = chk_gen_ntparams(t->cls);
    args = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)n);
    for (int i = 0; i < n; i++) args[i] = chk_gen_class_tvar(c, t->cls, i)->type;
  }
  if (!args) return t;
  DrType **out = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)n);
  bool changed = false;
  for (int i = 0; i < n; i++) {
    out[i] = chk_gen_subst(c, args[i], s);
    changed = changed || out[i] != args[i];
  }
  return changed || args != t->targs ? chk_gen_param_type(c, t->cls, out, n) : t;
}

/* The substitution of k's type variables that t (a type of class k)
 * stands for; false for a raw type. */
static bool class_subst(DrChecker *c, DrType *t, DrChkSubst *s) {
  memset(s, 0, sizeof *s);
  if (t->is_raw) return false;
  if (!t->targs) return true; /* the self type: nothing to replace */
  int n = t->ntargs;
  s->vars = dr_arena_alloc(c->arena, sizeof(DrTypeVar *) * (size_t)n);
  s->types = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)n);
  for (int i = 0; i < n && i < chk_gen_ntparams(t->cls); i++) {
    s->vars[i] = chk_gen_class_tvar(c, t->cls, i);
    s->types[i] = t->targs[i];
    s->n++;
  }
  return true;
}

/* The declared supertypes of k, with their type arguments. */
static int declared_supers(DrChecker *c, DrClassSym *k, DrType **out, int max) {
  int n = 0;
  chk_resolve_supers(c, k);
  DrClassDecl *d = k->decl;
  if (k->super) {
    DrType *st = d && d->extends && d->extends->resolved && d->extends->resolved->kind == TY_CLASS ? d->extends->resolved : NULL;
    out[n++] = st && st->cls == k->super ? st : k->super->type;
  }
  for (int i = 0; i < k->ninterfaces && n < max; i++) {
    DrType *it = NULL;
    for (int j = 0; d && j < d->nimplements && !it; j++)
      if (d->implements[j].resolved && d->implements[j].resolved->kind == TY_CLASS &&
          d->implements[j].resolved->cls == k->interfaces[i])
        it = d->implements[j].resolved;
    out[n++] = it ? it : k->interfaces[i]->type;
  }
  return n;
}

static DrType *as_super(DrChecker *c, DrType *t, DrClassSym *k, int depth) {
  if (!t || t->kind != TY_CLASS || depth > 64) return NULL;
  if (t->tvar) {
    for (int i = 0; i < t->tvar->nbounds; i++) {
      DrType *r = as_super(c, t->tvar->bounds[i], k, depth + 1);
      if (r) return r;
    }
    return depth == 0 && k == c->c_object ? c->t_object : NULL;
  }
  if (t->wild) return as_super(c, t->wild == DR_WILD_EXTENDS ? t->bound : c->t_object, k, depth + 1);
  if (t->cls == k) return t;
  if (!chk_subclass(t->cls, k)) {
    if (k == c->c_object) return c->t_object;
    return NULL;
  }
  if (t->is_raw) return chk_gen_raw(c, k);
  DrChkSubst s;
  class_subst(c, t, &s);
  DrType *sups[64];
  int n = declared_supers(c, t->cls, sups, 64);
  for (int i = 0; i < n; i++) {
    DrType *r = as_super(c, chk_gen_subst(c, sups[i], &s), k, depth + 1);
    if (r) return r;
  }
  return NULL;
}

DrType *chk_gen_as_super(DrChecker *c, DrType *t, DrClassSym *k) { return as_super(c, t, k, 0); }

/* A wildcard type argument where a member's type is read (upper: its
 * upper bound) or written (only its lower bound converts to it). */
static DrType *unwild(DrChecker *c, DrType *a, DrTypeVar *v, int mode) {
  if (!a || !a->wild) return a;
  if (mode == DR_GEN_FN) /* JLS 9.9: a lambda's types come from the bounds */
    return a->wild == DR_WILD_ANY ? (v && v->nbounds ? v->bounds[0] : c->t_object) : a->bound;
  if (mode == DR_GEN_WRITE && a->wild == DR_WILD_SUPER) return a->bound;
  /* capture conversion (JLS 5.1.10): a fresh variable below the upper
   * bound; only null converts to it, and it converts to its bound */
  DrTypeVar *cap = new_tvar(c, "CAP#1", v ? v->pos : (DrPos){0, 0}, 0);
  cap->is_capture = true;
  cap->bounds = dr_arena_alloc(c->arena, sizeof(DrType *));
  cap->bounds[0] = a->wild == DR_WILD_EXTENDS ? a->bound : v && v->nbounds ? v->bounds[0] : c->t_object;
  cap->nbounds = 1;
  cap->bounds_done = true;
  cap->type->cls = chk_gen_erasure(c, cap->bounds[0])->cls;
  return cap->type;
}

DrType *chk_gen_member_type(DrChecker *c, DrType *site, DrClassSym *owner, DrType *t, int mode) {
  if (!t || !site || site->kind != TY_CLASS || chk_gen_ntparams(owner) == 0) return t;
  DrType *st = chk_gen_as_super(c, site, owner);
  if (!st) return t;
  if (st->is_raw) return chk_gen_erasure(c, t);
  DrChkSubst s;
  class_subst(c, st, &s);
  for (int i = 0; i < s.n; i++) s.types[i] = unwild(c, s.types[i], s.vars[i], mode);
  return chk_gen_subst(c, t, &s);
}

/* ------------------------------------------------------------- subtyping */

static bool same_arg(DrType *a, DrType *b) { return a == b; }

/* Type argument containment (JLS 4.5.1): t contains s. */
static bool contains(DrChecker *c, DrType *t, DrType *s) {
  if (same_arg(t, s)) return true;
  if (!t->wild) return false;
  if (t->wild == DR_WILD_ANY) return true;
  if (t->wild == DR_WILD_EXTENDS) {
    DrType *up = s->wild == DR_WILD_EXTENDS ? s->bound : s->wild ? c->t_object : s;
    if (s->wild == DR_WILD_ANY) up = c->t_object;
    if (s->wild == DR_WILD_SUPER) return t->bound == c->t_object;
    return chk_subtype(c, up, t->bound);
  }
  if (s->wild == DR_WILD_SUPER) return chk_subtype(c, t->bound, s->bound);
  if (s->wild) return false;
  return chk_subtype(c, t->bound, s);
}

bool chk_gen_subtype(DrChecker *c, DrType *s, DrType *t, bool *res) {
  if (s->kind != TY_CLASS || t->kind != TY_CLASS) return false;
  if (t->tvar) {
    if (s->tvar) {
      for (int i = 0; i < s->tvar->nbounds; i++)
        if (chk_subtype(c, s->tvar->bounds[i], t)) return *res = true;
    }
    *res = false;
    return true;
  }
  if (s->tvar || s->wild) {
    *res = false;
    if (s->wild) {
      *res = chk_subtype(c, s->wild == DR_WILD_EXTENDS ? s->bound : c->t_object, t);
      return true;
    }
    for (int i = 0; i < s->tvar->nbounds && !*res; i++) *res = chk_subtype(c, s->tvar->bounds[i], t);
    if (!*res && t == c->t_object) *res = true;
    return true;
  }
  if (t->is_raw || chk_gen_ntparams(t->cls) == 0) return false; /* by classes */
  DrType *st = chk_gen_as_super(c, s, t->cls);
  if (!st) {
    *res = false;
    return true;
  }
  if (st->is_raw || st == t) { /* unchecked conversion (javac warns) */
    *res = true;
    return true;
  }
  int n = chk_gen_ntparams(t->cls);
  *res = true;
  for (int i = 0; i < n && *res; i++) {
    DrType *ta = t->targs ? t->targs[i] : chk_gen_class_tvar(c, t->cls, i)->type;
    DrType *sa = st->targs ? st->targs[i] : chk_gen_class_tvar(c, t->cls, i)->type;
    *res = contains(c, ta, sa);
  }
  return true;
}

bool chk_gen_castable(DrChecker *c, DrType *s, DrType *t, bool *res) {
  if (s->kind == TY_CLASS && (s->tvar || s->wild)) {
    *res = chk_castable(c, chk_gen_erasure(c, s), chk_gen_erasure(c, t)) || chk_is_interface(t->cls);
    return true;
  }
  if (t->kind == TY_CLASS && (t->tvar || t->wild)) {
    *res = chk_castable(c, chk_gen_erasure(c, s), chk_gen_erasure(c, t)) || s->kind == TY_CLASS;
    return true;
  }
  if (s->kind == TY_CLASS && t->kind == TY_CLASS && (s->targs || t->targs)) {
    /* provably distinct parameterizations of one class are an error;
     * otherwise the erasures decide (an unchecked cast) */
    DrType *st = chk_gen_as_super(c, s, t->cls);
    if (st && st->targs && t->targs) {
      for (int i = 0; i < st->ntargs && i < t->ntargs; i++) {
        DrType *a = st->targs[i], *b = t->targs[i];
        if (a != b && !a->wild && !b->wild && !a->tvar && !b->tvar) {
          *res = false;
          return true;
        }
      }
    }
    *res = chk_castable(c, chk_gen_erasure(c, s), chk_gen_erasure(c, t));
    return true;
  }
  return false;
}

/* ---------------------------------------------------------------- names */

const char *chk_gen_type_str(DrChecker *c, const DrType *t) {
  if (!t) return "<none>";
  if (t->kind == TY_ARRAY) return dr_arena_printf(c->arena, "%s[]", chk_gen_type_str(c, t->elem));
  if (t->kind != TY_CLASS) return dr_type_name(c->arena, t);
  if (t->tvar) return t->tvar->name;
  if (t->wild == DR_WILD_ANY) return "?";
  if (t->wild)
    return dr_arena_printf(c->arena, "? %s %s", t->wild == DR_WILD_EXTENDS ? "extends" : "super",
                           chk_gen_type_str(c, t->bound));
  int n = t->is_raw ? 0 : t->targs ? t->ntargs : chk_gen_ntparams(t->cls);
  if (n == 0) return t->cls->source_name;
  const char *s = dr_arena_printf(c->arena, "%s<", t->cls->source_name);
  for (int i = 0; i < n; i++) {
    const char *a = t->targs ? chk_gen_type_str(c, t->targs[i]) : t->cls->decl->tparams[i].name;
    s = dr_arena_printf(c->arena, "%s%s%s", s, i ? "," : "", a);
  }
  return dr_arena_printf(c->arena, "%s>", s);
}

DrType *chk_gen_fn_type(DrChecker *c, DrType *t) {
  if (!t || t->kind != TY_CLASS || !t->targs) return t;
  DrType **args = dr_arena_alloc(c->arena, sizeof(DrType *) * (size_t)t->ntargs);
  for (int i = 0; i < t->ntargs; i++)
    args[i] = unwild(c, t->targs[i], chk_gen_class_tvar(c, t->cls, i), DR_GEN_FN);
  return chk_gen_param_type(c, t->cls, args, t->ntargs);
}

DrType *chk_gen_anon_diamond(DrChecker *c, DrClassSym *base, DrType *target) {
  DrType *st = target && target->kind == TY_CLASS ? chk_gen_as_super(c, target, base) : NULL;
  if (!st || st->is_raw || !st->targs) return chk_gen_raw(c, base);
  return chk_gen_fn_type(c, st);
}

DrType *chk_gen_ref_qualifier(DrChecker *c, DrType *q, DrType *first, bool is_new, DrType *target) {
  (void)target;
  (void)is_new;
  if (!q || q->kind != TY_CLASS || q->targs || q->is_raw || chk_gen_ntparams(q->cls) == 0) return q;
  DrType *st = first && first->kind == TY_CLASS ? chk_gen_as_super(c, first, q->cls) : NULL;
  if (st && !st->is_raw) return st->targs ? st : q;
  return chk_gen_raw(c, q->cls);
}

DrType *chk_gen_lub(DrChecker *c, DrType *a, DrType *b, DrClassSym *k) {
  if (chk_gen_ntparams(k) == 0) return k->type;
  DrType *sa = chk_gen_as_super(c, a, k), *sb = chk_gen_as_super(c, b, k);
  return sa && sa == sb ? sa : chk_gen_raw(c, k); /* javac: a wildcard type; raw suffices to read */
}

/* JLS 8.1.5: a class may not be a subtype of two parameterizations of one
 * interface (class B extends A implements Comparable<B>, with A a
 * Comparable<A>). */
static void inherited_args(DrChecker *c, DrClassSym *k, DrType *t, DrType **seen, int *n, int depth) {
  if (!t || t->kind != TY_CLASS || depth > 64 || *n >= 256) return;
  if (chk_gen_ntparams(t->cls) && !t->is_raw) {
    for (int i = 0; i < *n; i++) {
      DrType *o = seen[i];
      if (o->cls != t->cls || o == t) continue;
      if (o->is_raw) return;
      const char *a = "", *b = "";
      for (int j = 0; o->targs && j < o->ntargs; j++) a = dr_arena_printf(c->arena, "%s%s%s", a, j ? "," : "", chk_gen_type_str(c, o->targs[j]));
      for (int j = 0; t->targs && j < t->ntargs; j++) b = dr_arena_printf(c->arena, "%s%s%s", b, j ? "," : "", chk_gen_type_str(c, t->targs[j]));
      chk_error(c, k->decl->pos, "%s cannot be inherited with different arguments: <%s> and <%s>", t->cls->source_name, b, a);
      *n = 256; /* once */
      return;
    }
    seen[(*n)++] = t;
  }
  DrChkSubst s;
  if (!class_subst(c, t, &s)) return;
  DrType *sups[64];
  int ns = declared_supers(c, t->cls, sups, 64);
  for (int i = 0; i < ns; i++) inherited_args(c, k, chk_gen_subst(c, sups[i], &s), seen, n, depth + 1);
}

void chk_gen_check_inherited_args(DrChecker *c, DrClassSym *k) {
  DrType *seen[256];
  int n = 0;
  inherited_args(c, k, k->type, seen, &n, 0);
}
