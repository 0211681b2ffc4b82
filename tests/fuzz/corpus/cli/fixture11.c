/* EH202 true cases: <math.h> functions on elements of tensor storage. */
#include <math.h>
#include <stdlib.h>
#include <eh/eh.h>

#define ROOT(x) sqrt(x)

void roots(eh_tensor *t, int64_t n)
{
    float *p = eh_data_f32(t);
    for (int64_t i = 0; i < n; i++)
        p[i] = sqrtf(p[i]);                  // expect: EH202
}

double through_variable(eh_tensor *t)
{
    double *d = eh_data_f64(t);
    double v = d[0];
    return exp(v) + pow(d[1], 2.0);          // expect: EH202, EH202
}

/* On a value computed from elements; nested calls are each reported. */
double computed(eh_tensor *t, double m)
{
    const double *d = eh_data_f64(t);
    double a = fabs(d[0] - m);               // expect: EH202
    return a + sqrt(fabs(d[1]));             // expect: EH202, EH202
}

/* A function no op computes yet, a builtin, a macro, the stdlib abs. */
double others(eh_tensor *t, eh_tensor *c)
{
    double *d = eh_data_f64(t);
    int32_t *k = eh_data_i32(c);
    double a = asin(d[0]);                   // expect: EH202
    double b = __builtin_sqrt(d[1]);         // expect: EH202
    double r = ROOT(d[2]);                   // expect: EH202
    return a + b + r + abs(k[0]) + fmodf((float)d[3], 2.0f); // expect: EH202, EH202
}

/* Through a function pointer initialised with a libm function. */
double through_pointer(eh_tensor *t)
{
    double (*f)(double) = cos;
    const double *d = eh_data_f64(t);
    return f(d[0]);                          // expect: EH202
}
