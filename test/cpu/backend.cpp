// MSTAGE_BACKEND chooses where launches go, in the same executable:
//  - cpu: runs on the CPU, silently; mstage_rt_backend() is "cpu";
//  - auto (the default) without a GPU: the CPU, announced once on stderr;
//  - auto with MSTAGE_ARCH and no GPU: PTX only, as before the CPU back end;
//  - ptx: PTX only (sm_90 unless MSTAGE_ARCH says otherwise);
//  - cuda without a GPU, or a bad value: each launch fails, naming why.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck --check-prefix=CPU %s
// RUN: %t 2>&1 | FileCheck --check-prefix=AUTO %s
// RUN: env MSTAGE_BACKEND=auto MSTAGE_ARCH=sm_80 %t 2>&1 | FileCheck --check-prefix=AUTOPTX %s
// RUN: env MSTAGE_BACKEND=ptx %t 2>&1 | FileCheck --check-prefix=PTX %s
// RUN: env MSTAGE_BACKEND=cuda %t 2>&1 | FileCheck --check-prefix=CUDA %s
// RUN: env MSTAGE_BACKEND=gpu %t 2>&1 | FileCheck --check-prefix=BAD %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> V(8, 1);
  auto K = mstage::kernel([](auto &V) { V[mstage::Thread::get().index.x] += 1; },
                          1, 8);
  try {
    K(V);
    K(V);
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
  }
  std::fprintf(stderr, "backend=%s executes=%d v7=%d\n", mstage_rt_backend(),
               mstage_rt_executes(), V[7]);
}

// CPU-NOT: mstage:
// CPU: backend=cpu executes=1 v7=3

// AUTO: mstage: no GPU ({{.*}}); running kernels on the CPU ({{[0-9]+}} threads); MSTAGE_BACKEND=cpu chooses it silently
// AUTO-NOT: mstage:
// AUTO: backend=cpu executes=1 v7=3

// AUTOPTX: mstage: no GPU ({{.*}}); compiling kernels for sm_80 to PTX only, nothing is executed
// AUTOPTX: backend=ptx executes=0 v7=1

// PTX: mstage: MSTAGE_BACKEND=ptx; compiling kernels for sm_90 to PTX only, nothing is executed
// PTX: backend=ptx executes=0 v7=1

// CUDA: error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}backend.cpp:{{[0-9]+}}:{{[0-9]+}}' cannot run: MSTAGE_BACKEND=cuda, but there is no usable GPU ({{.*}}); MSTAGE_BACKEND=cpu runs kernels on the CPU
// CUDA: backend=none executes=-1 v7=1

// BAD: error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' cannot run: MSTAGE_BACKEND='gpu' is not one of auto, cuda, cpu and ptx
// BAD: backend=none executes=-1 v7=1
