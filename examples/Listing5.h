// The paper's n-body step: Listing 5 (the kernel) with Listing 6 (for_each,
// loop tiling through shared memory with a staged trip count). Shared by
// examples/nbody.cpp and the benchmarks.
//
// As in the paper, apart from the namespace and these completions: data_t,
// G and dt are defined; stage is reached through a policy object
// (StagePolicy.h), so that the same source also gives the unstaged kernel,
// and the kernel is made by a function of that policy.
#ifndef MSTAGE_EXAMPLES_LISTING5_H
#define MSTAGE_EXAMPLES_LISTING5_H

#include "StagePolicy.h"

#include <cmath>

using namespace mstage;

struct alignas(16) data_t {
  float x, y, z, w;
};
constexpr float G = 6.674e-3f;
constexpr float dt = 0.01f;

#define sq(x) ((x) * (x))
#define cu(x) ((x) * (x) * (x))

// Listing 6.
template <typename T, typename F, typename Stage>
void for_each(T &v, F func, Stage stage) {
  auto s = stage([&] { return v.size(); });
  shared_memory<typename T::value_type> sm;
  auto block = Block::get();
  auto bSize = block.range.x;
  auto tidx = Thread::get().index.x;
  int trips = s / bSize;
  for (int i = 0; i < trips; ++i) {
    sm[tidx] = v[i * bSize + tidx];
    block.synchronize();
    for (int j = 0; j < bSize; ++j)
      func(sm[j]);
    block.synchronize();
  }
  if (s % bSize != 0)
    for (int j = trips * bSize; j < s; ++j)
      func(v[j]);
}

// Listing 5.
template <typename Stage> auto nbodyKernel(Stage stage) {
  return [eps2 = 0.00125f, stage](const auto &pos, auto &npos, auto &vel) {
    auto idx = Thread::get().global.x;
    bool disabled = idx >= stage(pos.size());
    data_t p, v;
    if (!disabled) {
      p = pos[idx]; }
    data_t a = {0.0f, 0.0f, 0.0f, 0.0f};
    data_t r = {0.0f, 0.0f, 0.0f, 0.0f};
    for_each(pos, [&](auto elem) {
      r.x = p.x - elem.x;
      r.y = p.y - elem.y;
      r.z = p.z - elem.z;
      r.w = 1.0f / std::sqrt(sq(r.x) + sq(r.y)
                             + sq(r.z) + eps2);
      a.w = G * elem.w * cu(r.w);
      a.x += a.w * r.x;
      a.y += a.w * r.y;
      a.z += a.w * r.z;
    }, stage);
    if (!disabled) {
      v = vel[idx]; }
    p.x += v.x * dt + a.x * 0.5f * sq(dt);
    p.y += v.y * dt + a.y * 0.5f * sq(dt);
    p.z += v.z * dt + a.z * 0.5f * sq(dt);
    v.x += a.x * dt;
    v.y += a.y * dt;
    v.z += a.z * dt;
    if (!disabled) {
      vel[idx] = v;
      npos[idx] = p; } };
}

#endif
