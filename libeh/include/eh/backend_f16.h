/* <eh/backend_f16.h> -- IEEE 754 binary16 <-> binary32, bit by bit, as
 * static inline functions: the one definition of libeh's f16 conversions.
 *
 * libeh/src/f16.c exports them as eh_f16_to_f32 / eh_f32_to_f16; backends
 * whose loops convert f16 per element include this header instead, so the
 * conversion inlines rather than costing a call per element.  Internal,
 * like every backend_*.h: not installed.  Bit operations only, so the
 * result does not depend on the compiler's _Float16 support; rounding is
 * to nearest even. */
#ifndef EH_BACKEND_F16_H
#define EH_BACKEND_F16_H

#include <stdint.h>
#include <string.h>

static inline float eh_f16_to_f32_inline(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t u;
    float f;
    if (exp == 0x1f) { /* inf or nan */
        u = sign | 0x7f800000u | (man << 13);
    } else if (exp == 0) {
        if (man == 0) {
            u = sign;
        } else {
            /* subnormal: value = man * 2^-24 */
            float v = (float)man * 5.9604644775390625e-8f;
            return sign ? -v : v;
        }
    } else {
        u = sign | ((exp + 112u) << 23) | (man << 13);
    }
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint16_t eh_f32_to_f16_inline(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t exp = (u >> 23) & 0xffu;
    uint32_t man = u & 0x7fffffu;
    if (exp == 0xff) /* inf stays inf, nan stays a quiet nan */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 0x1f) /* overflow */
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) /* underflows to zero */
            return sign;
        /* subnormal half: shift the full mantissa, round to nearest even */
        uint32_t m = man | 0x800000u;
        int shift = 14 - e;
        uint32_t half = 1u << (shift - 1);
        uint32_t rest = m & ((1u << shift) - 1);
        uint32_t out = m >> shift;
        if (rest > half || (rest == half && (out & 1u)))
            out++;
        return (uint16_t)(sign | out);
    }
    uint32_t out = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (out & 1u)))
        out++; /* may carry into the exponent, which is the right answer */
    return (uint16_t)(sign | out);
}

#endif
