// A kernel that faults: the launch throws mstage::error, and its message
// names the kernel and gives the CUDA error name and string.
#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
  int executes = mstage_rt_executes();
  if (executes == 0) {
    std::printf("SKIP launch_error: PTX-only mode, result not checked\n");
    return 0;
  }
  if (executes < 0) {
    std::printf("FAIL launch_error: %s\n", mstage_rt_last_error());
    return 1;
  }
  int *bad = reinterpret_cast<int *>(uintptr_t(0x10)); // not device memory
  std::vector<int> v(1);
  auto k = mstage::kernel(
      [bad](auto &v) {
        bad[mstage::Thread::get().global.x] = 1;
        v[0] = 1;
      },
      1, 32);
  try {
    k(v);
  } catch (const mstage::error &e) {
    std::string msg = e.what();
    bool names_kernel = msg.find("main::lambda@") != std::string::npos;
    bool has_cuda = msg.find("CUDA_ERROR_") != std::string::npos;
    std::printf("%s launch_error: %s\n",
                names_kernel && has_cuda ? "PASS" : "FAIL", msg.c_str());
    return names_kernel && has_cuda ? 0 : 1;
  }
  std::printf("FAIL launch_error: the faulting launch did not throw\n");
  return 1;
}
