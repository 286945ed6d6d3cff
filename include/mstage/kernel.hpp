// kernel(): turns a C++ lambda into a launchable GPU kernel.
#ifndef MSTAGE_KERNEL_HPP
#define MSTAGE_KERNEL_HPP

#include "mstage/abi.h"
#include "mstage/cpu_check.hpp"
#include "mstage/device_vector.hpp"
#include "mstage/error.hpp"
#include "mstage/managed_vector.hpp"
#include "mstage/pinned.hpp"
#include "mstage/stream.hpp"
#include "mstage/vector_view.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace mstage {

// A launch extent: a number, or {x, y, z}. Accepts any integer type so that
// kernel(f, n / 256, 256) and kernel(f, {nx, ny, 1}, {16, 16, 1}) both work.
struct dim3 {
  unsigned x = 1, y = 1, z = 1;

  dim3() = default;
  template <class _Xp, class _Yp = unsigned, class _Zp = unsigned,
            class = std::enable_if_t<std::is_integral_v<_Xp> &&
                                     std::is_integral_v<_Yp> &&
                                     std::is_integral_v<_Zp>>>
  dim3(_Xp x, _Yp y = 1u, _Zp z = 1u)
      : x(narrow(x, "x")), y(narrow(y, "y")), z(narrow(z, "z")) {}

private:
  template <class _Ip> static unsigned narrow(_Ip v, const char *axis) {
    if constexpr (std::is_signed_v<_Ip>)
      if (v < 0)
        throw error(std::string("mstage: launch extent ") + axis +
                    " is negative (" + std::to_string(v) + ")");
    if (static_cast<std::make_unsigned_t<_Ip>>(v) >
        std::numeric_limits<unsigned>::max())
      throw error(std::string("mstage: launch extent ") + axis +
                  " does not fit in 32 bits (" + std::to_string(v) + ")");
    return static_cast<unsigned>(v);
  }
};

namespace detail {

// The kernel entry: one instantiation per (lambda, device argument types).
// The extraction pass finds it by its annotation and builds the device kernel
// around it; the host keeps its address as the key of the launch.
template <class _Fp, class... _Ap>
[[clang::annotate("mstage.kernel"), gnu::used, gnu::noinline]] void
kernel_entry(const _Fp &f, const _Ap &...args) {
  _Fp body = f; // a copy, so that mutable lambdas work too
  body(args...);
}

// Calls kernel_entry<F, D...> from a launch's parameter array: what the CPU
// back end runs for each thread (mstage_invoke_fn). Not a kernel (no
// annotation): the extraction pass leaves it in the host object.
template <class _Fp, class Seq, class... _Dp> struct kernel_invoker;
template <class _Fp, std::size_t... _Ip, class... _Dp>
struct kernel_invoker<_Fp, std::index_sequence<_Ip...>, _Dp...> {
  // The one place that names kernel_entry<F, D...>: a body that does not
  // compile makes that specialization invalid, and each further mention
  // would add an error of its own.
  static constexpr void (*entry)(const _Fp &,
                                 const _Dp &...) = &kernel_entry<_Fp, _Dp...>;
  static void invoke(void *const *params) {
    entry(*static_cast<const _Fp *>(params[0]),
          *static_cast<const _Dp *>(params[_Ip + 1])...);
  }
};
template <class _Fp, class... _Dp>
using kernel_invoke =
    kernel_invoker<_Fp, std::index_sequence_for<_Dp...>, _Dp...>;

template <class _Tp> struct is_vector_view : std::false_type {};
template <class _Tp>
struct is_vector_view<vector_view<_Tp>> : std::true_type {};

template <class _Tp> struct is_std_vector : std::false_type {};
template <class _Tp, class _Ap>
struct is_std_vector<std::vector<_Tp, _Ap>> : std::true_type {};
// std::vector<bool> packs its elements into bits and has no data(): it gets
// an argument of its own that says so in one error.
template <class _Ap>
struct is_std_vector<std::vector<bool, _Ap>> : std::false_type {};
// A pinned_vector is its std::vector: the launch's own accesses are not
// the host's (pinned.hpp).
template <class _Tp>
struct is_std_vector<pinned_vector<_Tp>>
    : is_std_vector<std::vector<_Tp, pinned_allocator<_Tp>>> {};
template <class _Tp> struct std_vector_of {
  using type = _Tp;
};
template <class _Tp> struct std_vector_of<pinned_vector<_Tp>> {
  using type = std::vector<_Tp, pinned_allocator<_Tp>>;
};
template <class _Tp> struct is_std_vector_bool : std::false_type {};
template <class _Ap>
struct is_std_vector_bool<std::vector<bool, _Ap>> : std::true_type {};
template <class> inline constexpr bool always_false = false;

// Owns the device copy of one std::vector argument for a launch: pooled
// device memory on the launch's stream, copied in before the kernel and
// freed after it in stream order.
template <class _Tp, bool Pinned> class vector_transfer {
public:
  vector_transfer(const _Tp *host, std::size_t n, stream_ref s)
      : bytes_(n * sizeof(_Tp)), stream_(s) {
    if (mstage_rt_stream_capturing(s.get()))
      throw error("mstage: a std::vector kernel argument cannot be captured "
                  "into a graph: each replay would read and write host memory "
                  "as it is then; pass a device_vector");
    check(mstage_rt_alloc_async(&dev_, bytes_, s.get()));
    int status = mstage_rt_copy_to_device_async(dev_, host, bytes_, s.get());
    if (status != 0) {
      mstage_rt_free_async(dev_, s.get());
      check(status);
    }
  }
  vector_transfer(const vector_transfer &) = delete;
  vector_transfer &operator=(const vector_transfer &) = delete;
  ~vector_transfer() { mstage_rt_free_async(dev_, stream_.get()); }

  _Tp *device() const { return static_cast<_Tp *>(dev_); }
  // Copies the device array back and waits for it.
  void copy_back(_Tp *host) const {
    check(mstage_rt_copy_to_host_async(host, dev_, bytes_, stream_.get()));
    stream_.synchronize();
  }
  // The launch returns when the host array may change: a copy from
  // pageable memory is staged when enqueued, one from pinned memory runs
  // by DMA later and is waited for.
  void release_host() const {
    if constexpr (Pinned)
      stream_.synchronize();
  }

private:
  void *dev_ = nullptr;
  std::size_t bytes_;
  stream_ref stream_;
};

// The host objects (std::vector, device_vector, managed_vector) among one
// launch's arguments. One passed twice, as in k(v, v) or k(v,
// std::as_const(v)), is one array to the kernel: its arguments share one
// device copy, copied back once if either may write it, and one
// MSTAGE_CHECK=cpu snapshot. Distinct such objects never overlap. Converts
// to the launch's stream for the arguments that need only that.
class launch_args {
public:
  struct shared {
    const void *object = nullptr; // the host object
    void *device = nullptr;       // its device copy (std::vector)
    bool written = false;         // passed as non-const at least once
    bool snapshot = false;        // snapshot taken
    void *cpu = nullptr;          // the snapshot's elements
  };

  // objects: room for one entry per argument.
  launch_args(stream_ref s, shared *objects) : stream_(s), objects_(objects) {}
  operator stream_ref() const { return stream_; }
  stream_ref stream() const { return stream_; }

  // The entry of object, made for its first argument (*first then true).
  shared &use(const void *object, bool written, bool *first = nullptr) {
    for (unsigned i = 0; i < n_; ++i)
      if (objects_[i].object == object) {
        objects_[i].written |= written;
        if (first)
          *first = false;
        return objects_[i];
      }
    if (first)
      *first = true;
    objects_[n_] = shared{object, nullptr, written};
    return objects_[n_++];
  }

private:
  stream_ref stream_;
  shared *objects_;
  unsigned n_ = 0;
};

// The MSTAGE_CHECK=cpu snapshot of a host object's elements, shared by the
// arguments that pass the object: its first snapshot() takes it, and that
// argument alone compares it after the CPU's run.
template <class _Tp> class shared_snapshot {
public:
  // take(out) fills out with the elements as the GPU sees them.
  template <class Take> _Tp *get(launch_args::shared &entry, Take take) {
    if (!entry.snapshot) {
      take(copy_);
      entry.snapshot = true;
      entry.cpu = copy_.data();
      holder_ = true;
    }
    return static_cast<_Tp *>(entry.cpu);
  }
  // Whether this argument compares the object: it took the snapshot, and
  // the object was passed as non-const.
  bool compares(const launch_args::shared &entry) const {
    return holder_ && entry.written;
  }
  // "" when not compares(), else where the GPU's elements first differ.
  std::string divergence(const launch_args::shared &entry, const _Tp *gpu,
                         std::size_t n) const {
    if (!compares(entry))
      return "";
    return first_divergence(gpu, copy_.data(), n);
  }

private:
  std::vector<_Tp> copy_;
  bool holder_ = false;
};

// How one host argument crosses to the device, for a launch on a stream.
//  - std::vector<T>&:        copied in and back out (the launch waits for
//                            it), seen as vector_view<T>
//  - const std::vector<T>&:  copied in, seen as vector_view<const T>
//  - device_vector, managed_vector: their memory, seen as vector_view
//  - trivially copyable T:   passed by value
// A pinned_vector is a std::vector.
// For MSTAGE_CHECK=cpu (cpu_check.hpp) each also keeps a host copy of what
// the kernel gets (snapshot, cpu_device) and compares the GPU's output with
// the CPU's (divergence).
template <class Arg, class = void> struct argument {
  using value_type = std::remove_cv_t<std::remove_reference_t<Arg>>;
  static_assert(std::is_trivially_copyable_v<value_type>,
                "mstage: a kernel argument must be a std::vector or a "
                "trivially copyable value; other types own host memory that "
                "the GPU cannot reach");
  using device_type = value_type;

  argument(const value_type &v, stream_ref) : value(v) {}
  const device_type &device() const { return value; }
  // MSTAGE_CHECK=streams: the memory the launch reads and writes (a
  // std::vector's copies are checked as copies): a view's elements, read
  // when they are const, else written.
  void check_use() const {
    if constexpr (is_vector_view<value_type>::value)
      mstage_rt_check_use(
          value.data(), value.size() * sizeof(*value.data()),
          !std::is_const_v<std::remove_pointer_t<decltype(value.data())>>);
  }
  // What the kernel would get, for prepare(): nothing is copied anywhere.
  static device_type preview(const value_type &v) { return v; }
  void finish() const {}

  // A raw pointer or a view is device memory, which the CPU cannot read.
  static constexpr bool checkable = !std::is_pointer_v<value_type> &&
                                    !std::is_member_pointer_v<value_type> &&
                                    !is_vector_view<value_type>::value;
  void snapshot() {}
  const device_type &cpu_device() const { return value; }
  std::string divergence() const { return ""; }

  device_type value;
};

template <class Arg>
struct argument<Arg, std::enable_if_t<is_std_vector<std::remove_cv_t<
                         std::remove_reference_t<Arg>>>::value>> {
  using vector_type = typename std_vector_of<
      std::remove_cv_t<std::remove_reference_t<Arg>>>::type;
  using element = typename vector_type::value_type;
  static_assert(std::is_trivially_copyable_v<element>,
                "mstage: std::vector kernel arguments must hold trivially "
                "copyable elements");
  static constexpr bool copy_out =
      std::is_lvalue_reference_v<Arg> &&
      !std::is_const_v<std::remove_reference_t<Arg>>;
  using device_type =
      vector_view<std::conditional_t<copy_out, element, const element>>;

  static constexpr bool pinned =
      std::is_same_v<typename vector_type::allocator_type,
                     pinned_allocator<element>>;

  argument(Arg &v, launch_args &args)
      : host(const_cast<vector_type &>(static_cast<const vector_type &>(v))),
        entry(use(host, args)) {
    if (transfer) // the first argument to pass v: its copy is v's
      entry.device = transfer->device();
    view = device_type(static_cast<element *>(entry.device), v.size());
  }
  // For prepare(): a view of the host array, not copied, as stage() sites
  // read only a vector's size (its elements are in device memory at a
  // launch, which the host cannot read).
  static device_type preview(Arg &v) {
    const vector_type &same = v;
    return device_type(const_cast<element *>(same.data()), v.size());
  }
  const device_type &device() const { return view; }
  void check_use() const {}
  // The copy comes back once, by v's first argument, if any of v's
  // arguments is non-const.
  void finish() const {
    if (!transfer)
      return;
    if (entry.written)
      transfer->copy_back(host.data());
    else
      transfer->release_host();
  }

  static constexpr bool checkable = true;
  void snapshot() {
    cpu_view = device_type(cpu_copy.get(entry,
                                        [&](std::vector<element> &out) {
                                          out.assign(host.begin(), host.end());
                                        }),
                           host.size());
  }
  const device_type &cpu_device() const { return cpu_view; }
  std::string divergence() const {
    return cpu_copy.divergence(entry, host.data(), host.size());
  }

  vector_type &host;
  std::optional<vector_transfer<element, pinned>> transfer;
  launch_args::shared &entry;
  device_type view;
  shared_snapshot<element> cpu_copy;
  device_type cpu_view;

private:
  // v's entry; the first argument to pass v copies it to the device.
  launch_args::shared &use(vector_type &v, launch_args &args) {
    bool first;
    launch_args::shared &e = args.use(&v, copy_out, &first);
    if (first)
      transfer.emplace(v.data(), v.size(), args.stream());
    return e;
  }
};

template <class Arg>
struct argument<Arg, std::enable_if_t<is_std_vector_bool<std::remove_cv_t<
                         std::remove_reference_t<Arg>>>::value>> {
  // The assertion is in the constructor, so that the class stays valid and
  // the launch code gives no further errors; the rest is declared only.
  argument(Arg &, stream_ref) {
    static_assert(always_false<Arg>,
                  "mstage: std::vector<bool> cannot be a kernel argument: it "
                  "stores its elements as bits, with no array to copy to the "
                  "GPU; use std::vector<char> or std::vector<std::uint8_t>");
  }
  using device_type = vector_view<bool>;
  static device_type preview(Arg &);
  static constexpr bool checkable = false;
  const device_type &device() const;
  void check_use() const;
  void finish() const;
  void snapshot();
  const device_type &cpu_device() const;
  std::string divergence() const;
};

template <class _Tp> struct is_device_vector : std::false_type {};
template <class _Tp>
struct is_device_vector<device_vector<_Tp>> : std::true_type {};

// A device_vector passes its device memory, with nothing copied.
template <class Arg>
struct argument<Arg, std::enable_if_t<is_device_vector<std::remove_cv_t<
                         std::remove_reference_t<Arg>>>::value>> {
  using vector_type = std::remove_cv_t<std::remove_reference_t<Arg>>;
  using element = typename vector_type::value_type;
  using device_type = vector_view<std::conditional_t<
      std::is_const_v<std::remove_reference_t<Arg>>, const element, element>>;

  argument(Arg &v, launch_args &args)
      : vector(v), view(v.data(), v.size()),
        entry(args.use(&v, !std::is_const_v<std::remove_reference_t<Arg>>)) {
    v.use_on(args.stream());
  }
  static device_type preview(Arg &v) { return device_type(v.data(), v.size()); }
  const device_type &device() const { return view; }
  void check_use() const {
    mstage_rt_check_use(view.data(), view.size() * sizeof(element),
                        !std::is_const_v<std::remove_reference_t<Arg>>);
  }
  void finish() const {}

  static constexpr bool checkable = true;
  void snapshot() {
    cpu_view = device_type(
        cpu_copy.get(entry,
                     [&](std::vector<element> &out) { vector.download(out); }),
        vector.size());
  }
  const device_type &cpu_device() const { return cpu_view; }
  std::string divergence() const {
    if (!cpu_copy.compares(entry))
      return "";
    std::vector<element> gpu = vector.download();
    return cpu_copy.divergence(entry, gpu.data(), gpu.size());
  }

  const vector_type &vector;
  device_type view;
  launch_args::shared &entry;
  shared_snapshot<element> cpu_copy;
  device_type cpu_view;
};

template <class _Tp> struct is_managed_vector : std::false_type {};
template <class _Tp>
struct is_managed_vector<managed_vector<_Tp>> : std::true_type {};

// A managed_vector passes its unified memory, with nothing copied.
template <class Arg>
struct argument<Arg, std::enable_if_t<is_managed_vector<std::remove_cv_t<
                         std::remove_reference_t<Arg>>>::value>> {
  using vector_type = std::remove_cv_t<std::remove_reference_t<Arg>>;
  using element = typename vector_type::value_type;
  static constexpr bool read_only =
      std::is_const_v<std::remove_reference_t<Arg>>;
  using device_type =
      vector_view<std::conditional_t<read_only, const element, element>>;

  // Through view(): what the launch passes is no host access of its own.
  argument(Arg &v, launch_args &args)
      : vector(v), view(v.view()), entry(args.use(&v, !read_only)) {}
  static device_type preview(Arg &v) { return v.view(); }
  const device_type &device() const { return view; }
  void check_use() const {
    mstage_rt_check_use(view.data(), view.size() * sizeof(element), !read_only);
  }
  void finish() const {}

  // The check waits for the launch's stream, so the host may read it.
  static constexpr bool checkable = true;
  void snapshot() {
    cpu_view = device_type(cpu_copy.get(entry,
                                        [&](std::vector<element> &out) {
                                          out.assign(view.begin(), view.end());
                                        }),
                           vector.size());
  }
  const device_type &cpu_device() const { return cpu_view; }
  std::string divergence() const {
    return cpu_copy.divergence(entry, view.data(), vector.size());
  }

  const vector_type &vector;
  device_type view;
  launch_args::shared &entry;
  shared_snapshot<element> cpu_copy;
  device_type cpu_view;
};

} // namespace detail

// A kernel bound to its launch configuration and a stream (the current one
// unless on() says). Calling it enqueues the kernel on the stream and
// returns; only when a non-const std::vector& argument must come back does
// it wait, and the vector is copied back when it returns.
template <class _Fp> class Kernel {
#ifndef __MSTAGE__
  // Under mstage++ the plugin reports the offending capture by name instead.
  static_assert(std::is_trivially_copyable_v<_Fp>,
                "mstage: a kernel lambda must capture only trivially copyable "
                "values, by value");
#endif

public:
  // where: the call that made it, which MSTAGE_CHECK=streams names for its
  // launches (on() names its own call).
  Kernel(_Fp f, dim3 grid, dim3 block, std::size_t shared_bytes,
         detail::call_site where = detail::call_site::here())
      : f_(f), grid_(grid), block_(block), shared_bytes_(shared_bytes),
        where_(where) {
    if (shared_bytes > std::numeric_limits<uint32_t>::max())
      throw error("mstage: shared memory size " + std::to_string(shared_bytes) +
                  " does not fit in 32 bits");
  }

  template <class... Args> void operator()(Args &&...args) const {
    mstage_invoke_fn invoke = &detail::kernel_invoke<
        _Fp, typename detail::argument<Args &&>::device_type...>::invoke;
    check_runnable<typename detail::argument<Args &&>::device_type...>();
    stream_ref s = stream();
    // Before the arguments use the stream. The id tells a stream made since
    // in the destroyed one's place.
    if (stream_)
      detail::check(mstage_rt_launch_stream_check(
          entry<typename detail::argument<Args &&>::device_type...>(), stream_,
          stream_id_));
    // One per argument at most: the host objects passed more than once.
    detail::check_site site(
        where_, "kernel",
        entry<typename detail::argument<Args &&>::device_type...>());
    detail::launch_args::shared objects[sizeof...(Args) + 1];
    detail::launch_args shared_args(s, objects);
    launch_with(s, invoke, detail::argument<Args &&>(args, shared_args)...);
  }

  // Compiles the specialization that these arguments would launch, without
  // launching it: with MSTAGE_JIT=async in the background (jit_wait() waits
  // for it), with sync now. std::vector arguments are not copied to the
  // device: stage() sites read only their sizes.
  template <class... Args> void prepare(Args &&...args) const {
    check_runnable<typename detail::argument<Args &&>::device_type...>();
    prepare_with(detail::argument<Args &&>::preview(args)...);
  }

  // This kernel, launched on s. The stream must outlive the launches.
  Kernel on(stream_ref s,
            detail::call_site where = detail::call_site::here()) const {
    Kernel k = *this;
    k.where_ = where;
    k.stream_ = s.get();
    k.stream_id_ = s.get() ? s.id() : 0;
    return k;
  }
  // The stream this kernel is launched on.
  stream_ref stream() const {
    return stream_ref(stream_ ? stream_ : mstage_rt_stream_current());
  }

  const _Fp &body() const { return f_; }
  dim3 grid() const { return grid_; }
  dim3 block() const { return block_; }
  std::size_t shared_bytes() const { return shared_bytes_; }

  // This kernel with fast math, as nvcc's --use_fast_math: single-precision
  // denormals flushed to zero, approximate division, sqrt and sin, cos, exp,
  // log, pow. MSTAGE_FAST_MATH=1 turns it on for every kernel.
  Kernel fast_math(bool on = true) const {
    Kernel k = *this;
    k.fast_math_ = on;
    return k;
  }
  bool is_fast_math() const { return fast_math_; }

  // This kernel named after label, as kernel("label", f, ...) names it.
  // mstage++ reads the label where it compiles this call (so it is a string
  // literal) and gives it to the kernel's type: every launch of this lambda
  // in this file has the name, launched through k or not. At run time it
  // changes nothing; the name is the symbol's (docs/api.md).
  Kernel named(const char *label) const {
    (void)label;
    return *this;
  }

  // With MSTAGE_CHECK=cpu, whether this kernel's launches are checked
  // against the CPU back end (default: yes). Turn it off for a kernel whose
  // output depends on the order its atomics happen in.
  Kernel check_on_cpu(bool on) const {
    Kernel k = *this;
    k.check_on_cpu_ = on;
    return k;
  }

private:
  // Whether the kernel can run at all, before any argument is copied; once
  // it could, it can for the life of the process.
  template <class... _Dp> static void check_runnable() {
    static std::atomic<bool> prepared{false};
    if (!prepared.load(std::memory_order_relaxed)) {
      detail::check(mstage_rt_prepare(entry<_Dp...>()));
      prepared.store(true, std::memory_order_relaxed);
    }
  }

  mstage_launch_config config() const {
    return {{grid_.x, grid_.y, grid_.z},
            {block_.x, block_.y, block_.z},
            static_cast<uint32_t>(shared_bytes_),
            fast_math_ ? MSTAGE_LAUNCH_FAST_MATH : 0u};
  }

  template <class... _Dp> void prepare_with(const _Dp &...views) const {
    void *params[] = {const_cast<_Fp *>(&f_),
                      const_cast<void *>(static_cast<const void *>(&views))...};
    const uint32_t sizes[] = {uint32_t(sizeof(_Fp)), uint32_t(sizeof(_Dp))...};
    mstage_launch_config c = config();
    detail::check(mstage_rt_compile(entry<_Dp...>(), params, sizes,
                                    1 + sizeof...(_Dp), &c));
  }

  // The host address of the kernel entry identifies the kernel.
  template <class... _Dp> static const void *entry() {
    return reinterpret_cast<const void *>(
        detail::kernel_invoke<_Fp, _Dp...>::entry);
  }

  template <class... _Ap>
  void launch_with(stream_ref s, mstage_invoke_fn invoke, _Ap &&...args) const {
    const void *key = entry<typename _Ap::device_type...>();
    void *params[] = {
        const_cast<_Fp *>(&f_),
        const_cast<void *>(static_cast<const void *>(&args.device()))...};
    const uint32_t sizes[] = {uint32_t(sizeof(_Fp)),
                              uint32_t(sizeof(typename _Ap::device_type))...};
    mstage_launch_config config = this->config();
    // A captured launch does not run now: there is nothing to compare.
    bool compare = check_on_cpu_ && check_mode(key, (_Ap::checkable && ...)) &&
                   !mstage_rt_stream_capturing(s.get());
    if (compare) {
      // The check reads the arguments before and after the kernel.
      s.synchronize();
      (args.snapshot(), ...);
    }
    if (detail::streams_checked())
      (args.check_use(), ...);
    detail::check(mstage_rt_launch(key, invoke, params, sizes,
                                   1 + sizeof...(_Ap), &config, s.get()));
    (args.finish(), ...);
    if (!compare)
      return;
    s.synchronize();
    void *cpu_params[] = {
        const_cast<_Fp *>(&f_),
        const_cast<void *>(static_cast<const void *>(&args.cpu_device()))...};
    detail::check(mstage_rt_launch_on_cpu(key, invoke, cpu_params,
                                          1 + sizeof...(_Ap), &config));
    std::string diff;
    std::size_t arg = 0;
    ((diff.empty() ? (++arg, diff = args.divergence(), 0) : 0), ...);
    if (!diff.empty())
      throw error("mstage: MSTAGE_CHECK=cpu: kernel '" +
                  std::string(mstage_rt_kernel_name(key)) + "': " +
                  (detail::two_cpu_runs()
                       ? "two runs on the CPU back end differ"
                       : "the GPU and the CPU back end differ") +
                  " in argument " + std::to_string(arg) + ", " + diff);
  }

  // Whether this launch is compared with the CPU back end (MSTAGE_CHECK).
  static bool check_mode(const void *key, bool checkable) {
    int mode = mstage_rt_check_mode(key, checkable ? 1 : 0);
    if (mode < 0)
      throw error(mstage_rt_last_error());
    return mode == 1;
  }

  _Fp f_;
  dim3 grid_, block_;
  std::size_t shared_bytes_;
  bool fast_math_ = false;
  bool check_on_cpu_ = true;
  mstage_stream *stream_ = nullptr; // null: the current stream at launch
  std::uint64_t stream_id_ = 0;     // stream_'s when bound
  detail::call_site where_;
};

// kernel(lambda, grid, block[, shared_bytes]): grid counts blocks and block
// counts threads per block, as in CUDA.
template <class _Fp>
Kernel<_Fp> kernel(_Fp f, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                   detail::call_site where = detail::call_site::here()) {
  // A function's address is a host address, which no launch can call.
  static_assert(!std::is_pointer_v<_Fp> ||
                    !std::is_function_v<std::remove_pointer_t<_Fp>>,
                "mstage: kernel() takes a lambda or a function object, not a "
                "function: the GPU cannot call a host function's address; "
                "wrap it in a lambda: kernel([](auto... a) { f(a...); }, "
                "grid, block)");
  static_assert(!std::is_member_pointer_v<_Fp>,
                "mstage: kernel() takes a lambda or a function object, not a "
                "pointer to member");
  return Kernel<_Fp>(f, grid, block, shared_bytes, where);
}

// kernel("label", lambda, grid, block[, shared_bytes]): the same kernel,
// named after its label where it is shown (Nsight Compute, compute-
// sanitizer, MSTAGE_TRACE, mstage-ptx): "saxpy" in main is main::saxpy, a
// label with "::" is the whole name. mstage++ reads the label where it
// compiles the call, so it is a string literal (docs/inspecting.md).
template <class _Fp>
Kernel<_Fp> kernel(const char *label, _Fp f, dim3 grid, dim3 block,
                   std::size_t shared_bytes = 0,
                   detail::call_site where = detail::call_site::here()) {
  (void)label;
  return kernel(f, grid, block, shared_bytes, where);
}

// Waits until every specialization queued for compiling in the background
// (by launches and prepare(), with MSTAGE_JIT=async) is compiled and loaded:
// later launches of them run the specialized code. For benchmarks and tests.
inline void jit_wait() { detail::check(mstage_rt_jit_wait()); }

// Launch policies for async(), as in the paper's std::async(launch::kernel...).
enum class launch { kernel };

namespace detail {
class future_awaiter; // mstage/coroutine.hpp
} // namespace detail

// The result of async(): completes when the launch's kernel has finished.
// It is an event on the launch's stream, so the futures of one stream
// complete in launch order; no thread is started. co_await on it
// (mstage/coroutine.hpp) is its get() in a coroutine.
class kernel_future {
public:
  kernel_future() = default; // not valid(), as std::future
  explicit kernel_future(event e) : done_(std::move(e)), valid_(true) {}
  explicit kernel_future(std::exception_ptr failed)
      : failed_(failed), valid_(true) {}
  // A moved-from future is not valid(), as std::future.
  kernel_future(kernel_future &&other) noexcept
      : done_(std::exchange(other.done_, std::nullopt)),
        failed_(std::exchange(other.failed_, nullptr)),
        valid_(std::exchange(other.valid_, false)) {}
  kernel_future &operator=(kernel_future &&other) noexcept {
    done_ = std::exchange(other.done_, std::nullopt);
    failed_ = std::exchange(other.failed_, nullptr);
    valid_ = std::exchange(other.valid_, false);
    return *this;
  }

  // Waits for the kernel; throws mstage::error if the launch or the kernel
  // failed.
  void wait() const {
    if (failed_)
      std::rethrow_exception(failed_);
    if (done_)
      done_->synchronize();
  }
  void get() {
    wait();
    done_.reset();
    valid_ = false;
  }
  bool valid() const { return valid_; }
  // Whether the kernel has finished (or the launch failed).
  bool ready() const { return failed_ || !done_ || done_->query(); }
  template <class Rep, class Period>
  std::future_status
  wait_for(const std::chrono::duration<Rep, Period> &d) const {
    auto until = std::chrono::steady_clock::now() + d;
    while (!ready()) {
      if (std::chrono::steady_clock::now() >= until)
        return std::future_status::timeout;
      std::this_thread::yield(); // a poll, not a spin that starves the host
    }
    return std::future_status::ready;
  }

private:
  friend class detail::future_awaiter;
  std::optional<event> done_;
  std::exception_ptr failed_;
  bool valid_ = false;
};

// Enqueues the launch on k's stream (k.on(s), else the current stream) and
// returns a future for it: successive async calls on one stream run in
// order. A launch that cannot start is reported by the future's wait(). A
// non-const std::vector& argument makes the launch wait, as a plain call
// does, and the future is then complete.
template <class _Fp, class... Args>
kernel_future async(launch, const Kernel<_Fp> &k, Args &&...args) {
  try {
    k(std::forward<Args>(args)...);
    return kernel_future(k.stream().record());
  } catch (const error &) {
    return kernel_future(std::current_exception());
  }
}

} // namespace mstage

#endif
