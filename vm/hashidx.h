/* DrHashIdx: a hash index from keys the caller keeps to small integers
 * (positions in the caller's own arrays), for the lookups by name that
 * would otherwise scan: the compiler's scopes, members and class names,
 * switch labels, vtable slots, the VM's string constants.
 *
 * The index stores only each entry's hash and integer; whether an entry's
 * key is the one looked up is the caller's answer (a DrHashSame), so one
 * index serves C strings, UTF-16 text, signatures and (class, name) pairs
 * alike, and stays right when the keys' objects move (the GC's strings).
 * Several entries may share a key: find returns one of them, slot the one
 * with a given integer.  A zeroed DrHashIdx is an empty index. */
#ifndef DR_HASHIDX_H
#define DR_HASHIDX_H

#include "common.h"

typedef struct {
  uint32_t *hashes;
  int32_t *vals;  /* -1: an empty slot */
  uint32_t cap;   /* a power of two, or 0 */
  uint32_t count;
} DrHashIdx;

/* Whether entry val's key is key (what the caller passed to find). */
typedef bool (*DrHashSame)(const void *key, int32_t val);

void dr_hidx_free(DrHashIdx *h);
/* Adds an entry; val >= 0. */
void dr_hidx_add(DrHashIdx *h, uint32_t hash, int32_t val);
/* The value of an entry with this hash whose key is key, or NULL.  The
 * pointer may be written (a key that now names another position) and is
 * good until the next add or remove. */
int32_t *dr_hidx_find(const DrHashIdx *h, uint32_t hash, DrHashSame same, const void *key);
/* The entry with this hash and value, or NULL (as for find). */
int32_t *dr_hidx_slot(const DrHashIdx *h, uint32_t hash, int32_t val);
/* Removes the entry with this hash and value; false if there is none. */
bool dr_hidx_remove(DrHashIdx *h, uint32_t hash, int32_t val);

/* Hashes for keys: bytes, C strings, and one more word mixed into a hash
 * (an owner's address, a number).  dr_fnv1a is 64-bit FNV-1a itself
 * (recordings name their program by it). */
uint64_t dr_fnv1a(const void *p, size_t n);
uint32_t dr_hash_bytes(const void *p, size_t n);
uint32_t dr_hash_str(const char *s);
uint32_t dr_hash_mix(uint32_t h, uint64_t word);

#endif
