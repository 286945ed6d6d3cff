//===- device_globals_extern.cpp - GPU suite: extern device globals -------===//
//
// Device globals declared extern here and defined in
// device_globals_extern_defs.cpp (CUDA's `extern __device__` with -rdc),
// against host references (issue 37, item 1):
//  - a counter that this file's kernel (two specializations) and the other
//    file's (two more) increment is one value: the sum of all increments,
//    the same when downloaded from either file;
//  - a constant table uploaded from this file is what both files' kernels
//    read; uploaded again, both see the new table;
//  - the defining file's initializer is the first value seen here;
//  - with a second device: an upload from one file to it is what the other
//    file downloads there, and the first device's value stays.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"
#include "device_globals_extern.h"

#include <cstdio>
#include <string>

namespace {

constexpr const char *Name = "device_globals_extern";

int fail(const std::string &What) {
  std::printf("FAIL %s: %s\n", Name, What.c_str());
  return 1;
}

void countHere(unsigned n) {
  mstage::kernel(
      [](unsigned n) {
        if (mstage::Thread::get().global.x < mstage::stage(n))
          mstage::atomic_add(&shared::hits.get(), 1u);
      },
      8, 128)(n);
}

int counters() {
  if (int s = shared::seeded.download(); s != -5)
    return fail("initializer: " + std::to_string(s) + ", expected -5");
  shared::hits.upload(0);
  unsigned expect = 0;
  for (unsigned round = 0; round < 3; ++round) {
    countHere(1000);
    countHere(77);
    countThere(500);
    countThere(9);
    expect += 1000 + 77 + 3 * (500 + 9);
  }
  unsigned here = shared::hits.download();
  unsigned there = hitsThere(mstage::device::current());
  if (here != expect || there != expect)
    return fail("counter " + std::to_string(here) + " here and " +
                std::to_string(there) + " there, expected " +
                std::to_string(expect));
  return 0;
}

int table() {
  float host[32];
  for (unsigned i = 0; i < 32; ++i)
    host[i] = 0.25f * float(i) - 2.f;
  for (unsigned round = 0; round < 2; ++round) {
    shared::weights.upload(host);
    std::vector<float> here(700, 3.f), there(700, 5.f);
    mstage::kernel(
        [](mstage::vector_view<float> x) {
          unsigned i = mstage::Thread::get().global.x;
          if (i < x.size())
            x[i] *= shared::weights.get()[i % 32];
        },
        (here.size() + 127) / 128, 128)(here);
    weighThere(there);
    for (unsigned i = 0; i < here.size(); ++i)
      if (here[i] != 3.f * host[i % 32] || there[i] != 5.f * host[i % 32])
        return fail("round " + std::to_string(round) + ": element " +
                    std::to_string(i) + " is " + std::to_string(here[i]) +
                    " and " + std::to_string(there[i]) + ", expected " +
                    std::to_string(3.f * host[i % 32]) + " and " +
                    std::to_string(5.f * host[i % 32]));
    for (float &h : host)
      h = -h;
  }
  return 0;
}

int twoDevices() {
  std::vector<mstage::device> all = mstage::devices();
  if (all.size() < 2)
    return 0;
  shared::hits.upload(7, all[0]);
  uploadHitsThere(11, all[1]);
  unsigned a = hitsThere(all[0]), b = shared::hits.download(all[1]);
  if (a != 7 || b != 11)
    return fail("two devices: " + std::to_string(a) + " and " +
                std::to_string(b) + ", expected 7 and 11");
  return 0;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  int failed = counters() + table() + twoDevices();
  if (!failed)
    std::printf("PASS %s\n", Name);
  return failed ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
