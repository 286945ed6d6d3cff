// Dynamic allocation in kernels, as CUDA's device heap: malloc and free,
// new and delete (not the over-aligned forms) in kernel code allocate from a
// heap on the GPU of a fixed size, 8 MiB unless set:
//
//   mstage::set_device_heap_size(256 << 20);   // before the first launch
//   mstage::kernel([](mstage::vector_view<int> out) {
//     int *p = new int[4]{1, 2, 3, 4};          // the device heap
//     out[0] = p[3];
//     delete[] p;
//   }, 1, 1)(out);
//
// An exhausted heap: malloc and the nothrow operator new return null, as in
// CUDA; operator new (which cannot throw std::bad_alloc in a kernel) stops
// the launch as a failed assert does, printing its file, line and function
// and that the heap is exhausted, and the next call that waits for the
// kernel throws mstage::error naming the kernel (CUDA_ERROR_ASSERT).
// The driver fixes the heap's size at the first launch of a kernel that
// allocates; a later set_device_heap_size throws. Memory a kernel does not
// free stays taken until the program ends. On the CPU back end kernels use
// the host's heap, and the size is ignored (device_heap_size() is 0).
#ifndef MSTAGE_DEVICE_HEAP_HPP
#define MSTAGE_DEVICE_HEAP_HPP

#include "mstage/abi.h"
#include "mstage/device.hpp"
#include "mstage/error.hpp"

#include <cstddef>
#include <cstdint>

namespace mstage {

// Sets the device heap of the current device, or of d, to bytes.
inline void set_device_heap_size(std::size_t bytes) {
  detail::check(
      mstage_rt_set_device_heap_size(mstage_rt_device_current(), bytes));
}
inline void set_device_heap_size(std::size_t bytes, const device &d) {
  detail::check(mstage_rt_set_device_heap_size(d.index(), bytes));
}

// The device heap's size in bytes on the current device, or on d.
inline std::size_t device_heap_size() {
  std::uint64_t bytes = 0;
  detail::check(mstage_rt_device_heap_size(mstage_rt_device_current(), &bytes));
  return std::size_t(bytes);
}
inline std::size_t device_heap_size(const device &d) {
  std::uint64_t bytes = 0;
  detail::check(mstage_rt_device_heap_size(d.index(), &bytes));
  return std::size_t(bytes);
}

} // namespace mstage

#endif
