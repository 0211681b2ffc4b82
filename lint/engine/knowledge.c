/* lint/engine/knowledge.c -- the ops of libeh/ops.def. */
#include "knowledge.h"

#include <stdbool.h>
#include <string.h>
#include "mem.h"
#include "rule.h"
#include "strmap.h"

typedef struct op_info {
    const char *name, *kind;
    int n_in;
} op_info;

static const op_info ops[] = {
#define EH_OP(name, kind, n_in) {#name, #kind, n_in},
#include <eh/ops.def>
};

/* name -> index + 1, set by el_knowledge_init (read-only afterwards,
 * so the worker threads share it) */
static el_strmap by_name;

size_t el_op_count(void)
{
    return sizeof ops / sizeof ops[0];
}

const char *el_op_name(size_t i)
{
    return i < el_op_count() ? ops[i].name : NULL;
}

const char *el_op_kind(size_t i)
{
    return i < el_op_count() ? ops[i].kind : NULL;
}

int el_op_inputs(size_t i)
{
    return i < el_op_count() ? ops[i].n_in : 0;
}

bool el_is_op(const char *name)
{
    if (strncmp(name, "eh_", 3) == 0)
        name += 3;
    if (by_name.n)
        return el_strmap_get(&by_name, name) != NULL;
    for (size_t i = 0; i < el_op_count(); i++)
        if (strcmp(ops[i].name, name) == 0)
            return true;
    return false;
}

int el_knowledge_init(char **err)
{
    if (el_op_count() == 0) {
        *err = el_xstrdup("internal error: libeh/ops.def lists no op");
        return -1;
    }
    for (size_t i = 0; i < el_op_count(); i++)
        el_strmap_put(&by_name, ops[i].name, (void *)(i + 1));
    return 0;
}

void el_knowledge_free(void)
{
    el_strmap_free(&by_name);
}
