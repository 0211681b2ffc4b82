/* lint/engine/config_json.h -- the JSON of configuration files: strict
 * parsing with the position of the first error, and the positions of
 * keys and array elements, so every configuration error (and
 * --show-config) names PATH:LINE:COL. */
#ifndef EL_CONFIG_JSON_H
#define EL_CONFIG_JSON_H

#include <stddef.h>
#include <json-c/json.h>

/* Parse a JSON text strictly; NULL with *err = "LINE:COL: what was
 * expected". */
json_object *el_json_parse_located(const char *text, size_t len, char **err);

/* Where the values of a valid JSON text are. */
typedef struct el_json_pos el_json_pos;

/* Index a text json-c accepted. */
el_json_pos *el_json_pos_new(const char *text);
void el_json_pos_free(el_json_pos *p);
/* The line and column of a value's key (object members) or of the value
 * itself (array elements) along a path of keys; an array element is
 * named by its index in decimal ("3").  The deepest prefix of the path
 * that exists is used, 1:1 when none. */
void el_json_pos_find(const el_json_pos *p, const char *const *path, size_t n, unsigned *line,
                      unsigned *col);

#endif
