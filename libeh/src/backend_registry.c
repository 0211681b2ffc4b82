/* The built-in backends, the current choice, and op-set queries. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include "internal.h"

/* Each backend defines its table in backends/<name>/backend.c. */
extern const eh_backend eh_ref_backend;
#ifdef EH_HAVE_BLAS
extern const eh_backend eh_blas_backend;
#endif
#ifdef EH_HAVE_LAZY
extern const eh_backend eh_lazy_backend;
#endif

/* Best first: the default without EH_BACKEND is the first entry.  Eager
 * backends come before lazy so that, by default, errors surface at the
 * call that caused them. */
static const eh_backend *const builtin[] = {
#ifdef EH_HAVE_BLAS
    &eh_blas_backend,
#endif
    &eh_ref_backend,
#ifdef EH_HAVE_LAZY
    &eh_lazy_backend,
#endif
};
#define N_BUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

static _Atomic(const eh_backend *) current;
static char bad_env_name[64]; /* EH_BACKEND's value when it named nothing */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void choose_default(void)
{
    const char *env = getenv("EH_BACKEND");
    if (env && *env) {
        const eh_backend *b = eh_find_backend(env);
        if (!b)
            snprintf(bad_env_name, sizeof bad_env_name, "%s", env);
        atomic_store(&current, b);
        return;
    }
    atomic_store(&current, builtin[0]);
}

static const char *available_names(void)
{
    static _Thread_local char buf[128];
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < N_BUILTIN && len < sizeof buf; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, k ? ", %s" : "%s", builtin[k]->name);
    return buf;
}

const eh_backend *eh_find_backend(const char *name)
{
    for (int k = 0; name && k < N_BUILTIN; k++)
        if (strcmp(builtin[k]->name, name) == 0)
            return builtin[k];
    return NULL;
}

const eh_backend *eh_current_backend(void)
{
    pthread_once(&init_once, choose_default);
    const eh_backend *b = atomic_load(&current);
    if (!b)
        eh_set_error(EH_ERR_BACKEND,
                     "EH_BACKEND='%s' is not a backend of this libeh (available: %s); "
                     "call eh_set_backend() or fix the variable",
                     bad_env_name, available_names());
    return b;
}

eh_status eh_set_backend(const char *name)
{
    if (!name)
        return eh_set_error(EH_ERR_NULL_ARG, "set_backend: argument 'name' is NULL");
    const eh_backend *b = eh_find_backend(name);
    if (!b)
        return eh_set_error(EH_ERR_BACKEND, "set_backend: unknown backend '%s' (available: %s)",
                            name, available_names());
    pthread_once(&init_once, choose_default);
    atomic_store(&current, b);
    return EH_OK;
}

const char *eh_get_backend(void)
{
    const eh_backend *b = eh_current_backend();
    return b ? b->name : NULL;
}

int eh_list_backends(const char **names, int cap)
{
    for (int k = 0; names && k < N_BUILTIN && k < cap; k++)
        names[k] = builtin[k]->name;
    return N_BUILTIN;
}

/* ---- the op set ---- */

static const char *const op_names[EH_OP_COUNT] = {
#define EH_OP(name, kind, n_in) [EH_OP_##name] = #name,
#include <eh/ops.def>
};

static const eh_op_kind op_kinds[EH_OP_COUNT] = {
#define EH_OP(name, kind, n_in) [EH_OP_##name] = EH_KIND_##kind,
#include <eh/ops.def>
};

int eh_op_count(void) { return EH_OP_COUNT; }

const char *eh_op_name(int op) { return op >= 0 && op < EH_OP_COUNT ? op_names[op] : NULL; }

int eh_op_lookup(const char *name)
{
    for (int k = 0; name && k < EH_OP_COUNT; k++)
        if (strcmp(op_names[k], name) == 0)
            return k;
    return -1;
}

eh_op_kind eh_op_kind_of(eh_op op)
{
    return (unsigned)op < EH_OP_COUNT ? op_kinds[op] : EH_KIND_META;
}

int eh_op_is_elementwise(eh_op op)
{
    eh_op_kind k = eh_op_kind_of(op);
    /* cast is elementwise too; keeping it fusable lets mixed-dtype chains fuse */
    return k == EH_KIND_UNARY || k == EH_KIND_BINARY || k == EH_KIND_TERNARY || op == EH_OP_cast;
}

int eh_backend_supports(const char *name, int op)
{
    const eh_backend *b = eh_find_backend(name);
    if (!b || op < 0 || op >= EH_OP_COUNT)
        return -1;
    if (op_kinds[op] == EH_KIND_META)
        return 1;
    return b->kernels[op] != NULL;
}
