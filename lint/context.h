/* lint/context.h -- the insides of el_ctx and el_project, shared by the
 * engine (which fills them) and rule_api.c (which answers rules' queries).
 * Rules never include this: they use rule.h. */
#ifndef EL_CONTEXT_H
#define EL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <clang-c/Index.h>

#include "finding.h"
#include "rule.h"
#include "sources.h"

/* A file of the TU, resolved once. */
typedef struct el_file_slot {
    CXFile file;
    char *path;           /* real path, or NULL (built-in buffers) */
    long source;          /* index in the sources, -1 when not linted */
} el_file_slot;

/* A rule running on this TU. */
typedef struct el_active_rule {
    const el_rule *rule;
    int meta;             /* metadata index */
    void *state;
} el_active_rule;

struct el_ctx {
    CXTranslationUnit tu;
    const el_source *main;
    const el_sources *sources;
    el_tu_result *result;

    el_file_slot *files;
    size_t n_files, cap_files;
    size_t last_slot;

    CXCursor *stack;      /* ancestors of the cursor being visited */
    unsigned depth;
    size_t cap_stack;

    el_active_rule *rules;
    size_t n_rules;
    size_t current;       /* the rule whose hook runs */
};

struct el_project {
    const el_sources *sources;
    const el_fact_rec **facts;
    size_t n_facts;
    el_findings *out;
    int current_meta;
};

/* The slot of a file of ctx's TU (never NULL). */
el_file_slot *el_ctx_slot(el_ctx *ctx, CXFile file);
/* Add a finding of rule `meta` at path (real) if that file is linted, the
 * rule is enabled there and applies to its class. */
void el_add_finding(const el_sources *sources, int meta, const char *path, unsigned line,
                    unsigned col, const char *message, el_findings *out);

#endif
