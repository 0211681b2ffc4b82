/* lint/engine/backend_table.c -- reading a backend's registration table
 * (backend_table.h).  libclang shows a designated initializer as an
 * expression whose children are the designators, then the value; the
 * code below walks those shapes. */
#include "backend_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "clang_util.h"

#define OPTIONS_RULE "EH105"

/* ---- options ------------------------------------------------------------- */

static json_object *option(const el_config *cfg, const char *key)
{
    json_object *o = el_config_rule_options(cfg, OPTIONS_RULE), *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

static const char *option_string(const el_config *cfg, const char *key)
{
    json_object *v = option(cfg, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool el_eh105_option_has(const el_config *cfg, const char *key, const char *s)
{
    json_object *list = option(cfg, key);
    if (!list || !json_object_is_type(list, json_type_array))
        return false;
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *e = json_object_array_get_idx(list, i);
        if (json_object_is_type(e, json_type_string) && strcmp(json_object_get_string(e), s) == 0)
            return true;
    }
    return false;
}

bool el_eh105_option_part(const el_config *cfg, const char *key, const char *part)
{
    json_object *list = option(cfg, key);
    if (!list || !json_object_is_type(list, json_type_array) || strlen(part) < 3)
        return false;
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *e = json_object_array_get_idx(list, i);
        if (json_object_is_type(e, json_type_string) && strstr(json_object_get_string(e), part))
            return true;
    }
    return false;
}

bool el_backend_table_type(const el_config *cfg, CXType type)
{
    return el_eh105_option_type(cfg, "table_types", type);
}

bool el_eh105_option_type(const el_config *cfg, const char *key, CXType type)
{
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(type));
    if (clang_Cursor_isNull(d) || clang_getCursorKind(d) != CXCursor_StructDecl)
        return false;
    char name[256];
    elc_spelling(d, name, sizeof name);
    if (el_eh105_option_has(cfg, key, name))
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
        if (el_eh105_option_has(cfg, key, name))
            return true;
        t = clang_getTypedefDeclUnderlyingType(td);
    }
    return false;
}

/* ---- entries ------------------------------------------------------------- */

bool el_is_null_value(CXCursor v)
{
    CXCursor s = elc_strip_casts(v);
    if (clang_getCursorKind(s) == CXCursor_CXXNullPtrLiteralExpr)
        return true; /* C++'s nullptr */
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
static long designated_op(const el_backend_table *t, CXCursor index, long *next)
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

static void set_op(el_backend_table *t, long op, CXCursor value)
{
    if (op < 0 || (size_t)op >= el_op_count())
        return;
    t->implemented[op] = !el_is_null_value(value);
    free(t->functions[op]);
    t->functions[op] = NULL;
    CXCursor d = elc_referenced(value);
    if (t->implemented[op] && !clang_Cursor_isNull(d) && clang_getCursorKind(d) == CXCursor_FunctionDecl) {
        char name[256];
        elc_spelling(d, name, sizeof name);
        t->functions[op] = strdup(name);
    }
}

/* ---- slots: what the type holds ------------------------------------------- */

static void set_slot(el_backend_table *t, long index, CXCursor value)
{
    if (index >= 0 && (size_t)index < t->n_slots)
        t->slot_set[index] = !el_is_null_value(value);
}

static long slot_named(const el_backend_table *t, const char *name)
{
    for (size_t i = 0; i < t->n_slots; i++)
        if (t->slot_names[i] && strcmp(t->slot_names[i], name) == 0)
            return (long)i;
    return -1;
}

static void add_slot(el_backend_table *t, size_t *cap, const char *name)
{
    if (t->n_slots == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        char **nv = realloc(t->slot_names, *cap * sizeof *nv);
        bool *sv = nv ? realloc(t->slot_set, *cap * sizeof *sv) : NULL;
        if (nv)
            t->slot_names = nv;
        if (!sv)
            return;
        t->slot_set = sv;
    }
    t->slot_names[t->n_slots] = strdup(name);
    t->slot_set[t->n_slots] = false;
    t->n_slots++;
}

/* The enum a field's array bound names (kernels[EH_OP_COUNT]). */
static enum CXChildVisitResult find_bound_enum(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(c);
        if (clang_getCursorKind(r) == CXCursor_EnumConstantDecl) {
            *(CXCursor *)d = clang_getCursorSemanticParent(r);
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

typedef struct slot_names {
    el_backend_table *t;
    long long n;
} slot_names;

static enum CXChildVisitResult name_slot(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    slot_names *sn = d;
    if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
        return CXChildVisit_Continue;
    long long v = clang_getEnumConstantDeclValue(c);
    if (v < 0 || v >= sn->n || sn->t->slot_names[v])
        return CXChildVisit_Continue;
    char name[256];
    elc_spelling(c, name, sizeof name);
    size_t pl = strlen(sn->t->op_prefix);
    sn->t->slot_names[v] = strdup(strncmp(name, sn->t->op_prefix, pl) == 0 ? name + pl : name);
    return CXChildVisit_Continue;
}

/* The kernels array: one slot per index, named by the enum bounding it. */
static void array_slots(el_backend_table *t, CXCursor field)
{
    CXType ft = clang_getCanonicalType(clang_getCursorType(field));
    long long n = clang_getArraySize(ft);
    if (ft.kind != CXType_ConstantArray || n <= 0 || n > 65536)
        return;
    t->slot_names = calloc((size_t)n, sizeof *t->slot_names);
    t->slot_set = calloc((size_t)n, sizeof *t->slot_set);
    if (!t->slot_names || !t->slot_set)
        return;
    t->n_slots = (size_t)n;
    CXCursor en = clang_getNullCursor();
    clang_visitChildren(field, find_bound_enum, &en);
    if (!clang_Cursor_isNull(en)) {
        slot_names sn = {t, n};
        clang_visitChildren(en, name_slot, &sn);
    }
    for (long long i = 0; i < n; i++) {
        if (!t->slot_names[i]) {
            char num[32];
            snprintf(num, sizeof num, "#%lld", i);
            t->slot_names[i] = strdup(num);
        }
    }
}

static bool is_function_pointer(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Pointer)
        return false;
    enum CXTypeKind k = clang_getCanonicalType(clang_getPointeeType(t)).kind;
    return k == CXType_FunctionProto || k == CXType_FunctionNoProto;
}

typedef struct field_scan {
    el_backend_table *t;
    const char *kernels_field;
    CXCursor kernels;          /* the kernels field, when the type has it */
    size_t cap;
} field_scan;

static enum CXVisitorResult scan_field(CXCursor c, CXClientData d)
{
    field_scan *fs = d;
    char name[128];
    elc_spelling(c, name, sizeof name);
    if (fs->kernels_field[0] && strcmp(name, fs->kernels_field) == 0)
        fs->kernels = c;
    else if (is_function_pointer(clang_getCursorType(c)))
        add_slot(fs->t, &fs->cap, name);
    return CXVisit_Continue;
}

/* The slots of the table's type: its kernels array's, else its
 * function-pointer fields. */
static void type_slots(el_backend_table *t, CXType type, const char *kernels_field)
{
    field_scan fs = {t, kernels_field, clang_getNullCursor(), 0};
    clang_Type_visitFields(clang_getCanonicalType(type), scan_field, &fs);
    if (!clang_Cursor_isNull(fs.kernels)) {
        for (size_t i = 0; i < t->n_slots; i++)
            free(t->slot_names[i]);
        free(t->slot_names);
        free(t->slot_set);
        t->slot_names = NULL;
        t->slot_set = NULL;
        t->n_slots = 0;
        array_slots(t, fs.kernels);
    }
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(type));
    elc_spelling(d, t->type_name, sizeof t->type_name);
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

/* A designated initializer. */
static bool is_designated(CXCursor c, entries *kids)
{
    if (clang_getCursorKind(c) != CXCursor_UnexposedExpr)
        return false;
    children(c, kids);
    return kids->n >= 2;
}

/* The kernels array's initializer list. */
static void read_kernels(el_backend_table *t, CXCursor list)
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
            set_slot(t, next - 1, kids->v[kids->n - 1]);
        } else {
            set_op(t, next, e);
            set_slot(t, next, e);
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
static void read_table(el_backend_table *t, CXCursor init, CXType type, const char *kernels_field,
                       const char *delegate_field)
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
            if (delegate_field && strcmp(name, delegate_field) == 0)
                t->delegates = !el_is_null_value(kids->v[kids->n - 1]);
            if (strcmp(name, kernels_field) != 0) {
                long k = slot_named(t, name); /* a function-pointer field */
                if (k >= 0 && kids->n == 2)
                    set_slot(t, k, kids->v[1]);
                continue;
            }
            CXCursor value = kids->v[kids->n - 1];
            if (kids->n == 2 && clang_getCursorKind(value) == CXCursor_InitListExpr) {
                read_kernels(t, value);
            } else if (kids->n >= 3) { /* .kernels[EH_OP_x] = fn */
                long next;
                set_op(t, designated_op(t, kids->v[1], &next), value);
                set_slot(t, next - 1, value);
            }
        } else {
            if (pos < f->n && strcmp(f->names[pos], kernels_field) == 0 &&
                clang_getCursorKind(e) == CXCursor_InitListExpr)
                read_kernels(t, e);
            else if (pos < f->n && slot_named(t, f->names[pos]) >= 0)
                set_slot(t, slot_named(t, f->names[pos]), e);
            if (pos < f->n && delegate_field && strcmp(f->names[pos], delegate_field) == 0)
                t->delegates = !el_is_null_value(e);
            pos++;
        }
    }
out:
    free(f);
    free(items);
    free(kids);
}

/* ---- the table ----------------------------------------------------------- */

int el_backend_table_read(const el_config *cfg, CXCursor var, el_backend_table *out)
{
    memset(out, 0, sizeof *out);
    const char *field = option_string(cfg, "kernels_field");
    const char *prefix = option_string(cfg, "op_enum_prefix");
    if (!field)
        field = "";
    out->op_prefix = prefix ? prefix : "";
    out->implemented = calloc(el_op_count() + 1, sizeof *out->implemented);
    out->functions = calloc(el_op_count() + 1, sizeof *out->functions);
    if (!out->implemented || !out->functions) {
        el_backend_table_free(out);
        return -1;
    }
    CXType type = clang_getCursorType(var);
    type_slots(out, type, field);
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_InitListExpr)
        read_table(out, init, type, field, option_string(cfg, "delegate_field"));
    return 0;
}

bool el_backend_table_at(el_ctx *ctx, CXCursor c, const char **backend, el_backend_table *out)
{
    if (el_cursor_class(ctx, c, backend) != EL_FILE_BACKEND)
        return false;
    const el_config *cfg = el_ctx_config(ctx);
    return el_backend_table_type(cfg, clang_getCursorType(c)) &&
           el_backend_table_read(cfg, c, out) == 0;
}

void el_backend_table_free(el_backend_table *t)
{
    if (t->functions)
        for (size_t i = 0; i < el_op_count(); i++)
            free(t->functions[i]);
    free(t->functions);
    free(t->implemented);
    for (size_t i = 0; i < t->n_slots; i++)
        free(t->slot_names[i]);
    free(t->slot_names);
    free(t->slot_set);
    memset(t, 0, sizeof *t);
}
