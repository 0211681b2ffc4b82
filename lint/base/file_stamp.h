/* lint/base/file_stamp.h -- when two reads of a file read the same
 * content, without comparing it: the run reads a header once (the sources
 * walk, its content hash) and libclang reads it again in every TU. */
#ifndef EL_FILE_STAMP_H
#define EL_FILE_STAMP_H

#include <stdbool.h>
#include <sys/stat.h>

/* A file and its modification time (seconds), as libclang's
 * clang_getFileUniqueID gives them: device, inode, time. */
typedef struct el_file_stamp {
    unsigned long long dev, ino;
    long long mtime;
} el_file_stamp;

/* A stamp no file has: a read that a write may have overlapped. */
extern const el_file_stamp el_file_stamp_none;

el_file_stamp el_file_stamp_of(const struct stat *st);
/* The stamp of a read: st_before and st_after (fstat before and after it)
 * must agree to the nanosecond and byte, else no write is ruled out during
 * it and the stamp is el_file_stamp_none. */
el_file_stamp el_file_stamp_of_read(const struct stat *st_before, const struct stat *st_after);
/* Whether a read that saw stamp a and one that saw b read the same
 * content, the earlier of them starting at second first_read: the same
 * file and time, older than first_read by more than a second.  A write
 * between the reads would carry a later time (file times come from a
 * coarse clock that may lag a second behind), or a new inode when the
 * file was replaced.  (A write that sets an old time by hand is not
 * seen: as with make.) */
bool el_file_stamp_same_content(el_file_stamp a, el_file_stamp b, long long first_read);

#endif
