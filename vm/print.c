/* Program output.  stdout is buffered in vm->out and written in large
 * pieces; stderr is written at once, after flushing stdout, so the two
 * interleave as the program printed them. */
#include "vm.h"

#include <string.h>

enum { DR_OUT_FLUSH_AT = 64 * 1024 };

void dr_flush_output(DrVM *vm) {
  if (vm->out.len) {
    fwrite(vm->out.data, 1, vm->out.len, vm->out_file);
    vm->out.len = 0;
  }
  fflush(vm->out_file);
}

void dr_write_fd(DrVM *vm, int fd, const char *s, size_t n) {
  vm->prints++;
  if (fd == 2) {
    dr_flush_output(vm);
    fwrite(s, 1, n, vm->err_file);
    fflush(vm->err_file);
    return;
  }
  dr_buf_append(&vm->out, s, n);
  if (vm->out.len >= DR_OUT_FLUSH_AT || vm->out_unbuffered) dr_flush_output(vm);
}

/* Java's PrintStream encodes through a stateful encoder: a high surrogate
 * at the end of one print waits for the next print's low surrogate (and is
 * lost if the program ends first).  vm->out_carry keeps it per fd. */
void dr_print_utf16(DrVM *vm, int fd, const uint16_t *u, int32_t n) {
  if (n == 0) return;
  vm->prints++;
  int slot = fd == 2 ? 2 : 1;
  DrBuf tmp = {0};
  /* stdout text goes straight into its buffer; stderr's is written now */
  DrBuf *b = fd == 2 ? &tmp : &vm->out;
  uint16_t carry = vm->out_carry[slot];
  vm->out_carry[slot] = 0;
  if (carry) {
    if (u[0] >= 0xDC00 && u[0] <= 0xDFFF) {
      uint16_t pair[2] = {carry, u[0]};
      dr_buf_append_utf16(b, pair, 2);
      u++;
      n--;
    } else {
      dr_buf_append_str(b, "?");
    }
  }
  if (n > 0 && u[n - 1] >= 0xD800 && u[n - 1] <= 0xDBFF) {
    vm->out_carry[slot] = u[n - 1];
    n--;
  }
  dr_buf_append_utf16(b, u, n);
  if (fd == 2) {
    if (tmp.len) dr_write_fd(vm, 2, tmp.data, tmp.len);
    free(tmp.data);
  } else if (vm->out.len >= DR_OUT_FLUSH_AT || vm->out_unbuffered) {
    dr_flush_output(vm);
  }
}
