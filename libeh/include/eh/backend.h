/* <eh/backend.h> -- choosing a backend, and what the op set is.
 *
 * The backend is process-wide.  The default comes from the EH_BACKEND
 * environment variable at first use; without it, the best backend built.
 * An unknown name is an error (EH_ERR_BACKEND), never a silent fallback:
 * with a bad EH_BACKEND every op fails until eh_set_backend succeeds. */
#ifndef EH_BACKEND_H
#define EH_BACKEND_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

EH_API eh_status eh_set_backend(const char *name);
/* Name of the current backend; NULL (with the error recorded) when
 * EH_BACKEND named an unknown backend and none was set since. */
EH_API const char *eh_get_backend(void);
/* Fills names[0..cap) with the backends built into this library and
 * returns how many there are (may exceed cap).  names may be NULL. */
EH_API int eh_list_backends(const char **names, int cap);

/* The op set (libeh/ops.def). */
EH_API int eh_op_count(void);
/* Name of op number i ("add"), NULL when out of range. */
EH_API const char *eh_op_name(int op);
/* Op number for a name, -1 if there is none. */
EH_API int eh_op_lookup(const char *name);
/* 1 if backend `name` implements op number `op` (META ops, answered by the
 * frontend, count as implemented), 0 if not, -1 for an unknown backend or op. */
EH_API int eh_backend_supports(const char *name, int op);

#ifdef __cplusplus
}
#endif
#endif
