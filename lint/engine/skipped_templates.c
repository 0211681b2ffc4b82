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

/* The linted .c files an EH000 of their own TU says do not parse, by path
 * (the value: the source's own string). */
static void failing_sources(const el_sources *sources, const el_compdb *build,
                            el_tu_result *const *res, size_t n, el_strmap *out)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < res[i]->findings.n; k++) {
            const el_finding *f = &res[i]->findings.v[k];
            long s = strcmp(f->rule, "EH000") == 0 ? el_sources_find(sources, f->file) : -1;
            /* (a .c file the build compiles on its own is no template) */
            if (s < 0 || sources->v[s].is_header || el_strmap_get(out, f->file) ||
                (build && el_compdb_lists(build, sources->v[s].path)))
                continue;
            el_strmap_put(out, f->file, sources->v[s].path);
        }
    }
}

/* The failing file an #include of `includer` names, resolved from the
 * includer's directory (a template sits next to what includes it; a name
 * found only through -I could be any file of that name). */
static const char *named_failing(const el_strmap *failing, const char *includer,
                                 const char *spelled)
{
    char *dir = el_path_dirname(includer);
    char *joined = el_path_join(dir, spelled);
    char *real = el_path_real(joined);
    free(joined);
    free(dir);
    const char *hit = real ? el_strmap_get(failing, real) : NULL;
    free(real);
    return hit;
}

/* Mark in `included` the failing files `includer`'s #include lines name,
 * read as text: every #if arm. */
static void includes_of(const el_strmap *failing, const char *includer, el_strmap *included)
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
            const char *hit = named_failing(failing, includer, spelled);
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

void el_forgive_skipped_templates(const el_sources *sources, const el_compdb *build,
                                  el_tu_result *const *res, size_t n)
{
    el_strmap failing = {0};
    el_strmap included = {0};
    failing_sources(sources, build, res, n, &failing);
    for (size_t i = 0; failing.n && i < sources->n; i++)
        includes_of(&failing, sources->v[i].path, &included);
    for (size_t i = 0; included.n && i < n; i++)
        drop_failures(&res[i]->findings, &included);
    el_strmap_free(&included);
    el_strmap_free(&failing);
}
