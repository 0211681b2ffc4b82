/* lint/engine/knowledge.h -- what emberlint knows about libeh: the op set of
 * libeh/ops.def (compiled in) and the backend symbol map of
 * rules/symbols.json (embedded).  The queries rules use are declared in
 * rule.h (el_op_*, el_is_op, el_symbol_replacement). */
#ifndef EL_KNOWLEDGE_H
#define EL_KNOWLEDGE_H

/* Load the symbol map; 0, or -1 with *err set. */
int el_knowledge_init(char **err);
void el_knowledge_free(void);
/* The replacement recorded in rules/symbols.json, or NULL. */
const char *el_symbol_map_get(const char *symbol);

#endif
