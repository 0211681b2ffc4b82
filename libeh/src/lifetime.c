/* Tensor lifetime: reference counts, and scopes, a thread-local stack of
 * tensor lists (docs/memory.md).
 *
 * A scope holds the creation reference of every tensor made on its thread
 * while it is innermost.  eh_scope_end() drops those references; eh_keep()
 * moves one to the enclosing scope (or to the caller).  Counting and
 * scopes live together because each needs the other: dropping the last
 * reference takes a tensor out of its scope, and ending a scope drops
 * references.  Headers and storage are tensor.c's, below this file. */
#include <stdlib.h>
#include "internal.h"

struct eh_scope {
    struct eh_scope *parent;
    eh_tensor **items;   /* NULL slots are tensors released or kept early */
    size_t count, cap;
};

static _Thread_local struct eh_scope *innermost;
static _Thread_local int depth;

eh_status eh_scope_begin(void)
{
    struct eh_scope *s = eh_mem_calloc(1, sizeof *s);
    if (!s)
        return eh_set_error(EH_ERR_NOMEM, "scope_begin: out of memory");
    s->parent = innermost;
    innermost = s;
    depth++;
    return EH_OK;
}

static int scope_add(struct eh_scope *s, eh_tensor *t)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        eh_tensor **items = eh_mem_realloc(s->items, cap * sizeof *items);
        if (!items)
            return 0;
        s->items = items;
        s->cap = cap;
    }
    t->scope = s;
    t->scope_slot = s->count;
    s->items[s->count++] = t;
    return 1;
}

static void scope_forget(eh_tensor *t)
{
    struct eh_scope *s = t->scope;
    s->items[t->scope_slot] = NULL;
    t->scope = NULL;
    t->scope_slot = 0;
}

eh_tensor *eh__new_tensor(const char *op, int ndim, const int64_t *shape, eh_dtype dtype)
{
    eh_tensor *t = eh__tensor_header(op, ndim, shape, dtype);
    /* A tensor the scope cannot hold would outlive it unseen (code in a
     * scope releases nothing): the op fails instead. */
    if (t && innermost && !scope_add(innermost, t)) {
        eh__tensor_destroy(t);
        eh_set_error(EH_ERR_NOMEM, "%s: out of memory adding a tensor to its scope", op);
        return NULL;
    }
    return t;
}

/* Reference counting with scopes.  A scope holds one reference to each
 * tensor it owns.  eh_release() from the caller either undoes one of the
 * caller's own eh_retain()s or, when there is none, gives up the scope's
 * reference (taking the tensor out of its scope): that is what the caller
 * means in both cases.  Internal holders use eh_tensor_ref/unref, which
 * only count. */
eh_tensor *eh_tensor_ref(const eh_tensor *t)
{
    eh_tensor *m = (eh_tensor *)t; /* refcounts live outside logical constness */
    if (m)
        atomic_fetch_add_explicit(&m->refcount, 1, memory_order_relaxed);
    return m;
}

void eh_tensor_unref(eh_tensor *t)
{
    if (t && atomic_fetch_sub_explicit(&t->refcount, 1, memory_order_acq_rel) == 1) {
        if (t->scope)
            scope_forget(t);
        eh__tensor_destroy(t);
    }
}

eh_tensor *eh_retain(const eh_tensor *t)
{
    eh_tensor *m = (eh_tensor *)t;
    if (m)
        atomic_fetch_add_explicit(&m->user_refs, 1, memory_order_relaxed);
    return eh_tensor_ref(m);
}

void eh_release(eh_tensor *t)
{
    if (!t)
        return;
    int user = atomic_load_explicit(&t->user_refs, memory_order_relaxed);
    if (user > 0)
        atomic_fetch_sub_explicit(&t->user_refs, 1, memory_order_relaxed);
    else if (t->scope)
        scope_forget(t);
    eh_tensor_unref(t);
}

int eh_refcount(const eh_tensor *t)
{
    return t ? atomic_load_explicit(&((eh_tensor *)t)->refcount, memory_order_relaxed) : 0;
}

eh_status eh_scope_end(void)
{
    struct eh_scope *s = innermost;
    if (!s)
        return eh_set_error(EH_ERR_SCOPE, "scope_end: no scope is open");
    innermost = s->parent;
    depth--;
    for (size_t k = 0; k < s->count; k++) {
        eh_tensor *t = s->items[k];
        if (t) {
            scope_forget(t);
            eh_tensor_unref(t);
        }
    }
    eh_mem_free(s->items);
    eh_mem_free(s);
    return EH_OK;
}

eh_tensor *eh_keep(eh_tensor *t)
{
    if (!t || !t->scope)
        return t;
    struct eh_scope *parent = t->scope->parent;
    scope_forget(t);
    if (parent)
        (void)scope_add(parent, t);
    return t;
}

eh_tensor *eh__own(eh_tensor *t)
{
    if (t && t->scope)
        scope_forget(t);
    return t;
}

int eh_scope_depth(void) { return depth; }
