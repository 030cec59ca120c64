/* The emitter's internal interface, shared by compiler/emit*.c.
 *
 * emit.c builds the runtime classes (layout, vtables, itables) and drives
 * code generation; emit_code.c owns the code buffer of the method being
 * generated (registers, labels, line table, handlers, locals for
 * debuggers); emit_expr.c and emit_stmt.c turn checked AST into register
 * bytecode.
 *
 * Registers: each has one fixed kind, reference or not, for the method's
 * whole life (the GC reads one bitmap per method).  Locals get their own
 * register each; temporaries come from a free list per kind, so a freed
 * reference temporary is only ever reused for references. */
#ifndef DR_EMIT_INTERNAL_H
#define DR_EMIT_INTERNAL_H

#include "../vm/opcodes.h"
#include "compile.h"

/* A jump target: bound once; jumps emitted before binding are patched. */
typedef struct {
  int pos; /* -1 until bound */
  int *sites; /* word index of the jump's instruction start, then of its offset operand */
  int nsites, cap;
} EmLabel;

/* A code range some handler does not cover (inlined finally code). */
typedef struct {
  uint32_t start, end;
} EmGap;

/* A statement that a break, continue or return may have to leave:
 * loops and switches are targets; try-finally and synchronized have
 * cleanup code to run on the way out. */
typedef enum { CTX_LOOP, CTX_SWITCH, CTX_SWITCH_EXPR, CTX_LABEL, CTX_FINALLY, CTX_SYNC } EmCtxKind;

typedef struct {
  EmCtxKind kind;
  const DrStmt *stmt;    /* CTX_LOOP / CTX_SWITCH / CTX_LABEL: the statement */
  EmLabel *brk, *cont;   /* CTX_LOOP / CTX_SWITCH (brk), CTX_LABEL (brk); CTX_SWITCH_EXPR: brk is its end */
  int result_reg;        /* CTX_SWITCH_EXPR: where yield puts the value */
  DrStmt *finally_body;  /* CTX_FINALLY */
  int lock_reg;          /* CTX_SYNC */
  EmGap *gaps;           /* cleanup copies inlined inside the protected range */
  int ngaps, gaps_cap;
} EmCtx;

/* An open scope's local: its entry of vars, and the entry for the same
 * register it hides until the scope closes (inlined finally code declares
 * its locals once per copy). */
typedef struct {
  int var;
  int hides;
} EmOpenVar;

typedef struct {
  DrVM *vm;
  DrArena *arena;
  DrTypes *T;
  DrProgram *prog;
  /* prelude classes the generated code calls into */
  DrClassSym *c_object, *c_string, *c_assertion_error;
  DrMethodSym *m_value_of_object; /* String.valueOf(Object) */
  DrMethodSym *m_value_of_chars;  /* String.valueOf(char[]): new String(char[]) */
  DrMethodSym *m_string_equals, *m_string_hash;
  DrMethodSym *m_npe_ctor;        /* new NullPointerException() */
  uint8_t *cls_state;    /* by runtime class id: layout/vtable progress */

  /* the method being generated */
  DrMethodSym *msym;
  DrMethod *m;
  bool is_static;
  uint32_t *code;
  int len, cap;
  uint8_t *reg_ref;      /* per register: holds references */
  int nregs, regs_cap;
  int first_temp;        /* registers below are locals (and this) */
  uint8_t *tmp_live;     /* per register: a temporary now in use */
  int tmp_live_cap;
  DrGcPoint *points;
  int npoints, points_cap;
  uint32_t *bits;
  int nbits, bits_cap;
  int *free_ref, nfree_ref, free_ref_cap;
  int *free_val, nfree_val, free_val_cap;
  DrLineEntry *lines;
  int nlines, lines_cap;
  DrHandler *handlers;
  int nhandlers, handlers_cap;
  EmCtx *ctx;            /* innermost last */
  int nctx, ctx_cap;
  DrLocalVar *vars;      /* locals for debuggers; start UINT32_MAX: not assigned yet */
  int nvars, vars_cap;
  EmOpenVar *open_vars;  /* entries of vars whose scope is open, innermost last */
  int nopen_vars, open_vars_cap;
  int *reg_var;          /* per register: its innermost open entry of vars, or -1 */
  int reg_var_cap;
} Em;

/* emit.c */
DrClass *em_class_rt(Em *E, DrType *t);      /* runtime class of a class or array type */
DrKind em_kind(const DrType *t);
bool em_is_ref(const DrType *t);
DrMethodSym *em_find_method(DrClassSym *cls, const char *name, int nparams, DrTypeKind p0);

/* emit_code.c: the code buffer */
void em_begin(Em *E, DrMethodSym *msym, DrMethod *m);
void em_finish(Em *E);
int em_here(Em *E);
void em_op(Em *E, DrOpcode op, int nargs, ...);    /* opcode + nargs operand words */
void em_word(Em *E, uint32_t w);
void em_line(Em *E, int line);
int em_reg(Em *E, bool is_ref);      /* a new permanent register */
int em_temp(Em *E, bool is_ref);
int em_temp_for(Em *E, const DrType *t);
void em_free(Em *E, int reg);        /* no-op for locals */
bool em_is_temp(Em *E, int reg);
void em_label_init(EmLabel *l);
void em_label_free(EmLabel *l);
void em_bind(Em *E, EmLabel *l);
/* Emits op (a jump whose last operand is the offset) with the operands
 * before the offset in ops[0..nops). */
void em_jump(Em *E, DrOpcode op, int nops, const uint32_t *ops, EmLabel *target);
void em_jmp(Em *E, EmLabel *target);
void em_handler(Em *E, uint32_t start, uint32_t end, uint32_t handler, DrClass *cls, int reg);
/* Adds handlers for [start, end) minus gaps. */
void em_handler_ranges(Em *E, uint32_t start, uint32_t end, const EmGap *gaps, int ngaps, uint32_t handler,
                       DrClass *cls, int reg);
void em_const_int(Em *E, int reg, int32_t v);
void em_const_long(Em *E, int reg, int64_t v);
void em_const_double(Em *E, int reg, double v);
/* emit_box.c: whether from -> to boxes or unboxes; the conversion */
bool em_is_boxing(const DrType *from, const DrType *to);
const DrType *em_unboxed_type(Em *E, const DrType *t); /* Integer -> int, else NULL */
int em_box_convert(Em *E, int src, const DrType *from, const DrType *to, int dst);
void em_const_float(Em *E, int reg, double v); /* v holds a float exactly */
void em_const_string(Em *E, int reg, const uint16_t *s, int len);
void em_mov(Em *E, int dst, int src);
/* Locals for debuggers (DrLocalVar): a scope opens where a block (a for
 * statement, a switch, a catch clause...) starts and closes at its end;
 * a local declared in it is readable from its first assignment to the
 * close (em_finish closes what is still open: this and parameters). */
int em_scope_open(Em *E);                 /* a mark for em_scope_close */
void em_scope_close(Em *E, int mark);
/* Declares a local held in reg, assigned here or (assigned false) at its
 * first em_var_assigned. */
void em_var(Em *E, const char *name, int reg, DrKind kind, bool assigned);
void em_var_local(Em *E, const DrLocalSym *l, bool assigned);
void em_var_assigned(Em *E, int reg);

/* emit_expr.c */
enum { EM_ANY = -1, EM_DISCARD = -2 };
/* Evaluates e into dst (EM_ANY: a register of the emitter's choice, which
 * may be a local's own register; EM_DISCARD: for effect only).  Returns
 * the register holding the value (or -1 when discarded/void). */
int em_expr(Em *E, DrExpr *e, int dst);
/* The opcode reading or writing field f: volatile fields have their own
 * (synchronizing) instructions. */
DrOpcode em_field_op(const DrFieldSym *f, bool write);
/* Body wrapped in a monitor on the object in register lock: enter, the
 * body with MONITOREXIT on every path out, and a handler that releases
 * and rethrows (synchronized statements and methods). */
void em_sync_body(Em *E, int lock, DrStmt *body, int line);
/* Jumps to target if e evaluates to jump_if, else falls through. */
void em_cond(Em *E, DrExpr *e, bool jump_if, EmLabel *target);
/* Evaluates es[0..n) into regs, left to right, copying a local's value
 * first if a later operand assigns that local ("pinning"). */
void em_operands(Em *E, DrExpr **es, int n, int *regs);
/* Calls method m: dst as em_expr, args[0..n) registers (receiver first). */
int em_invoke(Em *E, DrOpcode op, DrMethodSym *m, int dst, const int *args, int nargs);
void em_array_init(Em *E, DrExpr *init, int dst);
/* Throws NullPointerException if reg holds null (javac's requireNonNull
 * of outer.new Inner() and of a method reference's receiver). */
void em_null_check(Em *E, int reg, int line);
/* The ALOAD_x instruction for elements of kind k. */
DrOpcode em_aload_op(DrKind k);
/* Converts src's value from type `from` to `to` (dst as em_expr). */
int em_convert(Em *E, int src, const DrType *from, const DrType *to, int dst);

/* emit_stmt.c */
void em_stmt(Em *E, DrStmt *s);
void em_stmts(Em *E, DrStmt **s, int n);
/* A switch statement, or (result >= 0) a switch expression's value into result. */
void em_switch(Em *E, DrStmt *s, int result);

#endif
