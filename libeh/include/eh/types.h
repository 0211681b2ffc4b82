/* <eh/types.h> -- the basic vocabulary of libeh: dtypes, status codes, the
 * opaque tensor handle. */
#ifndef EH_TYPES_H
#define EH_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(EH_STATIC)
#define EH_API __attribute__((visibility("default")))
#else
#define EH_API
#endif

/* Most dimensions a tensor can have. */
#define EH_MAX_DIMS 8

typedef enum eh_dtype {
    EH_F16 = 0, /* IEEE binary16 storage, computed in f32 */
    EH_F32,
    EH_F64,
    EH_I32,
    EH_I64,
    EH_BOOL,    /* one byte, 0 or 1 */
    EH_DTYPE_COUNT
} eh_dtype;

/* Status codes.  Stable: a code keeps its value forever. */
typedef enum eh_status {
    EH_OK = 0,
    EH_ERR_NULL_ARG = 1,     /* a required pointer argument was NULL        */
    EH_ERR_DTYPE = 2,        /* dtype not accepted or operands disagree      */
    EH_ERR_SHAPE = 3,        /* shapes incompatible (broadcast, matmul, ...) */
    EH_ERR_AXIS = 4,         /* axis out of range or repeated                */
    EH_ERR_NEGATIVE_SIZE = 5,/* a dimension or count below zero              */
    EH_ERR_OVERFLOW = 6,     /* shape product overflows int64_t / size_t     */
    EH_ERR_NOMEM = 7,        /* allocation failed                            */
    EH_ERR_INVALID_ARG = 8,  /* an argument's value is not accepted          */
    EH_ERR_INDEX = 9,        /* an index (gather, scatter, ...) out of range */
    EH_ERR_BACKEND = 10,     /* unknown backend name                         */
    EH_ERR_UNSUPPORTED = 11, /* the current backend lacks this op            */
    EH_ERR_DEVICE = 12,      /* unknown or unavailable device                */
    EH_ERR_LINALG = 13,      /* singular matrix, not positive definite, ...  */
    EH_ERR_SCOPE = 14,       /* scope misuse (end without begin, ...)        */
    EH_ERR_INTERNAL = 15     /* a bug in libeh; please report it             */
} eh_status;

/* Opaque, reference-counted tensor.  Always dense, row-major, host memory
 * once materialized. */
typedef struct eh_tensor eh_tensor;

#ifdef __cplusplus
}
#endif
#endif
