/* The one opcode table.  Every consumer -- emitter, dispatch table,
 * disassembler, verifier, trace printer, and later the event stream --
 * expands DR_OPCODES with its own X macro; nothing else lists opcodes.
 *
 * drvm's bytecode is register based: a method has a fixed number of
 * registers (its locals and temporaries), each of one fixed kind, so the
 * GC finds references with one bitmap per method.  Code is an array of
 * uint32_t words: the opcode, then one word per operand letter:
 *
 *   r  register index
 *   i  int32 immediate
 *   J  64-bit immediate, two words (low word first); long or double bits
 *   j  jump offset (int32), relative to the first word of this instruction
 *   f  instance field slot
 *   c  class id (index into vm->classes)
 *   s  static field slot of the class named by the preceding 'c'
 *   m  method id (index into vm->methods); virtual and interface calls name
 *      the statically resolved method and dispatch on the receiver
 *   k  string constant id (index into vm->strings)
 *   a  argument list: a count word, then that many registers
 *   p  concatenation list: a count word, then (DrKind word, register) pairs
 *   S  lookup switch table: a count word, then (int32 key, int32 offset)
 *      pairs sorted by key; offsets as for 'j'
 *
 * Flags say what an instruction means to the world outside the
 * interpreter: READ/WRITE/CALL/RETURN/NEWOBJ are the events of the hooked
 * dispatch; SYNC marks synchronization (monitors, volatile accesses:
 * READ|SYNC is a volatile read), always a scheduling point; the verifier
 * uses BRANCH/END.
 */
#ifndef DR_OPCODES_H
#define DR_OPCODES_H

#include <stdint.h>

enum {
  DR_OPF_READ = 1 << 0,    /* reads a shared location (field, static, array element) */
  DR_OPF_WRITE = 1 << 1,   /* writes a shared location */
  DR_OPF_SYNC = 1 << 2,    /* monitor enter or exit */
  DR_OPF_CALL = 1 << 3,    /* pushes a frame or calls a native */
  DR_OPF_RETURN = 1 << 4,  /* pops a frame */
  DR_OPF_ALLOC = 1 << 5,   /* allocates GC memory (so may collect) */
  DR_OPF_THROWS = 1 << 6,  /* may raise an exception */
  DR_OPF_BRANCH = 1 << 7,  /* has jump targets */
  DR_OPF_END = 1 << 8,     /* never falls through to the next instruction */
  DR_OPF_QUICK = 1 << 9,   /* rewritten form installed by the VM; never emitted */
  DR_OPF_INIT = 1 << 10,   /* may trigger class initialization (names a class) */
  DR_OPF_NEWOBJ = 1 << 11, /* creates an object the program sees (a NEW event) */
  /* a read that can race with nothing (a static final field's): skipped
   * where only the inline-checking detector listens to accesses and the
   * scheduler does not stop at each (interp.c's final_seen) */
  DR_OPF_FINAL = 1 << 12,
};

/* Instructions the interpreter's hooked dispatch stops before when
 * listeners are attached or the scheduler wants access/call points.
 * Synchronization instructions (SYNC, sync natives) report their own
 * events and are always scheduling points. */
#define DR_OPF_HOOKED (DR_OPF_READ | DR_OPF_WRITE | DR_OPF_CALL | DR_OPF_RETURN | DR_OPF_NEWOBJ)

#define DR_T DR_OPF_THROWS
#define DR_OPCODES(X)                                                         \
  X(NOP, "", 0)                                                               \
  X(MOV, "rr", 0)                                                             \
  X(CONST_I, "ri", 0)                                                         \
  X(CONST_J, "rJ", 0)                                                         \
  X(CONST_D, "rJ", 0)                                                         \
  X(CONST_F, "ri", 0)    /* the float's bits */                               \
  X(CONST_NULL, "r", 0)                                                       \
  X(CONST_STR, "rk", 0)                                                       \
  /* int arithmetic: dst, a, b */                                             \
  X(ADD_I, "rrr", 0)                                                          \
  X(SUB_I, "rrr", 0)                                                          \
  X(MUL_I, "rrr", 0)                                                          \
  X(DIV_I, "rrr", DR_T | DR_OPF_ALLOC)                                        \
  X(REM_I, "rrr", DR_T | DR_OPF_ALLOC)                                        \
  X(AND_I, "rrr", 0)                                                          \
  X(OR_I, "rrr", 0)                                                           \
  X(XOR_I, "rrr", 0)                                                          \
  X(SHL_I, "rrr", 0)                                                          \
  X(SHR_I, "rrr", 0)                                                          \
  X(USHR_I, "rrr", 0)                                                         \
  X(ADDK_I, "rri", 0)    /* dst = a + immediate */                            \
  X(NEG_I, "rr", 0)                                                           \
  /* long arithmetic; shift counts are int registers */                      \
  X(ADD_J, "rrr", 0)                                                          \
  X(SUB_J, "rrr", 0)                                                          \
  X(MUL_J, "rrr", 0)                                                          \
  X(DIV_J, "rrr", DR_T | DR_OPF_ALLOC)                                        \
  X(REM_J, "rrr", DR_T | DR_OPF_ALLOC)                                        \
  X(AND_J, "rrr", 0)                                                          \
  X(OR_J, "rrr", 0)                                                           \
  X(XOR_J, "rrr", 0)                                                          \
  X(SHL_J, "rrr", 0)                                                          \
  X(SHR_J, "rrr", 0)                                                          \
  X(USHR_J, "rrr", 0)                                                         \
  X(NEG_J, "rr", 0)                                                           \
  /* double arithmetic */                                                     \
  X(ADD_D, "rrr", 0)                                                          \
  X(SUB_D, "rrr", 0)                                                          \
  X(MUL_D, "rrr", 0)                                                          \
  X(DIV_D, "rrr", 0)                                                          \
  X(REM_D, "rrr", 0)                                                          \
  X(NEG_D, "rr", 0)                                                           \
  /* float arithmetic: IEEE single precision, rounded after each operation */ \
  X(ADD_F, "rrr", 0)                                                          \
  X(SUB_F, "rrr", 0)                                                          \
  X(MUL_F, "rrr", 0)                                                          \
  X(DIV_F, "rrr", 0)                                                          \
  X(REM_F, "rrr", 0)                                                          \
  X(NEG_F, "rr", 0)                                                           \
  /* conversions: dst, src */                                                 \
  X(I2J, "rr", 0)                                                             \
  X(I2D, "rr", 0)                                                             \
  X(J2I, "rr", 0)                                                             \
  X(J2D, "rr", 0)                                                             \
  X(D2I, "rr", 0)                                                             \
  X(D2J, "rr", 0)                                                             \
  X(I2C, "rr", 0)                                                             \
  X(I2B, "rr", 0)                                                             \
  X(I2S, "rr", 0)                                                             \
  X(I2F, "rr", 0)                                                             \
  X(J2F, "rr", 0)                                                             \
  X(D2F, "rr", 0)                                                             \
  X(F2I, "rr", 0)                                                             \
  X(F2J, "rr", 0)                                                             \
  X(F2D, "rr", 0)                                                             \
  /* comparisons yielding a boolean (0 or 1 in an int register) */           \
  X(CMPEQ_I, "rrr", 0)                                                        \
  X(CMPNE_I, "rrr", 0)                                                        \
  X(CMPLT_I, "rrr", 0)                                                        \
  X(CMPLE_I, "rrr", 0)                                                        \
  X(CMPGT_I, "rrr", 0)                                                        \
  X(CMPGE_I, "rrr", 0)                                                        \
  X(CMPEQ_J, "rrr", 0)                                                        \
  X(CMPNE_J, "rrr", 0)                                                        \
  X(CMPLT_J, "rrr", 0)                                                        \
  X(CMPLE_J, "rrr", 0)                                                        \
  X(CMPGT_J, "rrr", 0)                                                        \
  X(CMPGE_J, "rrr", 0)                                                        \
  X(CMPEQ_D, "rrr", 0)                                                        \
  X(CMPNE_D, "rrr", 0)                                                        \
  X(CMPLT_D, "rrr", 0)                                                        \
  X(CMPLE_D, "rrr", 0)                                                        \
  X(CMPGT_D, "rrr", 0)                                                        \
  X(CMPGE_D, "rrr", 0)                                                        \
  X(CMPEQ_F, "rrr", 0)                                                        \
  X(CMPNE_F, "rrr", 0)                                                        \
  X(CMPLT_F, "rrr", 0)                                                        \
  X(CMPLE_F, "rrr", 0)                                                        \
  X(CMPGT_F, "rrr", 0)                                                        \
  X(CMPGE_F, "rrr", 0)                                                        \
  X(CMPEQ_A, "rrr", 0)                                                        \
  X(CMPNE_A, "rrr", 0)                                                        \
  X(NOT_Z, "rr", 0)                                                           \
  /* control flow */                                                          \
  X(JMP, "j", DR_OPF_BRANCH | DR_OPF_END)                                     \
  X(JZ, "rj", DR_OPF_BRANCH)                                                  \
  X(JNZ, "rj", DR_OPF_BRANCH)                                                 \
  X(JEQ_I, "rrj", DR_OPF_BRANCH)                                              \
  X(JNE_I, "rrj", DR_OPF_BRANCH)                                              \
  X(JLT_I, "rrj", DR_OPF_BRANCH)                                              \
  X(JLE_I, "rrj", DR_OPF_BRANCH)                                              \
  X(JGT_I, "rrj", DR_OPF_BRANCH)                                              \
  X(JGE_I, "rrj", DR_OPF_BRANCH)                                              \
  X(JEQ_A, "rrj", DR_OPF_BRANCH)                                              \
  X(JNE_A, "rrj", DR_OPF_BRANCH)                                              \
  X(JNULL, "rj", DR_OPF_BRANCH)                                               \
  X(JNONNULL, "rj", DR_OPF_BRANCH)                                            \
  X(LOOKUPSWITCH, "rjS", DR_OPF_BRANCH | DR_OPF_END)                          \
  /* objects */                                                               \
  X(NEW, "rc", DR_OPF_ALLOC | DR_T | DR_OPF_INIT | DR_OPF_NEWOBJ)             \
  X(GETFIELD, "rrf", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                       \
  X(PUTFIELD, "rfr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(GETSTATIC, "rcs", DR_OPF_READ | DR_OPF_INIT | DR_T | DR_OPF_ALLOC)        \
  X(PUTSTATIC, "csr", DR_OPF_WRITE | DR_OPF_INIT | DR_T | DR_OPF_ALLOC)       \
  /* a static final field's read: its one write, in the class initializer, \
   * happens-before every other thread's use (JLS 12.4.2), so it can race  \
   * with nothing (RoadRunner skips final fields likewise): DR_OPF_FINAL   \
   */                                                                       \
  X(GETSTATIC_F, "rcs", DR_OPF_READ | DR_OPF_FINAL | DR_OPF_INIT | DR_T | DR_OPF_ALLOC) \
  X(INSTANCEOF, "rrc", 0)                                                     \
  X(CHECKCAST, "rc", DR_T | DR_OPF_ALLOC)                                     \
  /* arrays: NEWARRAY dst, array class, length register */                   \
  X(NEWARRAY, "rcr", DR_OPF_ALLOC | DR_T | DR_OPF_NEWOBJ)                     \
  X(MULTINEWARRAY, "rca", DR_OPF_ALLOC | DR_T | DR_OPF_NEWOBJ)                \
  X(ALEN, "rr", DR_T | DR_OPF_ALLOC)                                          \
  X(ALOAD_I, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_J, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_D, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_C, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_Z, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_A, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_B, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_S, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ALOAD_F, "rrr", DR_OPF_READ | DR_T | DR_OPF_ALLOC)                        \
  X(ASTORE_I, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_J, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_D, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_C, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_Z, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_A, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_B, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_S, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  X(ASTORE_F, "rrr", DR_OPF_WRITE | DR_T | DR_OPF_ALLOC)                      \
  /* calls: dst (ignored for void), method, arguments (receiver first) */    \
  X(INVOKESTATIC, "rma", DR_OPF_CALL | DR_T | DR_OPF_ALLOC | DR_OPF_INIT)     \
  X(INVOKESPECIAL, "rma", DR_OPF_CALL | DR_T | DR_OPF_ALLOC)                  \
  X(INVOKEVIRTUAL, "rma", DR_OPF_CALL | DR_T | DR_OPF_ALLOC)                  \
  X(INVOKEINTERFACE, "rma", DR_OPF_CALL | DR_T | DR_OPF_ALLOC)                \
  X(RETURN, "r", DR_OPF_RETURN | DR_OPF_END)                                  \
  X(RETURN_VOID, "", DR_OPF_RETURN | DR_OPF_END)                              \
  X(THROW, "r", DR_T | DR_OPF_END | DR_OPF_ALLOC)                             \
  X(MONITORENTER, "r", DR_OPF_SYNC | DR_T | DR_OPF_ALLOC)                     \
  X(MONITOREXIT, "r", DR_OPF_SYNC | DR_T | DR_OPF_ALLOC)                      \
  /* the lock object of a static synchronized method's class */               \
  X(CLASSLOCK, "rc", DR_OPF_ALLOC)                                            \
  /* volatile fields: synchronization, always scheduling points */            \
  X(GETFIELD_V, "rrf", DR_OPF_READ | DR_OPF_SYNC | DR_T | DR_OPF_ALLOC)       \
  X(PUTFIELD_V, "rfr", DR_OPF_WRITE | DR_OPF_SYNC | DR_T | DR_OPF_ALLOC)      \
  X(GETSTATIC_V, "rcs", DR_OPF_READ | DR_OPF_SYNC | DR_OPF_INIT | DR_T | DR_OPF_ALLOC) \
  X(PUTSTATIC_V, "csr", DR_OPF_WRITE | DR_OPF_SYNC | DR_OPF_INIT | DR_T | DR_OPF_ALLOC) \
  /* string concatenation of primitives and Strings (null prints "null") */  \
  X(STRCAT, "rp", DR_OPF_ALLOC | DR_T)                                        \
  /* quickened forms: the class is known to be initialized */                \
  X(NEW_Q, "rc", DR_OPF_ALLOC | DR_T | DR_OPF_QUICK | DR_OPF_NEWOBJ)          \
  X(GETSTATIC_Q, "rcs", DR_OPF_READ | DR_OPF_QUICK)                           \
  X(GETSTATIC_F_Q, "rcs", DR_OPF_READ | DR_OPF_FINAL | DR_OPF_QUICK)          \
  X(PUTSTATIC_Q, "csr", DR_OPF_WRITE | DR_OPF_QUICK)                          \
  X(INVOKESTATIC_Q, "rma", DR_OPF_CALL | DR_T | DR_OPF_ALLOC | DR_OPF_QUICK)

typedef enum {
#define DR_OP_ENUM(name, fmt, flags) DR_OP_##name,
  DR_OPCODES(DR_OP_ENUM)
#undef DR_OP_ENUM
  DR_OP__COUNT
} DrOpcode;

typedef struct {
  const char *name;
  const char *format;
  unsigned flags;
} DrOpInfo;

extern const DrOpInfo dr_op_info[DR_OP__COUNT];

/* Length in words of the instruction at code[0], from its format. */
int dr_op_length(const uint32_t *code);

#endif
