// co_await on launches: the thesis's Listings 3.43 and 3.45 (Listing345.h).
// The coroutine runs on this thread until it awaits GPU work that is not
// done; sync_wait() then blocks, and the runtime's await thread resumes the
// coroutine when the work is done (on the CPU back end nothing suspends).
//
//   coroutines [n]   n elements (default 2^20)
#include "Listing345.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace mstage;

// Listing 3.43: other host work while the GPU runs, then co_await.
task<long> compute_gpu_and_host(unsigned n) {
  device_vector<int> v(n, 1);
  auto twice = kernel(
      [](auto &v) {
        unsigned i = Thread::get().global.x;
        if (i < v.size())
          v[i] *= 2;
      },
      (n + 255) / 256, 256);
  auto work = async(launch::kernel, twice, v);
  long host = 0; // perform some other tasks as GPU task runs
  for (unsigned i = 0; i < n; ++i)
    host += i % 3;
  co_await work; // proceed only after GPU work returns
  co_return host + v.get(n - 1);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? unsigned(std::atoi(argv[1])) : 1u << 20;
  if (mstage_rt_executes() != 1) {
    std::printf("coroutines: kernels do not run here (%s)\n",
                mstage_rt_backend());
    return 0;
  }
  std::vector<int> w = sync_wait(listing345::func(n));
  unsigned wrong = 0;
  for (unsigned i = 0; i < n; ++i)
    wrong += w[i] != listing345::reference(i);
  std::printf("Listing 3.45: %u of %u elements differ from the host's\n", wrong,
              n);
  long host = 0;
  for (unsigned i = 0; i < n; ++i)
    host += i % 3;
  long got = sync_wait(compute_gpu_and_host(n));
  std::printf("Listing 3.43: %s\n",
              got == host + 2 ? "host and GPU work both done" : "WRONG");
  bool ok = wrong == 0 && got == host + 2;
  std::printf("coroutines: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
