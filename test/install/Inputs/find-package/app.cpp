// mstage_add_executable's first translation unit: a kernel with a staged
// value, and calls into the other unit and into the plain C++ library.
#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

std::string hostCompiler();
void shift(std::vector<float> &V);

#ifndef __MSTAGE__
#error "mstage_add_executable's sources are compiled by mstage++"
#endif

int main() {
  std::vector<float> V(100, 1.0f);
  auto K = mstage::kernel(
      [](auto &V) {
        auto I = mstage::Thread::get().global.x;
        if (I < mstage::stage(V.size()))
          V[I] *= SCALE;
      },
      1, 128);
  K(V);
  shift(V);
  bool Ok = true;
  for (float X : V)
    Ok &= X == 1.0f * SCALE + 2.0f;
  std::printf("app: host library by %s, kernels on %s: %s\n",
              hostCompiler().c_str(), mstage_rt_backend(),
              Ok ? "PASS" : "FAIL");
  return Ok ? 0 : 1;
}
