// Kernels that call functions defined in xtu_lib.cpp, compared with the
// host's calls of the same functions. argv[1] is the staged factor.
#include "xtu.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

template <class T> static int check(const char *What, std::vector<T> Got,
                                    const std::vector<T> &Want) {
  int Differ = 0;
  for (std::size_t I = 0; I < Got.size(); ++I)
    Differ += Got[I] != Want[I];
  std::printf("%s: %d of %zu differ from the host\n", What, Differ,
              Got.size());
  return Differ;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 7;
  const unsigned Size = 64;
  std::vector<float> F(Size);
  std::vector<double> D(Size);
  std::vector<int> R(Size);
  for (unsigned I = 0; I < Size; ++I) {
    F[I] = 0.5f * I - 3;
    D[I] = 0.25 * I - 2;
  }
  std::vector<float> F0 = F;
  std::vector<double> D0 = D;

  // The factor is staged: folded through scale() once it is inlined.
  mstage::kernel(
      [=](mstage::vector_view<float> V, mstage::vector_view<int> Wrapped) {
        unsigned I = mstage::Thread::get().global.x;
        V[I] = scale(V[I], mstage::stage(N));
        Wrapped[I] = Ring{5}.wrap(int(I));
      },
      1, Size)(F, R);

  // A generic lambda: one kernel per element type, each calling its
  // overload.
  auto Twice = mstage::kernel(
      [](auto V) {
        unsigned I = mstage::Thread::get().global.x;
        V[I] = scale(V[I], 2);
      },
      1, Size);
  std::vector<float> G = F0;
  Twice(G);
  Twice(D);

  if (mstage_rt_executes() != 1) {
    std::printf("compiled\n");
    return 0;
  }
  std::vector<float> WantF(Size), WantG(Size);
  std::vector<double> WantD(Size);
  std::vector<int> WantR(Size);
  for (unsigned I = 0; I < Size; ++I) {
    WantF[I] = scale(F0[I], N);
    WantG[I] = scale(F0[I], 2);
    WantD[I] = scale(D0[I], 2);
    WantR[I] = Ring{5}.wrap(int(I));
  }
  int Differ = check("staged float", F, WantF) + check("ring", R, WantR) +
               check("generic float", G, WantG) +
               check("generic double", D, WantD);
  return Differ != 0;
}
