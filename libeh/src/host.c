/* Host access: everything here forces evaluation of a deferred tensor. */
#include <math.h>
#include <string.h>
#include "internal.h"

eh_status eh_materialize(const eh_tensor *t)
{
    eh_tensor *m = (eh_tensor *)t; /* evaluation fills storage, not the value */
    /* Another thread may be evaluating t (lazy, under its lock): the
     * backend clears deferred_ops with a release store once t's data is
     * complete, so this acquire load sees either "still deferred" (evaluate
     * waits for the lock) or the finished data -- read only after it. */
    const eh_deferred_ops *ops = __atomic_load_n(&m->deferred_ops, __ATOMIC_ACQUIRE);
    if (ops)
        return ops->evaluate(m);
    if (m->data)
        return EH_OK;
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

/* A pointer to t's elements for reading (materialized; never copies). */
static const void *read_data(const eh_tensor *t, int typed, eh_dtype want, const char *op)
{
    if (!eh__require(op, t, "t"))
        return NULL;
    if (typed && t->dtype != want) {
        eh_set_error(EH_ERR_DTYPE, "%s: tensor has dtype %s, not %s", op,
                     eh_dtype_name(t->dtype), eh_dtype_name(want));
        return NULL;
    }
    if (eh_materialize(t) != EH_OK)
        return NULL;
    return t->data;
}

/* The same for writing: shared storage is copied first (copy-on-write). */
static void *write_data(eh_tensor *t, int typed, eh_dtype want, const char *op)
{
    if (!read_data(t, typed, want, op) || eh__tensor_make_private(t) != EH_OK)
        return NULL;
    return t->data;
}

#define DEFINE_STORAGE_ACCESSOR(T, writable, readonly, dt)                         \
    T *writable(eh_tensor *t) { return write_data(t, #dt[0] != 0, EH_##dt##_OR_ANY, &(#writable)[3]); } \
    const T *readonly(const eh_tensor *t) { return read_data(t, #dt[0] != 0, EH_##dt##_OR_ANY, &(#readonly)[3]); }
#define EH_F32_OR_ANY EH_F32
#define EH_F64_OR_ANY EH_F64
#define EH_I32_OR_ANY EH_I32
#define EH_I64_OR_ANY EH_I64
#define EH_F16_OR_ANY EH_F16
#define EH_BOOL_OR_ANY EH_BOOL
#define EH__OR_ANY EH_F32 /* untyped: not checked */
EH_STORAGE_ACCESSORS(DEFINE_STORAGE_ACCESSOR)

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
