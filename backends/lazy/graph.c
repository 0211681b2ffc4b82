/* The lazy graph: nodes, the lock that guards them, and freeing them.
 *
 * A deferred output points at its node (t->deferred); the node retains its
 * inputs.  Freeing cascades (an output goes, its node goes, the node
 * releases inputs that may be deferred outputs themselves...), so it runs
 * from a worklist, never by recursion: a 100,000-node chain is freed with
 * constant stack.
 *
 * The bottom of the backend: evaluate.c (above) computes nodes and holds
 * the hooks libeh calls on a deferred tensor; backend.c (the top) records
 * calls as nodes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <eh/backend_alloc.h>
#include "lazy.h"

static pthread_mutex_t graph_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static size_t pending_bytes;

static void init_lock(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&graph_lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

void eh_lazy_lock(void)
{
    pthread_once(&lock_once, init_lock);
    pthread_mutex_lock(&graph_lock);
}

void eh_lazy_unlock(void) { pthread_mutex_unlock(&graph_lock); }

size_t eh_lazy_pending_bytes(void) { return pending_bytes; }

int eh_lazy_node_fusable(const lazy_node *n)
{
    return n->n_out == 1 && eh_op_is_elementwise(n->op);
}

/* ---- making nodes ---- */

lazy_node *eh_lazy_node_new(const eh_op_call *call, const eh_backend *exec, int depth)
{
    size_t bytes = sizeof(lazy_node) + (size_t)call->n_out * sizeof(lazy_out_meta) +
                   (size_t)(call->n_in + call->n_out) * sizeof(eh_tensor *);
    /* A custom op's params blob is the caller's memory: the node keeps a
     * copy, aligned for any type, at its end. */
    size_t align = _Alignof(max_align_t);
    size_t blob_at = (bytes + align - 1) / align * align;
    if (call->p.blob_size)
        bytes = blob_at + call->p.blob_size;
    lazy_node *n = eh_mem_alloc(bytes);
    if (!n)
        return NULL;
    memset(n, 0, sizeof *n);
    n->op = call->op;
    n->p = call->p;
    if (call->p.blob_size)
        n->p.blob = memcpy((char *)n + blob_at, call->p.blob, call->p.blob_size);
    n->n_in = call->n_in;
    n->n_out = call->n_out;
    n->exec = exec;
    n->depth = depth;
    n->meta = (lazy_out_meta *)(n + 1);
    n->in = (eh_tensor **)(n->meta + call->n_out);
    n->out = n->in + call->n_in;
    for (int k = 0; k < call->n_out; k++) {
        const eh_tensor *t = call->out[k];
        n->meta[k].dtype = t->dtype;
        n->meta[k].ndim = t->ndim;
        memcpy(n->meta[k].shape, t->shape, sizeof t->shape);
    }
    for (int k = 0; k < call->n_in; k++)
        n->in[k] = eh_tensor_ref(call->in[k]);
    n->counts_pending = !eh_lazy_node_fusable(n);
    return n;
}

void eh_lazy_attach_outputs(lazy_node *n, eh_tensor *const *outs, const eh_deferred_ops *hooks)
{
    for (int k = 0; k < n->n_out; k++) {
        eh_tensor *t = outs[k];
        n->out[k] = t;
        t->deferred = n;
        t->deferred_ops = hooks;
        if (n->counts_pending)
            pending_bytes += t->nbytes;
    }
    n->live_outputs = n->n_out;
}

/* ---- freeing, by worklist ---- */

static _Thread_local lazy_node **graveyard;
static _Thread_local size_t graveyard_len, graveyard_cap;
static _Thread_local int draining;

static void free_node_now(lazy_node *n)
{
    for (int k = 0; k < n->n_in; k++)
        eh_tensor_unref(n->in[k]); /* may bury more nodes: they wait in the graveyard */
    eh_mem_free(n);
}

static void bury(lazy_node *n)
{
    if (graveyard_len == graveyard_cap) {
        size_t cap = graveyard_cap ? graveyard_cap * 2 : 64;
        lazy_node **g = eh_mem_realloc(graveyard, cap * sizeof *g);
        if (!g) {
            /* No room to defer the work: free it here.  Recursion depth is
             * then bounded by how long memory stays exhausted. */
            free_node_now(n);
            return;
        }
        graveyard = g;
        graveyard_cap = cap;
    }
    graveyard[graveyard_len++] = n;
    if (draining)
        return;
    draining = 1;
    while (graveyard_len > 0)
        free_node_now(graveyard[--graveyard_len]);
    draining = 0;
    eh_mem_free(graveyard);
    graveyard = NULL;
    graveyard_cap = 0;
}

static void detach_output(lazy_node *n, eh_tensor *t)
{
    for (int k = 0; k < n->n_out; k++)
        if (n->out[k] == t)
            n->out[k] = NULL;
    t->deferred = NULL;
    /* Publishes t's data to threads reading t without the lock
     * (eh_materialize's acquire load): its last write. */
    __atomic_store_n(&t->deferred_ops, NULL, __ATOMIC_RELEASE);
    if (--n->live_outputs == 0)
        bury(n);
}

void eh_lazy_discard(eh_tensor *t)
{
    eh_lazy_lock();
    eh_lazy_tensor_done(t);
    eh_lazy_unlock();
}

void eh_lazy_tensor_done(eh_tensor *t)
{
    lazy_node *n = t->deferred;
    if (n->counts_pending)
        pending_bytes -= t->nbytes;
    detach_output(n, t);
}
