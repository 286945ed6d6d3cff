// vector_view<T>: what a std::vector argument becomes inside a kernel.
#ifndef MSTAGE_VECTOR_VIEW_HPP
#define MSTAGE_VECTOR_VIEW_HPP

#include "mstage/checked_span.hpp"

namespace mstage {

// A pointer and a length into device memory, with the read-only parts of the
// std::vector interface; operator[], front() and back() are bounds-checked
// when MSTAGE_BOUNDS_CHECK is on.
template <class T>
class vector_view : public detail::checked_span<T, detail::vector_view_name> {
public:
  using detail::checked_span<T, detail::vector_view_name>::checked_span;
};

} // namespace mstage

#endif
