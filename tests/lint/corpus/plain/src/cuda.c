#include "cuda.h"
int cuda_cores_guess(void) { return 8; }
int cublas_style_count(int n) { return n * 2; }
