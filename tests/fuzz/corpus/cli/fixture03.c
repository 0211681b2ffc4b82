/* EH302 true cases: integer division converted to floating point. */
#include <eh/eh.h>

static double takes_double(double x)
{
    return x;
}

double mean(int total, int count)
{
    double m = total / count;                // expect: EH302
    return m;
}

float ratio(long a, long b)
{
    return (float)(a / b);                   // expect: EH302
}

double in_calls_and_returns(int a, int b)
{
    eh_tensor *s = eh_scalar(a / 2, EH_F64); // expect: EH302
    (void)s;
    takes_double(a / b);                     // expect: EH302
    return a / b;                            // expect: EH302
}

double in_expressions(int a, int b, int c, double x)
{
    double d = 0.0;
    d += a / b;                              // expect: EH302
    double y = x * (a / b);                  // expect: EH302
    double z = c ? a / b : 0.5;              // expect: EH302
    double half = 1 / 2;                     // expect: EH302
    return d + y + z + half;
}
