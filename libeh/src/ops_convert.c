/* Frontend of dtype and device conversion: cast, to_device, get_device,
 * get_available_devices (result_type lives with the promotion table in
 * dtype.c), and eh__as_dtype, the cast other ops apply to their inputs.
 * docs/ops/creation.md has the user-facing semantics.
 *
 * Backend contract:
 *   op         in   eh_op_call.p   kernel writes
 *   cast       1    -              in[0]'s values converted to out's dtype
 *                                  (same shape; any dtype pair, the same
 *                                  dtype included).  Conversions as
 *                                  eh_store_f64 / eh_store_i64, each value
 *                                  converted once from its exact value:
 *                                  float -> int truncates toward zero and
 *                                  saturates, NaN -> 0; -> bool is != 0;
 *                                  int -> narrower int wraps; -> f16/f32
 *                                  rounds to nearest even (+-inf beyond)
 *   to_device  1    -              a copy of in[0] (same dtype and shape)
 * get_device and get_available_devices are META: no kernel. */
#include <string.h>
#include "internal.h"

static const char *const devices[] = {"cpu"};
#define N_DEVICES ((int)(sizeof devices / sizeof devices[0]))

eh_tensor *eh_cast(const eh_tensor *x, eh_dtype dtype)
{
    if (!eh__require("cast", x, "x") || eh__check_dtype("cast", dtype) != EH_OK)
        return NULL;
    const eh_tensor *in[1] = {x};
    eh_op_call call = eh__call(EH_OP_cast, 1, in);
    return eh__run(&call, x->ndim, x->shape, dtype);
}

eh_tensor *eh__as_dtype(const eh_tensor *t, eh_dtype dtype)
{
    if (t->dtype == dtype)
        return eh_tensor_ref(t);
    return eh__own(eh_cast(t, dtype));
}

int eh_get_available_devices(const char **names, int cap)
{
    for (int k = 0; names && k < N_DEVICES && k < cap; k++)
        names[k] = devices[k];
    return N_DEVICES;
}

static int known_device(const char *name)
{
    for (int k = 0; k < N_DEVICES; k++)
        if (strcmp(devices[k], name) == 0)
            return 1;
    return 0;
}

eh_tensor *eh_to_device(const eh_tensor *t, const char *device)
{
    if (!eh__require("to_device", t, "t"))
        return NULL;
    if (!device) {
        eh_set_error(EH_ERR_NULL_ARG, "to_device: argument 'device' is NULL");
        return NULL;
    }
    if (!known_device(device)) {
        eh_set_error(EH_ERR_DEVICE, "to_device: no device '%.64s' here (available: cpu)",
                     device);
        return NULL;
    }
    const eh_tensor *in[1] = {t};
    eh_op_call call = eh__call(EH_OP_to_device, 1, in);
    return eh__run(&call, t->ndim, t->shape, t->dtype);
}

const char *eh_get_device(const eh_tensor *t)
{
    return eh__require("get_device", t, "t") ? devices[0] : NULL;
}
