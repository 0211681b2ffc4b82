/* <eh/device.h> -- devices.  libeh runs on "cpu"; naming any other device
 * is EH_ERR_DEVICE. */
#ifndef EH_DEVICE_H
#define EH_DEVICE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills names[0..cap) with available device names, returns the count. */
EH_API int eh_get_available_devices(const char **names, int cap);
/* A copy of t on `device`. */
EH_API eh_tensor *eh_to_device(const eh_tensor *t, const char *device);
/* The device t lives on ("cpu"); NULL for NULL. */
EH_API const char *eh_get_device(const eh_tensor *t);

#ifdef __cplusplus
}
#endif
#endif
