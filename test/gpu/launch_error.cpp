// A kernel that faults: the launch throws mstage::error, and its message
// names the kernel and gives the CUDA error name and string.
//
// On the CPU back end a fault is the process's (SIGSEGV), so it checks the
// launch error the CPU has: a kernel whose threads wait at different
// synchronization points (lane 0 at a shuffle, the others at a barrier)
// deadlocks, the launch throws mstage::error naming the kernel, and the
// next launch runs normally.
#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

static int onCpu() {
  std::vector<int> v(32, 0);
  auto stuck = mstage::kernel(
      [](auto &v) {
        unsigned t = mstage::Thread::get().index.x;
        if (t == 0)
          v[0] = mstage::warp::shfl(7, 1);
        else
          mstage::Block::get().synchronize();
      },
      2, 32);
  std::string msg;
  try {
    stuck(v);
  } catch (const mstage::error &e) {
    msg = e.what();
  }
  bool names_kernel = msg.find("onCpu::kernel_L") != std::string::npos;
  bool says_why = msg.find("deadlocked") != std::string::npos;
  mstage::kernel([](auto &v) { v[mstage::Thread::get().index.x] = 5; }, 1,
                 32)(v);
  bool next_ok = v[31] == 5;
  bool ok = names_kernel && says_why && next_ok;
  std::printf("%s launch_error: CPU back end: %s%s\n", ok ? "PASS" : "FAIL",
              msg.empty() ? "the deadlocked launch did not throw" : msg.c_str(),
              next_ok ? "; the next launch ran" : "; the next launch failed");
  return ok ? 0 : 1;
}

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
  if (std::string(mstage_rt_backend()) == "cpu")
    return onCpu();
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
    bool names_kernel = msg.find("main::kernel_L") != std::string::npos;
    bool has_cuda = msg.find("CUDA_ERROR_") != std::string::npos;
    std::printf("%s launch_error: %s\n",
                names_kernel && has_cuda ? "PASS" : "FAIL", msg.c_str());
    return names_kernel && has_cuda ? 0 : 1;
  }
  std::printf("FAIL launch_error: the faulting launch did not throw\n");
  return 1;
}
