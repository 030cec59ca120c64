/* DrHashIdx (vm/hashidx.h): lookups, several entries per key, removal
 * that keeps every other entry findable (probe chains that wrap around
 * the table's end), a long random mix of adds and removes checked against
 * a plain list, the hash functions' values; then its use for the VM's
 * string constants: found by text, a run's own interned string gone
 * after drvm_reset. */
#include <string.h>

#include "../../include/drvm.h"
#include "../../vm/hashidx.h"
#include "../../vm/object.h"
#include "../../vm/vm.h"
#include "check.h"

/* Keys are the strings of a table the test keeps; a value is a position. */
typedef struct {
  const char *const *names;
  const char *want;
} NameKey;

static bool same_name(const void *key, int32_t val) {
  const NameKey *k = key;
  return strcmp(k->names[val], k->want) == 0;
}

static int32_t find_name(const DrHashIdx *h, const char *const *names, const char *want) {
  NameKey k = {names, want};
  int32_t *v = dr_hidx_find(h, dr_hash_str(want), same_name, &k);
  return v ? *v : -1;
}

static void test_lookup(DrCheck *t) {
  static const char *const names[] = {"alpha", "beta", "gamma", "delta", "beta"};
  DrHashIdx h = {0};
  CHECK(t, find_name(&h, names, "alpha") == -1); /* an empty index has no table yet */
  for (int i = 0; i < 4; i++) dr_hidx_add(&h, dr_hash_str(names[i]), i);
  CHECK(t, h.count == 4);
  CHECK(t, find_name(&h, names, "alpha") == 0);
  CHECK(t, find_name(&h, names, "gamma") == 2);
  CHECK(t, find_name(&h, names, "delta") == 3);
  CHECK(t, find_name(&h, names, "epsilon") == -1);
  /* a second entry for "beta": slot tells them apart, find gives one */
  dr_hidx_add(&h, dr_hash_str("beta"), 4);
  int32_t b = find_name(&h, names, "beta");
  CHECK(t, b == 1 || b == 4);
  CHECK(t, dr_hidx_slot(&h, dr_hash_str("beta"), 1) && dr_hidx_slot(&h, dr_hash_str("beta"), 4));
  CHECK(t, !dr_hidx_slot(&h, dr_hash_str("beta"), 2));
  CHECK(t, dr_hidx_remove(&h, dr_hash_str("beta"), 1));
  CHECK(t, !dr_hidx_remove(&h, dr_hash_str("beta"), 1));
  CHECK(t, find_name(&h, names, "beta") == 4);
  CHECK(t, dr_hidx_remove(&h, dr_hash_str("beta"), 4));
  CHECK(t, find_name(&h, names, "beta") == -1);
  /* a found value may be rewritten in place (a scope's innermost entry) */
  NameKey k = {names, "gamma"};
  *dr_hidx_find(&h, dr_hash_str("gamma"), same_name, &k) = 2;
  CHECK(t, h.count == 3 && find_name(&h, names, "gamma") == 2);
  dr_hidx_free(&h);
  CHECK(t, h.cap == 0 && h.count == 0 && find_name(&h, names, "alpha") == -1);
}

/* Keys are the values themselves, and the hash is chosen by the test, so
 * entries collide on purpose. */
static bool same_int(const void *key, int32_t val) { return *(const int32_t *)key == val; }

static bool has(const DrHashIdx *h, uint32_t hash, int32_t v) { return dr_hidx_find(h, hash, same_int, &v) != NULL; }

static void test_collisions(DrCheck *t) {
  DrHashIdx h = {0};
  dr_hidx_add(&h, 0, 100); /* the table now has 16 slots */
  dr_hidx_remove(&h, 0, 100);
  CHECK(t, h.cap == 16);
  /* seven entries from the last slot on: the chain wraps to slots 0..5 */
  for (int32_t v = 0; v < 7; v++) dr_hidx_add(&h, 15, v);
  CHECK(t, h.cap == 16);
  dr_hidx_add(&h, 2, 50); /* its home slot is in the chain: it goes after it */
  for (int32_t v = 0; v < 7; v++) CHECK(t, has(&h, 15, v));
  CHECK(t, has(&h, 2, 50));
  /* removing from the middle moves the later ones back, the one at home
   * in slot 2 included (it may move only if its probe passed the hole) */
  CHECK(t, dr_hidx_remove(&h, 15, 0));
  CHECK(t, dr_hidx_remove(&h, 15, 3));
  for (int32_t v = 0; v < 7; v++) CHECK(t, has(&h, 15, v) == (v != 0 && v != 3));
  CHECK(t, has(&h, 2, 50));
  CHECK(t, h.count == 6);
  CHECK(t, dr_hidx_remove(&h, 2, 50));
  for (int32_t v = 0; v < 7; v++) CHECK(t, has(&h, 15, v) == (v != 0 && v != 3));
  CHECK(t, !has(&h, 2, 50));
  dr_hidx_free(&h);
}

/* A long random mix against a plain array: few distinct hashes, so long
 * chains, growth and removals all meet. */
static uint64_t next_rand(uint64_t *s) {
  *s = *s * 6364136223846793005u + 1442695040888963407u;
  return *s >> 33;
}

static void test_random(DrCheck *t) {
  enum { N = 4000 };
  static bool present[N];
  static uint32_t hash_of[N];
  memset(present, 0, sizeof present);
  DrHashIdx h = {0};
  uint64_t seed = 7;
  int mismatches = 0, live = 0;
  for (int step = 0; step < 40000; step++) {
    int32_t v = (int32_t)(next_rand(&seed) % N);
    if (!present[v]) {
      hash_of[v] = (uint32_t)(next_rand(&seed) % 64);
      dr_hidx_add(&h, hash_of[v], v);
      present[v] = true;
      live++;
    } else if (next_rand(&seed) % 2) {
      if (!dr_hidx_remove(&h, hash_of[v], v)) mismatches++;
      present[v] = false;
      live--;
    }
    if (step % 997 == 0)
      for (int32_t x = 0; x < N; x++)
        if (has(&h, hash_of[x], x) != present[x]) mismatches++;
  }
  for (int32_t x = 0; x < N; x++)
    if (has(&h, hash_of[x], x) != present[x]) mismatches++;
  CHECK(t, mismatches == 0);
  CHECK(t, h.count == (uint32_t)live);
  CHECK(t, h.count * 2 <= h.cap);
  dr_hidx_free(&h);
}

static void test_hashes(DrCheck *t) {
  /* 64-bit FNV-1a's published values: recordings name programs by it */
  CHECK(t, dr_fnv1a("", 0) == 0xcbf29ce484222325u);
  CHECK(t, dr_fnv1a("a", 1) == 0xaf63dc4c8601ec8cu);
  CHECK(t, dr_fnv1a("foobar", 6) == 0x85944171f73967e8u);
  CHECK(t, dr_hash_str("name") == dr_hash_bytes("name", 4));
  CHECK(t, dr_hash_str("name") != dr_hash_str("Name"));
  CHECK(t, dr_hash_mix(1, 2) != dr_hash_mix(1, 3) && dr_hash_mix(1, 2) != dr_hash_mix(2, 2));
  /* the low bits pick the slot: consecutive numbers must spread */
  bool seen[64] = {false};
  int distinct = 0;
  for (uint64_t i = 0; i < 64; i++) {
    uint32_t s = dr_hash_mix(0, i) % 64;
    distinct += !seen[s];
    seen[s] = true;
  }
  CHECK(t, distinct > 32);
}

/* ------------------------------------------------ the VM's constants */

static int find_ascii(DrVM *vm, const char *s) {
  uint16_t u[32];
  int n = (int)strlen(s);
  for (int i = 0; i < n; i++) u[i] = (uint16_t)s[i];
  return dr_string_find(vm, u, n);
}

static const char PROG[] = "public class P {\n"
                           "  static final String K = \"kept\";\n"
                           "  public static void main(String[] args) {\n"
                           "    String a = \"twice\", b = \"twice\";\n"
                           "    System.out.println((a == b) + \" \" + (a == K) + \" \" + String.valueOf(a == b));\n"
                           "  }\n"
                           "}\n";

static void collect(void *user, const char *text, size_t len) {
  char *out = user;
  size_t n = strlen(out);
  if (n + len < 64) memcpy(out + n, text, len + 1);
}

static void test_vm_strings(DrCheck *t) {
  char out[64] = "";
  DrvmConfig cfg;
  drvm_config_init(&cfg);
  cfg.write_out = collect;
  cfg.write_user = out;
  DrVM *vm = drvm_new(&cfg, NULL, 0);
  CHECK(t, vm && drvm_compile_string(vm, "P.dl", PROG, strlen(PROG)));
  if (!vm || !vm->nstrings) return;
  int twice = find_ascii(vm, "twice"), kept = find_ascii(vm, "kept");
  CHECK(t, twice >= 0 && kept >= 0 && twice != kept);
  CHECK(t, find_ascii(vm, "true") == -1); /* the program has no such constant */
  int before = vm->nstrings;
  uint16_t tw[] = {'t', 'w', 'i', 'c', 'e'};
  CHECK(t, dr_string_const(vm, tw, 5) == twice && vm->nstrings == before);
  for (int run = 0; run < 2; run++) {
    out[0] = 0;
    CHECK(t, drvm_run(vm, 0, NULL, NULL) == 0);
    CHECK(t, strcmp(out, "true false true\n") == 0);
    /* String.valueOf(true) interned "true" for the run ... */
    int id = find_ascii(vm, "true");
    CHECK(t, id >= before && vm->nstrings == before + 1);
    CHECK(t, drvm_reset(vm));
    /* ... and it went with the run; the program's constants stay */
    CHECK(t, find_ascii(vm, "true") == -1 && vm->nstrings == before);
    CHECK(t, find_ascii(vm, "twice") == twice && find_ascii(vm, "kept") == kept);
    CHECK(t, vm->string_idx.count == (uint32_t)before);
  }
  drvm_free(vm);
}

int main(void) {
  DrCheck t = {0, 0};
  test_lookup(&t);
  test_collisions(&t);
  test_random(&t);
  test_hashes(&t);
  test_vm_strings(&t);
  return CHECK_DONE(&t);
}
