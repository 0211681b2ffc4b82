/* lint/rules/backend_symbol.c -- EH102 backend-symbol: frontend code
 * calls, takes the address of, or uses a type, variable, constant or macro
 * of a backend.
 *
 * What counts as a backend symbol is lint/analysis/backend_symbols.h's:
 * the declaration clang resolved the name to (so macros, function-pointer
 * aliases and typedefs are seen through) is declared in a backend's file,
 * or named with an eh_<backend>_ prefix, or with a library prefix
 * (cblas_, cuda, ...) and not the project's own.
 *
 * Reported: a DeclRefExpr to such a function (a call, or its address),
 * variable or enum constant; a call through a function-pointer variable
 * initialized with one (elc_callee); a TypeRef to such a type, or to a
 * typedef whose chain reaches one; an expansion of such a macro defined
 * outside the linted frontend (a frontend macro is seen through: the
 * references in its body are reported where it is used), except on a
 * preprocessor directive's line (`#if defined(X)`: conditionals are
 * EH103's, and only for backend_macros).  Calls are reported at once;
 * other uses at the end of the TU, unless they sit in the extent of a
 * reported call (its arguments: one finding per call) or, for a macro, at
 * the place of another finding.  Each is reported where the file writes
 * it (elc_written_location): a name in a macro's argument at its own place, so two
 * calls in one use of a wrapper macro are two findings.
 *
 * Also reported: a use of a function named through an alias macro of a
 * BLAS or LAPACK routine (`#define dgemm_ dgemm`, routine_alias) or a
 * macro pasting the routine's precision letters onto its argument
 * (`BLAS(gemv)` of `#define BLAS(x) d##x`, or `#define GEMV BLAS(gemv)`)
 * or a macro handing it to a name-mangling macro as Fortran twins
 * (`#define hypre_dgemm hypre_F90_NAME_BLAS(dgemm, DGEMM)`, or
 * `FC_FUNC(dgemm, DGEMM)(...)`, which may give dgemm__ or _dgemm_ too:
 * mangled_at_use, named_in_body), unless
 * a linted non-backend file of the run defines it (the project hook).
 *
 * Also reported: a call of a function the configuration's "rewrites"
 * give a template for (a project's own wrapper to migrate), whatever its
 * name.  The fix of a reported call is its rewrite (lint/change/rewrite.h): the
 * callee renamed to the op (eh_blas_matmul -> eh_matmul) or the call
 * replaced by the template.  Messages suggest the configuration's
 * replacement (el_replacement: the project's, or libeh's where the TU
 * uses libeh; LAPACKE_dgesv_work without one of its own takes
 * LAPACKE_dgesv's), else nothing, and name the macro the line shows where the
 * name comes from a macro's body (through_macro: "call to backend
 * function 'fftwf_malloc' (through macro 'FFTMALLOC')").  A backend name
 * in a `#pragma omp` line (a clause: `if(cblas_sdot(...) > 1)`) is
 * reported from the text, since OpenMP is parsed as plain C and no
 * cursor shows it (lint/analysis/omp_pragma.h). */
#include <ctype.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c_text.h"
#include "clang_util.h"
#include "config.h"
#include "mem.h"
#include "metadata.h"
#include "strmap.h"
#include "rewrite.h"
#include "rule.h"
#include "backend_symbols.h"
#include "omp_pragma.h"
#include "separation.h"
#include "paren_match.h"
#include "backend_symbol/backend_texts.h"

#define RULE "EH102"

/* A finding held back until the end of the TU: uses (types, constants,
 * variables, macros) inside a reported call are part of that call
 * (cblas_sgemm(CblasRowMajor, ...) is one finding), and a macro whose
 * expansion holds a reported reference is that reference. */
typedef struct pending {
    CXFile file;
    unsigned line, col, offset;
    bool macro;
    bool function_like;       /* a function-like macro's use: `(` after it is its arguments */
    char tag[256];            /* a struct, union or enum the run decides (type_decl) */
    char tag_backend[64];
    char msg[1024];
    el_call_rewrite fix;      /* a reference's rename (text NULL: none) */
} pending;

/* The extent of a reported call, in written offsets (inclusive, add_span); for a
 * call the project hook decides (a library-prefixed function the project
 * declares itself), the function's USR. */
typedef struct span {
    CXFile file;
    unsigned begin, end;
    char *usr;
} span;

/* A use of a macro the project defines, looked through at the end. */
typedef struct own_use {
    CXCursor use, def;
} own_use;

typedef struct state {
    bs_cache seen;
    pending *p;
    size_t n_p, cap_p;
    own_use *own;
    size_t n_own, cap_own;
    span *calls;
    size_t n_calls, cap_calls;
    span *undecided;        /* calls the project hook decides */
    size_t n_undecided, cap_undecided;
    el_rewriter *rw;        /* call rewrites (fixes), made on first use */
} state;

static const enum CXCursorKind kinds[] = {
    CXCursor_DeclRefExpr, CXCursor_CallExpr, CXCursor_TypeRef, CXCursor_MacroExpansion,
    CXCursor_FunctionDecl, CXCursor_VarDecl, CXCursor_StructDecl, CXCursor_UnionDecl,
    CXCursor_EnumDecl, EL_KINDS_END,
};

/* ---- what is a backend symbol --------------------------------------------- */

typedef bs_why why;
#define NOT_BACKEND BS_NOT_BACKEND
#define BY_LOCATION BS_BY_LOCATION

static why backend_decl(el_ctx *ctx, state *s, CXCursor decl, char *backend, size_t n)
{
    return bs_classify(ctx, &s->seen, decl, backend, n);
}

/* ---- reporting ------------------------------------------------------------- */

/* Report msg at a place elc_written_location gave (by its path: a location libclang
 * makes of a place in a macro's argument is the macro's expansion). */
static void report_written(el_ctx *ctx, CXFile f, unsigned line, unsigned col, const char *msg)
{
    const char *path = el_file_path(ctx, f);
    if (path)
        el_report_at(ctx, path, line, col, "%s", msg);
}

/* An identifier's character (bytes of UTF-8 names too, and `$`, which
 * clang accepts in names as gcc does). */
static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

/* A line continuation at t[i] (backslash, newline or CR LF): its length,
 * else 0. */
static size_t continuation(const char *t, size_t size, size_t i)
{
    if (i + 1 < size && t[i] == '\\' && t[i + 1] == '\n')
        return 2;
    if (i + 2 < size && t[i] == '\\' && t[i + 1] == '\r' && t[i + 2] == '\n')
        return 3;
    return 0;
}

/* Past the blanks, comments and line continuations at t[i]. */
static size_t skip_blanks(const char *t, size_t size, size_t i)
{
    for (size_t k;; i += k) {
        i = el_text_skip_blanks(t, size, i);
        if ((k = continuation(t, size, i)) == 0)
            return i;
    }
}

/* The end of the macro use whose name starts at off in text t, as a
 * call's extent ends (just past its last token): past the name and, for a
 * function-like use, its balanced argument list, which blanks, comments
 * and line continuations may come before; off itself when no identifier
 * starts there. */
static unsigned macro_use_end(const char *t, size_t size, unsigned off)
{
    size_t i = off;
    while (i < size && (isalnum((unsigned char)t[i]) || t[i] == '_'))
        i++;
    if (i == off)
        return off;
    size_t j = skip_blanks(t, size, i); /* a comment, a continuation */
    if (j >= size || t[j] != '(')
        return (unsigned)i;
    /* (el_parens_scan gives size for an unclosed list: then the name) */
    size_t e = el_parens_scan(t, size, j);
    if (e == size && t[size - 1] != ')')
        return (unsigned)i;
    return (unsigned)e;
}

/* Remember a call's extent (and, for an undecided one, its function's USR),
 * in written offsets.  A closing ')' a macro's body supplies is written as
 * that macro's use (`GEMM(CblasRowMajor, ...)` in another macro's argument,
 * `ROWWISE(LAPACKE_dgesv, n, ...)` whose body writes the call's first
 * argument): the extent then covers the whole use, from its name to its
 * own ')', so what the body or the use's arguments supply is inside. */
static void add_span(el_ctx *ctx, span **v, size_t *n, size_t *cap, CXCursor call,
                     const char *usr)
{
    span *g = sep_grow(*v, cap, *n, sizeof *g);
    if (!g)
        return;
    *v = g;
    span *sp = &g[(*n)++];
    CXSourceRange r = clang_getCursorExtent(call);
    CXFile f2 = NULL;
    unsigned end = 0;
    elc_written_location(clang_getRangeStart(r), &sp->file, NULL, NULL, &sp->begin);
    elc_written_location(clang_getRangeEnd(r), &f2, NULL, NULL, &end);
    sp->end = sp->begin;
    if (f2 == sp->file) {
        size_t size = 0;
        const char *t = el_file_text(ctx, f2, &size);
        unsigned use_end = t && end < size ? macro_use_end(t, size, end) : end;
        if (end < sp->begin)
            sp->begin = end;
        sp->end = use_end > sp->begin ? use_end : sp->begin;
    }
    sp->usr = usr ? el_xstrdup(usr) : NULL;
}

/* Report a call now, with its rewrite as the fix, and remember its extent. */
static void report_call(el_ctx *ctx, state *s, CXCursor at, CXCursor call, const char *msg)
{
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    elc_written_location(clang_getCursorLocation(at), &f, &line, &col, NULL);
    report_written(ctx, f, line, col, msg);
    if (!s->rw)
        s->rw = el_rewriter_new(el_tu(ctx), el_ctx_config(ctx));
    el_call_rewrite rw;
    if (el_rewrite_call(s->rw, call, &rw)) {
        el_rewrite_attach(ctx, el_tu(ctx), &rw);
        el_call_rewrite_clear(&rw);
    }
    add_span(ctx, &s->calls, &s->n_calls, &s->cap_calls, call, NULL);
}

/* Hold a use back until the end. */
static pending *defer(state *s, CXSourceLocation loc, bool macro, const char *msg)
{
    pending *v = sep_grow(s->p, &s->cap_p, s->n_p, sizeof *v);
    if (!v)
        return NULL;
    s->p = v;
    pending *q = &s->p[s->n_p++];
    memset(q, 0, sizeof *q);
    elc_written_location(loc, &q->file, &q->line, &q->col, &q->offset);
    q->macro = macro;
    snprintf(q->msg, sizeof q->msg, "%s", msg);
    return q;
}

/* defer() a type finding; note is type_finding's "TAG\tBACKEND\t...". */
/* A type finding's message without its tag and backend fields. */
static const char *type_text(const char *note)
{
    const char *t1 = strchr(note, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    return t2 ? t2 + 1 : note;
}

static void defer_type(state *s, CXSourceLocation loc, const char *note, const char *msg)
{
    pending *q = defer(s, loc, false, msg);
    const char *text = type_text(note), *t1 = strchr(note, '\t');
    if (q && text != note) {
        snprintf(q->tag, sizeof q->tag, "%.*s", (int)(t1 - note), note);
        snprintf(q->tag_backend, sizeof q->tag_backend, "%.*s", (int)(text - t1 - 2), t1 + 1);
    }
}

/* "; use eh_matmul" or "". */
static const char *hint(el_ctx *ctx, const char *name, char *buf, size_t n)
{
    char use[256];
    if (el_replacement(ctx, name, use, sizeof use))
        snprintf(buf, n, "; use %s", use);
    else
        buf[0] = '\0';
    return buf;
}

/* Does the suggestion ("; use NPzgemm") name the function the use is in?
 * A project's own wrapper that its "replacements" name for a backend
 * call makes that call itself (PySCF's NPzgemm calls zgemm_, and
 * "zgemm_": "NPzgemm"): telling it to call itself is no advice. */
static bool suggests_self(el_ctx *ctx, const char *suggestion)
{
    static const char lead[] = "; use ";
    if (strncmp(suggestion, lead, sizeof lead - 1) != 0)
        return false;
    const char *s = suggestion + sizeof lead - 1;
    size_t n = 0;
    while (ident_char(s[n]))
        n++;
    CXCursor fn;
    char name[256];
    if (!n || !el_enclosing_function(ctx, &fn))
        return false;
    elc_spelling(fn, name, sizeof name);
    return strlen(name) == n && strncmp(name, s, n) == 0;
}

/* The suggestion for name at this use: hint's, unless it names the
 * function the use is in. */
static const char *hint_here(el_ctx *ctx, const char *name, char *buf, size_t n)
{
    hint(ctx, name, buf, n);
    if (suggests_self(ctx, buf))
        buf[0] = '\0';
    return buf;
}

/* The identifier the file writes at loc (where a macro is used, or
 * where a macro's argument is written) into word[n], read as the compiler
 * reads it, across line continuations (eh_ref_\<newline>abs is
 * eh_ref_abs, written out); "" when loc starts none. */
static const char *word_at(el_ctx *ctx, CXSourceLocation loc, char *word, size_t n)
{
    word[0] = '\0';
    CXFile f = NULL;
    unsigned off = 0;
    clang_getFileLocation(loc, &f, NULL, NULL, &off);
    size_t size = 0;
    const char *t = f ? el_file_text(ctx, f, &size) : NULL;
    if (!n || !t || off >= size || !ident_char(t[off]) || isdigit((unsigned char)t[off]) ||
        (off > 0 && ident_char(t[off - 1])))
        return word;
    size_t w = 0;
    for (size_t i = off; i < size && w + 1 < n;) {
        size_t k = continuation(t, size, i);
        if (k) {
            i += k;
        } else if (ident_char(t[i])) {
            word[w++] = t[i++];
        } else {
            break;
        }
    }
    word[w] = '\0';
    return word;
}

/* " (through macro 'FFTMALLOC')" when the file writes the name at loc as a
 * macro of another name (#define FFTMALLOC fftwf_malloc): what the line
 * shows is the macro, not the name the message quotes; else "". */
static const char *through_macro(el_ctx *ctx, CXSourceLocation loc, const char *name, char *buf,
                                 size_t n)
{
    char word[256];
    buf[0] = '\0';
    if (word_at(ctx, loc, word, sizeof word)[0] && strcmp(word, name) != 0)
        snprintf(buf, n, " (through macro '%.200s')", word);
    return buf;
}

/* Are a and b, two arguments in a row of a macro, a Fortran routine's
 * name in lower and in upper case, the way name-mangling
 * macros take it (autoconf's FC_FUNC(dgemm, DGEMM), hypre's
 * hypre_F90_NAME_BLAS(dgemm, DGEMM)), one of them `name`: the macro
 * gives the routine's name as the compiler mangles it, here without the
 * underscore (dgemm) or in upper case (DGEMM)? */
static bool fortran_twins(const char *a, const char *b, const char *name)
{
    return a[0] && strcasecmp(a, b) == 0 && strcmp(a, b) != 0 &&
           (strcmp(a, name) == 0 || strcmp(b, name) == 0);
}

/* The arguments of the function-like macro use the file writes at loc
 * (BLAS in `BLAS(gemv)(...)`, FC_FUNC in `FC_FUNC(dgemm, DGEMM)(...)`),
 * read from the file's text as the compiler reads them (comments,
 * continuations, nesting): each that is an identifier alone into args[k]
 * (max of them), "" for any other; how many. */
enum { MAX_ARGS = 8, ARG_LEN = 256 };
static size_t identifier_arguments(el_ctx *ctx, CXSourceLocation loc, char args[][ARG_LEN], size_t max)
{
    enum { MAX_SCAN = 4096 };
    CXFile f = NULL;
    unsigned off = 0;
    clang_getFileLocation(loc, &f, NULL, NULL, &off);
    size_t size = 0, n = 0;
    const char *t = f ? el_file_text(ctx, f, &size) : NULL;
    if (!t || off >= size)
        return 0;
    if (size - off > MAX_SCAN)
        size = off + MAX_SCAN;
    size_t i = off, k;
    while (i < size && ((k = continuation(t, size, i)) != 0 || ident_char(t[i])))
        i += k ? k : 1; /* the macro's name */
    i = skip_blanks(t, size, i);
    if (i >= size || t[i] != '(')
        return 0;
    for (i++; n < max;) {
        i = skip_blanks(t, size, i);
        size_t a = i;
        while (i < size && ident_char(t[i]))
            i++;
        size_t alen = i - a;
        i = skip_blanks(t, size, i);
        char *arg = args[n++];
        arg[0] = '\0';
        if (alen && alen < ARG_LEN && !isdigit((unsigned char)t[a]) && i < size &&
            (t[i] == ',' || t[i] == ')')) {
            memcpy(arg, t + a, alen);
            arg[alen] = '\0';
        }
        /* on to the next argument */
        for (int depth = 0; i < size && (depth > 0 || t[i] != ','); i++) {
            if (t[i] == '(')
                depth++;
            else if (t[i] == ')' && depth-- == 0)
                return n;
        }
        if (i >= size)
            return 0; /* no ')': no use */
        i++;
    }
    return n;
}

/* Does the function-like macro the file uses at loc make `name` (dgemv, a
 * routine without its underscore) by pasting the routine's precision
 * letters onto one of its arguments: an argument that is an identifier
 * alone and is the name but for one or two of s, d, c, z and i before it
 * (el_routine_pasted_from)?  SCS's `#define BLAS(x) d##x` under
 * NOBLASSUFFIX, whose uses are dgemv_ where the library has the
 * underscore; BLASI(amax) is idamax.  Or does it take the routine's name
 * as Fortran twins, one of them `stem` (fortran_twins: autoconf's
 * `FC_FUNC(dgemm, DGEMM)(...)` written at the call)? */
static bool mangled_at_use(el_ctx *ctx, CXSourceLocation loc, const char *name, const char *stem,
                           bool paste)
{
    char args[MAX_ARGS][ARG_LEN];
    size_t n = identifier_arguments(ctx, loc, args, MAX_ARGS);
    for (size_t k = 0; k < n; k++) {
        if (paste && args[k][0] && el_routine_pasted_from(name, args[k]))
            return true;
        if (k + 1 < n && fortran_twins(args[k], args[k + 1], stem))
            return true;
    }
    return false;
}

/* Does function-like macro `macro` paste (##) in its body, or hand its
 * arguments on to a macro that does (a few steps: PREC(x) is PASTE(d, x),
 * PASTE pastes)?  Not a tag macro (`#define TIC(x) timer_start(#x)`): its
 * argument in a body is no routine's stem. */
static bool macro_pastes(CXTranslationUnit tu, const char *macro, int depth)
{
    CXCursor def = elc_macro_definition(tu, macro);
    if (clang_Cursor_isNull(def) || depth > 4 || !clang_Cursor_isMacroFunctionLike(def))
        return false;
    unsigned nt = 0, body = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &body);
    bool yes = false;
    for (unsigned i = body; i < nt && !yes; i++) {
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        if (!strcmp(t, "##"))
            yes = true;
        else if (clang_getTokenKind(toks[i]) == CXToken_Identifier && i + 1 < nt &&
                 strcmp(t, macro) != 0) {
            char nx[8];
            elc_string(clang_getTokenSpelling(tu, toks[i + 1]), nx, sizeof nx);
            yes = !strcmp(nx, "(") && macro_pastes(tu, t, depth + 1);
        }
    }
    clang_disposeTokens(tu, toks, nt);
    return yes;
}

static bool pasting_macro(CXTranslationUnit tu, CXToken tok)
{
    char m[256];
    elc_string(clang_getTokenSpelling(tu, tok), m, sizeof m);
    return macro_pastes(tu, m, 0);
}

/* Does the body of macro `macro` name the routine the way the line's use
 * would: hand its name to a macro as a pair of Fortran twins, one of them
 * `stem` (fortran_twins: hypre's object-like `#define hypre_dgemm
 * hypre_F90_NAME_BLAS(dgemm, DGEMM)`), or, when `paste`, give a macro an
 * argument `name` is pasted from (el_routine_pasted_from: `#define GEMV
 * BLAS(gemv)` of SCS's pasting BLAS; a macro that pastes, macro_pastes,
 * not a tag like TIC(gemv)), or is the body one name alone, a
 * macro of which this holds (`#define MV GEMV`, a few steps)? */
static bool named_in_body(el_ctx *ctx, const char *macro, const char *name, const char *stem,
                          bool paste, int depth)
{
    CXTranslationUnit tu = el_tu(ctx);
    CXCursor def = elc_macro_definition(tu, macro);
    if (clang_Cursor_isNull(def) || depth > 4)
        return false;
    unsigned nt = 0, body = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &body);
    bool yes = false;
    if (nt == body + 1 && clang_getTokenKind(toks[body]) == CXToken_Identifier) {
        char alias[256];
        elc_string(clang_getTokenSpelling(tu, toks[body]), alias, sizeof alias);
        yes = strcmp(alias, macro) != 0 && named_in_body(ctx, alias, name, stem, paste, depth + 1);
    }
    for (unsigned i = body; i + 2 < nt && !yes; i++) {
        char p[8], a[256], c[8], b[256], e[8];
        elc_string(clang_getTokenSpelling(tu, toks[i]), p, sizeof p);
        elc_string(clang_getTokenSpelling(tu, toks[i + 2]), c, sizeof c);
        if ((strcmp(p, "(") && strcmp(p, ",")) ||
            clang_getTokenKind(toks[i + 1]) != CXToken_Identifier)
            continue;
        elc_string(clang_getTokenSpelling(tu, toks[i + 1]), a, sizeof a);
        /* an argument alone of a macro's use in the body: BLAS(gemv) */
        if (paste && !strcmp(p, "(") && (!strcmp(c, ")") || !strcmp(c, ",")) && i > body &&
            clang_getTokenKind(toks[i - 1]) == CXToken_Identifier &&
            el_routine_pasted_from(name, a) && pasting_macro(tu, toks[i - 1])) {
            yes = true;
            break;
        }
        if (strcmp(c, ",") || i + 3 >= nt || clang_getTokenKind(toks[i + 3]) != CXToken_Identifier)
            continue;
        elc_string(clang_getTokenSpelling(tu, toks[i + 3]), b, sizeof b);
        e[0] = '\0';
        if (i + 4 < nt)
            elc_string(clang_getTokenSpelling(tu, toks[i + 4]), e, sizeof e);
        yes = (!strcmp(e, ",") || !strcmp(e, ")")) && fortran_twins(a, b, stem);
    }
    /* a macro the body uses that does (SuiteSparse's SUITESPARSE_BLAS_dgemm
     * checks its integer arguments, then calls SUITESPARSE_BLAS_DGEMM, which
     * is SUITESPARSE_BLAS(dgemm, DGEMM); UMFPACK's BLAS_GEMM is one more
     * step above), each macro once, a few steps deep */
    for (unsigned i = body; i < nt && !yes && depth < 4; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        char m[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), m, sizeof m);
        bool again = strcmp(m, macro) == 0;
        for (unsigned j = body; j < i && !again; j++) {
            char o[256];
            again = clang_getTokenKind(toks[j]) == CXToken_Identifier &&
                    !strcmp(elc_string(clang_getTokenSpelling(tu, toks[j]), o, sizeof o), m);
        }
        if (!again && !clang_Cursor_isNull(elc_macro_definition(tu, m)))
            yes = named_in_body(ctx, m, name, stem, paste, depth + 1);
    }
    clang_disposeTokens(tu, toks, nt);
    return yes;
}

/* The line names fn (`name`, a use at ref) through an alias macro of its
 * routine: the macro is the routine's Fortran name, fn the routine
 * without the underscore or in another case (cvxopt's `#define dgemm_
 * dgemm` under BLAS_NO_UNDERSCORE, SuperLU's `#define dgemm_ DGEMM` under
 * UpCase: `dgemm_(...)` calls dgemm).  The macro's name into alias[n].
 * Or the line shows a macro that pastes the routine's precision letters
 * onto its argument (mangled_at_use: SCS's BLAS(gemv) is dgemv under
 * NOBLASSUFFIX) or whose body is such a use (named_in_body: `#define GEMV
 * BLAS(gemv)`), or one given the routine's name in lower and upper case
 * at the line (FC_FUNC(dgemm, DGEMM)) or handing it so to a mangling
 * macro in its body (hypre's hypre_dgemm): alias[n] is then the routine's
 * Fortran name, dgemv_.  Those twins, or an alias macro named as the
 * routine's Fortran name (SuperLU's `#define dgemm_ dgemm__` under
 * Add__), alone make dgemm__ and _dgemm_ (el_routine_mangled_stem,
 * hypre's manglings 3 and 5) the routine's: a function so named and
 * written as it is is no evidence.
 * Whether dgemm is the library's is the run's question: the project's own
 * when any linted file of it defines dgemm (note_definition). */
static bool routine_alias(el_ctx *ctx, state *s, CXCursor ref, CXCursor fn, const char *name,
                          char *alias, size_t n)
{
    enum { ASKED = 1, TARGET = 2 };
    const el_config *cfg = el_ctx_config(ctx);
    unsigned char *flags = bs_flags(&s->seen, fn); /* the name's answer, once per TU */
    char stem[256];
    bool mangled = el_routine_mangled_stem(cfg, name, stem, sizeof stem);
    if (!mangled)
        snprintf(stem, sizeof stem, "%s", name);
    if (flags && !*flags)
        *flags = (unsigned char)(ASKED | (mangled || el_routine_alias_target(cfg, name) ? TARGET : 0));
    if (flags ? !(*flags & TARGET) : !mangled && !el_routine_alias_target(cfg, name))
        return false;
    /* the macro the line shows: the routine's name, `name` and its
     * underscore in either case; a macro making it of the routine's stem
     * or of its Fortran twins, at the line or in its body */
    char word[256];
    size_t len = strlen(name);
    CXSourceLocation loc = clang_getCursorLocation(ref);
    word_at(ctx, loc, word, sizeof word);
    if (!strcmp(word, name)) {
        /* written as an argument of a macro's use (`FC_FUNC(dgemm,
         * DGEMM)(...)` whose body is `name`): that use is what the line
         * shows */
        CXFile fe = NULL, fw = NULL;
        unsigned oe = 0, ow = 0;
        clang_getExpansionLocation(loc, &fe, NULL, NULL, &oe);
        clang_getFileLocation(loc, &fw, NULL, NULL, &ow);
        if (fe && fe == fw && oe < ow) {
            loc = clang_getLocationForOffset(el_tu(ctx), fe, oe);
            word_at(ctx, loc, word, sizeof word);
        }
    }
    if (word[0] && strcmp(word, name) != 0 && strlen(stem) + 2 <= n &&
        (mangled_at_use(ctx, loc, name, stem, !mangled) ||
         named_in_body(ctx, word, name, stem, !mangled, 0))) {
        snprintf(alias, n, "%s_", stem);
        return true;
    }
    if (mangled) {
        /* dgemm__ written as it is: no evidence; through a macro named
         * as the routine's Fortran name (SuperLU's `#define dgemm_
         * dgemm__` under Add__, `#define dgemm_ _dgemm_`), the alias */
        size_t sl = strlen(stem);
        if (strlen(word) != sl + 1 || word[sl] != '_' || sl + 2 > n ||
            strncasecmp(word, stem, sl) != 0)
            return false;
        snprintf(alias, n, "%s", word);
        return el_backend_prefix_of(cfg, alias, true) != NULL;
    }
    if (strlen(word) != len + 1 || word[len] != '_' || len + 2 > n ||
        strncasecmp(word, name, len) != 0)
        return false;
    snprintf(alias, n, "%s", word);
    return el_backend_prefix_of(cfg, alias, true) != NULL;
}

/* " of backend 'blas'" for symbols known by where they are declared. */
static const char *whose(why w, const char *backend, char *buf, size_t n)
{
    if (w == BY_LOCATION && backend[0])
        snprintf(buf, n, " of backend '%s'", backend);
    else
        buf[0] = '\0';
    return buf;
}

/* ---- what another TU knows ------------------------------------------------------ */

static bool is_callee(el_ctx *ctx, CXCursor e, CXCursor *call);

#define FACT_USE "EH102.use"
#define FACT_DEF "EH102.def"
#define FACT_OWN "EH102.own"
#define FACT_ARG "EH102.arg"
#define FACT_SHIM "EH102.shim"
#define FACT_TAG "EH102.tag"
#define FACT_TAGDEF "EH102.tagdef"
/* a FACT_DEF value: two backends define the function (backend_texts.h) */
#define SEVERAL_BACKENDS "<several>"

/* The key a function's facts go under: its USR, and for a function with
 * internal linkage (a static ILP64 shim) the TU's main file too, since
 * such a USR holds only the basename of the file that declares it
 * (c:shims.h@F@dpttrf_, c:lp.c@F@dgesv_): every TU including the header,
 * and every file of that basename, has one of its own.  Allocated. */
static char *fact_key(el_ctx *ctx, CXCursor fn, const char *usr)
{
    if (clang_getCursorLinkage(fn) != CXLinkage_Internal)
        return el_xstrdup(usr);
    return el_xasprintf("%s@tu:%s", usr, el_main_file(ctx));
}

/* fn's definition, when this TU has it; in a TU parsed without function
 * bodies libclang has none for a skipped one, so the TU is parsed again
 * with them (elc_tu_has_bodies) before what is concluded here counts. */
static CXCursor definition_in_sight(el_ctx *ctx, CXCursor fn)
{
    CXCursor def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def) && clang_getCursorKind(fn) == CXCursor_FunctionDecl)
        (void)elc_tu_has_bodies(el_tu(ctx));
    return def;
}

/* A use of a function this TU neither defines nor knows as a backend's
 * (the project's own, declared in darknet.h): a backend's after all when
 * a backend file defines it, which only the TU of that file knows; and
 * when it has a library's prefix (undecided), the library's unless a
 * linted non-backend file defines it.  The project hook decides.  A
 * definition in sight that is a shim (bs_shim: dgetrf_ handing on to
 * dgetrf_64_) leaves the question open too.  `alias`: the line names fn
 * through an alias macro of the routine (routine_alias: `dgemm_` for
 * dgemm), whose hint the finding takes; the library's unless the project
 * defines fn, wherever fn is declared. */
static void note_external_use(el_ctx *ctx, state *s, CXCursor fn, CXCursor ref,
                              bool library_prefix, const char *alias)
{
    /* only a backend file of the run can define it */
    if (!library_prefix && !el_linted_backend_code(ctx))
        return;
    if (!el_applies_at(ctx, clang_getCursorLocation(ref)) ||
        (!clang_Cursor_isNull(definition_in_sight(ctx, fn)) && !bs_shim(&s->seen, fn)))
        return;
    if (!alias && clang_Location_isInSystemHeader(clang_getCursorLocation(clang_getCanonicalCursor(fn))))
        return;
    /* "USR\tname\thint", once per function and TU */
    char **note = bs_note(&s->seen, fn);
    if (note && !*note) {
        CXString usr = clang_getCursorUSR(fn);
        const char *u = clang_getCString(usr);
        char name[256], h[300];
        elc_spelling(fn, name, sizeof name);
        char *key = u && u[0] ? fact_key(ctx, fn, u) : NULL;
        *note = el_xasprintf("%s\t%s\t%s", key ? key : "", name, hint(ctx, name, h, sizeof h));
        free(key);
        clang_disposeString(usr);
    }
    if (!note || !*note || (*note)[0] == '\t')
        return; /* no USR */
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    elc_written_location(clang_getCursorLocation(ref), &f, &line, &col, NULL);
    const char *path = el_file_path(ctx, f);
    if (!path)
        return;
    const char *t1 = strchr(*note, '\t'), *t2 = strchr(t1 + 1, '\t');
    CXCursor call;
    bool callee = is_callee(ctx, ref, &call);
    char via[256], fname[256], ah[300];
    snprintf(fname, sizeof fname, "%.*s", (int)(t2 - t1 - 1), t1 + 1);
    through_macro(ctx, clang_getCursorLocation(ref), fname, via, sizeof via);
    const char *suggestion = alias ? hint(ctx, alias, ah, sizeof ah) : t2 + 1;
    if (suggests_self(ctx, suggestion))
        suggestion = "";
    char *v = el_xasprintf("%.*s\t%.*s\t%s\t%u\t%u\t%d\t%d\t%s%s", (int)(t1 - *note), *note,
                           (int)(t2 - t1 - 1), t1 + 1, path, line, col, callee, library_prefix,
                           via, suggestion);
    el_fact(ctx, FACT_USE, v);
    free(v);
    /* what its arguments use waits for the verdict (end, project) */
    if (callee && library_prefix) {
        char *usr = el_xstrndup(*note, (size_t)(t1 - *note));
        add_span(ctx, &s->undecided, &s->n_undecided, &s->cap_undecided, call, usr);
        free(usr);
    }
}

/* "path\tline" of where c is written (a definition a macro writes,
 * `double BLASFUNC(ddot)(...)`: the macro's use), into buf; false when
 * it is in no file of the TU. */
static bool place_of(el_ctx *ctx, CXCursor c, char *buf, size_t n)
{
    CXFile f = NULL;
    unsigned line = 0;
    if (!elc_written_location(clang_getCursorLocation(c), &f, &line, NULL, NULL))
        return false;
    const char *path = el_file_path(ctx, f);
    if (!path)
        return false;
    snprintf(buf, n, "%s\t%u", path, line);
    return true;
}

/* The definition of fn that makes it the project's own in this TU's
 * sight (bs_classify's NOT_BACKEND for a library's name): in a linted
 * non-backend file, handing the call on to no library build; for a shim
 * onto the routine's ILP64 build, that build's definition when the TU
 * sees it.  Its place into buf (place_of); false when there is none, or
 * it is static (a file's helper named like a routine is no copy of a
 * library). */
static bool own_definition(el_ctx *ctx, CXCursor fn, char *buf, size_t n)
{
    const el_config *cfg = el_ctx_config(ctx);
    CXCursor def = definition_in_sight(ctx, fn);
    for (int hop = 0; hop < 2 && !clang_Cursor_isNull(def); hop++) {
        const char *backend = NULL;
        el_file_class cls = el_cursor_class(ctx, def, &backend);
        CXCursor ilp64;
        if (cls == EL_FILE_EXTERNAL || cls == EL_FILE_BACKEND || el_definition_forwards(cfg, def))
            return false;
        if (!el_definition_forwards_ilp64(cfg, def, &ilp64))
            return clang_getCursorLinkage(def) == CXLinkage_External && place_of(ctx, def, buf, n);
        def = clang_getCursorDefinition(ilp64);
    }
    return false;
}

/* A use (ref) of fn, named with a library's prefix or through an alias
 * macro of its routine, that this TU takes as the project's own because
 * it sees the project define fn: the record of it (EL_FACT_OWN_USE). */
static void note_own_use(el_ctx *ctx, CXCursor fn, CXCursor ref, const char *name)
{
    char def[PATH_MAX + 32];
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    CXSourceLocation at = clang_getCursorLocation(ref);
    if (!el_applies_at(ctx, at) || !own_definition(ctx, fn, def, sizeof def) ||
        !elc_written_location(at, &f, &line, &col, NULL))
        return;
    const char *path = el_file_path(ctx, f);
    if (!path)
        return;
    char *v = el_xasprintf("%s\t%s\t%u\t%u\t%s", name, path, line, col, def);
    el_fact(ctx, EL_FACT_OWN_USE, v);
    free(v);
}

/* A function defined in a backend file (its USR and backend, FACT_DEF),
 * or in a linted non-backend file with a library's prefix (the project's
 * own, FACT_OWN, unless it only hands the call on to the library's build
 * of the routine: el_definition_forwards) or named as a routine an alias
 * macro stands for (el_routine_alias_target: dgemm, the project's own).
 * A shim onto the routine's ILP64 build (el_definition_forwards_ilp64, static ones
 * too: their callers are in sight of them alone) is whose that build is:
 * the project's own or a backend's when the TU sees so (bs_classify's
 * verdict of the shim; for a static shim no fact then: the TU settles
 * it), else FACT_SHIM, its USR and the ILP64 routine's, for the project
 * hook.  A static shim's USR holds only its file's basename, so its
 * facts go under its USR and the TU's main file (fact_key): a header's
 * static shim is one per TU, as are those of a/lp.c and b/lp.c. */
static void note_definition(el_ctx *ctx, state *s, CXCursor fn)
{
    const char *backend = NULL;
    if (!el_is_definition(ctx, fn))
        return;
    bool external = clang_getCursorLinkage(fn) == CXLinkage_External;
    el_file_class cls = el_cursor_class(ctx, fn, &backend);
    const el_config *cfg = el_ctx_config(ctx);
    char name[256], shim_backend[64] = "";
    CXCursor ilp64 = clang_getNullCursor();
    if (cls == EL_FILE_EXTERNAL || (cls == EL_FILE_BACKEND && !external))
        return;
    enum { OWN, DEF, SHIM } key = cls == EL_FILE_BACKEND ? DEF : OWN;
    if (cls != EL_FILE_BACKEND) {
        elc_spelling(fn, name, sizeof name);
        char stem[256];
        if (!el_backend_prefix_of(cfg, name, true) && !el_routine_alias_target(cfg, name) &&
            !el_routine_mangled_stem(cfg, name, stem, sizeof stem))
            return;
        if (el_definition_forwards(cfg, fn))
            return; /* a shim handing the call on to the library's build is not the project's own */
        if (el_definition_forwards_ilp64(cfg, fn, &ilp64)) {
            why w = backend_decl(ctx, s, fn, shim_backend, sizeof shim_backend);
            if (!external && w != BS_UNDECIDED)
                return; /* a static shim this TU settles: its callers are here alone */
            if (w == NOT_BACKEND) {
                ilp64 = clang_getNullCursor(); /* onto the project's own, seen here */
            } else if (w == BY_LOCATION) {
                ilp64 = clang_getNullCursor(); /* onto a backend's, seen here */
                key = DEF;
                backend = shim_backend;
            } else {
                key = SHIM;
            }
        } else if (!external) {
            return;
        }
    }
    CXString usr = clang_getCursorUSR(fn), usr64 = {0};
    /* FACT_OWN: where the project defines it, for the record of the uses
     * it silences (EL_FACT_OWN_USE); a shim onto the project's own ILP64
     * build, seen here: that build's place */
    char place[PATH_MAX + 32] = "";
    if (key == OWN && !own_definition(ctx, fn, place, sizeof place))
        place_of(ctx, fn, place, sizeof place);
    const char *u = clang_getCString(usr), *second = key == DEF ? backend : key == OWN ? place : "";
    if (!clang_Cursor_isNull(ilp64)) {
        usr64 = clang_getCursorUSR(ilp64);
        second = clang_getCString(usr64);
    }
    if (u && u[0] && second && (key != SHIM || second[0])) {
        char *k = fact_key(ctx, fn, u);
        char *v = el_xasprintf("%s\t%s", k, second);
        free(k);
        el_fact(ctx, key == DEF ? FACT_DEF : key == SHIM ? FACT_SHIM : FACT_OWN, v);
        free(v);
    }
    clang_disposeString(usr);
    if (!clang_Cursor_isNull(ilp64))
        clang_disposeString(usr64);
}

/* A fact's value "a\tb\t...": its first n fields into f (in place; the
 * last takes the rest, tabs too; fields the value lacks stay NULL). */
static void split_tabs(char *v, char **f, int n)
{
    for (int k = 0; k < n && v; k++) {
        f[k] = v;
        char *tab = k < n - 1 ? strchr(v, '\t') : NULL;
        if (tab)
            *tab = '\0';
        v = tab ? tab + 1 : NULL;
    }
}

/* Is the function of USR usr the project's own: defined in a linted
 * non-backend file of the run, or a shim onto the ILP64 build of its
 * routine that is (FACT_SHIM: dgetrf_ calling dgetrf_64_ is the library's
 * way in when nothing in the run defines dgetrf_64_)? */
static bool own_function(const el_strmap *own, const el_strmap *shims, const char *usr)
{
    if (el_strmap_get(own, usr))
        return true;
    const char *ilp64 = el_strmap_get(shims, usr);
    return ilp64 && el_strmap_get(own, ilp64);
}

/* The backend that defines the function of USR usr, or the ILP64 build
 * it is a shim onto (a call of dgetrf_ is one of backend lapack64's
 * dgetrf_64_, as the shim's own call is reported); NULL when none. */
static const char *backend_function(const el_strmap *defs, const el_strmap *shims,
                                    const char *usr)
{
    const char *backend = el_strmap_get(defs, usr);
    if (!backend) {
        const char *ilp64 = el_strmap_get(shims, usr);
        backend = ilp64 ? el_strmap_get(defs, ilp64) : NULL;
    }
    return backend && strcmp(backend, SEVERAL_BACKENDS) != 0 ? backend : NULL;
}

/* The backends' definitions (backend_texts.h): the structs, unions and
 * enums the run's backend files define (FACT_TAGDEF; their functions are
 * FACT_DEF), and the text of the backend files the run does not parse.
 * `names` keeps the backend names the facts give. */
static bs_backend_texts *run_texts(el_project *p, bs_backend_texts **texts, char ***names,
                                   size_t *n_names)
{
    if (*texts)
        return *texts;
    bs_backend_texts *t = *texts = bs_backend_texts_new();
    for (size_t i = 0; i < el_project_file_count(p); i++) {
        const el_config *c = el_project_file_config(p, i);
        char backend[64];
        bs_backend_texts_add_config(t, c);
        /* (a file the run leaves out as not built is read as text:
         * csdr's fft_rpi.c, a backend under #ifdef that -p build . walks) */
        if (el_project_file_parsed(p, i))
            bs_backend_texts_skip(t, el_project_file(p, i));
        if (c && el_config_classify(c, el_project_file(p, i), backend, sizeof backend) !=
                     EL_FILE_BACKEND)
            bs_backend_texts_own(t, el_project_file(p, i));
    }
    for (size_t i = 0; i < el_project_fact_count(p); i++) {
        const char *key = NULL, *value = NULL;
        el_project_fact(p, i, NULL, &key, &value);
        const char *tab = strcmp(key, FACT_TAGDEF) == 0 ? strchr(value, '\t') : NULL;
        if (!tab)
            continue;
        *names = el_xrealloc(*names, (*n_names + 1) * sizeof **names);
        char *backend = (*names)[(*n_names)++] = el_xstrdup(tab + 1);
        char *tag = el_xstrndup(value, (size_t)(tab - value));
        bs_backend_texts_note(t, true, tag, backend);
        free(tag);
    }
    return t;
}

/* Is the function (name) that `backend` defines the interface backends
 * share: defined by another backend too, in a file of the run (defs: the
 * USR then maps to SEVERAL_BACKENDS) or in the text of one the run does
 * not parse (backend_texts.h)? */
static bool shared_by_backends(bs_backend_texts *texts, const el_strmap *defs, const char *usr,
                               const char *name, const char *backend)
{
    const char *d = el_strmap_get(defs, usr);
    if (d && strcmp(d, SEVERAL_BACKENDS) == 0)
        return true;
    return bs_backend_texts_other_defines(texts, name, backend);
}

/* The run's definitions of the project's own functions (FACT_OWN: USR,
 * "path\tline"), sorted by USR, for the record of the uses they silence. */
typedef struct own_def {
    const char *usr;
    size_t usr_len;
    const char *place;
} own_def;

static int cmp_own_def(const void *a, const void *b)
{
    const own_def *x = a, *y = b;
    size_t n = x->usr_len < y->usr_len ? x->usr_len : y->usr_len;
    int c = memcmp(x->usr, y->usr, n);
    return c ? c : (x->usr_len > y->usr_len) - (x->usr_len < y->usr_len);
}

/* By USR, then place (a definition several TUs see comes together). */
static int cmp_own_def_place(const void *a, const void *b)
{
    int c = cmp_own_def(a, b);
    return c ? c : strcmp(((const own_def *)a)->place, ((const own_def *)b)->place);
}

/* Is the macro m (ml characters) an alias of its routine's that names
 * fn (len characters): m is the routine's Fortran name and fn the same
 * without the underscore or in another case (ddot_ for ddot, DDOT), or
 * under a second mangling (ddot__, _ddot_)? */
static bool alias_names(const char *m, size_t ml, const char *fn, size_t len)
{
    if (!ml || m[ml - 1] != '_')
        return false;
    if (ml == len + 1)
        return strncasecmp(m, fn, len) == 0;
    return ml + 1 == len && ((fn[len - 1] == '_' && strncasecmp(fn, m, ml) == 0) ||
                             (fn[0] == '_' && strncasecmp(fn + 1, m, ml) == 0));
}

/* The use "USR\tname\tpath\tline..." (a FACT_USE's fields f) that the
 * hook takes as the project's own (own_function): recorded once per
 * place defining it (EL_FACT_OWN_USE), or its ILP64 build's for a shim. */
static void record_own_use(el_project *p, const own_def *d, size_t n, const el_strmap *own,
                           const el_strmap *shims, char *const *f)
{
    if (!el_project_applies(p, f[2]))
        return;
    /* as called: through an alias macro of its routine (f[7] starts
     * " (through macro 'ddot_')" for ddot, DDOT, ddot__ or _ddot_), the
     * macro's name, as the TU records it (note_own_use) */
    char called[256];
    snprintf(called, sizeof called, "%s", f[1]);
    if (strncmp(f[7], " (through macro '", 17) == 0) {
        const char *m = f[7] + 17;
        size_t ml = strcspn(m, "'"), len = strlen(f[1]);
        if (m[ml] == '\'' && ml < sizeof called && alias_names(m, ml, f[1], len))
            snprintf(called, sizeof called, "%.*s", (int)ml, m);
    }
    const char *usr = el_strmap_get(own, f[0]) ? f[0] : el_strmap_get(shims, f[0]);
    own_def key = {usr, strlen(usr), NULL};
    const own_def *hit = n ? bsearch(&key, d, n, sizeof *d, cmp_own_def) : NULL;
    while (hit && hit > d && cmp_own_def(hit - 1, &key) == 0)
        hit--;
    for (; hit && hit < d + n && cmp_own_def(hit, &key) == 0; hit++) {
        if (hit > d && cmp_own_def(hit - 1, &key) == 0 && strcmp(hit[-1].place, hit->place) == 0)
            continue; /* the same definition, seen by another TU */
        char *v = el_xasprintf("%s\t%s\t%s\t%s\t%s", called, f[2], f[3], f[4], hit->place);
        el_project_fact_add(p, EL_FACT_OWN_USE, v);
        free(v);
    }
}

static void project(el_project *p)
{
    el_strmap defs = {0}, own = {0}, shims = {0};
    own_def *own_defs = NULL;
    size_t n_own_defs = 0;
    size_t n = el_project_fact_count(p);
    for (size_t i = 0; i < n; i++) {
        const char *key = NULL, *value = NULL;
        el_project_fact(p, i, NULL, &key, &value);
        el_strmap *m = strcmp(key, FACT_DEF) == 0    ? &defs
                       : strcmp(key, FACT_OWN) == 0  ? &own
                       : strcmp(key, FACT_SHIM) == 0 ? &shims
                                                     : NULL;
        if (!m)
            continue;
        const char *tab = strchr(value, '\t');
        if (!tab)
            continue;
        if (m == &own) {
            own_defs = el_xrealloc(own_defs, (n_own_defs + 1) * sizeof *own_defs);
            own_defs[n_own_defs++] = (own_def){value, (size_t)(tab - value), tab + 1};
        }
        char *usr = el_xstrndup(value, (size_t)(tab - value));
        const char *had = m == &defs ? el_strmap_get(m, usr) : NULL;
        el_strmap_put(m, usr, had && strcmp(had, tab + 1) != 0 ? SEVERAL_BACKENDS : (void *)(tab + 1));
        free(usr);
    }
    if (n_own_defs)
        qsort(own_defs, n_own_defs, sizeof *own_defs, cmp_own_def_place);
    bs_backend_texts *texts = NULL;
    char **names = NULL;
    size_t n_names = 0;
    for (size_t i = 0; i < n; i++) {
        const char *key = NULL, *value = NULL;
        el_project_fact(p, i, NULL, &key, &value);
        if (strcmp(key, FACT_ARG) == 0) {
            /* "USR\tpath\tline\tcol\tmessage": a use in the arguments of
             * an undecided call, its own finding only when the call is not
             * one (the project defines the function) */
            char *v = el_xstrdup(value);
            char *f[5] = {0};
            split_tabs(v, f, 5);
            if (f[4] && !backend_function(&defs, &shims, f[0]) && own_function(&own, &shims, f[0]))
                el_project_report_for(p, i, f[1], (unsigned)atoi(f[2]), (unsigned)atoi(f[3]), "%s", f[4]);
            free(v);
            continue;
        }
        if (strcmp(key, FACT_TAG) == 0) {
            /* "tag\tbackend\tpath\tline\tcol\tmessage": a use of a struct a
             * backend's file defines, unless another backend defines it */
            char *v = el_xstrdup(value);
            char *f[6] = {0};
            split_tabs(v, f, 6);
            if (f[5] && !bs_backend_texts_other_defines_tag(run_texts(p, &texts, &names, &n_names),
                                                            f[0], f[1]))
                el_project_report_for(p, i, f[2], (unsigned)atoi(f[3]), (unsigned)atoi(f[4]), "%s", f[5]);
            free(v);
            continue;
        }
        if (strcmp(key, FACT_USE) != 0)
            continue;
        char *v = el_xstrdup(value);
        char *f[8] = {0};
        split_tabs(v, f, 8);
        if (!f[7]) {
            free(v);
            continue;
        }
        const char *backend = backend_function(&defs, &shims, f[0]);
        /* a function only a backend file the run does not parse defines
         * (darknet's axpy_gpu in src/blas_kernels.cu, a CUDA file a C run
         * leaves alone): that backend's, read from its text -- unless a
         * file of the run that is no backend's defines it too */
        if (!backend && !el_strmap_get(&defs, f[0]) && !atoi(f[6]) &&
            !own_function(&own, &shims, f[0])) {
            bs_backend_texts *bt = run_texts(p, &texts, &names, &n_names);
            backend = bs_backend_texts_defined_by(bt, f[1]);
            if (backend && bs_backend_texts_own_defines(bt, f[1]))
                backend = NULL; /* the project defines one too (its CPU fallback) */
        }
        if ((backend || el_strmap_get(&defs, f[0])) &&
            shared_by_backends(run_texts(p, &texts, &names, &n_names), &defs, f[0], f[1],
                               backend ? backend : ""))
            backend = NULL; /* the interface; a library's name stays the library's */
        bool silenced = !backend && atoi(f[6]) && own_function(&own, &shims, f[0]);
        bool library = !backend && atoi(f[6]) && !silenced;
        if (silenced)
            record_own_use(p, own_defs, n_own_defs, &own, &shims, f);
        bool call = atoi(f[5]);
        /* f[7]: " (through macro 'M')" if any, then the hint */
        const char *hint_text = f[7], *via_end = NULL;
        if (strncmp(hint_text, " (through macro '", 17) == 0 && (via_end = strstr(hint_text, "')")))
            hint_text = via_end + 2;
        int via_len = via_end ? (int)(via_end + 2 - f[7]) : 0;
        if (backend)
            el_project_report_for(p, i, f[2], (unsigned)atoi(f[3]), (unsigned)atoi(f[4]),
                              "%s backend function '%s'%.*s of backend '%s'%s%s",
                              call ? "call to" : "use of", f[1], via_len, f[7], backend,
                              call ? "" : " (its address)", hint_text);
        else if (library)
            el_project_report_for(p, i, f[2], (unsigned)atoi(f[3]), (unsigned)atoi(f[4]),
                              "%s backend function '%s'%.*s%s%s", call ? "call to" : "use of",
                              f[1], via_len, f[7], call ? "" : " (its address)", hint_text);
        free(v);
    }
    bs_backend_texts_free(texts);
    for (size_t i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    el_strmap_free(&defs);
    el_strmap_free(&own);
    el_strmap_free(&shims);
    free(own_defs);
}

/* ---- the cursors ------------------------------------------------------------ */

/* True when the expression `e` (the cursor being visited) is the callee of
 * a call, *call receiving it: the first child of a CallExpr, through
 * parentheses, implicit conversions, casts, `*` and `&`. */
static bool is_callee(el_ctx *ctx, CXCursor e, CXCursor *call)
{
    CXCursor child = e;
    for (unsigned i = 0; i < el_depth(ctx); i++) {
        CXCursor a = el_ancestor(ctx, i);
        enum CXCursorKind k = clang_getCursorKind(a);
        if (k == CXCursor_CallExpr) {
            *call = a;
            return clang_equalCursors(child, elc_child(a, 0));
        }
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
            k != CXCursor_CStyleCastExpr && k != CXCursor_UnaryOperator)
            return false;
        child = a;
    }
    return false;
}

/* A backend predicate EH103 reports (its options.backend_predicates, the
 * rule on): the call is that rule's finding, one root cause once. */
static bool eh103_predicate(el_ctx *ctx, const char *name)
{
    const el_config *cfg = el_ctx_config(ctx);
    int k = el_meta_index("EH103");
    json_object *o = el_config_rule_options(cfg, "EH103"), *l = NULL;
    if (k < 0 || !cfg->rules[k].enabled || !o ||
        !json_object_object_get_ex(o, "backend_predicates", &l) ||
        !json_object_is_type(l, json_type_array))
        return false;
    for (size_t i = 0; i < json_object_array_length(l); i++)
        if (fnmatch(json_object_get_string(json_object_array_get_idx(l, i)), name, 0) == 0)
            return true;
    return false;
}

static void on_declref(el_ctx *ctx, state *s, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k == CXCursor_VarDecl) {
        /* Globals only: a local named cuda_ok is the function's own. */
        CXCursor parent = clang_getCursorSemanticParent(d);
        if (clang_getCursorKind(parent) != CXCursor_TranslationUnit &&
            clang_getCursorLinkage(d) != CXLinkage_External)
            return;
    } else if (k != CXCursor_FunctionDecl && k != CXCursor_EnumConstantDecl) {
        return;
    }
    char backend[64], name[256], h[300], o[96], msg[1024];
    if (k == CXCursor_FunctionDecl) {
        elc_spelling(d, name, sizeof name);
        if (eh103_predicate(ctx, name))
            return;
    }
    why w = backend_decl(ctx, s, d, backend, sizeof backend);
    CXCursor call;
    if (w == BS_UNDECIDED) {
        note_external_use(ctx, s, d, c, true, NULL);
        return;
    }
    if (w == NOT_BACKEND) {
        /* a function the configuration has a call template for */
        const el_rewrite_rule *t = NULL;
        if (k == CXCursor_FunctionDecl) {
            elc_spelling(d, name, sizeof name);
            t = el_config_rewrite_for(el_ctx_config(ctx), name);
        }
        if (t && is_callee(ctx, c, &call)) {
            snprintf(msg, sizeof msg, "call to '%s', which the configuration's rewrites "
                     "replace with '%.200s'", name, t->replacement);
            report_call(ctx, s, c, call, msg);
        } else if (k == CXCursor_FunctionDecl) {
            /* through an alias macro (`dgemm_` for dgemm): the library's
             * unless the project defines dgemm, which the run decides */
            char alias[256];
            bool aliased = routine_alias(ctx, s, c, d, name, alias, sizeof alias);
            note_external_use(ctx, s, d, c, aliased, aliased ? alias : NULL);
            /* a library's name the TU sees the project define: silenced
             * here, and recorded (a bundled copy of the library) */
            if (aliased || el_backend_prefix_of(el_ctx_config(ctx), name, true))
                note_own_use(ctx, d, c, aliased ? alias : name);
        }
        return;
    }
    elc_spelling(d, name, sizeof name);
    char via[256];
    through_macro(ctx, clang_getCursorLocation(c), name, via, sizeof via);
    if (k == CXCursor_FunctionDecl && is_callee(ctx, c, &call)) {
        snprintf(msg, sizeof msg, "call to backend function '%s'%s%s%s", name, via,
                 whose(w, backend, o, sizeof o), hint_here(ctx, name, h, sizeof h));
        report_call(ctx, s, c, call, msg);
        return;
    }
    if (k == CXCursor_FunctionDecl)
        snprintf(msg, sizeof msg, "address of backend function '%s'%s%s taken%s", name, via,
                 whose(w, backend, o, sizeof o), hint_here(ctx, name, h, sizeof h));
    else
        snprintf(msg, sizeof msg, "use of backend %s '%s'%s%s",
                 k == CXCursor_VarDecl ? "variable" : "constant", name, via,
                 whose(w, backend, o, sizeof o));
    pending *q = defer(s, clang_getCursorLocation(c), false, msg);
    /* a function named without a call (a table entry, &f): its name
     * becomes the op's when the types agree, as for a call */
    if (q && k == CXCursor_FunctionDecl) {
        if (!s->rw)
            s->rw = el_rewriter_new(el_tu(ctx), el_ctx_config(ctx));
        if (!el_rewrite_ref(s->rw, c, &q->fix))
            el_call_rewrite_clear(&q->fix);
    }
}

/* Does the callee expression name a function itself (then the DeclRefExpr
 * is reported), or go through a variable? */
static enum CXChildVisitResult find_fn_ref(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FunctionDecl) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static void on_call(el_ctx *ctx, state *s, CXCursor call)
{
    CXCursor callee_expr = elc_child(call, 0);
    if (clang_Cursor_isNull(callee_expr))
        return;
    bool direct = clang_getCursorKind(callee_expr) == CXCursor_DeclRefExpr &&
                  clang_getCursorKind(clang_getCursorReferenced(callee_expr)) ==
                      CXCursor_FunctionDecl;
    if (!direct)
        clang_visitChildren(callee_expr, find_fn_ref, &direct);
    if (direct)
        return;
    CXCursor fn = elc_callee(call);
    if (clang_Cursor_isNull(fn))
        return;
    char backend[64], name[256], via[256], h[300], o[96];
    why w = backend_decl(ctx, s, fn, backend, sizeof backend);
    if (w == NOT_BACKEND || w == BS_UNDECIDED)
        return;
    elc_spelling(fn, name, sizeof name);
    CXCursor v = elc_referenced(callee_expr);
    if (clang_Cursor_isNull(v)) {
        CXCursor inner = callee_expr;
        for (int i = 0; i < 8 && clang_Cursor_isNull(v); i++) {
            inner = elc_child(elc_strip_casts(inner), 0);
            if (clang_Cursor_isNull(inner))
                break;
            v = elc_referenced(inner);
        }
    }
    if (clang_Cursor_isNull(v))
        snprintf(via, sizeof via, "a function pointer");
    else
        elc_spelling(v, via, sizeof via);
    char msg[1024];
    snprintf(msg, sizeof msg, "call to backend function '%s'%s through '%s'%s", name,
             whose(w, backend, o, sizeof o), via, hint_here(ctx, name, h, sizeof h));
    report_call(ctx, s, call, call, msg);
}

/* backend_decl for a type.  A struct, union or enum that a backend's
 * file defines is that backend's unless another backend defines it too
 * (the interface type the build links one backend's version of: OSQP's
 * `struct OSQPVectorf_`, which every algebra backend defines); the run
 * knows that (backend_texts.h, read by the project hook), so such a
 * verdict gives its tag in tag[] (else ""): the finding waits for the
 * run. */
static why type_decl(el_ctx *ctx, state *s, CXCursor d, char *backend, size_t n, char *tag,
                     size_t tn)
{
    why w = backend_decl(ctx, s, d, backend, n);
    enum CXCursorKind k = clang_getCursorKind(d);
    tag[0] = '\0';
    if (w == BY_LOCATION &&
        (k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl))
        elc_spelling(d, tag, tn);
    return w;
}

/* The first backend declaration along a type: through pointers, arrays,
 * qualifiers and typedef chains, to the record or enum. */
static bool backend_in_type(el_ctx *ctx, state *s, CXType t, char *name, size_t nn,
                            char *backend, size_t nb, why *w, char *tag, size_t tn)
{
    for (int guard = 0; guard < 16; guard++) {
        switch (t.kind) {
        case CXType_Pointer:
            t = clang_getPointeeType(t);
            continue;
        case CXType_ConstantArray:
        case CXType_IncompleteArray:
        case CXType_VariableArray:
        case CXType_DependentSizedArray:
            t = clang_getArrayElementType(t);
            continue;
        case CXType_Elaborated:
            t = clang_Type_getNamedType(t);
            continue;
        case CXType_Typedef:
        case CXType_Record:
        case CXType_Enum: {
            CXCursor d = clang_getTypeDeclaration(t);
            if (clang_Cursor_isNull(d))
                return false;
            *w = type_decl(ctx, s, d, backend, nb, tag, tn);
            if (*w != NOT_BACKEND) {
                elc_spelling(d, name, nn);
                return true;
            }
            if (t.kind != CXType_Typedef)
                return false;
            t = clang_getTypedefDeclUnderlyingType(d);
            continue;
        }
        default:
            return false;
        }
    }
    return false;
}

/* The finding for a reference to the type declaration d into msg[]; false
 * when there is none.  msg is "TAG\tBACKEND\tmessage": the tag and backend
 * of a struct, union or enum the run decides (type_decl), else two empty
 * fields. */
static bool type_finding(el_ctx *ctx, state *s, CXCursor d, enum CXCursorKind k, char *msg,
                         size_t n)
{
    char backend[64], name[256], o[96], tag[256];
    why w = type_decl(ctx, s, d, backend, sizeof backend, tag, sizeof tag);
    if (w != NOT_BACKEND) {
        elc_spelling(d, name, sizeof name);
        snprintf(msg, n, "%s\t%s\tuse of backend type '%s'%s", tag, tag[0] ? backend : "", name,
                 whose(w, backend, o, sizeof o));
        return true;
    }
    if (k != CXCursor_TypedefDecl)
        return false;
    char alias[256], target[256];
    if (backend_in_type(ctx, s, clang_getTypedefDeclUnderlyingType(d), target, sizeof target,
                        backend, sizeof backend, &w, tag, sizeof tag)) {
        elc_spelling(d, alias, sizeof alias);
        snprintf(msg, n, "%s\t%s\tuse of type '%s', an alias of backend type '%s'%s", tag,
                 tag[0] ? backend : "", alias, target, whose(w, backend, o, sizeof o));
        return true;
    }
    return false;
}

/* The finding of type d (msg, the same for every use) at the reference
 * c: the macro the line shows instead of d's name, if any, after the name
 * the message quotes first ("use of backend type 'fftwf_plan' (through
 * macro 'PLAN')", "use of type 'my_plan' (through macro 'PLAN'), an alias
 * of ..."). */
static const char *type_message(el_ctx *ctx, CXCursor c, CXCursor d, const char *msg,
                                char *buf, size_t n)
{
    char name[256], via[256];
    through_macro(ctx, clang_getCursorLocation(c), elc_spelling(d, name, sizeof name), via,
                  sizeof via);
    const char *q = strchr(msg, '\''), *qe = q ? strchr(q + 1, '\'') : NULL;
    if (!via[0] || !qe)
        return msg;
    snprintf(buf, n, "%.*s%s%s", (int)(qe + 1 - msg), msg, via, qe + 1);
    return buf;
}

static void on_typeref(el_ctx *ctx, state *s, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k != CXCursor_TypedefDecl && k != CXCursor_StructDecl && k != CXCursor_UnionDecl &&
        k != CXCursor_EnumDecl)
        return;
    /* The finding depends on d alone: worked out once per TU (the note
     * holds it, "" for none). */
    char **note = bs_note(&s->seen, d);
    char full[1024];
    if (note && *note) {
        if ((*note)[0])
            defer_type(s, clang_getCursorLocation(c), *note,
                       type_message(ctx, c, d, type_text(*note), full, sizeof full));
        return;
    }
    char msg[1024];
    bool found = type_finding(ctx, s, d, k, msg, sizeof msg);
    if (found)
        defer_type(s, clang_getCursorLocation(c), msg,
                   type_message(ctx, c, d, type_text(msg), full, sizeof full));
    /* Remember it (type_finding may have grown the table: look d up again). */
    note = bs_note(&s->seen, d);
    if (note && !*note)
        *note = strdup(found ? msg : "");
}

/* The location is on a preprocessor directive's line (#if, #ifdef, ...,
 * continuation lines included). */
static bool on_directive_line(el_ctx *ctx, CXSourceLocation loc)
{
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    size_t size = 0;
    const char *t = el_file_text(ctx, f, &size);
    if (!t || off > size)
        return false;
    size_t b = off;
    for (;;) {
        while (b > 0 && t[b - 1] != '\n')
            b--;
        /* a continued line: the directive starts further up */
        if (b >= 2 && t[b - 2] == '\\')
            b--;
        else if (b >= 3 && t[b - 2] == '\r' && t[b - 3] == '\\')
            b -= 2;
        else
            break;
    }
    while (b < size && (t[b] == ' ' || t[b] == '\t'))
        b++;
    return b < size && t[b] == '#';
}

/* The library macro the body of d, a macro the project defines (not a
 * system or vendor header's), names, through the project's macros; NULL
 * when none.  Kept with d (bs_note): "" for none. */
static const char *through_own_macro(el_ctx *ctx, state *s, CXCursor d)
{
    char **note = bs_note(&s->seen, d);
    if (note && *note)
        return (*note)[0] ? *note : NULL;
    char inner[256] = "";
    const el_config *cfg = el_ctx_config(ctx);
    if (el_macro_is_own(cfg, d) && !el_macro_body_backend_macro(cfg, el_tu(ctx), d, inner, sizeof inner))
        inner[0] = '\0';
    if (!note)
        return NULL;
    *note = strdup(inner);
    return *note && (*note)[0] ? *note : NULL;
}

static void on_macro(el_ctx *ctx, state *s, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_MacroDefinition)
        return;
    /* (the verdict first: it is kept per macro, while the line needs the
     * file's text) */
    char backend[64], name[256], msg[1024];
    if (backend_decl(ctx, s, d, backend, sizeof backend) == NOT_BACKEND) {
        /* the project's own macro: a library macro its body names (through
         * the project's macros) is no expansion libclang shows, so it is
         * reported here: `#define MY_PLAN_FLAGS FFTW_MEASURE` */
        /* Looked through at the end (own_macro_uses), when the engine's
         * walk has passed every macro definition of the TU: the macro
         * table is then the one that walk fed, not one read in a walk of
         * its own. */
        own_use *v = sep_grow(s->own, &s->cap_own, s->n_own, sizeof *v);
        if (v) {
            s->own = v;
            s->own[s->n_own++] = (own_use){c, d};
        }
        return;
    }
    if (on_directive_line(ctx, clang_getCursorLocation(c)))
        return;
    elc_spelling(c, name, sizeof name);
    if (backend[0])
        snprintf(msg, sizeof msg, "use of backend macro '%s' of backend '%s'", name, backend);
    else
        snprintf(msg, sizeof msg, "use of backend macro '%s'", name);
    pending *q = defer(s, clang_getCursorLocation(c), true, msg);
    if (q)
        q->function_like = clang_Cursor_isMacroFunctionLike(d);
}

/* A struct, union or enum a backend file defines at file scope
 * (FACT_TAGDEF "tag\tbackend"): two backends' is the interface
 * (backend_texts.h). */
static void note_tag_definition(el_ctx *ctx, CXCursor c)
{
    const char *backend = NULL;
    if (el_depth(ctx) != 0 || !el_is_definition(ctx, c) ||
        el_cursor_class(ctx, c, &backend) != EL_FILE_BACKEND || !backend || !backend[0])
        return;
    char tag[256];
    elc_spelling(c, tag, sizeof tag);
    if (!tag[0] || strchr(tag, ' ') || strchr(tag, '('))
        return; /* (an anonymous one) */
    char *v = el_xasprintf("%s\t%s", tag, backend);
    el_fact(ctx, FACT_TAGDEF, v);
    free(v);
}

static void on_cursor(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl) {
        note_tag_definition(ctx, c);
        return;
    }
    if (k == CXCursor_FunctionDecl || (k == CXCursor_VarDecl && el_depth(ctx) == 0)) {
        bs_note_declaration(ctx, &s->seen, c); /* what backend files declare */
        if (k == CXCursor_FunctionDecl)
            note_definition(ctx, s, c);
        return;
    }
    if (!el_applies_to(ctx, c))
        return;
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr:
        on_declref(ctx, s, c);
        break;
    case CXCursor_CallExpr:
        on_call(ctx, s, c);
        break;
    case CXCursor_TypeRef:
        on_typeref(ctx, s, c);
        break;
    case CXCursor_MacroExpansion:
        on_macro(ctx, s, c);
        break;
    default:
        break;
    }
}

/* The span holding the use q: in its written extent, or q written as the
 * use of a macro whose argument list holds the whole call (what the body of
 * `ROWWISE(LAPACKE_dgesv, n, ...)` supplies, `f(LAPACK_ROW_MAJOR, ...)`, is
 * written at ROWWISE, before the call's first written token) or the
 * call's start (`CBLAS_FUNC(cblas_dgemm)(...)`: the macro makes the
 * callee). */
static const span *inside(el_ctx *ctx, const span *v, size_t n, const pending *q)
{
    unsigned use_end = q->offset;
    bool looked = false;
    for (size_t i = 0; i < n; i++) {
        if (v[i].file != q->file)
            continue;
        if (v[i].begin <= q->offset && q->offset <= v[i].end)
            return &v[i];
        if (q->offset > v[i].begin)
            continue;
        if (!looked) {
            size_t size = 0;
            const char *t = el_file_text(ctx, q->file, &size);
            use_end = t && q->offset < size ? macro_use_end(t, size, q->offset) : q->offset;
            looked = true;
        }
        if (v[i].end <= use_end)
            return &v[i];
        /* the macro's argument list holds the call's start, its callee:
         * a name-building macro, NumPy's CBLAS_FUNC(cblas_dgemm)(...);
         * an object-like one has none (`#define HALF 0.5 *`, then `HALF
         * (cblas_ddot)(...)`: two uses) */
        if (q->function_like && v[i].begin <= use_end)
            return &v[i];
    }
    return NULL;
}

static bool inside_call(el_ctx *ctx, const state *s, const pending *q)
{
    return inside(ctx, s->calls, s->n_calls, q) != NULL;
}

/* The uses of the project's own macros on_macro held back: a finding
 * where the body names a library macro through the project's macros. */
static void own_macro_uses(el_ctx *ctx, state *s)
{
    for (size_t i = 0; i < s->n_own; i++) {
        const own_use *u = &s->own[i];
        const char *inner = through_own_macro(ctx, s, u->def);
        if (!inner || on_directive_line(ctx, clang_getCursorLocation(u->use)))
            continue;
        char name[256], msg[1024];
        elc_spelling(u->use, name, sizeof name);
        snprintf(msg, sizeof msg, "use of backend macro '%s' (through macro '%s')", inner, name);
        /* appended: the findings' order comes from the final sort (cmp_finding) */
        defer(s, clang_getCursorLocation(u->use), true, msg);
    }
    free(s->own);
    s->own = NULL;
    s->n_own = s->cap_own = 0;
}

static void end(el_ctx *ctx, void *st)
{
    state *s = st;
    CXTranslationUnit tu = el_tu(ctx);
    own_macro_uses(ctx, s);
    for (size_t i = 0; i < s->n_p; i++) {
        const pending *q = &s->p[i];
        if (inside_call(ctx, s, q))
            continue;
        bool dup = false; /* a macro at the place of another finding */
        for (size_t k = 0; k < s->n_p && q->macro && !dup; k++)
            dup = !s->p[k].macro && s->p[k].file == q->file && s->p[k].offset == q->offset;
        const span *u = dup || q->fix.text ? NULL : inside(ctx, s->undecided, s->n_undecided, q);
        const char *path = u ? el_file_path(ctx, q->file) : NULL;
        if (path) {
            /* in the arguments of a call the project hook decides */
            char *v = el_xasprintf("%s\t%s\t%u\t%u\t%s", u->usr, path, q->line, q->col, q->msg);
            el_fact(ctx, FACT_ARG, v);
            free(v);
        } else if (!dup && q->tag[0] && (path = el_file_path(ctx, q->file))) {
            /* a struct another backend may define too: the run decides */
            char *v = el_xasprintf("%s\t%s\t%s\t%u\t%u\t%s", q->tag, q->tag_backend, path,
                                   q->line, q->col, q->msg);
            el_fact(ctx, FACT_TAG, v);
            free(v);
        } else if (!dup) {
            report_written(ctx, q->file, q->line, q->col, q->msg);
            if (q->fix.text)
                el_rewrite_attach(ctx, tu, &q->fix);
        }
    }
    for (size_t i = 0; i < s->n_p; i++)
        el_call_rewrite_clear(&s->p[i].fix);
    free(s->p);
    free(s->calls);
    for (size_t i = 0; i < s->n_undecided; i++)
        free(s->undecided[i].usr);
    free(s->undecided);
    s->undecided = NULL;
    s->n_undecided = s->cap_undecided = 0;
    el_rewriter_free(s->rw);
    s->rw = NULL;
    s->p = NULL;
    s->calls = NULL;
    bs_cache_free(&s->seen);
}

static bool omp_name(const char *name, unsigned offset, bool call, void *ud)
{
    el_ctx *ctx = ((void **)ud)[0];
    CXSourceLocation loc = clang_getLocationForOffset(el_tu(ctx), ((void **)ud)[1], offset);
    if (el_applies_at(ctx, loc))
        el_report_loc(ctx, loc, "%s '%s' in an OpenMP directive",
                      call ? "call to backend function" : "use of backend name", name);
    return true;
}

static void on_file(el_ctx *ctx, void *st, CXFile file)
{
    (void)st;
    void *ud[2] = {ctx, file};
    el_omp_backend_names(ctx, file, omp_name, ud);
}

const el_rule el_rule_backend_symbol = {
    .id = RULE,
    .kinds = kinds,
    .state_size = sizeof(state),
    .on_cursor = on_cursor,
    .on_file = on_file,
    .end = end,
    .project = project,
};
