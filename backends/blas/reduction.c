/* blas kernels: reductions, scans, softmax, vector norms, allclose.
 *
 * Semantics are ref's (backends/ref/reduction.c, docs/ops/reduction.md);
 * the eh_op_call.p contract is at the top of libeh/src/ops_reduction.c.
 *
 * Geometry.  After dropping size-1 dimensions and merging adjacent ones of
 * the same kind, most reductions have the form x[K1][R][K2]: K1 * K2 lanes
 * of R elements, lane (k1, k2) writing output element k1 * K2 + k2.  K2 == 1
 * is a contiguous lane (sum over the last axes, or everything); K2 > 1 is
 * a "column" reduction walked row by row, so that the inner loop runs over
 * K2 contiguous columns.  Other patterns (reduced axes that are not one
 * block, e.g. axes (0, 2) of a 3-D tensor), empty inputs and the matrix
 * norms run ref's kernel.
 *
 * Work split.  Either blocks of lanes (a k1 and up to COL_BLOCK columns)
 * are handed to threads, each doing whole lanes; or, when there are too
 * few lanes to keep threads busy, the R axis is cut into chunks whose
 * partial results are merged in chunk order.  Both decisions and the chunk
 * size depend on the shape only, never on the thread count: a result is
 * the same for every EH_NUM_THREADS.
 *
 * Values.
 *  - max, min, argmax, argmin, integer sum and prod, cumsum and cumprod are
 *    bit-identical to ref (exact merges; scans run ref's exact sequence).
 *  - Float sums (sum, mean, var, std, logsumexp, softmax, norms) are
 *    accumulated in double like ref's, but not always in ref's order.
 *    f64: contiguous lanes of fewer than SMALL_LANE elements and unsplit
 *    columns run ref's Neumaier sequence exactly (bit-identical results);
 *    longer lanes use four interleaved Neumaier accumulators.  f16/f32:
 *    short lanes likewise; longer lanes add blocks of 1024 values (columns:
 *    blocks of COL_ROWS rows) plainly in double -- exact to ~2^-40
 *    relative, far below the f32 result's rounding -- and combine the
 *    block sums with Neumaier.  R-chunks merge with Neumaier.  The results
 *    differ from ref by rounding only.
 *  - Float prod multiplies in double in ref's order within a lane;
 *    R-chunk partials are multiplied in chunk order.
 *  - exp, log, sqrt are double precision, as ref's. */
#include <float.h>
#include <stdlib.h>
#include <eh/backend_alloc.h>
#include "blas.h"
#include "../ref/reduction_kernels.h"
#include "reduce_arith.h"
#include "vecmath.h"

#define COL_BLOCK 256            /* columns per lane block                  */
#define SPLIT_ELEMS ((int64_t)1 << 16) /* elements per R-chunk (all lanes) */
#define SMALL_LANE 256           /* shorter contiguous lanes: ref's order   */
#define FLAT_BLOCK 1024          /* f16/f32 block of plain double sums      */
#define WIDE_CHUNKS 16           /* R-chunks of a wide-row reduction        */
#define WIDE_MAX_LANES ((int64_t)1 << 16) /* partial rows stay <= 32 MiB    */

/* ---- values (ref's conventions) ------------------------------------------ */

/* ref's arithmetic (backends/ref/reduction_kernels.h): Neumaier sums,
 * wrapping integers, and the rounding of a float result. */
typedef eh_ref_ksum ksum;

/* ---- accumulators and passes ----------------------------------------------- */

/* One lane's running state.  Neumaier sums: (s, c).  Float products: s.
 * Integer sums/products: iv.  Extremes: s (float value) or iv (integer
 * value), idx (position in the lane), c = 1 once a NaN was seen. */
typedef struct {
    double s, c;
    int64_t iv, idx;
} racc;

typedef enum {
    P_SUM,      /* Neumaier sum of x                     */
    P_SQDEV,    /* Neumaier sum of (x - p)^2             */
    P_EXPSUM,   /* Neumaier sum of exp(x - p)            */
    P_ABSSUM,   /* Neumaier sum of |x|                   */
    P_SQSCALE,  /* Neumaier sum of (x / p)^2             */
    P_PROD,     /* product in double                     */
    P_ISUM,     /* wrapping int64 sum                    */
    P_IPROD,    /* wrapping int64 product                */
    P_MAX,      /* first NaN, else first maximum (index) */
    P_MIN,      /* first NaN, else first minimum (index) */
    P_ABSMAX,   /* NaN if any, else max |x| (value only) */
    P_ABSMIN    /* NaN if any, else min |x| (value only) */
} pass_kind;

static int pass_is_nsum(pass_kind p) { return p <= P_SQSCALE; }

static void acc_init(pass_kind p, racc *a, int64_t n)
{
    for (int64_t j = 0; j < n; j++) {
        a[j].s = p == P_PROD ? 1.0 : 0.0;
        a[j].c = 0.0;
        a[j].iv = p == P_IPROD ? 1 : 0;
        a[j].idx = -1; /* extremes: nothing seen yet */
    }
}

/* `into` = `into` followed by `from` (a later part of the same lanes). */
static void acc_merge(pass_kind p, int is_float, racc *into, const racc *from, int64_t n)
{
    for (int64_t j = 0; j < n; j++) {
        racc *a = &into[j];
        const racc *b = &from[j];
        switch (p) {
        case P_PROD: a->s *= b->s; break;
        case P_ISUM: a->iv = eh_ref_wrap_add(a->iv, b->iv); break;
        case P_IPROD: a->iv = eh_ref_wrap_mul(a->iv, b->iv); break;
        case P_MAX: case P_MIN: case P_ABSMAX: case P_ABSMIN: {
            if (b->idx < 0 || a->c != 0.0)
                break;
            int take = a->idx < 0 || b->c != 0.0;
            if (!take) {
                int want_max = p == P_MAX || p == P_ABSMAX;
                if (is_float)
                    take = want_max ? b->s > a->s : b->s < a->s;
                else
                    take = want_max ? b->iv > a->iv : b->iv < a->iv;
            }
            if (take)
                *a = *b;
            break;
        }
        default: { /* Neumaier */
            ksum k = {a->s, a->c};
            eh_ref_ksum_add(&k, b->s);
            a->s = k.s;
            a->c = k.c + b->c;
            break;
        }
        }
    }
}

/* ---- contiguous-lane kernels ------------------------------------------------- */

/* Loads, transforms (F_SUM ...) and NEU_STEP: reduce_arith.h. */

/* Neumaier sum of F over a contiguous lane, added into *a.  ACCURATE (f64
 * data): four interleaved Neumaier accumulators; otherwise blocks of
 * FLAT_BLOCK plain double sums, each block Neumaier-added. */
#define FLAT_NSUM(NAME, T, LD, F, ACCURATE)                                         \
    static void NAME(const T *restrict x, int64_t n, double p, racc *a)            \
    {                                                                              \
        ksum k = {a->s, a->c};                                                     \
        int64_t i = 0;                                                             \
        if (n >= SMALL_LANE) {                                                     \
            if (ACCURATE) {                                                        \
                ksum k1 = {0, 0}, k2 = {0, 0}, k3 = {0, 0}, k0 = {0, 0};           \
                for (; i + 4 <= n; i += 4) {                                       \
                    double v0 = LD(x[i]), v1 = LD(x[i + 1]);                       \
                    double v2 = LD(x[i + 2]), v3 = LD(x[i + 3]);                   \
                    eh_ref_ksum_add(&k0, F(v0, p));                                       \
                    eh_ref_ksum_add(&k1, F(v1, p));                                       \
                    eh_ref_ksum_add(&k2, F(v2, p));                                       \
                    eh_ref_ksum_add(&k3, F(v3, p));                                       \
                }                                                                  \
                eh_ref_ksum_add(&k, k0.s);                                                \
                eh_ref_ksum_add(&k, k1.s);                                                \
                eh_ref_ksum_add(&k, k2.s);                                                \
                eh_ref_ksum_add(&k, k3.s);                                                \
                k.c += (k0.c + k1.c) + (k2.c + k3.c);                              \
            } else {                                                               \
                for (; i + FLAT_BLOCK <= n; i += FLAT_BLOCK) {                     \
                    double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};                        \
                    const T *xb = x + i;                                           \
                    for (int64_t j = 0; j < FLAT_BLOCK; j += 8)                    \
                        for (int q = 0; q < 8; q++) {                              \
                            double v = LD(xb[j + q]);                              \
                            s[q] += F(v, p);                                       \
                        }                                                          \
                    double t = ((s[0] + s[1]) + (s[2] + s[3])) +                   \
                               ((s[4] + s[5]) + (s[6] + s[7]));                    \
                    eh_ref_ksum_add(&k, t);                                               \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        for (; i < n; i++) {                                                       \
            double v = LD(x[i]);                                                   \
            eh_ref_ksum_add(&k, F(v, p));                                                 \
        }                                                                          \
        a->s = k.s;                                                                \
        a->c = k.c;                                                                \
    }

#define FLAT_NSUM_ALL(F)                                                            \
    FLAT_NSUM(flat_##F##_h, uint16_t, LD_F16, F, 0)                                \
    FLAT_NSUM(flat_##F##_f, float, LD_NUM, F, 0)                                   \
    FLAT_NSUM(flat_##F##_d, double, LD_NUM, F, 1)
FLAT_NSUM_ALL(F_SUM)
FLAT_NSUM_ALL(F_SQDEV)
FLAT_NSUM_ALL(F_EXPSUM)
FLAT_NSUM_ALL(F_ABSSUM)
FLAT_NSUM_ALL(F_SQSCALE)

/* Neumaier sums of F over columns j0..j0+w (row stride ld), rows [0, rows),
 * in ref's order per column.  ACCURATE (f64): every value goes through
 * Neumaier, so an unsplit column is bit-identical to ref.  Otherwise
 * (f16/f32 data, whose double sums have ~29 bits to spare) blocks of
 * COL_ROWS rows are summed plainly in double and each block sum is
 * Neumaier-added: 2-3x faster. */
#define COL_NSUM(NAME, T, LD, F, ACCURATE)                                          \
    static void NAME(const T *restrict x, int64_t ld, int64_t rows, int64_t w,     \
                     const double *restrict p, racc *a)                            \
    {                                                                              \
        double s[COL_BLOCK], c[COL_BLOCK], b[COL_BLOCK];                           \
        for (int64_t j = 0; j < w; j++) {                                          \
            s[j] = a[j].s;                                                         \
            c[j] = a[j].c;                                                         \
        }                                                                          \
        int64_t r = 0;                                                             \
        if (!(ACCURATE)) {                                                         \
            for (; r + COL_ROWS <= rows; r += COL_ROWS) {                          \
                for (int64_t j = 0; j < w; j++)                                    \
                    b[j] = 0.0;                                                    \
                for (int64_t q = 0; q < COL_ROWS; q++) {                           \
                    const T *row = x + (r + q) * ld;                               \
                    for (int64_t j = 0; j < w; j++) {                              \
                        double v = LD(row[j]);                                     \
                        b[j] += F(v, p[j]);                                        \
                    }                                                              \
                }                                                                  \
                for (int64_t j = 0; j < w; j++)                                    \
                    NEU_STEP(s[j], c[j], b[j]);                                    \
            }                                                                      \
        }                                                                          \
        for (; r < rows; r++)                                                      \
            NEU_ROW(x + r * ld, w, p, s, c, LD, F)                                 \
        for (int64_t j = 0; j < w; j++) {                                          \
            a[j].s = s[j];                                                         \
            a[j].c = c[j];                                                         \
        }                                                                          \
    }
#define COL_NSUM_ALL(F)                                                             \
    COL_NSUM(col_##F##_h, uint16_t, LD_F16, F, 0)                                  \
    COL_NSUM(col_##F##_f, float, LD_NUM, F, 0)                                     \
    COL_NSUM(col_##F##_d, double, LD_NUM, F, 1)
COL_NSUM_ALL(F_SUM)
COL_NSUM_ALL(F_SQDEV)
COL_NSUM_ALL(F_EXPSUM)
COL_NSUM_ALL(F_ABSSUM)
COL_NSUM_ALL(F_SQSCALE)

typedef void (*flat_nsum_fn)(const void *x, int64_t n, double p, racc *a);
typedef void (*col_nsum_fn)(const void *x, int64_t ld, int64_t rows, int64_t w, const double *p,
                            racc *a);

#define NSUM_ROW(F) {(flat_nsum_fn)flat_##F##_h, (flat_nsum_fn)flat_##F##_f, (flat_nsum_fn)flat_##F##_d}
static const flat_nsum_fn flat_nsum[5][3] = {NSUM_ROW(F_SUM), NSUM_ROW(F_SQDEV), NSUM_ROW(F_EXPSUM),
                                             NSUM_ROW(F_ABSSUM), NSUM_ROW(F_SQSCALE)};
#define CNSUM_ROW(F) {(col_nsum_fn)col_##F##_h, (col_nsum_fn)col_##F##_f, (col_nsum_fn)col_##F##_d}
static const col_nsum_fn col_nsum[5][3] = {CNSUM_ROW(F_SUM), CNSUM_ROW(F_SQDEV), CNSUM_ROW(F_EXPSUM),
                                           CNSUM_ROW(F_ABSSUM), CNSUM_ROW(F_SQSCALE)};

static int float_slot(eh_dtype dt) { return dt == EH_F16 ? 0 : dt == EH_F32 ? 1 : 2; }

/* Extremes of a contiguous lane, in blocks of EXT_BLOCK elements.  Within
 * a block, eight independent lanes of `v > m ? v : m` (which the compiler
 * turns into SIMD max/min) find the block's extreme and whether it holds a
 * NaN.  The first block holding a NaN ends the scan (the first NaN wins);
 * otherwise the block where the running extreme last strictly improved is
 * the first block holding the final extreme.  One short scan of that block
 * then finds the first index: ref's answer (the first NaN, else the first
 * of the elements equal to the extreme; -0.0 == 0.0 ties like any other). */
#define EXT_BLOCK 2048

#define EXT_BLOCK_SCAN(LD, CT, CMP, NANCHK)                                         \
    for (int64_t b0 = 0; b0 < n; b0 += EXT_BLOCK) {                                 \
        int64_t b1 = n - b0 < EXT_BLOCK ? n : b0 + EXT_BLOCK;                       \
        CT m8[8];                                                                   \
        int nan8[8];                                                                \
        for (int q = 0; q < 8; q++) {                                               \
            m8[q] = (CT)LD(x[b0]);                                                  \
            nan8[q] = 0;                                                            \
        }                                                                           \
        int64_t i = b0;                                                             \
        for (; i + 8 <= b1; i += 8)                                                 \
            for (int q = 0; q < 8; q++) {                                           \
                CT v = (CT)LD(x[i + q]);                                            \
                nan8[q] |= NANCHK(v);                                               \
                m8[q] = v CMP m8[q] ? v : m8[q];                                    \
            }                                                                       \
        for (; i < b1; i++) {                                                       \
            CT v = (CT)LD(x[i]);                                                    \
            nan8[0] |= NANCHK(v);                                                   \
            m8[0] = v CMP m8[0] ? v : m8[0];                                        \
        }                                                                           \
        CT bm = m8[0];                                                              \
        int bn = 0;                                                                 \
        for (int q = 0; q < 8; q++) {                                               \
            bn |= nan8[q] | NANCHK(m8[q]);                                          \
            bm = m8[q] CMP bm ? m8[q] : bm;                                         \
        }                                                                           \
        if (bn) {                                                                   \
            nan_block = b0;                                                         \
            break;                                                                  \
        }                                                                           \
        if (b0 == 0 || bm CMP gm) {                                                 \
            gm = bm;                                                                \
            g_block = b0;                                                           \
        }                                                                           \
    }

#define IS_NAN(v) ((v) != (v))
#define NO_NAN(v) ((void)(v), 0)

#define FLAT_EXT_F(NAME, T, LD, CT)                                                 \
    static void NAME(const T *restrict x, int64_t n, int want_max, int64_t r0,     \
                     racc *a)                                                      \
    {                                                                              \
        if (n <= 0)                                                                \
            return;                                                                \
        CT gm = 0;                                                                 \
        int64_t g_block = 0, nan_block = -1;                                       \
        if (want_max) {                                                            \
            EXT_BLOCK_SCAN(LD, CT, >, IS_NAN)                                      \
        } else {                                                                   \
            EXT_BLOCK_SCAN(LD, CT, <, IS_NAN)                                      \
        }                                                                          \
        int64_t at;                                                                \
        if (nan_block >= 0) {                                                      \
            at = nan_block;                                                        \
            while (!IS_NAN((CT)LD(x[at])))                                         \
                at++;                                                              \
        } else {                                                                   \
            at = g_block;                                                          \
            while ((CT)LD(x[at]) != gm)                                            \
                at++;                                                              \
        }                                                                          \
        int nan = nan_block >= 0;                                                  \
        racc b = {nan ? NAN : (double)gm, nan ? 1.0 : 0.0, 0, r0 + at};            \
        acc_merge(want_max ? P_MAX : P_MIN, 1, a, &b, 1);                          \
    }
#define LD_H32(v) eh_blas_h2f(v)
FLAT_EXT_F(flat_ext_h, uint16_t, LD_H32, float)
FLAT_EXT_F(flat_ext_f_blocks, float, LD_NUM, float)

/* f32 and f64 lanes: one pass with the extreme and its index in vector
 * registers (simd/reduce.c); the same answer as the block scan. */
static void flat_ext_f(const float *restrict x, int64_t n, int want_max, int64_t r0, racc *a)
{
    if (n <= 0 || n >= ((int64_t)1 << 31) - 64) {
        flat_ext_f_blocks(x, n, want_max, r0, a);
        return;
    }
    const eh_blas_ext_fns *e = eh_blas_ext_current();
    int nan;
    int64_t at = want_max ? e->argmax_f(x, n, &nan) : e->argmin_f(x, n, &nan);
    racc b = {nan ? NAN : (double)x[at], nan ? 1.0 : 0.0, 0, r0 + at};
    acc_merge(want_max ? P_MAX : P_MIN, 1, a, &b, 1);
}

static void flat_ext_d(const double *restrict x, int64_t n, int want_max, int64_t r0, racc *a)
{
    if (n <= 0)
        return;
    const eh_blas_ext_fns *e = eh_blas_ext_current();
    int nan;
    int64_t at = want_max ? e->argmax_d(x, n, &nan) : e->argmin_d(x, n, &nan);
    racc b = {nan ? NAN : x[at], nan ? 1.0 : 0.0, 0, r0 + at};
    acc_merge(want_max ? P_MAX : P_MIN, 1, a, &b, 1);
}

#define FLAT_EXT_I(NAME, T)                                                         \
    static void NAME(const T *restrict x, int64_t n, int want_max, int64_t r0,     \
                     racc *a)                                                      \
    {                                                                              \
        if (n <= 0)                                                                \
            return;                                                                \
        T gm = 0;                                                                  \
        int64_t g_block = 0, nan_block = -1;                                       \
        if (want_max) {                                                            \
            EXT_BLOCK_SCAN(LD_ID, T, >, NO_NAN)                                    \
        } else {                                                                   \
            EXT_BLOCK_SCAN(LD_ID, T, <, NO_NAN)                                    \
        }                                                                          \
        (void)nan_block;                                                           \
        int64_t at = g_block;                                                      \
        while (x[at] != gm)                                                        \
            at++;                                                                  \
        racc b = {0, 0, (int64_t)gm, r0 + at};                                     \
        acc_merge(want_max ? P_MAX : P_MIN, 0, a, &b, 1);                          \
    }
#define LD_ID(v) (v)
FLAT_EXT_I(flat_ext_i, int32_t)
FLAT_EXT_I(flat_ext_l, int64_t)
FLAT_EXT_I(flat_ext_b, uint8_t)

/* Column extremes: per column, the first NaN or the first extreme. */
#define COL_EXT_F(NAME, T, LD)                                                      \
    static void NAME(const T *restrict x, int64_t ld, int64_t rows, int64_t w,     \
                     int want_max, int64_t r0, racc *a)                            \
    {                                                                              \
        for (int64_t r = 0; r < rows; r++) {                                       \
            const T *row = x + r * ld;                                             \
            for (int64_t j = 0; j < w; j++) {                                      \
                double v = LD(row[j]);                                             \
                racc *q = &a[j];                                                   \
                if (q->c != 0.0)                                                   \
                    continue;                                                      \
                if (q->idx < 0 || v != v || (want_max ? v > q->s : v < q->s)) {    \
                    q->s = v;                                                      \
                    q->c = v != v;                                                 \
                    q->idx = r0 + r;                                               \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    }
COL_EXT_F(col_ext_h, uint16_t, LD_F16)
COL_EXT_F(col_ext_f, float, LD_NUM)
COL_EXT_F(col_ext_d, double, LD_NUM)

#define COL_EXT_I(NAME, T)                                                          \
    static void NAME(const T *restrict x, int64_t ld, int64_t rows, int64_t w,     \
                     int want_max, int64_t r0, racc *a)                            \
    {                                                                              \
        for (int64_t r = 0; r < rows; r++) {                                       \
            const T *row = x + r * ld;                                             \
            for (int64_t j = 0; j < w; j++) {                                      \
                int64_t v = row[j];                                                \
                racc *q = &a[j];                                                   \
                if (q->idx < 0 || (want_max ? v > q->iv : v < q->iv)) {            \
                    q->iv = v;                                                     \
                    q->idx = r0 + r;                                               \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    }
COL_EXT_I(col_ext_i, int32_t)
COL_EXT_I(col_ext_l, int64_t)
COL_EXT_I(col_ext_b, uint8_t)

/* |x| extremes (norms), value only; NaN wins. */
#define ABS_EXT(NAME, T, LD)                                                        \
    static void NAME(const T *restrict x, int64_t ld, int64_t rows, int64_t w,     \
                     int want_max, racc *a)                                        \
    {                                                                              \
        for (int64_t r = 0; r < rows; r++) {                                       \
            const T *row = x + r * ld;                                             \
            for (int64_t j = 0; j < w; j++) {                                      \
                double v = fabs(LD(row[j]));                                       \
                racc *q = &a[j];                                                   \
                if (q->c != 0.0)                                                   \
                    continue;                                                      \
                if (q->idx < 0 || v != v || (want_max ? v > q->s : v < q->s)) {    \
                    q->s = v;                                                      \
                    q->c = v != v;                                                 \
                    q->idx = 0;                                                    \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    }
ABS_EXT(abs_ext_h, uint16_t, LD_F16)
ABS_EXT(abs_ext_f, float, LD_NUM)
ABS_EXT(abs_ext_d, double, LD_NUM)

/* Products and integer sums, ref's order within the range. */
#define PROD_F(NAME, T, LD)                                                         \
    static void NAME(const T *restrict x, int64_t ld, int64_t rows, int64_t w,     \
                     racc *a)                                                      \
    {                                                                              \
        for (int64_t r = 0; r < rows; r++)                                         \
            for (int64_t j = 0; j < w; j++)                                        \
                a[j].s *= LD(x[r * ld + j]);                                       \
    }
PROD_F(prod_h, uint16_t, LD_F16)
PROD_F(prod_f, float, LD_NUM)
PROD_F(prod_d, double, LD_NUM)

static void isum_flat(const int64_t *restrict x, int64_t n, racc *a)
{
    uint64_t s[4] = {0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int q = 0; q < 4; q++)
            s[q] += (uint64_t)x[i + q];
    for (; i < n; i++)
        s[0] += (uint64_t)x[i];
    a->iv = eh_ref_wrap_add(a->iv, (int64_t)((s[0] + s[1]) + (s[2] + s[3])));
}

static void isum_col(const int64_t *restrict x, int64_t ld, int64_t rows, int64_t w, racc *a)
{
    uint64_t s[COL_BLOCK];
    for (int64_t j = 0; j < w; j++)
        s[j] = (uint64_t)a[j].iv;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < w; j++)
            s[j] += (uint64_t)x[r * ld + j];
    for (int64_t j = 0; j < w; j++)
        a[j].iv = (int64_t)s[j];
}

static void iprod(const int64_t *restrict x, int64_t ld, int64_t rows, int64_t w, racc *a)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < w; j++)
            a[j].iv = eh_ref_wrap_mul(a[j].iv, x[r * ld + j]);
}

/* ---- geometry and the driver -------------------------------------------------- */

typedef struct red_ctx red_ctx;

/* An op as passes over its lanes: pass k accumulates passes[k] with the
 * lane parameters param[] (from the previous pass); between(k) turns pass
 * k's accumulators into the parameters of pass k + 1; finish() writes a
 * lane's output; write(), when set, writes rows [r0, r1) of lanes after
 * finish (softmax). */
struct red_ctx {
    const eh_op_call *c;
    const char *x;
    eh_dtype dt;
    size_t esz;
    int64_t K1, R, K2;
    int n_passes;
    pass_kind passes[2];
    void (*between)(const red_ctx *g, int k, const racc *acc, double *param, int64_t n);
    /* lane = k1 * K2 + j: output element index */
    void (*finish)(const red_ctx *g, int64_t lane, const racc *acc, double param);
    void (*write)(const red_ctx *g, int64_t k1, int64_t j0, int64_t w, int64_t r0, int64_t r1,
                  const double *param, const racc *acc);
    /* split mode */
    int64_t rchunk, nchunks, nlanes;
    racc *partial;   /* nchunks x nlanes */
    const double *lane_param;
    int pass;
    int wide;        /* split mode over whole rows (wide columns) */
};

/* Accumulate pass `p` over lanes (k1, j0 .. j0 + w) and rows [r0, r1). */
static void accumulate(const red_ctx *g, pass_kind p, int64_t k1, int64_t j0, int64_t w,
                       int64_t r0, int64_t r1, const double *param, racc *acc)
{
    int64_t rows = r1 - r0;
    if (rows <= 0)
        return;
    size_t esz = g->esz;
    const char *base = g->x + (size_t)((k1 * g->R + r0) * g->K2 + j0) * esz;
    int64_t ld = g->K2;
    eh_dtype dt = g->dt;
    int flat = g->K2 == 1;
    if (pass_is_nsum(p)) {
        int f = (int)p, s = float_slot(dt);
        if (flat)
            flat_nsum[f][s](base, rows, param[0], acc);
        else
            col_nsum[f][s](base, ld, rows, w, param, acc);
        return;
    }
    switch (p) {
    case P_MAX: case P_MIN: {
        int want_max = p == P_MAX;
        if (flat) {
            switch (dt) {
            case EH_F16: flat_ext_h((const uint16_t *)base, rows, want_max, r0, acc); break;
            case EH_F32: flat_ext_f((const float *)base, rows, want_max, r0, acc); break;
            case EH_F64: flat_ext_d((const double *)base, rows, want_max, r0, acc); break;
            case EH_I32: flat_ext_i((const int32_t *)base, rows, want_max, r0, acc); break;
            case EH_I64: flat_ext_l((const int64_t *)base, rows, want_max, r0, acc); break;
            default: flat_ext_b((const uint8_t *)base, rows, want_max, r0, acc); break;
            }
        } else {
            switch (dt) {
            case EH_F16: col_ext_h((const uint16_t *)base, ld, rows, w, want_max, r0, acc); break;
            case EH_F32: col_ext_f((const float *)base, ld, rows, w, want_max, r0, acc); break;
            case EH_F64: col_ext_d((const double *)base, ld, rows, w, want_max, r0, acc); break;
            case EH_I32: col_ext_i((const int32_t *)base, ld, rows, w, want_max, r0, acc); break;
            case EH_I64: col_ext_l((const int64_t *)base, ld, rows, w, want_max, r0, acc); break;
            default: col_ext_b((const uint8_t *)base, ld, rows, w, want_max, r0, acc); break;
            }
        }
        return;
    }
    case P_ABSMAX: case P_ABSMIN: {
        int want_max = p == P_ABSMAX;
        int64_t cw = flat ? 1 : w, cld = flat ? 1 : ld;
        switch (dt) {
        case EH_F16: abs_ext_h((const uint16_t *)base, cld, rows, cw, want_max, acc); break;
        case EH_F32: abs_ext_f((const float *)base, cld, rows, cw, want_max, acc); break;
        default: abs_ext_d((const double *)base, cld, rows, cw, want_max, acc); break;
        }
        return;
    }
    case P_PROD: {
        int64_t cw = flat ? 1 : w, cld = flat ? 1 : ld;
        switch (dt) {
        case EH_F16: prod_h((const uint16_t *)base, cld, rows, cw, acc); break;
        case EH_F32: prod_f((const float *)base, cld, rows, cw, acc); break;
        default: prod_d((const double *)base, cld, rows, cw, acc); break;
        }
        return;
    }
    case P_ISUM:
        if (flat)
            isum_flat((const int64_t *)base, rows, acc);
        else
            isum_col((const int64_t *)base, ld, rows, w, acc);
        return;
    case P_IPROD:
        iprod((const int64_t *)base, flat ? 1 : ld, rows, flat ? 1 : w, acc);
        return;
    default:
        return;
    }
}

/* Lane-block mode: item = (k1, column block); whole lanes per item. */
static void lanes_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const red_ctx *g = ctx;
    int64_t nblk = (g->K2 + COL_BLOCK - 1) / COL_BLOCK;
    racc acc[COL_BLOCK];
    double param[COL_BLOCK];
    for (int64_t item = begin; item < end; item++) {
        int64_t k1 = item / nblk, j0 = (item % nblk) * COL_BLOCK;
        int64_t w = g->K2 - j0 < COL_BLOCK ? g->K2 - j0 : COL_BLOCK;
        for (int64_t j = 0; j < w; j++)
            param[j] = 0.0;
        for (int k = 0; k < g->n_passes; k++) {
            acc_init(g->passes[k], acc, w);
            accumulate(g, g->passes[k], k1, j0, w, 0, g->R, param, acc);
            if (k + 1 < g->n_passes || g->write)
                g->between(g, k, acc, param, w);
        }
        for (int64_t j = 0; j < w; j++)
            g->finish(g, k1 * g->K2 + j0 + j, &acc[j], param[j]);
        if (g->write)
            g->write(g, k1, j0, w, 0, g->R, param, acc);
    }
}

/* Split mode, wide rows: the Neumaier passes stream each row of the chunk
 * once, whole, into scratch rows (simd/reduce.c: vectorized for the
 * machine's instruction set); other passes go COL_BLOCK columns at a time
 * (their kernels keep per-column state on the stack). */
static void chunk_wide(const red_ctx *g, pass_kind p, int64_t r0, int64_t r1, racc *part)
{
    int64_t w = g->K2;
    double *scratch = pass_is_nsum(p) ? eh_mem_alloc((size_t)w * 3 * sizeof *scratch) : NULL;
    if (!scratch) { /* other passes, or out of memory: COL_BLOCK columns at a time */
        for (int64_t k1 = 0; k1 < g->K1; k1++)
            for (int64_t j0 = 0; j0 < w; j0 += COL_BLOCK) {
                int64_t bw = w - j0 < COL_BLOCK ? w - j0 : COL_BLOCK;
                accumulate(g, p, k1, j0, bw, r0, r1, g->lane_param + k1 * w + j0, part + k1 * w + j0);
            }
        return;
    }
    double *sv = scratch, *cv = scratch + w, *bv = scratch + 2 * w;
    for (int64_t k1 = 0; k1 < g->K1; k1++) {
        racc *a = part + k1 * w;
        for (int64_t j = 0; j < w; j++) {
            sv[j] = a[j].s;
            cv[j] = a[j].c;
        }
        const char *base = g->x + (size_t)((k1 * g->R + r0) * w) * g->esz;
        eh_blas_wide_nsum_current()[(int)p][float_slot(g->dt)](base, w, r1 - r0, w,
                                                                g->lane_param + k1 * w, sv, cv, bv);
        for (int64_t j = 0; j < w; j++) {
            a[j].s = sv[j];
            a[j].c = cv[j];
        }
    }
    eh_mem_free(scratch);
}

/* Split mode: item = an R-chunk, over every lane, into its partials. */
static void chunks_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const red_ctx *g = ctx;
    pass_kind p = g->passes[g->pass];
    for (int64_t ch = begin; ch < end; ch++) {
        int64_t r0 = ch * g->rchunk, r1 = r0 + g->rchunk < g->R ? r0 + g->rchunk : g->R;
        racc *part = g->partial + ch * g->nlanes;
        acc_init(p, part, g->nlanes);
        if (g->wide) {
            chunk_wide(g, p, r0, r1, part);
            continue;
        }
        for (int64_t k1 = 0; k1 < g->K1; k1++)
            for (int64_t j0 = 0; j0 < g->K2; j0 += COL_BLOCK) {
                int64_t w = g->K2 - j0 < COL_BLOCK ? g->K2 - j0 : COL_BLOCK;
                int64_t lane = k1 * g->K2 + j0;
                accumulate(g, p, k1, j0, w, r0, r1, g->lane_param + lane, part + lane);
            }
    }
}

static void write_chunks(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const red_ctx *g = ctx;
    const racc *acc = g->partial; /* the merged accumulators, chunk 0's row */
    for (int64_t ch = begin; ch < end; ch++) {
        int64_t r0 = ch * g->rchunk, r1 = r0 + g->rchunk < g->R ? r0 + g->rchunk : g->R;
        for (int64_t k1 = 0; k1 < g->K1; k1++)
            for (int64_t j0 = 0; j0 < g->K2; j0 += COL_BLOCK) {
                int64_t w = g->K2 - j0 < COL_BLOCK ? g->K2 - j0 : COL_BLOCK;
                int64_t lane = k1 * g->K2 + j0;
                g->write(g, k1, j0, w, r0, r1, g->lane_param + lane, acc + lane);
            }
    }
}

/* Classify x and the reduced axes as [K1][R][K2]; 0 when the pattern is
 * not one block of reduced axes (the caller then runs ref). */
static int classify(const eh_tensor *x, const int *axes, int n_axes, int64_t *K1, int64_t *R,
                    int64_t *K2)
{
    int red[EH_MAX_DIMS] = {0};
    for (int k = 0; k < n_axes; k++)
        red[axes[k]] = 1;
    int64_t gsize[EH_MAX_DIMS];
    int gred[EH_MAX_DIMS], ng = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (x->shape[d] == 1)
            continue;
        if (ng > 0 && gred[ng - 1] == red[d]) {
            gsize[ng - 1] *= x->shape[d];
        } else {
            gsize[ng] = x->shape[d];
            gred[ng] = red[d];
            ng++;
        }
    }
    *K1 = *R = *K2 = 1;
    if (ng == 0)
        return 1;
    int g = 0;
    if (!gred[g])
        *K1 = gsize[g++];
    if (g < ng && gred[g])
        *R = gsize[g++];
    if (g < ng && !gred[g])
        *K2 = gsize[g++];
    return g == ng;
}

/* Run a reduction described by g (geometry and op hooks filled in). */
static eh_status run_reduction(red_ctx *g)
{
    int64_t nlanes = g->K1 * g->K2;
    int64_t nblk = (g->K2 + COL_BLOCK - 1) / COL_BLOCK;
    int64_t items = g->K1 * nblk;
    int64_t work = nlanes * g->R;
    int is_float = eh_dtype_is_float(g->dt);
    /* Wide rows (sum over axis 0 of a big matrix, say): lane blocks would
     * read COL_BLOCK columns of every row per pass, jumping a row's width
     * each time; instead cut R into WIDE_CHUNKS chunks that each stream
     * whole rows into their own accumulator row, merged in chunk order. */
    g->wide = g->K2 > COL_BLOCK && g->R >= 2 * COL_ROWS && work >= 2 * SPLIT_ELEMS &&
              nlanes <= WIDE_MAX_LANES;
    if (g->wide) {
        int64_t nch = g->R / (2 * COL_ROWS) < WIDE_CHUNKS ? g->R / (2 * COL_ROWS) : WIDE_CHUNKS;
        g->nlanes = nlanes;
        g->rchunk = (g->R + nch - 1) / nch;
        g->rchunk = (g->rchunk + COL_ROWS - 1) / COL_ROWS * COL_ROWS;
        g->nchunks = (g->R + g->rchunk - 1) / g->rchunk;
    } else if (items >= 16 || work < 2 * SPLIT_ELEMS || nlanes > 4096) {
        int64_t per_item = g->R * (g->K2 < COL_BLOCK ? g->K2 : COL_BLOCK);
        int64_t grain = EH_BLAS_GRAIN_CHEAP / (per_item > 0 ? per_item : 1);
        eh_parallel_for(items, grain > 0 ? grain : 1, lanes_range, g);
        return EH_OK;
    }
    /* Split R into chunks of about SPLIT_ELEMS elements over all lanes. */
    if (!g->wide) {
        g->nlanes = nlanes;
        g->rchunk = SPLIT_ELEMS / nlanes > 0 ? SPLIT_ELEMS / nlanes : 1;
        g->nchunks = (g->R + g->rchunk - 1) / g->rchunk;
    }
    size_t count = (size_t)g->nchunks * (size_t)nlanes;
    g->partial = eh_mem_alloc(count * sizeof *g->partial);
    double *param = eh_mem_calloc((size_t)nlanes, sizeof *param);
    if (!g->partial || !param) {
        eh_mem_free(g->partial);
        eh_mem_free(param);
        return eh_set_error(EH_ERR_NOMEM, "%s: out of memory for %lld partial results",
                            eh_op_name(g->c->op), (long long)count);
    }
    g->lane_param = param;
    for (int k = 0; k < g->n_passes; k++) {
        g->pass = k;
        eh_parallel_for(g->nchunks, 1, chunks_range, g);
        for (int64_t ch = 1; ch < g->nchunks; ch++)
            acc_merge(g->passes[k], is_float, g->partial, g->partial + ch * nlanes, nlanes);
        if (k + 1 < g->n_passes || g->write)
            g->between(g, k, g->partial, param, nlanes);
    }
    for (int64_t l = 0; l < nlanes; l++)
        g->finish(g, l, &g->partial[l], param[l]);
    if (g->write)
        eh_parallel_for(g->nchunks, 1, write_chunks, g);
    eh_mem_free(g->partial);
    eh_mem_free(param);
    return EH_OK;
}

/* Fill the geometry of g from the call; 0 when blas does not handle it. */
static int setup(red_ctx *g, const eh_op_call *c)
{
    memset(g, 0, sizeof *g);
    const eh_tensor *x = c->in[0];
    if (x->size == 0)
        return 0;
    g->c = c;
    g->x = x->data;
    g->dt = x->dtype;
    g->esz = eh_dtype_size(x->dtype);
    return classify(x, c->p.axes, c->p.n_axes, &g->K1, &g->R, &g->K2);
}

/* ---- the ops -------------------------------------------------------------------- */

static void between_none(const red_ctx *g, int k, const racc *acc, double *param, int64_t n)
{
    (void)g; (void)k; (void)acc; (void)param; (void)n;
}

static void finish_sum(const red_ctx *g, int64_t lane, const racc *a, double p)
{
    (void)p;
    void *out = g->c->out[0]->data;
    if (!eh_dtype_is_float(g->dt)) {
        ((int64_t *)out)[lane] = a->iv;
        return;
    }
    double v = g->passes[0] == P_PROD ? a->s : eh_ref_ksum_total(a->s, a->c);
    if (g->c->op == EH_OP_mean)
        v = v / (double)g->R;
    eh_ref_store_float(out, g->dt, lane, v);
}

static eh_status sum_like(const eh_op_call *c, eh_status (*fallback)(const eh_op_call *))
{
    red_ctx g;
    if (!setup(&g, c))
        return fallback(c);
    int is_float = eh_dtype_is_float(g.dt);
    if (!is_float && g.dt != EH_I64)
        return fallback(c); /* the frontend only sends i64 */
    int prod = c->op == EH_OP_prod;
    g.n_passes = 1;
    g.passes[0] = prod ? (is_float ? P_PROD : P_IPROD) : (is_float ? P_SUM : P_ISUM);
    g.between = between_none;
    g.finish = finish_sum;
    return run_reduction(&g);
}

eh_status eh_blas_sum(const eh_op_call *c) { return sum_like(c, eh_ref_sum); }
eh_status eh_blas_mean(const eh_op_call *c) { return sum_like(c, eh_ref_mean); }
eh_status eh_blas_prod(const eh_op_call *c) { return sum_like(c, eh_ref_prod); }

/* max, min: the element at the extreme's position; argmax/argmin: the
 * position. */
static void finish_ext(const red_ctx *g, int64_t lane, const racc *a, double p)
{
    (void)p;
    void *out = g->c->out[0]->data;
    if (g->c->op == EH_OP_argmax || g->c->op == EH_OP_argmin) {
        ((int64_t *)out)[lane] = a->idx;
        return;
    }
    int64_t k1 = lane / g->K2, j = lane % g->K2;
    int64_t off = (k1 * g->R + a->idx) * g->K2 + j;
    memcpy((char *)out + (size_t)lane * g->esz, g->x + (size_t)off * g->esz, g->esz);
}

static eh_status ext_like(const eh_op_call *c, eh_status (*fallback)(const eh_op_call *))
{
    red_ctx g;
    if (!setup(&g, c))
        return fallback(c);
    g.n_passes = 1;
    g.passes[0] = c->op == EH_OP_max || c->op == EH_OP_argmax ? P_MAX : P_MIN;
    g.between = between_none;
    g.finish = finish_ext;
    return run_reduction(&g);
}

eh_status eh_blas_max(const eh_op_call *c) { return ext_like(c, eh_ref_max); }
eh_status eh_blas_min(const eh_op_call *c) { return ext_like(c, eh_ref_min); }
eh_status eh_blas_argmax(const eh_op_call *c) { return ext_like(c, eh_ref_argmax); }
eh_status eh_blas_argmin(const eh_op_call *c) { return ext_like(c, eh_ref_argmin); }

/* var, std: mean, then the sum of squared deviations. */
static void between_mean(const red_ctx *g, int k, const racc *acc, double *param, int64_t n)
{
    (void)k;
    for (int64_t j = 0; j < n; j++)
        param[j] = eh_ref_ksum_total(acc[j].s, acc[j].c) / (double)g->R;
}

static void finish_var(const red_ctx *g, int64_t lane, const racc *a, double p)
{
    (void)p;
    double ssq = eh_ref_ksum_total(a->s, a->c);
    double divisor = (double)g->R - (double)g->c->p.i[0];
    double v;
    if (divisor > 0)
        v = ssq / divisor;
    else
        v = ssq > 0 ? INFINITY : NAN;
    if (g->c->op == EH_OP_std)
        v = sqrt(v);
    eh_ref_store_float(g->c->out[0]->data, g->dt, lane, v);
}

static eh_status var_like(const eh_op_call *c, eh_status (*fallback)(const eh_op_call *))
{
    red_ctx g;
    if (!setup(&g, c) || !eh_dtype_is_float(g.dt))
        return fallback(c);
    g.n_passes = 2;
    g.passes[0] = P_SUM;
    g.passes[1] = P_SQDEV;
    g.between = between_mean;
    g.finish = finish_var;
    return run_reduction(&g);
}

eh_status eh_blas_var(const eh_op_call *c) { return var_like(c, eh_ref_var); }
eh_status eh_blas_std(const eh_op_call *c) { return var_like(c, eh_ref_std); }

/* logsumexp, softmax, log_softmax: the lane max (NaN if any), then
 * sum(exp(x - shift)). */
static void between_shift(const red_ctx *g, int k, const racc *acc, double *param, int64_t n)
{
    if (k == 0) {
        /* logsumexp and log_softmax shift a non-finite max by 0 (scipy);
         * softmax shifts by the max as it is */
        int keep = g->c->op == EH_OP_softmax;
        for (int64_t j = 0; j < n; j++) {
            double m = acc[j].c != 0.0 ? NAN : acc[j].s;
            param[j] = keep || isfinite(m) ? m : 0.0;
        }
    }
}

static void finish_lse(const red_ctx *g, int64_t lane, const racc *a, double p)
{
    eh_ref_store_float(g->c->out[0]->data, g->dt, lane, log(eh_ref_ksum_total(a->s, a->c)) + p);
}

static void finish_nothing(const red_ctx *g, int64_t lane, const racc *a, double p)
{
    (void)g; (void)lane; (void)a; (void)p;
}

/* Write softmax / log_softmax over rows [r0, r1) of lanes (k1, j0 .. j0+w). */
#define SOFTMAX_WRITE(NAME, T, LD)                                                  \
    static void NAME(const red_ctx *g, const T *restrict x, int64_t k1, int64_t j0, \
                     int64_t w, int64_t r0, int64_t r1, const double *param,        \
                     const racc *acc)                                               \
    {                                                                              \
        void *out = g->c->out[0]->data;                                            \
        int soft = g->c->op == EH_OP_softmax;                                      \
        double den[COL_BLOCK];                                                     \
        for (int64_t j = 0; j < w; j++) {                                          \
            double s = eh_ref_ksum_total(acc[j].s, acc[j].c);                               \
            den[j] = soft ? s : log(s);                                            \
        }                                                                          \
        for (int64_t r = r0; r < r1; r++) {                                        \
            int64_t off = (k1 * g->R + r) * g->K2 + j0;                            \
            for (int64_t j = 0; j < w; j++) {                                      \
                double v = LD(x[off + j]);                                         \
                double y = soft ? exp(v - param[j]) / den[j] : (v - param[j]) - den[j]; \
                eh_ref_store_float(out, g->dt, off + j, y);                                   \
            }                                                                      \
        }                                                                          \
    }
SOFTMAX_WRITE(softmax_write_h, uint16_t, LD_F16)
SOFTMAX_WRITE(softmax_write_f, float, LD_NUM)
SOFTMAX_WRITE(softmax_write_d, double, LD_NUM)

static void write_softmax(const red_ctx *g, int64_t k1, int64_t j0, int64_t w, int64_t r0,
                          int64_t r1, const double *param, const racc *acc)
{
    switch (g->dt) {
    case EH_F16: softmax_write_h(g, (const uint16_t *)g->x, k1, j0, w, r0, r1, param, acc); break;
    case EH_F32: softmax_write_f(g, (const float *)g->x, k1, j0, w, r0, r1, param, acc); break;
    default: softmax_write_d(g, (const double *)g->x, k1, j0, w, r0, r1, param, acc); break;
    }
}

/* softmax / log_softmax of contiguous f32/f64 rows: one row per item, each
 * with one vectorized exp pass (simd/reduce.c). */
typedef struct {
    const red_ctx *g;
    const eh_blas_ext_fns *e;
} rows_job;

static void softmax_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const rows_job *j = ctx;
    const red_ctx *g = j->g;
    int log_form = g->c->op == EH_OP_log_softmax;
    for (int64_t k = begin; k < end; k++) {
        size_t off = (size_t)(k * g->R);
        if (g->dt == EH_F32)
            j->e->softmax_f((const float *)g->x + off, (float *)g->c->out[0]->data + off, g->R,
                            log_form);
        else
            j->e->softmax_d((const double *)g->x + off, (double *)g->c->out[0]->data + off, g->R,
                            log_form);
    }
}

static eh_status lse_like(const eh_op_call *c, eh_status (*fallback)(const eh_op_call *))
{
    red_ctx g;
    if (!setup(&g, c) || !eh_dtype_is_float(g.dt))
        return fallback(c);
    if (c->op != EH_OP_logsumexp && g.K2 == 1 && (g.dt == EH_F32 || g.dt == EH_F64) &&
        g.R < ((int64_t)1 << 31) - 64) {
        rows_job j = {&g, eh_blas_ext_current()};
        int64_t grain = EH_BLAS_GRAIN_HEAVY / g.R;
        eh_parallel_for(g.K1, grain > 0 ? grain : 1, softmax_rows, &j);
        return EH_OK;
    }
    g.n_passes = 2;
    g.passes[0] = P_MAX;
    g.passes[1] = P_EXPSUM;
    g.between = between_shift;
    if (c->op == EH_OP_logsumexp) {
        g.finish = finish_lse;
    } else {
        g.finish = finish_nothing;
        g.write = write_softmax;
    }
    return run_reduction(&g);
}

eh_status eh_blas_logsumexp(const eh_op_call *c) { return lse_like(c, eh_ref_logsumexp); }
eh_status eh_blas_softmax(const eh_op_call *c) { return lse_like(c, eh_ref_softmax); }
eh_status eh_blas_log_softmax(const eh_op_call *c) { return lse_like(c, eh_ref_log_softmax); }

/* Vector norms.  2/fro: max |x| (NaN, inf decide at once), then the sum of
 * squares scaled by a power of two (eh_ref_pow2_scale, shared with ref). */

/* After the max |x| pass: the power-of-two scale of the squares pass, or
 * the answer itself when the max decides it (NaN, inf, 0). */
static void between_norm2(const red_ctx *g, int k, const racc *acc, double *param, int64_t n)
{
    (void)g; (void)k;
    for (int64_t j = 0; j < n; j++) {
        double m = acc[j].c != 0.0 ? NAN : acc[j].s;
        param[j] = isnan(m) || isinf(m) || m == 0.0 ? m : eh_ref_pow2_scale(m);
    }
}

static void finish_norm(const red_ctx *g, int64_t lane, const racc *a, double p)
{
    int ord = (int)g->c->p.i[0];
    double v;
    if (ord == EH_NORM_INF || ord == EH_NORM_NEG_INF)
        v = a->c != 0.0 ? NAN : a->s;
    else if (ord == EH_NORM_1)
        v = eh_ref_ksum_total(a->s, a->c);
    else if (isnan(p) || isinf(p) || p == 0.0)
        v = p; /* decided by the max pass */
    else
        v = sqrt(eh_ref_ksum_total(a->s, a->c)) * p;
    eh_ref_store_float(g->c->out[0]->data, g->dt, lane, v);
}

eh_status eh_blas_norm(const eh_op_call *c)
{
    red_ctx g;
    if (c->p.i[1] || !setup(&g, c) || !eh_dtype_is_float(g.dt))
        return eh_ref_norm(c);
    int ord = (int)c->p.i[0];
    g.between = between_norm2;
    g.finish = finish_norm;
    g.n_passes = 1;
    switch (ord) {
    case EH_NORM_INF: g.passes[0] = P_ABSMAX; break;
    case EH_NORM_NEG_INF: g.passes[0] = P_ABSMIN; break;
    case EH_NORM_1: g.passes[0] = P_ABSSUM; break;
    case EH_NORM_2: case EH_NORM_FRO:
        g.n_passes = 2;
        g.passes[0] = P_ABSMAX;
        g.passes[1] = P_SQSCALE;
        break;
    default: return eh_ref_norm(c);
    }
    return run_reduction(&g);
}

/* ---- cumsum, cumprod: ref's exact sequence per lane, lanes in parallel ---- */

typedef struct {
    const eh_op_call *c;
    int64_t K1, R, K2;
} scan_ctx;

#define SCAN_F(NAME, T, LD)                                                         \
    static void NAME(const T *restrict x, T *restrict o, int64_t ld, int64_t rows,  \
                     int64_t w, int is_sum, eh_dtype dt)                            \
    {                                                                              \
        double s[COL_BLOCK], cc[COL_BLOCK];                                        \
        for (int64_t j = 0; j < w; j++) {                                          \
            s[j] = is_sum ? 0.0 : 1.0;                                             \
            cc[j] = 0.0;                                                           \
        }                                                                          \
        for (int64_t r = 0; r < rows; r++)                                         \
            for (int64_t j = 0; j < w; j++) {                                      \
                double v = LD(x[r * ld + j]), res;                                 \
                if (is_sum) {                                                      \
                    ksum k = {s[j], cc[j]};                                        \
                    eh_ref_ksum_add(&k, v);                                               \
                    s[j] = k.s;                                                    \
                    cc[j] = k.c;                                                   \
                    res = eh_ref_ksum_total(k.s, k.c);                                      \
                } else {                                                           \
                    res = s[j] *= v;                                               \
                }                                                                  \
                eh_ref_store_float(o, dt, r * ld + j, res);                                   \
            }                                                                      \
    }
SCAN_F(scan_h, uint16_t, LD_F16)
SCAN_F(scan_f, float, LD_NUM)
SCAN_F(scan_d, double, LD_NUM)

static void scan_i(const int64_t *restrict x, int64_t *restrict o, int64_t ld, int64_t rows,
                   int64_t w, int is_sum)
{
    int64_t acc[COL_BLOCK];
    for (int64_t j = 0; j < w; j++)
        acc[j] = is_sum ? 0 : 1;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < w; j++) {
            int64_t v = x[r * ld + j];
            acc[j] = is_sum ? eh_ref_wrap_add(acc[j], v) : eh_ref_wrap_mul(acc[j], v);
            o[r * ld + j] = acc[j];
        }
}

static void scan_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    const scan_ctx *s = ctx;
    const eh_tensor *x = s->c->in[0];
    eh_tensor *out = s->c->out[0];
    eh_dtype dt = out->dtype;
    size_t esz = eh_dtype_size(dt);
    int is_sum = s->c->op == EH_OP_cumsum;
    int64_t nblk = (s->K2 + COL_BLOCK - 1) / COL_BLOCK;
    for (int64_t item = begin; item < end; item++) {
        int64_t k1 = item / nblk, j0 = (item % nblk) * COL_BLOCK;
        int64_t w = s->K2 - j0 < COL_BLOCK ? s->K2 - j0 : COL_BLOCK;
        size_t off = (size_t)(k1 * s->R * s->K2 + j0) * esz;
        const char *xi = (const char *)x->data + off;
        char *oi = (char *)out->data + off;
        switch (dt) {
        case EH_F16: scan_h((const uint16_t *)xi, (uint16_t *)oi, s->K2, s->R, w, is_sum, dt); break;
        case EH_F32: scan_f((const float *)xi, (float *)oi, s->K2, s->R, w, is_sum, dt); break;
        case EH_F64: scan_d((const double *)xi, (double *)oi, s->K2, s->R, w, is_sum, dt); break;
        default: scan_i((const int64_t *)xi, (int64_t *)oi, s->K2, s->R, w, is_sum); break;
        }
    }
}

static eh_status run_scan(const eh_op_call *c, eh_status (*fallback)(const eh_op_call *))
{
    eh_tensor *out = c->out[0];
    if (out->size == 0)
        return EH_OK;
    eh_dtype dt = out->dtype;
    if (!eh_dtype_is_float(dt) && dt != EH_I64)
        return fallback(c);
    /* x is read with the output's shape; the scan axis is of the output */
    int a = c->p.axes[0];
    scan_ctx s = {c, 1, out->shape[a], 1};
    for (int d = 0; d < a; d++)
        s.K1 *= out->shape[d];
    for (int d = a + 1; d < out->ndim; d++)
        s.K2 *= out->shape[d];
    int64_t nblk = (s.K2 + COL_BLOCK - 1) / COL_BLOCK;
    int64_t per_item = s.R * (s.K2 < COL_BLOCK ? s.K2 : COL_BLOCK);
    int64_t grain = EH_BLAS_GRAIN_HEAVY / (per_item > 0 ? per_item : 1);
    eh_parallel_for(s.K1 * nblk, grain > 0 ? grain : 1, scan_range, &s);
    return EH_OK;
}

eh_status eh_blas_cumsum(const eh_op_call *c) { return run_scan(c, eh_ref_cumsum); }
eh_status eh_blas_cumprod(const eh_op_call *c) { return run_scan(c, eh_ref_cumprod); }

/* ---- allclose: same-shape operands in parallel chunks, else ref ---- */

typedef struct {
    const eh_op_call *c;
    _Atomic int all;
} close_ctx;

#define CLOSE_LOOP(NAME, T, LD)                                                     \
    static int NAME(const T *a, const T *b, int64_t n, double rtol, double atol,    \
                    int equal_nan)                                                  \
    {                                                                              \
        for (int64_t i = 0; i < n; i++) {                                          \
            double x = LD(a[i]), y = LD(b[i]);                                     \
            int close = (fabs(x - y) <= atol + rtol * fabs(y) && isfinite(y)) ||   \
                        x == y || (equal_nan && isnan(x) && isnan(y));             \
            if (!close)                                                            \
                return 0;                                                          \
        }                                                                          \
        return 1;                                                                  \
    }
CLOSE_LOOP(close_h, uint16_t, LD_F16)
CLOSE_LOOP(close_f, float, LD_NUM)
CLOSE_LOOP(close_d, double, LD_NUM)
CLOSE_LOOP(close_i, int32_t, LD_NUM)
CLOSE_LOOP(close_l, int64_t, LD_NUM)
CLOSE_LOOP(close_b, uint8_t, LD_NUM)

static void close_range(void *ctx, int64_t begin, int64_t end, int worker)
{
    (void)worker;
    close_ctx *s = ctx;
    if (!atomic_load(&s->all))
        return;
    const eh_tensor *a = s->c->in[0], *b = s->c->in[1];
    double rtol = s->c->p.f[0], atol = s->c->p.f[1];
    int eqn = s->c->p.i[0] != 0;
    int64_t n = end - begin;
    int ok;
    switch (a->dtype) {
    case EH_F16: ok = close_h((const uint16_t *)a->data + begin, (const uint16_t *)b->data + begin, n, rtol, atol, eqn); break;
    case EH_F32: ok = close_f((const float *)a->data + begin, (const float *)b->data + begin, n, rtol, atol, eqn); break;
    case EH_F64: ok = close_d((const double *)a->data + begin, (const double *)b->data + begin, n, rtol, atol, eqn); break;
    case EH_I32: ok = close_i((const int32_t *)a->data + begin, (const int32_t *)b->data + begin, n, rtol, atol, eqn); break;
    case EH_I64: ok = close_l((const int64_t *)a->data + begin, (const int64_t *)b->data + begin, n, rtol, atol, eqn); break;
    default: ok = close_b((const uint8_t *)a->data + begin, (const uint8_t *)b->data + begin, n, rtol, atol, eqn); break;
    }
    if (!ok)
        atomic_store(&s->all, 0);
}

eh_status eh_blas_allclose(const eh_op_call *c)
{
    const eh_tensor *a = c->in[0], *b = c->in[1];
    int64_t n = 1;
    for (int d = 0; d < (int)c->p.i[1]; d++)
        n *= c->p.v[d];
    /* Both operands the size of the broadcast shape: both have that shape
     * (up to leading 1s), so element i of one faces element i of the other. */
    if (a->size != n || b->size != n || a->dtype != b->dtype || n < EH_BLAS_GRAIN_CHEAP)
        return eh_ref_allclose(c);
    close_ctx s;
    s.c = c;
    atomic_init(&s.all, 1);
    eh_parallel_for(a->size, EH_BLAS_GRAIN_CHEAP, close_range, &s);
    *(uint8_t *)c->out[0]->data = (uint8_t)atomic_load(&s.all);
    return EH_OK;
}
