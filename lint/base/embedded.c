/* lint/base/embedded.c -- lookup in the generated table of embedded files. */
#include "embedded.h"

#include <string.h>

const el_embedded_file *el_embedded_find(const char *name)
{
    for (size_t i = 0; i < el_embedded_count; i++)
        if (strcmp(el_embedded_files[i].name, name) == 0)
            return &el_embedded_files[i];
    return NULL;
}

const char *el_embedded_text(const char *name)
{
    const el_embedded_file *f = el_embedded_find(name);
    return f ? (const char *)f->data : NULL;
}
