// MSTAGE_CHECK=cpu. On the CPU back end each launch runs twice, the second
// time on copies of its inputs, and the outputs are compared: here they
// agree, and the program's results are those of one run. A kernel that
// takes a raw pointer (or a view) cannot be checked, which is said once. The comparison
// itself (mstage::detail::first_divergence): floats within the relative
// tolerance, NaN against NaN, integers exactly, other types byte for byte,
// or as the values check_as names.
// Bad settings are errors.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=cpu MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=cpu MSTAGE_CHECK_RTOL=1e-2 %t 2>&1 | FileCheck %s --check-prefix=LOOSE
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=gpu %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=cpu MSTAGE_CHECK_RTOL=tight %t 2>&1 | FileCheck %s --check-prefix=BAD-RTOL
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

struct Pair {
  int A;
  float B;
};
struct Vec4 {
  float X, Y, Z, W;
};
template <> struct mstage::check_as<Vec4> {
  using type = float;
};

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0); // in order with stderr
  try {
    std::vector<float> X(1000), Y(1000, 1.0f);
    for (int I = 0; I < 1000; ++I)
      X[I] = float(I);
    auto Axpy = mstage::kernel(
        [](const auto &X, auto &Y, float A) {
          unsigned I = mstage::Thread::get().global.x;
          if (I < X.size())
            Y[I] += A * X[I];
        },
        4, 256);
    Axpy(X, Y, 2.0f);
    std::printf("y[999] = %g\n", Y[999]); // one run's result: 1 + 2 * 999

    int *Raw = nullptr;
    auto Pointer = mstage::kernel(
        [](int *P) {
          if (P)
            *P = 1;
        },
        1, 1);
    Pointer(Raw);
    Pointer(Raw);

    using mstage::detail::first_divergence;
    float F1[] = {1.0f, 2.0f, 3.0f}, F2[] = {1.0f, 2.000001f, 3.1f};
    double Nan = std::numeric_limits<double>::quiet_NaN();
    double D1[] = {Nan, 0.0}, D2[] = {Nan, 0.0};
    int I1[] = {1, 2}, I2[] = {1, 3};
    Pair P1[] = {{1, 1.0f}}, P2[] = {{1, 1.0000001f}};
    std::printf("floats: %s\n", first_divergence(F1, F2, 3).c_str());
    std::printf("nan: '%s'\n", first_divergence(D1, D2, 2).c_str());
    // 1e-3 against 1.001e-3 is far apart for itself, close for the array.
    float C1[] = {100.0f, 1e-3f}, C2[] = {100.0f, 1.001e-3f};
    std::printf("cancellation: '%s'\n", first_divergence(C1, C2, 2).c_str());
    std::printf("ints: %s\n", first_divergence(I1, I2, 2).c_str());
    std::printf("structs: %s\n", first_divergence(P1, P2, 1).c_str());
    Vec4 V1[] = {{1, 2, 3, 4}, {5, 6, 7, 8}},
         V2[] = {{1, 2, 3.0000001f, 4}, {5, 6, 7.5f, 8}};
    std::printf("check_as: %s\n", first_divergence(V1, V2, 2).c_str());
  } catch (const mstage::error &E) {
    std::printf("error: %s\n", E.what());
  }
}

// CHECK: mstage: MSTAGE_CHECK=cpu: each launch also runs on the CPU back end, and the outputs are compared
// CHECK: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}check.cpp:42:9' {{.*}} backend cpu
// CHECK-NEXT: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}check.cpp:42:9' {{.*}} backend cpu
// CHECK: y[999] = 1999
// CHECK: mstage: MSTAGE_CHECK=cpu: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}check.cpp:53:9' takes a pointer to device memory (a raw pointer or a view), which the CPU cannot follow; its launches are not checked (pass a device_vector instead)
// CHECK-NOT: a pointer to device memory
// CHECK: floats: element 2 of 3: first run 3, second run 3.0999999
// CHECK: nan: ''
// CHECK: cancellation: ''
// CHECK: ints: element 1 of 2: first run 2, second run 3
// CHECK: structs: element 0 of 1 differs (compared byte for byte)
// CHECK: check_as: element 1 of 2, value 2 of its 4: first run 7, second run 7.5

// LOOSE: floats: element 2 of 3: first run 3, second run 3.0999999
// LOOSE-NOT: error

// BAD: error: mstage: MSTAGE_CHECK='gpu' is not a list of cpu, stage and streams, or off
// BAD-RTOL: error: mstage: MSTAGE_CHECK_RTOL='tight' is not a relative tolerance such as 1e-5
