/* Bump allocation in large blocks; a compilation frees everything at once. */
#include "arena.h"

#include <stdarg.h>
#include <string.h>

struct DrArenaBlock {
  DrArenaBlock *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
};

enum { DR_ARENA_BLOCK = 64 * 1024 };

void dr_arena_init(DrArena *a) {
  a->head = NULL;
  a->total = 0;
}

void dr_arena_free(DrArena *a) {
  DrArenaBlock *b = a->head;
  while (b) {
    DrArenaBlock *n = b->next;
    free(b);
    b = n;
  }
  a->head = NULL;
  a->total = 0;
}

void *dr_arena_alloc(DrArena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  DrArenaBlock *b = a->head;
  if (!b || b->size - b->used < size) {
    size_t bsize = size > DR_ARENA_BLOCK ? size : DR_ARENA_BLOCK;
    b = dr_xrealloc(NULL, sizeof(DrArenaBlock) + bsize);
    b->size = bsize;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += size;
  a->total += size;
  memset(p, 0, size);
  return p;
}

DrArenaMark dr_arena_mark(const DrArena *a) {
  DrArenaMark m = {a->head, a->head ? a->head->used : 0, a->total};
  return m;
}

void dr_arena_release(DrArena *a, DrArenaMark m) {
  while (a->head != m.head) {
    DrArenaBlock *b = a->head;
    a->head = b->next;
    free(b);
  }
  if (a->head) a->head->used = m.used;
  a->total = m.total;
}

char *dr_arena_strndup(DrArena *a, const char *s, size_t n) {
  char *d = dr_arena_alloc(a, n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *dr_arena_strdup(DrArena *a, const char *s) { return dr_arena_strndup(a, s, strlen(s)); }

char *dr_arena_printf(DrArena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *d = dr_arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(d, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return d;
}

void *dr_arena_grow(DrArena *a, void *old, size_t item_size, int count, int *cap) {
  int ncap = *cap ? *cap * 2 : 8;
  if (ncap < count + 1) ncap = count + 1;
  void *p = dr_arena_alloc(a, item_size * (size_t)ncap);
  if (old && count) memcpy(p, old, item_size * (size_t)count);
  *cap = ncap;
  return p;
}
