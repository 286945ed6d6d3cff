// The GPU has no conversion between floating-point types and integers wider
// than 64 bits (NVPTX would stop the process at the first launch): each such
// conversion in kernel code, explicit, implicit or in a compound assignment,
// signed or unsigned, from or to float or double, is an error at its
// operand. Conversions of constants are done by the compiler and are fine.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

template <class T> double widen(T x);

int main() {
  std::vector<double> v(16);
  auto k = mstage::kernel([](mstage::vector_view<double> a) {
    unsigned i = mstage::Thread::get().global.x;
    // CHECK: int128-float-conversion.cpp:[[@LINE+1]]:28: error: mstage: conversion from 'double' to '__int128' is not supported in kernels; the GPU has no conversion between floating-point types and integers wider than 64 bits. Convert through 'long long' or 'unsigned long long'
    __int128 x = (__int128)a[i];
    // CHECK: int128-float-conversion.cpp:[[@LINE+1]]:27: error: mstage: conversion from 'double' to 'unsigned __int128' is not supported in kernels
    unsigned __int128 y = a[i];
    float f = float(a[i]);
    // CHECK: int128-float-conversion.cpp:[[@LINE+1]]:40: error: mstage: conversion from 'float' to '__int128' is not supported in kernels
    __int128 z = static_cast<__int128>(f);
    // CHECK: int128-float-conversion.cpp:[[@LINE+2]]:20: error: mstage: conversion from '__int128' to 'double' is not supported in kernels
    // CHECK: int128-float-conversion.cpp:[[@LINE+1]]:31: error: mstage: conversion from 'unsigned __int128' to 'float' is not supported in kernels
    a[i] = (double)x + (float)y;
    // z is converted to double, and the sum back to __int128.
    // CHECK: int128-float-conversion.cpp:[[@LINE+1]]:7: error: mstage: conversion from '__int128' to 'double' is not supported in kernels
    z += a[i];
    a[i] += widen(z);
    // Constants are converted at compile time; 64-bit conversions are fine.
    constexpr __int128 c = 1.5e30;
    double d = (double)((unsigned __int128)1 << 100);
    a[i] += double((long long)x) + d + (double)c + (float)(unsigned long long)y;
  }, 1, 16);
  k(v);
}

template <class T> double widen(T x) {
  // CHECK: int128-float-conversion.cpp:[[@LINE+1]]:10: error: mstage: conversion from '__int128' to 'double' is not supported in kernels
  return x;
}
// CHECK: int128-float-conversion.cpp:28:13: note: called from the kernel lambda here
