// vector_view<T>: what a std::vector argument becomes inside a kernel.
#ifndef MSTAGE_VECTOR_VIEW_HPP
#define MSTAGE_VECTOR_VIEW_HPP

#include "mstage/checked_span.hpp"

#include <type_traits>

namespace mstage {

// A pointer and a length into device memory, with the read-only parts of the
// std::vector interface; operator[], front() and back() are bounds-checked
// when MSTAGE_BOUNDS_CHECK is on.
template <class _Tp>
class vector_view : public detail::checked_span<_Tp, detail::vector_view_name> {
public:
  using detail::checked_span<_Tp, detail::vector_view_name>::checked_span;
  // A view of T is a view of const T: a kernel may take vector_view<const T>
  // for a device_vector<T> or std::vector<T> argument.
  template <class _Up,
            class = std::enable_if_t<std::is_same_v<const _Up, _Tp> &&
                                     !std::is_same_v<_Up, _Tp>>>
  vector_view(const vector_view<_Up> &v) : vector_view(v.data(), v.size()) {}
};

} // namespace mstage

#endif
