#include "guarded.h"
int tile_b(void) { return HELPER_TILE * 2; }
