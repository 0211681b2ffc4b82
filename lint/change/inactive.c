/* lint/change/inactive.c -- the code the preprocessor skipped
 * (inactive.h). */
#include "inactive.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "clang_util.h"
#include "c_text.h"
#include "config.h"
#include "text_pos.h"
#include "include_line.h"
#include "language.h"
#include "macro_expand.h"
#include "mem.h"
#include "own_names.h"
#include "paren_match.h"
#include "path.h"
#include "rewrite.h"
#include "rule.h"
#include "strbuf.h"
#include "strmap.h"

/* ---- the rule: lexing skipped ranges ------------------------------------- */

typedef struct decl_info {
    bool backend;             /* declared in backend code */
    char *file;               /* where (real path), or NULL */
    const char *kind;         /* "function", "macro", "type", "variable", "constant" */
    bool own_macro;           /* a macro of a project-own file whose body names no
                               * backend identifier (backend_symbols.c, as EH102) */
    bool own_decl;            /* a type, constant or variable declared first in a
                               * project-own file (backend_symbols.c, as EH102) */
    em_macro m;               /* a macro: its definition (tokens after the name) */
    bool unsure;              /* a macro defined more than once, differently, or
                               * #undef'd: its uses are not followed */
    unsigned def_off;         /* a macro: the offset of its name in file */
} decl_info;

struct state;
typedef struct lookup_ctx {
    el_ctx *ctx;
    struct state *s;
    const char *path;         /* the file of the use, and its offset */
    size_t off;
} lookup_ctx;

typedef struct state {
    bool indexed;
    el_strmap decls;          /* top-level name -> decl_info (the first declaration) */
    el_strmap macros;         /* name -> decl_info of its macro (the preprocessor's view:
                               * a macro is expanded whatever else has the name) */
    el_strmap funcs;          /* name -> decl_info of its function declaration */
    decl_info **all;          /* every decl_info made (freed at the end) */
    size_t n_all, cap_all;
    el_strmap decl_files;     /* the index's files: name as libclang gives it -> decl_file */
    el_rewriter *rw;
    el_own_names *own;        /* the file being lexed: names its text defines */
    em_expander x;            /* the small preprocessor of skipped code */
    lookup_ctx look;          /* its lookup's data */
    const char *paster;       /* the macro whose ## made the name of the call
                               * being listed (id_json), or NULL */
    bool routine_paste;       /* ... and made it a routine's without the Fortran
                               * underscore from its argument (pasted_routine) */
    size_t plain_end;         /* the end of the last use whose arguments name no
                               * backend code: only calls in it are expanded */
    size_t fail_end;          /* the end of the last use given up at a budget: the
                               * uses inside it are not expanded again */
    size_t use_end;           /* the end of the last macro use read for # (past its ')') */
    size_t *strz;             /* offsets of the names in it only made strings of (#x) */
    size_t n_strz, cap_strz;
    const char *text;         /* the file being read, text[0..text_n) */
    size_t text_n;
    el_parens *parens;        /* where its parenthesised texts end (made on first use) */
    el_line_index lines;      /* its line starts (made on first use) */
    bool have_lines;
} state;

/* Is the file holding a declaration backend code (a backend directory, a
 * legacy one, or a backend header)? */
static bool backend_file(el_ctx *ctx, CXFile f)
{
    if (!f)
        return false;
    if (el_file_class_of(ctx, f, NULL) == EL_FILE_BACKEND)
        return true;
    char name[PATH_MAX], be[64];
    elc_file_name(f, name, sizeof name);
    char *real = realpath(name, NULL);
    const char *p = real ? real : name;
    bool r = el_config_legacy_backend(el_ctx_config(ctx), p, be, sizeof be) ||
             el_config_is_backend_header(el_ctx_config(ctx), p, p);
    free(real);
    return r;
}

/* Is the #define at c a fallback for the library's macro: the line
 * before it `#ifndef NAME` or `#if !defined(NAME)`? */
static bool fallback_define(el_ctx *ctx, CXFile f, CXCursor c, const char *name)
{
    size_t size = 0, len = strlen(name);
    const char *t = f ? clang_getFileContents(el_tu(ctx), f, &size) : NULL;
    unsigned off = 0; /* the macro's name */
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    return t && off + len <= size && !strncmp(t + off, name, len) &&
           el_own_names_guarded_by_ifndef(t, off, off, off + len);
}

/* The definition of the macro at c into d (its tokens, kind, offset). */
static void macro_tokens(CXTranslationUnit tu, CXCursor c, decl_info *d)
{
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &nt);
    d->m.fn_like = clang_Cursor_isMacroFunctionLike(c);
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &d->def_off);
    if (nt > 1) {
        d->m.tok = el_xcalloc(nt - 1, sizeof *d->m.tok);
        for (unsigned t = 1; t < nt; t++) {
            CXString sp = clang_getTokenSpelling(tu, toks[t]);
            d->m.tok[d->m.n_tok++] = el_xstrdup(clang_getCString(sp));
            clang_disposeString(sp);
        }
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
}

static void free_tokens(decl_info *d)
{
    for (size_t k = 0; k < d->m.n_tok; k++)
        free(d->m.tok[k]);
    free(d->m.tok);
    d->m.tok = NULL;
    d->m.n_tok = 0;
}

/* Are the two definitions the same (C11 6.10.3p2, blanks aside)? */
static bool same_macro(const decl_info *a, const decl_info *b)
{
    if (a->m.fn_like != b->m.fn_like || a->m.n_tok != b->m.n_tok)
        return false;
    for (size_t k = 0; k < a->m.n_tok; k++)
        if (strcmp(a->m.tok[k], b->m.tok[k]))
            return false;
    return true;
}

/* What the index asks of a declaration's file, once per file: the TU's
 * system headers declare thousands of names, and a realpath and the
 * backend-header patterns for each were about a fifth of ember-migrate
 * plan's samples on darknet. */
typedef struct decl_file {
    bool backend;
    char *real;               /* NULL: none */
} decl_file;

static const decl_file *decl_file_of(el_ctx *ctx, state *s, CXFile f)
{
    static const decl_file none = {false, NULL};
    char path[PATH_MAX];
    elc_file_name(f, path, sizeof path);
    if (!f || !path[0])
        return &none;
    decl_file *df = el_strmap_get(&s->decl_files, path);
    if (!df) {
        df = el_xcalloc(1, sizeof *df);
        df->backend = backend_file(ctx, f);
        df->real = realpath(path, NULL);
        el_strmap_put(&s->decl_files, path, df);
    }
    return df;
}

static void free_decl_file(const char *key, void *value, void *ud)
{
    (void)key, (void)ud;
    decl_file *df = value;
    free(df->real);
    free(df);
}

typedef struct index_walk {
    el_ctx *ctx;
    state *s;
} index_walk;

static enum CXChildVisitResult index_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    index_walk *w = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_EnumDecl)
        clang_visitChildren(c, index_visit, w);
    if (k != CXCursor_FunctionDecl && k != CXCursor_VarDecl && k != CXCursor_TypedefDecl &&
        k != CXCursor_StructDecl && k != CXCursor_UnionDecl && k != CXCursor_EnumDecl &&
        k != CXCursor_EnumConstantDecl && k != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    char name[256];
    elc_spelling(c, name, sizeof name);
    decl_info *prev = k == CXCursor_MacroDefinition && name[0]
                          ? el_strmap_get(&w->s->macros, name)
                          : NULL;
    if (prev) {
        /* defined again: which definition holds at a use is not known
         * here, unless they are the same */
        decl_info again = {0};
        macro_tokens(el_tu(w->ctx), c, &again);
        prev->unsure |= !same_macro(prev, &again);
        free_tokens(&again);
        return CXChildVisit_Continue;
    }
    bool first = name[0] && !el_strmap_get(&w->s->decls, name),
         macro = first || (k == CXCursor_MacroDefinition && name[0] &&
                           !el_strmap_get(&w->s->macros, name)),
         func = first || (k == CXCursor_FunctionDecl && name[0] &&
                          !el_strmap_get(&w->s->funcs, name));
    if (!first && !macro && !func)
        return CXChildVisit_Continue;
    CXFile f = NULL;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    decl_info *di = el_xcalloc(1, sizeof *di);
    const decl_file *df = decl_file_of(w->ctx, w->s, f);
    di->backend = df->backend;
    di->kind = k == CXCursor_FunctionDecl         ? "function"
               : k == CXCursor_MacroDefinition    ? "macro"
               : k == CXCursor_VarDecl            ? "variable"
               : k == CXCursor_EnumConstantDecl   ? "constant"
                                                  : "type";
    di->file = df->real ? el_xstrdup(df->real) : NULL;
    if (k == CXCursor_MacroDefinition && !di->backend && di->file) {
        const el_config *cfg = el_ctx_config(w->ctx);
        di->own_macro = el_config_in_project(cfg, di->file) &&
                        !el_config_is_vendor_header(cfg, di->file) &&
                        !clang_Location_isInSystemHeader(clang_getCursorLocation(c)) &&
                        !el_macro_body_names_backend(cfg, el_tu(w->ctx), c) &&
                        !fallback_define(w->ctx, f, c, name);
    }
    if (first && k != CXCursor_MacroDefinition && k != CXCursor_FunctionDecl && !di->backend &&
        di->file) {
        /* NumPy's npy_cblas.h declares CBLAS's enum CBLAS_ORDER and its
         * constants itself: the project's where compiled, so here too */
        const el_config *cfg = el_ctx_config(w->ctx);
        di->own_decl = el_config_in_project(cfg, di->file) &&
                       !el_config_is_vendor_header(cfg, di->file) &&
                       !clang_Location_isInSystemHeader(clang_getCursorLocation(c));
    }
    if (k == CXCursor_MacroDefinition)
        macro_tokens(el_tu(w->ctx), c, di);
    if (first)
        el_strmap_put(&w->s->decls, name, di);
    if (k == CXCursor_MacroDefinition && !el_strmap_get(&w->s->macros, name))
        el_strmap_put(&w->s->macros, name, di);
    if (k == CXCursor_FunctionDecl && !el_strmap_get(&w->s->funcs, name))
        el_strmap_put(&w->s->funcs, name, di);
    el_grow(&w->s->all, &w->s->cap_all, w->s->n_all + 1, sizeof *w->s->all);
    w->s->all[w->s->n_all++] = di;
    return CXChildVisit_Continue;
}

static void index_tu(el_ctx *ctx, state *s)
{
    if (!s->indexed) {
        s->indexed = true;
        index_walk w = {ctx, s};
        if (elc_tu_whole(el_tu(ctx)))
            clang_visitChildren(clang_getTranslationUnitCursor(el_tu(ctx)), index_visit, &w);
    }
}

/* What the TU declares as `name` (NULL: nothing). */
static const decl_info *decl_of(el_ctx *ctx, state *s, const char *name)
{
    index_tu(ctx, s);
    return el_strmap_get(&s->decls, name);
}

/* The macro the TU defines as `name` (NULL: none), whatever else it
 * declares so (`#define dgetrf_ LAPACK_dgetrf` beside lapack.h's
 * function dgetrf_). */
static const decl_info *macro_of(el_ctx *ctx, state *s, const char *name)
{
    index_tu(ctx, s);
    return el_strmap_get(&s->macros, name);
}

/* The function the TU declares as `name` (NULL: none). */
static const decl_info *func_of(el_ctx *ctx, state *s, const char *name)
{
    index_tu(ctx, s);
    return el_strmap_get(&s->funcs, name);
}

/* Does `name`, in skipped code of file `path`, name backend code here?
 * A name the file declares itself (a legacy file's own macro or static
 * function) is its own, as it is for EH102 where the code is compiled:
 * no include brings it. */
static bool backend_name(el_ctx *ctx, state *s, const char *path, const char *name)
{
    const el_config *cfg = el_ctx_config(ctx);
    char be[64];
    if (el_backend_of_symbol(cfg, name, be, sizeof be))
        return true;
    /* a library's prefix (fftw_, cblas_) on a type or macro the file
     * defines (`struct fftw_config {`): the project's own, as the AST says
     * where the code is compiled */
    const decl_info *d = NULL;
    if (el_backend_prefix_of(cfg, name, true)) {
        if (s->own && el_own_names_own(s->own, name))
            return false;
        /* a macro a project-own header defines (`#define FFTW_INIT (1U <<
         * 10)` in include/nfft3.h), as EH102 takes it in compiled code;
         * not the lexed file's (own_names decides: an `#ifndef
         * FFTW_ESTIMATE` fallback stays the library's) nor a fallback */
        d = decl_of(ctx, s, name);
        if (d && d->own_decl)
            return false; /* a type or constant the project declares first (enum CBLAS_ORDER) */
        return !(d && d->own_macro && !(d->file && !strcmp(d->file, path)));
    }
    d = decl_of(ctx, s, name);
    return d && d->backend && !(d->file && !strcmp(d->file, path));
}

/* The line of byte off of t, the file being read (and its column, when
 * col is given): from its line starts, found once (counting from the top
 * for each site made a file of thousands of listed calls quadratic). */
static unsigned line_at(state *s, const char *t, size_t off, unsigned *col)
{
    unsigned line = 0, c = 0;
    if (t == s->text) {
        if (!s->have_lines)
            el_line_index_init(&s->lines, s->text, s->text_n);
        s->have_lines = true;
        el_line_index_line_col(&s->lines, off, &line, &c);
    } else {
        el_text_line_col(t, (size_t)-1, off, &line, &c);
    }
    if (col)
        *col = c;
    return line;
}

/* An #include directive on t[b..e): its spelling (malloc'd) or NULL. */
static char *include_of(const char *t, size_t b, size_t e, bool *angled)
{
    const char *name;
    size_t len;
    return el_include_line(t + b, e - b, angled, &name, &len) && len ? el_xstrndup(name, len)
                                                                     : NULL;
}

/* Is the skipped include a backend header's? */
static bool backend_include(el_ctx *ctx, const char *file, const char *spelled, bool angled)
{
    const el_config *cfg = el_ctx_config(ctx);
    char be[64];
    char *guess = NULL;
    if (!angled) {
        char *dir = el_path_dirname(file);
        char *j = el_path_join(dir, spelled);
        guess = el_path_abs(j);
        free(j);
        free(dir);
    }
    bool r = el_config_is_backend_header(cfg, spelled, guess) ||
             (guess && el_config_legacy_backend(cfg, guess, be, sizeof be));
    free(guess);
    return r;
}

/* Does the function `name`, called in skipped code of file `path`, name
 * backend code here: an eh_<backend>_ name, or one a backend header (or,
 * with a library's prefix, any other file) declares -- not the file
 * itself, whose own function it is?  Asked of the function an alias
 * macro reaches (`#define dgetrf_ LAPACK_dgetrf` beside lapack.h's
 * dgetrf_). */
static bool backend_function(el_ctx *ctx, state *s, const char *path, const char *name)
{
    const el_config *cfg = el_ctx_config(ctx);
    const decl_info *f = func_of(ctx, s, name);
    char be[64];
    if (el_backend_of_symbol(cfg, name, be, sizeof be))
        return true;
    if (!f)
        return backend_name(ctx, s, path, name);
    return (f->backend || el_backend_prefix_of(cfg, name, true)) &&
           !(f->file && !strcmp(f->file, path));
}

/* Why the call through alias macro `alias` (an object-like one) of the
 * backend function `name` has no rewrite, as where the code is compiled
 * (scan_rule.c): the macro's body names it, or a macro of its body makes
 * it. */
static void alias_why(el_ctx *ctx, state *s, const char *alias, const char *name, char *why,
                      size_t cap)
{
    const decl_info *m = macro_of(ctx, s, alias);
    const char *via = NULL;
    bool spells = false;
    for (size_t k = 0; m && k < m->m.n_tok && !spells; k++)
        spells = !strcmp(m->m.tok[k], name);
    for (size_t k = 0; m && k < m->m.n_tok && !spells && !via; k++)
        if (el_text_ident_start(m->m.tok[k][0]) && strcmp(m->m.tok[k], alias) &&
            macro_of(ctx, s, m->m.tok[k]))
            via = m->m.tok[k];
    if (via)
        snprintf(why, cap, "%s comes from macro %s, through macro %s of its body (an edit of "
                           "either would change every use of it): rewrite the macros or this "
                           "use by hand",
                 name, alias, via);
    else
        snprintf(why, cap, "%s is named inside macro %s (an edit there would change every use "
                           "of the macro): rewrite the macro or this use by hand",
                 name, alias);
}

/* A backend name found in skipped code; in_macro: in a #define's body,
 * which is never renamed (an edit there changes every use of the macro);
 * pasted: an operand of ##, such as eh_ref_ in `eh_ref_##op`, a backend
 * function whose name is only known where the macro is used; made: the
 * name the macro use at off (of len bytes) makes; alias: the object-like
 * macro written at off, called, which reaches the function `made` (NULL:
 * its own name, `#define dgetrf_ LAPACK_dgetrf`) -- the caller knows it
 * is backend code. */
static json_object *id_json(el_ctx *ctx, state *s, const char *path, const char *t, size_t off,
                            size_t len, bool call, const char *in_macro, bool pasted,
                            const char *made, const char *alias)
{
    char name[256], probe[272];
    snprintf(name, sizeof name, "%s", made ? made : "");
    if (!made)
        snprintf(name, sizeof name, "%.*s", (int)len, t + off);
    snprintf(probe, sizeof probe, "%sx", name);
    if (s->own)
        el_own_names_at(s->own, off);
    if (!alias && !(made && s->routine_paste) && !backend_name(ctx, s, path, name) &&
        !(pasted && backend_name(ctx, s, path, probe)))
        return NULL;
    /* a variable's declarator: a declaration alone uses nothing, as for
     * EH102 where the code is compiled */
    if (!made && !call && !in_macro && s->own && el_own_names_declares_at(s->own, name, off))
        return NULL;
    if (!s->rw)
        s->rw = el_rewriter_new(el_tu(ctx), el_ctx_config(ctx));
    char target[160], why[2048];
    el_fix_safety safety = EL_FIX_NONE;
    bool ok = el_rewrite_name(s->rw, name, target, sizeof target, &safety, why, sizeof why);
    if (ok && safety != EL_FIX_SAFE) {
        ok = false;
        snprintf(why, sizeof why, "%s is not declared where it is skipped, so its signature "
                                  "cannot be compared with %s's", target, target);
    }
    /* (the function an alias reaches: what its call calls) */
    const decl_info *d = alias ? func_of(ctx, s, name) : decl_of(ctx, s, name);
    char be[64];
    /* a type, variable, constant or macro: no op replaces it (a name
     * nothing declares here is a function when called or named so) */
    bool function = d ? !strcmp(d->kind, "function")
                      : call || el_backend_of_symbol(el_ctx_config(ctx), name, be, sizeof be);
    if (!ok && !function)
        snprintf(why, sizeof why, "no op replaces a backend %s: rewrite this use by hand",
                 d ? d->kind : "type, variable, constant or macro");
    if (made && alias) {
        /* the alias at off is no name to rename */
        ok = false;
        alias_why(ctx, s, alias, name, why, sizeof why);
        char advice[1024];
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        snprintf(why + strlen(why), sizeof why - strlen(why), "%s", advice);
    } else if (made) {
        /* the use M(x) at off, of len bytes, is no name to rename */
        ok = false;
        size_t m = 0;
        while (m < len && el_text_ident_char(t[off + m]))
            m++;
        char use[256];
        size_t u = 0;
        for (size_t q = 0; q < len && u + 1 < sizeof use; q++) {
            char c = t[off + q];
            bool blank = strchr(" \t\r\n\\", c) != NULL;
            if (blank && (u == 0 || use[u - 1] == ' ' || use[u - 1] == '('))
                continue; /* the use on one line, its blanks as one */
            if (c == ')' && u && use[u - 1] == ' ')
                u--;
            use[u++] = blank ? ' ' : c;
        }
        use[u] = '\0';
        /* the macro whose ## made the name: the one used, or one it
         * reaches (BOTH(FNAME(dgetrs)) passes on the name FNAME makes) */
        const char *by = s->paster;
        char how[400];
        if (!by)
            snprintf(how, sizeof how, "macro %.*s gives the name %s from its argument (%.*s)",
                     (int)m, t + off, name, (int)u, use);
        else if (strlen(by) == m && !strncmp(by, t + off, m))
            snprintf(how, sizeof how,
                     "macro %s pastes the name %s together from its argument (%.*s)", by, name,
                     (int)u, use);
        else
            snprintf(how, sizeof how,
                     "macro %s pastes the name %s together in the use of macro %.*s (%.*s)", by,
                     name, (int)m, t + off, (int)u, use);
        char advice[1024];
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        snprintf(why, sizeof why, "%s, so the name is not written out here and no rewrite "
                                  "can reach the call: rewrite this call by hand%s",
                 how, advice);
    }
    if (in_macro) {
        ok = false;
        snprintf(why, sizeof why, "%s is %s inside macro %s (an edit there would change "
                                  "every use of the macro): rewrite the macro by hand", name,
                 pasted ? "pasted into a name (##)" : "named", in_macro);
    }
    unsigned col, line = line_at(s, t, off, &col);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(name));
    json_object_object_add(o, "off", json_object_new_int64((int64_t)off));
    json_object_object_add(o, "line", json_object_new_int64(line));
    json_object_object_add(o, "col", json_object_new_int64(col));
    json_object_object_add(o, "call", json_object_new_boolean(call));
    json_object_object_add(o, "rename", ok ? json_object_new_string(target) : NULL);
    /* the file declaring it here ("": nothing does; none for a pasted
     * name: which it is, and so which include it needs, is not known) */
    if (!pasted)
        json_object_object_add(o, "decl", json_object_new_string(d && d->file ? d->file : ""));
    if (d && !pasted)
        json_object_object_add(o, "kind", json_object_new_string(d->kind));
    json_object_object_add(o, "why", json_object_new_string(ok ? "" : why));
    return o;
}

/* The end of the parenthesised text at t[open] (its ')' + 1), or n: t is
 * the file being read, n at most its end (paren_match.h: one pass over
 * the file answers every '(' it reads as code, unclosed ones too; a '('
 * it read as comment or literal text -- after a directive line skipped
 * unread whose comment runs on -- is scanned up to n, the range's end). */
static size_t paren_end(state *s, const char *t, size_t n, size_t open)
{
    if (t != s->text)
        return el_parens_scan(t, n, open);
    if (!s->parens)
        s->parens = el_parens_new(s->text, s->text_n);
    return el_parens_end(s->parens, n, open);
}

/* ---- the TU's macros over skipped text (macro_expand.c) ---- */

/* The expander's lookup: the TU's macro of that name, unless its uses are
 * given up (defined more than once, differently, or #undef'd: which one
 * holds at a use is not known here). */
static const em_macro *lookup_macro(void *ud, const char *name)
{
    lookup_ctx *l = ud;
    const decl_info *d = macro_of(l->ctx, l->s, name);
    /* (one the file defines after the use is none there) */
    if (!d || d->unsure || (d->file && !strcmp(d->file, l->path) && d->def_off > l->off))
        return NULL;
    return &d->m;
}

/* Expand the use in `use` alone, budgets reset; res: what it gives. */
static bool expand_use(el_ctx *ctx, state *s, const char *path, size_t off, const em_list *use,
                       em_list *res)
{
    s->look = (lookup_ctx){ctx, s, path, off};
    em_reset(&s->x);
    return em_expand(&s->x, use, res);
}

/* Is the name at off of the last macro use read one # made a string of
 * (and no more)? */
static bool stringized(const state *s, size_t off)
{
    for (size_t k = 0; k < s->n_strz; k++)
        if (s->strz[k] == off)
            return true;
    return false;
}

/* The names of the use [.., end) # made strings of, and that are no
 * tokens of what it gives (res) besides: noted, up to end. */
static void note_strings(state *s, const em_expander *x, const em_list *res, size_t end)
{
    s->n_strz = 0;
    s->use_end = end;
    for (size_t k = 0; k < x->n_strz; k++) {
        bool kept = false;
        for (size_t j = 0; j < res->n && !kept; j++)
            kept = res->v[j].origin == x->strz[k];
        if (kept || stringized(s, x->strz[k]))
            continue;
        el_grow(&s->strz, &s->cap_strz, s->n_strz + 1, sizeof *s->strz);
        s->strz[s->n_strz++] = x->strz[k];
    }
}

/* Does the use (a macro and its arguments) make `made`, a BLAS or LAPACK
 * routine without its Fortran underscore, by pasting the routine's
 * precision letters onto an argument (SCS's BLAS(gemv) of `#define
 * BLAS(x) d##x` is dgemv), and does the file not define it itself?  The
 * library's routine, as EH102 takes it in compiled code. */
static bool pasted_routine(el_ctx *ctx, state *s, const char *made, const em_list *use)
{
    if (!el_routine_alias_target(el_ctx_config(ctx), made) ||
        (s->own && el_own_names_own(s->own, made)))
        return false;
    for (size_t k = 1; k < use->n; k++)
        if (el_routine_pasted_from(made, use->v[k].s))
            return true;
    return false;
}

/* Does a name of the use's arguments name backend code? */
static bool names_backend(el_ctx *ctx, state *s, const char *path, const em_list *use)
{
    for (size_t k = 1; k < use->n; k++)
        if (el_text_ident_start(use->v[k].s[0]) && backend_name(ctx, s, path, use->v[k].s))
            return true;
    return false;
}

/* A use of macro m (`mname`, t[i..k), its '(' or the call's at t[p]) in
 * skipped code, expanded with the TU's macros:
 *   - M(x)(...), a call of the name it makes (F77_CALL(dgemm),
 *     BLAS(BLAS_PREFIX(gemm))): listed as pasted by M;
 *   - ALIAS(...) of an object-like macro that reaches a backend function
 *     (`#define dgesv F77_GLOBAL(dgesv, DGESV)`, lapack.h's LAPACK_dgesv):
 *     listed as a call of that function, through the macro;
 *   - any other use (not inside one read before): the names of its
 *     arguments it only makes strings of are noted (not listed).
 * The end of what was read when a call is listed, else 0. */
static size_t macro_call(el_ctx *ctx, state *s, const char *path, const char *t, size_t n,
                         size_t i, size_t k, size_t p, const decl_info *m, const char *mname,
                         json_object *ids, size_t *fold)
{
    em_list use = {0}, res = {0};
    size_t ret = 0;
    if (!s->x.lookup)
        em_init(&s->x, lookup_macro, &s->look);
    if (m->m.fn_like) {
        /* inside a use given up at a budget: so would this one be (a
         * tower is not expanded again at each of its uses) */
        if (i < s->plain_end) { /* only a call is looked at: is it one? */
            size_t e = el_text_skip_blanks(t, n, paren_end(s, t, n, p));
            if (!(e < n && t[e] == '('))
                return 0;
        }
        size_t close = i < s->fail_end ? 0 : em_lex_use(&s->x, t, n, i, k, p, &use);
        size_t after = close ? el_text_skip_blanks(t, n, close) : 0;
        bool called = close && after < n && t[after] == '(';
        /* a use not called is expanded for the names # makes strings of:
         * only when it has a backend name to find so (nor are the uses
         * in one that has none) */
        bool look = close && !called && i >= s->use_end && i >= s->plain_end;
        if (look && !names_backend(ctx, s, path, &use)) {
            s->plain_end = close;
            look = false;
        }
        bool ok = close && (called || look) && expand_use(ctx, s, path, i, &use, &res);
        if (close && !ok && s->x.exhausted)
            s->fail_end = close;
        if (ok) {
            const char *made = res.n == 1 && el_text_ident_start(res.v[0].s[0]) ? res.v[0].s
                                                                                 : NULL;
            bool routine = called && made && strcmp(made, mname) &&
                           pasted_routine(ctx, s, made, &use);
            if (called && made && strcmp(made, mname) &&
                (routine || backend_name(ctx, s, path, made))) {
                s->paster = res.v[0].by;
                s->routine_paste = routine;
                json_object *o = id_json(ctx, s, path, t, i, close - i, true, NULL, false, made,
                                         NULL);
                s->paster = NULL;
                s->routine_paste = false;
                if (o) {
                    json_object_array_add(ids, o);
                    size_t end = paren_end(s, t, n, after);
                    *fold = end > *fold ? end : *fold;
                }
                ret = close;
            } else if (i >= s->use_end) {
                note_strings(s, &s->x, &res, close);
            }
        }
    } else {
        em_add(&s->x, &use, t + i, k - i, i);
        if (expand_use(ctx, s, path, i, &use, &res) && res.n == 1 &&
            el_text_ident_start(res.v[0].s[0])) {
            /* the function it reaches: its own name when that is painted
             * blue (`#define dgetrf_ LAPACK_dgetrf`, lapack.h's
             * `#define LAPACK_dgetrf LAPACK_GLOBAL(dgetrf,DGETRF)`) */
            const char *r = res.v[0].s;
            bool same = !strcmp(r, mname);
            const decl_info *d = decl_of(ctx, s, r);
            bool fn = func_of(ctx, s, r) || (!d && !same);
            if (fn && backend_function(ctx, s, path, r)) {
                json_object *o = id_json(ctx, s, path, t, i, k - i, true, NULL, false,
                                         same ? NULL : r, mname);
                if (o) {
                    json_object_array_add(ids, o);
                    size_t end = paren_end(s, t, n, p);
                    *fold = end > *fold ? end : *fold;
                }
                ret = k;
            }
        }
    }
    em_list_free(&use);
    em_list_free(&res);
    em_release(&s->x);
    return ret;
}

/* Is the name at t[i] a member's (`data->cublas_handle`, `g->` and a
 * newline or a comment before it, `.cublas_handle = h`, `g2.cuda_device`)?
 * A field of the project's struct, which EH102 does not report where the
 * code is compiled.  Not the `f` of a number (`1.f`, `.5e3.f`: the token
 * before the `.` a pp-number), nor, in a C++ file, a trailing return type
 * (`auto f() -> cudaError_t`, `[]() -> cublasStatus_t`: `)` before the
 * `->`, and no `(` or `=` after the name, which `get()->fn(...)` and
 * `(*p)->handle = h` have).  b: the start of the skipped text; next: the
 * first character after the name and the blanks after it. */
static bool member_name(const char *t, size_t b, size_t i, char next, bool cxx)
{
    size_t q = el_text_back_blanks(t, b, i);
    if (q >= b + 2 && t[q - 1] == '>' && t[q - 2] == '-') {
        size_t r = el_text_back_blanks(t, b, q - 2);
        bool trailing_type = cxx && r > b && t[r - 1] == ')' && next != '(' && next != '=';
        return !trailing_type;
    }
    if (!(q > b && t[q - 1] == '.'))
        return false;
    if (q != i) /* `1. f` is no number */
        return true;
    size_t s = q - 1; /* the start of the token the '.' ends */
    while (s > b && (el_text_ident_char(t[s - 1]) || t[s - 1] == '.'))
        s--;
    bool number = isdigit((unsigned char)t[s]) ||
                  (t[s] == '.' && isdigit((unsigned char)t[s + 1]));
    return !number;
}

/* Lex the token at i (a backend name into ids); where the next starts.
 * b: the start of the skipped text (el_text_declared_at looks no further back);
 * *fold: the end of the arguments of the last backend call listed, where
 * a backend type, constant or macro is part of that call's site (as EH102
 * has it where the code is compiled: cblas_sgemm(CblasRowMajor, ...) is
 * one finding). */
static size_t lex_id(el_ctx *ctx, state *s, const char *path, const char *t, size_t n, size_t b,
                     size_t i, const char *in_macro, json_object *ids, size_t *fold)
{
    size_t j = el_text_skip_lexeme(t, n, i);
    if (j != i)
        return j;
    if (!el_text_ident_start(t[i]) || (i > 0 && el_text_ident_char(t[i - 1])))
        return i + 1;
    size_t k = i;
    while (k < n && el_text_ident_char(t[k]))
        k++;
    size_t p = k, q = i;
    while (p < n && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
        p++;
    while (q > 0 && (t[q - 1] == ' ' || t[q - 1] == '\t'))
        q--;
    bool pasted = in_macro && ((p + 1 < n && t[p] == '#' && t[p + 1] == '#') ||
                               (q >= 2 && t[q - 1] == '#' && t[q - 2] == '#'));
    bool call = p < n && t[p] == '(';
    if (member_name(t, b, i, p < n ? t[p] : '\0', el_path_is_cxx(path)))
        return k;
    /* a name a macro use around it makes a string of (STR(dgemm_) of
     * `#define STR(x) #x`) is no use of it */
    if (!in_macro && i < s->use_end && stringized(s, i))
        return k;
    /* a declaration alone uses nothing (EH102 reports none either) */
    if (call && !in_macro && el_text_declared_at(t, b, i))
        return k;
    if (!call && i < *fold)
        return k;
    if (call && !in_macro) {
        char mname[256];
        snprintf(mname, sizeof mname, "%.*s", (int)(k - i), t + i);
        const decl_info *m = macro_of(ctx, s, mname);
        size_t r = m ? macro_call(ctx, s, path, t, n, i, k, p, m, mname, ids, fold) : 0;
        if (r)
            return r;
    }
    json_object *o = id_json(ctx, s, path, t, i, k - i, call, in_macro, pasted, NULL, NULL);
    if (o)
        json_object_array_add(ids, o);
    if (o && call) {
        size_t end = paren_end(s, t, n, p);
        *fold = end > *fold ? end : *fold;
    }
    return k;
}

/* Lex one skipped range [b, e) of file (text t of size n). */
static json_object *range_json(el_ctx *ctx, state *s, const char *path, const char *t, size_t n,
                               size_t b, size_t e)
{
    json_object *ids = json_object_new_array(), *incs = json_object_new_array();
    size_t fold = 0;
    s->use_end = 0;
    s->fail_end = 0;
    s->plain_end = 0;
    s->n_strz = 0;
    for (size_t i = b; i < e;) {
        /* a directive: an include is noted, the others are not code */
        size_t ls = i;
        while (ls > b && (t[ls - 1] == ' ' || t[ls - 1] == '\t'))
            ls--;
        if (t[i] == '#' && (ls == 0 || t[ls - 1] == '\n' || ls == b)) {
            size_t le = el_text_line_end(t, n, i);
            bool angled = false;
            char *inc = include_of(t, i, le, &angled);
            if (inc && backend_include(ctx, path, inc, angled)) {
                json_object *o = json_object_new_object();
                json_object_object_add(o, "spelled", json_object_new_string(inc));
                json_object_object_add(o, "angled", json_object_new_boolean(angled));
                json_object_object_add(o, "off", json_object_new_int64((int64_t)i));
                json_object_object_add(o, "end", json_object_new_int64((int64_t)(le < n ? le + 1 : le)));
                unsigned col, line = line_at(s, t, i, &col);
                json_object_object_add(o, "line", json_object_new_int64(line));
                json_object_object_add(o, "col", json_object_new_int64(col));
                json_object_array_add(incs, o);
            }
            free(inc);
            /* a macro defined there may call a backend function in the
             * builds that compile it: listed, and its include kept */
            char macro[128];
            size_t body = el_text_define_body(t, i, le, macro, sizeof macro, NULL), fold_body = 0;
            for (size_t k = body; body && k < le;)
                k = lex_id(ctx, s, path, t, le, b, k, macro, ids, &fold_body);
            i = le;
            continue;
        }
        /* (e, not n: a call's parentheses are looked for up to the end
         * of the range, never past its #endif nor to the end of the file
         * for each unbalanced '(') */
        i = lex_id(ctx, s, path, t, e, b, i, NULL, ids, &fold);
    }
    if (!json_object_array_length(ids) && !json_object_array_length(incs)) {
        json_object_put(ids);
        json_object_put(incs);
        return NULL;
    }
    json_object *r = json_object_new_object();
    json_object_object_add(r, "path", json_object_new_string(path));
    json_object_object_add(r, "begin", json_object_new_int64((int64_t)b));
    json_object_object_add(r, "end", json_object_new_int64((int64_t)e));
    json_object_object_add(r, "line", json_object_new_int64(line_at(s, t, b, NULL)));
    json_object_object_add(r, "end_line", json_object_new_int64(line_at(s, t, e, NULL)));
    json_object_object_add(r, "ids", ids);
    json_object_object_add(r, "incs", incs);
    return r;
}

/* A word of C that names nothing a header declares. */
static bool c_keyword(const char *w, size_t n)
{
    static const char *const kw[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool", "_Alignof",
        "_Alignas", "_Static_assert", "_Thread_local", "_Noreturn", "_Generic", "defined",
        NULL};
    for (size_t k = 0; kw[k]; k++)
        if (strlen(kw[k]) == n && !strncmp(kw[k], w, n))
            return true;
    return false;
}

/* Every name the skipped range [b, e) of path uses -- whatever it names,
 * backend prefix or not, declared here or not (dev_make_array, which only
 * the backend header's own #ifdef GPU declares) -- once each, as one
 * EL_FACT_INACTIVE_NAMES: keywords, members (`p.out`, `g->n`), the words
 * of directives and comments and literals aside; a #define's body is
 * code. */
static void note_names(el_ctx *ctx, state *s, const char *path, const char *t, size_t n, size_t b,
                       size_t e)
{
    json_object *names = json_object_new_array();
    el_strmap seen = {0};
    for (size_t i = b; i < e && i < n;) {
        if (t[i] == '#' && el_text_directive_at(t, i)) {
            size_t le = el_text_line_end(t, n, i);
            char macro[128];
            size_t body = el_text_define_body(t, i, le, macro, sizeof macro, NULL);
            i = body ? body : le;
            continue;
        }
        size_t past = el_text_skip_lexeme(t, n, i), we = 0;
        if (past != i) {
            i = past;
            continue;
        }
        if (!el_text_ident_at(t, n, i, &we)) {
            i++;
            continue;
        }
        size_t q = el_text_back_blanks(t, b, i);
        bool member = (q > b && t[q - 1] == '.') ||
                      (q >= b + 2 && t[q - 1] == '>' && t[q - 2] == '-');
        char w[256];
        if (!member && we - i < sizeof w && !c_keyword(t + i, we - i)) {
            snprintf(w, sizeof w, "%.*s", (int)(we - i), t + i);
            if (!el_strmap_get(&seen, w)) {
                el_strmap_put(&seen, w, (void *)1);
                json_object *o = json_object_new_object();
                json_object_object_add(o, "name", json_object_new_string(w));
                json_object_object_add(o, "off", json_object_new_int64((int64_t)i));
                json_object_object_add(o, "line", json_object_new_int64(line_at(s, t, i, NULL)));
                json_object_array_add(names, o);
            }
        }
        i = we;
    }
    el_strmap_free(&seen);
    if (json_object_array_length(names)) {
        json_object *r = json_object_new_object();
        json_object_object_add(r, "path", json_object_new_string(path));
        json_object_object_add(r, "names", names);
        el_fact(ctx, EL_FACT_INACTIVE_NAMES,
                json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(r);
    } else {
        json_object_put(names);
    }
}

/* The skipped range [b, e) of path as one EL_FACT_INACTIVE (and its
 * names, EL_FACT_INACTIVE_NAMES). */
static void note_inactive(el_ctx *ctx, state *s, const char *path, const char *t, size_t n, size_t b,
                          size_t e)
{
    note_names(ctx, s, path, t, n, b, e);
    json_object *r = range_json(ctx, s, path, t, n, b, e);
    if (!r)
        return;
    el_fact(ctx, EL_FACT_INACTIVE,
            json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(r);
}

/* ---- a file the TU enters more than once --------------------------------- */

/* The offsets in a file at which the TU has cursors (the code some
 * entry into the file compiles), sorted. */
typedef struct file_offset {
    CXFile file;
    unsigned off;
} file_offset;

typedef struct compiled {
    CXFile file;
    size_t *off;
    size_t n, cap;
    file_offset *entry; /* each #include on the way into the file, every entry */
    size_t n_entry, cap_entry;
} compiled;

/* clang_getInclusions: the #include lines that lead into w->file. */
static void note_entry(CXFile included, CXSourceLocation *stack, unsigned len, CXClientData d)
{
    compiled *w = d;
    if (!clang_File_isEqual(included, w->file))
        return;
    for (unsigned i = 0; i < len; i++) {
        el_grow(&w->entry, &w->cap_entry, w->n_entry + 1, sizeof *w->entry);
        file_offset *e = &w->entry[w->n_entry++];
        e->file = NULL;
        clang_getExpansionLocation(stack[i], &e->file, NULL, NULL, &e->off);
    }
}

/* Is w->file entered inside cursor c, of another file: its extent ends in
 * the file, or holds an #include on the way into it (a function body
 * that includes the file: neither end of its extent is in it)?  The rest
 * of the TU (the system headers' declarations) is not walked. */
static bool enters_file(const compiled *w, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile bf = NULL, ef = NULL;
    unsigned b = 0, e = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &bf, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &e);
    if (ef && clang_File_isEqual(ef, w->file))
        return true;
    if (!bf || !ef || !clang_File_isEqual(bf, ef))
        return true; /* (an extent across files: looked into) */
    for (size_t i = 0; i < w->n_entry; i++)
        if (w->entry[i].file && clang_File_isEqual(w->entry[i].file, bf) && b <= w->entry[i].off &&
            w->entry[i].off <= e)
            return true;
    return false;
}

static enum CXChildVisitResult compiled_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    compiled *w = d;
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
    if (!f || !clang_File_isEqual(f, w->file))
        return enters_file(w, c) ? CXChildVisit_Recurse : CXChildVisit_Continue;
    el_grow(&w->off, &w->cap, w->n + 2, sizeof *w->off);
    w->off[w->n++] = off;
    /* a macro's argument is compiled where it is spelled (CHECK(\n
     * cblas_dswap(...)) has the call on the next line) */
    CXFile sf = NULL;
    unsigned soff = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &sf, NULL, NULL, &soff);
    if (sf && soff != off && clang_File_isEqual(sf, w->file))
        w->off[w->n++] = soff;
    return CXChildVisit_Recurse;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Does some cursor lie inside (b, e)? */
static bool compiled_in(const compiled *c, size_t b, size_t e)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->off[mid] <= b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n && c->off[lo] < e;
}

/* One more span "a-b" of an EL_FACT_INACTIVE_READ value ("PATH\tS:" so
 * far). */
static void add_span_text(el_buf *b, size_t lo, size_t hi)
{
    el_buf_printf(b, "%s%zu-%zu", b->s[b->n - 1] == ':' ? "" : ",", lo, hi);
}

/* The EL_FACT_INACTIVE_READ of a file whose skipped ranges are all the
 * [sb[i], se[i]) (none when k is 0). */
static void note_read(el_ctx *ctx, CXFile file, const size_t *sb, const size_t *se, size_t k,
                      size_t n)
{
    const char *path = el_file_path(ctx, file);
    if (!path)
        return;
    el_buf b = {0};
    el_buf_printf(&b, "%s\tS:", path);
    for (size_t i = 0; i < k; i++)
        if (sb[i] < se[i] && se[i] <= n)
            add_span_text(&b, sb[i], se[i]);
    el_fact(ctx, EL_FACT_INACTIVE_READ, b.s);
    el_buf_free(&b);
}

/* The lines of a file the TU entered more than once that hold a cursor
 * (sorted offsets in done), as byte ranges from a line's start to its
 * end: what some entry compiled.  A skipped region is whole lines, so a
 * line with a name in code that compiles has its cursor. */
static void note_compiled_lines(el_ctx *ctx, CXFile file, const char *text, size_t n,
                                const compiled *done)
{
    const char *path = el_file_path(ctx, file);
    if (!path)
        return;
    el_buf b = {0};
    el_buf_printf(&b, "%s\tC:", path);
    size_t first = 0, last = 0;
    bool open = false;
    for (size_t i = 0; i < done->n; i++) {
        size_t at = done->off[i] < n ? done->off[i] : n;
        size_t start = at, end = at;
        while (start > 0 && text[start - 1] != '\n')
            start--;
        while (end < n && text[end] != '\n')
            end++;
        if (open && start <= last + 1) {
            last = end > last ? end : last;
            continue;
        }
        if (open)
            add_span_text(&b, first, last);
        first = start;
        last = end;
        open = true;
    }
    if (open)
        add_span_text(&b, first, last);
    el_fact(ctx, EL_FACT_INACTIVE_READ, b.s);
    el_buf_free(&b);
}

/* A library's name, by the configuration (own_names.h). */
static bool library_name(const char *name, void *ud)
{
    el_ctx *ctx = ud;
    const el_config *cfg = el_ctx_config(ctx);
    char be[64];
    return el_backend_of_symbol(cfg, name, be, sizeof be) || el_backend_prefix_of(cfg, name, true);
}

/* The conditional directive at t[i] (a '#' that starts a directive):
 * 1 for #if/#ifdef/#ifndef, 2 for #elif/#elifdef/#elifndef/#else, 3 for
 * #endif, 0 for another directive. */
static int conditional_at(const char *t, size_t n, size_t i)
{
    i++;
    while (i < n && (t[i] == ' ' || t[i] == '\t'))
        i++;
    size_t e = i;
    while (e < n && el_text_ident_char(t[e]))
        e++;
    size_t len = e - i;
    const char *w = t + i;
    if ((len == 2 && !strncmp(w, "if", 2)) || (len == 5 && !strncmp(w, "ifdef", 5)) ||
        (len == 6 && !strncmp(w, "ifndef", 6)))
        return 1;
    if ((len == 4 && (!strncmp(w, "elif", 4) || !strncmp(w, "else", 4))) ||
        (len == 7 && !strncmp(w, "elifdef", 7)) || (len == 8 && !strncmp(w, "elifndef", 8)))
        return 2;
    return len == 5 && !strncmp(w, "endif", 5) ? 3 : 0;
}

static void read_arms(el_ctx *ctx, state *s, const char *path, const char *t, size_t n,
                      size_t b, size_t e, const compiled *done, bool past_opening);

/* The arm t[a..z) of an #if nested in text some entry compiles, opened
 * by the directive at t[d]: skipped
 * code when no entry has a cursor in it (read as a range of its own), else
 * the arms nested in it are looked at in turn. */
static void read_arm(el_ctx *ctx, state *s, const char *path, const char *t, size_t n, size_t d,
                     size_t a, size_t z, const compiled *done)
{
    if (a >= z)
        return;
    /* (a cursor at the arm's first byte counts: compiled_in looks past b) */
    if (compiled_in(done, a ? a - 1 : 0, z)) {
        read_arms(ctx, s, path, t, n, a, z, done, false);
        return;
    }
    /* (from the directive at d that opens it, as libclang's ranges are) */
    note_inactive(ctx, s, path, t, n, d, z);
}

/* A range of a file the TU entered more than once that the first entry
 * skipped and another entry compiles (primme's cublas_wrapper.c: the
 * file's main entry skips its whole `#ifdef SUPPORTED_TYPE` body, which
 * each element type's entry compiles): libclang gives no ranges of the
 * later entries, so the #if arms nested in it that no entry compiles --
 * no cursor of the TU lies in them (`#ifdef USE_CUBLAS` there) -- are
 * read as skipped code.  past_opening: t[b..] starts with the directive
 * that opened the range. */
static void read_arms(el_ctx *ctx, state *s, const char *path, const char *t, size_t n,
                      size_t b, size_t e, const compiled *done, bool past_opening)
{
    size_t i = b;
    if (past_opening) {
        while (i < e && (t[i] == ' ' || t[i] == '\t'))
            i++;
        if (i < e && t[i] == '#')
            i = el_text_line_end(t, n, i) + 1;
    }
    int depth = 0;
    size_t arm = 0, dir = 0;
    /* a depth-0 #elif/#else: the range holds the rest of the chain (the
     * first entry took an earlier arm), each arm after it read as one
     * (read_arm reads its nested arms) */
    bool sibling = false;
    size_t sdir = 0, sarm = 0;
    while (i < e) {
        if (el_text_directive_at(t, i)) {
            size_t le = el_text_line_end(t, n, i);
            int c = conditional_at(t, n, i);
            size_t ls = i;
            while (ls > 0 && t[ls - 1] != '\n')
                ls--;
            if (c == 1) {
                if (depth++ == 0) {
                    dir = ls;
                    arm = le + 1;
                }
            } else if (c == 2 || c == 3) {
                if (depth == 0) {
                    if (sibling)
                        read_arm(ctx, s, path, t, n, sdir, sarm, ls, done);
                    sibling = c == 2;
                    if (!sibling)
                        break; /* the chain's #endif */
                    sdir = ls;
                    sarm = le + 1;
                    i = le + 1;
                    continue;
                }
                if (depth == 1 && !sibling)
                    read_arm(ctx, s, path, t, n, dir, arm, ls, done);
                if (c == 3)
                    depth--;
                else if (depth == 1) {
                    dir = ls;
                    arm = le + 1;
                }
            }
            i = le + 1;
            continue;
        }
        size_t j = el_text_skip_lexeme(t, n, i);
        i = j > i ? j : i + 1;
    }
    if (sibling)
        read_arm(ctx, s, path, t, n, sdir, sarm, e < n ? e : n, done);
}

/* The #define and #undef lines of file `path` (text t, compiled or
 * skipped): a macro the TU defines that is #undef'd, or defined here
 * otherwise (in an arm the preprocessor skipped), is not followed. */
static void note_directives(el_ctx *ctx, state *s, const char *path, const char *t, size_t n)
{
    if (!s->x.lookup)
        em_init(&s->x, lookup_macro, &s->look);
    for (size_t a = 0; a < n; a++) {
        if (t[a] != '#' || !el_text_directive_at(t, a))
            continue;
        size_t w = el_text_skip_blanks(t, n, a + 1), we = w;
        while (we < n && el_text_ident_char(t[we]))
            we++;
        bool undef = we - w == 5 && !strncmp(t + w, "undef", 5);
        if (!undef && !(we - w == 6 && !strncmp(t + w, "define", 6)))
            continue;
        size_t nb = el_text_skip_blanks(t, n, we), ne = nb;
        while (ne < n && el_text_ident_char(t[ne]))
            ne++;
        char name[256];
        if (ne == nb || ne - nb >= sizeof name)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(ne - nb), t + nb);
        index_tu(ctx, s);
        decl_info *d = el_strmap_get(&s->macros, name);
        if (!d || d->unsure)
            continue;
        if (undef) {
            d->unsure = true;
            continue;
        }
        if (d->file && !strcmp(d->file, path) && d->def_off == nb)
            continue; /* the definition the TU has */
        /* the line's end, past its continuations */
        size_t le = ne;
        while (le < n && t[le] != '\n')
            le += t[le] == '\\' && le + 1 < n && t[le + 1] == '\n' ? 2 : 1;
        em_list body = {0};
        em_lex(&s->x, t + ne, le - ne, &body);
        bool same = d->m.fn_like == (ne < n && t[ne] == '(') && body.n == d->m.n_tok;
        for (size_t k = 0; same && k < body.n; k++)
            same = !strcmp(body.v[k].s, d->m.tok[k]);
        d->unsure |= !same;
        em_list_free(&body);
        em_release(&s->x);
    }
}

static void on_file(el_ctx *ctx, void *st, CXFile file)
{
    state *s = st;
    CXTranslationUnit tu = el_tu(ctx);
    bool again = el_tu_entered_again(ctx, file);
    CXSourceRangeList *l = clang_getSkippedRanges(tu, file);
    if (!l || l->count == 0) {
        /* (the first entry skipped nothing: the TU compiles all of it) */
        note_read(ctx, file, NULL, NULL, 0, 0);
        clang_disposeSourceRangeList(l);
        return;
    }
    size_t n = 0;
    const char *t = clang_getFileContents(tu, file, &n);
    char name[PATH_MAX];
    elc_file_name(file, name, sizeof name);
    char *real = realpath(name, NULL);
    size_t *sb = el_xcalloc(l->count + 1, sizeof *sb), *se = el_xcalloc(l->count + 1, sizeof *se);
    for (unsigned i = 0; i < l->count; i++) {
        unsigned b = 0, e = 0;
        clang_getSpellingLocation(clang_getRangeStart(l->ranges[i]), NULL, NULL, NULL, &b);
        clang_getSpellingLocation(clang_getRangeEnd(l->ranges[i]), NULL, NULL, NULL, &e);
        sb[i] = b;
        se[i] = e;
    }
    /* libclang gives the ranges the first entry into a file skipped; a
     * template that includes itself (`#ifndef GEN_FILE ... #else body
     * #endif`) skips its body there and compiles it in the later ones:
     * what any entry compiles is not skipped code */
    compiled done = {file, NULL, 0, 0, NULL, 0, 0};
    if (t && real && again && elc_tu_whole(tu)) {
        clang_getInclusions(tu, note_entry, &done);
        clang_visitChildren(clang_getTranslationUnitCursor(tu), compiled_visit, &done);
        if (done.n)
            qsort(done.off, done.n, sizeof *done.off, cmp_size);
        note_compiled_lines(ctx, file, t, n, &done);
    } else if (t && !again) {
        note_read(ctx, file, sb, se, l->count, n);
    }
    s->text = t;
    s->text_n = n;
    if (t && real)
        note_directives(ctx, s, real, t, n);
    s->own = t && real ? el_own_names_new(t, n, sb, se, l->count, done.off, done.n, library_name, ctx) : NULL;
    for (unsigned i = 0; t && real && i < l->count; i++) {
        size_t b = sb[i], e = se[i];
        if (b >= e || e > n)
            continue;
        if (compiled_in(&done, b, e)) {
            read_arms(ctx, s, real, t, n, b, e, &done, true);
            continue;
        }
        note_inactive(ctx, s, real, t, n, b, e);
    }
    el_own_names_free(s->own);
    s->own = NULL;
    el_parens_free(s->parens);
    s->parens = NULL;
    if (s->have_lines)
        el_line_index_free(&s->lines);
    s->have_lines = false;
    s->text = NULL;
    free(sb);
    free(se);
    free(done.off);
    free(done.entry);
    free(real);
    clang_disposeSourceRangeList(l);
}

static void free_decl(decl_info *d)
{
    free_tokens(d);
    free(d->file);
    free(d);
}

static void end(el_ctx *ctx, void *st)
{
    (void)ctx;
    state *s = st;
    for (size_t i = 0; i < s->n_all; i++)
        free_decl(s->all[i]);
    free(s->all);
    el_strmap_free(&s->decls);
    el_strmap_free(&s->macros);
    el_strmap_free(&s->funcs);
    el_strmap_each(&s->decl_files, free_decl_file, NULL);
    el_strmap_free(&s->decl_files);
    free(s->strz);
    el_parens_free(s->parens);
    em_free(&s->x);
    el_rewriter_free(s->rw);
}

const el_rule el_inactive_rule = {
    .id = "el-inactive",
    .state_size = sizeof(state),
    .on_file = on_file,
    .end = end,
};

/* ---- reading the facts --------------------------------------------------------- */

static const char *jstr(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

static int64_t jint(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : 0;
}

static json_object *jarr(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_array) ? v
                                                                                       : NULL;
}

/* "PATH\tS:b-e,b-e" or "PATH\tC:b-e,..." (EL_FACT_INACTIVE_READ). */
static void add_read(el_inactive *out, const char *value)
{
    const char *tab = strchr(value, '\t');
    if (!tab || (tab[1] != 'S' && tab[1] != 'C') || tab[2] != ':')
        return;
    el_grow(&out->reads, &out->cap_reads, out->n_reads + 1, sizeof *out->reads);
    el_inactive_read *r = &out->reads[out->n_reads++];
    *r = (el_inactive_read){el_xstrndup(value, (size_t)(tab - value)), tab[1] == 'C', NULL, 0};
    size_t cap = 0;
    for (const char *p = tab + 3; *p;) {
        char *end = NULL;
        unsigned long a = strtoul(p, &end, 10), b = 0;
        if (end == p || *end != '-')
            break;
        p = end + 1;
        b = strtoul(p, &end, 10);
        if (end == p)
            break;
        el_grow(&r->spans, &cap, 2 * r->n_spans + 2, sizeof *r->spans);
        r->spans[2 * r->n_spans] = a;
        r->spans[2 * r->n_spans + 1] = b;
        r->n_spans++;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',')
            break;
    }
}

static void add_range(el_inactive *out, json_object *o)
{
    const char *path = jstr(o, "path");
    if (!path)
        return;
    size_t b = (size_t)jint(o, "begin"), e = (size_t)jint(o, "end");
    for (size_t i = 0; i < out->n; i++)
        if (out->v[i].begin == b && out->v[i].end == e && !strcmp(out->v[i].path, path))
            return;
    el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
    el_inactive_range *r = &out->v[out->n++];
    memset(r, 0, sizeof *r);
    r->path = el_xstrdup(path);
    r->begin = b;
    r->end = e;
    r->line = (unsigned)jint(o, "line");
    r->end_line = (unsigned)jint(o, "end_line");
    json_object *ids = jarr(o, "ids"), *incs = jarr(o, "incs");
    size_t ni = ids ? json_object_array_length(ids) : 0;
    r->ids = el_xcalloc(ni + 1, sizeof *r->ids);
    for (size_t i = 0; i < ni; i++) {
        json_object *x = json_object_array_get_idx(ids, i);
        el_inactive_id *d = &r->ids[r->n_ids++];
        const char *rename = jstr(x, "rename"), *why = jstr(x, "why");
        json_object *call = NULL;
        d->name = el_xstrdup(jstr(x, "name") ? jstr(x, "name") : "");
        d->off = (size_t)jint(x, "off");
        d->line = (unsigned)jint(x, "line");
        d->col = (unsigned)jint(x, "col");
        d->call = json_object_object_get_ex(x, "call", &call) && json_object_get_boolean(call);
        d->rename = rename ? el_xstrdup(rename) : NULL;
        d->why = el_xstrdup(why ? why : "");
        const char *decl = jstr(x, "decl"), *kind = jstr(x, "kind");
        d->decl = decl ? el_xstrdup(decl) : NULL; /* NULL: not known (a pasted name) */
        d->kind = kind ? el_xstrdup(kind) : NULL;
    }
    size_t nc = incs ? json_object_array_length(incs) : 0;
    r->incs = el_xcalloc(nc + 1, sizeof *r->incs);
    for (size_t i = 0; i < nc; i++) {
        json_object *x = json_object_array_get_idx(incs, i);
        el_inactive_inc *c = &r->incs[r->n_incs++];
        c->spelled = el_xstrdup(jstr(x, "spelled") ? jstr(x, "spelled") : "");
        json_object *ang = NULL;
        c->angled = json_object_object_get_ex(x, "angled", &ang) && json_object_get_boolean(ang);
        c->off = (size_t)jint(x, "off");
        c->end = (size_t)jint(x, "end");
        c->line = (unsigned)jint(x, "line");
        c->col = (unsigned)jint(x, "col");
        if (!c->col)
            c->col = 1;
    }
}

/* {"path", "names": [...]} (EL_FACT_INACTIVE_NAMES), each name at its
 * offset once. */
static void add_names(el_inactive *out, json_object *o)
{
    const char *path = jstr(o, "path");
    json_object *names = jarr(o, "names");
    size_t nn = names ? json_object_array_length(names) : 0;
    for (size_t i = 0; path && i < nn; i++) {
        json_object *x = json_object_array_get_idx(names, i);
        const char *name = jstr(x, "name");
        size_t off = (size_t)jint(x, "off");
        if (!name)
            continue;
        char *key = el_xasprintf("%zu\t%s", off, path);
        bool have = el_strmap_get(&out->names_seen, key) != NULL;
        if (!have)
            el_strmap_put(&out->names_seen, key, (void *)1);
        free(key);
        if (have)
            continue;
        el_grow(&out->names, &out->cap_names, out->n_names + 1, sizeof *out->names);
        out->names[out->n_names++] = (el_inactive_name){el_xstrdup(path), el_xstrdup(name), off,
                                                        (unsigned)jint(x, "line")};
    }
}

void el_inactive_from_facts(el_inactive *out, const el_fact_list *facts)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < facts->n; i++) {
        const el_fact_rec *f = &facts->v[i];
        if (strcmp(f->key, EL_FACT_INACTIVE_READ) == 0) {
            add_read(out, f->value);
            continue;
        }
        if (strcmp(f->key, EL_FACT_INACTIVE_NAMES) == 0) {
            json_object *o = json_tokener_parse(f->value);
            if (o)
                add_names(out, o);
            json_object_put(o);
            continue;
        }
        if (strcmp(f->key, EL_FACT_INACTIVE) != 0)
            continue;
        json_object *o = json_tokener_parse(f->value);
        if (o)
            add_range(out, o);
        json_object_put(o);
    }
}

static bool read_compiles(const el_inactive_read *r, size_t off)
{
    for (size_t i = 0; i < r->n_spans; i++) {
        size_t a = r->spans[2 * i], b = r->spans[2 * i + 1];
        if (r->compiled ? (off >= a && off <= b) : (off > a && off < b))
            return r->compiled;
    }
    return !r->compiled;
}

bool el_inactive_compiled(const el_inactive *in, const char *path, size_t off)
{
    for (size_t i = 0; i < in->n_reads; i++)
        if (!strcmp(in->reads[i].path, path) && read_compiles(&in->reads[i], off))
            return true;
    return false;
}

const el_inactive_range *el_inactive_at(const el_inactive *in, const char *path, size_t begin,
                                        size_t end)
{
    for (size_t i = 0; in && i < in->n; i++) {
        const el_inactive_range *r = &in->v[i];
        if (strcmp(r->path, path) != 0)
            continue;
        if (begin == end ? (begin > r->begin && begin < r->end)
                         : (begin < r->end && r->begin < end))
            return r;
    }
    return NULL;
}

char *el_inactive_blocks(const el_inactive *in, const char *rule, const el_fix *fx)
{
    if (!in || !fx)
        return NULL;
    /* (text one TU skips and another compiles is checked where it compiles:
     * a template parsed alone skips its whole body) */
    for (size_t i = 0; i < fx->edits.n; i++) {
        const el_edit *e = &fx->edits.v[i];
        const el_inactive_range *r = el_inactive_at(in, e->path, e->begin, e->end);
        if (r && !(el_inactive_compiled(in, e->path, e->begin) &&
                   el_inactive_compiled(in, e->path, e->end)))
            return el_xasprintf("it would edit lines %u-%u, which the preprocessor skips in "
                                "this configuration", r->line, r->end_line);
    }
    if (strcmp(rule, "EH101") != 0 || !fx->edits.n)
        return NULL;
    const char *path = fx->edits.v[0].path;
    for (size_t i = 0; i < in->n; i++) {
        const el_inactive_range *r = &in->v[i];
        if (strcmp(r->path, path) != 0)
            continue;
        for (size_t k = 0; k < r->n_ids; k++)
            if (!el_inactive_compiled(in, path, r->ids[k].off))
                return el_xasprintf("the include is still needed by code the preprocessor skips "
                                    "in this configuration: line %u uses %s", r->ids[k].line,
                                    r->ids[k].name);
    }
    return NULL;
}

void el_inactive_free(el_inactive *in)
{
    for (size_t i = 0; i < in->n; i++) {
        el_inactive_range *r = &in->v[i];
        free(r->path);
        for (size_t k = 0; k < r->n_ids; k++) {
            free(r->ids[k].name);
            free(r->ids[k].rename);
            free(r->ids[k].why);
            free(r->ids[k].decl);
            free(r->ids[k].kind);
        }
        free(r->ids);
        for (size_t k = 0; k < r->n_incs; k++)
            free(r->incs[k].spelled);
        free(r->incs);
    }
    free(in->v);
    for (size_t i = 0; i < in->n_reads; i++) {
        free(in->reads[i].path);
        free(in->reads[i].spans);
    }
    free(in->reads);
    for (size_t i = 0; i < in->n_names; i++) {
        free(in->names[i].path);
        free(in->names[i].name);
    }
    free(in->names);
    el_strmap_free(&in->names_seen);
    memset(in, 0, sizeof *in);
}
