/* Statistics written against libeh: ops where possible, host loops where
 * the author reached around them. */
#include <math.h>
#include <stdio.h>
#include <eh/eh.h>

/* ops only: clean */
eh_tensor *zscore(const eh_tensor *x)
{
    eh_tensor *mu = eh_mean(x, NULL, 0, 1);
    eh_tensor *d = eh_subtract(x, mu);
    eh_tensor *sd = eh_sqrt(eh_mean(eh_square(d), NULL, 0, 1));
    return eh_divide(d, sd);
}

double host_mean(eh_tensor *x, int n)
{
    const float *p = eh_data_f32(x);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];                               // expect: EH201
    return s / n;
}

void normalize_in_place(eh_tensor *x, int n, float scale)
{
    float *p = eh_data_f32(x);
    for (int i = 0; i < n; i++) {
        p[i] = p[i] / scale;                     // expect: EH201
        p[i] = sqrtf(p[i]);                      // expect: EH202
    }
}

int bucket(eh_tensor *x)
{
    float *p = eh_data_f32(x);
    return (int)p[0];                            // expect: EH301
}

double first_items(eh_tensor **ts, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += eh_item(ts[i]);                     // expect: EH203
    return s;
}

double ratio(int hits, int total)
{
    double r = hits / total;                     // expect: EH302
    return r;
}

eh_tensor *roundtrip(const eh_tensor *x)
{
    float buf[8];
    eh_to_buffer(x, buf, sizeof buf);
    int64_t shape[1] = {8};
    return eh_convert_to_tensor(buf, 1, shape, EH_F32);   // expect: EH401
}

/* look-alikes: host arithmetic on the program's own data */
double own_mean(const float *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return n ? s / n : 0.0;
}

float own_root(float x) { return sqrtf(x * x + 1.0f); }

size_t count_of(void)
{
    int a[16];
    return sizeof a / sizeof a[0];
}

double exact_ratio(int hits, int total) { return (double)hits / total; }

int truncate_own(double v) { return (int)v; }

void report(eh_tensor *x)
{
    /* one read after the work is done: not in a loop */
    printf("%f\n", eh_item(x));
}
