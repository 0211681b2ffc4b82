/* lint/report/report_github.c -- `--format github`: GitHub Actions workflow
 * commands, `::error file=PATH,line=L,col=C,title=EH101::message`
 * (warning -> ::warning, note -> ::notice), escaped as the runner wants. */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "utf8.h"

/* property: also ':' and ','. */
static void put_escaped(FILE *out, const char *s, bool property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%':
            fputs("%25", out);
            break;
        case '\r':
            fputs("%0D", out);
            break;
        case '\n':
            fputs("%0A", out);
            break;
        case ':':
            fputs(property ? "%3A" : ":", out);
            break;
        case ',':
            fputs(property ? "%2C" : ",", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

int el_report_github(FILE *out, const el_output *r)
{
    const el_findings *f = r->findings;
    for (size_t i = 0; i < f->n; i++) {
        const el_finding *x = &f->v[i];
        const char *cmd = x->severity == EL_SEV_ERROR ? "error"
                          : x->severity == EL_SEV_WARNING ? "warning" : "notice";
        char *path = el_report_path(r, x->file);
        char *msg = el_utf8_clean(x->message);
        fprintf(out, "::%s file=", cmd);
        put_escaped(out, path, true);
        fprintf(out, ",line=%u,col=%u,title=%s::", x->line, x->col, x->rule);
        put_escaped(out, msg, false);
        fputc('\n', out);
        free(path);
        free(msg);
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}
