/* The project's own helpers with a library's prefix: its own, not CUDA's. */
#include <stdio.h>
#include "../include/app.h"

static int seen;

void cuda_log(const char *what)
{
    seen++;
    fprintf(stderr, "gpu: %s\n", what);
}

int cuda_seen(void) { return seen; }
