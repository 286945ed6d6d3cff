//===- argument_aliasing.cpp - GPU suite: one array passed twice ----------===//
//
// The same host vector, device vector or view passed twice to a launch, as
// const and as non-const, is one array to the kernel (issue 31):
//  - std::vector and pinned_vector: the arguments share one device copy,
//    copied back once if either is non-const (the kernel's writes came back
//    lost when each had its own copy);
//  - device_vector, managed_vector, vector_view, a device_vector with its
//    own view, and two overlapping views (read only);
//  - all of it again in a child with MSTAGE_CHECK=cpu, which must find no
//    difference (each argument had its own snapshot, so the CPU's run wrote
//    one and the check compared the other);
//  - a kernel bound with on() to a stream that was destroyed is an error
//    naming the kernel, not a launch on freed memory;
//  - a raw pointer one past the end of a device allocation is accepted.
// The kernel writes a[i] = b[i] * 2 + 1 through its first non-const view and
// a[i] + b[i] (as read before) to a separate array; the results are compared
// with a host loop.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace mstage;

constexpr const char *Name = "argument_aliasing";
constexpr unsigned Block = 256;
std::size_t N = 1 << 20; // MSTAGE_SUITE_QUICK=1: 1000

SuiteChecks Checks(Name);

auto Body = [](auto a, auto b, vector_view<int> sum) {
  unsigned i = Thread::get().global.x;
  if (i >= a.size())
    return;
  int s = a[i] + b[i];
  using A = std::remove_pointer_t<decltype(a.data())>;
  using B = std::remove_pointer_t<decltype(b.data())>;
  if constexpr (!std::is_const_v<A>)
    a[i] = b[i] * 2 + 1;
  else if constexpr (!std::is_const_v<B>)
    b[i] = a[i] * 2 + 1;
  sum[i] = s;
};

std::vector<int> input(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = int(i % 1000) - 300;
  return v;
}

// "" when got and sum are what the kernel makes of in, else the first
// difference.
std::string compare(const std::vector<int> &in, const std::vector<int> &got,
                    const std::vector<int> &sum, bool writes) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    int want = writes ? in[i] * 2 + 1 : in[i];
    if (got[i] != want || sum[i] != 2 * in[i])
      return "element " + std::to_string(i) + " is " + std::to_string(got[i]) +
             " (sum " + std::to_string(sum[i]) + "), expected " +
             std::to_string(want) + " (sum " + std::to_string(2 * in[i]) + ")";
  }
  return "";
}

template <class A, class B> void launch2(std::size_t n, A &&a, B &&b,
                                         device_vector<int> &sum) {
  kernel(Body, n / Block + 1, Block)(std::forward<A>(a), std::forward<B>(b),
                                     sum);
}

// One family: each case resets the array, launches and is compared.
struct Family {
  const char *What;
  std::string Bad;
  int Cases = 0;
  void note(const char *Case, const std::string &Diff) {
    ++Cases;
    if (Bad.empty() && !Diff.empty())
      Bad = std::string(Case) + ": " + Diff;
  }
  void done() {
    Checks.report(Bad.empty(), std::string(What) + " (" + std::to_string(Cases) +
                            " cases)" + (Bad.empty() ? "" : ": " + Bad));
  }
};

template <class V> void stdVectors(const char *What) {
  Family F{What};
  std::vector<int> in = input(N);
  device_vector<int> sum(N);
  auto run = [&](const char *Case, bool writes, auto launch) {
    V v(in.begin(), in.end());
    launch(v);
    F.note(Case, compare(in, std::vector<int>(v.begin(), v.end()),
                         sum.download(), writes));
  };
  run("v, v", true, [&](V &v) { launch2(N, v, v, sum); });
  run("v, const v", true, [&](V &v) { launch2(N, v, std::as_const(v), sum); });
  run("const v, v", true, [&](V &v) { launch2(N, std::as_const(v), v, sum); });
  run("const v, const v", false, [&](V &v) {
    launch2(N, std::as_const(v), std::as_const(v), sum);
  });
  F.done();
}

void deviceVectors() {
  Family F{"device_vector passed twice, and with its view"};
  std::vector<int> in = input(N);
  device_vector<int> d(N), sum(N);
  auto run = [&](const char *Case, bool writes, auto launch) {
    d.upload(in);
    launch();
    F.note(Case, compare(in, d.download(), sum.download(), writes));
  };
  run("d, d", true, [&] { launch2(N, d, d, sum); });
  run("d, const d", true, [&] { launch2(N, d, std::as_const(d), sum); });
  run("const d, d", true, [&] { launch2(N, std::as_const(d), d, sum); });
  run("const d, const d", false,
      [&] { launch2(N, std::as_const(d), std::as_const(d), sum); });
  run("d, d.view()", true, [&] { launch2(N, d, d.view(), sum); });
  run("const d, d.view()", true,
      [&] { launch2(N, std::as_const(d), d.view(), sum); });
  F.done();
}

void views() {
  Family F{"vector_view passed twice, and overlapping views"};
  std::vector<int> in = input(N);
  device_vector<int> d(N), sum(N);
  auto run = [&](const char *Case, bool writes, auto launch) {
    d.upload(in);
    launch();
    F.note(Case, compare(in, d.download(), sum.download(), writes));
  };
  run("view, view", true, [&] { launch2(N, d.view(), d.view(), sum); });
  run("view, const view", true,
      [&] { launch2(N, d.view(), std::as_const(d).view(), sum); });
  run("const view, view", true,
      [&] { launch2(N, std::as_const(d).view(), d.view(), sum); });
  // Overlapping, read only: sum[i] = d[i] + d[i + 1].
  d.upload(in);
  vector_view<const int> lo(d.data(), N - 1), hi(d.data() + 1, N - 1);
  launch2(N - 1, lo, hi, sum);
  std::vector<int> s = sum.download(), got = d.download();
  std::string Diff;
  for (std::size_t i = 0; i + 1 < N && Diff.empty(); ++i)
    if (s[i] != in[i] + in[i + 1] || got[i] != in[i])
      Diff = "element " + std::to_string(i) + ": sum " + std::to_string(s[i]) +
             ", expected " + std::to_string(in[i] + in[i + 1]);
  F.note("overlapping views", Diff);
  F.done();
}

void managedVectors() {
  Family F{"managed_vector passed twice"};
  std::vector<int> in = input(N);
  managed_vector<int> m(N);
  device_vector<int> sum(N);
  auto run = [&](const char *Case, bool writes, auto launch) {
    std::copy(in.begin(), in.end(), m.begin());
    launch();
    synchronize();
    F.note(Case, compare(in, std::vector<int>(m.begin(), m.end()),
                         sum.download(), writes));
  };
  run("m, m", true, [&] { launch2(N, m, m, sum); });
  run("m, const m", true, [&] { launch2(N, m, std::as_const(m), sum); });
  run("const m, m", true, [&] { launch2(N, std::as_const(m), m, sum); });
  run("const m, const m", false,
      [&] { launch2(N, std::as_const(m), std::as_const(m), sum); });
  F.done();
}

void allFamilies() {
  stdVectors<std::vector<int>>("std::vector passed twice");
  stdVectors<pinned_vector<int>>("pinned_vector passed twice");
  deviceVectors();
  views();
  managedVectors();
}

void destroyedStream() {
  device_vector<int> d(64, 1);
  auto k = kernel([](vector_view<int> a) { a[Thread::get().global.x] += 1; },
                  1, 64);
  std::optional<mstage::stream> s(std::in_place);
  auto bound = k.on(*s);
  bound(d);
  s->synchronize();
  bool Ran = d.get(0) == 2 && d.get(63) == 2;
  s.reset();
  std::string Error;
  try {
    bound(d);
  } catch (const mstage::error &E) {
    Error = E.what();
  }
  synchronize();
  bool Named = Error.find("kernel '") != std::string::npos &&
               Error.find("stream that was destroyed") != std::string::npos;
  Checks.report(Ran && Named && d.get(0) == 2,
         "a kernel bound to a destroyed stream is an error: " +
             (Error.empty() ? std::string("no error") : Error));
}

void onePastTheEnd() {
  std::vector<int> host = input(4096); // summed by one thread
  device_vector<int> in(host), out(1, 0);
  std::string Error;
  try {
    kernel(
        [](const int *begin, const int *end, int *total) {
          int s = 0;
          for (const int *p = begin; p != end; ++p)
            s += *p;
          *total = s;
        },
        1, 1)(in.data(), in.data() + in.size(), out.data());
  } catch (const mstage::error &E) {
    Error = E.what();
  }
  long Want = std::accumulate(host.begin(), host.end(), 0L);
  int Got = Error.empty() ? out.get(0) : 0;
  Checks.report(Error.empty() && Got == int(Want),
         "a pointer one past the end of a device_vector: sum " +
             std::to_string(Got) + ", host " + std::to_string(Want) +
             (Error.empty() ? "" : ": " + Error));
}

int run(int Argc, char **Argv) {
  if (skipWithoutGpu(Name))
    return 0;
  if (std::getenv("MSTAGE_SUITE_QUICK"))
    N = 1000;
  if (Argc == 2 && std::string(Argv[1]) == "--child") {
    allFamilies();
    return Checks.failed();
  }
  allFamilies();
  ChildResult C = runThisProgram({"--child"}, {"MSTAGE_CHECK=cpu"});
  bool Differ = C.Output.find("differ") != std::string::npos ||
                C.Output.find("FAIL") != std::string::npos;
  Checks.report(C.Status == 0 && !Differ,
         "the same under MSTAGE_CHECK=cpu (exit " + std::to_string(C.Status) +
             ")" + (C.Status == 0 && !Differ ? "" : ": " + C.Output));
  destroyedStream();
  onePastTheEnd();
  return Checks.failed();
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
