//===- TileKernel.h - The kernel of the resource tests ----------*- C++ -*-===//
//
// For stats-resources.cpp and mstage-ptx-resources.cpp: a 16x17 float tile
// in shared memory (1088 bytes), a barrier, and a dynamically indexed local
// array (on the stack, local memory), scaled by one staged value.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_TEST_INSPECT_TILEKERNEL_H
#define MSTAGE_TEST_INSPECT_TILEKERNEL_H

#include <mstage.hpp>

struct TileKernel {
  int Scale;
  void operator()(mstage::vector_view<float> in, mstage::vector_view<float> out,
                  mstage::vector_view<int> idx) const {
    mstage::shared_array<float, 16, 17> tile;
    float local[64];
    auto t = mstage::Thread::get().index;
    auto b = mstage::Block::get().index;
    unsigned x = b.x * 16 + t.x, y = b.y * 16 + t.y;
    for (int i = 0; i < 64; ++i)
      local[i] = in[(y * 64 + x + i) % 4096];
    tile[t.y][t.x] = local[idx[y * 64 + x] & 63];
    mstage::Block::get().synchronize();
    out[y * 64 + x] = tile[t.x][t.y] * mstage::stage(Scale);
  }
};

#endif
