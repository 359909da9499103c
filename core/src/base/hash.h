/*
 * hash.h - a small string -> uint32_t hash table (open addressing), for
 * the duplicate checks and name lookups of everything rlx reads from a
 * file (YAML mappings, JSON objects, config options, graph names), so a
 * hostile file with many keys loads in time linear in its size.
 *
 * Keys are borrowed: each must stay valid, unchanged, while in the table.
 * A zeroed struct is an empty table; nothing is ever removed.
 */
#ifndef RLX_HASH_H
#define RLX_HASH_H

#include <stdint.h>

typedef struct rlx__hash {
    const char **keys; /* NULL: empty slot */
    uint32_t *vals;
    uint32_t cap, count; /* cap: 0 or a power of two */
} rlx__hash;

/* FNV-1a of S, its high bits mixed into the low ones. */
uint32_t rlx__hash_string(const char *s);
/* 1 and *VAL (when not NULL) if KEY is in H, else 0. */
int rlx__hash_get(const rlx__hash *h, const char *key, uint32_t *val);
/* Add KEY -> VAL. 1: added; 0: KEY was there already (*OLD, when not
 * NULL, gets its value; nothing changes); -1: out of memory. */
int rlx__hash_add(rlx__hash *h, const char *key, uint32_t val,
                  uint32_t *old);
/* Free the table's memory (not the keys); H is empty again. */
void rlx__hash_free(rlx__hash *h);

#endif
