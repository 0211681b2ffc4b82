/* tests/structure/one_way/top.c -- uses low.c, which never uses it back:
 * mk/check-circles.sh must accept the pair. */
#include "low.h"

int structure_top(int x);
int structure_top(int x) { return structure_low(x) * 2; }
