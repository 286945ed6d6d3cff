// device_vector<T>: an array that stays in device memory across launches.
#ifndef MSTAGE_DEVICE_VECTOR_HPP
#define MSTAGE_DEVICE_VECTOR_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"
#include "mstage/vector_view.hpp"

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mstage {

// Owns n elements of device memory. Passed to a kernel it arrives as a
// vector_view<T> (vector_view<const T> when passed as const), with nothing
// copied; upload() and download() move data explicitly.
template <class T> class device_vector {
  static_assert(std::is_trivially_copyable_v<T>,
                "mstage: device_vector elements must be trivially copyable");

public:
  using value_type = T;

  device_vector() = default;
  // n elements, not initialized.
  explicit device_vector(std::size_t n) : size_(n) {
    detail::check(mstage_rt_alloc(&data_, n * sizeof(T)));
  }
  explicit device_vector(const std::vector<T> &host)
      : device_vector(host.size()) {
    upload(host);
  }
  device_vector(device_vector &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  device_vector &operator=(device_vector &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  device_vector(const device_vector &) = delete;
  device_vector &operator=(const device_vector &) = delete;
  ~device_vector() {
    if (data_)
      mstage_rt_free(data_);
  }

  std::size_t size() const { return size_; }
  T *data() const { return static_cast<T *>(data_); }
  vector_view<T> view() { return {data(), size_}; }
  vector_view<const T> view() const { return {data(), size_}; }

  // Copies host into the device array; the sizes must match.
  void upload(const std::vector<T> &host) {
    if (host.size() != size_)
      throw error("mstage: device_vector::upload of " +
                  std::to_string(host.size()) + " elements into " +
                  std::to_string(size_));
    if (size_ != 0)
      detail::check(
          mstage_rt_copy_to_device(data_, host.data(), size_ * sizeof(T)));
  }
  // Copies the device array into host, resized to fit.
  void download(std::vector<T> &host) const {
    host.resize(size_);
    if (size_ != 0)
      detail::check(
          mstage_rt_copy_to_host(host.data(), data_, size_ * sizeof(T)));
  }
  std::vector<T> download() const {
    std::vector<T> host;
    download(host);
    return host;
  }

private:
  void *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace mstage

#endif
