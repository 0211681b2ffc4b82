/* A backend table with two kernels: every other op of libeh is missing. */
#include <eh/backend_api.h>

eh_status eh_gpu_add(const eh_op_call *call);
eh_status eh_gpu_matmul(const eh_op_call *call);

const eh_backend eh_gpu_backend = {              // expect: EH105
    .name = "gpu",
    .description = "a partial GPU backend",
    .kernels = {
        [EH_OP_add] = eh_gpu_add,
        [EH_OP_matmul] = eh_gpu_matmul,
    },
};
