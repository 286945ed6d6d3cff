// What device_globals_extern.cpp and device_globals_extern_defs.cpp share:
// the extern declarations of the device globals that the second defines,
// and the second's kernels and host calls.
#ifndef MSTAGE_TEST_GPU_DEVICE_GLOBALS_EXTERN_H
#define MSTAGE_TEST_GPU_DEVICE_GLOBALS_EXTERN_H

#include <mstage.hpp>

#include <vector>

namespace shared {
extern mstage::device_global<unsigned> hits;
extern mstage::constant<float[32]> weights;
extern mstage::device_global<int> seeded; // {-5}
} // namespace shared

// Adds 3 to hits per thread below n (n staged: one module per n).
void countThere(unsigned n);
// x[i] *= weights[i % 32], in the defining file's kernel.
void weighThere(std::vector<float> &x);
unsigned hitsThere(const mstage::device &d);
void uploadHitsThere(unsigned v, const mstage::device &d);

#endif
