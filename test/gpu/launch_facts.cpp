//===- launch_facts.cpp - GPU suite: launch facts, ldg, std::complex -------===//
//
// Each against a reference computed on the host:
//  - views that overlap: the kernel stores through one view and then loads
//    the same element through another; with the buffer passed as both, the
//    load must see the store (no ld.global.nc, no reordering), and with two
//    buffers it must not;
//  - two disjoint halves of one allocation (one group: the conservative
//    code) give the same results as two allocations;
//  - mstage::ldg of a float4, a 12-byte struct and a half;
//  - std::complex<float> and <double> * and / (the device's __mulsc3 &
//    co.), finite values within rounding of the host's, and C Annex G's
//    infinities and NaNs classified alike.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <vector>

namespace {

constexpr const char *Name = "launch_facts";
constexpr unsigned N = 4096, BS = 128;

using namespace mstage;

// Out[i] = 1 + i, then Seen[i] = In[i]: In[i] is Out[i] when they alias.
auto storeThenLoad() {
  return kernel(
      [](float *Out, const float *In, float *Seen) {
        unsigned I = Thread::get().global.x;
        Out[I] = 1.0f + float(I);
        Seen[I] = In[I] * 2.0f;
      },
      N / BS, BS);
}

int overlap() {
  device_vector<float> A(std::vector<float>(N, -1.0f));
  device_vector<float> B(std::vector<float>(N, -1.0f));
  device_vector<float> Seen(N);
  auto K = storeThenLoad();
  unsigned Wrong = 0;
  // Aliased: Seen is what was just stored.
  K(A.data(), A.data(), Seen.data());
  std::vector<float> S = Seen.download();
  for (unsigned I = 0; I < N; ++I)
    Wrong += S[I] != 2.0f * (1.0f + float(I));
  // Disjoint: Seen is B's old contents.
  K(A.data(), B.data(), Seen.data());
  S = Seen.download();
  for (unsigned I = 0; I < N; ++I)
    Wrong += S[I] != -2.0f;
  // Two halves of one buffer: disjoint, one allocation.
  device_vector<float> Both(std::vector<float>(2 * N, -1.0f));
  K(Both.data(), Both.data() + N, Seen.data());
  S = Seen.download();
  for (unsigned I = 0; I < N; ++I)
    Wrong += S[I] != -2.0f;
  if (Wrong)
    std::printf("FAIL %s: overlapping views: %u of %u wrong\n", Name, Wrong,
                3 * N);
  return Wrong != 0;
}

struct Three {
  float X, Y, Z;
};

int readOnlyLoads() {
  std::vector<float> Host(4 * N);
  for (unsigned I = 0; I < Host.size(); ++I)
    Host[I] = float(I % 101) * 0.25f;
  device_vector<float> Data(Host), Out(2 * N);
  device_vector<half> H(std::vector<half>(N, half(0.75f)));
  kernel(
      [](const float *Data, const half *H, float *Out) {
        unsigned I = Thread::get().global.x;
        float4 V = ldg(reinterpret_cast<const float4 *>(Data) + I);
        Three T = ldg(reinterpret_cast<const Three *>(Data) + I);
        Out[2 * I] = V.x + V.y + V.z + V.w;
        Out[2 * I + 1] = T.X * T.Y + T.Z + float(ldg(H + I));
      },
      N / BS, BS)(Data.data(), H.data(), Out.data());
  std::vector<float> Got = Out.download();
  unsigned Wrong = 0;
  for (unsigned I = 0; I < N; ++I) {
    const float *V = &Host[4 * I], *T = &Host[3 * I];
    Wrong += Got[2 * I] != V[0] + V[1] + V[2] + V[3];
    Wrong += Got[2 * I + 1] != T[0] * T[1] + T[2] + 0.75f;
  }
  if (Wrong)
    std::printf("FAIL %s: ldg: %u of %u wrong\n", Name, Wrong, 2 * N);
  return Wrong != 0;
}

// Equal within Tol relative, or both NaN in a part, or the same infinity.
template <class T> bool close(T A, T B, T Tol) {
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B);
  if (std::isinf(A) || std::isinf(B))
    return A == B;
  return std::fabs(A - B) <= Tol * std::fmax(std::fabs(B), T(1e-30));
}

template <class T> int complexArithmetic(const char *Type, T Tol) {
  using C = std::complex<T>;
  const T Inf = std::numeric_limits<T>::infinity();
  const T NaN = std::numeric_limits<T>::quiet_NaN();
  const T Big = std::numeric_limits<T>::max() / 4;
  std::vector<C> X = {{1.5, -2}, {3, 0.25}, {Inf, NaN}, {1, 1},  {1, 1},
                      {Big, Big}, {NaN, Inf}, {0, 0},   {-7, 3}, {1e-3, 5}};
  std::vector<C> Y = {{0.5, 4}, {-1, 2},     {1, 1},  {0, 0},   {Inf, Inf},
                      {Big, -Big}, {2, NaN}, {0, 0},  {2, -9}, {3e2, -1e-2}};
  std::vector<C> Prod(X.size()), Quot(X.size());
  kernel(
      [](const auto &X, const auto &Y, auto &Prod, auto &Quot) {
        unsigned I = Thread::get().index.x;
        Prod[I] = X[I] * Y[I];
        Quot[I] = X[I] / Y[I];
      },
      1, unsigned(X.size()))
      // Compared here within rounding; MSTAGE_CHECK=cpu compares bytes, and
      // a zero's sign or a NaN's bits from Annex G's cases may differ
      // between the device's helpers and the host's compiler-rt.
      .check_on_cpu(false)(X, Y, Prod, Quot);
  unsigned Wrong = 0;
  for (std::size_t I = 0; I < X.size(); ++I) {
    C P = X[I] * Y[I], Q = X[I] / Y[I];
    bool Ok = close(Prod[I].real(), P.real(), Tol) &&
              close(Prod[I].imag(), P.imag(), Tol) &&
              close(Quot[I].real(), Q.real(), Tol) &&
              close(Quot[I].imag(), Q.imag(), Tol);
    if (!Ok)
      std::printf("  complex<%s> #%zu: device (%g,%g) (%g,%g), host (%g,%g) "
                  "(%g,%g)\n",
                  Type, I, double(Prod[I].real()), double(Prod[I].imag()),
                  double(Quot[I].real()), double(Quot[I].imag()),
                  double(P.real()), double(P.imag()), double(Q.real()),
                  double(Q.imag()));
    Wrong += !Ok;
  }
  if (Wrong)
    std::printf("FAIL %s: complex<%s>: %u of %zu differ from the host\n", Name,
                Type, Wrong, X.size());
  return Wrong != 0;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  int Failed = overlap() + readOnlyLoads() +
               complexArithmetic<float>("float", 1e-5f) +
               complexArithmetic<double>("double", 1e-12);
  if (!Failed)
    std::printf("PASS %s\n", Name);
  return Failed ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
