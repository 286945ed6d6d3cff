// CUDA's names for kernel code, so that the body of a __global__ function
// ports into a kernel lambda unchanged (docs/porting-from-cuda.md):
//
//   #include <mstage/cuda_compat.hpp>
//   auto k = mstage::kernel([=](const float *x, float *y, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n)
//       atomicAdd(&y[i % 64], __expf(x[i]) * rsqrtf(x[i]));
//   }, grid, block);
//
// It declares, in the global namespace as CUDA does, and in mstage::cuda:
//  - threadIdx, blockIdx, blockDim, gridDim (macros for mstage::cuda's
//    thread_idx(), block_idx(), block_dim(), grid_dim(), which return a
//    uint3, so that `auto i = threadIdx.x` is an unsigned as in CUDA) and
//    warpSize;
//  - __syncthreads, __syncwarp, __threadfence, __threadfence_block;
//  - atomicAdd, atomicSub, atomicExch, atomicMin, atomicMax, atomicInc,
//    atomicDec, atomicCAS, atomicAnd, atomicOr, atomicXor, and the _block
//    forms of the first nine (relaxed, as CUDA's);
//  - __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync,
//    __ballot_sync, __any_sync, __all_sync, __activemask, __match_any_sync,
//    __match_all_sync, and __reduce_add/min/max/and/or/xor_sync;
//  - __ldg;
//  - min and max of two numbers of one type, as CUDA's overloads;
//  - the bit casts (__float_as_int, __int_as_float, ...);
//  - the functions of mstage/cuda_functions.def (rsqrtf, __expf, __fdividef,
//    __saturatef, __fmul_rn, __float2int_rn, __popc, ...), which the device
//    maps to the libdevice functions nvcc uses and the host defines.
// <math.h> gives the float overloads of the C math functions (expf's
// exp(float), fabsf's abs(float)) in the global namespace, as CUDA does.
//
// Macro hygiene: names that are not CUDA's are mstage_ or MSTAGE_ prefixed
// or in namespace mstage.
#ifndef MSTAGE_CUDA_COMPAT_HPP
#define MSTAGE_CUDA_COMPAT_HPP

#include "mstage/atomic.hpp"
#include "mstage/bounds_check.hpp"
#include "mstage/builtins.h"
#include "mstage/ldg.hpp"
#include "mstage/vector_types.hpp"
#include "mstage/warp.hpp"

#include <atomic>
#include <math.h>

extern "C" {
// The same declarations (and exception specifications) as glibc's <math.h>
// for the names both have (__expf, __sinf, ...).
#define MSTAGE_CUDA_FUNCTION(RET, NAME, PARAMS, LIBDEVICE, HOST)               \
  RET NAME PARAMS noexcept;
#include "mstage/cuda_functions.def"
}

namespace mstage::cuda {

#define MSTAGE_CUDA_FUNCTION(RET, NAME, PARAMS, LIBDEVICE, HOST) using ::NAME;
#include "mstage/cuda_functions.def"

// The thread's indices and the launch's extents, as CUDA's built-in
// variables (which the macros below spell as in CUDA).
inline uint3 thread_idx() {
  return {__mstage_tid_x(), __mstage_tid_y(), __mstage_tid_z()};
}
inline uint3 block_idx() {
  return {__mstage_ctaid_x(), __mstage_ctaid_y(), __mstage_ctaid_z()};
}
inline uint3 block_dim() {
  return {__mstage_ntid_x(), __mstage_ntid_y(), __mstage_ntid_z()};
}
inline uint3 grid_dim() {
  return {__mstage_nctaid_x(), __mstage_nctaid_y(), __mstage_nctaid_z()};
}
inline constexpr int warpSize = 32;

// __syncthreads is checked as Block::synchronize() is (errors.md).
inline void
__syncthreads(detail::source_place mstage_place = detail::source_place()) {
  detail::block_barrier(mstage_place);
}
inline void __syncwarp(unsigned mstage_mask = warp::full_mask) {
  warp::sync(mstage_mask);
}
// Device-scope fences (fence.sc.gpu); __threadfence_block is one too, which
// orders more than CUDA's block-scope fence needs.
inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_block() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

template <class MstageT> MstageT __ldg(const MstageT *mstage_p) {
  return ldg(mstage_p);
}

// Atomics: relaxed, returning the old value; the operand's type is the
// pointee's (atomicAdd(&f, 1) adds 1.0f to a float), as CUDA's overloads.
#define MSTAGE_CUDA_ATOMIC(NAME, FUNCTION)                                     \
  template <class MstageT>                                                     \
  MstageT NAME(MstageT *mstage_p, detail::identity_t<MstageT> mstage_v) {      \
    return FUNCTION<scope::device>(mstage_p, mstage_v);                        \
  }                                                                            \
  template <class MstageT>                                                     \
  MstageT NAME##_block(MstageT *mstage_p,                                      \
                       detail::identity_t<MstageT> mstage_v) {                 \
    return FUNCTION<scope::block>(mstage_p, mstage_v);                         \
  }
MSTAGE_CUDA_ATOMIC(atomicAdd, atomic_add)
MSTAGE_CUDA_ATOMIC(atomicSub, atomic_sub)
MSTAGE_CUDA_ATOMIC(atomicExch, atomic_exch)
MSTAGE_CUDA_ATOMIC(atomicMin, atomic_min)
MSTAGE_CUDA_ATOMIC(atomicMax, atomic_max)
MSTAGE_CUDA_ATOMIC(atomicAnd, atomic_and)
MSTAGE_CUDA_ATOMIC(atomicOr, atomic_or)
MSTAGE_CUDA_ATOMIC(atomicXor, atomic_xor)
#undef MSTAGE_CUDA_ATOMIC
template <class MstageT>
MstageT atomicCAS(MstageT *mstage_p, detail::identity_t<MstageT> mstage_compare,
                  detail::identity_t<MstageT> mstage_v) {
  return atomic_cas(mstage_p, mstage_compare, mstage_v);
}
template <class MstageT>
MstageT atomicCAS_block(MstageT *mstage_p,
                        detail::identity_t<MstageT> mstage_compare,
                        detail::identity_t<MstageT> mstage_v) {
  return atomic_cas<scope::block>(mstage_p, mstage_compare, mstage_v);
}
// atom.inc.u32 and atom.dec.u32 (device scope).
inline unsigned atomicInc(unsigned *mstage_p, unsigned mstage_limit) {
  return __mstage_atomic_inc_u32(mstage_p, mstage_limit);
}
inline unsigned atomicDec(unsigned *mstage_p, unsigned mstage_limit) {
  return __mstage_atomic_dec_u32(mstage_p, mstage_limit);
}

// Warp functions: CUDA's argument order (the mask first).
inline unsigned __activemask() { return warp::activemask(); }
inline unsigned __ballot_sync(unsigned mstage_mask, int mstage_pred) {
  return warp::ballot(mstage_pred != 0, mstage_mask);
}
inline int __any_sync(unsigned mstage_mask, int mstage_pred) {
  return warp::any(mstage_pred != 0, mstage_mask);
}
inline int __all_sync(unsigned mstage_mask, int mstage_pred) {
  return warp::all(mstage_pred != 0, mstage_mask);
}
template <class MstageT>
MstageT __shfl_sync(unsigned mstage_mask, MstageT mstage_v, int mstage_lane,
                    int mstage_width = warpSize) {
  return warp::shfl(mstage_v, mstage_lane, mstage_mask, mstage_width);
}
template <class MstageT>
MstageT __shfl_up_sync(unsigned mstage_mask, MstageT mstage_v,
                       unsigned mstage_delta, int mstage_width = warpSize) {
  return warp::shfl_up(mstage_v, mstage_delta, mstage_mask, mstage_width);
}
template <class MstageT>
MstageT __shfl_down_sync(unsigned mstage_mask, MstageT mstage_v,
                         unsigned mstage_delta, int mstage_width = warpSize) {
  return warp::shfl_down(mstage_v, mstage_delta, mstage_mask, mstage_width);
}
template <class MstageT>
MstageT __shfl_xor_sync(unsigned mstage_mask, MstageT mstage_v,
                        int mstage_lane_mask, int mstage_width = warpSize) {
  return warp::shfl_xor(mstage_v, mstage_lane_mask, mstage_mask,
                        mstage_width);
}

template <class MstageT>
unsigned __match_any_sync(unsigned mstage_mask, MstageT mstage_v) {
  return warp::match_any(mstage_v, mstage_mask);
}
template <class MstageT>
unsigned __match_all_sync(unsigned mstage_mask, MstageT mstage_v,
                          int *mstage_pred) {
  unsigned mstage_lanes = warp::match_all(mstage_v, mstage_mask);
  *mstage_pred = mstage_lanes != 0;
  return mstage_lanes;
}
#define MSTAGE_CUDA_REDUCE(OP, T)                                              \
  inline T __reduce_##OP##_sync(unsigned mstage_mask, T mstage_v) {            \
    return warp::reduce_##OP(mstage_v, mstage_mask);                           \
  }
MSTAGE_CUDA_REDUCE(add, int)
MSTAGE_CUDA_REDUCE(add, unsigned)
MSTAGE_CUDA_REDUCE(min, int)
MSTAGE_CUDA_REDUCE(min, unsigned)
MSTAGE_CUDA_REDUCE(max, int)
MSTAGE_CUDA_REDUCE(max, unsigned)
MSTAGE_CUDA_REDUCE(and, unsigned)
MSTAGE_CUDA_REDUCE(or, unsigned)
MSTAGE_CUDA_REDUCE(xor, unsigned)
#undef MSTAGE_CUDA_REDUCE

// CUDA's min and max of two ints, unsigneds, long longs, floats or doubles
// (fminf and fmaxf for floats); parenthesized against function-like macros.
#define MSTAGE_CUDA_MIN_MAX(T)                                                 \
  inline T(min)(T mstage_a, T mstage_b) {                                      \
    return mstage_b < mstage_a ? mstage_b : mstage_a;                          \
  }                                                                            \
  inline T(max)(T mstage_a, T mstage_b) {                                      \
    return mstage_a < mstage_b ? mstage_b : mstage_a;                          \
  }
MSTAGE_CUDA_MIN_MAX(int)
MSTAGE_CUDA_MIN_MAX(unsigned)
MSTAGE_CUDA_MIN_MAX(long long)
MSTAGE_CUDA_MIN_MAX(unsigned long long)
#undef MSTAGE_CUDA_MIN_MAX
inline float(min)(float mstage_a, float mstage_b) {
  return ::fminf(mstage_a, mstage_b);
}
inline float(max)(float mstage_a, float mstage_b) {
  return ::fmaxf(mstage_a, mstage_b);
}
inline double(min)(double mstage_a, double mstage_b) {
  return ::fmin(mstage_a, mstage_b);
}
inline double(max)(double mstage_a, double mstage_b) {
  return ::fmax(mstage_a, mstage_b);
}

// Reinterpretations of the bits.
inline int __float_as_int(float mstage_a) {
  return __builtin_bit_cast(int, mstage_a);
}
inline unsigned __float_as_uint(float mstage_a) {
  return __builtin_bit_cast(unsigned, mstage_a);
}
inline float __int_as_float(int mstage_a) {
  return __builtin_bit_cast(float, mstage_a);
}
inline float __uint_as_float(unsigned mstage_a) {
  return __builtin_bit_cast(float, mstage_a);
}
inline long long __double_as_longlong(double mstage_a) {
  return __builtin_bit_cast(long long, mstage_a);
}
inline double __longlong_as_double(long long mstage_a) {
  return __builtin_bit_cast(double, mstage_a);
}

} // namespace mstage::cuda

// CUDA's spelling in the global namespace: the vector types (float4,
// make_float4, ...; their operators are found through their namespace) ...
#define MSTAGE_CUDA_VECTOR_TYPE(NAME)                                          \
  using mstage::NAME##1;                                                       \
  using mstage::NAME##2;                                                       \
  using mstage::NAME##3;                                                       \
  using mstage::NAME##4;                                                       \
  using mstage::make_##NAME##1;                                                \
  using mstage::make_##NAME##2;                                                \
  using mstage::make_##NAME##3;                                                \
  using mstage::make_##NAME##4;
MSTAGE_CUDA_VECTOR_TYPE(char)
MSTAGE_CUDA_VECTOR_TYPE(uchar)
MSTAGE_CUDA_VECTOR_TYPE(short)
MSTAGE_CUDA_VECTOR_TYPE(ushort)
MSTAGE_CUDA_VECTOR_TYPE(int)
MSTAGE_CUDA_VECTOR_TYPE(uint)
MSTAGE_CUDA_VECTOR_TYPE(long)
MSTAGE_CUDA_VECTOR_TYPE(ulong)
MSTAGE_CUDA_VECTOR_TYPE(longlong)
MSTAGE_CUDA_VECTOR_TYPE(ulonglong)
MSTAGE_CUDA_VECTOR_TYPE(float)
MSTAGE_CUDA_VECTOR_TYPE(double)
#undef MSTAGE_CUDA_VECTOR_TYPE

// ... and the functions.
using mstage::cuda::__activemask;
using mstage::cuda::__all_sync;
using mstage::cuda::__any_sync;
using mstage::cuda::__ballot_sync;
using mstage::cuda::__double_as_longlong;
using mstage::cuda::__float_as_int;
using mstage::cuda::__float_as_uint;
using mstage::cuda::__int_as_float;
using mstage::cuda::__ldg;
using mstage::cuda::__longlong_as_double;
using mstage::cuda::__match_all_sync;
using mstage::cuda::__match_any_sync;
using mstage::cuda::__reduce_add_sync;
using mstage::cuda::__reduce_and_sync;
using mstage::cuda::__reduce_max_sync;
using mstage::cuda::__reduce_min_sync;
using mstage::cuda::__reduce_or_sync;
using mstage::cuda::__reduce_xor_sync;
using mstage::cuda::__shfl_down_sync;
using mstage::cuda::__shfl_sync;
using mstage::cuda::__shfl_up_sync;
using mstage::cuda::__shfl_xor_sync;
using mstage::cuda::__syncthreads;
using mstage::cuda::__syncwarp;
using mstage::cuda::__threadfence;
using mstage::cuda::__threadfence_block;
using mstage::cuda::__uint_as_float;
using mstage::cuda::atomicAdd;
using mstage::cuda::atomicAdd_block;
using mstage::cuda::atomicAnd;
using mstage::cuda::atomicAnd_block;
using mstage::cuda::atomicCAS;
using mstage::cuda::atomicCAS_block;
using mstage::cuda::atomicDec;
using mstage::cuda::atomicExch;
using mstage::cuda::atomicExch_block;
using mstage::cuda::atomicInc;
using mstage::cuda::atomicMax;
using mstage::cuda::atomicMax_block;
using mstage::cuda::atomicMin;
using mstage::cuda::atomicMin_block;
using mstage::cuda::atomicOr;
using mstage::cuda::atomicOr_block;
using mstage::cuda::atomicSub;
using mstage::cuda::atomicSub_block;
using mstage::cuda::atomicXor;
using mstage::cuda::atomicXor_block;
using mstage::cuda::max;
using mstage::cuda::min;
using mstage::cuda::warpSize;

#define threadIdx (::mstage::cuda::thread_idx())
#define blockIdx (::mstage::cuda::block_idx())
#define blockDim (::mstage::cuda::block_dim())
#define gridDim (::mstage::cuda::grid_dim())

#endif // MSTAGE_CUDA_COMPAT_HPP
