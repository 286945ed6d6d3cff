// Fixed-size arrays in shared memory, CUDA's `__shared__ float tile[16][17]`:
//
//   mstage::shared_array<float, 16, 17> tile;   // one per block
//   tile[y][x] = v;                             // or tile(y, x)
//
// Declared as a local variable of kernel code, each declaration is one array
// per block that every thread of the block sees, sized by its type: the
// launch needs no shared_bytes for it. Any number of them, of any trivially
// constructible T, 1 to 3 extents, row-major. Indexing is bounds-checked per
// extent like mdspan's when MSTAGE_BOUNDS_CHECK is on (see bounds_check.hpp).
//
// One declaration, one array: the object holds only the address, which the
// constructor asks __mstage_shared_array for with the declaration's place
// (file, line, column), its site, its size and alignment. The place alone
// cannot tell apart two declarations of one macro expansion, which share it:
// mstage++ numbers each call of this constructor in the translation unit
// before anything is inlined (passes/transforms/DeviceSharedArrays.cpp), and
// that number is the site. On the device each distinct place, site and size is
// one `.shared` variable, so a declaration in a device function is one array
// however often the function is called or inlined, as __shared__ is; on the
// CPU back end each block gets its own copy
// (runtime/backends/cpu/CpuSharedArrays.cpp).
// Two objects made by the same declaration (in a loop, an array of them, a
// struct member) are the same array. Like __shared__, the memory is not
// initialized.
//
// The arrays add to the launch's dynamic shared memory (shared_memory,
// dynamic_shared, shared_arena): a block has both, and the launch checks
// their sum against the device's limit.
#ifndef MSTAGE_SHARED_ARRAY_HPP
#define MSTAGE_SHARED_ARRAY_HPP

#include "mstage/bounds_check.hpp"
#include "mstage/builtins.h"
#include "mstage/shared_memory.hpp"

#include <cstddef>
#include <type_traits>

namespace mstage {
namespace detail {

// Names extent D of a shared_array in a failed bounds check.
inline constexpr const char *shared_array_extent_name(std::size_t d) {
  constexpr const char *names[] = {"shared_array extent 0",
                                   "shared_array extent 1",
                                   "shared_array extent 2"};
  return names[d];
}

template <std::size_t... _Np> constexpr std::size_t extent_product() {
  return (std::size_t(1) * ... * _Np);
}

// Size times the extents, or 0 where the product overflows std::size_t.
template <std::size_t... _Np>
constexpr std::size_t checked_bytes(std::size_t Size) {
  bool Overflow = false;
  ((Overflow = Overflow || (_Np && Size > std::size_t(-1) / _Np), Size *= _Np),
   ...);
  return Overflow ? 0 : Size;
}

// More than any GPU's shared memory per block, and small enough that the
// arrays of a kernel add up without overflow.
inline constexpr std::size_t max_shared_array_bytes = std::size_t(1) << 32;

// The sub-array at p whose first extent is extent D of the whole array:
// tile[y] of a shared_array<T, H, W> is a shared_row<T, 1, W>.
template <class _Tp, std::size_t _Dp, std::size_t _Np, std::size_t... Rest>
class shared_row {
public:
  explicit shared_row(_Tp *p) : p_(p) {}

  decltype(auto) operator[](index_arg i) const {
    std::size_t k = checked(i, _Np, shared_array_extent_name(_Dp));
    if constexpr (sizeof...(Rest) == 0)
      return static_cast<_Tp &>(p_[k]);
    else
      return shared_row<_Tp, _Dp + 1, Rest...>(p_ +
                                               k * extent_product<Rest...>());
  }

private:
  _Tp *p_;
};

} // namespace detail

template <class _Tp, std::size_t... _Np> class shared_array {
  static_assert(sizeof...(_Np) >= 1 && sizeof...(_Np) <= 3,
                "mstage::shared_array<T, N...>: give 1 to 3 extents");
  static_assert(((_Np > 0) && ...),
                "mstage::shared_array<T, N...>: every extent must be positive");
  static_assert(std::is_trivially_default_constructible_v<_Tp> &&
                    std::is_trivially_destructible_v<_Tp>,
                "mstage::shared_array<T, N...>: T must be trivially "
                "constructible and destructible; shared memory is neither "
                "initialized nor destroyed, as CUDA's __shared__");
  static_assert(((_Np > 0) && ...) &&
                    detail::checked_bytes<_Np...>(sizeof(_Tp)) != 0 &&
                    detail::checked_bytes<_Np...>(sizeof(_Tp)) <=
                        detail::max_shared_array_bytes,
                "mstage::shared_array<T, N...>: sizeof(T) times the extents "
                "overflows std::size_t or is over 4 GiB, far more shared "
                "memory than a block can have");

public:
  using value_type = _Tp;
  using element_type = _Tp;
  using reference = _Tp &;

  static constexpr std::size_t rank() { return sizeof...(_Np); }
  static constexpr std::size_t size() {
    return detail::extent_product<_Np...>();
  }
  static constexpr std::size_t size_bytes() { return size() * sizeof(_Tp); }
  static constexpr std::size_t extent(std::size_t r) {
    constexpr std::size_t e[] = {_Np...};
    return e[r];
  }

  // The defaults record the declaration's place, which names the array.
  // Plain constants, no source_place: the device module resolves them when
  // this constructor is inlined into the declaration. The annotation lets
  // mstage++ find the calls and set each one's site (the last parameter).
  __attribute__((annotate("mstage.shared_array"))) explicit shared_array(
      const char *file = __builtin_FILE(), unsigned line = __builtin_LINE(),
      unsigned column = __builtin_COLUMN(), unsigned site = 0)
      : data_(static_cast<_Tp *>(
            __mstage_shared_array(sizeof(_Tp) * (std::size_t(1) * ... * _Np),
                                  alignof(_Tp), file, line, column, site))) {}
  // A copy would be a second name for the same block-wide memory, not a
  // copy of it: pass a shared_array by reference, or pass span() or data().
  shared_array(const shared_array &) = delete;
  shared_array &operator=(const shared_array &) = delete;

  // tile[i]: the element (1 extent) or the row, indexed again: tile[y][x].
  decltype(auto) operator[](detail::index_arg i) const {
    return detail::shared_row<_Tp, 0, _Np...>(data_)[i];
  }

  // tile(y, x): one index per extent; the first carries the place of the
  // access (an operator cannot take it as a default argument).
  template <class... _Ip>
  _Tp &operator()(detail::index_arg first, _Ip... rest) const {
    static_assert(sizeof...(_Ip) + 1 == sizeof...(_Np),
                  "mstage::shared_array: give one index per extent");
    static_assert((std::is_integral_v<_Ip> && ...),
                  "mstage::shared_array: indices are integers");
    constexpr std::size_t extents[] = {_Np...};
#if MSTAGE_BOUNDS_CHECK
    const std::size_t idx[] = {first.value, static_cast<std::size_t>(rest)...};
#else
    const std::size_t idx[] = {first, static_cast<std::size_t>(rest)...};
#endif
    std::size_t offset = 0;
    for (std::size_t r = 0; r < sizeof...(_Np); ++r) {
      std::size_t i = idx[r];
#if MSTAGE_BOUNDS_CHECK
      i = detail::checked(detail::make_index(i, first.place), extents[r],
                          detail::shared_array_extent_name(r));
#endif
      offset = offset * extents[r] + i;
    }
    return data_[offset];
  }

  _Tp *data() const { return data_; }
  _Tp *begin() const { return data_; }
  _Tp *end() const { return data_ + size(); }
  // All elements, flat, as a bounds-checked view that can be passed on.
  shared_span<_Tp> span() const { return {data_, size()}; }

private:
  _Tp *data_;
};

} // namespace mstage

#endif
