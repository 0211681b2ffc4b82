/* The solve's last argument holds a project macro naming the header's
 * ONE_LENGTH (`#define LEN1 ONE_LENGTH`): it expands to nothing here and
 * to a string length where STR_LENGTHS is defined, as ONE_LENGTH itself
 * does: no fix.  The scaling has no such argument: fixed. */
#include "legacy.h"

#define LEN1 ONE_LENGTH

void solve_and_scale(const double *a, int n, double *x, double s)
{
    legacy_trsv("U", "N", a, n, x LEN1 LEN1);
    scale(x, n, s);
}
