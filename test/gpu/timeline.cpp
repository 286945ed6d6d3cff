//===- timeline.cpp - GPU suite: MSTAGE_TRACE=chrome and MSTAGE_STATS -------===//
//
// A child process launches two kernels three times on a stream (scale with a
// staged factor twice, shift once), waits for the stream and exits, with
// MSTAGE_TRACE=chrome:FILE and MSTAGE_STATS=1. Its trace must hold three
// kernel spans on a stream track, timed by CUDA events (a length above 0),
// named after their kernels with their staged values, and a copy to the host;
// its table must count 2 and 1 launches with a measured kernel time. On the
// CPU back end the kernel spans are measured runs, named without staged values
// (the CPU evaluates stage() in place), and the rest holds.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *Name = "timeline";
constexpr unsigned N = 1 << 20, Block = 256;

int child() {
  mstage::stream S;
  mstage::device_vector<float> V(N, 1.0f);
  float Factor = 3, Offset = 5;
  auto Scale = mstage::kernel(
      [=](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        V[I] *= mstage::stage(Factor);
      },
      N / Block, Block);
  auto Shift = mstage::kernel(
      [=](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        V[I] += mstage::stage(Offset);
      },
      N / Block, Block);
  Scale.on(S)(V);
  Scale.on(S)(V);
  Shift.on(S)(V);
  S.synchronize();
  std::printf("v0 %g\n", double(V.get(0)));
  return 0;
}

// The complete spans of the trace whose category is Category, as text.
std::vector<std::string> spans(const std::string &Json,
                               const std::string &Category) {
  std::vector<std::string> Out;
  size_t At = 0;
  while ((At = Json.find("{\"ph\":\"X\"", At)) != std::string::npos) {
    size_t End = Json.find('}', Json.find("\"args\"", At));
    std::string Span = Json.substr(At, End - At);
    if (Span.find("\"cat\":\"" + Category + "\"") != std::string::npos)
      Out.push_back(Span);
    At = End;
  }
  return Out;
}

double duration(const std::string &Span) {
  size_t At = Span.find("\"dur\":");
  return At == std::string::npos ? -1 : std::atof(Span.c_str() + At + 6);
}

int run(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "--child")
    return child();
  if (skipWithoutGpu(Name))
    return 0;
  std::string File =
      "/tmp/mstage-timeline-" + std::to_string(getpid()) + ".json";
  ChildResult C = runThisProgram(
      {"--child"},
      {"MSTAGE_JIT=sync", "MSTAGE_STATS=1", "MSTAGE_TRACE=chrome:" + File});
  const std::string &Out = C.Output;
  std::ifstream In(File);
  std::stringstream Text;
  Text << In.rdbuf();
  std::string Json = Text.str();
  std::remove(File.c_str());
  auto Fail = [&](const std::string &Why) {
    std::printf("FAIL %s: %s\n%s\n", Name, Why.c_str(), Out.c_str());
    return 1;
  };
  if (C.Status != 0 || Out.find("v0 14") == std::string::npos)
    return Fail("the child failed");
  std::vector<std::string> Kernels = spans(Json, "kernel");
  if (Kernels.size() != 3)
    return Fail(std::to_string(Kernels.size()) + " kernel spans, not 3");
  const char *Staged[] = {": 3}", ": 3}", ": 5}"};
  for (int I = 0; I < 3; ++I) {
    const std::string &K = Kernels[I];
    if (K.find("\"pid\":2") == std::string::npos || !(duration(K) > 0) ||
        (!onCpu() && K.find(Staged[I]) == std::string::npos))
      return Fail("kernel span " + std::to_string(I) + " is wrong: " + K);
  }
  if (spans(Json, "copy to host").empty())
    return Fail("no copy to the host in the trace");
  // The two rows: 2 and 1 launches, each with a kernel time.
  for (const char *Launches : {"2", "1"}) {
    size_t Row = Out.find("mstage: stats:", Out.find("launches special."));
    bool Found = false;
    for (; Row != std::string::npos; Row = Out.find("mstage: stats:", Row + 1)) {
      std::istringstream Fields(Out.substr(Row + 14, Out.find('\n', Row) - Row - 14));
      std::string Count, Cols[7];
      Fields >> Count;
      for (std::string &C : Cols)
        Fields >> C;
      if (Count == Launches && Cols[6] != "-")
        Found = true;
    }
    if (!Found)
      return Fail(std::string("no stats row with ") + Launches +
                  " launches and a kernel time");
  }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
