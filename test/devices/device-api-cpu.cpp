// The device API on the CPU back end, which has one device: devices() lists
// it, it is every thread's current device, make_current() and device_guard
// keep it so, streams, device_vectors and k.on(dev) belong to it and run
// there, and copy_from between two of its vectors copies, whole or a range
// (a range past either end is an error). The native handles are -1 and null
// off the GPU. A device number past the last is an error naming the devices
// there are.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <thread>
#include <vector>

int main() {
  std::vector<mstage::device> All = mstage::devices();
  std::printf("devices: %zu\n", All.size());
  // CHECK: devices: 1
  const mstage::device &D = All[0];
  std::printf("device %u: arch %s, current %d, total memory %zu, bus '%s'\n",
              D.index(), D.arch().c_str(), D == mstage::device::current(),
              D.total_memory(), D.pci_bus_id().c_str());
  // CHECK: device 0: arch cpu, current 1, total memory 0, bus ''
  std::printf("native: ordinal %d, context %p\n", D.native_handle(),
              static_cast<void *>(D.native_context()));
  // CHECK: native: ordinal -1, context (nil)
  std::printf("peer access to itself: %d\n", D.can_access_peer(D));
  // CHECK: peer access to itself: 1

  {
    mstage::device_guard G(D);
    std::printf("in a guard: current %u\n", mstage::device::current().index());
    // CHECK: in a guard: current 0
  }
  D.make_current();

  mstage::stream S(D);
  std::printf("stream on device %u, current stream on device %u\n",
              S.device().index(), mstage::current_stream().device().index());
  // CHECK: stream on device 0, current stream on device 0

  auto Add = mstage::kernel(
      [](auto &V, int X) { V[mstage::Thread::get().index.x] += X; }, 1, 8);
  mstage::device_vector<int> A(8, D);
  A.fill(1);
  Add.on(D)(A, 2);       // the device's current stream
  Add.on(S)(A, 10);      // after the first launch, on another stream
  mstage::device_vector<int> B(8, S);
  B.copy_from(A, S);
  S.synchronize();
  std::printf("a on device %u: %d, b on device %u: %d\n", A.device().index(),
              A.get(7), B.device_index(), B.get(0));
  // CHECK: a on device 0: 13, b on device 0: 13

  // A range of one vector into a range of another; a range past either end
  // is an error naming the sizes, and copies nothing.
  mstage::device_vector<int> Src(std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  mstage::device_vector<int> Dst(8, -1);
  Dst.copy_from(Src, 5, 3, 1);
  Dst.copy_from(Src, 0, 0, 8);
  for (int X : Dst.download())
    std::printf("%d ", X);
  std::printf("\n");
  // CHECK: -1 5 6 7 -1 -1 -1 -1
  try {
    Dst.copy_from(Src, 6, 3, 0);
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  // CHECK: mstage: device_vector::copy_from of 3 elements from offset 6 of a device_vector of 8 to offset 0 of one of 8

  // Threads start on the default device and choose their own.
  unsigned Seen = 99;
  std::thread T([&] {
    mstage::device_guard G(mstage::devices()[0]);
    mstage::device_vector<int> C(8, 5);
    Add(C, 1);
    Seen = unsigned(C.get(3)) * 10 + mstage::device::current().index();
  });
  T.join();
  std::printf("thread: %u\n", Seen);
  // CHECK: thread: 60

  for (unsigned Bad : {1u, 7u}) {
    try {
      mstage::device::at(Bad);
      std::printf("no error\n");
    } catch (const mstage::error &E) {
      std::printf("%s\n", E.what());
    }
  }
  // CHECK: mstage: there is no device 1: there is 1 device (0) on the cpu back end
  // CHECK: mstage: there is no device 7: there is 1 device (0) on the cpu back end
  mstage_stream *Raw = nullptr;
  if (mstage_rt_stream_create_on(1, &Raw) != 0)
    std::printf("%s\n", mstage_rt_last_error());
  // CHECK: mstage: cannot make a stream: there is no device 1: there is 1 device (0) on the cpu back end
  if (mstage_rt_device_set_current(2) != 0)
    std::printf("%s\n", mstage_rt_last_error());
  // CHECK: mstage: make_current: there is no device 2: there is 1 device (0) on the cpu back end
  std::printf("still current: %u\n", mstage::device::current().index());
  // CHECK: still current: 0
}
