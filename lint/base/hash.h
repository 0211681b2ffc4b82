/* lint/base/hash.h -- a 128-bit content hash for cache keys (not cryptographic;
 * fast and well mixed). */
#ifndef EL_HASH_H
#define EL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef struct el_hash128 {
    uint64_t a, b;
} el_hash128;

typedef struct el_hasher {
    uint64_t a, b;
    uint64_t total;
    unsigned char tail[16];
    size_t ntail;
} el_hasher;

void el_hash_init(el_hasher *h);
void el_hash_update(el_hasher *h, const void *data, size_t n);
/* A string with its length, so ("ab","c") and ("a","bc") differ. */
void el_hash_str(el_hasher *h, const char *s);
void el_hash_u64(el_hasher *h, uint64_t v);
el_hash128 el_hash_final(const el_hasher *h);
/* One-shot hash of a buffer. */
el_hash128 el_hash_bytes(const void *data, size_t n);
/* 32 lowercase hex digits and a NUL. */
void el_hash_hex(el_hash128 h, char out[33]);
bool el_hash_eq(el_hash128 x, el_hash128 y);

#endif
