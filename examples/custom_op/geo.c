/* geo.c -- the application's ops: defined once, called like libeh's own.
 * Frontend code: it includes <eh/eh.h> only and knows no backend. */
#include <math.h>
#include <stdio.h>
#include "geo.h"

/* Output shape of geo.sqdist: (n, m) from x (n, d) and y (m, d). */
static eh_status sqdist_shape(eh_custom_ctx *ctx)
{
    const eh_tensor *x = ctx->in[0], *y = ctx->in[1];
    if (eh_ndim(x) != 2 || eh_ndim(y) != 2 || eh_dim(x, 1) != eh_dim(y, 1)) {
        snprintf(ctx->why, ctx->why_cap, "x and y must be (n, d) and (m, d), got %d-d and %d-d",
                 eh_ndim(x), eh_ndim(y));
        return EH_ERR_SHAPE;
    }
    if (eh_get_dtype(x) != eh_get_dtype(y)) {
        snprintf(ctx->why, ctx->why_cap, "x and y must have one dtype");
        return EH_ERR_DTYPE;
    }
    ctx->out[0].dtype = eh_get_dtype(x);
    ctx->out[0].ndim = 2;
    ctx->out[0].shape[0] = eh_dim(x, 0);
    ctx->out[0].shape[1] = eh_dim(y, 0);
    return EH_OK;
}

typedef struct softclip_params {
    double limit;
} softclip_params;

static eh_status softclip_check(eh_custom_ctx *ctx)
{
    const softclip_params *p = ctx->params;
    if (p->limit > 0)
        return EH_OK;
    snprintf(ctx->why, ctx->why_cap, "limit must be positive, got %g", p->limit);
    return EH_ERR_INVALID_ARG;
}

/* The op's meaning, element by element: it runs on any backend, and lets
 * lazy fuse the op into elementwise chains. */
static double softclip_element(const double *x, const void *params)
{
    double limit = ((const softclip_params *)params)->limit;
    return limit * tanh(x[0] / limit);
}

static const char *const sqdist_inputs[] = {"x", "y"};

static const eh_custom_op_def geo_ops[] = {
    {.name = "geo.sqdist", .n_in = 2, .n_out = 1, .input_names = sqdist_inputs,
     .dtypes = EH_DTYPE_BIT(EH_F32) | EH_DTYPE_BIT(EH_F64), .rule = EH_CUSTOM_INFER,
     .infer = sqdist_shape},
    {.name = "geo.softclip", .n_in = 1, .n_out = 1, .rule = EH_CUSTOM_ELEMENTWISE,
     .float_result = 1, .check = softclip_check, .params_size = sizeof(softclip_params),
     .per_element = softclip_element},
};

eh_status geo_define_ops(void)
{
    for (size_t k = 0; k < sizeof geo_ops / sizeof geo_ops[0]; k++) {
        eh_status st = eh_custom_op_define(&geo_ops[k]);
        if (st != EH_OK)
            return st;
    }
    return EH_OK;
}

eh_tensor *geo_sqdist(const eh_tensor *x, const eh_tensor *y)
{
    return eh_custom_call("geo.sqdist", EH_INPUTS(x, y), NULL);
}

eh_tensor *geo_softclip(const eh_tensor *x, double limit)
{
    softclip_params p = {limit};
    return eh_custom_call("geo.softclip", EH_INPUTS(x),
                          &(eh_custom_args){.params = &p, .params_size = sizeof p});
}
