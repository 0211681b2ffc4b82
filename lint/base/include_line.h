/* lint/base/include_line.h -- an #include directive read as text: the
 * tools' code that looks at lines the parser did not give them (skipped
 * by the preprocessor, new contents not parsed yet, files moved) reads
 * them the same way. */
#ifndef EL_INCLUDE_LINE_H
#define EL_INCLUDE_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0..n) (one line) `# include "name"` or `#include <name>`, blanks
 * allowed around '#' and "include"?  *angled, *name (into s) and
 * *name_len receive its parts. */
bool el_include_line(const char *s, size_t n, bool *angled, const char **name, size_t *name_len);

#endif
