/* More ways around the ops API, and more code that only looks like it. */
#include <stdio.h>
#include <string.h>
#include <x86_64-linux-gnu/cblas.h>              // expect: EH101
#include <eh/eh.h>

#define DOT(n, a, b) cblas_sdot((n), (a), 1, (b), 1)
typedef CBLAS_ORDER order_t;                    // expect: EH102

float via_macro(const float *a, const float *b) { return DOT(3, a, b); }   // expect: EH102

float via_pointer(const float *a, const float *b)
{
    float (*dot)(const int, const float *, const int, const float *, const int) = cblas_sdot;   // expect: EH102
    return dot(3, a, 1, b, 1);                   // expect: EH102
}

order_t layout(void) { return CblasRowMajor; }   // expect: EH102, EH102

int backend_letter(void)
{
    const char *b = eh_get_backend();
    switch (b[0]) {                              // expect: EH103
    case 'b':
        return 1;
    default:
        return 0;
    }
}

double scaled(eh_tensor *t, int n)
{
    float *p = eh_data_f32(t);
    double acc = 0;
    int i = 0;
    while (i < n) {
        float v = p[i];
        acc += v * v;                            // expect: EH201
        i++;
    }
    return (double)(n / 3) + acc;                // expect: EH302
}

float once(eh_tensor *t)
{
    float r = 0;
    for (;;) {
        r = (float)eh_item(t);                   // expect: EH301
        break;                                   /* runs once: no EH203 */
    }
    do {
        r += 1.0f;
    } while (0);
    return r;
}

/* look-alikes */
void copy_only(eh_tensor *t, float *dst, int n)
{
    const float *p = eh_data_f32(t);
    memcpy(dst, p, (size_t)n * sizeof *p);       /* a copy, no arithmetic */
}

int per_thread(int work, int threads) { return work / threads; }

int has_backend(void) { return eh_get_backend() != NULL; }

void log_backend(void)
{
    const char *b = eh_get_backend();
    if (b && b[0] != '\0')
        fprintf(stderr, "%s\n", b);
}
