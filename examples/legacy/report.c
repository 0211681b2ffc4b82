/* report.c -- printing.  Every number goes out with a fixed precision so
 * that runs on different machines and backends can be compared with diff. */
#include <math.h>
#include <stdio.h>
#include "pipeline.h"
#include "ops/ref/ref_ops.h"

/* Values that print as zero print as 0.0000, never -0.0000. */
static double tidy(double v)
{
    return fabs(v) < 5e-5 ? 0.0 : v;
}

void print_vector(const char *label, eh_tensor *v)
{
    const float *p = eh_data_f32(v);
    printf("  %-20s", label);
    if (!p) {
        printf(" (unavailable)\n");
        return;
    }
    for (int64_t i = 0; i < eh_size(v); i++)
        printf(" %9.4f", tidy(p[i]));
    printf("\n");
}

void print_rows(const char *label, eh_tensor *m, int rows)
{
    const float *p = eh_data_f32(m);
    printf("  %s\n", label);
    if (!p || eh_ndim(m) != 2) {
        printf("    (unavailable)\n");
        return;
    }
    int64_t cols = eh_dim(m, 1);
    for (int64_t i = 0; i < rows && i < eh_dim(m, 0); i++) {
        printf("    [%2d]", (int)i);
        for (int64_t j = 0; j < cols; j++)
            printf(" %9.4f", tidy(p[i * cols + j]));
        printf("\n");
    }
}

/* The regime each reading falls into (its most probable one), how often
 * each regime occurs, and how sure the network is on average. */
void print_regimes(eh_tensor *probs)
{
    const float *p = eh_data_f32(probs);
    const int axis0[1] = {0};
    eh_tensor *mean = eh_ref_mean(probs, axis0, 1, 0);
    if (!p || !mean || eh_ndim(probs) != 2) {
        printf("  regimes: (unavailable)\n");
        return;
    }
    int64_t rows = eh_dim(probs, 0), cols = eh_dim(probs, 1);
    int counts[N_REGIMES] = {0};
    double confidence = 0.0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t best = 0;
        for (int64_t j = 1; j < cols; j++)
            if (p[i * cols + j] > p[i * cols + best])
                best = j;
        if (best < N_REGIMES)
            counts[best]++;
        confidence += p[i * cols + best];
    }
    printf("  regime counts       ");
    for (int r = 0; r < N_REGIMES; r++)
        printf(" %9d", counts[r]);
    printf("\n");
    print_vector("mean probability", mean);
    printf("  mean confidence      %9.4f\n", confidence / (double)rows);
}
