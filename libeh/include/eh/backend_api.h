/* <eh/backend_api.h> -- the backend-author API.
 *
 * Backends (backends/<name>/) and libeh's own core include this header.
 * Frontend code never does: emberlint's EH101 reports it.
 *
 * How an op runs: the frontend function (libeh/src/ops_<group>.c)
 * validates its arguments, works out every output's shape and dtype,
 * and fills an eh_op_call.  Dispatch then either hands the call to the
 * backend's `defer` hook (lazy), or materializes the inputs, allocates
 * the outputs and runs the backend's kernel for the op.  Kernels therefore
 * see only valid calls: same-dtype operands where the op's frontend says
 * so, outputs already shaped and allocated.  Data-dependent failures
 * (an index out of range, a singular matrix) are reported by the kernel
 * with eh_set_error() and a non-OK return. */
#ifndef EH_BACKEND_API_H
#define EH_BACKEND_API_H

#include <stdatomic.h>
#include "eh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported from libeh.so (and from a program
 * linked with libeh.a and -rdynamic): out-of-tree backends, loaded as
 * plugins, call it (docs/extending.md). */
#if defined(__GNUC__) && !defined(EH_STATIC)
#pragma GCC visibility push(default)
#endif

/* ---- the op set, from libeh/ops.def ---------------------------------- */

typedef enum eh_op_kind {
    EH_KIND_CREATION,
    EH_KIND_SHAPE,
    EH_KIND_UNARY,
    EH_KIND_BINARY,
    EH_KIND_TERNARY,
    EH_KIND_REDUCTION,
    EH_KIND_LINALG,
    EH_KIND_SIGNAL,
    EH_KIND_RANDOM,
    EH_KIND_CONVERT,
    EH_KIND_META
} eh_op_kind;

typedef enum eh_op {
#define EH_OP(name, kind, n_in) EH_OP_##name,
#include "ops.def"
    EH_OP_COUNT
} eh_op;

/* The kind of op number `op` (EH_KIND_META when out of range). */
eh_op_kind eh_op_kind_of(eh_op op);
/* 1 for UNARY, BINARY and TERNARY ops, and cast: elementwise, fusable.
 * Also for a custom op declared EH_CUSTOM_ELEMENTWISE with a per-element
 * function, one output and at most three inputs. */
int eh_op_is_elementwise(eh_op op);

/* EH_IF_KERNEL_<kind>(x) expands to x for every kind that has a backend
 * kernel, and to nothing for META.  Backends derive their kernel
 * declarations and tables from ops.def with it:
 *   #define EH_OP(name, kind, n) EH_IF_KERNEL_##kind([EH_OP_##name] = eh_ref_##name,) */
#define EH_IF_KERNEL_CREATION(...) __VA_ARGS__
#define EH_IF_KERNEL_SHAPE(...) __VA_ARGS__
#define EH_IF_KERNEL_UNARY(...) __VA_ARGS__
#define EH_IF_KERNEL_BINARY(...) __VA_ARGS__
#define EH_IF_KERNEL_TERNARY(...) __VA_ARGS__
#define EH_IF_KERNEL_REDUCTION(...) __VA_ARGS__
#define EH_IF_KERNEL_LINALG(...) __VA_ARGS__
#define EH_IF_KERNEL_SIGNAL(...) __VA_ARGS__
#define EH_IF_KERNEL_RANDOM(...) __VA_ARGS__
#define EH_IF_KERNEL_CONVERT(...) __VA_ARGS__
#define EH_IF_KERNEL_META(...)

/* ---- tensors ----------------------------------------------------------- */

/* Hooks of a deferred tensor, set by the backend that deferred it (its
 * defer hook, below, sets t->deferred_ops and t->deferred on each output
 * before the call returns it).
 *
 * Threads: a deferred tensor may be read by several threads at once
 * (docs/memory.md, "Threads").  libeh loads t->deferred_ops with acquire
 * (eh_materialize; views, eh_tensor_share_data) and, when it is NULL,
 * reads t->data and t->storage with no lock.  So evaluate:
 *   - may run on several threads at once, for t and for tensors that
 *     depend on the same deferred work: it takes the backend's own lock
 *     and, under it, checks again whether t is still deferred (another
 *     thread may have computed it meanwhile: then EH_OK);
 *   - writes t's storage and elements first (eh_tensor_alloc_data) and
 *     clears t->deferred_ops last, with a release store:
 *         __atomic_store_n(&t->deferred_ops, NULL, __ATOMIC_RELEASE);
 *   - on failure records the error and leaves t deferred, to be evaluated
 *     again later.
 * (backends/lazy does this: evaluate.c, graph.c's detach_output.) */
typedef struct eh_deferred_ops {
    /* Compute t: on success t->data is set and t->deferred_ops cleared
     * (last, release).  May run on several threads at once: see above. */
    eh_status (*evaluate)(eh_tensor *t);
    /* t is freed while still deferred: drop the backend's state for it.
     * Runs once, on the thread that drops the last reference. */
    void (*discard)(eh_tensor *t);
} eh_deferred_ops;

struct eh_scope;
/* A reference-counted block of elements that views share (tensor.c). */
typedef struct eh_storage eh_storage;

struct eh_tensor {
    atomic_int refcount;   /* every reference: caller's, scope's, internal */
    atomic_int user_refs;  /* of which taken with eh_retain (see memory.c) */
    eh_dtype dtype;
    int ndim;
    int64_t shape[EH_MAX_DIMS];
    int64_t size;          /* product of shape; 1 for 0-d                 */
    size_t nbytes;         /* size * element size                          */
    void *data;            /* dense row-major elements; NULL while deferred.
                            * Kernels read inputs here and write outputs
                            * (fresh, never shared); a view's data points
                            * into another tensor's block.              */
    eh_storage *storage;   /* the block data lives in (NULL: inline)     */
    int exposed;           /* a writable pointer was handed out          */
    const eh_deferred_ops *deferred_ops; /* non-NULL while deferred       */
    void *deferred;        /* the deferring backend's state                */
    struct eh_scope *scope;/* owning scope, or NULL                        */
    size_t scope_slot;
};

/* A new tensor header (refcount 1, no storage, not owned by any scope),
 * for backends that need scratch tensors.  NULL with the error recorded on
 * a bad shape or out of memory. */
eh_tensor *eh_tensor_new(int ndim, const int64_t *shape, eh_dtype dtype);

/* Internal references (a lazy node holding its inputs, a frontend holding
 * a converted operand).  Unlike eh_retain/eh_release they never touch
 * scope ownership, so they cannot take a tensor away from its scope.
 * eh_tensor_unref frees at zero. */
eh_tensor *eh_tensor_ref(const eh_tensor *t);
void eh_tensor_unref(eh_tensor *t);

/* Make t's data available (evaluates a deferred tensor). */
eh_status eh_materialize(const eh_tensor *t);
/* Allocate storage for an output whose shape and dtype are set. */
eh_status eh_tensor_alloc_data(eh_tensor *t);
/* Give out (no data yet; as many bytes as in) in's elements without a
 * copy: out becomes a view sharing in's storage, as the frontend's views
 * do (copy-on-write keeps writes through either private).  1 when done;
 * 0 when in's elements cannot be shared (deferred, inline or handed out
 * writable), and the caller copies. */
int eh_tensor_share_data(eh_tensor *out, const eh_tensor *in);

/* ---- op calls and backends -------------------------------------------- */

/* Scalar and integer parameters of a call.  Which fields an op uses is
 * documented with its frontend in libeh/src/ops_<group>.c. */
typedef struct eh_params {
    double f[4];                 /* scalar parameters                        */
    int64_t i[8];                /* integer parameters                       */
    int n_axes;                  /* entries used in axes                     */
    int axes[EH_MAX_DIMS];       /* non-negative axes, or a permutation      */
    int keepdims;
    int64_t v[3 * EH_MAX_DIMS];  /* per-dimension vectors (slice, pad, tile) */
    const void *blob;            /* custom ops: the call's params blob      */
    size_t blob_size;            /* (EH_CUSTOM_PARAMS reads it), else unused */
} eh_params;

typedef struct eh_op_call {
    eh_op op;
    int n_in;
    const eh_tensor *const *in;  /* n_in inputs, materialized for kernels  */
    int n_out;
    eh_tensor *const *out;       /* n_out outputs, allocated for kernels   */
    eh_params p;
} eh_op_call;

typedef eh_status (*eh_kernel_fn)(const eh_op_call *call);

typedef struct eh_backend {
    /* Set by EH_BACKEND_ABI in a table given to eh_backend_register (the
     * built-in tables leave them 0).  Always the first three fields, so
     * that libeh can read them from a table of any other layout. */
    uint32_t abi_version;
    uint32_t size;
    uint32_t op_set;
    const char *name;
    const char *description;
    /* One kernel per op; NULL means unsupported (never for a shipped
     * backend: every op in ops.def has an entry). */
    eh_kernel_fn kernels[EH_OP_COUNT];
    /* Optional.  When set, dispatch hands every call here instead of
     * running a kernel: outputs have shape and dtype but no data, and the
     * backend marks them deferred (eh_deferred_ops, above, says what its
     * evaluate hook must do).  Inputs may themselves be deferred, and
     * another thread may be evaluating them; calls come from several
     * threads at once. */
    eh_status (*defer)(const eh_op_call *call);
    /* Optional: the backend whose kernels run what this table has none
     * of -- built-in ops whose entry is NULL, and custom ops with no kernel
     * registered under this backend's name (lazy: the eager backend it
     * evaluates on).  Resolved by eh_backend_kernel. */
    const char *delegate;
} eh_backend;

/* The backend in use (NULL, with the error recorded, if none is valid). */
const eh_backend *eh_current_backend(void);
/* A backend by name (built in or registered), NULL if there is none.
 * Does not load EH_BACKEND_PATH's plugins (eh_list_backends does). */
const eh_backend *eh_find_backend(const char *name);

/* Run one call on the current backend, as the frontend does. */
eh_status eh_dispatch(const eh_op_call *call);
/* Run one call eagerly on a given backend (the lazy backend evaluates its
 * non-fusable nodes through this). */
eh_status eh_run_kernel(const eh_backend *backend, const eh_op_call *call);

/* ---- errors -------------------------------------------------------------- */

/* Record an error for this thread.  Messages start with the op name:
 * "matmul: shapes (2, 3) and (4, 5) are not aligned". */
eh_status eh_set_error(eh_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "(2, 3)" for a tensor's shape, in one of a few rotating thread-local
 * buffers: fine for up to four uses in one message. */
const char *eh_shape_str(int ndim, const int64_t *shape);

/* ---- helpers for kernels ------------------------------------------------ */

/* Element i of storage `data` of `dtype`, as a double / int64. */
static inline double eh_load_f64(const void *data, eh_dtype dtype, int64_t i)
{
    switch (dtype) {
    case EH_F16: return (double)eh_f16_to_f32(((const uint16_t *)data)[i]);
    case EH_F32: return (double)((const float *)data)[i];
    case EH_F64: return ((const double *)data)[i];
    case EH_I32: return (double)((const int32_t *)data)[i];
    case EH_I64: return (double)((const int64_t *)data)[i];
    case EH_BOOL: return (double)((const uint8_t *)data)[i];
    default: return 0.0;
    }
}

/* Floats convert as eh_cast does: truncate toward zero, saturate, NaN -> 0
 * (a plain C cast is undefined out of range). */
static inline int64_t eh_load_i64(const void *data, eh_dtype dtype, int64_t i)
{
    switch (dtype) {
    case EH_I32: return ((const int32_t *)data)[i];
    case EH_I64: return ((const int64_t *)data)[i];
    case EH_BOOL: return ((const uint8_t *)data)[i];
    default: {
        double v = eh_load_f64(data, dtype, i);
        if (v != v)
            return 0;
        if (v >= 9223372036854775807.0)
            return INT64_MAX;
        if (v <= -9223372036854775808.0)
            return INT64_MIN;
        return (int64_t)v;
    }
    }
}

/* Store v converted to dtype (float -> int truncates toward zero and
 * saturates, NaN -> 0; anything -> bool is v != 0). */
void eh_store_f64(void *data, eh_dtype dtype, int64_t i, double v);
void eh_store_i64(void *data, eh_dtype dtype, int64_t i, int64_t v);

/* Row-major strides in elements of a shape. */
void eh_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
/* Strides in elements for reading t as if broadcast to (ndim, shape):
 * 0 along broadcast dimensions.  t must be broadcast-compatible. */
void eh_broadcast_strides(const eh_tensor *t, int ndim, const int64_t *shape,
                          int64_t *strides);

/* Odometer over a shape, for kernels that walk broadcast operands. */
typedef struct eh_nd_iter {
    int ndim;
    int64_t shape[EH_MAX_DIMS];
    int64_t idx[EH_MAX_DIMS];
} eh_nd_iter;
void eh_nd_iter_init(eh_nd_iter *it, int ndim, const int64_t *shape);
/* Advance to the next index in row-major order; 0 when past the end. */
int eh_nd_iter_next(eh_nd_iter *it);
/* Offset of the current index under the given strides. */
static inline int64_t eh_nd_iter_offset(const eh_nd_iter *it, const int64_t *strides)
{
    int64_t off = 0;
    for (int d = 0; d < it->ndim; d++)
        off += it->idx[d] * strides[d];
    return off;
}

/* ---- threads --------------------------------------------------------------- */

/* Number of worker threads backends use: EH_NUM_THREADS if set (>= 1),
 * else the number of online cores. */
int eh_num_threads(void);

/* Run fn(ctx, begin, end, worker) over [0, n) split into contiguous chunks
 * of at least `grain` items, on up to eh_num_threads() threads (the caller
 * is one of them).  Returns when every chunk is done.  Small n runs inline.
 * Workers must not call eh_parallel_for themselves (it then runs inline). */
typedef void (*eh_range_fn)(void *ctx, int64_t begin, int64_t end, int worker);
void eh_parallel_for(int64_t n, int64_t grain, eh_range_fn fn, void *ctx);

/* ---- instruction sets ------------------------------------------------------ */

/* Kernels in a simd/ folder are compiled once per instruction set and
 * chosen at run time (docs/performance.md).  The level is detected once:
 * the best the CPU and the OS support, lowered by the environment variable
 * EH_ISA (sse2, avx2, avx512: a level above the detected one is ignored).
 * Results of the transcendental kernels may differ between levels within
 * their documented ulp bounds; everything else is the same bits. */
typedef enum eh_isa {
    EH_ISA_SSE2,    /* x86-64 baseline (also: any non-x86 CPU, portable C) */
    EH_ISA_AVX2,    /* x86-64-v3: AVX2, FMA, F16C, BMI2                     */
    EH_ISA_AVX512,  /* x86-64-v4: AVX-512 F, BW, CD, DQ, VL                 */
    EH_ISA_COUNT
} eh_isa;

/* The level kernels use now. */
eh_isa eh_isa_level(void);
/* The best level this CPU supports (EH_ISA not applied). */
eh_isa eh_isa_detected(void);
/* Use `level` from now on (tests run every path this way).  Returns the
 * level in effect: `level`, or the detected one when `level` is above it. */
eh_isa eh_isa_set(eh_isa level);
/* "sse2", "avx2", "avx512" ("?" out of range). */
const char *eh_isa_name(eh_isa level);

/* ---- random numbers (DESIGN.md 3) ------------------------------------------ */

/* Philox4x32-10: one block of four 32-bit outputs. */
void eh_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* ---- extending libeh: out-of-tree backends, custom-op kernels ------------- */
/* docs/extending.md has the whole story, with complete examples. */

/* The layout version of eh_backend, eh_op_call, eh_params and eh_tensor.
 * Bumped whenever one of them changes. */
#define EH_BACKEND_ABI_VERSION 2u /* 2: eh_tensor gained storage, exposed (views) */

/* A fingerprint of libeh/ops.def (the position, name length, kind and
 * input count of every op): a table built against another op set numbers
 * its kernels differently and is refused. */
enum {
    EH_OP_SET_ID = 0
#define EH_OP(name, kind, n_in)                                                                    \
    +(EH_OP_##name + 1) * ((int)sizeof(#name) * 64 + EH_KIND_##kind * 4 + (n_in) + 1)
#include "ops.def"
};

/* The first entry of a table given to eh_backend_register:
 *   static const eh_backend table = {EH_BACKEND_ABI, .name = "blis", ...}; */
#define EH_BACKEND_ABI                                                                             \
    .abi_version = EH_BACKEND_ABI_VERSION, .size = (uint32_t)sizeof(eh_backend),                   \
    .op_set = (uint32_t)EH_OP_SET_ID

/* Add a backend to this process, selectable by name like the built-in
 * ones.  The table must outlive the process (static storage) and is never
 * copied.  Refused with EH_ERR_BACKEND when it was built for another ABI,
 * table size or op set, or when its name is taken; EH_ERR_INVALID_ARG
 * when its name is not [a-z0-9_]+ (at most 31 characters) or its delegate
 * is not a backend.  Thread-safe. */
eh_status eh_backend_register(const eh_backend *table);

/* The one function a backend plugin exports.  eh_backend_load() calls it
 * once after loading the shared object; it registers the plugin's table
 * (and, if it has any, custom ops and their kernels) and returns EH_OK or
 * the error of the registration that failed.  It must not run ops. */
#define EH_PLUGIN_INIT eh_backend_plugin_init
#define EH_PLUGIN_INIT_NAME "eh_backend_plugin_init"
eh_status eh_backend_plugin_init(void);

/* The lookup API: the kernel that runs `op` (an op of ops.def, or a custom
 * op's id) on `backend` -- its own entry; else its delegate's, and so on;
 * for a custom op then the kernel of the op's fallback backend, or the
 * op's per-element function.  NULL when there is none (and for META ops).
 * A plugin points ops it does not accelerate at another backend's kernels
 * with it:  eh_backend_kernel(eh_find_backend("ref"), EH_OP_matmul).
 * `whose` (optional) gets the name of the backend whose kernel it is, or
 * NULL for a custom op's per-element function. */
eh_kernel_fn eh_backend_kernel(const eh_backend *backend, int op);
eh_kernel_fn eh_backend_kernel_whose(const eh_backend *backend, int op, const char **whose);

/* Register `kernel` for custom op `op` ("namespace.name") on the backend
 * named `backend` (which need not exist yet, nor the op be defined yet:
 * definition and kernels may come in any order, from any thread, at any
 * time before the op is called).  Registering the same kernel again is a
 * no-op; a different kernel for the same op and backend is
 * EH_ERR_INVALID_ARG.  The kernel sees a validated call: inputs
 * materialized (cast as the op's shape rule says), outputs allocated
 * (EH_CUSTOM_DYNAMIC: made by the kernel, below),
 * p.blob/p.blob_size the call's params, p.axes/p.n_axes/p.keepdims a
 * reduction's normalized axes. */
eh_status eh_custom_op_kernel(const char *op, const char *backend, eh_kernel_fn kernel);

/* A table of kernel registrations, for generated code. */
typedef struct eh_custom_kernel {
    const char *op;
    const char *backend;
    eh_kernel_fn kernel;
} eh_custom_kernel;
/* eh_custom_op_kernel for each entry, in order; stops at the first error. */
eh_status eh_custom_op_kernels(const eh_custom_kernel *kernels, int n);

/* A custom op's params blob in a kernel, as a pointer to `type`. */
#define EH_CUSTOM_PARAMS(call, type) ((const type *)(call)->p.blob)

/* Kernels of EH_CUSTOM_DYNAMIC ops make their outputs: call->out[k] is
 * NULL until one of these two gives it, and every output must be given
 * before the kernel returns EH_OK.  Call them from the kernel itself (on
 * its thread); anywhere else they fail with EH_ERR_INVALID_ARG.
 *
 * eh_custom_output: output k becomes a new tensor of that shape and dtype,
 * with storage, returned for the kernel to fill (NULL with the error
 * recorded on a bad shape or dtype, or out of memory). */
eh_tensor *eh_custom_output(const eh_op_call *call, int k, int ndim, const int64_t *shape,
                            eh_dtype dtype);
/* eh_custom_output_set: output k is t, a tensor the kernel made (with
 * frontend ops, say): its reference passes to the caller as it is.  An
 * input of the call given back is copied instead (an op's result is never
 * one of its inputs).  t == NULL means the kernel has no result: the call
 * fails with the error recorded while the kernel ran, if any, else "<op>:
 * the kernel for backend 'b' returned no result" (EH_ERR_UNSUPPORTED); the
 * kernel returns what this returns. */
eh_status eh_custom_output_set(const eh_op_call *call, int k, eh_tensor *t);

#if defined(__GNUC__) && !defined(EH_STATIC)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
