/* lint/engine/metadata.h -- every rule's metadata, from rules/rules.json
 * (embedded), linked to its implementation in the registry. */
#ifndef EL_METADATA_H
#define EL_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "finding.h"
#include "rule.h"

/* applies_to bits: one per file class, and project. */
#define EL_APPLIES(cls) (1u << (cls))
#define EL_APPLIES_PROJECT (1u << 8)

typedef struct el_rule_meta {
    const char *id;          /* "EH101" */
    const char *name;        /* "backend-include" */
    const char *summary;     /* one sentence */
    const char *fix;         /* "none", "safe", "unsafe" */
    el_severity severity;    /* default severity */
    unsigned applies;        /* EL_APPLIES_* bits */
    bool fixable;
    const el_rule *impl;     /* NULL: not implemented by a rule file */
    bool builtin;            /* implemented by the engine (suppressions) */
    const char *doc;         /* docs/rules/<id>.md, or NULL */
    /* The rule's options (rules.json "options"): name -> {"type": "names"
     * (an array of strings) or "string", "default": value}; NULL when
     * the rule has none.  A configuration naming another option is an
     * error. */
    json_object *options;
} el_rule_meta;

/* Parse the embedded rules/rules.json and link the implemented rules
 * (NULL-terminated; the programs pass el_rule_registry, registry.h, so
 * the engine never names the rules above it).  0, or -1 with *err set (an
 * internal error: the build embeds bad data). */
int el_meta_init(const el_rule *const *implemented, char **err);
void el_meta_free(void);
size_t el_meta_count(void);
const el_rule_meta *el_meta_at(size_t i);
/* Index of a rule ID, or -1. */
int el_meta_index(const char *id);
bool el_meta_implemented(const el_rule_meta *m);
/* The type of a rule's option ("names", "string"), or NULL when the
 * rule has no such option. */
const char *el_meta_option_type(const el_rule_meta *m, const char *option);

/* applies_to from a JSON array of "frontend"/"backend"/"core"/"project";
 * false for anything else. */
bool el_applies_from_json(json_object *arr, unsigned *out);
/* "frontend, backend" into buf. */
const char *el_applies_str(unsigned applies, char *buf, size_t n);

#endif
