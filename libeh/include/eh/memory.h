/* <eh/memory.h> -- reference counts and scopes (docs/memory.md).
 *
 * Every tensor a function returns is owned by the caller: release it with
 * eh_release().  Inside a scope, tensors created on this thread are owned by
 * the scope instead and released by eh_scope_end(), so temporaries of nested
 * expressions need no bookkeeping:
 *
 *     eh_scope_begin();
 *     eh_tensor *z = eh_keep(eh_divide(eh_subtract(x, m), s));
 *     eh_scope_end();          // frees the subtract result, z survives
 *     ...
 *     eh_release(z);
 */
#ifndef EH_MEMORY_H
#define EH_MEMORY_H

#include <stddef.h>
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Add a reference; returns t (NULL-safe). */
EH_API eh_tensor *eh_retain(const eh_tensor *t);
/* Drop a reference; frees the tensor at zero (NULL-safe).  Releasing a
 * scope-owned tensor frees it now and takes it out of its scope. */
EH_API void eh_release(eh_tensor *t);
/* Reference count (0 for NULL), for tests and debugging. */
EH_API int eh_refcount(const eh_tensor *t);

/* Open a scope on this thread.  Scopes nest.  EH_ERR_NOMEM on failure. */
EH_API eh_status eh_scope_begin(void);
/* Release every tensor the innermost scope still owns.  EH_ERR_SCOPE if no
 * scope is open. */
EH_API eh_status eh_scope_end(void);
/* Move t out of the innermost scope that owns it: to the enclosing scope,
 * or to the caller if there is none.  Returns t; NULL-safe. */
EH_API eh_tensor *eh_keep(eh_tensor *t);
/* Number of scopes open on this thread. */
EH_API int eh_scope_depth(void);

/* Give back to the system the freed large blocks libeh keeps for reuse
 * (docs/memory.md: a bounded cache that spares repeated ops on large
 * tensors fresh page faults).  Returns the bytes released.  Thread-safe;
 * the cache is also emptied at exit. */
EH_API size_t eh_trim_memory(void);

#ifdef __cplusplus
}
#endif
#endif
