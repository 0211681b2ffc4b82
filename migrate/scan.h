/* migrate/scan.h -- what ember-migrate knows about a tree, read through
 * the linter's engine (lint/engine/engine.h: the same file walking,
 * configuration, compile flags and libclang parsing as emberlint).
 *
 * One engine run with rules EH101, EH102, EH103 and EH104 selected (their
 * findings, with fixes, are the call/include/branch rewrites and the
 * "backend code outside backends/" list) plus ember-migrate's own scanner
 * rule (an extra_rules entry that records facts), turned into the plain
 * model below.  Everything that is a byte range is an offset into the
 * content the file had when it was parsed; `hash` of that content lets
 * the changeset refuse files that changed since.
 *
 * Amended by helper "scan" (for helper "plan"):
 *   - em_def.dest: for backend code outside backends/ (backend set, not
 *     in_backends), where it moves (absolute): backends/<b>/<file name>
 *     next to the legacy directory (app/ops/blas/x.c -> app/backends/blas/x.c),
 *     else in the tree's existing backends/<b>/ nearest to it, else
 *     backends/<b>/ beside the file.  NULL for everything else.  analyze
 *     shows it; moves.c should use it so both agree;
 *   - em_def.local_deps: the definition references a type, enum constant
 *     or macro defined in its own file (not a movable definition): moving
 *     it alone would break it, so treat it as manual work;
 *   - em_table.var: the table variable's name (NULL for kernels.def);
 *   - em_table.functions[op] is "" when an eh_backend entry is not a plain
 *     function name (a cast expression...), NULL when not implemented;
 *   - the caller must have called el_path_init(), el_meta_init() and
 *     el_knowledge_init() (migrate/main.c does) before em_scan;
 *   - em_tree.backends: backends present in the scanned tree (a file under
 *     backends/<name>/ or a legacy directory, a table, a kernels.def, an
 *     eh_<backend>_<op> definition), not every configured name;
 *   - em_def.backend/op: "blas"/"matmul" from the name eh_blas_matmul (the
 *     configuration's backend_prefixes pattern); for a definition in a
 *     legacy directory with no such name, backend is the directory's.
 * The fact format of the scanner rule: migrate/scan_rule.c. */
#ifndef EM_SCAN_H
#define EM_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "bounds.h"
#include "buildcfg.h"
#include "compdb.h"
#include "finding.h"
#include "hash.h"
#include "inactive.h"
#include "sources.h"
#include "strmap.h"

/* A top-level definition (function, or file-scope variable) in a file
 * that ember-migrate may move, or that a moved definition needs. */
typedef struct em_def {
    char *path;              /* absolute, real */
    char *name;              /* "eh_blas_matmul", "pack_panel" */
    char backend[64];        /* "blas" when the name is eh_<backend>_..., else "" */
    char op[64];             /* "matmul" when the name is eh_<backend>_<op> of libeh/ops.def, else "" */
    bool is_function;        /* false: a variable */
    bool is_static;          /* internal linkage (a helper) */
    bool is_const;           /* a variable nothing writes (const, or array of const) */
    bool is_kernel;          /* signature eh_status (const eh_op_call *) */
    bool in_backends;        /* under a backend directory (backends/<name>/) */
    bool in_macro;           /* comes from a macro expansion: never moved */
    unsigned line;           /* of the name */
    size_t begin, end;       /* the whole definition, with its leading comment
                                and the rest of its last line (newline included) */
    char **uses;             /* names of file-scope statics of the same file it references */
    size_t n_uses;
    char **needs;            /* absolute paths of the files declaring what it references */
    size_t n_needs;
    bool local_deps;         /* references a type, constant or macro of its own file */
    char **locals;           /* ... their names */
    size_t n_locals;
    char **calls;            /* the functions it refers to, by name */
    size_t n_calls;
    char *signature;         /* eh_<b>_<op> whose type is not eh_<op>'s: why ("its
                                signature '...' differs from eh_op's '...'"), else NULL */
    char *dest;              /* backend code outside backends/: where it moves (absolute) */
} em_def;

/* Why a use of a backend function EH102 reports has no rewrite. */
typedef struct em_why {
    char *path;
    unsigned line, col;      /* the finding's place */
    char *why;               /* "" when it has a rewrite */
    char *decl;              /* the file declaring the function it names, or NULL */
    char *name;              /* the symbol it is about, or NULL (a configuration's
                                reason, a skipped site's) */
    size_t next;             /* the next reason at the same place: its index + 1, or 0 */
} em_why;

/* An #include directive of a linted file. */
typedef struct em_include {
    bool skipped;            /* in code no configuration compiles (found by lexing:
                                re-spelled when its header moves, never copied) */
    char *path;              /* the including file, absolute */
    char *spelled;           /* as written, without delimiters: "ops/blas/blas_ops.h" */
    bool angled;             /* <...> rather than "..." */
    char *resolved;          /* absolute path it resolves to, or NULL */
    unsigned line;
    size_t begin, end;       /* the directive's whole line, newline included */
} em_include;

/* A registration table: which ops a backend directory implements. */
typedef enum em_table_kind {
    EM_TABLE_EH_BACKEND,     /* a `const eh_backend` initializer (libeh's backends) */
    EM_TABLE_KERNELS_DEF     /* backends/<name>/kernels.def: EH_KERNEL(op, function) lines */
} em_table_kind;

typedef struct em_table {
    em_table_kind kind;
    char *path;              /* absolute */
    unsigned line;
    char backend[64];
    char *var;               /* the table variable ("eh_blas_backend"); NULL for kernels.def */
    bool *implemented;       /* per op of el_op_*() (lint/engine/rule.h) */
    char **functions;        /* per op: the function registered, or NULL */
} em_table;

/* A file the scan looked at. */
typedef struct em_file {
    char *path;              /* absolute, real */
    char *display;           /* relative to the current directory */
    el_hash128 hash;         /* content hash at parse time */
    bool parse_error;        /* EH000 */
    char backend[64];        /* "" unless under backends/<name>/ */
    char legacy_backend[64]; /* "blas" for a legacy directory ops/blas/ (configuration) */
    char *root;              /* the directory whose backends/ this file's backend
                                code moves into (app for app/ops/blas/x.c; else
                                the tree's root) */
} em_file;

typedef struct em_reach_memo em_reach_memo; /* em_tree_reaches' answers (scan.c) */

typedef struct em_tree {
    em_file *files;     size_t n_files;     /* sorted by path */
    em_def *defs;       size_t n_defs;      /* by file, then offset */
    em_include *incs;   size_t n_incs;      /* by file, then offset */
    em_table *tables;   size_t n_tables;
    el_findings findings;                   /* EH000 and EH101-EH104, with fixes; and the
                                               backend names and includes of code the
                                               preprocessor skips in every configuration */
    em_why *whys;       size_t n_whys, cap_whys; /* the reasons of sites without a fix */
    em_reach_memo *reach;                   /* made by the scan: the planner asks
                                               em_tree_reaches of every site */
    el_strmap why_places;                   /* "line:col:path" -> the first reason there
                                               (its index + 1): a file of thousands of
                                               sites made a search of the list quadratic */
    el_strmap site_configs;                 /* a finding's site (site_key in scan.c) ->
                                               the configurations that report it, a
                                               string of cfgs.n '0'/'1' (malloc'd) */
    char **backends;    size_t n_backends;  /* known backend names, sorted */
    char *root;         /* where backends/ is for files outside legacy directories:
                           the first legacy application's root, else the directory
                           holding the tree's backends/, else the tree's first root */
    /* what the scan read the tree with, for verifying changes */
    el_sources sources;                     /* the files scanned */
    el_compdb *db;                          /* -p, or NULL */
    el_buildcfgs cfgs;                      /* the build configurations (buildcfg.h) */
    el_inactive *inactive;                  /* per configuration: what it skipped */
    el_bounds bounds;                       /* the tree given: never written outside */
    struct el_configs *configs;             /* the sources' configurations */
    struct em_custom_scan *custom;          /* backend functions with no op
                                               (custom_scan.h), when custom_ns is set */
} em_tree;

typedef struct em_scan_opts {
    char *const *paths;      /* PATH... arguments */
    size_t n_paths;
    const char *compdb_dir;  /* -p BUILD_DIR, or NULL */
    char *const *extra_args; /* after `--` */
    size_t n_extra;
    int jobs;
    const char *define_sets; /* --define-sets, or NULL */
    bool recover;            /* resolve an interrupted apply first (else: refuse) */
    bool verbose;            /* -v: notes (compiler arguments dropped) */
    bool quiet;              /* -q: not the note on C++ files a walk passed over */
    bool refuse_missing;     /* apply: a file the -p database lists under the
                                PATHs (all of them without PATH) that does not exist
                                is an error (the others would be changed without
                                it), not a warning */
    const char *custom_ns;   /* --namespace: backend functions with no op become
                                custom ops of this namespace (custom_ops.h); NULL: not */
    /* analyze --shard K/N (lint/engine/shard.h): scan only this shard's
     * translation units (shard_count 0: all) and set *shard_payload (the
     * caller frees it) for the report, so that `ember-migrate merge`
     * can join the shards. */
    unsigned shard_index, shard_count;
    struct json_object **shard_payload;
    /* ember-migrate merge: the payloads of every shard (whats: their
     * files, for messages); the tree is walked again but nothing is
     * parsed.  n_merge 0: a normal scan. */
    struct json_object *const *merge_payloads;
    const char *const *merge_whats;
    size_t n_merge;
} em_scan_opts;

/* Scan the tree, once per build configuration (buildcfg.h): findings
 * from every configuration, kept once (a fix two configurations disagree
 * on is dropped: the site is left for a person), the facts of all.
 * 0 on success; -1 on a usage, configuration or I/O
 * problem with *err set (malloc'd, one line, no "ember-migrate: " prefix). */
int em_scan(const em_scan_opts *o, em_tree *out, char **err);
/* Lookups. */
const em_file *em_tree_file(const em_tree *t, const char *path);
/* Why the EH102 site at file:line:col that names `name` (NULL: any) has
 * no rewrite, or NULL. */
const char *em_tree_why(const em_tree *t, const char *path, unsigned line, unsigned col,
                        const char *name);
/* The build configurations that report finding f (of t->findings): a
 * string of t->cfgs.n characters, '1' where configuration k reports it
 * (under the name f quotes), else '0'; NULL when the scan did not record
 * it (a site of code every configuration skips, a run of one
 * configuration). */
const char *em_tree_site_configs(const em_tree *t, const el_finding *f);
/* How configuration k is named in a message about the file at path
 * (el_buildcfg_name of its source; of the first source configuration k
 * compiles when not its), malloc'd. */
char *em_tree_config_name(const em_tree *t, const char *path, size_t k);
/* Does configuration k compile the scanned file at path (false for a
 * file that is no scanned source)? */
bool em_tree_config_compiles(const em_tree *t, const char *path, size_t k);
/* The file declaring the backend function the site names, or NULL. */
const char *em_tree_decl(const em_tree *t, const char *path, unsigned line, unsigned col);
/* Is file `to` file `from`, or reached from it through the tree's
 * includes (33 at most, one after another)? */
bool em_tree_reaches(const em_tree *t, const char *from, const char *to);
/* The same through the includes `through` accepts (with arg), each
 * answer worked out again. */
typedef bool (*em_include_filter)(const em_include *x, void *arg);
bool em_tree_reaches_through(const em_tree *t, const char *from, const char *to,
                             em_include_filter through, void *arg);
/* The includes em_tree_reaches has looked at, all calls together: each
 * question looks at each include once at most -- tests check it stays so
 * (a walk of every path was exponential in the include graph's diamonds). */
extern size_t em_reach_steps;
/* The scanned source of path, or NULL. */
const el_source *em_tree_source(const em_tree *t, const char *path);
/* Is [off, off] of path skipped by the preprocessor in every build
 * configuration that compiles the file, by every TU that reads it?  The
 * range of the first configuration when so. */
const el_inactive_range *em_tree_skipped_everywhere(const em_tree *t, const char *path,
                                                     size_t off);
/* <root>/backends/<backend>/<path's file name>: where backend code of
 * `path` moves (malloc'd). */
char *em_dest_path(const char *root, const char *backend, const char *path);
/* The name a finding quotes first (the backend function of an EH102
 * site, even when a macro is written there) into buf; false when its
 * message quotes none. */
bool em_finding_name(const el_finding *f, char *buf, size_t n);
void em_tree_free(em_tree *t);

#endif
