/* registration.c -- binds the application's ops to their kernels: the
 * definitions (geo.c), then one table of kernels per backend.  Like
 * libeh's own dispatch layer it knows both sides, so the configuration
 * (.emberlint.json) makes it core code. */
#include "backends/blas/geo_blas.h"
#include "backends/ref/geo_ref.h"
#include "geo.h"

static const eh_custom_kernel geo_kernels[] = {
    {"geo.sqdist", "ref", eh_ref_geo_sqdist},
    {"geo.sqdist", "blas", eh_blas_geo_sqdist},
    /* geo.softclip has a per-element function: no kernels needed */
};

eh_status geo_register(void)
{
    eh_status st = geo_define_ops();
    if (st != EH_OK)
        return st;
    return eh_custom_op_kernels(geo_kernels, (int)(sizeof geo_kernels / sizeof geo_kernels[0]));
}
