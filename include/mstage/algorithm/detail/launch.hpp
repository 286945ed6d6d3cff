// What every algorithm of mstage/algorithm.hpp shares: the stream it runs on,
// the launch configuration it takes from the device, the views it accepts,
// its temporary device memory and the checks of its arguments.
#ifndef MSTAGE_ALGORITHM_DETAIL_LAUNCH_HPP
#define MSTAGE_ALGORITHM_DETAIL_LAUNCH_HPP

#include "mstage/abi.h"
#include "mstage/device_vector.hpp"
#include "mstage/error.hpp"
#include "mstage/kernel.hpp"
#include "mstage/managed_vector.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_view.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace mstage {
namespace detail {

// The algorithms are function objects, as the C++20 ranges algorithms are:
// argument-dependent lookup never finds them, and never picks std::'s for a
// view of a std:: element type. on(s) gives the same algorithm on stream s;
// without it, an algorithm runs on the calling thread's current stream.
template <class Derived> struct algorithm_base {
  mstage_stream *stream_ = nullptr;

  Derived on(stream_ref s) const {
    Derived d = static_cast<const Derived &>(*this);
    d.stream_ = s.get();
    return d;
  }
  stream_ref stream() const {
    return stream_ref(stream_ ? stream_ : mstage_rt_stream_current());
  }
};

// What the algorithms need to know of the device, asked once per process
// (the device of a process's launches does not change).
struct algorithm_device {
  unsigned multiprocessors;
  unsigned blocks_per_multiprocessor; // resident blocks of `block` threads
  bool cpu;
};

// Blocks of `block` threads that fill the device once: one per thread of the
// CPU back end (each runs one block at a time); on a GPU as many as its
// multiprocessors hold by their thread limit. In PTX-only mode the GPU is not
// known: an H100's 132 multiprocessors stand in, so that the code compiled
// is the code an H100 would run.
inline algorithm_device query_device(unsigned block) {
  static const mstage_device_properties props = [] {
    mstage_device_properties p{};
    check(mstage_rt_device_query(&p, nullptr, nullptr, nullptr, 0, nullptr,
                                 nullptr));
    return p;
  }();
  algorithm_device d;
  d.cpu = std::strcmp(props.arch, "cpu") == 0;
  d.multiprocessors = props.multiprocessors ? props.multiprocessors : 132;
  unsigned per_sm = props.max_threads_per_multiprocessor / block;
  d.blocks_per_multiprocessor = d.cpu ? 1 : (per_sm ? per_sm : 1);
  return d;
}

// Blocks to launch for `tiles` pieces of work: one per tile up to the number
// that fills the device; each block then walks its tiles with the grid's
// stride.
inline unsigned grid_for(std::size_t tiles, unsigned block) {
  algorithm_device d = query_device(block);
  std::size_t full =
      std::size_t(d.multiprocessors) * d.blocks_per_multiprocessor;
  return unsigned(tiles < full ? tiles : full);
}

// Blocks of `block` threads for one thread per element, when the grid fits
// CUDA's limit; 0 when it does not (the caller then strides).
inline unsigned grid_one_per_thread(std::size_t n, unsigned block) {
  std::size_t blocks = (n + block - 1) / block;
  return blocks <= 0x7fffffffu ? unsigned(blocks) : 0;
}

// The views an algorithm takes, as a vector_view of device memory: a
// device_vector (used on the algorithm's stream from now on), a
// managed_vector, a vector_view, or anything with view() that gives one
// (mstage::array). A std::vector or a pointer is refused when compiling.
template <class _Vp> struct view_traits {
  static constexpr bool host_vector = false;
  static constexpr bool pointer =
      std::is_pointer_v<_Vp> && std::is_object_v<std::remove_pointer_t<_Vp>>;
};
template <class _Tp, class _Ap> struct view_traits<std::vector<_Tp, _Ap>> {
  static constexpr bool host_vector = true;
  static constexpr bool pointer = false;
};

template <class _Tp> vector_view<_Tp> as_view(vector_view<_Tp> v, stream_ref) {
  return v;
}
template <class _Tp>
vector_view<_Tp> as_view(device_vector<_Tp> &v, stream_ref s) {
  v.use_on(s);
  return v.view();
}
template <class _Tp>
vector_view<const _Tp> as_view(const device_vector<_Tp> &v, stream_ref s) {
  v.use_on(s);
  return v.view();
}
template <class _Tp>
vector_view<_Tp> as_view(managed_vector<_Tp> &v, stream_ref) {
  return v.view(); // no host access: MSTAGE_CHECK=streams sees the launch
}
template <class _Tp>
vector_view<const _Tp> as_view(const managed_vector<_Tp> &v, stream_ref) {
  return v.view();
}
// mstage::array and its views: their elements, flat.
template <class _Ap, class = decltype(std::declval<_Ap &>().flat_view())>
auto as_view(_Ap &a, stream_ref s) {
  a.use_on(s);
  return a.flat_view();
}

template <class _Vp>
using view_of =
    decltype(as_view(std::declval<_Vp &>(), std::declval<stream_ref>()));
template <class _Vp>
using element_of = std::remove_const_t<typename view_of<_Vp>::element_type>;

template <class _Vp, class = void> struct is_view_arg : std::false_type {};
template <class _Vp>
struct is_view_arg<_Vp, std::void_t<view_of<_Vp>>> : std::true_type {};

template <class _Vp>
inline constexpr bool view_arg_v =
    is_view_arg<std::remove_reference_t<_Vp>>::value;
// A view, or what the checks refuse as one (host memory, a pointer): the
// argument the caller meant as a range, so that overloads that tell a range
// from an operator send it to the check that explains the mistake.
template <class _Vp, class _Dp = std::remove_cv_t<std::remove_reference_t<_Vp>>>
inline constexpr bool range_arg_v =
    view_arg_v<_Vp> || view_traits<_Dp>::host_vector ||
    view_traits<_Dp>::pointer;

template <class _Vp, class = void> struct is_writable_view : std::false_type {};
template <class _Vp>
struct is_writable_view<_Vp, std::enable_if_t<is_view_arg<_Vp>::value>>
    : std::bool_constant<
          !std::is_const_v<typename view_of<_Vp>::element_type>> {};
template <class _Vp>
inline constexpr bool writable_view_v =
    is_writable_view<std::remove_reference_t<_Vp>>::value;

// Whether op(R, R) exists and gives something that converts to R.
template <class _Op, class _Rp, class = void>
struct op_fits : std::false_type {};
template <class _Op, class _Rp>
struct op_fits<_Op, _Rp,
               std::enable_if_t<
                   std::is_invocable_v<const _Op &, const _Rp &, const _Rp &>>>
    : std::is_convertible<
          std::invoke_result_t<const _Op &, const _Rp &, const _Rp &>, _Rp> {};
template <class _Op, class _Rp>
inline constexpr bool op_fits_v = op_fits<_Op, _Rp>::value;

// f(a, b) as a T: what an operator gives may be another type.
template <class _Tp, class _Op>
_Tp apply_op(const _Op &f, const _Tp &a, const _Tp &b) {
  return static_cast<_Tp>(f(a, b));
}

// Which ops have an identity the reduction may start every thread from:
// sums of arithmetic types, min and max, and the logical ones. Others start
// from the elements themselves, with a flag for "no element yet".
template <class _Op, class _Rp, class = void> struct identity_of {
  static constexpr bool known = false;
};

// Room for one T that is trivially constructible whatever T is, so that
// shared arrays, kernel arguments and host buffers can hold any trivially
// copyable T.
template <class _Tp> struct raw_storage {
  alignas(_Tp) unsigned char bytes[sizeof(_Tp)];
};
template <class _Tp> raw_storage<_Tp> to_raw(const _Tp &v) {
  return __builtin_bit_cast(raw_storage<_Tp>, v);
}
template <class _Tp> _Tp from_raw(const raw_storage<_Tp> &r) {
  return __builtin_bit_cast(_Tp, r);
}

inline constexpr std::size_t align_up(std::size_t n, std::size_t a) {
  return (n + a - 1) / a * a;
}

// Device memory from the stream's pool for one call: allocated and freed in
// stream order, so that it may be freed as soon as the call's kernels are
// enqueued.
class temporary {
public:
  temporary(std::size_t bytes, stream_ref s) : stream_(s) {
    check(mstage_rt_alloc_async(&p_, bytes ? bytes : 1, s.get()));
  }
  temporary(const temporary &) = delete;
  temporary &operator=(const temporary &) = delete;
  ~temporary() { mstage_rt_free_async(p_, stream_.get()); }
  void *get() const { return p_; }

  // n T's from byte offset on.
  template <class _Tp>
  vector_view<_Tp> view(std::size_t offset, std::size_t n) const {
    return {reinterpret_cast<_Tp *>(static_cast<unsigned char *>(p_) + offset),
            n};
  }
  // Zeroes the first bytes bytes, in stream order.
  void zero(std::size_t bytes) const {
    unsigned char zero = 0;
    if (bytes)
      check(mstage_rt_fill_async(p_, &zero, 1, bytes, stream_.get()));
  }

private:
  void *p_ = nullptr;
  stream_ref stream_;
};

// What stream s's reductions reuse, so that a call allocates nothing: a
// counter, zero between launches (each is one launch whose last block, found
// by the counter, zeroes it again), and room for a launch's partials,
// 16-byte aligned. A reduce_room is its caller's alone from its making until
// its launch is enqueued: two host threads that reduce on one stream at once
// take two rooms (the CPU back end runs each launch on the thread that makes
// it, so the two kernels would otherwise share the counter and the
// partials); given back, the room goes to the stream's next reduction, which
// runs after the launch in stream order. The rooms of a stream (one per
// thread that reduces on it at once) are kept until the process ends, keyed
// by the stream's number, which is never reused.
class reduce_room {
public:
  reduce_room(stream_ref s, std::size_t bytes) : s_(s) {
    {
      std::lock_guard<std::mutex> guard(pool().lock);
      std::vector<entry> &spare = pool().spare[mstage_rt_stream_id(s.get())];
      if (!spare.empty()) {
        e_ = spare.back();
        spare.pop_back();
      }
    }
    if (!e_.ticket) {
      void *q = nullptr;
      check(mstage_rt_alloc_async(&q, sizeof(unsigned), s.get()));
      unsigned char zero = 0;
      check(mstage_rt_fill_async(q, &zero, 1, sizeof(unsigned), s.get()));
      e_.ticket = static_cast<unsigned *>(q);
    }
    if (bytes > e_.size) {
      // The launches that used the old room come before its free in stream
      // order; the room is sized for a full grid of the largest partial.
      if (e_.room)
        mstage_rt_free_async(e_.room, s.get());
      std::size_t size =
          align_up(bytes > 2 * e_.size ? bytes : 2 * e_.size, 16);
      e_.room = nullptr;
      e_.size = 0;
      check(mstage_rt_alloc_async(&e_.room, size, s.get()));
      e_.size = size;
    }
  }
  reduce_room(const reduce_room &) = delete;
  reduce_room &operator=(const reduce_room &) = delete;
  // Called once the launch that uses the room is enqueued. A launch that
  // failed may have left the counter short of zero: that room is dropped.
  ~reduce_room() {
    if (std::uncaught_exceptions() > uncaught_)
      return;
    std::lock_guard<std::mutex> guard(pool().lock);
    pool().spare[mstage_rt_stream_id(s_.get())].push_back(e_);
  }
  vector_view<unsigned> ticket() const { return {e_.ticket, 1}; }
  void *partials() const { return e_.room; }

private:
  struct entry {
    unsigned *ticket = nullptr;
    void *room = nullptr;
    std::size_t size = 0;
  };
  struct rooms {
    std::mutex lock;
    std::unordered_map<std::uint64_t, std::vector<entry>> spare;
  };
  static rooms &pool() {
    static rooms *r = new rooms; // used until the very end of exit
    return *r;
  }
  stream_ref s_;
  entry e_;
  int uncaught_ = std::uncaught_exceptions();
};

// Throws, naming the call, unless the views' sizes a and b are equal.
inline void check_same_size(const char *call, const char *what, std::size_t a,
                            std::size_t b) {
  if (a != b)
    throw error(std::string("mstage: ") + call + ": " + what + " (" +
                std::to_string(a) + " and " + std::to_string(b) +
                " elements); pass views of equal size");
}

} // namespace detail
} // namespace mstage

// Compile-time checks with the call's name in the message (a static_assert
// message must be a literal, so these are macros). Each fails with one
// message; the callers guard the rest of the call with view_arg_v and the
// like, so that a failed check is the call's only error.
#define MSTAGE_ALGORITHM_CHECK_VIEW(call, _Vp)                                 \
  static_assert(                                                               \
      !::mstage::detail::view_traits<                                          \
          std::remove_cv_t<std::remove_reference_t<_Vp>>>::host_vector,        \
      "mstage: " call ": a std::vector is host memory; copy it into "          \
      "a device_vector (or pass a managed_vector) first");                     \
  static_assert(!::mstage::detail::view_traits<                                \
                    std::remove_cv_t<std::remove_reference_t<_Vp>>>::pointer,  \
                "mstage: " call ": a pointer has no size; pass a "             \
                "device_vector, a vector_view or an mstage::array");           \
  static_assert(::mstage::detail::range_arg_v<_Vp>,                            \
                "mstage: " call                                                \
                ": takes a device_vector, a managed_vector, a "                \
                "vector_view or an mstage::array")

// An output: a view whose elements the call may write (`what` is "the
// output", "the view", ...).
#define MSTAGE_ALGORITHM_CHECK_WRITABLE(call, _Vp, what)                       \
  MSTAGE_ALGORITHM_CHECK_VIEW(call, _Vp);                                      \
  static_assert(!::mstage::detail::view_arg_v<_Vp> ||                          \
                    ::mstage::detail::writable_view_v<_Vp>,                    \
                "mstage: " call ": " what " is read-only")

#define MSTAGE_ALGORITHM_CHECK_OP(call, _Op)                                   \
  static_assert(std::is_trivially_copyable_v<std::decay_t<_Op>>,               \
                "mstage: " call ": the operator is copied into a kernel: it "  \
                "must capture only trivially copyable values (views, not "     \
                "device_vectors), by value")

#endif
