/* lint/base/file_stamp.c -- file stamps (file_stamp.h). */
#include "file_stamp.h"

#include <limits.h>

const el_file_stamp el_file_stamp_none = {0, 0, LLONG_MIN};

el_file_stamp el_file_stamp_of(const struct stat *st)
{
    return (el_file_stamp){(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
                           (long long)st->st_mtime};
}

el_file_stamp el_file_stamp_of_read(const struct stat *st_before, const struct stat *st_after)
{
    bool same = st_before->st_dev == st_after->st_dev && st_before->st_ino == st_after->st_ino &&
                st_before->st_size == st_after->st_size &&
                st_before->st_mtim.tv_sec == st_after->st_mtim.tv_sec &&
                st_before->st_mtim.tv_nsec == st_after->st_mtim.tv_nsec;
    return same ? el_file_stamp_of(st_after) : el_file_stamp_none;
}

bool el_file_stamp_same_content(el_file_stamp a, el_file_stamp b, long long first_read)
{
    return a.mtime != LLONG_MIN && a.dev == b.dev && a.ino == b.ino && a.mtime == b.mtime &&
           a.mtime < first_read - 1;
}
