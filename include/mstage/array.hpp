// mstage::array<T, Rank, Layout>: a multi-dimensional array in device
// memory, as YAKL's Array, in C order (the last index is the fastest) or
// Fortran order (the first is, and lower bounds default to 1); and
// mstage::host_array, the same in host memory. Copies are shallow (YAKL's
// semantics): copies, slices and reshapes share the elements, which live
// until the last of them is gone; deep_copy_to, create_host_copy and
// create_device_copy copy them:
//
//   mstage::array<float, 2> a("a", ny, nx);                  // a(j, i)
//   mstage::array<float, 3, mstage::fortran> u{"u", {1, nz}, {1, ny}, {1, nx}};
//   auto uv = u.view();                 // what kernels and lambdas capture
//   mstage::parallel_for(mstage::bounds<3>{{1, nz}, {1, ny}, {1, nx}},
//                        [=](int k, int j, int i) { uv(k, j, i) = 0; });
//   std::vector<float> h = u.to_host();
//   auto top = u.slice<2>(mstage::colon, mstage::colon, nz);  // u(:, :, nz)
//   mstage::host_array<float, 3, mstage::fortran> hu = u.create_host_copy();
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

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
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

// Where an array's elements live: device memory (mstage::array, what
// kernels take) or host memory (mstage::host_array, indexed on the host).
struct device_space {};
struct host_space {};

// The placeholder of a slice's whole dimensions, YAKL's COLON.
struct colon_t {};
inline constexpr colon_t colon{};

namespace detail {
// The storage of an array's elements, shared by its shallow copies, slices
// and reshapes: a device_vector, or a std::vector on the host.
template <class _Tp, class Space>
using array_storage = std::conditional_t<std::is_same_v<Space, device_space>,
                                         device_vector<_Tp>, std::vector<_Tp>>;

// Whether the colons of a slice's indices are the fastest dimensions, so
// that the slice is one contiguous chunk: the last ones in C order, the
// first ones in Fortran order.
template <class Layout, class... _Ip> constexpr bool colons_are_contiguous() {
  constexpr bool is_colon[] = {std::is_same_v<_Ip, colon_t>...};
  constexpr int n = sizeof...(_Ip);
  int colons = 0;
  for (bool c : is_colon)
    colons += c;
  for (int d = 0; d < n; ++d) {
    bool fast = std::is_same_v<Layout, fortran> ? d < colons : d >= n - colons;
    if (is_colon[d] != fast)
      return false;
  }
  return true;
}
} // namespace detail

// An array of Rank dimensions: mstage::array in device memory,
// mstage::host_array in host memory. Copies are shallow, as YAKL's: a copy,
// a slice or a reshape shares the elements (reference-counted, so any of
// them keeps the elements alive after the others are gone), and
// deep_copy_to copies them. The name is for messages.
template <class _Tp, int Rank, class Layout, class Space> class basic_array {
  static constexpr bool on_device = std::is_same_v<Space, device_space>;
  static_assert(on_device || std::is_same_v<Space, host_space>,
                "mstage::basic_array: the space is mstage::device_space or "
                "mstage::host_space");
  using storage = detail::array_storage<_Tp, Space>;
  template <class, int, class, class> friend class basic_array;

public:
  using value_type = _Tp;
  using layout = Layout;
  using space = Space;
  using view_type = array_view<_Tp, Rank, Layout>;
  using const_view_type = array_view<const _Tp, Rank, Layout>;
  static constexpr int rank() { return Rank; }

  // An array with no elements (allocated() is false), to assign to later.
  basic_array() = default;
  template <int _Rp = Rank, std::enable_if_t<_Rp == 1, int> = 0>
  basic_array(std::string name, array_dim d0) : name_(std::move(name)) {
    allocate({d0});
  }
  template <int _Rp = Rank, std::enable_if_t<_Rp == 2, int> = 0>
  basic_array(std::string name, array_dim d0, array_dim d1)
      : name_(std::move(name)) {
    allocate({d0, d1});
  }
  template <int _Rp = Rank, std::enable_if_t<_Rp == 3, int> = 0>
  basic_array(std::string name, array_dim d0, array_dim d1, array_dim d2)
      : name_(std::move(name)) {
    allocate({d0, d1, d2});
  }
  template <int _Rp = Rank, std::enable_if_t<_Rp == 4, int> = 0>
  basic_array(std::string name, array_dim d0, array_dim d1, array_dim d2,
              array_dim d3)
      : name_(std::move(name)) {
    allocate({d0, d1, d2, d3});
  }

  const std::string &name() const { return name_; }
  int extent(int d) const { return ext_[checked_dim(d)]; }
  int lbound(int d) const { return lb_[checked_dim(d)]; }
  int ubound(int d) const { return lb_[checked_dim(d)] + ext_[d] - 1; }
  std::size_t size() const { return size_; }
  _Tp *data() const { return data_; }
  bool allocated() const { return store_ != nullptr; }
  // How many arrays share these elements (copies, slices, reshapes).
  long use_count() const { return store_.use_count(); }
  // Lets go of the elements (freed when no other array shares them).
  void deallocate() { *this = basic_array(); }

  // What kernels and lambdas capture (device arrays only); a const array
  // gives a view of const elements.
  template <bool _Dp = on_device, std::enable_if_t<_Dp, int> = 0>
  view_type view() {
    return view_type(data_, lb_, ext_, name_.c_str());
  }
  template <bool _Dp = on_device, std::enable_if_t<_Dp, int> = 0>
  const_view_type view() const {
    return const_view_type(data_, lb_, ext_, name_.c_str());
  }
  template <bool _Dp = on_device, std::enable_if_t<_Dp, int> = 0>
  vector_view<_Tp> flat_view() {
    return {data_, size_};
  }
  template <bool _Dp = on_device, std::enable_if_t<_Dp, int> = 0>
  vector_view<const _Tp> flat_view() const {
    return {data_, size_};
  }
  template <bool _Dp = on_device, std::enable_if_t<_Dp, int> = 0>
  void use_on(stream_ref s) const {
    if (store_)
      store_->use_on(s);
  }

  // a(i0, i1, ...) on the host (host arrays only), checked as a view's.
  template <class... _Ip, bool _Dp = on_device, std::enable_if_t<!_Dp, int> = 0>
  _Tp &operator()(detail::index_arg first, _Ip... rest) const {
    return view_type(data_, lb_, ext_, name_.c_str())(first, rest...);
  }

  // The host mirror: the elements in memory order (waits for the current
  // stream), and back.
  std::vector<_Tp> to_host() const {
    std::vector<_Tp> host(size_);
    to_host(host);
    return host;
  }
  void to_host(std::vector<_Tp> &host) const {
    host.resize(size_);
    if constexpr (on_device) {
      if (size_)
        store_->download(host.data(), size_, offset());
    } else {
      std::copy(data_, data_ + size_, host.begin());
    }
  }
  void from_host(const std::vector<_Tp> &host) {
    if (host.size() != size_)
      throw error("mstage::array::from_host: '" + name_ + "' has " +
                  std::to_string(size_) + " elements, the host " +
                  std::to_string(host.size()));
    if constexpr (on_device) {
      if (size_)
        store_->upload(host.data(), size_, offset());
    } else {
      std::copy(host.begin(), host.end(), data_);
    }
  }

  // Copies the elements into dst, an array of the same element count in
  // either space, of any rank and layout, in memory order; dst may be this
  // array's elements (nothing is copied) but not overlap them otherwise. A copy
  // from or to the host waits for it; one between device arrays is enqueued on
  // dst's stream, after the work before it.
  template <int _Rk2, class _Lo2, class _Sp2>
  void deep_copy_to(const basic_array<_Tp, _Rk2, _Lo2, _Sp2> &dst) const {
    if (dst.size_ != size_)
      throw error("mstage::array::deep_copy_to: '" + name_ + "' has " +
                  std::to_string(size_) + " elements, '" + dst.name_ + "' " +
                  std::to_string(dst.size_));
    if (size_ == 0 || dst.data_ == data_)
      return; // the same elements (a.deep_copy_to(a)): nothing to copy
    if constexpr (std::is_same_v<_Sp2, Space>)
      if (dst.store_ == store_ && dst.data_ < data_ + size_ &&
          data_ < dst.data_ + size_)
        throw error("mstage::array::deep_copy_to: '" + name_ + "' and '" +
                    dst.name_ + "' overlap in the elements they share");
    constexpr bool to_device = std::is_same_v<_Sp2, device_space>;
    if constexpr (on_device && to_device)
      dst.store_->copy_from(*store_, offset(), size_, dst.offset());
    else if constexpr (on_device)
      store_->download(dst.data_, size_, offset());
    else if constexpr (to_device)
      dst.store_->upload(data_, size_, dst.offset());
    else
      std::copy(data_, data_ + size_, dst.data_);
  }
  // A new array of the same shape and name in host or device memory, with
  // a copy of the elements (a separate copy even in the same space).
  basic_array<_Tp, Rank, Layout, host_space> create_host_copy() const {
    basic_array<_Tp, Rank, Layout, host_space> h = like<host_space>();
    deep_copy_to(h);
    return h;
  }
  basic_array<_Tp, Rank, Layout, device_space> create_device_copy() const {
    basic_array<_Tp, Rank, Layout, device_space> d = like<device_space>();
    deep_copy_to(d);
    return d;
  }

  // A contiguous chunk, sharing the elements: one index per dimension,
  // mstage::colon for the dimensions kept, which must be the fastest (the
  // last ones in C order, the first ones in Fortran order):
  //   a.slice<1>(k, j, mstage::colon)             // C order: a(k, j, :)
  //   u.slice<2>(mstage::colon, mstage::colon, k)  // Fortran: u(:, :, k)
  template <int _Rk, class... _Ip>
  basic_array<_Tp, _Rk, Layout, Space> slice(_Ip... idx) const {
    static_assert(sizeof...(_Ip) == Rank,
                  "mstage::array::slice: give one index or mstage::colon per "
                  "dimension");
    static_assert(
        ((std::is_integral_v<_Ip> || std::is_same_v<_Ip, colon_t>) && ...),
        "mstage::array::slice: indices are integers or "
        "mstage::colon");
    static_assert((int(std::is_same_v<_Ip, colon_t>) + ... + 0) == _Rk,
                  "mstage::array::slice<R>: give R mstage::colon");
    static_assert(detail::colons_are_contiguous<Layout, _Ip...>(),
                  "mstage::array::slice: the colons must be the fastest "
                  "dimensions (the last in C order, the first in Fortran "
                  "order), so that the slice is contiguous");
    if (!store_)
      throw error("mstage::array::slice: '" + name_ + "' is not allocated");
    const long long at[Rank] = {index_or_zero(idx)...};
    const bool kept[Rank] = {std::is_same_v<_Ip, colon_t>...};
    basic_array<_Tp, _Rk, Layout, Space> s;
    s.name_ = name_;
    s.store_ = store_;
    std::size_t off = 0, n = 1;
    int k = 0;
    for (int r = 0; r < Rank; ++r) {
      int d = std::is_same_v<Layout, fortran> ? Rank - 1 - r : r;
      if (!kept[d] && (at[d] < lb_[d] || at[d] > ubound(d)))
        throw error("mstage::array::slice: '" + name_ + "': index " +
                    std::to_string(at[d]) + " of dimension " +
                    std::to_string(d) + " is outside [" +
                    std::to_string(lb_[d]) + ", " + std::to_string(ubound(d)) +
                    "]");
      // A kept dimension starts at its lower bound.
      off = off * std::size_t(ext_[d]) +
            (kept[d] ? 0 : std::size_t(at[d] - lb_[d]));
    }
    for (int d = 0; d < Rank; ++d)
      if (kept[d]) {
        s.lb_[k] = lb_[d];
        s.ext_[k++] = ext_[d];
        n *= std::size_t(ext_[d]);
      }
    s.data_ = data_ + off;
    s.size_ = n;
    return s;
  }

  // The same elements with other dimensions of the same total count (their
  // extents or {lo, hi} bounds, as the constructor's), sharing them.
  template <class... _Dp>
  basic_array<_Tp, int(sizeof...(_Dp)), Layout, Space>
  reshape(_Dp... dims) const {
    static_assert(sizeof...(_Dp) >= 1 && sizeof...(_Dp) <= 4,
                  "mstage::array::reshape: 1 to 4 dimensions");
    basic_array<_Tp, int(sizeof...(_Dp)), Layout, Space> r;
    r.name_ = name_;
    std::size_t n = r.set_bounds({array_dim(dims)...});
    if (n != size_)
      throw error("mstage::array::reshape: '" + name_ + "' has " +
                  std::to_string(size_) + " elements, the new shape " +
                  std::to_string(n));
    r.store_ = store_;
    r.data_ = data_;
    r.size_ = size_;
    return r;
  }

private:
  static long long index_or_zero(colon_t) { return 0; }
  template <class _Ip> static long long index_or_zero(_Ip i) {
    return (long long)i;
  }
  // The element offset of data_ in the storage.
  std::size_t offset() const {
    return store_ ? std::size_t(data_ - store_->data()) : 0;
  }

  // An array of this one's shape and name in another space.
  template <class _Sp2> basic_array<_Tp, Rank, Layout, _Sp2> like() const {
    basic_array<_Tp, Rank, Layout, _Sp2> a;
    a.name_ = name_;
    for (int d = 0; d < Rank; ++d) {
      a.lb_[d] = lb_[d];
      a.ext_[d] = ext_[d];
    }
    a.allocate_elements(size_);
    return a;
  }

  // The lower bounds and extents of dims; returns their element count.
  std::size_t set_bounds(std::initializer_list<array_dim> dims) {
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
    return n;
  }
  void allocate(std::initializer_list<array_dim> dims) {
    allocate_elements(set_bounds(dims));
  }
  void allocate_elements(std::size_t n) {
    store_ = std::make_shared<storage>(n);
    data_ = store_->data();
    size_ = n;
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
  std::shared_ptr<storage> store_;
  _Tp *data_ = nullptr;
  std::size_t size_ = 0;
};

// YAKL's Array<T, Rank, memDevice|memHost, styleC|styleFortran>.
template <class _Tp, int Rank, class Layout = c_order>
using array = basic_array<_Tp, Rank, Layout, device_space>;
template <class _Tp, int Rank, class Layout = c_order>
using host_array = basic_array<_Tp, Rank, Layout, host_space>;

namespace detail {
template <class _Tp> struct is_mstage_array : std::false_type {};
template <class _Tp, int Rank, class Layout>
struct is_mstage_array<array<_Tp, Rank, Layout>> : std::true_type {};
template <class _Tp> struct is_host_array : std::false_type {};
template <class _Tp, int Rank, class Layout>
struct is_host_array<host_array<_Tp, Rank, Layout>> : std::true_type {};

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

// A host array is host memory, which the GPU cannot reach: the error is in
// the constructor, as std::vector<bool>'s, so that it is the launch's only
// one.
template <class Arg>
struct argument<Arg, std::enable_if_t<is_host_array<std::remove_cv_t<
                         std::remove_reference_t<Arg>>>::value>> {
  using array_type = std::remove_cv_t<std::remove_reference_t<Arg>>;
  argument(Arg &, stream_ref) {
    static_assert(always_false<Arg>,
                  "mstage: an mstage::host_array cannot be a kernel argument: "
                  "its elements are in host memory; pass its "
                  "create_device_copy() (an mstage::array)");
  }
  using device_type = typename array_type::view_type;
  static device_type preview(Arg &);
  static constexpr bool checkable = false;
  const device_type &device() const;
  void check_use() const;
  void finish() const {}
  void snapshot() {}
  const device_type &cpu_device() const;
  std::string divergence() const { return ""; }
};
} // namespace detail

} // namespace mstage

#endif
