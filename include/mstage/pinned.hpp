// Page-locked host memory: copies from and to it run by DMA, without the
// driver's bounce through a staging buffer, and can overlap with kernels.
#ifndef MSTAGE_PINNED_HPP
#define MSTAGE_PINNED_HPP

#include "mstage/abi.h"
#include "mstage/check_site.hpp"
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

// A std::vector in pinned memory (it is one: it converts to
// std::vector<T, pinned_allocator<T>>& and adds no state). Passed to a
// kernel it follows the std::vector rules; the copies are just faster.
// With MSTAGE_CHECK=streams the host's accesses by data() and begin() (as
// accesses of every element), and by operator[] in units built with the
// checks (MSTAGE_BOUNDS_CHECK), are checked against the copies on streams
// that the host has not waited for (a non-const access counts as a write).
template <class _Tp>
class pinned_vector : public std::vector<_Tp, pinned_allocator<_Tp>> {
  using base = std::vector<_Tp, pinned_allocator<_Tp>>;

public:
  using base::base;
  using base::operator=;
  pinned_vector() = default;

  _Tp *data(detail::call_site where = detail::call_site::here()) {
    return accessed(0, this->size(), true, where, "pinned_vector::data");
  }
  const _Tp *data(detail::call_site where = detail::call_site::here()) const {
    return accessed(0, this->size(), false, where, "pinned_vector::data");
  }
  // Checked element by element only in a unit built with the checks on
  // (MSTAGE_BOUNDS_CHECK); otherwise a plain load, which a loop vectorizes.
  _Tp &operator[](detail::host_index i) {
    _Tp *p = const_cast<_Tp *>(base::data()) + detail::host_index_value(i);
    detail::check_host_element(p, sizeof(_Tp), true, i,
                               "pinned_vector::operator[]");
    return *p;
  }
  const _Tp &operator[](detail::host_index i) const {
    _Tp *p = const_cast<_Tp *>(base::data()) + detail::host_index_value(i);
    detail::check_host_element(p, sizeof(_Tp), false, i,
                               "pinned_vector::operator[]");
    return *p;
  }
  typename base::iterator
  begin(detail::call_site where = detail::call_site::here()) {
    accessed(0, this->size(), true, where, "pinned_vector::begin");
    return base::begin();
  }
  typename base::const_iterator
  begin(detail::call_site where = detail::call_site::here()) const {
    accessed(0, this->size(), false, where, "pinned_vector::begin");
    return base::begin();
  }

private:
  _Tp *accessed(std::size_t first, std::size_t count, bool written,
                detail::call_site where, const char *what) const {
    _Tp *p = const_cast<_Tp *>(base::data()) + first;
    detail::check_host_use(p, count * sizeof(_Tp), written, where, what);
    return p;
  }
};

} // namespace mstage

#endif
