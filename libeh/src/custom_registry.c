/* The custom-op registry: definitions and kernels by op, found by name or id.
 *
 * Ops are records that are never freed nor moved, so a pointer or an id
 * stays valid for the life of the process.  Writers (define, register a
 * kernel) take one mutex; readers -- every custom call, on any thread --
 * take none:
 *   - records by id: a directory of chunks, each slot published with a
 *     release store after the record is complete;
 *   - records by name: an open-addressing index, rebuilt larger under the
 *     mutex and published by swapping one pointer (old indexes stay
 *     allocated, since a reader may still be probing one);
 *   - a record's kernels: a list pushed at its head (release);
 *   - a record's definition: filled in, then `defined` set (release).
 * Everything stays reachable from the statics here, so LeakSanitizer does
 * not count it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define CHUNK 64
#define MAX_CHUNKS 1024 /* 65536 ops */
#define NAME_MAX_LEN 127

typedef struct kernel_entry {
    struct kernel_entry *next;
    eh_kernel_fn fn;
    char backend[32];
} kernel_entry;

typedef struct custom_rec {
    int id;
    char name[NAME_MAX_LEN + 1];
    atomic_int defined;
    eh_custom_op_def def;     /* libeh's copy; its strings point into `strings` */
    char *strings;
    _Atomic(kernel_entry *) kernels;
} custom_rec;

typedef struct name_index {
    size_t cap; /* a power of two */
    _Atomic(custom_rec *) *slots;
    struct name_index *retired; /* the index this one replaced */
} name_index;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(_Atomic(custom_rec *) *) chunks[MAX_CHUNKS];
static atomic_int n_recs;
static _Atomic(name_index *) index_now;

/* ---- names ---- */

static int is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

int eh__custom_name_ok(const char *name)
{
    if (!name || strlen(name) > NAME_MAX_LEN)
        return 0;
    int parts = 0;
    const char *p = name;
    for (;;) {
        if (!is_ident_start(*p))
            return 0;
        while (is_ident_char(*p))
            p++;
        parts++;
        if (*p == '\0')
            return parts >= 2;
        if (*p != '.')
            return 0;
        p++;
    }
}

int eh__backend_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 31)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (!((name[k] >= 'a' && name[k] <= 'z') || (name[k] >= '0' && name[k] <= '9') ||
              name[k] == '_'))
            return 0;
    return 1;
}

static size_t hash_name(const char *s)
{
    size_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* ---- lookups (no lock) ---- */

static custom_rec *rec_by_name(const char *name)
{
    name_index *ix = atomic_load_explicit(&index_now, memory_order_acquire);
    if (!ix || !name)
        return NULL;
    for (size_t i = hash_name(name) & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
        custom_rec *r = atomic_load_explicit(&ix->slots[i], memory_order_acquire);
        if (!r)
            return NULL;
        if (strcmp(r->name, name) == 0)
            return r;
    }
}

static custom_rec *rec_by_id(int id)
{
    int k = id - EH_OP_COUNT;
    if (k < 0 || k >= atomic_load_explicit(&n_recs, memory_order_acquire))
        return NULL;
    _Atomic(custom_rec *) *chunk = atomic_load_explicit(&chunks[k / CHUNK], memory_order_acquire);
    return chunk ? atomic_load_explicit(&chunk[k % CHUNK], memory_order_acquire) : NULL;
}

static const eh_custom_op_def *def_of(const custom_rec *r)
{
    return r && atomic_load_explicit(&r->defined, memory_order_acquire) ? &r->def : NULL;
}

int eh_custom_op_count(void) { return atomic_load_explicit(&n_recs, memory_order_acquire); }

int eh_custom_op_id(const char *name)
{
    custom_rec *r = rec_by_name(name);
    return r ? r->id : -1;
}

const eh_custom_op_def *eh_custom_op_get(int id) { return def_of(rec_by_id(id)); }

const char *eh__custom_name(int id)
{
    custom_rec *r = rec_by_id(id);
    return r ? r->name : NULL;
}

eh_kernel_fn eh__custom_kernel(int id, const char *backend)
{
    custom_rec *r = rec_by_id(id);
    if (!r || !backend)
        return NULL;
    for (kernel_entry *e = atomic_load_explicit(&r->kernels, memory_order_acquire); e; e = e->next)
        if (strcmp(e->backend, backend) == 0)
            return e->fn;
    return NULL;
}

void eh__custom_kernel_backends(int id, char *buf, size_t cap)
{
    custom_rec *r = rec_by_id(id);
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    /* the list is newest first: print it oldest first */
    const kernel_entry *seen[64];
    int n = 0;
    for (kernel_entry *e = r ? atomic_load_explicit(&r->kernels, memory_order_acquire) : NULL;
         e && n < 64; e = e->next)
        seen[n++] = e;
    for (int k = n - 1; k >= 0 && len < cap; k--)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", k == n - 1 ? "" : ", ",
                                seen[k]->backend);
}

int eh__custom_fusable(int id)
{
    const eh_custom_op_def *d = def_of(rec_by_id(id));
    return d && d->rule == EH_CUSTOM_ELEMENTWISE && d->per_element && d->n_out == 1 &&
           d->n_in >= 1 && d->n_in <= 3;
}

/* ---- adding records (under the lock) ---- */

static int index_insert(name_index *ix, custom_rec *r)
{
    for (size_t i = hash_name(r->name) & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1))
        if (!atomic_load_explicit(&ix->slots[i], memory_order_relaxed)) {
            atomic_store_explicit(&ix->slots[i], r, memory_order_release);
            return 0;
        }
}

/* Room for one more name: a fresh index at twice the size when it would
 * be more than half full.  0, or -1 out of memory. */
static int index_reserve(int n_after)
{
    name_index *ix = atomic_load_explicit(&index_now, memory_order_relaxed);
    if (ix && (size_t)n_after * 2 <= ix->cap)
        return 0;
    name_index *nx = eh_mem_alloc(sizeof *nx);
    size_t cap = ix ? ix->cap * 2 : 64;
    _Atomic(custom_rec *) *slots = eh_mem_calloc(cap, sizeof *slots);
    if (!nx || !slots) {
        eh_mem_free(nx);
        eh_mem_free(slots);
        return -1;
    }
    nx->cap = cap;
    nx->slots = slots;
    nx->retired = ix;
    for (int k = 0; ix && k < n_after - 1; k++)
        index_insert(nx, rec_by_id(EH_OP_COUNT + k));
    atomic_store_explicit(&index_now, nx, memory_order_release);
    return 0;
}

static custom_rec *rec_add(const char *name)
{
    int k = atomic_load_explicit(&n_recs, memory_order_relaxed);
    if (k >= CHUNK * MAX_CHUNKS) {
        eh_set_error(EH_ERR_INVALID_ARG, "custom_op: too many custom ops (at most %d)",
                     CHUNK * MAX_CHUNKS);
        return NULL;
    }
    _Atomic(custom_rec *) *chunk = atomic_load_explicit(&chunks[k / CHUNK], memory_order_relaxed);
    if (!chunk) {
        chunk = eh_mem_calloc(CHUNK, sizeof *chunk);
        if (!chunk)
            goto nomem;
        atomic_store_explicit(&chunks[k / CHUNK], chunk, memory_order_release);
    }
    if (index_reserve(k + 1) != 0)
        goto nomem;
    custom_rec *r = eh_mem_calloc(1, sizeof *r);
    if (!r)
        goto nomem;
    r->id = EH_OP_COUNT + k;
    snprintf(r->name, sizeof r->name, "%s", name);
    atomic_store_explicit(&chunk[k % CHUNK], r, memory_order_release);
    atomic_store_explicit(&n_recs, k + 1, memory_order_release);
    index_insert(atomic_load_explicit(&index_now, memory_order_relaxed), r);
    return r;
nomem:
    eh_set_error(EH_ERR_NOMEM, "custom_op: out of memory registering '%s'", name);
    return NULL;
}

static custom_rec *rec_get_or_add(const char *name)
{
    custom_rec *r = rec_by_name(name);
    return r ? r : rec_add(name);
}

/* ---- definitions ---- */

static const char *rule_name(eh_custom_rule r)
{
    switch (r) {
    case EH_CUSTOM_ELEMENTWISE: return "EH_CUSTOM_ELEMENTWISE";
    case EH_CUSTOM_SAME_AS_INPUT: return "EH_CUSTOM_SAME_AS_INPUT";
    case EH_CUSTOM_REDUCTION: return "EH_CUSTOM_REDUCTION";
    case EH_CUSTOM_INFER: return "EH_CUSTOM_INFER";
    case EH_CUSTOM_DYNAMIC: return "EH_CUSTOM_DYNAMIC";
    }
    return NULL;
}

const char *eh__custom_rule_name(int rule) { return rule_name((eh_custom_rule)rule); }

#define DEF_ERR(...) eh_set_error(EH_ERR_INVALID_ARG, "custom_op_define: " __VA_ARGS__)

static eh_status check_def(const eh_custom_op_def *d)
{
    const char *n = d->name;
    if (!n)
        return eh_set_error(EH_ERR_NULL_ARG, "custom_op_define: def->name is NULL");
    if (!eh__custom_name_ok(n))
        return DEF_ERR("name '%.*s' is not a namespaced op name ('namespace.op': parts of "
                       "letters, digits and '_' joined by '.', at most %d characters)",
                       NAME_MAX_LEN + 1, n, NAME_MAX_LEN);
    if (d->n_in < 0 || d->n_in > EH_CUSTOM_MAX_IN)
        return DEF_ERR("'%s': n_in is %d (expected 0 to %d)", n, d->n_in, EH_CUSTOM_MAX_IN);
    if (d->n_out < 1 || d->n_out > EH_CUSTOM_MAX_OUT)
        return DEF_ERR("'%s': n_out is %d (expected 1 to %d)", n, d->n_out, EH_CUSTOM_MAX_OUT);
    for (int k = 0; d->input_names && k < d->n_in; k++)
        if (!d->input_names[k])
            return DEF_ERR("'%s': input_names[%d] is NULL", n, k);
    if (d->dtypes >> EH_DTYPE_COUNT)
        return DEF_ERR("'%s': dtypes 0x%x has bits that are no dtype's", n, d->dtypes);
    if (!rule_name(d->rule))
        return DEF_ERR("'%s': rule %d is not an eh_custom_rule", n, (int)d->rule);
    if ((d->rule == EH_CUSTOM_INFER) != (d->infer != NULL))
        return DEF_ERR("'%s': %s", n,
                       d->infer ? "infer is set but the rule is not EH_CUSTOM_INFER"
                                : "rule EH_CUSTOM_INFER needs an infer callback");
    if (d->rule == EH_CUSTOM_ELEMENTWISE && d->n_in < 1)
        return DEF_ERR("'%s': EH_CUSTOM_ELEMENTWISE needs at least one input", n);
    if ((d->rule == EH_CUSTOM_SAME_AS_INPUT || d->rule == EH_CUSTOM_REDUCTION) &&
        (d->rule_input < 0 || d->rule_input >= d->n_in))
        return DEF_ERR("'%s': rule_input is %d, but the op has %d input%s", n, d->rule_input,
                       d->n_in, d->n_in == 1 ? "" : "s");
    if (d->per_element && (d->rule != EH_CUSTOM_ELEMENTWISE || d->n_out != 1))
        return DEF_ERR("'%s': a per_element function needs rule EH_CUSTOM_ELEMENTWISE and "
                       "one output",
                       n);
    if (d->fallback && !eh__backend_name_ok(d->fallback))
        return DEF_ERR("'%s': fallback '%.40s' is not a backend name", n, d->fallback);
    return EH_OK;
}

/* Copy d into r->def, its strings into one block r owns. */
static eh_status copy_def(custom_rec *r, const eh_custom_op_def *d)
{
    size_t bytes = strlen(d->name) + 1 + (d->fallback ? strlen(d->fallback) + 1 : 0);
    size_t names_at = bytes;
    if (d->input_names) {
        bytes = (bytes + sizeof(char *) - 1) / sizeof(char *) * sizeof(char *);
        names_at = bytes;
        bytes += (size_t)d->n_in * sizeof(char *);
        for (int k = 0; k < d->n_in; k++)
            bytes += strlen(d->input_names[k]) + 1;
    }
    char *s = eh_mem_alloc(bytes);
    if (!s)
        return eh_set_error(EH_ERR_NOMEM, "custom_op_define: out of memory defining '%s'",
                            d->name);
    r->def = *d;
    char *p = s;
    r->def.name = strcpy(p, d->name);
    p += strlen(d->name) + 1;
    if (d->fallback) {
        r->def.fallback = strcpy(p, d->fallback);
        p += strlen(d->fallback) + 1;
    }
    if (d->input_names) {
        const char **names = (const char **)(void *)(s + names_at);
        p = (char *)(names + d->n_in);
        for (int k = 0; k < d->n_in; k++) {
            names[k] = strcpy(p, d->input_names[k]);
            p += strlen(d->input_names[k]) + 1;
        }
        r->def.input_names = names;
    }
    r->strings = s;
    return EH_OK;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The first field in which a and b differ, NULL when identical. */
static const char *differing_field(const eh_custom_op_def *a, const eh_custom_op_def *b)
{
    if (a->n_in != b->n_in)
        return "n_in";
    if (a->n_out != b->n_out)
        return "n_out";
    if (!a->input_names != !b->input_names)
        return "input_names";
    for (int k = 0; a->input_names && k < a->n_in; k++)
        if (!same_str(a->input_names[k], b->input_names[k]))
            return "input_names";
    if (a->dtypes != b->dtypes)
        return "dtypes";
    if (a->rule != b->rule)
        return "rule";
    if (a->rule_input != b->rule_input)
        return "rule_input";
    if (!a->float_result != !b->float_result)
        return "float_result";
    if (a->infer != b->infer)
        return "infer";
    if (a->check != b->check)
        return "check";
    if (a->params_size != b->params_size)
        return "params_size";
    if (a->per_element != b->per_element)
        return "per_element";
    if (!same_str(a->fallback, b->fallback))
        return "fallback";
    return NULL;
}

eh_status eh_custom_op_define(const eh_custom_op_def *def)
{
    if (!def)
        return eh_set_error(EH_ERR_NULL_ARG, "custom_op_define: argument 'def' is NULL");
    eh_status st = check_def(def);
    if (st != EH_OK)
        return st;
    pthread_mutex_lock(&lock);
    custom_rec *r = rec_get_or_add(def->name);
    if (!r) {
        st = eh_last_error();
    } else if (def_of(r)) {
        const char *field = differing_field(&r->def, def);
        if (field)
            st = eh_set_error(EH_ERR_INVALID_ARG,
                              "custom_op_define: '%s' is already defined differently (%s differs); "
                              "an op's name may be defined again only with an identical definition",
                              def->name, field);
    } else if ((st = copy_def(r, def)) == EH_OK) {
        atomic_store_explicit(&r->defined, 1, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    return st;
}

/* ---- kernels ---- */

eh_status eh_custom_op_kernel(const char *op, const char *backend, eh_kernel_fn kernel)
{
    if (!op || !backend || !kernel)
        return eh_set_error(EH_ERR_NULL_ARG, "custom_op_kernel: argument '%s' is NULL",
                            !op ? "op" : !backend ? "backend" : "kernel");
    if (!eh__custom_name_ok(op))
        return eh_set_error(EH_ERR_INVALID_ARG,
                            "custom_op_kernel: '%.*s' is not a namespaced op name ('namespace.op')",
                            NAME_MAX_LEN + 1, op);
    if (!eh__backend_name_ok(backend))
        return eh_set_error(EH_ERR_INVALID_ARG,
                            "custom_op_kernel: '%s': '%.40s' is not a backend name ([a-z0-9_]+, "
                            "at most 31 characters)",
                            op, backend);
    eh_status st = EH_OK;
    pthread_mutex_lock(&lock);
    custom_rec *r = rec_get_or_add(op);
    eh_kernel_fn had = r ? eh__custom_kernel(r->id, backend) : NULL;
    if (!r) {
        st = eh_last_error();
    } else if (had && had != kernel) {
        st = eh_set_error(EH_ERR_INVALID_ARG,
                          "custom_op_kernel: '%s' already has a different kernel for backend '%s'",
                          op, backend);
    } else if (!had) {
        kernel_entry *e = eh_mem_calloc(1, sizeof *e);
        if (!e) {
            st = eh_set_error(EH_ERR_NOMEM, "custom_op_kernel: out of memory registering '%s'", op);
        } else {
            e->fn = kernel;
            snprintf(e->backend, sizeof e->backend, "%s", backend);
            e->next = atomic_load_explicit(&r->kernels, memory_order_relaxed);
            atomic_store_explicit(&r->kernels, e, memory_order_release);
        }
    }
    pthread_mutex_unlock(&lock);
    return st;
}

eh_status eh_custom_op_kernels(const eh_custom_kernel *kernels, int n)
{
    if (!kernels && n > 0)
        return eh_set_error(EH_ERR_NULL_ARG, "custom_op_kernels: argument 'kernels' is NULL");
    for (int k = 0; k < n; k++) {
        eh_status st = eh_custom_op_kernel(kernels[k].op, kernels[k].backend, kernels[k].kernel);
        if (st != EH_OK)
            return st;
    }
    return EH_OK;
}
