// mstage::array<T, Rank, Layout>: an owning multi-dimensional array in
// device memory, as YAKL's Array, in C order (the last index is the fastest)
// or Fortran order (the first is, and lower bounds default to 1):
//
//   mstage::array<float, 2> a("a", ny, nx);                  // a(j, i)
//   mstage::array<float, 3, mstage::fortran> u{"u", {1, nz}, {1, ny}, {1, nx}};
//   auto uv = u.view();                 // what kernels and lambdas capture
//   mstage::parallel_for(mstage::bounds<3>{{1, nz}, {1, ny}, {1, nx}},
//                        [=](int k, int j, int i) { uv(k, j, i) = 0; });
//   std::vector<float> h = u.to_host();
//
// Passed to a kernel an array arrives as its array_view, with nothing
// copied; the algorithms take it (and its views) as its elements, flat, in
// memory order. Indexing is bounds-checked per dimension when
// MSTAGE_BOUNDS_CHECK is on (bounds_check.hpp); the message names the
// array and gives the index counted from the dimension's lower bound.
#ifndef MSTAGE_ARRAY_HPP
#define MSTAGE_ARRAY_HPP

#include "mstage/bounds_check.hpp"
#include "mstage/device_vector.hpp"
#include "mstage/error.hpp"
#include "mstage/kernel.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_view.hpp"

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace mstage {

// Layouts: C order, or Fortran order with lower bounds 1 by default.
struct c_order {};
struct fortran {};

// One dimension of an array: an extent n (from the layout's default lower
// bound) or inclusive bounds {lo, hi}.
struct array_dim {
  long long lo = 0, hi = -1;
  bool default_lo = true;

  template <class _Ip, class = std::enable_if_t<std::is_integral_v<_Ip>>>
  array_dim(_Ip n) : lo(0), hi((long long)n - 1) {}
  template <class _Ip, class _Jp,
            class = std::enable_if_t<std::is_integral_v<_Ip> &&
                                     std::is_integral_v<_Jp>>>
  array_dim(_Ip lo, _Jp hi)
      : lo((long long)lo), hi((long long)hi), default_lo(false) {}
};

// An array's elements as kernels see them: a pointer, the lower bounds and
// the extents. Trivially copyable; copied into kernels by value. With bounds
// checks on it also carries the array's name, for the message.
template <class _Tp, int Rank, class Layout = c_order> class array_view {
  static_assert(Rank >= 1 && Rank <= 8,
                "mstage::array_view<T, Rank>: Rank must be 1 to 8");
  static_assert(std::is_same_v<Layout, c_order> ||
                    std::is_same_v<Layout, fortran>,
                "mstage::array: the layout is mstage::c_order or "
                "mstage::fortran");

public:
  using element_type = _Tp;
  using value_type = std::remove_cv_t<_Tp>;
  using layout = Layout;
  static constexpr int rank() { return Rank; }

  array_view() = default;
  array_view(_Tp *data, const int *lbound, const int *extent,
             const char *name = "")
      : data_(data) {
    for (int d = 0; d < Rank; ++d) {
      lb_[d] = lbound[d];
      ext_[d] = extent[d];
    }
#if MSTAGE_BOUNDS_CHECK
    std::size_t len = std::strlen(name);
    const char prefix[] = "array '";
    std::size_t room = sizeof(name_) - sizeof(prefix) - 1;
    std::memcpy(name_, prefix, sizeof(prefix) - 1);
    len = len < room ? len : room;
    std::memcpy(name_ + sizeof(prefix) - 1, name, len);
    name_[sizeof(prefix) - 1 + len] = '\'';
    name_[sizeof(prefix) + len] = 0;
#else
    (void)name;
#endif
  }
  // A view of T is a view of const T.
  template <class _Up,
            class = std::enable_if_t<std::is_same_v<const _Up, _Tp> &&
                                     !std::is_same_v<_Up, _Tp>>>
  array_view(const array_view<_Up, Rank, Layout> &v)
      : array_view(v.data(), v.lbounds(), v.extents(), "") {
#if MSTAGE_BOUNDS_CHECK
    std::memcpy(name_, v.checked_name(), sizeof(name_));
#endif
  }

  int extent(int d) const { return ext_[d]; }
  int lbound(int d) const { return lb_[d]; }
  int ubound(int d) const { return lb_[d] + ext_[d] - 1; }
  const int *extents() const { return ext_; }
  const int *lbounds() const { return lb_; }
  std::size_t size() const {
    std::size_t s = 1;
    for (int d = 0; d < Rank; ++d)
      s *= std::size_t(ext_[d]);
    return s;
  }
  _Tp *data() const { return data_; }
  // The elements in memory order.
  vector_view<_Tp> flat_view() const { return {data_, size()}; }
  void use_on(stream_ref) const {}
#if MSTAGE_BOUNDS_CHECK
  const char *checked_name() const { return name_; }
#endif

  // a(i0, i1, ...): one int index per dimension, within its bounds.
  template <class... _Ip>
  _Tp &operator()(detail::index_arg first, _Ip... rest) const {
    static_assert(sizeof...(_Ip) + 1 == Rank,
                  "mstage::array: give one index per dimension");
    static_assert((std::is_integral_v<_Ip> && ...),
                  "mstage::array: indices are integers");
#if MSTAGE_BOUNDS_CHECK
    const long long idx[Rank] = {(long long)first.value, (long long)rest...};
#else
    const long long idx[Rank] = {(long long)first, (long long)rest...};
#endif
    std::size_t offset = 0;
    for (int r = 0; r < Rank; ++r) {
      int d = std::is_same_v<Layout, fortran> ? Rank - 1 - r : r;
      long long i = idx[d] - lb_[d];
#if MSTAGE_BOUNDS_CHECK
      __mstage_check_bounds(i, (unsigned long long)ext_[d], name_,
                            first.place.file, first.place.line,
                            first.place.function);
#endif
      offset = offset * std::size_t(ext_[d]) + std::size_t(i);
    }
    return data_[offset];
  }

private:
  _Tp *data_ = nullptr;
  int lb_[Rank] = {};
  int ext_[Rank] = {};
#if MSTAGE_BOUNDS_CHECK
  char name_[40] = {};
#endif
};

// Owns its elements in device memory (a device_vector); not copyable, as a
// device_vector. The name is for messages.
template <class _Tp, int Rank, class Layout = c_order> class array {
public:
  using value_type = _Tp;
  using view_type = array_view<_Tp, Rank, Layout>;
  using const_view_type = array_view<const _Tp, Rank, Layout>;
  static constexpr int rank() { return Rank; }

  template <int _Rp = Rank, std::enable_if_t<_Rp == 1, int> = 0>
  array(std::string name, array_dim d0) : name_(std::move(name)) {
    init({d0});
  }
  template <int _Rp = Rank, std::enable_if_t<_Rp == 2, int> = 0>
  array(std::string name, array_dim d0, array_dim d1) : name_(std::move(name)) {
    init({d0, d1});
  }
  template <int _Rp = Rank, std::enable_if_t<_Rp == 3, int> = 0>
  array(std::string name, array_dim d0, array_dim d1, array_dim d2)
      : name_(std::move(name)) {
    init({d0, d1, d2});
  }
  template <int _Rp = Rank, std::enable_if_t<_Rp == 4, int> = 0>
  array(std::string name, array_dim d0, array_dim d1, array_dim d2,
        array_dim d3)
      : name_(std::move(name)) {
    init({d0, d1, d2, d3});
  }

  const std::string &name() const { return name_; }
  int extent(int d) const { return ext_[checked_dim(d)]; }
  int lbound(int d) const { return lb_[checked_dim(d)]; }
  int ubound(int d) const { return lb_[checked_dim(d)] + ext_[d] - 1; }
  std::size_t size() const { return data_.size(); }
  _Tp *data() const { return data_.data(); }

  view_type view() { return view_type(data_.data(), lb_, ext_, name_.c_str()); }
  const_view_type view() const {
    return const_view_type(data_.data(), lb_, ext_, name_.c_str());
  }
  vector_view<_Tp> flat_view() { return data_.view(); }
  vector_view<const _Tp> flat_view() const { return data_.view(); }
  void use_on(stream_ref s) const { data_.use_on(s); }

  // The host mirror: the elements in memory order (waits for the current
  // stream), and back.
  std::vector<_Tp> to_host() const { return data_.download(); }
  void to_host(std::vector<_Tp> &host) const { data_.download(host); }
  void from_host(const std::vector<_Tp> &host) {
    if (host.size() != data_.size())
      throw error("mstage::array::from_host: '" + name_ + "' has " +
                  std::to_string(data_.size()) + " elements, the host " +
                  std::to_string(host.size()));
    data_.upload(host);
  }

private:
  void init(std::initializer_list<array_dim> dims) {
    std::size_t n = 1;
    int d = 0;
    for (const array_dim &x : dims) {
      long long lo = x.default_lo && std::is_same_v<Layout, fortran> ? 1 : x.lo;
      long long hi = x.default_lo ? lo + (x.hi - x.lo) : x.hi;
      if (hi < lo - 1)
        throw error("mstage::array '" + name_ + "': dimension " +
                    std::to_string(d) + " has an upper bound " +
                    std::to_string(hi) + " below its lower bound " +
                    std::to_string(lo) + " minus 1");
      if (lo < -2147483647LL || hi > 2147483647LL)
        throw error("mstage::array '" + name_ + "': dimension " +
                    std::to_string(d) + " does not fit int indices");
      lb_[d] = int(lo);
      ext_[d] = int(hi - lo + 1);
      n *= std::size_t(ext_[d]);
      ++d;
    }
    data_ = device_vector<_Tp>(n);
  }
  int checked_dim(int d) const {
    if (d < 0 || d >= Rank)
      throw error("mstage::array '" + name_ + "': dimension " +
                  std::to_string(d) + " of a rank " + std::to_string(Rank) +
                  " array");
    return d;
  }

  std::string name_;
  int lb_[Rank] = {};
  int ext_[Rank] = {};
  device_vector<_Tp> data_;
};

namespace detail {
template <class _Tp> struct is_mstage_array : std::false_type {};
template <class _Tp, int Rank, class Layout>
struct is_mstage_array<array<_Tp, Rank, Layout>> : std::true_type {};

// An array passes its view: nothing is copied. Not compared by
// MSTAGE_CHECK=cpu.
template <class Arg>
struct argument<Arg, std::enable_if_t<is_mstage_array<std::remove_cv_t<
                         std::remove_reference_t<Arg>>>::value>> {
  using array_type = std::remove_cv_t<std::remove_reference_t<Arg>>;
  static constexpr bool read_only =
      std::is_const_v<std::remove_reference_t<Arg>>;
  using device_type =
      std::conditional_t<read_only, typename array_type::const_view_type,
                         typename array_type::view_type>;

  argument(Arg &a, stream_ref s) : view(a.view()) { a.use_on(s); }
  static device_type preview(Arg &a) { return a.view(); }
  const device_type &device() const { return view; }
  // MSTAGE_CHECK=streams: its device_vector's memory.
  void check_use() const {
    mstage_rt_check_use(view.data(), view.size() * sizeof(*view.data()),
                        !read_only);
  }
  void finish() const {}

  static constexpr bool checkable = false;
  void snapshot() {}
  const device_type &cpu_device() const { return view; }
  std::string divergence() const { return ""; }

  device_type view;
};
} // namespace detail

} // namespace mstage

#endif
