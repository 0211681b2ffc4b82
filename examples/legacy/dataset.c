/* dataset.c -- synthetic sensor readings, the same on every run.
 *
 * Channel 0 oscillates, channel 1 drifts slowly around 10, channel 2
 * ramps up with some jitter; the reference instrument sees a linear mix
 * of the three plus an offset and a little noise of its own. */
#include <math.h>
#include <stdint.h>
#include "pipeline.h"

/* Deterministic noise in [-0.5, 0.5): a 32-bit integer hash of i. */
static float jitter(uint32_t i)
{
    uint32_t h = i * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)(h >> 8) / 16777216.0f - 0.5f;
}

int dataset_make(dataset *d, int n)
{
    const int64_t raw_shape[2] = {n, N_CHANNELS};
    const int64_t target_shape[1] = {n};
    d->raw = eh_zeros(2, raw_shape, EH_F32);
    d->target = eh_zeros(1, target_shape, EH_F32);
    float *x = eh_data_f32(d->raw);
    float *y = eh_data_f32(d->target);
    if (!x || !y)
        return -1;
    for (int i = 0; i < n; i++) {
        float c0 = 2.0f + 1.5f * sinf(0.21f * (float)i);
        float c1 = 10.0f + 3.0f * cosf(0.13f * (float)i);
        float c2 = 0.05f * (float)i + 0.3f * jitter((uint32_t)i);
        x[i * N_CHANNELS + 0] = c0;
        x[i * N_CHANNELS + 1] = c1;
        x[i * N_CHANNELS + 2] = c2;
        y[i] = 1.7f * c0 - 0.4f * c1 + 0.9f * c2 + 3.0f + 0.05f * jitter((uint32_t)i + 1000u);
    }
    return 0;
}
