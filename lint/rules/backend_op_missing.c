/* lint/rules/backend_op_missing.c -- EH105 backend-op-missing: an op of
 * libeh/ops.def that a backend's table does not implement, reported at the
 * table (project-level).
 *
 * Per TU: every file-scope definition in backend code (backends/<name>/)
 * whose type is a backend table (options.table_types, "eh_backend") is
 * read from clang's view of its initializer, whatever wrote it: designated
 * entries [EH_OP_x] = fn, entries that come from a macro
 * (EH_BLAS_TABLE_ENTRIES) or from the X-macro over ops.def with
 * EH_IF_KERNEL_<kind> (the engine does not walk ops.def, an external file,
 * so the initializer is walked here), positional entries, and later
 * entries overriding earlier ones.  An entry whose value is a null
 * pointer constant (NULL, 0) implements nothing.  The table's place and
 * the ops it implements are recorded as a fact.
 *
 * Project hook: each table (once, however many TUs include it) is
 * compared with the op set compiled in from libeh/ops.def, META ops
 * excluded (the frontend answers them; no kernel exists); one finding per
 * table lists the missing ops.  Backends without a table are not
 * reported: there is no table to report at. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "rule.h"
#include "separation.h"

#define RULE "EH105"
#define FACT "EH105.table"

static const enum CXCursorKind kinds[] = {CXCursor_VarDecl, EL_KINDS_END};

/* ---- reading a table -------------------------------------------------------- */

typedef struct table {
    bool *implemented;        /* per op of el_op_*() */
    const char *op_prefix;    /* "EH_OP_" */
} table;

static bool is_null_value(CXCursor v)
{
    CXCursor s = elc_strip_casts(v);
    if (clang_getCursorKind(s) != CXCursor_IntegerLiteral)
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(s);
    if (!r)
        return false;
    bool zero = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
    clang_EvalResult_dispose(r);
    return zero;
}

static long op_of_name(const char *name)
{
    for (size_t i = 0; i < el_op_count(); i++)
        if (strcmp(el_op_name(i), name) == 0)
            return (long)i;
    return -1;
}

/* The op an array designator names: by the enum constant's name
 * (EH_OP_matmul -> matmul), else by its value.  *next receives the index
 * the following positional entry has. */
static long designated_op(const table *t, CXCursor index, long *next)
{
    CXCursor s = elc_strip_casts(index);
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            char name[256];
            elc_spelling(d, name, sizeof name);
            *next = (long)clang_getEnumConstantDeclValue(d) + 1;
            size_t pl = strlen(t->op_prefix);
            if (strncmp(name, t->op_prefix, pl) == 0) {
                long op = op_of_name(name + pl);
                if (op >= 0)
                    return op;
            }
            return *next - 1;
        }
    }
    CXEvalResult r = clang_Cursor_Evaluate(s);
    long v = -1;
    if (r) {
        if (clang_EvalResult_getKind(r) == CXEval_Int)
            v = (long)clang_EvalResult_getAsLongLong(r);
        clang_EvalResult_dispose(r);
    }
    *next = v + 1;
    return v;
}

static void set_op(table *t, long op, CXCursor value)
{
    if (op >= 0 && (size_t)op < el_op_count())
        t->implemented[op] = !is_null_value(value);
}

typedef struct entries {
    CXCursor v[1024];
    unsigned n;
} entries;

static enum CXChildVisitResult collect(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    entries *e = d;
    if (e->n < sizeof e->v / sizeof e->v[0])
        e->v[e->n++] = c;
    return CXChildVisit_Continue;
}

static void children(CXCursor c, entries *e)
{
    e->n = 0;
    clang_visitChildren(c, collect, e);
}

/* A designated initializer (libclang shows it as an expression whose
 * children are the designators, then the value). */
static bool is_designated(CXCursor c, entries *kids)
{
    if (clang_getCursorKind(c) != CXCursor_UnexposedExpr)
        return false;
    children(c, kids);
    return kids->n >= 2;
}

/* The kernels array's initializer list. */
static void read_kernels(table *t, CXCursor list)
{
    entries *items = malloc(sizeof *items), *kids = malloc(sizeof *kids);
    if (!items || !kids) {
        free(items);
        free(kids);
        return;
    }
    children(list, items);
    long next = 0;
    for (unsigned i = 0; i < items->n; i++) {
        CXCursor e = items->v[i];
        if (is_designated(e, kids) && clang_getCursorKind(kids->v[0]) != CXCursor_MemberRef) {
            long op = designated_op(t, kids->v[0], &next);
            set_op(t, op, kids->v[kids->n - 1]);
        } else {
            set_op(t, next, e);
            next++;
        }
    }
    free(items);
    free(kids);
}

typedef struct fields {
    char names[64][64];
    unsigned n;
} fields;

static enum CXVisitorResult field_visit(CXCursor c, CXClientData d)
{
    fields *f = d;
    if (f->n < 64)
        elc_spelling(c, f->names[f->n++], sizeof f->names[0]);
    return CXVisit_Continue;
}

/* The table's initializer list: find the kernels field's entries. */
static void read_table(table *t, CXCursor init, CXType type, const char *kernels_field)
{
    fields *f = calloc(1, sizeof *f);
    entries *items = malloc(sizeof *items), *kids = malloc(sizeof *kids);
    if (!f || !items || !kids)
        goto out;
    clang_Type_visitFields(clang_getCanonicalType(type), field_visit, f);
    children(init, items);
    unsigned pos = 0;
    for (unsigned i = 0; i < items->n; i++) {
        CXCursor e = items->v[i];
        if (is_designated(e, kids) && clang_getCursorKind(kids->v[0]) == CXCursor_MemberRef) {
            char name[64];
            elc_spelling(kids->v[0], name, sizeof name);
            for (pos = 0; pos < f->n && strcmp(f->names[pos], name) != 0; pos++)
                ;
            pos++;
            if (strcmp(name, kernels_field) != 0)
                continue;
            CXCursor value = kids->v[kids->n - 1];
            if (kids->n == 2 && clang_getCursorKind(value) == CXCursor_InitListExpr) {
                read_kernels(t, value);
            } else if (kids->n >= 3) { /* .kernels[EH_OP_x] = fn */
                long next;
                set_op(t, designated_op(t, kids->v[1], &next), value);
            }
        } else {
            if (pos < f->n && strcmp(f->names[pos], kernels_field) == 0 &&
                clang_getCursorKind(e) == CXCursor_InitListExpr)
                read_kernels(t, e);
            pos++;
        }
    }
out:
    free(f);
    free(items);
    free(kids);
}

/* ---- per TU ------------------------------------------------------------------ */

static bool option_type_match(const el_config *cfg, CXType type)
{
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(type));
    if (clang_Cursor_isNull(d) || clang_getCursorKind(d) != CXCursor_StructDecl)
        return false;
    char name[256];
    elc_spelling(d, name, sizeof name);
    if (sep_option_has(cfg, RULE, "table_types", name))
        return true;
    /* a typedef name listed instead of the tag */
    CXType t = type;
    for (int guard = 0; guard < 8 && (t.kind == CXType_Elaborated || t.kind == CXType_Typedef); guard++) {
        if (t.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
            continue;
        }
        CXCursor td = clang_getTypeDeclaration(t);
        elc_spelling(td, name, sizeof name);
        if (sep_option_has(cfg, RULE, "table_types", name))
            return true;
        t = clang_getTypedefDeclUnderlyingType(td);
    }
    return false;
}

static void on_var(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    const char *backend = NULL;
    if (el_cursor_class(ctx, c, &backend) != EL_FILE_BACKEND)
        return;
    if (clang_getCursorKind(clang_getCursorSemanticParent(c)) != CXCursor_TranslationUnit ||
        !clang_isCursorDefinition(c))
        return;
    const el_config *cfg = el_ctx_config(ctx);
    CXType type = clang_getCursorType(c);
    if (!option_type_match(cfg, type))
        return;
    const char *field = sep_option_string(cfg, RULE, "kernels_field");
    const char *prefix = sep_option_string(cfg, RULE, "op_enum_prefix");
    if (!field)
        return;
    table t = {calloc(el_op_count() + 1, sizeof(bool)), prefix ? prefix : ""};
    if (!t.implemented)
        return;
    CXCursor init = clang_Cursor_getVarDeclInitializer(c);
    if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_InitListExpr)
        read_table(&t, init, type, field);

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
    free(t.implemented);
}

/* ---- the project --------------------------------------------------------------- */

#define MSG_ROOM 700
#define MAX_LISTED 16 /* ops named in a message; the rest are counted */

static void project(el_project *p)
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

const el_rule el_rule_backend_op_missing = {
    .id = RULE,
    .kinds = kinds,
    .on_cursor = on_var,
    .project = project,
};
