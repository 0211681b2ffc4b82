/* The `lazy` backend's table, limits and executor.
 *
 * Its kernels are those of the eager backend it runs nodes on (they answer
 * eh_backend_supports, and run a node when evaluation reaches it); its
 * defer hook records calls instead of running them. */
#include <pthread.h>
#include <stdlib.h>
#include "lazy.h"

/* Nodes run on blas's kernels when blas is built, else on ref's. */
#ifdef EH_HAVE_BLAS
#include "../blas/table.h"
#else
#include "../ref/ref.h"
#define EH_OP(name, kind, n_in) EH_IF_KERNEL_##kind([EH_OP_##name] = eh_ref_##name,)
#endif

eh_status eh_lazy_defer(const eh_op_call *call);

const eh_backend eh_lazy_backend = {
    .name = "lazy",
    .description = "records a graph; fuses elementwise chains into one blocked pass",
    .kernels = {
#ifdef EH_HAVE_BLAS
        EH_BLAS_TABLE_ENTRIES
#else
#include <eh/ops.def>
#endif
    },
    .defer = eh_lazy_defer,
};

const eh_backend *eh_lazy_executor(void) { return &eh_lazy_backend; }

static lazy_limits limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static long long env_number(const char *name, long long fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end;
    long long n = strtoll(v, &end, 10);
    return (*end == '\0' && n > 0) ? n : fallback;
}

static void read_limits(void)
{
    limits.max_depth = (int)env_number("EH_LAZY_MAX_DEPTH", 512);
    limits.max_pending_bytes = (size_t)env_number("EH_LAZY_MAX_PENDING", 1LL << 30);
}

const lazy_limits *eh_lazy_limits(void)
{
    pthread_once(&limits_once, read_limits);
    return &limits;
}
