/* lint/base/strmap.h -- a hash map from strings to pointers (not thread-safe;
 * callers lock). */
#ifndef EL_STRMAP_H
#define EL_STRMAP_H

#include <stddef.h>

typedef struct el_strmap {
    struct el_strmap_slot *slots;
    size_t cap;   /* power of two */
    size_t n;
} el_strmap;

/* The value stored for key, or NULL. */
void *el_strmap_get(const el_strmap *m, const char *key);
/* Store value for key (the map keeps its own copy of the key); returns the
 * previous value or NULL. */
void *el_strmap_put(el_strmap *m, const char *key, void *value);
/* Call fn on every entry (in no particular order). */
void el_strmap_each(const el_strmap *m, void (*fn)(const char *key, void *value, void *ud), void *ud);
void el_strmap_free(el_strmap *m);

#endif
