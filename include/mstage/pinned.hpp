// Page-locked host memory: copies from and to it run by DMA, without the
// driver's bounce through a staging buffer, and can overlap with kernels.
#ifndef MSTAGE_PINNED_HPP
#define MSTAGE_PINNED_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"

#include <cstddef>
#include <limits>
#include <new>
#include <vector>

namespace mstage {

// A standard allocator of pinned host memory (cuMemHostAlloc on a GPU,
// ordinary memory on the CPU back end). Pinning is slow to set up: keep
// pinned buffers and reuse them.
template <class _Tp> struct pinned_allocator {
  using value_type = _Tp;

  pinned_allocator() = default;
  template <class _Up>
  pinned_allocator(const pinned_allocator<_Up> &) noexcept {}

  _Tp *allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(_Tp))
      throw std::bad_array_new_length();
    void *p = nullptr;
    if (mstage_rt_host_alloc(&p, n * sizeof(_Tp)) != 0)
      throw error(mstage_rt_last_error());
    return static_cast<_Tp *>(p);
  }
  void deallocate(_Tp *p, std::size_t) noexcept { mstage_rt_host_free(p); }

  template <class _Up> bool operator==(const pinned_allocator<_Up> &) const {
    return true;
  }
  template <class _Up> bool operator!=(const pinned_allocator<_Up> &) const {
    return false;
  }
};

// A std::vector in pinned memory. Passed to a kernel it follows the
// std::vector rules; the copies are just faster.
template <class _Tp>
using pinned_vector = std::vector<_Tp, pinned_allocator<_Tp>>;

} // namespace mstage

#endif
