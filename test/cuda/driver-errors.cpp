// The CUDA driver's failures, as a launch and the calls around it report
// them, on a fake driver (Inputs/FakeCudaDriver.cpp) whose calls fail on
// request: a launch error names the kernel; a sticky fault found at a launch
// says that no kernel was in flight, one found later names the kernel in
// flight; the PTX JIT's log follows its error; an error the driver cannot
// name is a CUresult number. The fake device is an sm_90, so a grid of one
// wave is launched programmatically (cuLaunchKernelEx, MSTAGE_PDL's default)
// and plainly (cuLaunchKernel) with MSTAGE_PDL=0.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuLaunchKernelEx=1 %t 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_PDL=0 FAKECUDA_FAIL=cuLaunchKernel=701 %t 2>&1 | FileCheck %s --check-prefix=REGISTERS
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuLaunchKernelEx=700 %t 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuMemcpyDtoHAsync=700 %t 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_LAUNCH_BLOCKING=1 FAKECUDA_FAIL=cuStreamSynchronize=700 %t 2>&1 | FileCheck %s --check-prefix=BLOCKING
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuModuleLoadDataEx=222 %t 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuModuleGetFunction=500 %t 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuMemAllocFromPoolAsync=2 %t 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory FAKECUDA_FAIL=cuStreamCreate=2 %t 2>&1 | FileCheck %s --check-prefix=STREAM

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<float> v(64, 1.5f);
  try {
    mstage::kernel([](auto &v) { v[0] = v[1] / v[2]; }, 1, 32)(v);
    std::printf("launched\n");
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
}

// OK: launched

// INVALID: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}driver-errors.cpp:{{[0-9]+}}:{{[0-9]+}}': cuLaunchKernelEx(grid 1x1x1, block 32x1x1, 0 bytes of shared memory): CUDA_ERROR_INVALID_VALUE (text of 1){{$}}

// REGISTERS: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': cuLaunchKernel(grid 1x1x1, block 32x1x1, 0 bytes of shared memory): CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (text of 701); a block of 32 threads needs more registers than a multiprocessor has{{$}}

// FAULT: mstage: launching kernel 'main::kernel_L{{[0-9]+}}@{{.*}}driver-errors.cpp:{{[0-9]+}}:{{[0-9]+}}': cuLaunchKernelEx(grid 1x1x1, block 32x1x1, 0 bytes of shared memory): CUDA_ERROR_ILLEGAL_ADDRESS (text of 700); no kernel of this stream was in flight: the fault is from earlier work, and the GPU context is unusable after it{{$}}

// COPY: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}driver-errors.cpp:{{[0-9]+}}:{{[0-9]+}}' failed (1 launch in flight, found when copying to the host): cuMemcpyDtoHAsync(256 bytes): CUDA_ERROR_ILLEGAL_ADDRESS (text of 700){{$}}

// BLOCKING: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}driver-errors.cpp:{{[0-9]+}}:{{[0-9]+}}' failed: cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (text of 700){{$}}

// PTX: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': cuModuleLoadDataEx (JIT-compiling PTX for sm_90): CUDA_ERROR_UNSUPPORTED_PTX_VERSION (text of 222); the PTX is .version {{[0-9]+\.[0-9]+}} and driver 13.0 is too old for it{{$}}
// PTX-NEXT: ptxas fatal   : fake error log

// UNNAMED: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': cuModuleGetFunction("{{.*}}"): CUresult 500 (text of 500){{$}}

// ALLOC: mstage: cuMemAllocFromPoolAsync(256 bytes): CUDA_ERROR_OUT_OF_MEMORY (text of 2){{$}}

// STREAM: mstage: cannot make a stream: cuStreamCreate: CUDA_ERROR_OUT_OF_MEMORY (text of 2); using the legacy default stream
// STREAM: launched
