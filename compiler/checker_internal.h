/* The type checker's internal interface, shared by compiler/checker*.c.
 *
 * The checker runs in phases over the whole program (checker.c):
 *   1. class table: a DrClassSym per class, nested ones included;
 *   2. supertypes, with cycle detection;
 *   3. members: field and method signatures, implicit constructors, the
 *      <clinit>/<instinit> pseudo-methods;
 *   4. class-level rules: overriding, abstract methods, modifiers;
 *   5. bodies: initializers, methods, constructors (checker_stmt.c,
 *      checker_expr.c, checker_ops.c), each followed by the flow pass
 *      (checker_flow.c: definite assignment and reachability);
 *   6. constructor-call cycles and the main method.
 * Symbols are allocated inside slightly larger "Chk" records so that the
 * checker can keep private bookkeeping next to the public DrXxxSym without
 * growing ast.h: the public struct is the first member, so a pointer to it
 * converts back with the chk_xxx() helpers below. */
#ifndef DR_CHECKER_INTERNAL_H
#define DR_CHECKER_INTERNAL_H

#include "../vm/hashidx.h"
#include "compile.h"

typedef struct {
  DrClassSym sym;
  int super_state;     /* 0 unresolved, 1 resolving (cycle detection), 2 done */
  bool cyclic;         /* reported as part of an inheritance cycle */
  bool members_done;
  DrClassSym *top;     /* the top-level class of its nest (private access) */
  /* a local or anonymous class: the enclosing code's locals it sees are
   * the scope entries [scope_lo, scope_hi); those it uses are captured */
  int scope_lo, scope_hi;
  DrLocalSym **captured;  /* the locals behind sym.captures, in order */
  int captured_cap;
  bool complete;          /* its body is checked: its captures are known */
  DrExpr **pending;       /* creations inside its own body, before complete */
  int npending, pending_cap;
  int nlambdas;           /* lambda$...$N numbers given out in it */
  int nsynthetic;         /* $$Lambda$N numbers given out in it */
  bool is_fn;             /* a lambda's or method reference's class */
  DrMethodSym *in_meth;   /* a local class: the method whose code declares it */
  bool in_static;         /* ... in a static context */
  bool static_local;      /* a local interface, enum or record: captures nothing */
} DrChkClass;

typedef struct {
  DrFieldSym sym;
  int index;           /* declaration order in the owner (forward references) */
  int init_state;      /* 0 unchecked, 1 checking, 2 checked */
  bool is_interface_const;
  int track_pos;       /* a blank final: its position in its class's DrChkTrack */
} DrChkField;

typedef struct {
  DrMethodSym sym;
  DrMethodSym *next_named;  /* the owner's next method of the same name (checker_index.c) */
  int locals_cap;
  DrMethodSym *ctor_target; /* this(...) target, for recursion detection */
  int visit;                /* constructor-cycle walk state */
  DrMethodSym *lambda_in;   /* a lambda's method: the method the lambda is in */
  bool is_bridge;           /* a bridge method (checker_bridge.c): no call names it */
} DrChkMethod;

typedef struct {
  DrLocalSym sym;
  bool blank_final;    /* final without initializer: flow checks assignments */
  bool is_param;
  bool is_const;       /* a constant variable (final, constant initializer) */
  DrConst cval;
  int scope_idx;       /* its entry of the scope stack */
  DrClassSym *local_class; /* a scope marker for a local class ("class Name") */
  bool not_ef;         /* assigned where it may already hold a value (flow) */
  DrPos *cap_pos;      /* where a lambda or inner class uses it (JLS 4.12.4) */
  bool *cap_lambda;
  int ncap, cap_cap;
  bool var_pending;    /* `var x = init`: init is being checked, x has no type yet */
  bool is_binding;     /* a pattern's binding variable: assigned by its test */
  bool is_resource;    /* a try-with-resources resource */
} DrChkLocal;

static inline DrChkClass *chk_class(DrClassSym *s) { return (DrChkClass *)s; }
static inline DrChkField *chk_field(DrFieldSym *s) { return (DrChkField *)s; }
static inline DrChkMethod *chk_method(DrMethodSym *s) { return (DrChkMethod *)s; }
static inline DrChkLocal *chk_local(DrLocalSym *s) { return (DrChkLocal *)s; }

/* Blank final fields tracked by the flow pass (JLS 16.8/16.9): the
 * static ones through the static initializers, the instance ones through
 * the instance initializers and then each constructor. */
typedef struct {
  DrFieldSym **fields;
  int n;
  bool *da, *pa;       /* state between initializer blocks, per field */
} DrChkTrack;

/* What the code being checked is: saved and restored around the lazy
 * checking of a field initializer (constant variables may be needed before
 * their own class's bodies are checked). */
typedef struct {
  DrClassSym *cls;       /* the class whose code this is */
  DrMethodSym *meth;     /* method, constructor or <clinit>/<instinit> */
  bool is_static;        /* static context: no this */
  bool in_ctor;          /* constructor body */
  bool in_init;          /* initializer code (field initializers, blocks) */
  bool in_ctor_call;     /* arguments of this(...)/super(...) */
  int field_limit;       /* initializer code: fields of cls at index >= this
                            are forward references (-1: no check) */
  int scope_base;        /* first visible entry of the scope stack */
  int label_base;        /* first visible entry of the label stack */
  int loop_depth;        /* enclosing loops (continue) */
  int break_depth;       /* enclosing loops and switches (break) */
  bool prelude;          /* drvm's library: sees every prelude class */
  int capture_base;      /* locals below this entry belong to the code around
                            a local class or lambda: using one captures it */
  int decl_base;         /* a new local may not share a name with the entries
                            from here on */
  struct DrChkLambda *lambda; /* the lambda whose body this is, or NULL */
  struct DrChkSwitchExpr *swx; /* the innermost switch expression around the code */
  DrUnit *unit;          /* the file, where cls does not say (NULL: cls's) */
} DrChkCtx;

/* A lambda whose body is being checked (checker_lambda.c). */
typedef struct DrChkLambda {
  DrMethodSym *meth;     /* lambda$m$N: the body, in the enclosing class */
  DrLocalSym **orig;     /* the enclosing locals it captures ... */
  DrLocalSym **params;   /* ... and the parameters of meth they arrive in */
  int ncaps, cap, pcap;
} DrChkLambda;

/* A switch expression being checked: its result expressions so far. */
typedef struct DrChkSwitchExpr {
  DrExpr **results;
  int n, cap;
} DrChkSwitchExpr;

/* What a name names in a class (or, owner NULL, at top level): the
 * checker's namespaces (checker_index.c). */
typedef enum {
  CHK_NS_TYPE,         /* a top-level class of the user's program, by qualified name */
  CHK_NS_PRELUDE_TYPE, /* a top-level class of the prelude */
  CHK_NS_NESTED,       /* a member class of owner */
  CHK_NS_FIELD,
  CHK_NS_METHOD,       /* constructors are "<init>" */
} DrChkNs;

typedef struct {
  const void *owner;
  DrChkNs ns;
  const char *name;
  void *first, *last;  /* the symbol; methods: the first and last overload */
} DrChkName;

/* Generics' state (checker_generic.h). */
typedef struct {
  DrMember *sig;       /* the method whose signature is being resolved */
  DrType *target;      /* the type the expression being checked is to have (inference) */
  DrType *site;        /* overload resolution: the receiver's type */
  DrExpr *call;        /* ... the call (explicit type arguments) */
  DrMethodSym *inst_m; /* ... the method whose type variables inst holds */
  void *inst;          /* ... (a DrChkSubst) */
  DrClassSym *supers_of; /* the class whose supertypes are being resolved */
  bool static_decl;    /* a static field's type is being resolved */
  int in_bounds;       /* type parameters' bounds are being resolved */
  int keep_casts;      /* a lambda whose body's type infers a variable: its
                          erased results keep their types (chk_gen_relax) */
} DrChkGenState;

typedef struct DrChecker {
  DrArena *arena;
  DrDiagList *diags;
  DrTypes *T;
  DrProgram *prog;
  DrClassSym **classes;  /* every class, outer before nested */
  int nclasses, classes_cap;
  /* well-known prelude classes (NULL if the prelude lacks them) */
  DrClassSym *c_object, *c_string, *c_throwable, *c_assertion_error, *c_enum, *c_record;
  DrType *t_object, *t_string;
  DrChkCtx cur;
  DrLocalSym **scope;    /* visible locals, innermost last */
  int nscope, scope_cap;
  int *scope_prev;       /* per scope entry: the entry of the same name it shadows, or -1 */
  int scope_prev_cap;
  DrHashIdx scope_idx;   /* a name -> its innermost scope entry */
  DrStmt **labels;       /* the labeled statements around the code being checked */
  int nlabels, labels_cap;
  DrChkName *names;      /* what each class's names name (checker_index.c) */
  int nnames, names_cap;
  DrHashIdx name_idx;    /* (owner, namespace, name) -> entry of names */
  int errors;
  /* set just before checking an assignment's (or ++/--'s) target E_NAME /
   * E_FIELD_ACCESS: a variable is wanted, not its constant value */
  bool want_lvalue;
  bool simple_assign;    /* ... and the assignment is a plain `=` */
  DrChkGenState gen;
} DrChecker;

/* checker.c */
void chk_error(DrChecker *c, DrPos pos, const char *fmt, ...) DR_PRINTF(3, 4);
DrLocalSym *chk_declare_local(DrChecker *c, const char *name, DrType *type, DrPos pos, bool is_final,
                              bool blank);
DrLocalSym *chk_hidden_local(DrChecker *c, const char *name, DrType *type, DrPos pos);
void chk_field_initializer(DrChecker *c, DrFieldSym *f);
/* A local or anonymous class (outer: the class whose code declares it):
 * its symbol, not yet in any namespace. */
DrClassSym *chk_declare_local_class(DrChecker *c, DrClassDecl *d, const char *binary_name);
/* The class phases (supertypes ... bodies) for a local class, now. */
void chk_local_class_phases(DrChecker *c, DrClassSym *k, DrMethodSym *anon_super);
DrChkMethod *chk_new_method(DrChecker *c, DrClassSym *k, const char *name, unsigned mods, DrPos pos);
/* A parameter of m that no scope sees (synthetic methods). */
DrLocalSym *chk_param_local(DrChecker *c, DrMethodSym *m, const char *name, DrType *type, DrPos pos);
bool chk_is_interface(const DrClassSym *cls);
void chk_resolve_supers(DrChecker *c, DrClassSym *cls);
DrClassSym *chk_top(DrClassSym *cls);
const char *chk_method_sig(DrChecker *c, const DrMethodSym *m);
/* "method main(String[])", "constructor A(int)"...: where the code being checked is (javac's words). */
const char *chk_method_where(DrChecker *c);

/* checker_index.c */
void *chk_name_get(DrChecker *c, const void *owner, DrChkNs ns, const char *name);
/* Names sym unless the name already names something there. */
void chk_name_put(DrChecker *c, const void *owner, DrChkNs ns, const char *name, void *sym);
void chk_index_method(DrChecker *c, DrMethodSym *m);
/* k's first own method of that name; the others follow by next_named. */
DrMethodSym *chk_methods_named(DrChecker *c, DrClassSym *k, const char *name);
void chk_names_free(DrChecker *c);
DrLocalSym *chk_find_local(DrChecker *c, const char *name);
void chk_scope_push(DrChecker *c, DrLocalSym *l);
/* Leaves the scopes opened since the scope had `to` entries. */
void chk_scope_pop(DrChecker *c, int to);

/* checker_types.c */
void chk_init_types(DrChecker *c);
DrType *chk_array_of(DrChecker *c, DrType *elem);
const char *chk_type_str(DrChecker *c, const DrType *t);
bool chk_is_prim(const DrType *t);
bool chk_is_numeric(const DrType *t);
bool chk_is_integral(const DrType *t);
bool chk_is_ref(const DrType *t);
bool chk_is_err(const DrType *t);
bool chk_is_string(DrChecker *c, const DrType *t);
bool chk_subclass(const DrClassSym *a, const DrClassSym *b);
bool chk_subtype(DrChecker *c, DrType *s, DrType *t);
bool chk_prim_widens(const DrType *s, const DrType *t);
bool chk_const_fits(const DrExpr *e, const DrType *t);
bool chk_invocation_conv(DrChecker *c, DrType *s, DrType *t);
bool chk_castable(DrChecker *c, DrType *s, DrType *t);
DrType *chk_unary_promote(DrChecker *c, DrType *t);
DrType *chk_binary_promote(DrChecker *c, DrType *a, DrType *b);
void chk_coerce(DrChecker *c, DrExpr *e, DrType *t);
bool chk_assign_to(DrChecker *c, DrExpr *e, DrType *t);
void chk_set_const(DrChecker *c, DrExpr *e, DrType *t, DrConst v);
DrConst chk_const_cast(DrChecker *c, DrConst v, DrType *t);
bool chk_fold_unary(DrChecker *c, int op, DrConst a, DrType *t, DrConst *out);
bool chk_fold_binary(DrChecker *c, int op, DrType *optype, DrConst a, DrConst b, DrConst *out);
DrConst chk_const_concat(DrChecker *c, DrConst a, DrConst b);
bool chk_const_equal(DrConst a, DrConst b);

/* checker_box.c: boxing and unboxing */
void chk_box_init(DrChecker *c);
DrType *chk_unboxed_type(DrChecker *c, const DrType *t); /* Integer -> int; NULL if no wrapper */
DrType *chk_boxed_type(DrChecker *c, const DrType *prim);  /* int -> Integer */
/* Unboxes e in place if it is a box; its (primitive or unchanged) type. */
DrType *chk_unbox_operand(DrChecker *c, DrExpr *e);
/* Invocation conversion with boxing (JLS 5.3, loose). */
bool chk_loose_conv(DrChecker *c, DrType *s, DrType *t);
/* The boxing and unboxing conversions of assignment (JLS 5.2), applied to e. */
bool chk_assign_boxing(DrChecker *c, DrExpr *e, DrType *t);
/* A cast that boxes or unboxes (JLS 5.5): target converted so that the
 * cast left is a plain primitive or reference cast; false if not one. */
bool chk_cast_boxing(DrChecker *c, DrExpr *target, DrType *t);
/* The operands of a binary operator unboxed where JLS 15 says so. */
void chk_unbox_binary(DrChecker *c, DrExpr *e);
/* The type of cond ? lhs : rhs (JLS 15.25), NULL if none. */
DrType *chk_cond_type(DrChecker *c, DrExpr *e);

/* checker_annot.c: the annotations of a class, its members and their
 * parameters; of a local variable declaration. */
void chk_class_annotations(DrChecker *c, DrClassSym *k);
void chk_local_annotations(DrChecker *c, const DrStmt *s);

/* checker_units.c */
const char *chk_qualify(DrChecker *c, const char *pkg, const char *name);
/* The file of the code being checked (NULL: the prelude's, or none). */
DrUnit *chk_cur_unit(DrChecker *c);
/* The class whose static method (methods) or field named name a static
 * import of the current file brings in scope: single imports first. */
DrClassSym *chk_static_import(DrChecker *c, const char *name, bool methods);
void chk_units_check_static(DrChecker *c);
/* checker_sealed.c: who may extend a sealed class, as javac checks it */
void chk_sealed_rules(DrChecker *c, DrClassSym *k);
const char *chk_package_of(DrClassSym *k);
bool chk_same_package(DrChecker *c, DrClassSym *k);
bool chk_class_accessible(DrChecker *c, DrClassSym *k);
void chk_report_class_access(DrChecker *c, DrPos pos, DrClassSym *k);
/* Whether pkg is a package of the program's own (or a prefix of one). */
bool chk_user_package(DrChecker *c, const char *pkg);
/* Resolves every file's imports and checks its package. */
void chk_units_resolve(DrChecker *c);
/* A simple class name at top level of the current file (JLS 6.4.1). */
DrClassSym *chk_unit_class(DrChecker *c, const char *name);
/* Sets prog->main_decl (compile.h's dr_check). */
void chk_find_main(DrChecker *c);

/* checker_lookup.c */
DrType *chk_resolve_tref(DrChecker *c, DrTypeRef *tref);
DrClassSym *chk_find_class(DrChecker *c, const char *name, bool *is_package);
DrClassSym *chk_member_class(DrChecker *c, DrClassSym *cls, const char *name);
DrClassSym *chk_qualified_class(DrChecker *c, const char *pkg, const char *name);
bool chk_is_package(DrChecker *c, const char *pkg);
DrFieldSym *chk_lookup_field(DrChecker *c, DrClassSym *cls, const char *name);
bool chk_accessible(DrChecker *c, DrClassSym *owner, unsigned mods);
DrMethodSym *chk_resolve_call(DrChecker *c, DrPos pos, DrClassSym *cls, const char *name, DrExpr **args,
                              int nargs, bool ctor, bool *found_name);
bool chk_has_method_named(DrChecker *c, DrClassSym *cls, const char *name);
/* Whether a call of m with these arguments is a variable arity
 * invocation: its trailing arguments go into a new array (chk_pack_varargs). */
bool chk_needs_packing(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs);
DrMethodSym *chk_find_method_sig(DrChecker *c, DrClassSym *cls, const char *name, DrType **params, int nparams);

/* checker_expr.c */
DrType *chk_expr(DrChecker *c, DrExpr *e);
DrType *chk_expr_q(DrChecker *c, DrExpr *e);
DrType *chk_value(DrChecker *c, DrExpr *e);
void chk_condition(DrChecker *c, DrExpr *e);
void chk_init_expr(DrChecker *c, DrExpr *e, DrType *t);
void chk_args(DrChecker *c, DrExpr **args, int nargs);
void chk_convert_args(DrChecker *c, DrMethodSym *m, DrExpr **args, int nargs);
/* Converts the arguments of a call of m to its parameter types; for a
 * variable arity invocation, first replaces the trailing arguments by
 * `new T[] {...}` of them (JLS 15.12.4.2). */
void chk_call_args(DrChecker *c, DrMethodSym *m, DrExpr ***args, int *nargs, DrPos pos);
DrExpr *chk_new_this(DrChecker *c, DrPos pos);
const char *chk_arg_types(DrChecker *c, DrExpr **args, int nargs);

/* checker_ops.c */
DrType *chk_unary(DrChecker *c, DrExpr *e);
DrType *chk_incdec(DrChecker *c, DrExpr *e);
DrType *chk_binary(DrChecker *c, DrExpr *e);
DrType *chk_assign(DrChecker *c, DrExpr *e);
DrType *chk_cond_op(DrChecker *c, DrExpr *e);
/* The most specific superclass of both (object if either is an interface). */
DrClassSym *chk_common_superclass(DrClassSym *a, DrClassSym *b, DrClassSym *object);
DrType *chk_cast(DrChecker *c, DrExpr *e);
DrType *chk_instanceof(DrChecker *c, DrExpr *e);
bool chk_check_lvalue(DrChecker *c, DrExpr *t, bool compound);

/* checker_nested.c */
/* The innermost enclosing instance (this, this.this$0, ...) that is a
 * target; NULL in a static context or if there is none. */
DrExpr *chk_outer_ref(DrChecker *c, DrClassSym *target, DrPos pos);
DrType *chk_qualified_this(DrChecker *c, DrExpr *e);
/* Local l used by the code being checked: its value there (capturing it
 * into the lambdas and classes in between); records the use. */
DrExpr *chk_capture(DrChecker *c, DrLocalSym *l, DrPos pos);
/* The value of l in the current code, without recording a use. */
DrExpr *chk_local_value(DrChecker *c, DrLocalSym *l, DrPos pos);
/* e creates k (E_NEW): the values of k's hidden constructor parameters. */
void chk_new_hidden(DrChecker *c, DrExpr *e, DrClassSym *k);
DrType *chk_anon_class(DrChecker *c, DrExpr *e, DrType *t);
void chk_local_class_stmt(DrChecker *c, DrStmt *s);
/* Local and anonymous classes under k renamed as javac names them. */
void chk_number_local_classes(DrChecker *c, DrClassSym *k);
DrClassSym *chk_find_local_class(DrChecker *c, const char *name);
/* A constructor's superclass's hidden arguments (m->super_hidden). */
void chk_super_hidden(DrChecker *c, DrMethodSym *m, DrPos pos);
/* Sets the scope of code in class k (its enclosing locals, if local). */
void chk_class_scope(DrChecker *c, DrClassSym *k);
/* After m's flow pass: the captured locals of m that are not
 * effectively final, at each use. */
void chk_check_captures(DrChecker *c, DrMethodSym *m);
DrExpr *chk_new_field_ref(DrChecker *c, DrExpr *target, DrFieldSym *f, DrPos pos);
DrFieldSym *chk_synthetic_field(DrChecker *c, DrClassSym *k, const char *name, DrType *type);

/* checker_lambda.c */
DrType *chk_lambda(DrChecker *c, DrExpr *e, DrType *target);
DrType *chk_method_ref(DrChecker *c, DrExpr *e, DrType *target);
/* The single abstract method of a functional interface, or NULL. */
DrMethodSym *chk_functional_method(DrChecker *c, DrType *t);
bool chk_is_poly(const DrExpr *e);
/* A lambda or method reference where a value of type t is wanted. */
DrType *chk_poly(DrChecker *c, DrExpr *e, DrType *t);
/* Whether a lambda or method reference may have type t (overloading:
 * a functional interface whose method takes as many parameters). */
bool chk_poly_fits(DrChecker *c, DrExpr *e, DrType *t);
/* JLS 15.12.2.5 for an explicitly typed lambda argument e: functional
 * interface s is more specific than t (same parameters, t's method void
 * and s's not). */
bool chk_fn_more_specific(DrChecker *c, DrExpr *e, DrType *s, DrType *t);

/* checker_stmt.c */
bool chk_is_var(const DrTypeRef *t);
void chk_stmt(DrChecker *c, DrStmt *s);
void chk_method_body(DrChecker *c, DrMethodSym *m, DrChkTrack *track);
void chk_init_block(DrChecker *c, DrClassSym *cls, DrMember *mem, int field_limit, DrChkTrack *track);

/* checker_pattern.c */
void chk_pattern_binding(DrChecker *c, DrExpr *e, DrType *s, DrType *t);
void chk_push_bindings(DrChecker *c, DrExpr *e, bool when_true);
bool chk_stmt_abrupt(const DrStmt *s);
bool chk_stmt_breaks(const DrStmt *s);
void chk_if_bindings_after(DrChecker *c, DrStmt *s);
void chk_loop_bindings_after(DrChecker *c, DrStmt *s);

/* checker_switch.c */
void chk_switch(DrChecker *c, DrStmt *s);
DrType *chk_switch_expr(DrChecker *c, DrExpr *e);
void chk_yield(DrChecker *c, DrStmt *s);
/* A switch expression in assignment context whose own type does not fit
 * t: its results are converted to t one by one, as javac does. */
bool chk_switch_poly(DrChecker *c, DrExpr *e, DrType *t);

/* checker_flow.c */
/* track: blank final fields to follow (NULL: none).  For an initializer
 * block its state is read and updated; for a constructor it is the state
 * after the instance initializers, and every field must be assigned at the
 * end and at each return. */
void chk_flow_body(DrChecker *c, DrMethodSym *m, DrStmt *body, bool needs_value, bool is_initializer,
                   DrChkTrack *track);

#endif
