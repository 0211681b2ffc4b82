/* Standardize the columns of a small feature matrix (z-scores) on every
 * backend libeh was built with.  The output is the same on each. */
#include <stdio.h>
#include <eh/eh.h>

#define ROWS 5
#define COLS 3

static const double features[ROWS][COLS] = {
    {170.0, 65.0, 31.0},
    {158.0, 52.0, 45.0},
    {182.0, 90.0, 27.0},
    {175.0, 71.0, 52.0},
    {166.0, 58.0, 38.0},
};

static void print_matrix(const char *title, const double *v, int rows, int cols)
{
    printf("  %s\n", title);
    for (int r = 0; r < rows; r++) {
        printf("   ");
        for (int c = 0; c < cols; c++)
            printf(" %8.4f", v[r * cols + c]);
        printf("\n");
    }
}

static int standardize_on(const char *backend)
{
    if (eh_set_backend(backend) != EH_OK)
        return 1;
    const int64_t shape[2] = {ROWS, COLS};
    const int column_axis[1] = {0};
    double z[ROWS * COLS], mean[COLS], std[COLS];

    eh_scope_begin();
    eh_tensor *x = eh_convert_to_tensor(features, 2, shape, EH_F64);
    eh_tensor *mu = eh_mean(x, column_axis, 1, 1);
    eh_tensor *sigma = eh_std(x, column_axis, 1, 0, 1);
    eh_tensor *scores = eh_divide(eh_subtract(x, mu), sigma);
    eh_status st = eh_to_buffer(scores, z, sizeof z);
    if (st == EH_OK)
        st = eh_to_buffer(mu, mean, sizeof mean);
    if (st == EH_OK)
        st = eh_to_buffer(sigma, std, sizeof std);
    eh_scope_end();

    if (st != EH_OK) {
        fprintf(stderr, "normalize: %s\n", eh_error_message());
        return 1;
    }
    printf("[%s]\n", backend);
    print_matrix("column mean", mean, 1, COLS);
    print_matrix("column std", std, 1, COLS);
    print_matrix("z-scores", z, ROWS, COLS);
    return 0;
}

int main(void)
{
    const char *backends[8];
    int n = eh_list_backends(backends, 8);
    int failed = 0;
    for (int k = 0; k < n && k < 8; k++)
        failed |= standardize_on(backends[k]);
    return failed;
}
