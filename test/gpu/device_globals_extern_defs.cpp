//===- device_globals_extern_defs.cpp - GPU suite: the defining file ------===//
//
// Defines the device globals that device_globals_extern.cpp declares extern;
// its own kernels and host calls use the same objects.
//
//===----------------------------------------------------------------------===//
#include "device_globals_extern.h"

namespace shared {
mstage::device_global<unsigned> hits;
mstage::constant<float[32]> weights;
mstage::device_global<int> seeded{-5};
} // namespace shared

void countThere(unsigned n) {
  mstage::kernel(
      [](unsigned n) {
        if (mstage::Thread::get().global.x < mstage::stage(n))
          mstage::atomic_add(&shared::hits.get(), 3u);
      },
      8, 128)(n);
}

void weighThere(std::vector<float> &x) {
  mstage::kernel(
      [](mstage::vector_view<float> x) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < x.size())
          x[i] *= shared::weights.get()[i % 32];
      },
      (x.size() + 127) / 128, 128)(x);
}

unsigned hitsThere(const mstage::device &d) { return shared::hits.download(d); }

void uploadHitsThere(unsigned v, const mstage::device &d) {
  shared::hits.upload(v, d);
}
