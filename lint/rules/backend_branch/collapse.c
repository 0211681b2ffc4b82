/* lint/rules/backend_branch/collapse.c -- EH103's fix: an `if (<test>) A
 * else B` -- or a chain `if / else if / else` -- whose conditions have no
 * side effects (comparisons, logical operators, variables, literals,
 * calls of backend_name_functions and compare_functions) and whose arms
 * are the same tokens once every call in them is rewritten
 * (lint/change/rewrite.h: eh_blas_matmul -> eh_matmul) becomes A, with its
 * calls rewritten.  A block A loses its braces and moves one level out
 * when it declares nothing at its top level and the if statement stands
 * in a block; otherwise it stays a block.  Safety: the worst of the
 * rewrites the comparison relied on (safe with none). */
#include <stdlib.h>
#include <string.h>

#include "branch.h"
#include "clang_util.h"
#include "strbuf.h"

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
static bool pure(const bb_fixer *fx, CXCursor e, int depth)
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
        if (!bb_callee_in(e, fx->name_fns, name, sizeof name) &&
            !bb_in_list(fx->compare_fns, name))
            return false;
        break;
    case CXCursor_BinaryOperator: {
        if (!elc_binary_operator(e, op, sizeof op))
            return false;
        if (!(strcmp(op, "&&") == 0 || strcmp(op, "||") == 0 || sf_is_comparison(op)))
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
        if (!pure(fx, elc_child(e, i), depth + 1))
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
static char *arm_tokens(const bb_fixer *fx, CXCursor arm, CXFile f, const char *t, unsigned b,
                        unsigned e, edits *rw, el_fix_safety *safety)
{
    if (!*fx->rw)
        *fx->rw = el_rewriter_new(el_tu(fx->ctx), el_ctx_config(fx->ctx));
    el_rewrite_list calls = {0};
    char *s = NULL;
    if (*fx->rw && el_rewrite_calls_in(*fx->rw, arm, f, &calls))
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
static bool collapse(const bb_fixer *fx, CXCursor head, CXCursor parent)
{
    CXTranslationUnit tu = el_tu(fx->ctx);
    CXFile f = NULL;
    unsigned s0 = 0, s1 = 0;
    if (!plain_offset(clang_getRangeStart(clang_getCursorExtent(head)), &s0))
        return false;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(head)), &f, NULL, NULL, NULL);
    if (!f || !extent_in(head, f, &s0, &s1))
        return false;
    size_t n = 0;
    const char *t = el_file_text(fx->ctx, f, &n);
    if (!t || s1 > n)
        return false;

    /* the arms, the conditions pure */
    CXCursor arms[16];
    unsigned na = 0;
    CXCursor cur = head;
    for (;;) {
        if (elc_child_count(cur) != 3 || na + 2 > 16 || !pure(fx, elc_child(cur, 0), 0))
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
        char *tok = arm_tokens(fx, arms[i], f, t, b, e, &rw, &safety);
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
    if (!rw.failed && el_fix_begin(fx->ctx, safety, na > 2 ? "replace the if/else-if chain with "
                                   "its arm, the same on every backend" :
                                   "replace the if/else with its arm, the same on every backend")) {
        done = true;
        for (size_t i = 0; i < rw.n && done; i++)
            done = el_fix_replace(fx->ctx, clang_getRange(clang_getLocationForOffset(tu, f, rw.v[i].b),
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

void bb_branch_fix(const bb_fixer *fx, CXCursor at)
{
    unsigned fb = 0, fe = 0;
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(at)), &f, NULL, NULL, &fb);
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(at)), NULL, NULL, NULL, &fe);
    /* the innermost if whose condition holds the finding */
    size_t best = (size_t)-1;
    unsigned best_len = 0;
    for (size_t i = 0; i < fx->n_ifs; i++) {
        CXCursor cond = elc_child(fx->ifs[i].stmt, 0);
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
        if (clang_getCursorKind(fx->ifs[i].parent) != CXCursor_IfStmt ||
            !same_stmt(elc_child(fx->ifs[i].parent, 2), fx->ifs[i].stmt))
            break;
        size_t up = (size_t)-1;
        for (size_t k = 0; k < fx->n_ifs && up == (size_t)-1; k++)
            if (same_stmt(fx->ifs[k].stmt, fx->ifs[i].parent))
                up = k;
        if (up == (size_t)-1)
            break;
        i = up;
    }
    while (nc > 0) {
        size_t i = chain[--nc];
        if (collapse(fx, fx->ifs[i].stmt, fx->ifs[i].parent))
            return;
    }
}
