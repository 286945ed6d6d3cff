// A pointer into pageable host memory in a kernel argument or a capture is
// an error at launch that names the kernel and the argument, on the CPU back
// end as on a GPU (where the kernel would fault), before anything runs; a
// pointer into the runtime's memory (a device_vector's, one element in) is
// fine, and so is a null pointer; a stray value that is no memory at all
// (0x10) is left to fault on the device, where the fault names the kernel.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t arg 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: env MSTAGE_BACKEND=cpu %t capture 2>&1 | FileCheck %s --check-prefix=CAPTURE
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory %t arg 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: env MSTAGE_BACKEND=cpu %t device | FileCheck %s --check-prefix=DEVICE
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory %t stray 2>&1 | FileCheck %s --check-prefix=STRAY
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace mstage;

int main(int argc, char **argv) {
  std::vector<float> host(64, 1.0f);
  device_vector<float> dev(std::vector<float>(64, 1.0f));
  float *In = std::strcmp(argv[1], "arg") == 0     ? host.data()
              : std::strcmp(argv[1], "stray") == 0 ? reinterpret_cast<float *>(0x10)
                                                   : dev.data() + 1;
  try {
    if (std::strcmp(argv[1], "capture") == 0) {
      const float *p = host.data();
      kernel([p](float *out) { out[Thread::get().global.x] = p[0]; }, 1,
             32)(dev.data());
    } else {
      kernel([](const float *in, float *out, const float *unused) {
        out[Thread::get().global.x] = in[0] + (unused ? unused[0] : 0.0f);
      }, 1, 32)(In, dev.data(), static_cast<const float *>(nullptr));
      synchronize();
      std::printf("%s: %g\n", argv[1], dev.download()[5]);
    }
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
}

// ARG: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}host-pointer-argument.cpp:{{[0-9]+}}:{{[0-9]+}}': argument 1 holds 0x{{[0-9a-f]+}}, a pointer into host memory that a GPU could not read; pass a std::vector, a device_vector, a managed_vector or a pinned_vector instead
// CAPTURE: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}host-pointer-argument.cpp:{{[0-9]+}}:{{[0-9]+}}': a capture of the kernel's lambda (byte 0 of it) holds 0x{{[0-9a-f]+}}, a pointer into host memory that a GPU could not read
// DEVICE: device: 1
// STRAY-NOT: host memory
// STRAY: stray:
