// A program with one kernel and a staged value, for the install tests.
#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> V(100, 1.0f);
  float Factor = 3.0f;
  auto K = mstage::kernel(
      [=](auto &V) {
        auto I = mstage::Thread::get().global.x;
        if (I < mstage::stage(V.size()))
          V[I] *= Factor;
      },
      1, 128);
  K(V);
  bool Ok = true;
  for (float X : V)
    Ok &= X == 3.0f;
  std::printf("scale: backend=%s %s\n", mstage_rt_backend(),
              Ok ? "PASS" : "FAIL");
  return Ok ? 0 : 1;
}
