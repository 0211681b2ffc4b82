/* examples/plugin/plugins/blis/backend.c -- the BLIS backend's table and the
 * plugin's init function.
 *
 * The table implements matmul itself and names ref as its delegate: every
 * op whose entry is NULL runs on ref's kernel, and so do custom ops that
 * have no kernel registered for "blis".  eh_backend_load() calls
 * eh_backend_plugin_init once; it registers the table, which libeh checks
 * against its own ABI version, table size and op set. */
#include <blis.h>
#include <stdlib.h>
#include "blis_backend.h"

eh_kernel_fn eh_blis_ref_matmul;

static const eh_backend eh_blis_backend = {
    EH_BACKEND_ABI,
    .name = "blis",
    .description = "out-of-tree plugin: matmul through BLIS, every other op on ref's kernels",
    .kernels = {[EH_OP_matmul] = eh_blis_matmul},
    .delegate = "ref",
};

eh_status EH_PLUGIN_INIT(void)
{
    eh_blis_ref_matmul = eh_backend_kernel(eh_find_backend("ref"), EH_OP_matmul);
    if (!eh_blis_ref_matmul)
        return eh_set_error(EH_ERR_BACKEND, "blis: this libeh has no ref matmul kernel");
    /* as many threads as libeh's own backends use, unless BLIS is told */
    if (!getenv("BLIS_NUM_THREADS") && !getenv("OMP_NUM_THREADS"))
        bli_thread_set_num_threads(eh_num_threads());
    return eh_backend_register(&eh_blis_backend);
}
