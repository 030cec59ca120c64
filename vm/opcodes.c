/* The opcode table's data, expanded from DR_OPCODES. */
#include "opcodes.h"

#include "common.h"

const DrOpInfo dr_op_info[DR_OP__COUNT] = {
#define DR_OP_INFO(name, fmt, flags) {#name, fmt, flags},
    DR_OPCODES(DR_OP_INFO)
#undef DR_OP_INFO
};

int dr_op_length(const uint32_t *code) {
  const char *f = dr_op_info[code[0]].format;
  int n = 1;
  for (; *f; f++) {
    switch (*f) {
    case 'J': n += 2; break;
    case 'a': n += 1 + (int)code[n]; break;
    case 'p': n += 1 + 2 * (int)code[n]; break;
    case 'S': n += 1 + 2 * (int)code[n]; break;
    default: n += 1; break;
    }
  }
  return n;
}
