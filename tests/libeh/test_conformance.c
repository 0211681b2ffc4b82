/* Cross-backend conformance of values (docs/conformance.md): creation,
 * shape and indexing, elementwise, random, dtype and device ops (the kinds
 * CF_KINDS_VALUES; reductions, linear algebra and signal ops are in
 * test_conformance_numeric.c).
 *
 * Every op of libeh/ops.def has an entry in a `drivers` table: a function
 * that builds the op's cases -- random inputs from a fixed generator, every
 * dtype (an op that rejects a dtype must reject it with the same code on
 * every backend), broadcasting, empty and 0-d shapes -- and hands each to
 * cf_check(), which runs it on ref and on every other backend built into
 * libeh and compares (tests/support/conformance.h).  An op of ops.def
 * without an entry, or without a row in tests/conformance/tolerances.def,
 * fails test_every_op_has_a_case (here).
 *
 * This binary iterates the backends itself; it ignores EH_TEST_BACKEND
 * (make test runs it once per backend; every run is the same).
 *
 * Where expected values come from: ref's result on the same inputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "conformance.h"
#include <eh/backend_api.h>

#define DN(d) eh_dtype_name(d)

/* ================================================================ creation */

static eh_status run_fill(const cf_case *c, eh_tensor **out, int *n)
{
    if (!strcmp(c->op, "zeros"))
        return cf_one(eh_zeros(c->ndim, c->shape, c->dtype), out, n);
    if (!strcmp(c->op, "ones"))
        return cf_one(eh_ones(c->ndim, c->shape, c->dtype), out, n);
    return cf_one(eh_full(c->ndim, c->shape, c->f[0], c->dtype), out, n);
}

static void drive_fill(const char *op)
{
    const cf_shape shapes[] = {CF_SH0, CF_SH(0, 3), CF_SH(2, 3, 4), CF_SH(70)};
    const double values[] = {-2.7, NAN, 1e10, 65520.0};
    for (int d = 0; d < 6; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (size_t v = 0; v < (strcmp(op, "full") ? 1 : sizeof values / sizeof values[0]);
                 v++) {
                cf_case c;
                CF_CASE(c, op, "%s %s %s value %g", op, DN(cf_dtypes[d]), cf_shape_str(shapes[s]),
                        values[v]);
                c.run = run_fill;
                c.dtype = cf_dtypes[d];
                cf_set_shape(&c, shapes[s]);
                c.f[0] = values[v];
                cf_check(&c);
            }
}

static eh_status run_like(const cf_case *c, eh_tensor **out, int *n)
{
    if (!strcmp(c->op, "zeros_like"))
        return cf_one(eh_zeros_like(c->in[0]), out, n);
    if (!strcmp(c->op, "ones_like"))
        return cf_one(eh_ones_like(c->in[0]), out, n);
    return cf_one(eh_full_like(c->in[0], c->f[0]), out, n);
}

static void drive_like(const char *op)
{
    const cf_shape shapes[] = {CF_SH0, CF_SH(0, 3), CF_SH(2, 3)};
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < 3; s++) {
            cf_case c;
            CF_CASE(c, op, "%s %s %s", op, DN(cf_dtypes[d]), cf_shape_str(shapes[s]));
            c.run = run_like;
            c.f[0] = -3.5;
            cf_add_rnd(&c, cf_dtypes[d], shapes[s], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_arange(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_arange(c->f[0], c->f[1], c->f[2], c->dtype), out, n);
}

static void drive_arange(const char *op)
{
    const double p[][3] = {{-3.5, 7.25, 0.75}, {-5, 17, 3},  {10, -4, -2.5},
                           {5, 1, 1},          {0, 3000, 1}, {0.1, 1.3, 0.1}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "arange(%g, %g, %g) %s", p[k][0], p[k][1], p[k][2], DN(cf_dtypes[d]));
            c.run = run_arange;
            c.dtype = cf_dtypes[d];
            memcpy(c.f, p[k], sizeof p[k]);
            c.allow_error = 1; /* bool, and fractional arguments with integers */
            cf_check(&c);
        }
}

static eh_status run_linspace(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_linspace(c->f[0], c->f[1], c->i[0], (int)c->i[1], c->dtype), out, n);
}

static void drive_linspace(const char *op)
{
    const double p[][4] = {{-1.5, 2.25, 7, 1}, {-1.5, 2.25, 7, 0}, {3, 3, 1, 1},
                           {0, 1, 0, 1},       {-10, 10, 1001, 1}, {0, INFINITY, 3, 1}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "linspace(%g, %g, %g, endpoint %g) %s", p[k][0], p[k][1], p[k][2],
                    p[k][3], DN(cf_dtypes[d]));
            c.run = run_linspace;
            c.dtype = cf_dtypes[d];
            c.f[0] = p[k][0];
            c.f[1] = p[k][1];
            c.i[0] = (int64_t)p[k][2];
            c.i[1] = (int64_t)p[k][3];
            cf_check(&c);
        }
}

static eh_status run_eye(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_eye(c->i[0], c->i[1], c->i[2], c->dtype), out, n);
}

static void drive_eye(const char *op)
{
    const int64_t p[][3] = {{3, 3, 0}, {3, 5, 1}, {4, 2, -1}, {0, 3, 0}, {3, 3, 7}, {40, 40, -3}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "eye(%lld, %lld, %lld) %s", (long long)p[k][0], (long long)p[k][1],
                    (long long)p[k][2], DN(cf_dtypes[d]));
            c.run = run_eye;
            c.dtype = cf_dtypes[d];
            memcpy(c.i, p[k], sizeof p[k]);
            cf_check(&c);
        }
}

static eh_status run_copy(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_copy(c->in[0]), out, n);
}

static void drive_copy(const char *op)
{
    const cf_shape shapes[] = {CF_SH0, CF_SH(0, 3), CF_SH(3, 4), CF_SH(2, 3, 5)};
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < 4; s++) {
            cf_case c;
            CF_CASE(c, op, "copy %s %s", DN(cf_dtypes[d]), cf_shape_str(shapes[s]));
            c.run = run_copy;
            cf_add_rnd(&c, cf_dtypes[d], shapes[s], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_tri_indices(const cf_case *c, eh_tensor **out, int *n)
{
    if (!strcmp(c->op, "triu_indices"))
        return cf_one(eh_triu_indices(c->i[0], c->i[1], c->i[2]), out, n);
    return cf_one(eh_tril_indices(c->i[0], c->i[1], c->i[2]), out, n);
}

static void drive_tri_indices(const char *op)
{
    const int64_t p[][3] = {{4, 0, 4}, {3, 1, 5}, {5, -2, 3}, {0, 0, 0}, {3, 10, 3}, {60, -5, 50}};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
        cf_case c;
        CF_CASE(c, op, "%s(n %lld, k %lld, m %lld)", op, (long long)p[k][0], (long long)p[k][1],
                (long long)p[k][2]);
        c.run = run_tri_indices;
        memcpy(c.i, p[k], sizeof p[k]);
        cf_check(&c);
    }
}

static eh_status run_window(const cf_case *c, eh_tensor **out, int *n)
{
    if (!strcmp(c->op, "hann_window"))
        return cf_one(eh_hann_window(c->i[0], (int)c->i[1], c->dtype), out, n);
    return cf_one(eh_hamming_window(c->i[0], (int)c->i[1], c->dtype), out, n);
}

static void drive_window(const char *op)
{
    const int64_t sizes[] = {0, 1, 2, 7, 16, 400};
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < 6; s++)
            for (int periodic = 0; periodic < 2; periodic++) {
                cf_case c;
                CF_CASE(c, op, "%s(%lld, periodic %d) %s", op, (long long)sizes[s], periodic,
                        DN(cf_dtypes[d]));
                c.run = run_window;
                c.dtype = cf_dtypes[d];
                c.i[0] = sizes[s];
                c.i[1] = periodic;
                c.allow_error = 1; /* integer and bool dtypes */
                cf_check(&c);
            }
}

/* ================================================================ shape */

static eh_status run_reshape(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_reshape(c->in[0], c->ndim, c->shape), out, n);
}

static void drive_reshape(const char *op)
{
    const cf_shape from[] = {CF_SH(2, 3, 4), CF_SH(2, 3, 4), CF_SH(2, 3, 4), CF_SH(0, 3),
                             CF_SH0,         CF_SH(1, 1),    CF_SH(6)};
    const cf_shape to[] = {CF_SH(4, -1), CF_SH(24), CF_SH(2, 1, 12), CF_SH(3, 0, 5),
                           CF_SH(1, 1),  CF_SH0,    CF_SH(-1, 2)};
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < 7; k++) {
            cf_case c;
            CF_CASE(c, op, "reshape %s %s -> %s", DN(cf_dtypes[d]), cf_shape_str(from[k]),
                    cf_shape_str(to[k]));
            c.run = run_reshape;
            cf_set_shape(&c, to[k]);
            cf_add_rnd(&c, cf_dtypes[d], from[k], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_transpose(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_transpose(c->in[0], cf_axes_of(c), c->n_axes), out, n);
}

/* A shape op of one input with an axis list: shapes[k] with axes[k], all dtypes. */
static void drive_axes_op(const char *op, cf_run_fn run, const cf_shape *shapes,
                          const cf_axes *axes, int n)
{
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < n; k++) {
            cf_case c;
            CF_CASE(c, op, "%s %s %s axes %s", op, DN(cf_dtypes[d]), cf_shape_str(shapes[k]),
                    cf_axes_str(axes[k]));
            c.run = run;
            cf_set_axes(&c, axes[k]);
            cf_add_rnd(&c, cf_dtypes[d], shapes[k], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static void drive_transpose(const char *op)
{
    const cf_shape s[] = {CF_SH(2, 3, 4), CF_SH(2, 3, 4), CF_SH(0, 3),
                          CF_SH0,         CF_SH(5),       CF_SH(2, 1, 3, 2)};
    const cf_axes a[] = {CF_AX(2, 0, 1), CF_AX0, CF_AX0, CF_AX0, CF_AX(-1), CF_AX(3, -3, 0, 2)};
    drive_axes_op(op, run_transpose, s, a, 6);
}

static eh_status run_expand_dims(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_expand_dims(c->in[0], c->axes[0]), out, n);
}

static void drive_expand_dims(const char *op)
{
    const cf_shape s[] = {CF_SH(2, 3), CF_SH(2, 3), CF_SH(2, 3), CF_SH0, CF_SH(0, 2)};
    const cf_axes a[] = {CF_AX(0), CF_AX(-1), CF_AX(1), CF_AX(0), CF_AX(-2)};
    drive_axes_op(op, run_expand_dims, s, a, 5);
}

static eh_status run_squeeze(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_squeeze(c->in[0], cf_axes_of(c), c->n_axes), out, n);
}

static void drive_squeeze(const char *op)
{
    const cf_shape s[] = {CF_SH(1, 3, 1), CF_SH(1, 3, 1), CF_SH(1, 3, 1),
                          CF_SH(1, 1),    CF_SH(0, 1, 2), CF_SH0};
    const cf_axes a[] = {CF_AX0, CF_AX(0), CF_AX(-1), CF_AX0, CF_AX0, CF_AX0};
    drive_axes_op(op, run_squeeze, s, a, 6);
}

static eh_status run_flip(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_flip(c->in[0], cf_axes_of(c), c->n_axes), out, n);
}

static void drive_flip(const char *op)
{
    const cf_shape s[] = {CF_SH(2, 3, 4), CF_SH(2, 3, 4), CF_SH(2, 3, 4), CF_SH0, CF_SH(0, 3)};
    const cf_axes a[] = {CF_AX0, CF_AX(1), CF_AX(0, -1), CF_AX0, CF_AX(1)};
    drive_axes_op(op, run_flip, s, a, 5);
}

static eh_status run_join(const cf_case *c, eh_tensor **out, int *n)
{
    const eh_tensor *xs[CF_MAX_IN];
    for (int k = 0; k < c->n_in; k++)
        xs[k] = c->in[k];
    if (!strcmp(c->op, "concatenate"))
        return cf_one(eh_concatenate(xs, c->n_in, (int)c->i[0]), out, n);
    return cf_one(eh_stack(xs, c->n_in, (int)c->i[0]), out, n);
}

static void drive_join(const char *op, const cf_shape (*shapes)[3], const int *axis, int n_cases)
{
    /* same dtype for all inputs, then mixed dtypes (promotion) */
    const eh_dtype mixed[][3] = {{EH_F32, EH_I32, EH_F32},
                                 {EH_BOOL, EH_I32, EH_BOOL},
                                 {EH_F16, EH_F32, EH_I64},
                                 {EH_I64, EH_F64, EH_BOOL}};
    for (int k = 0; k < n_cases; k++)
        for (int d = 0; d < 6 + 4; d++) {
            const eh_dtype *dt =
                d < 6 ? (const eh_dtype[]){cf_dtypes[d], cf_dtypes[d], cf_dtypes[d]} : mixed[d - 6];
            cf_case c;
            CF_CASE(c, op, "%s %s %s + %s %s + %s %s axis %d", op, DN(dt[0]),
                    cf_shape_str(shapes[k][0]), DN(dt[1]), cf_shape_str(shapes[k][1]), DN(dt[2]),
                    cf_shape_str(shapes[k][2]), axis[k]);
            c.run = run_join;
            c.i[0] = axis[k];
            for (int j = 0; j < 3; j++)
                cf_add_rnd(&c, dt[j], shapes[k][j], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static void drive_concatenate(const char *op)
{
    const cf_shape s[][3] = {{CF_SH(2, 3), CF_SH(1, 3), CF_SH(0, 3)},
                             {CF_SH(2, 1), CF_SH(2, 3), CF_SH(2, 2)},
                             {CF_SH(4), CF_SH(1), CF_SH(3)},
                             {CF_SH(2, 0, 2), CF_SH(2, 3, 2), CF_SH(2, 1, 2)}};
    const int axis[] = {0, -1, 0, 1};
    drive_join(op, s, axis, 4);
}

static void drive_stack(const char *op)
{
    const cf_shape s[][3] = {{CF_SH(2, 3), CF_SH(2, 3), CF_SH(2, 3)},
                             {CF_SH(2, 3), CF_SH(2, 3), CF_SH(2, 3)},
                             {CF_SH0, CF_SH0, CF_SH0},
                             {CF_SH(0, 2), CF_SH(0, 2), CF_SH(0, 2)}};
    const int axis[] = {0, -1, 0, 1};
    drive_join(op, s, axis, 4);
}

static eh_status run_split(const cf_case *c, eh_tensor **out, int *n)
{
    int parts = c->i[0] == 2 ? (int)c->i[1] + 1 : (int)c->i[1];
    eh_status st;
    if (c->i[0] == 0)
        st = eh_split(c->in[0], (int)c->i[1], (int)c->i[2], out);
    else if (c->i[0] == 1)
        st = eh_array_split(c->in[0], (int)c->i[1], (int)c->i[2], out);
    else
        st = eh_split_at(c->in[0], c->shape, (int)c->i[1], (int)c->i[2], out);
    *n = st == EH_OK ? parts : 0;
    return st;
}

static void drive_split(const char *op)
{
    /* mode (0 split, 1 array_split, 2 split_at), sections / n_indices, axis */
    const struct {
        cf_shape x;
        int mode, k, axis;
        cf_shape idx;
    } p[] = {
        {CF_SH(6, 4), 0, 3, 0, CF_SH0},           {CF_SH(6, 4), 0, 2, -1, CF_SH0},
        {CF_SH(0, 3), 0, 2, 0, CF_SH0},           {CF_SH(7), 1, 3, 0, CF_SH0},
        {CF_SH(2, 5), 1, 4, 1, CF_SH0},           {CF_SH(5), 2, 2, 0, CF_SH(3, 1)},
        {CF_SH(3, 6), 2, 3, -1, CF_SH(-2, 2, 9)}, {CF_SH(4, 2), 2, 0, 0, CF_SH0},
    };
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "split mode %d %s %s k %d axis %d indices %s", p[k].mode,
                    DN(cf_dtypes[d]), cf_shape_str(p[k].x), p[k].k, p[k].axis,
                    cf_shape_str(p[k].idx));
            c.run = run_split;
            c.i[0] = p[k].mode;
            c.i[1] = p[k].k;
            c.i[2] = p[k].axis;
            memcpy(c.shape, p[k].idx.d, sizeof p[k].idx.d);
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_tile(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_tile(c->in[0], c->ndim ? c->shape : NULL, c->ndim), out, n);
}

static void drive_tile(const char *op)
{
    const cf_shape x[] = {CF_SH(2, 3), CF_SH(2, 3), CF_SH0, CF_SH(0, 2), CF_SH(3), CF_SH(2, 2)};
    const cf_shape reps[] = {CF_SH(2, 1, 2), CF_SH(3), CF_SH(3), CF_SH(2, 2), CF_SH0, CF_SH(0, 3)};
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < 6; k++) {
            cf_case c;
            CF_CASE(c, op, "tile %s %s reps %s", DN(cf_dtypes[d]), cf_shape_str(x[k]),
                    cf_shape_str(reps[k]));
            c.run = run_tile;
            cf_set_shape(&c, reps[k]);
            cf_add_rnd(&c, cf_dtypes[d], x[k], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_repeat(const cf_case *c, eh_tensor **out, int *n)
{
    if (c->i[2])
        return cf_one(eh_repeat_flat(c->in[0], c->i[0]), out, n);
    return cf_one(eh_repeat(c->in[0], c->i[0], (int)c->i[1]), out, n);
}

static void drive_repeat(const char *op)
{
    const struct {
        cf_shape x;
        int64_t reps, axis, flat;
    } p[] = {{CF_SH(2, 3), 2, 1, 0}, {CF_SH(2, 3), 0, 0, 0}, {CF_SH(2, 3), 3, -2, 0},
             {CF_SH(2, 2), 3, 0, 1}, {CF_SH0, 4, 0, 1},      {CF_SH(0, 3), 2, 0, 0}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "repeat %s %s x%lld axis %lld flat %lld", DN(cf_dtypes[d]),
                    cf_shape_str(p[k].x), (long long)p[k].reps, (long long)p[k].axis,
                    (long long)p[k].flat);
            c.run = run_repeat;
            c.i[0] = p[k].reps;
            c.i[1] = p[k].axis;
            c.i[2] = p[k].flat;
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_slice(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_slice(c->in[0], c->v[0], c->v[1], c->v[2], (int)c->i[0]), out, n);
}

static void drive_slice(const char *op)
{
    const struct {
        cf_shape x;
        int n;
        int64_t start[2], stop[2], step[2];
    } p[] = {
        {CF_SH(5, 6), 2, {1, EH_SLICE_END}, {EH_SLICE_END, EH_SLICE_START}, {1, -2}},
        {CF_SH(7), 1, {-5}, {-1}, {2}},
        {CF_SH(4, 3), 1, {10}, {EH_SLICE_END}, {1}},
        {CF_SH(4, 3), 1, {3}, {1}, {1}},
        {CF_SH(6, 2), 1, {EH_SLICE_END}, {EH_SLICE_START}, {-1}},
        {CF_SH0, 0, {0}, {0}, {0}},
        {CF_SH(0, 4), 2, {0, 1}, {2, 3}, {1, 1}},
    };
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "slice %s %s n %d start {%lld,%lld} stop {%lld,%lld} step {%lld,%lld}",
                    DN(cf_dtypes[d]), cf_shape_str(p[k].x), p[k].n, (long long)p[k].start[0],
                    (long long)p[k].start[1], (long long)p[k].stop[0], (long long)p[k].stop[1],
                    (long long)p[k].step[0], (long long)p[k].step[1]);
            c.run = run_slice;
            c.i[0] = p[k].n;
            for (int a = 0; a < 2; a++) {
                c.v[0][a] = p[k].start[a];
                c.v[1][a] = p[k].stop[a];
                c.v[2][a] = p[k].step[a];
            }
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_gather(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_gather(c->in[0], c->in[1], (int)c->i[0]), out, n);
}

static void drive_gather(const char *op)
{
    const struct {
        cf_shape x, idx;
        eh_dtype idt;
        int axis;
        int64_t lo, hi; /* index range */
    } p[] = {
        {CF_SH(4, 5), CF_SH(3), EH_I64, 0, -4, 3},
        {CF_SH(4, 5), CF_SH0, EH_I32, 1, -5, 4},
        {CF_SH(4, 5), CF_SH(2, 2), EH_I32, -1, 0, 4},
        {CF_SH(4, 5), CF_SH(0), EH_I64, 0, 0, 0},
        {CF_SH(3), CF_SH(6), EH_I64, 0, -3, 2},
        {CF_SH(2, 3), CF_SH(2), EH_I64, 1, 3, 3}, /* out of range */
        {CF_SH(0, 3), CF_SH(2), EH_I64, 1, 0, 2},
    };
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "gather %s %s indices %s %s in [%lld, %lld] axis %d", DN(cf_dtypes[d]),
                    cf_shape_str(p[k].x), DN(p[k].idt), cf_shape_str(p[k].idx), (long long)p[k].lo,
                    (long long)p[k].hi, p[k].axis);
            c.run = run_gather;
            c.i[0] = p[k].axis;
            c.allow_error = p[k].lo == 3; /* EH_ERR_INDEX, found by the kernel */
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
            int64_t ni = cf_shape_size(p[k].idx);
            double iv[8];
            for (int64_t j = 0; j < ni; j++)
                iv[j] = (double)cf_rng_int(&cf_in_rng, p[k].lo, p[k].hi);
            cf_case_add(&c, cf_tensor(p[k].idt, p[k].idx.nd, p[k].idx.d, iv));
            cf_check(&c);
        }
}

static eh_status run_scatter(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_scatter(c->in[0], c->in[1], c->i[0], (eh_scatter_aggr)c->i[1]), out, n);
}

static void drive_scatter(const char *op)
{
    const struct {
        cf_shape v;
        int64_t dim_size, hi;
        eh_dtype idt;
    } p[] = {{CF_SH(6, 3), 4, 3, EH_I64},
             {CF_SH(6, 3), EH_SCATTER_AUTO, 4, EH_I32},
             {CF_SH(5), 6, 5, EH_I64},
             {CF_SH(0, 2), 3, 0, EH_I64},
             {CF_SH(4, 2), 2, 2, EH_I64}}; /* index 2 with dim_size 2: out of range */
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++)
            for (int aggr = EH_SCATTER_ADD; aggr <= EH_SCATTER_REPLACE; aggr++) {
                cf_case c;
                CF_CASE(c, op, "scatter aggr %d %s %s indices %s in [0, %lld] dim_size %lld", aggr,
                        DN(cf_dtypes[d]), cf_shape_str(p[k].v), DN(p[k].idt), (long long)p[k].hi,
                        (long long)p[k].dim_size);
                c.run = run_scatter;
                c.i[0] = p[k].dim_size;
                c.i[1] = aggr;
                c.allow_error = k == 4;
                cf_add_rnd(&c, cf_dtypes[d], p[k].v, CF_V_SPECIAL);
                double iv[8];
                for (int64_t j = 0; j < p[k].v.d[0]; j++)
                    iv[j] = (double)cf_rng_int(&cf_in_rng, 0, p[k].hi);
                if (k == 4)
                    iv[1] = 2;
                cf_case_add(&c, cf_tensor(p[k].idt, 1, (int64_t[]){p[k].v.d[0]}, iv));
                cf_check(&c);
            }
}

static eh_status run_pad(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_pad(c->in[0], c->i[1] ? c->v[0] : NULL, (eh_pad_mode)c->i[0], c->f[0]), out,
                  n);
}

static void drive_pad(const char *op)
{
    const struct {
        cf_shape x;
        int64_t w[4];
    } p[] = {{CF_SH(3, 4), {1, 2, 0, 3}},
             {CF_SH(3), {5, 4}},
             {CF_SH(1, 2), {2, 1, 1, 1}},
             {CF_SH(0, 3), {1, 1, 2, 0}},
             {CF_SH0, {0}}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++)
            for (int mode = EH_PAD_CONSTANT; mode <= EH_PAD_WRAP; mode++) {
                cf_case c;
                CF_CASE(c, op, "pad mode %d %s %s widths {%lld,%lld,%lld,%lld}", mode,
                        DN(cf_dtypes[d]), cf_shape_str(p[k].x), (long long)p[k].w[0],
                        (long long)p[k].w[1], (long long)p[k].w[2], (long long)p[k].w[3]);
                c.run = run_pad;
                c.i[0] = mode;
                c.i[1] = p[k].x.nd > 0;
                c.f[0] = -1.5;
                memcpy(c.v[0], p[k].w, sizeof p[k].w);
                c.allow_error = 1; /* non-constant modes of an empty axis */
                cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
                cf_check(&c);
            }
}

static eh_status run_roll(const cf_case *c, eh_tensor **out, int *n)
{
    if (c->i[2])
        return cf_one(eh_roll_flat(c->in[0], c->i[0]), out, n);
    return cf_one(eh_roll(c->in[0], c->i[0], (int)c->i[1]), out, n);
}

static void drive_roll(const char *op)
{
    const struct {
        cf_shape x;
        int64_t shift, axis, flat;
    } p[] = {{CF_SH(3, 4), 5, 1, 0},          {CF_SH(3, 4), -2, 0, 0},
             {CF_SH(3, 4), 7, 0, 1},          {CF_SH0, 3, 0, 1},
             {CF_SH(0, 3), 2, 0, 0},          {CF_SH(5), INT64_MIN, 0, 0},
             {CF_SH(2, 3, 2), 1000001, -2, 0}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "roll %s %s shift %lld axis %lld flat %lld", DN(cf_dtypes[d]),
                    cf_shape_str(p[k].x), (long long)p[k].shift, (long long)p[k].axis,
                    (long long)p[k].flat);
            c.run = run_roll;
            c.i[0] = p[k].shift;
            c.i[1] = p[k].axis;
            c.i[2] = p[k].flat;
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_broadcast_to(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_broadcast_to(c->in[0], c->ndim, c->shape), out, n);
}

static void drive_broadcast_to(const char *op)
{
    const cf_shape x[] = {CF_SH(3, 1), CF_SH0, CF_SH(1), CF_SH(2, 1, 3), CF_SH(4)};
    const cf_shape to[] = {CF_SH(2, 3, 4), CF_SH(2, 2), CF_SH(0), CF_SH(2, 5, 3), CF_SH(3, 4)};
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < 5; k++) {
            cf_case c;
            CF_CASE(c, op, "broadcast_to %s %s -> %s", DN(cf_dtypes[d]), cf_shape_str(x[k]),
                    cf_shape_str(to[k]));
            c.run = run_broadcast_to;
            cf_set_shape(&c, to[k]);
            cf_add_rnd(&c, cf_dtypes[d], x[k], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_tri(const cf_case *c, eh_tensor **out, int *n)
{
    if (!strcmp(c->op, "triu"))
        return cf_one(eh_triu(c->in[0], c->i[0]), out, n);
    return cf_one(eh_tril(c->in[0], c->i[0]), out, n);
}

static void drive_tri(const char *op)
{
    const cf_shape x[] = {CF_SH(4, 5),    CF_SH(4, 5), CF_SH(4, 5),
                          CF_SH(2, 3, 3), CF_SH(0, 3), CF_SH(3, 2)};
    const int64_t k[] = {0, 1, -2, 0, 0, INT64_MIN};
    for (int d = 0; d < 6; d++)
        for (int j = 0; j < 6; j++) {
            cf_case c;
            CF_CASE(c, op, "%s %s %s k %lld", op, DN(cf_dtypes[d]), cf_shape_str(x[j]),
                    (long long)k[j]);
            c.run = run_tri;
            c.i[0] = k[j];
            cf_add_rnd(&c, cf_dtypes[d], x[j], CF_V_SPECIAL);
            cf_check(&c);
        }
}

static eh_status run_frame(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_frame(c->in[0], c->i[0], c->i[1], (int)c->i[2]), out, n);
}

static void drive_frame(const char *op)
{
    const struct {
        cf_shape x;
        int64_t len, hop, axis;
    } p[] = {{CF_SH(10), 4, 2, -1}, {CF_SH(2, 9), 3, 3, -1}, {CF_SH(9, 2), 4, 1, 0},
             {CF_SH(2), 4, 1, 0},   {CF_SH(0, 5), 2, 2, 1},  {CF_SH(12), 3, 5, 0}};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
            cf_case c;
            CF_CASE(c, op, "frame %s %s length %lld hop %lld axis %lld", DN(cf_dtypes[d]),
                    cf_shape_str(p[k].x), (long long)p[k].len, (long long)p[k].hop,
                    (long long)p[k].axis);
            c.run = run_frame;
            c.i[0] = p[k].len;
            c.i[1] = p[k].hop;
            c.i[2] = p[k].axis;
            cf_add_rnd(&c, cf_dtypes[d], p[k].x, CF_V_SPECIAL);
            cf_check(&c);
        }
}

/* ================================================================ elementwise */

typedef eh_tensor *(*unary_fn)(const eh_tensor *);
typedef eh_tensor *(*binary_fn)(const eh_tensor *, const eh_tensor *);
typedef eh_tensor *(*bscalar_fn)(const eh_tensor *, double);
typedef eh_tensor *(*scalarb_fn)(double, const eh_tensor *);
typedef eh_tensor *(*ternary_fn)(const eh_tensor *, const eh_tensor *, const eh_tensor *);

/* The elementwise functions, from ops.def by kind. */
typedef struct ew_fns {
    const char *name;
    unary_fn u;
    binary_fn b;
    bscalar_fn bs;
    scalarb_fn sb;
    ternary_fn t;
} ew_fns;
#define EW_UNARY(n) {#n, eh_##n, NULL, NULL, NULL, NULL},
#define EW_BINARY(n) {#n, NULL, eh_##n, eh_##n##_scalar, eh_scalar_##n, NULL},
#define EW_TERNARY(n) {#n, NULL, NULL, NULL, NULL, eh_##n},
#define EW_CREATION(n)
#define EW_SHAPE(n)
#define EW_REDUCTION(n)
#define EW_LINALG(n)
#define EW_SIGNAL(n)
#define EW_RANDOM(n)
#define EW_CONVERT(n)
#define EW_META(n)
static const ew_fns ew_table[] = {
#define EH_OP(name, kind, n_in) EW_##kind(name)
#include <eh/ops.def>
};

static const ew_fns *ew_lookup(const char *op)
{
    for (size_t k = 0; k < sizeof ew_table / sizeof ew_table[0]; k++)
        if (!strcmp(ew_table[k].name, op))
            return &ew_table[k];
    fail_msg("%s is not an elementwise op of ops.def", op);
    return NULL;
}

static eh_status run_unary(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(((const ew_fns *)c->fn)->u(c->in[0]), out, n);
}

static eh_status run_binary(const cf_case *c, eh_tensor **out, int *n)
{
    const ew_fns *f = c->fn;
    switch (c->i[0]) {
    case 1: return cf_one(f->bs(c->in[0], c->f[0]), out, n);
    case 2: return cf_one(f->sb(c->f[0], c->in[0]), out, n);
    default: return cf_one(f->b(c->in[0], c->in[1]), out, n);
    }
}

static eh_status run_ternary(const cf_case *c, eh_tensor **out, int *n)
{
    if (c->i[0])
        return cf_one(eh_clip_scalar(c->in[0], c->f[0], c->f[1]), out, n);
    return cf_one(((const ew_fns *)c->fn)->t(c->in[0], c->in[1], c->in[2]), out, n);
}

/* Large enough for a threaded backend to split the work. */
#define BIG 131072

static void drive_unary(const char *op)
{
    const ew_fns *f = ew_lookup(op);
    const cf_shape shapes[] = {CF_SH0, CF_SH(0), CF_SH(3, 4), CF_SH(2, 3, 5), CF_SH(70)};
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < 5; s++) {
            cf_values v = s == 2 || s == 4 ? CF_V_SPECIAL : CF_V_DEFAULT;
            cf_case c;
            CF_CASE(c, op, "%s %s %s%s", op, DN(cf_dtypes[d]), cf_shape_str(shapes[s]),
                    v == CF_V_SPECIAL ? " with specials" : "");
            c.run = run_unary;
            c.fn = (void *)f;
            c.allow_error = cf_dtypes[d] == EH_BOOL; /* the *same*-dtype ops reject bool */
            cf_add_rnd(&c, cf_dtypes[d], shapes[s], v);
            cf_check(&c);
        }
    const eh_dtype big[] = {EH_F32, EH_F64, EH_I32};
    for (int d = 0; d < 3; d++) {
        cf_case c;
        CF_CASE(c, op, "%s %s (%d) with specials", op, DN(big[d]), BIG);
        c.run = run_unary;
        c.fn = (void *)f;
        cf_add_rnd(&c, big[d], CF_SH(BIG), CF_V_SPECIAL);
        cf_check(&c);
    }
}

static void drive_binary(const char *op)
{
    const ew_fns *f = ew_lookup(op);
    const cf_shape pairs[][2] = {
        {CF_SH(3, 4), CF_SH(3, 4)},   {CF_SH(3, 1), CF_SH(1, 4)}, {CF_SH0, CF_SH(2, 3)},
        {CF_SH(2, 3), CF_SH0},        {CF_SH0, CF_SH0},           {CF_SH(0, 3), CF_SH(3)},
        {CF_SH(2, 1, 4), CF_SH(3, 1)}};
    const int np = (int)(sizeof pairs / sizeof pairs[0]);
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < np; s++) {
            cf_values v = s == 0 || s == 2 ? CF_V_SPECIAL : CF_V_DEFAULT;
            cf_case c;
            CF_CASE(c, op, "%s %s %s, %s%s", op, DN(cf_dtypes[d]), cf_shape_str(pairs[s][0]),
                    cf_shape_str(pairs[s][1]), v == CF_V_SPECIAL ? " with specials" : "");
            c.run = run_binary;
            c.fn = (void *)f;
            cf_add_rnd(&c, cf_dtypes[d], pairs[s][0], v);
            cf_add_rnd(&c, cf_dtypes[d], pairs[s][1], v);
            cf_check(&c);
        }
    /* mixed dtypes: promotion */
    const eh_dtype mixed[][2] = {{EH_I32, EH_F32}, {EH_BOOL, EH_I32}, {EH_F16, EH_F32},
                                 {EH_I64, EH_F64}, {EH_BOOL, EH_F16}, {EH_I32, EH_I64},
                                 {EH_F16, EH_I64}, {EH_BOOL, EH_BOOL}};
    for (size_t m = 0; m < sizeof mixed / sizeof mixed[0]; m++)
        for (int s = 0; s < 2; s++) {
            cf_case c;
            CF_CASE(c, op, "%s %s %s, %s %s with specials", op, DN(mixed[m][0]),
                    cf_shape_str(pairs[s][0]), DN(mixed[m][1]), cf_shape_str(pairs[s][1]));
            c.run = run_binary;
            c.fn = (void *)f;
            cf_add_rnd(&c, mixed[m][0], pairs[s][0], CF_V_SPECIAL);
            cf_add_rnd(&c, mixed[m][1], pairs[s][1], CF_V_SPECIAL);
            cf_check(&c);
        }
    /* scalar operands, on either side */
    const double scalars[] = {2.5, -3.0, 0.0, 3e9, NAN};
    for (int d = 0; d < 6; d++)
        for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; k++)
            for (int side = 1; side <= 2; side++) {
                cf_case c;
                CF_CASE(c, op, "%s %s %s (3, 4) with the scalar %g %s", op,
                        side == 1 ? "tensor" : "scalar", DN(cf_dtypes[d]), scalars[k],
                        side == 1 ? "on the right" : "on the left");
                c.run = run_binary;
                c.fn = (void *)f;
                c.i[0] = side;
                c.f[0] = scalars[k];
                cf_add_rnd(&c, cf_dtypes[d], CF_SH(3, 4), CF_V_SPECIAL);
                cf_check(&c);
            }
    /* large */
    const eh_dtype big[] = {EH_F32, EH_F64, EH_I64};
    for (int d = 0; d < 3; d++) {
        cf_case c;
        CF_CASE(c, op, "%s %s (%d), (%d) with specials", op, DN(big[d]), BIG, BIG);
        c.run = run_binary;
        c.fn = (void *)f;
        cf_add_rnd(&c, big[d], CF_SH(BIG), CF_V_SPECIAL);
        cf_add_rnd(&c, big[d], CF_SH(BIG), CF_V_SPECIAL);
        cf_check(&c);
    }
    {
        cf_case c;
        CF_CASE(c, op, "%s f32 (256, 512), (512,) broadcast", op);
        c.run = run_binary;
        c.fn = (void *)f;
        cf_add_rnd(&c, EH_F32, CF_SH(256, 512), CF_V_DEFAULT);
        cf_add_rnd(&c, EH_F32, CF_SH(512), CF_V_DEFAULT);
        cf_check(&c);
    }
}

static void drive_ternary(const char *op)
{
    const ew_fns *f = ew_lookup(op);
    const cf_shape triples[][3] = {{CF_SH(2, 3), CF_SH(2, 3), CF_SH(2, 3)},
                                   {CF_SH(3, 1), CF_SH(1, 4), CF_SH(4)},
                                   {CF_SH0, CF_SH(2, 2), CF_SH0},
                                   {CF_SH(0, 2), CF_SH(2), CF_SH0},
                                   {CF_SH0, CF_SH0, CF_SH0}};
    const eh_dtype mixed[][3] = {{EH_F32, EH_I32, EH_F64},
                                 {EH_BOOL, EH_I64, EH_F16},
                                 {EH_I32, EH_BOOL, EH_BOOL},
                                 {EH_F16, EH_F32, EH_F16}};
    for (int s = 0; s < 5; s++)
        for (int d = 0; d < 6 + 4; d++) {
            const eh_dtype *dt =
                d < 6 ? (const eh_dtype[]){cf_dtypes[d], cf_dtypes[d], cf_dtypes[d]} : mixed[d - 6];
            cf_case c;
            CF_CASE(c, op, "%s %s %s, %s %s, %s %s with specials", op, DN(dt[0]),
                    cf_shape_str(triples[s][0]), DN(dt[1]), cf_shape_str(triples[s][1]), DN(dt[2]),
                    cf_shape_str(triples[s][2]));
            c.run = run_ternary;
            c.fn = (void *)f;
            for (int j = 0; j < 3; j++)
                cf_add_rnd(&c, dt[j], triples[s][j], CF_V_SPECIAL);
            cf_check(&c);
        }
    if (!strcmp(op, "clip")) {
        const double b[][2] = {{-1.0, 2.5}, {0.0, 10.0}, {3.0, -3.0}, {NAN, 1.0}};
        for (int d = 0; d < 6; d++)
            for (int k = 0; k < 4; k++) {
                cf_case c;
                CF_CASE(c, op, "clip_scalar %s (3, 4) to [%g, %g] with specials", DN(cf_dtypes[d]),
                        b[k][0], b[k][1]);
                c.run = run_ternary;
                c.i[0] = 1;
                c.f[0] = b[k][0];
                c.f[1] = b[k][1];
                cf_add_rnd(&c, cf_dtypes[d], CF_SH(3, 4), CF_V_SPECIAL);
                cf_check(&c);
            }
    }
    cf_case c;
    CF_CASE(c, op, "%s f32 (%d) x3 with specials", op, BIG);
    c.run = run_ternary;
    c.fn = (void *)f;
    for (int j = 0; j < 3; j++)
        cf_add_rnd(&c, EH_F32, CF_SH(BIG), CF_V_SPECIAL);
    cf_check(&c);
}

/* ================================================================ chains */

/* Elementwise ops whose result is not bool (so a chain never reaches a
 * dtype the next op rejects): the unary and binary ops of ew_table minus
 * comparisons, logic and predicates. */
static int chainable(const ew_fns *f)
{
    static const char *const bool_out[] = {
        "equal",         "not_equal",   "less",       "less_equal",  "greater",
        "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not",
        "isnan",         "isinf",       "isfinite"};
    if (!f->u && !f->b)
        return 0;
    for (size_t k = 0; k < sizeof bool_out / sizeof bool_out[0]; k++)
        if (!strcmp(f->name, bool_out[k]))
            return 0;
    return 1;
}

/* Ops of a long chain: results stay finite on finite inputs. */
static int bounded(const ew_fns *f)
{
    static const char *const names[] = {
        "negative", "abs",      "sign",     "tanh",     "sin",     "cos",     "sigmoid",
        "relu",     "softplus", "erf",      "floor",    "ceil",    "round",   "square",
        "exp",      "add",      "subtract", "multiply", "maximum", "minimum", "atan2"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(f->name, names[k]))
            return 1;
    return 0;
}

/* Vectorized ops (a CF_ULP row): within ulps of ref, not bit-identical. */
static int vectorized(const ew_fns *f)
{
    const cf_tol *t = cf_tolerance(f->name);
    return t && t->by_ulp;
}

/* Ops whose result jumps (floor, round, sign, ...): after a vectorized op
 * a one-ulp difference can move a value across the jump, so chains that
 * are compared with ref in ulps leave them out. */
static int discontinuous(const ew_fns *f)
{
    static const char *const names[] = {"sign", "floor", "ceil", "round", "floor_divide", "mod"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(f->name, names[k]))
            return 1;
    return 0;
}

/* What a chain draws from and how it is compared (c->i[2]). */
enum {
    CHAIN_EXACT,  /* ops with exact results only: equal to ref, bit for bit */
    CHAIN_SMOOTH, /* vectorized ops too, no jumps: within chain_tol of ref */
    CHAIN_ALL     /* every op: fused equals the same backend op by op     */
};

static int in_pool(const ew_fns *f, int pool)
{
    switch (pool) {
    case CHAIN_EXACT: return !vectorized(f);
    case CHAIN_SMOOTH: return !discontinuous(f);
    default: return 1;
    }
}

/* A chain of c->i[0] random elementwise ops on in[0], with the other
 * inputs and scalars as second operands and an occasional earlier result
 * reused (a diamond), rebuilt identically on every backend from the
 * case's label: lazy fuses it into regions (and splits it where shapes
 * change or the region limit is reached), eager backends run it op by op.
 * c->i[1]: draw from the bounded ops only, with tanh every third op, so
 * that a long chain does not end in all-NaN (which would compare equal
 * whatever the backend computed).  c->i[2]: the pool (CHAIN_*).
 * c->i[3]: evaluate every intermediate as it is made (op by op on any
 * backend: a deferring one runs each node alone). */
static eh_status run_chain(const cf_case *c, eh_tensor **out, int *n)
{
    static const double scalars[] = {0.5, -2.0, 3.0, 1e-3, 1.5};
    const ew_fns *ops[sizeof ew_table / sizeof ew_table[0]];
    int n_ops = 0;
    for (size_t k = 0; k < sizeof ew_table / sizeof ew_table[0]; k++)
        if (chainable(&ew_table[k]) && (!c->i[1] || bounded(&ew_table[k])) &&
            in_pool(&ew_table[k], (int)c->i[2]))
            ops[n_ops++] = &ew_table[k];
    cf_rng r;
    cf_rng_seed_str(&r, c->label);
    assert_int_equal(eh_scope_begin(), EH_OK);
    eh_tensor *cur = NULL, *saved = NULL;
    const eh_tensor *x = c->in[0];
    for (int64_t k = 0; k < c->i[0]; k++) {
        const ew_fns *f = ops[cf_rng_u64(&r) % (uint64_t)n_ops];
        /* every third op bounds the values: tanh, or clip where the pool
         * has no vectorized ops */
        int clip = c->i[1] && k % 3 == 2 && c->i[2] == CHAIN_EXACT;
        if (c->i[1] && k % 3 == 2)
            f = ew_lookup("tanh");
        const eh_tensor *a = cur ? cur : x;
        int how = (int)(cf_rng_u64(&r) % 4);
        double s = scalars[cf_rng_u64(&r) % 5];
        const eh_tensor *other = c->in[1 + cf_rng_u64(&r) % (uint64_t)(c->n_in - 1)];
        if (saved && k % 7 == 6)
            other = saved;
        if (clip)
            cur = eh_clip_scalar(a, -1.0, 1.0);
        else if (f->u)
            cur = f->u(a);
        else if (how == 0)
            cur = f->bs(a, s);
        else if (how == 1)
            cur = f->sb(s, a);
        else if (how == 2)
            cur = f->b(a, other);
        else
            cur = f->b(other, a);
        if (!cur)
            break;
        if (c->i[3] && eh_eval(cur) != EH_OK)
            break;
        if (k % 5 == 2)
            saved = cur;
    }
    eh_tensor *res = cur ? eh_keep(cur) : NULL;
    eh_status st = res ? EH_OK : eh_last_error();
    assert_int_equal(eh_scope_end(), EH_OK);
    *n = res ? 1 : 0;
    out[0] = res;
    return st;
}

/* CHAIN_SMOOTH against ref: each vectorized op errs by at most 4 ulps
 * (tolerances.def), and the chain carries that error forward through
 * Lipschitz-bounded ops (bounded chains apply tanh every third op, which
 * contracts).  Measured on these cases on every instruction set: at most
 * 1.5 ulps (f32) and 0.75 ulp (f64) relative to max(1, |ref|); the bound
 * is 16 ulps, a margin of about ten (f16 results: 4 ulps, one rounding of
 * a value that may sit on either side of a tie).  A chain is as
 * precise as its least precise float operand (an f32 chain promoted to f64
 * by one f64 operand carries f32 errors): every column is that dtype's. */
static const double chain_rel[3] = {4 * 0x1p-10, 16 * 0x1p-23, 16 * 0x1p-52};

static cf_tol chain_tol_for(const cf_case *c)
{
    int lowest = 2;
    for (int k = 0; k < c->n_in; k++) {
        eh_dtype dt = eh_get_dtype(c->in[k]);
        int col = dt == EH_F16 ? 0 : dt == EH_F32 ? 1 : 2;
        if (col < lowest)
            lowest = col;
    }
    double v = chain_rel[lowest];
    cf_tol t = {"chain", 0, {v, v, v}, {v, v, v}, 0, {0, 0, 0}};
    return t;
}

static void chain_case(eh_dtype dt, cf_shape x, int64_t length, int big, int pool)
{
    static const char *const pools[] = {"exact", "smooth", "any"};
    int bound = length > 10;
    cf_case c;
    CF_CASE(c, "add", "chain of %lld %s%s elementwise ops on %s %s%s", (long long)length,
            bound ? "bounded " : "", pools[pool], DN(dt), cf_shape_str(x),
            big ? "" : " with broadcast operands");
    c.run = run_chain;
    c.i[0] = length;
    c.i[1] = bound;
    c.i[2] = pool;
    c.allow_error = 1; /* a chain may still meet bool; codes must agree then */
    cf_add_rnd(&c, dt, x, bound ? CF_V_UNIT : CF_V_DEFAULT);
    if (big) {
        cf_add_rnd(&c, dt, x, bound ? CF_V_UNIT : CF_V_SPECIAL);
        cf_add_rnd(&c, EH_F32, CF_SH0, CF_V_DEFAULT);
    } else {
        cf_add_rnd(&c, dt, CF_SH(3, 4, 5), bound ? CF_V_UNIT : CF_V_SPECIAL);
        cf_add_rnd(&c, dt, CF_SH(4, 1), CF_V_DEFAULT);
        cf_add_rnd(&c, cf_dtypes[(dt + 1) % 5], CF_SH(5), CF_V_DEFAULT);
        cf_add_rnd(&c, dt, CF_SH0, CF_V_DEFAULT);
    }
    cf_tol tol = chain_tol_for(&c);
    if (pool == CHAIN_SMOOTH)
        c.tol = &tol;
    if (pool != CHAIN_ALL) {
        cf_check(&c);
    } else {
        /* every backend: the chain as the backend runs it (fused where it
         * fuses) equals the same chain evaluated op by op, bit for bit */
        const char *names[CF_MAX_BACKENDS];
        int nb = cf_backends(names);
        for (int b = 0; b < nb; b++) {
            eh_tensor *whole[1] = {NULL}, *steps[1] = {NULL};
            int n1 = 0, n2 = 0;
            eh_set_backend(names[b]);
            c.i[3] = 0;
            eh_status s1 = run_chain(&c, whole, &n1);
            c.i[3] = 1;
            eh_status s2 = run_chain(&c, steps, &n2);
            if (s1 == EH_OK)
                s1 = eh_eval(whole[0]);
            char msg[512];
            if (s1 != s2)
                cf_finding(&c, names[b], "status %s fused, %s op by op", eh_status_name(s1),
                           eh_status_name(s2));
            else if (s1 == EH_OK && !cf_compare(steps[0], whole[0], cf_tolerance("add"), 1, msg, sizeof msg))
                cf_finding(&c, names[b], "fused differs from op by op: %s", msg);
            eh_clear_error();
            eh_release(whole[0]);
            eh_release(steps[0]);
        }
        eh_set_backend("ref");
        cf_case_free(&c);
    }
}

/* Not one op but many: fused evaluation must give what op-by-op does. */
static void test_elementwise_chains(void **state)
{
    (void)state;
    cf_begin_test();
    const int64_t lengths[] = {2, 6, 20, 70};
    eh_isa top = eh_isa_detected();
    for (int pool = CHAIN_EXACT; pool <= CHAIN_ALL; pool++) {
        for (int d = 0; d < 5; d++) /* not bool: most chainable ops reject it */
            for (int k = 0; k < 4; k++) {
                chain_case(cf_dtypes[d], CF_SH(3, 1, 5), lengths[k], 0, pool);
                chain_case(cf_dtypes[d], CF_SH(3, 4, 5), lengths[k], 0, pool);
            }
        chain_case(EH_F32, CF_SH(BIG), 12, 1, pool);
        chain_case(EH_F64, CF_SH(BIG), 80, 1, pool);
        chain_case(EH_I32, CF_SH(BIG), 12, 1, pool);
    }
    /* the vectorized kernels of every instruction set this machine has */
    for (int isa = 0; isa < (int)top; isa++) {
        eh_isa_set((eh_isa)isa);
        for (int pool = CHAIN_SMOOTH; pool <= CHAIN_ALL; pool++) {
            chain_case(EH_F32, CF_SH(BIG), 12, 1, pool);
            chain_case(EH_F64, CF_SH(BIG), 80, 1, pool);
            chain_case(EH_F16, CF_SH(3, 4, 5), 20, 0, pool);
        }
    }
    eh_isa_set(top);
    cf_end_test();
}

/* ================================================================ random */

/* Two successive calls (call numbers 0 and 1 after the seed), so that the
 * call numbering is compared too. */
static eh_status run_random(const cf_case *c, eh_tensor **out, int *n)
{
    *n = 2;
    for (int k = 0; k < 2; k++) {
        const char *op = c->op;
        int nd = c->ndim;
        const int64_t *s = c->shape;
        eh_tensor *t = NULL;
        if (!strcmp(op, "random_uniform"))
            t = eh_random_uniform(nd, s, c->f[0], c->f[1], c->dtype);
        else if (!strcmp(op, "random_normal"))
            t = eh_random_normal(nd, s, c->f[0], c->f[1], c->dtype);
        else if (!strcmp(op, "random_bernoulli"))
            t = eh_random_bernoulli(nd, s, c->f[0]);
        else if (!strcmp(op, "random_poisson"))
            t = eh_random_poisson(nd, s, c->f[0]);
        else if (!strcmp(op, "random_exponential"))
            t = eh_random_exponential(nd, s, c->f[0], c->dtype);
        else if (!strcmp(op, "random_gamma"))
            t = eh_random_gamma(nd, s, c->f[0], c->f[1], c->dtype);
        else if (!strcmp(op, "random_binomial"))
            t = eh_random_binomial(nd, s, c->i[0], c->f[0]);
        else if (!strcmp(op, "random_categorical"))
            t = eh_random_categorical(c->in[0], c->i[0]);
        else if (!strcmp(op, "random_permutation"))
            t = eh_random_permutation(c->i[0]);
        else if (!strcmp(op, "random_randint"))
            t = eh_random_randint(nd, s, c->i[0], c->i[1], c->dtype);
        else if (!strcmp(op, "seed")) { /* the META op: eh_seed itself */
            eh_seed((uint64_t)c->i[k]);
            t = eh_random_uniform(nd, s, 0.0, 1.0, EH_F64);
        } else
            fail_msg("run_random: %s", op);
        out[k] = t;
        if (!t) {
            eh_status st = eh_last_error();
            if (k)
                eh_release(out[0]);
            return st != EH_OK ? st : EH_ERR_INTERNAL;
        }
    }
    return EH_OK;
}

/* Random results must be the same BYTES on every backend. */
static void post_same_bytes(const cf_case *c, const char *backend, eh_tensor *const *ref_out,
                            eh_tensor *const *out, int n_out)
{
    for (int k = 0; k < n_out; k++) {
        size_t nb = eh_nbytes(out[k]);
        if (nb != eh_nbytes(ref_out[k]) ||
            (nb && memcmp(eh_data(out[k]), eh_data(ref_out[k]), nb) != 0))
            cf_finding(c, backend, "output %d: the bytes differ from ref's", k);
    }
    /* the META op seed: two seeds must give two streams */
    if (!strcmp(c->op, "seed") && n_out == 2 && eh_size(out[0]) > 0 &&
        !memcmp(eh_data(out[0]), eh_data(out[1]), eh_nbytes(out[0])))
        cf_finding(c, backend, "seeds %lld and %lld give the same values", (long long)c->i[0],
                   (long long)c->i[1]);
}

static void random_case(const char *op, eh_dtype dt, cf_shape s, double f0, double f1, int64_t i0,
                        int64_t i1, uint64_t seed, int special)
{
    cf_case c;
    CF_CASE(c, op, "%s %s %s params %g %g %lld %lld seed %llu%s", op, DN(dt), cf_shape_str(s), f0,
            f1, (long long)i0, (long long)i1, (unsigned long long)seed,
            special ? " logits with specials" : "");
    c.run = run_random;
    c.post = post_same_bytes;
    c.dtype = dt;
    cf_set_shape(&c, s);
    c.f[0] = f0;
    c.f[1] = f1;
    c.i[0] = i0;
    c.i[1] = i1;
    c.seed = seed;
    c.allow_error = 1; /* dtypes a distribution does not take */
    if (!strcmp(op, "random_categorical"))
        cf_add_rnd(&c, dt, s, special ? CF_V_SPECIAL : CF_V_DEFAULT);
    cf_check(&c);
}

static void drive_random(const char *op)
{
    const cf_shape shapes[] = {CF_SH0, CF_SH(0), CF_SH(3, 4), CF_SH(1000)};
    double f0 = 0, f1 = 1;
    int64_t i0 = 0, i1 = 0;
    if (!strcmp(op, "random_uniform"))
        f0 = -2.0, f1 = 3.0;
    else if (!strcmp(op, "random_normal"))
        f0 = 1.0, f1 = 2.0;
    else if (!strcmp(op, "random_bernoulli"))
        f0 = 0.3;
    else if (!strcmp(op, "random_poisson"))
        f0 = 4.5;
    else if (!strcmp(op, "random_exponential"))
        f0 = 2.0;
    else if (!strcmp(op, "random_gamma"))
        f0 = 0.7, f1 = 2.0;
    else if (!strcmp(op, "random_binomial"))
        i0 = 30, f0 = 0.4;
    else if (!strcmp(op, "random_categorical"))
        i0 = 5;
    else if (!strcmp(op, "random_permutation"))
        i0 = 50;
    else if (!strcmp(op, "random_randint"))
        i0 = -7, i1 = 100;
    else if (!strcmp(op, "seed"))
        i0 = 12345, i1 = (int64_t)0xfedcba9876543210ull;
    int has_dtype = !strcmp(op, "random_uniform") || !strcmp(op, "random_normal") ||
                    !strcmp(op, "random_exponential") || !strcmp(op, "random_gamma") ||
                    !strcmp(op, "random_randint") || !strcmp(op, "random_categorical");
    for (int d = 0; d < (has_dtype ? 6 : 1); d++)
        for (int s = 0; s < 4; s++) {
            cf_shape sh = shapes[s];
            if (!strcmp(op, "random_categorical") && s < 2)
                sh = s == 0 ? CF_SH(4) : CF_SH(0, 3); /* logits need a last axis */
            random_case(op, cf_dtypes[d], sh, f0, f1, i0, i1, 7 + (uint64_t)s, 0);
        }
    /* parameter variants (other algorithms) and large results */
    if (!strcmp(op, "random_poisson"))
        for (int k = 0; k < 3; k++)
            random_case(op, EH_I64, CF_SH(2000), (double[]){0.0, 30.0, 1e7}[k], 0, 0, 0, 11, 0);
    if (!strcmp(op, "random_binomial"))
        for (int k = 0; k < 3; k++)
            random_case(op, EH_I64, CF_SH(2000), (double[]){0.0, 0.8, 0.5}[k], 0,
                        (int64_t[]){10, 1000, 1000000}[k], 0, 12, 0);
    if (!strcmp(op, "random_gamma"))
        for (int k = 0; k < 2; k++)
            random_case(op, EH_F64, CF_SH(2000), (double[]){3.5, 0.05}[k], 1.5, 0, 0, 13, 0);
    if (!strcmp(op, "random_randint")) {
        random_case(op, EH_I64, CF_SH(2000), 0, 0, INT64_MIN, INT64_MAX, 14, 0);
        random_case(op, EH_I32, CF_SH(2000), 0, 0, INT32_MIN, (int64_t)INT32_MAX + 1, 14, 0);
    }
    if (!strcmp(op, "random_categorical")) {
        random_case(op, EH_F64, CF_SH(64, 33), 0, 0, 50, 0, 15, 0);
        random_case(op, EH_F32, CF_SH(3, 4), 0, 0, 6, 0, 15,
                    1); /* EH_ERR_INVALID_ARG, by the kernel */
        random_case(op, EH_F32, CF_SH(3, 4), 0, 0, 0, 0, 15, 1); /* nothing read: no error */
    }
    if (!strcmp(op, "random_permutation"))
        random_case(op, EH_I64, CF_SH0, 0, 0, 5000, 0, 16, 0);
    const eh_dtype big[] = {EH_F32, EH_F64};
    for (int d = 0; d < 2; d++)
        random_case(op, big[d], CF_SH(BIG), f0, f1, i0, i1, 17, 0);
}

/* ================================================================ convert, meta */

static eh_status run_cast(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_cast(c->in[0], c->dtype), out, n);
}

static void drive_cast(const char *op)
{
    const cf_shape shapes[] = {CF_SH0, CF_SH(0, 2), CF_SH(3, 4), CF_SH(70)};
    for (int from = 0; from < 6; from++)
        for (int to = 0; to < 6; to++)
            for (int s = 0; s < 4; s++) {
                cf_case c;
                CF_CASE(c, op, "cast %s %s -> %s with specials", DN(cf_dtypes[from]),
                        cf_shape_str(shapes[s]), DN(cf_dtypes[to]));
                c.run = run_cast;
                c.dtype = cf_dtypes[to];
                cf_add_rnd(&c, cf_dtypes[from], shapes[s], CF_V_SPECIAL);
                cf_check(&c);
            }
    cf_case c;
    CF_CASE(c, op, "cast f64 (%d) -> f16 with specials", BIG);
    c.run = run_cast;
    c.dtype = EH_F16;
    cf_add_rnd(&c, EH_F64, CF_SH(BIG), CF_V_SPECIAL);
    cf_check(&c);
}

static eh_status run_to_device(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_to_device(c->in[0], c->i[0] ? "cuda" : "cpu"), out, n);
}

static void drive_to_device(const char *op)
{
    for (int d = 0; d < 6; d++)
        for (int bad = 0; bad < 2; bad++) {
            cf_case c;
            CF_CASE(c, op, "to_device %s (2, 3) -> %s", DN(cf_dtypes[d]), bad ? "cuda" : "cpu");
            c.run = run_to_device;
            c.i[0] = bad;
            c.allow_error = bad;
            cf_add_rnd(&c, cf_dtypes[d], CF_SH(2, 3), CF_V_SPECIAL);
            cf_check(&c);
        }
}

/* META ops, through their frontends; results encoded as tensors. */
static eh_status run_meta(const cf_case *c, eh_tensor **out, int *n)
{
    double v[64];
    int nv = 0;
    if (!strcmp(c->op, "result_type")) {
        for (int a = 0; a <= EH_DTYPE_COUNT; a++)
            for (int b = 0; b <= EH_DTYPE_COUNT; b++) {
                eh_dtype r = (eh_dtype)-1;
                eh_status st = eh_result_type((eh_dtype)a, (eh_dtype)b, &r);
                v[nv++] = st == EH_OK ? (double)r : -100.0 - st;
                eh_clear_error();
            }
    } else if (!strcmp(c->op, "get_available_devices")) {
        const char *names[4] = {NULL};
        int count = eh_get_available_devices(names, 4);
        v[nv++] = count;
        for (int k = 0; k < count && k < 4; k++)
            for (const char *p = names[k]; *p && nv < 60; p++)
                v[nv++] = (unsigned char)*p;
    } else { /* get_device of a tensor this backend computed */
        eh_tensor *t = eh_add(c->in[0], c->in[0]);
        const char *dev = eh_get_device(t);
        for (const char *p = dev ? dev : "(null)"; *p && nv < 60; p++)
            v[nv++] = (unsigned char)*p;
        eh_release(t);
    }
    return cf_one(cf_tensor(EH_I32, 1, (int64_t[]){nv}, v), out, n);
}

static void drive_meta(const char *op)
{
    cf_case c;
    CF_CASE(c, op, "%s through its frontend", op);
    c.run = run_meta;
    cf_add_rnd(&c, EH_F32, CF_SH(2, 2), CF_V_DEFAULT);
    cf_check(&c);
}

/* ================================================================ the table */

/* How to call each op of the kinds CF_KINDS_VALUES with random inputs (the
 * kinds CF_KINDS_NUMERIC are in test_conformance_numeric.c). */
static const cf_driver drivers[] = {
    /* creation */
    {"zeros", drive_fill},
    {"ones", drive_fill},
    {"full", drive_fill},
    {"zeros_like", drive_like},
    {"ones_like", drive_like},
    {"full_like", drive_like},
    {"arange", drive_arange},
    {"linspace", drive_linspace},
    {"eye", drive_eye},
    {"copy", drive_copy},
    {"triu_indices", drive_tri_indices},
    {"tril_indices", drive_tri_indices},
    {"hann_window", drive_window},
    {"hamming_window", drive_window},
    /* shape */
    {"reshape", drive_reshape},
    {"transpose", drive_transpose},
    {"expand_dims", drive_expand_dims},
    {"squeeze", drive_squeeze},
    {"concatenate", drive_concatenate},
    {"stack", drive_stack},
    {"split", drive_split},
    {"tile", drive_tile},
    {"repeat", drive_repeat},
    {"slice", drive_slice},
    {"gather", drive_gather},
    {"scatter", drive_scatter},
    {"pad", drive_pad},
    {"flip", drive_flip},
    {"roll", drive_roll},
    {"where", drive_ternary},
    {"broadcast_to", drive_broadcast_to},
    {"triu", drive_tri},
    {"tril", drive_tri},
    {"frame", drive_frame},
    /* elementwise unary */
    {"negative", drive_unary},
    {"abs", drive_unary},
    {"sign", drive_unary},
    {"square", drive_unary},
    {"sqrt", drive_unary},
    {"exp", drive_unary},
    {"log", drive_unary},
    {"log1p", drive_unary},
    {"expm1", drive_unary},
    {"sin", drive_unary},
    {"cos", drive_unary},
    {"tan", drive_unary},
    {"tanh", drive_unary},
    {"sigmoid", drive_unary},
    {"relu", drive_unary},
    {"softplus", drive_unary},
    {"erf", drive_unary},
    {"floor", drive_unary},
    {"ceil", drive_unary},
    {"round", drive_unary},
    {"reciprocal", drive_unary},
    /* elementwise binary */
    {"add", drive_binary},
    {"subtract", drive_binary},
    {"multiply", drive_binary},
    {"divide", drive_binary},
    {"floor_divide", drive_binary},
    {"mod", drive_binary},
    {"power", drive_binary},
    {"maximum", drive_binary},
    {"minimum", drive_binary},
    {"atan2", drive_binary},
    /* comparison and logic */
    {"equal", drive_binary},
    {"not_equal", drive_binary},
    {"less", drive_binary},
    {"less_equal", drive_binary},
    {"greater", drive_binary},
    {"greater_equal", drive_binary},
    {"logical_and", drive_binary},
    {"logical_or", drive_binary},
    {"logical_xor", drive_binary},
    {"logical_not", drive_unary},
    {"isnan", drive_unary},
    {"isinf", drive_unary},
    {"isfinite", drive_unary},
    {"clip", drive_ternary},
    /* random */
    {"seed", drive_random},
    {"random_uniform", drive_random},
    {"random_normal", drive_random},
    {"random_bernoulli", drive_random},
    {"random_poisson", drive_random},
    {"random_exponential", drive_random},
    {"random_gamma", drive_random},
    {"random_binomial", drive_random},
    {"random_categorical", drive_random},
    {"random_permutation", drive_random},
    {"random_randint", drive_random},
    /* dtype and device */
    {"cast", drive_cast},
    {"result_type", drive_meta},
    {"get_available_devices", drive_meta},
    {"to_device", drive_to_device},
    {"get_device", drive_meta},
};
#define N_DRIVERS ((int)(sizeof drivers / sizeof drivers[0]))

/* Every op of ops.def has a case (here or in test_conformance_numeric.c,
 * by kind) and a tolerance row; every row names an op, once. */
static void test_every_op_has_a_case(void **state)
{
    (void)state;
    assert_int_equal(cf_op_total(), eh_op_count());
    cf_check_drivers(drivers, N_DRIVERS, CF_KINDS_VALUES);
    int bad = 0;
    for (int k = 0; k < cf_op_total(); k++) {
        const char *op = cf_op_at(k), *kind = cf_op_kind(op);
        if (!strstr(CF_KINDS_VALUES " " CF_KINDS_NUMERIC, kind)) {
            fprintf(stderr,
                    "op %s: kind %s is in neither CF_KINDS_VALUES nor CF_KINDS_NUMERIC "
                    "(tests/support/conformance.h)\n",
                    op, kind);
            bad = 1;
        }
        if (!cf_tolerance(op)) {
            fprintf(stderr, "op %s has no row in tests/conformance/tolerances.def\n", op);
            bad = 1;
        }
    }
    int nrows;
    const cf_tol *rows = cf_tolerance_rows(&nrows);
    for (int r = 0; r < nrows; r++) {
        if (!cf_op_kind(rows[r].op)) {
            fprintf(stderr, "tolerances.def has a row for '%s', which is not an op\n", rows[r].op);
            bad = 1;
        }
        for (int q = 0; q < r; q++)
            if (!strcmp(rows[q].op, rows[r].op)) {
                fprintf(stderr, "tolerances.def has two rows for '%s'\n", rows[r].op);
                bad = 1;
            }
    }
    if (bad)
        fail_msg("the conformance tables do not match libeh/ops.def");
}

#define KIND_TEST(kind)                                                                            \
    static void test_##kind(void **state)                                                          \
    {                                                                                              \
        (void)state;                                                                               \
        cf_run_kind(drivers, N_DRIVERS, #kind);                                                    \
    }
KIND_TEST(CREATION)
KIND_TEST(SHAPE)
KIND_TEST(UNARY)
KIND_TEST(BINARY)
KIND_TEST(TERNARY)
KIND_TEST(RANDOM)
KIND_TEST(CONVERT)
KIND_TEST(META)

/* The harness itself must be able to fail: a wrong value, a wrong dtype, a
 * different NaN position, a different sign of zero are all disagreements. */
static void test_the_comparison_can_fail(void **state)
{
    (void)state;
    char msg[512];
    const cf_tol *exact = cf_tolerance("add"), *sum = cf_tolerance("sum");
    assert_true(exact->exact);
    assert_false(sum->exact);
    const int64_t *s3 = SHAPE(3);
    eh_tensor *a = cf_tensor(EH_F32, 1, s3, (const double[]){1.0, NAN, -0.0});
    eh_tensor *same = cf_tensor(EH_F32, 1, s3, (const double[]){1.0, NAN, -0.0});
    eh_tensor *ulp = cf_tensor(EH_F32, 1, s3, (const double[]){1.0 + 0x1p-23, NAN, -0.0});
    eh_tensor *zero = cf_tensor(EH_F32, 1, s3, (const double[]){1.0, NAN, 0.0});
    eh_tensor *nan = cf_tensor(EH_F32, 1, s3, (const double[]){NAN, NAN, -0.0});
    eh_tensor *f64 = cf_tensor(EH_F64, 1, s3, (const double[]){1.0, NAN, -0.0});
    eh_tensor *far = cf_tensor(EH_F32, 1, s3, (const double[]){1.001, NAN, -0.0});
    eh_tensor *big = cf_tensor(EH_I64, 1, s3, (const double[]){0x1p60, 1, 2});
    eh_tensor *big1 = cf_tensor(EH_I64, 1, s3, (const double[]){0x1p60 + 256, 1, 2});
    assert_true(cf_compare(a, same, exact, 1.0, msg, sizeof msg));
    assert_false(cf_compare(a, ulp, exact, 1.0, msg, sizeof msg));
    assert_non_null(strstr(msg, "element (0,)"));
    assert_false(cf_compare(a, zero, exact, 1.0, msg, sizeof msg)); /* sign of zero */
    assert_false(cf_compare(a, nan, sum, 1.0, msg, sizeof msg));    /* NaN position */
    assert_false(cf_compare(a, f64, sum, 1.0, msg, sizeof msg));    /* dtype */
    assert_true(cf_compare(a, ulp, sum, 1.0, msg, sizeof msg));     /* within 2 E32 */
    assert_false(cf_compare(a, far, sum, 1.0, msg, sizeof msg));
    assert_false(cf_compare(big, big1, sum, 1e30, msg, sizeof msg)); /* integers: exact */
    eh_release(a);
    eh_release(same);
    eh_release(ulp);
    eh_release(zero);
    eh_release(nan);
    eh_release(f64);
    eh_release(far);
    eh_release(big);
    eh_release(big1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_op_has_a_case),
        cmocka_unit_test(test_the_comparison_can_fail),
        cmocka_unit_test(test_CREATION),
        cmocka_unit_test(test_SHAPE),
        cmocka_unit_test(test_UNARY),
        cmocka_unit_test(test_BINARY),
        cmocka_unit_test(test_TERNARY),
        cmocka_unit_test(test_elementwise_chains),
        cmocka_unit_test(test_RANDOM),
        cmocka_unit_test(test_CONVERT),
        cmocka_unit_test(test_META),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("conformance: %ld cases on %d backends, %ld disagreements\n", cf_case_count(),
           eh_list_backends(NULL, 0), cf_finding_count());
    return rc;
}
