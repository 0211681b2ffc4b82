/* Fused execution: a region of same-shape elementwise nodes computed in one
 * pass over the output, block by block, on several threads.
 *
 * For each block of BLOCK elements every node runs its executor kernel on
 * block-sized views: inputs from inside the region read the producing
 * node's scratch block, inputs from outside read the leaf directly (same
 * shape: a slice; one element: a 0-d view; anything else broadcast: a
 * gathered copy of the block).  The root writes straight into its output.
 * Intermediates never exist at full size, and each kernel call covers a
 * whole block, so there is no per-element dispatch. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <eh/backend_alloc.h>
#include "lazy.h"

/* Elements per block: each node's kernel is one call per block (about
 * 0.15 us of dispatch), so smaller blocks pay that more often (the chain
 * sqrt(abs(tanh((x-m)/s)*3+1)) on 1e7 f32, one thread: 19.5 ms at 2048,
 * 17.0 at 4096, 16.3 at 8192, 16.0 at 16384); the two scratch slots of a
 * chain (64 KB each at most) stay in L2. */
#define BLOCK 8192

typedef enum { SRC_NODE, SRC_SLICE, SRC_SCALAR, SRC_GATHER } src_kind;

typedef struct source {
    src_kind kind;
    int index;              /* SRC_NODE: region node; SRC_GATHER: gather slot */
    const eh_tensor *leaf;  /* other kinds */
} source;

typedef struct plan {
    lazy_node *const *nodes;
    int n;
    eh_tensor *root;
    int64_t total, n_blocks;
    source src[LAZY_MAX_REGION][3];
    const eh_tensor *gather[LAZY_MAX_REGION * 3];
    int64_t gather_strides[LAZY_MAX_REGION * 3][EH_MAX_DIMS];
    int n_gather;
    const eh_backend *exec;
    eh_kernel_fn kernel[LAZY_MAX_REGION]; /* per node, from eh_backend_kernel */
    int slot_of[LAZY_MAX_REGION];         /* per node: its scratch slot        */
    int n_slots;
    pthread_mutex_t err_lock;
    eh_status err;  /* the first error: set under err_lock, polled atomically */
    char err_msg[256];
} plan;

/* The region node x is the output of, or -1 (x comes from outside).
 * Region nodes have one output each, which their consumers retain. */
static int producer_index(const plan *p, const eh_tensor *x)
{
    for (int i = 0; i < p->n; i++)
        if (p->nodes[i]->out[0] == x)
            return i;
    return -1;
}

static void make_plan(plan *p)
{
    const eh_tensor *root = p->root;
    for (int i = 0; i < p->n; i++) {
        const lazy_node *nd = p->nodes[i];
        for (int k = 0; k < nd->n_in; k++) {
            const eh_tensor *x = nd->in[k];
            source *s = &p->src[i][k];
            int idx = producer_index(p, x);
            if (idx >= 0) {
                s->kind = SRC_NODE;
                s->index = idx;
            } else if (x->size == root->size) {
                s->kind = SRC_SLICE; /* broadcastable and as large: same layout */
                s->leaf = x;
            } else if (x->size == 1) {
                s->kind = SRC_SCALAR;
                s->leaf = x;
            } else {
                s->kind = SRC_GATHER;
                s->leaf = x;
                s->index = p->n_gather;
                p->gather[p->n_gather] = x;
                eh_broadcast_strides(x, root->ndim, root->shape, p->gather_strides[p->n_gather]);
                p->n_gather++;
            }
        }
    }
}

/* Scratch slots by liveness: a node's block lives until its last consumer
 * in the region has run, then its slot serves a later node.  A chain needs
 * two slots, so a block's intermediates stay in L1/L2 instead of walking
 * through one slot per node.  A node never writes the slot of one of its
 * own inputs (the kernels' loops are not promised to run in place). */
static void assign_slots(plan *p)
{
    int last_use[LAZY_MAX_REGION], owner[LAZY_MAX_REGION];
    for (int i = 0; i < p->n; i++)
        last_use[i] = i;
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < p->nodes[i]->n_in; k++)
            if (p->src[i][k].kind == SRC_NODE && last_use[p->src[i][k].index] < i)
                last_use[p->src[i][k].index] = i;
    p->n_slots = 0;
    for (int i = 0; i < p->n - 1; i++) { /* the root writes the output */
        int slot = -1;
        for (int sl = 0; sl < p->n_slots && slot < 0; sl++)
            if (last_use[owner[sl]] < i)
                slot = sl;
        if (slot < 0)
            slot = p->n_slots++;
        owner[slot] = i;
        p->slot_of[i] = slot;
    }
}

static void view(eh_tensor *h, eh_dtype dtype, int scalar, int64_t len, void *data)
{
    memset(h, 0, sizeof *h);
    atomic_init(&h->refcount, 1);
    h->dtype = dtype;
    h->ndim = scalar ? 0 : 1;
    h->shape[0] = len;
    h->size = scalar ? 1 : len;
    h->nbytes = (size_t)h->size * eh_dtype_size(dtype);
    h->data = data;
}

/* Copy the elements of broadcast leaf g that land on [off, off + len). */
static void gather_block(const plan *p, int g, int64_t off, int64_t len, char *dst)
{
    const eh_tensor *x = p->gather[g], *root = p->root;
    size_t esz = eh_dtype_size(x->dtype);
    const int64_t *st = p->gather_strides[g];
    int nd = root->ndim;
    int64_t idx[EH_MAX_DIMS], rem = off;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rem % root->shape[d];
        rem /= root->shape[d];
    }
    for (int64_t i = 0; i < len; i++) {
        int64_t o = 0;
        for (int d = 0; d < nd; d++)
            o += idx[d] * st[d];
        memcpy(dst + (size_t)i * esz, (const char *)x->data + (size_t)o * esz, esz);
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < root->shape[d])
                break;
            idx[d] = 0;
        }
    }
}

static void record_error(plan *p, eh_status st)
{
    pthread_mutex_lock(&p->err_lock);
    if (p->err == EH_OK) {
        snprintf(p->err_msg, sizeof p->err_msg, "%s", eh_error_message());
        /* atomic: run_blocks polls it without the lock to stop early */
        __atomic_store_n(&p->err, st, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&p->err_lock);
}

static void run_blocks(void *ctx, int64_t b0, int64_t b1, int worker)
{
    (void)worker;
    plan *p = ctx;
    size_t slot = BLOCK * sizeof(double);
    char *scratch = eh_mem_alloc(slot * (size_t)(p->n_slots + p->n_gather + 1));
    if (!scratch) {
        eh_set_error(EH_ERR_NOMEM, "%s: out of memory for fused scratch", eh_op_name(p->nodes[p->n - 1]->op));
        record_error(p, EH_ERR_NOMEM);
        return;
    }
    char *gathered = scratch + slot * (size_t)p->n_slots;
    for (int64_t b = b0; b < b1 && __atomic_load_n(&p->err, __ATOMIC_RELAXED) == EH_OK; b++) {
        int64_t off = b * BLOCK;
        int64_t len = p->total - off < BLOCK ? p->total - off : BLOCK;
        for (int g = 0; g < p->n_gather; g++)
            gather_block(p, g, off, len, gathered + slot * (size_t)g);
        for (int i = 0; i < p->n; i++) {
            const lazy_node *nd = p->nodes[i];
            eh_tensor in_views[3], out_view;
            const eh_tensor *in[3];
            for (int k = 0; k < nd->n_in; k++) {
                const source *s = &p->src[i][k];
                const eh_tensor *x = nd->in[k];
                size_t esz = eh_dtype_size(x->dtype);
                switch (s->kind) {
                case SRC_NODE: view(&in_views[k], x->dtype, 0, len, scratch + slot * (size_t)p->slot_of[s->index]); break;
                case SRC_SLICE: view(&in_views[k], x->dtype, 0, len, (char *)x->data + (size_t)off * esz); break;
                case SRC_SCALAR: view(&in_views[k], x->dtype, 1, 1, x->data); break;
                case SRC_GATHER: view(&in_views[k], x->dtype, 0, len, gathered + slot * (size_t)s->index); break;
                }
                in[k] = &in_views[k];
            }
            eh_dtype odt = nd->meta[0].dtype;
            void *dst = i == p->n - 1 ? (char *)p->root->data + (size_t)off * eh_dtype_size(odt)
                                      : scratch + slot * (size_t)p->slot_of[i];
            view(&out_view, odt, 0, len, dst);
            eh_tensor *out[1] = {&out_view};
            eh_op_call call = {.op = nd->op, .n_in = nd->n_in, .in = in, .n_out = 1, .out = out, .p = nd->p};
            eh_status st = p->kernel[i](&call);
            if (st != EH_OK) {
                record_error(p, st);
                break;
            }
        }
    }
    eh_mem_free(scratch);
}

eh_status eh_lazy_run_fused(lazy_node *const *nodes, int n_nodes)
{
    plan *p = eh_mem_calloc(1, sizeof *p);
    if (!p)
        return eh_set_error(EH_ERR_NOMEM, "%s: out of memory", eh_op_name(nodes[n_nodes - 1]->op));
    p->nodes = nodes;
    p->n = n_nodes;
    p->root = nodes[n_nodes - 1]->out[0];
    p->exec = nodes[n_nodes - 1]->exec;
    pthread_mutex_init(&p->err_lock, NULL);
    for (int i = 0; i < n_nodes; i++) {
        /* custom ops (and delegated entries) resolve through the lookup */
        if (!(p->kernel[i] = eh_backend_kernel(p->exec, nodes[i]->op))) {
            eh_status st = eh_set_error(EH_ERR_UNSUPPORTED, "%s: not implemented by backend '%s'",
                                        eh_op_name(nodes[i]->op), p->exec->name);
            pthread_mutex_destroy(&p->err_lock);
            eh_mem_free(p);
            return st;
        }
    }
    eh_status st = eh_tensor_alloc_data(p->root);
    if (st == EH_OK) {
        make_plan(p);
        assign_slots(p);
        p->total = p->root->size;
        p->n_blocks = (p->total + BLOCK - 1) / BLOCK;
        eh_parallel_for(p->n_blocks, 4, run_blocks, p);
        st = p->err;
        if (st != EH_OK)
            eh_set_error(st, "%s", p->err_msg);
    }
    eh_tensor *root = p->root;
    pthread_mutex_destroy(&p->err_lock);
    eh_mem_free(p);
    if (st == EH_OK)
        eh_lazy_tensor_done(root);
    return st;
}
