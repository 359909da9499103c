/*
 * hash.c - the string hash table of hash.h: linear probing, at most half
 * full, doubled when it would be fuller.
 */
#include <stdlib.h>
#include <string.h>

#include "hash.h"

#define HASH_MIN_CAP 16u

uint32_t rlx__hash_string(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    /* mix the high bits down: the table indexes by the low bits, and names
     * like n1, n2, ... differ only in their last bytes */
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    return h;
}

/* The slot holding KEY, or the empty slot where it would go. */
static uint32_t slot_of(const rlx__hash *h, const char *key)
{
    uint32_t mask = h->cap - 1;
    uint32_t i = rlx__hash_string(key) & mask;
    while (h->keys[i] && strcmp(h->keys[i], key) != 0)
        i = (i + 1) & mask;
    return i;
}

int rlx__hash_get(const rlx__hash *h, const char *key, uint32_t *val)
{
    if (!h->cap)
        return 0;
    uint32_t i = slot_of(h, key);
    if (!h->keys[i])
        return 0;
    if (val)
        *val = h->vals[i];
    return 1;
}

static int grow(rlx__hash *h)
{
    if (h->cap > UINT32_MAX / 4)
        return 0;
    rlx__hash bigger = { .cap = h->cap ? h->cap * 2 : HASH_MIN_CAP };
    bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
    bigger.vals = malloc(bigger.cap * sizeof *bigger.vals);
    if (!bigger.keys || !bigger.vals) {
        rlx__hash_free(&bigger);
        return 0;
    }
    for (uint32_t i = 0; i < h->cap; i++)
        if (h->keys[i]) {
            uint32_t j = slot_of(&bigger, h->keys[i]);
            bigger.keys[j] = h->keys[i];
            bigger.vals[j] = h->vals[i];
        }
    bigger.count = h->count;
    rlx__hash_free(h);
    *h = bigger;
    return 1;
}

int rlx__hash_add(rlx__hash *h, const char *key, uint32_t val,
                  uint32_t *old)
{
    if (h->cap) {
        uint32_t i = slot_of(h, key);
        if (h->keys[i]) {
            if (old)
                *old = h->vals[i];
            return 0;
        }
    }
    if (2 * ((uint64_t)h->count + 1) > h->cap && !grow(h))
        return -1;
    uint32_t i = slot_of(h, key);
    h->keys[i] = key;
    h->vals[i] = val;
    h->count++;
    return 1;
}

void rlx__hash_free(rlx__hash *h)
{
    free(h->keys);
    free(h->vals);
    *h = (rlx__hash){ 0 };
}
