/* lint/engine/knowledge.c -- ops from libeh/ops.def, symbols from
 * rules/symbols.json. */
#include "knowledge.h"

#include <stdbool.h>
#include <string.h>
#include <json-c/json.h>

#include "embedded.h"
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

static el_strmap symbols;
static json_object *symbols_root;

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
    for (size_t i = 0; i < el_op_count(); i++)
        if (strcmp(ops[i].name, name) == 0)
            return true;
    return false;
}

int el_knowledge_init(char **err)
{
    const char *text = el_embedded_text("rules/symbols.json");
    json_object *map;
    symbols_root = text ? json_tokener_parse(text) : NULL;
    if (!symbols_root || !json_object_object_get_ex(symbols_root, "symbols", &map) ||
        !json_object_is_type(map, json_type_object)) {
        *err = el_xstrdup("internal error: rules/symbols.json is missing or malformed");
        return -1;
    }
    json_object_object_foreach(map, key, val) {
        if (json_object_is_type(val, json_type_string))
            el_strmap_put(&symbols, key, (void *)json_object_get_string(val));
    }
    return 0;
}

void el_knowledge_free(void)
{
    el_strmap_free(&symbols);
    if (symbols_root)
        json_object_put(symbols_root);
    symbols_root = NULL;
}

const char *el_symbol_map_get(const char *symbol)
{
    return el_strmap_get(&symbols, symbol);
}
