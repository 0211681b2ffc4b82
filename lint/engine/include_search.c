/* lint/engine/include_search.c -- the empty places include directives
 * searched (include_search.h). */
#include "include_search.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args_policy.h"
#include "clang_util.h"
#include "hash.h"
#include "mem.h"
#include "path.h"
#include "strmap.h"

typedef struct dirlist {
    char **v;
    size_t n, cap;
} dirlist;

static void add_dir(dirlist *l, const char *dir)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], dir) == 0)
            return;
    el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = el_xstrdup(dir);
}

static void free_dirs(dirlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* The search path, in libclang's order, for "..." (quote) and <...>. */
typedef struct search {
    dirlist quote, angled, system, after;
} search;

static void from_args(search *s, char *const *args, size_t n)
{
    static const struct {
        const char *opt;
        int list; /* 0 quote, 1 angled, 2 system, 3 after */
    } opts[] = {{"-iquote", 0}, {"-I", 1}, {"-isystem-after", 3}, {"-isystem", 2},
                {"-cxx-isystem", 2}, {"-idirafter", 3}};
    dirlist *lists[] = {&s->quote, &s->angled, &s->system, &s->after};
    for (size_t i = 0; i < n;) {
        el_arg_info k = el_arg_inspect(args, n, i);
        const char *val = k.span == 2 ? args[i + 1] : args[i] + k.value_off;
        for (size_t o = 0; k.path && o < sizeof opts / sizeof opts[0]; o++) {
            size_t lo = strlen(opts[o].opt);
            if (strncmp(args[i], opts[o].opt, lo) == 0 && (k.span == 2 || k.value_off == lo)) {
                if (val[0] && val[0] != '=') { /* "=dir" is under the sysroot: not followed */
                    char *abs = el_path_abs(val);
                    add_dir(lists[opts[o].list], abs);
                    free(abs);
                }
                break;
            }
        }
        i += k.span;
    }
}

/* One #include of the TU. */
typedef struct directive {
    char *name;          /* as written: "x.h", "eh/eh.h" */
    char *from_dir;      /* the including file's directory */
    char *found;         /* what libclang found (normalized), or NULL */
    bool angled, quoted, next;
} directive;

/* A file's path, asked once per file, not once per directive. */
typedef struct file_info {
    CXFile f;
    char *path;          /* absolute, normalized (file_path), or NULL */
} file_info;

struct el_include_memo {
    pthread_mutex_t lock;
    el_strmap written;   /* directive_key -> (void *)(delimiter bits | MEMO_KNOWN) */
    time_t started;
};

enum { MEMO_NEXT = 1, MEMO_ANGLED = 2, MEMO_QUOTED = 4, MEMO_KNOWN = 8 };

el_include_memo *el_include_memo_new(time_t started)
{
    el_include_memo *m = el_xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    m->started = started;
    return m;
}

void el_include_memo_free(el_include_memo *m)
{
    if (!m)
        return;
    el_strmap_free(&m->written);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

typedef struct walk {
    CXTranslationUnit tu;
    el_include_memo *memo;
    directive *v;
    size_t n, cap;
    file_info *files;
    size_t n_files, cap_files, last;
} walk;

/* How the directive (its extent r) is written: <...>, "..." (neither
 * when a macro names the header), #include_next.  From its tokens ('#',
 * the directive's name, then '<', a string literal or a macro's name),
 * not the file's text: clang_getFileContents finds the file by a linear
 * scan of the TU's source locations, tens of thousands of instructions a
 * call (once a file, it was the largest cost of a run with a cache). */
static void delimiters(CXTranslationUnit tu, CXSourceRange r, directive *d)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, r, &toks, &n);
    if (n >= 3) {
        CXString sp = clang_getTokenSpelling(tu, toks[1]);
        const char *t = clang_getCString(sp);
        d->next = t && strcmp(t, "include_next") == 0;
        clang_disposeString(sp);
        CXTokenKind k = clang_getTokenKind(toks[2]);
        d->angled = k == CXToken_Punctuation; /* '<' */
        d->quoted = k == CXToken_Literal;
    }
    if (toks)
        clang_disposeTokens(tu, toks, n);
}

/* Whether dir/name needs normalizing (dir is): name has a "." or ".."
 * component or an empty one. */
static bool needs_normalizing(const char *name)
{
    if (!name[0] || name[0] == '/')
        return true;
    for (const char *p = name;; p++) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
            return true;
        if (!end)
            return false;
        p = end;
    }
}

/* The file's name as libclang found it, made absolute (a relative name
 * is relative to the current directory, as -Iinc is) and normalized. */
static char *file_path(CXFile f)
{
    CXString s = clang_getFileName(f);
    const char *c = clang_getCString(s);
    char *p = !c || !c[0]                                  ? NULL
              : c[0] == '/' && c[1] && !needs_normalizing(c + 1) ? el_xstrdup(c)
                                                               : el_path_abs(c);
    clang_disposeString(s);
    return p;
}

static file_info *file_of(walk *w, CXFile f)
{
    if (w->last < w->n_files && w->files[w->last].f == f)
        return &w->files[w->last];
    for (size_t i = 0; i < w->n_files; i++)
        if (w->files[i].f == f)
            return &w->files[w->last = i];
    el_grow(&w->files, &w->cap_files, w->n_files + 1, sizeof *w->files);
    w->files[w->n_files] = (file_info){f, file_path(f)};
    return &w->files[w->last = w->n_files++];
}

/* The directive at `offset` of file f, as a key of the memo: the hex of
 * a hash of the file's stamp (device, inode, modification time) and the
 * offset.  False when f is too recent to share (the memo's note). */
static bool directive_key(const el_include_memo *m, CXFile f, unsigned offset, char key[33])
{
    el_file_stamp st = elc_file_stamp(f);
    if (st.mtime == el_file_stamp_none.mtime || st.mtime + 1 >= (long long)m->started)
        return false;
    el_hasher h;
    el_hash_init(&h);
    el_hash_u64(&h, st.dev);
    el_hash_u64(&h, st.ino);
    el_hash_u64(&h, (uint64_t)st.mtime);
    el_hash_u64(&h, offset);
    el_hash_hex(el_hash_final(&h), key);
    return true;
}

/* How d (cursor c, at `offset` of f) is written: from the memo, or its
 * tokens. */
static void written(walk *w, CXCursor c, CXFile f, unsigned offset, directive *d)
{
    char key[33];
    bool shared = w->memo && directive_key(w->memo, f, offset, key);
    if (shared) {
        pthread_mutex_lock(&w->memo->lock);
        uintptr_t bits = (uintptr_t)el_strmap_get(&w->memo->written, key);
        pthread_mutex_unlock(&w->memo->lock);
        if (bits & MEMO_KNOWN) {
            d->next = bits & MEMO_NEXT;
            d->angled = bits & MEMO_ANGLED;
            d->quoted = bits & MEMO_QUOTED;
            return;
        }
    }
    delimiters(w->tu, clang_getCursorExtent(c), d);
    if (shared) {
        uintptr_t bits = MEMO_KNOWN | (d->next ? MEMO_NEXT : 0) | (d->angled ? MEMO_ANGLED : 0) |
                         (d->quoted ? MEMO_QUOTED : 0);
        pthread_mutex_lock(&w->memo->lock);
        el_strmap_put(&w->memo->written, key, (void *)bits);
        pthread_mutex_unlock(&w->memo->lock);
    }
}

static void add_directive(walk *w, CXCursor c)
{
    directive d;
    memset(&d, 0, sizeof d);
    CXString sp = clang_getCursorSpelling(c);
    const char *name = clang_getCString(sp);
    bool usable = name && name[0] && name[0] != '/';
    if (usable)
        d.name = el_xstrdup(name);
    clang_disposeString(sp);
    CXFile f = NULL;
    unsigned offset = 0;
    /* (its location is its extent's start) */
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &offset);
    file_info *from = f ? file_of(w, f) : NULL;
    if (!usable || !from || !from->path) {
        free(d.name);
        return;
    }
    d.from_dir = el_path_dirname(from->path);
    written(w, c, f, offset, &d);
    CXFile inc = clang_getIncludedFile(c);
    const char *found = inc ? file_of(w, inc)->path : NULL;
    d.found = found ? el_xstrdup(found) : NULL;
    el_grow(&w->v, &w->cap, w->n + 1, sizeof *w->v);
    w->v[w->n++] = d;
}

/* "dir/name" when found is that, else NULL: the directory an include was
 * found in. */
static char *found_in(const directive *d)
{
    if (!d->found)
        return NULL;
    size_t lf = strlen(d->found), ln = strlen(d->name);
    if (lf <= ln + 1 || d->found[lf - ln - 1] != '/' || strcmp(d->found + lf - ln, d->name) != 0)
        return NULL;
    return el_xstrndup(d->found, lf - ln - 1);
}

static bool in_list(const dirlist *l, const char *dir)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], dir) == 0)
            return true;
    return false;
}

typedef struct output {
    el_filehash *fs;
    el_tu_result *res;
    el_strmap seen;
    bool consistent;
} output;

/* One place the search for d looks, in order; *passed once the place
 * that answered is behind.  A file at a place before it means libclang
 * saw another tree than the one on disk now (a file appeared during the
 * parse), unless the order there is not known (ordered false). */
static void consider(output *o, const char *dir, const directive *d, bool ordered, bool *passed)
{
    /* dir/name, as el_path_join, without its printf: this runs for every
     * directive and directory */
    size_t ld = strlen(dir), ln = strlen(d->name);
    bool slash = ld == 0 || dir[ld - 1] != '/';
    char *cand = el_xmalloc(ld + slash + ln + 1);
    memcpy(cand, dir, ld);
    cand[ld] = '/';
    memcpy(cand + ld + slash, d->name, ln + 1);
    if (needs_normalizing(d->name)) {
        char *abs = el_path_abs(cand);
        free(cand);
        cand = abs;
    }
    if (d->found && strcmp(cand, d->found) == 0) {
        *passed = true;
    } else if (!el_filehash_exists(o->fs, cand)) {
        if (!el_strmap_get(&o->seen, cand)) {
            el_strmap_put(&o->seen, cand, (void *)1);
            el_result_add_absent(o->res, cand);
        }
    } else if (ordered && !*passed) {
        o->consistent = false;
    }
    free(cand);
}

static void consider_all(output *o, const dirlist *l, const directive *d, bool ordered,
                         bool *passed)
{
    for (size_t i = 0; i < l->n; i++)
        consider(o, l->v[i], d, ordered, passed);
}

bool el_include_search_absent(CXTranslationUnit tu, const CXCursor *directives, size_t n_directives,
                              char *const *args, size_t n_args, el_filehash *fs,
                              el_include_memo *memo, el_tu_result *res)
{
    search s;
    memset(&s, 0, sizeof s);
    from_args(&s, args, n_args);
    walk w = {.tu = tu, .memo = memo};
    for (size_t i = 0; i < n_directives; i++)
        add_directive(&w, directives[i]);
    /* libclang's own system directories: where <...> headers were found
     * outside the arguments' directories (their order is not known) */
    dirlist sys = {0};
    for (size_t i = 0; i < w.n; i++) {
        char *dir = w.v[i].angled ? found_in(&w.v[i]) : NULL;
        if (dir && !in_list(&s.angled, dir) && !in_list(&s.system, dir) && !in_list(&s.after, dir))
            add_dir(&sys, dir);
        free(dir);
    }
    output o = {fs, res, {0}, true};
    for (size_t i = 0; i < w.n; i++) {
        const directive *d = &w.v[i];
        bool passed = false;
        if (!d->next) {
            if (!d->angled) { /* "..." (or a macro): the includer's directory first */
                consider(&o, d->from_dir, d, true, &passed);
                consider_all(&o, &s.quote, d, true, &passed);
            }
            consider_all(&o, &s.angled, d, true, &passed);
            consider_all(&o, &s.system, d, true, &passed);
            consider_all(&o, &sys, d, false, &passed);
            consider_all(&o, &s.after, d, !sys.n, &passed);
        }
        free(d->name);
        free(d->from_dir);
        free(d->found);
    }
    free(w.v);
    for (size_t i = 0; i < w.n_files; i++)
        free(w.files[i].path);
    free(w.files);
    el_strmap_free(&o.seen);
    free_dirs(&sys);
    free_dirs(&s.quote);
    free_dirs(&s.angled);
    free_dirs(&s.system);
    free_dirs(&s.after);
    return o.consistent;
}
