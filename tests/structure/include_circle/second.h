/* tests/structure/include_circle/second.h -- the other half. */
#ifndef STRUCTURE_SECOND_H
#define STRUCTURE_SECOND_H
#include "first.h"
typedef int structure_second;
#endif
