// vector_view<T>: what a std::vector argument becomes inside a kernel.
#ifndef MSTAGE_VECTOR_VIEW_HPP
#define MSTAGE_VECTOR_VIEW_HPP

#include "mstage/bounds_check.hpp"

#include <cstddef>
#include <type_traits>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace mstage {

// A pointer and a length into device memory, with the read-only parts of the
// std::vector interface. Element access does not change the view, so the
// accessors are const, as for std::span. operator[], front() and back() are
// bounds-checked when MSTAGE_BOUNDS_CHECK is on (see bounds_check.hpp).
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
  T &operator[](detail::index_arg i) const {
    return data_[detail::checked(i, size_, "vector_view")];
  }
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }
  T &front(detail::source_place p = detail::source_place()) const {
    return (*this)[detail::make_index(0, p)];
  }
  T &back(detail::source_place p = detail::source_place()) const {
    return (*this)[detail::make_index(size_ - 1, p)];
  }

#if __cplusplus >= 202002L
  operator std::span<T>() const { return {data_, size_}; }
#endif

private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace mstage

#endif
