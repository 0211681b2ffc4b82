/* lint/engine/context.h -- the insides of el_ctx and el_project, shared by the
 * engine (which fills them) and rule_api.c (which answers rules' queries).
 * Rules never include this: they use rule.h. */
#ifndef EL_CONTEXT_H
#define EL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "clang_util.h"
#include "file_offsets.h"
#include "finding.h"
#include "rule.h"
#include "skipped_bodies.h"
#include "sources.h"

/* A file of the TU, resolved once. */
typedef struct el_file_slot {
    CXFile file;
    char *path;           /* real path, or NULL (built-in buffers) */
    long source;          /* index in the sources, -1 when not linted */
    const char *text;     /* what libclang parsed (el_file_text), once asked */
    size_t size;
    bool have_text;
    bool range_tried;     /* not linted: its offset range was looked for (file_offsets.h) */
} el_file_slot;

/* A rule running on this TU. */
typedef struct el_active_rule {
    const el_rule *rule;
    int meta;             /* metadata index; -1 for an extra rule (reports nothing) */
    void *state;
} el_active_rule;

struct el_ctx {
    CXTranslationUnit tu;
    const el_source *main;
    const el_sources *sources;
    el_tu_result *result;

    el_file_slot *files;
    size_t n_files, cap_files;
    /* each file's slot + 1 by its CXFile, open addressing (cap_file_index
     * a power of two, at most half full) */
    size_t *file_index;
    size_t cap_file_index;
    /* every file the TU read, in inclusion order, the main file first */
    const CXFile *tu_files;
    size_t n_tu_files;
    /* those of them the TU entered more than once (templates) */
    const CXFile *tu_again;
    size_t n_tu_again;
    size_t last_slot;

    /* The location of the cursor being visited and its expansion file:
     * rules ask for the file of that location again and again. */
    CXSourceLocation here;
    CXFile here_file;
    CXCursor here_cursor; /* the cursor visited last, at `here` */
    signed char here_definition; /* clang_isCursorDefinition(here_cursor), -1 not asked yet */
    signed char here_skipped;    /* el_skipped_body(here_cursor), -1 not asked yet */
    const char *here_body;       /* its body's text then */
    size_t here_body_len;
    /* the linted files' offset ranges: most locations' file without
     * asking libclang (file_offsets.h) */
    el_file_offsets offsets;
    CXCursor *stack;      /* ancestors of the cursor being visited */
    unsigned depth;
    size_t cap_stack;

    el_active_rule *rules;
    size_t n_rules;
    size_t current;       /* the rule whose hook runs */

    /* Fixes (el_fix_*): kept only when the run wants them. */
    bool want_fixes;
    long last_finding;    /* index in result->findings reported by the current
                           * hook call, -1 when none (or it was dropped) */
    bool fix_open;        /* el_fix_begin succeeded and no replacement failed */
    /* The TU includes <eh/eh.h> (el_uses_libeh): 0 unknown, 1 yes, 2 no. */
    unsigned char uses_libeh;
    /* The TU's macro expansions: fixes never edit inside them (libclang
     * gives a token from a macro body the location of the whole
     * expansion, so locations alone cannot tell), and elc_in_macro reads
     * them.  Set by the engine once the TU is parsed. */
    elc_macro_spans *macro_spans;
    /* The functions whose bodies a parse without them skipped, from
     * libclang's indexer: asked once a TU, when a macro's use leaves it
     * open which of the functions it writes are definitions. */
    el_skipped_bodies *skipped_bodies;
    bool skipped_bodies_asked;
};

struct el_project {
    const el_sources *sources;
    const el_fact_rec **facts;
    size_t n_facts;
    el_findings *out;
    int current_meta;
    /* the TU (index in the run's results) whose fact facts[i] is */
    size_t *fact_tu;
    /* the TU of each finding of out (EL_TU_UNKNOWN: none in particular):
     * el_project_report_for's fact's, for el_findings_one_per_place_across */
    size_t *origin;
    size_t n_origin, cap_origin;
    /* facts the hooks add (el_project_fact_add), for opts.facts_out */
    el_fact_rec *added;
    size_t n_added, cap_added;
};

/* Before each hook call: `rule` (index in rules) runs now; a fix can only
 * attach to a finding of this call. */
static inline void el_ctx_enter(el_ctx *ctx, size_t rule)
{
    ctx->current = rule;
    ctx->last_finding = -1;
    ctx->fix_open = false;
}

/* Rule `meta` is enabled in src's configuration and applies to its class. */
bool el_rule_applies(const el_source *src, int meta);
/* The slot of a file of ctx's TU (never NULL). */
el_file_slot *el_ctx_slot(el_ctx *ctx, CXFile file);
/* Add a finding of rule `meta` at path (real) if that file is linted, the
 * rule is enabled there and applies to its class (never for meta < 0).
 * True when it was added (at the end of out). */
bool el_add_finding(const el_sources *sources, int meta, const char *path, unsigned line,
                    unsigned col, const char *message, el_findings *out);

#endif
