/* examples/plugin/plugins/blis/blis_backend.h -- the BLIS backend's kernels.
 *
 * An out-of-tree libeh backend, built as a plugin (libeh-blis.so): matmul
 * through BLIS's typed API (bli_sgemm / bli_dgemm) for f32 and f64; every
 * other op, and matmul's other dtypes, run on ref's kernels.  Backend code:
 * it includes <eh/backend_api.h>, and its symbols start with eh_blis_. */
#ifndef EH_BLIS_BACKEND_H
#define EH_BLIS_BACKEND_H

#include <eh/backend_api.h>

/* The kernel of EH_OP_matmul (the contract is libeh/src/ops_linalg.c's). */
eh_status eh_blis_matmul(const eh_op_call *call);

/* ref's matmul kernel, for the dtypes BLIS has no gemm for; found with the
 * lookup API when the plugin is loaded. */
extern eh_kernel_fn eh_blis_ref_matmul;

#endif
