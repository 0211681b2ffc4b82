/* lint/deliver.c -- gate, report, exit status (deliver.h). */
#include "deliver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fingerprint.h"
#include "report.h"

FILE *el_open_output(const el_cli *c)
{
    FILE *out = c->output ? fopen(c->output, "w") : stdout;
    if (!out)
        fprintf(stderr, "emberlint: %s: cannot write: %s\n", c->output, strerror(errno));
    return out;
}

int el_close_output(const el_cli *c, FILE *out, int wr)
{
    if (out != stdout && fclose(out) != 0)
        wr = -1;
    if (wr < 0)
        fprintf(stderr, "emberlint: %s: write error\n", c->output ? c->output : "standard output");
    return wr;
}

bool el_want_color(const el_cli *c, FILE *out)
{
    if (c->color >= 0)
        return c->color == 1;
    const char *nc = getenv("NO_COLOR");
    if (nc && nc[0])
        return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return false;
    return isatty(fileno(out));
}

/* The report; -1 on a write error (printed). */
static int report(const el_cli *c, const el_output *rep)
{
    FILE *out = el_open_output(c);
    if (!out)
        return -1;
    el_output r = *rep;
    r.color = el_want_color(c, out);
    int wr;
    switch (c->format) {
    case EL_FORMAT_JSON:
        wr = el_report_json(out, &r);
        break;
    case EL_FORMAT_SARIF:
        wr = el_report_sarif(out, &r);
        break;
    case EL_FORMAT_GITHUB:
        wr = el_report_github(out, &r);
        break;
    default:
        wr = el_report_text(out, &r);
        break;
    }
    return el_close_output(c, out, wr);
}

int el_deliver(const el_cli *c, el_gate *g, el_findings *f, const el_sources *s, bool with_fixes,
               json_object *shard, bool trouble)
{
    char **fps = NULL, *err = NULL;
    int rc = 0;
    if (el_gate_apply(g, f, s, &fps, &err) < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        el_fingerprints_free(fps, f->n);
        return EL_EXIT_TROUBLE;
    }
    if (c->write_baseline) {
        el_fingerprints_free(fps, f->n);
        return trouble ? EL_EXIT_TROUBLE : 0;
    }
    el_output rep = {.findings = f, .sources = s, .statistics = c->statistics, .fixes = with_fixes,
                     .fingerprints = fps, .shard = shard};
    if (report(c, &rep) < 0 || trouble) {
        rc = EL_EXIT_TROUBLE;
    } else {
        for (size_t i = 0; i < f->n; i++)
            if (f->v[i].severity >= c->fail_on)
                rc = EL_EXIT_FINDINGS;
    }
    el_fingerprints_free(fps, f->n);
    return rc;
}
