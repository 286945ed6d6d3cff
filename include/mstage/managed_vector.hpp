// managed_vector<T>: an array in unified memory, on the host and in kernels.
#ifndef MSTAGE_MANAGED_VECTOR_HPP
#define MSTAGE_MANAGED_VECTOR_HPP

#include "mstage/abi.h"
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
  explicit managed_vector(std::size_t n) : managed_vector(n, _Tp()) {}
  managed_vector(std::size_t n, const _Tp &value) {
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
  _Tp *data() { return data_; }
  const _Tp *data() const { return data_; }
  _Tp &operator[](std::size_t i) { return data_[i]; }
  const _Tp &operator[](std::size_t i) const { return data_[i]; }
  _Tp *begin() { return data_; }
  _Tp *end() { return data_ + size_; }
  const _Tp *begin() const { return data_; }
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
  _Tp *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace mstage

#endif
