/* <eh/error.h> -- the thread-local error status.
 *
 * An op that fails returns NULL (or a status) and records a code and a
 * message for the calling thread.  Success does not clear the record; call
 * eh_clear_error() before a sequence you want to check.  An op handed a
 * NULL tensor while an error is already recorded returns NULL and keeps the
 * first error, so nested calls report the failure that started the chain. */
#ifndef EH_ERROR_H
#define EH_ERROR_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most recent error recorded on this thread (EH_OK if none). */
EH_API eh_status eh_last_error(void);
/* Its message, naming the op and the offending shapes/dtypes ("" if none).
 * Valid until the next libeh call on this thread. */
EH_API const char *eh_error_message(void);
/* Forget the recorded error. */
EH_API void eh_clear_error(void);
/* A stable name for a status code ("EH_ERR_SHAPE"), "EH_ERR_UNKNOWN" if not
 * a code. */
EH_API const char *eh_status_name(eh_status status);

#ifdef __cplusplus
}
#endif
#endif
