// checked_span: the pointer-and-length view behind vector_view and
// shared_span, with std::span's read interface and element access that is
// bounds-checked when MSTAGE_BOUNDS_CHECK is on (see bounds_check.hpp).
#ifndef MSTAGE_CHECKED_SPAN_HPP
#define MSTAGE_CHECKED_SPAN_HPP

#include "mstage/bounds_check.hpp"

#include <cstddef>
#include <type_traits>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace mstage::detail {

// What names the view in a failed check's message. Element access does not
// change the view, so the accessors are const, as for std::span.
template <class T, const char *What> class checked_span {
public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using size_type = std::size_t;
  using reference = T &;
  using pointer = T *;
  using iterator = T *;

  checked_span() = default;
  checked_span(T *data, std::size_t size) : data_(data), size_(size) {}

  std::size_t size() const { return size_; }
  std::size_t size_bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }
  T *data() const { return data_; }
  T &operator[](index_arg i) const { return data_[checked(i, size_, What)]; }
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }
  T &front(source_place p = source_place()) const {
    return (*this)[make_index(0, p)];
  }
  T &back(source_place p = source_place()) const {
    return (*this)[make_index(size_ - 1, p)];
  }

#if __cplusplus >= 202002L
  operator std::span<T>() const { return {data_, size_}; }
#endif

private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

inline constexpr char vector_view_name[] = "vector_view";
inline constexpr char shared_span_name[] = "shared_span";

} // namespace mstage::detail

#endif
