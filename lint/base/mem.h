/* lint/base/mem.h -- allocation for emberlint: out of memory is reported as
 * `emberlint: out of memory` and exit status 2, never a crash. */
#ifndef EL_MEM_H
#define EL_MEM_H

#include <stddef.h>

void *el_xmalloc(size_t n);
void *el_xcalloc(size_t count, size_t size);
void *el_xrealloc(void *p, size_t n);
char *el_xstrdup(const char *s);
char *el_xstrndup(const char *s, size_t n);
/* printf into a new string. */
char *el_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Make room for `need` elements of `size` bytes in *v (capacity *cap). */
void el_grow(void *v, size_t *cap, size_t need, size_t size);
/* Print `emberlint: out of memory` and exit 2. */
_Noreturn void el_oom(void);

#endif
