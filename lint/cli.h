/* lint/cli.h -- command-line options (docs/emberlint.md has the manual). */
#ifndef EL_CLI_H
#define EL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "finding.h"
#include "report.h"

typedef struct el_cli {
    char **paths;             /* PATH... (pointers into argv) */
    size_t n_paths;
    char **extra;             /* --extra-arg ARGs, then those after `--` */
    size_t n_extra;
    const char *build_dir;    /* -p */
    int jobs;                 /* -j; 0: number of cores */
    el_format format;
    const char *output;       /* -o; NULL: stdout */
    char *select;             /* --select lists, comma-joined; NULL: all */
    char *ignore;             /* --ignore lists, comma-joined */
    el_severity fail_on;      /* --fail-on (default warning) */
    int color;                /* --color: -1 auto, 0 never, 1 always */
    const char *explain;      /* --explain ID */
    const char *cache_dir;    /* --cache-dir (default .emberlint-cache) */
    const char *config;       /* --config FILE */
    const char *show_config;  /* --show-config FILE */
    size_t max_file_size;     /* --max-file-size */
    bool list_rules, statistics, no_cache, no_pch, all_bodies, version, help, verbose;
    bool fix;                 /* --fix: apply the safe fixes */
    bool diff;                /* --diff: print the fixes as a diff, write nothing */
    bool unsafe_fixes;        /* --unsafe-fixes: the unsafe ones too */
    const char *baseline;       /* --baseline FILE: report only findings not in it */
    const char *write_baseline; /* --write-baseline FILE: record the findings */
    const char *diff_base;      /* --diff-base REV: only lines changed since */
    unsigned shard_index;       /* --shard K/N: index K-1 ... */
    unsigned shard_count;       /* ... count N (0: no --shard) */
    bool merge;                 /* `emberlint merge REPORT...`: paths are shard reports */
} el_cli;

/* Parse argv; 0, or -1 with *err set (a usage error). */
int el_cli_parse(int argc, char **argv, el_cli *out, char **err);
void el_cli_free(el_cli *c);
void el_cli_usage(FILE *f);
/* selected[k] for every metadata index from --select/--ignore; -1 with
 * *err when a list names no rule. */
int el_cli_selection(const el_cli *c, bool *selected, char **err);

#endif
