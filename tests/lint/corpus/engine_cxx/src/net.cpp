#include <cmath>
#include <cstdio>
#include <string>
#include "mat.hpp"
#include "../layer/x86/relu_x86.hpp"             // expect: EH101

namespace eng {
int forward(Mat &m)
{
    std::string backend = eng_backend_name();
    if (backend == "vulkan")                     // expect: EH103
        return 1;
#ifdef ENG_VULKAN                                // expect: EH103
    return 2;
#endif
    return relu_x86(m);                          // expect: EH102
}

float energy(Mat &m)
{
    float *p = eng_data(m);
    float e = 0;
    for (int i = 0; i < m.w; i++) {
        e += p[i] * p[i];                        // expect: EH201
        e += std::sqrt(p[i]);                    // expect: EH202
    }
    int bucket = static_cast<int>(p[0]);         // expect: EH301
    return e + static_cast<float>(bucket);       // expect: EH201
}

/* look-alikes: std::vector math, the engine's own sqrt, widening casts */
float host_only(const std::vector<float> &v)
{
    float s = 0;
    for (float x : v)
        s += std::sqrt(x) * x;
    return s;
}

float own_sqrt(Mat &m)
{
    float *p = eng_data(m);
    double wide = static_cast<double>(p[0]);
    /* casting the widened element back loses nothing (no EH301); the
     * multiplication is host arithmetic on it */
    return mine::sqrt(1.0f) + static_cast<float>(m.w) + (float)wide * 0.0f;   // expect: EH201
}

void show()
{
    std::string name = eng_backend_name();
    std::printf("backend %s\n", name.c_str());
}
}
