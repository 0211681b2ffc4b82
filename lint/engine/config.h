/* lint/engine/config.h -- configuration: the built-in default (rules/default.json,
 * embedded) with a project's .emberlint.json merged on top: list keys
 * are extended, rule settings override.  docs/emberlint.md documents the
 * keys. */
#ifndef EL_CONFIG_H
#define EL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "finding.h"
#include "hash.h"
#include "rule.h"

typedef struct el_strlist {
    char **v;
    size_t n, cap;
} el_strlist;

/* A call template ("rewrites": rules/rewrites.json and a project's
 * .emberlint.json): calls of `function` become `replacement`, in which
 * $1..$9 stand for the original arguments' source text, $* for all of
 * them and $$ for a '$' (lint/change/rewrite.h applies it). */
typedef struct el_rewrite_rule {
    char *function;          /* "legacy_gemm" */
    char *replacement;       /* "eh_matmul($1, $2)" */
    el_fix_safety safety;    /* SAFE or UNSAFE (the default) */
    char *note;              /* may be NULL */
} el_rewrite_rule;

typedef struct el_rule_setting {
    bool enabled;
    el_severity severity;
    unsigned applies;        /* EL_APPLIES_* bits (metadata.h) */
    json_object *options;    /* owned reference, or NULL */
} el_rule_setting;

struct el_config {
    char *path;              /* the .emberlint.json, NULL for the built-in */
    char *root;              /* patterns are relative to this directory */
    el_strlist backend_dirs, core_paths, exclude, backends, backend_headers,
        backend_prefixes, backend_macros, legacy_backend_dirs;
    el_strlist define_sets;  /* build configurations to check changes in
                                (lint/change/buildcfg.h): "USE_BLAS=1,!USE_FFT" */
    el_strlist prefixes;     /* backend_prefixes with <backend> expanded */
    el_rule_setting *rules;  /* el_meta_count() entries */
    el_rewrite_rule *rewrites; /* rules/rewrites.json, then the project's "rewrites" */
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
/* ember-migrate: the namespace of the custom ops it makes (config.h,
 * el_config.custom_ns), for every configuration loaded so far. */
void el_configs_set_custom_ns(el_configs *s, const char *ns);
/* Discover backends/ directories, expand prefixes, compute fingerprints.
 * Call once, after the last el_configs_for / note_backend. */
void el_configs_finalize(el_configs *s);
void el_configs_free(el_configs *s);

/* The class of a path (absolute) under c; backend name into backend[n]. */
el_file_class el_config_classify(const el_config *c, const char *abs_path, char *backend, size_t n);
/* The path (absolute, file or directory) matches an exclude pattern. */
bool el_config_excluded(const el_config *c, const char *abs_path);

/* The legacy backend directory (legacy_backend_dirs, default
 * "ops/<name>/" with <name> a known backend) abs_path is under: true with
 * the backend's name in backend[n].  Files there are frontend-class (EH104
 * reports their definitions; ember-migrate moves them), but EH101 counts
 * their headers as backend-private.  (Not el_config_is_backend_header:
 * EH104 reads that to call every function of an including file backend
 * code, and a frontend file including ops/blas/x.h is still frontend.) */
bool el_config_legacy_backend(const el_config *c, const char *abs_path, char *backend, size_t n);
/* The call template for calls of `function`, or NULL (a project's entry
 * wins over the built-in one; the last of a file wins). */
const el_rewrite_rule *el_config_rewrite_for(const el_config *c, const char *function);
size_t el_config_rewrite_count(const el_config *c);
const el_rewrite_rule *el_config_rewrite_at(const el_config *c, size_t i);

/* Parse a JSON text strictly; NULL with *err = "LINE:COL: what was
 * expected".  Shared with tests. */
json_object *el_json_parse_located(const char *text, size_t len, char **err);

#endif
