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

template <class _Ip> class grid_stride_range {
  static_assert(std::is_integral_v<_Ip>, "grid_stride_range needs integers");

public:
  class iterator {
  public:
    _Ip operator*() const { return _At; }
    iterator &operator++() {
      // Stops at End rather than wrapping past the type's maximum.
      _At = End - _At > Stride ? _At + Stride : End;
      return *this;
    }
    // Compares against end() only: the walk is over once it reaches End.
    bool operator!=(const iterator &) const { return _At < End; }

  private:
    friend class grid_stride_range;
    iterator(_Ip _At, _Ip Stride, _Ip End)
        : _At(_At), Stride(Stride), End(End) {}
    _Ip _At, Stride, End;
  };

  grid_stride_range(_Ip begin, _Ip end) : begin_(begin), end_(end) {}

  iterator begin() const {
    _Ip First = begin_ + _Ip(Thread::get().global.x);
    _Ip Stride = _Ip(Grid::get().range.x) * _Ip(Block::get().range.x);
    return iterator(First, Stride, end_);
  }
  iterator end() const { return iterator(end_, 0, end_); }

private:
  _Ip begin_, end_;
};

// Mixed argument types (0 and a size_t) take the wider.
template <class _Bp, class _Ep>
grid_stride_range(_Bp, _Ep) -> grid_stride_range<std::common_type_t<_Bp, _Ep>>;

} // namespace mstage

#endif
