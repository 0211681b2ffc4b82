/* migrate/scan_rule.h -- ember-migrate's scanner: an engine rule (run
 * through el_engine_opts.extra_rules, never by emberlint) that records,
 * as facts whose values are compact JSON objects, what em_scan turns into
 * the tree model of scan.h.  docs/ember-migrate.md lists the fields. */
#ifndef EM_SCAN_RULE_H
#define EM_SCAN_RULE_H

#include "rule.h"

/* Fact keys. */
#define EM_FACT_DEF "ember-migrate.def"         /* a top-level definition */
#define EM_FACT_INCLUDE "ember-migrate.include" /* an #include directive */
#define EM_FACT_TABLE "ember-migrate.table"     /* an eh_backend table */
#define EM_FACT_WHY "ember-migrate.why"         /* why a use of a backend function has no rewrite */

extern const el_rule em_scan_rule;

#endif
