/* geo.h -- the application's own ops, as its code calls them. */
#ifndef GEO_H
#define GEO_H

#include <eh/eh.h>

/* Define the ops and register their kernels (registration.c); once, before
 * the first call, from any thread. */
eh_status geo_register(void);

/* Pairwise squared distances: x (n, d), y (m, d) -> (n, m).  f32 or f64. */
eh_tensor *geo_sqdist(const eh_tensor *x, const eh_tensor *y);
/* limit * tanh(x / limit), elementwise; integers give f64. */
eh_tensor *geo_softclip(const eh_tensor *x, double limit);

/* The definitions, for registration.c. */
eh_status geo_define_ops(void);

#endif
