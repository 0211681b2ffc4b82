/* lint/base/filehash.h -- the content hash of every file a run looks at
 * (sources and the headers they include), computed once per run and
 * shared by the worker threads. */
#ifndef EL_FILEHASH_H
#define EL_FILEHASH_H

#include <stdbool.h>

#include "file_stamp.h"
#include "hash.h"

typedef struct el_filehash el_filehash;

el_filehash *el_filehash_new(void);
/* Record a hash computed elsewhere (the sources walk reads every file):
 * of `size` bytes, read with stamp `stamp` from second read_at on. */
void el_filehash_put(el_filehash *m, const char *path, el_hash128 h, el_file_stamp stamp,
                     long long read_at, size_t size);
/* Larger files are not hashed (el_filehash_get is false). */
#define EL_FILEHASH_MAX_BYTES (256ull << 20)

/* The hash of a file's content, reading it the first time; false when it
 * cannot be read, is not a regular file or is larger than
 * EL_FILEHASH_MAX_BYTES.  Thread-safe. */
bool el_filehash_get(el_filehash *m, const char *path, el_hash128 *out);
/* el_filehash_get, only when the content hashed is what a reader that saw
 * the file with stamp `seen`, from second `seen_from` on, read
 * (el_file_stamp_same_content): libclang's parse.  Each path is stat'ed
 * once a run, not once a TU. */
bool el_filehash_get_as_of(el_filehash *m, const char *path, el_file_stamp seen, long long seen_from,
                           el_hash128 *out);
/* The size of the content el_filehash_get hashes (read the first time). */
bool el_filehash_size(el_filehash *m, const char *path, size_t *size);
/* Whether something other than a directory is at path (stat(2)), asked
 * once a run (the include search of cached entries).  Answered from its
 * directory's listing, read once a run (the include search asks about
 * 900 places in 50 directories on this tree), and from stat(2) where the
 * listing cannot tell: a symbolic link, an unknown type, a name the
 * listing has in another case (a case-insensitive directory), a
 * directory that cannot be read.  Thread-safe. */
bool el_filehash_exists(el_filehash *m, const char *path);
void el_filehash_free(el_filehash *m);

#endif
