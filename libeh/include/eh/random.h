/* <eh/random.h> -- TO BE WRITTEN by the random group. */
#ifndef EH_RANDOM_H
#define EH_RANDOM_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
