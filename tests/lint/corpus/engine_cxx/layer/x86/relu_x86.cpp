#include <cmath>
#include "relu_x86.hpp"
namespace eng {
int relu_x86(Mat &m)
{
    float *p = eng_data(m);
    for (int i = 0; i < m.w; i++)
        p[i] = std::sqrt(p[i] * p[i]);
    return 0;
}
}
