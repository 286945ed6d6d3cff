// __mul24 and __umul24 return the low 32 bits of the product of their
// operands' low 24 bits (sign-extended for __mul24), as CUDA's do, also when
// the result is widened to 64 bits: the product takes up to 48 bits, and
// libdevice's __nv_mul24 marks its 32-bit multiply no-signed-wrap, which let
// LLVM fold the sign extension into a 64-bit multiply that returned all 48
// bits (on an H100, 0xffffd92db568ca46 where CUDA gives -1251423674).
// The device code must multiply in 32 bits (mul.lo.s32, as nvcc's PTX for
// the same calls) and extend afterwards (cvt.s64.s32 for __mul24,
// cvt.u64.u32 for __umul24), with no 64-bit multiply; the CPU back end's
// results are compared with the low 32 bits of the 64-bit products.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -std=c++20 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t | FileCheck %s --check-prefix=NONE
// RUN: cat %t.dump/*.ptx | FileCheck %s --implicit-check-not=mul.wide --implicit-check-not=mul.lo.s64
// RUN: cat %t.dump/*.ptx | FileCheck %s --check-prefix=EXT
// RUN: cat %t.dump/*.ptx | FileCheck %s --check-prefix=UEXT
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=HOST
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <mstage/cuda_compat.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

// CHECK: .entry
// CHECK-COUNT-12: mul.lo.s32
// EXT-COUNT-6: cvt.s64.s32
// UEXT-COUNT-6: cvt.u64.u32

// NONE: checked 0 pairs
// HOST: checked 6 pairs, 0 wrong

// The operands' low 24 bits, sign-extended or not, multiplied in 64 bits.
static std::int64_t product(std::uint32_t A, std::uint32_t B, bool Signed) {
  auto Low = [&](std::uint32_t V) -> std::int64_t {
    std::int64_t L = V & 0xffffff;
    return Signed && L >= 0x800000 ? L - 0x1000000 : L;
  };
  return Low(A) * Low(B);
}

int main() {
  // Operands whose products need more than 32 bits, with high bytes that
  // must be ignored; the first pair is the GPU suite's.
  const std::vector<std::uint32_t> A = {0x9e3779b9u, 0x007fffffu, 0xff800000u,
                                        0x12ffffffu, 0x00abcdefu, 0u};
  const std::vector<std::uint32_t> B = {0x7f4a7c15u, 0x007fffffu, 0x00800000u,
                                        0xab000001u, 0xfffedcbau, 0xffffffu};
  std::vector<long long> Signed(A.size()), Unsigned(A.size());
  mstage::kernel(
      [](const auto &A, const auto &B, auto &Signed, auto &Unsigned) {
        // Constant indices: no index arithmetic beside the multiplies.
        Signed[0] = __mul24(int(A[0]), int(B[0]));
        Unsigned[0] = __umul24(A[0], B[0]);
        Signed[1] = __mul24(int(A[1]), int(B[1]));
        Unsigned[1] = __umul24(A[1], B[1]);
        Signed[2] = __mul24(int(A[2]), int(B[2]));
        Unsigned[2] = __umul24(A[2], B[2]);
        Signed[3] = __mul24(int(A[3]), int(B[3]));
        Unsigned[3] = __umul24(A[3], B[3]);
        Signed[4] = __mul24(int(A[4]), int(B[4]));
        Unsigned[4] = __umul24(A[4], B[4]);
        Signed[5] = __mul24(int(A[5]), int(B[5]));
        Unsigned[5] = __umul24(A[5], B[5]);
      },
      1, 1)(A, B, Signed, Unsigned);
  if (!mstage_rt_executes()) {
    std::printf("checked 0 pairs\n");
    return 0;
  }
  int Wrong = 0;
  for (std::size_t I = 0; I < A.size(); ++I) {
    const long long WantS = std::int32_t(std::uint32_t(product(A[I], B[I], true)));
    const long long WantU = std::uint32_t(product(A[I], B[I], false));
    if (Signed[I] != WantS || Unsigned[I] != WantU) {
      std::printf("pair %zu: __mul24 %lld (want %lld), __umul24 %lld (want "
                  "%lld)\n",
                  I, Signed[I], WantS, Unsigned[I], WantU);
      ++Wrong;
    }
  }
  std::printf("checked %zu pairs, %d wrong\n", A.size(), Wrong);
  return Wrong != 0;
}
