/* lint/engine/cursor_map.h -- a map from cursors to numbers. */
#ifndef EL_CURSOR_MAP_H
#define EL_CURSOR_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include "clang_api.h"

/* Per-TU answers about a declaration, asked again at each reference to it:
 * open addressing on clang_hashCursor, keys compared with
 * clang_equalCursors (so a declaration reached from a reference and from
 * the walk is one key).  Zero it before use; free with
 * el_cursor_map_free. */
typedef struct el_cursor_slot {
    CXCursor key;
    bool used;
    unsigned value;
} el_cursor_slot;

typedef struct el_cursor_map {
    el_cursor_slot *v;
    size_t cap, n;
} el_cursor_map;

/* The value of key, 0 when it is new (then inserted); NULL when memory
 * runs out.  The pointer lasts until the next call. */
static inline unsigned *el_cursor_value(el_cursor_map *m, CXCursor key)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        el_cursor_slot *v = calloc(cap, sizeof *v);
        if (!v)
            return NULL;
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->v[i].used)
                continue;
            size_t h = clang_hashCursor(m->v[i].key) & (cap - 1);
            while (v[h].used)
                h = (h + 1) & (cap - 1);
            v[h] = m->v[i];
        }
        free(m->v);
        m->v = v;
        m->cap = cap;
    }
    size_t h = clang_hashCursor(key) & (m->cap - 1);
    while (m->v[h].used) {
        if (clang_equalCursors(m->v[h].key, key))
            return &m->v[h].value;
        h = (h + 1) & (m->cap - 1);
    }
    m->v[h] = (el_cursor_slot){key, true, 0};
    m->n++;
    return &m->v[h].value;
}

static inline void el_cursor_map_free(el_cursor_map *m)
{
    free(m->v);
    m->v = NULL;
    m->cap = m->n = 0;
}

#endif
