/* lint/engine/rule_api.c -- what rules can ask and tell the engine (rule.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c_lexeme.h"
#include "c_text.h"
#include "clang_util.h"
#include "config.h"
#include "context.h"
#include "knowledge.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "realpath_cache.h"
#include "rule.h"

#define MSG_MAX 1024

/* ---- files ------------------------------------------------------------- */

static size_t file_hash(CXFile file, size_t mask)
{
    uint64_t h = (uint64_t)(uintptr_t)file * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 32) & mask;
}

static void index_file(el_ctx *ctx, size_t slot)
{
    size_t mask = ctx->cap_file_index - 1;
    size_t i = file_hash(ctx->files[slot].file, mask);
    while (ctx->file_index[i])
        i = (i + 1) & mask;
    ctx->file_index[i] = slot + 1;
}

/* The slot of file: the last one asked, or from the index (a TU has tens
 * of files, and the rules ask about each cursor's). */
el_file_slot *el_ctx_slot(el_ctx *ctx, CXFile file)
{
    if (ctx->n_files && ctx->files[ctx->last_slot].file == file)
        return &ctx->files[ctx->last_slot];
    if (ctx->cap_file_index) {
        size_t mask = ctx->cap_file_index - 1;
        for (size_t i = file_hash(file, mask), k; (k = ctx->file_index[i]) != 0; i = (i + 1) & mask)
            if (ctx->files[k - 1].file == file) {
                ctx->last_slot = k - 1;
                return &ctx->files[k - 1];
            }
    }
    if ((ctx->n_files + 1) * 2 > ctx->cap_file_index) {
        free(ctx->file_index);
        ctx->cap_file_index = ctx->cap_file_index ? ctx->cap_file_index * 2 : 64;
        ctx->file_index = el_xcalloc(ctx->cap_file_index, sizeof *ctx->file_index);
        for (size_t i = 0; i < ctx->n_files; i++)
            index_file(ctx, i);
    }
    el_grow(&ctx->files, &ctx->cap_files, ctx->n_files + 1, sizeof *ctx->files);
    el_file_slot *s = &ctx->files[ctx->n_files];
    s->file = file;
    s->path = NULL;
    s->source = -1;
    s->text = NULL;
    s->size = 0;
    s->have_text = false;
    s->range_tried = false;
    if (file) {
        CXString name = clang_getFileName(file);
        const char *n = clang_getCString(name);
        if (n && n[0])
            s->path = el_realpath_cached(n); /* every TU reads the same headers */
        clang_disposeString(name);
        if (s->path)
            s->source = el_sources_find(ctx->sources, s->path);
    }
    ctx->last_slot = ctx->n_files++;
    index_file(ctx, ctx->last_slot);
    return s;
}

const char *el_file_class_name(el_file_class c)
{
    switch (c) {
    case EL_FILE_FRONTEND:
        return "frontend";
    case EL_FILE_BACKEND:
        return "backend";
    case EL_FILE_CORE:
        return "core";
    default:
        return "external";
    }
}

el_file_class el_file_class_of(el_ctx *ctx, CXFile file, const char **backend)
{
    el_file_slot *s = el_ctx_slot(ctx, file);
    if (backend)
        *backend = "";
    if (s->source < 0)
        return EL_FILE_EXTERNAL;
    const el_source *src = &ctx->sources->v[s->source];
    if (backend)
        *backend = src->backend;
    return src->cls;
}

/* The file of loc's expansion location (NULL if none). */
static CXFile expansion_file(el_ctx *ctx, CXSourceLocation loc)
{
    if (ctx->here_file && clang_equalLocations(loc, ctx->here))
        return ctx->here_file;
    size_t slot = 0;
    if (el_file_offsets_find(&ctx->offsets, loc, &slot, NULL) == EL_OFFSET_LINTED)
        return ctx->files[slot].file;
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    return f;
}

el_file_class el_location_class(el_ctx *ctx, CXSourceLocation loc, const char **backend)
{
    CXFile f = expansion_file(ctx, loc);
    if (!f) {
        if (backend)
            *backend = "";
        return EL_FILE_EXTERNAL;
    }
    return el_file_class_of(ctx, f, backend);
}

el_file_class el_cursor_class(el_ctx *ctx, CXCursor c, const char **backend)
{
    return el_location_class(ctx, clang_getCursorLocation(c), backend);
}

el_file_class el_classify_path(el_ctx *ctx, const char *path, char *backend, size_t n)
{
    char *abs = el_path_abs(path);
    el_file_class c = el_config_classify(ctx->main->cfg, abs, backend, n);
    free(abs);
    return c;
}

bool el_linted_backend_code(const el_ctx *ctx)
{
    return ctx->sources->any_backend;
}

const char *el_file_path(el_ctx *ctx, CXFile file)
{
    return file ? el_ctx_slot(ctx, file)->path : NULL;
}

bool el_tu_entered_again(const el_ctx *ctx, CXFile file)
{
    for (size_t i = 0; i < ctx->n_tu_again; i++)
        if (clang_File_isEqual(ctx->tu_again[i], file))
            return true;
    return false;
}

size_t el_tu_files(const el_ctx *ctx, const CXFile **files)
{
    *files = ctx->tu_files;
    return ctx->n_tu_files;
}

const char *el_file_text(el_ctx *ctx, CXFile file, size_t *size)
{
    *size = 0;
    if (!file)
        return NULL;
    el_file_slot *s = el_ctx_slot(ctx, file);
    if (!s->have_text) {
        /* clang_getFileContents finds a header by a linear scan of the
         * TU's source locations: asked once a file, not once a cursor, and
         * not at all for a linted header the run read before the parse */
        const el_source *src = s->source >= 0 ? &ctx->sources->v[s->source] : NULL;
        const char *kept = src ? el_source_text(src, elc_file_stamp(file)) : NULL;
        if (kept) {
            s->text = kept;
            s->size = src->size;
        } else {
            s->text = clang_getFileContents(ctx->tu, file, &s->size);
        }
        s->have_text = true;
    }
    *size = s->size;
    return s->text;
}

bool el_is_linted(el_ctx *ctx, CXSourceLocation loc)
{
    return el_location_class(ctx, loc, NULL) != EL_FILE_EXTERNAL;
}

bool el_rule_applies(const el_source *src, int meta)
{
    const el_rule_setting *rs = &src->cfg->rules[meta];
    return rs->enabled && (rs->applies & (EL_APPLIES(src->cls) | EL_APPLIES_PROJECT));
}

static bool applies_in(el_ctx *ctx, CXFile f)
{
    if (!f)
        return false;
    el_file_slot *s = el_ctx_slot(ctx, f);
    int meta = ctx->rules[ctx->current].meta;
    if (s->source < 0 || meta < 0)
        return false;
    return el_rule_applies(&ctx->sources->v[s->source], meta);
}

bool el_applies_at(el_ctx *ctx, CXSourceLocation loc)
{
    return applies_in(ctx, expansion_file(ctx, loc));
}

bool el_applies_to(el_ctx *ctx, CXCursor c)
{
    bool here = ctx->here_file && c.kind == ctx->here_cursor.kind && c.xdata == ctx->here_cursor.xdata &&
                memcmp(c.data, ctx->here_cursor.data, sizeof c.data) == 0;
    return here ? applies_in(ctx, ctx->here_file) : el_applies_at(ctx, clang_getCursorLocation(c));
}

/* ---- reporting ----------------------------------------------------------- */

bool el_add_finding(const el_sources *sources, int meta, const char *path, unsigned line,
                    unsigned col, const char *message, el_findings *out)
{
    if (meta < 0)
        return false; /* an extra rule: facts only */
    long k = el_sources_find(sources, path);
    if (k < 0)
        return false;
    const el_source *src = &sources->v[k];
    if (!el_rule_applies(src, meta))
        return false;
    el_findings_add(out, el_meta_at((size_t)meta)->id, src->cfg->rules[meta].severity,
                    src->path, line ? line : 1, col ? col : 1, message);
    return true;
}

/* Add a finding of the running rule; remember it for el_fix_begin. */
static void add_current(el_ctx *ctx, const char *path, unsigned line, unsigned col,
                        const char *msg)
{
    el_findings *out = &ctx->result->findings;
    ctx->fix_open = false;
    ctx->last_finding = -1;
    if (el_add_finding(ctx->sources, ctx->rules[ctx->current].meta, path, line, col, msg, out))
        ctx->last_finding = (long)out->n - 1;
}

/* Add a finding at a place of file f (a linted source's, else none). */
static void report_in(el_ctx *ctx, CXFile f, unsigned line, unsigned col, const char *msg)
{
    ctx->fix_open = false;
    ctx->last_finding = -1;
    if (!f)
        return;
    el_file_slot *s = el_ctx_slot(ctx, f);
    if (s->source < 0)
        return;
    add_current(ctx, s->path, line, col, msg);
}

static void report_loc(el_ctx *ctx, CXSourceLocation loc, const char *msg)
{
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(loc, &f, &line, &col, NULL);
    report_in(ctx, f, line, col, msg);
}

void el_report(el_ctx *ctx, CXCursor at, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report_loc(ctx, clang_getCursorLocation(at), msg);
}

void el_report_written(el_ctx *ctx, CXSourceLocation at, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    elc_written_location(at, &f, &line, &col, NULL);
    report_in(ctx, f, line, col, msg);
}

void el_report_loc(el_ctx *ctx, CXSourceLocation at, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report_loc(ctx, at, msg);
}

void el_report_at(el_ctx *ctx, const char *path, unsigned line, unsigned col, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *real = el_path_real(path);
    add_current(ctx, real ? real : path, line, col, msg);
    free(real);
}

/* ---- fixes ------------------------------------------------------------- */

/* The finding the open fix belongs to, or NULL. */
static el_finding *fix_target(el_ctx *ctx)
{
    if (!ctx->fix_open || ctx->last_finding < 0 ||
        (size_t)ctx->last_finding >= ctx->result->findings.n)
        return NULL;
    return &ctx->result->findings.v[ctx->last_finding];
}

/* A replacement was refused: the whole fix goes. */
static bool drop_fix(el_ctx *ctx)
{
    el_finding *x = fix_target(ctx);
    if (x) {
        el_fix_free(x->fix);
        x->fix = NULL;
    }
    ctx->fix_open = false;
    return false;
}

bool el_fix_begin(el_ctx *ctx, el_fix_safety safety, const char *description)
{
    ctx->fix_open = false;
    if (!ctx->want_fixes || ctx->last_finding < 0 ||
        (size_t)ctx->last_finding >= ctx->result->findings.n ||
        (safety != EL_FIX_SAFE && safety != EL_FIX_UNSAFE))
        return false;
    el_finding *x = &ctx->result->findings.v[ctx->last_finding];
    el_fix_free(x->fix);
    x->fix = el_xcalloc(1, sizeof *x->fix);
    x->fix->safety = safety;
    x->fix->description = el_xstrdup(description ? description : "");
    ctx->fix_open = true;
    return true;
}

/* A location plainly in a file (not in a macro argument, not in a
 * built-in buffer): its file and byte offset.  libclang 14's spelling
 * location is the file location; it differs from the expansion location
 * for macro arguments.  Macro bodies are caught by inside_macro. */
static CXFile plain_location(CXSourceLocation loc, unsigned *offset)
{
    CXFile ef = NULL, sf = NULL, ff = NULL;
    unsigned eoff = 0, soff = 0;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eoff);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
    if (!ef || !sf || !clang_File_isEqual(ef, sf) || eoff != soff)
        return NULL; /* written in a macro (body or argument) */
    clang_getFileLocation(loc, &ff, NULL, NULL, offset);
    if (!ff || !clang_File_isEqual(ff, ef) || *offset != eoff)
        return NULL;
    return ff;
}

static bool add_edit(el_ctx *ctx, const char *path, size_t begin, size_t end, const char *text)
{
    el_finding *x = fix_target(ctx);
    if (!x)
        return false;
    long k = el_sources_find(ctx->sources, path);
    if (k < 0 || begin > end || end > ctx->sources->v[k].size)
        return drop_fix(ctx);
    el_edits_add(&x->fix->edits, ctx->sources->v[k].path, begin, end, text ? text : "", 0);
    return true;
}

/* Would replacing [b, e) of file f edit inside a macro expansion? */
static bool inside_macro(el_ctx *ctx, CXFile f, unsigned b, unsigned e)
{
    return ctx->macro_spans && elc_macro_spans_cut(ctx->macro_spans, f, b, e);
}

/* The edit of [b, e) of file f when f is a linted file (an external one
 * is never edited: the fix goes). */
static bool edit_linted(el_ctx *ctx, CXFile f, unsigned b, unsigned e, const char *text)
{
    el_file_slot *s = el_ctx_slot(ctx, f);
    if (s->source < 0 || !s->path)
        return drop_fix(ctx);
    return add_edit(ctx, s->path, b, e, text);
}

bool el_fix_replace(el_ctx *ctx, CXSourceRange range, const char *text)
{
    if (!fix_target(ctx))
        return false;
    unsigned b = 0, e = 0;
    CXFile fb = plain_location(clang_getRangeStart(range), &b);
    CXFile fe = plain_location(clang_getRangeEnd(range), &e);
    if (!fb || !fe || !clang_File_isEqual(fb, fe) || e < b || inside_macro(ctx, fb, b, e))
        return drop_fix(ctx);
    return edit_linted(ctx, fb, b, e, text);
}

bool el_fix_replace_in_argument(el_ctx *ctx, CXFile f, unsigned begin, unsigned end,
                                const char *text)
{
    if (!fix_target(ctx))
        return false;
    if (!f || end < begin || !ctx->macro_spans ||
        !elc_macro_spans_within_argument(ctx->macro_spans, f, begin, end))
        return drop_fix(ctx);
    return edit_linted(ctx, f, begin, end, text);
}

bool el_fix_replace_at(el_ctx *ctx, const char *path, size_t begin, size_t end, const char *text)
{
    if (!fix_target(ctx) || !path)
        return false;
    char *real = el_path_real(path);
    if (!real)
        return drop_fix(ctx);
    CXFile f = ctx->tu ? clang_getFile(ctx->tu, real) : NULL;
    if (f && begin <= end && end <= 0xffffffffu &&
        inside_macro(ctx, f, (unsigned)begin, (unsigned)end)) {
        free(real);
        return drop_fix(ctx);
    }
    bool ok = add_edit(ctx, real, begin, end, text);
    free(real);
    return ok;
}

void el_fact(el_ctx *ctx, const char *key, const char *value)
{
    el_result_add_fact(ctx->result, ctx->main->path, key, value ? value : "");
}

/* ---- the TU -------------------------------------------------------------- */

CXTranslationUnit el_tu(const el_ctx *ctx)
{
    return ctx->tu;
}

const char *el_main_file(const el_ctx *ctx)
{
    return ctx->main->path;
}

bool el_main_is_header(const el_ctx *ctx)
{
    return ctx->main->is_header;
}

const el_config *el_ctx_config(const el_ctx *ctx)
{
    return ctx->main->cfg;
}

unsigned el_depth(const el_ctx *ctx)
{
    return ctx->depth;
}

CXCursor el_ancestor(const el_ctx *ctx, unsigned n)
{
    if (n >= ctx->depth)
        return clang_getNullCursor();
    return ctx->stack[ctx->depth - 1 - n];
}

bool el_enclosing(const el_ctx *ctx, enum CXCursorKind kind, CXCursor *out)
{
    for (unsigned i = ctx->depth; i-- > 0;) {
        if (clang_getCursorKind(ctx->stack[i]) == kind) {
            if (out)
                *out = ctx->stack[i];
            return true;
        }
    }
    return false;
}

static bool same_value(CXCursor a, CXCursor b)
{
    return a.kind == b.kind && a.data[0] == b.data[0] && a.data[1] == b.data[1] &&
           a.data[2] == b.data[2];
}

/* The first offset at or after i in t[0..n) that is neither a blank, a
 * line splice, a comment nor a directive's line (n when none): what
 * follows a declarator (`#if defined(__GNUC__)` before an attribute). */
static size_t next_lexeme(const char *t, size_t n, size_t i)
{
    for (;;) {
        i = el_text_skip_blanks(t, n, i);
        if (i < n && t[i] == '\\' && i + 1 < n && (t[i + 1] == '\n' || t[i + 1] == '\r'))
            i += 2;
        else if (i < n && el_text_directive_at(t, i))
            i = el_text_line_end(t, n, i);
        else
            return i;
    }
}

/* Is t[i] an opening brace (`{`, or the digraph `<%`)?  A closing one? */
static bool open_brace_at(const char *t, size_t n, size_t i)
{
    return t[i] == '{' || (t[i] == '<' && i + 1 < n && t[i + 1] == '%');
}

static bool close_brace_at(const char *t, size_t n, size_t i)
{
    return t[i] == '}' || (t[i] == '%' && i + 1 < n && t[i + 1] == '>');
}

/* Past the `}` that closes the `{` at t[open]; 0 when none does (a brace
 * an #if branch leaves open, a literal or comment that does not end). */
static size_t closing_brace(const char *t, size_t n, size_t open)
{
    size_t depth = 0;
    for (size_t i = open; i < n;) {
        size_t end = i + 1;
        el_lexeme k = el_lexeme_at(t, n, i, &end);
        if (end > n)
            return 0;
        if (k == EL_LX_OTHER && open_brace_at(t, n, i))
            depth++;
        else if (k == EL_LX_OTHER && close_brace_at(t, n, i) && --depth == 0)
            return i + 1 + (t[i] == '%');
        i = end;
    }
    return 0;
}

/* This TU is to be linted again with its bodies (elc_tu_has_bodies). */
static bool bodies_needed(el_ctx *ctx)
{
    (void)elc_tu_has_bodies(ctx->tu);
    return false;
}

/* Past the balanced group that opens at t[i] (`(` or `[`), or 0. */
static size_t past_group(const char *t, size_t n, size_t i)
{
    char open = t[i], close = open == '(' ? ')' : ']';
    size_t depth = 0;
    while (i < n) {
        size_t end = i + 1;
        el_lexeme k = el_lexeme_at(t, n, i, &end);
        if (end > n)
            return 0;
        if (k == EL_LX_OTHER && t[i] == open)
            depth++;
        else if (k == EL_LX_OTHER && t[i] == close && --depth == 0)
            return i + 1;
        i = end;
    }
    return 0;
}

/* What follows a declarator. */
typedef enum { AFTER_BODY, AFTER_DECLARATION, AFTER_UNKNOWN } after_declarator;

/* A K&R definition (`int f(a) int a; {`): a parameter is declared after
 * the declarator, which ends at offset off of f.  (Its type is not always
 * without a prototype: a prototype before it gives it one.) */
static bool declares_parameters_after(CXCursor fn, CXFile f, size_t off)
{
    int np = clang_Cursor_getNumArguments(fn);
    for (int i = 0; i < np; i++) {
        CXFile pf = NULL;
        unsigned po = 0;
        clang_getExpansionLocation(clang_getCursorLocation(clang_Cursor_getArgument(fn, (unsigned)i)),
                                   &pf, NULL, NULL, &po);
        if (pf && clang_File_isEqual(pf, f) && po >= off)
            return true;
    }
    return false;
}

/* What follows fn's declarator at offset off of f (text t[0..n)): its
 * body, at *open; a declaration (`;`, `,`, `=`); or neither known (a macro
 * that writes a `{` there, `BEGIN ... END`: where does the body end?).
 * Passed on the way: comments, directive lines, C23 attributes, a word
 * and its parentheses (`__attribute__((...))`, `_Pragma("...")`, an asm
 * label, a macro that writes neither `{` nor `;`), and a K&R definition's
 * parameter declarations. */
static after_declarator after_declarator_at(el_ctx *ctx, CXCursor fn, CXFile f, const char *t,
                                            size_t n, size_t off, size_t *open)
{
    bool old_style = declares_parameters_after(fn, f, off);
    for (int step = 0; step < 256; step++) {
        size_t i = next_lexeme(t, n, off), end = i + 1;
        if (i >= n)
            return AFTER_UNKNOWN;
        if (open_brace_at(t, n, i)) {
            *open = i;
            return AFTER_BODY;
        }
        el_lexeme k = el_lexeme_at(t, n, i, &end);
        if (k == EL_LX_IDENT) {
            unsigned writes = elc_macros_write(ctx->tu, f, (unsigned)i, t + i, end - i);
            if (writes & ELC_WRITES_BRACE)
                return AFTER_UNKNOWN;
            if ((writes & ELC_WRITES_SEMICOLON) && !old_style)
                return AFTER_DECLARATION;
            off = end;
            size_t paren = next_lexeme(t, n, off);
            if (!old_style && paren < n && t[paren] == '(' && !(off = past_group(t, n, paren)))
                return AFTER_UNKNOWN;
        } else if (k == EL_LX_OTHER && t[i] == '[' && i + 1 < n && t[i + 1] == '[') {
            if (!(off = past_group(t, n, i)))
                return AFTER_UNKNOWN;
        } else if (old_style) {
            off = end; /* `double *x; int n;` up to the body */
        } else {
            return AFTER_DECLARATION;
        }
    }
    return AFTER_UNKNOWN;
}

/* Was fn's body skipped (1), was it a declaration (0), or is it not known
 * (-1)?  The TU is indexed once, on the first question. */
static int indexed_as_skipped(el_ctx *ctx, CXCursor fn)
{
    if (!ctx->skipped_bodies_asked) {
        ctx->skipped_bodies_asked = true;
        ctx->skipped_bodies = el_skipped_bodies_of(ctx->tu);
    }
    return el_skipped_bodies_state(ctx->skipped_bodies, fn);
}

/* el_skipped_body for a function declaration libclang has no body of:
 * read after its declarator.  libclang ends a declarator that a macro
 * writes where the macro's use ends; that use must not be able to write
 * the body itself (no `{` in the macros it names). */
static bool skipped_body(el_ctx *ctx, CXCursor fn, const char **text, size_t *len)
{
    if (!elc_tu_is_bodiless(ctx->tu) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
        return false;
    CXSourceLocation end = clang_getRangeEnd(clang_getCursorExtent(fn));
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(end, &f, NULL, NULL, &off);
    if (!f || el_ctx_slot(ctx, f)->source < 0)
        return false; /* not linted: no rule looks at it */
    size_t n = 0;
    const char *t = el_file_text(ctx, f, &n);
    if (!t || off > n)
        return bodies_needed(ctx);
    unsigned use = 0;
    if (elc_macro_use_ending_at(ctx->tu, f, off, &use)) {
        unsigned writes = elc_macros_write(ctx->tu, f, use, t + use, off - use);
        size_t next = next_lexeme(t, n, off);
        /* (`,`: another declarator follows, so the last one is no definition) */
        bool then_semicolon = next < n && (t[next] == ';' || t[next] == ',');
        bool then_brace = next < n && open_brace_at(t, n, next);
        if (then_brace && (writes & ELC_WRITES_BRACE))
            return bodies_needed(ctx); /* bodies in the macro and after it: which is fn's? */
        /* Which of the functions a use writes have bodies cannot be read
         * when it writes both definitions and declarations (libclang
         * spells a macro's tokens where it is used, not in its
         * definition), nor when the last declaration it writes may end
         * after it (`M(f);` or `M(f), g;` after bodies, `M(f) {` after
         * prototypes): libclang's indexer knows. */
        if (writes == (ELC_WRITES_BRACE | ELC_WRITES_SEMICOLON) ||
            (writes == ELC_WRITES_BRACE && then_semicolon) ||
            (writes == ELC_WRITES_SEMICOLON && then_brace)) {
            int skipped = indexed_as_skipped(ctx, fn);
            if (skipped < 0)
                return bodies_needed(ctx);
            if (!skipped)
                return false;
            /* a definition: its body is the macro's, or the text's after it */
            writes = then_brace ? 0 : ELC_WRITES_BRACE;
        }
        if (writes == ELC_WRITES_SEMICOLON)
            return false; /* prototypes a macro writes (X-macros) */
        if (writes == ELC_WRITES_BRACE) {
            /* a macro writes the body: its use stands for the text */
            if (text)
                *text = t + use;
            if (len)
                *len = off - use;
            return true;
        }
    }
    size_t open = 0;
    switch (after_declarator_at(ctx, fn, f, t, n, off, &open)) {
    case AFTER_DECLARATION:
        return false;
    case AFTER_UNKNOWN:
        return bodies_needed(ctx);
    case AFTER_BODY:
        break;
    }
    size_t close = closing_brace(t, n, open);
    if (!close)
        return bodies_needed(ctx);
    if (text)
        *text = t + open;
    if (len)
        *len = close - open;
    return true;
}

/* skipped_body, asked once for the cursor being visited however many
 * rules ask. */
static bool skipped_body_memo(el_ctx *ctx, CXCursor fn, const char **text, size_t *len)
{
    if (!same_value(fn, ctx->here_cursor))
        return skipped_body(ctx, fn, text, len);
    if (ctx->here_skipped < 0) {
        ctx->here_body = NULL;
        ctx->here_body_len = 0;
        ctx->here_skipped = skipped_body(ctx, fn, &ctx->here_body, &ctx->here_body_len);
    }
    if (text)
        *text = ctx->here_body;
    if (len)
        *len = ctx->here_body_len;
    return ctx->here_skipped != 0;
}

bool el_skipped_body(el_ctx *ctx, CXCursor fn, const char **text, size_t *len)
{
    return elc_tu_is_bodiless(ctx->tu) && !clang_isCursorDefinition(fn) &&
           skipped_body_memo(ctx, fn, text, len);
}

static bool is_definition(el_ctx *ctx, CXCursor c)
{
    return clang_isCursorDefinition(c) || skipped_body_memo(ctx, c, NULL, NULL);
}

bool el_is_definition(el_ctx *ctx, CXCursor c)
{
    if (!same_value(c, ctx->here_cursor))
        return is_definition(ctx, c);
    if (ctx->here_definition < 0)
        ctx->here_definition = is_definition(ctx, c);
    return ctx->here_definition != 0;
}

bool el_enclosing_function(const el_ctx *ctx, CXCursor *out)
{
    for (unsigned i = ctx->depth; i-- > 0;) {
        CXCursor c = ctx->stack[i];
        if (elc_is_function_kind(clang_getCursorKind(c)) && clang_isCursorDefinition(c)) {
            if (out)
                *out = c;
            return true;
        }
    }
    return false;
}

/* ---- knowledge ------------------------------------------------------------ */

/* A Fortran BLAS or LAPACK routine (dgemm_, sgesv_, DGEMM_, and
 * decorated: dgesv_64_, scipy_dgesv_) is replaced as its C interface is
 * (cblas_dgemm, LAPACKE_sgesv, LAPACK_sgesv): rules/symbols.json, or the
 * project's entry for the C name, lists those once.  The project's entry
 * for any of them comes first. */
static const el_kv *fortran_replacement(const el_config *cfg, const char *symbol)
{
    static const char *const interfaces[] = {"cblas_", "LAPACKE_", "LAPACK_"};
    char stem[64];
    if (!el_routine_stem(cfg, symbol, stem, sizeof stem))
        return NULL;
    const el_kv *builtin = NULL;
    for (size_t k = 0; k < sizeof interfaces / sizeof *interfaces; k++) {
        char c_name[96];
        snprintf(c_name, sizeof c_name, "%s%s", interfaces[k], stem);
        const el_kv *e = el_config_map_get(cfg, EL_REPLACEMENTS, c_name);
        if (e && !e->from.builtin)
            return e;
        if (e && !builtin)
            builtin = e;
    }
    return builtin;
}

/* The built-in replacement: rules/symbols.json, then eh_<backend>_<op>
 * -> eh_<op> for the ops of libeh/ops.def. */
static const char *builtin_replacement(const el_config *cfg, const char *symbol, char *buf, size_t n)
{
    const el_kv *e = el_config_map_get(cfg, EL_REPLACEMENTS, symbol);
    if (e && e->from.builtin) {
        snprintf(buf, n, "%s", e->text);
        return buf;
    }
    for (size_t b = 0; b < el_config_backend_count(cfg); b++) {
        const char *name = el_config_backend_name(cfg, b);
        char prefix[96];
        snprintf(prefix, sizeof prefix, "eh_%s_", name);
        size_t pl = strlen(prefix);
        if (strncmp(symbol, prefix, pl) == 0 && el_is_op(symbol + pl)) {
            snprintf(buf, n, "eh_%s", symbol + pl);
            return buf;
        }
    }
    return NULL;
}

/* A project's own entry (any .emberlint.json), or NULL. */
static const char *project_replacement(const el_config *cfg, const char *symbol, char *buf, size_t n)
{
    const el_kv *e = el_config_map_get(cfg, EL_REPLACEMENTS, symbol);
    if (!e || e->from.builtin)
        return NULL;
    snprintf(buf, n, "%s", e->text);
    return buf;
}

/* LAPACKE's _work variant of a call (LAPACKE_dgesv_work: the caller
 * passes the workspace) computes what the plain call does: the plain
 * name into buf, else false. */
static bool lapacke_plain_call(const char *name, char *buf, size_t n)
{
    static const char prefix[] = "LAPACKE_", suffix[] = "_work";
    size_t len = strlen(name), pl = sizeof prefix - 1, sl = sizeof suffix - 1;
    if (len <= pl + sl || strncmp(name, prefix, pl) != 0 || strcmp(name + len - sl, suffix) != 0 ||
        len - sl >= n)
        return false;
    memcpy(buf, name, len - sl);
    buf[len - sl] = '\0';
    return true;
}

/* The project's entry for `symbol`, else (a decorated routine or a
 * LAPACKE _work variant without an entry of its own) its plain name's,
 * else a Fortran name's C interface entry, else (builtin_ok) the
 * built-in replacement. */
static const char *replacement_for(const el_config *cfg, const char *symbol, bool builtin_ok, char *buf,
                                   size_t n)
{
    const char *r = project_replacement(cfg, symbol, buf, n);
    if (r)
        return r;
    char plain[256];
    if (!el_config_map_get(cfg, EL_REPLACEMENTS, symbol) &&
        (el_routine_plain(cfg, symbol, plain, sizeof plain) ||
         lapacke_plain_call(symbol, plain, sizeof plain)))
        return replacement_for(cfg, plain, builtin_ok, buf, n);
    const el_kv *fortran = el_config_map_get(cfg, EL_REPLACEMENTS, symbol) ? NULL
                                                                          : fortran_replacement(cfg, symbol);
    if (fortran && (builtin_ok || !fortran->from.builtin)) {
        snprintf(buf, n, "%s", fortran->text);
        return buf;
    }
    return builtin_ok ? builtin_replacement(cfg, symbol, buf, n) : NULL;
}

const char *el_symbol_replacement(const el_config *cfg, const char *symbol, char *buf, size_t n)
{
    return replacement_for(cfg, symbol, true, buf, n);
}

const char *el_project_symbol_replacement(const el_config *cfg, const char *symbol, char *buf,
                                          size_t n)
{
    return replacement_for(cfg, symbol, false, buf, n);
}

static void find_eh_h(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    (void)stack;
    (void)n;
    bool *found = d;
    if (*found)
        return;
    CXString name = clang_getFileName(f);
    const char *s = clang_getCString(name);
    size_t l = s ? strlen(s) : 0;
    *found = l >= 8 && strcmp(s + l - 8, "/eh/eh.h") == 0;
    clang_disposeString(name);
}

bool el_uses_libeh(el_ctx *ctx)
{
    if (!ctx->uses_libeh) {
        bool found = false;
        /* the engine's list of the TU's files when there is one (a second
         * clang_getInclusions was 0.2 % of a cold run) */
        for (size_t i = 0; i < ctx->n_tu_files && !found; i++)
            find_eh_h(ctx->tu_files[i], NULL, 0, &found);
        if (ctx->tu && !ctx->tu_files)
            clang_getInclusions(ctx->tu, find_eh_h, &found);
        ctx->uses_libeh = found ? 1 : 2;
    }
    return ctx->uses_libeh == 1;
}

const char *el_replacement(el_ctx *ctx, const char *name, char *buf, size_t n)
{
    return replacement_for(el_ctx_config(ctx), name, el_uses_libeh(ctx), buf, n);
}

const char *el_frontend_include(el_ctx *ctx)
{
    const el_config *cfg = el_ctx_config(ctx);
    if (!cfg->frontend_include[0])
        return NULL;
    if (cfg->frontend_include_from.builtin && !el_uses_libeh(ctx))
        return NULL;
    return cfg->frontend_include;
}

/* The pattern with <...> replaced by name, leading '/' and '**' dropped. */
static bool dir_of_pattern(const char *pattern, const char *name, char *buf, size_t n)
{
    const char *p = pattern + (pattern[0] == '/');
    if (strncmp(p, "**/", 3) == 0)
        p += 3;
    const char *at = strchr(p, '<');
    const char *close = at ? strchr(at, '>') : NULL;
    if (!close || !name[0])
        return false;
    snprintf(buf, n, "%.*s%s%s", (int)(at - p), p, name, close + 1);
    return true;
}

const char *el_backend_dir(el_ctx *ctx, const char *name, char *buf, size_t n)
{
    /* the last declared pattern (a project's own come after the
     * built-in) under which the backend's directory exists, else the
     * last declared */
    const el_strlist *dirs = el_config_list(el_ctx_config(ctx), EL_BACKEND_DIRS);
    bool found = false;
    buf[0] = '\0';
    for (size_t i = dirs->n; i-- > 0 && !found;) {
        char cand[512];
        if (!dir_of_pattern(dirs->v[i], name, cand, sizeof cand))
            continue;
        if (!found && buf[0] == '\0')
            snprintf(buf, n, "%s", cand);
        char *abs = el_path_join(dirs->from[i].root ? dirs->from[i].root : el_cwd(), cand);
        struct stat st;
        if (stat(abs, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(buf, n, "%s", cand);
            found = true;
        }
        free(abs);
    }
    /* a backend of single files (backend_files): its first file */
    const el_strlist *files = &el_ctx_config(ctx)->backend_files;
    size_t nl = strlen(name);
    for (size_t i = 0; !found && nl && i < files->n; i++) {
        const char *e = files->v[i];
        if (strncmp(e, name, nl) == 0 && e[nl] == ':') {
            snprintf(buf, n, "%s", e + nl + 1 + (e[nl + 1] == '/'));
            found = true;
        }
    }
    if (!buf[0])
        snprintf(buf, n, "a backend directory");
    return buf;
}

/* ---- project hooks -------------------------------------------------------- */

size_t el_project_file_count(const el_project *p)
{
    return p->sources->n;
}

const char *el_project_file(const el_project *p, size_t i)
{
    return i < p->sources->n ? p->sources->v[i].path : NULL;
}

bool el_project_file_named(const el_project *p, const char *path)
{
    long k = el_sources_find(p->sources, path);
    return k >= 0 && p->sources->v[k].named;
}

bool el_project_file_parsed(const el_project *p, size_t i)
{
    return i < p->sources->n && !p->sources->v[i].not_built;
}

el_file_class el_project_file_class(const el_project *p, size_t i, const char **backend)
{
    if (i >= p->sources->n) {
        if (backend)
            *backend = "";
        return EL_FILE_EXTERNAL;
    }
    if (backend)
        *backend = p->sources->v[i].backend;
    return p->sources->v[i].cls;
}

const el_config *el_project_file_config(const el_project *p, size_t i)
{
    return i < p->sources->n ? p->sources->v[i].cfg : NULL;
}

size_t el_project_fact_count(const el_project *p)
{
    return p->n_facts;
}

void el_project_fact(const el_project *p, size_t i, const char **file, const char **key,
                     const char **value)
{
    const el_fact_rec *f = i < p->n_facts ? p->facts[i] : NULL;
    if (file)
        *file = f ? f->file : NULL;
    if (key)
        *key = f ? f->key : NULL;
    if (value)
        *value = f ? f->value : NULL;
}

bool el_project_applies(const el_project *p, const char *path)
{
    if (p->current_meta < 0)
        return false;
    char *real = el_path_real(path);
    long k = el_sources_find(p->sources, real ? real : path);
    free(real);
    return k >= 0 && el_rule_applies(&p->sources->v[k], p->current_meta);
}

void el_project_fact_add(el_project *p, const char *key, const char *value)
{
    el_grow(&p->added, &p->cap_added, p->n_added + 1, sizeof *p->added);
    el_fact_rec *f = &p->added[p->n_added++];
    f->file = el_xstrdup("");
    f->key = el_xstrdup(key);
    f->value = el_xstrdup(value);
}

static void project_vreport(el_project *p, size_t tu, const char *path, unsigned line,
                            unsigned col, const char *fmt, va_list ap)
{
    char msg[MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    char *real = el_path_real(path);
    el_add_finding(p->sources, p->current_meta, real ? real : path, line, col, msg, p->out);
    free(real);
    el_grow(&p->origin, &p->cap_origin, p->out->n + 1, sizeof *p->origin);
    while (p->n_origin < p->out->n)
        p->origin[p->n_origin++] = tu;
}

void el_project_report(el_project *p, const char *path, unsigned line, unsigned col,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    project_vreport(p, EL_TU_UNKNOWN, path, line, col, fmt, ap);
    va_end(ap);
}

void el_project_report_for(el_project *p, size_t fact, const char *path, unsigned line,
                           unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    project_vreport(p, p->fact_tu && fact < p->n_facts ? p->fact_tu[fact] : EL_TU_UNKNOWN, path,
                    line, col, fmt, ap);
    va_end(ap);
}
