/* <eh/backend_alloc.h> -- libeh's one heap allocator.
 *
 * Backend-side, like <eh/backend_api.h>: libeh's frontend and the built-in
 * backends include it, application code never does.  Internal, like every
 * backend_*.h: not installed, not exported from libeh.so.
 *
 * Every heap block libeh makes -- tensor headers and storage, scopes, lazy
 * graph nodes, workspaces and scratch of the kernels, plans, registries --
 * comes from these functions (not from malloc directly), so that the test
 * hook eh__test_fail_alloc(nth) (libeh/src/alloc.c) can make any one of
 * them fail and tests reach every EH_ERR_NOMEM path.  They behave as
 * their libc namesakes; a block from any of them is given back with
 * eh_mem_free (free() works too: they are libc blocks).  Blocks that
 * OpenBLAS, LAPACKE or FFTW allocate inside their own calls are theirs. */
#ifndef EH_BACKEND_ALLOC_H
#define EH_BACKEND_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *eh_mem_alloc(size_t bytes);                /* malloc        */
void *eh_mem_calloc(size_t count, size_t size);  /* calloc        */
void *eh_mem_realloc(void *p, size_t bytes);     /* realloc: on failure p is kept */
void *eh_mem_aligned(size_t align, size_t bytes);/* aligned_alloc (bytes rounded up to align) */
void eh_mem_free(void *p);                       /* free          */

#ifdef __cplusplus
}
#endif
#endif
