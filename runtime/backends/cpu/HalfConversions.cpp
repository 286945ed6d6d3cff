//===- HalfConversions.cpp - float to bfloat16 for the host ---------------===//
//
// x86-64 without AVX512-BF16 rounds float to __bf16 by calling
// __truncsfbf2, which compiler-rt and libgcc 13 define but Debian 12's
// libgcc 12 does not: mstage::bfloat16 (include/mstage/half.hpp) in host
// code and in the kernels the CPU back end runs would not link. Weak, so
// that a toolchain's own definition wins. The device has cvt.rn.bf16.f32
// and never calls it.
//
//===----------------------------------------------------------------------===//
#include "support/Export.h"

#include <cstdint>
#include <cstring>

// The result is returned as a _Float16 carrying the bfloat16's bits: both
// come back in the low half of %xmm0, and the runtime's compiler (GCC 12)
// has no __bf16.
extern "C" MSTAGE_EXPORT __attribute__((weak)) _Float16 __truncsfbf2(float F) {
  std::uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  std::uint16_t Half;
  if ((Bits & 0x7fffffffu) > 0x7f800000u) {
    Half = std::uint16_t((Bits >> 16) | 0x40u); // a NaN stays one, quiet
  } else {
    // Round to nearest, ties to even: add just under half of the dropped
    // part's unit, and one more when the kept part is odd.
    Bits += 0x7fffu + ((Bits >> 16) & 1u);
    Half = std::uint16_t(Bits >> 16);
  }
  _Float16 R;
  std::memcpy(&R, &Half, 2);
  return R;
}
