/* lint/base/pattern.h -- the path patterns of the configuration.
 *
 * A pattern is matched against a '/'-separated relative path, component
 * by component, starting at any component ("backends/<name>/" matches
 * "x/backends/blas/k.c"); a leading '/' anchors it at the first component.
 * In a component, * ? and [...] work as in fnmatch(3); a component "**"
 * matches any number of components; "<name>" (any <word>) captures a
 * non-empty part of one component: the whole component ("backends/<name>/")
 * or what lies between the rest of it ("src/ggml-<name>/" captures "cuda"
 * of "src/ggml-cuda/").  A trailing '/' matches everything below,
 * at least one component, and the directory itself only when the path
 * ends in '/' (a directory): "backends/<name>/" never matches the file
 * "backends/x.h".  The whole rest of the path must match:
 * "cblas.h" matches "usr/include/cblas.h" but not "cblas.h.in". */
#ifndef EL_PATTERN_H
#define EL_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

/* One component: * ? [...] (with ! or ^, ranges and [:class:]) and \
 * escapes, as fnmatch(3) without flags, in O(glob x s) steps whatever the
 * glob (patterns are input). */
bool el_glob_match(const char *glob, const char *s);

/* 1 when pattern matches path, in O(pattern x path) steps however many
 * "**" it has; the first <word> capture is copied into
 * capture (capn bytes, may be NULL). */
bool el_pattern_match(const char *pattern, const char *path, char *capture, size_t capn);
/* The pattern holds exactly one <word> capture. */
bool el_pattern_has_capture(const char *pattern);

#endif
