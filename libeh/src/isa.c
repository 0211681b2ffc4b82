/* The instruction-set level of the per-ISA kernels (<eh/backend_api.h>).
 *
 * Detected once: __builtin_cpu_supports asks CPUID and checks that the OS
 * saves the wide registers (XCR0), so a level is only chosen when its code
 * can run.  EH_ISA lowers it (never raises it); eh_isa_set changes it at
 * run time for tests that exercise every path on one machine. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static eh_isa detected = EH_ISA_SSE2;
static _Atomic int current = EH_ISA_SSE2;

static const char *const names[EH_ISA_COUNT] = {"sse2", "avx2", "avx512"};

const char *eh_isa_name(eh_isa level)
{
    return (int)level >= 0 && level < EH_ISA_COUNT ? names[level] : "?";
}

static eh_isa detect(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    int v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
             __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    int v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
    return v4 ? EH_ISA_AVX512 : v3 ? EH_ISA_AVX2 : EH_ISA_SSE2;
#else
    return EH_ISA_SSE2;
#endif
}

static void init(void)
{
    detected = detect();
    eh_isa level = detected;
    const char *env = getenv("EH_ISA");
    for (int k = 0; env && k < EH_ISA_COUNT; k++)
        if (strcmp(env, names[k]) == 0 && (eh_isa)k < level)
            level = (eh_isa)k;
    atomic_store(&current, (int)level);
}

eh_isa eh_isa_detected(void)
{
    pthread_once(&once, init);
    return detected;
}

eh_isa eh_isa_level(void)
{
    pthread_once(&once, init);
    return (eh_isa)atomic_load_explicit(&current, memory_order_relaxed);
}

eh_isa eh_isa_set(eh_isa level)
{
    pthread_once(&once, init);
    if ((int)level < 0 || level > detected)
        level = detected;
    atomic_store(&current, (int)level);
    return level;
}
