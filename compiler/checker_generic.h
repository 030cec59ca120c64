/* Generics for the checker: checker_generic.c (types, substitution,
 * subtyping), checker_gen_use.c (type arguments as written, member
 * access, calls and inference), checker_bridge.c (overriding through
 * erasure and bridge methods). */
#ifndef DR_CHECKER_GENERIC_H
#define DR_CHECKER_GENERIC_H

#include "checker_internal.h"

/* A substitution: vars[i] := types[i]. */
typedef struct {
  DrTypeVar **vars;
  DrType **types;
  int n;
} DrChkSubst;

/* checker_generic.c */
void chk_gen_class_tvars(DrChecker *c, DrClassSym *k);
int chk_gen_ntparams(const DrClassSym *k);
DrTypeVar *chk_gen_class_tvar(DrChecker *c, DrClassSym *k, int i);
int chk_gen_method_ntparams(const DrMethodSym *m);
DrType *chk_gen_param_type(DrChecker *c, DrClassSym *k, DrType **args, int n);
DrType *chk_gen_raw(DrChecker *c, DrClassSym *k);
DrType *chk_gen_wildcard(DrChecker *c, int wild, DrType *bound);
bool chk_gen_is_generic(const DrType *t);
DrType *chk_gen_erasure(DrChecker *c, DrType *t);
DrType *chk_gen_subst(DrChecker *c, DrType *t, const DrChkSubst *s);
/* t's supertype whose class is k (k's raw type for a raw t), or NULL. */
DrType *chk_gen_as_super(DrChecker *c, DrType *t, DrClassSym *k);
/* The type t of a member of owner, as a member of site: owner's type
 * variables replaced by site's arguments.  A wildcard argument gives its
 * upper bound where the member is read (DR_GEN_READ); where a value is
 * stored or passed (DR_GEN_WRITE) its lower bound, and `? extends` a
 * capture only null converts to; a lambda's types (DR_GEN_FN) its bound. */
enum { DR_GEN_READ, DR_GEN_WRITE, DR_GEN_FN };
DrType *chk_gen_member_type(DrChecker *c, DrType *site, DrClassSym *owner, DrType *t, int mode);
/* The type variable a simple name means in the current code, or NULL. */
DrType *chk_gen_find_tvar(DrChecker *c, const char *name, DrPos pos);
/* A method's type parameters, declared (bounds resolved in the current context). */
void chk_gen_method_tvars(DrChecker *c, DrMember *mem, DrMethodSym *m);
/* The non-wildcard parameterization of a functional interface type that
 * a lambda's class implements (JLS 9.9). */
DrType *chk_gen_fn_type(DrChecker *c, DrType *t);
/* new I<>() { ... } of an interface: I as the target type has it (raw
 * without one). */
DrType *chk_gen_anon_diamond(DrChecker *c, DrClassSym *base, DrType *target);
/* The type a method reference's qualifier C stands for (JLS 15.13.1): for
 * C::instanceMethod, the first parameter's parameterization of C; for a
 * generic C::new, C<> as the target's result would infer it; else raw C. */
DrType *chk_gen_ref_qualifier(DrChecker *c, DrType *q, DrType *first, bool is_new, DrType *target);
/* The common supertype of a and b at their common superclass k (?:,
 * switch results): a and b's parameterization of k if it is the same. */
DrType *chk_gen_lub(DrChecker *c, DrType *a, DrType *b, DrClassSym *k);
/* k inherits one generic interface with two different arguments (javac's
 * "cannot be inherited with different arguments"). */
void chk_gen_check_inherited_args(DrChecker *c, DrClassSym *k);
/* Subtyping and casting where generics are involved: true if decided. */
bool chk_gen_subtype(DrChecker *c, DrType *s, DrType *t, bool *res);
bool chk_gen_castable(DrChecker *c, DrType *s, DrType *t, bool *res);
/* A type as javac's messages write it: Box<String>, T, ? extends Shape. */
const char *chk_gen_type_str(DrChecker *c, const DrType *t);

/* checker_gen_use.c */
/* A type reference's arguments applied to class k (or raw k). */
DrType *chk_gen_apply_args(DrChecker *c, DrTypeRef *tref, DrClassSym *k);
/* Checks a type's arguments against their bounds, once everything's declared. */
void chk_gen_check_bounds(DrChecker *c, DrTypeRef *tref);
/* A call of m (e: E_CALL or E_NEW) on a receiver of type site (NULL:
 * none): m's parameter and result types for this call, with the class's
 * and the method's type variables replaced (inferred from the arguments
 * and the target type).  Returns m itself when nothing changes. */
DrMethodSym *chk_gen_instantiate(DrChecker *c, DrExpr *e, DrMethodSym *m, DrType *site);
/* After a call or field read whose declared type's erasure differs from
 * its type here: the cast javac inserts (e becomes an E_CAST). */
void chk_gen_erased_result(DrChecker *c, DrExpr *e, DrType *declared);
/* Hooks of overload resolution (checker_lookup.c): the type parameter i of
 * m has in this call. */
void chk_gen_begin_applicable(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs, bool arity);
DrType *chk_gen_param_for_call(DrChecker *c, DrMethodSym *m, DrType *p);
/* An unchecked cast inserted by chk_gen_erased_result is dropped where
 * the value goes to a type its erasure already has (javac casts to what
 * the context needs). */
void chk_gen_relax(DrChecker *c, DrExpr *e, DrType *t);

/* The enhanced for over an Iterable t (JLS 14.14.2): s becomes the basic
 * for statement it stands for; false if t is not Iterable. */
bool chk_gen_foreach(DrChecker *c, DrStmt *s, DrType *t);

/* Whether t's values carry t at run time (JLS 4.7). */
bool chk_gen_reifiable(const DrType *t);
/* `s instanceof t` with t not reifiable: only where s is a t already. */
bool chk_gen_check_instanceof(DrChecker *c, DrExpr *e, DrType *s, DrType *t);
/* new T[n], new Box<String>[n]: "generic array creation". */
bool chk_gen_check_array_elem(DrChecker *c, DrExpr *e, DrType *t);

/* `new C<>()` without arguments: its type comes from where it stands
 * (an argument: the parameter of the method chosen), as a lambda's does. */
bool chk_gen_is_poly_new(const DrExpr *e);
bool chk_gen_poly_new_fits(DrChecker *c, DrExpr *e, DrType *t);
DrType *chk_gen_poly_new(DrChecker *c, DrExpr *e, DrType *t);

/* checker_bridge.c */
/* Whether m (of class k) has the same parameters as o as a member of k
 * (or as the erasure of o's: JLS 8.4.2). */
bool chk_gen_overrides(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrMethodSym *o);
/* o's result type as m (of class k) overrides it: with k's type arguments,
 * and o's own type variables renamed to m's (<T> T f() overriding <U> U f()). */
DrType *chk_gen_override_ret(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrMethodSym *o);
/* The method of s with m's signature as members of k, or NULL. */
DrMethodSym *chk_gen_find_overridden(DrChecker *c, DrClassSym *k, DrMethodSym *m, DrClassSym *s);
/* The bridge methods k needs, declared and checked. */
void chk_gen_bridges(DrChecker *c, DrClassSym *k);

#endif
