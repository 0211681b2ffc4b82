/* lint/base/realpath_cache.h -- realpath(3), remembered for the run.
 *
 * Every translation unit reads the same headers, and resolving each of
 * their names costs a readlink per path component: a linted tree spends
 * more time in the kernel resolving paths than in most rules.  The files
 * a run reads do not move while it runs, so each name is resolved once.
 * Answers are per process and kept for the run: a tree changed during a
 * run (a symbolic link re-pointed, a directory renamed) is seen as it was
 * when a name was first asked.  Links are counted per component (each
 * chain resolved by realpath(3)), so a name whose components are two
 * chains of 25 links resolves where realpath(3) says ELOOP.  Thread-safe. */
#ifndef EL_REALPATH_CACHE_H
#define EL_REALPATH_CACHE_H

/* realpath(path) as a new string (the caller frees it), or NULL when it
 * cannot be resolved (then errno says why, as realpath's did).  Names are
 * resolved a component at a time, each directory once a run: a readlink
 * per new name, not one per component of every name. */
char *el_realpath_cached(const char *path);

#endif
