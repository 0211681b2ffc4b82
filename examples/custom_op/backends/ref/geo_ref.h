/* backends/ref/geo_ref.h -- ref's kernels of the application's ops. */
#ifndef GEO_REF_H
#define GEO_REF_H

#include <eh/backend_api.h>

eh_status eh_ref_geo_sqdist(const eh_op_call *call);

#endif
