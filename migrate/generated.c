/* migrate/generated.c -- em_generated_file (generated.h): a CMake build
 * directory found above a file, the template its configure_file read. */
#include "generated.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c_text.h"
#include "fileio.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

enum { SEARCH_DEPTH = 12, SEARCH_FILES = 200000 };

/* The value of key (as "CMAKE_HOME_DIRECTORY:INTERNAL=") in build's
 * CMakeCache.txt, its real path, or NULL. */
static char *cache_path(const char *build, const char *key)
{
    char *cache = el_path_join(build, "CMakeCache.txt");
    FILE *f = fopen(cache, "r");
    free(cache);
    char line[4096], *v = NULL;
    size_t klen = strlen(key);
    while (f && !v && fgets(line, sizeof line, f))
        if (!strncmp(line, key, klen)) {
            line[strcspn(line, "\r\n")] = '\0';
            v = el_path_real(line + klen);
            if (!v) /* named but gone: not this folder */
                v = el_xstrdup("");
        }
    if (f)
        fclose(f);
    return v;
}

/* Is rel (a path under a build directory) in the sources FetchContent
 * put there (_deps/NAME-src/...)? */
static bool fetched_source(const char *rel)
{
    if (strncmp(rel, "_deps/", 6) != 0)
        return false;
    const char *c = rel + 6, *e = strchr(c, '/');
    size_t n = e ? (size_t)(e - c) : strlen(c);
    return n > 4 && !memcmp(c + n - 4, "-src", 4);
}

/* The CMake build directory holding the file at the real path real: the
 * nearest folder above with a CMakeCache.txt written there (its
 * CMAKE_CACHEFILE_DIR, when it names one, is that folder; a cache copied
 * or left behind is passed by), or NULL -- also when the file is of the
 * cache's source tree (CMAKE_HOME_DIRECTORY) at or below the build
 * directory (an in-source build, `cmake .`) or of a FetchContent source
 * (_deps/NAME-src). */
static char *build_dir_of(const char *real)
{
    char *dir = el_path_dirname(real);
    for (;;) {
        char *cache = el_path_join(dir, "CMakeCache.txt");
        bool yes = access(cache, F_OK) == 0;
        free(cache);
        if (yes) {
            char *own = cache_path(dir, "CMAKE_CACHEFILE_DIR:INTERNAL=");
            yes = !own || !strcmp(own, dir);
            free(own);
        }
        if (yes) {
            char *home = cache_path(dir, "CMAKE_HOME_DIRECTORY:INTERNAL=");
            char *home_rel = home && home[0] ? el_path_under(home, dir) : NULL;
            char *src_rel = home_rel ? el_path_under(real, home) : NULL;
            char *rel = el_path_under(real, dir);
            bool source = src_rel || (rel && fetched_source(rel));
            free(rel);
            free(src_rel);
            free(home_rel);
            free(home);
            if (source) {
                free(dir);
                return NULL;
            }
            return dir;
        }
        if (!strcmp(dir, "/") || !dir[0] || !strcmp(dir, ".")) {
            free(dir);
            return NULL;
        }
        char *up = el_path_dirname(dir);
        free(dir);
        dir = up;
    }
}

static char *home_dir(const char *build)
{
    char *src = cache_path(build, "CMAKE_HOME_DIRECTORY:INTERNAL=");
    if (src && !src[0]) {
        free(src);
        src = NULL;
    }
    return src;
}

static bool has_markers(const char *path)
{
    char *d = NULL;
    size_t n = 0;
    if (el_read_file(path, &d, &n, NULL, NULL) != 0)
        return false;
    bool yes = strstr(d, "#cmakedefine") != NULL;
    for (char *p = d; !yes && (p = strchr(p, '@')); p++) {
        size_t k = 1;
        while (el_text_ident_char(p[k]))
            k++;
        yes = k > 1 && p[k] == '@';
    }
    free(d);
    return yes;
}

/* The source tree's files a template may be (named NAME.in or
 * NAME.cmake), and its C and C++ files (a header configure_file COPYONLY
 * or file(COPY) copies into the build directory as it is: SCS's
 * include/cones.h as <build>/include/cones.h), found by one walk of the
 * tree for the whole run: a plan asks for every site of a generated
 * file, and a tree may hold tens of thousands of files. */
typedef struct search {
    char *src, *skip; /* the tree walked, the build directory passed by */
    char **found;
    size_t n, cap, files;
    char **code; /* the C and C++ files, that a copy may be made from */
    size_t n_code, cap_code;
} search;

static search walked;
static unsigned n_walks;

unsigned em_generated_walks(void)
{
    return n_walks;
}

static bool template_name(const char *name)
{
    size_t n = strlen(name);
    return (n > 3 && !strcmp(name + n - 3, ".in")) || (n > 6 && !strcmp(name + n - 6, ".cmake"));
}

static bool code_name(const char *name)
{
    static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".inc", ".def",
                                       ".c", ".cc", ".cpp", ".cxx"};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof exts / sizeof *exts; i++)
        if (!strcmp(dot, exts[i]))
            return true;
    return false;
}

static void walk(search *s, const char *dir, int depth)
{
    if (depth > SEARCH_DEPTH || s->files > SEARCH_FILES || !strcmp(dir, s->skip))
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue; /* ., .., .git and other hidden folders */
        s->files++;
        char *p = el_path_join(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) != 0) {
            free(p); /* gone since readdir, or unreadable */
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            walk(s, p, depth + 1);
        } else if (S_ISREG(st.st_mode) && template_name(e->d_name)) {
            el_grow(&s->found, &s->cap, s->n + 1, sizeof *s->found);
            s->found[s->n++] = p;
            continue;
        } else if (S_ISREG(st.st_mode) && code_name(e->d_name)) {
            el_grow(&s->code, &s->cap_code, s->n_code + 1, sizeof *s->code);
            s->code[s->n_code++] = p;
            continue;
        }
        free(p);
    }
    closedir(d);
}

/* The template candidates under src (the build directory build passed
 * by): walked once per source tree and build directory. */
static const search *candidates(const char *src, const char *build)
{
    if (walked.src && !strcmp(walked.src, src) && !strcmp(walked.skip, build))
        return &walked;
    for (size_t i = 0; i < walked.n; i++)
        free(walked.found[i]);
    free(walked.found);
    for (size_t i = 0; i < walked.n_code; i++)
        free(walked.code[i]);
    free(walked.code);
    free(walked.src);
    free(walked.skip);
    memset(&walked, 0, sizeof walked);
    walked.src = el_xstrdup(src);
    walked.skip = el_xstrdup(build);
    n_walks++;
    walk(&walked, src, 0);
    return &walked;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool same_content(const char *a, const char *b)
{
    char *da = NULL, *db = NULL;
    size_t na = 0, nb = 0;
    bool same = el_read_file(a, &da, &na, NULL, NULL) == 0 &&
                el_read_file(b, &db, &nb, NULL, NULL) == 0 && na == nb && !memcmp(da, db, na);
    free(da);
    free(db);
    return same;
}

/* The one file of a search that qualifies: more than one alike (vendored
 * copies) and none is taken, they are listed for the message. */
typedef struct only_one {
    char *best;
    el_buf list;
    size_t hits;
} only_one;

static void only_one_add(only_one *o, const char *path)
{
    if (o->hits++ == 0)
        o->best = el_xstrdup(path);
    char *shown = el_path_display(path);
    el_buf_printf(&o->list, "%s%s", o->hits > 1 ? ", " : "", shown);
    free(shown);
}

/* The file, or NULL (with the list into *several when there were more). */
static char *only_one_take(only_one *o, char **several)
{
    if (o->hits > 1) {
        free(o->best);
        o->best = NULL;
        *several = el_buf_take(&o->list);
    } else {
        el_buf_free(&o->list);
    }
    return o->best;
}

/* The file of the source tree the generated file at real is a copy of
 * (the same name, the same bytes: configure_file COPYONLY, file(COPY)),
 * or NULL (then, when several are, their list into *several). */
static char *find_copy(const search *all, const char *real, char **several)
{
    const char *base = el_path_base(real);
    only_one o = {0};
    for (size_t i = 0; i < all->n_code; i++)
        if (!strcmp(el_path_base(all->code[i]), base) && same_content(all->code[i], real))
            only_one_add(&o, all->code[i]);
    return only_one_take(&o, several);
}

/* The template of the file at rel (relative to the build directory;
 * real, its real path) under the source tree src, or NULL (then, when
 * several files could be it, their list into *several): a template
 * named after it, else a file it is a copy of. */
static char *find_template(const char *src, const char *build, const char *rel, const char *real,
                           char **several)
{
    const char *base = el_path_base(rel);
    char n_in[512], stem_in[512], n_cmake[512], n_cmake_in[512];
    snprintf(n_in, sizeof n_in, "%s.in", base);
    size_t stem = strcspn(base, ".");
    snprintf(stem_in, sizeof stem_in, "%.*s.in", (int)stem, base);
    snprintf(n_cmake, sizeof n_cmake, "%s.cmake", base);
    snprintf(n_cmake_in, sizeof n_cmake_in, "%s.cmake.in", base);
    /* at the same place first */
    char *same = el_xasprintf("%s/%s.in", src, rel);
    if (access(same, F_OK) == 0)
        return same;
    free(same);
    const search *all = candidates(src, build);
    const char *names[4] = {n_in, stem_in, n_cmake, n_cmake_in};
    search s = {0};
    for (size_t i = 0; i < all->n; i++)
        for (size_t k = 0; k < 4; k++)
            if (!strcmp(el_path_base(all->found[i]), names[k])) {
                el_grow(&s.found, &s.cap, s.n + 1, sizeof *s.found);
                s.found[s.n++] = el_xstrdup(all->found[i]);
                break;
            }
    char *best = NULL;
    if (s.n) {
        qsort(s.found, s.n, sizeof *s.found, cmp_str);
        /* a name's own template before its stem's; with markers first;
         * more than one alike (vendored copies): none is taken, they are
         * listed */
        for (int pass = 0; pass < 4 && !best && !*several; pass++) {
            only_one o = {0};
            for (size_t i = 0; i < s.n; i++) {
                bool own = strcmp(el_path_base(s.found[i]), stem_in) != 0 ||
                           !strcmp(n_in, stem_in);
                if ((pass < 2) != own)
                    continue;
                if (pass % 2 == 0 && !has_markers(s.found[i]))
                    continue;
                only_one_add(&o, s.found[i]);
            }
            best = only_one_take(&o, several);
        }
    }
    for (size_t i = 0; i < s.n; i++)
        free(s.found[i]);
    free(s.found);
    if (!best && !*several)
        best = find_copy(all, real, several);
    return best;
}

/* Does line ln (1-based) of d hold name as a whole word at col (0: any
 * column)?  Its column into *at. */
static bool line_names(const char *d, size_t len, unsigned ln, const char *name, unsigned col,
                       unsigned *at)
{
    size_t i = 0;
    for (unsigned l = 1; l < ln && i < len; i++)
        if (d[i] == '\n')
            l++;
    if (i >= len && ln > 1)
        return false;
    size_t e = i;
    while (e < len && d[e] != '\n')
        e++;
    size_t n = strlen(name);
    for (size_t k = i; k + n <= e; k++) {
        if (memcmp(d + k, name, n) || (k > i && el_text_ident_char(d[k - 1])) ||
            (k + n < len && el_text_ident_char(d[k + n])))
            continue;
        if (col && k - i + 1 != col)
            continue;
        *at = (unsigned)(k - i + 1);
        return true;
    }
    return false;
}

/* Line ln (1-based) of d: its start, its length into *n; NULL past the end. */
static const char *line_at(const char *d, size_t len, unsigned ln, size_t *n)
{
    size_t i = 0;
    for (unsigned l = 1; l < ln; i++) {
        if (i >= len)
            return NULL;
        if (d[i] == '\n')
            l++;
    }
    if (i > len)
        return NULL;
    size_t e = i;
    while (e < len && d[e] != '\n' && d[e] != '\r')
        e++;
    *n = e - i;
    return d + i;
}

bool em_generated_file(const char *path, unsigned line, unsigned col, const char *name,
                       em_generated *g)
{
    memset(g, 0, sizeof *g);
    char *real = el_path_real(path);
    if (!real)
        return false;
    char *build = build_dir_of(real);
    if (!build) {
        free(real);
        return false;
    }
    g->build_dir = build;
    g->source = home_dir(build);
    char *rel = el_path_under(real, build);
    if (g->source && rel && rel[0]) {
        /* the sites of one file come together: its template is kept */
        static char *last_file, *last_tmpl, *last_several;
        if (!last_file || strcmp(last_file, real) != 0) {
            free(last_file);
            free(last_tmpl);
            free(last_several);
            last_file = el_xstrdup(real);
            last_several = NULL;
            last_tmpl = find_template(g->source, build, rel, real, &last_several);
        }
        g->tmpl = last_tmpl ? el_xstrdup(last_tmpl) : NULL;
        g->several = last_several ? el_xstrdup(last_several) : NULL;
    }
    free(rel);
    free(real);
    if (!g->tmpl)
        return true;
    char *d = NULL, *gd = NULL;
    size_t len = 0, glen = 0;
    if (el_read_file(g->tmpl, &d, &len, NULL, NULL) != 0)
        return true;
    /* the site's line as generated: the template's line with the same
     * text is its source (configure_file may add or drop lines before it) */
    const char *gl = NULL;
    size_t gn = 0;
    if (el_read_file(path, &gd, &glen, NULL, NULL) == 0)
        gl = line_at(gd, glen, line, &gn);
    unsigned lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += d[i] == '\n';
    unsigned best = 0, best_rank = 0, best_dist = 0, at = 0;
    for (unsigned l = 1; l <= lines; l++) {
        size_t tn = 0;
        const char *tl = line_at(d, len, l, &tn);
        unsigned c = 0, rank = 0;
        if (gl && tn == gn && !memcmp(tl, gl, gn) && (!name || line_names(d, len, l, name, 0, &c)))
            rank = 3; /* the same text */
        else if (name && line_names(d, len, l, name, col, &c))
            rank = 2; /* the name at the same column */
        else if (name && line_names(d, len, l, name, 0, &c))
            rank = 1;
        if (!name && rank == 3)
            c = col;
        unsigned dist = l > line ? l - line : line - l;
        if (rank && (rank > best_rank || (rank == best_rank && dist < best_dist))) {
            best = l;
            best_rank = rank;
            best_dist = dist;
            at = c;
        }
    }
    if (best) {
        g->line = best;
        g->col = at;
    } else if (!name && line <= lines) {
        g->line = line;
        g->col = col;
    }
    free(gd);
    free(d);
    return true;
}

void em_generated_free(em_generated *g)
{
    free(g->build_dir);
    free(g->source);
    free(g->tmpl);
    free(g->several);
    memset(g, 0, sizeof *g);
}
