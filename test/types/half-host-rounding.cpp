// float to half and bfloat16 rounds to nearest, ties to even, in host code
// and in kernels on the CPU back end: on x86-64 bfloat16 needs
// __truncsfbf2, which Debian 12's libgcc lacks and the runtime provides
// (runtime/backends/cpu/HalfConversions.cpp; without it this does not link).
// Ties go to the even neighbour, overflow to infinity, a NaN stays a NaN.
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// CHECK:      host bf16 3f80 3f82 3f81 7f80 nan c0a0 half 3c00 3c02 7c00 nan
// CHECK-NEXT: kernel bf16 3f80 3f82 3f81 7f80 nan c0a0 half 3c00 3c02 7c00 nan

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace mstage;

// 1 + 2^-8 and 1 + 3 * 2^-8 lie halfway between two bfloat16 values (ties
// to 1 and to 1 + 2^-6), 1 + 2^-8 + 2^-23 just above the first (up); the
// half values likewise at 2^-11.
constexpr float In[] = {0x1.01p+0f,  0x1.03p+0f,  0x1.010002p+0f,
                        3.4e38f,     NAN,         -5.0f,
                        0x1.002p+0f, 0x1.006p+0f, 7.0e4f};

// A NaN's payload is the platform's: it is only said to be a NaN.
void print(const char *Where, const std::vector<unsigned> &B) {
  auto Show = [](bool NaN, unsigned Bits) {
    if (NaN)
      std::printf(" nan");
    else
      std::printf(" %x", Bits);
  };
  std::printf("%s bf16", Where);
  for (int I = 0; I < 6; ++I)
    Show(std::isnan(float(bfloat16::from_bits(B[I]))), B[I]);
  std::printf(" half");
  for (int I = 6; I < 10; ++I)
    Show(std::isnan(float(half::from_bits(B[I]))), B[I]);
  std::printf("\n");
}

int main() {
  std::vector<float> Values(In, In + 9);
  Values.push_back(NAN);
  std::vector<unsigned> Host(10), Device(10);
  for (int I = 0; I < 10; ++I)
    Host[I] = I < 6 ? bfloat16(Values[I]).bits() : half(Values[I]).bits();
  kernel(
      [](const auto &V, auto &B) {
        int I = int(Thread::get().index.x);
        B[I] = I < 6 ? bfloat16(V[I]).bits() : half(V[I]).bits();
      },
      1, 10)(Values, Device);
  print("host", Host);
  print("kernel", Device);
}
