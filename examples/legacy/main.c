/* main.c -- the sensor calibration pipeline, start to end.
 *
 *   legacy-app [SAMPLES]
 *
 * Generates SAMPLES readings (default 48), standardises them, calibrates
 * them against the reference instrument, measures how far each reading is
 * from three reference profiles and classifies each reading with a small
 * network.  The backend comes from EH_BACKEND (ref, blas, lazy). */
#include <stdio.h>
#include <stdlib.h>
#include "pipeline.h"
#include "ops/blas/blas_ops.h"
#include "ops/ref/ref_ops.h"

static int fail(const char *stage)
{
    fprintf(stderr, "legacy-app: %s failed\n", stage);
    eh_scope_end();
    return 1;
}

static int parse_samples(int argc, char **argv, int *n)
{
    *n = N_SAMPLES;
    if (argc < 2)
        return 0;
    char *end;
    long v = strtol(argv[1], &end, 10);
    if (argc > 2 || *end != '\0' || v < N_CHANNELS + 2 || v > 1000000) {
        fprintf(stderr, "usage: legacy-app [SAMPLES]   (%d to 1000000, default %d)\n",
                N_CHANNELS + 2, N_SAMPLES);
        return -1;
    }
    *n = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int n;
    if (parse_samples(argc, argv, &n) != 0)
        return 2;
    if (eh_scope_begin() != EH_OK)
        return 1;
    printf("sensor calibration pipeline: %d samples, %d channels, backend %s\n", n,
           N_CHANNELS, eh_get_backend());

    dataset data;
    if (dataset_make(&data, n) != 0)
        return fail("generating the readings");
    printf("[data]\n");
    print_rows("first readings (channel 0, 1, 2)", data.raw, 4);
    print_vector("reference mean", eh_ref_mean(data.target, NULL, 0, 0));

    eh_tensor *mean = NULL, *sd = NULL;
    eh_tensor *z = standardize_columns(data.raw, &mean, &sd);
    if (!z)
        return fail("standardising");
    printf("[standardise]\n");
    print_vector("channel means", mean);
    print_vector("channel std devs", sd);
    print_vector("design scale", design_scale(z));

    calibration cal;
    if (calibrate(z, data.target, &cal) != 0)
        return fail("calibrating");
    printf("[calibrate]\n");
    print_vector("coefficients", cal.coef);
    printf("  %-20s %9.4f\n", "residual rss", cal.rss);
    printf("  %-20s %9.4f\n", "rmse", cal.rmse);
    printf("  %-20s %9.4f\n", "max |residual|", cal.max_abs);
    printf("  %-20s %9.4f\n", "r^2", cal.r2);

    eh_tensor *d2 = profile_distances(z);
    if (!d2)
        return fail("comparing with the profiles");
    const int axis0[1] = {0};
    printf("[profiles]\n");
    print_rows("squared distance to idle, nominal, loaded", d2, 4);
    print_vector("mean squared distance", eh_ref_mean(d2, axis0, 1, 0));

    mlp net;
    if (mlp_init(&net) != 0)
        return fail("setting up the network");
    eh_tensor *probs = mlp_forward(&net, z);
    if (!probs)
        return fail("classifying");
    printf("[classify]\n");
    print_rows("regime probabilities, first readings", probs, 5);
    print_regimes(probs);

    eh_scope_end();
    return 0;
}
