/* A program with no backend: names, headers and macros that only look
 * like a backend's must stay silent. */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "cuda.h"
#include "../backends/registry.h"

#define CBLAS_LIKE(x) ((x) * 2)
#if defined(CBLAS_INDEX)
int have_cblas_index = 1;
#endif

/* "#include <cblas.h>" in a comment, and in a string: */
static const char *doc = "#include <cublas_v2.h>";

int fftw_style_plan(int n) { return n; }

int main(int argc, char **argv)
{
    int n = cuda_cores_guess() + cublas_style_count(argc) + fftw_style_plan(2);
    const char *backend = argc > 1 ? argv[1] : "cpu";
    if (strcmp(backend, "gpu") == 0)
        n++;
    double r = sqrt((double)n) / 2;
    printf("%s %d %f %d %d\n", doc, n, r, CBLAS_LIKE(n), registry_size());
    return 0;
}
