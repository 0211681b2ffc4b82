/* lint/engine/registry.h -- every implemented rule.  The registry is generated
 * at build time from the files in lint/rules/ (lint/rules/gen_registry.sh): a
 * file lint/rules/<file>.c defines `const el_rule el_rule_<file>`.
 *
 * Declared here, below the rules, so that the programs (lint/main.c,
 * migrate/main.c) can hand it to el_meta_init; no engine file names it,
 * which keeps the engine from depending on the rules above it. */
#ifndef EL_REGISTRY_H
#define EL_REGISTRY_H

#include "rule.h"

/* NULL-terminated, sorted by file name. */
extern const el_rule *const el_rule_registry[];

#endif
