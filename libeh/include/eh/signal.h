/* <eh/signal.h> -- TO BE WRITTEN by the signal group. */
#ifndef EH_SIGNAL_H
#define EH_SIGNAL_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
