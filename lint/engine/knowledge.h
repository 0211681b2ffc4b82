/* lint/engine/knowledge.h -- what emberlint knows about libeh's op set:
 * libeh/ops.def, compiled in.  The queries rules use are declared in
 * rule.h (el_op_*, el_is_op); libeh's symbol map (rules/symbols.json) is
 * part of the built-in configuration ("replacements", config.h). */
#ifndef EL_KNOWLEDGE_H
#define EL_KNOWLEDGE_H

/* Index the op set; 0, or -1 with *err set. */
int el_knowledge_init(char **err);
void el_knowledge_free(void);

#endif
