/* The transpose of a matrix, copied. */
#include "ref_ops.h"

/* perm NULL (n_perm 0) or {1, 0}: the only permutations of a matrix. */
eh_tensor *eh_ref_transpose(const eh_tensor *x, const int *perm, int n_perm)
{
    if (!x || eh_get_dtype(x) != EH_F32 || eh_ndim(x) != 2)
        return NULL;
    if (perm && n_perm != 0 && !(n_perm == 2 && perm[0] == 1 && perm[1] == 0))
        return NULL;
    int64_t rows = eh_dim(x, 0), cols = eh_dim(x, 1);
    const float *px = eh_data_f32((eh_tensor *)x);
    const int64_t shape[2] = {cols, rows};
    eh_tensor *out = eh_zeros(2, shape, EH_F32);
    float *po = eh_data_f32(out);
    if (!px || !po)
        return NULL;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            po[j * rows + i] = px[i * cols + j];
    return out;
}
