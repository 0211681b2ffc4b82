/* migrate/plan.c -- the migration as one changeset (plan.h), and
 * `ember-migrate plan`: print it as a unified diff, change nothing.
 *
 * Which fixes are taken:
 *   - EH101/EH102/EH103 fixes; the unsafe ones (and the custom ops, an
 *     unsafe change) only with --unsafe-fixes, else they are left out and
 *     listed with why (unsafe_reason), and what relies on them stays (an
 *     include that declares a call left as it is); with --unsafe-fixes
 *     each unsafe change made is listed all the same;
 *   - not those inside code that moves (a moved implementation keeps
 *     calling its own backend's functions and including its headers);
 *   - not those naming a backend or op that --backend/--op leave out (a
 *     fix names what its finding's message, its description or the code
 *     it replaces mentions: eh_blas_matmul names blas and matmul,
 *     "ops/blas/x.h" names blas);
 *   - not an include rewrite (EH101) in a file where some backend symbol
 *     (EH102) stays: the include still declares it;
 *   - of overlapping fixes, the one lint/change/fix_select.h chooses (the same
 *     policy as emberlint --fix): the enclosing one (a collapsed branch
 *     carries its rewritten calls), else the first.
 * Findings without a fix, EH104 findings outside moved code, and what
 * moves.c could not do are the manual work. */
#include "plan.h"

#include "generated.h"
#include "plan_check.h"
#include "compdb_update.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "fileio.h"
#include "custom_gen.h"
#include "fix_select.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "rule.h"
#include "strbuf.h"
#include "strmap.h"
#include "c_text.h"
#include "texts.h"
#include "text_pos.h"
#include "paren_match.h"
#include "skipped_include.h"

/* ---- what a fix names ------------------------------------------------- */

typedef struct mentions {
    bool backend_out;     /* names a backend --backend leaves out */
    bool op_in, op_out;   /* names an op --op selects / leaves out */
} mentions;

static void mention_text(const em_opts *o, const em_tree *t, const char *s, size_t n,
                         mentions *m)
{
    for (size_t i = 0; i < n;) {
        if (!em_is_ident(s[i])) {
            i++;
            continue;
        }
        size_t b = i;
        while (i < n && em_is_ident(s[i]))
            i++;
        size_t len = i - b;
        const char *w = s + b;
        for (size_t k = 0; k < t->n_backends; k++) {
            const char *bk = t->backends[k];
            size_t bl = strlen(bk);
            if (len == bl && !memcmp(w, bk, bl)) {
                m->backend_out |= !em_backend_selected(o, bk);
            } else if (len > bl + 4 && !memcmp(w, "eh_", 3) && !memcmp(w + 3, bk, bl) &&
                       w[3 + bl] == '_') {
                m->backend_out |= !em_backend_selected(o, bk);
                char op[128];
                snprintf(op, sizeof op, "%.*s", (int)(len - bl - 4), w + bl + 4);
                if (el_is_op(op)) {
                    if (em_op_selected(o, op))
                        m->op_in = true;
                    else
                        m->op_out = true;
                }
            }
        }
    }
}

/* Is a finding (and, with_fix, its fix) within --backend / --op? */
static bool selected(const em_opts *o, const em_tree *t, em_texts *texts, const el_finding *f,
                     bool with_fix)
{
    mentions m = {0};
    mention_text(o, t, f->message, strlen(f->message), &m);
    if (f->fix && with_fix) {
        if (f->fix->description)
            mention_text(o, t, f->fix->description, strlen(f->fix->description), &m);
        char *err = NULL;
        for (size_t i = 0; i < f->fix->edits.n; i++) {
            const el_edit *e = &f->fix->edits.v[i];
            const em_file *ef = em_tree_file(t, e->path);
            const em_text *tx = em_texts_get(texts, e->path, ef ? &ef->hash : NULL, &err);
            free(err);
            err = NULL;
            if (tx && e->end <= tx->len && e->begin <= e->end)
                mention_text(o, t, tx->data + e->begin, e->end - e->begin, &m);
        }
    }
    if (m.backend_out || m.op_out)
        return false;
    /* with --op, a call must name a selected op; includes and branches
     * that name no op go with their backend */
    if (o->n_ops && !strcmp(f->rule, "EH102") && !m.op_in)
        return false;
    return true;
}

/* ---- fixes ------------------------------------------------------------ */

static const char *display(const em_tree *t, const char *path, char **owned)
{
    const em_file *f = em_tree_file(t, path);
    if (f)
        return f->display;
    *owned = el_path_display(path);
    return *owned;
}

void em_plan_report_unparsed(const em_tree *t, const em_plan *p, const char *outcome)
{
    for (size_t i = 0; i < p->unparsed.n; i++) {
        const el_finding *f = &p->unparsed.v[i];
        char *owned = NULL;
        fprintf(stderr, "ember-migrate: %s:%u:%u: %s; %s\n", display(t, f->file, &owned), f->line,
                f->col, f->message, outcome);
        free(owned);
    }
}

/* A reason the scan keyed by the name it is about ("cblas_sgemm: no
 * call template ..."), without that name: the finding's message quotes
 * it already. */
static const char *without_name(const char *why, const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (why && n && !strncmp(why, name, n) && why[n] == ':' && why[n + 1] == ' ')
        return why[n + 2] ? why + n + 2 : NULL; /* (nothing after it: no reason) */
    return why;
}

static char *config_name_of(void *ud, const char *path, size_t k)
{
    return em_tree_config_name(ud, path, k);
}

static bool config_compiles(void *ud, const char *path, size_t k)
{
    return em_tree_config_compiles(ud, path, k);
}

/* The entry added last is finding f's site: the configurations that
 * report it (em_manuals_name_configs says which, when not all do). */
static void site_configs(em_manuals *m, const em_tree *t, const el_finding *f)
{
    em_manuals_set_configs(m, em_tree_site_configs(t, f), f->file);
}

/* A site left for a person, tagged with its rule: emberlint reports it
 * after the migration, in a configuration that compiles it (a site in
 * code no configuration compiles says so instead). */
static void manual_finding(em_plan *p, const em_tree *t, const el_finding *f, const char *why)
{
    char *owned = NULL;
    bool skipped = strstr(f->message, "skips in every configuration") != NULL;
    em_manuals_add(&p->manual, display(t, f->file, &owned), f->line, f->col, "[%s%s] %s%s%s",
                   f->rule, skipped ? " in skipped code" : "", f->message, why ? ": " : "",
                   why ? why : "");
    site_configs(&p->manual, t, f);
    free(owned);
}

/* A site in a file CMake generated into its build directory
 * (configure_file: SUNDIALS' sundials_lapack_defs.h from its .h.in), or
 * whose fix would edit one: never rewritten (the next configure would
 * undo it), listed at the template a person changes, with why.  False
 * when neither the file nor the fix's files are generated. */
static bool generated_site(em_plan *p, const em_tree *t, const el_finding *f, const el_fix *fix)
{
    const char *path = f->file;
    em_generated g;
    bool gen = em_generated_file(path, f->line, f->col, NULL, &g);
    for (size_t k = 0; !gen && fix && k < fix->edits.n; k++) {
        path = fix->edits.v[k].path;
        gen = em_generated_file(path, 1, 1, NULL, &g);
    }
    if (!gen)
        return false;
    char quoted[256];
    const char *name = em_finding_name(f, quoted, sizeof quoted) ? quoted : NULL;
    if (path == f->file && name) { /* again, with the name to find in the template */
        em_generated_free(&g);
        em_generated_file(path, f->line, f->col, name, &g);
    }
    char *fix_why = fix && fix->description ? el_xasprintf("%s: by hand, in the template",
                                                           fix->description) : NULL;
    const char *why = fix ? fix_why
                          : without_name(em_tree_why(t, f->file, f->line, f->col, name), name);
    char *owned = NULL, *gen_shown = NULL, *bd = el_path_display(g.build_dir);
    gen_shown = el_path_display(path);
    bool skipped = strstr(f->message, "skips in every configuration") != NULL;
    if (g.tmpl) {
        char *tm = el_path_display(g.tmpl);
        /* at the template's line when the site is found there */
        const char *at = g.line ? tm : display(t, f->file, &owned);
        em_manuals_add(&p->manual, at, g.line ? g.line : f->line, g.line ? g.col : f->col,
                       "[%s%s] %s%s%s (at %s:%u:%u, a file CMake generates from %s into the "
                       "build directory %s: change %s, never the generated file, then "
                       "configure again)",
                       f->rule, skipped ? " in skipped code" : "", f->message, why ? ": " : "",
                       why ? why : "", display(t, f->file, &owned), f->line, f->col, tm, bd, tm);
        free(tm);
    } else if (g.several) {
        em_manuals_add(&p->manual, display(t, f->file, &owned), f->line, f->col,
                       "[%s%s] %s%s%s (%s is in the CMake build directory %s, so the build "
                       "generates it: not changed; more than one file could be its template "
                       "(%s): change the one it is made from, then configure again)",
                       f->rule, skipped ? " in skipped code" : "", f->message, why ? ": " : "",
                       why ? why : "", gen_shown, bd, g.several);
    } else {
        em_manuals_add(&p->manual, display(t, f->file, &owned), f->line, f->col,
                       "[%s%s] %s%s%s (%s is in the CMake build directory %s, so the build "
                       "generates it: not changed; no template of it (%s.in) was found under "
                       "%s: change the file it is made from, then configure again)",
                       f->rule, skipped ? " in skipped code" : "", f->message, why ? ": " : "",
                       why ? why : "", gen_shown, bd, el_path_base(path),
                       g.source ? g.source : "the source tree");
    }
    site_configs(&p->manual, t, f);
    free(owned);
    free(gen_shown);
    free(bd);
    free(fix_why);
    em_generated_free(&g);
    return true;
}

/* The content of path the scan read, or NULL. */
static const em_text *scanned_text(em_texts *texts, const em_tree *t, const char *path)
{
    const em_file *ef = em_tree_file(t, path);
    char *err = NULL;
    const em_text *tx = em_texts_get(texts, path, ef ? &ef->hash : NULL, &err);
    free(err);
    return tx;
}

static bool finding_inside(const em_moves *mv, em_texts *texts, const em_tree *t,
                           const el_finding *f)
{
    const em_text *tx = scanned_text(texts, t, f->file);
    if (!tx)
        return false;
    size_t off = em_text_offset(tx, f->line, f->col);
    return em_moves_inside(mv, f->file, off, off);
}

static bool fix_inside(const em_moves *mv, const el_fix *fx)
{
    for (size_t i = 0; i < fx->edits.n; i++)
        if (em_moves_inside(mv, fx->edits.v[i].path, fx->edits.v[i].begin, fx->edits.v[i].end))
            return true;
    return false;
}

static bool file_unparsed(const em_tree *t, const char *path)
{
    const em_file *f = em_tree_file(t, path);
    return f && f->parse_error;
}

/* Is the finding's place in a preprocessor conditional?  Its line, or
 * the first of the lines backslashes join it to, starts with `#if`,
 * `#ifdef`, `#ifndef`, `#elif...` or `#else` (EH103 on `#if HAVE_BLAS`
 * against an `if` on the backend's name). */
static bool in_conditional(em_texts *texts, const em_tree *t, const el_finding *f)
{
    const em_text *tx = scanned_text(texts, t, f->file);
    if (!tx || f->line == 0 || f->line > tx->n_lines)
        return false;
    unsigned line = f->line;
    while (line > 1) { /* the line before ends in a backslash: the directive began there */
        size_t end = tx->lines[line - 1];
        while (end > tx->lines[line - 2] && (tx->data[end - 1] == '\n' || tx->data[end - 1] == '\r'))
            end--;
        if (end == tx->lines[line - 2] || tx->data[end - 1] != '\\')
            break;
        line--;
    }
    const char *p = tx->data + tx->lines[line - 1];
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '#')
        return false;
    while (*p == ' ' || *p == '\t')
        p++;
    return !strncmp(p, "if", 2) || !strncmp(p, "elif", 4) || !strncmp(p, "else", 4);
}

/* The identifier written at a finding's place (the name an EH102 site
 * uses); false when there is none. */
static bool name_at(em_texts *texts, const em_tree *t, const el_finding *f, char *buf, size_t n)
{
    const em_text *tx = scanned_text(texts, t, f->file);
    if (!tx)
        return false;
    size_t b = em_text_offset(tx, f->line, f->col), e = b;
    while (e < tx->len && em_is_ident(tx->data[e]))
        e++;
    snprintf(buf, n, "%.*s", (int)(e - b), tx->data + b);
    return e > b;
}

/* The backend name an EH102 site quotes, else the one written there (a
 * macro's use names the macro, not the function it calls). */
static bool site_name(em_texts *texts, const em_tree *t, const el_finding *f, char *buf, size_t n)
{
    return em_finding_name(f, buf, n) || name_at(texts, t, f, buf, n);
}

/* The column of a definition's name on its line (1 when not found). */
static unsigned name_col(em_texts *texts, const em_tree *t, const em_def *d)
{
    const em_text *tx = scanned_text(texts, t, d->path);
    if (!tx)
        return 1;
    size_t ls = em_text_offset(tx, d->line, 1), nl = strlen(d->name);
    for (size_t i = ls; i + nl <= tx->len && tx->data[i] != '\n'; i++)
        if (!memcmp(tx->data + i, d->name, nl) && (i == ls || !em_is_ident(tx->data[i - 1])))
            return (unsigned)(i - ls + 1);
    return 1;
}

static bool calls_name(const em_def *d, const char *name)
{
    for (size_t i = 0; i < d->n_calls; i++)
        if (!strcmp(d->calls[i], name))
            return true;
    return false;
}

/* A backend function that stays where it is (it could not move) and whose
 * every use was rewritten to the op is dead code: say so, where it is. */
static void report_unused(em_plan *p, const em_tree *t, em_texts *texts, const em_moves *mv,
                          const el_fix_choice *choice)
{
    const el_findings *fs = &t->findings;
    for (size_t i = 0; i < t->n_defs; i++) {
        const em_def *d = &t->defs[i];
        if (!d->is_function || !d->backend[0] || !d->op[0] || d->in_backends ||
            em_moves_inside(mv, d->path, d->begin, d->begin))
            continue;
        size_t fixed = 0;
        bool left = false;
        char name[256];
        for (size_t k = 0; k < fs->n && !left; k++) {
            if (strcmp(fs->v[k].rule, "EH102") || !site_name(texts, t, &fs->v[k], name, sizeof name) ||
                strcmp(name, d->name))
                continue;
            if (choice[k] == EL_FIX_TAKEN || choice[k] == EL_FIX_COVERED)
                fixed++;
            else
                left = true;
        }
        /* backend code keeps its calls (the frontend's are EH102 sites) */
        for (size_t k = 0; k < t->n_defs && !left; k++)
            left = k != i && t->defs[k].backend[0] && calls_name(&t->defs[k], d->name);
        if (left || !fixed)
            continue;
        const em_file *f = em_tree_file(t, d->path);
        /* the reason it stayed may be listed there already: say both */
        em_manuals_note(&p->manual, f ? f->display : d->path, d->line, name_col(texts, t, d),
                        "[EH104] %s is now unused (its %zu use%s now call%s eh_%s): delete it",
                        d->name, fixed, fixed == 1 ? "" : "s", fixed == 1 ? "s" : "", d->op);
    }
}

/* The header the include a finding points at resolves to, or NULL. */
static const char *include_target(const em_tree *t, const el_finding *f)
{
    for (size_t i = 0; i < t->n_incs; i++)
        if (t->incs[i].line == f->line && !strcmp(t->incs[i].path, f->file))
            return t->incs[i].resolved;
    return NULL;
}

/* The tree's file paths, for skipped_include.h's search of a header's
 * includes (allocated; the paths are the tree's). */
static const char **tree_paths(const em_tree *t)
{
    const char **files = el_xcalloc(t->n_files + 1, sizeof *files);
    for (size_t i = 0; i < t->n_files; i++)
        files[i] = t->files[i].path;
    return files;
}

/* The places of the backend includes (EH101 findings, "path\nline"),
 * which may go too or sit in an #if of their file. */
static void backend_includes(const em_tree *t, el_strmap *out)
{
    const el_findings *fs = &t->findings;
    for (size_t i = 0; i < fs->n; i++) {
        if (strcmp(fs->v[i].rule, "EH101") != 0)
            continue;
        char *k = el_xasprintf("%s\n%u", fs->v[i].file, fs->v[i].line);
        el_strmap_put(out, k, (void *)1);
        free(k);
    }
}

static bool is_backend_include(const el_strmap *backend, const em_include *x)
{
    char *k = el_xasprintf("%s\n%u", x->path, x->line);
    bool yes = el_strmap_get(backend, k) != NULL;
    free(k);
    return yes;
}

/* The includes that stay, as emberlint's EH101 fix counts what a file
 * may rely on keeping (lint/rules/backend_include.c): compiled, no
 * backend include, and not the include `inc` that may go. */
typedef struct staying {
    el_strmap backend;
    const el_finding *inc;
} staying;

static bool stays(const em_include *x, void *arg)
{
    const staying *s = arg;
    return !x->skipped && !is_backend_include(&s->backend, x) &&
           !(x->line == s->inc->line && !strcmp(x->path, s->inc->file));
}

/* Does another include of the file of `inc`, one that stays, bring the
 * declaration decl too (GSL's linalg code includes the CBLAS header that
 * its gsl_blas.h brings as well)?  Then the name stays declared when the
 * include goes, as emberlint --fix decides. */
static bool brought_elsewhere(const em_tree *t, const el_finding *inc, const char *decl)
{
    staying s = {.inc = inc};
    backend_includes(t, &s.backend);
    bool yes = em_tree_reaches_through(t, inc->file, decl, stays, &s);
    el_strmap_free(&s.backend);
    return yes;
}

/* Does the EH102 site k name a function the include `inc` of `header`
 * (NULL: not known) brings?  Not knowing is yes: the include stays.  A
 * name nothing declares here ("": in code the preprocessor skips) is not
 * known either when it is the include's own file's skipped code: the
 * configuration that compiles it may read its declaration through the
 * include (darknet's cuda.h declares cuda_make_int_array under its own
 * #ifdef GPU, and brings cudaDeviceSynchronize from <cuda_runtime.h>
 * there), as emberlint --fix keeps it (skipped_include.h).  In another
 * file's (a header the file includes: darknet.h's #ifdef CUDNN code,
 * whose own includes bring cudnn.h there) the include brings it only if
 * the header's text declares it. */
static bool brings(em_texts *texts, const em_tree *t, const char *header, const el_finding *inc,
                   const el_finding *k)
{
    const char *decl = em_tree_decl(t, k->file, k->line, k->col);
    if (decl && !decl[0]) {
        char name[256];
        if (!strcmp(k->file, inc->file))
            return true;
        if (!header || !site_name(texts, t, k, name, sizeof name))
            return false;
        const char **files = tree_paths(t);
        bool r = el_header_text_declares(header, name, files, t->n_files, k->file);
        free(files);
        return r;
    }
    return !header || !decl || (em_tree_reaches(t, header, decl) && !brought_elsewhere(t, inc, decl));
}

/* The EH102 sites a plan rewrites, for skipped_needs. */
typedef struct rewrites {
    const em_tree *t;
    em_texts *texts;
    const el_fix **cands;     /* by finding: the fix to take, or NULL */
} rewrites;

/* Is the skipped use x an EH102 site the plan rewrites (its name goes)? */
static bool rewritten_site(void *ud, const el_inactive_name *x)
{
    const rewrites *w = ud;
    const el_findings *fs = &w->t->findings;
    char name[256];
    for (size_t i = 0; i < fs->n; i++)
        if (w->cands[i] && fs->v[i].line == x->line && !strcmp(fs->v[i].rule, "EH102") &&
            !strcmp(fs->v[i].file, x->path) &&
            site_name(w->texts, w->t, &fs->v[i], name, sizeof name) && !strcmp(name, x->name))
            return true;
    return false;
}

/* Why the include finding f points at stays for the code its file's
 * preprocessor skips in some configuration: a name it uses, backend or
 * not, that the header's text declares (skipped_include.h, as emberlint
 * --fix decides), or NULL. */
static char *skipped_needs(const em_tree *t, em_texts *texts, const el_fix **cands,
                           const el_finding *f, const char *header)
{
    const el_source *src = em_tree_source(t, f->file);
    rewrites w = {t, texts, cands};
    const char **files = tree_paths(t);
    char *why = NULL;
    for (size_t k = 0; header && k < t->cfgs.n && !why; k++)
        if (!src || el_buildcfg_has(&t->cfgs, k, src))
            why = el_skipped_include_needed(&t->inactive[k], f->file, header, files, t->n_files,
                                            rewritten_site, &w);
    free(files);
    if (!why)
        return NULL;
    char *r = el_xasprintf("the include stays: code the preprocessor skips still needs it: %s",
                           why);
    free(why);
    return r;
}

/* Does the EH102 site k need the include finding inc points at: k is in
 * its file, or in a file that includes it (a header's wrapper macro
 * expanded elsewhere), or in a file inc's file includes that does not
 * include the header itself (a template such as torch7's generic/ files,
 * compiled with the includes of the file that includes it);
 * and the include brings the name k uses. */
static bool needs_include(em_texts *texts, const em_tree *t, const char *header,
                          const el_finding *inc, const el_finding *k)
{
    bool near = em_tree_reaches(t, k->file, inc->file) ||
                (em_tree_reaches(t, inc->file, k->file) &&
                 !(header && em_tree_reaches(t, k->file, header)));
    return near && brings(texts, t, header, inc, k);
}

/* Is the EH102 site f left as it is (no rewrite, or not selected)? */
static bool left_as_is(const em_opts *o, const em_tree *t, em_texts *texts,
                       const em_customs *customs, const el_finding *f)
{
    char why[1024];
    return !em_customs_fix(customs, t, texts, f, why, sizeof why, NULL, NULL) ||
           !selected(o, t, texts, f, true);
}

/* The next library name (a backend prefix's, not followed by '(': calls
 * are sites of their own) in the text s[0..n) a call template's rewrite
 * puts into the code, from s[*i]: true with its start *b and name[];
 * literals are skipped. */
static bool next_kept_name(const el_config *cfg, const char *s, size_t n, size_t *i, size_t *b,
                           char *name, size_t nn)
{
    char quote = 0;
    while (*i < n) {
        char c = s[*i];
        if (quote) { /* a literal of the template, or of an argument */
            *i += c == '\\' && *i + 1 < n ? 2 : 1;
            if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            (*i)++;
            continue;
        }
        if (!em_is_ident(c) || (*i && em_is_ident(s[*i - 1]))) {
            (*i)++;
            continue;
        }
        *b = *i;
        while (*i < n && em_is_ident(s[*i]))
            (*i)++;
        size_t after = *i;
        while (after < n && strchr(" \t\r\n", s[after]))
            after++;
        if (*i - *b >= nn || (s[*b] >= '0' && s[*b] <= '9') || (after < n && s[after] == '('))
            continue;
        snprintf(name, nn, "%.*s", (int)(*i - *b), s + *b);
        if (el_backend_prefix_of(cfg, name, true))
            return true;
    }
    return false;
}

/* Does EH102 report what is written at offset off of path (tx its
 * text): a finding there, or inside the parentheses of a call it reports
 * (the names in a call's arguments are part of its site)? */
static bool reported_at(const em_tree *t, const char *path, const em_text *tx, size_t off)
{
    const el_findings *fs = &t->findings;
    for (size_t i = 0; i < fs->n; i++) {
        const el_finding *f = &fs->v[i];
        if (strcmp(f->rule, "EH102") || strcmp(f->file, path))
            continue;
        size_t fo = em_text_offset(tx, f->line, f->col);
        if (fo == off)
            return true;
        if (fo > off || fo >= tx->len || !em_is_ident(tx->data[fo]))
            continue;
        size_t j = fo;
        while (j < tx->len && em_is_ident(tx->data[j]))
            j++;
        while (j < tx->len && strchr(" \t\r\n", tx->data[j]))
            j++;
        if (j < tx->len && tx->data[j] == '(' && off < el_parens_scan(tx->data, tx->len, j))
            return true;
    }
    return false;
}

/* Is the library-prefixed name[0..n) one that emberlint does not take
 * for a backend's in the file path: in path or a file of the tree it
 * includes, the name is written in compiled code (not in a comment, a
 * literal or a directive's line) where EH102 reports nothing -- the
 * project's own variable, parameter or function (`enum CBLAS_TRANSPOSE
 * cblas_tb = ...`), which EH102 never reports.  A backend's name is
 * reported wherever it is written outside a reported call. */
static bool project_name(const em_tree *t, em_texts *texts, const char *path, const char *name,
                         size_t n)
{
    for (size_t k = 0; k < t->n_files; k++) {
        const char *fp = t->files[k].path;
        if (strcmp(fp, path) && !em_tree_reaches(t, path, fp))
            continue;
        const em_text *tx = scanned_text(texts, t, fp);
        if (!tx)
            continue;
        const char *d = tx->data;
        size_t len = tx->len;
        for (size_t i = 0, e = 0; i < len;) {
            size_t past = el_text_skip_lexeme(d, len, i);
            if (past != i) {
                i = past;
            } else if (el_text_directive_at(d, i)) {
                i = el_text_line_end(d, len, i);
            } else if (el_text_ident_at(d, len, i, &e)) {
                if (e - i == n && !memcmp(d + i, name, n) && !(i && d[i - 1] == '.') &&
                    !(i > 1 && d[i - 1] == '>' && d[i - 2] == '-') &&
                    !em_tree_skipped_everywhere(t, fp, i) && !reported_at(t, fp, tx, i))
                    return true;
                i = e;
            } else {
                i++;
            }
        }
    }
    return false;
}

/* The function a call template's rewrite replaces the call of ("replace
 * the call of cblas_sgemm with ..."), into callee[]; false for any other
 * fix. */
static bool template_callee(const el_fix *fix, char *callee, size_t cn)
{
    static const char lead[] = "replace the call of ";
    if (!fix || !fix->description || strncmp(fix->description, lead, sizeof lead - 1) != 0)
        return false;
    size_t len = strcspn(fix->description + sizeof lead - 1, " ");
    snprintf(callee, cn, "%.*s", (int)len, fix->description + sizeof lead - 1);
    return true;
}

/* A library name a call template's rewrite in the include's file (or in a
 * file that needs the include, as needs_include says) puts into the code
 * (my_gemm($2, ...) passing CblasTrans on): it is listed on its own, and
 * the include stays for it.  The reason, or NULL when there is none. */
static char *template_keeps(const em_tree *t, em_texts *texts, const em_opts *o,
                            const em_customs *customs, const char *header, const el_finding *inc)
{
    const el_findings *fs = &t->findings;
    for (size_t i = 0; i < fs->n; i++) {
        const el_finding *f = &fs->v[i];
        char why[1024], callee[128], name[128];
        if (strcmp(f->rule, "EH102") || !needs_include(texts, t, header, inc, f))
            continue;
        const el_fix *fix = em_customs_fix(customs, t, texts, f, why, sizeof why, NULL, NULL);
        if (!template_callee(fix, callee, sizeof callee) || !selected(o, t, texts, f, true))
            continue;
        char *err = NULL;
        const el_config *cfg = t->configs ? el_configs_for(t->configs, f->file, &err) : NULL;
        free(err);
        for (size_t k = 0; cfg && k < fix->edits.n; k++) {
            const char *s = fix->edits.v[k].text;
            size_t n = s ? strlen(s) : 0, at = 0, b = 0;
            while (s && next_kept_name(cfg, s, n, &at, &b, name, sizeof name))
                if (!project_name(t, texts, fix->edits.v[k].path, name, at - b))
                    return el_xasprintf("the include stays: the call template for %s puts %s into "
                                        "its rewrite (listed)", callee, name);
        }
    }
    return NULL;
}

/* Why the include a finding f points at stays: the first backend name of
 * its file that keeps its EH102 finding and that the include brings. */
static char *include_stays(const em_tree *t, em_texts *texts, const em_opts *o,
                           const em_customs *customs, const el_finding *inc)
{
    const el_findings *fs = &t->findings;
    const char *header = include_target(t, inc);
    char name[256];
    /* a site the include provably brings first, then one nothing declares
     * here (brings: not known, so kept) */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < fs->n; i++) {
            const el_finding *f = &fs->v[i];
            if (strcmp(f->rule, "EH102"))
                continue;
            const char *decl = em_tree_decl(t, f->file, f->line, f->col);
            bool undeclared = decl && !decl[0];
            if (undeclared != (pass == 1) || !needs_include(texts, t, header, inc, f) ||
                !left_as_is(o, t, texts, customs, f) || !site_name(texts, t, f, name, sizeof name))
                continue;
            char *where = strcmp(f->file, inc->file) ? el_path_display(f->file) : NULL;
            char *r = el_xasprintf("the include stays: %s%sline %u still uses %s, which is not "
                                   "rewritten", where ? where : "", where ? " " : "", f->line,
                                   name);
            free(where);
            return r;
        }
    char *kept = template_keeps(t, texts, o, customs, header, inc);
    return kept ? kept : el_xstrdup("the include stays: the file still needs it");
}

/* The offset of the k-th (from 0) whole identifier s[0..n) in t[b..e),
 * or (size_t)-1. */
static size_t nth_ident(const char *t, size_t b, size_t e, const char *s, size_t n, size_t k)
{
    for (size_t i = b; i + n <= e; i++)
        if (!memcmp(t + i, s, n) && (i == 0 || !em_is_ident(t[i - 1])) &&
            (i + n == e || !em_is_ident(t[i + n])) && k-- == 0)
            return i;
    return (size_t)-1;
}

/* A call template's rewrite may keep names of the library in the code (the
 * layout and transposes of a cblas call passed on to a helper: "my_gemm($2,
 * $3, ...)").  Inside the call they were part of its site; afterwards each
 * is a site of its own, which emberlint reports: listed, at its place in
 * the tree (plan) or in the rewritten text (apply).  Names followed by '('
 * are calls the template's arguments keep, listed on their own already;
 * a library-prefixed name the project declares itself (a local `cblas_tb`,
 * project_name) is no backend name, and not listed.  A template that
 * repeats an argument ("mm_rows($3, $3, ...)") writes a name twice: the
 * second copy goes into *copies, which em_plan_make adds after making the
 * list unique, so that apply lists each copy where it is in the rewritten
 * text while plan lists the argument once (em_run_plan makes its list
 * unique again). */
static void template_names(em_plan *p, em_manuals *copies, const em_tree *t, em_texts *texts,
                           const el_finding *f, const el_fix *fix)
{
    char callee[128];
    if (!template_callee(fix, callee, sizeof callee))
        return;
    char *err = NULL;
    const el_config *cfg = t->configs ? el_configs_for(t->configs, f->file, &err) : NULL;
    free(err);
    for (size_t k = 0; cfg && k < fix->edits.n; k++) {
        const el_edit *e = &fix->edits.v[k];
        const em_text *tx = e->text ? scanned_text(texts, t, e->path) : NULL;
        if (!tx || e->end > tx->len || e->begin > e->end)
            continue;
        const char *s = e->text;
        size_t n = strlen(s), b = 0;
        char name[128];
        size_t *placed = NULL, n_placed = 0; /* the call's offsets listed */
        for (size_t i = 0; next_kept_name(cfg, s, n, &i, &b, name, sizeof name);) {
            size_t nl = i - b;
            if (project_name(t, texts, e->path, name, nl))
                continue;
            /* its place now: the same occurrence in the call's text (a
             * copy beyond the call's occurrences: a repeated argument) */
            size_t seen = 0, m = 0;
            for (size_t j = 0; j < b; j++)
                if (!memcmp(s + j, name, nl) && (j == 0 || !em_is_ident(s[j - 1])) &&
                    !em_is_ident(s[j + nl]))
                    seen++;
            while (nth_ident(tx->data, e->begin, e->end, name, nl, m) != (size_t)-1)
                m++;
            /* none: the template writes the name itself, at the call */
            size_t at = m ? nth_ident(tx->data, e->begin, e->end, name, nl, seen % m) : e->begin;
            bool again = false;
            for (size_t q = 0; q < n_placed && !again; q++)
                again = placed[q] == at;
            placed = el_xrealloc(placed, (n_placed + 1) * sizeof *placed);
            placed[n_placed++] = at;
            em_manuals *into = again ? copies : &p->manual;
            unsigned line, col, el, ec;
            el_text_line_col(tx->data, (size_t)-1, at, &line, &col);
            el_text_line_col(tx->data, (size_t)-1, e->begin, &el, &ec);
            char *owned = NULL;
            em_manuals_add(into, display(t, e->path, &owned), line, col,
                           "[EH102] use of backend name '%s', which the call template for %s "
                           "puts into its rewrite: no op replaces a backend type, variable, "
                           "constant or macro: rewrite this use by hand",
                           name, callee);
            free(owned);
            em_manual *x = &into->v[into->n - 1];
            x->in_edit = true;
            x->edit_line = el;
            x->edit_col = ec;
            x->edit_off = b;
        }
        free(placed);
    }
}

/* ---- unsafe changes ------------------------------------------------- */

/* Why a fix is unsafe, from what it does (malloc'd): a template's own
 * reason (a dropped argument with a side effect), a custom op's wrapper,
 * a template not marked safe, a rename whose op the file does not
 * declare yet, an include of a header or of a file with skipped code, or
 * one that goes with an unsafe rewrite of its file. */
static char *unsafe_reason(const em_tree *t, const em_customs *customs, const el_finding *f,
                           const el_fix *fix, bool adds_eh_h)
{
    const char *d = fix->description ? fix->description : "";
    const char *u = strstr(d, " (unsafe: ");
    if (u) {
        size_t n = strlen(u + 10);
        return el_xasprintf("%.*s", (int)(n && u[10 + n - 1] == ')' ? n - 1 : n), u + 10);
    }
    for (size_t k = 0; k < fix->edits.n; k++) {
        const char *x = fix->edits.v[k].text;
        for (size_t i = 0; x && x[i];) {
            if (!em_is_ident(x[i])) {
                i++;
                continue;
            }
            size_t b = i;
            while (x[i] && em_is_ident(x[i]))
                i++;
            const em_custom_op *op = em_customs_by_wrapper(customs, x + b, i - b);
            if (op)
                return el_xasprintf("the call goes through custom op %s, which a caller can "
                                    "tell from the function (a NULL argument fails as an op's "
                                    "does, a tensor it handed back comes back as a copy, a "
                                    "backend without a version of its own runs another's)",
                                    op->full);
        }
    }
    char callee[128];
    if (!strcmp(f->rule, "EH102") && template_callee(fix, callee, sizeof callee)) {
        char *err = NULL;
        const el_config *cfg = t->configs ? el_configs_for(t->configs, f->file, &err) : NULL;
        free(err);
        const el_rewrite_rule *r = cfg ? el_config_rewrite_for(cfg, callee) : NULL;
        if (r && r->safety == EL_FIX_SAFE)
            return el_xstrdup("a call in its arguments has an unsafe rewrite");
        return el_xasprintf("the configuration does not mark the call template for %s "
                            "\"safety\": \"safe\"%s%s%s", callee, r && r->note ? " (its note: " : "",
                            r && r->note ? r->note : "", r && r->note ? ")" : "");
    }
    static const char lead[] = "replace ";
    if (!strcmp(f->rule, "EH102") && !strncmp(d, lead, sizeof lead - 1)) {
        const char *with = strstr(d, " with ");
        if (with)
            return el_xasprintf("the file does not declare %s yet (%s), so its type could "
                                "not be compared with %.*s's",
                                with + 6,
                                adds_eh_h ? "the plan includes <eh/eh.h> for it, as its backend "
                                            "include stays"
                                          : "it comes with <eh/eh.h>",
                                (int)(with - d - (sizeof lead - 1)), d + sizeof lead - 1);
    }
    if (!strcmp(f->rule, "EH103"))
        return el_xstrdup("the arm it keeps holds an unsafe rewrite");
    if (!strcmp(f->rule, "EH101")) {
        if (!el_path_is_unit(f->file)) /* (.h, .hpp, .cuh, .inc, .def: included) */
            return el_xstrdup("the file is a header: translation units outside the tree given "
                              "may need what the include declares");
        const el_findings *fs = &t->findings;
        for (size_t i = 0; i < fs->n; i++)
            if (fs->v[i].fix && fs->v[i].fix->safety == EL_FIX_UNSAFE &&
                strcmp(fs->v[i].rule, "EH101") && !strcmp(fs->v[i].file, f->file))
                return el_xstrdup("it goes with an unsafe rewrite of its file (listed)");
        return el_xstrdup("the file has code the preprocessor skips, which may use what the "
                          "include declares");
    }
    return el_xstrdup("its rule marks it unsafe");
}

/* List an unsafe change (left out or made) at its finding's place. */
static void unsafe_entry(em_plan *p, const em_tree *t, const el_finding *f, const el_fix *fix,
                         const char *why)
{
    char *owned = NULL;
    const char *what = fix && fix->description ? fix->description : f->message;
    const char *u = strstr(what, " (unsafe: "); /* said in why */
    /* EH101's "(nothing uses it)" counts its file's calls as rewritten:
     * said so, as one that goes with an unsafe rewrite stays used
     * without it */
    static const char unused[] = " (nothing uses it)";
    const char *n = !strcmp(f->rule, "EH101") ? strstr(what, unused) : NULL;
    size_t len = u ? (size_t)(u - what) : strlen(what);
    if (n && (size_t)(n - what) < len)
        em_manuals_add(&p->unsafe, display(t, f->file, &owned), f->line, f->col,
                       "[%s] %.*s (nothing uses it once its file's calls are rewritten)%.*s: %s",
                       f->rule, (int)(n - what), what,
                       (int)(len - (size_t)(n - what) - (sizeof unused - 1)),
                       n + sizeof unused - 1, why);
    else
        em_manuals_add(&p->unsafe, display(t, f->file, &owned), f->line, f->col, "[%s] %.*s: %s",
                       f->rule, (int)len, what, why);
    site_configs(&p->unsafe, t, f);
    free(owned);
}

/* Each kernel of a custom op made (--unsafe-fixes) or waiting for the
 * flag, listed as an unsafe change at its definition: the op is one
 * whether or not anything calls it (its uses are listed with their fixes).
 * A kernel that stays where it is until that run, outside backends/, is
 * tagged with the EH104 finding emberlint reports there. */
static void custom_entries(const em_tree *t, const em_customs *customs, em_plan *p)
{
    const em_custom_scan *s = t->custom;
    for (size_t i = 0; s && i < s->n; i++) {
        const em_cfn *k = &s->v[i];
        char full[200];
        bool kept;
        if (!em_customs_unsafe_op_of(customs, k, full, sizeof full, &kept))
            continue;
        const el_finding *at = NULL;
        for (size_t j = 0; kept && j < t->findings.n && !at; j++) {
            const el_finding *f = &t->findings.v[j];
            if (!strcmp(f->rule, "EH104") && f->line == k->line && !strcmp(f->file, k->path))
                at = f;
        }
        char *owned = NULL, *w = em_customs_unsafe_why(full);
        em_manuals_add(&p->unsafe, display(t, k->path, &owned), k->line, at ? at->col : k->col,
                       "%smake custom op %s with %s as its %s kernel: a caller can tell the op "
                       "from the function (%s)%s",
                       at ? "[EH104] " : "", full, k->name, k->backend, w,
                       kept ? "; nothing calls it yet, so the kernel stays where it is until "
                              "the run that makes the op (in backends/ it would look migrated)"
                            : "");
        free(w);
        free(owned);
    }
}

/* Does the fix rename a call to an op the file does not declare yet
 * (EH102 "replace eh_blas_add with eh_add", unsafe for that reason)?
 * Its op comes with <eh/eh.h>. */
static bool rename_needs_eh_h(const em_customs *customs, const el_finding *f, const el_fix *fix)
{
    static const char lead[] = "replace ";
    const char *d = fix && fix->description ? fix->description : "";
    char callee[128];
    if (strcmp(f->rule, "EH102") || fix->safety != EL_FIX_UNSAFE ||
        strncmp(d, lead, sizeof lead - 1) || !strstr(d, " with eh_") || strstr(d, " (unsafe: ") ||
        template_callee(fix, callee, sizeof callee))
        return false;
    for (size_t k = 0; k < fix->edits.n; k++) {
        const char *x = fix->edits.v[k].text;
        for (size_t i = 0; x && x[i];) {
            size_t b = i;
            while (x[i] && em_is_ident(x[i]))
                i++;
            if (i > b && em_customs_by_wrapper(customs, x + b, i - b))
                return false;
            if (i == b)
                i++;
        }
    }
    return true;
}

/* Does an EH101 fix of the file bring the frontend include (an edit with
 * text: "include <eh/eh.h> instead of ...")?  Without one, a rename to
 * an op the file does not declare has nothing to declare it. */
static bool frontend_include_fix(const em_tree *t, const char *file)
{
    const el_findings *fs = &t->findings;
    for (size_t i = 0; i < fs->n; i++)
        if (fs->v[i].fix && !strcmp(fs->v[i].rule, "EH101") && !strcmp(fs->v[i].file, file))
            for (size_t k = 0; k < fs->v[i].fix->edits.n; k++)
                if (fs->v[i].fix->edits.v[k].text && fs->v[i].fix->edits.v[k].text[0])
                    return true;
    return false;
}

/* (--unsafe-fixes) A file whose renames taken call ops it does not
 * declare, and that gets no <eh/eh.h> from a rewritten include (its
 * backend include stays, for what else it declares): the plan adds
 * `#include <eh/eh.h>` where a file gets one more include, so the calls
 * are declared.  Its finding's index into brings[] (the rename listed
 * says so). */
static void bring_eh_h(const el_findings *fs, const em_tree *t, em_texts *texts,
                       const em_customs *customs, const el_fix *const *cands,
                       const el_fix_choice *choice, el_edits *out, bool *brings)
{
    for (size_t i = 0; i < fs->n; i++) {
        const el_finding *f = &fs->v[i];
        if (choice[i] != EL_FIX_TAKEN || !cands[i] || !rename_needs_eh_h(customs, f, cands[i]))
            continue;
        bool has = false;
        for (size_t k = 0; k < out->n && !has; k++) {
            const el_edit *e = &out->v[k];
            /* a rewritten include brings the frontend include (<eh/eh.h>,
             * or the project's "frontend_include"), or one added here */
            has = !strcmp(e->path, f->file) && e->text && e->text[0] && e->group >= 0 &&
                  (!strcmp(fs->v[e->group].rule, "EH101") ||
                   (!strcmp(fs->v[e->group].rule, "EH102") && brings[e->group]));
        }
        if (!has) {
            const em_file *ef = em_tree_file(t, f->file);
            char *err = NULL;
            const em_text *tx = em_texts_get(texts, f->file, ef ? &ef->hash : NULL, &err);
            free(err);
            if (!tx)
                continue;
            size_t at = em_include_spot(tx->data, tx->len);
            bool crlf = at >= 2 && tx->data[at - 2] == '\r';
            char *line = el_xasprintf("%s#include <eh/eh.h>%s",
                                      at && tx->data[at - 1] != '\n' ? "\n" : "",
                                      crlf ? "\r\n" : "\n");
            el_edits_add(out, f->file, at, at, line, (int)i);
            free(line);
        }
        brings[i] = true;
    }
}

/* Choose the fixes; their edits into *out. */
static void take_fixes(const em_opts *o, const em_tree *t, em_texts *texts, const em_moves *mv,
                       const em_customs *customs, em_plan *p, em_manuals *copies,
                       el_edits *out)
{
    const el_findings *fs = &t->findings;
    /* the candidates, by finding index (fix_select.h picks among them) */
    const el_fix **cands = el_xcalloc(fs->n + 1, sizeof *cands);
    /* backend names that stay: the includes that bring them stay too */
    const el_finding **keep = el_xcalloc(fs->n + 1, sizeof *keep);
    size_t n_keep = 0;
    /* of which sites left for a later run (a custom op --backend defers) */
    bool *later = el_xcalloc(fs->n + 1, sizeof *later);
    /* of which unsafe changes left out (no --unsafe-fixes) */
    bool *unsafe_out = el_xcalloc(fs->n + 1, sizeof *unsafe_out);
    const el_finding **eh104s = el_xcalloc(fs->n + 1, sizeof *eh104s);
    size_t n_eh104 = 0;
    /* EH101 findings whose include stays, by file */
    char **inc_left = el_xcalloc(fs->n + 1, sizeof *inc_left);
    size_t n_inc_left = 0;
    for (size_t i = 0; i < fs->n; i++) {
        const el_finding *f = &fs->v[i];
        bool eh101 = !strcmp(f->rule, "EH101"), eh102 = !strcmp(f->rule, "EH102"),
             eh103 = !strcmp(f->rule, "EH103"), eh104 = !strcmp(f->rule, "EH104");
        /* a rename to the wrapper of a name that is no custom op is no fix */
        char not_custom[1024];
        bool deferred, unsafe_custom;
        const el_fix *fix = em_customs_fix(customs, t, texts, f, not_custom, sizeof not_custom,
                                           &deferred, &unsafe_custom);
        if (!strcmp(f->rule, "EH000")) {
            el_findings_add(&p->unparsed, f->rule, f->severity, f->file, f->line, f->col,
                            f->message);
            continue;
        }
        if (!(eh101 || eh102 || eh103 || eh104) || file_unparsed(t, f->file))
            continue;
        if (fix ? fix_inside(mv, fix) : finding_inside(mv, texts, t, f))
            continue;     /* moves with its code */
        deferred |= eh104 && em_customs_deferred_at(customs, t, f->file, f->line);
        if (unsafe_custom && !eh104 && f->fix && selected(o, t, texts, f, true)) {
            /* a use of a custom op made with --unsafe-fixes only */
            unsafe_entry(p, t, f, f->fix, not_custom);
            if (eh102) {
                unsafe_out[n_keep] = true;
                keep[n_keep++] = f;
            }
            continue;
        }
        bool sel = !deferred && selected(o, t, texts, f, true);
        if (eh102 && (!sel || !fix)) {
            later[n_keep] = deferred;
            keep[n_keep++] = f;
        }
        if (eh101 && (!sel || !fix))
            inc_left[n_inc_left++] = f->file;
        if (!sel && eh101 && fix && selected(o, t, texts, f, false)) {
            /* the one <eh/eh.h> of the file is written where another
             * backend's include is: that fix is left out */
            manual_finding(p, t, f, "the include is replaced together with another "
                                    "backend's include: migrate that backend too (or run "
                                    "without --backend)");
            continue;
        }
        if (!sel)
            continue;
        if (eh104) {
            eh104s[n_eh104++] = f;    /* decided once the includes are */
            continue;
        }
        /* (a site with no fix is kept, or its include left, above: once) */
        if (generated_site(p, t, f, fix)) {
            if (eh102 && fix)
                keep[n_keep++] = f;
            if (eh101 && fix)
                inc_left[n_inc_left++] = f->file;
            continue;
        }
        bool outside = false;
        for (size_t k = 0; fix && k < fix->edits.n; k++)
            outside |= !el_bounds_contain(&t->bounds, fix->edits.v[k].path);
        if (outside || (!fix && !el_bounds_contain(&t->bounds, f->file))) {
            manual_finding(p, t, f, "the file is reached through a symbolic link that leaves "
                                    "the tree given; such files are only read");
            if (eh102 && fix)
                keep[n_keep++] = f;
            if (eh101 && fix)
                inc_left[n_inc_left++] = f->file;
            continue;
        }
        if (!fix) {
            char quoted[256];
            const char *name = em_finding_name(f, quoted, sizeof quoted) ? quoted : NULL;
            const char *why = not_custom[0] ? not_custom
                                            : without_name(em_tree_why(t, f->file, f->line, f->col,
                                                                       name),
                                                           name);
            char *stays = !why && eh101 ? include_stays(t, texts, o, customs, f) : NULL;
            manual_finding(p, t, f,
                           why     ? why
                           : eh101 ? stays
                           : eh102 && strstr(f->message, "backend function")
                               ? "no libeh op does what this backend function does: rewrite "
                                 "this use by hand"
                           : eh102 ? "no op replaces a backend type, variable, constant or "
                                     "macro: rewrite this use by hand"
                           : in_conditional(texts, t, f)
                               ? "a preprocessor conditional has no automatic fix: which "
                                 "build's code to keep is a decision for a person (keep one "
                                 "arm by hand)"
                               : "the branch cannot be collapsed automatically");
            free(stays);
            continue;
        }
        /* a rename to an op the file does not declare, in a file none of
         * whose includes can become <eh/eh.h> (its backend include stays
         * for what else it declares): nothing would declare the op */
        if (eh102 && rename_needs_eh_h(customs, f, fix) && !frontend_include_fix(t, f->file)) {
            const char *with = strstr(fix->description, " with ");
            char *why = el_xasprintf("the file does not declare %s, and none of its includes "
                                     "can become <eh/eh.h> (a backend include stays for what "
                                     "else it declares): include <eh/eh.h> in it, then run "
                                     "ember-migrate again",
                                     with ? with + 6 : "the op");
            manual_finding(p, t, f, why);
            free(why);
            keep[n_keep++] = f;
            continue;
        }
        /* (an include: once it is known whether it stays anyway) */
        if (fix->safety == EL_FIX_UNSAFE && o->safe_only && !eh101) {
            char *why = unsafe_reason(t, customs, f, fix, false);
            unsafe_entry(p, t, f, fix, why);
            free(why);
            if (eh102) {
                unsafe_out[n_keep] = true;
                keep[n_keep++] = f;
            }
            continue;
        }
        cands[i] = fix;
    }
    /* an include stays while a backend name it brings stays */
    for (size_t i = 0; i < fs->n; i++) {
        const el_finding *f = &fs->v[i];
        if (!cands[i] || strcmp(f->rule, "EH101"))
            continue;
        bool kept = false, for_person = false;
        const el_finding *by_unsafe = NULL;
        const char *header = include_target(t, f);
        /* a site that needs the include (needs_include) */
        for (size_t k = 0; k < n_keep && !for_person; k++)
            if (needs_include(texts, t, header, f, keep[k])) {
                kept = true;
                if (unsafe_out[k])
                    by_unsafe = by_unsafe ? by_unsafe : keep[k];
                else
                    for_person = !later[k];
            }
        char *skipped = kept ? NULL : skipped_needs(t, texts, cands, f, header);
        if (skipped) { /* a name of its skipped code that the header declares */
            manual_finding(p, t, f, skipped);
            free(skipped);
            inc_left[n_inc_left++] = f->file;
            cands[i] = NULL;
        } else if (kept && !for_person && by_unsafe) { /* it goes with an unsafe change */
            char *owned = NULL;
            char *why = strcmp(by_unsafe->file, f->file)
                            ? el_xasprintf("it goes with an unsafe rewrite in %s (listed)",
                                           display(t, by_unsafe->file, &owned))
                            : el_xstrdup("it goes with an unsafe rewrite of its file (listed)");
            unsafe_entry(p, t, f, cands[i], why);
            free(why);
            free(owned);
            inc_left[n_inc_left++] = f->file;
            cands[i] = NULL;
        } else if (kept && !for_person) { /* it goes in the run that makes the custom op */
            inc_left[n_inc_left++] = f->file;
            cands[i] = NULL;
        } else if (kept) {
            char *stays = include_stays(t, texts, o, customs, f);
            manual_finding(p, t, f, stays);
            free(stays);
            inc_left[n_inc_left++] = f->file;
            cands[i] = NULL;
        } else if (cands[i]->safety == EL_FIX_UNSAFE && o->safe_only) {
            char *why = unsafe_reason(t, customs, f, cands[i], false);
            unsafe_entry(p, t, f, cands[i], why);
            free(why);
            inc_left[n_inc_left++] = f->file;
            cands[i] = NULL;
        }
    }
    el_fix_choice *choice = el_xcalloc(fs->n + 1, sizeof *choice);
    el_fix_select(cands, fs->n, choice, out);
    report_unused(p, t, texts, mv, choice);
    bool *brings = el_xcalloc(fs->n + 1, sizeof *brings);
    bring_eh_h(fs, t, texts, customs, cands, choice, out, brings);
    for (size_t i = 0; i < fs->n; i++) {
        const char *rule = fs->v[i].rule;
        /* a covered fix happens inside the one that covers it (EH101's
         * fixes of one file share the edit that brings in <eh/eh.h>) */
        if (choice[i] == EL_FIX_CONFLICT) {
            p->conflicts++;
            if (!strcmp(rule, "EH101"))
                inc_left[n_inc_left++] = fs->v[i].file;
        } else if (choice[i] == EL_FIX_TAKEN || choice[i] == EL_FIX_COVERED) {
            if (!strcmp(rule, "EH101"))
                p->includes++;
            else if (!strcmp(rule, "EH102"))
                p->calls++;
            else
                p->branches++;
            if (choice[i] == EL_FIX_TAKEN && strcmp(rule, "EH101") && cands[i])
                template_names(p, copies, t, texts, &fs->v[i], cands[i]);
            /* (--unsafe-fixes) a covered call or branch is made by the one
             * covering it, listed; a covered include is its own change
             * (the fixes of a file's includes share an edit) */
            if ((choice[i] == EL_FIX_TAKEN || !strcmp(rule, "EH101")) && cands[i] &&
                cands[i]->safety == EL_FIX_UNSAFE) {
                char *why = unsafe_reason(t, customs, &fs->v[i], cands[i], brings[i]);
                unsafe_entry(p, t, &fs->v[i], cands[i], why);
                free(why);
            }
        }
    }
    free(brings);
    free(choice);
    free(cands);
    /* EH104 for a function in a file that includes a backend header is
     * settled when every such include of the file is rewritten */
    for (size_t i = 0; i < n_eh104; i++) {
        const el_finding *f = eh104s[i];
        bool left = false, rewritten = false;
        for (size_t k = 0; k < n_inc_left && !left; k++)
            left = !strcmp(inc_left[k], f->file);
        for (size_t k = 0; k < out->n && !rewritten; k++)
            rewritten = out->v[k].group >= 0 && !strcmp(out->v[k].path, f->file) &&
                        !strcmp(fs->v[out->v[k].group].rule, "EH101");
        /* EH104's include shape, either wording (lint/rules/backend_impl_outside_backends.c):
         * "function 'f' is defined in a file that includes '...'" */
        if (strstr(f->message, "is defined in a file that includes") && rewritten && !left)
            continue;
        manual_finding(p, t, f, "move it into backends/ by hand");
    }
    free(inc_left);
    free(eh104s);
    free(keep);
    free(later);
    free(unsafe_out);
}

/* ---- the plan --------------------------------------------------------- */

/* The directory the diff's paths are relative to: the current directory
 * when every PATH is inside it, else the deepest directory holding every
 * PATH (so `ember-migrate plan /tmp/app` gives a diff to apply in /tmp/app
 * rather than one naming absolute paths, which git apply refuses). */
static char *diff_root(const em_opts *o)
{
    const char *cwd = el_cwd();
    char *common = NULL;
    bool outside = false;
    for (size_t i = 0; i < o->scan.n_paths; i++) {
        char *abs = el_path_real(o->scan.paths[i]);
        if (!abs)
            abs = el_path_abs(o->scan.paths[i]);
        struct stat st;
        if (stat(abs, &st) == 0 && !S_ISDIR(st.st_mode)) {
            char *dir = el_path_dirname(abs);
            free(abs);
            abs = dir;
        }
        char *rel = el_path_under(abs, cwd);
        outside = outside || !rel;
        free(rel);
        while (common) {
            char *in = el_path_under(abs, common);
            bool inside = in != NULL;
            free(in);
            if (inside)
                break;
            char *up = el_path_dirname(common);
            free(common);
            common = up;
        }
        if (!common)
            common = el_xstrdup(abs);
        free(abs);
    }
    if (!outside || !common) {
        free(common);
        return el_xstrdup(cwd);
    }
    return common;
}

/* New translation units (a partial move's destination, generated code)
 * are in no build yet: a person adds them to it, and the database follows. */
static void note_new_units(const em_tree *t, em_plan *p, const em_moves *mv, const char *json)
{
    el_buf names = {0};
    size_t n = 0;
    for (size_t i = 0; i < mv->n_creates; i++) {
        const char *path = mv->creates[i].path;
        if (mv->creates[i].from || !el_path_is_unit(path))
            continue;
        char *owned = NULL;
        el_buf_puts(&names, n++ ? ", " : "");
        el_buf_puts(&names, display(t, path, &owned));
        free(owned);
    }
    if (n) {
        char *disp = el_path_display(json);
        /* after the entry saying how it changes, if there is one */
        em_manuals_note(&p->manual, disp, 1, 1, "it does not list the %zu translation unit%s this "
                        "migration creates (%s): add %s to the build, then regenerate it", n,
                        n == 1 ? "" : "s", el_buf_str(&names), n == 1 ? "it" : "them");
        free(disp);
    }
    el_buf_free(&names);
}

/* A compilation database that lists a moved file changes with it (inside
 * the tree), or a person is told how to regenerate it. */
static int plan_compdb(const em_opts *o, const em_tree *t, em_plan *p, const em_moves *mv,
                       char **err)
{
    char **from = el_xcalloc(mv->n_creates + 1, sizeof *from);
    char **to = el_xcalloc(mv->n_creates + 1, sizeof *to);
    size_t n = 0;
    for (size_t i = 0; i < mv->n_creates; i++)
        if (mv->creates[i].from) {
            from[n] = mv->creates[i].from;
            to[n++] = mv->creates[i].path;
        }
    char *dir = el_path_abs(o->scan.compdb_dir);
    char *json = el_path_join(dir, "compile_commands.json");
    size_t len = 0, count = 0;
    char *text = NULL;
    if (el_read_file(json, &text, &len, NULL, NULL) != 0)
        text = NULL;
    char *now = text ? em_compdb_moved(text, from, to, n, &count) : NULL;
    int rc = 0;
    if (now && el_bounds_contain(&t->bounds, json)) {
        rc = el_changeset_modify(&p->cs, json, NULL, now, strlen(now), err);
    } else if (now) {
        char *cmd = em_compdb_regenerate(dir);
        char *disp = el_path_display(json);
        em_manuals_add(&p->manual, disp, 1, 1, "it lists %zu file%s this migration moves and "
                       "lies outside the tree given, so it is not changed: regenerate it "
                       "afterwards%s%s", count, count == 1 ? "" : "s", cmd ? ": " : " with the tool "
                       "that wrote it (bear -- make, compiledb, your build system)", cmd ? cmd : "");
        free(disp);
        free(cmd);
    }
    if (text)
        note_new_units(t, p, mv, json);
    free(now);
    free(text);
    free(json);
    free(dir);
    free(from);
    free(to);
    return rc;
}

int em_plan_make(const em_opts *o, const em_tree *t, em_plan *p, char **err)
{
    memset(p, 0, sizeof *p);
    *err = NULL;
    char *root = diff_root(o);
    el_changeset_init(&p->cs, root);
    el_changeset_bound(&p->cs, &t->bounds);
    free(root);
    em_select sel;
    em_opts_select(o, &sel);
    em_customs customs;
    em_customs_compute(o, t, &customs);
    sel.customs = &customs;
    em_texts texts = {0};
    em_moves mv;
    int rc = em_moves_compute(t, &sel, &texts, &mv, &p->manual, err);
    el_edits edits = {0};
    em_manuals copies = {0}; /* repeated copies of kept names (template_names) */
    if (!rc) {
        p->moved = mv.n_defs;
        take_fixes(o, t, &texts, &mv, &customs, p, &copies, &edits);
        custom_entries(t, &customs, p);
        /* the custom ops' files, and their callers' includes of the wrappers */
        el_edits incs = {0};
        rc = em_custom_gen(&customs, t, &texts, &edits, &mv, &incs, err);
        el_edits_append(&edits, &incs);
        el_edits_free(&incs);
        p->custom_ops = customs.n_ops;
    }
    if (!rc) {
        /* re-pathed includes give way to a fix that rewrites the include */
        size_t n_fix = edits.n;
        for (size_t i = 0; i < mv.edits.n; i++) {
            const el_edit *e = &mv.edits.v[i];
            bool drop = false;
            for (size_t k = 0; k < n_fix && !drop && e->group == EM_GROUP_REPATH; k++)
                drop = !strcmp(e->path, edits.v[k].path) && e->begin < edits.v[k].end &&
                       edits.v[k].begin < e->end;
            if (!drop) {
                el_edits_add(&edits, e->path, e->begin, e->end, e->text, e->group);
                p->repathed += e->group == EM_GROUP_REPATH;
            }
        }
        el_edits_sort_unique(&edits);
    }
    /* each edited file: its new content from the content the scan parsed */
    for (size_t i = 0; !rc && i < edits.n;) {
        size_t n, first = el_edits_of(&edits, edits.v[i].path, &n);
        const char *path = edits.v[i].path;
        const em_file *f = em_tree_file(t, path);
        const em_text *tx = em_texts_get(&texts, path, f ? &f->hash : NULL, err);
        size_t a, b;
        char *nt = NULL;
        size_t nl = 0;
        char *owned = NULL;
        if (!tx) {
            rc = -1;
        } else if (el_edits_conflict(&edits, first, n, &a, &b)) {
            *err = el_xasprintf("%s: two rewrites overlap (bytes %zu and %zu); nothing was "
                                "changed", display(t, path, &owned), edits.v[a].begin,
                                edits.v[b].begin);
            rc = -1;
        } else if (el_edits_apply(&edits, first, n, tx->data, tx->len, &nt, &nl) != 0) {
            *err = el_xasprintf("%s: a rewrite lies outside the file", display(t, path, &owned));
            rc = -1;
        } else {
            el_hash128 h = el_hash_bytes(tx->data, tx->len);
            rc = el_changeset_modify(&p->cs, path, f ? &f->hash : &h, nt, nl, err);
        }
        free(owned);
        free(nt);
        i = first + n;
    }
    /* a file moving whole is one move (a rename in the diff) */
    for (size_t i = 0; !rc && i < mv.n_creates; i++) {
        const em_create *cr = &mv.creates[i];
        const em_file *f = cr->from ? em_tree_file(t, cr->from) : NULL;
        if (cr->from)
            rc = el_changeset_move(&p->cs, cr->from, cr->path, cr->text, cr->len,
                                   f ? &f->hash : NULL, err);
        else
            rc = el_changeset_create(&p->cs, cr->path, cr->text, cr->len, cr->mode, err);
    }
    for (size_t i = 0; !rc && i < mv.n_deletes; i++) {
        const em_file *f = em_tree_file(t, mv.deletes[i]);
        const el_change *done = el_changeset_find(&p->cs, mv.deletes[i]);
        if (done && done->kind == EL_CHANGE_DELETE)
            continue;    /* moved above */
        rc = el_changeset_delete(&p->cs, mv.deletes[i], f ? &f->hash : NULL, err);
    }
    for (size_t i = 0; !rc && i < mv.n_rmdirs; i++)
        el_changeset_rmdir_upto(&p->cs, mv.rmdirs[i].dir, mv.rmdirs[i].stop);
    if (!rc && o->scan.compdb_dir)
        rc = plan_compdb(o, t, p, &mv, err);
    em_manuals_sort_unique(&p->manual);
    em_manuals_sort_unique(&p->unsafe);
    /* with several configurations: one entry per place, saying which
     * gives what (and which do not list it) */
    em_config_names names = {.n = t->cfgs.n, .name = config_name_of,
                             .compiles = config_compiles, .ud = (void *)t};
    em_manuals_name_configs(&p->manual, &names);
    em_manuals_name_configs(&p->unsafe, &names);
    p->unsafe_made = o->unsafe_fixes;
    /* after it: at the argument they copy, they would be one entry; apply
     * lists each where it is in the rewritten text (relocate.c) */
    for (size_t i = 0; i < copies.n; i++) {
        el_grow(&p->manual.v, &p->manual.cap, p->manual.n + 1, sizeof *p->manual.v);
        p->manual.v[p->manual.n++] = copies.v[i]; /* file and why move over */
    }
    free(copies.v);
    p->edits = edits; /* kept for em_plan_locate */
    p->moved_sites = el_xcalloc(mv.n_defs_moved + 1, sizeof *p->moved_sites);
    for (size_t i = 0; i < mv.n_defs_moved; i++) {
        const em_moved_def *m = &mv.defs_moved[i];
        if (m->copied)
            continue;
        p->moved_sites[p->n_moved_sites++] = (struct em_moved_site){
            el_xstrdup(m->def->name), el_xstrdup(m->def->path), el_xstrdup(m->dest), m->def->line};
    }
    em_moves_free(&mv);
    em_customs_free(&customs);
    em_texts_free(&texts);
    return rc;
}

void em_plan_print_unsafe(const em_plan *p, bool apply, FILE *out)
{
    /* one pair of labels for plan and apply: plan's diff is what apply
     * writes */
    (void)apply;
    em_manuals_print_as(&p->unsafe, p->unsafe_made ? "unsafe, applied" : "unsafe, not applied",
                        out);
}

void em_plan_nothing(const em_plan *p, FILE *out)
{
    bool unsafe_left = p->unsafe.n && !p->unsafe_made;
    fprintf(out, "ember-migrate: nothing to migrate%s\n",
            p->manual.n && unsafe_left
                ? " automatically (the sites above need a person; the unsafe changes above "
                  "wait for --unsafe-fixes)"
            : p->manual.n ? " automatically (the sites above need a person)"
            : unsafe_left ? " safely (the unsafe changes above wait for --unsafe-fixes)"
                          : "");
}

void em_plan_summary(const em_plan *p, const char *verb, bool apply, FILE *out)
{
    char custom[64] = "", unsafe[160] = "";
    if (p->custom_ops)
        snprintf(custom, sizeof custom, "; %zu custom op%s made", p->custom_ops,
                 p->custom_ops == 1 ? "" : "s");
    size_t nu = p->unsafe.n;
    if (nu && p->unsafe_made)
        snprintf(unsafe, sizeof unsafe, "; %zu unsafe change%s %s (--unsafe-fixes; listed above)",
                 nu, nu == 1 ? "" : "s", apply ? "made" : "in the plan");
    else if (nu)
        snprintf(unsafe, sizeof unsafe, "; %zu unsafe change%s %s (listed above; review them, then "
                 "run again with --unsafe-fixes)", nu, nu == 1 ? "" : "s",
                 apply ? "not made" : "left out");
    fprintf(out,
            "ember-migrate: %zu call%s, %zu include%s, %zu branch%s %s; %zu definition%s moved "
            "into backends/%s%s; %zu site%s need%s a person%s\n",
            p->calls, p->calls == 1 ? "" : "s", p->includes, p->includes == 1 ? "" : "s",
            p->branches, p->branches == 1 ? "" : "es", verb, p->moved, p->moved == 1 ? "" : "s",
            custom, unsafe, p->manual.n, p->manual.n == 1 ? "" : "s", p->manual.n == 1 ? "s" : "",
            p->manual.n ? " (listed above)" : "");
}

void em_plan_free(em_plan *p)
{
    el_edits_free(&p->edits);
    for (size_t i = 0; i < p->n_moved_sites; i++) {
        free(p->moved_sites[i].name);
        free(p->moved_sites[i].path);
        free(p->moved_sites[i].dest);
    }
    free(p->moved_sites);
    el_changeset_free(&p->cs);
    em_manuals_free(&p->manual);
    em_manuals_free(&p->unsafe);
    el_findings_free(&p->unparsed);
    memset(p, 0, sizeof *p);
}

/* Scan with the options, reporting a failure as `ember-migrate: ...`;
 * 0 or the exit status. */
static int plan_scan(const em_opts *o, em_tree *t)
{
    char *err = NULL;
    if (em_scan(&o->scan, t, &err) != 0) {
        fprintf(stderr, "ember-migrate: %s\n", err ? err : "the scan failed");
        free(err);
        return 2;
    }
    return 0;
}

int em_plan_prepare(const em_opts *o, em_tree *t, em_plan *p)
{
    memset(t, 0, sizeof *t);
    int rc = plan_scan(o, t);
    if (rc) {
        memset(p, 0, sizeof *p);
        return rc;
    }
    char *err = NULL;
    if (em_plan_make(o, t, p, &err) != 0) {
        fprintf(stderr, "ember-migrate: %s\n", err);
        free(err);
        em_plan_free(p);
        em_tree_free(t);
        return 2;
    }
    return 0;
}

/* ---- ember-migrate plan ----------------------------------------------- */

/* The diff on standard output (for `git apply`); everything else, the
 * manual work and the summary, on standard error so the diff stays
 * applicable as it is.  Exit 0, or 1 when sites need a person. */
int em_run_plan(const em_opts *o)
{
    em_tree t;
    em_plan p;
    int rc = em_plan_prepare(o, &t, &p);
    if (rc)
        return rc;
    if (!o->quiet)
        em_plan_report_unparsed(&t, &p, "not planned, and apply refuses it without --force");
    if (!o->quiet && strcmp(p.cs.root, el_cwd()) != 0 && !el_changeset_empty(&p.cs))
        fprintf(stderr, "ember-migrate: note: paths in the diff are relative to %s "
                        "(apply it there: cd %s && git apply)\n", p.cs.root, p.cs.root);
    if (el_changeset_diff(&p.cs, stdout) != 0) {
        fprintf(stderr, "ember-migrate: standard output: write error\n");
        rc = 2;
    }
    fflush(stdout);
    if (o->verify && !rc && !el_changeset_empty(&p.cs) &&
        em_verify_plan(o, &t, &p, "the plan would break it") < 0)
        rc = 2;
    /* a name a template copies twice is listed once, at its argument */
    em_manuals_sort_unique(&p.manual);
    if (!o->quiet) {
        em_manuals_print(&p.manual, "", stderr);
        em_plan_print_unsafe(&p, false, stderr);
        /* one summary line: with nothing to do, apply's */
        if (el_changeset_empty(&p.cs))
            em_plan_nothing(&p, stderr);
        else
            em_plan_summary(&p, "to rewrite", false, stderr);
    }
    /* an unsafe change left out waits for a person's decision */
    if (!rc)
        rc = p.manual.n || p.unparsed.n || (p.unsafe.n && !p.unsafe_made) ? 1 : 0;
    em_plan_free(&p);
    em_tree_free(&t);
    return rc;
}
