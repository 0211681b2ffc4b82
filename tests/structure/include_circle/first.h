/* tests/structure/include_circle/first.h -- includes second.h, which
 * includes it back: an include circle (the guards keep it compiling). */
#ifndef STRUCTURE_FIRST_H
#define STRUCTURE_FIRST_H
#include "second.h"
typedef int structure_first;
#endif
