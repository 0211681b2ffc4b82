/* lint/engine/flags.c -- compiler arguments per file (flags.h). */
#include "flags.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pthread.h>

#include "args_policy.h"
#include "clang_api.h"
#include "language.h"
#include "libeh_headers.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"

static void push(char ***v, size_t *n, size_t *cap, const char *s)
{
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = el_xstrdup(s);
}

/* One of the -I / -isystem directories of v holds eh/eh.h: the project's
 * flags find libeh themselves (the fallbacks would only cost lookups). */
static bool flags_find_libeh(char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *dir = NULL;
        if ((strcmp(v[i], "-I") == 0 || strcmp(v[i], "-isystem") == 0) && i + 1 < n)
            dir = v[++i];
        else if (strncmp(v[i], "-I", 2) == 0)
            dir = v[i] + 2;
        if (!dir)
            continue;
        char *probe = el_path_join(dir, "eh/eh.h");
        struct stat st;
        bool hit = stat(probe, &st) == 0;
        free(probe);
        if (hit)
            return true;
    }
    return false;
}

/* The standards a file gets when nothing names one: C's is the one cc
 * has (gcc 12 and clang 14: gnu17), so code built with plain cc that uses
 * M_PI, optarg or strdup parses (strict -std=c11 hides them). */
#define DEFAULT_C_STD "-std=gnu17"
#define DEFAULT_CXX_STD "-std=c++17"

/* Drop the -x and -std= arguments of v. */
static void drop_language(char **v, size_t *nv)
{
    size_t n = 0;
    for (size_t i = 0; i < *nv; i++) {
        bool with_value = strcmp(v[i], "-x") == 0 && i + 1 < *nv;
        if (with_value || strncmp(v[i], "-x", 2) == 0 || strncmp(v[i], "-std=", 5) == 0) {
            free(v[i]);
            if (with_value)
                free(v[++i]);
            continue;
        }
        v[n++] = v[i];
    }
    *nv = n;
}

/* A file that borrows another file's entry (a header, or a source the
 * database does not list) keeps its own language: a C++ header borrowing
 * a C entry gets -x c++-header -std=c++17 instead of the entry's -std and
 * -x, a C file borrowing a C++ entry loses them. */
static void keep_language(const el_source *src, char ***base, size_t *nb)
{
    bool entry_cxx = el_args_have_language(*base, *nb) &&
                     el_command_is_cxx(NULL, *base, *nb, NULL);
    if (entry_cxx == src->cxx)
        return;
    drop_language(*base, nb);
    char **v = *base;
    size_t n = *nb;
    if (src->cxx) {
        size_t cap = n + 3;
        char **w = el_xmalloc(cap * sizeof *w);
        w[0] = el_xstrdup("-x");
        w[1] = el_xstrdup(src->is_header ? "c++-header" : "c++");
        w[2] = el_xstrdup(DEFAULT_CXX_STD);
        memcpy(w + 3, v, n * sizeof *v);
        free(v);
        *base = w;
        *nb = n + 3;
    }
}

static bool names_std(char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(args[i], "-std=", 5) == 0 || strncmp(args[i], "--std", 5) == 0)
            return true;
    return false;
}

/* The flags of a file no database entry covers: its language and a
 * standard for it, unless the arguments after -- (extra) name them.
 * Those decide, and the default must agree with them: clang refuses
 * -std=gnu17 with -x c++, and then parses nothing at all. */
static char **fallback_flags(const el_source *src, char *const *extra, size_t n_extra,
                             size_t *n_out)
{
    const char *x = el_args_language(extra, n_extra);
    bool cxx = x ? el_language_is_cxx(x) : src->cxx;
    char **v = NULL;
    size_t n = 0, cap = 0;
    if (cxx && !x) {
        push(&v, &n, &cap, "-x");
        push(&v, &n, &cap, src->is_header ? "c++-header" : "c++");
    }
    if (!names_std(extra, n_extra))
        push(&v, &n, &cap, cxx ? DEFAULT_CXX_STD : DEFAULT_C_STD);
    *n_out = n;
    return v;
}

static char **base_flags(const el_compdb *db, const el_source *src, char *const *extra,
                         size_t n_extra, size_t *n_out)
{
    size_t nb = 0;
    char **base = db ? el_compdb_args(db, src->path, &nb) : NULL;
    if (base && !el_compdb_lists(db, src->path))
        keep_language(src, &base, &nb);
    if (!base)
        return fallback_flags(src, extra, n_extra, n_out);
    /* a -x after -- decides over the entry's: its -x and -std= go, and
     * the standard is the one given after --, else the language's default */
    const char *x = el_args_language(extra, n_extra);
    if (x) {
        drop_language(base, &nb);
        if (!names_std(extra, n_extra)) {
            base = el_xrealloc(base, (nb + 2) * sizeof *base);
            base[nb++] = el_xstrdup(el_language_is_cxx(x) ? DEFAULT_CXX_STD : DEFAULT_C_STD);
        }
    }
    *n_out = nb;
    return base;
}

char **el_base_flags(const el_compdb *db, const el_source *src, size_t *n_out)
{
    return base_flags(db, src, NULL, 0, n_out);
}

/* ---- what gcc accepts and libclang does not -------------------------------- */

/* Standards gcc names that libclang 14 knows by their draft names (each
 * alias is also known to later libclangs): without this, every file of a
 * project built with -std=c23 fails to parse at all. */
static const char *const std_aliases[][2] = {
    {"c23", "c2x"},         {"gnu23", "gnu2x"},      {"c2y", "c2x"},
    {"gnu2y", "gnu2x"},     {"iso9899:2024", "c2x"}, {"c++23", "c++2b"},
    {"gnu++23", "gnu++2b"}, {"c++26", "c++2b"},      {"gnu++26", "gnu++2b"},
    {"c++2c", "c++2b"},     {"gnu++2c", "gnu++2b"},
};

static void std_alias(char **arg)
{
    const char *a = *arg;
    size_t l = strncmp(a, "-std=", 5) == 0 ? 5 : strncmp(a, "--std=", 6) == 0 ? 6 : 0;
    if (!l)
        return;
    for (size_t i = 0; i < sizeof std_aliases / sizeof *std_aliases; i++) {
        if (strcmp(a + l, std_aliases[i][0]) == 0) {
            char *b = el_xasprintf("-std=%s", std_aliases[i][1]);
            free(*arg);
            *arg = b;
            return;
        }
    }
}

/* A target option: libclang's driver refuses the -m options it does not
 * know (gcc's -mindirect-branch=, -mpreferred-stack-boundary=,
 * -mrecord-mcount, ...) or not for this target, and then parses nothing:
 * every file would be one EH000.  Such options change code generation,
 * not how the code parses, so they are dropped (with a note under -v).
 * Which ones libclang refuses is asked of libclang itself, once a run per
 * set of -m and target arguments, by parsing an empty file. */
static bool target_arg(char *const *v, size_t n, size_t i, size_t *span)
{
    *span = 1;
    if ((strcmp(v[i], "-target") == 0 || strcmp(v[i], "-arch") == 0) && i + 1 < n) {
        *span = 2;
        return true;
    }
    return strncmp(v[i], "--target=", 9) == 0;
}

static bool m_arg(const char *a)
{
    return a[0] == '-' && a[1] == 'm' && a[2];
}

/* Parse an empty C file with args; false when libclang refuses.  The
 * -m arguments (of args[0..n)) that a diagnostic names in quotes get
 * bad[i] set. */
static bool probe(const char *const *args, size_t n, bool *bad)
{
    CXIndex idx = clang_createIndex(0, 0);
    struct CXUnsavedFile empty = {"/emberlint-flags-probe.c", "", 0};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec = clang_parseTranslationUnit2(idx, empty.Filename, args, (int)n, &empty, 1,
                                                      CXTranslationUnit_None, &tu);
    bool ok = ec == CXError_Success && tu;
    unsigned nd = tu ? clang_getNumDiagnostics(tu) : 0;
    for (unsigned d = 0; d < nd; d++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, d);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
            ok = false;
            CXString sp = clang_getDiagnosticSpelling(dg);
            const char *msg = clang_getCString(sp);
            /* "unknown argument: '-mx'", "unsupported option '-mx' for
             * target '...'", "unsupported argument 'v' to option '-mx='" */
            for (const char *q = msg ? strchr(msg, '\'') : NULL; q; ) {
                const char *e = strchr(q + 1, '\'');
                if (!e)
                    break;
                size_t l = (size_t)(e - q - 1);
                for (size_t i = 0; bad && l && i < n; i++)
                    if (m_arg(args[i]) && strncmp(args[i], q + 1, l) == 0 &&
                        (args[i][l] == '\0' || q[l] == '='))
                        bad[i] = true;
                q = strchr(e + 1, '\'');
            }
            clang_disposeString(sp);
        }
        clang_disposeDiagnostic(dg);
    }
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return ok;
}

static pthread_mutex_t refused_lock = PTHREAD_MUTEX_INITIALIZER;
static el_strmap refused_memo; /* the probe's arguments, '\n'-joined -> the
                                * refused ones, each followed by '\n' */

/* The refused -m arguments of the probe arguments p[0..n) (target ones
 * first, then the -m ones from m0 on), each followed by '\n': "" for
 * none.  The run keeps the answer. */
static const char *refused_of(const char **p, size_t n, size_t m0)
{
    el_buf key = {0};
    for (size_t i = 0; i < n; i++) {
        el_buf_puts(&key, p[i]);
        el_buf_putc(&key, '\n');
    }
    pthread_mutex_lock(&refused_lock);
    const char *known = el_strmap_get(&refused_memo, key.s);
    if (!known) {
        bool *bad = el_xcalloc(n, sizeof *bad);
        if (!probe(p, n, bad) && probe(p, m0, NULL)) {
            /* refused with no argument named: ask of each alone */
            bool named = false;
            for (size_t i = m0; i < n; i++)
                named |= bad[i];
            for (size_t i = m0; i < n && !named; i++) {
                const char *one[8];
                size_t k = 0;
                for (; k < m0 && k < 7; k++)
                    one[k] = p[k];
                one[k++] = p[i];
                bad[i] = !probe(one, k, NULL);
            }
        }
        el_buf out = {0};
        for (size_t i = m0; i < n; i++) {
            if (bad[i]) {
                el_buf_puts(&out, p[i]);
                el_buf_putc(&out, '\n');
            }
        }
        free(bad);
        known = out.s ? el_buf_take(&out) : el_xstrdup("");
        el_strmap_put(&refused_memo, key.s, (void *)known);
    }
    pthread_mutex_unlock(&refused_lock);
    el_buf_free(&key);
    return known;
}

static bool listed(const char *list, const char *a)
{
    size_t l = strlen(a);
    for (const char *p = list; *p; p = strchr(p, '\n') + 1)
        if (strncmp(p, a, l) == 0 && p[l] == '\n')
            return true;
    return false;
}

/* v[0..n) without the -m arguments libclang refuses (appended to
 * dropped), its standards under names libclang knows; the new count. */
static size_t drop_refused(char **v, size_t n, char ***dropped, size_t *n_dropped)
{
    const char **p = el_xcalloc(n + 1, sizeof *p);
    size_t np = 0, span;
    for (size_t i = 0; i < n; i += el_arg_inspect(v, n, i).span) {
        std_alias(&v[i]);
        if (target_arg(v, n, i, &span))
            for (size_t k = 0; k < span; k++)
                p[np++] = v[i + k];
    }
    size_t m0 = np > 7 ? 7 : np; /* (more target arguments than that: not ours to judge) */
    np = m0;
    for (size_t i = 0; i < n; i += el_arg_inspect(v, n, i).span)
        if (m_arg(v[i]))
            p[np++] = v[i];
    const char *refused = np > m0 ? refused_of(p, np, m0) : "";
    free(p);
    if (!refused[0])
        return n;
    size_t out = 0, cap = dropped ? *n_dropped : 0;
    for (size_t i = 0; i < n;) {
        size_t k_span = el_arg_inspect(v, n, i).span;
        if (k_span == 1 && m_arg(v[i]) && listed(refused, v[i])) {
            if (dropped) {
                el_grow(dropped, &cap, *n_dropped + 1, sizeof **dropped);
                (*dropped)[(*n_dropped)++] = v[i];
            } else {
                free(v[i]);
            }
            i++;
            continue;
        }
        for (size_t k = 0; k < k_span && i < n; k++)
            v[out++] = v[i++];
    }
    return out;
}

char **el_flags_for(const el_compdb *db, const el_source *src, char *const *extra,
                    size_t n_extra, size_t *n_out, char ***dropped, size_t *n_dropped)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    if (src->force_c) {
        push(&v, &n, &cap, "-x");
        push(&v, &n, &cap, "c");
    }
    size_t nb = 0;
    char **base = base_flags(db, src, extra, n_extra, &nb);
    for (size_t i = 0; i < nb; i++)
        push(&v, &n, &cap, base[i]);
    el_args_free(base, nb);
    /* The project's flags first: their -I directories win over libeh's
     * fallbacks (next to the binary, pkg-config, the tree above). */
    for (size_t i = 0; i < n_extra; i++)
        push(&v, &n, &cap, extra[i]);
    /* whatever their source, only arguments that affect parsing alone */
    n = el_args_openmp_as_c(v, n);
    n = el_args_filter(v, n, dropped, n_dropped);
    n = drop_refused(v, n, dropped, n_dropped);
    size_t nd = 0;
    char **dirs = flags_find_libeh(v, n) ? NULL : el_libeh_include_dirs(src->path, &nd);
    for (size_t i = 0; i < nd; i++) {
        push(&v, &n, &cap, "-I");
        push(&v, &n, &cap, dirs[i]);
    }
    el_args_free(dirs, nd);
    /* Warnings are not findings: only errors make EH000, whatever -Werror
     * the project's flags carry.  Every error is counted: past clang's
     * default limit (20) a file's own errors go unseen behind its
     * headers', and a .c template that fails alone (GSL's fft/c_main.c)
     * passed for one that parses, so its includes were blamed. */
    push(&v, &n, &cap, "-ferror-limit=0");
    push(&v, &n, &cap, "-w"); /* last: the fix check swaps it for its -Werror= (reparse.c) */
    *n_out = n;
    return v;
}
