int legacy_sum2(int a, int b);
int legacy_twice(int x);
int legacy_diff(int a, int b);
int legacy_at(const int *p, int i);
int legacy_clamp(int x, int lo, int hi);
int legacy_max(int a, int b);
int legacy_neg(int x);
int clamp_int(int x, int lo, int hi);
int max_int(int a, int b);

int mix(int k, int a, int b, const int *p, int n)
{
    int r = 2 * (k + k);
    r += (1 + (-1)) * k;
    r += ((a + b) * 2);
    r += ((n ? a : b) * 2);
    r += ((n = a) * 2);
    r += (p[0] * 2) + ((p[k] - 1) * 2);
    r += (a * 2);
    r *= (k - a) * ((a + 1) - b);
    r += p[n - 1] * (p + 1)[0];
    r += clamp_int(a - 1, (b), *p) * max_int(a + 1, b);
    return r - legacy_neg(a - b) * legacy_neg(k);
}
