/* <eh/backend_alloc.h> -- libeh's one heap allocator.
 *
 * For libeh's frontend and its built-in backends (ref, blas, lazy) only.
 * Internal, unlike <eh/backend_api.h>: not installed, and eh_mem_* are not
 * exported from libeh.so.  Code built outside libeh -- backend plugins,
 * applications' custom-op kernels -- allocates with malloc/free
 * (docs/adding-an-op.md); its allocations are outside the test hook.
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
void *eh_mem_aligned(size_t align, size_t bytes);/* aligned_alloc (align a power of two; bytes rounded up to it) */
void eh_mem_free(void *p);                       /* free          */

#ifdef __cplusplus
}
#endif
#endif
