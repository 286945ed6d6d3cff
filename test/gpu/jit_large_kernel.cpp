//===- jit_large_kernel.cpp - GPU suite: a large kernel's first compile ---===//
//
// In a fresh cache directory, with the launches waiting for the JIT
// (MSTAGE_JIT=sync): a kernel whose PTX is over 64 KiB (a straight-line
// chain of 2,000 loads and multiply-adds) is assembled once by ptxas and its
// cubin loaded at its first compile (launch/AssembleCode.h), while a small
// kernel's first compile loads its PTX through the driver's JIT; both give
// the host's result, and so do 4 prepared specializations of the large
// kernel compiled side by side in the pool (prepare() under sync) and then
// launched. Without ptxas both load PTX. On the CPU back end, the results
// only.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

constexpr const char *Name = "jit_large_kernel";
constexpr unsigned Threads = 256, Block = 128;

// S = S * Mul + In[I + X] over Terms, in unsigned (wrapping) arithmetic,
// written out: no loop for the compilers to keep rolled.
template <class View, size_t... I>
unsigned chain(const View &In, unsigned X, unsigned Mul,
               std::index_sequence<I...>) {
  unsigned S = 0;
  ((S = S * Mul + In[I + X]), ...);
  return S;
}

template <size_t Terms> struct Chain {
  std::vector<unsigned> In;
  explicit Chain() : In(Terms + Threads) {
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = unsigned(I * 2654435761u);
  }
  unsigned expected(unsigned X, unsigned Mul) const {
    unsigned S = 0;
    for (size_t I = 0; I < Terms; ++I)
      S = S * Mul + In[I + X];
    return S;
  }
  auto kernelFor() const {
    return mstage::kernel(
        [](auto &Out, const auto &In, unsigned MulArg) {
          unsigned Mul = mstage::stage(MulArg);
          unsigned X = mstage::Thread::get().global.x;
          Out[X] = chain(In, X, Mul, std::make_index_sequence<Terms>());
        },
        Threads / Block, Block);
  }
  // Launches with Mul; false after printing
  // FAIL when a result is wrong or the code is not from the expected place.
  bool launch(unsigned Mul, int WantCubin) const {
    mstage::device_vector<unsigned> DIn(In), DOut(Threads);
    kernelFor()(DOut, std::as_const(DIn), Mul);
    int Cubin = mstage_rt_last_launch_from_cubin();
    std::vector<unsigned> Out = DOut.download();
    for (unsigned X = 0; X < Threads; ++X)
      if (Out[X] != expected(X, Mul)) {
        std::printf("FAIL %s: %zu terms, mul %u: out[%u] = %u, expected %u\n",
                    Name, Terms, Mul, X, Out[X], expected(X, Mul));
        return false;
      }
    if (WantCubin >= 0 && Cubin != WantCubin) {
      std::printf("FAIL %s: %zu terms: the first compile loaded %s, expected "
                  "%s\n",
                  Name, Terms, Cubin ? "a cubin" : "PTX",
                  WantCubin ? "a cubin" : "PTX");
      return false;
    }
    return true;
  }
  void prepare(unsigned Mul) const {
    mstage::device_vector<unsigned> DIn(In), DOut(Threads);
    kernelFor().prepare(DOut, std::as_const(DIn), Mul);
  }
};

int run() {
  std::string Dir = useFreshDiskCache(Name, "mstage-large-kernel");
  if (Dir.empty())
    return 1;
  if (skipWithoutGpu(Name))
    return 0;
  bool Gpu = !onCpu();
  // The runtime finds ptxas as this shell does (PATH, then the toolkit),
  // unless MSTAGE_PTXAS names one (or is off).
  const char *Set = std::getenv("MSTAGE_PTXAS");
  bool HavePtxas =
      Gpu && (Set && *Set
                  ? std::string(Set) != "off" && access(Set, X_OK) == 0
                  : std::system("command -v ptxas >/dev/null || test -x "
                                "\"${CUDA_HOME:-/usr/local/cuda}/bin/ptxas\"") ==
                        0);
  Chain<8> Small;
  Chain<2000> Large;
  int SmallWant = Gpu ? 0 : -1, LargeWant = Gpu ? int(HavePtxas) : -1;
  if (!Small.launch(3, SmallWant) || !Large.launch(3, LargeWant))
    return 1;
  for (unsigned Mul : {5u, 7u, 9u, 11u})
    Large.prepare(Mul);
  mstage::jit_wait();
  for (unsigned Mul : {5u, 7u, 9u, 11u})
    if (!Large.launch(Mul, -1))
      return 1;
  std::system((std::string("rm -rf ") + Dir).c_str());
  std::printf("PASS %s: a 2,000-term kernel's first compile %s, a small "
              "one's %s; 4 prepared specializations right\n",
              Name, !Gpu ? "(CPU)" : HavePtxas ? "loads ptxas's cubin" : "loads PTX",
              !Gpu ? "(CPU)" : "loads PTX");
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
