/* The backends -- built in, then registered (plugins) -- the current
 * choice, and op-set queries.
 *
 * Registered tables are appended to a fixed array and published with a
 * release store of the count, so lookups take no lock.  EH_BACKEND_PATH's
 * plugins are loaded once, before the default backend is chosen (so that
 * EH_BACKEND may name one), and never from inside a plugin's init (which
 * would wait for itself). */
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

#define MAX_REGISTERED 32
static _Atomic(const eh_backend *) registered[MAX_REGISTERED];
static char registered_by[MAX_REGISTERED][256]; /* the plugin file, or "" */
static atomic_int n_registered;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;

static _Atomic(const eh_backend *) current;
static char bad_env[1024]; /* why the default could not be chosen */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_once_t env_plugins_once = PTHREAD_ONCE_INIT;
static eh_status env_plugins_status;
static char env_plugins_why[768];

static void load_env_plugins(void)
{
    env_plugins_status = eh__load_env_plugins(env_plugins_why, sizeof env_plugins_why);
}

void eh__backends_ready(void)
{
    if (!eh__plugin_loading())
        pthread_once(&env_plugins_once, load_env_plugins);
}

static const char *available_names(void)
{
    static _Thread_local char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    int n = atomic_load_explicit(&n_registered, memory_order_acquire);
    for (int k = 0; k < N_BUILTIN + n && len < sizeof buf; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, k ? ", %s" : "%s",
                                k < N_BUILTIN ? builtin[k]->name : registered[k - N_BUILTIN]->name);
    return buf;
}

static void choose_default(void)
{
    eh__backends_ready();
    const char *env = getenv("EH_BACKEND");
    const eh_backend *b = builtin[0];
    if (env && *env) {
        b = eh_find_backend(env);
        if (!b)
            snprintf(bad_env, sizeof bad_env,
                     "EH_BACKEND='%.64s' is not a backend of this libeh (available: %s); "
                     "call eh_set_backend() or fix the variable",
                     env, available_names());
    }
    if (env_plugins_status != EH_OK) {
        snprintf(bad_env, sizeof bad_env,
                 "%s; call eh_set_backend() or fix the variable", env_plugins_why);
        b = NULL;
    }
    atomic_store(&current, b);
}

const eh_backend *eh_find_backend(const char *name)
{
    for (int k = 0; name && k < N_BUILTIN; k++)
        if (strcmp(builtin[k]->name, name) == 0)
            return builtin[k];
    int n = atomic_load_explicit(&n_registered, memory_order_acquire);
    for (int k = 0; name && k < n; k++) {
        const eh_backend *b = atomic_load_explicit(&registered[k], memory_order_relaxed);
        if (strcmp(b->name, name) == 0)
            return b;
    }
    return NULL;
}

const eh_backend *eh_current_backend(void)
{
    pthread_once(&init_once, choose_default); /* loads EH_BACKEND_PATH first */
    const eh_backend *b = atomic_load(&current);
    if (!b)
        eh_set_error(EH_ERR_BACKEND, "%s", bad_env);
    return b;
}

/* ---- registering backends ---- */

static eh_status check_table(const eh_backend *t)
{
    if (t->abi_version != EH_BACKEND_ABI_VERSION)
        return eh_set_error(EH_ERR_BACKEND,
                            "backend_register: the table was built for backend ABI %u, this libeh "
                            "has ABI %u; rebuild the backend against this libeh's "
                            "<eh/backend_api.h> (and start its table with EH_BACKEND_ABI)",
                            t->abi_version, EH_BACKEND_ABI_VERSION);
    if (t->size != sizeof(eh_backend) || t->op_set != (uint32_t)EH_OP_SET_ID)
        return eh_set_error(EH_ERR_BACKEND,
                            "backend_register: the table was built against another op set "
                            "(table of %u bytes, op set %u; this libeh: %zu bytes, op set %u, "
                            "%d ops); rebuild the backend against this libeh's headers",
                            t->size, t->op_set, sizeof(eh_backend), (unsigned)EH_OP_SET_ID,
                            (int)EH_OP_COUNT);
    if (!t->name)
        return eh_set_error(EH_ERR_INVALID_ARG, "backend_register: the table has no name");
    if (!eh__backend_name_ok(t->name))
        return eh_set_error(EH_ERR_INVALID_ARG,
                            "backend_register: '%.40s' is not a backend name ([a-z0-9_]+, at most "
                            "31 characters)",
                            t->name);
    return EH_OK;
}

static eh_status check_delegate(const eh_backend *t)
{
    if (t->delegate && (!eh_find_backend(t->delegate) || strcmp(t->delegate, t->name) == 0))
        return eh_set_error(EH_ERR_INVALID_ARG,
                            "backend_register: '%s': its delegate '%.40s' is not a backend (%s)",
                            t->name, t->delegate,
                            strcmp(t->delegate, t->name) == 0 ? "it is this one"
                                                              : "register or load it first");
    return EH_OK;
}

/* EH_OK when no backend has t's name yet; called with the lock held. */
static eh_status check_name_free(const eh_backend *t, int n)
{
    const eh_backend *taken = eh_find_backend(t->name);
    if (!taken)
        return EH_OK;
    int k = 0;
    while (k < n && registered[k] != taken)
        k++;
    return eh_set_error(EH_ERR_BACKEND,
                        "backend_register: a backend named '%s' is already registered (%s%s%s)",
                        t->name, k == n ? "built into libeh" : "registered",
                        k < n && registered_by[k][0] ? " by " : "", k < n ? registered_by[k] : "");
}

eh_status eh_backend_register(const eh_backend *table)
{
    if (!table)
        return eh_set_error(EH_ERR_NULL_ARG, "backend_register: argument 'table' is NULL");
    pthread_mutex_lock(&register_lock);
    int n = atomic_load_explicit(&n_registered, memory_order_relaxed);
    eh_status st = check_table(table);
    if (st == EH_OK)
        st = check_name_free(table, n);
    if (st == EH_OK)
        st = check_delegate(table);
    if (st == EH_OK && n == MAX_REGISTERED)
        st = eh_set_error(EH_ERR_BACKEND, "backend_register: '%s': too many backends (at most %d)",
                          table->name, MAX_REGISTERED);
    if (st == EH_OK) {
        const char *by = eh__plugin_loading();
        snprintf(registered_by[n], sizeof registered_by[n], "%s", by ? by : "");
        atomic_store_explicit(&registered[n], table, memory_order_relaxed);
        atomic_store_explicit(&n_registered, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&register_lock);
    return st;
}

eh_status eh_set_backend(const char *name)
{
    if (!name)
        return eh_set_error(EH_ERR_NULL_ARG, "set_backend: argument 'name' is NULL");
    eh__backends_ready(); /* the name may be a plugin's from EH_BACKEND_PATH */
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
    eh__backends_ready();
    int n = atomic_load_explicit(&n_registered, memory_order_acquire);
    for (int k = 0; names && k < N_BUILTIN + n && k < cap; k++)
        names[k] = k < N_BUILTIN ? builtin[k]->name : registered[k - N_BUILTIN]->name;
    return N_BUILTIN + n;
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

const char *eh_op_name(int op)
{
    return op >= 0 && op < EH_OP_COUNT ? op_names[op] : eh__custom_name(op);
}

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
    if ((unsigned)op >= EH_OP_COUNT)
        return eh__custom_fusable((int)op);
    eh_op_kind k = eh_op_kind_of(op);
    /* cast is elementwise too; keeping it fusable lets mixed-dtype chains fuse */
    return k == EH_KIND_UNARY || k == EH_KIND_BINARY || k == EH_KIND_TERNARY || op == EH_OP_cast;
}
