/* lint/base/strmap.c -- open addressing with linear probing. */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

struct el_strmap_slot {
    char *key;
    void *value;
    uint64_t hash;
};

static uint64_t str_hash(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001B3ULL;
    return h;
}

void *el_strmap_get(const el_strmap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    uint64_t h = str_hash(key);
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        struct el_strmap_slot *s = &m->slots[i];
        if (!s->key)
            return NULL;
        if (s->hash == h && strcmp(s->key, key) == 0)
            return s->value;
    }
}

static void rehash(el_strmap *m, size_t cap)
{
    struct el_strmap_slot *old = m->slots;
    size_t oldcap = m->cap;
    m->slots = el_xcalloc(cap, sizeof *m->slots);
    m->cap = cap;
    for (size_t j = 0; j < oldcap; j++) {
        if (!old[j].key)
            continue;
        size_t i = old[j].hash & (cap - 1);
        while (m->slots[i].key)
            i = (i + 1) & (cap - 1);
        m->slots[i] = old[j];
    }
    free(old);
}

void *el_strmap_put(el_strmap *m, const char *key, void *value)
{
    if ((m->n + 1) * 2 > m->cap)
        rehash(m, m->cap ? m->cap * 2 : 16);
    uint64_t h = str_hash(key);
    size_t i = h & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        struct el_strmap_slot *s = &m->slots[i];
        if (!s->key)
            break;
        if (s->hash == h && strcmp(s->key, key) == 0) {
            void *prev = s->value;
            s->value = value;
            return prev;
        }
    }
    m->slots[i].key = el_xstrdup(key);
    m->slots[i].value = value;
    m->slots[i].hash = h;
    m->n++;
    return NULL;
}

void el_strmap_each(const el_strmap *m, void (*fn)(const char *, void *, void *), void *ud)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            fn(m->slots[i].key, m->slots[i].value, ud);
}

void el_strmap_free(el_strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}
