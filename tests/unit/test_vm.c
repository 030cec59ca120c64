/* VM internals: two VMs in one process, the GC's reclamation and roots,
 * subclass tests, array classes, string interning, the opcode table. */
#include <string.h>

#include "../../compiler/compile.h"
#include "../../vm/opcodes.h"
#include "../../scheduler/sched.h"
#include "check.h"
#include "run_prog.h"


static char *run_captured(DrVM *vm, DrClass *main, int *status) { return run_captured_io(vm, main, status, false); }

static void test_two_vms(DrCheck *t) {
  DrVM a, b;
  dr_vm_init(&a);
  dr_vm_init(&b);
  DrClass *ma = compile_text(&a, "class A { static int n = 40; public static void main(String[] x) { n += 2; System.out.println(n); } }", "a.dl");
  DrClass *mb = compile_text(&b, "class B { static int n = 7; public static void main(String[] x) { n *= 3; System.out.println(\"b\" + n); } }", "b.dl");
  CHECK(t, ma && mb);
  if (ma && mb) {
    int sa, sb;
    char *oa = run_captured(&a, ma, &sa);
    char *ob = run_captured(&b, mb, &sb);
    CHECK(t, sa == 0 && sb == 0);
    CHECK(t, strcmp(oa, "42\n") == 0);
    CHECK(t, strcmp(ob, "b21\n") == 0);
    free(oa);
    free(ob);
  }
  dr_vm_free(&a);
  dr_vm_free(&b);
}

static size_t count_objects(DrVM *vm) {
  size_t n = 0;
  for (DrObj *o = vm->objects; o; o = o->gc_next) n++;
  return n;
}

static void test_gc(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  DrClass *m = compile_text(&vm, "class G { public static void main(String[] a) {} }", "g.dl");
  CHECK(t, m != NULL);
  if (m) {
    dr_gc_collect(&vm);
    size_t base = count_objects(&vm);
    DrClass *ia = dr_prim_array_class(&vm, DR_K_INT);
    DrArray *kept = dr_new_array(&vm, ia, 10);
    dr_push_root(&vm, &kept->hdr);
    for (int i = 0; i < 1000; i++) dr_new_array(&vm, ia, 100);
    CHECK(t, count_objects(&vm) >= base + 1);
    dr_gc_collect(&vm);
    CHECK(t, count_objects(&vm) == base + 1);
    CHECK(t, kept->length == 10);
    /* Reference arrays keep their elements alive. */
    DrClass *sa = dr_array_class(&vm, vm.known[DR_WK_STRING]);
    DrArray *strs = dr_new_array(&vm, sa, 3);
    dr_push_root(&vm, &strs->hdr);
    ((DrObj **)DR_ARRAY_DATA(strs))[1] = &dr_new_string_utf8(&vm, "kept")->hdr;
    dr_gc_collect(&vm);
    CHECK(t, count_objects(&vm) == base + 3);
    dr_pop_roots(&vm, 2);
    dr_gc_collect(&vm);
    CHECK(t, count_objects(&vm) == base);
    /* Negative sizes raise NegativeArraySizeException, not a crash. */
    CHECK(t, dr_new_array(&vm, ia, -1) == NULL && vm.exception != NULL);
    CHECK(t, vm.exception && vm.exception->cls == vm.known[DR_WK_NEG_ARRAY_SIZE]);
    vm.exception = NULL;
  }
  dr_vm_free(&vm);
}

static void test_classes(DrCheck *t) {
  DrVM vm;
  dr_vm_init(&vm);
  DrClass *m = compile_text(&vm,
      "class C extends P { public static void main(String[] a) {} } interface I {} class P implements I {}", "c.dl");
  CHECK(t, m != NULL);
  if (m) {
    DrClass *p = dr_find_class(&vm, "P"), *i = dr_find_class(&vm, "I"), *obj = vm.known[DR_WK_OBJECT];
    CHECK(t, p && i && m->super == p);
    CHECK(t, dr_is_subclass(m, p) && dr_is_subclass(m, i) && dr_is_subclass(m, obj));
    CHECK(t, !dr_is_subclass(p, m));
    DrClass *ca = dr_array_class(&vm, m), *pa = dr_array_class(&vm, p);
    CHECK(t, strcmp(ca->name, "[LC;") == 0);
    CHECK(t, dr_array_class(&vm, m) == ca);
    CHECK(t, dr_is_subclass(ca, pa) && !dr_is_subclass(pa, ca) && dr_is_subclass(ca, obj));
    CHECK(t, dr_is_subclass(dr_array_class(&vm, ca), dr_array_class(&vm, pa)));
    CHECK(t, !dr_is_subclass(dr_prim_array_class(&vm, DR_K_INT), pa));
    CHECK(t, strcmp(dr_array_class(&vm, dr_prim_array_class(&vm, DR_K_INT))->name, "[[I") == 0);
    uint16_t hi[] = {'h', 'i'};
    int s1 = dr_string_const(&vm, hi, 2), s2 = dr_string_const(&vm, hi, 2);
    CHECK(t, s1 == s2);
  }
  dr_vm_free(&vm);
}

static void test_opcode_table(DrCheck *t) {
  uint32_t code[] = {DR_OP_INVOKESTATIC, 0, 0, 3, 1, 2, 3};
  CHECK(t, dr_op_length(code) == 7);
  uint32_t c2[] = {DR_OP_CONST_J, 0, 1, 2};
  CHECK(t, dr_op_length(c2) == 4);
  uint32_t c3[] = {DR_OP_STRCAT, 0, 2, DR_K_INT, 1, DR_K_REF, 2};
  CHECK(t, dr_op_length(c3) == 7);
  for (int op = 0; op < DR_OP__COUNT; op++) {
    /* Quick forms are installed by the VM only: each has a plain twin. */
    if (dr_op_info[op].flags & DR_OPF_QUICK) {
      char base[32];
      snprintf(base, sizeof base, "%s", dr_op_info[op].name);
      base[strlen(base) - 2] = 0;
      int twin = -1;
      for (int k = 0; k < DR_OP__COUNT; k++)
        if (!strcmp(dr_op_info[k].name, base)) twin = k;
      CHECK(t, twin >= 0 && !strcmp(dr_op_info[twin].format, dr_op_info[op].format));
    }
  }
}

int main(void) {
  DrCheck t = {0, 0};
  test_opcode_table(&t);
  test_classes(&t);
  test_gc(&t);
  test_two_vms(&t);
  return CHECK_DONE(&t);
}
