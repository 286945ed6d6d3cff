// What cross_tu.cpp's kernels call and cross_tu_lib.cpp defines.
#ifndef MSTAGE_TEST_GPU_CROSS_TU_H
#define MSTAGE_TEST_GPU_CROSS_TU_H

// A 1-D blur of In at I with a window of Radius on each side, clamped at
// the ends: a loop whose trip count the kernel stages.
float blurAt(const float *In, int N, int I, int Radius);

// A polynomial with Horner's rule, on a double.
double horner(double X, const double *Coeffs, int Degree);

#endif
