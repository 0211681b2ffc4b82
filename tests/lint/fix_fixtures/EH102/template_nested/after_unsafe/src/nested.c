/* Rewritable calls inside the arguments of a call template. */
#include <eh/eh.h>

eh_tensor *legacy_gemm(const eh_tensor *b, const eh_tensor *a);
eh_tensor *legacy_all(const eh_tensor *a, const eh_tensor *b);
eh_tensor *legacy_double(const eh_tensor *x, float *scratch);
eh_tensor *legacy_third(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_blas_matmul(const eh_tensor *a, const eh_tensor *b);

eh_tensor *template_in_template(const eh_tensor *a, const eh_tensor *b)
{
    return eh_matmul(b, eh_add(a, b));
}

eh_tensor *three_deep(const eh_tensor *a, const eh_tensor *b)
{
    return eh_add(eh_matmul(b, eh_add(a, /* bias */ b)), a);
}

eh_tensor *rename_in_template(const eh_tensor *a, const eh_tensor *b, const eh_tensor *c)
{
    return eh_add(eh_matmul(a, b), c);
}

eh_tensor *template_in_rename(const eh_tensor *a, const eh_tensor *b)
{
    return eh_matmul(eh_add(a, b), eh_matmul(a, eh_matmul(a, b)));
}

/* the inner template is unsafe, so the outer fix is too */
eh_tensor *unsafe_inside(const eh_tensor *a, const eh_tensor *b, float *buf)
{
    return eh_matmul(b, eh_multiply_scalar(a, 2.0));
}

/* the inner call has no fix ($3): it goes in as written, for a person */
eh_tensor *no_fix_inside(const eh_tensor *a, const eh_tensor *b)
{
    return eh_matmul(b, legacy_third(a, b));
}
