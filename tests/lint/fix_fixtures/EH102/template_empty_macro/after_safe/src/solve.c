/* The templates move the arguments: the solve's last one, `x ONE_LENGTH
 * ONE_LENGTH`, holds two more arguments where STR_LENGTHS is defined, and
 * solve_upper(a, n, x ONE_LENGTH ONE_LENGTH) would not compile there: no
 * fix.  The scaling has no such argument: fixed. */
#include "legacy.h"

void solve_and_scale(const double *a, int n, double *x, double s)
{
    legacy_trsv("U", "N", a, n, x ONE_LENGTH ONE_LENGTH);
    scale(x, n, s);
}
