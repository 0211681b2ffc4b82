/* backends/lazy/lazy.h -- the lazy backend's private types.
 *
 * Ops record graph nodes (backend.c); nothing is computed until a result
 * is observed.  Evaluation (evaluate.c) walks the graph without recursion
 * and runs maximal regions of same-shape elementwise nodes as one blocked,
 * multithreaded pass (fused.c); every other node runs on the eager kernels
 * of the backend lazy is built over (`blas`).  docs/backends/lazy.md has
 * the whole story.
 *
 * The files form a one-way stack, bottom to top: graph.c (nodes, lock,
 * freeing), fused.c, evaluate.c (and the deferred-tensor hooks),
 * backend.c (the table, limits, recording).  Each node carries the eager
 * backend it runs on, so nothing below backend.c needs its table. */
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
    const eh_backend *exec; /* whose kernels run it (kernels and name only) */
    int n_in, n_out;
    eh_tensor **in;     /* retained until the node is freed          */
    eh_tensor **out;    /* not retained: NULL once that output is gone */
    lazy_out_meta *meta;/* n_out entries                               */
    int live_outputs;   /* outputs still deferred on this node         */
    int depth;          /* 1 + deepest deferred input: a topological key */
    int counts_pending; /* outputs count toward the pending-bytes limit */
} lazy_node;

/* Graph (graph.c); callers hold eh_lazy_lock(). */
void eh_lazy_lock(void);
void eh_lazy_unlock(void);
int eh_lazy_node_fusable(const lazy_node *n);
/* A node for call (inputs retained, outputs not attached yet), run on
 * exec's kernels when evaluated; depth as in lazy_node.  NULL when out of
 * memory. */
lazy_node *eh_lazy_node_new(const eh_op_call *call, const eh_backend *exec, int depth);
/* outs (the call's n->n_out outputs) become n's deferred outputs, with
 * `hooks` as their deferred_ops. */
void eh_lazy_attach_outputs(lazy_node *n, eh_tensor *const *outs, const eh_deferred_ops *hooks);
/* t (a deferred output) has been computed: it stops being deferred, and
 * its node is freed once no output is left on it. */
void eh_lazy_tensor_done(eh_tensor *t);
/* The discard hook: t, still deferred, is being freed (takes the lock). */
void eh_lazy_discard(eh_tensor *t);
/* Bytes of recorded, not yet computed outputs of non-fusable nodes:
 * storage evaluation will need (fusable intermediates never get any). */
size_t eh_lazy_pending_bytes(void);

/* Fused execution of a region: `nodes` in topological order, the last one
 * is the root whose single output gets computed (fused.c). */
eh_status eh_lazy_run_fused(lazy_node *const *nodes, int n_nodes);

/* Evaluation (evaluate.c). */
eh_status eh_lazy_evaluate(eh_tensor *t);
/* The hooks of lazy's deferred tensors: evaluate, and graph.c's discard. */
extern const eh_deferred_ops eh_lazy_hooks;
int eh_lazy_is_deferred(const eh_tensor *t);
lazy_node *eh_lazy_node_of(const eh_tensor *t);

/* Most nodes in one fused region. */
#define LAZY_MAX_REGION 64

#endif
