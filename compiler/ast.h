/* The AST: the parser builds it, the checker resolves and annotates it in
 * place, the emitter walks it.  All nodes live in the compilation's arena.
 *
 * Contract between the passes:
 *  - The parser fills the "syntax" fields only.
 *  - The checker fills every "checker:" field, rewrites E_NAME and
 *    E_FIELD_ACCESS into their resolved kinds (E_LOCAL, E_FIELD,
 *    E_STATIC_FIELD, E_ARRAY_LENGTH, E_TYPE), and wraps an expression in
 *    an E_CONVERT node wherever Java applies an implicit primitive
 *    conversion (assignment, method argument, return, binary numeric
 *    promotion, array index/initializer, ?: operands).  After checking,
 *    every expression's type is exactly what its consumer expects, except
 *    for string concatenation operands (any type) and the operands of
 *    compound assignment / ++ / -- (see E_ASSIGN).
 *  - The emitter relies on the checker's annotations only; it never
 *    reports errors on a program the checker accepted.
 */
#ifndef DR_AST_H
#define DR_AST_H

#include "../vm/common.h"
#include "arena.h"

typedef struct {
  int line, col; /* 1-based */
} DrPos;

typedef struct DrType DrType;
typedef struct DrClassSym DrClassSym;
typedef struct DrMethodSym DrMethodSym;
typedef struct DrFieldSym DrFieldSym;
typedef struct DrLocalSym DrLocalSym;
typedef struct DrExpr DrExpr;
typedef struct DrStmt DrStmt;
typedef struct DrClassDecl DrClassDecl;
typedef struct DrParam DrParam;
typedef struct DrTypeVar DrTypeVar;
typedef struct DrTypeRef DrTypeRef;

/* ---------------------------------------------------------------- types */

typedef enum {
  TY_VOID,
  TY_BOOLEAN,
  TY_CHAR,
  TY_BYTE,
  TY_SHORT,
  TY_INT,
  TY_LONG,
  TY_FLOAT,  /* values are doubles holding a float exactly (DrConst.d, lit.d) */
  TY_DOUBLE,
  TY_NULL,   /* the type of `null` */
  TY_CLASS,  /* class or interface: cls */
  TY_ARRAY,  /* elem[] */
  TY_ERROR,  /* after an error: compatible with everything, silences cascades */
} DrTypeKind;

/* Types are canonical: one DrType per distinct type (compare pointers).
 * Generic types (checker_generic.c) are TY_CLASS types whose cls is their
 * erasure's class, so every pass that only needs the erasure (the
 * emitter, member lookup) reads cls as before:
 *  - cls->type of a generic class is its generic self type C<T1..Tn>
 *    (what `this` is in its code);
 *  - a parameterized type C<A1..An> has targs;
 *  - the raw type C has is_raw;
 *  - a type variable has tvar (cls: the class of its erasure);
 *  - a wildcard (only a type argument) has wild and, but for `?`, bound. */
enum { DR_WILD_NONE, DR_WILD_ANY, DR_WILD_EXTENDS, DR_WILD_SUPER };
struct DrType {
  DrTypeKind kind;
  DrClassSym *cls;  /* TY_CLASS */
  DrType *elem;     /* TY_ARRAY */
  DrType *array_of; /* cache of the type this[] */
  DrType **targs;   /* a parameterized type's type arguments */
  int ntargs;
  bool is_raw;
  DrTypeVar *tvar;
  int wild;         /* DR_WILD_*: a wildcard type argument */
  DrType *bound;    /* ... its bound */
  DrType *insts;    /* cls->type: the list of its class's parameterized, raw and wildcard types */
  DrType *next_inst;
};

/* A type as written in source: a (possibly dotted) name plus dimensions,
 * and type arguments (of its last name). */
struct DrTypeRef {
  const char *name; /* "int", "String", "Outer.Inner", "java.util.Random" */
  int dims;         /* number of [] */
  DrPos pos;
  DrType *resolved; /* checker */
  DrTypeRef *args;  /* <A, B>: the type arguments */
  int nargs;
  bool diamond;     /* <> (new C<>(...)) */
  bool has_args;    /* <...> written (args or diamond) */
  int wild;         /* a type argument that is a wildcard: DR_WILD_*; name is
                       its bound's (NULL for ?) */
  bool outer_args;  /* Outer<A>.Inner: arguments on a qualifier */
};

/* A type parameter as declared: <T extends A & B>. */
typedef struct {
  const char *name;
  DrPos pos;
  DrTypeRef *bounds;
  int nbounds;
  DrTypeVar *sym;   /* checker */
} DrTypeParam;

/* A type variable (checker_generic.c). */
struct DrTypeVar {
  const char *name;
  DrPos pos;
  DrType **bounds;  /* at least one: Object when none is written */
  int nbounds;
  DrClassSym *owner_cls;   /* a class's, or ... */
  DrMethodSym *owner_meth; /* a method's or constructor's */
  int index;
  DrType *type;
  bool is_capture;  /* CAP#n of a wildcard: only null converts to it */
  bool bounds_done;
};

/* ------------------------------------------------------------ constants */

/* Compile-time constant values (JLS 15.28). */
typedef struct {
  DrTypeKind kind; /* TY_BOOLEAN/CHAR/BYTE/SHORT/INT: i; TY_LONG: j; TY_FLOAT/DOUBLE: d; TY_CLASS (String): s */
  int64_t j;
  int32_t i;
  double d;
  const uint16_t *s; /* UTF-16 */
  int slen;
} DrConst;

/* ---------------------------------------------------------- expressions */

typedef enum {
  E_INT_LIT,     /* lit.i  (also produced by folding) */
  E_LONG_LIT,    /* lit.j */
  E_DOUBLE_LIT,  /* lit.d */
  E_FLOAT_LIT,   /* lit.d, a float value */
  E_CHAR_LIT,    /* lit.i */
  E_BOOL_LIT,    /* lit.i */
  E_STRING_LIT,  /* lit.s / lit.slen */
  E_NULL_LIT,
  E_NAME,        /* parser: a simple identifier `name` */
  E_FIELD_ACCESS,/* parser: `target.name` (target may be a package/type name chain) */
  E_THIS,
  E_INDEX,       /* target[index] */
  E_CALL,        /* [target.]name(args), super.name(args) */
  E_NEW,         /* new type(args) */
  E_NEW_ARRAY,   /* new elem[dims...][]...: dim_exprs, extra dims in type */
  E_ARRAY_INIT,  /* {elems} (in a declaration or new T[]{...}) */
  E_UNARY,       /* op: '+', '-', '!', '~' */
  E_PREINC, E_PREDEC, E_POSTINC, E_POSTDEC, /* target */
  E_BINARY,      /* lhs op rhs */
  E_ASSIGN,      /* target op= value; op is DR_BIN_NONE for plain '=' */
  E_COND,        /* cond ? lhs : rhs */
  E_CAST,        /* (type) target */
  E_INSTANCEOF,  /* target instanceof type [name]: with a name, a type
                    pattern whose binding variable is local (checker) */
  E_SWITCH,      /* switch expression: sw (an S_SWITCH with is_expr) */
  E_LAMBDA,      /* (params) -> rhs | block; the checker turns it into an E_NEW */
  E_METHOD_REF,  /* target::name ("new" for Class::new); the checker turns it into an E_NEW */
  E_CLASS_LIT,   /* tref.class: the class's Class object (its lock) */
  /* produced by the checker */
  E_LOCAL,       /* local: a local variable or parameter */
  E_FIELD,       /* target.field (target may be an implicit E_THIS) */
  E_STATIC_FIELD,/* field (static); target NULL */
  E_ARRAY_LENGTH,/* target.length */
  E_TYPE,        /* a type name used as a qualifier (Math in Math.PI) */
  E_CONVERT,     /* implicit primitive conversion of target to type */
} DrExprKind;

typedef enum {
  DR_BIN_NONE,
  DR_BIN_ADD, DR_BIN_SUB, DR_BIN_MUL, DR_BIN_DIV, DR_BIN_REM,
  DR_BIN_SHL, DR_BIN_SHR, DR_BIN_USHR,
  DR_BIN_LT, DR_BIN_GT, DR_BIN_LE, DR_BIN_GE, DR_BIN_EQ, DR_BIN_NE,
  DR_BIN_AND, DR_BIN_OR, DR_BIN_XOR, /* & | ^ (int, long or boolean) */
  DR_BIN_LAND, DR_BIN_LOR,           /* && || */
} DrBinOp;

typedef enum {
  DR_CALL_STATIC,    /* static method */
  DR_CALL_VIRTUAL,   /* instance method of a class, dispatched on receiver */
  DR_CALL_INTERFACE, /* instance method declared in an interface */
  DR_CALL_SPECIAL,   /* private instance method or super.m(...): no dispatch */
} DrCallKind;

struct DrExpr {
  DrExprKind kind;
  DrPos pos;
  DrType *type;       /* checker: the expression's type */
  bool is_const;      /* checker: a compile-time constant (JLS 15.28) ... */
  DrConst cval;       /* ... with this value (already converted to type) */

  DrExpr *target;     /* receiver/operand: E_FIELD_ACCESS, E_INDEX, E_CALL,
                         E_UNARY, E_*INC/DEC, E_CAST, E_INSTANCEOF, E_FIELD,
                         E_ARRAY_LENGTH, E_CONVERT, E_ASSIGN (the lvalue) */
  const char *name;   /* E_NAME, E_FIELD_ACCESS, E_CALL */
  int op;             /* E_UNARY: the char; E_BINARY/E_ASSIGN: DrBinOp */
  DrExpr *lhs, *rhs;  /* E_BINARY; E_COND branches; rhs = E_ASSIGN value; E_INDEX: rhs is the index */
  DrExpr *cond;       /* E_COND */
  DrExpr **args;      /* E_CALL, E_NEW args; E_ARRAY_INIT elements; E_NEW_ARRAY dimension exprs */
  int nargs;
  DrTypeRef tref;     /* E_NEW, E_NEW_ARRAY (element type name, dims = total dims), E_CAST, E_INSTANCEOF,
                         E_CLASS_LIT */
  DrTypeRef *targs;   /* E_CALL: explicit type arguments (x.<String>m()) */
  int ntargs;
  DrExpr *init;       /* E_NEW_ARRAY: the {…} of new T[]{…}, else NULL */
  bool is_super;      /* E_CALL: super.name(...) */
  DrExpr *super_of;   /* E_CALL: I.super.name(...): I */
  DrClassDecl *body;  /* E_NEW: an anonymous class's body, else NULL
                         (E_NEW's target: the qualifier of outer.new Inner();
                         E_THIS's target: the qualifier of Outer.this) */
  DrParam *params;    /* E_LAMBDA: the parameters; tref.name NULL when inferred */
  int nparams;
  DrStmt *block;      /* E_LAMBDA: a block body (else rhs is the expression body) */
  DrStmt *sw;         /* E_SWITCH */
  DrPos bind_pos;     /* E_INSTANCEOF with a pattern: the binding's name */
  bool bind_final;    /* ... declared final */
  bool synthetic;     /* E_NEW: an enum constant's creation (parser) */
  DrType **result_types; /* checker: E_SWITCH, its results (args) before conversion */

  union {
    int32_t i;
    int64_t j;
    double d;
    struct { const uint16_t *s; int slen; };
  } lit;              /* literals (parser) */

  /* checker: */
  DrLocalSym *local;  /* E_LOCAL */
  DrFieldSym *field;  /* E_FIELD, E_STATIC_FIELD */
  DrMethodSym *method;/* E_CALL (the selected overload), E_NEW (the constructor) */
  DrCallKind call_kind; /* E_CALL */
  DrExpr **hidden;    /* E_NEW: the values of the class's hidden constructor
                         parameters (DrClassSym.outer_this, then captures),
                         evaluated in the creating code before args */
  int nhidden;
  DrType *op_type;    /* E_BINARY: the promoted operand type the operator works in
                         (for comparisons, the operand type; for DR_BIN_ADD with a String
                         result, the String type: string concatenation).
                         E_ASSIGN with op: the type the operation is done in (String for +=
                         on a String); the emitter converts target to op_type, applies op
                         with value (already converted by the checker to op_type, or to int
                         for shifts), and converts back to the target's type (narrowing).
                         E_PREINC etc.: NULL (the target's own type is used). */
};

/* An annotation (JLS 9.7): its arguments are skipped, not checked. */
typedef struct {
  const char *name;   /* as written: "Override", "java.lang.Deprecated" */
  DrPos pos;          /* of the '@' */
} DrAnnotation;

/* ----------------------------------------------------------- statements */

typedef enum {
  S_BLOCK,
  S_LOCAL,      /* type name = init, name2 = init2 ...; */
  S_EXPR,
  S_IF,
  S_WHILE,
  S_DO,
  S_FOR,
  S_FOREACH,
  S_BREAK,
  S_CONTINUE,
  S_RETURN,
  S_SWITCH,
  S_SYNC,       /* synchronized (expr) body */
  S_THROW,
  S_TRY,
  S_ASSERT,     /* assert expr [: expr2]; */
  S_CTOR_CALL,  /* this(args); or super(args); as a constructor's first statement */
  S_EMPTY,
  S_CLASS,      /* a local class declaration: always an error in DL */
  S_YIELD,      /* yield expr; (the value of the enclosing switch expression) */
  S_LABELED,    /* label: body (JLS 14.7) */
} DrStmtKind;

typedef struct {
  const char *name;
  DrPos pos;
  int extra_dims;     /* int a[] = ... */
  DrExpr *init;       /* may be NULL; an E_ARRAY_INIT for `= {…}` */
  DrLocalSym *sym;    /* checker */
} DrDeclarator;

typedef struct {
  DrExpr **labels;    /* case constants; empty for default */
  int nlabels;
  bool is_default;
  bool arrow;         /* case ... -> rule: body is one statement (an
                         expression statement, a yield of the switch
                         expression's value, a block or a throw), no fall-through */
  DrStmt **body;      /* statements after the labels */
  int nbody;
  DrPos pos;
  int32_t *values;    /* checker: label values (String labels: see switch_on_string) */
} DrSwitchCase;

typedef struct {
  DrTypeRef *types;   /* catch (A | B e): several types */
  int ntypes;
  const char *name;
  DrPos pos;
  DrStmt *body;
  DrLocalSym *sym;    /* checker */
} DrCatch;

struct DrStmt {
  DrStmtKind kind;
  DrPos pos;
  DrStmt **stmts;     /* S_BLOCK; S_FOR init statements (S_LOCAL or S_EXPR) */
  int nstmts;
  DrExpr *expr;       /* S_EXPR, S_IF/S_WHILE/S_DO/S_FOR cond (may be NULL in for),
                         S_RETURN value, S_SWITCH selector, S_SYNC lock, S_THROW,
                         S_ASSERT cond, S_FOREACH iterable */
  DrExpr *expr2;      /* S_ASSERT message */
  DrStmt *body;       /* loops, S_IF then, S_SYNC, S_TRY block */
  DrStmt *else_body;  /* S_IF */
  DrExpr **updates;   /* S_FOR update expressions */
  int nupdates;
  /* S_LOCAL, and S_FOREACH's variable (one declarator) */
  DrTypeRef tref;
  bool is_final;
  bool is_resource;   /* S_LOCAL: a try-with-resources resource (AutoCloseable) */
  DrDeclarator *decls;
  int ndecls;
  DrAnnotation *annots; /* S_LOCAL */
  int nannots;
  /* S_SWITCH */
  DrSwitchCase *cases;
  int ncases;
  bool switch_on_string; /* checker: selector is a String */
  DrMethodSym *switch_ordinal; /* checker: selector is an enum: Enum.ordinal(),
                                  and the labels' values are ordinals */
  bool is_expr;       /* the body of a switch expression (E_SWITCH) */
  /* S_TRY */
  DrCatch *catches;
  int ncatches;
  DrStmt *finally_body;
  /* S_CTOR_CALL */
  bool is_super;
  DrExpr **args;
  int nargs;
  DrMethodSym *ctor;  /* checker: S_CTOR_CALL's constructor; S_ASSERT: the
                         AssertionError constructor to call with expr2 (or the
                         no-argument one) */
  /* S_CLASS */
  DrClassDecl *class_decl;
  /* S_LABELED: its label; S_BREAK / S_CONTINUE: the label named, or NULL */
  const char *label;
  DrStmt *target;     /* checker: a labeled break's or continue's S_LABELED */
  /* checker: S_FOREACH hidden locals (array copy, index) */
  DrLocalSym *hidden_array, *hidden_index;
  DrPos end_pos;      /* S_BLOCK: its closing brace (parser; the checker
                         reports "missing return statement" there) */
};

/* --------------------------------------------------------- declarations */

enum {
  DR_MOD_PUBLIC = 1 << 0,
  DR_MOD_PRIVATE = 1 << 1,
  DR_MOD_PROTECTED = 1 << 2,
  DR_MOD_STATIC = 1 << 3,
  DR_MOD_FINAL = 1 << 4,
  DR_MOD_ABSTRACT = 1 << 5,
  DR_MOD_NATIVE = 1 << 6,
  DR_MOD_SYNCHRONIZED = 1 << 7,
  DR_MOD_VOLATILE = 1 << 8,
  DR_MOD_TRANSIENT = 1 << 9,
  DR_MOD_STRICTFP = 1 << 10,
  DR_MOD_DEFAULT = 1 << 11, /* interface default method: rejected */
  DR_MOD_HIDDEN = 1 << 12,  /* synthetic: a lambda's or method reference's
                               forwarding method, left out of stack traces as
                               the JVM leaves out its lambda forms */
  DR_MOD_SEALED = 1 << 13,     /* sealed class or interface (JLS 8.1.1.2) */
  DR_MOD_NON_SEALED = 1 << 14, /* non-sealed */
};

struct DrParam {
  DrTypeRef tref;
  const char *name;
  DrPos pos;
  bool is_final;
  bool is_varargs;    /* T... name (the last parameter) */
  DrAnnotation *annots;
  int nannots;
  DrLocalSym *sym;    /* checker */
};

typedef enum {
  M_FIELD,       /* one field declaration statement (several declarators) */
  M_METHOD,
  M_CTOR,
  M_INIT,        /* { ... } or static { ... } */
  M_CLASS,       /* a nested class */
} DrMemberKind;

typedef struct {
  DrMemberKind kind;
  DrPos pos;
  unsigned mods;
  DrAnnotation *annots;
  int nannots;
  /* M_FIELD */
  DrTypeRef tref;
  DrDeclarator *decls;
  int ndecls;
  DrFieldSym **field_syms; /* checker: one per declarator */
  /* M_METHOD / M_CTOR */
  const char *name;
  DrTypeRef ret;      /* M_METHOD */
  DrParam *params;
  int nparams;
  DrTypeRef *throws;
  int nthrows;
  DrTypeParam *tparams; /* M_METHOD / M_CTOR: <T, U> */
  int ntparams;
  DrStmt *body;       /* NULL for abstract/native; M_INIT body too */
  DrMethodSym *method;/* checker */
  /* M_CLASS */
  DrClassDecl *nested;
} DrMember;

struct DrClassDecl {
  const char *name;
  DrPos pos;
  unsigned mods;
  DrTypeParam *tparams; /* class C<T, U> */
  int ntparams;
  bool is_interface;
  bool is_enum;       /* an enum class: extends java.lang.Enum, constants first */
  bool is_record;     /* a record class: extends java.lang.Record */
  const char **enum_constants; /* is_enum: the constants' names, by ordinal */
  int nenum_constants;
  bool is_annotation; /* @interface (also is_interface) */
  DrAnnotation *annots;
  int nannots;
  bool from_prelude;  /* declared by drvm's built-in library */
  const char *package;/* "java.lang", "a.b"; NULL: the unnamed package */
  DrTypeRef *extends; /* NULL if none; interfaces: see implements */
  DrTypeRef *implements; /* for an interface: the interfaces it extends */
  int nimplements;
  DrTypeRef *permits;    /* sealed: the permits clause (NULL: the file's subclasses) */
  int npermits;
  DrMember *members;  /* in source order (initialization order matters) */
  int nmembers;
  DrClassDecl *outer; /* enclosing class for nested classes */
  struct DrUnit *unit;/* the compilation unit (file) that declares it */
  DrClassSym *sym;    /* checker */
};

typedef struct {
  const char *path;   /* as given on the command line; shown in errors */
  const char *text;
  size_t len;
  const char *file_name; /* shown in stack traces ("Bank.java"); NULL: the VM's source_name */
} DrSource;

/* An import declaration (JLS 7.5). */
typedef struct {
  const char *name;   /* "java.util.Random"; on demand: "java.util";
                         static: the class ("java.lang.Math") */
  bool on_demand;     /* import name.*; */
  bool is_static;     /* import static name.member; or import static name.*; */
  const char *member; /* a single static import's member name */
  DrPos pos;
  DrClassSym *sym;    /* checker: the class imported (single-type), or the
                         class whose member classes are imported on demand */
} DrImport;

/* A compilation unit: one source file (JLS 7.3). */
typedef struct DrUnit {
  const DrSource *src;
  const char *package; /* NULL: the unnamed package */
  DrPos package_pos;
  DrImport *imports;
  int nimports;
  bool prelude;
} DrUnit;

typedef struct {
  DrClassDecl **classes; /* top-level classes, prelude first, then the user's in order */
  int nclasses;
  DrUnit **units;        /* the user's files, in the order given */
  int nunits;
  const char *main_given;/* --main: the main class's qualified name, or NULL */
  DrClassDecl *main_decl;/* checker: the class whose main method starts the program */
} DrProgram;

/* -------------------------------------------------------------- symbols */

enum {
  DR_CLS_SYM_INTERFACE = 1 << 0,
  DR_CLS_SYM_ABSTRACT = 1 << 1,
  DR_CLS_SYM_FINAL = 1 << 2,
  DR_CLS_SYM_PRELUDE = 1 << 3,
};

struct DrClassSym {
  const char *name;        /* simple name: "Inner" */
  const char *source_name; /* as Java source qualifies it: "Outer.Inner", "String" */
  const char *binary_name; /* runtime name: "Outer$Inner", "java.lang.String" */
  unsigned flags;
  DrClassDecl *decl;
  DrClassSym *outer;
  DrClassSym *super;       /* NULL only for java.lang.Object and interfaces */
  DrClassSym **interfaces;
  int ninterfaces;
  DrFieldSym **fields;     /* declared here, in order */
  int nfields;
  DrMethodSym **methods;   /* declared here (constructors included), in order */
  int nmethods;
  DrClassSym **nested;
  int nnested;
  DrType *type;            /* the TY_CLASS type of this class */
  /* checker: the hidden parameters every constructor takes after this, in
   * this order, and the fields they are stored in before anything else
   * runs (as javac does): the enclosing instance of an inner, local or
   * anonymous class in a non-static context (this$0), then the values a
   * local or anonymous class, a lambda or a method reference captures. */
  DrFieldSym *outer_this;
  DrFieldSym **captures;
  int ncaptures;
  bool is_local;           /* a local or anonymous class, or a lambda's class */
  /* checker: pseudo-methods owning the locals declared inside initializer
   * code: static field initializers + static blocks (emitted as <clinit>),
   * and instance field initializers + instance blocks (inlined by the
   * emitter into every constructor that does not start with this(...)). */
  DrMethodSym *clinit;
  DrMethodSym *instance_init;
  struct DrClass *rt;      /* emitter: the runtime class */
};

struct DrFieldSym {
  const char *name;
  DrClassSym *owner;
  DrType *type;
  unsigned mods;
  DrPos pos;
  DrDeclarator *decl;
  bool is_const;           /* a constant variable (static or instance final with constant init) */
  DrConst cval;
  int slot;                /* emitter: instance slot or static slot */
};

struct DrMethodSym {
  const char *name;        /* "<init>" for constructors */
  DrClassSym *owner;
  DrType **params;
  int nparams;
  DrType *ret;             /* TY_VOID for constructors */
  unsigned mods;
  bool is_ctor;
  bool is_varargs;         /* its last parameter is T... (an array T[]) */
  DrPos pos;
  DrMember *decl;          /* NULL for the implicit default constructor */
  DrLocalSym **locals;     /* checker: every local of the body, params first */
  /* checker, constructors: the hidden arguments of the superclass
   * constructor call (implicit or explicit), evaluated in this one */
  DrExpr **super_hidden;
  int nsuper_hidden;
  DrMethodSym *pass_super; /* an anonymous class's constructor: calls this
                              superclass constructor with its own arguments */
  int nlocals;
  struct DrMethod *rt;     /* emitter: the runtime method */
};

struct DrLocalSym {
  const char *name;
  DrType *type;
  bool is_final;
  DrPos pos;
  int index;               /* checker: position in its method's locals[] */
  int reg;                 /* emitter: the register holding it */
};

/* A type as Java source writes it ("int[]", "Outer.Inner"); checker_types.c. */
const char *dr_type_name(DrArena *arena, const DrType *t);

/* Canonical types of a compilation (owned by the checker's context). */
typedef struct DrTypes {
  DrType t_void, t_boolean, t_char, t_byte, t_short, t_int, t_long, t_float, t_double, t_null, t_error;
  DrClassSym *box_cls[TY_DOUBLE + 1]; /* by primitive kind: its wrapper class (checker_box.c) */
} DrTypes;
/* T's canonical primitive type of kind k (NULL for a kind that is not one). */
DrType *dr_prim_type(DrTypes *T, DrTypeKind k);

#endif
