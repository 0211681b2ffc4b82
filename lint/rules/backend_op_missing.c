/* lint/rules/backend_op_missing.c -- EH105 backend-op-missing: an op of
 * libeh/ops.def that a backend's table does not implement, reported at the
 * table (project-level).
 *
 * Per TU: every file-scope definition in backend code (backends/<name>/)
 * whose type is a backend table (options.table_types, "eh_backend") is
 * read from clang's view of its initializer, whatever wrote it
 * (lint/engine/backend_table.h, shared with ember-migrate: the engine does not
 * walk ops.def, an external file, so the initializer is walked there).
 * The table's place and the ops it implements are recorded as a fact.
 *
 * Project hook: each table (once, however many TUs include it) is
 * compared with the op set compiled in from libeh/ops.def, META ops
 * excluded (the frontend answers them; no kernel exists); one finding per
 * table lists the missing ops.  Backends without a table are not
 * reported: there is no table to report at.  A table that names a
 * delegate backend (option "delegate_field") runs every op it has no
 * entry for there: it is complete.
 *
 * Also EH105: custom ops with kernels for some backends but not others
 * (lint/analysis/custom_kernels.c: its facts per TU, its report here). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_table.h"
#include "custom_kernels.h"
#include "clang_util.h"
#include "rule.h"

#define RULE "EH105"
#define FACT "EH105.table"

static const enum CXCursorKind kinds[] = {CXCursor_VarDecl, EL_CUSTOM_KERNEL_KINDS, EL_KINDS_END};

static void on_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    if (clang_getCursorKind(c) != CXCursor_VarDecl) {
        el_custom_kernels_on_cursor(ctx, c);
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
    char *real = realpath(path, NULL);
    elc_spelling(c, var, sizeof var);
    size_t cap = 256 + strlen(path) + strlen(var);
    for (size_t i = 0; i < el_op_count(); i++)
        cap += strlen(el_op_name(i)) + 1;
    char *value = malloc(cap);
    if (value) {
        int off = snprintf(value, cap, "%s\t%u\t%u\t%s\t%s\t%s\t ", real ? real : path, line, col,
                           backend, var, t.op_prefix);
        for (size_t i = 0; i < el_op_count() && off > 0 && (size_t)off < cap; i++)
            if (t.implemented[i])
                off += snprintf(value + off, cap - (size_t)off, "%s ", el_op_name(i));
        el_fact(ctx, FACT, value);
        free(value);
    }
    free(real);
    el_backend_table_free(&t);
}

/* ---- the project --------------------------------------------------------------- */

#define MSG_ROOM 700
#define MAX_LISTED 16 /* ops named in a message; the rest are counted */

static void tables(el_project *p)
{
    size_t n = el_project_fact_count(p);
    char **done = calloc(n + 1, sizeof *done);
    size_t n_done = 0;
    for (size_t i = 0; i < n && done; i++) {
        const char *key = NULL, *value = NULL;
        el_project_fact(p, i, NULL, &key, &value);
        if (!key || strcmp(key, FACT) != 0 || !value)
            continue;
        char *v = strdup(value);
        if (!v)
            continue;
        char *fieldv[7] = {0};
        char *tok = v;
        for (int k = 0; k < 7; k++) {
            fieldv[k] = tok;
            char *tab = tok ? strchr(tok, '\t') : NULL;
            if (tab) {
                *tab = '\0';
                tok = tab + 1;
            } else {
                tok = NULL;
            }
        }
        if (!fieldv[6]) {
            free(v);
            continue;
        }
        /* once per table: the key is path, line and column */
        char *where = malloc(strlen(fieldv[0]) + 32);
        bool seen = false;
        if (where) {
            sprintf(where, "%s:%s:%s", fieldv[0], fieldv[1], fieldv[2]);
            for (size_t k = 0; k < n_done && !seen; k++)
                seen = strcmp(done[k], where) == 0;
            if (seen)
                free(where);
            else
                done[n_done++] = where;
        }
        if (seen) {
            free(v);
            continue;
        }
        /* the implemented ops: " zeros ones ... " */
        char list[MSG_ROOM + 64];
        size_t len = 0, missing = 0, listed = 0;
        list[0] = '\0';
        for (size_t op = 0; op < el_op_count(); op++) {
            if (strcmp(el_op_kind(op), "META") == 0)
                continue;
            char needle[256];
            snprintf(needle, sizeof needle, " %s ", el_op_name(op));
            if (strstr(fieldv[6], needle))
                continue;
            missing++;
            const char *name = el_op_name(op);
            if (listed == missing - 1 && listed < MAX_LISTED && len + strlen(name) + 2 < MSG_ROOM) {
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", listed ? ", " : "", name);
                listed++;
            }
        }
        if (missing) {
            char more[64] = "";
            if (listed < missing)
                snprintf(more, sizeof more, ", and %zu more", missing - listed);
            el_project_report(p, fieldv[0], (unsigned)atoi(fieldv[1]), (unsigned)atoi(fieldv[2]),
                              "backend '%s' does not implement %zu op%s of libeh/ops.def: "
                              "%s%s (table '%s' has no [%s...] kernel for %s)",
                              fieldv[3], missing, missing == 1 ? "" : "s", list, more,
                              fieldv[4], fieldv[5], missing == 1 ? "it" : "them");
        }
        free(v);
    }
    for (size_t k = 0; k < n_done; k++)
        free(done[k]);
    free(done);
}

static void project(el_project *p)
{
    tables(p);
    el_custom_kernels_project(p);
}

const el_rule el_rule_backend_op_missing = {
    .id = RULE,
    .kinds = kinds,
    .on_cursor = on_cursor,
    .project = project,
};
