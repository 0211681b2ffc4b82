/* tests/fuzz/fuzz_util.h -- what the harnesses share: a scratch directory
 * and writing inputs to files (the readers under test read files). */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A new directory under $TMPDIR (or /tmp), removed at exit; aborts when
 * it cannot be made. */
char *fuzz_tmpdir(void);
/* Write data to path (created or truncated); aborts on failure. */
void fuzz_write(const char *path, const uint8_t *data, size_t size);
/* Remove everything inside dir (not dir itself). */
void fuzz_clear(const char *dir);
/* Split data at each "\n--- " line marker into up to max parts: *parts
 * point into data, lens their sizes; the number of parts. */
size_t fuzz_split(const uint8_t *data, size_t size, const uint8_t **parts, size_t *lens,
                  size_t max);

#endif
