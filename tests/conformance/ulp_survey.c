/* ulp_survey: how far each vectorized op of every backend is from ref.
 *
 *   make ulp-survey           (build/bin/ulp-survey [--quick])
 *
 * For every op with a CF_ULP row in tolerances.def, every float dtype,
 * every backend but ref and every instruction set this machine has
 * (eh_isa_set), it runs the op on a large set of inputs -- f32: every
 * 2^32 / STRIDE-th bit pattern (all exponents, both signs, NaN, infinities,
 * subnormals); f64 and f16: pseudo-random bit patterns and values of the
 * ops' usual ranges; binary ops: pairs of both -- and prints the largest
 * distance from ref's result in ulps (the count of representable values
 * between them), with the input where it occurs.  It fails (exit 1) when a
 * distance exceeds the table's bound, or when NaN or infinity positions
 * differ.  docs/conformance.md quotes its output; rerun it after changing
 * a vector kernel or SLEEF version. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <eh/eh.h>
#include <eh/backend_api.h>

typedef struct {
    const char *op;
    int ulps[3]; /* f16, f32, f64 */
} ulp_row;

static const ulp_row rows[] = {
#define CF_EXACT(op)
#define CF_TOL(op, a, b, c, d, e, f)
#define CF_ULP(op, u16, u32, u64) {#op, {u16, u32, u64}},
#include "tolerances.def"
};

static uint64_t rng = 0x243f6a8885a308d3u;
static uint64_t next64(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Ordered integer of a float's bits: adjacent floats differ by 1; +0 and -0
 * are both 0. */
static int64_t ord32(float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    return i >= 0 ? i : -(int64_t)(i & 0x7fffffff);
}
static int64_t ord64(double d)
{
    int64_t i;
    memcpy(&i, &d, 8);
    return i >= 0 ? i : -(i & 0x7fffffffffffffffLL);
}
static int64_t ord16(uint16_t h)
{
    return (h & 0x8000) ? -(int64_t)(h & 0x7fff) : (int64_t)h;
}

typedef struct {
    double worst;
    double at_x, at_y;
    long bad_special;
} result;

static eh_tensor *run(const char *op, const eh_tensor *x, const eh_tensor *y)
{
    int id = eh_op_lookup(op);
    (void)id;
#define U(name) if (!strcmp(op, #name)) return eh_##name(x);
#define B(name) if (!strcmp(op, #name)) return eh_##name(x, y);
    U(sqrt) U(exp) U(expm1) U(log) U(log1p) U(sin) U(cos) U(tan) U(tanh) U(sigmoid)
    U(softplus) U(erf) B(power) B(atan2)
#undef U
#undef B
    return NULL;
}

static int is_binary(const char *op) { return !strcmp(op, "power") || !strcmp(op, "atan2"); }

/* Compare one chunk: ref's and the backend's results of the same inputs. */
static void compare(eh_dtype dt, const void *xin, const void *yin, const void *want, const void *got,
                    int64_t n, result *r)
{
    for (int64_t i = 0; i < n; i++) {
        double a, b, d, xv, yv = 0;
        int64_t oa, ob;
        if (dt == EH_F32) {
            a = ((const float *)want)[i];
            b = ((const float *)got)[i];
            oa = ord32((float)a);
            ob = ord32((float)b);
            xv = ((const float *)xin)[i];
            if (yin)
                yv = ((const float *)yin)[i];
        } else if (dt == EH_F64) {
            a = ((const double *)want)[i];
            b = ((const double *)got)[i];
            oa = ord64(a);
            ob = ord64(b);
            xv = ((const double *)xin)[i];
            if (yin)
                yv = ((const double *)yin)[i];
        } else {
            uint16_t ha = ((const uint16_t *)want)[i], hb = ((const uint16_t *)got)[i];
            a = eh_f16_to_f32(ha);
            b = eh_f16_to_f32(hb);
            oa = ord16(ha);
            ob = ord16(hb);
            xv = eh_f16_to_f32(((const uint16_t *)xin)[i]);
            if (yin)
                yv = eh_f16_to_f32(((const uint16_t *)yin)[i]);
        }
        if (isnan(a) || isnan(b) || isinf(a) || isinf(b) || (a == 0 && b == 0)) {
            int same = isnan(a) ? isnan(b) : (a == b && signbit(a) == signbit(b));
            if (!same) {
                if (r->bad_special++ < 5)
                    printf("    special mismatch: x=%.9g y=%.9g: got %.9g, ref %.9g\n", xv, yv, b, a);
            }
            continue;
        }
        d = (double)llabs(oa - ob);
        if (d > r->worst) {
            r->worst = d;
            r->at_x = xv;
            r->at_y = yv;
        }
    }
}

static void fill(eh_dtype dt, void *buf, int64_t n, int64_t chunk, int64_t stride, int which)
{
    for (int64_t i = 0; i < n; i++) {
        if (dt == EH_F32) {
            uint32_t bits = which == 0 ? (uint32_t)((uint64_t)(chunk * n + i) * (uint64_t)stride)
                                       : (uint32_t)next64();
            /* binary ops: mostly moderate values, a share of raw patterns */
            if (which && (i & 3))
                bits = ((uint32_t)next64() & 0x80000000u) | (uint32_t)(0x38000000u + next64() % 0x0d000000u);
            memcpy((float *)buf + i, &bits, 4);
        } else if (dt == EH_F64) {
            uint64_t bits = next64();
            if (i & 1) { /* values of moderate magnitude: |x| in [2^-20, 2^20) */
                double v = ldexp((double)(bits >> 11) * 0x1p-53 + 0.5, (int)(next64() % 41) - 20);
                ((double *)buf)[i] = (bits & 1) ? -v : v;
            } else {
                memcpy((double *)buf + i, &bits, 8);
            }
        } else {
            ((uint16_t *)buf)[i] = (uint16_t)(which == 0 ? (uint64_t)(chunk * n + i) : next64());
        }
    }
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    const char *backends[8];
    int nb = eh_list_backends(backends, 8);
    const int64_t n = 1 << 20;
    int failed = 0;
    eh_isa top = eh_isa_detected();
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const ulp_row *row = &rows[k];
        int bin = is_binary(row->op);
        const eh_dtype dts[3] = {EH_F16, EH_F32, EH_F64};
        for (int d = 0; d < 3; d++) {
            eh_dtype dt = dts[d];
            size_t esz = eh_dtype_size(dt);
            /* chunks: f32 unary sweeps 2^32 / stride patterns */
            int64_t stride = quick ? 4099 : 61, chunks;
            if (dt == EH_F32 && !bin)
                chunks = (int64_t)((((uint64_t)1 << 32) / (uint64_t)stride + (uint64_t)n - 1) / (uint64_t)n);
            else if (dt == EH_F16 && !bin)
                chunks = 1;
            else
                chunks = quick ? 1 : 16;
            int64_t len = dt == EH_F16 && !bin ? 65536 : n;
            void *xb = malloc((size_t)len * esz), *yb = malloc((size_t)len * esz);
            for (int b = 0; b < nb; b++) {
                if (!strcmp(backends[b], "ref"))
                    continue;
                for (int isa = 0; isa <= (int)top; isa++) {
                    result r = {0, 0, 0, 0};
                    rng = 0x243f6a8885a308d3u + (uint64_t)k * 977 + (uint64_t)d;
                    eh_isa_set((eh_isa)isa);
                    for (int64_t c = 0; c < chunks; c++) {
                        fill(dt, xb, len, c, stride, bin ? 1 : 0);
                        if (bin)
                            fill(dt, yb, len, c, stride, 2);
                        eh_scope_begin();
                        eh_tensor *x = eh_convert_to_tensor(xb, 1, &len, dt);
                        eh_tensor *y = bin ? eh_convert_to_tensor(yb, 1, &len, dt) : NULL;
                        eh_set_backend("ref");
                        eh_tensor *want = run(row->op, x, y);
                        eh_set_backend(backends[b]);
                        eh_tensor *got = run(row->op, x, y);
                        if (!want || !got || eh_eval(got) != EH_OK) {
                            fprintf(stderr, "ulp-survey: %s failed: %s\n", row->op, eh_error_message());
                            return 2;
                        }
                        compare(dt, xb, bin ? yb : NULL, eh_data(want), eh_data(got), len, &r);
                        eh_scope_end();
                    }
                    int bound = row->ulps[d];
                    int over = r.worst > bound || r.bad_special;
                    failed |= over;
                    printf("%-9s %-4s %-5s %-7s max %3.0f ulp (bound %d)%s  at x=%.9g", row->op,
                           eh_dtype_name(dt), backends[b], eh_isa_name((eh_isa)isa), r.worst, bound,
                           over ? "  OVER" : "", r.at_x);
                    if (bin)
                        printf(" y=%.9g", r.at_y);
                    printf("\n");
                    fflush(stdout);
                }
            }
            free(xb);
            free(yb);
        }
    }
    eh_isa_set(top);
    return failed;
}
