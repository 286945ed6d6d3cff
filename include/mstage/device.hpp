// mstage::device: what the device that launches go to can do, as CUDA's
// cudaGetDeviceProperties and cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
//   auto d = mstage::device::current();
//   unsigned blocks = d.multiprocessors() * d.occupancy(k, 256, in, out);
//
// On the CPU back end it describes the host: name() from /proc/cpuinfo,
// arch() "cpu", one multiprocessor per thread that runs blocks
// (MSTAGE_CPU_THREADS, else the hardware threads), 32-thread warps, sm_90's
// shared memory and thread limits (which its launches are held to), and an
// occupancy of 1 (a thread runs one block at a time). In PTX-only mode
// (MSTAGE_BACKEND=ptx) it answers what MSTAGE_ARCH fixes; name(),
// multiprocessors() and occupancy() depend on the GPU and throw
// mstage::error.
#ifndef MSTAGE_DEVICE_HPP
#define MSTAGE_DEVICE_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"
#include "mstage/kernel.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mstage {

class device {
public:
  // The device of this process's launches (MSTAGE_DEVICE, MSTAGE_BACKEND).
  static device current() {
    device D;
    detail::check(mstage_rt_device_query(&D.p_, nullptr, nullptr, nullptr, 0,
                                         nullptr, nullptr));
    return D;
  }

  // "NVIDIA H200", or the host CPU's model name.
  std::string name() const {
    if (!p_.name[0])
      unknown("name");
    return p_.name;
  }
  // "sm_90" (what kernels are compiled for); "cpu" on the CPU back end.
  std::string arch() const { return p_.arch; }
  unsigned multiprocessors() const {
    if (!p_.multiprocessors)
      unknown("multiprocessor count");
    return p_.multiprocessors;
  }
  // The most dynamic shared memory one launch may have (the opt-in limit,
  // which mstage raises to by itself: 227 KiB on sm_90).
  std::size_t shared_memory_per_block() const {
    return p_.shared_memory_per_block;
  }
  std::size_t shared_memory_per_multiprocessor() const {
    return p_.shared_memory_per_multiprocessor;
  }
  unsigned warp_size() const { return p_.warp_size; }
  unsigned max_threads_per_block() const { return p_.max_threads_per_block; }
  unsigned max_threads_per_multiprocessor() const {
    return p_.max_threads_per_multiprocessor;
  }

  // How many blocks of k, launched with block threads per block and k's
  // shared_bytes, one multiprocessor runs at once. args are k's arguments
  // (as k(args...) takes them; nothing is copied): they choose the kernel's
  // code and its stage() values, and so its registers. The specialization
  // is compiled here and kept for the launches.
  template <class F, class... Args>
  unsigned occupancy(const Kernel<F> &k, dim3 block, Args &&...args) const {
    return query(k, block, detail::argument<Args &&>::preview(args)...);
  }

private:
  template <class F, class... D>
  unsigned query(const Kernel<F> &k, dim3 block, const D &...views) const {
    const void *entry =
        reinterpret_cast<const void *>(detail::kernel_invoke<F, D...>::entry);
    void *params[] = {const_cast<F *>(&k.body()),
                      const_cast<void *>(static_cast<const void *>(&views))...};
    const uint32_t sizes[] = {uint32_t(sizeof(F)), uint32_t(sizeof(D))...};
    dim3 grid = k.grid();
    mstage_launch_config c = {{grid.x, grid.y, grid.z},
                              {block.x, block.y, block.z},
                              static_cast<uint32_t>(k.shared_bytes()),
                              k.is_fast_math() ? MSTAGE_LAUNCH_FAST_MATH : 0u};
    mstage_device_properties ignored;
    int blocks = 0;
    detail::check(mstage_rt_device_query(&ignored, entry, params, sizes,
                                         1 + sizeof...(D), &c, &blocks));
    return unsigned(blocks);
  }

  [[noreturn]] void unknown(const char *what) const {
    throw error(std::string("mstage: the device's ") + what +
                " cannot be known in PTX-only mode (MSTAGE_BACKEND=ptx, " +
                p_.arch + "): it depends on the GPU");
  }

  mstage_device_properties p_{};
};

} // namespace mstage

#endif
