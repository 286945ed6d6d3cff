//===- debug_step.cpp - A kernel to stop at and step through in cuda-gdb --===//
//
// Run by tools/gpu/check-tools.sh (section 5, cuda-gdb), not by the GPU
// suite; built with -g -O0, so the JIT compiles it without optimization and
// with full DWARF. Prints the kernel's readable name (`NAME
// main::debug_step`, from its label) and the lines of the four consecutive
// statements of its body (`BODY <file> <first> <last>`): cuda-gdb stops at
// the first and steps with `next` through each, then prints the locals I
// and V (V is 2 * I + 1 at the last line). Then it runs the kernel on one
// warp and prints PASS debug_step when the result matches the host's.
//
//===----------------------------------------------------------------------===//
#include <mstage.hpp>

#include <cstdio>
#include <exception>
#include <vector>

int main() {
  try {
    std::vector<float> Y(32);
    int First = __LINE__ + 4;
    auto Step = mstage::kernel(
        "debug_step",
        [](auto &Y) {
          unsigned I = mstage::Thread::get().global.x;
          float V = float(I) * 2.0f;
          V = V + 1.0f;
          Y[I] = V;
        },
        1, 32);
    std::printf("NAME main::debug_step\n");
    std::printf("BODY %s %d %d\n", __FILE__, First, First + 3);
    Step(Y);
    mstage::synchronize();
    if (mstage_rt_executes() != 1) {
      std::printf("SKIP debug_step: nothing executes (no GPU)\n");
      return 0;
    }
    for (unsigned I = 0; I < Y.size(); ++I)
      if (Y[I] != float(I) * 2.0f + 1.0f) {
        std::printf("FAIL debug_step: y[%u] is %g, the host says %g\n", I,
                    double(Y[I]), double(I) * 2.0 + 1.0);
        return 1;
      }
  } catch (const std::exception &E) {
    std::printf("FAIL debug_step: %s\n", E.what());
    return 1;
  }
  std::printf("PASS debug_step\n");
  return 0;
}
