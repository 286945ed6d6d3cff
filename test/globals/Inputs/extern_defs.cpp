// The definitions of the device globals that extern_main.cpp declares
// extern, and a kernel of this file that uses them too.
#include "extern_globals.h"

namespace app {
mstage::device_global<unsigned> counter{3};
mstage::constant<float[8]> coeff{1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
} // namespace app

void addCoeffHere(std::vector<float> &x) {
  mstage::kernel(
      [](mstage::vector_view<float> x) {
        unsigned i = mstage::Thread::get().global.x;
        x[i] += app::coeff.get()[i % 8];
        mstage::atomic_add(&app::counter.get(), 1u);
      },
      1, 64)(x);
}

unsigned counterSeenHere() { return app::counter.download(); }
