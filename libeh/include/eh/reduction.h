/* <eh/reduction.h> -- TO BE WRITTEN by the reduction group. */
#ifndef EH_REDUCTION_H
#define EH_REDUCTION_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
