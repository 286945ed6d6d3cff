// grid_stride_range(begin, end): the indices a thread handles when the whole
// grid walks [begin, end) together, for a range-based for:
//
//   for (auto i : mstage::grid_stride_range(size_t(0), v.size()))
//     v[i] = ...;
//
// Thread t of the grid (in x) visits begin + t, begin + t + T, ..., where T
// is the number of threads in the grid. With the launch configuration folded
// at launch, T is a constant.
#ifndef MSTAGE_GRID_STRIDE_RANGE_HPP
#define MSTAGE_GRID_STRIDE_RANGE_HPP

#include "mstage/index.hpp"

#include <type_traits>

namespace mstage {

template <class I> class grid_stride_range {
  static_assert(std::is_integral_v<I>, "grid_stride_range needs integers");

public:
  class iterator {
  public:
    I operator*() const { return At; }
    iterator &operator++() {
      // Stops at End rather than wrapping past the type's maximum.
      At = End - At > Stride ? At + Stride : End;
      return *this;
    }
    // Compares against end() only: the walk is over once it reaches End.
    bool operator!=(const iterator &) const { return At < End; }

  private:
    friend class grid_stride_range;
    iterator(I At, I Stride, I End) : At(At), Stride(Stride), End(End) {}
    I At, Stride, End;
  };

  grid_stride_range(I begin, I end) : begin_(begin), end_(end) {}

  iterator begin() const {
    I First = begin_ + I(Thread::get().global.x);
    I Stride = I(Grid::get().range.x) * I(Block::get().range.x);
    return iterator(First, Stride, end_);
  }
  iterator end() const { return iterator(end_, 0, end_); }

private:
  I begin_, end_;
};

// Mixed argument types (0 and a size_t) take the wider.
template <class B, class E>
grid_stride_range(B, E) -> grid_stride_range<std::common_type_t<B, E>>;

} // namespace mstage

#endif
