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
    int r = 2 * legacy_sum2(k, k);
    r += legacy_sum2(1, -1) * k;
    r += legacy_twice(a + b);
    r += legacy_twice(n ? a : b);
    r += legacy_twice(n = a);
    r += legacy_twice(p[0]) + legacy_twice(p[k] - 1);
    r += legacy_twice(a // the input
    );
    r *= legacy_diff(k, a) * legacy_diff(a + 1, b);
    r += legacy_at(p, n - 1) * legacy_at(p + 1, 0);
    r += legacy_clamp(a - 1, (b), *p) * legacy_max(a + 1, b /* bound */);
    return r - legacy_neg(a - b) * legacy_neg(k);
}
