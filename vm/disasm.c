/* Human-readable bytecode, driven by the opcode table's operand formats.
 * Also used by the trace printer and the REPL later. */
#include <string.h>

#include "disasm.h"
#include "opcodes.h"

static void dis_string(FILE *out, const DrString *s) {
  fputc('"', out);
  for (int32_t i = 0; i < s->length && i < 40; i++) {
    uint16_t c = s->chars[i];
    if (c == '\n') fputs("\\n", out);
    else if (c == '\t') fputs("\\t", out);
    else if (c == '"') fputs("\\\"", out);
    else if (c >= 32 && c < 127) fputc(c, out);
    else fprintf(out, "\\u%04x", c);
  }
  fputs(s->length > 40 ? "...\"" : "\"", out);
}

static const char *const dis_kind_names[] = {"void", "boolean", "char", "int", "long", "double", "ref"};

int dr_disasm_instruction(DrVM *vm, const DrMethod *m, uint32_t pc, FILE *out) {
  const uint32_t *ip = m->code + pc;
  const DrOpInfo *info = &dr_op_info[ip[0]];
  fprintf(out, "%-16s", info->name);
  int n = 1;
  const DrClass *last_class = NULL;
  for (const char *f = info->format; *f; f++) {
    fputs(f == info->format ? " " : ", ", out);
    uint32_t w = ip[n];
    switch (*f) {
    case 'r': fprintf(out, "r%u", w); n++; break;
    case 'i':
      if (ip[0] == DR_OP_CONST_F) {
        float fl;
        memcpy(&fl, &w, sizeof fl);
        char buf[32];
        dr_float_to_string(fl, buf);
        fprintf(out, "#%sF", buf);
      } else {
        fprintf(out, "#%d", (int32_t)w);
      }
      n++;
      break;
    case 'J': {
      uint64_t bits = (uint64_t)ip[n] | ((uint64_t)ip[n + 1] << 32);
      if (ip[0] == DR_OP_CONST_D) {
        double d;
        memcpy(&d, &bits, sizeof d);
        char buf[32];
        dr_double_to_string(d, buf);
        fprintf(out, "#%s", buf);
      } else {
        fprintf(out, "#%lldL", (long long)(int64_t)bits);
      }
      n += 2;
      break;
    }
    case 'j': fprintf(out, "-> %u", pc + (uint32_t)(int32_t)w); n++; break;
    case 'f': fprintf(out, "field %u", w); n++; break;
    case 'c':
      last_class = w < (uint32_t)vm->nclasses ? vm->classes[w] : NULL;
      fprintf(out, "%s", last_class ? last_class->name : "?");
      n++;
      break;
    case 's':
      if (last_class && w < (uint32_t)last_class->nstatics) fprintf(out, ".%s", last_class->static_names[w]);
      else fprintf(out, "static %u", w);
      n++;
      break;
    case 'm':
      if (w < (uint32_t)vm->nmethods) fprintf(out, "%s.%s", vm->methods[w]->owner->name, vm->methods[w]->desc);
      n++;
      break;
    case 'k':
      if (w < (uint32_t)vm->nstrings) dis_string(out, (const DrString *)vm->strings[w]);
      n++;
      break;
    case 'a': {
      fputc('(', out);
      for (uint32_t i = 0; i < w; i++) fprintf(out, "%sr%u", i ? ", " : "", ip[n + 1 + i]);
      fputc(')', out);
      n += 1 + (int)w;
      break;
    }
    case 'p': {
      fputc('(', out);
      for (uint32_t i = 0; i < w; i++) {
        uint32_t k = ip[n + 1 + 2 * i];
        fprintf(out, "%s%s r%u", i ? ", " : "", k < 7 ? dis_kind_names[k] : "?", ip[n + 2 + 2 * i]);
      }
      fputc(')', out);
      n += 1 + 2 * (int)w;
      break;
    }
    case 'S': {
      fputc('{', out);
      for (uint32_t i = 0; i < w; i++)
        fprintf(out, "%s%d -> %u", i ? ", " : "", (int32_t)ip[n + 1 + 2 * i], pc + ip[n + 2 + 2 * i]);
      fputc('}', out);
      n += 1 + 2 * (int)w;
      break;
    }
    default: fprintf(out, "?%c", *f); n++; break;
    }
  }
  fputc('\n', out);
  return n;
}

void dr_disasm_method(DrVM *vm, const DrMethod *m, FILE *out) {
  fprintf(out, "%s%s.%s", (m->flags & DR_M_STATIC) ? "static " : "", m->owner->name, m->desc);
  if (m->flags & DR_M_NATIVE) {
    fputs("  native\n\n", out);
    return;
  }
  if (m->flags & DR_M_ABSTRACT) {
    fputs("  abstract\n\n", out);
    return;
  }
  fprintf(out, "  (%d params, %d registers:", m->nparams, m->nregs);
  for (int i = 0; i < m->nregs; i++) fputs(m->reg_is_ref[i] ? " R" : " p", out);
  fputs(")\n", out);
  int last_line = -1;
  for (uint32_t pc = 0; pc < (uint32_t)m->code_len;) {
    int line = dr_method_line(m, pc);
    if (line != last_line) fprintf(out, "  line %d\n", line);
    last_line = line;
    fprintf(out, "    %4u  ", pc);
    pc += (uint32_t)dr_disasm_instruction(vm, m, pc, out);
  }
  for (int i = 0; i < m->nhandlers; i++) {
    const DrHandler *h = &m->handlers[i];
    fprintf(out, "    handler [%u, %u) -> %u catch %s into r%u\n", h->start, h->end, h->handler,
            h->cls ? h->cls->name : "any", h->reg);
  }
  fputc('\n', out);
}

void dr_disasm_program(DrVM *vm, bool include_builtins, FILE *out) {
  for (int c = 0; c < vm->nclasses; c++) {
    DrClass *cls = vm->classes[c];
    if ((cls->flags & DR_CLS_ARRAY) || (!include_builtins && (cls->flags & DR_CLS_BUILTIN))) continue;
    fprintf(out, "%s %s", (cls->flags & DR_CLS_INTERFACE) ? "interface" : "class", cls->name);
    if (cls->super) fprintf(out, " extends %s", cls->super->name);
    fprintf(out, "  (%d instance fields, %d statics)\n\n", cls->nfields, cls->nstatics);
    for (int i = 0; i < vm->nmethods; i++)
      if (vm->methods[i]->owner == cls) dr_disasm_method(vm, vm->methods[i], out);
  }
}
