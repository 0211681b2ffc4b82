/* lint/engine/compdb.h -- compile_commands.json (-p BUILD_DIR), read through
 * libclang's CXCompilationDatabase and kept as plain argument lists. */
#ifndef EL_COMPDB_H
#define EL_COMPDB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct el_compdb el_compdb;

/* Load BUILD_DIR/compile_commands.json; NULL with *err set. */
el_compdb *el_compdb_load(const char *build_dir, char **err);
/* The arguments for a file (absolute real path): the compiler's options
 * without the compiler, the input, -c, -o and dependency-file options,
 * relative paths made absolute against the entry's directory.  A file
 * with no entry of its own (a header) borrows the entry of a file in the
 * same directory, else of the nearest directory.  NULL when the database
 * is empty.  *n receives the count; free with el_args_free. */
char **el_compdb_args(const el_compdb *db, const char *abs_file, size_t *n);
/* The arguments of the database's i-th entry (el_compdb_file(db, i)'s
 * first), as el_compdb_args; NULL when there is none. */
char **el_compdb_entry_args(const el_compdb *db, size_t i, size_t *n);
/* The database has an entry of the file's own (absolute real path). */
bool el_compdb_lists(const el_compdb *db, const char *abs_file);
/* Build configurations: the distinct argument lists the database gives
 * a file of its own (a file compiled twice, once with -DUSE_BLAS: two),
 * in database order; 0 when it has no entry of its own. */
size_t el_compdb_args_count(const el_compdb *db, const char *abs_file);
/* The k-th of them (k < el_compdb_args_count), as el_compdb_args. */
char **el_compdb_args_at(const el_compdb *db, const char *abs_file, size_t k, size_t *n);
/* A database built in memory (one build configuration of a run): empty,
 * then one entry per file, its arguments copied (already filtered).
 * from: the loaded database it derives from, NULL when none (define
 * sets without -p). */
el_compdb *el_compdb_new(const el_compdb *from);
/* The compile_commands.json db stands for, which says what the build
 * builds: db itself when loaded, the one an in-memory database was made
 * from, NULL when none (its entries are only a configuration's flags). */
const el_compdb *el_compdb_build(const el_compdb *db);
void el_compdb_add(el_compdb *db, const char *abs_file, char *const *args, size_t n);
/* One warning for each response file (@FILE) that could not be read
 * (missing, a directory, unreadable, naming itself) among the entries
 * files[0..n) (absolute real paths) are parsed with -- their own, else
 * the one they borrow -- with how many of those entries name it; the
 * paths shown relative to the current directory; each one once.  The
 * load says nothing: a run says it for the files it lints. */
void el_compdb_warn_unread(const el_compdb *db, char *const *files, size_t n);
/* The directory a loaded database was read from (absolute; -p's); NULL
 * for one made in memory. */
const char *el_compdb_dir(const el_compdb *db);
/* The files the database lists (absolute), in database order. */
size_t el_compdb_file_count(const el_compdb *db);
const char *el_compdb_file(const el_compdb *db, size_t i);
/* How many of the database's files are assembly (.S, -x assembler): not
 * among el_compdb_paths_or's. */
size_t el_compdb_assembly_count(const el_compdb *db);
/* The paths to lint: paths[0..n) when n > 0, else the database's files
 * that are C or C++ (not an assembler's .S: it is no C to parse) (db may
 * be NULL).  *owned receives the array when one was made (free
 * it; the strings stay the database's). */
char *const *el_compdb_paths_or(const el_compdb *db, char *const *paths, size_t *n,
                                 char ***owned);
/* The headers (and .c files included as templates) files[0..n_files)
 * include, followed as text through every #if arm and the entries'
 * -I/-iquote directories, that inside() accepts (the tree's): what a -p
 * run without PATH lints besides the database's files
 * (compdb_headers.c).  A new array of new strings (*n of them). */
char **el_compdb_tree_headers(const el_compdb *db, char *const *files, size_t n_files,
                              bool (*inside)(const char *path, void *ud), void *ud, size_t *n);
/* The same, where a header the build copied from the tree (header_copies.h:
 * el_header_copy_original) is the tree's header, not the copy: emberlint's
 * run without PATH lints and fixes the file the project keeps.  (ember-migrate
 * lists a copy's sites at the tree's header for a person: generated.c.) */
char **el_compdb_tree_headers_originals(const el_compdb *db, char *const *files, size_t n_files,
                                        bool (*inside)(const char *path, void *ud), void *ud,
                                        size_t *n);
/* How many entries' arguments the last el_compdb_tree_headers read: once
 * per file the database lists, once per directory for the others (a
 * header borrows its directory's entry) -- tests check it stays so. */
extern size_t el_compdb_tree_reads;
/* The files a loaded database lists that do not exist (each once, in
 * database order).  None of them existing (and at least one listed): -1
 * with *err ("BUILD_DIR/compile_commands.json is stale: none of the N
 * files it lists exists ..."): the database describes another tree or
 * an earlier state of this one, and a run would lint or migrate nothing
 * while saying only that nothing is built.  Some missing: one warning on
 * stderr naming them (up to three; every one, one a line, with verbose),
 * and 0; with refuse (ember-migrate apply, which would change the
 * others and leave these calling the old names) -1 with *err instead.
 * With PATHs (n_paths > 0) only the missing files under them are warned
 * about or refused; none existing is still an error.  Both
 * tools call it after loading, with or without PATH. */
int el_compdb_check_missing(const el_compdb *db, char *const *paths, size_t n_paths,
                            const char *what, bool refuse, bool verbose, char **err);
void el_compdb_free(el_compdb *db);

void el_args_free(char **args, size_t n);

#endif
