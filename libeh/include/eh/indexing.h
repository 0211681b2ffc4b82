/* <eh/indexing.h> -- TO BE WRITTEN by the indexing group. */
#ifndef EH_INDEXING_H
#define EH_INDEXING_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
