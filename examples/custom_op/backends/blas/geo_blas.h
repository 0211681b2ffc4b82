/* backends/blas/geo_blas.h -- blas's kernels of the application's ops. */
#ifndef GEO_BLAS_H
#define GEO_BLAS_H

#include <eh/backend_api.h>

eh_status eh_blas_geo_sqdist(const eh_op_call *call);

#endif
