// Variables in device memory at namespace scope, CUDA's `__device__ int
// counter;` and `__constant__ float coeff[64];` with cudaMemcpyToSymbol:
//
//   mstage::device_global<int> counter;           // global memory
//   mstage::constant<float[64]> coeff;            // constant memory
//
//   coeff.upload(table);                          // cudaMemcpyToSymbol
//   k = mstage::kernel([](mstage::vector_view<float> x) {
//     mstage::atomic_add(&counter.get(), 1);      // a reference to it
//     x[i] *= coeff.get()[i % 64];
//   });
//   int n = counter.download();                   // cudaMemcpyFromSymbol
//
// Declared at namespace scope (not as a local, a class member or an extern
// declaration of another file's variable), in a file that mstage++ compiles.
// get() is the variable: on the GPU the device's object, on the CPU back end
// (and in host code) the host's. T is trivially copyable; the initializer is
// the value each device starts from.
//
// One class, two memory spaces (space::global, space::constant), and
// constant<T> is device_global<T, space::constant>: the spaces share every
// operation, and constant<T>'s get() is const, as a kernel must not write
// constant memory. constant<T> is a `.const` variable of each module, read
// through the constant cache (a table all threads of a warp read at one
// index); device_global<T> is read and written through the L1/L2 caches.
//
// One value per device, however many modules hold the kernels: the JIT
// makes a module per specialization, and each CUDA module would have its own
// copy of a `__device__` variable. A device_global<T> is one allocation per
// device, which every module's kernels reach through a pointer that the
// runtime sets when it loads the module (one load per kernel, cached). A
// constant<T> has a copy in each module; the runtime keeps the device's value
// and writes it into each module it loads, and upload() writes every loaded
// module's copy. Kernels cannot write constants, so the copies never differ.
//
// upload() and download() wait for the device's work (every stream), as
// cudaMemcpyToSymbol waits on the legacy default stream, and work on the
// current device or the one named; a device that no upload and no kernel has
// touched starts from the initializer. On the CPU back end they copy into
// and out of the host object, which kernels use.
#ifndef MSTAGE_DEVICE_GLOBAL_HPP
#define MSTAGE_DEVICE_GLOBAL_HPP

#include "mstage/abi.h"
#include "mstage/device.hpp"
#include "mstage/error.hpp"

#include <type_traits>
#include <utility>

namespace mstage {
namespace space {
struct global {};   // device memory, read and written by kernels
struct constant {}; // constant memory, read only by kernels
} // namespace space

template <class _Tp, class _Space = space::global> class device_global {
  static_assert(std::is_same_v<_Space, space::global> ||
                    std::is_same_v<_Space, space::constant>,
                "mstage::device_global<T, Space>: Space is space::global or "
                "space::constant");
  static_assert(std::is_trivially_copyable_v<_Tp> && !std::is_const_v<_Tp>,
                "mstage::device_global<T>: T must be trivially copyable and "
                "not const; it is copied to and from the device bit for bit");
  static constexpr bool is_constant = std::is_same_v<_Space, space::constant>;

public:
  using value_type = _Tp;
  using reference = std::conditional_t<is_constant, const _Tp &, _Tp &>;

  // Zero, as a __device__ variable without an initializer.
  constexpr device_global() : value_{} {}
  // The initial value, as aggregate initialization of T: device_global<int>
  // g{5}; constant<float[3]> c{1.f, 2.f, 3.f}.
  template <class... _Up, class = std::enable_if_t<(sizeof...(_Up) > 0)>>
  constexpr device_global(_Up &&...init) : value_{std::forward<_Up>(init)...} {}

  device_global(const device_global &) = delete;
  device_global &operator=(const device_global &) = delete;

  // The object: in kernel code the device's, in host code the host's (the
  // CPU back end's). The object is the only member, so mstage++ maps this
  // variable onto the device's.
  reference get() { return value_; }
  const _Tp &get() const { return value_; }

  // Copies value to the object on the current device, or on d.
  void upload(const _Tp &value) {
    upload_to(mstage_rt_device_current(), value);
  }
  void upload(const _Tp &value, const device &d) {
    upload_to(d.index(), value);
  }

  // Copies the object on the current device, or on d, to out.
  void download(_Tp &out) const {
    download_from(mstage_rt_device_current(), out);
  }
  void download(_Tp &out, const device &d) const {
    download_from(d.index(), out);
  }
  // The same, returned (not for arrays, which a function cannot return).
  template <class _Up = _Tp, class = std::enable_if_t<!std::is_array_v<_Up>>>
  _Up download() const {
    _Up out;
    download(out);
    return out;
  }
  template <class _Up = _Tp, class = std::enable_if_t<!std::is_array_v<_Up>>>
  _Up download(const device &d) const {
    _Up out;
    download(out, d);
    return out;
  }

private:
  void upload_to(unsigned dev, const _Tp &value) {
    detail::check(mstage_rt_global_upload(&value_, sizeof(_Tp), is_constant,
                                          dev, &value));
  }
  void download_from(unsigned dev, _Tp &out) const {
    detail::check(mstage_rt_global_download(&value_, sizeof(_Tp), is_constant,
                                            dev, &out));
  }

  _Tp value_;
};

// CUDA's __constant__: a table the kernels read.
template <class _Tp> using constant = device_global<_Tp, space::constant>;

} // namespace mstage

#endif
