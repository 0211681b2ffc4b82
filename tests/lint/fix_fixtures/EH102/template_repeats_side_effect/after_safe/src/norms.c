double legacy_sq(double x);
double next_value(const double *v, int *i);

/* A template that writes an argument twice evaluates it twice: safe for
 * v[i], unsafe for v[i++] and for a call (i would step twice, next_value
 * run twice). */
double sum_squares(const double *v, int n)
{
    double s = 0;
    int i = 0;
    s += ((v[i]) * (v[i]));
    s += legacy_sq(v[i++]);
    while (i < n)
        s += legacy_sq(next_value(v, &i));
    return s;
}
