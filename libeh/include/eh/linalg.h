/* <eh/linalg.h> -- TO BE WRITTEN by the linalg group. */
#ifndef EH_LINALG_H
#define EH_LINALG_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
