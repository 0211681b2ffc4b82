/* lint/report/report.h -- output formats: text, json, sarif, github.  Every
 * format prints the same findings in the same order; paths are relative
 * to the current directory when possible, and all text is cleaned to
 * valid UTF-8 without control characters. */
#ifndef EL_REPORT_H
#define EL_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "finding.h"
#include "sources.h"

typedef enum el_format {
    EL_FORMAT_TEXT,
    EL_FORMAT_JSON,
    EL_FORMAT_SARIF,
    EL_FORMAT_GITHUB
} el_format;

typedef struct el_output {
    const el_findings *findings;
    const el_sources *sources;
    bool color;               /* text: ANSI colours */
    bool statistics;          /* text: counts per rule after the findings */
    bool fixes;               /* the run kept fixes (want_fixes): "fixable" means
                               * this finding carries one, not that its rule can */
    char *const *fingerprints; /* one per finding (fingerprint.h), computed over
                                * every finding before --baseline and --diff-base
                                * left some out; NULL: computed here */
    json_object *shard;       /* a shard's payload (shard.h) for json and sarif, or NULL */
} el_output;

typedef struct el_counts {
    size_t errors, warnings, notes;
} el_counts;

/* 0, or -1 when writing failed. */
int el_report_text(FILE *out, const el_output *r);
int el_report_json(FILE *out, const el_output *r);
int el_report_sarif(FILE *out, const el_output *r);
int el_report_github(FILE *out, const el_output *r);

/* Shared by the formats (report.c). */
/* How a finding's file is shown (a new, cleaned string). */
char *el_report_path(const el_output *r, const char *abs_path);
el_counts el_report_count(const el_findings *f);
/* Findings per rule: counts[k] for metadata index k (caller frees). */
size_t *el_report_by_rule(const el_findings *f);
/* The docs page's first paragraph after its title (a new string), or NULL. */
char *el_doc_first_paragraph(const char *doc);

#endif
