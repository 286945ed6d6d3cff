// vector_view<T>: what a std::vector argument becomes inside a kernel.
#ifndef MSTAGE_VECTOR_VIEW_HPP
#define MSTAGE_VECTOR_VIEW_HPP

#include <cstddef>
#include <type_traits>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace mstage {

// A pointer and a length into device memory, with the read-only parts of the
// std::vector interface. Element access does not change the view, so the
// accessors are const, as for std::span.
template <class T> class vector_view {
public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using size_type = std::size_t;
  using reference = T &;
  using pointer = T *;
  using iterator = T *;

  vector_view() = default;
  vector_view(T *data, std::size_t size) : data_(data), size_(size) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *data() const { return data_; }
  T &operator[](std::size_t i) const { return data_[i]; }
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }
  T &front() const { return data_[0]; }
  T &back() const { return data_[size_ - 1]; }

#if __cplusplus >= 202002L
  operator std::span<T>() const { return {data_, size_}; }
#endif

private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace mstage

#endif
