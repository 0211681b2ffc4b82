/* lint/engine/backend_names.c -- which backend a symbol name belongs to,
 * by the configured prefixes (backend_prefixes, rules/default.json).
 * Asked by the separation rules, the call rewrites and ember-migrate's
 * scanner; declared in rule.h. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend_header_memo.h"
#include "clang_util.h"
#include "config.h"
#include "mem.h"
#include "prefix_index.h"
#include "realpath_cache.h"
#include "rule.h"

const char *el_backend_of_symbol(const el_config *cfg, const char *name, char *buf, size_t n)
{
    const el_prefix_index *ix = el_config_prefix_index(cfg);
    size_t len = strlen(name);
    for (size_t i = 0; i < ix->n_slots; i++) {
        const el_backend_slot *s = &ix->slots[i];
        if (s->pre_literal && (len <= s->pre || strncmp(name, s->text, s->pre) != 0))
            continue;
        for (size_t b = 0; b < el_config_backend_count(cfg); b++) {
            const char *be = el_config_backend_name(cfg, b);
            bool hit;
            if (s->pattern) { /* eh_<backend>_*_kernel */
                char expanded[256];
                snprintf(expanded, sizeof expanded, "%.*s%s%s", (int)s->pre, s->text, be, s->post);
                hit = el_backend_prefix_matches(expanded, name);
            } else {
                size_t bl = strlen(be);
                hit = len > s->pre + bl + s->postlen && strncmp(name + s->pre, be, bl) == 0 &&
                      strncmp(name + s->pre + bl, s->post, s->postlen) == 0;
            }
            if (hit) {
                snprintf(buf, n, "%s", be);
                return buf;
            }
        }
    }
    return NULL;
}

/* Fortran names in upper case (DGEMM_, some compilers' mangling) match the
 * lower-case patterns; only names without a lower-case letter qualify. */
static bool upper_matches_pattern(const char *pattern, const char *name)
{
    char low[256];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof low; k++) {
        if (name[k] >= 'a' && name[k] <= 'z')
            return false;
        low[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] + 32 : name[k]);
    }
    low[k] = '\0';
    return !name[k] && fnmatch(pattern, low, 0) == 0;
}

static char upper_of(char c)
{
    return (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
}

/* name starts with the upper-case spelling of a plain prefix (CBLAS_). */
static bool upper_has_prefix(const char *prefix, const char *name)
{
    size_t k = 0;
    while (prefix[k] && name[k] == upper_of(prefix[k]))
        k++;
    return !prefix[k] && name[k];
}

static char lower(char c)
{
    return (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/* Can pattern e (ending in a literal character) not match a name ending
 * in c, in either case?  Most built-in patterns are Fortran names ending
 * in '_': this test is most of the answer for most names. */
static bool ends_apart(const el_prefix_entry *e, char c)
{
    return e->last && c != e->last && lower(c) != e->last;
}

/* Does the name s (n bytes; any case, when caseless) not end with the
 * pattern's literal tail, so that it cannot match?  Asked before fnmatch:
 * a name ending in '_' meets every Fortran routine pattern by its last
 * character alone. */
static bool tail_apart(const el_prefix_entry *e, const char *s, size_t n, bool caseless)
{
    const char *t = e->text + e->len - e->tail;
    if (e->tail > n)
        return true;
    return caseless ? strncasecmp(s + n - e->tail, t, e->tail) != 0
                    : memcmp(s + n - e->tail, t, e->tail) != 0;
}

/* How library builds decorate a routine's name, Fortran names and C
 * interfaces alike (NumPy and SciPy paste these onto the names they
 * write): the scipy-openblas wheels' prefix, and the suffixes of
 * Accelerate's new LAPACK (dgesv$NEWLAPACK, cblas_dgemm$NEWLAPACK$ILP64),
 * OpenBLAS's ILP64 builds (dgemm_64_, cblas_dgemm64_) and MKL's ILP64
 * names (dgemm_64, cblas_dgemm_64).  The one list of them. */
static const char decoration_prefix[] = "scipy_";
static const char *const decoration_suffixes[] = {"$NEWLAPACK$ILP64", "$NEWLAPACK", "64_", "_64"};

/* name without its decoration into buf (n bytes), as written (cblas_dgemm
 * of cblas_dgemm64_, dgemm_ of dgemm_64_, dgemm of dgemm_64), and the
 * suffix taken off into *suffix ("" for none); false when it has no
 * decoration. */
static bool strip_decoration(const char *name, char *buf, size_t n, const char **suffix)
{
    size_t pl = sizeof decoration_prefix - 1;
    const char *s = strncmp(name, decoration_prefix, pl) == 0 ? name + pl : name;
    size_t len = strlen(s);
    *suffix = "";
    if (len >= n)
        return false;
    memcpy(buf, s, len + 1);
    for (size_t k = 0; k < sizeof decoration_suffixes / sizeof *decoration_suffixes; k++) {
        size_t sl = strlen(decoration_suffixes[k]);
        if (len > sl && strcmp(buf + len - sl, decoration_suffixes[k]) == 0) {
            buf[len - sl] = '\0';
            *suffix = decoration_suffixes[k];
            break;
        }
    }
    if (s != name && (*suffix)[0] == '$')
        return false; /* no build pastes both: scipy_ wheels are not Accelerate */
    return buf[0] && strcmp(buf, name) != 0;
}

/* The Fortran name a library build's decoration of it stands for, into
 * buf (lower case; an all-upper-case name, as some compilers mangle
 * them, too, with `upper`): dgemm_ of dgemm_64_, scipy_dgemm_, dgemm_64,
 * dgemm$NEWLAPACK.  false when the name has no decoration, and for
 * dgemm64_ (OpenBLAS's suffix goes after the routine's underscore). */
static bool undecorated(const char *name, bool upper, char *buf, size_t n)
{
    size_t len = strlen(name);
    char folded[256];
    const char *suffix;
    if (len + 2 > n || len + 1 > sizeof folded)
        return false;
    bool has_lower = false;
    for (size_t k = 0; k < len; k++)
        has_lower |= name[k] >= 'a' && name[k] <= 'z';
    if (!has_lower && (!upper || strchr(name, '$')))
        return false; /* DGEMM_64_ only where upper case counts; $NEWLAPACK is never upper-cased */
    for (size_t k = 0; k <= len; k++) {
        char c = name[k];
        folded[k] = (char)(!has_lower && c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    if (!strip_decoration(folded, buf, n - 1, &suffix))
        return false;
    /* $NEWLAPACK and MKL's _64 replace the routine's underscore, the
     * others keep it */
    size_t bl = strlen(buf);
    bool kept = buf[bl - 1] == '_';
    if (kept != (!suffix[0] || strcmp(suffix, "64_") == 0))
        return false;
    if (!kept)
        memcpy(buf + bl, "_", 2);
    return true;
}

bool el_routine_name(const el_config *cfg, const char *name)
{
    const char *hit = el_backend_prefix_of(cfg, name, true);
    return hit && el_prefix_is_pattern(hit);
}

bool el_routine_stem(const el_config *cfg, const char *name, char *stem, size_t n)
{
    char buf[256];
    if (!el_routine_name(cfg, name))
        return false;
    if (!undecorated(name, true, buf, sizeof buf)) {
        size_t len = strlen(name);
        if (len >= sizeof buf)
            return false;
        for (size_t i = 0; i <= len; i++)
            buf[i] = lower(name[i]);
    }
    size_t len = strlen(buf);
    if (len < 2 || buf[len - 1] != '_' || len > n)
        return false;
    memcpy(stem, buf, len - 1);
    stem[len - 1] = '\0';
    return true;
}

bool el_routine_c_name(const el_config *cfg, const char *name)
{
    /* the C interfaces of BLAS and LAPACK, and the suffixes of their
     * variants: a complex dot product's result through a pointer
     * (cblas_zdotc_sub), a driver with its workspace from the caller
     * (LAPACKE_dgesv_work) */
    static const char *const interfaces[] = {"cblas_", "LAPACKE_", "LAPACK_"};
    static const char *const suffixes[] = {"_sub", "_work"};
    const char *hit = el_backend_prefix_of(cfg, name, false);
    if (!hit || el_prefix_is_pattern(hit))
        return false;
    for (size_t k = 0; k < sizeof interfaces / sizeof *interfaces; k++) {
        size_t pl = strlen(interfaces[k]);
        if (strncmp(name, interfaces[k], pl) != 0)
            continue;
        char routine[128];
        size_t len = strlen(name + pl);
        if (!len || len + 2 > sizeof routine)
            return false;
        for (size_t i = 0; i <= len; i++) /* a Fortran name: lower case */
            routine[i] = lower(name[pl + i]);
        for (size_t x = 0; x < sizeof suffixes / sizeof *suffixes; x++) {
            size_t sl = strlen(suffixes[x]);
            if (len > sl && !strcmp(routine + len - sl, suffixes[x])) {
                len -= sl;
                routine[len] = '\0';
                break;
            }
        }
        memcpy(routine + len, "_", 2);
        return el_routine_name(cfg, routine);
    }
    return false;
}

bool el_routine_plain(const el_config *cfg, const char *name, char *buf, size_t n)
{
    char stem[128];
    if (el_routine_stem(cfg, name, stem, sizeof stem)) {
        snprintf(buf, n, "%s_", stem);
        return strcmp(buf, name) != 0;
    }
    const char *suffix;
    return strip_decoration(name, buf, n, &suffix) && el_routine_c_name(cfg, buf);
}

bool el_routine_alias_target(const el_config *cfg, const char *name)
{
    char routine[256];
    size_t len = strlen(name);
    if (!len || len + 2 > sizeof routine || name[len - 1] == '_')
        return false;
    memcpy(routine, name, len);
    memcpy(routine + len, "_", 2);
    return el_routine_name(cfg, routine);
}

bool el_routine_mangled_stem(const el_config *cfg, const char *name, char *stem, size_t n)
{
    size_t len = strlen(name), b, e;
    if (len > 3 && name[len - 1] == '_' && name[len - 2] == '_' && name[len - 3] != '_' &&
        name[0] != '_') {
        b = 0, e = len - 2; /* dgemm__ */
    } else if (len > 2 && name[0] == '_' && name[1] != '_' && name[len - 1] == '_' &&
               name[len - 2] != '_') {
        b = 1, e = len - 1; /* _dgemm_ */
    } else if (len > 4 && !strcmp(name + len - 3, "64_") && name[len - 4] != '_') {
        b = 0, e = len - 3; /* dgemm64_: an ILP64 suffix pasted on before the underscore */
    } else if (len > 3 && !strcmp(name + len - 2, "64") && name[len - 3] != '_') {
        b = 0, e = len - 2; /* dgemm64, the same without the underscore */
    } else if (len > 4 && !strcmp(name + len - 3, "_64") && name[len - 4] != '_') {
        b = 0, e = len - 3; /* dgemm_64: the suffix _64, and no underscore after it */
    } else {
        return false;
    }
    if (e - b + 1 > n)
        return false;
    memcpy(stem, name + b, e - b);
    stem[e - b] = '\0';
    return el_routine_alias_target(cfg, stem);
}

bool el_routine_pasted_from(const char *name, const char *arg)
{
    size_t len = strlen(name), alen = strlen(arg), p = len - alen;
    if (!alen || alen >= len || p > 2 || strcasecmp(name + p, arg) != 0)
        return false;
    for (size_t i = 0; i < p; i++)
        if (!strchr("sdcziSDCZI", name[i]))
            return false;
    return true;
}

static bool has_lower(const char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            return true;
    return false;
}

const char *el_backend_prefix_of(const el_config *cfg, const char *name, bool upper)
{
    const el_prefix_index *ix = el_config_prefix_index(cfg);
    size_t np = ix->n_entries, len = strlen(name);
    char plain[256];
    if (undecorated(name, upper, plain, sizeof plain)) {
        size_t pl = strlen(plain);
        char c = pl ? plain[pl - 1] : '\0';
        for (size_t i = 0; i < np; i++) {
            const el_prefix_entry *e = &ix->entries[i];
            if (e->routine && !ends_apart(e, c) && !tail_apart(e, plain, pl, false) &&
                fnmatch(e->text, plain, 0) == 0)
                return e->text;
        }
    }
    char last = len ? name[len - 1] : '\0', first = name[0];
    /* (upper_matches_pattern takes only names without a lower-case letter) */
    bool upper_pattern = upper && !has_lower(name);
    /* the entries the first and last characters do not rule out, in
     * order (prefix_index.h) */
    uint64_t small[16], *bits = ix->words <= 16 ? small : el_xmalloc(ix->words * sizeof *bits);
    if (ix->words)
        el_prefix_candidates(ix, first, last, upper, bits);
    const char *hit = NULL;
    for (size_t k = 0; k < ix->words && !hit; k++)
        for (uint64_t b = bits[k]; b && !hit; b &= b - 1) {
            const el_prefix_entry *e = &ix->entries[k * 64 + (size_t)__builtin_ctzll(b)];
            if (e->pattern) {
                if (ends_apart(e, last) || tail_apart(e, name, len, upper_pattern))
                    continue;
                if (fnmatch(e->text, name, 0) == 0 ||
                    (upper_pattern && upper_matches_pattern(e->text, name)))
                    hit = e->text;
                continue;
            }
            if (e->len && first != e->first && !(upper && first == upper_of(e->first)))
                continue;
            if ((len > e->len && strncmp(name, e->text, e->len) == 0) ||
                (upper && upper_has_prefix(e->text, name)))
                hit = e->text;
        }
    if (bits != small)
        free(bits);
    if (hit)
        return hit;
    if (np == 0) {
        const char *p = el_config_backend_prefix(cfg, name);
        if (p && len > strlen(p))
            return p;
    }
    return NULL;
}

/* The routine a name stands for: its undecorated Fortran name when it
 * has a decoration (dgetrf_64_, dgetrf$NEWLAPACK: dgetrf_), else itself. */
static void routine_of(const char *name, char *buf, size_t n)
{
    if (!undecorated(name, true, buf, n))
        snprintf(buf, n, "%s", name);
}

/* name ends in an ILP64 suffix (either case: they have no letter):
 * OpenBLAS's and SuiteSparse's _64_ after the routine's underscore
 * (dgetrf_64_), MKL's _64 in its place (dgetrf_64), the two ILP64
 * entries of decoration_suffixes. */
static bool ilp64_name(const char *name)
{
    size_t len = strlen(name);
    return (len > 4 && strcmp(name + len - 4, "_64_") == 0) ||
           (len > 3 && strcmp(name + len - 3, "_64") == 0);
}

/* The two builds of a routine a definition may hand the call on to (name
 * a callee's, routine the routine it stands for, own the defined
 * function's).  A $NEWLAPACK name is a decoration the project cannot
 * define itself: Accelerate's names exist only through the asm labels of
 * Apple's headers.  A _64_ name may be the project's own ILP64 routine,
 * defined in another file of the run, so whose a shim onto it is is the
 * run's question (DGETRF_ calling DGETRF_64_: the routine of the one is
 * upper case, of the other lower case, hence the case-blind match). */
static bool newlapack_build(const char *name, const char *routine, const char *own)
{
    return strstr(name, "$NEWLAPACK") != NULL && strcmp(routine, own) == 0;
}

static bool ilp64_build(const char *name, const char *routine, const char *own)
{
    return ilp64_name(name) && !strstr(name, "$NEWLAPACK") && strcasecmp(routine, own) == 0;
}

/* What an ILP64 shim may call besides the routine it hands on to, none
 * of which does the routine's work: the C library's allocation and copy
 * helpers (a workspace, or an ipiv array of the other integer width,
 * posix_memalign too), LAPACK's error hooks (xerbla_, lsame_: any case or
 * decoration routine_of undoes, or none: XERBLA, xerbla_64_), functions
 * that do not return (abort, exit, and what `assert` expands to on glibc,
 * musl, macOS, bionic and Windows: a build without NDEBUG calls it, one
 * with NDEBUG does not, and the verdict must not differ) and the
 * compiler's builtins (__builtin_expect, __builtin_unreachable, ...). */
static bool shim_helper(const char *name)
{
    static const char *const helpers[] = {
        "malloc",       "calloc",        "realloc",       "aligned_alloc",
        "posix_memalign", "free",        "memcpy",        "memmove",
        "memset",       "abort",         "exit",          "_Exit",
        "quick_exit",   "__assert_fail", "__assert_perror_fail", "__assert_rtn",
        "__assert",     "__assert2",     "_assert",       "_wassert",
    };
    static const char *const hooks[] = {"xerbla_", "xerbla", "lsame_", "lsame"};
    for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++)
        if (strcmp(name, helpers[i]) == 0)
            return true;
    if (strncmp(name, "__builtin_", 10) == 0)
        return true;
    char routine[256];
    routine_of(name, routine, sizeof routine);
    for (size_t i = 0; i < sizeof hooks / sizeof hooks[0]; i++)
        if (strcasecmp(routine, hooks[i]) == 0)
            return true;
    return false;
}

typedef struct forward_walk {
    const el_config *cfg;
    const char *name;    /* the defined function's */
    const char *routine; /* the routine it stands for */
    bool (*build)(const char *name, const char *routine, const char *own);
    bool found;          /* it calls that build of the routine */
    bool other;          /* it calls anything else but shim_helper's */
    CXCursor callee;     /* the build it calls */
} forward_walk;

static enum CXChildVisitResult forward_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    forward_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor callee = clang_getCursorReferenced(c);
    char name[256], routine[256];
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl ||
        !elc_spelling(callee, name, sizeof name)[0]) {
        w->other = true; /* through a pointer */
        return CXChildVisit_Recurse;
    }
    routine_of(name, routine, sizeof routine);
    if (strcmp(name, w->name) != 0 && w->build(name, routine, w->routine) &&
        el_backend_prefix_of(w->cfg, name, true)) {
        if (!w->found)
            w->callee = callee;
        w->found = true;
    } else if (!shim_helper(name)) {
        w->other = true;
    }
    return CXChildVisit_Recurse;
}

/* Walk function definition def (false when it is none) for its calls of
 * `build` of its routine, and of anything else. */
static bool forward_scan(const el_config *cfg, CXCursor def,
                         bool (*build)(const char *, const char *, const char *),
                         forward_walk *w)
{
    char name[256], routine[256];
    if (clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        !elc_tu_has_bodies(clang_Cursor_getTranslationUnit(def)) ||
        !clang_isCursorDefinition(def) || !elc_spelling(def, name, sizeof name)[0])
        return false;
    routine_of(name, routine, sizeof routine);
    *w = (forward_walk){cfg, name, routine, build, false, false, clang_getNullCursor()};
    clang_visitChildren(def, forward_visit, w);
    w->name = w->routine = NULL; /* (their buffers end here) */
    return true;
}

bool el_definition_forwards(const el_config *cfg, CXCursor def)
{
    forward_walk w;
    return forward_scan(cfg, def, newlapack_build, &w) && w.found;
}

bool el_definition_forwards_ilp64(const el_config *cfg, CXCursor def, CXCursor *callee)
{
    forward_walk w;
    char name[256];
    *callee = clang_getNullCursor();
    /* an ILP64 routine handing on to another spelling of itself is none,
     * nor a dispatcher that calls anything else as well (its own kernel
     * for small sizes): the project's own code */
    if (ilp64_name(elc_spelling(def, name, sizeof name)) ||
        !forward_scan(cfg, def, ilp64_build, &w) || !w.found || w.other)
        return false;
    *callee = w.callee;
    return true;
}

bool el_macro_is_own(const el_config *cfg, CXCursor def)
{
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
        return false;
    CXFile f = NULL;
    clang_getSpellingLocation(clang_getCursorLocation(def), &f, NULL, NULL, NULL);
    if (!f)
        return false;
    char path[4096];
    elc_string(clang_getFileName(f), path, sizeof path);
    char *real = path[0] ? el_realpath_cached(path) : NULL;
    bool own = real && el_own_macro_file_memo(cfg, real);
    free(real);
    return own;
}

/* What body_walk found for each macro definition of one walk: a macro
 * named by many others (a tree of macros each ORing all of the next
 * level's) is read once, not once per path to it; a definition being
 * read (a cycle: R1 -> R2 -> R1) names nothing more. */
enum { MEMO_EMPTY, MEMO_BUSY, MEMO_NONE, MEMO_HIT };

typedef struct memo_entry {
    CXCursor def;
    int state;
    char *name;                /* the backend name found (MEMO_HIT) */
} memo_entry;

typedef struct walk_memo {
    memo_entry *v;
    size_t n, cap;             /* cap a power of two */
} walk_memo;

static memo_entry *memo_slot(walk_memo *m, CXCursor def, bool add)
{
    if (add && (m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        memo_entry *v = calloc(cap, sizeof *v);
        if (!v)
            return NULL; /* (the macro is judged by its name then) */
        for (size_t i = 0; i < m->cap; i++) {
            if (m->v[i].state == MEMO_EMPTY)
                continue;
            size_t j = clang_hashCursor(m->v[i].def) & (cap - 1);
            while (v[j].state != MEMO_EMPTY)
                j = (j + 1) & (cap - 1);
            v[j] = m->v[i];
        }
        free(m->v);
        m->v = v;
        m->cap = cap;
    }
    if (!m->cap)
        return NULL;
    size_t j = clang_hashCursor(def) & (m->cap - 1);
    while (m->v[j].state != MEMO_EMPTY) {
        if (clang_equalCursors(m->v[j].def, def))
            return &m->v[j];
        j = (j + 1) & (m->cap - 1);
    }
    if (!add)
        return NULL;
    m->v[j].def = def;
    m->v[j].state = MEMO_BUSY;
    m->v[j].name = NULL;
    m->n++;
    return &m->v[j];
}

static void memo_free(walk_memo *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->v[i].name);
    free(m->v);
}

static bool punct_is(CXTranslationUnit tu, CXToken t, const char *p)
{
    char s[8];
    return clang_getTokenKind(t) == CXToken_Punctuation &&
           strcmp(elc_string(clang_getTokenSpelling(tu, t), s, sizeof s), p) == 0;
}

/* Is the k-th parameter of function-like macro def used only as text:
 * after # or next to ## (`#define SPEC_STR(x) #x`), or not at all?  Then
 * its argument is not expanded: SPEC_STR(FFTW_MEASURE) is a string. */
static bool argument_only_text(CXTranslationUnit tu, CXCursor def, unsigned k)
{
    unsigned nt = 0, first = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &first);
    char want[256] = "";
    unsigned at = 0;
    for (unsigned j = 1; j < first; j++) {
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[j]), t, sizeof t);
        bool ident = clang_getTokenKind(toks[j]) == CXToken_Identifier;
        if (ident || strcmp(t, "...") == 0) {
            /* the arguments past the last parameter are __VA_ARGS__ */
            if (at == k || (!ident && at <= k))
                snprintf(want, sizeof want, "%s", ident ? t : "__VA_ARGS__");
            at++;
        }
    }
    bool text = want[0] != '\0';
    for (unsigned j = first; j < nt && text; j++) {
        char t[256];
        if (clang_getTokenKind(toks[j]) != CXToken_Identifier ||
            strcmp(elc_string(clang_getTokenSpelling(tu, toks[j]), t, sizeof t), want) != 0)
            continue;
        text = (j > first && (punct_is(tu, toks[j - 1], "#") || punct_is(tu, toks[j - 1], "##"))) ||
               (j + 1 < nt && punct_is(tu, toks[j + 1], "##"));
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return text;
}

/* Mark in text[] the tokens of def's body (toks, body from first) that are
 * arguments of a function-like macro used there only as text
 * (`#define SPEC_PLANNER_NAME SPEC_STR(FFTW_MEASURE)`). */
static void mark_text_arguments(CXTranslationUnit tu, CXToken *toks, unsigned nt, unsigned first, bool *text)
{
    for (unsigned i = first; i + 1 < nt; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier || !punct_is(tu, toks[i + 1], "("))
            continue;
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        if (elc_macro_named_here(tu, t) != 2)
            continue; /* (a system header's with a precompiled prefix: not asked) */
        CXCursor callee = elc_macro_definition(tu, t);
        if (clang_Cursor_isNull(callee))
            continue;
        unsigned depth = 0, k = 0, from = i + 2, j = i + 2;
        for (; j < nt; j++) {
            bool close = punct_is(tu, toks[j], ")");
            bool comma = depth == 0 && punct_is(tu, toks[j], ",");
            if ((close && depth == 0) || comma) {
                if (argument_only_text(tu, callee, k))
                    for (unsigned x = from; x < j; x++)
                        text[x] = true;
                k++;
                from = j + 1;
                if (close)
                    break;
            } else if (punct_is(tu, toks[j], "(")) {
                depth++;
            } else if (close) {
                depth--;
            }
        }
    }
}

/* The walk of el_macro_body_names_backend and el_macro_body_backend_macro:
 * the body's identifiers (not its parameters); one that is itself a macro
 * of the project (el_macro_is_own) is looked through, however deep, instead of
 * being judged by its name (each definition once, memo).  An argument a
 * macro of the body only stringifies or pastes is text, not a use.  macros_only:
 * only names that are (or may be: defined twice, or in a precompiled
 * prefix) macros count -- functions, types and constants are cursors the
 * rules see anyway.  The first backend name into out[n]. */
static bool body_walk(const el_config *cfg, CXTranslationUnit tu, CXCursor def, bool macros_only,
                      walk_memo *memo, char *out, size_t n)
{
    unsigned nt = 0, i = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &i);
    unsigned first = i;
    bool hit = false;
    bool *text = nt ? calloc(nt, sizeof *text) : NULL;
    if (text)
        mark_text_arguments(tu, toks, nt, first, text);
    for (; i < nt && !hit; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier || (text && text[i]))
            continue;
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        bool param = false;
        for (unsigned j = 1; j < first && !param; j++) {
            char p[256];
            param = clang_getTokenKind(toks[j]) == CXToken_Identifier &&
                    strcmp(elc_string(clang_getTokenSpelling(tu, toks[j]), p, sizeof p), t) == 0;
        }
        if (param || !t[0])
            continue;
        /* a name none of the file's macros (a system header's, with a
         * precompiled prefix) is no project macro: it matters only with a
         * backend prefix, and whether it is a macro only to macros_only */
        int kind = elc_macro_named_here(tu, t);
        if (kind == -2) {
            if (!el_backend_prefix_of(cfg, t, true))
                continue;
            kind = macros_only ? elc_macro_named(tu, t) : -1;
        }
        if (kind > 0) {
            CXCursor m = elc_macro_definition(tu, t);
            if (!clang_Cursor_isNull(m) && !clang_equalCursors(m, def)) {
                memo_entry *e = memo_slot(memo, m, false);
                if (e) { /* read before, or being read (a cycle) */
                    hit = e->state == MEMO_HIT;
                    if (hit && out && n)
                        snprintf(out, n, "%s", e->name ? e->name : "");
                    continue;
                }
                if (el_macro_is_own(cfg, m) && (e = memo_slot(memo, m, true)) != NULL) {
                    char inner[256] = "";
                    hit = body_walk(cfg, tu, m, macros_only, memo, inner, sizeof inner);
                    /* (the table may have grown: find m's entry again) */
                    e = memo_slot(memo, m, false);
                    if (e) {
                        e->state = hit ? MEMO_HIT : MEMO_NONE;
                        e->name = hit ? strdup(inner) : NULL;
                    }
                    if (hit && out && n)
                        snprintf(out, n, "%s", inner);
                    continue;
                }
            }
        } else if (kind == 0 && macros_only) {
            continue;
        }
        hit = el_backend_prefix_of(cfg, t, true) != NULL;
        if (hit && out && n)
            snprintf(out, n, "%s", t);
    }
    free(text);
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return hit;
}

bool el_macro_body_names_backend(const el_config *cfg, CXTranslationUnit tu, CXCursor def)
{
    walk_memo memo = {0};
    memo_slot(&memo, def, true); /* (a macro naming def reads no further) */
    bool hit = body_walk(cfg, tu, def, false, &memo, NULL, 0);
    memo_free(&memo);
    return hit;
}

bool el_macro_body_backend_macro(const el_config *cfg, CXTranslationUnit tu, CXCursor def, char *out, size_t n)
{
    walk_memo memo = {0};
    memo_slot(&memo, def, true);
    bool hit = body_walk(cfg, tu, def, true, &memo, out, n);
    memo_free(&memo);
    return hit;
}
