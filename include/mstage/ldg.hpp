// mstage::ldg(p): a read-only load, as CUDA's __ldg, for any trivially
// copyable T (scalars, the vector and half types, small structs).
//
//   float4 v = mstage::ldg(&in[i]);   // ld.global.nc.v4
//
// The launch facts already make loads of views that the kernel only reads
// read-only when the views do not overlap (docs/architecture.md, "Facts
// known at launch"); ldg is for what the runtime cannot know: a pointer
// computed in the kernel, or a buffer that another view of the launch
// writes, but not where this thread reads it. As with __ldg, the memory must
// be global (a device_vector, a view, a device allocation) and must not
// change during the launch; the load may see the value from before any
// store of the same launch.
//
// T is read in the widest chunks its alignment allows (16, 8, 4, 2 or 1
// bytes): float4 is one 16-byte load, float3 three 4-byte loads.
#ifndef MSTAGE_LDG_HPP
#define MSTAGE_LDG_HPP

#include <cstddef>
#include <cstring>
#include <type_traits>

// Each is a load of its width from p on the host; the device lowering
// (passes/transforms/DeviceBuiltins.cpp) makes it a non-coherent global load,
// keyed on the result type, so the names are a contract with that pass.
extern "C" {
typedef unsigned __mstage_ldg_v4u32_t __attribute__((vector_size(16)));
unsigned char __mstage_ldg_u8(const void *p);
unsigned short __mstage_ldg_u16(const void *p);
unsigned __mstage_ldg_u32(const void *p);
unsigned long long __mstage_ldg_u64(const void *p);
__mstage_ldg_v4u32_t __mstage_ldg_v4u32(const void *p);
// 16 bytes of data read once (the algorithms' inputs): where the
// architecture has the hints, the load skips L1 and has L2 fetch 256 bytes
// (passes/transforms/DeviceStreamLoads.cpp); elsewhere it is
// __mstage_ldg_v4u32.
__mstage_ldg_v4u32_t __mstage_ldg_stream_v4u32(const void *p);
}

namespace mstage {
namespace detail {
template <std::size_t Bytes> inline auto ldgChunk(const unsigned char *p) {
  if constexpr (Bytes == 16)
    return __mstage_ldg_v4u32(p);
  else if constexpr (Bytes == 8)
    return __mstage_ldg_u64(p);
  else if constexpr (Bytes == 4)
    return __mstage_ldg_u32(p);
  else if constexpr (Bytes == 2)
    return __mstage_ldg_u16(p);
  else
    return __mstage_ldg_u8(p);
}
} // namespace detail

template <class _Tp> inline _Tp ldg(const _Tp *p) {
  static_assert(std::is_trivially_copyable_v<_Tp>,
                "mstage::ldg reads a trivially copyable type only");
  constexpr std::size_t Chunk = alignof(_Tp) >= 16  ? 16
                                : alignof(_Tp) >= 8 ? 8
                                : alignof(_Tp) >= 4 ? 4
                                : alignof(_Tp) >= 2 ? 2
                                                    : 1;
  // sizeof(T) is a multiple of alignof(T), hence of Chunk.
  struct Raw {
    alignas(_Tp) unsigned char Bytes[sizeof(_Tp)];
  } _Rp;
  const auto *From = reinterpret_cast<const unsigned char *>(p);
  for (std::size_t _Ip = 0; _Ip < sizeof(_Tp); _Ip += Chunk) {
    auto Part = detail::ldgChunk<Chunk>(From + _Ip);
    std::memcpy(_Rp.Bytes + _Ip, &Part, Chunk);
  }
  // No default constructor is needed.
  return __builtin_bit_cast(_Tp, _Rp);
}
} // namespace mstage

#endif // MSTAGE_LDG_HPP
