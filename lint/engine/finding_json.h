/* lint/engine/finding_json.h -- findings and fixes as compact JSON arrays,
 * for files emberlint writes and reads back itself (the result cache, a
 * shard's report):
 *
 *   finding: [rule, severity, file, line, column, message]  (+ [fix])
 *   fix:     [safety, description, [[file, begin, end, text], ...]]
 *
 * Paths pass through `map` when it is not NULL (it returns a new string),
 * so a caller can store them relative to some root. */
#ifndef EL_FINDING_JSON_H
#define EL_FINDING_JSON_H

#include <stdbool.h>
#include <json-c/json.h>

#include "finding.h"

typedef char *el_path_map(const char *path, void *ud);

json_object *el_fix_to_json(const el_fix *fx, el_path_map *map, void *ud);
/* NULL when the array is not a fix. */
el_fix *el_fix_from_json(json_object *a, el_path_map *map, void *ud);
json_object *el_finding_to_json(const el_finding *x, el_path_map *map, void *ud);
/* Append the finding (with its fix) to out; false when it is malformed. */
bool el_finding_from_json(json_object *a, el_findings *out, el_path_map *map, void *ud);

#endif
