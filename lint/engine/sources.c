/* lint/engine/sources.c -- walking the PATH arguments (sources.h). */
#include "sources.h"
#include "progname.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "language.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"
#include "utf8.h"
#include "realpath_cache.h"

typedef struct walker {
    el_configs *cfgs;
    size_t max_size;
    el_filehash *hashes;
    el_sources *out;
    el_strmap seen_files;   /* real path -> (void*)1 */
    el_strmap seen_dirs;    /* "dev:ino" -> (void*)1 */
    bool no_exclude;        /* walking a directory the user named although excluded */
    size_t root;            /* el_source.root of the files the walk finds */
    int config_error;
    size_t text_kept;       /* bytes of header text kept (EL_SOURCES_TEXT_BUDGET) */
    /* C++ files passed over for "languages" (el_sources.cxx_unwalked):
     * "dev:ino" -> 1 + the index of the walk's root */
    el_strmap cxx_unwalked;
    char *cxx_languages;    /* the first one's "languages", as JSON */
    char *cxx_config;       /* its configuration file (shown), NULL: the built-in */
} walker;

/* Messages: the path as the user gave it (cleaned for the terminal). */
static void say(const char *kind, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(const char *kind, const char *path, const char *fmt, ...)
{
    char *clean = el_utf8_clean(path);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s%s: %s\n", el_progname, kind, clean, msg);
    free(clean);
}

#define io_error(w, path, ...) ((w)->out->io_errors++, say("", path, __VA_ARGS__))
#define skipped(path, ...) say("warning: ", path, __VA_ARGS__)

static bool is_source_name(const char *name)
{
    return el_path_has_ext(name, ".c") || el_path_has_ext(name, ".h");
}


static const el_config *config_for(walker *w, const char *abs_file)
{
    char *err = NULL;
    const el_config *c = el_configs_for(w->cfgs, abs_file, &err);
    if (!c) {
        fprintf(stderr, "%s: %s\n", el_progname, err);
        free(err);
        w->config_error = 1;
    }
    return c;
}

/* Read and register one regular file.  shown: the path as given. */
static void add_file(walker *w, const char *shown, bool explicit_arg)
{
    char *real = el_realpath_cached(shown); /* libclang's names of it resolve from the same */
    if (!real) {
        if (errno == ELOOP)
            skipped(shown, "symlink loop, skipped");
        else
            io_error(w, shown, "%s", strerror(errno));
        return;
    }
    if (el_strmap_get(&w->seen_files, real)) {
        free(real);
        return;
    }
    el_strmap_put(&w->seen_files, real, (void *)1);

    const el_config *cfg = config_for(w, real);
    if (!cfg) {
        free(real);
        return;
    }
    if (!explicit_arg && !w->no_exclude && el_config_excluded(cfg, real)) {
        el_configs_note_excluded(w->cfgs, cfg, real);
        free(real);
        return;
    }
    time_t read_at = time(NULL);
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        io_error(w, shown, "cannot read: %s", strerror(errno));
        free(real);
        return;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        skipped(shown, "not a regular file, skipped");
        free(real);
        return;
    }
    if ((size_t)st.st_size > w->max_size) {
        close(fd);
        skipped(shown, "file too large (%lld bytes, the limit is %zu; see --max-file-size), skipped",
                (long long)st.st_size, w->max_size);
        free(real);
        return;
    }
    el_buf b = {0};
    char chunk[65536];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0) {
        el_buf_putn(&b, chunk, (size_t)got);
        if (b.n > w->max_size)
            break;
    }
    int read_errno = got < 0 ? errno : 0;
    struct stat after;
    bool still = fstat(fd, &after) == 0;
    close(fd);
    if (read_errno) {
        io_error(w, shown, "cannot read: %s", strerror(read_errno));
        el_buf_free(&b);
        free(real);
        return;
    }
    if (b.n > w->max_size) {
        skipped(shown, "file too large (the limit is %zu bytes; see --max-file-size), skipped",
                w->max_size);
        el_buf_free(&b);
        free(real);
        return;
    }
    if (b.n && memchr(b.s, '\0', b.n)) {
        skipped(shown, "binary file (contains NUL bytes), skipped");
        el_buf_free(&b);
        free(real);
        return;
    }

    el_sources *out = w->out;
    el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
    el_source *s = &out->v[out->n++];
    memset(s, 0, sizeof *s);
    s->path = real;
    s->display = el_path_display(real);
    s->is_header = el_path_is_header(real);
    /* a .h is C++ where the configuration's languages leave C out */
    s->cxx = el_path_is_cxx(real) || (s->is_header && el_config_language_of(cfg, real) &&
                                !el_config_lists_c(cfg));
    s->force_c = !is_source_name(real) && !s->cxx;
    s->named = explicit_arg;
    s->root = explicit_arg ? 0 : w->root;
    s->size = b.n;
    s->hash = el_hash_bytes(b.s ? b.s : "", b.n);
    s->stamp = still ? el_file_stamp_of_read(&st, &after) : el_file_stamp_none;
    s->read_at = (long long)read_at;
    el_filehash_put(w->hashes, real, s->hash, s->stamp, s->read_at, b.n);
    el_suppress_parse(b.s ? b.s : "", b.n, &s->supp);
    s->cfg = cfg;
    s->cls = el_config_classify(cfg, real, s->backend, sizeof s->backend);
    if (s->cls == EL_FILE_BACKEND)
        el_configs_note_backend(w->cfgs, s->backend);
    /* Every TU that includes a header reads its text (el_file_text), and
     * libclang finds a header's buffer by a linear search of the TU. */
    if (s->is_header && s->stamp.mtime != el_file_stamp_none.mtime &&
        b.n <= EL_SOURCES_TEXT_BUDGET - w->text_kept) {
        size_t n = b.n;
        w->text_kept += n;
        s->text = el_xrealloc(el_buf_take(&b), n + 1); /* (not its doubled capacity) */
    }
    el_buf_free(&b);
}

const char *el_source_text(const el_source *src, el_file_stamp seen)
{
    return src->text && el_file_stamp_same_content(src->stamp, seen, src->read_at) ? src->text
                                                                                    : NULL;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory walk lints the file: C by its name, or C++ where its
 * configuration's "languages" asks for it. */
static bool walked_source(walker *w, const char *path)
{
    if (is_source_name(path))
        return true;
    if (!el_path_is_cxx(path))
        return false;
    char *abs = el_path_abs(path);
    const el_config *cfg = config_for(w, abs);
    bool yes = cfg && el_config_language_of(cfg, abs) != NULL;
    free(abs);
    return yes;
}

/* A CUDA file the walk passes over (no language of emberlint's): the
 * patterns matching it matched a file -- a backend directory of .cu
 * files is no typo, and EH102 reads its definitions -- but it is not
 * counted in the note about C++ files. */
static void note_unwalked_cuda(walker *w, const char *path)
{
    char *abs = el_path_abs(path);
    const el_config *cfg = config_for(w, abs);
    if (cfg && !(!w->no_exclude && el_config_excluded(cfg, abs)))
        el_configs_note_passed_over(w->cfgs, cfg, abs);
    free(abs);
}

/* A C++ file the walk passes over: counted (once however many links
 * reach it: by the dev:ino the walk's stat has, no realpath), unless its
 * configuration excludes it (then "languages" is not why).  Either way
 * the patterns matching it matched a file (no "matches none" warning for
 * a backend directory of C++ files beside the note about them). */
static void note_unwalked_cxx(walker *w, const char *path, const struct stat *st)
{
    char key[64];
    snprintf(key, sizeof key, "%llu:%llu", (unsigned long long)st->st_dev,
             (unsigned long long)st->st_ino);
    char *abs = el_path_abs(path);
    const el_config *cfg = config_for(w, abs);
    if (cfg && !w->no_exclude && el_config_excluded(cfg, abs)) {
        el_configs_note_excluded(w->cfgs, cfg, abs); /* (the pattern matched a file) */
    } else if (cfg && !el_strmap_get(&w->cxx_unwalked, key)) {
        el_configs_note_passed_over(w->cfgs, cfg, abs);
        el_strmap_put(&w->cxx_unwalked, key, (void *)(w->root + 1));
        if (!w->cxx_languages) { /* the first one's: ["c"], and its file */
            const el_strlist *l = el_config_list(cfg, EL_LANGUAGES);
            el_buf b = {0};
            el_buf_puts(&b, "[");
            for (size_t i = 0; l && i < l->n; i++)
                el_buf_printf(&b, "%s\"%s\"", i ? ", " : "", l->v[i]);
            el_buf_puts(&b, "]");
            w->cxx_languages = el_buf_take(&b);
            w->cxx_config = cfg->path ? el_path_display(cfg->path) : NULL;
        }
    }
    free(abs);
}

typedef struct unwalked_count {
    el_strmap linted;        /* dev:ino of the C++ files linted anyway (named on the
                                command line) */
    bool *roots;             /* [root]: held one */
    size_t n;
} unwalked_count;

static void count_unwalked(const char *key, void *v, void *ud)
{
    unwalked_count *c = ud;
    if (el_strmap_get(&c->linted, key))
        return; /* linted anyway: named on the command line */
    c->roots[(size_t)v - 1] = true;
    c->n++;
}

/* el_sources.cxx_unwalked*, once the sources are sorted. */
static void sum_unwalked_cxx(walker *w, char *const *paths, size_t n, el_sources *out)
{
    unwalked_count c = {.roots = el_xcalloc(n + 2, sizeof *c.roots)};
    struct stat st;
    for (size_t i = 0; w->cxx_unwalked.n && i < out->n; i++) {
        if (!el_path_is_cxx(out->v[i].path) || stat(out->v[i].path, &st) != 0)
            continue;
        char key[64];
        snprintf(key, sizeof key, "%llu:%llu", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
        el_strmap_put(&c.linted, key, (void *)1);
    }
    el_strmap_each(&w->cxx_unwalked, count_unwalked, &c);
    if (c.n) {
        el_buf under = {0};
        for (size_t r = 1; r <= n; r++) {
            if (!c.roots[r])
                continue;
            char *clean = el_utf8_clean(paths[r - 1]);
            el_buf_printf(&under, "%s%s", under.n ? ", " : "", clean);
            free(clean);
        }
        out->cxx_unwalked = c.n;
        out->cxx_unwalked_under = el_buf_take(&under);
        out->cxx_unwalked_languages = w->cxx_languages;
        out->cxx_unwalked_config = w->cxx_config;
        w->cxx_languages = NULL;
        w->cxx_config = NULL;
    }
    free(w->cxx_languages);
    free(w->cxx_config);
    free(c.roots);
    el_strmap_free(&c.linted);
    el_strmap_free(&w->cxx_unwalked);
}

void el_sources_note_unwalked_cxx(const el_sources *s, const char *done, const char *to_do)
{
    if (!s->cxx_unwalked)
        return;
    fprintf(stderr, "%s: note: %zu C++ file%s under %s %s not %s (", el_progname, s->cxx_unwalked,
            s->cxx_unwalked == 1 ? "" : "s", s->cxx_unwalked_under, s->cxx_unwalked == 1 ? "was" : "were",
            done);
    char *cfg = s->cxx_unwalked_config ? el_utf8_clean(s->cxx_unwalked_config) : NULL;
    fprintf(stderr, "\"languages\" is %s; add \"c++\" to it in %s to %s them)\n",
            s->cxx_unwalked_languages, cfg ? cfg : ".emberlint.json", to_do);
    free(cfg);
}

/* Is src a file the database named that its configuration's "exclude"
 * patterns match (the file, or a directory above it: "third_party/")?
 * Not one the build generates into its own directory (build_real):
 * the built-in "build/" matches those, and they are the build's. */
static bool named_but_excluded(const el_source *src, const char *build_real)
{
    char *in_build = build_real ? el_path_under(src->path, build_real) : NULL;
    bool generated = in_build != NULL;
    free(in_build);
    return src->named && src->cfg && !generated && el_config_excluded_file(src->cfg, src->path);
}

bool *el_sources_named_excluded(const el_sources *s, const char *build_dir)
{
    bool *marked = NULL;
    char *build_real = realpath(build_dir, NULL);
    for (size_t i = 0; i < s->n; i++) {
        if (!named_but_excluded(&s->v[i], build_real))
            continue;
        if (!marked)
            marked = el_xcalloc(s->n + 1, sizeof *marked);
        marked[i] = true;
    }
    free(build_real);
    return marked;
}

void el_sources_note_excluded(const el_sources *s, const bool *marked, const char *build_dir,
                              const char *done)
{
    size_t n = 0;
    const el_source *first = NULL;
    for (size_t i = 0; marked && i < s->n; i++) {
        if (!marked[i] || s->v[i].not_built || !s->v[i].cfg)
            continue;
        if (!first)
            first = &s->v[i];
        n++;
    }
    if (!n)
        return;
    char *shown = el_utf8_clean(first->display);
    char *cfg = first->cfg->path ? el_path_display(first->cfg->path) : NULL;
    char *cfg_clean = cfg ? el_utf8_clean(cfg) : NULL;
    /* the project's root (its outermost .emberlint.json): naming a nested
     * configuration's directory would leave the rest of the tree out */
    char *root = first->cfg->project_root ? el_path_display(first->cfg->project_root) : NULL;
    char *tree = root ? el_utf8_clean(root) : el_xstrdup(".");
    free(root);
    /* (-p build/: "build/compile_commands.json") */
    char *bdir = el_xstrdup(build_dir);
    for (size_t k = strlen(bdir); k > 1 && bdir[k - 1] == '/'; k--)
        bdir[k - 1] = '\0';
    fprintf(stderr, "%s: note: %zu file%s %s/compile_commands.json builds match%s \"exclude\" in %s "
                    "(%s%s) and %s %s anyway: without PATH the database names %s; name the tree "
                    "(-p %s %s) to skip %s\n",
            el_progname, n, n == 1 ? "" : "s", bdir, n == 1 ? "es" : "",
            cfg_clean ? cfg_clean : "the configuration", shown, n > 1 ? ", ..." : "",
            n == 1 ? "was" : "were", done, n == 1 ? "it" : "them", bdir, tree,
            n == 1 ? "it" : "them");
    free(bdir);
    free(tree);
    free(shown);
    free(cfg);
    free(cfg_clean);
}

void el_sources_note_named_excluded(const el_sources *s, const char *build_dir, const char *done)
{
    bool *marked = el_sources_named_excluded(s, build_dir);
    el_sources_note_excluded(s, marked, build_dir, done);
    free(marked);
}

/* stack: "dev:ino" of the directories being walked, for loop detection. */
static void walk_dir(walker *w, const char *dir, el_strmap *stack)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        io_error(w, dir, "%s", strerror(errno));
        return;
    }
    char key[64];
    snprintf(key, sizeof key, "%llu:%llu", (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino);
    if (el_strmap_get(stack, key)) {
        skipped(dir, "symlink loop, skipped");
        return;
    }
    if (el_strmap_get(&w->seen_dirs, key))
        return; /* reached twice through symlinks: once is enough */
    el_strmap_put(&w->seen_dirs, key, (void *)1);

    DIR *d = opendir(dir);
    if (!d) {
        io_error(w, dir, "cannot read directory: %s", strerror(errno));
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        el_grow(&names, &cap, n + 1, sizeof *names);
        names[n++] = el_xstrdup(e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_name);

    el_strmap_put(stack, key, (void *)1);
    for (size_t i = 0; i < n && !w->config_error; i++) {
        char *child = strcmp(dir, ".") == 0 ? el_xstrdup(names[i]) : el_path_join(dir, names[i]);
        struct stat lst, cst;
        if (lstat(child, &lst) != 0) {
            free(child);
            continue; /* vanished */
        }
        bool is_link = S_ISLNK(lst.st_mode);
        if (stat(child, &cst) != 0) {
            if (is_link && (is_source_name(names[i]) || el_path_is_cxx(names[i])))
                skipped(child, errno == ELOOP ? "symlink loop, skipped" : "broken symlink, skipped");
            else if (is_link && errno == ELOOP)
                skipped(child, "symlink loop, skipped");
            free(child);
            continue;
        }
        if (S_ISDIR(cst.st_mode)) {
            const el_config *cfg = NULL;
            char *probe = el_path_join(child, "x");
            char *abs = el_path_abs(probe);
            cfg = config_for(w, abs);
            free(probe);
            free(abs);
            char *absdir = el_path_abs(child);
            char *asdir = el_xasprintf("%s/", absdir); /* patterns see a directory */
            bool excluded = cfg && !w->no_exclude && el_config_excluded(cfg, asdir);
            if (excluded)
                el_configs_note_excluded(w->cfgs, cfg, asdir);
            else if (cfg)
                walk_dir(w, child, stack);
            free(asdir);
            free(absdir);
        } else if (walked_source(w, child)) {
            if (S_ISREG(cst.st_mode))
                add_file(w, child, false);
            else
                skipped(child, "not a regular file, skipped");
        } else if (!w->config_error && S_ISREG(cst.st_mode) && el_path_is_cxx(names[i])) {
            note_unwalked_cxx(w, child, &cst);
        } else if (!w->config_error && S_ISREG(cst.st_mode) &&
                   (el_path_has_ext(names[i], ".cu") || el_path_has_ext(names[i], ".cuh"))) {
            note_unwalked_cuda(w, child);
        }
        free(child);
    }
    el_strmap_put(stack, key, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static int cmp_source(const void *a, const void *b)
{
    return strcmp(((const el_source *)a)->path, ((const el_source *)b)->path);
}

/* The project's path patterns that matched no linted file. */
static void warn_unmatched(el_configs *cfgs, char *const *paths, size_t n, const el_sources *out)
{
    char **dirs = el_xcalloc(n + 1, sizeof *dirs), **files = el_xcalloc(out->n + 1, sizeof *files);
    const el_config **file_cfgs = el_xcalloc(out->n + 1, sizeof *file_cfgs);
    size_t n_dirs = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        char *real = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode) ? el_path_real(paths[i]) : NULL;
        if (real)
            dirs[n_dirs++] = real;
    }
    for (size_t i = 0; i < out->n; i++) {
        files[i] = out->v[i].path;
        file_cfgs[i] = out->v[i].cfg;
    }
    el_configs_warn_unmatched(cfgs, files, file_cfgs, out->n, dirs, n_dirs);
    for (size_t i = 0; i < n_dirs; i++)
        free(dirs[i]);
    free(dirs);
    free(files);
    free(file_cfgs);
}

int el_sources_collect(char *const *paths, size_t n, el_configs *cfgs, size_t max_size,
                       el_filehash *hashes, el_sources *out)
{
    walker w = {.cfgs = cfgs, .max_size = max_size, .hashes = hashes, .out = out};
    char **root_real = el_xcalloc(n + 2, sizeof *root_real); /* [root]: a walk's real path */
    for (size_t i = 0; i < n && !w.config_error; i++) {
        const char *p = paths[i];
        struct stat st;
        if (p[0] == '\0') {
            io_error(&w, p, "empty path");
            continue;
        }
        if (stat(p, &st) != 0) {
            if (errno == ELOOP)
                io_error(&w, p, "symlink loop");
            else
                io_error(&w, p, "%s", strerror(errno));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            /* A directory named on the command line is walked whole, even
             * when an exclude pattern matches it (`emberlint build/gen`). */
            char *probe = el_path_join(p, "x");
            char *abs = el_path_abs(probe);
            char *absdir = el_path_abs(p);
            const el_config *cfg = config_for(&w, abs);
            char *asdir = el_xasprintf("%s/", absdir);
            w.no_exclude = cfg && el_config_excluded(cfg, asdir);
            free(asdir);
            free(probe);
            free(abs);
            free(absdir);
            el_strmap stack = {0};
            w.root = i + 1;
            root_real[w.root] = el_path_real(p);
            if (cfg)
                walk_dir(&w, p, &stack);
            el_strmap_free(&stack);
            w.root = 0;
        } else if (S_ISREG(st.st_mode)) {
            add_file(&w, p, true);
        } else {
            io_error(&w, p, "not a regular file or directory");
        }
    }
    el_strmap_free(&w.seen_files);
    el_strmap_free(&w.seen_dirs);
    /* A file under several of the PATHs walked (`src src/arm`, `.
     * include`: the second is not walked again) has the deepest as its
     * root. */
    for (size_t k = 0; k < out->n; k++) {
        el_source *src = &out->v[k];
        for (size_t r = 1; src->root && r <= n; r++) {
            size_t l = root_real[r] ? strlen(root_real[r]) : 0;
            size_t now = root_real[src->root] ? strlen(root_real[src->root]) : 0;
            if (l > now && strncmp(src->path, root_real[r], l) == 0 && src->path[l] == '/')
                src->root = r;
        }
    }
    for (size_t r = 0; r <= n; r++)
        free(root_real[r]);
    free(root_real);
    if (out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, cmp_source);
    for (size_t i = 0; i < out->n; i++)
        out->any_backend |= out->v[i].cls == EL_FILE_BACKEND;
    sum_unwalked_cxx(&w, paths, n, out);
    if (!w.config_error)
        warn_unmatched(cfgs, paths, n, out);
    return w.config_error ? -1 : 0;
}

void el_sources_walked(el_sources *s, char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        long k = el_sources_find(s, paths[i]);
        if (k >= 0)
            s->v[k].named = false;
    }
}

long el_sources_find(const el_sources *s, const char *path)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(s->v[mid].path, path);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

void el_sources_free(el_sources *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].path);
        free(s->v[i].display);
        free(s->v[i].text);
        el_suppressions_free(&s->v[i].supp);
    }
    free(s->v);
    free(s->cxx_unwalked_under);
    free(s->cxx_unwalked_languages);
    free(s->cxx_unwalked_config);
    memset(s, 0, sizeof *s);
}

size_t el_sources_linted(const el_sources *s)
{
    size_t n = 0;
    for (size_t i = 0; s && i < s->n; i++)
        n += !s->v[i].not_built;
    return n;
}
