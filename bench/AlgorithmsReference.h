// What issue 18's algorithm benchmarks share between the mstage side
// (bench/mstage_algorithms.cpp) and the nvcc side
// (bench/cuda/algorithms_baseline.cu): the inputs and the host references,
// so that both time the same data and check it the same way.
#ifndef MSTAGE_BENCH_ALGORITHMSREFERENCE_H
#define MSTAGE_BENCH_ALGORITHMSREFERENCE_H

#include <cstddef>
#include <vector>

namespace algorithms {

// N small integers of T (-3 to 4), whose exact sum goes to Expected.
template <class T> std::vector<T> sumInput(std::size_t N, double &Expected) {
  std::vector<T> V(N);
  Expected = 0;
  for (std::size_t I = 0; I < N; ++I) {
    V[I] = T(int(I % 7) - 3 + int(I % 3));
    Expected += double(V[I]);
  }
  return V;
}

// The input of transform, y = 2x + 1.
inline std::vector<float> transformInput(std::size_t N) {
  std::vector<float> V(N);
  for (std::size_t I = 0; I < N; ++I)
    V[I] = float(I % 1000) * 0.5f;
  return V;
}

// The input of the 3-D stencil, N cells.
inline std::vector<float> stencilInput(std::size_t N) {
  std::vector<float> V(N);
  for (std::size_t I = 0; I < N; ++I)
    V[I] = float(I % 17);
  return V;
}

// The interior cell each side checks, and the stencil's value there.
inline std::size_t stencilProbe(int Nz, int Ny, int Nx) {
  return (std::size_t(Nz / 2) * Ny + Ny / 3) * Nx + Nx / 4;
}
inline float stencilAt(const std::vector<float> &In, std::size_t C, int Ny,
                       int Nx) {
  std::size_t Sy = std::size_t(Nx), Sz = std::size_t(Nx) * Ny;
  return 0.4f * In[C] + 0.1f * (In[C - 1] + In[C + 1] + In[C - Sy] +
                                In[C + Sy] + In[C - Sz] + In[C + Sz]);
}

} // namespace algorithms

#endif
