/* lint/rules/backend_branch.c -- EH103 backend-branch: frontend code that
 * behaves differently per backend.  Two shapes:
 *
 * 1. Comparing the backend's name.  Inside a function, a value is "the
 *    backend name" when it comes from a call of options.
 *    backend_name_functions (eh_get_backend), from a variable that holds
 *    it (initialized or assigned from it, a strdup-like copy of it
 *    (options.copy_functions), or a buffer it was copied into
 *    (options.copy_into_functions: strcpy, snprintf, ...)), followed to a
 *    fixpoint within the function; a character of it (b[0], *b, a char
 *    variable holding one) counts too.  Reported: a call of
 *    options.compare_functions (strcmp, strncmp, memcmp, ...) with such an
 *    argument, a relational or equality operator with such an operand
 *    (unless the other side is a null constant: `!= NULL`, `== '\0'` are
 *    checks, not branches), and a switch on one.  Printing or logging the
 *    name, passing it elsewhere, eh_set_backend(...) are not findings.
 *    This file.  The fix, collapsing an if whose arms are the same once
 *    their calls are rewritten: backend_branch/collapse.c.
 *
 * 2. A preprocessor conditional (#if, #elif, #ifdef, #ifndef, defined())
 *    on a backend macro (backend_macros of the configuration: EH_HAVE_BLAS,
 *    EH_BACKEND_*), or on a macro the TU defines under such a conditional
 *    (USE_FFTW of a config header): backend_branch/conditionals.c, with
 *    backend_branch/derived.c.
 *
 * 3. A call of a backend predicate (options.backend_predicates:
 *    ggml_backend_is_cuda), or a test of a backend variable
 *    (options.backend_variables: darknet's gpu_index):
 *    backend_branch/predicates.c.
 *
 * In C++ too: a std::string holding the name (constructed from it) is
 * the name, and operator== / compare() on it are comparisons. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "backend_branch/branch.h"
#include "clang_util.h"
#include "rewrite.h"
#include "rule.h"
#include "separation.h"

#define RULE "EH103"
#define MAX_TAINT 128

typedef struct state {
    bb_names name_fns, compare_fns, copy_fns, copy_into_fns, predicates, variables;
    bool saw_name;              /* the current function mentions a name function */
    bool global_alias;          /* a file-scope initializer does (a pointer to it) */
    char source[128];           /* its name, for messages */
    CXFile *files;              /* the linted files of the TU (on_file), in order */
    size_t n_files, cap_files;
    el_rewriter *rw;            /* call rewrites, for the fixes (made on first use) */
    el_cursor_map named;       /* declaration -> 1 + whether it names a name function */
} state;

/* Functions of every kind: C++ code compares the name in member
 * functions, constructors and templates as much as in free functions. */
static const enum CXCursorKind kinds[] = {
    ELC_FUNCTION_KINDS, CXCursor_DeclRefExpr, CXCursor_MemberRefExpr, EL_KINDS_END,
};

/* ---- options ---------------------------------------------------------------- */

static void load_list(const el_config *cfg, const char *key, bb_names *out)
{
    out->v = NULL;
    out->n = 0;
    json_object *o = el_config_rule_options(cfg, RULE), *list = NULL;
    if (!o || !json_object_object_get_ex(o, key, &list) ||
        !json_object_is_type(list, json_type_array))
        return;
    size_t n = json_object_array_length(list);
    out->v = calloc(n + 1, sizeof *out->v);
    if (!out->v)
        return;
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(list, i);
        if (json_object_is_type(e, json_type_string))
            out->v[out->n++] = json_object_get_string(e);
    }
}

/* ---- the backend name inside one function ------------------------------------- */

typedef struct analysis {
    el_ctx *ctx;
    state *s;
    CXCursor taint[MAX_TAINT];   /* canonical VarDecls holding the name */
    size_t n_taint;
    bool changed;
    bb_if *ifs;                /* every if statement of the function */
    size_t n_ifs, cap_ifs;
} analysis;

/* Attach the fix to the finding just reported at `at` (collapse.c). */
static void branch_fix(analysis *a, CXCursor at)
{
    bb_fixer fx = {a->ctx, &a->s->rw, &a->s->name_fns, &a->s->compare_fns, a->ifs, a->n_ifs};
    bb_branch_fix(&fx, at);
}

static bool is_tainted_var(const analysis *a, CXCursor var)
{
    CXCursor c = clang_getCanonicalCursor(var);
    for (size_t i = 0; i < a->n_taint; i++)
        if (clang_equalCursors(a->taint[i], c))
            return true;
    return false;
}

static void taint_var(analysis *a, CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl || is_tainted_var(a, var) ||
        a->n_taint == MAX_TAINT)
        return;
    a->taint[a->n_taint++] = clang_getCanonicalCursor(var);
    a->changed = true;
}

static bool is_class_type(CXType t)
{
    return clang_getCanonicalType(t).kind == CXType_Record;
}

/* A C++ construction libclang names no constructor of: an elidable copy
 * or move (std::string b = f(); before C++17), a CallExpr of class type
 * whose children are its arguments alone -- a call, even through a
 * pointer, has its callee among its children and a referenced cursor or
 * a function-typed first child. */
static bool is_elided_construction(CXCursor e)
{
    if (!clang_Cursor_isNull(clang_getCursorReferenced(e)) || elc_child_count(e) != 1 ||
        !is_class_type(clang_getCursorType(e)))
        return false;
    /* the same class, whatever its qualifiers (const std::string n = f()) */
    CXCursor arg = elc_child(e, 0);
    return clang_equalCursors(
        clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(arg))),
        clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(e))));
}

/* Does the expression carry the backend name (or a character of it)? */
static bool tainted(analysis *a, CXCursor e, int depth)
{
    if (depth > 16 || clang_Cursor_isNull(e))
        return false;
    e = elc_strip_casts(e);
    char name[128], op[8];
    bool post = false;
    switch (clang_getCursorKind(e)) {
    case CXCursor_CallExpr: {
        if (bb_callee_in(e, &a->s->name_fns, name, sizeof name))
            return true;
        /* C++: a string constructed from the name is the name; so is one
         * copied or moved from it, which before C++17 is how a variable is
         * initialized from a call returning a std::string or from a
         * const char *: an elidable construction, whose constructor
         * libclang 14 does not name (a CallExpr without a referenced
         * cursor, of class type) */
        if (clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_Constructor ||
            is_elided_construction(e)) {
            unsigned n = elc_child_count(e);
            for (unsigned i = 0; i < n; i++)
                if (tainted(a, elc_child(e, i), depth + 1))
                    return true;
        }
        if (bb_in_list(&a->s->copy_fns, name)) {
            unsigned n = elc_child_count(e);
            for (unsigned i = 1; i < n; i++)
                if (tainted(a, elc_child(e, i), depth + 1))
                    return true;
        }
        return false;
    }
    case CXCursor_DeclRefExpr:
        return is_tainted_var(a, clang_getCursorReferenced(e));
    case CXCursor_MemberRefExpr: /* C++: name.c_str(), name.data() */
        return tainted(a, elc_child(e, 0), depth + 1);
    case CXCursor_ArraySubscriptExpr:
        return tainted(a, elc_child(e, 0), depth + 1);
    case CXCursor_UnaryOperator:
        if (elc_unary_operator(e, op, sizeof op, &post) &&
            (strcmp(op, "*") == 0 || strcmp(op, "&") == 0 || strcmp(op, "+") == 0))
            return tainted(a, elc_child(e, 0), depth + 1);
        return false;
    case CXCursor_BinaryOperator:
        /* b + 1: still (part of) the name */
        if (elc_binary_operator(e, op, sizeof op) && (strcmp(op, "+") == 0 || strcmp(op, "-") == 0) &&
            elc_type_is_pointer(clang_getCursorType(e)))
            return tainted(a, elc_child(e, 0), depth + 1) || tainted(a, elc_child(e, 1), depth + 1);
        return false;
    case CXCursor_ConditionalOperator:
        return tainted(a, elc_child(e, 1), depth + 1) || tainted(a, elc_child(e, 2), depth + 1);
    case CXCursor_InitListExpr: /* C++: std::string b{eh_get_backend()} */
        return elc_child_count(e) == 1 && is_class_type(clang_getCursorType(e)) &&
               tainted(a, elc_child(e, 0), depth + 1);
    default:
        return false;
    }
}

/* The variable an lvalue / buffer argument names: x, &x, x[0], (char *)x. */
static CXCursor target_var(CXCursor e)
{
    for (int guard = 0; guard < 8; guard++) {
        e = elc_strip_casts(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr)
            return clang_getCursorReferenced(e);
        if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator)
            e = elc_child(e, 0);
        else
            break;
    }
    return clang_getNullCursor();
}

static enum CXChildVisitResult spread(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    analysis *a = d;
    char op[8], name[128];
    switch (clang_getCursorKind(c)) {
    case CXCursor_VarDecl: {
        CXCursor init = clang_Cursor_getVarDeclInitializer(c);
        if (!clang_Cursor_isNull(init) && !is_tainted_var(a, c) && tainted(a, init, 0))
            taint_var(a, c);
        break;
    }
    case CXCursor_BinaryOperator:
        if (elc_binary_operator(c, op, sizeof op) && strcmp(op, "=") == 0 &&
            tainted(a, elc_child(c, 1), 0))
            taint_var(a, target_var(elc_child(c, 0)));
        break;
    case CXCursor_CallExpr:
        /* C++: b = eh_get_backend(); with a std::string b is a call of
         * its operator= (children: b, the operator, the value) */
        if (clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_CXXMethod &&
            strcmp(elc_spelling(c, name, sizeof name), "operator=") == 0 &&
            elc_child_count(c) == 3 && tainted(a, elc_child(c, 2), 0)) {
            taint_var(a, target_var(elc_child(c, 0)));
            break;
        }
        if (bb_callee_in(c, &a->s->copy_into_fns, name, sizeof name)) {
            unsigned n = elc_child_count(c);
            for (unsigned i = 2; i < n; i++) {
                if (tainted(a, elc_child(c, i), 0)) {
                    taint_var(a, target_var(elc_child(c, 1)));
                    break;
                }
            }
        }
        break;
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

static bool is_null_constant(CXCursor e)
{
    e = elc_strip_casts(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_IntegerLiteral && k != CXCursor_CharacterLiteral)
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return false;
    bool zero = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
    clang_EvalResult_dispose(r);
    return zero;
}

static enum CXChildVisitResult judge(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    analysis *a = d;
    char op[8], name[128];
    const char *src = a->s->source;
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr:
        if (bb_callee_in(c, &a->s->compare_fns, name, sizeof name)) {
            /* arguments, and in C++ the object of a member call
             * (name.compare("cuda")) */
            unsigned n = elc_child_count(c);
            for (unsigned i = 0; i < n; i++) {
                if (tainted(a, elc_child(c, i), 0)) {
                    if (strncmp(name, "operator", 8) == 0) /* C++: b == "cuda" */
                        el_report(a->ctx, c, "'%s' on the backend name from %s(): frontend code "
                                  "must behave the same on every backend", name + 8, src);
                    else
                        el_report(a->ctx, c, "%s() on the backend name from %s(): frontend code "
                                  "must behave the same on every backend", name, src);
                    branch_fix(a, c);
                    break;
                }
            }
        }
        break;
    case CXCursor_BinaryOperator:
        if (elc_binary_operator(c, op, sizeof op)) {
            if (!sf_is_comparison(op))
                break;
            CXCursor l = elc_child(c, 0), r = elc_child(c, 1);
            bool tl = tainted(a, l, 0), tr = tainted(a, r, 0);
            if ((tl && !is_null_constant(r)) || (tr && !is_null_constant(l))) {
                el_report(a->ctx, c, "'%s' on the backend name from %s(): frontend code must "
                          "behave the same on every backend", op, src);
                branch_fix(a, c);
            }
        }
        break;
    case CXCursor_SwitchStmt:
        if (tainted(a, elc_child(c, 0), 0))
            el_report(a->ctx, c, "switch on the backend name from %s(): frontend code must "
                      "behave the same on every backend", src);
        break;
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult collect_ifs(CXCursor c, CXCursor p, CXClientData d)
{
    analysis *a = d;
    if (clang_getCursorKind(c) == CXCursor_IfStmt) {
        if (a->n_ifs == a->cap_ifs) {
            size_t cap = a->cap_ifs ? 2 * a->cap_ifs : 16;
            bb_if *v = realloc(a->ifs, cap * sizeof *v);
            if (!v)
                return CXChildVisit_Break;
            a->ifs = v;
            a->cap_ifs = cap;
        }
        a->ifs[a->n_ifs++] = (bb_if){c, p};
    }
    return CXChildVisit_Recurse;
}

static void analyze_function(el_ctx *ctx, state *s, CXCursor fn)
{
    analysis *a = calloc(1, sizeof *a);
    if (!a)
        return;
    a->ctx = ctx;
    a->s = s;
    /* Parameters and globals start clean; spread to a fixpoint (a loop
     * may use a variable before, in source order, it is assigned). */
    for (int round = 0; round < 8; round++) {
        a->changed = false;
        clang_visitChildren(fn, spread, a);
        if (!a->changed)
            break;
    }
    clang_visitChildren(fn, collect_ifs, a);
    clang_visitChildren(fn, judge, a);
    free(a->ifs);
    free(a);
}

/* ---- hooks -------------------------------------------------------------------------- */

static void begin(el_ctx *ctx, void *st)
{
    state *s = st;
    const el_config *cfg = el_ctx_config(ctx);
    load_list(cfg, "backend_name_functions", &s->name_fns);
    load_list(cfg, "compare_functions", &s->compare_fns);
    load_list(cfg, "copy_functions", &s->copy_fns);
    load_list(cfg, "copy_into_functions", &s->copy_into_fns);
    load_list(cfg, "backend_predicates", &s->predicates);
    load_list(cfg, "backend_variables", &s->variables);
}

/* A linted file: its conditionals are scanned in end(). */
static void on_file(el_ctx *ctx, void *st, CXFile file)
{
    (void)ctx;
    state *s = st;
    if (!file)
        return;
    for (size_t i = 0; i < s->n_files; i++)
        if (clang_File_isEqual(s->files[i], file))
            return;
    if (s->n_files == s->cap_files) {
        size_t cap = s->cap_files ? 2 * s->cap_files : 16;
        CXFile *v = realloc(s->files, cap * sizeof *v);
        if (!v)
            return;
        s->files = v;
        s->cap_files = cap;
    }
    s->files[s->n_files++] = file;
}

/* The DeclRefExpr names a backend_name_functions entry.  Its spelling is
 * that of the declaration it references, so the answer is kept per
 * declaration: a spelling costs ~1,500 instructions, and most references
 * of a TU name a declaration met before. */
static bool names_name_function(state *s, CXCursor ref)
{
    CXCursor d = clang_getCursorReferenced(ref);
    unsigned *known = clang_isDeclaration(clang_getCursorKind(d)) ? el_cursor_value(&s->named, d)
                                                                   : NULL;
    if (known && *known)
        return *known == 2;
    char name[128];
    bool hit = bb_matches(&s->name_fns, elc_spelling(ref, name, sizeof name));
    if (known)
        *known = hit ? 2 : 1;
    return hit;
}

static void on_cursor(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    if (elc_is_function_kind(clang_getCursorKind(c))) {
        if (s->saw_name && clang_isCursorDefinition(c)) /* not a block-scope prototype */
            s->saw_name = false;
        return;
    }
    /* a DeclRefExpr or a MemberRefExpr: a predicate, a backend variable? */
    if ((s->predicates.n || s->variables.n) && el_applies_to(ctx, c))
        bb_check_reference(ctx, &s->predicates, &s->variables, c);
    if (clang_getCursorKind(c) == CXCursor_MemberRefExpr)
        return;
    /* does it name eh_get_backend? */
    if ((s->saw_name && el_enclosing_function(ctx, NULL)) || s->name_fns.n == 0)
        return;
    if (names_name_function(s, c)) {
        char name[128];
        elc_spelling(c, name, sizeof name);
        /* outside a function: `getter_fn g = eh_get_backend;` -- then any
         * function may call it through g, so all are analyzed */
        if (el_enclosing_function(ctx, NULL))
            s->saw_name = true;
        else
            s->global_alias = true;
        snprintf(s->source, sizeof s->source, "%s", name);
    }
}

static void on_leave(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    if (!(s->saw_name || s->global_alias) || !elc_is_function_kind(clang_getCursorKind(c)) ||
        !clang_isCursorDefinition(c))
        return;
    s->saw_name = false;
    if (el_applies_to(ctx, c))
        analyze_function(ctx, s, c);
}

static void end(el_ctx *ctx, void *st)
{
    state *s = st;
    /* The conditionals after the functions' findings, file by file in
     * the order on_file saw them: linted files only (asking every included
     * file, system headers too, whether it is linted costs a location
     * lookup each). */
    bb_derived derived = {0};
    if (s->n_files)
        bb_derived_collect(ctx, &derived);
    for (size_t i = 0; i < s->n_files; i++)
        bb_scan_conditionals(ctx, s->files[i], &derived);
    bb_derived_free(&derived);
    free(s->files);
    s->files = NULL;
    free(s->name_fns.v);
    free(s->compare_fns.v);
    free(s->copy_fns.v);
    free(s->copy_into_fns.v);
    free(s->predicates.v);
    free(s->variables.v);
    el_rewriter_free(s->rw);
    s->rw = NULL;
    el_cursor_map_free(&s->named);
}

const el_rule el_rule_backend_branch = {
    .id = RULE,
    .kinds = kinds,
    .state_size = sizeof(state),
    .begin = begin,
    .on_file = on_file,
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
