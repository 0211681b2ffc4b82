/* lint/report/report_text.c -- `path:line:col: severity: message [EH101]`, one
 * finding a line, the format compilers use and editors and CI parse.
 * Colour only when asked (el_want_color: --color always, or a terminal with
 * NO_COLOR unset or empty and TERM not dumb). */
#include <stdlib.h>
#include <string.h>

#include "metadata.h"
#include "report.h"
#include "utf8.h"

#define BOLD "\033[1m"
#define RESET "\033[0m"
#define DIM "\033[2m"

static const char *sev_colour(el_severity s)
{
    switch (s) {
    case EL_SEV_ERROR:
        return "\033[1;31m";
    case EL_SEV_WARNING:
        return "\033[1;35m";
    default:
        return "\033[1;36m";
    }
}

int el_report_text(FILE *out, const el_output *r)
{
    const el_findings *f = r->findings;
    for (size_t i = 0; i < f->n; i++) {
        const el_finding *x = &f->v[i];
        char *path = el_report_path(r, x->file);
        char *msg = el_utf8_clean(x->message);
        if (r->color)
            fprintf(out, BOLD "%s:%u:%u:" RESET " %s%s:" RESET " %s " DIM "[%s]" RESET "\n", path,
                    x->line, x->col, sev_colour(x->severity), el_severity_name(x->severity), msg,
                    x->rule);
        else
            fprintf(out, "%s:%u:%u: %s: %s [%s]\n", path, x->line, x->col,
                    el_severity_name(x->severity), msg, x->rule);
        free(path);
        free(msg);
    }
    if (r->statistics) {
        size_t *by = el_report_by_rule(f);
        for (size_t k = 0; k < el_meta_count(); k++) {
            if (!by[k])
                continue;
            const el_rule_meta *m = el_meta_at(k);
            fprintf(out, "%6zu  %s  %s\n", by[k], m->id, m->name);
        }
        free(by);
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}
