/* lint/base/utf8.h -- keeping emitted text valid UTF-8 and free of control
 * characters, whatever bytes the linted files (or their names) hold. */
#ifndef EL_UTF8_H
#define EL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* 1 when s[0..n) is valid UTF-8. */
bool el_utf8_valid(const char *s, size_t n);
/* A new string: s with every invalid UTF-8 sequence replaced by U+FFFD and
 * control characters (other than tab) by a space. */
char *el_utf8_clean(const char *s);

#endif
