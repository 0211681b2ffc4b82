/* lint/rules/backend_include.c -- EH101 backend-include: frontend code
 * includes a backend-private header: a file under a backend directory
 * (backends/<name>/) or a legacy backend directory (legacy_backend_dirs:
 * ops/<name>/), or a header the configuration lists in backend_headers
 * (<eh/backend_api.h>, <cblas.h>, <lapacke.h>, <fftw3.h>, CUDA
 * headers...).  Matched on the name as written and on the file it
 * resolves to, so "../backends/blas/blas.h", a missing CUDA header and a
 * path through another -I directory are all seen.  A file of a legacy
 * backend directory including a header of the same directory is that
 * backend's own code (EH104 reports it): not a finding.
 *
 * The fix: the directive becomes the frontend's include
 * (el_frontend_include: the project's "frontend_include", or <eh/eh.h>
 * where the TU uses libeh), once per file -- when the file already
 * includes it (before any code), or another fixed backend include
 * carries it, or there is no frontend include, the directive's line is
 * removed.  It
 * exists when nothing the file still references is declared only in
 * that header or in files reached only through it, counting the callees
 * of calls EH102 rewrites (and the functions it renames where they are
 * named without a call) as gone, and what a call template leaves out of
 * its text (the layout and transposes in the arguments of a templated
 * cblas call: dropped()); its safety is the worst of those
 * rewrites (safe when it relies on none), unsafe too when the file has
 * code the preprocessor skipped (it could use the header) or is a header
 * (other TUs include it).  What the file's other includes bring counts as
 * kept, but not through another backend include (it may go too, or sit in
 * an #if); a header's include counts the references of every linted file
 * of the TU (the header's macros may name what it brings).  One directive
 * per file carries the <eh/eh.h> text -- the first with a safe fix, else
 * the first -- and every fix of the file includes that edit (identical
 * edits count once), so --fix and --unsafe-fixes both leave exactly one. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "mem.h"
#include "omp_pragma.h"
#include "own_backend_include.h"
#include "path.h"
#include "config.h"
#include "language.h"
#include "rewrite.h"
#include "rule.h"
#include "separation.h"

#define RULE "EH101"

typedef struct inc {
    CXCursor cur;
    CXFile file;              /* the including file */
    CXFile target;            /* what it includes (NULL: not found) */
    unsigned begin, end;      /* the directive: '#' to the end of the name */
    unsigned line_begin, line_end; /* its whole line, newline included */
    bool line_ok;             /* nothing else on the line that could not go */
    bool fixable;
    el_fix_safety safety;
    char spelled[PATH_MAX];
    char msg[PATH_MAX + 256];
    unsigned file_id, target_id; /* (end: graph) */
} inc;

typedef struct edge {
    CXFile from, to;
    unsigned offset;          /* of the directive in `from` */
    bool eh_h;                /* spelled eh/eh.h */
    bool backend;             /* one of the backend includes (end: graph) */
    unsigned from_id, to_id;  /* (end: graph) */
} edge;

typedef struct ref {
    CXFile file;              /* where the reference is */
    unsigned offset;
    CXFile decl[2];           /* files declaring what it names (NULL: none) */
    el_fix_safety rewritten;  /* a callee whose call is rewritten: its safety */
    bool ask_rewrite;         /* rewritten is not worked out yet (rewritten()) */
    CXCursor use, call;       /* the reference and its call (or a null cursor) */
    el_call_rewrite *tpl;     /* the call's rewrite when a template makes it
                               * (what it drops: dropped()), else NULL */
    bool extent_known;        /* call_begin, call_end are set (dropped()) */
    unsigned call_begin, call_end; /* the call's extent in `file` */
    unsigned file_id, decl_id[2]; /* (end: graph) */
} ref;

/* The calls of one file by extent (dropped()): the refs with a call,
 * ordered by (call_begin, longer first, index); parent[k] is the position
 * of the nearest call enclosing order[k] (NO_PARENT: none).  Extents of a
 * file's calls nest; when two overlap without nesting, nested is false and
 * dropped() scans them all, as it did before the index. */
#define NO_PARENT SIZE_MAX

typedef struct call_at {
    unsigned begin, end;      /* the call's extent */
    size_t ref;               /* its index in s->refs */
} call_at;

typedef struct call_index {
    unsigned file_id;
    call_at *order;
    size_t *parent;
    size_t n;
    bool nested;
} call_index;

/* An include asked about (backend_private). */
typedef struct asked {
    CXFile target;
    char *spelled;
    bool yes;
} asked;

typedef struct state {
    asked *asked;
    size_t n_asked, cap_asked;
    inc *incs;
    size_t n_incs, cap_incs;
    edge *edges;
    size_t n_edges, cap_edges;
    ref *refs;
    size_t n_refs, cap_refs;
    CXFile eh_h;              /* the frontend include as this TU resolves it, or NULL */
    unsigned eh_h_id;         /* (end: graph) */
    CXFile main;              /* the TU's main file */
    const char *front;        /* the frontend include ("eh/eh.h"), or NULL */
    bool front_known;         /* front is set (front_include) */
    bool edges_only;          /* the scan of every file's directives (end) */
    el_rewriter *rw;
    /* The walk gives the preprocessing cursors first, in the order the
     * preprocessor met them: the directives seen (a header included twice
     * has them once, as clang_findIncludesInFile gave them) and the macro
     * uses met before the last directive, whose files may have backend
     * includes further down (read once the directives are all in). */
    edge *directives;
    size_t n_directives, cap_directives;
    CXCursor *early;
    size_t n_early, cap_early;
    bool directives_done;
    call_index *calls;        /* by file, as dropped() needs them */
    size_t n_calls, cap_calls;
} state;

static const enum CXCursorKind kinds[] = {
    CXCursor_DeclRefExpr, CXCursor_TypeRef, CXCursor_MemberRefExpr, CXCursor_MacroExpansion,
    CXCursor_InclusionDirective, EL_KINDS_END,
};

static unsigned offset_of(CXSourceLocation loc, CXFile *f)
{
    unsigned off = 0;
    clang_getExpansionLocation(loc, f, NULL, NULL, &off);
    return off;
}

/* ---- the directives (begin) ------------------------------------------------ */

/* The line of the directive [begin, end): removable when only blanks
 * precede it and only blanks or comments closed on the line follow. */
static void find_line(el_ctx *ctx, inc *x)
{
    size_t size = 0;
    const char *t = el_file_text(ctx, x->file, &size);
    x->line_ok = false;
    if (!t || x->end > size || x->begin >= x->end || t[x->begin] != '#')
        return;
    unsigned b = x->begin;
    while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
        b--;
    if (b > 0 && t[b - 1] != '\n')
        return;
    size_t i = x->end;
    for (;;) {
        while (i < size && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r'))
            i++;
        if (i + 1 < size && t[i] == '/' && t[i + 1] == '/') {
            while (i < size && t[i] != '\n')
                i++;
            if (i > 0 && t[i - 1] == '\\')
                return;
        } else if (i + 1 < size && t[i] == '/' && t[i + 1] == '*') {
            size_t k = i + 2;
            while (k + 1 < size && !(t[k] == '*' && t[k + 1] == '/') && t[k] != '\n')
                k++;
            if (k + 1 >= size || t[k] != '*')
                return; /* a comment that goes on past the line */
            i = k + 2;
        } else {
            break;
        }
    }
    if (i < size && t[i] != '\n')
        return;
    x->line_begin = b;
    x->line_end = (unsigned)(i < size ? i + 1 : i);
    x->line_ok = true;
}

/* f is a header others may include: the main file is one only when it
 * is parsed on its own. */
static bool is_header(el_ctx *ctx, const state *s, CXFile f)
{
    return !s->main || !clang_File_isEqual(f, s->main) || el_main_is_header(ctx);
}

/* The frontend include (el_frontend_include), asked when first needed:
 * the answer reads the TU's inclusions (~300 000 instructions), and most
 * TUs have no backend include. */
static const char *front_include(el_ctx *ctx, state *s)
{
    if (!s->front_known) {
        s->front = el_frontend_include(ctx);
        s->front_known = true;
    }
    return s->front;
}

static void add_include(el_ctx *ctx, state *s, CXCursor c, CXFile file, CXFile target,
                        const char *spelled, const char *real)
{
    const el_config *cfg = el_ctx_config(ctx);
    char backend[64] = "";
    /* a legacy backend directory's file including its own header */
    if (el_same_legacy_backend(cfg, real, el_file_path(ctx, file)))
        return;
    inc *v = sep_grow(s->incs, &s->cap_incs, s->n_incs, sizeof *v);
    if (!v)
        return;
    s->incs = v;
    inc *x = &s->incs[s->n_incs++];
    memset(x, 0, sizeof *x);
    x->cur = c;
    x->file = file;
    x->target = target;
    snprintf(x->spelled, sizeof x->spelled, "%s", spelled);
    char dir[256], instead[PATH_MAX + 64] = "";
    if (front_include(ctx, s))
        snprintf(instead, sizeof instead, "; include <%s> and call %s instead", s->front,
                 cfg->frontend_include_from.builtin ? "ops" : "its API");
    if (real && el_classify_path(ctx, real, backend, sizeof backend) == EL_FILE_BACKEND) {
        /* the backend's directory; a backend of single files (or one
         * without a directory): the header itself */
        const char *place = el_backend_dir(ctx, backend, dir, sizeof dir);
        size_t pl = strlen(place);
        char *shown = pl && place[pl - 1] == '/' ? NULL : el_path_display(real);
        snprintf(x->msg, sizeof x->msg, "frontend code includes '%s', a header of backend '%s' "
                 "(%s)%s", spelled, backend, shown ? shown : place, instead);
        free(shown);
    } else if (real && el_config_legacy_backend(cfg, real, backend, sizeof backend))
        snprintf(x->msg, sizeof x->msg, "frontend code includes '%s', a header of backend '%s' "
                 "outside %s (a legacy backend directory)%s", spelled, backend,
                 el_backend_dir(ctx, backend, dir, sizeof dir), instead);
    else
        snprintf(x->msg, sizeof x->msg, "frontend code includes backend-private header '%s'%s",
                 spelled, instead);
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    x->begin = offset_of(clang_getRangeStart(r), &f1);
    x->end = offset_of(clang_getRangeEnd(r), &f2);
    if (f1 && f2 && clang_File_isEqual(f1, file) && clang_File_isEqual(f2, file))
        find_line(ctx, x);
}

/* Is the include of `spelled`, resolving to target (path real), backend
 * private: a backend header, or a file of a legacy backend directory?  The
 * answer depends on those alone, and the linted files of a TU include the
 * same headers again and again (~24,000 instructions a question): it is
 * kept per TU. */
static bool backend_private(el_ctx *ctx, state *s, const char *spelled, CXFile target,
                            const char *real)
{
    for (size_t i = 0; i < s->n_asked; i++)
        if (s->asked[i].target == target && strcmp(s->asked[i].spelled, spelled) == 0)
            return s->asked[i].yes;
    bool yes = el_include_is_backend_private(el_ctx_config(ctx), spelled, real);
    asked *v = sep_grow(s->asked, &s->cap_asked, s->n_asked, sizeof *v);
    if (v) {
        s->asked = v;
        s->asked[s->n_asked++] = (asked){target, el_xstrdup(spelled), yes};
    }
    return yes;
}

static enum CXChildVisitResult scan_directive(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (!clang_isPreprocessing(kind))
        return CXChildVisit_Break; /* the declarations: ELC_PREPROCESSING_FIRST */
    if (kind != CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    el_ctx *ctx = ((void **)d)[0];
    state *s = ((void **)d)[1];
    CXFile file = NULL;
    unsigned off = offset_of(clang_getCursorLocation(c), &file);
    if (!file || (!s->edges_only && !el_applies_to(ctx, c)))
        return CXChildVisit_Continue;
    char spelled[PATH_MAX];
    elc_spelling(c, spelled, sizeof spelled);
    CXFile target = clang_getIncludedFile(c);
    if (s->edges_only) {
        bool eh_h = s->front && strcmp(spelled, s->front) == 0;
        if (target) {
            edge *v = sep_grow(s->edges, &s->cap_edges, s->n_edges, sizeof *v);
            if (v) {
                s->edges = v;
                s->edges[s->n_edges++] = (edge){.from = file, .to = target, .offset = off,
                                                .eh_h = eh_h};
            }
            if (eh_h && !s->eh_h)
                s->eh_h = target;
        }
        return CXChildVisit_Continue;
    }
    const char *real = el_file_path(ctx, target);
    if (backend_private(ctx, s, spelled, target, real))
        add_include(ctx, s, c, file, target, spelled, real);
    return CXChildVisit_Continue;
}

/* The directives of the linted files come from the engine's walk (on_cursor:
 * it visits the preprocessing cursors first), not from a walk of the whole
 * TU's (every system header's macro definitions) nor a search of the
 * record by file (clang_findIncludesInFile orders entities of different
 * files by their include chains: a fortieth of a cold run).  The edges of
 * every file (scan_all_edges) are read in end(), only when there is
 * something to fix. */
static void begin(el_ctx *ctx, void *st)
{
    state *s = st;
    s->main = clang_getFile(el_tu(ctx), el_main_file(ctx));
}


/* Every include of the TU, as edges (what plan_file follows). */
static void scan_all_edges(el_ctx *ctx, state *s)
{
    s->n_edges = 0;
    s->eh_h = NULL;
    s->edges_only = true;
    void *d[2] = {ctx, s};
    if (elc_tu_whole(el_tu(ctx))) /* (the system headers' includes too) */
        clang_visitChildren(clang_getTranslationUnitCursor(el_tu(ctx)), scan_directive, d);
}

/* ---- references of the files with backend includes (the walk) -------------- */

static bool candidate_file(const state *s, CXFile f)
{
    for (size_t i = 0; i < s->n_incs; i++)
        if (clang_File_isEqual(s->incs[i].file, f))
            return true;
    return false;
}

static void record_ref(el_ctx *ctx, state *s, CXCursor c);

/* A directive of a linted file, once per place. */
static void on_directive(el_ctx *ctx, state *s, CXCursor c)
{
    CXFile f = NULL;
    unsigned off = offset_of(clang_getCursorLocation(c), &f);
    for (size_t i = 0; i < s->n_directives; i++)
        if (s->directives[i].offset == off && clang_File_isEqual(s->directives[i].from, f))
            return;
    edge *v = sep_grow(s->directives, &s->cap_directives, s->n_directives, sizeof *v);
    if (!v)
        return;
    s->directives = v;
    s->directives[s->n_directives++] = (edge){.from = f, .offset = off};
    void *d[2] = {ctx, s};
    scan_directive(c, clang_getNullCursor(), d);
}

/* The directives are all in: the macro uses met before them count now. */
static void directives_done(el_ctx *ctx, state *s)
{
    if (s->directives_done)
        return;
    s->directives_done = true;
    for (size_t i = 0; i < s->n_early; i++)
        record_ref(ctx, s, s->early[i]);
    free(s->early);
    s->early = NULL;
    s->n_early = 0;
}

static void on_cursor(el_ctx *ctx, void *st, CXCursor c)
{
    state *s = st;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_InclusionDirective) {
        on_directive(ctx, s, c);
        return;
    }
    if (k == CXCursor_MacroExpansion && !s->directives_done) {
        CXCursor *v = sep_grow(s->early, &s->cap_early, s->n_early, sizeof *v);
        if (v) {
            s->early = v;
            s->early[s->n_early++] = c;
        }
        return;
    }
    directives_done(ctx, s);
    record_ref(ctx, s, c);
}

/* A reference (or macro use) in a file with a backend include: what it
 * names and where that is declared. */
static void record_ref(el_ctx *ctx, state *s, CXCursor c)
{
    if (s->n_incs == 0)
        return;
    CXFile f = NULL;
    unsigned off = offset_of(clang_getCursorLocation(c), &f);
    if (!f)
        return;
    /* every linted file's references: a file the includer reads later (a
     * .c template) may use what the include brings (plan_file) */
    bool candidate = candidate_file(s, f);
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(d) || clang_isInvalid(clang_getCursorKind(d)))
        return;
    ref *v = sep_grow(s->refs, &s->cap_refs, s->n_refs, sizeof *v);
    if (!v)
        return;
    s->refs = v;
    ref *r = &s->refs[s->n_refs++];
    memset(r, 0, sizeof *r);
    r->file = f;
    r->offset = off;
    r->decl[0] = sep_cursor_file(d);
    if (clang_getCursorKind(d) != CXCursor_MacroDefinition)
        r->decl[1] = sep_cursor_file(clang_getCanonicalCursor(d));
    if (candidate && clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_getCursorKind(d) == CXCursor_FunctionDecl) {
        r->use = c;
        r->call = el_call_of_callee(ctx, c); /* (the walk's ancestors: now) */
        r->ask_rewrite = true;
    }
}

/* The safety of the rewrite of y's call (or of y, a function named
 * without a call), EL_FIX_NONE when there is none.  Worked out when
 * plan_file first asks: only references that need a header that may go
 * are asked, and a rewrite costs ~35,000 instructions.  (A rewrite
 * depends on the TU and the cursors alone.) */
static el_fix_safety rewritten(el_ctx *ctx, state *s, ref *y)
{
    if (y->ask_rewrite) {
        y->ask_rewrite = false;
        if (!s->rw)
            s->rw = el_rewriter_new(el_tu(ctx), el_ctx_config(ctx));
        el_call_rewrite rw;
        /* a call's rename, or a reference's (a table entry, &f: EH102) */
        if (clang_Cursor_isNull(y->call) ? el_rewrite_ref(s->rw, y->use, &rw)
                                         : el_rewrite_call(s->rw, y->call, &rw)) {
            y->rewritten = rw.safety;
            el_call_rewrite_clear(&rw);
            if (!rw.rename) {
                y->tpl = el_xmalloc(sizeof *y->tpl);
                *y->tpl = rw;
            }
        }
    }
    return y->rewritten;
}

/* Does the template's own text name what y names (the identifier written
 * at y: "gemm_rows((int)CblasRowMajor + $4, ...)" and CblasRowMajor in
 * the argument it drops)?  Then the rewrite uses it again. */
static bool named_by(el_ctx *ctx, const el_call_rewrite *r, const ref *y)
{
    size_t size = 0;
    const char *t = clang_getFileContents(el_tu(ctx), y->file, &size);
    if (!t || y->offset >= size)
        return false;
    size_t e = y->offset;
    while (e < size && ((t[e] >= 'a' && t[e] <= 'z') || (t[e] >= 'A' && t[e] <= 'Z') ||
                        (t[e] >= '0' && t[e] <= '9') || t[e] == '_' || (unsigned char)t[e] >= 0x80))
        e++;
    return el_rewrite_names(r, t + y->offset, e - y->offset);
}

/* The safety of the call template's rewrite that leaves y out of the code
 * (y is in the call, in an argument the template drops: CblasRowMajor in
 * cblas_sgemm(CblasRowMajor, ...) with the template "my_gemm($4, ...)"),
 * EL_FIX_NONE when no rewrite does: a name the template passes on to its
 * text stays a use, and so does one its own text names (named_by).  The
 * calls around y are those of the references of its file whose extent
 * holds it (a template's call is written plainly in the file: its extent
 * is where the text is); a call in an argument a template keeps has its
 * own rewrite applied in the text put in. */
static void call_extent(ref *c)
{
    if (c->extent_known)
        return;
    CXSourceRange r = clang_getCursorExtent(c->call);
    CXFile f1 = NULL, f2 = NULL;
    c->call_begin = offset_of(clang_getRangeStart(r), &f1);
    c->call_end = offset_of(clang_getRangeEnd(r), &f2);
    if (!f1 || !f2 || !clang_File_isEqual(f1, c->file) || !clang_File_isEqual(f2, c->file))
        c->call_begin = c->call_end = 0;
    c->extent_known = true;
}

static int by_extent(const void *a, const void *b)
{
    const call_at *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return x->ref < y->ref ? -1 : x->ref > y->ref;
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The calls of the file y is in, by extent (built on the first ask). */
static const call_index *calls_of(state *s, unsigned file_id)
{
    for (size_t k = 0; k < s->n_calls; k++)
        if (s->calls[k].file_id == file_id)
            return &s->calls[k];
    s->calls = sep_grow(s->calls, &s->cap_calls, s->n_calls, sizeof *s->calls);
    call_index *x = &s->calls[s->n_calls++];
    memset(x, 0, sizeof *x);
    x->file_id = file_id;
    x->nested = true;
    x->order = el_xcalloc(s->n_refs + 1, sizeof *x->order);
    x->parent = el_xcalloc(s->n_refs + 1, sizeof *x->parent);
    for (size_t i = 0; i < s->n_refs; i++) {
        ref *c = &s->refs[i];
        if (clang_Cursor_isNull(c->call) || c->file_id != file_id)
            continue;
        call_extent(c);
        if (c->call_begin < c->call_end) /* (an empty extent holds nothing) */
            x->order[x->n++] = (call_at){c->call_begin, c->call_end, i};
    }
    qsort(x->order, x->n, sizeof *x->order, by_extent);
    /* the enclosing call of each, with a stack of the open ones */
    size_t *open = el_xcalloc(x->n + 1, sizeof *open), depth = 0;
    for (size_t k = 0; k < x->n; k++) {
        const call_at *c = &x->order[k];
        while (depth && x->order[open[depth - 1]].end <= c->begin)
            depth--;
        x->parent[k] = depth ? open[depth - 1] : NO_PARENT;
        if (depth && x->order[open[depth - 1]].end < c->end)
            x->nested = false; /* overlaps its "parent" without nesting */
        open[depth++] = k;
    }
    free(open);
    return x;
}

/* The safety of the call template's rewrite that leaves y out of the code
 * (y is in the call, in an argument the template drops: CblasRowMajor in
 * cblas_sgemm(CblasRowMajor, ...) with the template "my_gemm($4, ...)"),
 * EL_FIX_NONE when no rewrite does: a name the template passes on to its
 * text stays a use, and so does one its own text names (named_by).  The
 * calls around y are those of the references of its file whose extent
 * holds it (a template's call is written plainly in the file: its extent
 * is where the text is); a call in an argument a template keeps has its
 * own rewrite applied in the text put in.  Of those, the first reference
 * (in the order of s->refs) whose rewrite drops y decides.  The calls
 * holding y are found in the file's index (calls_of): the last call that
 * starts at or before y, then its enclosing calls -- those that hold y
 * form a chain -- so a file with N templated calls costs N log N, not
 * N x references. */
static el_fix_safety dropped(el_ctx *ctx, state *s, const ref *y)
{
    const call_index *x = calls_of(s, y->file_id);
    size_t *hold = NULL, n_hold = 0;
    if (x->nested) {
        /* the last call starting at or before y */
        size_t lo = 0, hi = x->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (x->order[mid].begin <= y->offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t depth = 0;
        for (size_t k = lo ? lo - 1 : NO_PARENT; k != NO_PARENT; k = x->parent[k])
            depth++;
        hold = el_xcalloc(depth + 1, sizeof *hold);
        for (size_t k = lo ? lo - 1 : NO_PARENT; k != NO_PARENT; k = x->parent[k])
            if (y->offset < x->order[k].end)
                hold[n_hold++] = x->order[k].ref;
    } else {
        hold = el_xcalloc(x->n + 1, sizeof *hold);
        for (size_t k = 0; k < x->n; k++)
            if (x->order[k].begin <= y->offset && y->offset < x->order[k].end)
                hold[n_hold++] = x->order[k].ref;
    }
    qsort(hold, n_hold, sizeof *hold, by_index);
    el_fix_safety out = EL_FIX_NONE;
    for (size_t k = 0; k < n_hold; k++) {
        ref *c = &s->refs[hold[k]];
        if (c == y)
            continue;
        if (rewritten(ctx, s, c) != EL_FIX_NONE && c->tpl &&
            el_rewrite_drops(c->tpl, y->file, y->offset)) {
            out = named_by(ctx, c->tpl, y) ? EL_FIX_NONE : c->rewritten;
            break;
        }
    }
    free(hold);
    return out;
}

/* ---- the fixes (end) ---------------------------------------------------------- */

/* The files of the TU as numbers, so following includes is a walk over
 * arrays: a scan of every edge with clang_File_isEqual at each step cost
 * O(files x edges) a reach, a twentieth of a cold run.  Two CXFiles are
 * one file when clang_File_isEqual says so, that is when their (device,
 * inode) agree: that is the hash. */
#define NO_FILE UINT_MAX

typedef struct file_node {
    CXFile file;
    /* it defines what other files link against: a function (not inline)
     * or variable defined with external linkage; it holds code: that, or
     * it is not named as a header and defines a function (a .c
     * template's static kernels).  Outside the system headers. */
    bool exported, code;
} file_node;

typedef struct graph {
    file_node *files;         /* id -> the file */
    size_t n, cap;
    unsigned *slots;          /* open addressing: 1 + id, 0 empty */
    size_t n_slots;
    size_t *first;            /* id -> its edges: out[first[id] .. first[id + 1]) */
    size_t *out;              /* edge indices, in the order of s->edges */
} graph;

static size_t file_hash(CXFile f)
{
    CXFileUniqueID u;
    if (clang_getFileUniqueID(f, &u) != 0)
        return 0;
    return (size_t)(u.data[0] * 0x9E3779B97F4A7C15ull ^ u.data[1] * 0xC2B2AE3D27D4EB4Full);
}

/* The id of f (a new one when it is new); NO_FILE for NULL. */
static unsigned file_id(graph *g, CXFile f)
{
    if (!f)
        return NO_FILE;
    if (2 * (g->n + 1) > g->n_slots) {
        size_t n_slots = g->n_slots ? 2 * g->n_slots : 256;
        unsigned *v = el_xcalloc(n_slots, sizeof *v);
        for (size_t i = 0; i < g->n; i++) {
            size_t h = file_hash(g->files[i].file) & (n_slots - 1);
            while (v[h])
                h = (h + 1) & (n_slots - 1);
            v[h] = (unsigned)i + 1;
        }
        free(g->slots);
        g->slots = v;
        g->n_slots = n_slots;
    }
    size_t h = file_hash(f) & (g->n_slots - 1);
    for (; g->slots[h]; h = (h + 1) & (g->n_slots - 1))
        if (clang_File_isEqual(g->files[g->slots[h] - 1].file, f))
            return g->slots[h] - 1;
    el_grow(&g->files, &g->cap, g->n + 1, sizeof *g->files);
    g->files[g->n] = (file_node){f, false, false};
    g->slots[h] = (unsigned)++g->n;
    return g->slots[h] - 1;
}

/* A set of files: a flag per id. */
typedef struct fileset {
    unsigned char *in;
} fileset;

static bool set_has(const fileset *s, unsigned f)
{
    return f != NO_FILE && s->in[f];
}

static fileset fileset_new(const graph *g)
{
    return (fileset){el_xcalloc(g->n + 1, 1)};
}

/* Is edge e one of the backend includes (of any file)? */
static bool backend_edge(const state *s, const edge *e)
{
    for (size_t i = 0; i < s->n_incs; i++)
        if (s->incs[i].file_id == e->from_id && s->incs[i].begin <= e->offset &&
            e->offset < s->incs[i].end)
            return true;
    return false;
}

/* Add f and everything it includes, transitively; not through backend
 * includes when `sure` (what a file may count on keeping: another backend
 * include may go too, or sit in an #if of its header). */
static void reach(const state *s, const graph *g, fileset *out, unsigned f, bool sure)
{
    if (f == NO_FILE || out->in[f])
        return;
    out->in[f] = 1;
    for (size_t k = g->first[f]; k < g->first[f + 1]; k++) {
        const edge *e = &s->edges[g->out[k]];
        if (!(sure && e->backend))
            reach(s, g, out, e->to_id, sure);
    }
}

/* Does the reference need a file of `only` (every declaration it has is
 * there)? */
static bool needs(const ref *r, const fileset *only)
{
    bool any = false;
    for (int k = 0; k < 2; k++) {
        if (r->decl_id[k] == NO_FILE)
            continue;
        if (!set_has(only, r->decl_id[k]))
            return false;
        any = true;
    }
    return any;
}

/* A top-level declaration that is code (file_node.exported, .code). */
static enum CXChildVisitResult find_code(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    el_ctx *ctx = ((void **)d)[0];
    graph *g = ((void **)d)[1];
    enum CXCursorKind k = clang_getCursorKind(c);
    bool function = k == CXCursor_FunctionDecl && el_is_definition(ctx, c) &&
                    !clang_Cursor_isFunctionInlined(c);
    bool variable = k == CXCursor_VarDecl && clang_isCursorDefinition(c);
    if (!function && !variable)
        return CXChildVisit_Continue;
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isInSystemHeader(loc))
        return CXChildVisit_Continue;
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    unsigned id = file_id(g, f);
    if (id == NO_FILE)
        return CXChildVisit_Continue;
    bool exported = clang_getCursorLinkage(c) == CXLinkage_External;
    if (exported)
        g->files[id].exported = true;
    const char *path = el_file_path(ctx, f);
    if (exported || (function && path && !el_path_is_header(path)))
        g->files[id].code = true;
    return CXChildVisit_Continue;
}

/* The graph of the TU's includes: every file an edge, include or
 * reference names gets its id, the files that hold code are found, then
 * the edges are grouped by file. */
static void build_graph(el_ctx *ctx, state *s, graph *g)
{
    for (size_t i = 0; i < s->n_edges; i++) {
        s->edges[i].from_id = file_id(g, s->edges[i].from);
        s->edges[i].to_id = file_id(g, s->edges[i].to);
    }
    for (size_t i = 0; i < s->n_incs; i++) {
        s->incs[i].file_id = file_id(g, s->incs[i].file);
        s->incs[i].target_id = file_id(g, s->incs[i].target);
    }
    for (size_t i = 0; i < s->n_refs; i++) {
        s->refs[i].file_id = file_id(g, s->refs[i].file);
        for (int k = 0; k < 2; k++)
            s->refs[i].decl_id[k] = file_id(g, s->refs[i].decl[k]);
    }
    s->eh_h_id = file_id(g, s->eh_h);
    void *d[2] = {ctx, g};
    clang_visitChildren(clang_getTranslationUnitCursor(el_tu(ctx)), find_code, d);
    g->first = el_xcalloc(g->n + 2, sizeof *g->first);
    g->out = el_xcalloc(s->n_edges + 1, sizeof *g->out);
    for (size_t i = 0; i < s->n_edges; i++) {
        edge *e = &s->edges[i];
        e->backend = backend_edge(s, e);
        if (e->from_id != NO_FILE)
            g->first[e->from_id + 1]++;
    }
    for (size_t k = 0; k < g->n; k++)
        g->first[k + 1] += g->first[k];
    g->first[g->n + 1] = g->first[g->n];
    size_t *fill = el_xcalloc(g->n + 1, sizeof *fill);
    for (size_t i = 0; i < s->n_edges; i++) {
        unsigned f = s->edges[i].from_id;
        if (f != NO_FILE)
            g->out[g->first[f] + fill[f]++] = i;
    }
    free(fill);
}

static void graph_free(graph *g)
{
    free(g->files);
    free(g->slots);
    free(g->first);
    free(g->out);
}

/* Does removing x lose code, or leave code the walk did not see?  The
 * files x brings that define what others link against (a template of
 * functions others call: they would compile, then fail to link), or code
 * that f reads otherwise and that is not linted (its references are
 * unknown: a .c template included after x may use what x brings).  A
 * header's static helpers are neither: unused, they go with the include. */
static bool touches_code(el_ctx *ctx, const graph *g, unsigned f, const fileset *from_f,
                         const fileset *mine)
{
    for (size_t k = 0; k < g->n; k++)
        if (g->files[k].exported && mine->in[k])
            return true;
    for (size_t k = 0; k < g->n; k++)
        if (g->files[k].code && k != f && !mine->in[k] && from_f->in[k] &&
            el_file_class_of(ctx, g->files[k].file, NULL) == EL_FILE_EXTERNAL)
            return true;
    return false;
}

/* Does the reference, in a file f reads other than f, count for f's
 * include: that file does not reach what it names through its own
 * includes (a .c template relies on its includer's)?  *memo caches the
 * last file's reach. */
static bool relies_on_includer(const state *s, const graph *g, const ref *y, fileset *memo,
                               unsigned *memo_of)
{
    if (*memo_of != y->file_id) {
        memset(memo->in, 0, g->n + 1);
        reach(s, g, memo, y->file_id, false);
        *memo_of = y->file_id;
    }
    return !needs(y, memo);
}

/* Decide which backend includes of file f can go, and their safety. */
static bool found_one(const char *name, unsigned offset, bool call, void *ud)
{
    (void)name;
    (void)offset;
    (void)call;
    *(bool *)ud = true;
    return false;
}

/* Does a `#pragma omp` line of the file name a backend name?  No cursor
 * shows a clause (OpenMP is parsed as plain C), so its includes stay:
 * `if(cblas_sdot(...) > 1)` needs <cblas.h> when the code builds with
 * OpenMP (lint/analysis/omp_pragma.h). */
static bool omp_names_backend(el_ctx *ctx, CXFile file)
{
    bool found = false;
    el_omp_backend_names(ctx, file, found_one, &found);
    return found;
}

static void plan_file(el_ctx *ctx, state *s, const graph *g, CXFile file, unsigned f)
{
    /* kept: the file itself, what its other includes bring, <eh/eh.h> */
    bool *kept = el_xcalloc(s->n_incs + 1, sizeof *kept);
    fileset from_f = fileset_new(g), memo = fileset_new(g), avail = fileset_new(g),
            mine = fileset_new(g), only = fileset_new(g);
    bool omp = omp_names_backend(ctx, file);
    for (size_t i = 0; i < s->n_incs; i++) {
        inc *x = &s->incs[i];
        if (x->file_id != f)
            continue;
        x->fixable = x->target && x->line_ok && !omp;
        kept[i] = !x->fixable;
    }
    CXSourceRangeList *skipped = clang_getSkippedRanges(el_tu(ctx), file);
    bool has_skipped = skipped && skipped->count > 0;
    if (skipped)
        clang_disposeSourceRangeList(skipped);
    unsigned memo_of = NO_FILE;
    reach(s, g, &from_f, f, false);
    for (bool changed = true; changed;) {
        changed = false;
        memset(avail.in, 0, g->n + 1);
        avail.in[f] = 1; /* f itself, not what it includes */
        /* the file's own includes that stay (its backend includes that
         * stay too); beyond them, not through other files' backend
         * includes */
        for (size_t k = g->first[f]; k < g->first[f + 1]; k++) {
            const edge *e = &s->edges[g->out[k]];
            bool is_candidate = false;
            for (size_t i = 0; i < s->n_incs && !is_candidate; i++)
                is_candidate = !kept[i] && s->incs[i].file_id == f &&
                               s->incs[i].begin <= e->offset && e->offset < s->incs[i].end;
            if (!is_candidate)
                reach(s, g, &avail, e->to_id, true);
        }
        reach(s, g, &avail, s->eh_h_id, true);
        for (size_t i = 0; i < s->n_incs && !changed; i++) {
            inc *x = &s->incs[i];
            if (kept[i] || x->file_id != f)
                continue;
            memset(mine.in, 0, g->n + 1);
            reach(s, g, &mine, x->target_id, false);
            for (size_t k = 0; k < g->n; k++)
                only.in[k] = mine.in[k] && !avail.in[k];
            /* a header's include: other translation units may need what it
             * brings (through the header's macros, say) */
            bool header = is_header(ctx, s, file);
            x->safety = has_skipped || header ? EL_FIX_UNSAFE : EL_FIX_SAFE;
            if (touches_code(ctx, g, f, &from_f, &mine)) {
                kept[i] = true;
                x->fixable = false;
                changed = true;
            }
            for (size_t r = 0; r < s->n_refs && !changed; r++) {
                ref *y = &s->refs[r];
                bool counts = y->file_id == f || header ||
                              (set_has(&from_f, y->file_id) && !set_has(&only, y->file_id) &&
                               relies_on_includer(s, g, y, &memo, &memo_of));
                if (!counts || !needs(y, &only))
                    continue;
                el_fix_safety safety = rewritten(ctx, s, y);
                if (safety == EL_FIX_NONE) /* gone with the template's call? */
                    safety = dropped(ctx, s, y);
                if (safety == EL_FIX_NONE) { /* (a file without backend includes: none) */
                    kept[i] = true; /* still used: stays, and keeps what it brings */
                    x->fixable = false;
                    changed = true;
                    break;
                }
                x->safety = el_fix_safety_worst(x->safety, safety);
            }
        }
    }
    free(from_f.in);
    free(memo.in);
    free(avail.in);
    free(mine.in);
    free(only.in);
    free(kept);
}

static void fix_file(el_ctx *ctx, state *s, const graph *g, CXFile file, unsigned f)
{
    CXTranslationUnit tu = el_tu(ctx);
    plan_file(ctx, s, g, file, f);
    /* the first fixable include, the carrier of <eh/eh.h> */
    inc *first = NULL, *carrier = NULL;
    for (size_t i = 0; i < s->n_incs; i++) {
        inc *x = &s->incs[i];
        if (x->file_id != f || !x->fixable)
            continue;
        if (!first || x->begin < first->begin)
            first = x;
        if (x->safety == EL_FIX_SAFE && (!carrier || x->begin < carrier->begin))
            carrier = x;
    }
    if (!carrier)
        carrier = first;
    /* the frontend include there already: before the first, or with no
     * code between; with none to add, every fix removes its line */
    bool have = !s->front;
    for (size_t k = g->first[f]; first && k < g->first[f + 1] && !have; k++) {
        const edge *e = &s->edges[g->out[k]];
        if (!e->eh_h)
            continue;
        have = e->offset < first->begin;
        if (!have) {
            have = true;
            for (size_t r = 0; r < s->n_refs && have; r++)
                have = !(s->refs[r].file_id == f && s->refs[r].offset > first->begin &&
                         s->refs[r].offset < e->offset);
        }
    }
    for (size_t i = 0; i < s->n_incs; i++) {
        inc *x = &s->incs[i];
        if (x->file_id != f)
            continue;
        el_report(ctx, x->cur, "%s", x->msg);
        if (!x->fixable)
            continue;
        char desc[2 * PATH_MAX + 64];
        if (!s->front)
            snprintf(desc, sizeof desc, "remove #include of '%s' (nothing uses it)", x->spelled);
        else if (have || x != carrier)
            snprintf(desc, sizeof desc, "remove #include of '%s' (<%s> is included)", x->spelled,
                     s->front);
        else
            snprintf(desc, sizeof desc, "include <%s> instead of '%s'", s->front, x->spelled);
        if (!el_fix_begin(ctx, x->safety, desc))
            continue;
        bool ok = true;
        if (!have) {
            char *text = el_xasprintf("#include <%s>", s->front);
            ok = el_fix_replace(ctx, clang_getRange(clang_getLocationForOffset(tu, file, carrier->begin),
                                                    clang_getLocationForOffset(tu, file, carrier->end)),
                                text);
            free(text);
        }
        if (ok && (have || x != carrier))
            el_fix_replace(ctx, clang_getRange(clang_getLocationForOffset(tu, file, x->line_begin),
                                               clang_getLocationForOffset(tu, file, x->line_end)),
                           "");
    }
}

static void end(el_ctx *ctx, void *st)
{
    state *s = st;
    directives_done(ctx, s);
    graph g = {0};
    if (s->n_incs) {
        front_include(ctx, s);
        scan_all_edges(ctx, s);
        build_graph(ctx, s, &g);
    }
    /* file by file, in the order their includes came */
    for (size_t i = 0; i < s->n_incs; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = s->incs[k].file_id == s->incs[i].file_id;
        if (!seen)
            fix_file(ctx, s, &g, s->incs[i].file, s->incs[i].file_id);
    }
    graph_free(&g);
    for (size_t i = 0; i < s->n_asked; i++)
        free(s->asked[i].spelled);
    free(s->asked);
    free(s->incs);
    free(s->edges);
    for (size_t i = 0; i < s->n_refs; i++)
        free(s->refs[i].tpl);
    free(s->refs);
    for (size_t i = 0; i < s->n_calls; i++) {
        free(s->calls[i].order);
        free(s->calls[i].parent);
    }
    free(s->calls);
    free(s->directives);
    el_rewriter_free(s->rw);
}

const el_rule el_rule_backend_include = {
    .id = RULE,
    .kinds = kinds,
    .state_size = sizeof(state),
    .begin = begin,
    .on_cursor = on_cursor,
    .end = end,
    .reads_whole_tu = el_includes_backend_header, /* scan_all_edges reads the whole TU */
};
