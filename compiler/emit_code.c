/* The code buffer of the method being generated: instruction words,
 * registers, labels with back-patching, the line table, exception
 * handlers and the locals' table for debuggers.  em_finish hands
 * everything to the runtime DrMethod. */
#include <stdarg.h>
#include <string.h>

#include "emit_internal.h"

void em_begin(Em *E, DrMethodSym *msym, DrMethod *m) {
  E->msym = msym;
  E->m = m;
  E->is_static = (m->flags & DR_M_STATIC) != 0;
  E->code = NULL;
  E->len = E->cap = 0;
  E->reg_ref = NULL;
  E->nregs = E->regs_cap = 0;
  E->first_temp = 0;
  E->nfree_ref = E->nfree_val = 0;
  E->lines = NULL;
  E->nlines = E->lines_cap = 0;
  E->handlers = NULL;
  E->nhandlers = E->handlers_cap = 0;
  E->nctx = 0;
  E->points = NULL;
  E->npoints = E->points_cap = 0;
  E->bits = NULL;
  E->nbits = E->bits_cap = 0;
  E->nvars = E->nopen_vars = 0;
}

static void finish_vars(Em *E, DrMethod *m);

void em_finish(Em *E) {
  DrMethod *m = E->m;
  m->code = E->code;
  m->code_len = E->len;
  m->nregs = E->nregs > m->nparams ? E->nregs : m->nparams;
  m->reg_is_ref = dr_xcalloc((size_t)m->nregs + 1, 1);
  if (E->nregs) memcpy(m->reg_is_ref, E->reg_ref, (size_t)E->nregs);
  m->lines = E->lines;
  m->nlines = E->nlines;
  m->handlers = E->handlers;
  m->nhandlers = E->nhandlers;
  m->nlocal_regs = E->first_temp;
  m->gc_points = E->points;
  m->ngc_points = E->npoints;
  m->gc_bits = E->bits;
  finish_vars(E, m);
  E->points = NULL;
  E->bits = NULL;
  free(E->reg_ref);
  E->reg_ref = NULL;
  E->code = NULL;
  E->lines = NULL;
  E->handlers = NULL;
}

int em_here(Em *E) { return E->len; }

void em_word(Em *E, uint32_t w) { DR_PUSH(E->code, E->len, E->cap, w); }

/* Records which temporaries are in use at an instruction where the GC
 * may run (see DrGcPoint).  The bits cover the temporaries only: the
 * locals, always live, may be many more, and a method with as many calls
 * would need their square. */
static void gc_point(Em *E) {
  int ntemps = E->nregs - E->first_temp;
  uint32_t nwords = ntemps > 0 ? (uint32_t)(ntemps + 31) / 32 : 0;
  DrGcPoint pt = {(uint32_t)E->len, (uint32_t)E->nbits, nwords};
  for (uint32_t w = 0; w < nwords; w++) {
    uint32_t bits = 0;
    for (int b = 0; b < 32; b++) {
      int r = E->first_temp + (int)w * 32 + b;
      if (r < E->nregs && E->reg_ref[r] && E->tmp_live[r]) bits |= 1u << b;
    }
    DR_PUSH(E->bits, E->nbits, E->bits_cap, bits);
  }
  DR_PUSH(E->points, E->npoints, E->points_cap, pt);
}

void em_op(Em *E, DrOpcode op, int nargs, ...) {
  if (dr_op_info[op].flags & (DR_OPF_ALLOC | DR_OPF_CALL)) gc_point(E);
  em_word(E, (uint32_t)op);
  va_list ap;
  va_start(ap, nargs);
  for (int i = 0; i < nargs; i++) em_word(E, (uint32_t)va_arg(ap, int));
  va_end(ap);
}

void em_line(Em *E, int line) {
  if (line <= 0) return;
  if (E->nlines > 0) {
    DrLineEntry *last = &E->lines[E->nlines - 1];
    if (last->line == line) return;
    if (last->pc == (uint32_t)E->len) {
      last->line = line;
      return;
    }
  }
  DrLineEntry le = {(uint32_t)E->len, line};
  DR_PUSH(E->lines, E->nlines, E->lines_cap, le);
}

/* ------------------------------------------------------------ registers */

int em_reg(Em *E, bool is_ref) {
  DR_PUSH(E->reg_ref, E->nregs, E->regs_cap, (uint8_t)is_ref);
  if (E->nregs > E->tmp_live_cap) {
    int old = E->tmp_live_cap;
    E->tmp_live_cap = E->regs_cap;
    E->tmp_live = dr_xrealloc(E->tmp_live, (size_t)E->tmp_live_cap);
    memset(E->tmp_live + old, 0, (size_t)(E->tmp_live_cap - old));
  }
  E->tmp_live[E->nregs - 1] = 0;
  return E->nregs - 1;
}

int em_temp(Em *E, bool is_ref) {
  int r;
  if (is_ref && E->nfree_ref)
    r = E->free_ref[--E->nfree_ref];
  else if (!is_ref && E->nfree_val)
    r = E->free_val[--E->nfree_val];
  else
    r = em_reg(E, is_ref);
  E->tmp_live[r] = 1;
  return r;
}

int em_temp_for(Em *E, const DrType *t) { return em_temp(E, em_is_ref(t)); }

bool em_is_temp(Em *E, int reg) { return reg >= E->first_temp; }

void em_free(Em *E, int reg) {
  if (reg < 0 || !em_is_temp(E, reg) || !E->tmp_live[reg]) return; /* freed twice: keep one copy */
  E->tmp_live[reg] = 0;
  if (E->reg_ref[reg])
    DR_PUSH(E->free_ref, E->nfree_ref, E->free_ref_cap, reg);
  else
    DR_PUSH(E->free_val, E->nfree_val, E->free_val_cap, reg);
}

/* --------------------------------------------------------------- labels */

void em_label_init(EmLabel *l) {
  memset(l, 0, sizeof(*l));
  l->pos = -1;
}

void em_label_free(EmLabel *l) {
  free(l->sites);
  l->sites = NULL;
}

void em_bind(Em *E, EmLabel *l) {
  l->pos = E->len;
  for (int i = 0; i + 1 < l->nsites; i += 2) {
    int start = l->sites[i], operand = l->sites[i + 1];
    E->code[operand] = (uint32_t)(int32_t)(l->pos - start);
  }
  l->nsites = 0;
}

void em_jump(Em *E, DrOpcode op, int nops, const uint32_t *ops, EmLabel *target) {
  int start = E->len;
  em_word(E, (uint32_t)op);
  for (int i = 0; i < nops; i++) em_word(E, ops[i]);
  if (target->pos >= 0) {
    em_word(E, (uint32_t)(int32_t)(target->pos - start));
  } else {
    DR_PUSH(target->sites, target->nsites, target->cap, start);
    DR_PUSH(target->sites, target->nsites, target->cap, E->len);
    em_word(E, 0);
  }
}

void em_jmp(Em *E, EmLabel *target) { em_jump(E, DR_OP_JMP, 0, NULL, target); }

/* ------------------------------------------------------------- handlers */

void em_handler(Em *E, uint32_t start, uint32_t end, uint32_t handler, DrClass *cls, int reg) {
  if (start >= end) return;
  DrHandler h = {start, end, handler, cls, (uint32_t)reg};
  DR_PUSH(E->handlers, E->nhandlers, E->handlers_cap, h);
}

void em_handler_ranges(Em *E, uint32_t start, uint32_t end, const EmGap *gaps, int ngaps, uint32_t handler,
                       DrClass *cls, int reg) {
  uint32_t from = start;
  for (int i = 0; i < ngaps; i++) {
    const EmGap *g = &gaps[i];
    if (g->end <= from || g->start >= end) continue;
    if (g->start > from) em_handler(E, from, g->start, handler, cls, reg);
    if (g->end > from) from = g->end;
  }
  if (from < end) em_handler(E, from, end, handler, cls, reg);
}

/* ------------------------------------------------------------ constants */

void em_const_int(Em *E, int reg, int32_t v) { em_op(E, DR_OP_CONST_I, 2, reg, (int)v); }

void em_const_long(Em *E, int reg, int64_t v) {
  uint64_t u = (uint64_t)v;
  em_op(E, DR_OP_CONST_J, 1, reg);
  em_word(E, (uint32_t)u);
  em_word(E, (uint32_t)(u >> 32));
}

void em_const_double(Em *E, int reg, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  em_op(E, DR_OP_CONST_D, 1, reg);
  em_word(E, (uint32_t)u);
  em_word(E, (uint32_t)(u >> 32));
}

void em_const_float(Em *E, int reg, double v) {
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  em_op(E, DR_OP_CONST_F, 1, reg);
  em_word(E, u);
}

void em_const_string(Em *E, int reg, const uint16_t *s, int len) {
  int id = dr_string_const(E->vm, s, len);
  em_op(E, DR_OP_CONST_STR, 2, reg, id);
}

void em_mov(Em *E, int dst, int src) {
  if (dst != src) em_op(E, DR_OP_MOV, 2, dst, src);
}

/* ------------------------------------------------- locals for debuggers */

#define VAR_UNASSIGNED UINT32_MAX

int em_scope_open(Em *E) { return E->nopen_vars; }

void em_scope_close(Em *E, int mark) {
  while (E->nopen_vars > mark) {
    const EmOpenVar *o = &E->open_vars[--E->nopen_vars];
    DrLocalVar *v = &E->vars[o->var];
    if (v->start == VAR_UNASSIGNED) v->start = (uint32_t)E->len; /* never assigned: an empty range */
    v->end = (uint32_t)E->len;
    E->reg_var[v->reg] = o->hides;
  }
}

void em_var(Em *E, const char *name, int reg, DrKind kind, bool assigned) {
  ASSERT(reg >= 0, "a local's register");
  DrLocalVar v = {name, assigned ? (uint32_t)E->len : VAR_UNASSIGNED, 0, reg, kind};
  DR_PUSH(E->vars, E->nvars, E->vars_cap, v);
  if (reg >= E->reg_var_cap) {
    int old = E->reg_var_cap;
    E->reg_var_cap = reg + 1 > old * 2 ? reg + 1 : old * 2;
    E->reg_var = dr_xrealloc(E->reg_var, sizeof(int) * (size_t)E->reg_var_cap);
    memset(E->reg_var + old, 0xFF, sizeof(int) * (size_t)(E->reg_var_cap - old)); /* -1 */
  }
  EmOpenVar o = {E->nvars - 1, E->reg_var[reg]};
  DR_PUSH(E->open_vars, E->nopen_vars, E->open_vars_cap, o);
  E->reg_var[reg] = E->nvars - 1;
}

void em_var_local(Em *E, const DrLocalSym *l, bool assigned) {
  em_var(E, l->name, l->reg, em_kind(l->type), assigned);
}

/* Found through reg_var: a method may have 100,000 locals in one scope. */
void em_var_assigned(Em *E, int reg) {
  int i = reg < E->reg_var_cap ? E->reg_var[reg] : -1;
  if (i < 0) return;
  DrLocalVar *v = &E->vars[i];
  if (v->start == VAR_UNASSIGNED) v->start = (uint32_t)E->len;
}

/* The entries with a range, and their names (the arena's die after
 * compiling), in one block. */
static void finish_vars(Em *E, DrMethod *m) {
  em_scope_close(E, 0);
  size_t names = 0;
  int n = 0;
  for (int i = 0; i < E->nvars; i++)
    if (E->vars[i].start < E->vars[i].end) n++, names += strlen(E->vars[i].name) + 1;
  m->local_vars = NULL;
  m->nlocal_vars = n;
  if (!n) return;
  m->local_vars = dr_xcalloc(1, sizeof(DrLocalVar) * (size_t)n + names);
  char *p = (char *)(m->local_vars + n);
  int k = 0;
  for (int i = 0; i < E->nvars; i++) {
    const DrLocalVar *v = &E->vars[i];
    if (v->start >= v->end) continue;
    m->local_vars[k] = *v;
    m->local_vars[k++].name = memcpy(p, v->name, strlen(v->name) + 1);
    p += strlen(v->name) + 1;
  }
}
