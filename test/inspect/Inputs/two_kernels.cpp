// Two kernels, three launches: scale (staged factor 3) twice on the main
// thread, shift (staged offset 5) once on a thread of its own. The first
// argument chooses how the program ends: "exit" calls std::exit(3) from a
// function, "throw" throws an exception that nobody catches.
#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

static void finish(const std::string &How) {
  if (How == "exit")
    std::exit(3);
  if (How == "throw")
    throw std::runtime_error("uncaught");
}

int main(int argc, char **argv) {
  std::string How = argc > 1 ? argv[1] : "";
  std::vector<int> V(64, 1);
  int Factor = 3, Offset = 5;
  auto Scale = mstage::kernel(
      [=](auto &V) { V[mstage::Thread::get().index.x] *= mstage::stage(Factor); },
      1, 64);
  auto Shift = mstage::kernel(
      [=](auto &V) { V[mstage::Thread::get().index.x] += mstage::stage(Offset); },
      1, 64);
  try {
    Scale(V);
    Scale(V);
    std::thread([&] { Shift(V); }).join();
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
    return 1;
  }
  std::printf("v0=%d\n", V[0]);
  finish(How);
}
