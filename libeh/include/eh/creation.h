/* <eh/creation.h> -- TO BE WRITTEN by the creation group. */
#ifndef EH_CREATION_H
#define EH_CREATION_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
