/* tests/structure/one_way/low.c -- a helper that calls nothing above it. */
#include "low.h"

int structure_low(int x) { return x + 1; }
