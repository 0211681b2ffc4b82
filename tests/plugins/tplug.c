/* tests/plugins/tplug.c -- a small backend plugin, built several ways for
 * tests/libeh/test_plugin.c (the Makefile's TEST_PLUGINS, one shared object
 * per variant under $(BUILD)/tests/plugins/):
 *
 *   libeh-tplug.so            the good plugin: backend "tplug" with its own
 *                             `negative` kernel, everything else delegated
 *                             to ref; it defines custom op "tplug.marker"
 *                             (fills its output with 42) with a kernel for
 *                             "tplug" only, and "tplug.twice" (2x, by a
 *                             per-element function: no kernel anywhere)
 *   -DTPLUG_NAME='"x"'        registers under another name
 *   -DTPLUG_ABI=99            a table from another ABI version
 *   -DTPLUG_SIZE_DELTA=8      a table of another size (another op set)
 *   -DTPLUG_DELEGATE='"x"'    delegates to backend x
 *   -DTPLUG_FAIL_SILENTLY     an init that fails without saying why
 *   -DTPLUG_UNDEFINED         calls a libeh function that does not exist
 *   -DTPLUG_NO_INIT           exports no init function: not a plugin */
#include <stdint.h>
#include <string.h>
#include <eh/backend_api.h>

#ifndef TPLUG_NAME
#define TPLUG_NAME "tplug"
#endif
#ifndef TPLUG_DELEGATE
#define TPLUG_DELEGATE "ref"
#endif

static eh_status tplug_negative(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    eh_tensor *y = call->out[0];
    for (int64_t i = 0; i < x->size; i++) {
        switch (x->dtype) {
        case EH_I32: {
            uint32_t v;
            memcpy(&v, (const char *)x->data + 4 * i, 4);
            v = 0u - v; /* wraps, as ref's does */
            memcpy((char *)y->data + 4 * i, &v, 4);
            break;
        }
        case EH_I64: {
            uint64_t v;
            memcpy(&v, (const char *)x->data + 8 * i, 8);
            v = 0u - v;
            memcpy((char *)y->data + 8 * i, &v, 8);
            break;
        }
        default: /* exact in double for every float dtype */
            eh_store_f64(y->data, y->dtype, i, -eh_load_f64(x->data, x->dtype, i));
        }
    }
    return EH_OK;
}

static double tplug_twice(const double *x, const void *params)
{
    (void)params;
    return 2 * x[0];
}

static eh_status tplug_marker(const eh_op_call *call)
{
    for (int64_t i = 0; call && i < call->out[0]->size; i++)
        eh_store_f64(call->out[0]->data, call->out[0]->dtype, i, 42);
    return EH_OK;
}

static const eh_backend table = {
#if defined(TPLUG_ABI) || defined(TPLUG_SIZE_DELTA)
#ifndef TPLUG_ABI
#define TPLUG_ABI EH_BACKEND_ABI_VERSION
#endif
#ifndef TPLUG_SIZE_DELTA
#define TPLUG_SIZE_DELTA 0
#endif
    .abi_version = TPLUG_ABI,
    .size = (uint32_t)(sizeof(eh_backend) + TPLUG_SIZE_DELTA),
    .op_set = (uint32_t)EH_OP_SET_ID,
#else
    EH_BACKEND_ABI,
#endif
    .name = TPLUG_NAME,
    .description = "test plugin: own negative, the rest from " TPLUG_DELEGATE,
    .kernels = {[EH_OP_negative] = tplug_negative},
    .delegate = TPLUG_DELEGATE,
};

#ifdef TPLUG_UNDEFINED
eh_status eh_no_such_function(void);
#endif

#ifndef TPLUG_NO_INIT
eh_status EH_PLUGIN_INIT(void)
{
#ifdef TPLUG_FAIL_SILENTLY
    if (table.name) /* fails before registering anything, with no message */
        return EH_ERR_INTERNAL;
#endif
#ifdef TPLUG_UNDEFINED
    eh_no_such_function();
#endif
    static const eh_custom_op_def marker = {
        .name = "tplug.marker", .n_in = 1, .n_out = 1, .rule = EH_CUSTOM_SAME_AS_INPUT};
    static const eh_custom_op_def twice = {.name = "tplug.twice", .n_in = 1, .n_out = 1,
                                           .rule = EH_CUSTOM_ELEMENTWISE,
                                           .per_element = tplug_twice};
    eh_status st = eh_backend_register(&table);
    if (st == EH_OK)
        st = eh_custom_op_define(&marker);
    if (st == EH_OK)
        st = eh_custom_op_define(&twice);
    if (st == EH_OK)
        st = eh_custom_op_kernel("tplug.marker", TPLUG_NAME, tplug_marker);
    return st;
}
#else
/* something to export, so it is a real shared object */
int tplug_not_a_plugin(void);
int tplug_not_a_plugin(void)
{
    return table.kernels[EH_OP_negative] != NULL && tplug_marker(NULL) == EH_OK &&
           tplug_twice((const double[]){1}, NULL) == 2;
}
#endif
