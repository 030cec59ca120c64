/* The emitter's driver: runtime classes from class symbols (instance and
 * static layout, vtables, interface tables, constant statics), runtime
 * methods from method symbols, then code for every body.  Constructors
 * get the instance initializers inlined after their super(...) call, and
 * each class's static initializers become one <clinit>.
 *
 * Everything is created in program order (prelude first, outer classes
 * before nested ones), so class and method ids are the same on every run. */
#include <string.h>

#include "../vm/hashidx.h"
#include "emit_internal.h"

enum { CLS_LAID_OUT = 1, CLS_VTABLE = 2 };

/* ---------------------------------------------------------------- types */

DrKind em_kind(const DrType *t) {
  switch (t->kind) {
  case TY_VOID: return DR_K_VOID;
  case TY_BOOLEAN: return DR_K_BOOLEAN;
  case TY_CHAR: return DR_K_CHAR;
  case TY_INT: return DR_K_INT;
  case TY_LONG: return DR_K_LONG;
  case TY_DOUBLE: return DR_K_DOUBLE;
  default: return DR_K_REF;
  }
}

bool em_is_ref(const DrType *t) { return em_kind(t) == DR_K_REF; }

DrClass *em_class_rt(Em *E, DrType *t) {
  if (t->kind == TY_CLASS) return t->cls->rt;
  if (t->kind == TY_ARRAY) {
    DrType *el = t->elem;
    if (el->kind == TY_CLASS || el->kind == TY_ARRAY) return dr_array_class(E->vm, em_class_rt(E, el));
    return dr_prim_array_class(E->vm, em_kind(el));
  }
  return E->c_object->rt;
}

/* "name(T1,T2)": how methods are named at runtime (natives bind by it). */
static const char *method_desc(Em *E, const DrMethodSym *ms) {
  DrBuf b = {0};
  dr_buf_append_str(&b, ms->name);
  dr_buf_append_str(&b, "(");
  for (int i = 0; i < ms->nparams; i++) {
    if (i) dr_buf_append_str(&b, ",");
    dr_buf_append_str(&b, dr_type_name(E->arena, ms->params[i]));
  }
  dr_buf_append_str(&b, ")");
  char *s = dr_arena_strndup(E->arena, b.data, b.len);
  free(b.data);
  return s;
}

DrMethodSym *em_find_method(DrClassSym *cls, const char *name, int nparams, DrTypeKind p0) {
  for (int i = 0; cls && i < cls->nmethods; i++) {
    DrMethodSym *m = cls->methods[i];
    if (strcmp(m->name, name) == 0 && m->nparams == nparams && (nparams == 0 || m->params[0]->kind == p0)) return m;
  }
  return NULL;
}

static bool is_interface(const DrClassSym *k) { return (k->flags & DR_CLS_SYM_INTERFACE) != 0; }

static bool field_is_static(const DrFieldSym *f) { return (f->mods & DR_MOD_STATIC) || is_interface(f->owner); }

/* ------------------------------------------------------------- classes */

static void for_each_class(Em *E, DrClassSym *k, void (*fn)(Em *, DrClassSym *)) {
  fn(E, k);
  for (int i = 0; i < k->nnested; i++) for_each_class(E, k->nested[i], fn);
}

static void all_classes(Em *E, void (*fn)(Em *, DrClassSym *)) {
  for (int i = 0; i < E->prog->nclasses; i++)
    if (E->prog->classes[i]->sym) for_each_class(E, E->prog->classes[i]->sym, fn);
}

static void create_class(Em *E, DrClassSym *k) {
  DrClass *c = dr_class_new(E->vm, k->binary_name);
  k->rt = c;
  DrClassDecl *top = k->decl;
  while (top->outer) top = top->outer;
  if (top->unit && top->unit->src) c->source_file = top->unit->src->file_name;
  if (is_interface(k)) c->flags |= DR_CLS_INTERFACE;
  if (k->flags & DR_CLS_SYM_ABSTRACT) c->flags |= DR_CLS_ABSTRACT;
  if (k->flags & DR_CLS_SYM_FINAL) c->flags |= DR_CLS_FINAL;
  if (k->flags & DR_CLS_SYM_PRELUDE) c->flags |= DR_CLS_BUILTIN;
  if (strcmp(k->binary_name, "java.lang.String") == 0) c->flags |= DR_CLS_STRING;
}

static void link_supers(Em *E, DrClassSym *k) {
  (void)E;
  DrClass *c = k->rt;
  c->super = k->super ? k->super->rt : NULL;
  c->ninterfaces = k->ninterfaces;
  c->interfaces = k->ninterfaces ? dr_xcalloc((size_t)k->ninterfaces, sizeof(DrClass *)) : NULL;
  for (int i = 0; i < k->ninterfaces; i++) c->interfaces[i] = k->interfaces[i]->rt;
  int depth = 0;
  for (DrClassSym *s = k->super; s; s = s->super) depth++;
  c->depth = depth;
  for (DrClassSym *s = k; s; s = s->super)
    if (strcmp(s->binary_name, "java.lang.Throwable") == 0) c->flags |= DR_CLS_THROWABLE;
}

static void layout(Em *E, DrClassSym *k) {
  DrClass *c = k->rt;
  if (E->cls_state[c->id] & CLS_LAID_OUT) return;
  E->cls_state[c->id] |= CLS_LAID_OUT;
  int nsuper = 0;
  if (k->super) {
    layout(E, k->super);
    nsuper = k->super->rt->nfields;
  }
  int ninst = nsuper, nstat = 0;
  for (int i = 0; i < k->nfields; i++) {
    if (field_is_static(k->fields[i])) nstat++;
    else ninst++;
  }
  c->nfields = ninst;
  c->field_is_ref = dr_xcalloc((size_t)ninst + 1, 1);
  c->field_names = dr_xcalloc((size_t)ninst + 1, sizeof(char *));
  c->field_kinds = dr_xcalloc((size_t)ninst + 1, 1);
  if (nsuper) {
    memcpy(c->field_is_ref, k->super->rt->field_is_ref, (size_t)nsuper);
    memcpy(c->field_kinds, k->super->rt->field_kinds, (size_t)nsuper);
    memcpy(c->field_names, k->super->rt->field_names, sizeof(char *) * (size_t)nsuper);
  }
  c->nstatics = nstat;
  c->statics = dr_xcalloc((size_t)nstat + 1, sizeof(DrValue));
  c->static_is_ref = dr_xcalloc((size_t)nstat + 1, 1);
  c->static_names = dr_xcalloc((size_t)nstat + 1, sizeof(char *));
  c->static_kinds = dr_xcalloc((size_t)nstat + 1, 1);
  int fi = nsuper, si = 0;
  for (int i = 0; i < k->nfields; i++) {
    DrFieldSym *f = k->fields[i];
    /* names are copied: the arena dies after compiling (dr_vm_free frees them) */
    if (field_is_static(f)) {
      f->slot = si;
      c->static_is_ref[si] = em_is_ref(f->type);
      c->static_kinds[si] = (uint8_t)em_kind(f->type);
      c->static_names[si++] = dr_strdup(f->name);
    } else {
      f->slot = fi;
      c->field_is_ref[fi] = em_is_ref(f->type);
      c->field_kinds[fi] = (uint8_t)em_kind(f->type);
      c->field_names[fi++] = dr_strdup(f->name);
    }
  }
}

static bool has_static_init(DrClassSym *k) {
  DrClassDecl *d = k->decl;
  for (int i = 0; d && i < d->nmembers; i++) {
    DrMember *mem = &d->members[i];
    if (mem->kind == M_INIT && (mem->mods & DR_MOD_STATIC)) return true;
    if (mem->kind == M_FIELD && mem->field_syms)
      for (int j = 0; j < mem->ndecls; j++) {
        DrFieldSym *f = mem->field_syms[j];
        if (f && field_is_static(f) && mem->decls[j].init && !f->is_const) return true;
      }
  }
  return false;
}

/* The hidden constructor parameters of k (ast.h, DrClassSym.captures). */
static int n_hidden(const DrClassSym *k) { return (k->outer_this ? 1 : 0) + k->ncaptures; }

static DrFieldSym *hidden_field(const DrClassSym *k, int i) {
  if (k->outer_this) return i == 0 ? k->outer_this : k->captures[i - 1];
  return k->captures[i];
}

static DrMethod *new_method(Em *E, DrClassSym *k, DrMethodSym *ms) {
  DrMethod *m = dr_method_new(E->vm, k->rt, ms->name, method_desc(E, ms));
  ms->rt = m;
  unsigned mods = ms->mods;
  bool st = (mods & DR_MOD_STATIC) != 0;
  if (st) m->flags |= DR_M_STATIC;
  if (mods & DR_MOD_NATIVE) m->flags |= DR_M_NATIVE;
  bool has_body = ms->decl ? ms->decl->body != NULL : true;
  if ((mods & DR_MOD_ABSTRACT) || (is_interface(k) && !has_body && !st)) m->flags |= DR_M_ABSTRACT;
  if (mods & DR_MOD_SYNCHRONIZED) m->flags |= DR_M_SYNCHRONIZED;
  if (mods & DR_MOD_PRIVATE) m->flags |= DR_M_PRIVATE;
  if (mods & DR_MOD_FINAL) m->flags |= DR_M_FINAL;
  if (ms->is_ctor) m->flags |= DR_M_CTOR;
  if (mods & DR_MOD_HIDDEN) m->flags |= DR_M_HIDDEN;
  int hidden = ms->is_ctor ? n_hidden(k) : 0;
  m->nparams = ms->nparams + (st ? 0 : 1) + hidden;
  m->param_kinds = dr_xcalloc((size_t)m->nparams + 1, sizeof(DrKind));
  int p = 0;
  if (!st) m->param_kinds[p++] = DR_K_REF;
  for (int i = 0; i < hidden; i++) m->param_kinds[p++] = em_kind(hidden_field(k, i)->type);
  for (int i = 0; i < ms->nparams; i++) m->param_kinds[p++] = em_kind(ms->params[i]);
  m->ret_kind = ms->ret ? em_kind(ms->ret) : DR_K_VOID;
  m->nregs = m->nparams;
  return m;
}

static void create_methods(Em *E, DrClassSym *k) {
  for (int i = 0; i < k->nmethods; i++) new_method(E, k, k->methods[i]);
  if (k->clinit && has_static_init(k)) {
    DrMethod *m = new_method(E, k, k->clinit);
    m->flags |= DR_M_CLINIT | DR_M_STATIC;
    k->rt->clinit = m;
  }
}

static bool is_virtual(const DrMethodSym *ms) {
  return !ms->is_ctor && !(ms->mods & (DR_MOD_STATIC | DR_MOD_PRIVATE));
}

/* Vtable slots by descriptor: a class may declare or inherit thousands of
 * methods, and each override looks for its slot. */
typedef struct {
  DrMethod *const *vt;
  const char *desc;
} EmSlotKey;

static bool same_slot(const void *key, int32_t slot) {
  const EmSlotKey *k = key;
  return strcmp(k->vt[slot]->desc, k->desc) == 0;
}

static void index_slot(DrHashIdx *slots, DrMethod *const *vt, int slot) {
  dr_hidx_add(slots, dr_hash_str(vt[slot]->desc), slot);
}

/* The slot of vt whose method has this descriptor, or -1. */
static int find_slot(const DrHashIdx *slots, DrMethod *const *vt, const char *desc) {
  EmSlotKey key = {vt, desc};
  int32_t *slot = dr_hidx_find(slots, dr_hash_str(desc), same_slot, &key);
  return slot ? *slot : -1;
}

static void build_vtable(Em *E, DrClassSym *k) {
  DrClass *c = k->rt;
  if (E->cls_state[c->id] & CLS_VTABLE) return;
  E->cls_state[c->id] |= CLS_VTABLE;
  if (is_interface(k)) {
    for (int i = 0; i < k->nmethods; i++)
      if (is_virtual(k->methods[i])) k->methods[i]->rt->selector = E->vm->nselectors++;
    return;
  }
  int n = 0, cap = 8;
  DrMethod **vt = NULL;
  if (k->super) {
    build_vtable(E, k->super);
    DrClass *s = k->super->rt;
    n = s->vtable_len;
    cap = n + k->nmethods + 1;
    vt = dr_xcalloc((size_t)cap, sizeof(DrMethod *));
    if (n) memcpy(vt, s->vtable, sizeof(DrMethod *) * (size_t)n);
  } else {
    cap = k->nmethods + 1;
    vt = dr_xcalloc((size_t)cap, sizeof(DrMethod *));
  }
  DrHashIdx slots = {0};
  for (int i = 0; i < k->nmethods; i++) {
    DrMethodSym *ms = k->methods[i];
    if (!is_virtual(ms)) continue;
    if (!slots.cap)
      for (int j = 0; j < n; j++) index_slot(&slots, vt, j);
    DrMethod *m = ms->rt;
    int slot = find_slot(&slots, vt, m->desc);
    bool added = slot < 0;
    if (added) slot = n++;
    vt[slot] = m;
    if (added) index_slot(&slots, vt, slot);
    m->vtable_index = slot;
  }
  dr_hidx_free(&slots);
  c->vtable = vt;
  c->vtable_len = n;
}

static void collect_interfaces(DrClassSym *k, DrClassSym ***out, int *n, int *cap) {
  for (int i = 0; i < k->ninterfaces; i++) {
    DrClassSym *ifc = k->interfaces[i];
    bool seen = false;
    for (int j = 0; j < *n && !seen; j++) seen = (*out)[j] == ifc;
    if (!seen) DR_PUSH(*out, *n, *cap, ifc);
    collect_interfaces(ifc, out, n, cap);
  }
  if (k->super) collect_interfaces(k->super, out, n, cap);
}

static bool extends_iface(const DrClassSym *k, const DrClassSym *of, int depth) {
  if (k == of) return true;
  for (int i = 0; i < k->ninterfaces && depth < 64; i++)
    if (extends_iface(k->interfaces[i], of, depth + 1)) return true;
  return false;
}

/* A class that does not implement im inherits the most specific default
 * method for it: one in im's interface or an interface extending it, not
 * overridden by another of those (the checker rejects an ambiguity). */
static DrMethod *default_for(DrClassSym **ifcs, int n, const DrClassSym *owner, const DrMethod *im) {
  const DrClassSym *best = NULL;
  DrMethod *found = NULL;
  for (int i = 0; i < n; i++) {
    if (!extends_iface(ifcs[i], owner, 0) || (best && extends_iface(best, ifcs[i], 0))) continue;
    for (int j = 0; j < ifcs[i]->nmethods; j++) {
      DrMethod *m = ifcs[i]->methods[j]->rt;
      if (m && !(m->flags & (DR_M_ABSTRACT | DR_M_STATIC | DR_M_PRIVATE)) && strcmp(m->desc, im->desc) == 0) {
        best = ifcs[i];
        found = m;
      }
    }
  }
  return found;
}

static void build_itable(Em *E, DrClassSym *k) {
  (void)E;
  if (is_interface(k)) return;
  DrClassSym **ifcs = NULL;
  int n = 0, cap = 0;
  collect_interfaces(k, &ifcs, &n, &cap);
  DrClass *c = k->rt;
  int len = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < ifcs[i]->nmethods; j++) {
      DrMethod *im = ifcs[i]->methods[j]->rt;
      if (im && im->selector >= len) len = im->selector + 1;
    }
  if (len) {
    c->itable = dr_xcalloc((size_t)len, sizeof(DrMethod *));
    c->itable_len = len;
    DrHashIdx slots = {0};
    for (int v = 0; v < c->vtable_len; v++) index_slot(&slots, c->vtable, v);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < ifcs[i]->nmethods; j++) {
        DrMethod *im = ifcs[i]->methods[j]->rt;
        if (!im || im->selector < 0) continue;
        int v = find_slot(&slots, c->vtable, im->desc);
        if (v >= 0) c->itable[im->selector] = c->vtable[v];
        else if (!c->itable[im->selector]) c->itable[im->selector] = default_for(ifcs, n, ifcs[i], im);
      }
    dr_hidx_free(&slots);
  }
  free(ifcs);
}

/* Constant variables are set when the class is loaded (they are never
 * assigned by code, and reading them does not initialize the class). */
static void constant_statics(Em *E, DrClassSym *k) {
  for (int i = 0; i < k->nfields; i++) {
    DrFieldSym *f = k->fields[i];
    if (!field_is_static(f) || !f->is_const) continue;
    DrValue *v = &k->rt->statics[f->slot];
    switch (f->type->kind) {
    case TY_LONG: v->j = f->cval.j; break;
    case TY_DOUBLE: v->d = f->cval.d; break;
    case TY_CLASS: {
      int id = dr_string_const(E->vm, f->cval.s, f->cval.slen); /* may grow vm->strings */
      v->ref = E->vm->strings[id];
      break;
    }
    default: v->i = f->cval.i; break;
    }
  }
}

/* ---------------------------------------------------------------- code */

static void alloc_locals(Em *E, DrMethodSym *ms) {
  for (int i = 0; ms && i < ms->nlocals; i++) {
    DrLocalSym *l = ms->locals[i];
    l->reg = em_reg(E, em_is_ref(l->type));
  }
}

/* this and the parameters: readable in the whole method. */
static void param_vars(Em *E, DrMethodSym *ms) {
  if (!E->is_static) em_var(E, "this", 0, DR_K_REF, true);
  for (int i = 0; i < ms->nparams && i < ms->nlocals; i++) em_var_local(E, ms->locals[i], true);
}

static int decl_line(DrMethodSym *ms) { return ms->decl ? ms->decl->pos.line : ms->pos.line; }

/* Field initializers and initializer blocks of one kind, in source order. */
static void initializers(Em *E, DrClassSym *k, bool statics) {
  DrClassDecl *d = k->decl;
  for (int i = 0; d && i < d->nmembers; i++) {
    DrMember *mem = &d->members[i];
    if (mem->kind == M_INIT && ((mem->mods & DR_MOD_STATIC) != 0) == statics) {
      if (mem->body) em_stmt(E, mem->body);
    } else if (mem->kind == M_FIELD && mem->field_syms) {
      for (int j = 0; j < mem->ndecls; j++) {
        DrFieldSym *f = mem->field_syms[j];
        DrExpr *init = mem->decls[j].init;
        if (!f || !init || field_is_static(f) != statics || (statics && f->is_const)) continue;
        em_line(E, mem->decls[j].pos.line);
        int r;
        if (init->kind == E_ARRAY_INIT) {
          r = em_temp(E, true);
          em_array_init(E, init, r);
        } else {
          r = em_expr(E, init, EM_ANY);
        }
        if (statics)
          em_op(E, em_field_op(f, true), 3, k->rt->id, f->slot, r);
        else
          em_op(E, em_field_op(f, true), 3, 0, f->slot, r);
        em_free(E, r);
      }
    }
  }
}

/* this(...) or super(...): its arguments as any call's (a later one may
 * assign an earlier one's local), however many there are. */
static void gen_ctor_call(Em *E, DrMethodSym *ctor, DrExpr **hidden, int nhidden, DrExpr **args, int nargs) {
  int n = nhidden + nargs;
  int *regs = dr_xmalloc(sizeof(int) * (size_t)(n + 1));
  DrExpr **ops = dr_xmalloc(sizeof(DrExpr *) * (size_t)(n + 1));
  if (nhidden) memcpy(ops, hidden, sizeof(DrExpr *) * (size_t)nhidden);
  if (nargs) memcpy(ops + nhidden, args, sizeof(DrExpr *) * (size_t)nargs);
  regs[0] = 0;
  em_operands(E, ops, n, regs + 1);
  em_invoke(E, DR_OP_INVOKESPECIAL, ctor, EM_DISCARD, regs, n + 1);
  for (int i = 1; i <= n; i++) em_free(E, regs[i]);
  free(regs);
  free(ops);
}

/* this(...): the same hidden arguments this constructor received. */
static void gen_this_call(Em *E, DrClassSym *k, DrMethodSym *ctor, DrExpr **args, int nargs) {
  int h = n_hidden(k), n = h + nargs;
  int *regs = dr_xmalloc(sizeof(int) * (size_t)(n + 1));
  regs[0] = 0;
  for (int i = 0; i < h; i++) regs[1 + i] = 1 + i;
  em_operands(E, args, nargs, regs + 1 + h);
  em_invoke(E, DR_OP_INVOKESPECIAL, ctor, EM_DISCARD, regs, n + 1);
  for (int i = 1 + h; i <= n; i++) em_free(E, regs[i]);
  free(regs);
}

/* An anonymous class's constructor: the superclass's with its arguments. */
static void gen_pass_super(Em *E, DrMethodSym *ms, int first_param) {
  DrMethodSym *sc = ms->pass_super;
  int h = ms->nsuper_hidden, n = h + ms->nparams;
  int *regs = dr_xmalloc(sizeof(int) * (size_t)(n + 1));
  regs[0] = 0;
  em_operands(E, ms->super_hidden, h, regs + 1);
  for (int i = 0; i < ms->nparams; i++) regs[1 + h + i] = first_param + i;
  em_invoke(E, DR_OP_INVOKESPECIAL, sc, EM_DISCARD, regs, n + 1);
  for (int i = 1; i <= h; i++) em_free(E, regs[i]);
  free(regs);
}

static void gen_body(Em *E, DrClassSym *k, DrMethodSym *ms) {
  DrMethod *m = ms->rt;
  em_begin(E, ms, m);
  if (!E->is_static) em_reg(E, true); /* this */
  int hidden = ms->is_ctor ? n_hidden(k) : 0;
  for (int i = 0; i < hidden; i++) em_reg(E, em_is_ref(hidden_field(k, i)->type));
  /* an anonymous class's constructor has parameters but no declaration
   * (so no locals): its arguments pass straight to the superclass's */
  if (ms->pass_super && !ms->decl)
    for (int i = 0; i < ms->nparams; i++) em_reg(E, em_is_ref(ms->params[i]));
  alloc_locals(E, ms);
  if (ms->is_ctor) alloc_locals(E, k->instance_init);
  E->first_temp = E->nregs;
  param_vars(E, ms);
  em_line(E, decl_line(ms));
  DrStmt *body = ms->decl ? ms->decl->body : NULL;
  if (ms->is_ctor) {
    DrStmt **stmts = body ? body->stmts : NULL;
    int n = body ? body->nstmts : 0;
    DrStmt *s0 = n > 0 ? stmts[0] : NULL;
    bool this_call = false;
    /* as javac: the hidden fields are set before the superclass runs */
    for (int i = 0; i < hidden; i++) em_op(E, em_field_op(hidden_field(k, i), true), 3, 0, hidden_field(k, i)->slot, 1 + i);
    if (s0 && s0->kind == S_CTOR_CALL) {
      em_line(E, s0->pos.line);
      this_call = !s0->is_super;
      if (s0->ctor && this_call) gen_this_call(E, k, s0->ctor, s0->args, s0->nargs);
      else if (s0->ctor) gen_ctor_call(E, s0->ctor, ms->super_hidden, ms->nsuper_hidden, s0->args, s0->nargs);
      stmts++;
      n--;
    } else if (ms->pass_super) {
      gen_pass_super(E, ms, 1 + hidden);
    } else if (k->super) {
      DrMethodSym *sc = em_find_method(k->super, "<init>", 0, TY_VOID);
      if (sc) gen_ctor_call(E, sc, ms->super_hidden, ms->nsuper_hidden, NULL, 0);
    }
    if (!this_call) initializers(E, k, false);
    if (body) em_line(E, body->pos.line);
    em_stmts(E, stmts, n);
    if (body) em_line(E, body->end_pos.line);
    em_op(E, DR_OP_RETURN_VOID, 0);
  } else if (body && (m->flags & DR_M_SYNCHRONIZED)) {
    /* The JVM locks a synchronized method's monitor as part of the call;
     * drvm compiles it as a synchronized block around the body, so the
     * acquire and every release (also by an exception) are ordinary
     * scheduling points. */
    int lock = em_temp(E, true);
    if (E->is_static) em_op(E, DR_OP_CLASSLOCK, 2, lock, k->rt->id);
    else em_mov(E, lock, 0);
    em_sync_body(E, lock, body, decl_line(ms));
    em_free(E, lock);
    if (ms->ret->kind == TY_VOID) {
      if (body->kind == S_BLOCK) em_line(E, body->end_pos.line);
      em_op(E, DR_OP_RETURN_VOID, 0);
    }
  } else if (body) {
    em_stmt(E, body);
    if (ms->ret->kind == TY_VOID) {
      if (body->kind == S_BLOCK) em_line(E, body->end_pos.line);
      em_op(E, DR_OP_RETURN_VOID, 0);
    }
  }
  em_finish(E);
}

static void gen_clinit(Em *E, DrClassSym *k) {
  DrMethod *m = k->rt->clinit;
  em_begin(E, k->clinit, m);
  alloc_locals(E, k->clinit);
  E->first_temp = E->nregs;
  initializers(E, k, true);
  em_op(E, DR_OP_RETURN_VOID, 0);
  em_finish(E);
}

static void gen_class(Em *E, DrClassSym *k) {
  for (int i = 0; i < k->nmethods; i++) {
    DrMethodSym *ms = k->methods[i];
    DrMethod *m = ms->rt;
    if (m->flags & (DR_M_NATIVE | DR_M_ABSTRACT)) continue;
    gen_body(E, k, ms);
  }
  if (k->rt->clinit) gen_clinit(E, k);
}

/* --------------------------------------------------------------- driver */

static DrClassSym *find_class(DrProgram *prog, const char *binary_name) {
  for (int i = 0; i < prog->nclasses; i++) {
    DrClassSym *k = prog->classes[i]->sym;
    if (k && strcmp(k->binary_name, binary_name) == 0) return k;
  }
  return NULL;
}

static void do_layout(Em *E, DrClassSym *k) { layout(E, k); }
static void do_vtable(Em *E, DrClassSym *k) { build_vtable(E, k); }

DrClass *dr_emit(DrVM *vm, DrArena *arena, DrTypes *types, DrProgram *prog) {
  Em E;
  memset(&E, 0, sizeof E);
  E.vm = vm;
  E.arena = arena;
  E.T = types;
  E.prog = prog;
  E.c_object = find_class(prog, "java.lang.Object");
  E.c_string = find_class(prog, "java.lang.String");
  E.c_assertion_error = find_class(prog, "java.lang.AssertionError");
  if (!E.c_object || !E.c_string) dr_panic(__FILE__, __LINE__, "prelude lacks Object or String");
  E.m_value_of_object = em_find_method(E.c_string, "valueOf", 1, TY_CLASS);
  E.m_value_of_chars = em_find_method(E.c_string, "valueOf", 1, TY_ARRAY);
  E.m_string_equals = em_find_method(E.c_string, "equals", 1, TY_CLASS);
  E.m_string_hash = em_find_method(E.c_string, "hashCode", 0, TY_VOID);
  E.m_npe_ctor = em_find_method(find_class(prog, "java.lang.NullPointerException"), "<init>", 0, TY_VOID);

  int first = vm->nclasses;
  all_classes(&E, create_class);
  all_classes(&E, link_supers);
  E.cls_state = dr_arena_alloc(arena, (size_t)vm->nclasses + 1);
  (void)first;
  all_classes(&E, do_layout);
  all_classes(&E, create_methods);
  all_classes(&E, do_vtable);
  all_classes(&E, build_itable);
  /* Object's vtable is final now: arrays dispatch through it. */
  vm->known[DR_WK_OBJECT] = E.c_object->rt;
  all_classes(&E, constant_statics);
  all_classes(&E, gen_class);
  free(E.code);
  free(E.reg_ref);
  free(E.lines);
  free(E.handlers);
  free(E.free_ref);
  free(E.free_val);
  free(E.ctx);
  free(E.tmp_live);
  free(E.vars);
  free(E.open_vars);
  free(E.reg_var);

  return prog->main_decl && prog->main_decl->sym ? prog->main_decl->sym->rt : NULL;
}
