// Kernels of this file read and write device globals that extern_defs.cpp
// defines (extern declarations in extern_globals.h), as CUDA's -rdc
// `extern __device__` does; the host uploads and downloads from both files.
#include "extern_globals.h"

#include <cstdio>

int run() {
  std::vector<float> x(64, 0.f);
  float table[8] = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
  // The initializer, from the defining file's object, is the first value.
  unsigned first = static_cast<unsigned>(app::counter.download());
  // The constant as the defining file initialized it, then uploaded from
  // here: each scaled by 10.
  for (float &t : table)
    t *= 10;
  app::coeff.upload(table);
  mstage::kernel(
      [](mstage::vector_view<float> x) {
        unsigned i = mstage::Thread::get().global.x;
        x[i] += 2 * app::coeff.get()[i % 8];
        using Count = std::remove_reference_t<decltype(app::counter.get())>;
        mstage::atomic_add(&app::counter.get(), Count(2));
      },
      1, 64)(x);
  addCoeffHere(x);
  // The host's reference: 3 * table[i % 8] for each element, and the
  // counter's 3 plus 2 and 1 per thread of the two kernels.
  unsigned differ = 0;
  for (unsigned i = 0; i < 64; ++i)
    differ += x[i] != 3 * table[i % 8];
  std::printf("first %u\n", first);
  std::printf("x: %u of 64 differ from the host\n", differ);
  std::printf("counter here %u, there %u, host %u\n",
              static_cast<unsigned>(app::counter.download()), counterSeenHere(),
              3u + 64 * 2 + 64 * 1);
  return 0;
}

int main() {
  try {
    return run();
  } catch (const mstage::error &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
