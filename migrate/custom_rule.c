/* migrate/custom_rule.c -- the scanner rule for custom-op candidates
 * (custom_rule.h). */
#include "custom_rule.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "clang_util.h"

static const enum CXCursorKind kinds[] = {CXCursor_FunctionDecl, EL_KINDS_END};

/* "<name>" of eh_<backend>_<name> when it is no op of libeh/ops.def, else
 * NULL.  The rest after the backend's name, as scan.c reads an op. */
static const char *custom_rest(const el_config *cfg, const char *name, char *be, size_t bn)
{
    if (!el_backend_of_symbol(cfg, name, be, bn))
        return NULL;
    const char *rest = strstr(name, be);
    if (!rest)
        return NULL;
    rest += strlen(be);
    while (*rest == '_')
        rest++;
    return *rest && !el_is_op(rest) ? rest : NULL;
}

static void type_spelling(CXType t, char *buf, size_t n) { elc_string(clang_getTypeSpelling(t), buf, n); }

/* The name of the struct/enum/typedef a type names ("eh_tensor"). */
static const char *decl_name(CXType t, char *buf, size_t n)
{
    return elc_spelling(clang_getTypeDeclaration(t), buf, n);
}

static bool is_arithmetic(enum CXTypeKind k)
{
    return (k >= CXType_Bool && k <= CXType_LongDouble) || k == CXType_Float16;
}

/* Does the type's name come from a system header (size_t, int64_t)? */
static bool system_typedef(CXType t)
{
    if (t.kind != CXType_Typedef)
        return false;
    CXSourceLocation loc = clang_getCursorLocation(clang_getTypeDeclaration(t));
    return clang_Location_isInSystemHeader(loc) != 0;
}

/* Drop a leading "const " (a parameter's own qualifier: not part of a
 * function's type, and not wanted on a struct member). */
static void drop_const(char *s)
{
    if (strncmp(s, "const ", 6) == 0)
        memmove(s, s + 6, strlen(s + 6) + 1);
}

/* Classify a parameter or result type: kind, the spelling generated code
 * uses, and for "other" why. */
static void classify(CXType t, const char **kind, char *spelling, size_t sn, char *why, size_t wn)
{
    CXType ct = clang_getCanonicalType(t);
    char name[256];
    why[0] = '\0';
    if (ct.kind == CXType_Pointer) {
        CXType pt = clang_getPointeeType(ct);
        if (clang_getCanonicalType(pt).kind == CXType_Record &&
            strcmp(decl_name(pt, name, sizeof name), "eh_tensor") == 0) {
            bool c = clang_isConstQualifiedType(pt) != 0;
            *kind = c ? "const_tensor" : "tensor";
            snprintf(spelling, sn, "%s", c ? "const eh_tensor *" : "eh_tensor *");
            return;
        }
        *kind = "other";
        type_spelling(t, spelling, sn);
        if (clang_getCanonicalType(pt).kind == CXType_Pointer)
            snprintf(why, wn, "a pointer to a pointer ('%s'): an output parameter or an array",
                     spelling);
        else if (clang_getCanonicalType(pt).kind == CXType_FunctionProto ||
                 clang_getCanonicalType(pt).kind == CXType_FunctionNoProto)
            snprintf(why, wn, "a function pointer ('%s')", spelling);
        else
            snprintf(why, wn, "a pointer ('%s'): state that is not a tensor", spelling);
        return;
    }
    if (is_arithmetic(ct.kind) && ct.kind != CXType_Float16) {
        *kind = "scalar";
        type_spelling(system_typedef(t) ? t : ct, spelling, sn);
        drop_const(spelling);
        return;
    }
    if (ct.kind == CXType_Enum && strncmp(decl_name(ct, name, sizeof name), "eh_", 3) == 0) {
        *kind = "scalar"; /* libeh's own enum (eh_dtype): <eh/eh.h> declares it */
        snprintf(spelling, sn, "%s", name);
        return;
    }
    *kind = "other";
    type_spelling(t, spelling, sn);
    if (ct.kind == CXType_Void)
        snprintf(why, wn, "nothing ('void')");
    else if (ct.kind == CXType_Record)
        snprintf(why, wn, "a struct or union ('%s'): state that is not a tensor", spelling);
    else if (ct.kind == CXType_Enum)
        snprintf(why, wn, "an enum of the application's own ('%s')", spelling);
    else
        snprintf(why, wn, "'%s'", spelling);
}

static void on_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    (void)state;
    const char *cls_backend = NULL;
    if (clang_getCursorKind(clang_getCursorSemanticParent(c)) != CXCursor_TranslationUnit ||
        el_cursor_class(ctx, c, &cls_backend) == EL_FILE_EXTERNAL)
        return;
    char name[256];
    elc_spelling(c, name, sizeof name);
    char backend[64];
    const char *rest = custom_rest(el_ctx_config(ctx), name, backend, sizeof backend);
    if (!rest)
        return;
    CXFile file = NULL;
    unsigned line = 0, col = 0;
    elc_cursor_location(c, &file, &line, &col);
    char path[PATH_MAX];
    const char *real = el_file_path(ctx, file);
    if (!real)
        elc_file_name(file, path, sizeof path);

    CXType ft = clang_getCursorType(c);
    char buf[512], why[512];
    const char *kind;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "path", json_object_new_string(real ? real : path));
    json_object_object_add(o, "name", json_object_new_string(name));
    json_object_object_add(o, "backend", json_object_new_string(backend));
    json_object_object_add(o, "rest", json_object_new_string(rest));
    json_object_object_add(o, "line", json_object_new_int64(line));
    json_object_object_add(o, "col", json_object_new_int64(col));
    json_object_object_add(o, "definition", json_object_new_boolean(clang_isCursorDefinition(c)));
    json_object_object_add(o, "static",
                           json_object_new_boolean(clang_getCursorLinkage(c) == CXLinkage_Internal));
    json_object_object_add(o, "in_macro", json_object_new_boolean(elc_in_macro(c)));
    json_object_object_add(o, "variadic", json_object_new_boolean(clang_isFunctionTypeVariadic(ft)));
    type_spelling(clang_getCanonicalType(ft), buf, sizeof buf);
    json_object_object_add(o, "type", json_object_new_string(buf));
    type_spelling(ft, buf, sizeof buf);
    json_object_object_add(o, "shown", json_object_new_string(buf));
    json_object *r = json_object_new_object();
    classify(clang_getResultType(ft), &kind, buf, sizeof buf, why, sizeof why);
    json_object_object_add(r, "kind", json_object_new_string(kind));
    json_object_object_add(r, "spelling", json_object_new_string(buf));
    json_object_object_add(r, "why", json_object_new_string(why));
    json_object_object_add(o, "result", r);
    json_object *ps = json_object_new_array();
    int n = clang_Cursor_getNumArguments(c);
    for (int k = 0; k < n; k++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)k);
        json_object *p = json_object_new_object();
        json_object_object_add(p, "name", json_object_new_string(elc_spelling(a, buf, sizeof buf)));
        classify(clang_getCursorType(a), &kind, buf, sizeof buf, why, sizeof why);
        json_object_object_add(p, "kind", json_object_new_string(kind));
        json_object_object_add(p, "spelling", json_object_new_string(buf));
        json_object_object_add(p, "why", json_object_new_string(why));
        json_object_array_add(ps, p);
    }
    json_object_object_add(o, "params", ps);
    el_fact(ctx, EM_FACT_CUSTOM_FN,
            json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

const el_rule em_custom_rule = {
    .id = "ember-migrate-custom",
    .kinds = kinds,
    .on_cursor = on_cursor,
};
