#include <stddef.h>
#include <string.h>

void legacy_zero(float *p, int n);
size_t legacy_bytes(const float *p, int n);
float *next_row(float *rows, int *r, int width);

/* sizeof does not evaluate its operand: a template that writes the
 * pointer once as code and once under sizeof evaluates it once (safe for
 * a call); one that writes it only under sizeof does not evaluate it (a
 * call there would be lost: unsafe). */
size_t clear_rows(float *rows, int n, int width)
{
    int r = 0;
    size_t bytes = ((size_t)width * sizeof(*rows));
    while (r < n)
        memset(next_row(rows, &r, width), 0, (size_t)width * sizeof(*next_row(rows, &r, width)));
    bytes += legacy_bytes(next_row(rows, &r, width), width);
    return bytes;
}
