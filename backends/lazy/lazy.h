/* backends/lazy/lazy.h -- the lazy backend's private types.
 *
 * Ops record graph nodes (graph.c); nothing is computed until a result is
 * observed.  Evaluation (evaluate.c) walks the graph without recursion and
 * runs maximal regions of same-shape elementwise nodes as one blocked,
 * multithreaded pass (fused.c); every other node runs on the eager kernels
 * of the backend lazy is built over (`blas`).  docs/backends/lazy.md has
 * the whole story. */
#ifndef EH_LAZY_H
#define EH_LAZY_H

#include <eh/backend_api.h>

/* Shape and dtype of an output, kept so that a node can still run after
 * the caller dropped some of its outputs (qr's r, say). */
typedef struct lazy_out_meta {
    eh_dtype dtype;
    int ndim;
    int64_t shape[EH_MAX_DIMS];
} lazy_out_meta;

/* A recorded op call. */
typedef struct lazy_node {
    eh_op op;
    eh_params p;
    int n_in, n_out;
    eh_tensor **in;     /* retained until the node is freed          */
    eh_tensor **out;    /* not retained: NULL once that output is gone */
    lazy_out_meta *meta;/* n_out entries                               */
    int live_outputs;   /* outputs still deferred on this node         */
    int depth;          /* 1 + deepest deferred input: a topological key */
    int counts_pending; /* outputs count toward the pending-bytes limit */
} lazy_node;

/* Limits that force evaluation (docs/backends/lazy.md). */
typedef struct lazy_limits {
    int max_depth;            /* EH_LAZY_MAX_DEPTH, default 512          */
    size_t max_pending_bytes; /* EH_LAZY_MAX_PENDING, default 1 GiB      */
} lazy_limits;

const lazy_limits *eh_lazy_limits(void);

/* The eager backend nodes run on. */
const eh_backend *eh_lazy_executor(void);

/* Graph (graph.c); callers hold eh_lazy_lock(). */
void eh_lazy_lock(void);
void eh_lazy_unlock(void);
int eh_lazy_is_deferred(const eh_tensor *t);
lazy_node *eh_lazy_node_of(const eh_tensor *t);
int eh_lazy_node_fusable(const lazy_node *n);
/* t (a deferred output) has been computed: it stops being deferred, and
 * its node is freed once no output is left on it. */
void eh_lazy_tensor_done(eh_tensor *t);
/* Bytes of recorded, not yet computed outputs of non-fusable nodes:
 * storage evaluation will need (fusable intermediates never get any). */
size_t eh_lazy_pending_bytes(void);

/* Evaluation (evaluate.c). */
eh_status eh_lazy_evaluate(eh_tensor *t);

/* Fused execution of a region: `nodes` in topological order, the last one
 * is the root whose single output gets computed (fused.c). */
eh_status eh_lazy_run_fused(lazy_node *const *nodes, int n_nodes);

/* Most nodes in one fused region. */
#define LAZY_MAX_REGION 64

#endif
