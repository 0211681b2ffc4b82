/* Evaluating deferred tensors: an explicit stack instead of recursion.
 *
 * The tensor on top of the stack is computed once every input of its
 * region is materialized; missing inputs are pushed first.  A region is the
 * node itself or, for an elementwise node, the largest set of same-shape
 * single-output elementwise nodes feeding it (up to LAZY_MAX_REGION),
 * which fused.c runs in one pass.  Nodes inside a region are not
 * materialized: if something else observes them later they are computed
 * then, from their own inputs.
 *
 * Also here: the hooks libeh calls on a deferred tensor (evaluate, and
 * graph.c's discard), whose table tells lazy's deferred tensors from
 * others.  Above graph.c and fused.c; below backend.c, which records. */
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "lazy.h"

static eh_status lazy_evaluate_hook(eh_tensor *t) { return eh_lazy_evaluate(t); }

const eh_deferred_ops eh_lazy_hooks = {
    .evaluate = lazy_evaluate_hook,
    .discard = eh_lazy_discard,
};

int eh_lazy_is_deferred(const eh_tensor *t) { return t->deferred_ops == &eh_lazy_hooks; }

lazy_node *eh_lazy_node_of(const eh_tensor *t)
{
    return eh_lazy_is_deferred(t) ? (lazy_node *)t->deferred : NULL;
}

typedef struct region {
    lazy_node *nodes[LAZY_MAX_REGION];
    int n;
} region;

static int same_shape(const eh_tensor *a, const eh_tensor *b)
{
    return a->ndim == b->ndim &&
           memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof a->shape[0]) == 0;
}

static int in_region(const region *r, const lazy_node *n)
{
    for (int k = 0; k < r->n; k++)
        if (r->nodes[k] == n)
            return 1;
    return 0;
}

/* Collect the region rooted at `root` (breadth first), then order it by
 * depth: a node's inputs are always shallower, so that is topological. */
static void build_region(lazy_node *root, region *r)
{
    r->n = 0;
    r->nodes[r->n++] = root;
    if (!eh_lazy_node_fusable(root))
        return;
    const eh_tensor *shape = root->out[0];
    for (int q = 0; q < r->n; q++) {
        lazy_node *n = r->nodes[q];
        for (int k = 0; k < n->n_in && r->n < LAZY_MAX_REGION; k++) {
            lazy_node *m = eh_lazy_node_of(n->in[k]);
            if (m && eh_lazy_node_fusable(m) && same_shape(n->in[k], shape) && !in_region(r, m))
                r->nodes[r->n++] = m;
        }
    }
    /* insertion sort by depth, deepest (the root) last */
    for (int i = 1; i < r->n; i++) {
        lazy_node *x = r->nodes[i];
        int j = i - 1;
        while (j >= 0 && r->nodes[j]->depth > x->depth) {
            r->nodes[j + 1] = r->nodes[j];
            j--;
        }
        r->nodes[j + 1] = x;
    }
}

/* reshape, expand_dims and squeeze only re-describe their input's
 * elements: the output (still wanted by its owner) shares the now
 * materialized input's storage instead of a copy, as the frontend's views
 * of materialized tensors do.  1 when done. */
static int run_as_view(lazy_node *n)
{
    if ((n->op != EH_OP_reshape && n->op != EH_OP_expand_dims && n->op != EH_OP_squeeze) ||
        n->n_in != 1 || n->n_out != 1 || !n->out[0] || eh_lazy_node_of(n->in[0]))
        return 0;
    eh_tensor *out = n->out[0];
    if (!eh_tensor_share_data(out, n->in[0]))
        return 0;
    eh_lazy_tensor_done(out); /* frees n when it was its last output */
    return 1;
}

/* Run a non-fusable node on the executor.  Outputs their owners already
 * dropped still need somewhere to go: scratch tensors, freed after. */
static eh_status run_single(lazy_node *n)
{
    if (run_as_view(n))
        return EH_OK;
    int n_out = n->n_out;
    eh_tensor **outs = eh_mem_calloc((size_t)(n_out > 0 ? 2 * n_out : 1), sizeof *outs);
    if (!outs)
        return eh_set_error(EH_ERR_NOMEM, "%s: out of memory", eh_op_name(n->op));
    eh_tensor **live = outs + n_out;
    int n_live = 0;
    eh_status st = EH_OK;
    for (int k = 0; k < n_out && st == EH_OK; k++) {
        outs[k] = n->out[k];
        if (outs[k]) {
            live[n_live++] = outs[k];
        } else {
            outs[k] = eh_tensor_new(n->meta[k].ndim, n->meta[k].shape, n->meta[k].dtype);
            if (!outs[k])
                st = eh_last_error();
        }
    }
    if (st == EH_OK) {
        eh_op_call call = {.op = n->op, .n_in = n->n_in, .in = (const eh_tensor *const *)n->in,
                           .n_out = n_out, .out = outs, .p = n->p};
        st = eh_run_kernel(n->exec, &call);
    }
    for (int k = 0; k < n_out; k++)
        if (outs[k] && !n->out[k])
            eh_tensor_unref(outs[k]); /* scratch */
    /* The last one done frees n: nothing may touch n after this loop. */
    for (int k = 0; st == EH_OK && k < n_live; k++)
        eh_lazy_tensor_done(live[k]);
    eh_mem_free(outs);
    return st;
}

/* Push every deferred input of the region that lies outside it. */
static int push_missing(const region *r, eh_tensor ***stack, size_t *len, size_t *cap)
{
    int pushed = 0;
    for (int i = 0; i < r->n; i++) {
        lazy_node *n = r->nodes[i];
        for (int k = 0; k < n->n_in; k++) {
            eh_tensor *x = n->in[k];
            lazy_node *m = eh_lazy_node_of(x);
            if (!m || in_region(r, m))
                continue;
            if (*len == *cap) {
                size_t c = *cap ? *cap * 2 : 64;
                eh_tensor **s = eh_mem_realloc(*stack, c * sizeof *s);
                if (!s)
                    return -1;
                *stack = s;
                *cap = c;
            }
            (*stack)[(*len)++] = eh_tensor_ref(x);
            pushed = 1;
        }
    }
    return pushed;
}

eh_status eh_lazy_evaluate(eh_tensor *target)
{
    eh_lazy_lock();
    eh_tensor **stack = NULL;
    size_t len = 0, cap = 0;
    eh_status st = EH_OK;
    region r;
    if (eh_lazy_is_deferred(target)) {
        stack = eh_mem_alloc(64 * sizeof *stack);
        if (!stack)
            st = eh_set_error(EH_ERR_NOMEM, "eval: out of memory");
        else {
            cap = 64;
            stack[len++] = eh_tensor_ref(target);
        }
    }
    while (st == EH_OK && len > 0) {
        eh_tensor *t = stack[len - 1];
        lazy_node *n = eh_lazy_node_of(t);
        if (!n) { /* computed meanwhile (shared input) */
            eh_tensor_unref(stack[--len]);
            continue;
        }
        build_region(n, &r);
        int pushed = push_missing(&r, &stack, &len, &cap);
        if (pushed < 0) {
            st = eh_set_error(EH_ERR_NOMEM, "eval: out of memory");
            break;
        }
        if (pushed)
            continue;
        st = r.n > 1 ? eh_lazy_run_fused(r.nodes, r.n) : run_single(n);
        if (st == EH_OK)
            eh_tensor_unref(stack[--len]);
    }
    while (len > 0)
        eh_tensor_unref(stack[--len]);
    eh_mem_free(stack);
    eh_lazy_unlock();
    return st;
}
