#ifndef TL_CPU_H
#define TL_CPU_H
#include "tl.h"
tl_backend *tl_backend_cpu_init(void);
void tl_backend_cpu_set_n_threads(tl_backend *b, int n);
#endif
