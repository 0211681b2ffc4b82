/* The hand-written C references (see c_reference.h). */
#define _GNU_SOURCE /* madvise, MADV_HUGEPAGE: this file only */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "c_reference.h"

float *cref_alloc(int64_t n, int huge)
{
    size_t bytes = ((size_t)n * sizeof(float) + 4095) / 4096 * 4096;
    float *p = aligned_alloc(huge ? 4096 : 64, bytes ? bytes : 4096);
#ifdef MADV_HUGEPAGE
    if (p && huge)
        (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

#ifdef EH_HAVE_BLAS
#include <cblas.h>
/* OpenBLAS's own call (also declared by OpenBLAS's cblas.h). */
void openblas_set_num_threads(int num_threads);

const char *cref_blas_name(void) { return "OpenBLAS cblas_sgemm"; }

int cref_sgemm(int n, const float *a, const float *b, float *c, int threads)
{
    openblas_set_num_threads(threads);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    return 0;
}
#else
const char *cref_blas_name(void) { return NULL; }

int cref_sgemm(int n, const float *a, const float *b, float *c, int threads)
{
    (void)n, (void)a, (void)b, (void)c, (void)threads;
    return -1;
}
#endif

#define MAX_THREADS 256

typedef struct job {
    const float *x, *y;
    float *out;
    int64_t begin, end;
    float m, s;
    void (*body)(const struct job *);
} job;

#ifdef EH_HAVE_BLAS
/* The same vector math as libeh's blas and lazy backends: blas's f32 tanh
 * kernel for the machine's instruction set (backends/blas/simd/vecmath.c),
 * through blas's table (this is a
 * reference program, not frontend code: it may reach into the backend). */
#include "../../backends/blas/vecmath.h"
#define CHAIN_BLOCK 1024
static void chain_body(const job *j)
{
    const float *x = j->x;
    float *out = j->out;
    const float m = j->m, s = j->s;
    const eh_blas_vm *vm = eh_blas_vm_current();
    int64_t b = j->begin;
    /* whole blocks: loops of a constant trip count, which -O2 vectorizes */
    for (; b + CHAIN_BLOCK <= j->end; b += CHAIN_BLOCK) {
        float *restrict o = out + b;
        const float *restrict xb = x + b;
        for (int64_t i = 0; i < CHAIN_BLOCK; i++)
            o[i] = (xb[i] - m) / s;
        vm->tanh_f(o, o, CHAIN_BLOCK);
        for (int64_t i = 0; i < CHAIN_BLOCK; i++)
            o[i] = fabsf(o[i] * 3.0f + 1.0f);
        vm->sqrt_f(o, o, CHAIN_BLOCK);
    }
    int64_t len = j->end - b;
    if (len > 0) {
        float *o = out + b;
        for (int64_t i = 0; i < len; i++)
            o[i] = (x[b + i] - m) / s;
        vm->tanh_f(o, o, len);
        for (int64_t i = 0; i < len; i++)
            o[i] = sqrtf(fabsf(o[i] * 3.0f + 1.0f));
    }
}
const char *cref_chain_math(void) { return "blas's vector tanhf (simd/vecmath.c) through its vector-math table"; }
#else
static void chain_body(const job *j)
{
    const float *x = j->x;
    float *out = j->out;
    const float m = j->m, s = j->s;
    for (int64_t i = j->begin; i < j->end; i++)
        out[i] = sqrtf(fabsf(tanhf((x[i] - m) / s) * 3.0f + 1.0f));
}
const char *cref_chain_math(void) { return "libm tanhf (no blas backend built)"; }
#endif

static void add_body(const job *j)
{
    const float *x = j->x, *y = j->y;
    float *out = j->out;
    for (int64_t i = j->begin; i < j->end; i++)
        out[i] = x[i] + y[i];
}

static void *thread_main(void *arg)
{
    const job *j = arg;
    j->body(j);
    return NULL;
}

/* Split [0, n) into `threads` contiguous ranges (multiples of 16
 * elements), run body on each; the caller takes the first range. */
static void run_split(job proto, int64_t n, int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (n < 65536)
        threads = 1;
    job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS];
    int64_t chunk = ((n + threads - 1) / threads + 15) / 16 * 16;
    for (int t = 0; t < threads; t++) {
        jobs[t] = proto;
        jobs[t].begin = (int64_t)t * chunk < n ? (int64_t)t * chunk : n;
        jobs[t].end = jobs[t].begin + chunk < n ? jobs[t].begin + chunk : n;
        started[t] = 0;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, thread_main, &jobs[t]) == 0;
    jobs[0].body(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            jobs[t].body(&jobs[t]); /* could not start a thread: do it here */
    }
}

void cref_chain(const float *x, float *out, int64_t n, float m, float s, int threads)
{
    job proto = {x, NULL, out, 0, 0, m, s, chain_body};
    run_split(proto, n, threads);
}

void cref_add(const float *x, const float *y, float *out, int64_t n, int threads)
{
    job proto = {x, y, out, 0, 0, 0.0f, 0.0f, add_body};
    run_split(proto, n, threads);
}
