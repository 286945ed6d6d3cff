// std::complex<float> and std::complex<double> * and / in a kernel: clang
// calls __mulsc3, __muldc3, __divsc3 and __divdc3 (C Annex G), which the
// device module now defines, so that
//  - on the CPU back end the kernel's results equal std::complex on the
//    host, bit for bit, including Annex G's cases: (inf, nan) * (1, 1) is
//    an infinity, not NaN; (1, 1) / (0, 0) is an infinity; (1, 1) / (inf,
//    inf) is zero; a product that overflows is an infinity;
//  - in PTX-only mode the launch compiles (no "has no device definition"),
//    the PTX calls none of the four helpers, and ptxas accepts it.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 2>&1 | FileCheck %s --check-prefix=PTXONLY
// RUN: %mstage_ptx %t --kernel 'run<float>::kernel_L48' > %t.f.ptx
// RUN: %mstage_ptx %t --kernel 'run<double>::kernel_L48' > %t.d.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.f.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.d.ptx
// RUN: %ptxas -arch=sm_90 %t.f.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.d.ptx -o /dev/null
// REQUIRES: ptxas

#include <mstage.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

template <class T> static bool same(std::complex<T> X, std::complex<T> Y) {
  return std::memcmp(&X, &Y, sizeof(X)) == 0 ||
         (std::isnan(X.real()) && std::isnan(Y.real()) &&
          std::isnan(X.imag()) && std::isnan(Y.imag()));
}

template <class T> static int run(const char *Name) {
  using C = std::complex<T>;
  const T Inf = std::numeric_limits<T>::infinity();
  const T NaN = std::numeric_limits<T>::quiet_NaN();
  const T Big = std::numeric_limits<T>::max() / 2;
  std::vector<C> X = {{1.5, -2}, {3, 0.25}, {Inf, NaN}, {1, 1},
                      {1, 1},    {Big, Big}, {NaN, Inf}, {0, 0}};
  std::vector<C> Y = {{0.5, 4}, {-1, 2}, {1, 1},        {0, 0},
                      {Inf, Inf}, {Big, -Big}, {2, NaN}, {0, 0}};
  std::vector<C> Prod(X.size()), Quot(X.size());
  mstage::kernel(
      [](const auto &X, const auto &Y, auto &Prod, auto &Quot) {
        unsigned I = mstage::Thread::get().index.x;
        Prod[I] = X[I] * Y[I];
        Quot[I] = X[I] / Y[I];
      },
      1, unsigned(X.size()))(X, Y, Prod, Quot);
  if (mstage_rt_executes() != 1)
    return 0;
  int Differ = 0;
  for (std::size_t I = 0; I < X.size(); ++I)
    Differ += !same(Prod[I], X[I] * Y[I]) + !same(Quot[I], X[I] / Y[I]);
  std::printf("%s: %d of %zu differ from the host; (inf,nan)*(1,1) %s, "
              "(1,1)/(0,0) %s, (1,1)/(inf,inf) %s, overflow %s\n",
              Name, Differ, 2 * X.size(),
              std::isinf(std::abs(Prod[2])) ? "inf" : "not inf",
              std::isinf(std::abs(Quot[3])) ? "inf" : "not inf",
              std::abs(Quot[4]) == 0 ? "zero" : "not zero",
              std::isinf(std::abs(Prod[5])) ? "inf" : "not inf");
  return Differ;
}

int main() {
  // CHECK: float: 0 of 16 differ from the host; (inf,nan)*(1,1) inf, (1,1)/(0,0) inf, (1,1)/(inf,inf) zero, overflow inf
  // CHECK: double: 0 of 16 differ from the host; (inf,nan)*(1,1) inf, (1,1)/(0,0) inf, (1,1)/(inf,inf) zero, overflow inf
  int Differ = run<float>("float") + run<double>("double");
  // PTXONLY-NOT: no device definition
  // PTXONLY: done
  std::printf("done\n");
  return Differ != 0;
}

// PTX: .entry {{_ZN3runI(f|d)E10kernel_L48E}}
// PTX-NOT: __mulsc3
// PTX-NOT: __muldc3
// PTX-NOT: __divsc3
// PTX-NOT: __divdc3
