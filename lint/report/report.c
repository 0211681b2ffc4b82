/* lint/report/report.c -- what the output formats share (report.h). */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "strbuf.h"
#include "utf8.h"

char *el_report_path(const el_output *r, const char *abs_path)
{
    long k = r->sources ? el_sources_find(r->sources, abs_path) : -1;
    if (k >= 0)
        return el_utf8_clean(r->sources->v[k].display);
    char *d = el_path_display(abs_path);
    char *c = el_utf8_clean(d);
    free(d);
    return c;
}

el_counts el_report_count(const el_findings *f)
{
    el_counts c = {0, 0, 0};
    for (size_t i = 0; i < f->n; i++) {
        switch (f->v[i].severity) {
        case EL_SEV_ERROR:
            c.errors++;
            break;
        case EL_SEV_WARNING:
            c.warnings++;
            break;
        default:
            c.notes++;
            break;
        }
    }
    return c;
}

size_t *el_report_by_rule(const el_findings *f)
{
    size_t *counts = el_xcalloc(el_meta_count() + 1, sizeof *counts);
    for (size_t i = 0; i < f->n; i++) {
        int k = el_meta_index(f->v[i].rule);
        if (k >= 0)
            counts[k]++;
    }
    return counts;
}

char *el_doc_first_paragraph(const char *doc)
{
    if (!doc)
        return NULL;
    const char *p = doc;
    el_buf b = {0};
    /* Skip the title and metadata lines ("# ...", "**Severity**..."), then
     * take lines up to the next blank line. */
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        bool blank = len == 0;
        bool skip = blank || p[0] == '#' || (len > 2 && p[0] == '*' && p[1] == '*') || p[0] == '|';
        if (!skip) {
            while (*p) {
                eol = strchr(p, '\n');
                len = eol ? (size_t)(eol - p) : strlen(p);
                if (len == 0)
                    break;
                if (b.n)
                    el_buf_putc(&b, ' ');
                el_buf_putn(&b, p, len);
                p = eol ? eol + 1 : p + len;
            }
            break;
        }
        p = eol ? eol + 1 : p + len;
    }
    return b.n ? el_buf_take(&b) : (el_buf_free(&b), NULL);
}
