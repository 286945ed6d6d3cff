// Tensor cores through CUDA's wmma API (nvcuda::wmma), for 16 x 16 x 16
// tiles of half or bfloat16 inputs with float accumulation:
//
//   namespace wmma = mstage::wmma;
//   wmma::fragment<wmma::matrix_a, 16, 16, 16, mstage::half, wmma::row_major>
//   a; wmma::fragment<wmma::matrix_b, 16, 16, 16, mstage::half,
//   wmma::col_major> b; wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
//   wmma::fill_fragment(c, 0.0f);
//   for (int k = 0; k < K; k += 16) {
//     wmma::load_matrix_sync(a, A + row * K + k, K);
//     wmma::load_matrix_sync(b, B + col * K + k, K);
//     wmma::mma_sync(c, a, b, c);
//   }
//   wmma::store_matrix_sync(C + row * N + col, c, N, wmma::mem_row_major);
//
// As in CUDA, every lane of the warp calls each function with the same
// arguments, a fragment's elements (x[i], num_elements) are spread over the
// lanes in an order that is the hardware's (element-wise operations on them
// are fine, their positions are not defined), pointers are 32-byte aligned
// and ldm is a multiple of 8 elements. On the device each function is one
// NVVM wmma intrinsic (wmma.load, wmma.mma.sync, wmma.store; sm_70 and later
// for half, sm_80 for bfloat16). On the CPU back end the warp computes the
// product in float, as the tensor cores do (exact products, float sums).
#ifndef MSTAGE_WMMA_HPP
#define MSTAGE_WMMA_HPP

#include "mstage/builtins.h"
#include "mstage/half.hpp"

#include <type_traits>

namespace mstage::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace detail {
template <class Use, class _Tp> struct fragment_traits {
  static constexpr bool valid = false;
};
// A lane holds 16 halves of A or B (8 registers of two), 8 bfloat16s (4
// registers), 8 floats of the accumulator.
template <class Use> struct fragment_traits<Use, half> {
  static constexpr bool valid = !std::is_same_v<Use, accumulator>;
  static constexpr int count = 16;
};
template <class Use> struct fragment_traits<Use, bfloat16> {
  static constexpr bool valid = !std::is_same_v<Use, accumulator>;
  static constexpr int count = 8;
};
template <> struct fragment_traits<accumulator, float> {
  static constexpr bool valid = true;
  static constexpr int count = 8;
};
template <class Layout>
inline constexpr int isColMajor = std::is_same_v<Layout, col_major>;
template <class _Tp>
inline constexpr int isBf16 = std::is_same_v<_Tp, bfloat16>;
} // namespace detail

template <class Use, int _Mp, int _Np, int _Kp, class _Tp, class Layout = void>
class fragment {
  static_assert(_Mp == 16 && _Np == 16 && _Kp == 16,
                "mstage::wmma: the fragments are of 16 x 16 x 16 tiles");
  static_assert(detail::fragment_traits<Use, _Tp>::valid,
                "mstage::wmma: matrix_a and matrix_b hold half or bfloat16, "
                "the accumulator float");
  static_assert(std::is_same_v<Use, accumulator> ==
                    std::is_same_v<Layout, void>,
                "mstage::wmma: matrix_a and matrix_b name their layout "
                "(row_major or col_major); the accumulator takes it at load "
                "and store");

public:
  using element_type = _Tp;
  static constexpr int num_elements = detail::fragment_traits<Use, _Tp>::count;
  alignas(16) _Tp x[num_elements];
};

template <class Use, class _Tp, class Layout, class _Vp>
void fill_fragment(fragment<Use, 16, 16, 16, _Tp, Layout> &f, const _Vp &v) {
  for (_Tp &_Ep : f.x)
    _Ep = _Tp(v);
}

template <class Use, class _Tp, class Layout>
void load_matrix_sync(fragment<Use, 16, 16, 16, _Tp, Layout> &f, const _Tp *p,
                      unsigned ldm) {
  static_assert(!std::is_same_v<Use, accumulator>,
                "mstage::wmma: an accumulator's load takes a layout_t");
  __mstage_wmma_load(f.x, p, ldm, std::is_same_v<Use, matrix_b>,
                     detail::isBf16<_Tp>, detail::isColMajor<Layout>);
}
inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &f,
                             const float *p, unsigned ldm, layout_t layout) {
  // The layout is part of the intrinsic's name: a constant at each call.
  if (layout == mem_col_major)
    __mstage_wmma_load_c(f.x, p, ldm, 1);
  else
    __mstage_wmma_load_c(f.x, p, ldm, 0);
}
inline void store_matrix_sync(float *p,
                              const fragment<accumulator, 16, 16, 16, float> &f,
                              unsigned ldm, layout_t layout) {
  if (layout == mem_col_major)
    __mstage_wmma_store_d(p, f.x, ldm, 1);
  else
    __mstage_wmma_store_d(p, f.x, ldm, 0);
}

// d = a * b + c (d may be c).
template <class _Tp, class LayoutA, class LayoutB>
void mma_sync(fragment<accumulator, 16, 16, 16, float> &d,
              const fragment<matrix_a, 16, 16, 16, _Tp, LayoutA> &a,
              const fragment<matrix_b, 16, 16, 16, _Tp, LayoutB> &b,
              const fragment<accumulator, 16, 16, 16, float> &c) {
  __mstage_wmma_mma(d.x, a.x, b.x, c.x, detail::isBf16<_Tp>,
                    detail::isColMajor<LayoutA>, detail::isColMajor<LayoutB>);
}

} // namespace mstage::wmma

#endif
