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
 *    conditionals inside code the preprocessor skipped (an #if 0 block).
 *
 * The fix (shape 1): `if (<test>) A else B` -- or a chain `if / else if /
 * else` -- whose conditions have no side effects (comparisons, logical
 * operators, variables, literals, calls of backend_name_functions and
 * compare_functions) and whose arms are the same tokens once every call
 * in them is rewritten (lint/change/rewrite.h: eh_blas_matmul -> eh_matmul)
 * becomes A, with its calls rewritten.  A block A loses its braces and
 * moves one level out when it declares nothing at its top level and the
 * if statement stands in a block; otherwise it stays a block.  Safety:
 * the worst of the rewrites the comparison relied on (safe with none). */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "clang_util.h"
#include "rewrite.h"
#include "rule.h"
#include "separation.h"
#include "strbuf.h"

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
    el_rewriter *rw;            /* call rewrites, for the fixes (made on first use) */
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

/* An if statement of the function, with its parent (for the fix). */
typedef struct if_stmt {
    CXCursor stmt, parent;
} if_stmt;

typedef struct analysis {
    el_ctx *ctx;
    state *s;
    CXCursor taint[MAX_TAINT];   /* canonical VarDecls holding the name */
    size_t n_taint;
    bool changed;
    if_stmt *ifs;                /* every if statement of the function */
    size_t n_ifs, cap_ifs;
} analysis;

static void branch_fix(analysis *a, CXCursor finding);

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
                    branch_fix(a, c);
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
            if_stmt *v = realloc(a->ifs, cap * sizeof *v);
            if (!v)
                return CXChildVisit_Break;
            a->ifs = v;
            a->cap_ifs = cap;
        }
        a->ifs[a->n_ifs++] = (if_stmt){c, p};
    }
    return CXChildVisit_Recurse;
}

/* ---- the fix: collapsing an if whose arms are the same ------------------------ */

/* A location plainly in a file (not from a macro): file and offset. */
static CXFile plain_offset(CXSourceLocation loc, unsigned *off)
{
    CXFile ef = NULL, sf = NULL;
    unsigned eo = 0, so = 0;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    if (!ef || !sf || !clang_File_isEqual(ef, sf) || eo != so)
        return NULL;
    *off = eo;
    return ef;
}

/* The cursor's extent as offsets of file f; false when not plainly there. */
static bool extent_in(CXCursor c, CXFile f, unsigned *b, unsigned *e)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = plain_offset(clang_getRangeStart(r), b);
    CXFile f2 = plain_offset(clang_getRangeEnd(r), e);
    return f1 && f2 && clang_File_isEqual(f1, f) && clang_File_isEqual(f2, f) && *b <= *e &&
           !elc_in_macro(c);
}

/* The condition has no side effects: comparisons, logical operators,
 * variables, literals, name and compare functions. */
static bool pure(analysis *a, CXCursor e, int depth)
{
    if (depth > 32)
        return false;
    char op[8], name[128];
    bool post = false;
    switch (clang_getCursorKind(e)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_StringLiteral:
    case CXCursor_CharacterLiteral:
        return true;
    case CXCursor_DeclRefExpr: {
        enum CXCursorKind k = clang_getCursorKind(clang_getCursorReferenced(e));
        return k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_EnumConstantDecl ||
               k == CXCursor_FunctionDecl;
    }
    case CXCursor_CallExpr:
        if (!callee_in(e, &a->s->name_fns, name, sizeof name) &&
            !in_list(&a->s->compare_fns, name))
            return false;
        break;
    case CXCursor_BinaryOperator: {
        if (!elc_binary_operator(e, op, sizeof op))
            return false;
        bool ok = strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;
        for (const char *const *q = comparisons; *q && !ok; q++)
            ok = strcmp(op, *q) == 0;
        if (!ok)
            return false;
        break;
    }
    case CXCursor_UnaryOperator:
        if (!elc_unary_operator(e, op, sizeof op, &post) ||
            !(strcmp(op, "!") == 0 || strcmp(op, "*") == 0 || strcmp(op, "&") == 0 ||
              strcmp(op, "-") == 0 || strcmp(op, "+") == 0))
            return false;
        break;
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_ArraySubscriptExpr:
        break;
    default:
        return false;
    }
    unsigned n = elc_child_count(e);
    for (unsigned i = 0; i < n; i++)
        if (!pure(a, elc_child(e, i), depth + 1))
            return false;
    return true;
}

typedef struct edit {
    unsigned b, e;
    char *text;
} edit;

typedef struct edits {
    edit *v;
    size_t n, cap;
    bool failed;
} edits;

static void edits_add(edits *x, unsigned b, unsigned e, const char *text)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        edit *v = realloc(x->v, cap * sizeof *v);
        if (!v) {
            x->failed = true;
            return;
        }
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n].b = b;
    x->v[x->n].e = e;
    x->v[x->n].text = strdup(text);
    if (!x->v[x->n].text)
        x->failed = true;
    x->n++;
}

static void edits_free(edits *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->v[i].text);
    free(x->v);
    memset(x, 0, sizeof *x);
}

/* Tokens of C text, one space apart, comments and layout dropped. */
static char *tokens_of(const char *t, size_t n)
{
    el_buf b = {0};
    for (size_t i = 0; i < n;) {
        char c = t[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
            (c == '\\' && i + 1 < n && t[i + 1] == '\n')) {
            i += c == '\\' ? 2 : 1;
            continue;
        }
        if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'))
                i++;
            i += 2;
            continue;
        }
        size_t j = i + 1;
        if (c == '"' || c == '\'') {
            while (j < n && t[j] != c) {
                if (t[j] == '\\')
                    j++;
                j++;
            }
            j++;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '.') {
            while (j < n && ((t[j] >= 'a' && t[j] <= 'z') || (t[j] >= 'A' && t[j] <= 'Z') ||
                             (t[j] >= '0' && t[j] <= '9') || t[j] == '_' || t[j] == '.'))
                j++;
        }
        if (j > n)
            j = n;
        el_buf_putn(&b, t + i, j - i);
        el_buf_putn(&b, " ", 1);
        i = j;
    }
    el_buf_putn(&b, "", 0);
    return el_buf_take(&b);
}

/* The end of a statement [b, e): past its ';' when it is not a block. */
static unsigned stmt_end(CXCursor st, const char *t, size_t n, unsigned e)
{
    enum CXCursorKind k = clang_getCursorKind(st);
    if (k == CXCursor_CompoundStmt || k == CXCursor_IfStmt)
        return e;
    size_t i = e;
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i < n && t[i] == ';' ? (unsigned)i + 1 : 0;
}

/* The arm's text with its calls rewritten (rewrite.h: a template's text
 * has the calls in its arguments rewritten), as tokens; the rewrites into
 * *rw.  NULL when it cannot be known. */
static char *arm_tokens(analysis *a, CXCursor arm, CXFile f, const char *t, unsigned b,
                        unsigned e, edits *rw, el_fix_safety *safety)
{
    if (!a->s->rw)
        a->s->rw = el_rewriter_new(el_tu(a->ctx), el_ctx_config(a->ctx));
    el_rewrite_list calls = {0};
    char *s = NULL;
    if (a->s->rw && el_rewrite_calls_in(a->s->rw, arm, f, &calls))
        s = el_rewrite_apply(t, b, e, &calls, safety);
    for (size_t i = 0; s && i < calls.n; i++)
        if (calls.v[i].begin < b || calls.v[i].end > e) {
            free(s);
            s = NULL; /* a rewrite outside the arm's text */
        }
    for (size_t i = 0; s && i < calls.n; i++)
        edits_add(rw, calls.v[i].begin, calls.v[i].end, calls.v[i].text);
    el_rewrite_list_free(&calls);
    char *tok = s && !rw->failed ? tokens_of(s, strlen(s)) : NULL;
    free(s);
    return tok;
}

static bool has_top_level_decl(CXCursor block)
{
    unsigned n = elc_child_count(block);
    for (unsigned i = 0; i < n; i++)
        if (clang_getCursorKind(elc_child(block, i)) == CXCursor_DeclStmt)
            return true;
    return n == 0;
}

static size_t line_start(const char *t, size_t i)
{
    while (i > 0 && t[i - 1] != '\n')
        i--;
    return i;
}

/* The end (its '\n', or lim) of the line starting at q. */
static size_t line_end(const char *t, size_t q, size_t lim)
{
    while (q < lim && t[q] != '\n')
        q++;
    return q;
}

/* Does t[q, e) hold only blanks? */
static bool blank_line(const char *t, size_t q, size_t e)
{
    for (; q < e; q++)
        if (t[q] != ' ' && t[q] != '\t' && t[q] != '\r')
            return false;
    return true;
}

/* Try to collapse the chain starting at `head` (parent: its parent);
 * true when a fix was attached. */
static bool collapse(analysis *a, CXCursor head, CXCursor parent)
{
    CXTranslationUnit tu = el_tu(a->ctx);
    CXFile f = NULL;
    unsigned s0 = 0, s1 = 0;
    if (!plain_offset(clang_getRangeStart(clang_getCursorExtent(head)), &s0))
        return false;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(head)), &f, NULL, NULL, NULL);
    if (!f || !extent_in(head, f, &s0, &s1))
        return false;
    size_t n = 0;
    const char *t = clang_getFileContents(tu, f, &n);
    if (!t || s1 > n)
        return false;

    /* the arms, the conditions pure */
    CXCursor arms[16];
    unsigned na = 0;
    CXCursor cur = head;
    for (;;) {
        if (elc_child_count(cur) != 3 || na + 2 > 16 || !pure(a, elc_child(cur, 0), 0))
            return false;
        arms[na++] = elc_child(cur, 1);
        CXCursor els = elc_child(cur, 2);
        if (clang_getCursorKind(els) == CXCursor_IfStmt) {
            cur = els;
            continue;
        }
        arms[na++] = els;
        break;
    }
    edits rw = {0};
    el_fix_safety safety = EL_FIX_SAFE;
    char *want = NULL;
    unsigned ab = 0, ae = 0, last_e = 0;
    bool same = true;
    for (unsigned i = 0; i < na && same; i++) {
        unsigned b = 0, e = 0;
        if (!extent_in(arms[i], f, &b, &e) || !(e = stmt_end(arms[i], t, n, e))) {
            same = false;
            break;
        }
        size_t keep = rw.n;
        char *tok = arm_tokens(a, arms[i], f, t, b, e, &rw, &safety);
        if (i > 0) {
            for (size_t k = keep; k < rw.n; k++)
                free(rw.v[k].text);
            rw.n = keep; /* only A's rewrites are edits */
        }
        if (!tok) {
            same = false;
        } else if (i == 0) {
            want = tok;
            ab = b;
            ae = e;
        } else {
            same = strcmp(tok, want) == 0;
            free(tok);
        }
        last_e = e;
    }
    free(want);
    if (!same || rw.failed) {
        edits_free(&rw);
        return false;
    }
    s1 = last_e > s1 ? last_e : s1;

    /* the edits around A */
    CXCursor A = arms[0];
    bool dedent = false;
    size_t ls = line_start(t, s0), l1 = 0, close_line = 0;
    unsigned ind = (unsigned)(s0 - ls), d = 0;
    if (clang_getCursorKind(A) == CXCursor_CompoundStmt && !has_top_level_decl(A) &&
        clang_getCursorKind(parent) == CXCursor_CompoundStmt && !memchr(t + ab, '\\', ae - ab)) {
        bool ok = true;
        for (size_t k = ls; k < s0 && ok; k++)
            ok = t[k] == ' ' || t[k] == '\t';
        /* '{' ends its line, '}' starts its own */
        size_t k = ab + 1;
        while (ok && k < ae && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
            k++;
        ok = ok && k < ae && t[k] == '\n';
        l1 = k + 1;
        close_line = line_start(t, ae - 1);
        for (size_t q = close_line; ok && q < ae - 1; q++)
            ok = t[q] == ' ' || t[q] == '\t';
        ok = ok && close_line > l1;
        size_t w = l1;
        while (ok && w < close_line && (t[w] == ' ' || t[w] == '\t'))
            w++;
        ok = ok && w - l1 > ind && w < close_line && t[w] != '\n';
        d = ok ? (unsigned)(w - l1) - ind : 0;
        /* every other line of the block has that indentation, or is blank */
        for (size_t q = l1; ok && q < close_line;) {
            size_t e = line_end(t, q, close_line);
            if (!blank_line(t, q, e))
                for (size_t z = q; z < q + ind + d && ok; z++)
                    ok = z < e && (t[z] == ' ' || t[z] == '\t');
            q = e + 1;
        }
        dedent = ok;
    }
    if (dedent) {
        edits_add(&rw, (unsigned)s0, (unsigned)(l1 + ind + d), "");
        for (size_t q = l1; q < close_line;) {
            size_t e = line_end(t, q, close_line);
            if (q != l1 && !blank_line(t, q, e))
                edits_add(&rw, (unsigned)(q + ind), (unsigned)(q + ind + d), "");
            q = e + 1;
        }
        edits_add(&rw, (unsigned)close_line - 1, s1, "");
    } else {
        edits_add(&rw, s0, ab, "");
        edits_add(&rw, ae, s1, "");
    }
    bool done = false;
    if (!rw.failed && el_fix_begin(a->ctx, safety, na > 2 ? "replace the if/else-if chain with "
                                   "its arm, the same on every backend" :
                                   "replace the if/else with its arm, the same on every backend")) {
        done = true;
        for (size_t i = 0; i < rw.n && done; i++)
            done = el_fix_replace(a->ctx, clang_getRange(clang_getLocationForOffset(tu, f, rw.v[i].b),
                                                         clang_getLocationForOffset(tu, f, rw.v[i].e)),
                                  rw.v[i].text);
    }
    edits_free(&rw);
    return done;
}

/* The same statement (cursors of two visits need not compare equal). */
static bool same_stmt(CXCursor x, CXCursor y)
{
    return clang_getCursorKind(x) == clang_getCursorKind(y) &&
           clang_equalRanges(clang_getCursorExtent(x), clang_getCursorExtent(y));
}

/* Attach the fix to the finding just reported at `at`, if its if
 * statement collapses. */
static void branch_fix(analysis *a, CXCursor at)
{
    unsigned fb = 0, fe = 0;
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(at)), &f, NULL, NULL, &fb);
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(at)), NULL, NULL, NULL, &fe);
    /* the innermost if whose condition holds the finding */
    size_t best = (size_t)-1;
    unsigned best_len = 0;
    for (size_t i = 0; i < a->n_ifs; i++) {
        CXCursor cond = elc_child(a->ifs[i].stmt, 0);
        CXSourceRange r = clang_getCursorExtent(cond);
        CXFile cf = NULL;
        unsigned cb = 0, ce = 0;
        clang_getExpansionLocation(clang_getRangeStart(r), &cf, NULL, NULL, &cb);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &ce);
        if (!cf || !f || !clang_File_isEqual(cf, f) || fb < cb || fe > ce)
            continue;
        if (best == (size_t)-1 || ce - cb < best_len) {
            best = i;
            best_len = ce - cb;
        }
    }
    if (best == (size_t)-1)
        return;
    /* the chain it belongs to, from its head down to it */
    size_t chain[16], nc = 0;
    for (size_t i = best; nc < 16;) {
        chain[nc++] = i;
        if (clang_getCursorKind(a->ifs[i].parent) != CXCursor_IfStmt ||
            !same_stmt(elc_child(a->ifs[i].parent, 2), a->ifs[i].stmt))
            break;
        size_t up = (size_t)-1;
        for (size_t k = 0; k < a->n_ifs && up == (size_t)-1; k++)
            if (same_stmt(a->ifs[k].stmt, a->ifs[i].parent))
                up = k;
        if (up == (size_t)-1)
            break;
        i = up;
    }
    while (nc > 0) {
        size_t i = chain[--nc];
        if (collapse(a, a->ifs[i].stmt, a->ifs[i].parent))
            return;
    }
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
    el_rewriter_free(s->rw);
    s->rw = NULL;
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
