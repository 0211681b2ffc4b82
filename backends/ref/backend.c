/* The `ref` backend's table: every kernel op in libeh/ops.def. */
#include "ref.h"

const eh_backend eh_ref_backend = {
    .name = "ref",
    .description = "portable C reference; defines the semantics",
    .kernels = {
#define EH_OP(name, kind, n_in) EH_IF_KERNEL_##kind([EH_OP_##name] = eh_ref_##name,)
#include <eh/ops.def>
    },
};
