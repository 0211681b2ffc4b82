/* backends/ref/ref.h -- the reference backend's kernels.
 *
 * `ref` defines the semantics every other backend is tested against:
 * plain, portable C (libm only).  One kernel per op in libeh/ops.def,
 * declared here from that list; each group of ops lives in its own file
 * (creation.c, shape.c, elementwise.c, ...).  Other backends may point
 * their table at these kernels where they have nothing faster. */
#ifndef EH_REF_H
#define EH_REF_H

#include <eh/backend_api.h>

#define EH_OP(name, kind, n_in) EH_IF_KERNEL_##kind(eh_status eh_ref_##name(const eh_op_call *call);)
#include <eh/ops.def>

#endif
