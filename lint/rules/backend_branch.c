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
 *
 * 2. A preprocessor conditional (#if, #elif, #ifdef, #ifndef, defined())
 *    on a backend macro (backend_macros of the configuration: EH_HAVE_BLAS,
 *    EH_BACKEND_*).  libclang has no cursors for conditionals, so each
 *    linted file of the TU is tokenized.  Not findings: #define / #undef,
 *    a file's include guard (#ifndef X / #define X as its first
 *    directives, even when X matches a pattern, as EH_BACKEND_H does), and
 *    conditionals inside code the preprocessor skipped (an #if 0 block). */
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "rule.h"
#include "separation.h"

#define RULE "EH103"
#define MAX_TAINT 128

typedef struct strlist {
    const char **v;
    size_t n;
} strlist;

typedef struct state {
    strlist name_fns, compare_fns, copy_fns, copy_into_fns;
    bool saw_name;              /* the current function mentions a name function */
    bool global_alias;          /* a file-scope initializer does (a pointer to it) */
    char source[128];           /* its name, for messages */
    CXFile *files;              /* the linted files of the TU (on_file), in order */
    size_t n_files, cap_files;
} state;

static const enum CXCursorKind kinds[] = {
    CXCursor_FunctionDecl, CXCursor_DeclRefExpr, EL_KINDS_END,
};

/* ---- options ---------------------------------------------------------------- */

static void load_list(const el_config *cfg, const char *key, strlist *out)
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

static bool in_list(const strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

/* ---- the backend name inside one function ------------------------------------- */

typedef struct analysis {
    el_ctx *ctx;
    state *s;
    CXCursor taint[MAX_TAINT];   /* canonical VarDecls holding the name */
    size_t n_taint;
    bool changed;
} analysis;

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

/* The callee's name into name[] ("" when unknown); true when it is in l. */
static bool callee_in(CXCursor call, const strlist *l, char *name, size_t n)
{
    if (!elc_callee_name(call, name, n)) {
        name[0] = '\0';
        return false;
    }
    return in_list(l, name);
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
        if (callee_in(e, &a->s->name_fns, name, sizeof name))
            return true;
        if (in_list(&a->s->copy_fns, name)) {
            unsigned n = elc_child_count(e);
            for (unsigned i = 1; i < n; i++)
                if (tainted(a, elc_child(e, i), depth + 1))
                    return true;
        }
        return false;
    }
    case CXCursor_DeclRefExpr:
        return is_tainted_var(a, clang_getCursorReferenced(e));
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
        if (callee_in(c, &a->s->copy_into_fns, name, sizeof name)) {
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

static const char *const comparisons[] = {"==", "!=", "<", ">", "<=", ">=", NULL};

static enum CXChildVisitResult judge(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    analysis *a = d;
    char op[8], name[128];
    const char *src = a->s->source;
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr:
        if (callee_in(c, &a->s->compare_fns, name, sizeof name)) {
            unsigned n = elc_child_count(c);
            for (unsigned i = 1; i < n; i++) {
                if (tainted(a, elc_child(c, i), 0)) {
                    el_report(a->ctx, c, "%s() on the backend name from %s(): frontend code "
                              "must behave the same on every backend", name, src);
                    break;
                }
            }
        }
        break;
    case CXCursor_BinaryOperator:
        if (elc_binary_operator(c, op, sizeof op)) {
            bool cmp = false;
            for (const char *const *q = comparisons; *q && !cmp; q++)
                cmp = strcmp(op, *q) == 0;
            if (!cmp)
                break;
            CXCursor l = elc_child(c, 0), r = elc_child(c, 1);
            bool tl = tainted(a, l, 0), tr = tainted(a, r, 0);
            if ((tl && !is_null_constant(r)) || (tr && !is_null_constant(l)))
                el_report(a->ctx, c, "'%s' on the backend name from %s(): frontend code must "
                          "behave the same on every backend", op, src);
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
    clang_visitChildren(fn, judge, a);
    free(a);
}

/* ---- preprocessor conditionals ---------------------------------------------------- */

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* Quick look at the text: a line `# if...` / `# elif...` naming a backend
 * macro.  False positives (a comment) are sorted out by the tokens. */
static bool maybe_has_conditional(const el_config *cfg, const char *text, size_t size)
{
    size_t i = 0;
    while (i < size) {
        size_t j = i;
        while (j < size && (text[j] == ' ' || text[j] == '\t'))
            j++;
        bool directive = j < size && text[j] == '#';
        if (directive) {
            j++;
            while (j < size && (text[j] == ' ' || text[j] == '\t'))
                j++;
            directive = (size - j >= 2 && strncmp(text + j, "if", 2) == 0) ||
                        (size - j >= 4 && strncmp(text + j, "elif", 4) == 0);
        }
        /* to the end of the logical line */
        size_t end = j;
        while (end < size && !(text[end] == '\n' && (end == 0 || text[end - 1] != '\\')))
            end++;
        if (directive) {
            for (size_t k = j; k < end;) {
                if (ident_start(text[k]) && (k == 0 || !ident_char(text[k - 1]))) {
                    char name[256];
                    size_t l = 0;
                    while (k < end && ident_char(text[k])) {
                        if (l + 1 < sizeof name)
                            name[l++] = text[k];
                        k++;
                    }
                    name[l] = '\0';
                    if (el_config_is_backend_macro(cfg, name))
                        return true;
                } else {
                    k++;
                }
            }
        }
        i = end + 1;
    }
    return false;
}

static unsigned token_offset(CXTranslationUnit tu, CXToken t)
{
    unsigned off = 0;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t), NULL, NULL, NULL, &off);
    return off;
}

static unsigned token_line(CXTranslationUnit tu, CXToken t)
{
    unsigned line = 0;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t), NULL, &line, NULL, NULL);
    return line;
}

static bool token_is(CXTranslationUnit tu, CXToken t, const char *s)
{
    CXString str = clang_getTokenSpelling(tu, t);
    bool eq = strcmp(clang_getCString(str), s) == 0;
    clang_disposeString(str);
    return eq;
}

typedef struct directive {
    unsigned hash;          /* token index of '#' */
    unsigned first, end;    /* tokens after the name: [first, end) */
    char name[16];
} directive;

static unsigned logical_line_end(const char *text, size_t size, unsigned from)
{
    size_t e = from;
    while (e < size && !(text[e] == '\n' && (e == 0 || text[e - 1] != '\\')))
        e++;
    return (unsigned)e;
}

/* The macro an include guard tests: `#ifndef X` or `#if !defined X` /
 * `#if !defined(X)` (comments aside). */
static bool guard_macro(CXTranslationUnit tu, CXToken *t, const directive *d, char *out, size_t n)
{
    unsigned idx[8], m = 0;
    for (unsigned k = d->first; k < d->end; k++) {
        if (clang_getTokenKind(t[k]) == CXToken_Comment)
            continue;
        if (m == 8)
            return false;
        idx[m++] = k;
    }
    unsigned x;
    if (strcmp(d->name, "ifndef") == 0 && m == 1)
        x = idx[0];
    else if (strcmp(d->name, "if") == 0 && (m == 3 || m == 5) && token_is(tu, t[idx[0]], "!") &&
             token_is(tu, t[idx[1]], "defined") &&
             (m == 3 || (token_is(tu, t[idx[2]], "(") && token_is(tu, t[idx[4]], ")"))))
        x = m == 3 ? idx[2] : idx[3];
    else
        return false;
    elc_string(clang_getTokenSpelling(tu, t[x]), out, n);
    return true;
}

/* The first token of a directive after its name, comments aside. */
static bool first_token_is(CXTranslationUnit tu, CXToken *t, const directive *d, const char *s)
{
    for (unsigned k = d->first; k < d->end; k++)
        if (clang_getTokenKind(t[k]) != CXToken_Comment)
            return token_is(tu, t[k], s);
    return false;
}

static void scan_file(el_ctx *ctx, CXFile f)
{
    CXTranslationUnit tu = el_tu(ctx);
    const el_config *cfg = el_ctx_config(ctx);
    size_t size = 0;
    const char *text = clang_getFileContents(tu, f, &size);
    if (!text || !maybe_has_conditional(cfg, text, size))
        return;
    /* (a location lookup costs more than the text scan: only now) */
    CXSourceLocation start = clang_getLocationForOffset(tu, f, 0);
    if (!el_applies_at(ctx, start))
        return;
    CXSourceRange all = clang_getRange(start, clang_getLocationForOffset(tu, f, (unsigned)size));
    CXToken *t = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, all, &t, &nt);
    if (!t)
        return;
    CXSourceRangeList *skipped = clang_getSkippedRanges(tu, f);

    /* every directive of the file, in order */
    directive *ds = calloc(nt + 1, sizeof *ds);
    unsigned nd = 0;
    for (unsigned i = 0; ds && i + 1 < nt; i++) {
        if (clang_getTokenKind(t[i]) != CXToken_Punctuation || !token_is(tu, t[i], "#"))
            continue;
        unsigned line = token_line(tu, t[i]);
        unsigned prev = i;
        while (prev > 0 && clang_getTokenKind(t[prev - 1]) == CXToken_Comment)
            prev--;
        if (prev > 0 && token_line(tu, t[prev - 1]) == line)
            continue; /* not at the start of a line: `a # b` in a macro body... */
        if (prev > 0) {
            /* a '#' on a continued line of a previous directive */
            unsigned prev_end = logical_line_end(text, size, token_offset(tu, t[prev - 1]));
            if (token_offset(tu, t[i]) < prev_end)
                continue;
        }
        directive *d = &ds[nd];
        d->hash = i;
        elc_string(clang_getTokenSpelling(tu, t[i + 1]), d->name, sizeof d->name);
        unsigned end = logical_line_end(text, size, token_offset(tu, t[i]));
        unsigned k = i + 2;
        while (k < nt && token_offset(tu, t[k]) < end)
            k++;
        d->first = i + 2;
        d->end = k;
        nd++;
    }

    /* Openers of the enclosing conditional branches (#if, #elif, #else),
     * innermost last: a directive is dead when the branch it sits in was
     * skipped, that is a skipped range reaches from (at most) that
     * branch's opener to it.  (Ranges of consecutive skipped branches are
     * merged, so an #elif after a false #if lies inside one while being
     * evaluated itself: only the enclosing branch decides.) */
    unsigned *open = calloc(nd + 1, sizeof *open);
    unsigned depth = 0;
    for (unsigned i = 0; open && i < nd; i++) {
        const directive *d = &ds[i];
        const char *n = d->name;
        bool opens = strcmp(n, "if") == 0 || strcmp(n, "ifdef") == 0 || strcmp(n, "ifndef") == 0;
        bool next_branch = strcmp(n, "elif") == 0 || strcmp(n, "else") == 0 ||
                           strcmp(n, "elifdef") == 0 || strcmp(n, "elifndef") == 0;
        unsigned off = token_offset(tu, t[d->hash]);
        /* the enclosing branch: for #elif/#else that of the #if's parent */
        unsigned parent_depth = next_branch && depth > 0 ? depth - 1 : depth;
        bool dead = false;
        if (parent_depth > 0) {
            unsigned opener = open[parent_depth - 1];
            for (unsigned r = 0; skipped && r < skipped->count && !dead; r++) {
                unsigned a = 0, b = 0;
                clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[r]), NULL, NULL, NULL, &a);
                clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[r]), NULL, NULL, NULL, &b);
                dead = a <= opener && off < b;
            }
        }
        if (opens)
            open[depth++] = off;
        else if (next_branch && depth > 0)
            open[depth - 1] = off;
        else if (strcmp(n, "endif") == 0 && depth > 0)
            depth--;
        if ((!opens && !next_branch) || strcmp(n, "else") == 0 || dead)
            continue;
        /* the include guard: first directive, and the next defines it */
        char guard[256];
        if (i == 0 && i + 1 < nd && strcmp(ds[1].name, "define") == 0 &&
            guard_macro(tu, t, d, guard, sizeof guard) && first_token_is(tu, t, &ds[1], guard))
            continue;
        char macros[512] = "";
        size_t len = 0, count = 0;
        unsigned at = 0;
        for (unsigned k = d->first; k < d->end; k++) {
            if (clang_getTokenKind(t[k]) != CXToken_Identifier)
                continue;
            char id[256];
            elc_string(clang_getTokenSpelling(tu, t[k]), id, sizeof id);
            if (strcmp(id, "defined") == 0 || !el_config_is_backend_macro(cfg, id) ||
                strstr(macros, id))
                continue;
            if (count++ == 0)
                at = k;
            if (len + strlen(id) + 5 < sizeof macros)
                len += (size_t)snprintf(macros + len, sizeof macros - len, "%s'%s'",
                                        len ? ", " : "", id);
        }
        if (count)
            el_report_loc(ctx, clang_getTokenLocation(tu, t[at]),
                          "#%s on backend macro%s %s: frontend code must behave the same on "
                          "every backend", n, count > 1 ? "s" : "", macros);
    }
    free(open);
    free(ds);
    if (skipped)
        clang_disposeSourceRangeList(skipped);
    clang_disposeTokens(tu, t, nt);
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

static void on_cursor(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl) {
        if (clang_isCursorDefinition(c)) /* not a block-scope prototype */
            s->saw_name = false;
        return;
    }
    /* a DeclRefExpr: does it name eh_get_backend? */
    if ((s->saw_name && el_enclosing_function(ctx, NULL)) || s->name_fns.n == 0)
        return;
    char name[128];
    elc_spelling(c, name, sizeof name);
    if (in_list(&s->name_fns, name)) {
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
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        !(s->saw_name || s->global_alias))
        return;
    s->saw_name = false;
    if (el_applies_at(ctx, clang_getCursorLocation(c)))
        analyze_function(ctx, s, c);
}

static void end(el_ctx *ctx, void *st)
{
    state *s = st;
    /* The conditionals after the functions' findings, file by file in
     * the order on_file saw them: linted files only (asking every included
     * file, system headers too, whether it is linted costs a location
     * lookup each). */
    for (size_t i = 0; i < s->n_files; i++)
        scan_file(ctx, s->files[i]);
    free(s->files);
    s->files = NULL;
    free(s->name_fns.v);
    free(s->compare_fns.v);
    free(s->copy_fns.v);
    free(s->copy_into_fns.v);
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
