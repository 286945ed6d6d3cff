// The other file: device code that xtu_main.cpp's kernels call.
#include "xtu.h"

#include <cstdio>

#ifndef BIAS
#define BIAS 0.25f
#endif

// Internal to this file: linked along with what calls it.
static float bias(float x) { return x + BIAS; }

float scale(float x, int n) { return bias(x) * n; }

// Calls into a third file.
double scale(double x, int n) { return shift(x * n); }

// A template, instantiated at the end of this file, after wrap() was
// checked.
template <class T> T atMost(T x, T hi) { return x < hi ? x : hi; }

int Ring::wrap(int i) const { return atMost(i % size, size - 1); }

// Host code (stderr is a host variable): not device code, so not exported.
void report(float x) { std::fprintf(stderr, "%g\n", x); }
