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
template <class _Tp, const char *What> class checked_span {
public:
  using value_type = std::remove_cv_t<_Tp>;
  using element_type = _Tp;
  using size_type = std::size_t;
  using reference = _Tp &;
  using pointer = _Tp *;
  using iterator = _Tp *;

  checked_span() = default;
  checked_span(_Tp *data, std::size_t size) : data_(data), size_(size) {}

  std::size_t size() const { return size_; }
  std::size_t size_bytes() const { return size_ * sizeof(_Tp); }
  bool empty() const { return size_ == 0; }
  _Tp *data() const { return data_; }
  _Tp &operator[](index_arg i) const { return data_[checked(i, size_, What)]; }
  _Tp *begin() const { return data_; }
  _Tp *end() const { return data_ + size_; }
  _Tp &front(source_place p = source_place()) const {
    return (*this)[make_index(0, p)];
  }
  _Tp &back(source_place p = source_place()) const {
    return (*this)[make_index(size_ - 1, p)];
  }

#if __cplusplus >= 202002L
  operator std::span<_Tp>() const { return {data_, size_}; }
#endif

private:
  _Tp *data_ = nullptr;
  std::size_t size_ = 0;
};

inline constexpr char vector_view_name[] = "vector_view";
inline constexpr char shared_span_name[] = "shared_span";

} // namespace mstage::detail

#endif
