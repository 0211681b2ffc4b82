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
/* Fills names[0..cap) with the backends of this process -- built into
 * this library, then those registered by plugins in load order -- and
 * returns how many there are (may exceed cap).  names may be NULL. */
EH_API int eh_list_backends(const char **names, int cap);

/* Load an out-of-tree backend: a shared object exporting
 * eh_backend_plugin_init, which registers its table (docs/extending.md).
 * Its backend is then selected like any other (eh_set_backend, or
 * EH_BACKEND).  Loading the same file again is a no-op.  Fails with
 * EH_ERR_BACKEND, naming the file and why: it does not exist or cannot be
 * loaded, is not a libeh plugin, was built for another ABI or op set, or
 * registers a name already taken.  A plugin that failed stays loaded but
 * registers nothing usable.
 *
 * The environment variable EH_BACKEND_PATH (a ':'-separated list of plugin
 * files, and of directories whose libeh-*.so files are loaded in name
 * order) is loaded at the first eh_get_backend, eh_set_backend,
 * eh_list_backends or op call; if one fails, every op fails with its
 * EH_ERR_BACKEND message until eh_set_backend succeeds, as for a bad
 * EH_BACKEND.  Plugins call libeh through the process's symbols: link the
 * program with libeh.so, or with libeh.a and -rdynamic. */
EH_API eh_status eh_backend_load(const char *path);

/* The op set (libeh/ops.def). */
EH_API int eh_op_count(void);
/* Name of op number i ("add"), NULL when out of range. */
EH_API const char *eh_op_name(int op);
/* Op number for a name, -1 if there is none. */
EH_API int eh_op_lookup(const char *name);
/* 1 if backend `name` implements op number `op` (META ops, answered by the
 * frontend, count as implemented; a custom op's id counts when a kernel
 * would run it there: eh_backend_kernel in <eh/backend_api.h>), 0 if not,
 * -1 for an unknown backend or op. */
EH_API int eh_backend_supports(const char *name, int op);

#ifdef __cplusplus
}
#endif
#endif
