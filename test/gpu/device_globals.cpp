// mstage::device_global, mstage::constant, on_device() and device_arch()
// against host references (issue 37, items 1 and 10):
//  - a counter that two kernels and two specializations of one kernel (four
//    modules) increment is one value: the sum of all their increments;
//  - a constant table uploaded before any launch is what the kernels read;
//    uploaded again between launches, the loaded module sees the new table,
//    and so does a specialization loaded after the upload (a new module is
//    filled from the last uploaded value);
//  - the initializer is each device's first value;
//  - with a second device: an upload there leaves the first device's value
//    alone (one object per device);
//  - on_device() is true and device_arch() is the device's architecture
//    (sm_90: 900) in the JIT's code for the GPU; false and 0 on the CPU back
//    end and in host code.
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "device_globals";

mstage::device_global<unsigned> counter;
mstage::constant<float[64]> coeff;
mstage::device_global<int> seeded{42};

int fail(const std::string &What) {
  std::printf("FAIL %s: %s\n", Name, What.c_str());
  return 1;
}

// Four modules: two kernels, and the first specialized for two sizes.
int counters() {
  counter.upload(0);
  auto first = [](unsigned n) {
    mstage::kernel(
        [](unsigned n) {
          if (mstage::Thread::get().global.x < mstage::stage(n))
            mstage::atomic_add(&counter.get(), 1u);
        },
        8, 128)(n);
  };
  auto second = mstage::kernel(
      [](unsigned n) {
        if (mstage::Thread::get().global.x < n)
          mstage::atomic_add(&counter.get(), 2u);
      },
      8, 128);
  unsigned expect = 0;
  for (unsigned round = 0; round < 3; ++round) {
    first(1000);
    first(333);
    second(500);
    expect += 1000 + 333 + 2 * 500;
  }
  unsigned got = counter.download();
  if (got != expect)
    return fail("counter " + std::to_string(got) + ", expected " +
                std::to_string(expect));
  int s = seeded.download();
  if (s != 42)
    return fail("initializer: " + std::to_string(s) + ", expected 42");
  return 0;
}

int table() {
  float host[64];
  for (unsigned i = 0; i < 64; ++i)
    host[i] = float(i) * 0.5f;
  coeff.upload(host);
  auto scale = [](std::vector<float> &x) {
    mstage::kernel(
        [](mstage::vector_view<float> x) {
          unsigned i = mstage::Thread::get().global.x;
          if (i < mstage::stage(x.size()))
            x[i] = x[i] * coeff.get()[i % 64];
        },
        (x.size() + 127) / 128, 128)(x);
  };
  int failed = 0;
  for (unsigned round = 0; round < 3; ++round) {
    // Round 2's size is a new specialization, loaded after the uploads.
    std::vector<float> x(round == 2 ? 300 : 1000, 2.f);
    scale(x);
    for (unsigned i = 0; i < x.size(); ++i)
      if (x[i] != 2.f * host[i % 64]) {
        failed = fail("round " + std::to_string(round) + ": x[" +
                      std::to_string(i) + "] " + std::to_string(x[i]) +
                      ", expected " + std::to_string(2.f * host[i % 64]));
        break;
      }
    for (float &h : host)
      h += 1.f;
    coeff.upload(host);
  }
  float back[64];
  coeff.download(back);
  for (unsigned i = 0; i < 64; ++i)
    if (back[i] != host[i])
      return fail("download of the table differs at " + std::to_string(i));
  return failed;
}

int twoDevices() {
  std::vector<mstage::device> all = mstage::devices();
  if (all.size() < 2) {
    std::printf("# device_globals: one device: the per-device copies are "
                "not checked\n");
    return 0;
  }
  counter.upload(7, all[0]);
  counter.upload(11, all[1]);
  unsigned a = counter.download(all[0]), b = counter.download(all[1]);
  if (a != 7 || b != 11)
    return fail("two devices: " + std::to_string(a) + " and " +
                std::to_string(b) + ", expected 7 and 11");
  std::printf("# device_globals: two devices keep their own copies\n");
  return 0;
}

int arch() {
  std::vector<unsigned> out(2, 12345);
  // Its output says where it ran: MSTAGE_CHECK=cpu's run on the CPU back
  // end differs by design.
  auto k = mstage::kernel(
               [](mstage::vector_view<unsigned> out) {
                 out[0] = mstage::on_device() ? 1u : 0u;
                 out[1] = mstage::device_arch();
               },
               1, 1)
               .check_on_cpu(false);
  // The first launch may run the generic code, compiled ahead of time for
  // an older architecture (device_arch() is the code's, as __CUDA_ARCH__);
  // after jit_wait() the specialization compiled for this GPU runs.
  k(out);
  mstage::jit_wait();
  k(out);
  std::string a = mstage::device::current().arch(); // "sm_90" or "cpu"
  bool gpu = a.rfind("sm_", 0) == 0;
  unsigned expect = gpu ? unsigned(std::stoul(a.substr(3))) * 10 : 0;
  if (out[0] != (gpu ? 1u : 0u) || out[1] != expect)
    return fail("on_device " + std::to_string(out[0]) + " device_arch " +
                std::to_string(out[1]) + " on " + a + ", expected " +
                std::to_string(gpu) + " and " + std::to_string(expect));
  if (mstage::on_device() || mstage::device_arch() != 0)
    return fail("host code: on_device() or device_arch() not false and 0");
  return 0;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  int failed = counters() + table() + twoDevices() + arch();
  if (!failed)
    std::printf("PASS %s\n", Name);
  return failed ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
