/* <eh/eh.h> -- the umbrella header of libeh.  Applications include this
 * and nothing else. */
#ifndef EH_EH_H
#define EH_EH_H

#include "types.h"
#include "error.h"
#include "dtype.h"
#include "memory.h"
#include "tensor.h"
#include "backend.h"
#include "device.h"
#include "creation.h"
#include "shape.h"
#include "elementwise.h"
#include "reduction.h"
#include "linalg.h"
#include "signal.h"
#include "indexing.h"
#include "random.h"
#include "custom_op.h"

/* Version of this libeh. */
#define EH_VERSION_MAJOR 0
#define EH_VERSION_MINOR 1
#define EH_VERSION_PATCH 0
#define EH_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif
/* The version of the library linked at run time. */
EH_API const char *eh_version(void);
#ifdef __cplusplus
}
#endif

#endif
