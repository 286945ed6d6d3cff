// What the scans and sorts share: their arguments as views on a stream,
// pooled scratch memory, raw shared-memory slots for any trivially copyable
// T, and warp shuffles of values of any size.
#ifndef MSTAGE_ALGORITHM_DETAIL_SCAN_COMMON_HPP
#define MSTAGE_ALGORITHM_DETAIL_SCAN_COMMON_HPP

#include "mstage/abi.h"
#include "mstage/builtins.h"
#include "mstage/device_vector.hpp"
#include "mstage/error.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_view.hpp"

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

namespace mstage::detail {

// A range the algorithms take: a device_vector (its memory, with nothing
// copied) or a vector_view of device memory. element is const for a const
// device_vector and a view of const T.
template <class V> struct scan_range_traits {
  static constexpr bool is_range = false;
};
template <class T> struct scan_range_traits<device_vector<T>> {
  static constexpr bool is_range = true;
  using element = T;
};
template <class T> struct scan_range_traits<const device_vector<T>> {
  static constexpr bool is_range = true;
  using element = const T;
};
template <class T> struct scan_range_traits<vector_view<T>> {
  static constexpr bool is_range = true;
  using element = T;
};
template <class T>
struct scan_range_traits<const vector_view<T>> : scan_range_traits<vector_view<T>> {};

template <class V>
inline constexpr bool scan_is_range =
    scan_range_traits<std::remove_reference_t<V>>::is_range;
template <class V>
using scan_element_t =
    typename scan_range_traits<std::remove_reference_t<V>>::element;
template <class V>
using scan_value_t = std::remove_const_t<scan_element_t<V>>;

// The view of a range for a launch on s; a device_vector is then used on s
// (its first use there waits for its allocation).
template <class T> vector_view<T> scan_view(device_vector<T> &v, stream_ref s) {
  v.use_on(s);
  return v.view();
}
template <class T>
vector_view<const T> scan_view(const device_vector<T> &v, stream_ref s) {
  v.use_on(s);
  return v.view();
}
template <class T> vector_view<T> scan_view(vector_view<T> v, stream_ref) {
  return v;
}

// The stream of a call: the one given, else the current one.
inline stream_ref scan_stream(mstage_stream *s) {
  return stream_ref(s ? s : mstage_rt_stream_current());
}

inline void scan_check_sizes(const char *call, std::size_t in, std::size_t out,
                             const char *what_in = "input",
                             const char *what_out = "output") {
  if (in != out)
    throw error(std::string("mstage: ") + call + ": the " + what_in +
                " has " + std::to_string(in) + " elements and the " +
                what_out + " " + std::to_string(out) +
                "; give ranges of the same size");
}

// Device memory from the stream's pool for one call: allocated and freed in
// stream order, so that it may be freed as soon as the call's kernels are
// enqueued.
class scan_scratch {
public:
  scan_scratch(std::size_t bytes, stream_ref s) : s_(s), bytes_(bytes) {
    check(mstage_rt_alloc_async(&p_, bytes_ ? bytes_ : 8, s_.get()));
  }
  scan_scratch(const scan_scratch &) = delete;
  scan_scratch &operator=(const scan_scratch &) = delete;
  ~scan_scratch() { mstage_rt_free_async(p_, s_.get()); }

  // Zeroes the first bytes bytes, in stream order.
  void zero(std::size_t bytes) const {
    unsigned char zero = 0;
    if (bytes)
      check(mstage_rt_fill_async(p_, &zero, 1, bytes, s_.get()));
  }
  template <class T> vector_view<T> view(std::size_t offset, std::size_t n) const {
    return {reinterpret_cast<T *>(static_cast<unsigned char *>(p_) + offset),
            n};
  }

private:
  stream_ref s_;
  std::size_t bytes_;
  void *p_ = nullptr;
};

inline constexpr std::size_t scan_align_up(std::size_t n, std::size_t a) {
  return (n + a - 1) / a * a;
}

// Room for one T that is trivially constructible whatever T is, so that
// shared arrays and kernel arguments can hold any trivially copyable T.
template <class T> struct scan_slot {
  alignas(T) unsigned char bytes[sizeof(T)];
};

template <class T> T scan_load(const scan_slot<T> &s) {
  T v;
  std::memcpy(static_cast<void *>(&v), s.bytes, sizeof(T));
  return v;
}
template <class T> scan_slot<T> scan_store(const T &v) {
  scan_slot<T> s;
  std::memcpy(s.bytes, static_cast<const void *>(&v), sizeof(T));
  return s;
}

// Warp shuffles of a T of any size, 32 bits at a time (warp.hpp's take 4 or
// 8 bytes only).
template <class T, class Shuffle> T scan_shuffle_words(const T &v, Shuffle f) {
  constexpr unsigned words = (sizeof(T) + 3) / 4;
  int w[words] = {};
  std::memcpy(w, static_cast<const void *>(&v), sizeof(T));
  for (unsigned i = 0; i < words; ++i)
    w[i] = f(w[i]);
  T r;
  std::memcpy(static_cast<void *>(&r), w, sizeof(T));
  return r;
}
template <class T> T scan_shfl_up(const T &v, unsigned delta) {
  return scan_shuffle_words(
      v, [&](int x) { return __mstage_shfl_up_i32(~0u, x, delta, 32); });
}
template <class T> T scan_shfl_down(const T &v, unsigned delta) {
  return scan_shuffle_words(
      v, [&](int x) { return __mstage_shfl_down_i32(~0u, x, delta, 32); });
}
template <class T> T scan_shfl(const T &v, int lane) {
  return scan_shuffle_words(
      v, [&](int x) { return __mstage_shfl_i32(~0u, x, lane, 32); });
}

} // namespace mstage::detail

#endif
