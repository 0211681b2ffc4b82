/* profile.c -- how far each standardised reading is from three reference
 * operating profiles, by squared Euclidean distance.  The distances are
 * the application's own op (pairwise_sqdist, in ops/blas/ and ops/ref/):
 * BLAS computes them when the blas backend is selected, the portable
 * version otherwise. */
#include <string.h>
#include "pipeline.h"
#include "ops/blas/blas_ops.h"
#include "ops/ref/ref_ops.h"

/* The profiles, in standardised channel units: idle, nominal, loaded. */
static const float profile_points[N_PROFILES * N_CHANNELS] = {
    -1.0f, 0.5f, -1.2f,
    0.0f, 0.0f, 0.0f,
    1.2f, -0.8f, 1.1f,
};

eh_tensor *profile_distances(const eh_tensor *z)
{
    const int64_t shape[2] = {N_PROFILES, N_CHANNELS};
    eh_tensor *profiles = eh_convert_to_tensor(profile_points, 2, shape, EH_F32);
    if (!profiles)
        return NULL;
    eh_tensor *d2;
    if (strcmp(eh_get_backend(), "blas") == 0)
        d2 = eh_blas_pairwise_sqdist(z, profiles);
    else
        d2 = eh_ref_pairwise_sqdist(z, profiles);
    return d2;
}
