//===- yakl_ergonomics.cpp - GPU suite: YAKL's array and loop features ----===//
//
// Issue 37 item 9, each against a host reference (std:: algorithms and
// plain loops): shallow copies of mstage::array (shared elements, a use
// count, two threads copying one array), slices that outlive their parent,
// reshape and its size error, host arrays with create_host_copy and
// create_device_copy and deep_copy_to, empty and unallocated arrays,
// parallel_for with labels and strides, minloc and maxloc (with NaNs), the
// timers' table at exit and a b4b kernel's bits (in child processes, which
// set MSTAGE_TIMERS and MSTAGE_B4B). An argument picks one part (arrays,
// loops, locate, timers, b4b) for the lit tests; without one, all run.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>
#include <mstage/algorithm.hpp>
#include <mstage/timer.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char *Name = "yakl_ergonomics";
SuiteChecks Checks(Name);

// The message of what F throws, or "" when it does not.
template <class F> std::string thrown(F f) {
  try {
    f();
  } catch (const std::exception &E) {
    return E.what();
  }
  return "";
}
bool says(const std::string &Message, const std::string &Part) {
  return Message.find(Part) != std::string::npos;
}

void arrays() {
  // A copy shares the elements; a kernel's writes through one are seen
  // through the other.
  mstage::array<float, 2> a("a", 3, 4);
  mstage::array<float, 2> b = a;
  auto bv = b.view();
  mstage::parallel_for(mstage::bounds<2>{3, 4},
                       [=](int j, int i) { bv(j, i) = float(10 * j + i); });
  std::vector<float> want(12);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i)
      want[j * 4 + i] = float(10 * j + i);
  Checks.report(a.to_host() == want && a.data() == b.data() &&
                    a.use_count() == 2,
                "a shallow copy shares the elements (use count 2)");

  // deep_copy_to copies: the copy's changes stay its own.
  mstage::array<float, 2> c("c", 3, 4);
  a.deep_copy_to(c);
  mstage::fill(c, 7.f);
  Checks.report(a.to_host() == want && c.to_host() == std::vector<float>(12, 7.f),
                "deep_copy_to copies the elements");
  std::string Wrong = thrown([&] {
    mstage::array<float, 1> d("d", 5);
    a.deep_copy_to(d);
  });
  Checks.report(says(Wrong, "'a' has 12 elements, 'd' 5"),
                "deep_copy_to between sizes names both: " + Wrong);
  // The same elements twice: nothing to copy.
  a.deep_copy_to(b);
  a.deep_copy_to(a.reshape(12));
  Checks.report(a.to_host() == want, "deep_copy_to of an array to itself");

  // A slice outlives its parent: it keeps the elements alive.
  mstage::array<int, 1> row;
  {
    mstage::array<int, 3> p("p", 4, 5, 6);
    mstage::iota(p, 0);
    row = p.slice<1>(2, 3, mstage::colon);
  }
  auto rv = row.view();
  mstage::parallel_for(6, [=](int k) { rv(k) *= 2; });
  std::vector<int> rowWant(6);
  for (int k = 0; k < 6; ++k)
    rowWant[k] = 2 * (2 * 30 + 3 * 6 + k);
  Checks.report(row.to_host() == rowWant && row.use_count() == 1 &&
                    row.extent(0) == 6,
                "a C-order slice outlives its parent");

  // Fortran order: u(:, :, 2) is the second 3 x 4 chunk, bounds kept.
  mstage::array<int, 3, mstage::fortran> u("u", 3, 4, 5);
  mstage::iota(u, 0);
  auto plane = u.slice<2>(mstage::colon, mstage::colon, 2);
  std::vector<int> planeWant(12);
  std::iota(planeWant.begin(), planeWant.end(), 12);
  Checks.report(plane.to_host() == planeWant && plane.lbound(0) == 1 &&
                    plane.ubound(1) == 4,
                "a Fortran-order slice u(:, :, 2)");
  std::string Outside = thrown([&] { (void)u.slice<2>(mstage::colon, mstage::colon, 6); });
  Checks.report(says(Outside, "'u': index 6 of dimension 2 is outside [1, 5]"),
                "a slice index out of bounds: " + Outside);

  // reshape shares the elements; a wrong size names both.
  mstage::array<int, 3> r("r", 2, 3, 4);
  mstage::iota(r, 0);
  auto flat = r.reshape(24);
  auto mat = r.reshape(6, 4);
  std::vector<int> all(24);
  std::iota(all.begin(), all.end(), 0);
  Checks.report(flat.to_host() == all && mat.to_host() == all &&
                    mat.extent(0) == 6 && r.use_count() == 3,
                "reshape shares the elements");
  std::string Reshape = thrown([&] { (void)r.reshape(5, 5); });
  Checks.report(says(Reshape, "'r' has 24 elements, the new shape 25"),
                "reshape to a wrong size: " + Reshape);

  // Host arrays: indexed on the host, copied to the device and back.
  mstage::host_array<double, 2, mstage::fortran> h("h", 3, 4);
  for (int j = 1; j <= 4; ++j)
    for (int i = 1; i <= 3; ++i)
      h(i, j) = 0.5 * i + j;
  mstage::array<double, 2, mstage::fortran> d = h.create_device_copy();
  auto dv = d.view();
  mstage::parallel_for(mstage::bounds<2>{{1, 3}, {1, 4}},
                       [=](int i, int j) { dv(i, j) = 2 * dv(i, j); },
                       mstage::first_fastest);
  mstage::host_array<double, 2, mstage::fortran> h2 = d.create_host_copy();
  bool Doubled = h2.data() != h.data() && h2.lbound(0) == 1;
  for (int j = 1; j <= 4; ++j)
    for (int i = 1; i <= 3; ++i)
      Doubled = Doubled && h2(i, j) == 2 * (0.5 * i + j);
  Checks.report(Doubled, "host array -> create_device_copy -> kernel -> "
                         "create_host_copy");
  mstage::host_array<double, 1> h3("h3", 12);
  d.deep_copy_to(h3);
  mstage::array<double, 2, mstage::fortran> d2 = d.create_device_copy();
  mstage::fill(d, 0.0);
  Checks.report(h3(11) == h2(3, 4) && d2.to_host() == h2.to_host(),
                "deep_copy_to across spaces and a separate device copy");

  // Empty and unallocated arrays.
  mstage::array<float, 1> e("e", 0);
  mstage::array<float, 2> none;
  std::string EmptyMin = thrown([&] { (void)mstage::minloc(e); });
  Checks.report(e.to_host().empty() && !none.allocated() && none.size() == 0 &&
                    e.reshape(0).size() == 0 && says(EmptyMin, "minloc") &&
                    none.create_host_copy().size() == 0,
                "empty and unallocated arrays; minloc of an empty: " +
                    EmptyMin);

  // Two threads copying one array: the count ends where it began.
  std::vector<std::thread> Threads;
  for (int t = 0; t < 4; ++t)
    Threads.emplace_back([&a] {
      for (int k = 0; k < 10000; ++k) {
        mstage::array<float, 2> copy = a;
        auto s = copy.slice<1>(1, mstage::colon);
        (void)s;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  Checks.report(a.use_count() == 2 && a.to_host() == want,
                "four threads copying one array");
  b.deallocate();
  Checks.report(a.use_count() == 1 && !b.allocated(),
                "deallocate lets go of the elements");
}

void loops() {
  // Strides in both dimensions, against the host's loops.
  const int J = 37, I = 53;
  mstage::array<int, 2> hits("hits", J, I);
  mstage::fill(hits, 0);
  auto hv = hits.view();
  mstage::parallel_for("mark", mstage::bounds<2>{{1, J - 1, 3}, {0, I - 1, 5}},
                       [=](int j, int i) { hv(j, i) += 1 + j * I + i; });
  std::vector<int> want(J * I, 0);
  for (int j = 1; j <= J - 1; j += 3)
    for (int i = 0; i <= I - 1; i += 5)
      want[j * I + i] += 1 + j * I + i;
  Checks.report(hits.to_host() == want, "parallel_for with strides 3 and 5");
  // A stride past the range is one index; hi < lo with a stride is empty.
  std::vector<int> one(4, 0);
  mstage::device_vector<int> dv(one);
  auto v = dv.view();
  mstage::parallel_for("one", mstage::bounds<1>{{2, 3, 7}},
                       [=](int i) { v[i] += 1; });
  mstage::parallel_for(mstage::bounds<1>{{2, 1, 7}}, [=](int i) { v[i] += 5; });
  one[2] = 1;
  Checks.report(dv.download() == one, "a stride past the range, an empty range");
  std::string Zero = thrown([&] {
    mstage::parallel_for(mstage::bounds<1>{{0, 9, 0}}, [=](int i) { v[0] = i; });
  });
  Checks.report(says(Zero, "dimension 0 has the stride 0"),
                "a stride of 0: " + Zero);
}

// The reference: the first least (greatest) element that is not NaN, else 0.
template <class T> std::size_t hostLoc(const std::vector<T> &h, bool least) {
  std::size_t best = h.size();
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i] != h[i])
      continue;
    if (best == h.size() || (least ? h[i] < h[best] : h[best] < h[i]))
      best = i;
  }
  return best == h.size() ? 0 : best;
}

template <class T> void locateCase(std::vector<T> h, const std::string &What) {
  mstage::device_vector<T> d(h);
  std::size_t lo = mstage::minloc(d), hi = mstage::maxloc(d);
  std::size_t wantLo = hostLoc(h, true), wantHi = hostLoc(h, false);
  Checks.report(lo == wantLo && hi == wantHi,
                "minloc/maxloc " + What + ": " + std::to_string(lo) + ", " +
                    std::to_string(hi) + " (host " + std::to_string(wantLo) +
                    ", " + std::to_string(wantHi) + ")");
}

void locate() {
  std::mt19937 Gen(37);
  for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(1000),
                        std::size_t(100003)}) {
    std::uniform_int_distribution<int> Small(-50, 50);
    std::vector<int> ints(n);
    for (int &x : ints)
      x = Small(Gen); // many ties: the first one counts
    locateCase(ints, "int n=" + std::to_string(n));
    std::vector<float> fl(n);
    for (float &x : fl)
      x = Gen() % 7 == 0 ? std::numeric_limits<float>::quiet_NaN()
                         : float(Small(Gen)) / 4;
    locateCase(fl, "float with NaNs n=" + std::to_string(n));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  locateCase(std::vector<double>{nan, nan, nan}, "all NaN");
  locateCase(std::vector<double>{nan, 2, -1, nan, -1, 2, nan}, "NaN first, ties");
  locateCase(std::vector<double>{0.0, -0.0, 0.0}, "signed zeros");
  // An array: the index in memory order.
  mstage::array<float, 2, mstage::fortran> a("a", 4, 3);
  std::vector<float> h = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 9};
  a.from_host(h);
  Checks.report(mstage::minloc(a) == 1 && mstage::maxloc(a) == 5,
                "minloc/maxloc of a Fortran-order array, in memory order");
}

// The timers in a child with MSTAGE_TIMERS=kernels: the table at exit has
// each label with its count.
int timersChild() {
  mstage::array<int, 1> x("x", 100);
  auto xv = x.view();
  for (int step = 0; step < 3; ++step) {
    mstage::timer_start("main loop");
    mstage::parallel_for("init x", 100, [=](int i) { xv(i) = i; });
    mstage::parallel_for(100, [=](int i) { xv(i) += 1; });
    mstage::timer_stop("main loop");
  }
  std::string Twice = thrown([] {
    mstage::timer_start("twice");
    mstage::timer_start("twice");
  });
  std::string Unstarted = thrown([] { mstage::timer_stop("never"); });
  std::printf("twice: %s\nunstarted: %s\n", Twice.c_str(), Unstarted.c_str());
  mstage::timer_stop("twice");
  return 0;
}

void timers() {
  ChildResult C = runThisProgram({"--timers-child"}, {"MSTAGE_TIMERS=kernels"});
  bool OK = C.Status == 0;
  for (const char *Want :
       {"mstage: timers: main loop", "mstage: timers: init x",
        "mstage: timers: unlabeled parallel_for", "mstage: timers: twice",
        "timer 'twice' is already running on this thread",
        "timer 'never' was not started on this thread"})
    OK = OK && says(C.Output, Want);
  // The counts: 3 spans of the loop, 3 launches of each parallel_for.
  auto countOf = [&](const std::string &Label) {
    std::size_t At = C.Output.find("mstage: timers: " + Label);
    if (At == std::string::npos)
      return -1;
    return std::atoi(C.Output.c_str() + At + 16 + Label.size());
  };
  OK = OK && countOf("main loop ") == 3 && countOf("init x ") == 3 &&
       countOf("unlabeled parallel_for") == 3 && countOf("twice ") == 1;
  reportChild(Name, OK, "the timers' table at exit (MSTAGE_TIMERS=kernels)",
              C.Output);
  if (!OK)
    Checks.report(false, "timers");
  ChildResult Off = runThisProgram({"--timers-child"}, {"MSTAGE_TIMERS"});
  Checks.report(Off.Status == 0 && !says(Off.Output, "mstage: timers"),
                "no table and no errors with MSTAGE_TIMERS unset");
}

// Sums of N float values into a few bins by atomics (N from the command
// line, 2^16 by default): the result depends on the atomics' order. Prints
// the bins' bits, and the time of the launch.
constexpr int Bins = 16;
float value(int i) { return 1.0f / float(1 + (i * 7919) % 1000); }

int b4bChild(int B4bN) {
  std::vector<float> in(B4bN);
  for (int i = 0; i < B4bN; ++i)
    in[i] = value(i);
  mstage::device_vector<float> din(in);
  mstage::device_vector<float> bins(Bins, 0.f);
  auto iv = din.view();
  auto bv = bins.view();
  auto body = [=](int i) { mstage::atomic_add(&bv[i % Bins], iv[i]); };
  mstage::parallel_for("bins", B4bN, body, mstage::b4b); // compiled, warm
  mstage::fill(bins, 0.f);
  mstage::synchronize();
  auto t0 = std::chrono::steady_clock::now();
  mstage::parallel_for("bins", B4bN, body, mstage::b4b);
  mstage::synchronize();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
  std::vector<float> out = bins.download();
  std::vector<float> host(Bins, 0.f);
  for (int i = 0; i < B4bN; ++i)
    host[i % Bins] += in[i];
  bool Same = std::memcmp(out.data(), host.data(), sizeof(float) * Bins) == 0;
  std::printf("bits:");
  for (float f : out) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    std::printf(" %08x", u);
  }
  std::printf("\nsame as the host's order: %d\nms: %.3f\n", int(Same), ms);
  return 0;
}

void b4b() {
  ChildResult On1 = runThisProgram({"--b4b-child"}, {"MSTAGE_B4B=1"});
  ChildResult On2 = runThisProgram({"--b4b-child"}, {"MSTAGE_B4B=1"});
  ChildResult Off = runThisProgram({"--b4b-child"}, {"MSTAGE_B4B=0"});
  auto bits = [](const ChildResult &C) {
    std::size_t At = C.Output.find("bits:");
    return At == std::string::npos ? std::string()
                                   : C.Output.substr(At, C.Output.find('\n', At) - At);
  };
  auto ms = [](const ChildResult &C) {
    std::size_t At = C.Output.find("ms: ");
    return At == std::string::npos ? -1.0 : std::atof(C.Output.c_str() + At + 4);
  };
  bool OK = On1.Status == 0 && On2.Status == 0 && !bits(On1).empty() &&
            bits(On1) == bits(On2) &&
            says(On1.Output, "same as the host's order: 1");
  reportChild(Name, OK,
              "MSTAGE_B4B=1: the same bits twice, the host loop's order",
              On1.Output + On2.Output);
  if (!OK)
    Checks.report(false, "b4b");
  Checks.report(Off.Status == 0, "b4b off runs in parallel");
  std::printf("INFO %s: b4b kernel (2^16 float atomics) %.3f ms serial, "
              "%.3f ms parallel\n",
              Name, ms(On1), ms(Off));
}

int run(int Argc, char **Argv) {
  std::string Part = Argc > 1 ? Argv[1] : "";
  if (Part == "--timers-child")
    return timersChild();
  if (Part == "--b4b-child")
    return b4bChild(Argc > 2 ? std::atoi(Argv[2]) : 1 << 16);
  if (skipWithoutGpu(Name))
    return 0;
  if (Part.empty() || Part == "arrays")
    arrays();
  if (Part.empty() || Part == "loops")
    loops();
  if (Part.empty() || Part == "locate")
    locate();
  if (Part.empty() || Part == "timers")
    timers();
  if (Part.empty() || Part == "b4b")
    b4b();
  if (Checks.failed())
    return 1;
  std::printf("PASS %s%s%s\n", Name, Part.empty() ? "" : " ", Part.c_str());
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
