/* The `lazy` backend's table, its limits, and its defer hook, which
 * records calls as graph nodes instead of running them.
 *
 * Its kernels are those of the eager backend it runs nodes on (they answer
 * eh_backend_supports, and run a node when evaluation reaches it): each
 * node records this table as its executor.  The top of the backend: it
 * uses evaluate.c and graph.c, and nothing uses it but libeh. */
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

static eh_status lazy_defer(const eh_op_call *call);

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
    .defer = lazy_defer,
    /* custom ops run on the kernels of the backend nodes are evaluated on */
#ifdef EH_HAVE_BLAS
    .delegate = "blas",
#else
    .delegate = "ref",
#endif
};

/* Limits that force evaluation (docs/backends/lazy.md). */
typedef struct lazy_limits {
    int max_depth;            /* EH_LAZY_MAX_DEPTH, default 512          */
    size_t max_pending_bytes; /* EH_LAZY_MAX_PENDING, default 1 GiB      */
} lazy_limits;

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

static const lazy_limits *lazy_limits_get(void)
{
    pthread_once(&limits_once, read_limits);
    return &limits;
}

/* ---- recording ---- */

/* 1 + the depth of the deepest deferred input (1 when none). */
static int call_depth(const eh_op_call *call)
{
    int depth = 1;
    for (int k = 0; k < call->n_in; k++) {
        const lazy_node *m = eh_lazy_node_of(call->in[k]);
        if (m && m->depth + 1 > depth)
            depth = m->depth + 1;
    }
    return depth;
}

/* The defer hook: record the call, or run it now when a limit is hit. */
static eh_status lazy_defer(const eh_op_call *call)
{
    eh_lazy_lock();
    lazy_node *n = eh_lazy_node_new(call, &eh_lazy_backend, call_depth(call));
    if (!n) {
        eh_lazy_unlock();
        return eh_set_error(EH_ERR_NOMEM, "%s: out of memory recording a lazy node",
                            eh_op_name(call->op));
    }
    eh_lazy_attach_outputs(n, call->out, &eh_lazy_hooks);
    const lazy_limits *lim = lazy_limits_get();
    eh_status st = EH_OK;
    if (n->depth >= lim->max_depth || eh_lazy_pending_bytes() > lim->max_pending_bytes)
        st = eh_lazy_evaluate(call->out[0]);
    eh_lazy_unlock();
    return st;
}
