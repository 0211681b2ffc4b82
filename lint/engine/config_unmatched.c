/* lint/engine/config_unmatched.c -- the warning about a project's path
 * patterns that match none of the linted files (a typo, a directory
 * moved), and about --config FILE away from the tree whose '/'-anchored
 * patterns can match nothing (config.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config_internal.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "pattern.h"
#include "progname.h"
#include "strbuf.h"

/* The keys warned about, and backend_files after them. */
static const el_list_key path_keys[] = {EL_BACKEND_DIRS, EL_CORE_PATHS, EL_LEGACY_BACKEND_DIRS,
                                        EL_EXCLUDE};
enum { N_PATH_KEYS = sizeof path_keys / sizeof *path_keys };

/* One pattern a configuration file declares itself. */
typedef struct declared {
    const el_origin *o;
    int key;             /* an el_list_key, or -1: backend_files */
    const char *entry;   /* as listed ("NAME:PATTERN" for backend_files) */
    const char *pattern; /* the path pattern */
    const char *root;    /* the directory it is relative to */
} declared;

/* The patterns of path_keys and backend_files that c's own file declares
 * (not inherited, not built in), in that order; *n of them (malloc'd). */
static declared *declared_patterns(const el_config *c, size_t *n)
{
    declared *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t k = 0; k <= N_PATH_KEYS; k++) {
        bool files = k == N_PATH_KEYS;
        const el_strlist *l = files ? &c->backend_files : &c->lists[path_keys[k]];
        for (size_t i = 0; i < l->n; i++) {
            const el_origin *o = &l->from[i];
            const char *colon = files ? strchr(l->v[i], ':') : NULL;
            if (o->builtin || !o->file || !c->path || strcmp(o->file, c->path) != 0 ||
                (files && !colon))
                continue;
            el_grow(&v, &cap, *n + 1, sizeof *v);
            v[(*n)++] = (declared){o, files ? -1 : (int)path_keys[k], l->v[i],
                                   files ? colon + 1 : l->v[i], o->root ? o->root : c->root};
        }
    }
    return v;
}

static const char *key_name(const declared *d)
{
    return d->key < 0 ? "backend_files" : el_config_key_name((el_list_key)d->key);
}

static char *hit_key(const el_origin *o, const char *key, const char *entry)
{
    return el_xasprintf("%s\x1f%s\x1f%s", o->file ? o->file : "", key, entry);
}

static void note_hit(el_configs *s, const el_origin *o, const char *key, const char *entry)
{
    char *hk = hit_key(o, key, entry);
    el_strmap_put(&s->hits, hk, (void *)1);
    free(hk);
}

/* backend_files entries ("NAME:PATTERN") that match abs_path. */
static void note_backend_file_hits(el_configs *s, const el_config *c, const char *abs_path)
{
    for (long i = el_config_backend_file_at(c, abs_path, 0); i >= 0;
         i = el_config_backend_file_at(c, abs_path, (size_t)i + 1))
        if (!c->backend_files.from[i].builtin)
            note_hit(s, &c->backend_files.from[i], "backend_files", c->backend_files.v[i]);
}

static void note_hits(el_configs *s, const el_config *c, el_list_key k, const char *abs_path)
{
    const el_strlist *l = &c->lists[k];
    for (size_t i = 0; i < l->n; i++)
        if (!l->from[i].builtin && el_config_match_at(l->from[i].root, l->v[i], abs_path))
            note_hit(s, &l->from[i], el_config_key_name(k), l->v[i]);
}

void el_configs_note_excluded(el_configs *s, const el_config *c, const char *abs_path)
{
    note_hits(s, c, EL_EXCLUDE, abs_path);
    el_strmap_put(&s->excluded, abs_path, (void *)1);
}

void el_configs_note_passed_over(el_configs *s, const el_config *c, const char *abs_path)
{
    for (size_t k = 0; k < N_PATH_KEYS; k++)
        if (path_keys[k] != EL_EXCLUDE)
            note_hits(s, c, path_keys[k], abs_path);
    note_backend_file_hits(s, c, abs_path);
}

void el_configs_quiet_unmatched(el_configs *s, el_list_key key)
{
    s->quiet_keys |= 1u << key;
}

void el_configs_quiet_all_unmatched(el_configs *s)
{
    s->quiet_all = true;
}

void el_configs_set_done(el_configs *s, const char *done)
{
    s->done = done;
}

static const char *done_of(const el_configs *s)
{
    return s->done ? s->done : EL_LINTED;
}

/* A backend_files pattern names files a walk lints: a directory
 * (`/src/gpu/`), or files of a linted language (`/src/gpu.c`,
 * `/src/gpu_[a-z].h`); `/src/gpu_[a-z].cu` names files no walk takes, so
 * that it matches none of the linted ones says nothing. */
static bool lintable_pattern(const el_config *c, const char *pattern)
{
    size_t n = strlen(pattern);
    return (n && pattern[n - 1] == '/') || el_config_language_of(c, pattern) != NULL;
}

/* A pattern that may name a header: a directory, or a last component
 * that is no source file's name (`/kern/x.c` names only sources).  A
 * header is classified when a linted file includes it, linted or not. */
static bool may_name_header(const char *pattern)
{
    size_t n = strlen(pattern);
    if (n && pattern[n - 1] == '/')
        return true;
    return !(el_path_has_ext(pattern, ".c") || el_path_has_ext(pattern, ".cu") ||
             (el_path_is_cxx(pattern) && !el_path_is_header(pattern)));
}

/* The components of s ('/'-separated, empty ones dropped) into v[max]. */
static size_t split_components(char *s, char **v, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(s, "/", &save); t && n < max; t = strtok_r(NULL, "/", &save))
        v[n++] = t;
    return n;
}

/* pattern component pc may match the directory name dc (a <word> capture
 * matches any part of it) */
static bool component_may_match(const char *pc, const char *dc)
{
    char glob[512];
    size_t m = 0;
    for (const char *q = pc; *q && m + 2 < sizeof glob; q++) {
        const char *close = *q == '<' ? strchr(q, '>') : NULL;
        if (close) {
            glob[m++] = '*';
            q = close;
        } else {
            glob[m++] = *q;
        }
    }
    glob[m] = '\0';
    return el_glob_match(glob, dc);
}

/* pattern may match a file under the excluded directory rel ("third/",
 * relative to the pattern's directory): it leads into it, from its first
 * component when anchored, else from any of the directory's components
 * (one that lies wholly below a directory whose names it does not
 * mention is not seen). */
static bool leads_into(const char *pattern, const char *rel)
{
    enum { MAX_C = 64 };
    char *ps = el_xstrdup(pattern), *ds = el_xstrdup(rel);
    char *pv[MAX_C], *dv[MAX_C];
    size_t np = split_components(ps, pv, MAX_C), nd = split_components(ds, dv, MAX_C);
    size_t len = strlen(pattern);
    bool dir_pattern = len && pattern[len - 1] == '/';
    bool may = false;
    for (size_t start = 0; start < (el_config_anchored(pattern) ? 1 : nd) && !may; start++) {
        for (size_t i = 0;; i++) {
            if (start + i == nd || (i < np && strcmp(pv[i], "**") == 0)) {
                may = true; /* the rest of the pattern may match below */
                break;
            }
            if (i == np) {
                may = dir_pattern; /* a directory holding rel: all below */
                break;
            }
            if (!component_may_match(pv[i], dv[start + i]))
                break;
        }
    }
    free(ps);
    free(ds);
    return may;
}

typedef struct excluded_probe {
    const char *root, *pattern;
    bool may;
} excluded_probe;

static void probe_excluded(const char *e, void *value, void *ud)
{
    (void)value;
    excluded_probe *p = ud;
    if (p->may)
        return;
    size_t n = strlen(e);
    if (n && e[n - 1] != '/') {
        p->may = el_config_match_at(p->root, p->pattern, e);
        return;
    }
    char *rel = el_path_under(e, p->root);
    p->may = rel && leads_into(p->pattern, rel);
    free(rel);
}

/* pattern (declared in root) may classify a header no walk lints: one
 * in an excluded part of the tree (`/third/third_*.h` with "/third/"
 * excluded), so matching none of the linted files says nothing of it. */
static bool may_match_excluded(const el_configs *s, const char *root, const char *pattern)
{
    if (!may_name_header(pattern))
        return false;
    excluded_probe p = {root, pattern, false};
    el_strmap_each(&s->excluded, probe_excluded, &p);
    return p.may;
}

/* dir lies at or below one of dirs[0..n). */
static bool under_any(const char *dir, char *const *dirs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *rel = el_path_under(dir, dirs[i]);
        bool in = rel != NULL;
        free(rel);
        if (in)
            return true;
    }
    return false;
}

/* Did a linted file match d (el_configs_note_passed_over)? */
static bool was_hit(const el_configs *s, const declared *d)
{
    char *hk = hit_key(d->o, key_name(d), d->entry);
    bool hit = el_strmap_get(&s->hits, hk) != NULL;
    free(hk);
    return hit;
}

/* The leading components of anchored pattern p (after its '/') that hold
 * no wildcard nor <name> name nothing under root: it can match no file
 * there.  (No such component: it may match anything.) */
static bool names_nothing_there(const char *root, const char *p)
{
    p += *p == '/';
    const char *end = p;
    for (const char *c = p; *c; c++) {
        if (strchr("*?[<", *c))
            break;
        if (*c == '/')
            end = c;
        if (!c[1])
            end = c + 1;
    }
    if (end == p)
        return false;
    char *prefix = el_xstrndup(p, (size_t)(end - p));
    char *full = el_path_join(root, prefix);
    struct stat st;
    bool none = stat(full, &st) != 0;
    free(full);
    free(prefix);
    return none;
}

/* --config FILE away from the linted files (`--config ../cfg/x.json`):
 * its patterns anchored with a leading '/' are relative to FILE's
 * directory, so when that holds none of the linted files they match
 * nothing (the files stay frontend, silently).  So too when FILE's
 * directory holds them only below a directory named on the command line
 * (`--config /tmp/x.json /tmp/csdr`: '/fft_fftw.c' is /tmp/fft_fftw.c),
 * FILE is in none of the named directories, none of those patterns
 * matched and they name what is not there (the per-pattern warning below
 * is only for a configuration a named directory holds; `--config
 * lint.json src`, whose '/tests/' names a directory that is there, lints
 * a part of the tree).  Said once, with them; true when said. */
static bool warn_forced_elsewhere(const el_configs *s, const el_config *c, char *const *paths,
                                  size_t n, char *const *dirs, size_t n_dirs, const char *done)
{
    if (!c->path || !c->root || !n)
        return false;
    bool holds = false;
    for (size_t i = 0; i < n && !holds; i++) {
        char *rel = el_path_under(paths[i], c->root);
        holds = rel != NULL;
        free(rel);
    }
    if (holds && (under_any(c->root, dirs, n_dirs) || under_any(c->path, dirs, n_dirs)))
        return false;
    size_t nd = 0;
    declared *d = declared_patterns(c, &nd);
    el_buf b = {0};
    size_t total = 0;
    bool any_hit = false;
    for (size_t i = 0; i < nd; i++) {
        if (!el_config_anchored(d[i].pattern))
            continue;
        any_hit |= holds && (was_hit(s, &d[i]) || !names_nothing_there(d[i].root, d[i].pattern));
        if (total++ < 3)
            el_buf_printf(&b, "%s'%s' (\"%s\")", total > 1 ? ", " : "", d[i].pattern,
                          key_name(&d[i]));
    }
    free(d);
    if (any_hit)
        total = 0;
    if (total) {
        char *shown = el_path_display(c->path);
        char *dir = el_path_display(c->root);
        char *below = holds && n_dirs ? el_path_display(dirs[0]) : NULL;
        if (total > 3)
            el_buf_printf(&b, " and %zu more", total - 3);
        if (below)
            fprintf(stderr, "%s: warning: %s: a pattern with a leading '/' is anchored at the "
                    "configuration's directory %s, which holds the %s files only below %s, so %s "
                    "match%s none of them: give them relative to %s, or without the leading "
                    "'/', or put the configuration at the project's root as .emberlint.json\n",
                    el_progname, shown, dir, done, below, el_buf_str(&b), total > 1 ? "" : "es",
                    dir);
        else if (holds)
            fprintf(stderr, "%s: warning: %s: a pattern with a leading '/' is anchored at the "
                    "configuration's directory %s, and %s match%s none of the %s files: give "
                    "them relative to %s, or without the leading '/', or put the configuration "
                    "at the project's root as .emberlint.json\n",
                    el_progname, shown, dir, el_buf_str(&b), total > 1 ? "" : "es", done, dir);
        else
            fprintf(stderr, "%s: warning: %s: a pattern with a leading '/' is anchored at the "
                    "configuration's directory %s, which holds none of the %s files, so %s "
                    "match%s nothing: give them relative to %s, or without the leading '/', or put "
                    "the configuration at the project's root as .emberlint.json\n", el_progname,
                    shown, dir, done, el_buf_str(&b), total > 1 ? "" : "es", dir);
        free(below);
        free(shown);
        free(dir);
    }
    el_buf_free(&b);
    return total > 0;
}

/* d matched none of the linted files and that says something: not one
 * the summary above named, nor one that may name headers no walk lints
 * (a header is classified when included, linted or not): in an excluded
 * directory, or, for backend_files, found through -I outside the tree
 * (an unanchored one); nor a backend_files one naming files no walk
 * takes (.cu). */
static bool worth_warning(const el_configs *s, const el_config *c, const declared *d,
                          bool anchored_said)
{
    if (d->key >= 0 && (s->quiet_keys & 1u << d->key))
        return false;
    if (anchored_said && el_config_anchored(d->pattern))
        return false;
    if (was_hit(s, d))
        return false;
    if (d->key == EL_EXCLUDE)
        return true;
    if (d->key < 0 && !lintable_pattern(c, d->pattern))
        return false;
    if (d->key < 0 && may_name_header(d->pattern) && !el_config_anchored(d->pattern))
        return false;
    return !may_match_excluded(s, d->root, d->pattern);
}

void el_configs_warn_unmatched(el_configs *s, char *const *paths, const el_config *const *cfgs,
                               size_t n, char *const *dirs, size_t n_dirs)
{
    if (s->quiet_all)
        return;
    /* its anchored patterns are named there, not again one by one */
    bool anchored_said =
        s->forced && warn_forced_elsewhere(s, s->forced, paths, n, dirs, n_dirs, done_of(s));
    for (size_t i = 0; i < n; i++)
        el_configs_note_passed_over(s, cfgs[i], paths[i]);
    size_t n_list = s->forced ? 1 : s->n_all;
    for (size_t ci = 0; ci < n_list; ci++) {
        const el_config *c = s->forced ? s->forced : s->all[ci];
        /* only where a directory named on the command line holds the
         * whole configuration (a few files named, or a compile
         * database's, say little about what a pattern should match) */
        if (!n_dirs || !under_any(c->root, dirs, n_dirs))
            continue;
        size_t nd = 0;
        declared *d = declared_patterns(c, &nd);
        for (size_t i = 0; i < nd; i++) {
            if (!worth_warning(s, c, &d[i], anchored_said))
                continue;
            char *shown = el_path_display(d[i].o->file);
            if (d[i].key < 0)
                fprintf(stderr, "%s: warning: %s:%u:%u: \"backend_files\" pattern '%s' of "
                        "backend '%.*s' matches none of the %s files\n", el_progname, shown,
                        d[i].o->line, d[i].o->col, d[i].pattern,
                        (int)(d[i].pattern - 1 - d[i].entry), d[i].entry, done_of(s));
            else
                fprintf(stderr, "%s: warning: %s:%u:%u: \"%s\" pattern '%s' matches none of "
                        "the %s files\n", el_progname, shown, d[i].o->line, d[i].o->col,
                        key_name(&d[i]), d[i].pattern, done_of(s));
            free(shown);
        }
        free(d);
    }
}
