/* libeh/src/internal.h -- helpers shared by libeh's frontend files.
 * Not installed; not for backends (they use <eh/backend_api.h>).
 *
 * libeh/src is a one-way stack; a file calls only files listed before it
 * (`make test` checks that no call or include goes in a circle):
 *   alloc.c                                the heap allocator, allocation test hook
 *   error.c, f16.c, philox.c, parallel.c   errors, half floats, counters, threads,
 *   isa.c                                  the instruction set of simd/ kernels
 *   dtype.c                                dtypes and the promotion table
 *   shape_util.c                           axes, broadcasting, strides
 *   custom_registry.c                      custom ops: definitions, kernels
 *   tensor.c                               headers, storage, queries
 *   lifetime.c                             reference counts and scopes
 *   host.c                                 host access (forces evaluation)
 *   plugin_load.c                          loading backend plugins
 *   backend_registry.c                     the backends and the current one
 *   custom_elementwise.c                   the kernel of per-element functions
 *   kernel_lookup.c                        which kernel runs an op on a backend
 *   dispatch.c                             running a call on a backend
 *   custom_dynamic.c                       custom ops whose kernel makes the outputs
 *   random_sampling.c                      bits to values, for every backend
 *   ops_convert.c                          cast (and eh__as_dtype), devices
 *   ops_<group>.c                          the other ops (ops_custom.c: custom ops)
 * The declarations below follow the same order. */
#ifndef EH_INTERNAL_H
#define EH_INTERNAL_H

#include <eh/backend_api.h>
#include <eh/backend_alloc.h>

/* ---- alloc.c ----------------------------------------------------------- */

/* Every heap block comes from eh_mem_* (<eh/backend_alloc.h>).  A failure
 * point without a malloc (storage inline in a header, a reused header
 * block): 1 when the test hook makes this one fail.  Inline, on the hot
 * path of every op (twice for a small result): while no thread has armed
 * the hook it is one load of a global and a branch (alloc.c says why not
 * a thread-local).  Hidden, so libeh.so reads it without the GOT. */
extern atomic_int eh__alloc_armed __attribute__((visibility("hidden")));
int eh__alloc_point_armed(void); /* the armed thread's countdown */

static inline int eh__alloc_point(void)
{
    return __builtin_expect(atomic_load_explicit(&eh__alloc_armed, memory_order_relaxed) != 0, 0) &&
           eh__alloc_point_armed();
}

/* Test hook: make the nth allocation (eh_mem_* call or eh__alloc_point)
 * from now on this thread fail (1 = the next one; 0 disarms).  Lets tests
 * reach every EH_ERR_NOMEM path.  Returns the previous countdown's rest:
 * 0 when its failure happened (or nothing was armed). */
int eh__test_fail_alloc(int nth);

/* ---- error.c, dtype.c ------------------------------------------------- */

/* 1 if t is usable.  Otherwise records EH_ERR_NULL_ARG naming the op and
 * argument -- unless an error is already recorded, which is kept so that
 * nested calls report the failure that started the chain. */
int eh__require(const char *op, const eh_tensor *t, const char *arg);

/* A valid dtype value? (EH_ERR_DTYPE naming the op otherwise) */
eh_status eh__check_dtype(const char *op, eh_dtype dtype);

/* Dtype for float-valued results: the input's own if floating, else F64. */
eh_dtype eh__float_dtype(eh_dtype dtype);

/* Bytes per element of a valid dtype (eh_dtype_size without the range
 * check, for the allocation path; dtype must already be validated). */
static inline size_t eh__dtype_bytes(eh_dtype dtype)
{
    static const unsigned char bytes[EH_DTYPE_COUNT] = {
        [EH_F16] = 2, [EH_F32] = 4, [EH_F64] = 8, [EH_I32] = 4, [EH_I64] = 8, [EH_BOOL] = 1};
    return bytes[dtype];
}

/* ---- shape_util.c ----------------------------------------------------- */

/* Normalize one axis for a tensor of `ndim` dims (negative counts from
 * the end).  EH_ERR_AXIS naming the op when out of range. */
eh_status eh__normalize_axis(const char *op, int axis, int ndim, int *out);
/* Normalize a list of axes: sorted ascending, repeats are EH_ERR_AXIS.
 * axes == NULL or n_axes == 0 means every axis. */
eh_status eh__normalize_axes(const char *op, const int *axes, int n_axes,
                             int ndim, int *out, int *n_out);

/* NumPy broadcast of n shapes into (*ndim, shape).  EH_ERR_SHAPE naming the
 * op and the shapes when incompatible. */
eh_status eh__broadcast_shapes(const char *op, int n, const eh_tensor *const *ts,
                               int *ndim, int64_t *shape);

/* Output shape of reducing a tensor of (ndim, shape) over the n ascending,
 * distinct axes: kept as 1 with keepdims, else dropped. */
void eh__reduced_shape(int ndim, const int64_t *shape, const int *axes, int n, int keepdims,
                       int *out_ndim, int64_t *out_shape);

/* ---- custom_registry.c ------------------------------------------------- */

/* Names: "ns.op" (<eh/custom_op.h>); backends [a-z0-9_]{1,31}. */
int eh__custom_name_ok(const char *name);
int eh__backend_name_ok(const char *name);
/* A custom op's name ("geo.sqdist"), NULL for an id that is not one. */
const char *eh__custom_name(int id);
/* The kernel registered for op id under exactly this backend name. */
eh_kernel_fn eh__custom_kernel(int id, const char *backend);
/* "ref, blis": the backends op id has kernels for, in registration order. */
void eh__custom_kernel_backends(int id, char *buf, size_t cap);
/* Declared elementwise with a per-element function, one output, 1-3 inputs. */
int eh__custom_fusable(int id);
/* "EH_CUSTOM_ELEMENTWISE", NULL for a value that is no rule. */
const char *eh__custom_rule_name(int rule);

/* ---- tensor.c ---------------------------------------------------------- */

/* Check a requested shape: no negative dimension (EH_ERR_NEGATIVE_SIZE),
 * ndim within [0, EH_MAX_DIMS] (EH_ERR_SHAPE), no overflow of the element
 * count or byte size (EH_ERR_OVERFLOW).  *size gets the element count. */
eh_status eh__check_shape(const char *op, int ndim, const int64_t *shape,
                          eh_dtype dtype, int64_t *size);

/* A new tensor header (refcount 1, no data yet) that no scope holds.
 * Validates the shape as eh__check_shape does. */
eh_tensor *eh__tensor_header(const char *op, int ndim, const int64_t *shape, eh_dtype dtype);

/* Free a tensor whose refcount reached zero. */
void eh__tensor_destroy(eh_tensor *t);

/* Views (docs/memory.md).  1 if t's elements can be shared: materialized
 * in a heap block, and no writable pointer to them handed out. */
int eh__tensor_can_share(const eh_tensor *t);
/* view (a header with no data) shares t's block, starting byte_offset
 * bytes into t's elements.  t must pass eh__tensor_can_share. */
void eh__tensor_share(eh_tensor *view, const eh_tensor *t, size_t byte_offset);
/* Before a writable pointer to t's elements is handed out: a private copy
 * of a shared block (copy-on-write); t is marked exposed.  EH_ERR_NOMEM. */
eh_status eh__tensor_make_private(eh_tensor *t);

/* Test hook: blocks and bytes in the cache of freed large blocks. */
void eh__test_block_cache(int *blocks, long long *bytes);

/* Test hooks: bytes of tensor storage allocated now, and the peak since
 * the last reset. */
void eh__test_storage_bytes(long long *now, long long *peak);
void eh__test_reset_storage_peak(void);

/* ---- lifetime.c -------------------------------------------------------- */

/* A new tensor header (refcount 1, no data yet), registered with the
 * current scope.  Validates the shape as eh__check_shape does. */
eh_tensor *eh__new_tensor(const char *op, int ndim, const int64_t *shape,
                          eh_dtype dtype);

/* Take a tensor the frontend just created for its own use (a cast, a
 * scalar operand) out of the caller's scope: its creation reference
 * becomes the frontend's, dropped with eh_tensor_unref().  NULL-safe. */
eh_tensor *eh__own(eh_tensor *t);

/* ---- plugin_load.c ---------------------------------------------------- */

/* The plugin whose init function is running on this thread (for
 * messages and to attribute a registration), NULL outside one. */
const char *eh__plugin_loading(void);
/* Load every plugin EH_BACKEND_PATH names.  EH_OK, or the first failure's
 * code with its message in why. */
eh_status eh__load_env_plugins(char *why, size_t cap);

/* ---- backend_registry.c ------------------------------------------------ */

/* Make sure EH_BACKEND_PATH's plugins were loaded (at most once). */
void eh__backends_ready(void);

/* ---- custom_elementwise.c ---------------------------------------------- */

/* The kernel of ops with a per-element function, on every backend. */
eh_status eh__per_element_kernel(const eh_op_call *call);

/* ---- kernel_lookup.c --------------------------------------------------- */

/* Record why no kernel runs `op` on backend b (EH_ERR_UNSUPPORTED, naming
 * the op, the backend and the backends that have a kernel). */
eh_status eh__no_kernel(const eh_backend *b, int op);

/* ---- dispatch.c -------------------------------------------------------- */

/* A call for `op` with `n_in` inputs and zeroed parameters.  Inline so
 * that the caller's eh_op_call is zeroed in place (no ~400-byte copy of a
 * returned struct): it is on every op's path. */
static inline eh_op_call eh__call(eh_op op, int n_in, const eh_tensor *const *in)
{
    return (eh_op_call){.op = op, .n_in = n_in, .in = in};
}

/* Create the single output (ndim, shape, dtype), dispatch, return it.
 * NULL (output released, error recorded) on failure. */
eh_tensor *eh__run(eh_op_call *call, int ndim, const int64_t *shape, eh_dtype dtype);

/* Several outputs: outs[k] gets shape (ndims[k], shapes[k]) and dtypes[k].
 * On failure every output is released and set to NULL. */
eh_status eh__run_multi(eh_op_call *call, int n_out, const int *ndims,
                        const int64_t (*shapes)[EH_MAX_DIMS],
                        const eh_dtype *dtypes, eh_tensor **outs);

/* ---- custom_dynamic.c -------------------------------------------------- */

/* Run a validated call of an EH_CUSTOM_DYNAMIC op now, on the current
 * backend's kernel (whatever the backend; a deferring one evaluates the
 * inputs first): out[0 .. n_out) get the outputs the kernel gave. */
eh_status eh__custom_run_dynamic(const eh_custom_op_def *def, int id, const eh_tensor *const *in,
                                 int n_in, const eh_custom_args *args, eh_tensor **out, int n_out);

/* ---- random_sampling.c and simd/random_fill.c ------------------------------ */

/* One call of the f32/f16 uniform and normal kernel (stream version 2,
 * docs/random.md): uniform a + b u, u = word 2^-24 ... (normal == 0), or
 * normal a + b z (normal == 1), rounded to float, clamped to [lo, hi],
 * stored as f32 or (f16) f16. */
typedef struct eh__rand32_args {
    uint32_t key[2];
    uint32_t call;
    int normal, f16;
    double a, b;
    float lo, hi;
    void *out;
} eh__rand32_args;
/* Elements [begin, end) of the output; one build per instruction set (all
 * give the same bits), eh__rand_fill32 picks eh_isa_level()'s. */
#define EH__RAND_FILL32(isa) \
    void eh__rand_fill32_##isa(const eh__rand32_args *p, int64_t begin, int64_t end);
EH__RAND_FILL32(sse2)
#if defined(__x86_64__)
EH__RAND_FILL32(avx2)
EH__RAND_FILL32(avx512)
#endif
static inline void eh__rand_fill32(const eh__rand32_args *p, int64_t begin, int64_t end)
{
#if defined(__x86_64__)
    switch (eh_isa_level()) {
    case EH_ISA_AVX512: eh__rand_fill32_avx512(p, begin, end); return;
    case EH_ISA_AVX2: eh__rand_fill32_avx2(p, begin, end); return;
    default: break;
    }
#endif
    eh__rand_fill32_sse2(p, begin, end);
}

/* ---- ops_convert.c ----------------------------------------------------- */

/* t converted to dtype: an internal reference to t itself when it already
 * has that dtype, else a cast.  The caller drops the result with
 * eh_tensor_unref() -- never eh_release(), which could take a scope-owned
 * input out of its scope. */
eh_tensor *eh__as_dtype(const eh_tensor *t, eh_dtype dtype);

#endif
