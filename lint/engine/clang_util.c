/* lint/engine/clang_util.c -- libclang helpers (clang_util.h). */
#include "clang_util.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "c_lexeme.h"
#include "strmap.h"

/* libclang's own stack for a parse thread (CIndex.cpp: 8 MiB) */
#define LIBCLANG_PARSE_STACK (8u << 20)

void elc_parse_in_caller_thread(void)
{
    struct rlimit rl;
    if (getenv("LIBCLANG_NOTHREADS") || getrlimit(RLIMIT_STACK, &rl) != 0)
        return;
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= LIBCLANG_PARSE_STACK)
        setenv("LIBCLANG_NOTHREADS", "1", 0);
}

/* What each TU leaves of the heap for the next one (elc_keep_heap).
 * 32 MiB: a worker thread's glibc heap is 64 MiB (HEAP_MAX_SIZE), so a
 * 64 MiB pad could never be exceeded and such a heap would never give
 * memory back; 32 MiB saves as much (the project tree at -j 1: 24
 * mprotect calls at either pad, 1 425 without; at -j 2: 37 and 40, 3 292
 * without).  Setting M_TOP_PAD also turns off glibc's dynamic mmap
 * threshold (it stays at 128 KiB). */
#define KEPT_HEAP (32u << 20)

void elc_keep_heap(void)
{
#if defined(__GLIBC__) && defined(M_TOP_PAD)
    const char *t = getenv("GLIBC_TUNABLES");
    if (getenv("MALLOC_TOP_PAD_") || (t && strstr(t, "top_pad")))
        return; /* the user's choice */
    mallopt(M_TOP_PAD, (int)KEPT_HEAP);
#endif
}

#define MAX_ALIAS_HOPS 8

/* ---- strings and locations ------------------------------------------ */

const char *elc_string(CXString s, char *buf, size_t n)
{
    const char *c = clang_getCString(s);
    if (n) {
        /* (snprintf's "%s": 700 instructions a name, tens of thousands of names a run) */
        size_t len = c ? strnlen(c, n - 1) : 0;
        memcpy(buf, c ? c : "", len);
        buf[len] = '\0';
    }
    clang_disposeString(s);
    return buf;
}

const char *elc_spelling(CXCursor c, char *buf, size_t n)
{
    return elc_string(clang_getCursorSpelling(c), buf, n);
}

bool elc_location(CXSourceLocation loc, CXFile *file, unsigned *line, unsigned *col)
{
    CXFile f = NULL;
    unsigned l = 0, c = 0;
    clang_getExpansionLocation(loc, &f, &l, &c, NULL);
    if (file)
        *file = f;
    if (line)
        *line = l;
    if (col)
        *col = c;
    return f != NULL;
}

bool elc_cursor_location(CXCursor c, CXFile *file, unsigned *line, unsigned *col)
{
    return elc_location(clang_getCursorLocation(c), file, line, col);
}

bool elc_written_location(CXSourceLocation loc, CXFile *file, unsigned *line, unsigned *col,
                          unsigned *offset)
{
    CXFile ef = NULL, ff = NULL;
    unsigned el = 0, ec = 0, eo = 0, fl = 0, fc = 0, fo = 0;
    clang_getExpansionLocation(loc, &ef, &el, &ec, &eo);
    clang_getFileLocation(loc, &ff, &fl, &fc, &fo);
    bool in_file = ff && ef && clang_File_isEqual(ff, ef);
    if (file)
        *file = in_file ? ff : ef;
    if (line)
        *line = in_file ? fl : el;
    if (col)
        *col = in_file ? fc : ec;
    if (offset)
        *offset = in_file ? fo : eo;
    return ef != NULL;
}

el_file_stamp elc_file_stamp(CXFile f)
{
    CXFileUniqueID id;
    if (!f || clang_getFileUniqueID(f, &id) != 0)
        return el_file_stamp_none;
    return (el_file_stamp){id.data[0], id.data[1], (long long)id.data[2]};
}

const char *elc_file_name(CXFile f, char *buf, size_t n)
{
    if (!f) {
        if (n)
            buf[0] = '\0';
        return buf;
    }
    return elc_string(clang_getFileName(f), buf, n);
}

/* ---- macro expansions ----------------------------------------------- */

typedef struct span {
    CXFile file;
    unsigned begin, end;       /* byte offsets in file, end exclusive */
    unsigned max_end;          /* the largest end of the file's spans up to this one */
    CXCursor cursor;           /* the MacroExpansion */
} span;

typedef struct macro_table macro_table;
static void macro_table_free(macro_table *t);
typedef struct use_cache use_cache;
static void use_cache_free(use_cache *u);
static void macro_table_fed(macro_table *t);

struct elc_macro_spans {
    CXTranslationUnit tu;
    macro_table *macros;       /* fed by the engine's walk, or read the first time a body needs them */
    bool defs_closed;          /* no more definitions are fed */
    unsigned table_walks;      /* macro tables read in a walk of their own */
    use_cache *uses;           /* the arguments of the uses asked about, by where they begin */
    unsigned long use_reads;   /* uses tokenized for their arguments */
    CXCursor last_binary;      /* the last operator binary_in_file read, its answer, its operator */
    bool last_found;
    char last_op[8];
    bool loaded;               /* every file's spans (one walk of their own) */
    bool fed_done;             /* the spans of the files in fed (the engine's walk) */
    bool sorted;
    CXFile *fed;
    size_t n_fed;
    span *v;
    size_t n, cap;
    el_strmap writes;          /* macro name (its last definition), or "#" and the hex of a
                                * definition's record -> its ELC_WRITES_* + 1 (WRITES_BUSY + 1:
                                * being read) */
};

elc_macro_spans *elc_macro_spans_new(CXTranslationUnit tu)
{
    elc_macro_spans *m = calloc(1, sizeof *m);
    if (m) {
        m->tu = tu;
        m->last_binary = clang_getNullCursor();
    }
    return m;
}

void elc_macro_spans_free(elc_macro_spans *m)
{
    if (m) {
        free(m->v);
        free(m->fed);
        macro_table_free(m->macros);
        use_cache_free(m->uses);
        el_strmap_free(&m->writes);
    }
    free(m);
}

/* Add the span of expansion c; false when out of memory. */
static bool add_span(elc_macro_spans *m, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    unsigned b = 0, e = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    if (!fb)
        return true;
    if (!fe || !clang_File_isEqual(fb, fe) || e <= b)
        e = b + 1; /* odd extent: at least its first byte */
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        span *v = realloc(m->v, cap * sizeof *v);
        if (!v)
            return false; /* then fewer spans: no worse than none */
        m->v = v;
        m->cap = cap;
    }
    m->v[m->n++] = (span){fb, b, e, e, c};
    m->sorted = false;
    return true;
}

static bool span_visit(CXCursor c, enum CXCursorKind kind, void *d)
{
    return kind != CXCursor_MacroExpansion || add_span(d, c);
}

void elc_macro_spans_feed_files(elc_macro_spans *m, const CXFile *files, size_t n)
{
    if (!m || m->loaded || m->fed_done || m->fed || !n)
        return;
    m->fed = malloc(n * sizeof *m->fed);
    if (!m->fed)
        return; /* then every question walks, as without feeding */
    memcpy(m->fed, files, n * sizeof *m->fed);
    m->n_fed = n;
}

void elc_macro_spans_feed(elc_macro_spans *m, CXCursor expansion)
{
    if (m && m->fed && !m->loaded && !m->fed_done)
        add_span(m, expansion);
}

void elc_macro_spans_feed_done(elc_macro_spans *m)
{
    if (m) {
        macro_table_fed(m->macros);
        m->defs_closed = true;
    }
    if (m && m->fed && !m->loaded)
        m->fed_done = true;
}

static bool was_fed(const elc_macro_spans *m, CXFile f)
{
    if (!m->fed_done)
        return false;
    for (size_t i = 0; i < m->n_fed; i++)
        if (m->fed[i] == f)
            return true;
    return false;
}

static int span_cmp(const void *x, const void *y)
{
    const span *a = x, *b = y;
    uintptr_t fa = (uintptr_t)a->file, fb = (uintptr_t)b->file;
    if (fa != fb)
        return fa < fb ? -1 : 1;
    return a->begin < b->begin ? -1 : a->begin > b->begin ? 1 : 0;
}

bool elc_tu_has_errors(CXTranslationUnit tu)
{
    unsigned nd = clang_getNumDiagnostics(tu);
    bool any = false;
    for (unsigned i = 0; i < nd && !any; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        any = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
        clang_disposeDiagnostic(d);
    }
    return any;
}

typedef struct pp_walk {
    bool (*fn)(CXCursor c, enum CXCursorKind kind, void *ud);
    void *ud;
} pp_walk;

static enum CXChildVisitResult pp_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    pp_walk *w = d;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (!clang_isPreprocessing(kind))
        return CXChildVisit_Break; /* the declarations: ELC_PREPROCESSING_FIRST */
    return w->fn(c, kind, w->ud) ? CXChildVisit_Continue : CXChildVisit_Break;
}

void elc_visit_preprocessing(CXTranslationUnit tu,
                             bool (*fn)(CXCursor c, enum CXCursorKind kind, void *ud), void *ud)
{
    pp_walk w = {fn, ud};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), pp_visit, &w);
}

/* A TU this thread lints that lacks something a caller may want (its
 * prefix's cursors, its function bodies), and whether one did. */
typedef struct tu_lack {
    CXTranslationUnit tu;
    bool wanted;
} tu_lack;

static _Thread_local tu_lack partial, bodiless;

static void lack_set(tu_lack *l, CXTranslationUnit tu)
{
    l->tu = tu;
    l->wanted = false;
}

/* False (and wanted) when tu is the one that lacks it. */
static bool lack_has(tu_lack *l, CXTranslationUnit tu)
{
    if (tu && tu == l->tu) {
        l->wanted = true;
        return false;
    }
    return true;
}

void elc_tu_partial(CXTranslationUnit tu)
{
    lack_set(&partial, tu);
}

bool elc_tu_whole(CXTranslationUnit tu)
{
    return lack_has(&partial, tu);
}

bool elc_tu_whole_wanted(void)
{
    return partial.wanted;
}

void elc_tu_bodiless(CXTranslationUnit tu)
{
    lack_set(&bodiless, tu);
}

bool elc_tu_is_bodiless(CXTranslationUnit tu)
{
    return tu && tu == bodiless.tu;
}

bool elc_tu_has_bodies(CXTranslationUnit tu)
{
    return lack_has(&bodiless, tu);
}

bool elc_bodies_wanted(void)
{
    return bodiless.wanted;
}

/* A question about f's macro expansions in this thread's partial TU: its
 * own are there unless it is a system header (a prefix holds only those). */
static void want_file(CXTranslationUnit tu, CXFile f)
{
    if (tu && tu == partial.tu &&
        (!f || clang_Location_isInSystemHeader(clang_getLocation(tu, f, 1, 1))))
        partial.wanted = true;
}

/* The spans of f ready for questions: those the engine's walk fed, when
 * f was one of its files and the feeding is over; else one walk over the
 * TU's preprocessing cursors (expansions are among them) for every
 * file's, the first time such a question is asked. */
static void load(elc_macro_spans *m, CXFile f)
{
    if (!was_fed(m, f))
        want_file(m->tu, f);
    if (!m->loaded && !was_fed(m, f)) {
        m->loaded = true;
        m->n = 0; /* the fed ones are among them */
        elc_visit_preprocessing(m->tu, span_visit, m);
    }
    if (m->sorted)
        return;
    m->sorted = true;
    if (m->n)
        qsort(m->v, m->n, sizeof *m->v, span_cmp);
    for (size_t i = 1; i < m->n; i++)
        if (m->v[i].file == m->v[i - 1].file && m->v[i - 1].max_end > m->v[i].max_end)
            m->v[i].max_end = m->v[i - 1].max_end;
}

/* The number of spans of f that begin before off (binary search); *first
 * receives the index of f's first span. */
static size_t spans_before(const elc_macro_spans *m, CXFile f, unsigned off, size_t *first)
{
    span key = {f, off, 0, 0, clang_getNullCursor()};
    size_t lo = 0, hi = m->n;
    while (lo < hi) { /* first span not below (f, off) */
        size_t mid = lo + (hi - lo) / 2;
        if (span_cmp(&m->v[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t f0 = lo;
    while (f0 > 0 && m->v[f0 - 1].file == f)
        f0--;
    *first = f0;
    return lo;
}

/* The innermost span of f holding offset off, or NULL. */
static const span *span_at(elc_macro_spans *m, CXFile f, unsigned off)
{
    load(m, f);
    size_t first, k = spans_before(m, f, off + 1, &first);
    /* spans [first, k) begin at or before off; max_end says whether any
     * of them still covers it */
    for (size_t i = k; i > first && m->v[i - 1].max_end > off; i--)
        if (m->v[i - 1].end > off)
            return &m->v[i - 1];
    return NULL;
}

bool elc_macro_spans_cut(elc_macro_spans *m, CXFile f, unsigned b, unsigned e)
{
    load(m, f);
    size_t first, k = spans_before(m, f, b, &first);
    if (k > first && m->v[k - 1].max_end > b)
        return true; /* an expansion that begins before b reaches into the range */
    if (b == e)
        return false;
    for (size_t i = k; i < m->n && m->v[i].file == f && m->v[i].begin < e; i++) {
        const span *x = &m->v[i];
        if (x->end > b && (x->end > e || (x->begin == b && x->end == e)))
            return true;
    }
    return false;
}

bool elc_macro_spans_within_argument(elc_macro_spans *m, CXFile f, unsigned b, unsigned e)
{
    load(m, f);
    size_t first, k = spans_before(m, f, e, &first);
    bool inside = false;
    for (size_t i = first; i < k; i++) {
        const span *x = &m->v[i];
        if (x->end <= b || x->begin >= e)
            continue;
        if (x->begin >= b || x->end < e)
            return false; /* an expansion of its own in the range, or one it crosses */
        inside = true;
    }
    return inside;
}

/* The spans elc_in_macro and the operator helpers use on this thread. */
static _Thread_local elc_macro_spans *active;

void elc_macro_spans_use(elc_macro_spans *m)
{
    active = m;
    if (m)
        m->last_binary = clang_getNullCursor();
}

bool elc_macro_use_ending_at(CXTranslationUnit tu, CXFile f, unsigned off, unsigned *begin)
{
    if (!active || active->tu != tu)
        return false;
    load(active, f);
    size_t first, k = spans_before(active, f, off, &first);
    bool found = false;
    /* max_end: no span before one whose max_end is below off reaches it */
    for (size_t i = k; i > first && active->v[i - 1].max_end >= off; i--) {
        if (active->v[i - 1].end == off) {
            *begin = active->v[i - 1].begin; /* the outermost: the smallest begin */
            found = true;
        }
    }
    return found;
}

/* A macro being read (names that name each other end there). */
#define WRITES_BUSY 8u

typedef struct writes_walk {
    elc_macro_spans *m;        /* the memo (the TU's spans), or NULL */
    bool cycle;                /* a macro being read was met: what is found is partial */
} writes_walk;

static unsigned writes_of(writes_walk *ww, CXTranslationUnit tu, const char *w, bool punct,
                          int *depth, int level);

/* Is w one of a function-like macro's parameters, toks[1..first)? */
static bool is_parameter(CXTranslationUnit tu, const CXToken *toks, unsigned first, const char *w)
{
    for (unsigned i = 1; i < first; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        char p[256];
        if (strcmp(elc_string(clang_getTokenSpelling(tu, toks[i]), p, sizeof p), w) == 0)
            return true;
    }
    return false;
}

/* The ELC_WRITES_* the body of macro definition def holds, with the
 * macros it names (not its parameters). */
static unsigned def_writes(writes_walk *ww, CXTranslationUnit tu, CXCursor def, int level)
{
    unsigned nt = 0, first = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &first);
    unsigned found = 0;
    int depth = 0;
    for (unsigned i = first; i < nt; i++) {
        CXTokenKind k = clang_getTokenKind(toks[i]);
        if (k != CXToken_Punctuation && k != CXToken_Identifier)
            continue;
        char w[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), w, sizeof w);
        if (k == CXToken_Identifier && is_parameter(tu, toks, first, w))
            continue;
        found |= writes_of(ww, tu, w, k == CXToken_Punctuation, &depth, level + 1);
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return found;
}

/* The ELC_WRITES_* macro `name`'s body holds (def: its definition in
 * effect, or a null cursor for the TU's last); remembered in the TU's
 * spans unless a macro being read was met on the way. */
static unsigned macro_writes(writes_walk *ww, CXTranslationUnit tu, const char *name, CXCursor def,
                             int level)
{
    elc_macro_spans *m = ww->m;
    bool by_name = clang_Cursor_isNull(def);
    /* a definition given (the one in effect at a use) is remembered by
     * its record, which lives as long as the TU: every prototype of a
     * header that ends in `EH_API`-like macros asks again */
    char key[2 + 2 * sizeof(void *) + 1] = "";
    if (!by_name)
        snprintf(key, sizeof key, "#%" PRIxPTR, (uintptr_t)def.data[0]);
    uintptr_t known = m ? (uintptr_t)el_strmap_get(&m->writes, by_name ? name : key) : 0;
    if (known == WRITES_BUSY + 1) {
        ww->cycle = true;
        return 0;
    }
    if (known)
        return (unsigned)known - 1;
    if (by_name)
        def = elc_macro_definition_here(tu, name);
    if (clang_Cursor_isNull(def) || level > 64)
        return 0;
    /* the name is marked as being read (a body naming it ends there);
     * what the TU's last definition writes, known or not, stays */
    void *by_name_before = m && !by_name ? el_strmap_get(&m->writes, name) : NULL;
    if (m)
        el_strmap_put(&m->writes, name, (void *)(uintptr_t)(WRITES_BUSY + 1));
    bool cycle_before = ww->cycle;
    ww->cycle = false;
    unsigned found = def_writes(ww, tu, def, level);
    /* (a partial answer is not kept: asked again, it is read again) */
    void *answer = (void *)(uintptr_t)(ww->cycle ? 0 : found + 1);
    if (m)
        el_strmap_put(&m->writes, name, by_name ? answer : by_name_before);
    if (m && !by_name)
        el_strmap_put(&m->writes, key, answer);
    ww->cycle |= cycle_before;
    return found;
}

static unsigned writes_of(writes_walk *ww, CXTranslationUnit tu, const char *w, bool punct,
                          int *depth, int level)
{
    if (punct) {
        if (strcmp(w, "{") == 0 || strcmp(w, "<%") == 0) {
            ++*depth;
            return ELC_WRITES_BRACE;
        }
        if ((strcmp(w, "}") == 0 || strcmp(w, "%>") == 0) && *depth > 0)
            --*depth;
        return strcmp(w, ";") == 0 && *depth == 0 ? ELC_WRITES_SEMICOLON : 0;
    }
    unsigned nested = macro_writes(ww, tu, w, clang_getNullCursor(), level);
    return *depth > 0 ? nested & ELC_WRITES_BRACE : nested;
}

/* The macro use that begins at offset off of f, from the spans in use
 * (a null cursor when none: a name inside another use's arguments is
 * expanded there, not recorded). */
static CXCursor use_beginning_at(CXTranslationUnit tu, CXFile f, unsigned off)
{
    if (!active || active->tu != tu)
        return clang_getNullCursor();
    const span *x = span_at(active, f, off);
    return x && x->begin == off ? x->cursor : clang_getNullCursor();
}

unsigned elc_macros_write(CXTranslationUnit tu, CXFile f, unsigned at, const char *t, size_t n)
{
    writes_walk ww = {active && active->tu == tu ? active : NULL, false};
    unsigned found = 0;
    int depth = 0;
    for (size_t i = 0; i < n;) {
        size_t end = i + 1;
        el_lexeme k = el_lexeme_at(t, n, i, &end);
        if ((k == EL_LX_IDENT || k == EL_LX_OTHER) && end - i < 256) {
            char w[256];
            memcpy(w, t + i, end - i);
            w[end - i] = '\0';
            /* a use written here: the definition in effect at it */
            CXCursor use = k == EL_LX_IDENT && f ? use_beginning_at(tu, f, at + (unsigned)i)
                                                 : clang_getNullCursor();
            CXCursor def = clang_Cursor_isNull(use) ? use : clang_getCursorReferenced(use);
            if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) != CXCursor_MacroDefinition)
                def = clang_getNullCursor();
            if (!clang_Cursor_isNull(def))
                found |= macro_writes(&ww, tu, w, def, 0) & (depth > 0 ? ELC_WRITES_BRACE : ~0u);
            else if (k == EL_LX_IDENT || strchr("{};", w[0]))
                found |= writes_of(&ww, tu, w, k == EL_LX_OTHER, &depth, 0);
        }
        i = end > i ? end : i + 1;
    }
    return found;
}

/* The macro expansion at offset off of f (a null cursor when none). */
static CXCursor expansion_at(CXTranslationUnit tu, CXFile f, unsigned off)
{
    if (active && active->tu == tu) {
        const span *x = span_at(active, f, off);
        return x ? x->cursor : clang_getNullCursor();
    }
    /* no spans for this TU: ask libclang (a search from the top of the
     * TU each time, so slow on large files) */
    return clang_getCursor(tu, clang_getLocationForOffset(tu, f, off));
}

CXCursor elc_macro_expansion_at(CXTranslationUnit tu, CXFile f, unsigned off)
{
    CXCursor e = tu && f ? expansion_at(tu, f, off) : clang_getNullCursor();
    return clang_getCursorKind(e) == CXCursor_MacroExpansion ? e : clang_getNullCursor();
}

CXCursor elc_macro_expansion_of(CXCursor c)
{
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    if (!f || !tu)
        return clang_getNullCursor();
    CXCursor e = expansion_at(tu, f, off);
    return clang_getCursorKind(e) == CXCursor_MacroExpansion ? e : clang_getNullCursor();
}

bool elc_in_macro(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile ef = NULL, sf = NULL;
    unsigned eo = 0, so = 0;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    if (ef != sf || eo != so)
        return true; /* a macro argument */
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    if (!tu || !ef)
        return false;
    CXCursor at = active && active->tu == tu ? expansion_at(tu, ef, eo) : clang_getCursor(tu, loc);
    return clang_getCursorKind(at) == CXCursor_MacroExpansion;
}

/* ---- tree ------------------------------------------------------------ */

typedef struct child_walk {
    unsigned want, seen;
    CXCursor found;
} child_walk;

static enum CXChildVisitResult count_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)c;
    (void)p;
    (*(unsigned *)d)++;
    return CXChildVisit_Continue;
}

unsigned elc_child_count(CXCursor c)
{
    unsigned n = 0;
    clang_visitChildren(c, count_visit, &n);
    return n;
}

static enum CXChildVisitResult nth_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    child_walk *w = d;
    if (w->seen++ == w->want) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

CXCursor elc_child(CXCursor c, unsigned i)
{
    child_walk w = {i, 0, clang_getNullCursor()};
    clang_visitChildren(c, nth_visit, &w);
    return w.found;
}

CXCursor elc_strip(CXCursor e)
{
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return e;
        if (elc_child_count(e) != 1)
            return e;
        e = elc_child(e, 0);
    }
    return e;
}

CXCursor elc_strip_casts(CXCursor e)
{
    for (int guard = 0; guard < 64; guard++) {
        e = elc_strip(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr &&
            k != CXCursor_CXXFunctionalCastExpr)
            return e; /* C, and C++'s static_cast<T>(x) and T(x) */
        /* children of a cast: the type reference(s), then the operand */
        unsigned n = elc_child_count(e);
        if (n == 0)
            return e;
        e = elc_child(e, n - 1);
    }
    return e;
}

CXCursor elc_referenced(CXCursor e)
{
    e = elc_strip_casts(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

/* ---- calls ----------------------------------------------------------- */

/* e without parentheses, casts, `*` and `&`. */
static CXCursor strip_fn_expr(CXCursor e)
{
    for (int guard = 0; guard < 64; guard++) {
        e = elc_strip_casts(e);
        if (clang_getCursorKind(e) != CXCursor_UnaryOperator)
            return e;
        char op[4];
        bool post = false;
        if (!elc_unary_operator(e, op, sizeof op, &post) || post ||
            (strcmp(op, "*") != 0 && strcmp(op, "&") != 0))
            return e;
        e = elc_child(e, 0);
    }
    return e;
}

CXCursor elc_callee(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(call);
    if (clang_getCursorKind(d) == CXCursor_FunctionDecl)
        return d;
    CXCursor e = elc_child(call, 0);
    for (int hop = 0; hop < MAX_ALIAS_HOPS && !clang_Cursor_isNull(e); hop++) {
        e = strip_fn_expr(e);
        if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
            return clang_getNullCursor();
        d = clang_getCursorReferenced(e);
        enum CXCursorKind k = clang_getCursorKind(d);
        if (k == CXCursor_FunctionDecl)
            return d;
        if (k != CXCursor_VarDecl)
            return clang_getNullCursor();
        /* A pointer variable: follow its initializer, if any (the
         * definition's, when this is an extern declaration). */
        CXCursor def = clang_getCursorDefinition(d);
        if (!clang_Cursor_isNull(def))
            d = def;
        e = clang_Cursor_getVarDeclInitializer(d);
    }
    return clang_getNullCursor();
}

const char *elc_callee_name(CXCursor call, char *buf, size_t n)
{
    CXCursor d = elc_callee(call);
    if (clang_Cursor_isNull(d))
        return NULL;
    return elc_spelling(d, buf, n);
}

/* ---- operators ------------------------------------------------------- */

static const char *const binary_ops[] = {
    "*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
    "&", "^", "|", "&&", "||", "=", "*=", "/=", "%=", "+=", "-=", "<<=",
    ">>=", "&=", "^=", "|=", ",", NULL,
};
static const char *const prefix_ops[] = {"++", "--", "-", "+", "!", "~", "*", "&", NULL};
static const char *const postfix_ops[] = {"++", "--", NULL};

static bool in_set(const char *const *set, const char *s)
{
    for (; *set; set++)
        if (strcmp(*set, s) == 0)
            return true;
    return false;
}

static bool is_assign(const char *op)
{
    size_t l = strlen(op);
    return l >= 2 && op[l - 1] == '=' && strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 &&
           strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0;
}

/* Where a location is spelled: file and offset (for code from a macro
 * argument, in the argument; for code from a macro body, libclang 14
 * answers the expansion site). */
static bool spelled_at(CXSourceLocation loc, CXFile *f, unsigned *off)
{
    *f = NULL;
    clang_getSpellingLocation(loc, f, NULL, NULL, off);
    return *f != NULL;
}

/* ---- an operator written in a macro body --------------------------------
 *
 * libclang 14 gives such an expression's operator no location of its
 * own: every token of the body is at the macro's use.  So the expression
 * is matched against the body's tokens, its tree read as the tokens it is
 * written with (a parenthesised expression is `(`, the inner one, `)`; a
 * call is the callee, `(`, the arguments between commas, `)`; ...), from
 * every token the match could start at.  The other macros the body uses
 * are expanded in it first (read_body), so an expression of their bodies
 * is matched in their tokens.  A parameter stands for an expression whose
 * first and last tokens are its argument's at the use (libclang 14's
 * spelling location is where the file has them).  The answer is the
 * operator the matches find when they all find the same one; two places
 * that match alike leave it unknown: never a guess. */

/* The operators a cursor may have: binary ones (compound assignments or
 * not, -1 either), or prefix and postfix ones for a unary operator. */
typedef struct op_sets {
    const char *const *binary;
    int compound;
    const char *const *prefix, *const *postfix;
} op_sets;

#define BODY_MAX 1024 /* tokens: a longer body is not matched */

#define PARAMS_MAX 32

typedef struct argument {
    unsigned b, e;              /* its text in the use's file, [b, e) */
    bool seen;                  /* the use gives it */
} argument;

typedef struct body {
    unsigned n;                 /* tokens of the replacement list */
    char (*text)[32];           /* each token, cut to 31 bytes */
    CXTokenKind *kind;
    unsigned char *param;       /* the parameter a token names, from 1 (0: none) */
    unsigned n_params;
    bool variadic;              /* the last parameter is __VA_ARGS__ */
    CXFile file;                /* the use's */
    argument args[PARAMS_MAX];  /* what the use gives each parameter */
} body;

static bool tok_is(const body *b, long i, const char *s)
{
    return i >= 0 && (unsigned long)i < b->n && strcmp(b->text[i], s) == 0;
}

static bool is_literal_kind(enum CXCursorKind k)
{
    return k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral ||
           k == CXCursor_CharacterLiteral || k == CXCursor_StringLiteral;
}

/* The index after `(`...`)` starting at i (the parentheses balanced), -1
 * when there is none. */
static long skip_parens(const body *b, long i)
{
    if (!tok_is(b, i, "("))
        return -1;
    int depth = 0;
    for (; (unsigned long)i < b->n; i++) {
        if (strcmp(b->text[i], "(") == 0)
            depth++;
        else if (strcmp(b->text[i], ")") == 0 && --depth == 0)
            return i + 1;
    }
    return -1;
}

/* How tightly a binary operator token binds (C's precedence, 12 for
 * `*` down to 2 for `=` and 1 for `,`), 0 for a token that is not one. */
static int binary_strength(const char *op)
{
    static const char *const levels[] = {",", "", "||", "&&", "|", "^", "&", "== !=",
                                         "< > <= >=", "<< >>", "+ -", "* / %"};
    if (strcmp(op, "=") == 0 || is_assign(op))
        return 2;
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
        const char *at = strstr(levels[l], op);
        size_t n = strlen(op);
        if (n && at && (at == levels[l] || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0'))
            return (int)l + 1;
    }
    return 0;
}

/* Whether token i ends an operand (what a binary or postfix operator
 * follows). */
static bool ends_operand(const body *b, long i)
{
    if (i < 0 || (unsigned long)i >= b->n)
        return false;
    return b->kind[i] == CXToken_Identifier || b->kind[i] == CXToken_Literal ||
           strcmp(b->text[i], ")") == 0 || strcmp(b->text[i], "]") == 0;
}

/* Whether tokens [s, t), matched as an operator of strength `strength`
 * (prefix 15, postfix 16), are that whole expression in the body: no
 * operator around them binds one of its operands tighter.  (Read from
 * `b`, `a * b + c` has the shape of x + y, but `a *` takes the b.) */
static bool stands_alone(const body *b, long s, long t, int strength, bool prefix)
{
    bool right_assoc = strength == 2 || strength == 15;
    if ((unsigned long)t < b->n) {
        const char *next = b->text[t];
        int p = binary_strength(next);
        if (in_set(postfix_ops, next) || strcmp(next, "[") == 0 || strcmp(next, "(") == 0 ||
            strcmp(next, ".") == 0 || strcmp(next, "->") == 0 || p > strength ||
            (p == strength && right_assoc))
            return false;
    }
    if (s > 0 && !prefix) {
        const char *prev = b->text[s - 1];
        bool after_operand = ends_operand(b, s - 2);
        int p = after_operand ? binary_strength(prev) : 0;
        if (strcmp(prev, ".") == 0 || strcmp(prev, "->") == 0 ||
            (!after_operand && in_set(prefix_ops, prev) && strength < 15) || p > strength ||
            (p == strength && !right_assoc))
            return false;
    }
    return true;
}

static long match(const body *b, CXCursor e, long i, unsigned depth);

static long expect(const body *b, long i, const char *s)
{
    return tok_is(b, i, s) ? i + 1 : -1;
}

static long match_child(const body *b, CXCursor e, unsigned k, long i, unsigned depth)
{
    CXCursor c = elc_child(e, k);
    return i < 0 || clang_Cursor_isNull(c) ? -1 : match(b, c, i, depth + 1);
}

/* A name as the body spells it: the token, cut as the body's are. */
static bool names(const body *b, long i, CXCursor e)
{
    char name[32];
    elc_spelling(e, name, sizeof name);
    return b->kind[i] == CXToken_Identifier && strcmp(b->text[i], name) == 0;
}

static long match_call(const body *b, CXCursor e, long i, unsigned depth)
{
    unsigned n = elc_child_count(e);
    if (n == 0)
        return -1;
    i = expect(b, match_child(b, e, 0, i, depth), "(");
    for (unsigned k = 1; k < n && i >= 0; k++) {
        long at = k == 1 ? i : expect(b, i, ",");
        if (at >= 0 && b->variadic && b->param[at] == b->n_params)
            return expect(b, at + 1, ")"); /* __VA_ARGS__: the arguments left */
        i = match_child(b, e, k, at, depth);
    }
    return i < 0 ? -1 : expect(b, i, ")");
}

static long match_unary(const body *b, CXCursor e, long i, unsigned depth)
{
    if (in_set(prefix_ops, b->text[i]) && !ends_operand(b, i - 1)) {
        long t = match_child(b, e, 0, i + 1, depth);
        if (t >= 0 && stands_alone(b, i, t, 15, true))
            return t;
    }
    long j = match_child(b, e, 0, i, depth);
    return j >= 0 && (unsigned long)j < b->n && in_set(postfix_ops, b->text[j]) &&
                   stands_alone(b, i, j + 1, 16, false)
               ? j + 1
               : -1;
}

/* The index after the tokens expression e is written with from i, -1
 * when they are not there. */
static long match_tree(const body *b, CXCursor e, long i, unsigned depth);

/* The argument of the use whose text holds expression e (where the file
 * has it: libclang 14's spelling location), from 1; 0 for one the body
 * wrote. */
static unsigned argument_of(const body *b, CXCursor e)
{
    CXSourceRange r = clang_getCursorExtent(e);
    CXFile f = NULL, g = NULL;
    unsigned from = 0, to = 0;
    clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, &from);
    clang_getSpellingLocation(clang_getRangeEnd(r), &g, NULL, NULL, &to);
    if (!f || !g || !b->file || !clang_File_isEqual(f, b->file) || !clang_File_isEqual(g, f))
        return 0;
    /* (first and last token both there: x + 1 in a body, x an argument,
     * is the body's) */
    for (unsigned p = 0; p < b->n_params; p++)
        if (b->args[p].seen && b->args[p].b <= from && from < b->args[p].e &&
            b->args[p].b < to && to <= b->args[p].e)
            return p + 1;
    return 0;
}

/* Can token i stand for all of expression e: a parameter whose argument
 * e is? */
static bool stands_for(const body *b, long i, CXCursor e)
{
    return b->param[i] && argument_of(b, e) == b->param[i];
}

static long match(const body *b, CXCursor e, long i, unsigned depth)
{
    if (depth > 64 || i < 0 || (unsigned long)i >= b->n)
        return -1;
    long j = match_tree(b, e, i, depth);
    return j < 0 && stands_for(b, i, e) ? i + 1 : j;
}

static long match_tree(const body *b, CXCursor e, long i, unsigned depth)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    if (is_literal_kind(k))
        return b->kind[i] == CXToken_Literal ? i + 1 : -1;
    switch (k) {
    case CXCursor_DeclRefExpr:
        return names(b, i, e) ? i + 1 : -1;
    case CXCursor_UnexposedExpr: /* an implicit conversion */
        return elc_child_count(e) == 1 ? match_child(b, e, 0, i, depth) : -1;
    case CXCursor_ParenExpr:
        return expect(b, match_child(b, e, 0, expect(b, i, "("), depth), ")");
    case CXCursor_CStyleCastExpr: {
        unsigned n = elc_child_count(e);
        return n == 0 ? -1 : match_child(b, e, n - 1, skip_parens(b, i), depth);
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        long j = match_child(b, e, 0, i, depth);
        if (j < 0 || (unsigned long)j >= b->n || !in_set(binary_ops, b->text[j]))
            return -1;
        long t = match_child(b, e, 1, j + 1, depth);
        return t >= 0 && stands_alone(b, i, t, binary_strength(b->text[j]), false) ? t : -1;
    }
    case CXCursor_UnaryOperator:
        return match_unary(b, e, i, depth);
    case CXCursor_CallExpr:
        return match_call(b, e, i, depth);
    case CXCursor_ArraySubscriptExpr:
        return expect(b, match_child(b, e, 1, expect(b, match_child(b, e, 0, i, depth), "["), depth),
                      "]");
    case CXCursor_MemberRefExpr: {
        long j = elc_child_count(e) == 1 ? match_child(b, e, 0, i, depth) : -1;
        if (j < 0 || !(tok_is(b, j, ".") || tok_is(b, j, "->")) || (unsigned long)j + 1 >= b->n)
            return -1;
        return stands_for(b, j + 1, e) || names(b, j + 1, e) ? j + 2 : -1;
    }
    case CXCursor_ConditionalOperator: {
        long j = expect(b, match_child(b, e, 0, i, depth), "?");
        return match_child(b, e, 2, expect(b, match_child(b, e, 1, j, depth), ":"), depth);
    }
    default:
        return -1;
    }
}

static void body_free(body *b)
{
    free(b->text);
    free(b->kind);
    free(b->param);
}

/* The arguments of the use exp (its tokens), split at the commas outside
 * parentheses (only parentheses group them): each one's text [b, e) in
 * the file, at most max.  Their count; *file: the use's file. */
static unsigned tokenize_arguments(CXTranslationUnit tu, CXCursor exp, argument *args, unsigned max,
                                   CXFile *file)
{
    if (active && active->tu == tu)
        active->use_reads++;
    CXToken *toks = NULL;
    unsigned nt = 0, p = 0;
    clang_tokenize(tu, clang_getCursorExtent(exp), &toks, &nt);
    int depth = 0;
    if (file)
        *file = NULL;
    for (unsigned i = 1; i < nt && p < max; i++) {
        char s[4];
        elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
        bool open = strcmp(s, "(") == 0, close = strcmp(s, ")") == 0;
        if (open && depth++ == 0)
            continue; /* the use's ( */
        if (close && --depth == 0) {
            p += args[p].seen;
            break;    /* its ) */
        }
        if (depth == 1 && strcmp(s, ",") == 0) {
            p++;
            continue;
        }
        if (depth < 1)
            continue; /* (not a function-like macro's use) */
        CXSourceRange r = clang_getTokenExtent(tu, toks[i]);
        unsigned tb = 0, te = 0;
        CXFile f = NULL;
        clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, &tb);
        clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &te);
        if (file && !*file)
            *file = f;
        argument *a = &args[p];
        if (!a->seen)
            a->b = tb;
        a->e = te;
        a->seen = true;
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return p;
}

/* The arguments of the uses of a TU's macros, each use read once: an
 * operator's helpers ask about its use for every operator in it, which
 * read again each time was quadratic in the use's size.  Keyed on where
 * the use begins (file, offset); open addressing, grown at half full. */
typedef struct use_entry {
    CXFile file;                /* NULL: an empty slot */
    unsigned off;
    unsigned n;                 /* use_arguments' count */
    CXFile uf;                  /* and its file */
    argument *args;             /* n of them */
} use_entry;

struct use_cache {
    use_entry *v;
    size_t n, cap;
};

static void use_cache_free(use_cache *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->cap; i++)
        free(u->v[i].args);
    free(u->v);
    free(u);
}

static size_t use_slot(const use_cache *u, CXFile f, unsigned off)
{
    uint64_t h = ((uint64_t)(uintptr_t)f * 0x9e3779b97f4a7c15u) ^ (off * 0xff51afd7ed558ccdu);
    size_t i = (size_t)(h ^ (h >> 29)) & (u->cap - 1);
    while (u->v[i].file && (u->v[i].file != f || u->v[i].off != off))
        i = (i + 1) & (u->cap - 1);
    return i;
}

static bool use_cache_grow(use_cache *u)
{
    size_t cap = u->cap ? u->cap * 2 : 64;
    use_entry *old = u->v;
    size_t old_cap = u->cap;
    use_entry *v = calloc(cap, sizeof *v);
    if (!v)
        return false;
    u->v = v;
    u->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].file)
            u->v[use_slot(u, old[i].file, old[i].off)] = old[i];
    free(old);
    return true;
}

/* use_arguments' answer for exp, from the active spans' cache when they
 * are this TU's (read and kept the first time), else read now. */
static unsigned use_arguments(CXTranslationUnit tu, CXCursor exp, argument *args, unsigned max,
                              CXFile *file)
{
    CXFile f = NULL;
    unsigned off = 0;
    if (!active || active->tu != tu)
        return tokenize_arguments(tu, exp, args, max, file);
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(exp)), &f, NULL, NULL, &off);
    if (!f)
        return tokenize_arguments(tu, exp, args, max, file);
    if (!active->uses)
        active->uses = calloc(1, sizeof *active->uses);
    use_cache *u = active->uses;
    if (!u || ((u->n + 1) * 2 > u->cap && !use_cache_grow(u)))
        return tokenize_arguments(tu, exp, args, max, file);
    use_entry *x = &u->v[use_slot(u, f, off)];
    if (!x->file) {
        argument all[PARAMS_MAX * 2];
        memset(all, 0, sizeof all);
        CXFile uf = NULL;
        unsigned n = tokenize_arguments(tu, exp, all, PARAMS_MAX * 2, &uf);
        argument *keep = n ? malloc(n * sizeof *keep) : NULL;
        if (n && !keep) {
            unsigned k = n < max ? n : max;
            memcpy(args, all, k * sizeof *args);
            if (file)
                *file = uf;
            return k;
        }
        if (n)
            memcpy(keep, all, n * sizeof *keep);
        x->file = f;
        x->off = off;
        x->n = n;
        x->uf = uf;
        x->args = keep;
        u->n++;
    }
    unsigned k = x->n < max ? x->n : max;
    if (k)
        memcpy(args, x->args, k * sizeof *args);
    if (file)
        *file = x->uf;
    return k;
}

unsigned long elc_macro_spans_use_reads(const elc_macro_spans *m)
{
    return m ? m->use_reads : 0;
}

int elc_macro_argument_at(CXTranslationUnit tu, CXCursor exp, CXFile f, unsigned off,
                          unsigned *b, unsigned *e)
{
    argument args[PARAMS_MAX * 2];
    memset(args, 0, sizeof args);
    CXFile uf = NULL;
    unsigned n = use_arguments(tu, exp, args, PARAMS_MAX * 2, &uf);
    for (unsigned k = 0; k < n && uf && f && clang_File_isEqual(uf, f); k++)
        if (args[k].seen && args[k].b <= off && off < args[k].e) {
            *b = args[k].b;
            *e = args[k].e;
            return (int)k;
        }
    return -1;
}

/* What the use exp gives each parameter; the variadic one takes the
 * arguments left. */
static void read_arguments(CXTranslationUnit tu, CXCursor exp, body *b)
{
    argument raw[PARAMS_MAX * 2];
    memset(raw, 0, sizeof raw);
    unsigned n = use_arguments(tu, exp, raw, PARAMS_MAX * 2, &b->file);
    for (unsigned k = 0; k < n; k++) {
        unsigned p = b->variadic && k >= b->n_params ? b->n_params - 1 : k;
        if (p >= b->n_params || !raw[k].seen)
            continue;
        if (!b->args[p].seen)
            b->args[p].b = raw[k].b;
        b->args[p].e = raw[k].e;
        b->args[p].seen = true;
    }
}

/* ---- the TU's macros, by name: a body that uses another is read with
 * the other's expansion in place */

enum { NOT_MACRO, IS_MACRO, MACROS_UNKNOWN };

/* A name's slot in a macro table's index: its hash, and its definition
 * (index + 1 in defs; 0 an empty slot); twice: defined more than once. */
typedef struct macro_slot {
    uint64_t hash;
    size_t def;
    bool twice;
} macro_slot;

struct macro_table {
    CXTranslationUnit tu;
    bool whole;                /* every macro was read (no precompiled prefix) */
    bool failed;               /* out of memory: none are known */
    bool fed;                  /* defs from the engine's walk (elc_macro_spans_feed_definition) */
    bool feeding;              /* ... which has not passed them all yet */
    bool indexed;              /* slots hold defs' names */
    macro_slot *slots;         /* open addressing, by name (no copy of it kept) */
    size_t cap_slots;          /* a power of two */
    CXCursor *defs;
    size_t n, cap;
};

static void macro_table_free(macro_table *t)
{
    if (!t)
        return;
    free(t->slots);
    free(t->defs);
    free(t);
}

/* A name as the table keeps it: its first 127 bytes (a name of 128 or
 * more is then none of the table's: the keys were spelled into 128
 * bytes). */
enum { MACRO_NAME_MAX = 127 };

static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001B3ULL;
    return h;
}

/* Is the name of slot x's definition name[0..len)? */
static bool slot_is(const macro_table *t, const macro_slot *x, const char *name, size_t len)
{
    CXString sp = clang_getCursorSpelling(t->defs[x->def - 1]);
    const char *c = clang_getCString(sp);
    size_t n = c ? strnlen(c, MACRO_NAME_MAX) : 0;
    bool same = n == len && memcmp(c, name, len) == 0;
    clang_disposeString(sp);
    return same;
}

/* The slot of name[0..len) (hash h): its own, or the empty one it would take. */
static macro_slot *slot_of(const macro_table *t, const char *name, size_t len, uint64_t h)
{
    size_t mask = t->cap_slots - 1;
    for (size_t j = h & mask;; j = (j + 1) & mask) {
        macro_slot *x = &t->slots[j];
        if (!x->def || (x->hash == h && slot_is(t, x, name, len)))
            return x;
    }
}

/* Which definition name has: 0 none, UINTPTR_MAX defined twice, else its
 * index in defs + 1. */
static uintptr_t macro_lookup(const macro_table *t, const char *name)
{
    size_t len = strlen(name);
    if (!t->cap_slots || len > MACRO_NAME_MAX)
        return 0;
    const macro_slot *x = slot_of(t, name, len, name_hash(name, len));
    return !x->def ? 0 : x->twice ? UINTPTR_MAX : (uintptr_t)x->def;
}

static macro_table *macro_table_new(CXTranslationUnit tu)
{
    macro_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    /* A prefix's macros (system headers') are not visited: a name not
     * found may be one of them (macro_kind). */
    t->tu = tu;
    t->whole = tu != partial.tu;
    return t;
}

static bool add_definition(macro_table *t, CXCursor c)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        CXCursor *v = realloc(t->defs, cap * sizeof *v);
        if (!v) {
            t->failed = true;
            return false;
        }
        t->defs = v;
        t->cap = cap;
    }
    t->defs[t->n++] = c;
    return true;
}

/* The engine's walk has fed every definition. */
static void macro_table_fed(macro_table *t)
{
    if (t)
        t->feeding = false;
}

static bool note_definition(CXCursor c, enum CXCursorKind kind, void *d)
{
    return kind != CXCursor_MacroDefinition || add_definition(d, c);
}

/* The names of the definitions, the first time one is asked for. */
static void macro_table_index(macro_table *t)
{
    if (t->indexed)
        return;
    t->indexed = true;
    size_t cap = 16;
    while (cap < t->n * 2)
        cap *= 2;
    t->slots = calloc(cap, sizeof *t->slots);
    if (!t->slots) {
        t->failed = true;
        return;
    }
    t->cap_slots = cap;
    for (size_t i = 0; i < t->n; i++) {
        CXString sp = clang_getCursorSpelling(t->defs[i]);
        const char *c = clang_getCString(sp);
        size_t len = c ? strnlen(c, MACRO_NAME_MAX) : 0;
        uint64_t h = name_hash(c ? c : "", len);
        macro_slot *x = slot_of(t, c ? c : "", len, h);
        /* defined twice (#undef, then again): which one a use sees is not
         * known here */
        if (x->def)
            x->twice = true;
        else
            *x = (macro_slot){h, i + 1, false};
        clang_disposeString(sp);
    }
}

static macro_table *macro_table_read(CXTranslationUnit tu)
{
    macro_table *t = macro_table_new(tu);
    if (t)
        elc_visit_preprocessing(tu, note_definition, t);
    return t;
}

unsigned elc_macro_spans_table_walks(const elc_macro_spans *m)
{
    return m ? m->table_walks : 0;
}

void elc_macro_spans_feed_definition(elc_macro_spans *m, CXCursor def)
{
    if (!m)
        return;
    if (!m->macros && !m->defs_closed) {
        m->macros = macro_table_new(m->tu);
        if (!m->macros)
            return;
        m->macros->fed = m->macros->feeding = true;
    }
    /* no table when one was read whole and its allocation failed */
    if (m->macros && m->macros->feeding && !m->macros->failed)
        add_definition(m->macros, def);
}

/* Is name a macro (*def: its definition)? */
static int macro_kind(macro_table *t, const char *name, CXCursor *def)
{
    if (!t || t->failed)
        return MACROS_UNKNOWN;
    uintptr_t k = macro_lookup(t, name);
    if (!k && !t->whole) {
        elc_tu_whole(t->tu); /* the file is linted again without its prefix */
        return MACROS_UNKNOWN;
    }
    if (!k)
        return NOT_MACRO;
    if (k == UINTPTR_MAX)
        return MACROS_UNKNOWN;
    *def = t->defs[k - 1];
    return IS_MACRO;
}

/* The table of tu's macros: the engine's TU's, read once (*own: a table
 * of its own to free, for another TU). */
static macro_table *macros_of(CXTranslationUnit tu, bool *own)
{
    *own = !active || active->tu != tu;
    macro_table *t = NULL;
    if (*own) {
        t = macro_table_read(tu);
    } else {
        active->defs_closed = true; /* (no table is fed from now on) */
        if (active->macros && active->macros->feeding) {
            /* asked before the engine's walk passed every definition: a
             * walk of its own */
            macro_table_free(active->macros);
            active->macros = NULL;
        }
        if (!active->macros) {
            active->macros = macro_table_read(tu);
            active->table_walks++;
        }
        t = active->macros;
    }
    if (t && !t->failed)
        macro_table_index(t);
    return t;
}

/* elc_macro_named's answer from the table t. */
static int named_in(macro_table *t, const char *name)
{
    CXCursor def = clang_getNullCursor();
    int k = macro_kind(t, name, &def);
    return k == NOT_MACRO ? 0 : k == IS_MACRO ? (clang_Cursor_isMacroFunctionLike(def) ? 2 : 1) : -1;
}

int elc_macro_named(CXTranslationUnit tu, const char *name)
{
    bool own = false;
    macro_table *t = macros_of(tu, &own);
    int r = named_in(t, name);
    if (own)
        macro_table_free(t);
    return r;
}

int elc_macro_named_here(CXTranslationUnit tu, const char *name)
{
    bool own = false;
    macro_table *t = macros_of(tu, &own);
    int r;
    if (t && !t->failed && !t->whole && !macro_lookup(t, name))
        r = -2; /* (not asked further: the TU is not wanted whole for it) */
    else
        r = named_in(t, name); /* (the table read above, not a second one) */
    if (own)
        macro_table_free(t);
    return r;
}

CXCursor elc_macro_definition(CXTranslationUnit tu, const char *name)
{
    bool own = false;
    macro_table *t = macros_of(tu, &own);
    CXCursor def = clang_getNullCursor();
    if (macro_kind(t, name, &def) != IS_MACRO)
        def = clang_getNullCursor();
    if (own)
        macro_table_free(t);
    return def;
}

CXCursor elc_macro_definition_here(CXTranslationUnit tu, const char *name)
{
    bool own = false;
    macro_table *t = macros_of(tu, &own);
    CXCursor def = clang_getNullCursor();
    bool here = !t || t->failed || t->whole || macro_lookup(t, name);
    if (here && macro_kind(t, name, &def) != IS_MACRO)
        def = clang_getNullCursor();
    if (own)
        macro_table_free(t);
    return def;
}

/* A token of a body as expanded: other macros' bodies put in place. */
typedef struct xtok {
    char text[32];
    CXTokenKind kind;
    unsigned char param;        /* the outer macro's parameter it names, from 1 */
} xtok;

typedef struct xbuf {
    xtok *v;
    unsigned n, cap;
} xbuf;

static bool xput(xbuf *x, const xtok *t)
{
    if (x->n == x->cap) {
        unsigned cap = x->cap ? x->cap * 2 : 64;
        if (cap > BODY_MAX * 4)
            return false;
        xtok *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return false;
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n++] = *t;
    return true;
}

/* A macro definition's replacement list into *out, and its parameter
 * names; false for one that pastes or stringizes. */
static bool def_tokens(CXTranslationUnit tu, CXCursor def, xbuf *out, char params[][32],
                       unsigned *n_params, bool *variadic)
{
    CXToken *toks = NULL;
    unsigned nt = 0, i = 1; /* after the macro's name */
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &nt);
    *n_params = 0;
    *variadic = false;
    if (clang_Cursor_isMacroFunctionLike(def)) {
        for (i = 2; i < nt; i++) {
            char s[32];
            elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
            if (strcmp(s, ")") == 0) {
                i++;
                break;
            }
            *variadic = strcmp(s, "...") == 0;
            if (*variadic)
                snprintf(s, sizeof s, "__VA_ARGS__");
            if ((*variadic || clang_getTokenKind(toks[i]) == CXToken_Identifier) &&
                *n_params < PARAMS_MAX)
                memcpy(params[(*n_params)++], s, sizeof s);
        }
    }
    bool ok = i <= nt && nt - i <= BODY_MAX;
    for (unsigned k = i; ok && k < nt; k++) {
        xtok t = {"", clang_getTokenKind(toks[k]), 0};
        elc_string(clang_getTokenSpelling(tu, toks[k]), t.text, sizeof t.text);
        ok = t.text[0] != '#' && xput(out, &t);
        for (unsigned p = 0; ok && p < *n_params && t.kind == CXToken_Identifier; p++)
            if (strcmp(params[p], t.text) == 0)
                out->v[out->n - 1].param = (unsigned char)(p + 1);
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return ok;
}

static bool expand_into(xbuf *out, CXTranslationUnit tu, macro_table *t, const xtok *in,
                        unsigned n, unsigned depth);

/* The call NAME ( args ) of function-like macro def at in[i] (in[i + 1]
 * is its `(`) expanded into out: its body with each parameter replaced
 * by the argument's tokens, then read again.  *next: past its `)`. */
static bool expand_call(xbuf *out, CXTranslationUnit tu, macro_table *t, CXCursor def,
                        const xtok *in, unsigned n, unsigned i, unsigned *next, unsigned depth)
{
    unsigned ab[PARAMS_MAX * 2], ae[PARAMS_MAX * 2], na = 0, k = i + 2;
    int paren = 1;
    ab[0] = k;
    for (; k < n && paren > 0; k++) {
        paren += !strcmp(in[k].text, "(") - !strcmp(in[k].text, ")");
        if ((paren == 1 && !strcmp(in[k].text, ",")) || paren == 0) {
            if (na + 1 >= PARAMS_MAX * 2)
                return false;
            ae[na++] = k;
            ab[na] = k + 1;
        }
    }
    if (paren != 0)
        return false;
    *next = k;
    xbuf repl = {0}, sub = {0};
    char params[PARAMS_MAX][32];
    unsigned np = 0;
    bool variadic = false, ok = def_tokens(tu, def, &repl, params, &np, &variadic);
    for (unsigned b = 0; ok && b < repl.n; b++) {
        unsigned p = repl.v[b].param;
        if (!p) {
            ok = xput(&sub, &repl.v[b]);
            continue;
        }
        /* the argument(s) it stands for; __VA_ARGS__ takes those left */
        unsigned from = p - 1, to = variadic && p == np ? na : p;
        for (unsigned a = from; ok && a < to && a < na; a++) {
            if (a > from) {
                xtok comma = {",", CXToken_Punctuation, 0};
                ok = xput(&sub, &comma);
            }
            for (unsigned x = ab[a]; ok && x < ae[a]; x++)
                ok = xput(&sub, &in[x]);
        }
    }
    ok = ok && expand_into(out, tu, t, sub.v, sub.n, depth + 1);
    free(repl.v);
    free(sub.v);
    return ok;
}

/* in[0..n) into out with the macros it names expanded; false for a
 * macro not known (a precompiled prefix's), an object-like one whose
 * expansion a `(` follows (it may name a function-like one), or too
 * deep. */
static bool expand_into(xbuf *out, CXTranslationUnit tu, macro_table *t, const xtok *in,
                        unsigned n, unsigned depth)
{
    if (depth > 8)
        return false;
    for (unsigned i = 0; i < n; i++) {
        CXCursor def = clang_getNullCursor();
        int mk = in[i].kind == CXToken_Identifier && !in[i].param
                     ? macro_kind(t, in[i].text, &def)
                     : NOT_MACRO;
        bool call = i + 1 < n && !strcmp(in[i + 1].text, "(");
        if (mk == NOT_MACRO) {
            if (!xput(out, &in[i]))
                return false;
            continue;
        }
        if (mk != IS_MACRO)
            return false;
        if (clang_Cursor_isMacroFunctionLike(def)) {
            if (!call || !expand_call(out, tu, t, def, in, n, i, &i, depth))
                return false;
            i--; /* (the loop steps past the `)`) */
            continue;
        }
        if (call)
            return false;
        xbuf repl = {0};
        char params[PARAMS_MAX][32];
        unsigned np = 0;
        bool variadic = false;
        bool ok = def_tokens(tu, def, &repl, params, &np, &variadic) &&
                  expand_into(out, tu, t, repl.v, repl.n, depth + 1);
        free(repl.v);
        if (!ok)
            return false;
    }
    return true;
}

/* The replacement list's tokens with the other macros it uses expanded,
 * its parameters marked, and what the use exp
 * gives them; false for a body too long, one that pastes or stringizes
 * (its tokens are not the expansion's), or one that uses a macro whose
 * definition is not known. */
static bool read_body(CXTranslationUnit tu, CXCursor def, CXCursor exp, macro_table *macros,
                      body *b)
{
    memset(b, 0, sizeof *b);
    xbuf raw = {0}, x = {0};
    char params[PARAMS_MAX][32];
    bool ok = def_tokens(tu, def, &raw, params, &b->n_params, &b->variadic);
    if (ok && clang_Cursor_isMacroFunctionLike(def))
        read_arguments(tu, exp, b);
    ok = ok && expand_into(&x, tu, macros, raw.v, raw.n, 0);
    free(raw.v);
    if (ok) {
        b->n = x.n;
        b->text = calloc(b->n + 1, sizeof *b->text);
        b->kind = calloc(b->n + 1, sizeof *b->kind);
        b->param = calloc(b->n + 1, sizeof *b->param);
        ok = b->text && b->kind && b->param;
    }
    for (unsigned k = 0; ok && k < b->n; k++) {
        memcpy(b->text[k], x.v[k].text, sizeof b->text[k]);
        b->kind[k] = x.v[k].kind;
        b->param[k] = x.v[k].param;
    }
    free(x.v);
    if (!ok)
        body_free(b);
    return ok;
}

/* The operator agreed on so far: false once two matches differ. */
static bool agree(char *cand, size_t n, bool *cand_post, const char *s, bool post)
{
    if (!cand[0]) {
        snprintf(cand, n, "%s", s);
        *cand_post = post;
        return true;
    }
    return strcmp(cand, s) == 0 && *cand_post == post;
}

/* Where child k of e can end when it starts at i: where its tree ends,
 * and where a parameter standing for all of it ends (an argument `a * b`
 * for x in `x + x` is the whole left operand).  The count of ends[]. */
static unsigned child_ends(const body *b, CXCursor e, unsigned k, long i, long ends[2])
{
    unsigned n = 0;
    CXCursor c = elc_child(e, k);
    if (i < 0 || (unsigned long)i >= b->n || clang_Cursor_isNull(c))
        return 0;
    long t = match_tree(b, c, i, 1);
    if (t >= 0)
        ends[n++] = t;
    if (t != i + 1 && stands_for(b, i, c))
        ends[n++] = i + 1;
    return n;
}

static bool macro_body_op(CXTranslationUnit tu, CXCursor exp, const char *const *set, int compound,
                          char *op, size_t n);

/* The operator of e (a binary or unary operator written in the body of
 * the macro expansion exp uses), found by matching e from every token of
 * the body; when no match can be made (an operand the matcher does not
 * read: sizeof), a body whose binary operators are all the same gives
 * that one. */
static bool macro_body_op_of(CXTranslationUnit tu, CXCursor exp, const op_sets *sets, CXCursor e,
                             char *op, size_t n, bool *postfix)
{
    body b;
    CXCursor def = clang_getCursorReferenced(exp);
    /* A system header's macro (assert, isnan): the body's own operators, when
     * they are all one, as its uses in every file read the same, with or
     * without a precompiled prefix holding it. */
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
        return clang_getCursorKind(e) == CXCursor_UnaryOperator
                   ? macro_body_op(tu, exp, sets->prefix, 0, op, n)
                   : macro_body_op(tu, exp, sets->binary, sets->compound, op, n);
    bool own_table = false;
    macro_table *macros = macros_of(tu, &own_table);
    bool got = clang_getCursorKind(def) == CXCursor_MacroDefinition &&
               read_body(tu, def, exp, macros, &b);
    if (own_table)
        macro_table_free(macros);
    if (!got)
        return false;
    bool unary = clang_getCursorKind(e) == CXCursor_UnaryOperator, ok = true;
    char cand[8] = "";
    bool cand_post = false;
    for (long i = 0; ok && (unsigned long)i < b.n; i++) {
        long first[2], second[2];
        if (unary) {
            unsigned nf = in_set(sets->prefix, b.text[i]) && !ends_operand(&b, i - 1)
                              ? child_ends(&b, e, 0, i + 1, first)
                              : 0;
            for (unsigned x = 0; x < nf && ok; x++)
                if (stands_alone(&b, i, first[x], 15, true))
                    ok = agree(cand, sizeof cand, &cand_post, b.text[i], false);
            unsigned np = child_ends(&b, e, 0, i, second);
            for (unsigned x = 0; x < np && ok; x++) {
                long j = second[x];
                if ((unsigned long)j < b.n && in_set(sets->postfix, b.text[j]) &&
                    stands_alone(&b, i, j + 1, 16, false))
                    ok = agree(cand, sizeof cand, &cand_post, b.text[j], true);
            }
            continue;
        }
        unsigned nl = child_ends(&b, e, 0, i, first);
        for (unsigned x = 0; x < nl && ok; x++) {
            long j = first[x];
            if ((unsigned long)j >= b.n || !in_set(sets->binary, b.text[j]) ||
                (sets->compound >= 0 &&
                 elc_is_compound_assign_op(b.text[j]) != (sets->compound != 0)))
                continue;
            unsigned nr = child_ends(&b, e, 1, j + 1, second);
            for (unsigned y = 0; y < nr && ok; y++)
                if (stands_alone(&b, i, second[y], binary_strength(b.text[j]), false))
                    ok = agree(cand, sizeof cand, &cand_post, b.text[j], false);
        }
    }
    body_free(&b);
    if (ok && !cand[0] && !unary)
        return macro_body_op(tu, exp, sets->binary, sets->compound, op, n);
    if (!ok || !cand[0])
        return false;
    snprintf(op, n, "%s", cand);
    if (postfix)
        *postfix = cand_post;
    return true;
}

CXToken *elc_macro_tokens(CXTranslationUnit tu, CXCursor def, unsigned *nt, unsigned *first)
{
    CXToken *toks = NULL;
    *nt = 0;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, nt);
    *first = 1;
    if (clang_Cursor_isMacroFunctionLike(def)) {
        for (unsigned i = 2; i < *nt; i++) {
            char t[8];
            elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
            if (!strcmp(t, ")")) {
                *first = i + 1;
                break;
            }
        }
    }
    if (*first > *nt)
        *first = *nt;
    return toks;
}

/* The operator in the body of the macro an expansion cursor names, when
 * the body's operators of the wanted sort (in set; compound assignments
 * or not, -1 either) are all the same. */
static bool macro_body_op(CXTranslationUnit tu, CXCursor exp, const char *const *set, int compound,
                          char *op, size_t n)
{
    if (clang_getCursorKind(exp) != CXCursor_MacroExpansion)
        return false;
    CXCursor def = clang_getCursorReferenced(exp);
    if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
        return false;
    unsigned nt = 0, i = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &i);
    char cand[8] = "";
    bool ok = true;
    for (; i < nt && ok; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            continue;
        char s[8];
        elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
        if (!in_set(set, s) || strcmp(s, ",") == 0 ||
            (compound >= 0 && elc_is_compound_assign_op(s) != (compound != 0)))
            continue;
        if (!cand[0])
            snprintf(cand, sizeof cand, "%s", s);
        else if (strcmp(cand, s) != 0)
            ok = false;
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    if (!ok || !cand[0])
        return false;
    snprintf(op, n, "%s", cand);
    return true;
}

/* The macro use whose body has c's operator written in it: the one at
 * c's expansion location, unless c is written whole in a macro used
 * inside that one's argument (DIV(FIXC(0.2, 14), k): FIXC's `<<` is
 * written in FIXC, whose use is where the file has both ends of the
 * `<<`, not in DIV, whose body has only `/`).  An expression that only
 * starts or ends in such a macro (TWICE(K * b)) is the outer one's. */
static CXCursor operator_expansion(CXCursor c)
{
    CXCursor outer = elc_macro_expansion_of(c);
    if (clang_Cursor_isNull(outer))
        return outer;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile bf = NULL, ef = NULL, xf = NULL;
    unsigned bo = 0, eo = 0, xb = 0, xe = 0;
    if (!spelled_at(clang_getRangeStart(r), &bf, &bo) || !spelled_at(clang_getRangeEnd(r), &ef, &eo) ||
        bf != ef)
        return outer;
    CXCursor inner = expansion_at(tu, bf, bo);
    if (clang_getCursorKind(inner) != CXCursor_MacroExpansion || clang_equalCursors(inner, outer))
        return outer;
    CXSourceRange ir = clang_getCursorExtent(inner);
    clang_getExpansionLocation(clang_getRangeStart(ir), &xf, NULL, NULL, &xb);
    clang_getExpansionLocation(clang_getRangeEnd(ir), NULL, NULL, NULL, &xe);
    /* (an end written in an enclosing macro's body is spelled at that
     * macro's name, before the inner one: then the expression is not the
     * inner macro's alone) */
    return xf == bf && xb <= bo && bo <= eo && eo <= xe ? inner : outer;
}

/* The operator of c, written inside the body of the macro expanded where
 * c is (*postfix: whether a unary one follows its operand). */
static bool op_from_macro(CXCursor c, const op_sets *sets, char *op, size_t n, bool *postfix)
{
    CXCursor exp = operator_expansion(c);
    if (clang_Cursor_isNull(exp))
        return false;
    return macro_body_op_of(clang_Cursor_getTranslationUnit(c), exp, sets, c, op, n, postfix);
}

/* The last token of `set` at bracket depth 0 among the tokens spelled in
 * [from, to) of one file; compound: whether a compound assignment is
 * wanted (-1: any). */
static bool last_op_between(CXTranslationUnit tu, CXFile f, unsigned from, unsigned to,
                            const char *const *set, int compound, char *op, size_t n)
{
    if (from >= to)
        return false;
    CXSourceRange range = clang_getRange(clang_getLocationForOffset(tu, f, from),
                                         clang_getLocationForOffset(tu, f, to));
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, range, &toks, &nt);
    bool found = false;
    int depth = 0;
    for (unsigned i = 0; i < nt; i++) {
        unsigned off = 0;
        clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
        if (off >= to)
            break;
        CXTokenKind tk = clang_getTokenKind(toks[i]);
        if (tk == CXToken_Identifier && depth == 0) {
            /* an object-like macro standing for the operator: `a OP b` */
            char m[8];
            unsigned at = 0;
            clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &at);
            if (macro_body_op(tu, expansion_at(tu, f, at), set, compound, m, sizeof m)) {
                snprintf(op, n, "%s", m);
                found = true;
            }
            continue;
        }
        if (tk != CXToken_Punctuation)
            continue;
        char s[8];
        elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
        if (strcmp(s, "(") == 0 || strcmp(s, "[") == 0 || strcmp(s, "{") == 0) {
            depth++;
        } else if (strcmp(s, ")") == 0 || strcmp(s, "]") == 0 || strcmp(s, "}") == 0) {
            if (depth > 0)
                depth--;
        } else if (depth == 0 && in_set(set, s) &&
                   (compound < 0 || elc_is_compound_assign_op(s) == (compound != 0))) {
            snprintf(op, n, "%s", s);
            found = true;
        }
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return found;
}

/* Are operands spelled at lo and ro (in file f) either plain code, or in
 * one argument of the use of the macro c is expanded from (and of a use
 * inside that argument holding both)?  DIV(i, k) with DIV(a, b) (a / b),
 * also as CALL(r = DIV(i, k)): between i and k is DIV's use's comma. */
static bool one_argument(CXCursor c, CXCursor lhs, CXCursor rhs, CXFile f, unsigned lo,
                         unsigned ro)
{
    CXFile xf = NULL;
    unsigned xl = 0, xr = 0;
    clang_getExpansionLocation(clang_getCursorLocation(lhs), &xf, NULL, NULL, &xl);
    clang_getExpansionLocation(clang_getCursorLocation(rhs), NULL, NULL, NULL, &xr);
    if (xf == f && xl == lo && xr == ro)
        return true; /* no macro: where they are expanded is where they are written */
    CXCursor exp = elc_macro_expansion_of(c);
    if (clang_Cursor_isNull(exp))
        return true;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    unsigned b = 0, e = 0;
    if (elc_macro_argument_at(tu, exp, f, lo, &b, &e) < 0 || ro < b || ro >= e)
        return false;
    /* Both in one argument of a wrapper; the left one in an argument of a
     * macro used there, whose use holds the right one too: in another of
     * its arguments, the text between holds that use's comma
     * (TRACED("r", r -= RAW(total, count)) with RAW(a, b) (a / b)). */
    CXCursor in = expansion_at(tu, f, lo);
    if (clang_getCursorKind(in) != CXCursor_MacroExpansion || clang_equalCursors(in, exp))
        return true;
    CXSourceRange ir = clang_getCursorExtent(in);
    CXFile inf = NULL;
    unsigned ib = 0, ie = 0;
    clang_getExpansionLocation(clang_getRangeStart(ir), &inf, NULL, NULL, &ib);
    clang_getExpansionLocation(clang_getRangeEnd(ir), NULL, NULL, NULL, &ie);
    if (inf != f || lo < ib || ro >= ie || elc_macro_argument_at(tu, in, f, lo, &b, &e) < 0)
        return true;
    return b <= ro && ro < e;
}

/* The operator of binary operator c when the file has it between where
 * its operands are spelled (a macro argument's text included). */
static bool read_binary_in_file(CXCursor c, bool compound, char *op, size_t n)
{
    CXCursor lhs = elc_child(c, 0), rhs = elc_child(c, 1);
    if (clang_Cursor_isNull(lhs) || clang_Cursor_isNull(rhs))
        return false;
    /* The operator is the last one at depth 0 between where the operands
     * are spelled (the left operand's location may be inside it: s.x). */
    CXFile lf, rf, ef = NULL;
    unsigned lo, ro, le = 0;
    if (spelled_at(clang_getCursorLocation(lhs), &lf, &lo) &&
        spelled_at(clang_getCursorLocation(rhs), &rf, &ro) && lf == rf) {
        if (!one_argument(c, lhs, rhs, lf, lo, ro))
            return false; /* the text between holds the use's comma, not the operator */
        /* Start after the left operand when its end is known (not from a
         * macro): long chains a + b + ... stay linear. */
        clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(lhs)), &ef, NULL, NULL, &le);
        if (ef == lf && le >= lo && le <= ro)
            lo = le;
        return last_op_between(clang_Cursor_getTranslationUnit(c), lf, lo, ro, binary_ops, compound,
                               op, n);
    }
    return false;
}

/* read_binary_in_file, remembering the last answer in the active spans:
 * a rule asks elc_binary_operator, elc_operator_macro and
 * elc_operator_location about one operator in a row (compound follows
 * from c's kind, so the cursor is the whole key). */
static bool binary_in_file(CXCursor c, bool compound, char *op, size_t n)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    if (!active || active->tu != tu)
        return read_binary_in_file(c, compound, op, n);
    if (!clang_Cursor_isNull(active->last_binary) && clang_equalCursors(active->last_binary, c)) {
        if (active->last_found)
            snprintf(op, n, "%s", active->last_op);
        return active->last_found;
    }
    char mine[8] = "";
    bool found = read_binary_in_file(c, compound, mine, sizeof mine);
    active->last_binary = c;
    active->last_found = found;
    snprintf(active->last_op, sizeof active->last_op, "%s", mine);
    if (found)
        snprintf(op, n, "%s", mine);
    return found;
}

bool elc_binary_operator(CXCursor c, char *op, size_t n)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator)
        return false;
    bool compound = k == CXCursor_CompoundAssignOperator;
    if (binary_in_file(c, compound, op, n))
        return true;
    /* Written in a macro body: read the macro's definition. */
    op_sets sets = {binary_ops, compound ? 1 : 0, NULL, NULL};
    return op_from_macro(c, &sets, op, n, NULL);
}

/* The operator of unary operator c when the file has it before or after
 * where its operand is spelled. */
static bool unary_in_file(CXCursor c, char *op, size_t n, bool *postfix)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXCursor sub = elc_child(c, 0);
    CXFile uf, sf;
    unsigned uo, so;
    if (!clang_Cursor_isNull(sub) && spelled_at(clang_getCursorLocation(c), &uf, &uo) &&
        spelled_at(clang_getCursorLocation(sub), &sf, &so) && uf == sf) {
        if (uo < so)   /* prefix: the operator precedes the operand */
            return last_op_between(tu, uf, uo, so, prefix_ops, -1, op, n);
        if (uo == so) { /* postfix: the last token of the expression */
            CXToken *toks = NULL;
            unsigned nt = 0;
            clang_tokenize(tu, clang_getCursorExtent(c), &toks, &nt);
            bool found = false;
            if (nt) {
                char s[8];
                elc_string(clang_getTokenSpelling(tu, toks[nt - 1]), s, sizeof s);
                if (in_set(postfix_ops, s)) {
                    snprintf(op, n, "%s", s);
                    found = true;
                    if (postfix)
                        *postfix = true;
                }
            }
            if (toks)
                clang_disposeTokens(tu, toks, nt);
            return found;
        }
    }
    return false;
}

bool elc_unary_operator(CXCursor c, char *op, size_t n, bool *postfix)
{
    if (postfix)
        *postfix = false;
    if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
        return false;
    if (unary_in_file(c, op, n, postfix))
        return true;
    op_sets sets = {NULL, -1, prefix_ops, postfix_ops};
    return op_from_macro(c, &sets, op, n, postfix);
}

const char *elc_operator_macro(CXCursor c, char *buf, size_t n)
{
    char op[8];
    bool post = false;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        if (binary_in_file(c, k == CXCursor_CompoundAssignOperator, op, sizeof op))
            return NULL;
    } else if (k != CXCursor_UnaryOperator || unary_in_file(c, op, sizeof op, &post)) {
        return NULL;
    }
    CXCursor exp = operator_expansion(c);
    return clang_Cursor_isNull(exp) ? NULL : elc_spelling(exp, buf, n);
}

CXSourceLocation elc_operator_location(CXCursor c)
{
    char op[8];
    bool post = false;
    enum CXCursorKind k = clang_getCursorKind(c);
    bool in_file = k == CXCursor_UnaryOperator
                       ? unary_in_file(c, op, sizeof op, &post)
                       : binary_in_file(c, k == CXCursor_CompoundAssignOperator, op, sizeof op);
    if (!in_file) {
        CXCursor exp = operator_expansion(c);
        if (!clang_Cursor_isNull(exp))
            return clang_getCursorLocation(exp);
    }
    return clang_getCursorLocation(c);
}

bool elc_is_arithmetic_op(const char *op)
{
    return strcmp(op, "+") == 0 || strcmp(op, "-") == 0 || strcmp(op, "*") == 0 ||
           strcmp(op, "/") == 0 || strcmp(op, "%") == 0;
}

bool elc_is_compound_assign_op(const char *op)
{
    return is_assign(op) && strcmp(op, "=") != 0;
}

/* ---- preprocessor directives ------------------------------------------ */

static unsigned token_line(CXTranslationUnit tu, CXToken t, unsigned *offset)
{
    unsigned line = 0;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t), NULL, &line, NULL, offset);
    return line;
}

/* Does the line holding byte `off` end with a backslash (a continuation)? */
static bool continued(const char *text, size_t size, unsigned off)
{
    size_t i = off;
    while (i < size && text[i] != '\n')
        i++;
    size_t j = i;
    while (j > off && (text[j - 1] == ' ' || text[j - 1] == '\t' || text[j - 1] == '\r'))
        j--;
    return j > off && text[j - 1] == '\\';
}

void elc_each_directive(CXTranslationUnit tu, CXFile file, elc_directive_fn fn, void *ud)
{
    size_t size = 0;
    const char *text = clang_getFileContents(tu, file, &size);
    if (!text || !size)
        return;
    CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                       clang_getLocationForOffset(tu, file, (unsigned)size));
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, all, &toks, &nt);
    unsigned prev_line = 0;
    for (unsigned i = 0; i < nt; i++) {
        unsigned off = 0;
        unsigned line = token_line(tu, toks[i], &off);
        bool first_on_line = i == 0 || line != prev_line;
        prev_line = line;
        if (!first_on_line || clang_getTokenKind(toks[i]) != CXToken_Punctuation || i + 1 >= nt)
            continue;
        char s[4];
        elc_string(clang_getTokenSpelling(tu, toks[i]), s, sizeof s);
        unsigned noff = 0;
        if (strcmp(s, "#") != 0 || token_line(tu, toks[i + 1], &noff) != line)
            continue;
        CXTokenKind k = clang_getTokenKind(toks[i + 1]);
        if (k != CXToken_Identifier && k != CXToken_Keyword)
            continue;
        char name[32];
        elc_string(clang_getTokenSpelling(tu, toks[i + 1]), name, sizeof name);
        /* the directive's tokens: to the end of its logical line */
        unsigned start = i + 2, end = start, cur = line;
        unsigned cur_off = noff;
        while (end < nt) {
            unsigned eoff = 0;
            unsigned el = token_line(tu, toks[end], &eoff);
            if (el != cur) {
                if (!continued(text, size, cur_off))
                    break;
                cur = el;
            }
            cur_off = eoff;
            end++;
        }
        if (!fn(ud, tu, name, toks + start, end - start, line))
            break;
        i = end - 1;
        prev_line = cur;
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
}

/* ---- types ----------------------------------------------------------- */

bool elc_type_is_floating(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Half:
    case CXType_Float16:
    case CXType_Float128:
        return true;
    default:
        return false;
    }
}

bool elc_is_function_kind(enum CXCursorKind k)
{
    static const enum CXCursorKind kinds[] = {ELC_FUNCTION_KINDS};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (k == kinds[i])
            return true;
    return false;
}

bool elc_type_is_integer(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return (k >= CXType_Bool && k <= CXType_Int128) || k == CXType_Enum;
}

bool elc_type_is_pointer(CXType t)
{
    return clang_getCanonicalType(t).kind == CXType_Pointer;
}
