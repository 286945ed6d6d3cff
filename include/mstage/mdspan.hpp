// mdspan<T, Rank>: a multidimensional view of device or shared memory.
//
// libstdc++ 12 has no <mdspan>, so mstage has its own: the row-major
// (layout_right) case of std::mdspan with run-time extents, which a stage()d
// extent turns into a constant anyway. Element access is m(i, j) and, in
// C++23, m[i, j]; each index is bounds-checked against its extent when
// MSTAGE_BOUNDS_CHECK is on (see bounds_check.hpp).
//
//   auto m = mstage::mdspan(v.data(), rows, cols);   // mdspan<float, 2>
//   m(i, j) = 1.0f;
#ifndef MSTAGE_MDSPAN_HPP
#define MSTAGE_MDSPAN_HPP

#include "mstage/bounds_check.hpp"
#include "mstage/vector_view.hpp"

#include <array>
#include <cstddef>
#include <type_traits>

namespace mstage {

template <class _Tp, std::size_t Rank> class mdspan {
  static_assert(Rank >= 1 && Rank <= 8,
                "mstage::mdspan<T, Rank>: Rank must be 1 to 8");

public:
  using element_type = _Tp;
  using value_type = std::remove_cv_t<_Tp>;
  using index_type = std::size_t;
  using reference = _Tp &;
  using extents_type = std::array<std::size_t, Rank>;

  static constexpr std::size_t rank() { return Rank; }

  mdspan() = default;
  template <class... _Ep,
            class = std::enable_if_t<sizeof...(_Ep) == Rank &&
                                     (std::is_integral_v<_Ep> && ...)>>
  mdspan(_Tp *data, _Ep... extents)
      : data_(data), extents_{static_cast<std::size_t>(extents)...} {}
  mdspan(_Tp *data, const extents_type &extents)
      : data_(data), extents_(extents) {}
  // Over a vector_view, which must hold size() elements; with bounds checks
  // on, a view that is too small is reported here.
  mdspan(vector_view<_Tp> v, const extents_type &extents,
         detail::source_place place = detail::source_place())
      : data_(v.data()), extents_(extents) {
    if (size() != 0)
      (void)detail::checked(detail::make_index(size() - 1, place), v.size(),
                            "the vector_view under an mdspan");
  }

  std::size_t extent(std::size_t r) const { return extents_[r]; }
  const extents_type &extents() const { return extents_; }
  // Elements between consecutive indices of dimension r (row-major).
  std::size_t stride(std::size_t r) const {
    std::size_t s = 1;
    for (std::size_t d = r + 1; d < Rank; ++d)
      s *= extents_[d];
    return s;
  }
  std::size_t size() const {
    std::size_t s = 1;
    for (std::size_t e : extents_)
      s *= e;
    return s;
  }
  bool empty() const { return size() == 0; }
  _Tp *data_handle() const { return data_; }

  // One index per dimension. The first carries the place of the access (an
  // operator cannot take it as a default argument); the others share it.
  template <class... _Ip>
  _Tp &operator()(detail::index_arg first, _Ip... rest) const {
    static_assert(sizeof...(_Ip) + 1 == Rank,
                  "mstage::mdspan: give one index per dimension");
    static_assert((std::is_integral_v<_Ip> && ...),
                  "mstage::mdspan: indices are integers");
    const std::size_t idx[Rank] = {index_value(first),
                                   static_cast<std::size_t>(rest)...};
    std::size_t offset = 0;
    for (std::size_t r = 0; r < Rank; ++r) {
      std::size_t i = idx[r];
#if MSTAGE_BOUNDS_CHECK
      i = detail::checked(detail::make_index(i, first.place), extents_[r],
                          extent_name(r));
#endif
      offset = offset * extents_[r] + i;
    }
    return data_[offset];
  }

#if defined(__cpp_multidimensional_subscript) &&                               \
    __cpp_multidimensional_subscript >= 202110L
  template <class... _Ip>
  _Tp &operator[](detail::index_arg first, _Ip... rest) const {
    return (*this)(first, rest...);
  }
#else
  template <std::size_t _Rp = Rank, class = std::enable_if_t<_Rp == 1>>
  _Tp &operator[](detail::index_arg i) const {
    return (*this)(i);
  }
#endif

private:
#if MSTAGE_BOUNDS_CHECK
  static std::size_t index_value(const detail::index_arg &i) { return i.value; }
#else
  static std::size_t index_value(std::size_t i) { return i; }
#endif

  // Names the dimension in a bounds-check message.
  static constexpr const char *extent_name(std::size_t r) {
    constexpr const char *names[] = {"mdspan extent 0", "mdspan extent 1",
                                     "mdspan extent 2", "mdspan extent 3",
                                     "mdspan extent 4", "mdspan extent 5",
                                     "mdspan extent 6", "mdspan extent 7"};
    return names[r];
  }

  _Tp *data_ = nullptr;
  extents_type extents_{};
};

template <class _Tp, class... _Ep>
mdspan(_Tp *, _Ep...) -> mdspan<_Tp, sizeof...(_Ep)>;

} // namespace mstage

#endif
