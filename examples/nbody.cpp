// The paper's n-body simulation (Listings 5 and 6, in Listing5.h) as a
// program: one step, staged and unstaged, checked against the CPU.
#include "NbodyReference.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename Stage> bool run(size_t n, unsigned blockSize, Stage stage) {
  std::vector<data_t> pos, vel, npos(n, data_t{-7, -7, -7, -7});
  randomBodies(n, pos, vel);
  std::vector<data_t> vel0 = vel;

  auto k = kernel(nbodyKernel(stage), (n + blockSize - 1) / blockSize,
                  blockSize, blockSize * sizeof(data_t));
  k(pos, npos, vel);
  if (mstage_rt_executes() != 1)
    return true;

  size_t worstAt;
  double worst = worstNbodyError(pos, vel0, npos, vel, 1, worstAt);
  bool ok = worst < 1e-3;
  std::printf("nbody %s: n=%zu block %u, worst relative error %.3g at %zu\n",
              Stage::name, n, blockSize, worst, worstAt);
  return ok;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 4000;
  unsigned blockSize = argc > 2 ? std::atoi(argv[2]) : 256;
  bool ok = run(n, blockSize, Staged{}) && run(n, blockSize, Unstaged{});
  if (mstage_rt_executes() != 1) {
    std::printf("nbody: compiled to PTX only, result not checked\n");
    return 0;
  }
  std::printf("nbody: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
