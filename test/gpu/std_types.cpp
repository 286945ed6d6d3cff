//===- std_types.cpp - GPU suite: standard C++ vocabulary types in kernels -===//
//
// One function, element(), uses std::span, mstage::mdspan, std::array,
// std::tuple, std::optional, std::pair, structured bindings, constexpr
// functions and tables, and concept-constrained templates. The kernel calls
// it for each element on the GPU, and the host calls the same function on
// the host's copy of the input; the results must be equal. Built as C++20.
// test/ptx/std-types.cpp checks that all of it compiles to registers: no
// local memory and no calls.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <array>
#include <concepts>
#include <cstdio>
#include <optional>
#include <random>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace {

constexpr const char *Name = "std_types";
constexpr std::size_t Rows = 37, Cols = 29; // the mdspan's shape

template <class T>
concept Arithmetic = std::integral<T> || std::floating_point<T>;

constexpr int binomial(int N, int K) {
  int R = 1;
  for (int I = 1; I <= K; ++I)
    R = R * (N - K + I) / I;
  return R;
}

// Computed by the compiler: the 7th row of Pascal's triangle.
constexpr std::array<int, 8> Weights = [] {
  std::array<int, 8> W{};
  for (int I = 0; I < 8; ++I)
    W[I] = binomial(7, I);
  return W;
}();
static_assert(Weights[3] == 35);

template <Arithmetic T> constexpr std::pair<T, T> minmax3(T A, T B, T C) {
  T Lo = A < B ? A : B, Hi = A < B ? B : A;
  return {C < Lo ? C : Lo, C > Hi ? C : Hi};
}

std::optional<int> smallestDivisor(int V) {
  for (int D = 2; D <= 9; ++D)
    if (V % D == 0)
      return D;
  return std::nullopt;
}

std::tuple<int, float, bool> describe(int V) {
  return {V / 3, float(V) * 0.5f, V % 2 == 0};
}

// What element I of the output is, the same on the host and the device.
long long element(std::span<const int> In, mstage::mdspan<const int, 2> M,
                  std::size_t I) {
  std::array<int, 3> Window{};
  for (std::size_t K = 0; K < Window.size(); ++K)
    Window[K] = In[(I + K) % In.size()];
  auto [Lo, Hi] = minmax3(Window[0], Window[1], Window[2]);
  auto [FLo, FHi] = minmax3(0.25f * float(Window[0]), float(Window[1]),
                            float(Window[2]) - 3.0f);
  auto [Third, Half, Even] = describe(In[I]);
  int Divisor = smallestDivisor(In[I]).value_or(-1);
  int Bits = 0;
  for (int W = 0; W < 8; ++W)
    Bits += Weights[W] * ((In[I] >> W) & 1);
  std::size_t R = I % M.extent(0), C = (I / 3) % M.extent(1);
  return Lo + 2LL * Hi + Third + (long long)Half + (Even ? 100 : 0) +
         7LL * Divisor + Bits + M(R, C) + (long long)(FLo * 4.0f) +
         (long long)FHi;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }
  std::mt19937 Gen(4242);
  std::uniform_int_distribution<int> Dist(-100000, 100000);
  std::vector<int> In(Rows * Cols + 1000);
  for (int &V : In)
    V = Dist(Gen);
  std::vector<long long> Out(In.size(), 0);

  mstage::kernel(
      [](const auto &In, auto &Out) {
        std::size_t I = mstage::Thread::get().global.x;
        if (I >= Out.size())
          return;
        std::span<const int> S = In;
        mstage::mdspan<const int, 2> M(In.data(), Rows, Cols);
        Out[I] = element(S, M, I);
      },
      (In.size() + 127) / 128, 128)(In, Out);
  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }

  mstage::mdspan<const int, 2> M(In.data(), Rows, Cols);
  for (std::size_t I = 0; I < In.size(); ++I) {
    long long Want = element(In, M, I);
    if (Out[I] != Want) {
      std::printf("FAIL %s: out[%zu] = %lld, the host computed %lld\n", Name,
                  I, Out[I], Want);
      return 1;
    }
  }
  std::printf("PASS %s: %zu elements equal to the host's\n", Name, In.size());
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
