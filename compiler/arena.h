/* A bump allocator for everything a compilation builds (tokens, AST,
 * symbols, types).  Freed in one go when the compilation ends. */
#ifndef DR_ARENA_H
#define DR_ARENA_H

#include "../vm/common.h"

typedef struct DrArenaBlock DrArenaBlock;
typedef struct {
  DrArenaBlock *head;
  size_t total;
} DrArena;

void dr_arena_init(DrArena *a);
void dr_arena_free(DrArena *a);
/* Zeroed, 16-byte aligned, never NULL. */
void *dr_arena_alloc(DrArena *a, size_t size);
char *dr_arena_strdup(DrArena *a, const char *s);
char *dr_arena_strndup(DrArena *a, const char *s, size_t n);
char *dr_arena_printf(DrArena *a, const char *fmt, ...) DR_PRINTF(2, 3);
/* A point to go back to: everything allocated after it can be freed at
 * once while what came before stays (scratch data that would otherwise
 * pile up, such as the flow pass's states). */
typedef struct {
  DrArenaBlock *head;
  size_t used, total;
} DrArenaMark;
DrArenaMark dr_arena_mark(const DrArena *a);
void dr_arena_release(DrArena *a, DrArenaMark m);
/* Grows an arena array: returns a copy of old (count items) with room for cap. */
void *dr_arena_grow(DrArena *a, void *old, size_t item_size, int count, int *cap);
#define DR_ARENA_PUSH(arena, items, count, cap, value)                        \
  do {                                                                        \
    if ((count) == (cap))                                                     \
      (items) = dr_arena_grow((arena), (items), sizeof(*(items)), (count), &(cap)); \
    (items)[(count)++] = (value);                                             \
  } while (0)

#endif
