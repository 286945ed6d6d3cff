// The kernel of the paper's Listing 4 (reduction with multi-stage
// programming), shared by examples/reduce_staged.cpp and the benchmarks.
//
// As in the paper, apart from the namespace and these completions:
//  - the elided levels of the unrolled tree ("// ...") are written out, in
//    the style of NVIDIA's reduce6 that Listing 3 follows: each level keeps
//    the running sum in a register, so thread 0's `sum` is the block's total;
//  - the listing's `t` is the thread index `tid`;
//  - stage is reached through a policy object (StagePolicy.h), so the same
//    source also gives the unstaged kernel for comparison.
#ifndef MSTAGE_EXAMPLES_LISTING4_H
#define MSTAGE_EXAMPLES_LISTING4_H

#include "StagePolicy.h"

// The kernel lambda; launch it with lclSize threads per block and
// lclSize * sizeof(int) bytes of shared memory. Each block writes its
// partial sum to output[block].
template <class Stage> auto listing4Kernel(int lclSize, Stage stage) {
  using namespace mstage;
  return [=](const auto &input, auto &output) {
    shared_memory<int> sm;

    auto localSize = stage(lclSize);
    auto n = stage(input.size());
    auto nIsPow2 = stage([](auto x) { return ((x & (x - 1)) == 0); }, n);

    auto block = Block::get();
    auto tid = Thread::get().index.x;
    auto i = block.index.x * localSize * 2 + tid;
    int sum = 0;
    while (i < n) {
      sum += input[i];
      if (nIsPow2 || i + localSize < n) {
        sum += input[i + localSize];
      }
      i += localSize * 2 * Grid::get().range.x;
    }
    sm[tid] = sum;
    block.synchronize();
    if (localSize >= 1024) {
      if (tid < 512) { sm[tid] = sum = sum + sm[tid + 512]; }
      block.synchronize(); }
    if (localSize >= 512) {
      if (tid < 256) { sm[tid] = sum = sum + sm[tid + 256]; }
      block.synchronize(); }
    if (localSize >= 256) {
      if (tid < 128) { sm[tid] = sum = sum + sm[tid + 128]; }
      block.synchronize(); }
    if (localSize >= 128) {
      if (tid < 64) { sm[tid] = sum = sum + sm[tid + 64]; }
      block.synchronize(); }
    if (localSize >= 64) {
      if (tid < 32) { sm[tid] = sum = sum + sm[tid + 32]; }
      block.synchronize(); }
    if (localSize >= 32) {
      if (tid < 16) { sm[tid] = sum = sum + sm[tid + 16]; }
      block.synchronize(); }
    if (localSize >= 16) {
      if (tid < 8) { sm[tid] = sum = sum + sm[tid + 8]; }
      block.synchronize(); }
    if (localSize >= 8) {
      if (tid < 4) { sm[tid] = sum = sum + sm[tid + 4]; }
      block.synchronize(); }
    if (localSize >= 4) {
      if (tid < 2) { sm[tid] = sum = sum + sm[tid + 2]; }
      block.synchronize(); }
    if (localSize >= 2) {
      if (tid < 1) { sm[tid] = sum = sum + sm[tid + 1]; }
      block.synchronize(); }
    if (tid == 0) output[block.index.x] = sum;
  };
}

#endif
