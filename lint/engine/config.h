/* lint/engine/config.h -- configuration: the built-in default
 * (rules/default.json, rules/host_access.json, rules/symbols.json and
 * rules/rewrites.json, embedded) under the project's .emberlint.json
 * files.  A file inherits the configuration of the directory above it
 * (the nearest .emberlint.json further up, else the built-in) unless it
 * says "root": true, when it sits directly on the built-in.  List keys
 * add to what is inherited (or add/remove/replace), maps merge by name,
 * rule settings override field by field.  Every value remembers where it
 * came from (--show-config).  docs/emberlint.md documents the keys. */
#ifndef EL_CONFIG_H
#define EL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "finding.h"
#include "hash.h"
#include "prefix_index.h"
#include "rule.h"

/* Where a value came from. */
typedef struct el_origin {
    const char *file;        /* the .emberlint.json (absolute), or the built-in
                                file ("rules/default.json") when builtin */
    const char *root;        /* its directory: path patterns are relative to it */
    unsigned line, col;
    bool builtin;
} el_origin;

typedef struct el_strlist {
    char **v;
    el_origin *from;
    size_t n, cap;
    /* how many entries hold each string, once the list is long (config.c's
     * list_add: the built-in lists have hundreds of entries) */
    struct el_strmap *count;
} el_strlist;

/* One entry of a map key ("replacements", "copy_out", ...). */
typedef struct el_kv {
    char *key;
    char *text;              /* replacements: the replacement */
    int a, b;                /* copy_out: buffer; to_tensor: data; host_copies: dest, src */
    el_origin from;
} el_kv;

typedef struct el_kvlist {
    el_kv *v;
    size_t n, cap;
} el_kvlist;

/* The list keys, in the order they are documented. */
typedef enum el_list_key {
    EL_BACKEND_DIRS,
    EL_CORE_PATHS,
    EL_EXCLUDE,
    EL_BACKENDS,
    EL_BACKEND_HEADERS,
    EL_VENDOR_HEADERS,
    EL_BACKEND_PREFIXES,
    EL_BACKEND_MACROS,
    EL_LEGACY_BACKEND_DIRS,
    EL_LANGUAGES,
    EL_STORAGE_ACCESSORS,
    EL_SCALAR_READS,
    EL_KERNEL_REGISTRARS,
    EL_DEFINE_SETS,
    EL_N_LIST_KEYS
} el_list_key;

/* The map keys. */
typedef enum el_map_key {
    EL_REPLACEMENTS,
    EL_COPY_OUT,
    EL_TO_TENSOR,
    EL_HOST_COPIES,
    EL_N_MAP_KEYS
} el_map_key;

/* A call template ("rewrites": rules/rewrites.json and a project's
 * .emberlint.json): calls of `function` become `replacement`, in which
 * $1, $2, ... (every digit: $10 is the tenth argument) stand for the
 * original arguments' source text, $* for all of them and $$ for a '$'
 * (lint/change/rewrite.h applies it). */
typedef struct el_rewrite_rule {
    char *function;          /* "legacy_gemm" */
    char *replacement;       /* "eh_matmul($1, $2)" */
    el_fix_safety safety;    /* SAFE or UNSAFE (the default) */
    char *note;              /* may be NULL */
    el_origin from;
} el_rewrite_rule;

typedef struct el_rule_setting {
    bool enabled;
    el_severity severity;
    unsigned applies;        /* EL_APPLIES_* bits (metadata.h) */
    json_object *options;    /* owned reference, or NULL: every option key
                                merged (the rule's defaults, then each file's) */
    el_origin from;          /* of enabled/severity (builtin: the metadata) */
    el_origin applies_from;
    el_strlist option_from;  /* option keys (v) and where each was set */
} el_rule_setting;

struct el_config {
    char *path;              /* the .emberlint.json, NULL for the built-in */
    char *root;              /* its directory (the built-in's: the current one) */
    char *project_root;      /* the directory of the outermost .emberlint.json of
                                the chain, NULL for the built-in */
    const el_config *parent; /* what it inherits, NULL for the built-in */
    el_strlist lists[EL_N_LIST_KEYS];
    /* "define_sets" is lists[EL_DEFINE_SETS]: build configurations to check
       changes in (lint/change/buildcfg.h): "USE_BLAS=1,!USE_FFT" */
    el_strlist prefixes;     /* backend_prefixes with <backend> expanded */
    el_prefix_index prefix_index; /* of prefixes and backend_prefixes; set by finalize */
    el_strlist backend_files; /* "backend_files": "NAME:PATTERN" entries */
    el_kvlist maps[EL_N_MAP_KEYS];
    char *frontend_include;  /* "eh/eh.h"; "" for none */
    el_origin frontend_include_from;
    el_rule_setting *rules;  /* el_meta_count() entries */
    el_rewrite_rule *rewrites; /* rules/rewrites.json, then each file's "rewrites" */
    size_t n_rewrites, cap_rewrites;
    el_hash128 fingerprint;  /* of everything above but path and root (where
                              * the tree is); set by finalize */
    /* Set by ember-migrate only (el_configs_set_custom_ns), never from a
     * file: calls of a backend function that has no op, eh_<b>_<name>,
     * are rewritten to <custom_ns>_<name>, the wrapper of the custom op
     * ember-migrate makes of it (lint/change/rewrite.h).  "" = off. */
    char custom_ns[64];
};

/* All configurations of a run: discovery and ownership. */
typedef struct el_configs el_configs;

/* forced: --config FILE, used for every file; NULL to discover
 * .emberlint.json upward from each file.  NULL with *err on error. */
el_configs *el_configs_new(const char *forced, char **err);
/* The configuration of a file (absolute path), or NULL with *err set
 * ("PATH:LINE:COL: what was expected" for a malformed file). */
const el_config *el_configs_for(el_configs *s, const char *abs_path, char **err);
/* Add a backend name seen in the linted tree to every configuration. */
void el_configs_note_backend(el_configs *s, const char *name);
/* An exclude pattern of c skipped abs_path (for the warning about
 * patterns that match nothing). */
void el_configs_note_excluded(el_configs *s, const el_config *c, const char *abs_path);
/* A C++ file a walk passed over for "languages" (abs_path): the path
 * patterns of c that match it matched a file (no warning beside the note
 * about such files). */
void el_configs_note_passed_over(el_configs *s, const el_config *c, const char *abs_path);
/* No warning for the key's patterns that match nothing (ember-migrate
 * empties the legacy backend directories it moves). */
void el_configs_quiet_unmatched(el_configs *s, el_list_key key);
/* No warning about unmatched patterns at all: a shard's run (--shard
 * K/N).  The merge walks the same tree with the same configuration and
 * warns, so that the shards and the merge say what one run says, once. */
void el_configs_quiet_all_unmatched(el_configs *s);
/* What the warnings say the tool did with the files ("matches none of the
 * linted files"): "linted" unless set (ember-migrate: "scanned").  done
 * is borrowed (a literal). */
void el_configs_set_done(el_configs *s, const char *done);
/* Warn (stderr, "PROG: warning: FILE:LINE:COL: ...") about each path
 * pattern of a project's configuration that matched none of the linted
 * files (paths[0..n) absolute, real, sorted), when the configuration's
 * directory was linted as a whole: a directory at or above it was named,
 * or (dirs_named false: the files of a compile database) one of its files
 * is linted. */
void el_configs_warn_unmatched(el_configs *s, char *const *paths, const el_config *const *cfgs,
                               size_t n, char *const *dirs, size_t n_dirs);
/* ember-migrate: the namespace of the custom ops it makes (config.h,
 * el_config.custom_ns), for every configuration loaded so far. */
void el_configs_set_custom_ns(el_configs *s, const char *ns);
/* Discover backends/ directories, expand prefixes, compute fingerprints.
 * Call once, after the last el_configs_for / note_backend. */
void el_configs_finalize(el_configs *s);
void el_configs_free(el_configs *s);

/* The class of a path (absolute) under c; backend name into backend[n]:
 * core under core_paths; backend under backend_dirs (named by <name>) or
 * backend_files (named by its key); core too when backend_headers names
 * the file itself (a header of the backend API, not frontend code). */
el_file_class el_config_classify(const el_config *c, const char *abs_path, char *backend, size_t n);
/* The path (absolute, file or directory) matches an exclude pattern. */
bool el_config_excluded(const el_config *c, const char *abs_path);
/* A walk would skip the file: an exclude pattern matches it or a
 * directory above it ("third_party/" and third_party/x/y.c). */
bool el_config_excluded_file(const el_config *c, const char *abs_path);
/* The file's language from its name and the configuration's "languages":
 * "c" for .c, .h too unless "languages" leaves C out (then "c++"), "c++"
 * for .cpp/.cc/.cxx/.hpp/.hh/.hxx when "languages" holds "c++"; NULL when
 * a directory walk skips the file. */
const char *el_config_language_of(const el_config *c, const char *path);
/* "languages" holds "c" (.h files are C++ when it does not). */
bool el_config_lists_c(const el_config *c);
/* A vendor_headers pattern names the file (absolute), wherever it is. */
bool el_config_is_vendor_header(const el_config *c, const char *abs_path);
/* abs_path lies in the project: under the directory of the outermost
 * .emberlint.json, else under the current directory. */
bool el_config_in_project(const el_config *c, const char *abs_path);

/* The legacy backend directory (legacy_backend_dirs, default
 * "ops/<name>/" with <name> a known backend) abs_path is under: true with
 * the backend's name in backend[n].  Files there are frontend-class (EH104
 * reports their definitions; ember-migrate moves them), but EH101 counts
 * their headers as backend-private.  (Not el_config_is_backend_header:
 * a frontend file including ops/blas/x.h is still frontend.) */
bool el_config_legacy_backend(const el_config *c, const char *abs_path, char *backend, size_t n);
/* The call template for calls of `function`, or NULL (a project's entry
 * wins over the built-in one; the last of a file wins). */
const el_rewrite_rule *el_config_rewrite_for(const el_config *c, const char *function);
size_t el_config_rewrite_count(const el_config *c);
const el_rewrite_rule *el_config_rewrite_at(const el_config *c, size_t i);
/* The entry of a map key for a name, or NULL. */
const el_kv *el_config_map_get(const el_config *c, el_map_key k, const char *name);
/* The list of a key. */
const el_strlist *el_config_list(const el_config *c, el_list_key k);
/* Does an entry of list k, a pattern (`*` and `?` work), match name? */
bool el_config_list_matches(const el_config *c, el_list_key k, const char *name);

/* Each backend directory on disk below c (its backend_dirs patterns:
 * "algebra/<name>/" gives algebra/builtin, algebra/mkl, ...): fn(the
 * backend's name, the directory, ud).  Also how c learns the backends
 * its tree has.  The built-in patterns are relative to the current
 * directory; at_project: to the project's (the outermost .emberlint.json
 * of c's chain), when there is one, so that the answer does not depend on
 * where the tool runs. */
void el_config_each_backend_dir(const el_config *c, bool at_project,
                                void (*fn)(const char *name, const char *dir, void *ud), void *ud);
/* The names of the keys ("backend_dirs", "replacements"). */
const char *el_config_key_name(el_list_key k);
const char *el_config_map_name(el_map_key k);

/* --show-config: the configuration, each value with where it came from. */
void el_config_show(FILE *out, const el_config *c, const char *file);

#endif
