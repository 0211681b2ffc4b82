/* Tests of the signal ops: hann_window, hamming_window, frame, rfft, irfft,
 * stft.
 *
 * Where expected values come from:
 *   - hand computation (small windows, frames, transforms of impulses,
 *     constants, ramps, the reflect-padded stft example, all worked out in
 *     the comments next to them);
 *   - closed forms: the DFT of the ramp x[t] = t + 1 is
 *     X[k] = -n/2 + i (n/2) cot(pi k / n) for k != 0 and n (n + 1) / 2 at
 *     k = 0; the DFT of the periodic Hann window is n/2 at bin 0, -n/4 at
 *     bins +-1, 0 elsewhere; a cosine at bin k has n/2 at bin k;
 *   - a direct O(n^2) DFT written in this file (dft_ref), summing in
 *     long double with each angle reduced as (j k mod n) / n -- independent
 *     of the library's FFT code paths (radix-2, direct, Bluestein);
 *   - the hann(8, symmetric) constants were printed by python3's math
 *     module: [0.5 - 0.5 * math.cos(2 * math.pi * k / 7) for k in range(8)].
 * NumPy is not available here; no constant below was produced by it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "eh_test.h"

#define PI 3.14159265358979323846

/* ---- helpers --------------------------------------------------------- */

/* Direct DFT of real x[0..n) (zero beyond len): bins 0..n/2 into out
 * as (re, im) pairs. */
static void dft_ref(const double *x, int64_t len, int64_t n, double *out)
{
    for (int64_t k = 0; k <= n / 2; k++) {
        long double re = 0, im = 0;
        for (int64_t t = 0; t < n && t < len; t++) {
            long double ang = 2.0L * 3.14159265358979323846264338327950288L *
                              (long double)((t * k) % n) / (long double)n;
            re += (long double)x[t] * cosl(ang);
            im -= (long double)x[t] * sinl(ang);
        }
        out[2 * k] = (double)re;
        out[2 * k + 1] = (double)im;
    }
}

/* A deterministic, irregular test signal. */
static double sig(int64_t t) { return sin(0.7 * (double)t + 0.3) + 0.25 * cos(2.3 * (double)t * (double)t) - 0.1; }

static eh_tensor *signal_tensor(eh_dtype dtype, int64_t n)
{
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    assert_non_null(v);
    for (int64_t t = 0; t < n; t++)
        v[t] = sig(t);
    eh_tensor *x = t_from(dtype, 1, (const int64_t[]){n}, v);
    free(v);
    return x;
}

/* 1 when the current backend defers (lazy): storage is then allocated at
 * evaluation, so only the first (header) allocation of a call fails inside
 * the call itself. */
static int deferring(void)
{
    const char *b = eh_get_backend();
    return b && strcmp(b, "lazy") == 0;
}

/* The rectangular window: n ones, f64 or another dtype. */
static eh_tensor *rect_as(int64_t n, eh_dtype dtype)
{
    double *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    for (int64_t k = 0; k < n; k++)
        v[k] = 1.0;
    eh_tensor *w = t_from(dtype, 1, (const int64_t[]){n}, v);
    free(v);
    return w;
}

static eh_tensor *rect(int64_t n) { return rect_as(n, EH_F64); }

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, expected %.17g (tol %g)", got, want, tol);
}

/* ---- windows --------------------------------------------------------- */

static void test_hann_known(void **state)
{
    (void)state;
    eh_scope_begin();
    /* periodic n=4: 0.5 - 0.5 cos(2 pi k / 4) = 0, 0.5, 1, 0.5 (exact: the
     * quarter-turn cosines are exactly 0 and -1) */
    assert_tensor_exact(eh_hann_window(4, 1, EH_F64), EH_F64, 1, SHAPE(4),
                        ((const double[]){0, 0.5, 1, 0.5}));
    /* symmetric n=5: cos(2 pi k / 4) again */
    assert_tensor_exact(eh_hann_window(5, 0, EH_F64), EH_F64, 1, SHAPE(5),
                        ((const double[]){0, 0.5, 1, 0.5, 0}));
    /* symmetric n=8 (python3 math module, see the top) */
    assert_tensor(eh_hann_window(8, 0, EH_F64), EH_F64, 1, SHAPE(8),
                  ((const double[]){0.0, 0.1882550990706332, 0.6112604669781572,
                                    0.9504844339512095, 0.9504844339512095,
                                    0.6112604669781573, 0.1882550990706333, 0.0}),
                  1e-15, 0);
    eh_scope_end();
}

static void test_hamming_known(void **state)
{
    (void)state;
    eh_scope_begin();
    /* symmetric n=5: 0.54 - 0.46 cos(2 pi k / 4) */
    assert_tensor(eh_hamming_window(5, 0, EH_F64), EH_F64, 1, SHAPE(5),
                  ((const double[]){0.08, 0.54, 1, 0.54, 0.08}), 1e-15, 0);
    /* periodic n=4: the symmetric n=5 window without its last point */
    assert_tensor(eh_hamming_window(4, 1, EH_F64), EH_F64, 1, SHAPE(4),
                  ((const double[]){0.08, 0.54, 1, 0.54}), 1e-15, 0);
    eh_scope_end();
}

/* periodic(n) == symmetric(n + 1)[:n]; symmetric windows are exactly
 * symmetric; the ends of a symmetric Hann are 0, of a Hamming 0.08. */
static void test_window_relations(void **state)
{
    (void)state;
    eh_scope_begin();
    for (int which = 0; which < 2; which++) {
        for (int64_t n = 2; n <= 33; n++) {
            eh_tensor *p = which ? eh_hamming_window(n, 1, EH_F64) : eh_hann_window(n, 1, EH_F64);
            eh_tensor *s = which ? eh_hamming_window(n + 1, 0, EH_F64) : eh_hann_window(n + 1, 0, EH_F64);
            assert_non_null(p);
            assert_non_null(s);
            for (int64_t k = 0; k < n; k++) {
                assert_near(t_at(p, k), t_at(s, k), 1e-15);
                double want = (which ? 0.54 : 0.5) - (which ? 0.46 : 0.5) * cos(2 * PI * (double)k / (double)n);
                assert_near(t_at(p, k), want, 2e-15);
            }
            for (int64_t k = 0; k <= n; k++)
                assert_true(t_at(s, k) == t_at(s, n - k));
            assert_near(t_at(s, 0), which ? 0.08 : 0.0, 1e-16);
            eh_release(p);
            eh_release(s);
        }
    }
    eh_scope_end();
}

/* Hamming's coefficients are 0.54 and 0.46 as written, as NumPy's
 * `hamming` (0.54 - 0.46 cos): the ends of a symmetric window are exactly
 * 0.54 - 0.46 (0.08000000000000002), the middle of an odd one 0.54 + 0.46.
 * Computing beta as 1 - 0.54 (0.45999999999999996) gave ends of
 * 0.08000000000000007.  Checked on every backend (the others share ref's
 * window kernel today; a backend with its own must give the same bits). */
static void test_window_coefficients_all_backends(void **state)
{
    (void)state;
    const char *names[16];
    int nb = eh_list_backends(names, 16);
    assert_true(nb >= 1);
    const char *was = eh_get_backend();
    volatile double a = 0.54, b = 0.46;
    double lo = a - b, hi = a + b;
    for (int i = 0; i < nb && i < 16; i++) {
        assert_int_equal(eh_set_backend(names[i]), EH_OK);
        eh_scope_begin();
        for (int64_t n = 3; n <= 9; n += 2) {
            eh_tensor *s = eh_hamming_window(n, 0, EH_F64);
            eh_tensor *p = eh_hamming_window(n - 1, 1, EH_F64);
            assert_non_null(s);
            assert_non_null(p);
            assert_true(t_at(s, 0) == lo);
            assert_true(t_at(s, n - 1) == lo);
            assert_true(t_at(s, n / 2) == hi);
            assert_true(t_at(p, 0) == lo);
            assert_true(t_at(p, n / 2) == hi);
        }
        /* Hann: 0.5 - 0.5 cos, ends 0 and middle 1 exactly. */
        eh_tensor *h = eh_hann_window(5, 0, EH_F64);
        assert_non_null(h);
        assert_true(t_at(h, 0) == 0.0 && t_at(h, 2) == 1.0 && t_at(h, 4) == 0.0);
        eh_scope_end();
    }
    assert_int_equal(eh_set_backend(was), EH_OK);
}

static void test_window_edges(void **state)
{
    (void)state;
    eh_scope_begin();
    for (int periodic = 0; periodic < 2; periodic++) {
        assert_tensor_exact(eh_hann_window(0, periodic, EH_F64), EH_F64, 1, SHAPE(0), NULL);
        assert_tensor_exact(eh_hamming_window(0, periodic, EH_F32), EH_F32, 1, SHAPE(0), NULL);
        assert_tensor_exact(eh_hann_window(1, periodic, EH_F64), EH_F64, 1, SHAPE(1),
                            ((const double[]){1}));
        assert_tensor_exact(eh_hamming_window(1, periodic, EH_F64), EH_F64, 1, SHAPE(1),
                            ((const double[]){1}));
    }
    /* n = 2: symmetric ends only (0, 0); periodic = sym(3)[:2] = (0, 1) */
    assert_tensor_exact(eh_hann_window(2, 0, EH_F64), EH_F64, 1, SHAPE(2), ((const double[]){0, 0}));
    assert_tensor_exact(eh_hann_window(2, 1, EH_F64), EH_F64, 1, SHAPE(2), ((const double[]){0, 1}));
    eh_scope_end();
}

static void test_window_dtypes(void **state)
{
    (void)state;
    eh_scope_begin();
    assert_tensor_exact(eh_hann_window(4, 1, EH_F32), EH_F32, 1, SHAPE(4),
                        ((const double[]){0, 0.5, 1, 0.5}));
    assert_tensor_exact(eh_hann_window(4, 1, EH_F16), EH_F16, 1, SHAPE(4),
                        ((const double[]){0, 0.5, 1, 0.5}));
    /* 0.54 and 0.08 rounded to f32 / f16 */
    assert_tensor(eh_hamming_window(5, 0, EH_F32), EH_F32, 1, SHAPE(5),
                  ((const double[]){0.08, 0.54, 1, 0.54, 0.08}), 1e-7, 0);
    assert_tensor(eh_hamming_window(5, 0, EH_F16), EH_F16, 1, SHAPE(5),
                  ((const double[]){0.08, 0.54, 1, 0.54, 0.08}), 5e-4, 0);
    eh_scope_end();
}

static void test_window_errors(void **state)
{
    (void)state;
    assert_failed(eh_hann_window(-1, 1, EH_F64), EH_ERR_NEGATIVE_SIZE, "hann_window: window length -1");
    assert_failed(eh_hamming_window(-5, 0, EH_F32), EH_ERR_NEGATIVE_SIZE, "hamming_window");
    assert_failed(eh_hann_window(4, 1, EH_I32), EH_ERR_DTYPE, "i32 is not a float dtype");
    assert_failed(eh_hamming_window(4, 1, EH_I64), EH_ERR_DTYPE, "i64");
    assert_failed(eh_hann_window(4, 1, EH_BOOL), EH_ERR_DTYPE, "bool");
    assert_failed(eh_hann_window(4, 1, EH_DTYPE_COUNT), EH_ERR_DTYPE, "hann_window");
    assert_failed(eh_hamming_window(4, 1, (eh_dtype)-3), EH_ERR_DTYPE, "hamming_window");
    /* allocation failures reach the caller as EH_ERR_NOMEM */
    eh__test_fail_alloc(1);
    assert_failed(eh_hann_window(4, 1, EH_F64), EH_ERR_NOMEM, NULL);
    if (!deferring()) {
        eh__test_fail_alloc(2);
        assert_failed(eh_hamming_window(4, 1, EH_F64), EH_ERR_NOMEM, NULL);
    }
    eh__test_fail_alloc(0);
}

/* ---- frame ----------------------------------------------------------- */

static void test_frame_1d(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(10), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    /* 1 + (10 - 4) / 2 = 4 frames starting at 0, 2, 4, 6 */
    assert_tensor_exact(eh_frame(x, 4, 2, -1), EH_F64, 2, SHAPE(4, 4),
                        ((const double[]){0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9}));
    /* hop 3: 1 + 6 / 3 = 3 frames at 0, 3, 6; axis 0 is the same axis */
    assert_tensor_exact(eh_frame(x, 4, 3, 0), EH_F64, 2, SHAPE(3, 4),
                        ((const double[]){0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9}));
    /* trailing samples that do not fill a frame are dropped: 1 + 6 / 4 = 2 */
    assert_tensor_exact(eh_frame(x, 4, 4, -1), EH_F64, 2, SHAPE(2, 4),
                        ((const double[]){0, 1, 2, 3, 4, 5, 6, 7}));
    /* hop larger than the frame: gaps */
    assert_tensor_exact(eh_frame(x, 2, 5, -1), EH_F64, 2, SHAPE(2, 2),
                        ((const double[]){0, 1, 5, 6}));
    /* len == frame_length: one frame; len < frame_length: none */
    assert_tensor_exact(eh_frame(x, 10, 1, -1), EH_F64, 2, SHAPE(1, 10),
                        ((const double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    assert_tensor_exact(eh_frame(x, 11, 1, -1), EH_F64, 2, SHAPE(0, 11), NULL);
    /* frame_length 1, hop 1: every sample its own frame */
    assert_tensor_exact(eh_frame(x, 1, 1, -1), EH_F64, 2, SHAPE(10, 1),
                        ((const double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    eh_scope_end();
}

static void test_frame_axes(void **state)
{
    (void)state;
    eh_scope_begin();
    /* x (5, 2), x[r][c] = 10 r + c, framed along axis 0: out[f][k][c] = x[f + k][c] */
    eh_tensor *x = T_F64(SHAPE(5, 2), 0, 1, 10, 11, 20, 21, 30, 31, 40, 41);
    assert_tensor_exact(eh_frame(x, 3, 1, 0), EH_F64, 3, SHAPE(3, 3, 2),
                        ((const double[]){0, 1, 10, 11, 20, 21,
                                          10, 11, 20, 21, 30, 31,
                                          20, 21, 30, 31, 40, 41}));
    /* along the last axis of the same tensor: length 2, frame 1, hop 1 */
    assert_tensor_exact(eh_frame(x, 1, 1, 1), EH_F64, 3, SHAPE(5, 2, 1),
                        ((const double[]){0, 1, 10, 11, 20, 21, 30, 31, 40, 41}));

    /* a middle axis, negative: y (2, 5, 3), y[a][b][c] = 100a + 10b + c,
     * axis -2, frame 2, hop 3 -> 1 + 3/3 = 2 frames at b = 0, 3 */
    double yv[30], want[24];
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 3; c++)
                yv[(a * 5 + b) * 3 + c] = 100 * a + 10 * b + c;
    int w = 0;
    for (int a = 0; a < 2; a++)
        for (int f = 0; f < 2; f++)
            for (int k = 0; k < 2; k++)
                for (int c = 0; c < 3; c++)
                    want[w++] = 100 * a + 10 * (3 * f + k) + c;
    eh_tensor *y = t_from(EH_F64, 3, SHAPE(2, 5, 3), yv);
    assert_tensor_exact(eh_frame(y, 2, 3, -2), EH_F64, 4, SHAPE(2, 2, 2, 3), want);
    assert_tensor_exact(eh_frame(y, 2, 3, 1), EH_F64, 4, SHAPE(2, 2, 2, 3), want);
    eh_scope_end();
}

static void test_frame_dtypes_and_empty(void **state)
{
    (void)state;
    eh_scope_begin();
    const double v[6] = {1, -2, 3, -4, 5, 0};
    const double wantb[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
    eh_dtype dts[5] = {EH_F16, EH_F32, EH_I32, EH_I64, EH_F64};
    for (int d = 0; d < 5; d++) {
        eh_tensor *x = t_from(dts[d], 1, SHAPE(6), v);
        assert_tensor_exact(eh_frame(x, 3, 1, 0), dts[d], 2, SHAPE(4, 3),
                            ((const double[]){1, -2, 3, -2, 3, -4, 3, -4, 5, -4, 5, 0}));
    }
    eh_tensor *b = t_from(EH_BOOL, 1, SHAPE(6), v);
    assert_tensor_exact(eh_frame(b, 3, 1, 0), EH_BOOL, 2, SHAPE(4, 3), wantb);
    /* empty batch dimension, empty framed axis */
    eh_tensor *e = t_from(EH_F32, 2, SHAPE(0, 5), NULL);
    assert_tensor_exact(eh_frame(e, 2, 1, -1), EH_F32, 3, SHAPE(0, 4, 2), NULL);
    eh_tensor *e2 = t_from(EH_F32, 2, SHAPE(3, 0), NULL);
    assert_tensor_exact(eh_frame(e2, 2, 1, -1), EH_F32, 3, SHAPE(3, 0, 2), NULL);
    eh_scope_end();
}

static void test_frame_errors(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(6), 0, 1, 2, 3, 4, 5);
    assert_failed(eh_frame(NULL, 2, 1, -1), EH_ERR_NULL_ARG, "frame: argument 'x' is NULL");
    assert_failed(eh_frame(x, 0, 1, -1), EH_ERR_INVALID_ARG, "frame_length must be positive, got 0");
    assert_failed(eh_frame(x, -3, 1, -1), EH_ERR_INVALID_ARG, "frame_length");
    assert_failed(eh_frame(x, 2, 0, -1), EH_ERR_INVALID_ARG, "hop_length must be positive, got 0");
    assert_failed(eh_frame(x, 2, -1, -1), EH_ERR_INVALID_ARG, "hop_length");
    assert_failed(eh_frame(x, 2, 1, 1), EH_ERR_AXIS, "frame: axis 1 is out of range");
    assert_failed(eh_frame(x, 2, 1, -2), EH_ERR_AXIS, "axis -2");
    eh_tensor *s = eh_scalar(1.0, EH_F64);
    assert_failed(eh_frame(s, 1, 1, -1), EH_ERR_AXIS, "0 dimensions");
    eh_tensor *big = t_from(EH_F64, 8, SHAPE(1, 1, 1, 1, 1, 1, 1, 2), (const double[]){1, 2});
    assert_failed(eh_frame(big, 1, 1, -1), EH_ERR_SHAPE, "(1, 1, 1, 1, 1, 1, 1, 2)");
    /* an earlier error is kept through a NULL argument */
    assert_failed(eh_frame(eh_frame(x, 0, 1, -1), 2, 1, -1), EH_ERR_INVALID_ARG, "frame_length");
    eh__test_fail_alloc(1);
    assert_failed(eh_frame(x, 2, 1, -1), EH_ERR_NOMEM, NULL);
    if (!deferring()) {
        eh__test_fail_alloc(2);
        assert_failed(eh_frame(x, 2, 1, -1), EH_ERR_NOMEM, NULL);
    }
    eh__test_fail_alloc(0);
    eh_scope_end();
}

/* ---- rfft ------------------------------------------------------------ */

static void test_rfft_known(void **state)
{
    (void)state;
    eh_scope_begin();
    /* impulse: all ones */
    assert_tensor_exact(eh_rfft(T_F64(SHAPE(4), 1, 0, 0, 0), 0, -1), EH_F64, 2, SHAPE(3, 2),
                        ((const double[]){1, 0, 1, 0, 1, 0}));
    /* constant: n at DC */
    assert_tensor_exact(eh_rfft(T_F64(SHAPE(4), 1, 1, 1, 1), 0, -1), EH_F64, 2, SHAPE(3, 2),
                        ((const double[]){4, 0, 0, 0, 0, 0}));
    /* [1, 2, 3, 4]: 10, -2 + 2i, -2 */
    assert_tensor(eh_rfft(T_F64(SHAPE(4), 1, 2, 3, 4), 0, 0), EH_F64, 2, SHAPE(3, 2),
                  ((const double[]){10, 0, -2, 2, -2, 0}), 1e-15, 0);
    /* delayed impulse x = delta[t - 1], n = 4: X[k] = (-i)^k */
    assert_tensor(eh_rfft(T_F64(SHAPE(4), 0, 1, 0, 0), 0, -1), EH_F64, 2, SHAPE(3, 2),
                  ((const double[]){1, 0, 0, -1, -1, 0}), 1e-15, 0);
    /* n = 1: the single sample */
    assert_tensor_exact(eh_rfft(T_F64(SHAPE(1), -2.5), 0, -1), EH_F64, 2, SHAPE(1, 2),
                        ((const double[]){-2.5, 0}));
    /* n = 2: sum and difference */
    assert_tensor_exact(eh_rfft(T_F64(SHAPE(2), 3, 5), 0, -1), EH_F64, 2, SHAPE(2, 2),
                        ((const double[]){8, 0, -2, 0}));
    eh_scope_end();
}

/* cos at bin 2 (n = 8) -> 4 at bin 2; sin at bin 3 (n = 16) -> -8i at bin 3;
 * also odd lengths through both non-power-of-two paths. */
static void test_rfft_tones(void **state)
{
    (void)state;
    eh_scope_begin();
    const int64_t ns[5] = {8, 16, 9, 15, 100};
    for (int q = 0; q < 5; q++) {
        int64_t n = ns[q];
        for (int64_t bin = 0; bin <= n / 2; bin++) {
            double xc[100], xs[100];
            for (int64_t t = 0; t < n; t++) {
                xc[t] = cos(2 * PI * (double)(bin * t % n) / (double)n);
                xs[t] = sin(2 * PI * (double)(bin * t % n) / (double)n);
            }
            eh_tensor *C = eh_rfft(t_from(EH_F64, 1, (const int64_t[]){n}, xc), 0, -1);
            eh_tensor *S = eh_rfft(t_from(EH_F64, 1, (const int64_t[]){n}, xs), 0, -1);
            assert_non_null(C);
            assert_non_null(S);
            int edge = bin == 0 || 2 * bin == n; /* the tone is its own mirror image */
            for (int64_t k = 0; k <= n / 2; k++) {
                double cre = k == bin ? (edge ? (double)n : n / 2.0) : 0.0;
                double sim = k == bin && !edge ? -n / 2.0 : 0.0;
                assert_near(t_at(C, 2 * k), cre, 1e-12);
                assert_near(t_at(C, 2 * k + 1), 0.0, 1e-12);
                assert_near(t_at(S, 2 * k), 0.0, 1e-12);
                assert_near(t_at(S, 2 * k + 1), sim, 1e-12);
            }
        }
    }
    eh_scope_end();
}

/* The ramp t + 1: X[0] = n(n+1)/2, X[k] = -n/2 + i (n/2) cot(pi k / n). */
static void test_rfft_ramp_closed_form(void **state)
{
    (void)state;
    eh_scope_begin();
    for (int64_t n = 1; n <= 140; n++) {
        double x[140];
        for (int64_t t = 0; t < n; t++)
            x[t] = (double)(t + 1);
        eh_tensor *X = eh_rfft(t_from(EH_F64, 1, (const int64_t[]){n}, x), 0, -1);
        assert_non_null(X);
        double tol = 1e-13 * (double)n * (double)n;
        assert_near(t_at(X, 0), n * (n + 1) / 2.0, tol);
        assert_near(t_at(X, 1), 0.0, tol);
        for (int64_t k = 1; k <= n / 2; k++) {
            assert_near(t_at(X, 2 * k), -n / 2.0, tol);
            assert_near(t_at(X, 2 * k + 1), (n / 2.0) / tan(PI * (double)k / (double)n), tol);
        }
    }
    eh_scope_end();
}

/* Against the direct DFT, lengths covering radix-2, direct, Bluestein. */
static void test_rfft_vs_dft(void **state)
{
    (void)state;
    eh_scope_begin();
    const int64_t ns[] = {2, 3, 5, 6, 7, 12, 31, 32, 64, 65, 97, 100, 128, 243, 1000};
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        int64_t n = ns[q];
        eh_tensor *x = signal_tensor(EH_F64, n);
        eh_tensor *X = eh_rfft(x, 0, -1);
        assert_non_null(X);
        assert_int_equal(eh_shape(X)[0], n / 2 + 1);
        double *want = malloc((size_t)(n + 2) * sizeof *want), xs[1000];
        assert_non_null(want);
        for (int64_t t = 0; t < n; t++)
            xs[t] = sig(t);
        dft_ref(xs, n, n, want);
        for (int64_t k = 0; k < 2 * (n / 2 + 1); k++)
            assert_near(t_at(X, k), want[k], 1e-12 * (double)n);
        free(want);
    }
    eh_scope_end();
}

/* Parseval: sum x^2 = (1/n) sum over the full spectrum |X|^2. */
static void test_rfft_parseval(void **state)
{
    (void)state;
    eh_scope_begin();
    const int64_t ns[] = {8, 9, 50, 256, 255};
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        int64_t n = ns[q];
        eh_tensor *X = eh_rfft(signal_tensor(EH_F64, n), 0, -1);
        assert_non_null(X);
        double e_time = 0, e_freq = 0;
        for (int64_t t = 0; t < n; t++)
            e_time += sig(t) * sig(t);
        for (int64_t k = 0; k <= n / 2; k++) {
            double re = t_at(X, 2 * k), im = t_at(X, 2 * k + 1);
            double mult = (k == 0 || 2 * k == n) ? 1.0 : 2.0; /* bins n-k mirror bins k */
            e_freq += mult * (re * re + im * im);
        }
        assert_near(e_freq / (double)n, e_time, 1e-11 * e_time);
    }
    eh_scope_end();
}

/* n crops or zero-pads before transforming. */
static void test_rfft_n(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(6), 1, 2, 3, 4, 5, 6);
    /* n = 4 crops to [1, 2, 3, 4] */
    assert_tensor(eh_rfft(x, 4, -1), EH_F64, 2, SHAPE(3, 2),
                  ((const double[]){10, 0, -2, 2, -2, 0}), 1e-15, 0);
    /* n = 8 pads to [1..6, 0, 0] */
    double xs[6] = {1, 2, 3, 4, 5, 6}, want[10];
    dft_ref(xs, 6, 8, want);
    assert_tensor(eh_rfft(x, 8, -1), EH_F64, 2, SHAPE(5, 2), want, 1e-13, 0);
    /* n = 7 (odd, padded) */
    double want7[8];
    dft_ref(xs, 6, 7, want7);
    assert_tensor(eh_rfft(x, 7, -1), EH_F64, 2, SHAPE(4, 2), want7, 1e-13, 0);
    /* n <= 0 means the axis length */
    eh_tensor *a = eh_rfft(x, 0, -1), *b = eh_rfft(x, -7, -1), *c = eh_rfft(x, 6, -1);
    double want6[8];
    dft_ref(xs, 6, 6, want6);
    assert_tensor(a, EH_F64, 2, SHAPE(4, 2), want6, 1e-13, 0);
    assert_tensor(b, EH_F64, 2, SHAPE(4, 2), want6, 1e-13, 0);
    assert_tensor(c, EH_F64, 2, SHAPE(4, 2), want6, 1e-13, 0);
    /* an empty axis padded to 4: zeros */
    eh_tensor *e = t_from(EH_F64, 1, SHAPE(0), NULL);
    assert_tensor_exact(eh_rfft(e, 4, -1), EH_F64, 2, SHAPE(3, 2),
                        ((const double[]){0, 0, 0, 0, 0, 0}));
    eh_scope_end();
}

/* rfft along axis 0 and a middle axis of multi-dimensional tensors. */
static void test_rfft_axes(void **state)
{
    (void)state;
    eh_scope_begin();
    /* x (4, 2): column 0 = [1, 0, 0, 0] -> ones; column 1 = [1, 2, 3, 4] -> 10, -2+2i, -2 */
    eh_tensor *x = T_F64(SHAPE(4, 2), 1, 1, 0, 2, 0, 3, 0, 4);
    const double want[12] = {1, 0, 10, 0, 1, 0, -2, 2, 1, 0, -2, 0};
    assert_tensor(eh_rfft(x, 0, 0), EH_F64, 3, SHAPE(3, 2, 2), want, 1e-15, 0);
    assert_tensor(eh_rfft(x, 0, -2), EH_F64, 3, SHAPE(3, 2, 2), want, 1e-15, 0);
    /* along the last axis: rows [1, 1] -> (2, 0); [0, 2] -> (2, -2); ... */
    assert_tensor(eh_rfft(x, 0, 1), EH_F64, 3, SHAPE(4, 2, 2),
                  ((const double[]){2, 0, 0, 0, 2, 0, -2, 0, 3, 0, -3, 0, 4, 0, -4, 0}), 1e-15, 0);
    /* (2, 5, 3) along axis 1, each line checked against dft_ref */
    double v[30];
    for (int k = 0; k < 30; k++)
        v[k] = sig(k);
    eh_tensor *y = t_from(EH_F64, 3, SHAPE(2, 5, 3), v);
    eh_tensor *Y = eh_rfft(y, 0, 1);
    assert_non_null(Y);
    assert_int_equal(eh_ndim(Y), 4);
    assert_int_equal(eh_shape(Y)[1], 3);
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 3; c++) {
            double line[5], want5[6];
            for (int t = 0; t < 5; t++)
                line[t] = v[(a * 5 + t) * 3 + c];
            dft_ref(line, 5, 5, want5);
            for (int k = 0; k < 3; k++)
                for (int r = 0; r < 2; r++)
                    assert_near(t_at(Y, ((a * 3 + k) * 3 + c) * 2 + r), want5[2 * k + r], 1e-13);
        }
    /* empty batch: (0, 4) -> (0, 3, 2) */
    assert_tensor_exact(eh_rfft(t_from(EH_F64, 2, SHAPE(0, 4), NULL), 0, -1), EH_F64, 3,
                        SHAPE(0, 3, 2), NULL);
    eh_scope_end();
}

static void test_rfft_dtypes(void **state)
{
    (void)state;
    eh_scope_begin();
    const double v[4] = {1, 2, 3, 4}, want[6] = {10, 0, -2, 2, -2, 0};
    assert_tensor(eh_rfft(t_from(EH_F32, 1, SHAPE(4), v), 0, -1), EH_F32, 2, SHAPE(3, 2), want, 1e-6, 0);
    assert_tensor(eh_rfft(t_from(EH_F16, 1, SHAPE(4), v), 0, -1), EH_F32, 2, SHAPE(3, 2), want, 1e-6, 0);
    assert_tensor(eh_rfft(t_from(EH_I32, 1, SHAPE(4), v), 0, -1), EH_F64, 2, SHAPE(3, 2), want, 1e-15, 0);
    assert_tensor(eh_rfft(t_from(EH_I64, 1, SHAPE(4), v), 0, -1), EH_F64, 2, SHAPE(3, 2), want, 1e-15, 0);
    assert_tensor_exact(eh_rfft(t_from(EH_BOOL, 1, SHAPE(4), (const double[]){1, 0, 0, 0}), 0, -1),
                        EH_F64, 2, SHAPE(3, 2), ((const double[]){1, 0, 1, 0, 1, 0}));
    /* f16 input whose spectrum overflows f16 (max 65504) is fine in f32 */
    double big[64];
    for (int t = 0; t < 64; t++)
        big[t] = 2000;
    eh_tensor *X = eh_rfft(t_from(EH_F16, 1, SHAPE(64), big), 0, -1);
    assert_non_null(X);
    assert_int_equal(eh_get_dtype(X), EH_F32);
    assert_near(t_at(X, 0), 128000.0, 1e-9);
    /* f32 is computed in double and rounded once: as exact as f32 allows */
    double tone[100];
    for (int t = 0; t < 100; t++)
        tone[t] = cos(2 * PI * (double)(7 * t % 100) / 100.0);
    eh_tensor *T32 = eh_rfft(t_from(EH_F32, 1, SHAPE(100), tone), 0, -1);
    assert_non_null(T32);
    assert_near(t_at(T32, 2 * 7), 50.0, 2e-5);
    for (int k = 0; k <= 50; k++)
        if (k != 7)
            assert_near(t_at(T32, 2 * k), 0.0, 1e-5);
    eh_scope_end();
}

static void test_rfft_nan(void **state)
{
    (void)state;
    eh_scope_begin();
    const int64_t ns[3] = {4, 5, 67}; /* radix-2, direct, Bluestein */
    for (int q = 0; q < 3; q++) {
        double v[67] = {0};
        v[1] = NAN;
        eh_tensor *X = eh_rfft(t_from(EH_F64, 1, (const int64_t[]){ns[q]}, v), 0, -1);
        assert_non_null(X);
        for (int64_t k = 0; k <= ns[q] / 2; k++)
            assert_true(isnan(t_at(X, 2 * k)));
    }
    eh_scope_end();
}

static void test_rfft_errors(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(4), 1, 2, 3, 4);
    assert_failed(eh_rfft(NULL, 0, -1), EH_ERR_NULL_ARG, "rfft: argument 'x' is NULL");
    assert_failed(eh_rfft(x, 0, 1), EH_ERR_AXIS, "rfft: axis 1 is out of range");
    assert_failed(eh_rfft(x, 0, -2), EH_ERR_AXIS, "axis -2");
    assert_failed(eh_rfft(eh_scalar(1, EH_F64), 0, -1), EH_ERR_AXIS, "0 dimensions");
    assert_failed(eh_rfft(t_from(EH_F64, 2, SHAPE(3, 0), NULL), 0, -1), EH_ERR_SHAPE,
                  "rfft: axis -1 of shape (3, 0) is empty");
    assert_failed(eh_rfft(t_from(EH_F64, 1, SHAPE(0), NULL), -1, 0), EH_ERR_SHAPE, "empty");
    eh_tensor *big = t_from(EH_F64, 8, SHAPE(1, 1, 1, 1, 1, 1, 1, 2), (const double[]){1, 2});
    assert_failed(eh_rfft(big, 0, -1), EH_ERR_SHAPE, "(1, 1, 1, 1, 1, 1, 1, 2)");
    assert_failed(eh_rfft(eh_rfft(x, 0, 5), 0, -1), EH_ERR_AXIS, "axis 5");
    /* n so large that the (n/2 + 1, 2) result has more than INT64_MAX elements */
    assert_failed(eh_rfft(x, INT64_MAX, -1), EH_ERR_OVERFLOW, "rfft: shape");
    eh__test_fail_alloc(1);
    assert_failed(eh_rfft(x, 0, -1), EH_ERR_NOMEM, NULL);
    if (!deferring()) {
        eh__test_fail_alloc(2);
        assert_failed(eh_rfft(x, 0, -1), EH_ERR_NOMEM, NULL);
    }
    eh__test_fail_alloc(0);
    eh_scope_end();
}

/* ---- irfft ----------------------------------------------------------- */

static void test_irfft_known(void **state)
{
    (void)state;
    eh_scope_begin();
    /* [4, 0, 0] -> constant 1 (n = 2 (3 - 1) = 4) */
    assert_tensor(eh_irfft(T_F64(SHAPE(3, 2), 4, 0, 0, 0, 0, 0), 0, -1), EH_F64, 1, SHAPE(4),
                  ((const double[]){1, 1, 1, 1}), 1e-15, 0);
    /* all ones -> impulse */
    assert_tensor(eh_irfft(T_F64(SHAPE(3, 2), 1, 0, 1, 0, 1, 0), 0, -1), EH_F64, 1, SHAPE(4),
                  ((const double[]){1, 0, 0, 0}), 1e-15, 0);
    /* 10, -2+2i, -2 -> [1, 2, 3, 4] */
    assert_tensor(eh_irfft(T_F64(SHAPE(3, 2), 10, 0, -2, 2, -2, 0), 4, 0), EH_F64, 1, SHAPE(4),
                  ((const double[]){1, 2, 3, 4}), 1e-15, 0);
    /* default n = 2 (m - 1): m = 5 -> 8 */
    eh_tensor *y = eh_irfft(T_F64(SHAPE(5, 2), 8, 0, 0, 0, 0, 0, 0, 0, 0, 0), 0, -1);
    assert_tensor(y, EH_F64, 1, SHAPE(8), ((const double[]){1, 1, 1, 1, 1, 1, 1, 1}), 1e-15, 0);
    /* n = 1: the DC value */
    assert_tensor(eh_irfft(T_F64(SHAPE(1, 2), 7, 0), 1, -1), EH_F64, 1, SHAPE(1),
                  ((const double[]){7}), 0, 0);
    eh_scope_end();
}

/* Imaginary parts of the DC bin and (even n) of the Nyquist bin are ignored;
 * extra bins are cropped; missing bins are zero. */
static void test_irfft_hermitian_rules(void **state)
{
    (void)state;
    eh_scope_begin();
    /* DC = 4 + 5i, Nyquist = 0 + 3i, n = 4 -> the constant 1 */
    assert_tensor(eh_irfft(T_F64(SHAPE(3, 2), 4, 5, 0, 0, 0, 3), 4, -1), EH_F64, 1, SHAPE(4),
                  ((const double[]){1, 1, 1, 1}), 1e-15, 0);
    /* odd n = 3 uses bins 0, 1: bin 1's imaginary part counts.
     * X = [0, i]: y[t] = (1/3)(i e^{2 pi i t/3} + conj) = -(2/3) sin(2 pi t / 3) */
    assert_tensor(eh_irfft(T_F64(SHAPE(2, 2), 0, 0, 0, 1), 3, -1), EH_F64, 1, SHAPE(3),
                  ((const double[]){0, -(2.0 / 3) * sin(2 * PI / 3), -(2.0 / 3) * sin(4 * PI / 3)}),
                  1e-15, 0);
    /* cropping: 5 bins, n = 4 uses the first 3 ([4, 0, 0]); bins 3, 4 ignored */
    assert_tensor(eh_irfft(T_F64(SHAPE(5, 2), 4, 0, 0, 0, 0, 0, 9, 9, 9, 9), 4, -1), EH_F64, 1,
                  SHAPE(4), ((const double[]){1, 1, 1, 1}), 1e-15, 0);
    /* zero-padding: 1 bin [2], n = 4 -> 0.5 everywhere */
    assert_tensor(eh_irfft(T_F64(SHAPE(1, 2), 2, 0), 4, -1), EH_F64, 1, SHAPE(4),
                  ((const double[]){0.5, 0.5, 0.5, 0.5}), 1e-15, 0);
    /* no bins at all (m = 0) with n = 3: zeros */
    assert_tensor_exact(eh_irfft(t_from(EH_F64, 2, SHAPE(0, 2), NULL), 3, -1), EH_F64, 1,
                        SHAPE(3), ((const double[]){0, 0, 0}));
    eh_scope_end();
}

static void test_irfft_roundtrip(void **state)
{
    (void)state;
    eh_scope_begin();
    const int64_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 31, 64, 65, 101, 128, 500};
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        int64_t n = ns[q];
        eh_tensor *x = signal_tensor(EH_F64, n);
        eh_tensor *y = eh_irfft(eh_rfft(x, 0, -1), n, -1);
        assert_non_null(y);
        assert_int_equal(eh_ndim(y), 1);
        assert_int_equal(eh_shape(y)[0], n);
        for (int64_t t = 0; t < n; t++)
            assert_near(t_at(y, t), sig(t), 1e-13);
        /* even n also round-trips with the default n */
        if (n % 2 == 0 && n >= 2) {
            eh_tensor *z = eh_irfft(eh_rfft(x, 0, -1), 0, -1);
            assert_non_null(z);
            assert_int_equal(eh_shape(z)[0], n);
            for (int64_t t = 0; t < n; t++)
                assert_near(t_at(z, t), sig(t), 1e-13);
        }
    }
    /* odd n without n gives 2 (m - 1) = n - 1 points, as NumPy */
    eh_tensor *w = eh_irfft(eh_rfft(signal_tensor(EH_F64, 5), 0, -1), 0, -1);
    assert_non_null(w);
    assert_int_equal(eh_shape(w)[0], 4);
    eh_scope_end();
}

static void test_irfft_axes_and_dtypes(void **state)
{
    (void)state;
    eh_scope_begin();
    double v[18];
    for (int k = 0; k < 18; k++)
        v[k] = sig(k);
    /* (6, 3) along axis 0: rfft -> (4, 3, 2); irfft axis 0 and -2 -> (6, 3) */
    eh_tensor *x = t_from(EH_F64, 2, SHAPE(6, 3), v);
    eh_tensor *X = eh_rfft(x, 0, 0);
    assert_tensor(eh_irfft(X, 6, 0), EH_F64, 2, SHAPE(6, 3), v, 1e-14, 0);
    assert_tensor(eh_irfft(X, 6, -2), EH_F64, 2, SHAPE(6, 3), v, 1e-14, 0);
    /* (3, 6) along the last axis */
    eh_tensor *x2 = t_from(EH_F64, 2, SHAPE(3, 6), v);
    assert_tensor(eh_irfft(eh_rfft(x2, 0, -1), 0, -1), EH_F64, 2, SHAPE(3, 6), v, 1e-14, 0);
    /* dtypes: f32 -> f32, f16 -> f32, ints -> f64 */
    const double spec[6] = {10, 0, -2, 2, -2, 0}, want[4] = {1, 2, 3, 4};
    assert_tensor(eh_irfft(t_from(EH_F32, 2, SHAPE(3, 2), spec), 4, -1), EH_F32, 1, SHAPE(4), want, 1e-6, 0);
    assert_tensor(eh_irfft(t_from(EH_F16, 2, SHAPE(3, 2), spec), 4, -1), EH_F32, 1, SHAPE(4), want, 1e-6, 0);
    assert_tensor(eh_irfft(t_from(EH_I32, 2, SHAPE(3, 2), spec), 4, -1), EH_F64, 1, SHAPE(4), want, 1e-15, 0);
    assert_tensor(eh_irfft(t_from(EH_I64, 2, SHAPE(3, 2), spec), 4, -1), EH_F64, 1, SHAPE(4), want, 1e-15, 0);
    /* NaN in a used bin spreads to every sample */
    eh_tensor *y = eh_irfft(T_F64(SHAPE(3, 2), 1, 0, NAN, 0, 0, 0), 4, -1);
    assert_non_null(y);
    for (int t = 0; t < 4; t++)
        assert_true(isnan(t_at(y, t)));
    /* empty batch */
    assert_tensor_exact(eh_irfft(t_from(EH_F64, 3, SHAPE(0, 3, 2), NULL), 0, -1), EH_F64, 2,
                        SHAPE(0, 4), NULL);
    eh_scope_end();
}

static void test_irfft_errors(void **state)
{
    (void)state;
    eh_scope_begin();
    assert_failed(eh_irfft(NULL, 0, -1), EH_ERR_NULL_ARG, "irfft: argument 'x' is NULL");
    assert_failed(eh_irfft(T_F64(SHAPE(2), 1, 0), 0, -1), EH_ERR_SHAPE, "irfft: x of shape (2,) is not complex");
    assert_failed(eh_irfft(T_F64(SHAPE(2, 3), 1, 0, 0, 1, 0, 0), 0, -1), EH_ERR_SHAPE, "(2, 3)");
    assert_failed(eh_irfft(eh_scalar(1, EH_F64), 0, -1), EH_ERR_SHAPE, "not complex");
    eh_tensor *c = T_F64(SHAPE(3, 2), 1, 0, 0, 0, 0, 0);
    assert_failed(eh_irfft(c, 0, 1), EH_ERR_AXIS, "irfft: axis 1 is out of range for 1 dimension");
    assert_failed(eh_irfft(c, 0, -2), EH_ERR_AXIS, "axis -2");
    assert_failed(eh_irfft(T_F64(SHAPE(1, 2), 1, 0), 0, -1), EH_ERR_SHAPE, "1 bin, which gives 0 output points");
    assert_failed(eh_irfft(t_from(EH_F64, 2, SHAPE(0, 2), NULL), 0, -1), EH_ERR_SHAPE, "0 bins");
    assert_failed(eh_irfft(eh_irfft(c, 0, 3), 0, -1), EH_ERR_AXIS, "axis 3");
    /* n whose f64 result does not fit in size_t bytes */
    assert_failed(eh_irfft(c, INT64_MAX, -1), EH_ERR_OVERFLOW, "irfft: shape");
    eh__test_fail_alloc(1);
    assert_failed(eh_irfft(c, 0, -1), EH_ERR_NOMEM, NULL);
    if (!deferring()) {
        eh__test_fail_alloc(2);
        assert_failed(eh_irfft(c, 0, -1), EH_ERR_NOMEM, NULL);
    }
    eh__test_fail_alloc(0);
    eh_scope_end();
}

/* ---- stft ------------------------------------------------------------ */

/* out (bins, frames, 2) element (k, f, r) */
static double spec_at(const eh_tensor *S, int64_t k, int64_t f, int r)
{
    int nd = eh_ndim(S);
    int64_t frames = eh_shape(S)[nd - 2];
    return t_at(S, (k * frames + f) * 2 + r);
}

static void test_stft_constant(void **state)
{
    (void)state;
    eh_scope_begin();
    double ones[16];
    for (int t = 0; t < 16; t++)
        ones[t] = 1;
    eh_tensor *x = t_from(EH_F64, 1, SHAPE(16), ones);
    /* rectangular window, no centering: 1 + (16 - 8) / 4 = 3 frames; only
     * DC, = n_fft = the window sum */
    eh_tensor *S = eh_stft(x, 8, 4, rect(8), 0);
    double want[5 * 3 * 2] = {0};
    for (int f = 0; f < 3; f++)
        want[(0 * 3 + f) * 2] = 8;
    assert_tensor(S, EH_F64, 3, SHAPE(5, 3, 2), want, 1e-15, 0);
    /* periodic Hann: DC = window sum = 4, bin 1 = -n/4 = -2, rest 0 */
    eh_tensor *H = eh_stft(x, 8, 4, eh_hann_window(8, 1, EH_F64), 0);
    double wanth[5 * 3 * 2] = {0};
    for (int f = 0; f < 3; f++) {
        wanth[(0 * 3 + f) * 2] = 4;
        wanth[(1 * 3 + f) * 2] = -2;
    }
    assert_tensor(H, EH_F64, 3, SHAPE(5, 3, 2), wanth, 1e-15, 0);
    /* centered: reflect padding keeps it constant; 1 + (16 + 8 - 8) / 4 = 5 frames */
    eh_tensor *C = eh_stft(x, 8, 4, eh_hann_window(8, 1, EH_F64), 1);
    double wantc[5 * 5 * 2] = {0};
    for (int f = 0; f < 5; f++) {
        wantc[(0 * 5 + f) * 2] = 4;
        wantc[(1 * 5 + f) * 2] = -2;
    }
    assert_tensor(C, EH_F64, 3, SHAPE(5, 5, 2), wantc, 1e-15, 0);
    eh_scope_end();
}

/* cos at bin 2 of n_fft = 8, hop 8: each frame holds whole periods. */
static void test_stft_tone(void **state)
{
    (void)state;
    eh_scope_begin();
    double v[16];
    for (int t = 0; t < 16; t++)
        v[t] = cos(2 * PI * 2 * (t % 8) / 8.0);
    eh_tensor *S = eh_stft(t_from(EH_F64, 1, SHAPE(16), v), 8, 8, rect(8), 0);
    double want[5 * 2 * 2] = {0};
    want[(2 * 2 + 0) * 2] = 4;
    want[(2 * 2 + 1) * 2] = 4;
    assert_tensor(S, EH_F64, 3, SHAPE(5, 2, 2), want, 1e-14, 0);
    eh_scope_end();
}

/* Reflect padding, worked by hand:
 * x = [0, 1, 2, 3, 4], n_fft 4, hop 1, center: pad 2 each side,
 * xp = [2, 1, 0, 1, 2, 3, 4, 3, 2], 1 + (9 - 4) = 6 frames.
 * For a frame p0..p3: X0 = p0+p1+p2+p3, X1 = (p0 - p2) + i (p3 - p1),
 * X2 = p0 - p1 + p2 - p3. */
static void test_stft_reflect(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *S = eh_stft(T_F64(SHAPE(5), 0, 1, 2, 3, 4), 4, 1, rect(4), 1);
    const double want[3 * 6 * 2] = {
        /* bin 0 */ 4, 0, 4, 0, 6, 0, 10, 0, 12, 0, 12, 0,
        /* bin 1 */ 2, 0, 0, 2, -2, 2, -2, 2, -2, 0, 0, -2,
        /* bin 2 */ 0, 0, 0, 0, -2, 0, -2, 0, 0, 0, 0, 0,
    };
    assert_tensor(S, EH_F64, 3, SHAPE(3, 6, 2), want, 1e-15, 0);

    /* pad 2 > T - 1 = 1: x = [1, 5] mirrors repeatedly (np.pad "reflect"):
     * xp = [1, 5, 1, 5, 1, 5], 3 frames: DC 12, Nyquist -8, 8, -8, bin 1 = 0 */
    eh_tensor *R = eh_stft(T_F64(SHAPE(2), 1, 5), 4, 1, rect(4), 1);
    assert_tensor(R, EH_F64, 3, SHAPE(3, 3, 2),
                  ((const double[]){12, 0, 12, 0, 12, 0, 0, 0, 0, 0, 0, 0, -8, 0, 8, 0, -8, 0}),
                  1e-15, 0);
    /* x = [1, 2, 3], n_fft 8, pad 4: xp = [1,2,3,2, 1,2,3, 2,1,2,3], 4 frames
     * with hop 1; frame 0 = [1,2,3,2,1,2,3,2]: X2 = sum p_t (-i)^t
     * = (1 - 3 + 1 - 3) + i (-2 + 2 - 2 + 2) = -4; frame 1 = [2,3,2,1,2,3,2,1]:
     * X2 = (2 - 2 + 2 - 2) + i (-3 + 1 - 3 + 1) = -4i */
    eh_tensor *Q = eh_stft(T_F64(SHAPE(3), 1, 2, 3), 8, 1, rect(8), 1);
    assert_non_null(Q);
    assert_int_equal(eh_shape(Q)[1], 4);
    assert_near(spec_at(Q, 0, 0, 0), 16, 1e-14);
    assert_near(spec_at(Q, 2, 0, 0), -4, 1e-14);
    assert_near(spec_at(Q, 2, 0, 1), 0, 1e-14);
    assert_near(spec_at(Q, 2, 1, 0), 0, 1e-14);
    assert_near(spec_at(Q, 2, 1, 1), -4, 1e-14);
    /* a single sample is repeated: [3] -> xp = [3, 3, 3, 3, 3], 2 frames */
    assert_tensor(eh_stft(T_F64(SHAPE(1), 3), 4, 1, rect(4), 1), EH_F64, 3, SHAPE(3, 2, 2),
                  ((const double[]){12, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 1e-15, 0);
    /* n_fft 1: no padding even when centered */
    assert_tensor(eh_stft(T_F64(SHAPE(3), 1, 2, 3), 1, 1, rect(1), 1), EH_F64, 3, SHAPE(1, 3, 2),
                  ((const double[]){1, 0, 2, 0, 3, 0}), 0, 0);
    eh_scope_end();
}

/* stft == transpose(rfft(frame(x) * window)) without centering.
 * No scope here: eh_multiply's frontend retains and releases its operands,
 * and releasing a scope-owned tensor takes it out of its scope (a core
 * issue reported to the lead), so this test releases everything itself. */
static void test_stft_vs_frame_rfft(void **state)
{
    (void)state;
    const int64_t nffts[3] = {16, 12, 70}; /* radix-2, direct, Bluestein */
    for (int q = 0; q < 3; q++) {
        int64_t n_fft = nffts[q], hop = n_fft / 3;
        eh_tensor *x = signal_tensor(EH_F64, 300);
        eh_tensor *w = eh_hamming_window(n_fft, 1, EH_F64);
        eh_tensor *S = eh_stft(x, n_fft, hop, w, 0);
        eh_tensor *fr = eh_frame(x, n_fft, hop, -1);
        eh_tensor *prod = eh_multiply(fr, w);
        eh_tensor *F = eh_rfft(prod, 0, -1);
        assert_non_null(S);
        assert_non_null(F);
        int64_t frames = eh_shape(F)[0], bins = n_fft / 2 + 1;
        assert_int_equal(eh_ndim(S), 3);
        assert_int_equal(eh_shape(S)[0], bins);
        assert_int_equal(eh_shape(S)[1], frames);
        assert_int_equal(frames, 1 + (300 - n_fft) / hop);
        for (int64_t f = 0; f < frames; f++)
            for (int64_t k = 0; k < bins; k++)
                for (int r = 0; r < 2; r++)
                    assert_near(spec_at(S, k, f, r), t_at(F, (f * bins + k) * 2 + r), 1e-12);
        eh_tensor *all[6] = {x, w, S, fr, prod, F};
        for (int k = 0; k < 6; k++)
            eh_release(all[k]);
    }
}

static void test_stft_batch_and_dtypes(void **state)
{
    (void)state;
    eh_scope_begin();
    /* (2, 3, 10): every row transforms on its own */
    double v[60];
    for (int k = 0; k < 60; k++)
        v[k] = sig(k);
    eh_tensor *x = t_from(EH_F64, 3, SHAPE(2, 3, 10), v);
    eh_tensor *w = eh_hann_window(4, 1, EH_F64);
    eh_tensor *S = eh_stft(x, 4, 2, w, 1);
    /* center: 1 + (10 + 4 - 4) / 2 = 6 frames */
    assert_non_null(S);
    assert_int_equal(eh_ndim(S), 5);
    const int64_t *sh = eh_shape(S);
    assert_true(sh[0] == 2 && sh[1] == 3 && sh[2] == 3 && sh[3] == 6 && sh[4] == 2);
    for (int row = 0; row < 6; row++) {
        eh_tensor *r = t_from(EH_F64, 1, SHAPE(10), v + 10 * row);
        eh_tensor *R = eh_stft(r, 4, 2, w, 1);
        assert_non_null(R);
        for (int k = 0; k < 36; k++)
            assert_true(t_at(S, row * 36 + k) == t_at(R, k));
    }
    /* dtypes */
    eh_tensor *x32 = t_from(EH_F32, 1, SHAPE(10), v);
    eh_tensor *S32 = eh_stft(x32, 4, 2, rect_as(4, EH_F32), 0);
    assert_non_null(S32);
    assert_int_equal(eh_get_dtype(S32), EH_F32);
    assert_int_equal(eh_get_dtype(eh_stft(x32, 4, 2, w, 0)), EH_F64); /* f32 with an f64 window */
    assert_int_equal(eh_get_dtype(eh_stft(x32, 4, 2, eh_hann_window(4, 1, EH_F32), 0)), EH_F32);
    assert_int_equal(eh_get_dtype(eh_stft(t_from(EH_F16, 1, SHAPE(10), v), 4, 2, rect_as(4, EH_F16), 0)), EH_F32);
    eh_tensor *xi = t_from(EH_I32, 1, SHAPE(4), (const double[]){1, 1, 1, 1});
    assert_tensor(eh_stft(xi, 4, 1, rect(4), 0), EH_F64, 3, SHAPE(3, 1, 2),
                  ((const double[]){4, 0, 0, 0, 0, 0}), 0, 0);
    /* f32 stft agrees with the f64 one to f32 rounding */
    eh_tensor *S64 = eh_stft(t_from(EH_F64, 1, SHAPE(10), v), 4, 2, rect(4), 0);
    for (int k = 0; k < 3 * 4 * 2; k++)
        assert_near(t_at(S32, k), t_at(S64, k), 1e-6);
    eh_scope_end();
}

static void test_stft_short_and_empty(void **state)
{
    (void)state;
    eh_scope_begin();
    /* shorter than n_fft without centering: no frames */
    assert_tensor_exact(eh_stft(T_F64(SHAPE(3), 1, 2, 3), 8, 2, rect(8), 0), EH_F64, 3,
                        SHAPE(5, 0, 2), NULL);
    assert_tensor_exact(eh_stft(t_from(EH_F64, 1, SHAPE(0), NULL), 4, 1, rect(4), 0), EH_F64, 3,
                        SHAPE(3, 0, 2), NULL);
    /* empty batch */
    assert_tensor_exact(eh_stft(t_from(EH_F64, 2, SHAPE(0, 8), NULL), 4, 2, rect(4), 1), EH_F64, 4,
                        SHAPE(0, 3, 5, 2), NULL);
    eh_scope_end();
}

static void test_stft_errors(void **state)
{
    (void)state;
    eh_scope_begin();
    eh_tensor *x = T_F64(SHAPE(8), 1, 2, 3, 4, 5, 6, 7, 8);
    eh_tensor *w4 = eh_hann_window(4, 1, EH_F64);
    assert_failed(eh_stft(NULL, 4, 1, rect(4), 0), EH_ERR_NULL_ARG, "stft: argument 'x' is NULL");
    assert_failed(eh_stft(x, 0, 1, w4, 0), EH_ERR_INVALID_ARG, "n_fft must be positive, got 0");
    assert_failed(eh_stft(x, -4, 1, w4, 0), EH_ERR_INVALID_ARG, "n_fft");
    assert_failed(eh_stft(x, 4, 0, rect(4), 0), EH_ERR_INVALID_ARG, "hop_length must be positive, got 0");
    assert_failed(eh_stft(x, 4, -2, rect(4), 0), EH_ERR_INVALID_ARG, "hop_length");
    assert_failed(eh_stft(eh_scalar(1, EH_F64), 4, 1, rect(4), 0), EH_ERR_SHAPE, "stft: x of shape ()");
    eh_tensor *big = t_from(EH_F64, 7, SHAPE(1, 1, 1, 1, 1, 1, 4), (const double[]){1, 2, 3, 4});
    assert_failed(eh_stft(big, 4, 1, rect(4), 0), EH_ERR_SHAPE, "1 to 6 dimensions");
    assert_failed(eh_stft(x, 8, 1, w4, 0), EH_ERR_SHAPE, "window of shape (4,) does not match n_fft 8");
    eh_tensor *w2d = t_from(EH_F64, 2, SHAPE(2, 2), (const double[]){1, 1, 1, 1});
    assert_failed(eh_stft(x, 4, 1, w2d, 0), EH_ERR_SHAPE, "window of shape (2, 2)");
    assert_failed(eh_stft(t_from(EH_F64, 2, SHAPE(2, 0), NULL), 4, 1, rect(4), 1), EH_ERR_SHAPE,
                  "cannot reflect-pad");
    assert_failed(eh_stft(x, 4, 1, eh_hann_window(-1, 1, EH_F64), 0), EH_ERR_NEGATIVE_SIZE,
                  "hann_window"); /* the window's own failure is kept */
    assert_failed(eh_stft(x, 4, 1, NULL, 0), EH_ERR_NULL_ARG, "stft: argument 'window' is NULL");
    assert_failed(eh_stft(NULL, 4, 1, NULL, 0), EH_ERR_NULL_ARG, "argument 'x'");
    eh_scope_end();
}

/* Every allocation of the call (casts of x and window, the output) can
 * fail; each failure is EH_ERR_NOMEM and leaks nothing. */
static void test_stft_nomem(void **state)
{
    (void)state;
    eh_scope_begin();
    /* i32 with f32 promotes to f64: both inputs are cast */
    eh_tensor *x = t_from(EH_I32, 1, SHAPE(8), (const double[]){1, 2, 3, 4, 5, 6, 7, 8});
    eh_tensor *w = eh_hann_window(4, 1, EH_F32);
    for (int nth = 1; nth <= (deferring() ? 3 : 6); nth++) {
        eh__test_fail_alloc(nth);
        assert_failed(eh_stft(x, 4, 1, w, 0), EH_ERR_NOMEM, NULL);
    }
    eh__test_fail_alloc(0);
    /* the same call succeeds once allocation works again */
    eh_tensor *S = eh_stft(x, 4, 1, w, 0);
    assert_non_null(S);
    assert_int_equal(eh_get_dtype(S), EH_F64);
    eh_scope_end();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        EH_TEST(test_hann_known),
        EH_TEST(test_hamming_known),
        EH_TEST(test_window_relations),
        EH_TEST(test_window_coefficients_all_backends),
        EH_TEST(test_window_edges),
        EH_TEST(test_window_dtypes),
        EH_TEST(test_window_errors),
        EH_TEST(test_frame_1d),
        EH_TEST(test_frame_axes),
        EH_TEST(test_frame_dtypes_and_empty),
        EH_TEST(test_frame_errors),
        EH_TEST(test_rfft_known),
        EH_TEST(test_rfft_tones),
        EH_TEST(test_rfft_ramp_closed_form),
        EH_TEST(test_rfft_vs_dft),
        EH_TEST(test_rfft_parseval),
        EH_TEST(test_rfft_n),
        EH_TEST(test_rfft_axes),
        EH_TEST(test_rfft_dtypes),
        EH_TEST(test_rfft_nan),
        EH_TEST(test_rfft_errors),
        EH_TEST(test_irfft_known),
        EH_TEST(test_irfft_hermitian_rules),
        EH_TEST(test_irfft_roundtrip),
        EH_TEST(test_irfft_axes_and_dtypes),
        EH_TEST(test_irfft_errors),
        EH_TEST(test_stft_constant),
        EH_TEST(test_stft_tone),
        EH_TEST(test_stft_reflect),
        EH_TEST(test_stft_vs_frame_rfft),
        EH_TEST(test_stft_batch_and_dtypes),
        EH_TEST(test_stft_short_and_empty),
        EH_TEST(test_stft_errors),
        EH_TEST(test_stft_nomem),
    };
    return EH_RUN_TESTS(tests);
}
