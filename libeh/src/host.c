/* Host access: everything here forces evaluation of a deferred tensor. */
#include <math.h>
#include <string.h>
#include "internal.h"

eh_status eh_materialize(const eh_tensor *t)
{
    eh_tensor *m = (eh_tensor *)t; /* evaluation fills storage, not the value */
    if (m->data && !m->deferred_ops)
        return EH_OK;
    if (m->deferred_ops)
        return m->deferred_ops->evaluate(m);
    return eh_tensor_alloc_data(m);
}

eh_status eh_eval(const eh_tensor *t)
{
    if (!eh__require("eval", t, "t"))
        return eh_last_error();
    return eh_materialize(t);
}

eh_status eh_to_buffer(const eh_tensor *t, void *buf, size_t nbytes)
{
    if (!eh__require("to_buffer", t, "t"))
        return eh_last_error();
    if (!buf && t->nbytes)
        return eh_set_error(EH_ERR_NULL_ARG, "to_buffer: argument 'buf' is NULL");
    if (nbytes < t->nbytes)
        return eh_set_error(EH_ERR_INVALID_ARG,
                            "to_buffer: buffer of %zu bytes is too small for %zu bytes (%s %s)",
                            nbytes, t->nbytes, eh_dtype_name(t->dtype),
                            eh_shape_str(t->ndim, t->shape));
    eh_status st = eh_materialize(t);
    if (st != EH_OK)
        return st;
    if (t->nbytes)
        memcpy(buf, t->data, t->nbytes);
    return EH_OK;
}

void *eh_data(eh_tensor *t)
{
    if (!eh__require("data", t, "t") || eh_materialize(t) != EH_OK)
        return NULL;
    return t->data;
}

static void *typed_data(eh_tensor *t, eh_dtype want, const char *op)
{
    if (!eh__require(op, t, "t"))
        return NULL;
    if (t->dtype != want) {
        eh_set_error(EH_ERR_DTYPE, "%s: tensor has dtype %s, not %s", op,
                     eh_dtype_name(t->dtype), eh_dtype_name(want));
        return NULL;
    }
    return eh_data(t);
}

float *eh_data_f32(eh_tensor *t) { return typed_data(t, EH_F32, "data_f32"); }
double *eh_data_f64(eh_tensor *t) { return typed_data(t, EH_F64, "data_f64"); }
int32_t *eh_data_i32(eh_tensor *t) { return typed_data(t, EH_I32, "data_i32"); }
int64_t *eh_data_i64(eh_tensor *t) { return typed_data(t, EH_I64, "data_i64"); }
uint16_t *eh_data_f16(eh_tensor *t) { return typed_data(t, EH_F16, "data_f16"); }
uint8_t *eh_data_bool(eh_tensor *t) { return typed_data(t, EH_BOOL, "data_bool"); }

double eh_item(const eh_tensor *t)
{
    if (!eh__require("item", t, "t"))
        return NAN;
    if (t->size != 1) {
        eh_set_error(EH_ERR_SHAPE, "item: tensor of shape %s has %lld elements, not 1",
                     eh_shape_str(t->ndim, t->shape), (long long)t->size);
        return NAN;
    }
    if (eh_materialize(t) != EH_OK)
        return NAN;
    return eh_load_f64(t->data, t->dtype, 0);
}
