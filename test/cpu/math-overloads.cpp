// <mstage.hpp> gives kernel code the global float overloads of <math.h>'s
// functions, as CUDA does: on the CPU back end, exp, pow, sin, fmod, sqrt,
// log and tanh of a float give exactly the host's float functions (std::
// expf & co.), which the double functions rounded to float do not for every
// input, and abs of a float keeps its fraction and sign (C's int abs would
// truncate); abs of an int stays an int.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  constexpr int N = 4096, Fields = 8;
  std::vector<float> x(N), out(N * Fields);
  std::vector<int> ints(N);
  for (int i = 0; i < N; ++i)
    x[i] = (float(i) - N / 2) / 97.0f;
  mstage::kernel(
      [](const auto &x, auto &out, auto &ints) {
        unsigned i = mstage::Thread::get().global.x;
        float v = x[i];
        out[i * Fields + 0] = exp(v);
        out[i * Fields + 1] = pow(2.5f, v);
        out[i * Fields + 2] = sin(v * 100);
        out[i * Fields + 3] = fmod(v, 0.3f);
        out[i * Fields + 4] = sqrt(fabs(v));
        out[i * Fields + 5] = log(fabs(v) + 0.5f);
        out[i * Fields + 6] = tanh(v);
        out[i * Fields + 7] = abs(v);
        ints[i] = abs(int(i) - N / 2);
      },
      N / 128, 128)(x, out, ints);

  // The host's float functions, and the double ones rounded: they differ for
  // some inputs, so that a kernel calling the double ones fails.
  int differs = 0, bad = 0;
  for (int i = 0; i < N; ++i) {
    float v = x[i];
    const float want[Fields] = {std::exp(v),
                                std::pow(2.5f, v),
                                std::sin(v * 100),
                                std::fmod(v, 0.3f),
                                std::sqrt(std::fabs(v)),
                                std::log(std::fabs(v) + 0.5f),
                                std::tanh(v),
                                std::fabs(v)};
    const float asDouble[Fields] = {
        float(std::exp(double(v))), float(std::pow(2.5, double(v))),
        float(std::sin(double(v * 100))), float(std::fmod(double(v), 0.3)),
        0, 0, float(std::tanh(double(v))), 0};
    for (int f = 0; f < Fields; ++f) {
      differs += asDouble[f] != 0 && asDouble[f] != want[f];
      if (out[i * Fields + f] != want[f] && bad++ < 5)
        std::printf("field %d at x = %.9g: %.9g, host %.9g\n", f, v,
                    out[i * Fields + f], want[f]);
    }
    if (ints[i] != std::abs(i - N / 2) && bad++ < 5)
      std::printf("abs(int) at %d: %d\n", i, ints[i]);
  }
  std::printf("mismatches %d; the double functions differ on %d results\n", bad,
              differs);
}

// CHECK: mismatches 0; the double functions differ on {{[1-9][0-9]*}} results
