/* lint/change/fileio.h -- the file operations changes are made of: reading
 * a regular file whole, writing a new file durably under an exact name,
 * flushing a directory.  Shared by the changeset (changeset.c), its commit
 * (commit.c) and the journal that makes a commit recoverable (journal.c). */
#ifndef EL_FILEIO_H
#define EL_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hash.h"

enum { EL_NOT_REGULAR = -1 };

/* Read a regular file whole (symlinks are not followed).  0,
 * EL_NOT_REGULAR, or an errno value; *mode and *nlink may be NULL. */
int el_read_file(const char *path, char **data, size_t *len, mode_t *mode, nlink_t *nlink);
/* The reason for a value of el_read_file. */
const char *el_read_reason(int e);
/* Do two byte ranges hold the same bytes? */
bool el_same_bytes(const char *a, size_t alen, const char *b, size_t blen);
/* Does path hold exactly text?  0 yes, EAGAIN no, else why it cannot tell. */
int el_file_holds(const char *path, const char *text, size_t len);
/* The content hash of path; false when it is not a readable regular file. */
bool el_file_hash(const char *path, el_hash128 *out);
/* Create path (which must not exist: O_EXCL, no symlink followed) holding
 * data with mode, flushed to disk.  0 or errno; nothing is left on failure. */
int el_write_new(const char *path, const char *data, size_t len, mode_t mode);
/* fsync the directory holding path (best effort). */
void el_fsync_dir_of(const char *path);

#endif
