// managed_vector<T>: an array in unified memory, on the host and in kernels.
#ifndef MSTAGE_MANAGED_VECTOR_HPP
#define MSTAGE_MANAGED_VECTOR_HPP

#include "mstage/abi.h"
#include "mstage/check_site.hpp"
#include "mstage/error.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_view.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace mstage {

// n elements of managed (unified) memory: the driver moves pages between
// host and device as they are touched. Passed to a kernel it arrives as a
// vector_view<T>, with nothing copied, and the launch does not wait:
// synchronize the kernel's stream before reading its results on the host.
// prefetch_to_device/host move the pages ahead of use, on a stream.
template <class _Tp> class managed_vector {
  static_assert(std::is_trivially_copyable_v<_Tp>,
                "mstage: managed_vector elements must be trivially copyable");

public:
  using value_type = _Tp;

  managed_vector() = default;
  // n value-initialized elements (zeros for arithmetic types).
  explicit managed_vector(std::size_t n,
                          detail::call_site where = detail::call_site::here())
      : managed_vector(n, _Tp(), where) {}
  managed_vector(std::size_t n, const _Tp &value,
                 detail::call_site where = detail::call_site::here()) {
    detail::check_site site(where, "managed_vector");
    void *p = nullptr;
    detail::check(mstage_rt_managed_alloc(
        &p, detail::checked_bytes(n, sizeof(_Tp), "managed_vector")));
    size_ = n;
    data_ = static_cast<_Tp *>(p);
    for (std::size_t i = 0; i < n; ++i)
      data_[i] = value;
  }
  managed_vector(managed_vector &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  managed_vector &operator=(managed_vector &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  managed_vector(const managed_vector &) = delete;
  managed_vector &operator=(const managed_vector &) = delete;
  // Freeing managed memory waits for the kernels that may use it.
  ~managed_vector() {
    if (data_)
      mstage_rt_managed_free(data_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The host's accesses: with MSTAGE_CHECK=streams, data() and begin() (as
  // accesses of every element), and operator[] in units built with the
  // checks, are checked against the kernels and copies on streams that the
  // host has not waited for; a non-const one counts as a write.
  _Tp *data(detail::call_site where = detail::call_site::here()) {
    return accessed(0, size_, true, where, "managed_vector::data");
  }
  const _Tp *data(detail::call_site where = detail::call_site::here()) const {
    return accessed(0, size_, false, where, "managed_vector::data");
  }
  // Checked element by element only in a unit built with the checks on
  // (MSTAGE_BOUNDS_CHECK); otherwise a plain load, which a loop vectorizes.
  _Tp &operator[](detail::host_index i) {
    _Tp *p = data_ + detail::host_index_value(i);
    detail::check_host_element(p, sizeof(_Tp), true, i,
                               "managed_vector::operator[]");
    return *p;
  }
  const _Tp &operator[](detail::host_index i) const {
    _Tp *p = data_ + detail::host_index_value(i);
    detail::check_host_element(p, sizeof(_Tp), false, i,
                               "managed_vector::operator[]");
    return *p;
  }
  _Tp *begin(detail::call_site where = detail::call_site::here()) {
    return accessed(0, size_, true, where, "managed_vector::begin");
  }
  _Tp *end() { return data_ + size_; }
  const _Tp *begin(detail::call_site where = detail::call_site::here()) const {
    return accessed(0, size_, false, where, "managed_vector::begin");
  }
  const _Tp *end() const { return data_ + size_; }
  vector_view<_Tp> view() { return {data_, size_}; }
  vector_view<const _Tp> view() const { return {data_, size_}; }

  void prefetch_to_device(stream_ref s = current_stream()) const {
    detail::check(mstage_rt_prefetch(data_, size_ * sizeof(_Tp), 1, s.get()));
  }
  void prefetch_to_host(stream_ref s = current_stream()) const {
    detail::check(mstage_rt_prefetch(data_, size_ * sizeof(_Tp), 0, s.get()));
  }

private:
  _Tp *accessed(std::size_t first, std::size_t count, bool written,
                detail::call_site where, const char *what) const {
    detail::check_host_use(data_ + first, count * sizeof(_Tp), written, where,
                           what);
    return data_ + first;
  }

  _Tp *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace mstage

#endif
