/* lint/base/hash.c -- two 64-bit lanes over 16-byte blocks, murmur3's final
 * mix; enough to tell file contents apart for the cache. */
#include "hash.h"

#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL

static uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDULL;
    k ^= k >> 33;
    k *= 0xC4CEB9FE1A85EC53ULL;
    k ^= k >> 33;
    return k;
}

static uint64_t load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void block(el_hasher *h, const unsigned char *p)
{
    uint64_t k1 = load64(p), k2 = load64(p + 8);
    h->a = rotl(h->a ^ (k1 * P1), 31) * P2 + h->b;
    h->b = rotl(h->b ^ (k2 * P2), 29) * P1 + h->a;
}

void el_hash_init(el_hasher *h)
{
    memset(h, 0, sizeof *h);
    h->a = 0x243F6A8885A308D3ULL;
    h->b = 0x13198A2E03707344ULL;
}

void el_hash_update(el_hasher *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    if (n == 0)
        return;
    h->total += n;
    if (h->ntail) {
        size_t take = 16 - h->ntail < n ? 16 - h->ntail : n;
        memcpy(h->tail + h->ntail, p, take);
        h->ntail += take;
        p += take;
        n -= take;
        if (h->ntail < 16)
            return;
        block(h, h->tail);
        h->ntail = 0;
    }
    while (n >= 16) {
        block(h, p);
        p += 16;
        n -= 16;
    }
    memcpy(h->tail, p, n);
    h->ntail = n;
}

void el_hash_u64(el_hasher *h, uint64_t v)
{
    unsigned char b[8];
    memcpy(b, &v, 8);
    el_hash_update(h, b, 8);
}

void el_hash_str(el_hasher *h, const char *s)
{
    size_t n = s ? strlen(s) : (size_t)-1;
    el_hash_u64(h, (uint64_t)n);
    if (s)
        el_hash_update(h, s, n);
}

el_hash128 el_hash_final(const el_hasher *h0)
{
    el_hasher h = *h0;
    unsigned char last[16] = {0};
    memcpy(last, h.tail, h.ntail);
    last[15] = (unsigned char)h.ntail;
    block(&h, last);
    uint64_t a = h.a ^ (h.total * P3), b = h.b ^ h.total;
    a += b;
    b += a;
    a = fmix(a);
    b = fmix(b);
    a += b;
    b += a;
    return (el_hash128){a, b};
}

el_hash128 el_hash_bytes(const void *data, size_t n)
{
    el_hasher h;
    el_hash_init(&h);
    el_hash_update(&h, data, n);
    return el_hash_final(&h);
}

/* (not snprintf: its format parsing took 1 500 instructions a call, and a
 * cache entry formats one a dependency) */
static void hex64(unsigned long long v, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--, v >>= 4)
        out[i] = digits[v & 15];
}

void el_hash_hex(el_hash128 h, char out[33])
{
    hex64((unsigned long long)h.a, out);
    hex64((unsigned long long)h.b, out + 16);
    out[32] = '\0';
}

bool el_hash_eq(el_hash128 x, el_hash128 y)
{
    return x.a == y.a && x.b == y.b;
}
