/* The legacy reference backend's entry points. */
#ifndef REF_OPS_H
#define REF_OPS_H

#include <eh/backend_api.h>

eh_status eh_ref_matmul(const eh_op_call *call);
float eh_ref_sum(const float *x, int n);

#endif
