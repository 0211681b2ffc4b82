/* lint/rules/backend_op_missing.c -- EH105 backend-op-missing: an op a
 * backend's table can hold but does not implement, reported at the table
 * (project-level); and custom ops with kernels for some backends but not
 * others (lint/analysis/custom_kernels.c: its facts per TU, its report
 * here).  What a table can hold is read from its own type
 * (backend_table.h): the entries of its kernels array, named by the enum
 * that bounds it -- libeh's eh_backend holds libeh/ops.def's ops, a
 * project's struct its own -- or, with no such array, its
 * function-pointer fields.  Not counted: libeh's META ops (the frontend
 * answers them; no kernel exists), and the slots options.optional names.
 *
 * Per TU: every file-scope definition in backend code (backends/<name>/)
 * whose type is a backend table (options.table_types, "eh_backend") is
 * read from clang's view of its initializer, whatever wrote it
 * (lint/engine/backend_table.h, shared with ember-migrate: the engine does not
 * walk ops.def, an external file, so the initializer is walked there).
 * The table's place and the ops it misses are recorded as a fact.
 *
 * Project hook: each table once, however many TUs include it; one
 * finding per table lists the missing ops.  Backends without a table are
 * not reported: there is no table to report at.  A table that names a
 * delegate backend (option "delegate_field") runs every op it has no
 * entry for there: it is complete. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_table.h"
#include "custom_kernels.h"
#include "clang_util.h"
#include "mem.h"
#include "rule.h"
#include "strbuf.h"
#include "strmap.h"

#define RULE "EH105"
#define FACT "EH105.table"

static const enum CXCursorKind kinds[] = {CXCursor_VarDecl, EL_CUSTOM_KERNEL_KINDS, EL_KINDS_END};

/* A META op of libeh/ops.def: answered by the frontend, no kernel. */
static bool libeh_meta(const el_backend_table *t, const char *slot)
{
    if (strcmp(t->op_prefix, "EH_OP_") != 0)
        return false;
    for (size_t i = 0; i < el_op_count(); i++)
        if (strcmp(el_op_name(i), slot) == 0)
            return strcmp(el_op_kind(i), "META") == 0;
    return false;
}

static bool optional_slot(const el_config *cfg, const char *slot)
{
    json_object *o = el_config_rule_options(cfg, RULE), *list = NULL;
    if (!o || !json_object_object_get_ex(o, "optional", &list))
        return false;
    for (size_t i = 0; i < json_object_array_length(list); i++)
        if (strcmp(json_object_get_string(json_object_array_get_idx(list, i)), slot) == 0)
            return true;
    return false;
}

static void on_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_VarDecl) {
        el_custom_kernels_on_cursor(ctx, state, c);
        return;
    }
    if (clang_getCursorKind(clang_getCursorSemanticParent(c)) != CXCursor_TranslationUnit ||
        !clang_isCursorDefinition(c))
        return;
    const char *backend = NULL;
    el_backend_table t;
    if (!el_backend_table_at(ctx, c, &backend, &t))
        return;
    if (t.delegates) {
        el_backend_table_free(&t);
        return;
    }

    CXFile file = NULL;
    unsigned line = 0, col = 0;
    elc_cursor_location(c, &file, &line, &col);
    char path[PATH_MAX], var[256];
    elc_file_name(file, path, sizeof path);
    const char *real = el_file_path(ctx, file);
    elc_spelling(c, var, sizeof var);
    /* path, line, col, backend, table, its type, how many ops it can hold,
     * then the missing ones */
    el_buf b = {0};
    size_t holds = 0;
    for (size_t i = 0; i < t.n_slots; i++)
        holds += !libeh_meta(&t, t.slot_names[i]) && !optional_slot(el_ctx_config(ctx), t.slot_names[i]);
    el_buf_printf(&b, "%s\t%u\t%u\t%s\t%s\t%s\t%zu\t", real ? real : path, line, col, backend, var,
                  t.type_name, holds);
    for (size_t i = 0; i < t.n_slots; i++)
        if (!t.slot_set[i] && !libeh_meta(&t, t.slot_names[i]) &&
            !optional_slot(el_ctx_config(ctx), t.slot_names[i]))
            el_buf_printf(&b, " %s", t.slot_names[i]);
    el_fact(ctx, FACT, b.s);
    el_buf_free(&b);
    el_backend_table_free(&t);
}

/* ---- the project --------------------------------------------------------------- */

#define MAX_LISTED 16 /* ops named in a message; the rest are counted */

static void tables(el_project *p)
{
    size_t n = el_project_fact_count(p);
    el_strmap done = {0};
    for (size_t i = 0; i < n; i++) {
        const char *key = NULL, *value = NULL;
        el_project_fact(p, i, NULL, &key, &value);
        if (!key || strcmp(key, FACT) != 0 || !value)
            continue;
        char *v = el_xstrdup(value);
        char *f[8] = {0};
        char *tok = v;
        for (int k = 0; k < 8 && tok; k++) {
            f[k] = tok;
            char *tab = k < 7 ? strchr(tok, '\t') : NULL;
            if (tab)
                *tab = '\0';
            tok = tab ? tab + 1 : NULL;
        }
        char *where = f[7] ? el_xasprintf("%s:%s:%s", f[0], f[1], f[2]) : NULL;
        /* once per table, however many TUs include it */
        if (!where || el_strmap_put(&done, where, (void *)1)) {
            free(where);
            free(v);
            continue;
        }
        free(where);
        el_buf list = {0};
        size_t missing = 0;
        char *save = NULL;
        for (char *op = strtok_r(f[7], " ", &save); op; op = strtok_r(NULL, " ", &save)) {
            if (missing < MAX_LISTED)
                el_buf_printf(&list, "%s%s", missing ? ", " : "", op);
            missing++;
        }
        if (missing) {
            char more[64] = "";
            if (missing > MAX_LISTED)
                snprintf(more, sizeof more, ", and %zu more", missing - MAX_LISTED);
            size_t holds = (size_t)strtoul(f[6], NULL, 10);
            el_project_report(p, f[0], (unsigned)atoi(f[1]), (unsigned)atoi(f[2]),
                              "backend '%s' does not implement %zu of the %zu op%s its table "
                              "'%s' (%s) can hold: %s%s", f[3], missing, holds,
                              holds == 1 ? "" : "s", f[4], f[5], list.s, more);
        }
        el_buf_free(&list);
        free(v);
    }
    el_strmap_free(&done);
}

static void project(el_project *p)
{
    tables(p);
    el_custom_kernels_project(p);
}

static void end(el_ctx *ctx, void *state)
{
    (void)ctx;
    el_custom_kernels_tu_free(state);
}

const el_rule el_rule_backend_op_missing = {
    .id = RULE,
    .kinds = kinds,
    .state_size = sizeof(el_custom_kernels_tu),
    .on_cursor = on_cursor,
    .end = end,
    .project = project,
    /* the tables are file-scope variables; a skipped body that may
     * register a custom kernel is parsed (custom_kernels.h) */
    .needs_no_bodies = true,
};
