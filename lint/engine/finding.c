/* lint/engine/finding.c -- finding lists and TU results. */
#include "finding.h"

#include <stdlib.h>
#include <string.h>

#include "finding_alternatives.h"
#include "mem.h"

static const char *const sev_names[] = {"off", "note", "warning", "error"};
static const char *const safety_names[] = {"none", "safe", "unsafe"};

const char *el_fix_safety_name(el_fix_safety s)
{
    return (unsigned)s < 3 ? safety_names[s] : "?";
}

void el_fix_free(el_fix *fx)
{
    if (!fx)
        return;
    free(fx->description);
    el_edits_free(&fx->edits);
    free(fx);
}

void el_finding_clear(el_finding *x)
{
    free(x->file);
    free(x->message);
    el_fix_free(x->fix);
    x->file = x->message = NULL;
    x->fix = NULL;
}

const char *el_severity_name(el_severity s)
{
    return (unsigned)s < 4 ? sev_names[s] : "?";
}

bool el_severity_parse(const char *s, el_severity *out)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(s, sev_names[i]) == 0) {
            *out = (el_severity)i;
            return true;
        }
    }
    return false;
}

void el_findings_add(el_findings *f, const char *rule, el_severity sev, const char *file,
                     unsigned line, unsigned col, const char *message)
{
    el_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
    el_finding *x = &f->v[f->n++];
    memset(x, 0, sizeof *x);
    strncpy(x->rule, rule, sizeof x->rule - 1);
    x->severity = sev;
    x->file = el_xstrdup(file);
    x->line = line;
    x->col = col;
    x->message = el_xstrdup(message);
}

void el_findings_copy(el_findings *dst, const el_findings *src)
{
    for (size_t i = 0; i < src->n; i++) {
        const el_finding *x = &src->v[i];
        el_findings_add(dst, x->rule, x->severity, x->file, x->line, x->col, x->message);
        if (!x->fix)
            continue;
        el_fix *fx = el_xcalloc(1, sizeof *fx);
        fx->safety = x->fix->safety;
        fx->description = x->fix->description ? el_xstrdup(x->fix->description) : NULL;
        el_edits_append(&fx->edits, &x->fix->edits);
        dst->v[dst->n - 1].fix = fx;
    }
}

void el_findings_move(el_findings *dst, el_findings *src)
{
    if (!src->n) {
        /* empty, but maybe with storage (every finding suppressed) */
        free(src->v);
        src->v = NULL;
        src->cap = 0;
        return;
    }
    el_grow(&dst->v, &dst->cap, dst->n + src->n, sizeof *dst->v);
    memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
    dst->n += src->n;
    free(src->v);
    src->v = NULL;
    src->n = src->cap = 0;
}

static int cmp_finding(const void *pa, const void *pb)
{
    const el_finding *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    if ((c = strcmp(a->rule, b->rule)))
        return c;
    if ((c = strcmp(a->message, b->message)))
        return c;
    return (int)b->severity - (int)a->severity;
}

static bool same_fix(const el_fix *a, const el_fix *b)
{
    if (a->safety != b->safety || strcmp(a->description, b->description) != 0 ||
        a->edits.n != b->edits.n)
        return false;
    for (size_t i = 0; i < a->edits.n; i++) {
        const el_edit *x = &a->edits.v[i], *y = &b->edits.v[i];
        if (x->begin != y->begin || x->end != y->end || strcmp(x->path, y->path) != 0 ||
            strcmp(x->text, y->text) != 0)
            return false;
    }
    return true;
}

/* A kept finding keeps a fix only when the dropped one had the same. */
static void keep_fix_if_same(el_finding *kept, const el_finding *dropped)
{
    if (kept->fix && !(dropped->fix && same_fix(kept->fix, dropped->fix))) {
        el_fix_free(kept->fix);
        kept->fix = NULL;
    }
}

void el_findings_sort_unique(el_findings *f)
{
    if (f->n < 2)
        return;
    qsort(f->v, f->n, sizeof *f->v, cmp_finding);
    size_t out = 1;
    for (size_t i = 1; i < f->n; i++) {
        el_finding *p = &f->v[out - 1], *x = &f->v[i];
        if (strcmp(p->file, x->file) == 0 && p->line == x->line && p->col == x->col &&
            strcmp(p->rule, x->rule) == 0 && strcmp(p->message, x->message) == 0) {
            /* The same finding reached from another TU (a header's): it
             * keeps a fix only when every TU made that same fix -- one
             * TU's "nothing here uses this include" says nothing of the
             * next one's. */
            keep_fix_if_same(p, x);
            el_finding_clear(x);
            continue;
        }
        f->v[out++] = *x;
    }
    f->n = out;
}

static int cmp_finding_ptr(const void *pa, const void *pb)
{
    return cmp_finding(*(el_finding *const *)pa, *(el_finding *const *)pb);
}

/* The kept finding's message names what the dropped ones named
 * (finding_alternatives.h). */
static void name_alternatives(el_finding *kept, const char *const *others, size_t n)
{
    char *m = el_message_with_alternatives(kept->message, others, n);
    if (m) {
        free(kept->message);
        kept->message = m;
    }
}

/* The group g[0..n) (one rule, one place, sorted by message): a message
 * that repeats came from several inclusions alike (a backend constant a
 * macro names in each; a later sort_unique keeps one); the messages that
 * come once differ by inclusion (what each names: the float, the double
 * function) and become one finding, the first, naming the others'. */
static void merge_group(el_finding **g, size_t n)
{
    el_finding *kept = NULL;
    el_finding **dropped = el_xcalloc(n + 1, sizeof *dropped);
    const char **others = el_xcalloc(n + 1, sizeof *others);
    size_t n_dropped = 0;
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && strcmp(g[b]->message, g[a]->message) == 0; b++)
            ;
        if (b - a > 1)
            continue;
        if (!kept) {
            kept = g[a];
            continue;
        }
        keep_fix_if_same(kept, g[a]);
        others[n_dropped] = g[a]->message;
        dropped[n_dropped++] = g[a];
    }
    if (n_dropped)
        name_alternatives(kept, others, n_dropped);
    for (size_t i = 0; i < n_dropped; i++)
        el_finding_clear(dropped[i]);
    free(others);
    free(dropped);
}

void el_findings_one_per_place(el_findings *f, const char *file)
{
    el_finding **in = el_xcalloc(f->n + 1, sizeof *in);
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->v[i].file, file) == 0)
            in[n++] = &f->v[i];
    qsort(in, n, sizeof *in, cmp_finding_ptr);
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && in[b]->line == in[a]->line && in[b]->col == in[a]->col &&
                        strcmp(in[b]->rule, in[a]->rule) == 0;
             b++)
            ;
        merge_group(in + a, b - a);
    }
    free(in);
    size_t out = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].file)
            f->v[out++] = f->v[i];
    f->n = out;
}

/* A finding and the TU that reported it (el_findings_one_per_place_across). */
typedef struct tu_ref {
    el_finding *f;
    size_t tu;
} tu_ref;

static int cmp_tu_ref(const void *pa, const void *pb)
{
    const tu_ref *a = pa, *b = pb;
    int c = cmp_finding(a->f, b->f);
    if (c)
        return c;
    return a->tu < b->tu ? -1 : a->tu > b->tu;
}

static bool same_place(const el_finding *a, const el_finding *b)
{
    return a->line == b->line && a->col == b->col && strcmp(a->rule, b->rule) == 0 &&
           strcmp(a->file, b->file) == 0;
}

static int cmp_size(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return a < b ? -1 : a > b;
}

/* How many TUs report the findings r[0..n). */
static size_t distinct_tus(const tu_ref *r, size_t n, size_t *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = r[i].tu;
    qsort(scratch, n, sizeof *scratch, cmp_size);
    size_t d = n > 0;
    for (size_t i = 1; i < n; i++)
        d += scratch[i] != scratch[i - 1];
    return d;
}

/* One place's group g[0..n) (sorted by message, then TU), reported by
 * ntu TUs: keep the messages each TU gives, merge the others into the
 * first of them. */
static void merge_across_group(tu_ref *g, size_t n, size_t ntu, size_t *scratch)
{
    size_t kept_a = n, kept_b = n;
    size_t *dropped = el_xcalloc(n + 1, sizeof *dropped);
    const char **others = el_xcalloc(n + 1, sizeof *others);
    size_t n_dropped = 0;
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && strcmp(g[b].f->message, g[a].f->message) == 0; b++)
            ;
        if (distinct_tus(g + a, b - a, scratch) == ntu)
            continue;
        if (kept_a == n) {
            kept_a = a;
            kept_b = b;
            continue;
        }
        /* the kept message keeps a fix only when every dropped one had it */
        for (size_t k = a; k < b; k++) {
            for (size_t m = kept_a; m < kept_b; m++)
                keep_fix_if_same(g[m].f, g[k].f);
            dropped[n_dropped] = k;
            others[n_dropped++] = g[k].f->message;
        }
    }
    for (size_t m = kept_a; n_dropped && m < kept_b; m++)
        name_alternatives(g[m].f, others, n_dropped);
    for (size_t i = 0; i < n_dropped; i++)
        el_finding_clear(g[dropped[i]].f);
    free(others);
    free(dropped);
}

void el_findings_one_per_place_across(el_findings *f, size_t *tu)
{
    tu_ref *r = el_xcalloc(f->n + 1, sizeof *r);
    size_t *scratch = el_xcalloc(f->n + 1, sizeof *scratch);
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        if (tu[i] != EL_TU_UNKNOWN)
            r[n++] = (tu_ref){&f->v[i], tu[i]};
    qsort(r, n, sizeof *r, cmp_tu_ref);
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && same_place(r[b].f, r[a].f); b++)
            ;
        if (b - a < 2)
            continue;
        size_t ntu = distinct_tus(r + a, b - a, scratch);
        if (ntu >= 2)
            merge_across_group(r + a, b - a, ntu, scratch);
    }
    free(scratch);
    free(r);
    size_t out = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].file) {
            tu[out] = tu[i];
            f->v[out++] = f->v[i];
        }
    f->n = out;
}

void el_findings_free(el_findings *f)
{
    for (size_t i = 0; i < f->n; i++)
        el_finding_clear(&f->v[i]);
    free(f->v);
    f->v = NULL;
    f->n = f->cap = 0;
}

void el_result_add_fact(el_tu_result *r, const char *file, const char *key, const char *value)
{
    el_grow(&r->facts, &r->cap_facts, r->n_facts + 1, sizeof *r->facts);
    el_fact_rec *x = &r->facts[r->n_facts++];
    x->file = el_xstrdup(file);
    x->key = el_xstrdup(key);
    x->value = el_xstrdup(value);
}

void el_result_add_dep(el_tu_result *r, const char *path, el_hash128 hash)
{
    el_grow(&r->deps, &r->cap_deps, r->n_deps + 1, sizeof *r->deps);
    r->deps[r->n_deps].path = el_xstrdup(path);
    r->deps[r->n_deps].hash = hash;
    r->n_deps++;
}

void el_result_add_absent(el_tu_result *r, const char *path)
{
    el_grow(&r->absent, &r->cap_absent, r->n_absent + 1, sizeof *r->absent);
    r->absent[r->n_absent++] = el_xstrdup(path);
}

void el_result_free(el_tu_result *r)
{
    el_findings_free(&r->findings);
    for (size_t i = 0; i < r->n_facts; i++) {
        free(r->facts[i].file);
        free(r->facts[i].key);
        free(r->facts[i].value);
    }
    free(r->facts);
    for (size_t i = 0; i < r->n_deps; i++)
        free(r->deps[i].path);
    free(r->deps);
    for (size_t i = 0; i < r->n_absent; i++)
        free(r->absent[i]);
    free(r->absent);
    memset(r, 0, sizeof *r);
}
