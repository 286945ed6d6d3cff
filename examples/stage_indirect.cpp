// The paper's Listing 7: a staged value modified in the kernel, then staged
// again. The second stage() depends on the first only through the kernel's
// own arithmetic (n / 2), which the evaluator repeats on the host.
#include "StagePolicy.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace mstage;

template <typename Stage>
bool run(std::vector<int> data, int inputSize, Stage stage) {
  std::vector<int> expected = data;
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] = (inputSize / 2 < 1024) ? expected[i] + inputSize / 2
                                         : expected[i] * 2;

  auto k = kernel(
      [=](auto &data) {
        // Listing 7, as written:
        auto n = stage(inputSize);
        n = n / 2;
        auto b = stage([](auto x) { return x < 1024; }, n);

        auto i = Thread::get().global.x;
        if (i < data.size())
          data[i] = b ? data[i] + n : data[i] * 2;
      },
      (data.size() + 127) / 128, 128);
  k(data);
  if (mstage_rt_executes() != 1)
    return true;
  for (size_t i = 0; i < data.size(); ++i)
    if (data[i] != expected[i]) {
      std::printf("stage_indirect %s: inputSize %d: element %zu is %d, "
                  "expected %d\n",
                  Stage::name, inputSize, i, data[i], expected[i]);
      return false;
    }
  std::printf("stage_indirect %s: inputSize %d: %zu elements match\n",
              Stage::name, inputSize, data.size());
  return true;
}

int main() {
  std::vector<int> data(10007);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = int(i * 7 % 1000);
  bool ok = true;
  for (int inputSize : {100, 2047, 2048, 5000}) // b true, true, false, false
    ok &= run(data, inputSize, Staged{}) && run(data, inputSize, Unstaged{});
  if (mstage_rt_executes() != 1) {
    std::printf("stage_indirect: compiled to PTX only, result not checked\n");
    return 0;
  }
  std::printf("stage_indirect: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
