/* migrate/options.c -- the --backend / --op filters (options.h). */
#include "options.h"

#include "moves.h"

#include <string.h>

static bool listed(char *const *v, size_t n, const char *s)
{
    if (n == 0)
        return true;
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], s) == 0)
            return true;
    return false;
}

bool em_backend_selected(const em_opts *o, const char *backend)
{
    return listed(o->backends, o->n_backends, backend);
}

bool em_op_selected(const em_opts *o, const char *op)
{
    /* "eh_matmul" names the op matmul too (main.c stores --op without eh_) */
    return listed(o->ops, o->n_ops, strncmp(op, "eh_", 3) == 0 ? op + 3 : op);
}

void em_opts_select(const em_opts *o, em_select *out)
{
    *out = (em_select){.backends = o->backends, .n_backends = o->n_backends, .ops = o->ops,
                       .n_ops = o->n_ops, .force = o->force, .paths = o->scan.paths,
                       .n_paths = o->scan.n_paths};
}
