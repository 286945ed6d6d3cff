// The CUDA 7 blog's xyzw_frequency: count the letters x, y, z and w in a
// text, with a grid-stride range-for, a lambda predicate and an atomic
// counter, all in standard C++. The count is checked against the CPU.
//
//   xyzw_frequency [MB]        (default 64 MB of generated text)
#include <mstage.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace mstage;

// Counts the elements of data for which p holds, into *count.
template <class T, class Predicate>
void count_if(int &count, const T &data, Predicate p) {
  for (auto i : grid_stride_range(size_t(0), data.size()))
    if (p(data[i]))
      std::atomic_ref<int>(count).fetch_add(1, std::memory_order_relaxed);
}

int main(int argc, char **argv) {
  size_t bytes = size_t(argc > 1 ? std::atoi(argv[1]) : 64) << 20;
  std::vector<char> text(bytes);
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> letter('a', 'z');
  for (char &c : text)
    c = char(letter(gen));
  const char letters[] = {'x', 'y', 'z', 'w'};
  auto isXyzw = [](char c) {
    return c == 'x' || c == 'y' || c == 'z' || c == 'w';
  };
  long long expected = std::count_if(text.begin(), text.end(), isXyzw);

  device_vector<char> dtext(text);
  device_vector<int> dcount(std::vector<int>{0});
  kernel(
      [letters](const auto &text, auto &count) {
        count_if(count[0], text, [&](char c) {
          for (const auto x : letters)
            if (c == x)
              return true;
          return false;
        });
      },
      8 * 132, 256)(dtext, dcount);
  if (mstage_rt_executes() != 1) {
    std::printf("xyzw_frequency: compiled to PTX only, result not checked\n");
    return 0;
  }
  int got = dcount.download()[0];
  bool ok = got == expected;
  std::printf("xyzw_frequency: %zu chars: counted %d, expected %lld: %s\n",
              bytes, got, expected, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
