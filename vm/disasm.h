#ifndef DR_DISASM_H
#define DR_DISASM_H

#include "vm.h"

/* Prints the instruction at pc; returns its length in words. */
int dr_disasm_instruction(DrVM *vm, const DrMethod *m, uint32_t pc, FILE *out);
void dr_disasm_method(DrVM *vm, const DrMethod *m, FILE *out);
void dr_disasm_program(DrVM *vm, bool include_builtins, FILE *out);

#endif
