/* <eh/shape.h> -- TO BE WRITTEN by the shape group. */
#ifndef EH_SHAPE_H
#define EH_SHAPE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
