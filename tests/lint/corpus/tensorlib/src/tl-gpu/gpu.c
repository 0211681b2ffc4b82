/* The GPU backend: compute is still missing. */
#include <stddef.h>
#include "../tl-backend-impl.h"

static const char *gpu_name(tl_backend *b) { (void)b; return "gpu"; }
static void gpu_free(tl_backend *b) { (void)b; }
static void gpu_sync(tl_backend *b) { (void)b; }

const struct tl_backend_i tl_gpu_i = {          // expect: EH105
    .get_name = gpu_name,
    .free = gpu_free,
    .compute = NULL,
    .sync = gpu_sync,
};
