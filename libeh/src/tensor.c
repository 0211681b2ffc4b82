/* Tensor headers and storage: allocation, the allocation test hooks, and
 * the queries (ndim, shape, size, ...).  Below lifetime.c, which counts
 * references and registers new tensors with scopes. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE (Linux): this file only */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"

/* Storage is 64-byte aligned so backends can vectorize without peeling. */
#define EH_ALIGN 64

/* Storage of up to EH_INLINE_BYTES lives in the header's own allocation:
 * small tensors then cost one malloc instead of two (and no aligned_alloc),
 * which is most of the per-op overhead on tiny inputs. */
#define EH_INLINE_BYTES 64

typedef struct tensor_block {
    eh_tensor header;
    _Alignas(16) unsigned char inline_data[EH_INLINE_BYTES];
} tensor_block;

static void *inline_storage(eh_tensor *t) { return ((tensor_block *)t)->inline_data; }

/* Storage accounting, for tests that bound peak memory. */
static atomic_llong storage_now, storage_peak;

void eh__test_storage_bytes(long long *now, long long *peak)
{
    *now = atomic_load(&storage_now);
    *peak = atomic_load(&storage_peak);
}

void eh__test_reset_storage_peak(void) { atomic_store(&storage_peak, atomic_load(&storage_now)); }

static void count_storage(long long delta)
{
    long long now = atomic_fetch_add(&storage_now, delta) + delta;
    long long peak = atomic_load(&storage_peak);
    while (now > peak && !atomic_compare_exchange_weak(&storage_peak, &peak, now))
        ;
}

/* ---- storage blocks ---------------------------------------------------------
 *
 * A tensor's elements live in a reference-counted block (eh_storage) that
 * views share: reshape, expand_dims, squeeze and leading-axis slices of a
 * materialized tensor point into its block at an offset instead of copying
 * (ops_shape.c).  Writing must never change another tensor, so the
 * writable accessors (eh_data*, host.c) give a tensor a private copy first
 * when its block is shared (copy-on-write), and mark it exposed: a pointer
 * the caller may write through is out, so later views of it copy instead
 * of sharing (the caller's writes must not reach them).  The read-only
 * accessors (eh_data_const*) never copy.  docs/memory.md has the rules. */
struct eh_storage {
    atomic_int refs; /* tensors pointing into the block                   */
    size_t bytes;    /* usable bytes at mem                               */
    size_t counted;  /* bytes requested: what the storage accounting adds */
    void *mem;
    int huge;        /* mem is its own 2 MiB-aligned block (cacheable)    */
};

/* Storage of at least EH_HUGE_BYTES is aligned to 2 MiB and advised for
 * transparent huge pages, as NumPy does for its large arrays: a fresh
 * 40 MB result then takes ~20 page faults instead of ~10,000, which is
 * most of the cost of an elementwise op writing it.  (A kernel whose THP
 * mode is "never" ignores the advice; "always" needs none.) */
#define EH_HUGE_BYTES ((size_t)4 << 20)
#define EH_HUGE_ALIGN ((size_t)2 << 20)

/* Freed huge blocks are kept for the next allocation of about their size,
 * so that repeated ops on large tensors reuse memory whose pages are
 * already mapped instead of faulting fresh ones in every call.  Bounded
 * (CACHE_BLOCKS blocks, CACHE_BYTES in all; the oldest go first), guarded
 * by a mutex, emptied by eh_trim_memory() and at exit. */
#define CACHE_BLOCKS 8
#define CACHE_BYTES ((size_t)1 << 30)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *mem;
    size_t bytes;
} cache[CACHE_BLOCKS];
static int cache_n;          /* entries in use: cache[0 .. cache_n), oldest first */
static size_t cache_total;

/* A cached block of at least `bytes` and at most a quarter more, or NULL. */
static void *cache_take(size_t bytes)
{
    void *p = NULL;
    pthread_mutex_lock(&cache_lock);
    for (int k = cache_n - 1; k >= 0; k--) /* newest first: warmest pages */
        if (cache[k].bytes >= bytes && cache[k].bytes - bytes <= bytes / 4) {
            p = cache[k].mem;
            cache_total -= cache[k].bytes;
            memmove(&cache[k], &cache[k + 1], (size_t)(cache_n - k - 1) * sizeof cache[0]);
            cache_n--;
            break;
        }
    pthread_mutex_unlock(&cache_lock);
    return p;
}

/* Keep a freed huge block (evicting the oldest beyond the bounds). */
static void cache_put(void *mem, size_t bytes)
{
    void *evicted[CACHE_BLOCKS + 1];
    int n_ev = 0;
    pthread_mutex_lock(&cache_lock);
    if (bytes > CACHE_BYTES) {
        evicted[n_ev++] = mem;
    } else {
        while (cache_n > 0 && (cache_n == CACHE_BLOCKS || cache_total + bytes > CACHE_BYTES)) {
            evicted[n_ev++] = cache[0].mem;
            cache_total -= cache[0].bytes;
            memmove(&cache[0], &cache[1], (size_t)(cache_n - 1) * sizeof cache[0]);
            cache_n--;
        }
        cache[cache_n].mem = mem;
        cache[cache_n].bytes = bytes;
        cache_n++;
        cache_total += bytes;
    }
    pthread_mutex_unlock(&cache_lock);
    for (int k = 0; k < n_ev; k++)
        eh_mem_free(evicted[k]);
}

size_t eh_trim_memory(void)
{
    pthread_mutex_lock(&cache_lock);
    size_t released = cache_total;
    void *blocks[CACHE_BLOCKS];
    int n = cache_n;
    for (int k = 0; k < n; k++)
        blocks[k] = cache[k].mem;
    cache_n = 0;
    cache_total = 0;
    pthread_mutex_unlock(&cache_lock);
    for (int k = 0; k < n; k++)
        eh_mem_free(blocks[k]);
    return released;
}

__attribute__((destructor)) static void trim_at_exit(void) { (void)eh_trim_memory(); }

void eh__test_block_cache(int *blocks, long long *bytes)
{
    pthread_mutex_lock(&cache_lock);
    *blocks = cache_n;
    *bytes = (long long)cache_total;
    pthread_mutex_unlock(&cache_lock);
}

/* A new block for `bytes` (NULL when out of memory): 64-byte aligned, the
 * header in front of the data; huge ones 2 MiB-aligned on their own. */
static eh_storage *alloc_storage(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes >= EH_HUGE_BYTES && bytes <= SIZE_MAX - EH_HUGE_ALIGN) {
        size_t rounded = (bytes + EH_HUGE_ALIGN - 1) / EH_HUGE_ALIGN * EH_HUGE_ALIGN;
        eh_storage *s = eh_mem_alloc(sizeof *s);
        void *p = s ? cache_take(rounded) : NULL;
        if (s && !p) {
            p = eh_mem_aligned(EH_HUGE_ALIGN, rounded);
            if (p)
                (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure is harmless */
        }
        if (!p) {
            eh_mem_free(s);
            return NULL;
        }
        atomic_init(&s->refs, 1);
        s->bytes = rounded;
        s->counted = bytes;
        s->mem = p;
        s->huge = 1;
        return s;
    }
#endif
    if (bytes > SIZE_MAX - 2 * EH_ALIGN)
        return NULL;
    size_t rounded = (bytes + EH_ALIGN - 1) / EH_ALIGN * EH_ALIGN;
    eh_storage *s = eh_mem_aligned(EH_ALIGN, EH_ALIGN + (rounded ? rounded : EH_ALIGN));
    if (!s)
        return NULL;
    atomic_init(&s->refs, 1);
    s->bytes = rounded;
    s->counted = bytes;
    s->mem = (char *)s + EH_ALIGN;
    s->huge = 0;
    return s;
}

static void storage_unref(eh_storage *s)
{
    if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    count_storage(-(long long)s->counted);
    if (s->huge)
        cache_put(s->mem, s->bytes);
    eh_mem_free(s);
}

/* Header blocks: each thread keeps its last freed block as a spare for its
 * next tensor, so creating and releasing small tensors in a loop (the
 * per-op overhead) calls neither malloc nor free.  The spare is freed when
 * its thread exits (a pthread key destructor; the main thread's stays
 * reachable through its TLS until the process ends).  Under
 * AddressSanitizer every block goes back to free(), so a use of a released
 * tensor is still reported. */
#if defined(__SANITIZE_ADDRESS__)
#define EH_SPARE_HEADERS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EH_SPARE_HEADERS 0
#endif
#endif
#ifndef EH_SPARE_HEADERS
#define EH_SPARE_HEADERS 1
#endif

#if EH_SPARE_HEADERS
static _Thread_local tensor_block *spare_block;
static _Thread_local int spare_registered; /* this thread's key value is set */
static pthread_key_t spare_key;
static pthread_once_t spare_key_once = PTHREAD_ONCE_INIT;
static int spare_key_ok;

static void free_spare_block(void *unused)
{
    (void)unused;
    eh_mem_free(spare_block);
    spare_block = NULL;
}

static void make_spare_key(void)
{
    spare_key_ok = pthread_key_create(&spare_key, free_spare_block) == 0;
}

/* When the library is unloaded (dlclose), threads that outlive it must not
 * run free_spare_block: delete the key (their spares are then leaked, a
 * few hundred bytes per thread, rather than a jump into unmapped code). */
__attribute__((destructor)) static void drop_spare_key(void)
{
    if (spare_key_ok)
        pthread_key_delete(spare_key);
}
#endif

/* A header block (fails like any allocation under the test hook). */
static eh_tensor *alloc_header(void)
{
#if EH_SPARE_HEADERS
    tensor_block *b = spare_block;
    if (b) {
        if (eh__alloc_point())
            return NULL;
        spare_block = NULL;
        return &b->header;
    }
#endif
    return eh_mem_alloc(sizeof(tensor_block));
}

static void free_header(eh_tensor *t)
{
#if EH_SPARE_HEADERS
    if (!spare_block) {
        if (!spare_registered) { /* once per thread: arrange the exit-time free */
            pthread_once(&spare_key_once, make_spare_key);
            spare_registered = spare_key_ok && pthread_setspecific(spare_key, &spare_block) == 0;
        }
        if (spare_registered) {
            spare_block = (tensor_block *)t;
            return;
        }
    }
#endif
    eh_mem_free(t);
}

eh_status eh__check_shape(const char *op, int ndim, const int64_t *shape,
                          eh_dtype dtype, int64_t *size)
{
    if (eh__check_dtype(op, dtype) != EH_OK)
        return EH_ERR_DTYPE;
    if (ndim < 0 || ndim > EH_MAX_DIMS)
        return eh_set_error(EH_ERR_SHAPE, "%s: %d dimensions (allowed: 0 to %d)", op,
                            ndim, EH_MAX_DIMS);
    if (ndim > 0 && !shape)
        return eh_set_error(EH_ERR_NULL_ARG, "%s: argument 'shape' is NULL", op);
    /* One pass: negative dimensions, zeros, and the element count.  While
     * both factors are below 2^31 the product cannot overflow, so the
     * division that proves it only runs for huge shapes. */
    int has_zero = 0, overflow = 0;
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        int64_t dim = shape[d];
        if (dim < 0)
            return eh_set_error(EH_ERR_NEGATIVE_SIZE, "%s: negative dimension in shape %s",
                                op, eh_shape_str(ndim, shape));
        if (dim == 0)
            has_zero = 1;
        else if (((uint64_t)n | (uint64_t)dim) >> 31 == 0 || n <= INT64_MAX / dim)
            n *= dim;
        else
            overflow = 1;
    }
    if (has_zero)
        n = 0; /* a zero anywhere: no elements, however large the others */
    else if (overflow)
        return eh_set_error(EH_ERR_OVERFLOW, "%s: shape %s has more than INT64_MAX elements",
                            op, eh_shape_str(ndim, shape));
    /* The byte count must fit size_t and ptrdiff_t (n * esize cannot wrap
     * when n is within the smaller limit divided by esize). */
    const uint64_t max_bytes = (uint64_t)SIZE_MAX < (uint64_t)PTRDIFF_MAX ? (uint64_t)SIZE_MAX
                                                                       : (uint64_t)PTRDIFF_MAX;
    if ((uint64_t)n > max_bytes / eh__dtype_bytes(dtype))
        return eh_set_error(EH_ERR_OVERFLOW, "%s: shape %s of %s is more bytes than size_t holds",
                            op, eh_shape_str(ndim, shape), eh_dtype_name(dtype));
    if (size)
        *size = n;
    return EH_OK;
}

eh_tensor *eh__tensor_header(const char *op, int ndim, const int64_t *shape, eh_dtype dtype)
{
    int64_t size;
    if (eh__check_shape(op, ndim, shape, dtype, &size) != EH_OK)
        return NULL;
    eh_tensor *t = alloc_header();
    if (!t) {
        eh_set_error(EH_ERR_NOMEM, "%s: out of memory for a tensor header", op);
        return NULL;
    }
    memset(t, 0, sizeof *t);
    atomic_init(&t->refcount, 1);
    atomic_init(&t->user_refs, 0);
    t->dtype = dtype;
    t->ndim = ndim;
    for (int d = 0; d < ndim; d++)
        t->shape[d] = shape[d];
    t->size = size;
    t->nbytes = (size_t)size * eh__dtype_bytes(dtype);
    return t;
}

eh_tensor *eh_tensor_new(int ndim, const int64_t *shape, eh_dtype dtype)
{
    return eh__tensor_header("tensor_new", ndim, shape, dtype);
}

eh_status eh_tensor_alloc_data(eh_tensor *t)
{
    if (t->data)
        return EH_OK;
    /* Inline storage still counts as an allocation for the test hook, so
     * tests reach the same failure points whatever the tensor's size. */
    if (t->nbytes <= EH_INLINE_BYTES) {
        t->data = eh__alloc_point() ? NULL : inline_storage(t);
    } else if ((t->storage = alloc_storage(t->nbytes)) != NULL) {
        t->data = t->storage->mem;
        count_storage((long long)t->storage->counted);
    }
    if (!t->data)
        return eh_set_error(EH_ERR_NOMEM, "out of memory allocating %zu bytes for a %s tensor of shape %s",
                            t->nbytes, eh_dtype_name(t->dtype), eh_shape_str(t->ndim, t->shape));
    return EH_OK;
}

int eh__tensor_can_share(const eh_tensor *t)
{
    /* deferred_ops first (acquire, as eh_materialize): a tensor another
     * thread is evaluating has its storage and data written meanwhile */
    return !__atomic_load_n(&t->deferred_ops, __ATOMIC_ACQUIRE) && t->storage && t->data &&
           !__atomic_load_n(&t->exposed, __ATOMIC_RELAXED);
}

void eh__tensor_share(eh_tensor *view, const eh_tensor *t, size_t byte_offset)
{
    atomic_fetch_add_explicit(&t->storage->refs, 1, memory_order_relaxed);
    view->storage = t->storage;
    view->data = (char *)t->data + byte_offset;
}

int eh_tensor_share_data(eh_tensor *out, const eh_tensor *in)
{
    if (out->data || out->nbytes != in->nbytes || !eh__tensor_can_share(in))
        return 0;
    eh__tensor_share(out, in, 0);
    return 1;
}

eh_status eh__tensor_make_private(eh_tensor *t)
{
    if (t->storage && atomic_load_explicit(&t->storage->refs, memory_order_acquire) > 1) {
        eh_storage *s = alloc_storage(t->nbytes);
        if (!s)
            return eh_set_error(EH_ERR_NOMEM, "data: out of memory copying %zu shared bytes of a %s tensor of shape %s",
                                t->nbytes, eh_dtype_name(t->dtype), eh_shape_str(t->ndim, t->shape));
        count_storage((long long)s->counted);
        memcpy(s->mem, t->data, t->nbytes);
        storage_unref(t->storage);
        t->storage = s;
        t->data = s->mem;
    }
    __atomic_store_n(&t->exposed, 1, __ATOMIC_RELAXED); /* views made on other threads read it */
    return EH_OK;
}

void eh__tensor_destroy(eh_tensor *t)
{
    if (t->deferred_ops && t->deferred_ops->discard)
        t->deferred_ops->discard(t);
    if (t->storage)
        storage_unref(t->storage);
    free_header(t);
}

int eh_ndim(const eh_tensor *t) { return t ? t->ndim : -1; }

const int64_t *eh_shape(const eh_tensor *t) { return t ? t->shape : NULL; }

int64_t eh_dim(const eh_tensor *t, int axis)
{
    int a;
    if (!eh__require("dim", t, "t") || eh__normalize_axis("dim", axis, t->ndim, &a) != EH_OK)
        return -1;
    return t->shape[a];
}

eh_dtype eh_get_dtype(const eh_tensor *t) { return t ? t->dtype : EH_DTYPE_COUNT; }

int64_t eh_size(const eh_tensor *t) { return t ? t->size : -1; }

size_t eh_nbytes(const eh_tensor *t) { return t ? t->nbytes : 0; }

const char *eh_version(void) { return EH_VERSION_STRING; }
