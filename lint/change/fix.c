/* lint/change/fix.c -- from findings with fixes to a verified changeset (fix.h). */
#include "fix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "fileio.h"
#include "fix_select.h"
#include "verify.h"
#include "mem.h"
#include "path.h"
#include "progname.h"
#include "skipped_include.h"

/* ---- small helpers --------------------------------------------------------- */

static bool has_path(char **v, size_t n, const char *p)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], p) == 0)
            return true;
    return false;
}

/* The distinct files a fix edits (pointers into its edits). */
static size_t fix_files(const el_fix *fx, char ***out)
{
    char **v = el_xcalloc(fx->edits.n + 1, sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < fx->edits.n; i++)
        if (!has_path(v, n, fx->edits.v[i].path))
            v[n++] = fx->edits.v[i].path;
    *out = v;
    return n;
}

static const char *display_of(const el_sources *s, const char *path)
{
    long k = el_sources_find(s, path);
    return k >= 0 ? s->v[k].display : path;
}

/* ---- verification TUs ---------------------------------------------------- */

/* The sources whose TU sees `path`: itself for a .c; for a header the
 * linted .c files that include it, or the header alone. */
static size_t tus_of_file(const el_sources *s, const el_fix_opts *o, const char *path,
                          size_t **out)
{
    size_t *v = NULL, n = 0, cap = 0;
    long k = el_sources_find(s, path);
    if (k < 0) {
        *out = NULL;
        return 0;
    }
    if (s->v[k].is_header && o->includes) {
        for (size_t i = 0; i < o->includes->n; i++) {
            if (strcmp(o->includes->v[i].header, path) != 0)
                continue;
            long t = el_sources_find(s, o->includes->v[i].tu);
            if (t < 0 || s->v[t].is_header)
                continue;
            bool dup = false;
            for (size_t j = 0; j < n; j++)
                dup |= v[j] == (size_t)t;
            if (!dup) {
                el_grow(&v, &cap, n + 1, sizeof *v);
                v[n++] = (size_t)t;
            }
        }
    }
    if (!n) {
        el_grow(&v, &cap, 1, sizeof *v);
        v[n++] = (size_t)k;
    }
    *out = v;
    return n;
}

/* The plan's TU for source src, parsing it (before the change) the first
 * time. */
static el_fix_tu *tu_for(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o, size_t src)
{
    for (size_t i = 0; i < plan->n_tus; i++)
        if (plan->tus[i].src == src)
            return &plan->tus[i];
    el_grow(&plan->tus, &plan->cap_tus, plan->n_tus + 1, sizeof *plan->tus);
    el_fix_tu *t = &plan->tus[plan->n_tus++];
    memset(t, 0, sizeof *t);
    t->src = src;
    el_reparse_errors(o->compdb, &s->v[src], o->extra_args, o->n_extra, &t->before);
    return t;
}

/* Does every TU that sees `path` parse without errors now? */
static bool file_parses(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o,
                        const char *path)
{
    size_t *tus = NULL;
    size_t n = tus_of_file(s, o, path, &tus);
    bool ok = n > 0;
    for (size_t i = 0; i < n; i++)
        if (tu_for(plan, s, o, tus[i])->before.n)
            ok = false;
    free(tus);
    return ok;
}

/* ---- the plan -------------------------------------------------------------- */

/* One more fix taken in path. */
static void count_fix(el_fix_plan *plan, const char *path)
{
    for (size_t i = 0; i < plan->n_fix_files; i++)
        if (!strcmp(plan->fix_files[i], path)) {
            plan->fix_counts[i]++;
            return;
        }
    el_grow(&plan->fix_files, &plan->cap_fix_files, plan->n_fix_files + 1,
            sizeof *plan->fix_files);
    plan->fix_counts = el_xrealloc(plan->fix_counts, plan->cap_fix_files * sizeof *plan->fix_counts);
    plan->fix_files[plan->n_fix_files] = el_xstrdup(path);
    plan->fix_counts[plan->n_fix_files++] = 1;
}

static size_t fixes_in(const el_fix_plan *plan, const char *path)
{
    for (size_t i = 0; i < plan->n_fix_files; i++)
        if (!strcmp(plan->fix_files[i], path))
            return plan->fix_counts[i];
    return 0;
}

int el_fix_plan_make(el_fix_plan *plan, const el_findings *f, const el_sources *s,
                     const el_fix_opts *o, char **err)
{
    memset(plan, 0, sizeof *plan);
    el_changeset_init(&plan->cs, el_cwd());
    if (o->bounds)
        el_changeset_bound(&plan->cs, o->bounds);

    /* 1. the fixes to take (fix_select.h): safe ones, unsafe ones when
     * asked */
    const el_fix **cands = el_xcalloc(f->n + 1, sizeof *cands);
    for (size_t i = 0; i < f->n; i++) {
        const el_fix *fx = f->v[i].fix;
        if (!fx || !fx->edits.n)
            continue;
        if (fx->safety == EL_FIX_UNSAFE && !o->unsafe) {
            plan->unsafe_left++;
            continue;
        }
        char *why = el_inactive_blocks(o->inactive, f->v[i].rule, fx);
        if (!why && o->inactive && !strcmp(f->v[i].rule, "EH101")) {
            /* a name the skipped code uses that the header declares, a
             * backend one or not (skipped_include.h: as ember-migrate) */
            char *header = el_skipped_include_header(f->v[i].file, f->v[i].line),
                 *real = realpath(f->v[i].file, NULL);
            const char **files = el_xcalloc(s->n + 1, sizeof *files);
            for (size_t k = 0; k < s->n; k++)
                files[k] = s->v[k].path;
            char *need = el_skipped_include_needed(o->inactive, real, header, files, s->n, NULL,
                                                   NULL);
            free(files);
            if (need)
                why = el_xasprintf("the include is still needed by code the preprocessor skips "
                                   "in this configuration: %s", need);
            free(need);
            free(real);
            free(header);
        }
        for (size_t k = 0; !why && o->bounds && k < fx->edits.n; k++)
            if (!el_bounds_contain(o->bounds, fx->edits.v[k].path))
                why = el_xasprintf("%s lies outside the tree given (reached through a symbolic "
                                   "link); it is never written", display_of(s, fx->edits.v[k].path));
        if (why) {
            const el_finding *x = &f->v[i];
            fprintf(stderr, "%s: %s:%u:%u: [%s] fix not applied: %s\n", el_progname,
                    display_of(s, x->file), x->line, x->col, x->rule, why);
            free(why);
            plan->kept++;
            continue;
        }
        if (fx->safety == EL_FIX_SAFE || fx->safety == EL_FIX_UNSAFE)
            cands[i] = fx;
    }
    el_fix_choice *choice = el_xcalloc(f->n + 1, sizeof *choice);
    el_fix_select(cands, f->n, choice, NULL);
    free(cands);
    for (size_t i = 0; i < f->n; i++) {
        const el_finding *x = &f->v[i];
        if (choice[i] == EL_FIX_CONFLICT) {
            fprintf(stderr,
                    "%s: %s:%u:%u: [%s] fix not applied: it overlaps the fix of another "
                    "finding (if still reported, run --fix again)\n",
                    el_progname, display_of(s, x->file), x->line, x->col, x->rule);
            plan->conflicts++;
        }
    }

    /* 2. files that do not parse now are refused, with every fix that
     * touches them (a covered fix goes with the fix covering it) */
    char **bad = NULL;
    size_t n_bad = 0, cap_bad = 0;
    char **good = NULL;
    size_t n_good = 0, cap_good = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (choice[i] != EL_FIX_TAKEN)
            continue;
        char **files;
        size_t nf = fix_files(f->v[i].fix, &files);
        for (size_t k = 0; k < nf; k++) {
            if (has_path(bad, n_bad, files[k]) || has_path(good, n_good, files[k]))
                continue;
            if (file_parses(plan, s, o, files[k])) {
                el_grow(&good, &cap_good, n_good + 1, sizeof *good);
                good[n_good++] = files[k];
            } else {
                el_grow(&bad, &cap_bad, n_bad + 1, sizeof *bad);
                bad[n_bad++] = files[k];
                fprintf(stderr, "%s: %s: does not parse (see EH000); its fixes are not applied\n",
                        el_progname, display_of(s, files[k]));
            }
        }
        bool refuse = false;
        for (size_t k = 0; k < nf; k++)
            refuse |= has_path(bad, n_bad, files[k]);
        free(files);
        if (refuse) {
            choice[i] = EL_FIX_NOT_CANDIDATE;
            plan->refused++;
        }
    }
    for (size_t i = 0; i < f->n; i++) {
        if (choice[i] != EL_FIX_COVERED)
            continue;
        char **files;
        size_t nf = fix_files(f->v[i].fix, &files);
        for (size_t k = 0; k < nf; k++)
            if (has_path(bad, n_bad, files[k]))
                choice[i] = EL_FIX_NOT_CANDIDATE;
        free(files);
    }
    free(bad);
    free(good);

    /* 3. every file's new content */
    el_edits all = {0};
    for (size_t i = 0; i < f->n; i++) {
        plan->covered += choice[i] == EL_FIX_COVERED;
        if (choice[i] != EL_FIX_TAKEN)
            continue;
        plan->fixes++;
        const el_edits *e = &f->v[i].fix->edits;
        for (size_t k = 0; k < e->n; k++)
            el_edits_add(&all, e->v[k].path, e->v[k].begin, e->v[k].end, e->v[k].text, (int)i);
        char **files;
        size_t nf = fix_files(f->v[i].fix, &files);
        for (size_t k = 0; k < nf; k++)
            count_fix(plan, files[k]);
        free(files);
    }
    free(choice);
    el_edits_sort_unique(&all);
    int rc = 0;
    for (size_t i = 0; i < all.n && rc == 0;) {
        const char *path = all.v[i].path;
        size_t n = 0;
        size_t first = el_edits_of(&all, path, &n);
        long k = el_sources_find(s, path);
        int e = 0;
        char *old = NULL, *new_text = NULL;
        size_t old_len = 0, new_len = 0;
        if (k < 0) {
            *err = el_xasprintf("%s: not a linted file; nothing was changed", path);
            rc = -1;
        } else if ((e = el_read_file(path, &old, &old_len, NULL, NULL)) != 0) {
            *err = el_xasprintf("%s: cannot read: %s; nothing was changed", s->v[k].display,
                                el_read_reason(e));
            rc = -1;
        } else if (!el_hash_eq(el_hash_bytes(old, old_len), s->v[k].hash) ||
                   el_edits_apply(&all, first, n, old, old_len, &new_text, &new_len) < 0) {
            *err = el_xasprintf("%s: changed since it was read; nothing was changed",
                                s->v[k].display);
            rc = -1;
        } else if (el_changeset_modify(&plan->cs, path, &s->v[k].hash, new_text, new_len, err) < 0) {
            rc = -1;
        } else if (new_len != old_len || memcmp(new_text, old, old_len) != 0) {
            plan->files++;
        }
        free(old);
        free(new_text);
        i = first + n;
    }
    el_edits_free(&all);
    if (rc < 0) {
        el_changeset_free(&plan->cs);
        el_changeset_init(&plan->cs, el_cwd());
        if (o->bounds)
            el_changeset_bound(&plan->cs, o->bounds);
        plan->fixes = plan->covered = plan->files = 0;
    }
    return rc;
}

/* ---- commit and verify ------------------------------------------------------- */

/* The units that see the changed files of the plan. */
static void plan_units(const el_fix_plan *plan, const el_sources *s, const el_fix_opts *o,
                       el_verify_units *units)
{
    for (size_t c = 0; c < plan->cs.n; c++) {
        size_t *tus = NULL;
        size_t n = tus_of_file(s, o, plan->cs.v[c].path, &tus);
        for (size_t i = 0; i < n; i++) {
            const el_source *src = &s->v[tus[i]];
            el_verify_units_add(units, src->path, src->path, src, src->display);
        }
        free(tus);
    }
}

/* Leave out the changes of the files a failing unit sees; false when
 * none is left to blame (the failure cannot be undone that way). */
static bool drop_for(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o,
                     const el_verify_failure *f, const char *unit)
{
    bool dropped = false;
    for (size_t c = 0; c < plan->cs.n;) {
        size_t *tus = NULL;
        size_t n = tus_of_file(s, o, plan->cs.v[c].path, &tus);
        bool sees = false;
        for (size_t i = 0; i < n && !sees; i++)
            sees = !strcmp(s->v[tus[i]].path, unit);
        free(tus);
        if (!sees) {
            c++;
            continue;
        }
        const char *path = plan->cs.v[c].path;
        size_t k = fixes_in(plan, path);
        fprintf(stderr, "%s: %s: %zu fix%s not applied: %s would not compile%s%s%s: %s%s%s%s\n",
                el_progname, display_of(s, path), k, k == 1 ? "" : "es", f->display,
                f->config[0] ? " (" : "", f->config, f->config[0] ? ")" : "", f->error,
                f->where ? ", at " : "", f->where ? f->where : "",
                f->where ? " of the changed text" : "");
        plan->kept += k;
        plan->fixes -= k < plan->fixes ? k : plan->fixes;
        plan->files -= plan->files ? 1 : 0;
        el_changeset_drop(&plan->cs, path);
        dropped = true;
    }
    return dropped;
}

int el_fix_plan_verify(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o, char **err)
{
    if (el_changeset_empty(&plan->cs))
        return 0;
    el_buildcfgs own;
    const el_buildcfgs *cfgs = o->cfgs;
    if (!cfgs) {
        if (el_buildcfgs_make(&own, o->compdb, s, NULL, err) < 0)
            return -1;
        cfgs = &own;
    }
    /* Every TU that sees a changed file, parsed with the new contents in
     * each of its configurations before anything is written; the fixes
     * of a file that would break one are left out, and the rest checked
     * again. */
    int rc = 0;
    for (;;) {
        el_verify_units units = {0};
        plan_units(plan, s, o, &units);
        el_verify_result vr;
        size_t bad = el_verify(&plan->cs, &units, cfgs, o->extra_args, o->n_extra, &vr);
        bool progress = false;
        for (size_t i = 0; i < vr.n; i++) {
            const char *unit = NULL;
            for (size_t u = 0; u < units.n && !unit; u++)
                if (!strcmp(units.v[u].display, vr.v[i].display))
                    unit = units.v[u].path;
            progress |= unit && drop_for(plan, s, o, &vr.v[i], unit);
        }
        if (bad && !progress) {
            const el_verify_failure *f = &vr.v[0];
            *err = el_xasprintf("%s: the fix introduces an error%s%s%s: %s; nothing was changed",
                                f->display, f->config[0] ? " (" : "", f->config,
                                f->config[0] ? ")" : "", f->error);
            rc = -1;
        }
        el_verify_result_free(&vr);
        el_verify_units_free(&units);
        if (!bad || rc < 0)
            break;
    }
    if (cfgs == &own)
        el_buildcfgs_free(&own);
    return rc;
}

int el_fix_plan_commit(el_fix_plan *plan, const el_sources *s, const el_fix_opts *o, char **err)
{
    if (el_fix_plan_verify(plan, s, o, err) < 0)
        return -1;
    if (!el_changeset_empty(&plan->cs) && el_changeset_commit(&plan->cs, false, err) < 0)
        return -1;
    return 0;
}

void el_fix_plan_free(el_fix_plan *plan)
{
    for (size_t i = 0; i < plan->n_fix_files; i++)
        free(plan->fix_files[i]);
    free(plan->fix_files);
    free(plan->fix_counts);
    el_changeset_free(&plan->cs);
    for (size_t i = 0; i < plan->n_tus; i++)
        el_errlist_free(&plan->tus[i].before);
    free(plan->tus);
    memset(plan, 0, sizeof *plan);
}
