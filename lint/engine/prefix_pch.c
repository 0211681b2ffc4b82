/* lint/engine/prefix_pch.c -- one precompiled header for the system
 * headers many translation units start with (prefix_pch.h). */
#include "prefix_pch.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clang_util.h"
#include "hash.h"
#include "include_line.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "realpath_cache.h"
#include "strbuf.h"
#include "strmap.h"

/* ---- the leading includes of a file -------------------------------------- */

/* Blanks, newlines and comments from i; a comment that a backslash
 * continues, or one after which the line goes on, ends the scan (n). */
static size_t skip_space(const char *t, size_t n, size_t i)
{
    for (;;) {
        while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
                         t[i] == '\f' || t[i] == '\v'))
            i++;
        if (i + 1 < n && t[i] == '/' && t[i + 1] == '/') {
            size_t e = i;
            while (e < n && t[e] != '\n')
                e++;
            if (e > i && (t[e - 1] == '\\' || (t[e - 1] == '\r' && e - 1 > i && t[e - 2] == '\\')))
                return n;
            i = e;
        } else if (i + 1 < n && t[i] == '/' && t[i + 1] == '*') {
            const char *end = NULL;
            for (size_t k = i + 2; k + 1 < n; k++)
                if (t[k] == '*' && t[k + 1] == '/') {
                    end = t + k;
                    break;
                }
            if (!end)
                return n;
            i = (size_t)(end - t) + 2;
            size_t k = i;
            while (k < n && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
                k++;
            if (k < n && t[k] != '\n' && !(t[k] == '/' && k + 1 < n && (t[k + 1] == '/' || t[k + 1] == '*')))
                return n; /* code after the comment on its line */
        } else {
            return i;
        }
    }
}

/* The rest of an include line after its name: blanks, or a // comment. */
static bool rest_is_blank(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == n || (i + 1 < n && s[i] == '/' && s[i + 1] == '/');
}

size_t el_prefix_includes(const char *text, size_t n, char ***names)
{
    *names = NULL;
    size_t count = 0, cap = 0, i = 0;
    for (;;) {
        i = skip_space(text, n, i);
        if (i >= n || text[i] != '#')
            break;
        size_t e = i;
        while (e < n && text[e] != '\n')
            e++;
        if (memchr(text + i, '\\', e - i))
            break; /* a continued line: not worth the risk */
        bool angled = false;
        const char *name = NULL;
        size_t len = 0;
        if (!el_include_line(text + i, e - i, &angled, &name, &len) || !angled || len == 0 ||
            !rest_is_blank(name + len + 1, (size_t)(text + e - (name + len + 1))))
            break;
        el_grow(names, &cap, count + 1, sizeof **names);
        (*names)[count++] = el_xstrndup(name, len);
        i = e;
    }
    return count;
}

/* ---- the set ----------------------------------------------------------------- */

/* When a PCH pays: each file it serves reads the prefix instead of
 * parsing it, but looks every other identifier up in it too, and the
 * PCH costs a parse of the prefix and a write.  Measured with callgrind
 * and CPU time (bench/README.md, "Lighter prefixes"): <string.h> (83 kB)
 * and <float.h> for five to seven files of this tree cost more than they
 * save; <stdlib.h> (118 kB), <stdio.h> (132 kB) and <pthread.h> (183 kB)
 * for six or seven files save 8 to 15 M instructions a file, and
 * <stdio.h> with <string.h> for six files of 280 lines 21% of their
 * instructions and 7% of their CPU time (against the old threshold, which
 * built that PCH and dropped it).  So a prefix is shared by at
 * least MIN_FILES files that miss the cache, and kept when the headers
 * its parse read hold MIN_BYTES (their size, not the parse's time: the
 * same choice on every machine and run; the first file to need it parses
 * it, so a lighter prefix costs that parse once). */
#define MIN_FILES 4
#define MIN_BYTES 100000
/* PCHs held at once (each open file and its disk space, tens of MB for
 * C++'s standard headers, until its last user is linted): a prefix met
 * while that many are held is not shared. */
#define MAX_HELD 32

enum { UNBUILT, BUILDING, BUILT, FAILED };

struct el_prefix {
    char *key;
    char **names;             /* the includes, in order (cut when built) */
    size_t n;
    char *const *args;        /* a member's: all members have the same */
    size_t n_args;
    const char *lang;         /* c-header or c++-header */
    size_t users;             /* members not done yet (el_prefix_done) */
    int state;
    bool held;                /* counted in the set's held */
    char *pch;                /* what -include-pch reads */
    int fd, src_fd;           /* hold it and its prefix file (-1: none) */
    char *dir;                /* their directory, while they are on disk */
    el_tu_result pre;
    bool cacheable;
};

typedef struct offer {
    char *base;               /* arguments and language */
    char **names;
    size_t n;
    char *const *args;
    size_t n_args;
    const char *lang;
    el_prefix *prefix;
} offer;

struct el_prefix_set {
    const el_sources *sources;
    unsigned parse_options;
    el_prefix_record_fn record;
    void *ud;
    offer *offers;            /* by item */
    size_t n_offers;
    bool sealed;
    bool always;              /* EMBERLINT_PCH=always: every shared prefix */
    el_strmap groups;         /* key -> el_prefix */
    el_prefix **all;
    size_t n_all, cap_all;
    size_t held;              /* prefixes being built or built, not released */
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

el_prefix_set *el_prefix_set_new(const el_sources *sources, unsigned parse_options,
                                 el_prefix_record_fn record, void *ud)
{
    el_prefix_set *s = el_xcalloc(1, sizeof *s);
    s->sources = sources;
    s->parse_options = parse_options;
    s->record = record;
    s->ud = ud;
    const char *env = getenv("EMBERLINT_PCH");
    s->always = env && strcmp(env, "always") == 0;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    return s;
}

/* Arguments that put text of their own before the file's: with them the
 * PCH would come first, not the file's lines. */
static bool forces_includes(char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(args[i], "-include", 8) == 0 || strncmp(args[i], "--include", 9) == 0 ||
            strncmp(args[i], "-imacros", 8) == 0 || strncmp(args[i], "--imacros", 9) == 0)
            return true;
    return false;
}

/* The language the arguments parse the file in, as a header (what its
 * PCH is built as); NULL for one no prefix is built in. */
static const char *header_language(const el_source *src, char *const *args, size_t n)
{
    const char *x = el_parse_language(src->cxx, args, n);
    return !x ? NULL : strcmp(x, "c") == 0 ? "c-header" : "c++-header";
}

/* The file's first lines, up to 64 KiB (prefixes are short), ending at a
 * line's end: a cut line could pass for a whole include. */
static char *read_head(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536;
    char *buf = el_xmalloc(cap);
    *n = fread(buf, 1, cap, f);
    bool whole = *n < cap || fgetc(f) == EOF;
    fclose(f);
    while (!whole && *n > 0 && buf[*n - 1] != '\n')
        (*n)--;
    return buf;
}

void el_prefix_offer(el_prefix_set *s, size_t item, const el_source *src, char *const *args,
                     size_t n_args)
{
    if (item >= s->n_offers) {
        size_t cap = s->n_offers;
        el_grow(&s->offers, &cap, item + 1, sizeof *s->offers);
        memset(s->offers + s->n_offers, 0, (cap - s->n_offers) * sizeof *s->offers);
        s->n_offers = cap;
    }
    offer *o = &s->offers[item];
    const char *lang = header_language(src, args, n_args);
    if (src->is_header || !lang || forces_includes(args, n_args))
        return;
    size_t len = 0;
    char *head = read_head(src->path, &len);
    if (!head)
        return;
    o->n = el_prefix_includes(head, len, &o->names);
    free(head);
    /* what the PCH could not hold anyway, known by name: no build to
     * find it out */
    for (size_t i = 0; i < o->n; i++) {
        if (strncmp(o->names[i], "eh/", 3) == 0) {
            for (size_t k = i; k < o->n; k++)
                free(o->names[k]);
            o->n = i;
            break;
        }
    }
    if (o->n == 0)
        return;
    el_hasher h;
    el_hash_init(&h);
    el_hash_u64(&h, n_args);
    for (size_t i = 0; i < n_args; i++)
        el_hash_str(&h, args[i]);
    el_hash_str(&h, lang);
    char hex[33];
    el_hash_hex(el_hash_final(&h), hex);
    o->base = el_xstrdup(hex);
    o->args = args;
    o->n_args = n_args;
    o->lang = lang;
}

/* "base\nname1\nname2..." for the first k names. */
static char *prefix_key(const offer *o, size_t k)
{
    el_buf b = {0};
    el_buf_puts(&b, o->base);
    for (size_t i = 0; i < k; i++) {
        el_buf_putc(&b, '\n');
        el_buf_puts(&b, o->names[i]);
    }
    return el_buf_take(&b);
}

/* Each file gets the longest of its prefixes another file shares: one
 * PCH serves the most files it can, and a file alone builds none. */
static void seal(el_prefix_set *s)
{
    s->sealed = true;
    el_strmap count = {0};
    for (size_t i = 0; i < s->n_offers; i++) {
        for (size_t k = 1; k <= s->offers[i].n; k++) {
            char *key = prefix_key(&s->offers[i], k);
            uintptr_t c = (uintptr_t)el_strmap_get(&count, key);
            el_strmap_put(&count, key, (void *)(c + 1));
            free(key);
        }
    }
    for (size_t i = 0; i < s->n_offers; i++) {
        offer *o = &s->offers[i];
        for (size_t k = o->n; k >= 1 && !o->prefix; k--) {
            char *key = prefix_key(o, k);
            if ((uintptr_t)el_strmap_get(&count, key) >= (s->always ? 2 : MIN_FILES)) {
                el_prefix *p = el_strmap_get(&s->groups, key);
                if (!p) {
                    p = el_xcalloc(1, sizeof *p);
                    p->key = el_xstrdup(key);
                    p->fd = p->src_fd = -1;
                    p->names = el_xcalloc(k, sizeof *p->names);
                    for (size_t m = 0; m < k; m++)
                        p->names[m] = el_xstrdup(o->names[m]);
                    p->n = k;
                    p->args = o->args;
                    p->n_args = o->n_args;
                    p->lang = o->lang;
                    el_strmap_put(&s->groups, key, p);
                    el_grow(&s->all, &s->cap_all, s->n_all + 1, sizeof *s->all);
                    s->all[s->n_all++] = p;
                }
                o->prefix = p;
                p->users++;
            }
            free(key);
        }
    }
    el_strmap_free(&count);
}

el_prefix *el_prefix_of(el_prefix_set *s, size_t item)
{
    if (!s->sealed)
        seal(s);
    return item < s->n_offers ? s->offers[item].prefix : NULL;
}

/* ---- building a PCH ------------------------------------------------------------ */

static bool write_text(const char *path, const el_prefix *p)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (size_t i = 0; i < p->n; i++)
        fprintf(f, "#include <%s>\n", p->names[i]);
    return fclose(f) == 0;
}

typedef struct check {
    el_prefix_set *s;
    el_prefix *p;
    CXFile main;
    long top;                 /* the main file's directive being followed */
    size_t ok;                /* leading includes that pass (p->n: all) */
} check;

/* May file f (reached through `spelled`) be read from the PCH? */
static bool shareable(check *c, CXTranslationUnit tu, CXFile f, const char *spelled, bool top)
{
    if (!f)
        return false;
    if (!clang_Location_isInSystemHeader(clang_getLocation(tu, f, 1, 1)))
        return false;
    if (top && !clang_isFileMultipleIncludeGuarded(tu, f))
        return false;
    char name[PATH_MAX];
    elc_file_name(f, name, sizeof name);
    char *real = el_realpath_cached(name); /* every TU reads the same headers */
    const char *path = real ? real : name;
    bool ok = !strstr(path, "/eh/") && strncmp(spelled, "eh/", 3) != 0 &&
              el_sources_find(c->s->sources, path) < 0;
    free(real);
    return ok;
}

static bool check_visit(CXCursor cur, enum CXCursorKind kind, void *d)
{
    check *c = d;
    if (kind != CXCursor_InclusionDirective)
        return true;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(cur);
    CXFile in = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &in, NULL, NULL, NULL);
    bool top = in && clang_File_isEqual(in, c->main);
    if (top)
        c->top++;
    char spelled[PATH_MAX];
    elc_spelling(cur, spelled, sizeof spelled);
    if (c->top >= 0 && (size_t)c->top < c->ok &&
        !shareable(c, tu, clang_getIncludedFile(cur), spelled, top))
        c->ok = (size_t)c->top; /* cut before the include it came through */
    return true;
}

static CXTranslationUnit parse_prefix(el_prefix_set *s, el_prefix *p, CXIndex idx,
                                      const char *file)
{
    size_t n = p->n_args + 2;
    const char **args = el_xcalloc(n, sizeof *args);
    for (size_t i = 0; i < p->n_args; i++)
        args[i] = p->args[i];
    args[p->n_args] = "-x"; /* (the file comes last: this is its language) */
    args[p->n_args + 1] = p->lang;
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec =
        clang_parseTranslationUnit2(idx, file, args, (int)n, NULL, 0,
                                    s->parse_options | CXTranslationUnit_ForSerialization, &tu);
    free(args);
    if (ec != CXError_Success || !tu)
        return NULL;
    if (elc_tu_has_errors(tu)) {
        clang_disposeTranslationUnit(tu);
        return NULL;
    }
    return tu;
}

typedef struct sizes {
    CXTranslationUnit tu;
    size_t bytes;
} sizes;

static void add_size(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    (void)stack;
    (void)n;
    sizes *z = d;
    size_t size = 0;
    if (clang_getFileContents(z->tu, f, &size))
        z->bytes += size;
}

/* The size of every file the prefix's parse read. */
static size_t bytes_read(CXTranslationUnit tu)
{
    sizes z = {tu, 0};
    clang_getInclusions(tu, add_size, &z);
    return z.bytes;
}

/* The files of p's directory go (held ones stay readable). */
static void release_files(el_prefix *p)
{
    if (!p->dir)
        return;
    const char *names[] = {"prefix.h", "prefix.hpp", "prefix.pch"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *f = el_path_join(p->dir, names[i]);
        unlink(f);
        free(f);
    }
    rmdir(p->dir);
    free(p->dir);
    p->dir = NULL;
}

/* The PCH and its prefix file go (their record stays: el_prefix_pch's
 * callers hold it). */
static void release(el_prefix *p)
{
    if (p->fd >= 0)
        close(p->fd);
    if (p->src_fd >= 0)
        close(p->src_fd);
    p->fd = p->src_fd = -1;
    release_files(p);
}

/* path held open and named through /proc/self/fd, so that it can leave
 * the disk while the run still reads it (libclang reads a PCH's prefix
 * file again for C++, -fno-validate-pch or not); *fd gets the descriptor,
 * -1 without /proc (then the path itself, which must stay). */
static char *held_name(const char *path, int *fd)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd >= 0) {
        char *via = el_xasprintf("/proc/self/fd/%d", *fd);
        if (access(via, R_OK) == 0)
            return via;
        free(via);
        close(*fd);
        *fd = -1;
    }
    return el_xstrdup(path);
}

/* Parse the prefix (cut before a header it cannot hold); keep it (save
 * the PCH) when it is heavy enough.  Both files are held open and leave
 * the disk at once, so that a run killed later leaves nothing behind;
 * without /proc they stay in their directory until released. */
static bool build(el_prefix_set *s, el_prefix *p, CXIndex idx)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = el_xasprintf("%s/emberlint-pch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        free(dir);
        return false;
    }
    char *file = el_xasprintf("%s/prefix.%s", dir, strcmp(p->lang, "c-header") == 0 ? "h" : "hpp");
    char *pch = el_xasprintf("%s/prefix.pch", dir);
    CXTranslationUnit tu = NULL;
    char *name = NULL;
    for (;;) {
        if (!write_text(file, p))
            break;
        name = held_name(file, &p->src_fd);
        if (!(tu = parse_prefix(s, p, idx, name)))
            break;
        check c = {s, p, clang_getFile(tu, name), -1, p->n};
        elc_visit_preprocessing(tu, check_visit, &c);
        if (c.ok == p->n)
            break;
        clang_disposeTranslationUnit(tu);
        tu = NULL;
        free(name);
        name = NULL;
        if (p->src_fd >= 0)
            close(p->src_fd);
        p->src_fd = -1;
        for (size_t i = c.ok; i < p->n; i++)
            free(p->names[i]);
        p->n = c.ok;
        if (p->n == 0)
            break;
    }
    bool ok = tu && (s->always || bytes_read(tu) >= MIN_BYTES) &&
              clang_saveTranslationUnit(tu, pch, clang_defaultSaveOptions(tu)) == CXSaveError_None;
    if (ok)
        p->cacheable = s->record(s->ud, tu, name, p->args, p->n_args, &p->pre);
    if (tu)
        clang_disposeTranslationUnit(tu);
    free(name);
    if (ok)
        p->pch = held_name(pch, &p->fd);
    p->dir = dir;
    if (!ok || (p->fd >= 0 && p->src_fd >= 0))
        release_files(p); /* (held: nothing needs them on disk) */
    free(file);
    free(pch);
    return ok;
}

/* p no longer counts against MAX_HELD (s->lock held). */
static void unhold(el_prefix_set *s, el_prefix *p)
{
    if (p->held) {
        p->held = false;
        s->held--;
    }
}

const char *el_prefix_pch(el_prefix_set *s, el_prefix *p, CXIndex idx, const el_tu_result **pre,
                          bool *cacheable)
{
    pthread_mutex_lock(&s->lock);
    while (p->state == BUILDING)
        pthread_cond_wait(&s->cond, &s->lock);
    if (p->state == UNBUILT && s->held >= MAX_HELD) {
        p->state = FAILED;
    } else if (p->state == UNBUILT) {
        p->state = BUILDING;
        p->held = true;
        s->held++;
        pthread_mutex_unlock(&s->lock);
        bool ok = build(s, p, idx);
        pthread_mutex_lock(&s->lock);
        p->state = ok ? BUILT : FAILED;
        if (!ok)
            unhold(s, p);
        pthread_cond_broadcast(&s->cond);
    }
    bool built = p->state == BUILT;
    pthread_mutex_unlock(&s->lock);
    *pre = &p->pre;
    *cacheable = p->cacheable;
    return built ? p->pch : NULL;
}

size_t el_prefix_args(const char *pch, const char *out[4])
{
    out[0] = "-Xclang";
    out[1] = "-fno-validate-pch"; /* (its files are gone: hold) */
    out[2] = "-include-pch";
    out[3] = pch;
    return 4;
}

bool el_prefix_text_starts_with(const char *text, size_t n, char *const *names, size_t k)
{
    char **have = NULL;
    size_t m = el_prefix_includes(text, n, &have);
    bool same = m >= k;
    for (size_t i = 0; same && i < k; i++)
        same = strcmp(have[i], names[i]) == 0;
    for (size_t i = 0; i < m; i++)
        free(have[i]);
    free(have);
    return same;
}

bool el_prefix_matches(const el_prefix *p, const char *text, size_t n)
{
    return el_prefix_text_starts_with(text, n, p->names, p->n);
}

void el_prefix_done(el_prefix_set *s, el_prefix *p)
{
    pthread_mutex_lock(&s->lock);
    if (p->users > 0 && --p->users == 0) {
        release(p);
        unhold(s, p);
    }
    pthread_mutex_unlock(&s->lock);
}

size_t el_prefix_set_built(const el_prefix_set *s)
{
    size_t n = 0;
    for (size_t i = 0; s && i < s->n_all; i++)
        n += s->all[i]->state == BUILT;
    return n;
}

void el_prefix_set_free(el_prefix_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_all; i++) {
        el_prefix *p = s->all[i];
        release(p);
        free(p->pch);
        free(p->key);
        for (size_t k = 0; k < p->n; k++)
            free(p->names[k]);
        free(p->names);
        el_result_free(&p->pre);
        free(p);
    }
    free(s->all);
    for (size_t i = 0; i < s->n_offers; i++) {
        free(s->offers[i].base);
        for (size_t k = 0; k < s->offers[i].n; k++)
            free(s->offers[i].names[k]);
        free(s->offers[i].names);
    }
    free(s->offers);
    el_strmap_free(&s->groups);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}
