/* Look-alikes: none of these is a backend-private include. */
#include <eh/eh.h>              /* the public API */
#include <eh/backend.h>         /* public backend selection, not backend_api.h */
#include "cblas_helpers.h"      /* a frontend header named like cblas */
#include "my_backends.h"        /* "backends" in a file name */
#if 0
#include <cblas.h>              /* never included */
#endif
/* #include <lapacke.h> in a comment */
static const char *const doc = "#include <fftw3.h>";

int lookalikes(void)
{
    return doc[0] + cblas_helper_count() + my_backend_count();
}
