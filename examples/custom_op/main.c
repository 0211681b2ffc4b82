/* main.c -- the application: its own ops next to libeh's, on whatever
 * backend EH_BACKEND (or eh_set_backend) selects. */
#include <stdio.h>
#include "geo.h"

int main(void)
{
    if (geo_register() != EH_OK) {
        fprintf(stderr, "custom-op: %s\n", eh_error_message());
        return 1;
    }
    eh_scope_begin();
    const double px[] = {0, 0, 1, 1, 3, 4}, py[] = {0, 0, 1, 0};
    eh_tensor *x = eh_convert_to_tensor(px, 2, (const int64_t[]){3, 2}, EH_F64);
    eh_tensor *y = eh_convert_to_tensor(py, 2, (const int64_t[]){2, 2}, EH_F64);

    /* custom and built-in ops compose; errors propagate through both */
    eh_tensor *d = eh_sqrt(geo_sqdist(x, y));
    eh_tensor *c = geo_softclip(eh_multiply_scalar(d, 2.0), 3.0);
    double dist[6], clipped[6];
    if (eh_to_buffer(d, dist, sizeof dist) != EH_OK ||
        eh_to_buffer(c, clipped, sizeof clipped) != EH_OK) {
        fprintf(stderr, "custom-op: %s\n", eh_error_message());
        return 1;
    }
    printf("backend %s\n", eh_get_backend());
    for (int i = 0; i < 3; i++)
        printf("  %.4f %.4f   clipped %.4f %.4f\n", dist[2 * i], dist[2 * i + 1], clipped[2 * i],
               clipped[2 * i + 1]);

    /* a bad call fails like a built-in op, naming the op */
    eh_tensor *bad = geo_sqdist(x, eh_reshape(y, 1, (const int64_t[]){4}));
    printf("bad call: %s: %s\n", bad ? "no error" : eh_status_name(eh_last_error()),
           eh_error_message());
    eh_clear_error();
    eh_scope_end();
    return 0;
}
