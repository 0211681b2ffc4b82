/* lint/engine/engine.h -- parsing and walking translation units, running the
 * rules, in parallel, with the cache.
 *
 * Phase 1 lints every .c source (one TU each).  Phase 2 lints, as TUs of
 * their own, the .h sources no phase-1 TU included; a header a .c
 * includes is linted through that .c, and its findings are reported once,
 * at the header.  Then the project hooks run, suppressions apply, and the
 * findings come out sorted by file, line, column and rule -- the same
 * whatever the number of workers. */
#ifndef EL_ENGINE_H
#define EL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "compdb.h"
#include "filehash.h"
#include "finding.h"
#include "rule.h"
#include "sources.h"
#include "unbuilt.h"

/* The fact the engine records for an #include that was not found (value:
 * the name as written); the run prints one note about them on stderr. */
#define EL_FACT_MISSING_INCLUDE "el.missing-include"
/* The same fact, once more, when the TU was parsed as C: only then is a
 * C++ header's absence (<cmath>) the sign of C++ code parsed as C. */
#define EL_FACT_MISSING_INCLUDE_IN_C "el.missing-include-in-c"
/* The fact the engine records for a linted file the TU included more than
 * once (a template per element type): the run's findings there are one
 * per rule and place (el_findings_one_per_place). */
#define EL_FACT_INCLUDED_AGAIN "el.included-again"

typedef struct el_engine_opts {
    int jobs;                   /* workers, >= 1 */
    const char *cache_dir;      /* NULL: no cache */
    char *const *extra_args;    /* after `--` */
    size_t n_extra;
    const el_compdb *compdb;    /* NULL: default flags */
    const bool *selected;       /* per metadata index: --select/--ignore */
    bool progress;              /* progress line on stderr */
    /* Parse every TU's headers itself: no PCH of the system headers files
     * start with, shared among them (prefix_pch.h; --no-pch).  With
     * want_fixes and not cache_fixes there is none either. */
    bool no_prefix_pch;
    /* Parse every function body: no backend or core TU is parsed without
     * them where no rule reads them (el_rule.needs_no_bodies;
     * --all-bodies), so EH000 sees errors inside them too. */
    bool all_bodies;
    bool verbose;               /* notes on stderr (compiler arguments dropped) */
    const char *done, *to_do;   /* what the notes say the run does with code:
                                 * EL_LINTED, EL_LINT (NULL), ember-migrate's
                                 * "scanned", "scan" */
    /* Keep the fixes rules attach to findings (emberlint --fix,
     * ember-migrate).  Fixes are not cached: with this set the cache is
     * neither read nor written. */
    bool want_fixes;
    /* With want_fixes: use the cache all the same, the fixes stored with
     * the findings (a report that shows fixes: SARIF, a shard's report).
     * --fix and ember-migrate leave it off and always parse afresh. */
    bool cache_fixes;
    /* Rules run in addition to the registry's, whatever --select says
     * (ember-migrate's scanner: it records facts).  NULL-terminated; NULL
     * for none.  They need no metadata and report nothing. */
    const el_rule *const *extra_rules;
    /* When not NULL, receives every fact of every TU and of the project
     * hooks' input (file order, then emission order). */
    struct el_fact_list *facts_out;
    /* When not NULL, receives (TU main file, linted header it includes)
     * pairs, in job order (emberlint --fix re-parses a changed header
     * through the .c files that include it). */
    struct el_include_list *includes_out;
    /* --shard K/N (shard.h): lint only the translation units of shard
     * `shard_index` (0-based) of `shard_count`; 0 or 1: all of them.  A
     * .c file belongs to the shard its path selects; a header no .c of
     * this shard includes gets a TU of its own when its path selects this
     * shard (a merge keeps it only when no .c anywhere included it). */
    unsigned shard_index, shard_count;
    /* When not NULL, receives a copy of every TU's own result (findings
     * before the project hooks and suppressions, facts, the linted files
     * it read), in job order: what a shard's report carries. */
    struct el_tu_records *tus_out;
    /* When not NULL (and the run is not a shard's), receives the files
     * the run leaves out as not built instead of the note on stderr: the
     * caller notes them once for several runs (ember-migrate's build
     * configurations). */
    struct el_unbuilt *unbuilt_out;
    /* el_engine_finish of a merge: the shards ran with a compile database
     * (-p), which the merge does not load; the notes say what is missing
     * with the build's flags, not that flags are missing. */
    bool shards_had_compdb;
    /* When not NULL, the notes a caller's earlier runs printed (the
     * note on includes not found): one printed already is not printed
     * again (ember-migrate's build configurations miss the same
     * includes); the caller frees it. */
    struct el_strmap *notes_printed;
} el_engine_opts;

/* One translation unit's result (opts.tus_out, el_engine_finish). */
typedef struct el_tu_record {
    size_t src;               /* index into the sources: its main file */
    bool standalone;          /* a header linted on its own (phase 2) */
    el_tu_result result;      /* deps: the linted files it read (hash unused) */
} el_tu_record;

typedef struct el_tu_records {
    el_tu_record *v;
    size_t n, cap;
    /* A shard's: those of its part that none of its TUs read (a TU of
     * another shard may have); the notes wait for the merge.  A merge's:
     * those no TU of any shard read.  A run over everything prints its
     * notes itself. */
    el_unbuilt unbuilt;
} el_tu_records;
void el_tu_records_free(el_tu_records *t);

/* Which of n TUs (main files mains[], results res[], standalone[]: a
 * header linted on its own) to leave out because another TU that is not
 * standalone read their main file (unless each read the other's): a
 * header's own TU, and a .c file's that does not parse alone (EH000 at
 * it: a template like liquid-dsp's *.proto.c).  A .c file that parses
 * alone keeps its TU: the includer may see other code (a unit test's
 * #define UNIT_TEST).  A new array of n flags (free it); a run and a
 * merge of its shards leave out the same. */
bool *el_tus_read_elsewhere(const char *const *mains, el_tu_result *const *res,
                            const bool *standalone, size_t n);

/* Facts handed out by el_engine_run (opts.facts_out). */
typedef struct el_fact_list {
    el_fact_rec *v;
    size_t n, cap;
} el_fact_list;
void el_fact_list_free(el_fact_list *l);

/* opts.includes_out. */
typedef struct el_include_list {
    struct el_include_pair {
        char *tu;         /* main file of a TU (absolute, real) */
        char *header;     /* a linted header it read */
    } *v;
    size_t n, cap;
} el_include_list;
void el_include_list_free(el_include_list *l);

typedef struct el_engine_stats {
    size_t tus;                 /* translation units linted */
    size_t cached;              /* of which answered by the cache */
    size_t prefixed;            /* of which parsed with a shared prefix PCH */
    size_t parsed_again;        /* parsed with one, then again without: a rule read them whole */
    size_t bodiless;            /* parsed without function bodies (el_rule.needs_no_bodies) */
    size_t bodies_again;        /* of which parsed again with them: a rule needed one */
    size_t pchs;                /* prefix PCHs built (prefix_pch.h) */
    size_t macro_table_walks;   /* macro tables read in a walk of their own, not fed by
                                 * the engine's (elc_macro_spans_table_walks) */
} el_engine_stats;

/* Lint the sources; findings into out (sorted, unique, suppressions
 * applied).  Problems with the cache are warnings, never fatal. */
void el_engine_run(const el_engine_opts *o, el_sources *sources, el_filehash *hashes,
                   el_findings *out, el_engine_stats *stats);
/* What el_engine_run does after the TUs, on TU records gathered
 * elsewhere (the shards of a run, emberlint merge): the project hooks,
 * suppressions and sorting, as if one run had linted them in this order
 * (.c files in source order, then headers).  Uses o->selected,
 * o->extra_rules and o->facts_out; the records' findings are moved out. */
void el_engine_finish(const el_engine_opts *o, el_sources *sources, el_tu_records *recs,
                      el_findings *out);

#endif
