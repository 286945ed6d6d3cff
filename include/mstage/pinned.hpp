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
template <class T> struct pinned_allocator {
  using value_type = T;

  pinned_allocator() = default;
  template <class U> pinned_allocator(const pinned_allocator<U> &) noexcept {}

  T *allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T))
      throw std::bad_array_new_length();
    void *p = nullptr;
    if (mstage_rt_host_alloc(&p, n * sizeof(T)) != 0)
      throw error(mstage_rt_last_error());
    return static_cast<T *>(p);
  }
  void deallocate(T *p, std::size_t) noexcept { mstage_rt_host_free(p); }

  template <class U> bool operator==(const pinned_allocator<U> &) const {
    return true;
  }
  template <class U> bool operator!=(const pinned_allocator<U> &) const {
    return false;
  }
};

// A std::vector in pinned memory. Passed to a kernel it follows the
// std::vector rules; the copies are just faster.
template <class T> using pinned_vector = std::vector<T, pinned_allocator<T>>;

} // namespace mstage

#endif
