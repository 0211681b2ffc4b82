/* The reference "backend" of the legacy layout: written with ops only,
 * nothing backend-specific in its functions. */
#include <eh/eh.h>

eh_tensor *ref_total(const eh_tensor *x) { return eh_sum(x, NULL, 0, 0); }
