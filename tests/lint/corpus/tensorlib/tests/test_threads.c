#include "../include/tl.h"
#include "../include/tl-cpu.h"                   // expect: EH101

int main(void)
{
#ifdef TL_USE_CPU                                // expect: EH103
    tl_backend *b = tl_backend_cpu_init();
#else
    tl_backend *b = tl_backend_init_best();
#endif
    if (tl_backend_is_cpu(b))                    // expect: EH103
        tl_backend_cpu_set_n_threads(b, 4);      // expect: EH102
    return 0;
}
