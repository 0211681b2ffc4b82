/* random_uniform and random_normal for f32 and f16 outputs (stream
 * version 2, docs/random.md), compiled once per instruction set (the
 * Makefile's simd rule) and shared by every backend through eh_rand_fill.
 *
 * One Philox4x32-10 block serves four outputs: group g = i / 4 of the
 * output takes the block of counter (g mod 2^32, g div 2^32, call, 2^31)
 * and element 4g + k its word k (uniform), or words 2j, 2j + 1 feed the
 * Box-Muller pair of elements 4g + 2j, 4g + 2j + 1 (normal: both outputs
 * used).  Sixteen groups run in the lanes of GCC/clang generic vectors,
 * which the compiler maps onto the machine's vector registers.
 *
 * Same bits on every instruction set, backend and thread count: only IEEE
 * operations that round identically wherever they run (+ - * /, sqrt,
 * integer <-> float conversions; -ffp-contract=off, so no fused
 * multiply-adds), and log, sin and cos are this file's own polynomials
 * (Cephes' single-precision ones), not libm's or SLEEF's, whose results
 * depend on the library and the instruction set. */
#include <math.h>
#include <string.h>
#include <eh/backend_api.h>
#include <eh/backend_f16.h>
#include "../internal.h"

#define PASTE_(a, b) a##_##b
#define PASTE(a, b) PASTE_(a, b)

#define L 16 /* groups per vector step */
typedef uint32_t vu32 __attribute__((vector_size(4 * L)));
typedef int32_t vi32 __attribute__((vector_size(4 * L)));
typedef uint64_t vu64 __attribute__((vector_size(4 * L)));
typedef float vf32 __attribute__((vector_size(4 * L)));

#define SEL(m, a, b) ((vf32)(((vi32)(a) & (m)) | ((vi32)(b) & ~(m))))

/* 32 x 32 -> 64-bit products of 16 lanes: even and odd lanes as 64-bit
 * halves (compiles to pmuludq). */
static inline void mulhilo(uint32_t m, vu32 a, vu32 *hi, vu32 *lo)
{
    vu64 x = (vu64)a;
    vu64 pe = (x & 0xffffffffu) * (uint64_t)m;
    vu64 po = (x >> 32) * (uint64_t)m;
    *lo = (vu32)((pe & 0xffffffffu) | (po << 32));
    *hi = (vu32)((pe >> 32) | (po & 0xffffffff00000000u));
}

/* Philox4x32-10 on 16 counters at once (libeh/src/philox.c's rounds). */
static inline void philox16(vu32 c[4], uint32_t k0, uint32_t k1)
{
    for (int r = 0; r < 10; r++) {
        vu32 h0, l0, h1, l1;
        mulhilo(0xD2511F53u, c[0], &h0, &l0);
        mulhilo(0xCD9E8D57u, c[2], &h1, &l1);
        vu32 n0 = h1 ^ c[1] ^ k0, n2 = h0 ^ c[3] ^ k1;
        c[0] = n0;
        c[1] = l1;
        c[2] = n2;
        c[3] = l0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* w converted to float with one rounding (to nearest), from two exact
 * halves: the same result as C's (float)w on any instruction set. */
static inline vf32 u32_to_f32(vu32 w)
{
    vf32 hi = __builtin_convertvector((vi32)(w >> 16), vf32);
    vf32 lo = __builtin_convertvector((vi32)(w & 0xffffu), vf32);
    return hi * 65536.0f + lo;
}

/* log(x) for x in [2^-32, 1] (Cephes logf: m in [sqrt(1/2), sqrt(2)),
 * a degree-9 polynomial, the exponent's ln 2 in two parts). */
static inline vf32 log_f32(vf32 x)
{
    vi32 bits = (vi32)x;
    vi32 e = ((bits >> 23) & 0xff) - 126;
    vf32 m = (vf32)((bits & 0x007fffff) | 0x3f000000); /* [0.5, 1) */
    vi32 small = m < 0.70710678f;
    e += small; /* -1 where small */
    m = SEL(small, m + m - 1.0f, m - 1.0f);
    vf32 z = m * m;
    vf32 y = (vf32){0} + 7.0376836292E-2f;
    y = y * m - 1.1514610310E-1f;
    y = y * m + 1.1676998740E-1f;
    y = y * m - 1.2420140846E-1f;
    y = y * m + 1.4249322787E-1f;
    y = y * m - 1.6668057665E-1f;
    y = y * m + 2.0000714765E-1f;
    y = y * m - 2.4999993993E-1f;
    y = y * m + 3.3333331174E-1f;
    y = y * m * z;
    vf32 fe = __builtin_convertvector(e, vf32);
    y = y + fe * -2.12194440e-4f;
    y = y - z * 0.5f;
    vf32 r = m + y;
    return r + fe * 0.693359375f;
}

/* sin and cos of a in [0, pi/4] (Cephes sinf, cosf polynomials). */
static inline void sincos_f32(vf32 a, vf32 *s, vf32 *c)
{
    vf32 z = a * a;
    vf32 ps = (vf32){0} - 1.9515295891E-4f;
    ps = ps * z + 8.3321608736E-3f;
    ps = ps * z - 1.6666654611E-1f;
    *s = ps * z * a + a;
    vf32 pc = (vf32){0} + 2.443315711809948E-005f;
    pc = pc * z - 1.388731625493765E-003f;
    pc = pc * z + 4.166664568298827E-002f;
    *c = pc * z * z - z * 0.5f + 1.0f;
}

/* Box-Muller on one word pair per lane: u1 = (w1 + 1) 2^-32 in (0, 1]
 * (from float(w1) + 1: tails reach sqrt(64 ln 2) = 6.66), the angle
 * 2 pi w2 2^-32 from w2's bits: quadrant (top two), octant (next), and
 * the rest reflected into [0, pi/4] so the polynomials stay in range. */
static inline void box_muller(vu32 w1, vu32 w2, vf32 *z0, vf32 *z1)
{
    vf32 u1 = (u32_to_f32(w1) + 1.0f) * 0x1p-32f;
    vf32 r = -2.0f * log_f32(u1);
    for (int l = 0; l < L; l++) /* sqrt: correctly rounded everywhere */
        r[l] = sqrtf(r[l]);
    vu32 q = w2 >> 30;
    vi32 oct = (vi32)((w2 >> 29) & 1u) != 0;
    vu32 f = w2 & 0x1fffffffu;
    vu32 t = (vu32)(((vi32)(0x20000000u - f) & oct) | ((vi32)f & ~oct));
    vf32 a = __builtin_convertvector((vi32)t, vf32) * (float)(1.5707963267948966 / 1073741824.0);
    vf32 s, c;
    sincos_f32(a, &s, &c);
    vf32 sn = SEL(oct, c, s), cs = SEL(oct, s, c); /* sin, cos of the quadrant's angle */
    vi32 q1 = (vi32)q == 1, q2 = (vi32)q == 2, q3 = (vi32)q == 3;
    vf32 cos_t = SEL(q1, -sn, SEL(q2, -cs, SEL(q3, sn, cs)));
    vf32 sin_t = SEL(q1, cs, SEL(q2, -sn, SEL(q3, -cs, sn)));
    *z0 = r * cos_t;
    *z1 = r * sin_t;
}

/* Elements [begin, end) of a uniform (normal == 0: low a, width b) or
 * normal (mean a, std b) f32/f16 output; results clamped to [lo, hi]
 * (uniform: the dtype's values in [low, high)). */
void PASTE(eh__rand_fill32, EH_ISA_SUFFIX)(const eh__rand32_args *p, int64_t begin, int64_t end)
{
    int64_t g0 = begin / 4, g1 = (end + 3) / 4;
    for (int64_t g = g0; g < g1; g += L) {
        vu32 c[4];
        for (int l = 0; l < L; l++) {
            uint64_t gl = (uint64_t)(g + l);
            c[0][l] = (uint32_t)gl;
            c[1][l] = (uint32_t)(gl >> 32);
            c[2][l] = p->call;
            c[3][l] = 0x80000000u;
        }
        philox16(c, p->key[0], p->key[1]);
        vf32 v[4];
        if (p->normal) {
            box_muller(c[0], c[1], &v[0], &v[1]);
            box_muller(c[2], c[3], &v[2], &v[3]);
        } else {
            for (int k = 0; k < 4; k++)
                v[k] = __builtin_convertvector((vi32)(c[k] >> 8), vf32) * 0x1p-24f;
        }
        /* element 4(g + l) + k <- v[k][l]: a + b * v in double, rounded
         * once to float, clamped to [lo, hi] */
        float tmp[4 * L];
        for (int l = 0; l < L; l++)
            for (int k = 0; k < 4; k++)
                tmp[4 * l + k] = v[k][l];
        int64_t base = 4 * g;
        int64_t j0 = begin > base ? begin - base : 0;
        int64_t j1 = end - base < 4 * L ? end - base : 4 * L;
        float lo = p->lo, hi = p->hi;
        if (!p->f16) {
            float *o = (float *)p->out + base;
            for (int64_t j = j0; j < j1; j++) {
                float y = (float)(p->a + p->b * (double)tmp[j]);
                o[j] = y < lo ? lo : y > hi ? hi : y;
            }
        } else {
            uint16_t *o = (uint16_t *)p->out + base;
            uint16_t hlo = eh_f32_to_f16_inline(lo), hhi = eh_f32_to_f16_inline(hi);
            for (int64_t j = j0; j < j1; j++) {
                uint16_t h = eh_f32_to_f16_inline((float)(p->a + p->b * (double)tmp[j]));
                float hf = eh_f16_to_f32_inline(h);
                o[j] = hf < lo ? hlo : hf > hi ? hhi : h;
            }
        }
    }
}
