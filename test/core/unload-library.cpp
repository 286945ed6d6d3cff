// Kernels of a shared library are unregistered when it is unloaded, with
// their compiled code: liba (kernel v[i] = 1111 * i) is loaded, launched and
// closed, then libb (2222 * i, same layout, so often at liba's address),
// then liba again. Each launch runs its own library's kernel: on the CPU
// back end each gives its own result and its errors name its own kernel; in
// PTX-only mode each is compiled afresh (never a hit on the memory-cache
// entry of the library unloaded before) into its own PTX.
//
// RUN: rm -rf %t && mkdir %t
// RUN: cp %S/Inputs/unload-lib.cpp %t/liba.cpp && cp %S/Inputs/unload-lib.cpp %t/libb.cpp
// RUN: %mstagexx -O2 -shared -fPIC -DFACTOR=1111 %t/liba.cpp -o %t/liba.so
// RUN: %mstagexx -O2 -shared -fPIC -DFACTOR=2222 %t/libb.cpp -o %t/libb.so
// RUN: %mstagexx -O2 %s -o %t/main -ldl
// RUN: env MSTAGE_BACKEND=cpu %t/main %t/liba.so %t/libb.so %t/liba.so | FileCheck %s --check-prefix=CPU
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_TRACE=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/dump %t/main %t/liba.so %t/libb.so %t/liba.so 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: grep -l 1111 %t/dump/*.ptx | count 1
// RUN: grep -l 2222 %t/dump/*.ptx | count 1
// UNSUPPORTED: gpu

#include <cstdio>
#include <dlfcn.h>

using Run = void (*)(int *, char *, size_t);

int main(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    void *Lib = dlopen(Argv[I], RTLD_NOW | RTLD_LOCAL);
    if (!Lib) {
      std::printf("dlopen: %s\n", dlerror());
      return 1;
    }
    auto Fn = reinterpret_cast<Run>(dlsym(Lib, "lib_run"));
    int Out[8] = {0};
    char Error[512];
    Fn(Out, Error, sizeof(Error));
    std::printf("%s: v[3]=%d\n%s\n", Argv[I], Out[3], Error);
    std::fflush(stdout);
    dlclose(Lib);
  }
}

// CPU: liba.so: v[3]=3333
// CPU-NEXT: mstage: kernel 'times::kernel_L{{[0-9]+}}@{{.*}}liba.cpp:14:7' has an empty launch configuration
// CPU-NEXT: libb.so: v[3]=6666
// CPU-NEXT: mstage: kernel 'times::kernel_L{{[0-9]+}}@{{.*}}libb.cpp:14:7' has an empty launch configuration
// CPU-NEXT: liba.so: v[3]=3333
// CPU-NEXT: mstage: kernel 'times::kernel_L{{[0-9]+}}@{{.*}}liba.cpp:14:7' has an empty launch configuration

// PTX: mstage: trace: kernel 'times::kernel_L{{[0-9]+}}@{{.*}}liba.cpp:14:7' {{.*}} cache miss
// PTX: mstage: trace: kernel 'times::kernel_L{{[0-9]+}}@{{.*}}libb.cpp:14:7' {{.*}} cache miss
// PTX: mstage: trace: kernel 'times::kernel_L{{[0-9]+}}@{{.*}}liba.cpp:14:7' {{.*}} cache miss
// PTX-NOT: cache memory
