/* lint/engine/sources.h -- the files to lint: walking the PATH arguments.
 *
 * Directories are walked for .c and .h files (and C++ sources and headers
 * where the configuration's "languages" holds "c++") in name order
 * (symlinks are followed, loops detected), skipping the configuration's
 * exclude patterns; a file named on the command line is always linted.
 * Afterwards, path patterns of the project's configurations that matched
 * no linted file are warned about.  Missing
 * and unreadable paths are I/O errors (exit 2 once everything else is
 * linted); binary files, files over the size limit, broken symlinks and
 * symlink loops are skipped with a warning.  Every problem is one clear
 * line on stderr, `emberlint: PATH: what`. */
#ifndef EL_SOURCES_H
#define EL_SOURCES_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "file_stamp.h"
#include "filehash.h"
#include "hash.h"
#include "suppress.h"

typedef struct el_source {
    char *path;              /* absolute, symlinks resolved */
    char *display;           /* relative to the current directory when possible */
    bool is_header;          /* .h (.hpp, ...): parsed on its own only if no
                                source file includes it */
    bool force_c;            /* named on the command line without a known extension */
    bool cxx;                /* C++ by its name (.cpp, .hpp, ...) */
    bool named;              /* named on the command line (not found by a walk) */
    bool not_built;          /* left out: the compile database does not build it (unbuilt.h) */
    size_t root;             /* 1 + the index of the directory PATH whose walk found it
                              * (the deepest, when several did); 0 for a file named */
    size_t size;
    el_hash128 hash;         /* of the content */
    /* A header's content as read (NUL-terminated; NULL for a .c file,
     * beyond EL_SOURCES_TEXT_BUDGET or when a write may have overlapped the
     * read), the read's stamp and the second it began: el_source_text. */
    char *text;
    el_file_stamp stamp;
    long long read_at;
    el_suppressions supp;
    const el_config *cfg;
    el_file_class cls;
    char backend[64];
} el_source;

typedef struct el_sources {
    el_source *v;            /* sorted by path */
    size_t n, cap;
    int io_errors;           /* missing / unreadable paths */
    bool any_backend;        /* some linted file is backend code */
    /* C++ sources and headers a walk passed over because their
     * configuration's "languages" leaves C++ out (not those its "exclude"
     * patterns skip, nor those linted anyway: named on the command line):
     * how many, the PATHs walked that held them ("src, tests"), and the
     * first one's "languages" (JSON: ["c"]) and file. */
    size_t cxx_unwalked;
    char *cxx_unwalked_under;
    char *cxx_unwalked_languages;
    char *cxx_unwalked_config; /* the configuration file that says it (shown: --config
                                  FILE's, or a .emberlint.json), NULL: the built-in */
} el_sources;
/* The sources a run linted: all but those it left out as not built. */
size_t el_sources_linted(const el_sources *s);

/* Collect the files under paths[0..n).  -1 on a configuration error
 * (message printed); otherwise 0, with io_errors counting I/O errors. */
int el_sources_collect(char *const *paths, size_t n, el_configs *cfgs, size_t max_size,
                       el_filehash *hashes, el_sources *out);
/* The files paths[0..n) (absolute real paths) name count as found by a
 * walk, not named on the command line: with -p and no PATH, the tree's
 * headers (and .c templates) the database's files include are linted
 * through them, and one no file the database builds includes in this
 * configuration is not linted alone (engine.h, not built). */
void el_sources_walked(el_sources *s, char *const *paths, size_t n);
/* When a walk passed over C++ files (cxx_unwalked), say so once on
 * stderr: `PROG: note: N C++ files under src were not DONE (...; add it
 * to TO_DO them)`; done, to_do: "linted", "lint". */
void el_sources_note_unwalked_cxx(const el_sources *s, const char *done, const char *to_do);
/* With -p and no PATH the database's files are linted as files named on
 * the command line, so "exclude" does not skip them: when its patterns
 * match some, say so once on stderr (`PROG: note: N files BUILD/
 * compile_commands.json builds match "exclude" in CONFIG (FIRST, ...) and
 * were DONE anyway: ...; name the tree (-p BUILD DIR, DIR the configuration's) to skip them`). */
void el_sources_note_named_excluded(const el_sources *s, const char *build_dir, const char *done);
/* Its two halves, for a shard to record what a merge says: the files
 * the note may count (named, matched by "exclude", not generated into
 * build_dir), s->n flags (calloc'd) or NULL when none; and the note on
 * those of them marked[i] that are built (marked NULL: none). */
bool *el_sources_named_excluded(const el_sources *s, const char *build_dir);
void el_sources_note_excluded(const el_sources *s, const bool *marked, const char *build_dir,
                              const char *done);
/* The headers' text kept for the run, at most this many bytes in all. */
#define EL_SOURCES_TEXT_BUDGET (64u << 20)

/* src's text as read, if it is what a parser that saw the file with stamp
 * `seen` after the run's read read (el_file_stamp_same_content); else NULL. */
const char *el_source_text(const el_source *src, el_file_stamp seen);

/* Index of a file (absolute real path) or -1. */
long el_sources_find(const el_sources *s, const char *path);
void el_sources_free(el_sources *s);

#endif
