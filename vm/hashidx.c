/* DrHashIdx: open addressing with linear probing, at most half full, so a
 * lookup looks at few slots; removal shifts the entries after it back
 * (no tombstones), so a table that is used as a stack (scopes) does not
 * fill up with dead slots. */
#include "hashidx.h"

#include <string.h>

void dr_hidx_free(DrHashIdx *h) {
  free(h->hashes);
  free(h->vals);
  memset(h, 0, sizeof *h);
}

static void put(DrHashIdx *h, uint32_t hash, int32_t val) {
  uint32_t mask = h->cap - 1, i = hash & mask;
  while (h->vals[i] >= 0) i = (i + 1) & mask;
  h->hashes[i] = hash;
  h->vals[i] = val;
  h->count++;
}

static void grow(DrHashIdx *h) {
  DrHashIdx big = {NULL, NULL, h->cap ? h->cap * 2 : 16, 0};
  big.hashes = dr_xmalloc(sizeof(uint32_t) * big.cap);
  big.vals = dr_xmalloc(sizeof(int32_t) * big.cap);
  memset(big.vals, 0xFF, sizeof(int32_t) * big.cap); /* -1: empty */
  for (uint32_t i = 0; i < h->cap; i++)
    if (h->vals[i] >= 0) put(&big, h->hashes[i], h->vals[i]);
  dr_hidx_free(h);
  *h = big;
}

void dr_hidx_add(DrHashIdx *h, uint32_t hash, int32_t val) {
  ASSERT(val >= 0, "index values are positions");
  if ((h->count + 1) * 2 > h->cap) grow(h);
  put(h, hash, val);
}

int32_t *dr_hidx_find(const DrHashIdx *h, uint32_t hash, DrHashSame same, const void *key) {
  if (!h->cap) return NULL;
  uint32_t mask = h->cap - 1;
  for (uint32_t i = hash & mask; h->vals[i] >= 0; i = (i + 1) & mask)
    if (h->hashes[i] == hash && same(key, h->vals[i])) return &h->vals[i];
  return NULL;
}

int32_t *dr_hidx_slot(const DrHashIdx *h, uint32_t hash, int32_t val) {
  if (!h->cap) return NULL;
  uint32_t mask = h->cap - 1;
  for (uint32_t i = hash & mask; h->vals[i] >= 0; i = (i + 1) & mask)
    if (h->vals[i] == val && h->hashes[i] == hash) return &h->vals[i];
  return NULL;
}

/* Whether home lies in the cyclic range (from, to]. */
static bool between(uint32_t from, uint32_t home, uint32_t to) {
  return from <= to ? (from < home && home <= to) : (from < home || home <= to);
}

bool dr_hidx_remove(DrHashIdx *h, uint32_t hash, int32_t val) {
  int32_t *v = dr_hidx_slot(h, hash, val);
  if (!v) return false;
  uint32_t mask = h->cap - 1, hole = (uint32_t)(v - h->vals);
  /* an entry after the hole whose probe passed over the hole moves into it */
  for (uint32_t j = (hole + 1) & mask; h->vals[j] >= 0; j = (j + 1) & mask) {
    if (between(hole, h->hashes[j] & mask, j)) continue;
    h->hashes[hole] = h->hashes[j];
    h->vals[hole] = h->vals[j];
    hole = j;
  }
  h->vals[hole] = -1;
  h->count--;
  return true;
}

/* ---------------------------------------------------------------- hashes */

/* MurmurHash3's finalizer: every input bit reaches the low bits, which
 * pick the slot. */
static uint32_t fmix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53u;
  x ^= x >> 33;
  return (uint32_t)x;
}

uint64_t dr_fnv1a(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3u;
  return h;
}

uint32_t dr_hash_bytes(const void *p, size_t n) { return fmix(dr_fnv1a(p, n)); }

uint32_t dr_hash_str(const char *s) { return dr_hash_bytes(s, strlen(s)); }

uint32_t dr_hash_mix(uint32_t h, uint64_t word) { return fmix(word ^ ((uint64_t)h * 0x9E3779B97F4A7C15u)); }
