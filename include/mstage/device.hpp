// mstage::device: a device that launches go to, and what it can do, as
// CUDA's cudaGetDeviceProperties and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
//   auto d = mstage::device::current();
//   unsigned blocks = d.multiprocessors() * d.occupancy(k, 256, in, out);
//
// mstage::devices() lists the visible GPUs (MSTAGE_VISIBLE_DEVICES, else
// those CUDA_VISIBLE_DEVICES leaves), numbered from 0. Each host thread has a
// current device, MSTAGE_DEVICE (default 0) until make_current() or a
// device_guard changes it; streams, events, device_vectors and memory pools
// belong to a device, and a kernel runs on its stream's device:
//
//   for (const mstage::device &d : mstage::devices()) {
//     mstage::device_guard g(d);          // d is current in this scope
//     mstage::device_vector<float> x(n);  // d's memory, d's current stream
//     k.on(d)(x);                         // d's current stream
//   }
//
// On the CPU back end it describes the host: name() from /proc/cpuinfo,
// arch() "cpu", one multiprocessor per thread that runs blocks
// (MSTAGE_CPU_THREADS, else the hardware threads), 32-thread warps, sm_90's
// shared memory and thread limits (which its launches are held to), and an
// occupancy of 1 (a thread runs one block at a time). In PTX-only mode
// (MSTAGE_BACKEND=ptx) it answers what MSTAGE_ARCH fixes, and is a nominal
// device: name() "PTX-only sm_90 (nominal)", the multiprocessors() and
// total_memory() of a reference GPU of the architecture (docs/api.md's
// table); occupancy() depends on the GPU and throws mstage::error. Both
// have one device, 0.
#ifndef MSTAGE_DEVICE_HPP
#define MSTAGE_DEVICE_HPP

#include "mstage/abi.h"
#include "mstage/error.hpp"
#include "mstage/kernel.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// cuda.h's context type, so that native handles need no CUDA header here.
struct CUctx_st;

namespace mstage {

class device {
public:
  // The calling thread's current device (MSTAGE_DEVICE until make_current).
  static device current() { return at(mstage_rt_device_current()); }
  // The visible device numbered index; throws mstage::error when there is
  // none.
  static device at(unsigned index) {
    device _Dp;
    detail::check(mstage_rt_device_properties(index, &_Dp.p_));
    return _Dp;
  }

  // Its number among the visible devices, from 0.
  unsigned index() const { return p_.index; }
  // Makes this device the calling thread's current one: streams,
  // device_vectors and launches without a stream go to it from now on. Other
  // threads keep theirs.
  void make_current() const {
    detail::check(mstage_rt_device_set_current(p_.index));
  }
  // The calling thread's default stream on this device; a device converts
  // to it, so that k.on(d) launches on d.
  stream_ref current_stream() const {
    mstage_stream *s = mstage_rt_stream_current_on(p_.index);
    if (!s)
      detail::check(mstage_rt_device_set_current(p_.index)); // says why
    return stream_ref(s);
  }
  operator stream_ref() const { return current_stream(); }

  // Whether kernels on this device can read memory of owner (peer access;
  // asking enables it). Without it, a launch here with owner's memory is an
  // error, and copy_from between them is staged through the host.
  bool can_access_peer(const device &owner) const {
    return mstage_rt_device_peer_access(p_.index, owner.p_.index) == 1;
  }

  // For NCCL, the CUDA runtime and CUDA-aware MPI: CUDA's device ordinal
  // (what cudaSetDevice takes; -1 off the GPU) and the device's primary
  // context, which the CUDA runtime uses too (null off the GPU).
  int native_handle() const {
    int ordinal;
    void *context;
    detail::check(mstage_rt_device_native(p_.index, &ordinal, &context));
    return ordinal;
  }
  CUctx_st *native_context() const {
    int ordinal;
    void *context;
    detail::check(mstage_rt_device_native(p_.index, &ordinal, &context));
    return static_cast<CUctx_st *>(context);
  }

  bool operator==(const device &o) const { return p_.index == o.p_.index; }
  bool operator!=(const device &o) const { return p_.index != o.p_.index; }

  // Bytes of device memory (0 on the CPU back end; the reference GPU's in
  // PTX-only mode), and the PCI bus id ("0000:19:00.0"; "" off the GPU).
  std::size_t total_memory() const { return p_.total_memory; }
  std::string pci_bus_id() const { return p_.pci_bus_id; }

  // "NVIDIA H200", the host CPU's model name, or "PTX-only sm_90 (nominal)".
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
  template <class _Fp, class... Args>
  unsigned occupancy(const Kernel<_Fp> &k, dim3 block, Args &&...args) const {
    unsigned previous = mstage_rt_device_current();
    make_current(); // the query is of the current device
    try {
      unsigned blocks =
          query(k, block, detail::argument<Args &&>::preview(args)...);
      mstage_rt_device_set_current(previous);
      return blocks;
    } catch (...) {
      mstage_rt_device_set_current(previous);
      throw;
    }
  }

private:
  template <class _Fp, class... _Dp>
  unsigned query(const Kernel<_Fp> &k, dim3 block, const _Dp &...views) const {
    const void *entry = reinterpret_cast<const void *>(
        detail::kernel_invoke<_Fp, _Dp...>::entry);
    void *params[] = {const_cast<_Fp *>(&k.body()),
                      const_cast<void *>(static_cast<const void *>(&views))...};
    const uint32_t sizes[] = {uint32_t(sizeof(_Fp)), uint32_t(sizeof(_Dp))...};
    dim3 grid = k.grid();
    mstage_launch_config c = {{grid.x, grid.y, grid.z},
                              {block.x, block.y, block.z},
                              static_cast<uint32_t>(k.shared_bytes()),
                              k.is_fast_math() ? MSTAGE_LAUNCH_FAST_MATH : 0u};
    mstage_device_properties ignored;
    int blocks = 0;
    detail::check(mstage_rt_device_query(&ignored, entry, params, sizes,
                                         1 + sizeof...(_Dp), &c, &blocks));
    return unsigned(blocks);
  }

  [[noreturn]] void unknown(const char *what) const {
    throw error(std::string("mstage: the device's ") + what +
                " cannot be known in PTX-only mode (MSTAGE_BACKEND=ptx, " +
                p_.arch + "): it depends on the GPU");
  }

  mstage_device_properties p_{};
};

// The visible devices: the GPUs, or the one of the CPU back end and of
// PTX-only mode. Throws mstage::error when launches cannot go anywhere.
inline std::vector<device> devices() {
  unsigned n = 0;
  detail::check(mstage_rt_device_count(&n));
  std::vector<device> all;
  all.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    all.push_back(device::at(i));
  return all;
}

// Makes a device current on the calling thread for its scope, and restores
// the one that was current before.
class device_guard {
public:
  explicit device_guard(const device &d)
      : previous_(mstage_rt_device_current()) {
    d.make_current();
  }
  ~device_guard() { mstage_rt_device_set_current(previous_); }
  device_guard(const device_guard &) = delete;
  device_guard &operator=(const device_guard &) = delete;

private:
  unsigned previous_;
};

inline stream::stream(const mstage::device &d) {
  detail::check(mstage_rt_stream_create_on(d.index(), &s_));
}

inline device stream_ref::device() const {
  return device::at(mstage_rt_stream_device(s_));
}

inline device stream::device() const { return stream_ref(s_).device(); }

template <class _Tp> device device_vector<_Tp>::device() const {
  return device::at(device_);
}

} // namespace mstage

#endif
