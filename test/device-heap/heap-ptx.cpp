// operator new and delete in kernel code become the device runtime's malloc
// and free (the pointers escape to memory, so the optimizer keeps them);
// operator new stops the launch on a null result through __assertfail (and a
// trap), the nothrow form and malloc do not check; no call to the host's
// _Znwm, _Znam or _ZdaPv is left; ptxas accepts the PTX.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L34 --grid 1 --block 32 > %t.new.ptx
// RUN: FileCheck %s --check-prefix=NEW --implicit-check-not=_Znwm --implicit-check-not=_ZdaPv < %t.new.ptx
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --grid 1 --block 32 > %t.nothrow.ptx
// RUN: FileCheck %s --check-prefix=NOTHROW --implicit-check-not=__assertfail --implicit-check-not=_Znam < %t.nothrow.ptx
// RUN: %ptxas -arch=sm_90 %t.new.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.nothrow.ptx -o /dev/null
// REQUIRES: ptxas

#include <mstage.hpp>

#include <cstdlib>
#include <new>
#include <vector>

// NEW-DAG: .extern .func (.param .b64 func_retval0) malloc
// NEW-DAG: .extern .func __assertfail
// NEW: call{{.*}}malloc
// NEW: __assertfail
// NEW: trap
// NOTHROW-DAG: .extern .func (.param .b64 func_retval0) malloc
// NOTHROW-DAG: .extern .func free
// NOTHROW: call{{.*}}free
// NOTHROW: call{{.*}}malloc
int main() {
  std::vector<unsigned long long> ptrs(32);
  mstage::kernel(
      [](mstage::vector_view<unsigned long long> ptrs) {
        unsigned i = mstage::Thread::get().global.x;
        int *p = new int[i + 1];
        p[i] = int(i);
        ptrs[i] = reinterpret_cast<unsigned long long>(p);
      },
      1, 32)(ptrs);
  mstage::kernel(
      [](mstage::vector_view<unsigned long long> ptrs) {
        unsigned i = mstage::Thread::get().global.x;
        delete[] reinterpret_cast<int *>(ptrs[i]);
        int *p = new (std::nothrow) int[i + 1];
        void *q = std::malloc(8);
        ptrs[i] = reinterpret_cast<unsigned long long>(p) ^
                  reinterpret_cast<unsigned long long>(q);
      },
      1, 32)(ptrs);
}
