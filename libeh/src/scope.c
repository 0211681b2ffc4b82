/* Scopes: a thread-local stack of tensor lists (docs/memory.md).
 *
 * A scope holds the creation reference of every tensor made on its thread
 * while it is innermost.  eh_scope_end() drops those references; eh_keep()
 * moves one to the enclosing scope (or to the caller). */
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
    struct eh_scope *s = calloc(1, sizeof *s);
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
        eh_tensor **items = realloc(s->items, cap * sizeof *items);
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

void eh__scope_adopt(eh_tensor *t)
{
    /* If the list cannot grow the tensor stays with the caller, which is
     * what code without scopes expects anyway. */
    if (innermost)
        (void)scope_add(innermost, t);
}

void eh__scope_forget(eh_tensor *t)
{
    struct eh_scope *s = t->scope;
    s->items[t->scope_slot] = NULL;
    t->scope = NULL;
    t->scope_slot = 0;
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
            eh__scope_forget(t);
            eh_tensor_unref(t);
        }
    }
    free(s->items);
    free(s);
    return EH_OK;
}

eh_tensor *eh_keep(eh_tensor *t)
{
    if (!t || !t->scope)
        return t;
    struct eh_scope *parent = t->scope->parent;
    eh__scope_forget(t);
    if (parent)
        (void)scope_add(parent, t);
    return t;
}

eh_tensor *eh__own(eh_tensor *t)
{
    if (t && t->scope)
        eh__scope_forget(t);
    return t;
}

int eh_scope_depth(void) { return depth; }
