/* tests/fuzz/fuzz_util.c -- scratch directories and files (fuzz_util.h). */
#include "fuzz_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char made[4096];

static void remove_tree(const char *path, int keep_top)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            remove_tree(sub, 0);
        }
        if (d)
            closedir(d);
        if (!keep_top)
            rmdir(path);
    } else {
        unlink(path);
    }
}

static void cleanup(void)
{
    if (made[0])
        remove_tree(made, 0);
}

char *fuzz_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(made, sizeof made, "%s/eh-fuzz.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(made)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(cleanup);
    char *real = realpath(made, NULL);
    if (!real)
        abort();
    return real;
}

void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        perror(path);
        abort();
    }
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0)
            abort();
        off += (size_t)w;
    }
    close(fd);
}

void fuzz_clear(const char *dir)
{
    remove_tree(dir, 1);
}

size_t fuzz_split(const uint8_t *data, size_t size, const uint8_t **parts, size_t *lens,
                  size_t max)
{
    static const char marker[] = "\n--- ";
    size_t n = 0, start = 0;
    for (size_t i = 0; i + sizeof marker - 1 <= size && n + 1 < max; i++) {
        if (memcmp(data + i, marker, sizeof marker - 1) == 0) {
            parts[n] = data + start;
            lens[n++] = i - start;
            /* the rest of the marker line names the part: skipped */
            size_t j = i + sizeof marker - 1;
            while (j < size && data[j] != '\n')
                j++;
            start = j < size ? j + 1 : size;
            i = start - 1;
        }
    }
    parts[n] = data + start;
    lens[n++] = size - start;
    return n;
}
