/* lint/engine/skipped_templates.c -- the parse failures of .c templates
 * whose includer skips them (skipped_templates.h). */
#include "skipped_templates.h"

#include <stdlib.h>
#include <string.h>

#include "include_line.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"

/* The linted .c files an EH000 of their own TU says do not parse: by
 * path (the source's own string), and in a list. */
typedef struct failing {
    el_strmap by_path;
    const char **v;
    size_t n, cap;
} failing;

static void failing_sources(const el_sources *sources, el_tu_result *const *res, size_t n,
                            failing *out)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < res[i]->findings.n; k++) {
            const el_finding *f = &res[i]->findings.v[k];
            long s = strcmp(f->rule, "EH000") == 0 ? el_sources_find(sources, f->file) : -1;
            if (s < 0 || sources->v[s].is_header || el_strmap_get(&out->by_path, f->file))
                continue;
            el_strmap_put(&out->by_path, f->file, sources->v[s].path);
            el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
            out->v[out->n++] = sources->v[s].path;
        }
    }
}

/* Does `path` end with the components of `spelled` ("vector/neon.c")? */
static bool ends_with_components(const char *path, const char *spelled)
{
    while (strncmp(spelled, "./", 2) == 0)
        spelled += 2;
    size_t lp = strlen(path), ls = strlen(spelled);
    return ls && ls < lp && path[lp - ls - 1] == '/' && strcmp(path + lp - ls, spelled) == 0;
}

/* The failing file an #include of `includer` names: resolved from the
 * includer's directory; where nothing is there, through an include
 * directory this run does not know (-I, the build's), by the path's last
 * components. */
static const char *named_failing(const failing *fl, const char *includer, const char *spelled)
{
    char *dir = el_path_dirname(includer);
    char *joined = el_path_join(dir, spelled);
    char *real = el_path_real(joined);
    free(joined);
    free(dir);
    const char *hit = NULL;
    if (real)
        hit = el_strmap_get(&fl->by_path, real);
    else if (!strstr(spelled, ".."))
        for (size_t i = 0; !hit && i < fl->n; i++)
            hit = ends_with_components(fl->v[i], spelled) ? fl->v[i] : NULL;
    free(real);
    return hit;
}

/* Mark in `included` the failing files `includer`'s #include lines name,
 * read as text: every #if arm. */
static void includes_of(const failing *fl, const char *includer, el_strmap *included)
{
    el_buf b = {0};
    if (!el_buf_read_path(&b, includer) || !b.s) {
        el_buf_free(&b);
        return;
    }
    for (size_t ls = 0; ls < b.n;) {
        size_t le = ls;
        while (le < b.n && b.s[le] != '\n')
            le++;
        bool angled;
        const char *name;
        size_t nl;
        if (el_include_line(b.s + ls, le - ls, &angled, &name, &nl)) {
            char *spelled = el_xstrndup(name, nl);
            const char *hit = named_failing(fl, includer, spelled);
            if (hit && strcmp(hit, includer) != 0)
                el_strmap_put(included, hit, (void *)1);
            free(spelled);
        }
        ls = le + 1;
    }
    el_buf_free(&b);
}

/* Drop the EH000 findings at the files in `included`. */
static void drop_failures(el_findings *f, const el_strmap *included)
{
    size_t kept = 0;
    for (size_t k = 0; k < f->n; k++) {
        if (strcmp(f->v[k].rule, "EH000") == 0 && el_strmap_get(included, f->v[k].file))
            el_finding_clear(&f->v[k]);
        else
            f->v[kept++] = f->v[k];
    }
    f->n = kept;
}

void el_forgive_skipped_templates(const el_sources *sources, el_tu_result *const *res, size_t n)
{
    failing fl = {0};
    el_strmap included = {0};
    failing_sources(sources, res, n, &fl);
    for (size_t i = 0; fl.n && i < sources->n; i++)
        includes_of(&fl, sources->v[i].path, &included);
    for (size_t i = 0; included.n && i < n; i++)
        drop_failures(&res[i]->findings, &included);
    el_strmap_free(&included);
    el_strmap_free(&fl.by_path);
    free(fl.v);
}
