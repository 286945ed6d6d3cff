// mstage's vector types have CUDA's sizes and alignments (CUDA
// programming guide, "Built-in Vector Types"; the 4-element 8-byte types as
// CUDA's *4_16a), are trivially copyable aggregates with members x, y, z, w,
// and have make_ helpers and element-wise + - * == on the host and in a
// kernel run by the CPU back end.
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// CHECK: float4 2 4 6 8 uchar4 44 2 4 6 int2 -3 8 double2 0.25 9 eq 1 0

#include <mstage.hpp>

#include <cstdio>
#include <type_traits>
#include <vector>

using namespace mstage;

#define LAYOUT(T, Size, Align)                                                 \
  static_assert(sizeof(T) == Size && alignof(T) == Align,                      \
                #T " has CUDA's size and alignment");                          \
  static_assert(std::is_trivially_copyable_v<T> && std::is_aggregate_v<T>,     \
                #T " is a trivially copyable aggregate")

LAYOUT(char1, 1, 1);
LAYOUT(char2, 2, 2);
LAYOUT(char3, 3, 1);
LAYOUT(char4, 4, 4);
LAYOUT(uchar1, 1, 1);
LAYOUT(uchar2, 2, 2);
LAYOUT(uchar3, 3, 1);
LAYOUT(uchar4, 4, 4);
LAYOUT(short1, 2, 2);
LAYOUT(short2, 4, 4);
LAYOUT(short3, 6, 2);
LAYOUT(short4, 8, 8);
LAYOUT(ushort1, 2, 2);
LAYOUT(ushort2, 4, 4);
LAYOUT(ushort3, 6, 2);
LAYOUT(ushort4, 8, 8);
LAYOUT(int1, 4, 4);
LAYOUT(int2, 8, 8);
LAYOUT(int3, 12, 4);
LAYOUT(int4, 16, 16);
LAYOUT(uint1, 4, 4);
LAYOUT(uint2, 8, 8);
LAYOUT(uint3, 12, 4);
LAYOUT(uint4, 16, 16);
LAYOUT(long1, 8, 8);
LAYOUT(long2, 16, 16);
LAYOUT(long3, 24, 8);
LAYOUT(long4, 32, 16);
LAYOUT(ulong1, 8, 8);
LAYOUT(ulong2, 16, 16);
LAYOUT(ulong3, 24, 8);
LAYOUT(ulong4, 32, 16);
LAYOUT(longlong1, 8, 8);
LAYOUT(longlong2, 16, 16);
LAYOUT(longlong3, 24, 8);
LAYOUT(longlong4, 32, 16);
LAYOUT(ulonglong1, 8, 8);
LAYOUT(ulonglong2, 16, 16);
LAYOUT(ulonglong3, 24, 8);
LAYOUT(ulonglong4, 32, 16);
LAYOUT(float1, 4, 4);
LAYOUT(float2, 8, 8);
LAYOUT(float3, 12, 4);
LAYOUT(float4, 16, 16);
LAYOUT(double1, 8, 8);
LAYOUT(double2, 16, 16);
LAYOUT(double3, 24, 8);
LAYOUT(double4, 32, 16);

int main() {
  std::vector<float4> f(1);
  std::vector<uchar4> c(1);
  std::vector<int2> i(1);
  std::vector<double2> d(1);
  std::vector<int> eq(2);
  kernel(
      [](auto &f, auto &c, auto &i, auto &d, auto &eq) {
        float4 a = make_float4(1, 2, 3, 4);
        f[0] = a + a;
        c[0] = make_uchar4(200, 1, 2, 3) + make_uchar4(100, 1, 2, 3); // wraps
        i[0] = make_int2(2, 5) - make_int2(5, 3) * make_int2(1, -1);
        d[0] = make_double2(0.5, 3) * make_double2(0.5, 3);
        eq[0] = f[0] == make_float4(2, 4, 6, 8);
        eq[1] = f[0] != make_float4(2, 4, 6, 8);
      },
      1, 1)(f, c, i, d, eq);
  std::printf("float4 %g %g %g %g uchar4 %d %d %d %d int2 %d %d double2 %g %g "
              "eq %d %d\n",
              f[0].x, f[0].y, f[0].z, f[0].w, c[0].x, c[0].y, c[0].z, c[0].w,
              i[0].x, i[0].y, d[0].x, d[0].y, eq[0], eq[1]);
}
