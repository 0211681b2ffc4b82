// The x86 backend's layer.
#pragma once
#include "../../src/mat.hpp"
namespace eng { int relu_x86(Mat &m); }
