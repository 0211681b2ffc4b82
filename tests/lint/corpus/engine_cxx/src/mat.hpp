// The engine's frontend API.
#pragma once
#include <string>
#include <vector>
namespace eng {
struct Mat { int w = 0; std::vector<float> v; };
}
float *eng_data(eng::Mat &m);
const char *eng_backend_name();
namespace mine {
inline float sqrt(float x) { return x; }
}
