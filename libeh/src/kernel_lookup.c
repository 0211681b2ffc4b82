/* Which kernel runs an op on a backend: the lookup API of <eh/backend_api.h>.
 *
 * For a built-in op: the table's entry; when it is NULL, the entry of the
 * table's delegate, and so on down the chain.  For a custom op: the kernel
 * registered under the backend's name, then under its delegates' names;
 * then the op's fallback backend (and its delegates); then the op's
 * per-element function, which runs anywhere.  Dispatch, lazy's fused
 * passes, eh_backend_supports and ehinfo all ask here, so they agree. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Longest delegate chain followed: a chain is short, but a cycle built
 * from registration order must not loop forever. */
#define MAX_HOPS 8

static eh_kernel_fn own_kernel(const eh_backend *b, int op)
{
    return op < EH_OP_COUNT ? b->kernels[op] : eh__custom_kernel(op, b->name);
}

/* The kernel of b or of its delegates, for a backend named `name` (which
 * may have kernels registered under it without being a backend). */
static eh_kernel_fn chain_kernel(const char *name, const eh_backend *b, int op, const char **whose)
{
    if (!b) {
        eh_kernel_fn k = op >= EH_OP_COUNT ? eh__custom_kernel(op, name) : NULL;
        if (k)
            *whose = name;
        return k;
    }
    for (int hop = 0; b && hop < MAX_HOPS; hop++) {
        eh_kernel_fn k = own_kernel(b, op);
        if (k) {
            *whose = b->name;
            return k;
        }
        b = b->delegate ? eh_find_backend(b->delegate) : NULL;
    }
    return NULL;
}

eh_kernel_fn eh_backend_kernel_whose(const eh_backend *backend, int op, const char **whose)
{
    const char *ignored;
    if (!whose)
        whose = &ignored;
    *whose = NULL;
    if (!backend || op < 0 || op >= EH_OP_COUNT + eh_custom_op_count())
        return NULL;
    if (op < EH_OP_COUNT && eh_op_kind_of((eh_op)op) == EH_KIND_META)
        return NULL;
    eh_kernel_fn k = chain_kernel(backend->name, backend, op, whose);
    if (k || op < EH_OP_COUNT)
        return k;
    const eh_custom_op_def *def = eh_custom_op_get(op);
    if (!def) /* kernels but no definition: nothing can call it yet */
        return NULL;
    if (def->fallback && (k = chain_kernel(def->fallback, eh_find_backend(def->fallback), op, whose)))
        return k;
    return def->per_element ? eh__per_element_kernel : NULL;
}

eh_kernel_fn eh_backend_kernel(const eh_backend *backend, int op)
{
    return eh_backend_kernel_whose(backend, op, NULL);
}

eh_status eh__no_kernel(const eh_backend *b, int op)
{
    const char *name = eh_op_name(op);
    char via[96] = "";
    const eh_backend *d = b->delegate ? eh_find_backend(b->delegate) : NULL;
    if (d)
        snprintf(via, sizeof via, " (nor by '%s', whose kernels it uses)", d->name);
    if (op < EH_OP_COUNT)
        return eh_set_error(EH_ERR_UNSUPPORTED, "%s: not implemented by backend '%s'%s", name,
                            b->name, via);
    char have[256];
    eh__custom_kernel_backends(op, have, sizeof have);
    const eh_custom_op_def *def = eh_custom_op_get(op);
    char fallback[96] = "";
    if (def && def->fallback)
        snprintf(fallback, sizeof fallback, "; its fallback backend '%s' has none either",
                 def->fallback);
    return eh_set_error(EH_ERR_UNSUPPORTED,
                        "%s: no kernel for backend '%s'%s (%s%s)%s; register one with "
                        "eh_custom_op_kernel(\"%s\", \"%s\", ...)%s",
                        name, b->name, via, have[0] ? "kernels registered for: " : "",
                        have[0] ? have : "no backend has a kernel for it yet", fallback, name,
                        d ? d->name : b->name,
                        def && def->fallback ? "" : " or declare a fallback backend");
}

int eh_backend_supports(const char *name, int op)
{
    eh__backends_ready();
    const eh_backend *b = eh_find_backend(name);
    if (!b || op < 0 || op >= EH_OP_COUNT + eh_custom_op_count())
        return -1;
    if (op < EH_OP_COUNT && eh_op_kind_of((eh_op)op) == EH_KIND_META)
        return 1;
    return eh_backend_kernel(b, op) != NULL;
}
