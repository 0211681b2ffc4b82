/* tests/structure/include_circle/user.c -- includes the circle; calls
 * nothing, so only the include graph has a loop. */
#include "first.h"

structure_first structure_user(void);
structure_first structure_user(void) { return 0; }
