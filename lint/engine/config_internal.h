/* lint/engine/config_internal.h -- what config.c shares with
 * config_unmatched.c (the warning about patterns that match nothing):
 * the set of configurations and pattern matching. */
#ifndef EL_CONFIG_INTERNAL_H
#define EL_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "strmap.h"

struct el_configs {
    el_config *builtin;
    el_config *forced;
    el_strmap by_dir;     /* directory -> el_config* (builtin when none) */
    el_config **all;      /* loaded files, owned */
    size_t n_all, cap_all;
    el_strlist seen_backends;
    el_strmap hits;       /* "file\x1fkey\x1fpattern" of patterns that matched */
    el_strmap excluded;   /* what the walk skipped as excluded (a directory ends in '/') */
    unsigned quiet_keys;  /* 1 << el_list_key: no warning when unmatched */
    bool quiet_all;       /* none at all (a shard's run: its merge warns) */
    const char *done;     /* what the tool did with the files: "linted" (NULL), "scanned" */
};

/* The pattern is anchored at its configuration's directory (a leading '/'). */
bool el_config_anchored(const char *pattern);
/* pattern (declared in root) matches abs_path. */
bool el_config_match_at(const char *root, const char *pattern, const char *abs_path);
/* The first backend_files entry ("NAME:PATTERN") of c from index from on
 * that matches abs_path, or -1. */
long el_config_backend_file_at(const el_config *c, const char *abs_path, size_t from);

#endif
