/* pipeline.h -- the stages of the sensor calibration pipeline.
 *
 * A three-channel sensor is read N times; the readings are standardised,
 * calibrated against a reference instrument by least squares, and a small
 * fixed-weight network classifies each reading into an operating regime.
 * Every stage works on libeh tensors (f32). */
#ifndef LEGACY_PIPELINE_H
#define LEGACY_PIPELINE_H

#include <eh/eh.h>

#define N_SAMPLES 48
#define N_CHANNELS 3
#define N_HIDDEN 8
#define N_REGIMES 3
#define N_PROFILES 3

typedef struct dataset {
    eh_tensor *raw;    /* (n, N_CHANNELS) sensor readings */
    eh_tensor *target; /* (n,) what the reference instrument measured */
} dataset;

typedef struct calibration {
    eh_tensor *coef;     /* (N_CHANNELS + 1,) weights, then the offset */
    eh_tensor *residual; /* (n,) target - prediction */
    double rss;          /* residual sum of squares */
    double rmse;
    double max_abs;      /* largest |residual| */
    double r2;           /* coefficient of determination */
} calibration;

typedef struct mlp {
    eh_tensor *w1, *b1; /* (N_CHANNELS, N_HIDDEN), (N_HIDDEN,) tanh layer */
    eh_tensor *w2, *b2; /* (N_HIDDEN, N_HIDDEN), (N_HIDDEN,) relu layer */
    eh_tensor *w3, *b3; /* (N_HIDDEN, N_REGIMES), (N_REGIMES,) output layer */
} mlp;

/* dataset.c: deterministic synthetic readings; 0 on success. */
int dataset_make(dataset *d, int n);

/* normalize.c: (x - column mean) / column std, the statistics returned
 * through mean_out and std_out (each (cols,)); NULL on failure. */
eh_tensor *standardize_columns(const eh_tensor *x, eh_tensor **mean_out, eh_tensor **std_out);

/* fit.c: least-squares calibration of target against the standardised
 * channels plus an offset; 0 on success. */
int calibrate(const eh_tensor *z, const eh_tensor *target, calibration *cal);

/* fit.c: the diagonal of design^T design / n, a check that the design's
 * columns are standardised (each close to 1); NULL on failure. */
eh_tensor *design_scale(const eh_tensor *z);

/* mlp.c: fixed weights (a generated stand-in for trained ones), and the
 * forward pass giving (n, N_REGIMES) regime probabilities. */
int mlp_init(mlp *net);
eh_tensor *mlp_forward(const mlp *net, const eh_tensor *x);

/* profile.c: squared distances (n, N_PROFILES) from each standardised
 * reading to the reference operating profiles; NULL on failure. */
eh_tensor *profile_distances(const eh_tensor *z);

/* report.c: fixed-precision printing, identical on every machine. */
void print_vector(const char *label, eh_tensor *v);
void print_rows(const char *label, eh_tensor *m, int rows);
void print_regimes(eh_tensor *probs);

#endif
