#ifndef MATH_H
#define MATH_H
void axpy_cpu(int n, float a, const float *x, float *y);
#endif
