/* lint/base/path.h -- path arithmetic (POSIX paths, '/' separated). */
#ifndef EL_PATH_H
#define EL_PATH_H

#include <stdbool.h>

/* Remember the current directory; call once before any other path call. */
void el_path_init(void);
/* The current directory at el_path_init (absolute, no trailing slash). */
const char *el_cwd(void);
/* path made absolute against the current directory and normalized
 * lexically ("a/./b/../c" -> "/cwd/a/c"); symlinks are not resolved. */
char *el_path_abs(const char *path);
/* realpath(3): absolute, symlinks resolved; NULL when it fails (errno). */
char *el_path_real(const char *path);
/* A new string: a + "/" + b. */
char *el_path_join(const char *a, const char *b);
/* The directory part of an absolute path ("/a/b" -> "/a", "/a" -> "/"). */
char *el_path_dirname(const char *path);
/* The last component (points into path). */
const char *el_path_base(const char *path);
/* 1 when path ends in ext (".c"). */
bool el_path_has_ext(const char *path, const char *ext);
/* abs relative to the directory base ("src/x.c") when abs is inside it,
 * else NULL.  abs equal to base gives ".". */
char *el_path_under(const char *abs, const char *base);
/* The nearest directory from dir (absolute) upward that holds rel
 * (a file or directory), or NULL.  A new string. */
char *el_path_upward(const char *dir, const char *rel);
/* The directory the cache's paths are relative to, so that a cache
 * restored in another checkout of the same repository still applies: the
 * nearest directory holding .git from the current directory upward, else
 * the current directory.  A new string. */
char *el_path_repo_root(void);
/* How a path is shown to the user: relative to the current directory
 * when inside it or a sibling subtree ("../x.c"), otherwise absolute. */
char *el_path_display(const char *abs);

#endif
