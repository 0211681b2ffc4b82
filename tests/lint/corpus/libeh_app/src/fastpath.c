/* A "fast path" that reaches around the ops API. */
#include <string.h>
#include <stdio.h>
#include <eh/eh.h>
#include <eh/backend_api.h>                      // expect: EH101

eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

eh_tensor *product(const eh_tensor *a, const eh_tensor *b)
{
    if (strcmp(eh_get_backend(), "blas") == 0)   // expect: EH103
        return eh_blas_matmul(a, b);             // expect: EH102
    return eh_matmul(a, b);
}

int threads(void)
{
#ifdef EH_HAVE_BLAS                              // expect: EH103
    return 4;
#else
    return 1;
#endif
}

/* look-alikes: choosing a backend and printing its name are fine */
void use_blas(void)
{
    eh_set_backend("blas");
    printf("running on %s\n", eh_get_backend());
    const char *name = eh_get_backend();
    if (name == NULL)
        return;
}
