// The paper's n-body simulation (Listings 5 and 6, in Listing5.h) as a
// program: one step, staged and unstaged, checked against the CPU.
#include "NbodyReference.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

// One step on the CPU, in double precision, for the check.
void nbodyReference(const std::vector<data_t> &pos, std::vector<data_t> &npos,
                    std::vector<data_t> &vel) {
  std::vector<data_t> vel0 = vel;
  for (size_t i = 0; i < pos.size(); ++i)
    npos[i] = referenceBody(pos, vel0, i, vel[i]);
}

template <typename Stage>
bool run(size_t n, unsigned blockSize, Stage stage) {
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> coord(-1.0f, 1.0f), mass(0.5f, 1.5f);
  std::vector<data_t> pos(n), vel(n), npos(n, data_t{-7, -7, -7, -7});
  for (size_t i = 0; i < n; ++i) {
    pos[i] = {coord(gen), coord(gen), coord(gen), mass(gen)};
    vel[i] = {coord(gen) * 0.1f, coord(gen) * 0.1f, coord(gen) * 0.1f, 0};
  }
  std::vector<data_t> refPos(n), refVel = vel;
  nbodyReference(pos, refPos, refVel);

  auto k = kernel(nbodyKernel(stage), (n + blockSize - 1) / blockSize,
                  blockSize, blockSize * sizeof(data_t));
  k(pos, npos, vel);
  if (mstage_rt_executes() != 1)
    return true;

  double worst = 0;
  size_t worstAt = 0;
  for (size_t i = 0; i < n; ++i) {
    const float got[] = {npos[i].x, npos[i].y, npos[i].z, vel[i].x, vel[i].y,
                         vel[i].z};
    const float want[] = {refPos[i].x, refPos[i].y, refPos[i].z,
                          refVel[i].x, refVel[i].y, refVel[i].z};
    for (int c = 0; c < 6; ++c) {
      double err = std::fabs(double(got[c]) - want[c]) /
                   std::max(1e-3, std::fabs(double(want[c])));
      if (!(err <= worst)) // NaN counts as the worst
        worst = std::isnan(err) ? INFINITY : err, worstAt = i;
    }
  }
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
