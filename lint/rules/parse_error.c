/* lint/rules/parse_error.c -- EH000 parse-error: a file that does not
 * parse.  One finding per linted file with errors, at its first error
 * (clang's message, and how many more there are).  An error in an
 * external header is reported at the #include that leads to it.  The
 * other rules still run on what libclang recovered. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "mem.h"
#include "path.h"
#include "rule.h"

typedef struct file_errors {
    CXFile file;               /* the linted file reported in */
    CXSourceLocation at;       /* its first error (or the #include) */
    char first[700];
    unsigned count;
} file_errors;

typedef struct include_site {
    CXFile file;               /* an external file */
    CXSourceLocation at;       /* where a linted file includes it */
    bool found;
} include_site;

typedef struct inclusions {
    el_ctx *ctx;
    include_site *v;
    size_t n, cap;
} inclusions;

static void on_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    inclusions *in = d;
    el_grow(&in->v, &in->cap, in->n + 1, sizeof *in->v);
    include_site *s = &in->v[in->n++];
    s->file = f;
    s->found = false;
    for (unsigned i = 0; i < n && !s->found; i++) {
        if (el_is_linted(in->ctx, stack[i])) {
            s->at = stack[i];
            s->found = true;
        }
    }
}

static void begin(el_ctx *ctx, void *state)
{
    (void)state;
    CXTranslationUnit tu = el_tu(ctx);
    unsigned nd = clang_getNumDiagnostics(tu);
    inclusions in = {ctx, NULL, 0, 0};
    bool have_inclusions = false;
    file_errors *errs = NULL;
    size_t n_errs = 0, cap_errs = 0;

    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        char msg[512];
        elc_string(clang_getDiagnosticSpelling(d), msg, sizeof msg);
        CXSourceLocation loc = clang_getDiagnosticLocation(d);
        clang_disposeDiagnostic(d);
        CXFile f = NULL;
        elc_location(loc, &f, NULL, NULL);
        CXSourceLocation at = loc;
        char text[700];
        snprintf(text, sizeof text, "%s", msg);
        if (!f || !el_is_linted(ctx, loc)) {
            /* In an external file, or no file (a bad compiler argument):
             * report where a linted file includes it, else at the top of
             * the main file. */
            if (f && !have_inclusions) {
                clang_getInclusions(tu, on_inclusion, &in);
                have_inclusions = true;
            }
            bool placed = false;
            for (size_t k = 0; f && k < in.n && !placed; k++) {
                if (in.v[k].file == f && in.v[k].found) {
                    at = in.v[k].at;
                    placed = true;
                }
            }
            if (!placed)
                at = clang_getLocation(tu, clang_getFile(tu, el_main_file(ctx)), 1, 1);
            char name[PATH_MAX];
            if (f) {
                /* Shown relative to the current directory: safe, since the
                 * cache's keys include it. */
                char *real = realpath(elc_file_name(f, name, sizeof name), NULL);
                char *shown = real ? el_path_display(real) : NULL;
                snprintf(text, sizeof text, "in included file '%.300s': %.370s",
                         shown ? shown : name, msg);
                free(shown);
                free(real);
            }
            elc_location(at, &f, NULL, NULL);
            if (!f)
                continue;
        }
        size_t k;
        for (k = 0; k < n_errs; k++)
            if (errs[k].file == f)
                break;
        if (k == n_errs) {
            el_grow(&errs, &cap_errs, n_errs + 1, sizeof *errs);
            errs[n_errs].file = f;
            errs[n_errs].at = at;
            snprintf(errs[n_errs].first, sizeof errs[n_errs].first, "%s", text);
            errs[n_errs].count = 0;
            n_errs++;
        }
        errs[k].count++;
    }
    for (size_t k = 0; k < n_errs; k++) {
        if (errs[k].count > 1)
            el_report_loc(ctx, errs[k].at, "does not parse: %s (and %u more error%s)",
                          errs[k].first, errs[k].count - 1, errs[k].count > 2 ? "s" : "");
        else
            el_report_loc(ctx, errs[k].at, "does not parse: %s", errs[k].first);
    }
    free(errs);
    free(in.v);
}

static void parse_failed(el_ctx *ctx, const char *reason)
{
    el_report_at(ctx, el_main_file(ctx), 1, 1, "does not parse: %s", reason);
}

const el_rule el_rule_parse_error = {
    .id = "EH000",
    .begin = begin,
    .parse_failed = parse_failed,
};
