/* Sealed classes and interfaces (JLS 8.1.1.2, 8.1.6, 9.1.1.4): which
 * classes may extend one, checked as javac does.  They change nothing at
 * run time. */
#include "checker_internal.h"

static bool is_sealed(const DrClassSym *k) { return k && k->decl && (k->decl->mods & DR_MOD_SEALED); }

static bool direct_super(const DrClassSym *sub, const DrClassSym *k) {
  if (sub->super == k) return true;
  for (int i = 0; i < sub->ninterfaces; i++)
    if (sub->interfaces[i] == k) return true;
  return false;
}

/* Whether sealed k permits sub: listed in its permits clause or, without
 * one, declared in k's file (JLS 8.1.6). */
static bool permits(DrChecker *c, DrClassSym *k, DrClassSym *sub) {
  DrClassDecl *d = k->decl;
  if (!d->npermits) return sub->decl && sub->decl->unit == d->unit && !sub->is_local;
  for (int i = 0; i < d->npermits; i++) {
    DrType *t = d->permits[i].resolved ? d->permits[i].resolved : chk_resolve_tref(c, &d->permits[i]);
    if (t && t->kind == TY_CLASS && t->cls == sub) return true;
  }
  return false;
}

/* A sealed class's own rules: its permits clause names direct subclasses,
 * and it has some. */
static void check_sealed_decl(DrChecker *c, DrClassSym *k) {
  DrClassDecl *d = k->decl;
  if (!(d->mods & DR_MOD_SEALED) || (d->mods & DR_MOD_FINAL)) { /* final and sealed: reported */
    if (d->npermits && !(d->mods & DR_MOD_SEALED))
      chk_error(c, d->permits[0].pos, "invalid permits clause (class %s must be sealed)", d->name);
    return;
  }
  for (int i = 0; i < d->npermits; i++) {
    DrType *t = chk_resolve_tref(c, &d->permits[i]);
    if (chk_is_err(t)) continue;
    if (t->kind != TY_CLASS || !direct_super(t->cls, k)) {
      chk_error(c, d->permits[i].pos, "invalid permits clause (subclass %s must extend sealed class)",
                t->kind == TY_CLASS && t->cls->decl ? t->cls->decl->name : chk_type_str(c, t));
      return;
    }
  }
  if (d->npermits) return;
  for (int i = 0; i < c->nclasses; i++) {
    DrClassSym *s = c->classes[i];
    if (s != k && s->decl && s->decl->unit == d->unit && direct_super(s, k)) return;
  }
  chk_error(c, d->pos, "sealed class must have subclasses");
}

/* A class with a sealed direct supertype: permitted, and final, sealed or
 * non-sealed (records and enums are final). */
static void check_subclass(DrChecker *c, DrClassSym *k, DrClassSym *s) {
  DrClassDecl *d = k->decl;
  if (k->is_local) {
    chk_error(c, d->pos, "%s classes must not extend sealed classes", d->name && d->name[0] ? "local" : "anonymous");
    return;
  }
  if (!permits(c, s, k)) {
    chk_error(c, d->pos, "class is not allowed to extend sealed class: %s (as it is not listed in its permits clause)",
              s->decl->name);
    return;
  }
  bool final = (d->mods & DR_MOD_FINAL) || d->is_record || d->is_enum;
  if (!final && !(d->mods & (DR_MOD_SEALED | DR_MOD_NON_SEALED)))
    chk_error(c, d->pos, "sealed, non-sealed or final modifiers expected");
}

void chk_sealed_rules(DrChecker *c, DrClassSym *k) {
  DrClassDecl *d = k->decl;
  if (!d || (k->flags & DR_CLS_SYM_PRELUDE)) return;
  check_sealed_decl(c, k);
  bool sealed_super = false;
  if (is_sealed(k->super)) {
    sealed_super = true;
    check_subclass(c, k, k->super);
  }
  for (int i = 0; i < k->ninterfaces && !sealed_super; i++)
    if (is_sealed(k->interfaces[i])) {
      sealed_super = true;
      check_subclass(c, k, k->interfaces[i]);
    }
  if ((d->mods & DR_MOD_NON_SEALED) && !sealed_super)
    chk_error(c, d->pos, "non-sealed modifier not allowed here (%s %s does not have any sealed supertypes)",
              d->is_interface ? "interface" : "class", d->name);
}
