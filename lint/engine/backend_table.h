/* lint/engine/backend_table.h -- reading a backend's registration table (a
 * file-scope definition of a table type, `const eh_backend x = {...}`)
 * from clang's view of its initializer.  Shared by EH105
 * backend-op-missing and ember-migrate's scanner.
 *
 * The table types, the kernels field and the op enum prefix are EH105's
 * options (rules/default.json: "table_types", "kernels_field",
 * "op_enum_prefix"), so a project configures them once for both tools.
 *
 * Read are: designated entries [EH_OP_x] = fn, entries that come from a
 * macro (EH_BLAS_TABLE_ENTRIES) or from the X-macro over ops.def with
 * EH_IF_KERNEL_<kind>, positional entries, `.kernels[EH_OP_x] = fn`, and
 * later entries overriding earlier ones.  An entry whose value is a null
 * pointer constant (NULL, 0) implements nothing.  Also read: whether the
 * table names a delegate backend (option "delegate_field"). */
#ifndef EL_BACKEND_TABLE_H
#define EL_BACKEND_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "rule.h"

typedef struct el_backend_table {
    bool *implemented;      /* per op of el_op_*() */
    char **functions;       /* per op: the function the entry names (through
                               casts and macros), NULL when none or not a
                               plain function name */
    const char *op_prefix;  /* the op_enum_prefix option ("EH_OP_"), or "" */
    bool delegates;         /* the delegate_field option's member ("delegate")
                               is set to something other than a null pointer:
                               ops without an entry run on another backend */
    /* What the table's own type can hold, whatever libeh's op set is: the
     * entries of the kernels array (one per index below its bound, named
     * by the constants of the enum that bounds it, op_prefix removed;
     * "#N" when there is none), or -- when the type has no such array --
     * its function-pointer fields.  slot_set: the table fills it with
     * something else than a null pointer. */
    size_t n_slots;
    char **slot_names;
    bool *slot_set;
    char type_name[128];    /* the table's struct type, for messages */
} el_backend_table;

/* True when `type` is a table type of cfg (by struct tag or by any
 * typedef name on the way to it). */
bool el_backend_table_type(const el_config *cfg, CXType type);
/* EH105's options, for its other checks (lint/analysis/custom_kernels.c):
 * list option `key` holds the string s; the struct tag of `type`, or a
 * typedef name on the way to it, is listed in option `key`. */
bool el_eh105_option_has(const el_config *cfg, const char *key, const char *s);
bool el_eh105_option_type(const el_config *cfg, const char *key, CXType type);
/* An entry of list option `key` holds `part` (3 characters or more): a
 * name a macro may paste together (`p##_op_kernel`). */
bool el_eh105_option_part(const el_config *cfg, const char *key, const char *part);
/* True when the expression is a null pointer constant (NULL, 0). */
bool el_is_null_value(CXCursor v);
/* Read the table `var` defines (a VarDecl whose type el_backend_table_type
 * accepts).  0, or -1 when the configuration names no kernels field or
 * memory runs out (*out is then empty).  Free with el_backend_table_free. */
int el_backend_table_read(const el_config *cfg, CXCursor var, el_backend_table *out);
void el_backend_table_free(el_backend_table *t);
/* Both tools' entry: when the VarDecl c is in backend code (its backend,
 * from el_cursor_class, in *backend) and has a table type, read its table
 * into *out (free with el_backend_table_free) and return true; else false,
 * with nothing to free. */
bool el_backend_table_at(el_ctx *ctx, CXCursor c, const char **backend, el_backend_table *out);

#endif
