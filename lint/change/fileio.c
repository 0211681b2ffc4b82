/* lint/change/fileio.c -- file operations of changes (fileio.h). */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"
#include "path.h"

int el_read_file(const char *path, char **data, size_t *len, mode_t *mode, nlink_t *nlink)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return errno == ELOOP ? EL_NOT_REGULAR : errno;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = S_ISREG(st.st_mode) ? errno : EL_NOT_REGULAR;
        close(fd);
        return e;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = el_xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = el_xrealloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            return e;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    if (mode)
        *mode = st.st_mode & 07777;
    if (nlink)
        *nlink = st.st_nlink;
    return 0;
}

const char *el_read_reason(int e)
{
    return e == EL_NOT_REGULAR ? "not a regular file" : strerror(e);
}

bool el_same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

int el_file_holds(const char *path, const char *text, size_t len)
{
    char *now;
    size_t nlen;
    int e = el_read_file(path, &now, &nlen, NULL, NULL);
    if (e)
        return e;
    bool eq = el_same_bytes(now, nlen, text, len);
    free(now);
    return eq ? 0 : EAGAIN;
}

bool el_file_hash(const char *path, el_hash128 *out)
{
    char *now;
    size_t n;
    if (el_read_file(path, &now, &n, NULL, NULL) != 0)
        return false;
    *out = el_hash_bytes(now, n);
    free(now);
    return true;
}

int el_write_new(const char *path, const char *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno;
    int e = 0;
    size_t off = 0;
    while (!e && off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno != EINTR)
                e = errno;
        } else {
            off += (size_t)w;
        }
    }
    if (!e && fchmod(fd, mode & 07777) != 0)
        e = errno;
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (e)
        unlink(path);
    return e;
}

void el_fsync_dir_of(const char *path)
{
    char *dir = el_path_dirname(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: not every file system can */
        close(fd);
    }
    free(dir);
}
