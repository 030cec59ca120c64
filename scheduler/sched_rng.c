/* The schedulers' randomness: xoshiro256** seeded through splitmix64.
 * Every random choice a scheduler makes comes from here, so the seed
 * alone decides a run. */
#include <string.h>

#include "sched.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

void dr_rng_seed(DrRng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t dr_rng_next(DrRng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t dr_rng_below(DrRng *r, uint64_t n) {
  /* Lemire's rejection: unbiased without a division per call. */
  uint64_t limit = (0 - n) % n;
  for (;;) {
    uint64_t x = dr_rng_next(r);
    if (x >= limit) return x % n;
  }
}

int dr_rng_waiter(DrRng *r, int n) { return (int)dr_rng_below(r, (uint64_t)n); }

int dr_rng_spurious(DrRng *r, int n) {
  if (dr_rng_below(r, DR_SPURIOUS_ONE_IN) != 0) return -1;
  return (int)dr_rng_below(r, (uint64_t)n);
}

uint64_t *dr_sched_slot(uint64_t **arr, int *n, const DrThread *t) {
  if (t->id >= *n) {
    int cap = *n ? *n : 16;
    while (cap <= t->id) cap *= 2;
    *arr = dr_xrealloc(*arr, sizeof **arr * (size_t)cap);
    memset(*arr + *n, 0, sizeof **arr * (size_t)(cap - *n));
    *n = cap;
  }
  return &(*arr)[t->id];
}
