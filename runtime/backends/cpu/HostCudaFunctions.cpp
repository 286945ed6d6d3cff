//===- HostCudaFunctions.cpp - Host definitions of CUDA's device functions ===//
//
// The functions of include/mstage/cuda_functions.def that
// <mstage/cuda_compat.hpp> declares (rsqrtf, __expf, __float2int_rn, ...),
// for the host copy of a kernel: the CPU back end and plain host code. On the
// device the same calls become libdevice's (passes/transforms/DeviceCodegen).
//
//===----------------------------------------------------------------------===//
#include "support/Export.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

namespace mstage::rt {
namespace {

// The GPU's float-to-integer conversion: out of range the nearest bound; NaN
// gives 0 from a float to 32 bits, but the signed minimum from a double or to
// 64 bits (measured on an H100).
template <class Int, class Float> Int saturate(Float Rounded) {
  if (Rounded != Rounded)
    return (sizeof(Int) == 8 || sizeof(Float) == 8) &&
                   std::numeric_limits<Int>::is_signed
               ? std::numeric_limits<Int>::min()
               : 0;
  if (Rounded <= Float(std::numeric_limits<Int>::min()))
    return std::numeric_limits<Int>::min();
  if (Rounded >= Float(std::numeric_limits<Int>::max()))
    return std::numeric_limits<Int>::max();
  return Int(Rounded);
}

// The low 24 bits of V, sign-extended (__mul24's operands).
long long low24(int V) {
  return (long long)(unsigned(V) << 8 >> 8 ^ 0x800000u) - 0x800000;
}

// __byte_perm: byte I of the result is byte (Selector >> 4 * I) & 7 of the
// eight bytes B:A.
unsigned bytePermute(unsigned A, unsigned B, unsigned Selector) {
  unsigned long long Bytes = (unsigned long long)B << 32 | A;
  unsigned R = 0;
  for (unsigned I = 0; I < 4; ++I)
    R |= unsigned(Bytes >> 8 * ((Selector >> 4 * I) & 7) & 0xff) << 8 * I;
  return R;
}

} // namespace
} // namespace mstage::rt

extern "C" {
#define MSTAGE_CUDA_FUNCTION(RET, NAME, PARAMS, LIBDEVICE, HOST)               \
  MSTAGE_EXPORT RET NAME PARAMS noexcept { return HOST; }
#include "mstage/cuda_functions.def"
}
