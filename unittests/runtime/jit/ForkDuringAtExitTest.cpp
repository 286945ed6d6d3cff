//===- ForkDuringAtExitTest.cpp - fork() while a thread registers at exit -===//
//
// glibc's fork() leaves the child its exit-handler list locked when another
// thread was adding a handler, and the child's exit() waits for it forever.
// The runtime's compiles add handlers all the time (jit/CompilePool.cpp), so
// its registrations are held back across fork(). Here a thread registers
// handlers without pause, as a busy compile pool does, through the same
// wrapper (this program is linked with --wrap=__cxa_atexit, as the runtime
// is), while the test forks children that exit at once: each must end.
//
//===----------------------------------------------------------------------===//
#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

void nothing() {}

// Waits up to 5 s for Child; kills it after that. Whether it exited with 0.
bool exitedInTime(pid_t Child) {
  for (int I = 0; I < 500; ++I) {
    int Status;
    if (waitpid(Child, &Status, WNOHANG) == Child)
      return WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(Child, SIGKILL);
  waitpid(Child, nullptr, 0);
  return false;
}

TEST(ForkDuringAtExit, ChildrenExitWhileAThreadRegistersHandlers) {
  // The thread registers only while a fork is made (some thousands each
  // time), so that the handlers this process and its children run at exit
  // stay few.
  std::atomic<bool> Register{false}, Done{false};
  std::atomic<unsigned> Registered{0};
  std::thread Registering([&] {
    while (!Done.load())
      if (Register.load()) {
        std::atexit(nothing);
        ++Registered;
      } else {
        std::this_thread::yield();
      }
  });
  int Forks = 0;
  bool Hung = false;
  while (Forks < 40 && !Hung) {
    unsigned Before = Registered.load();
    Register = true;
    while (Registered.load() < Before + 100)
      std::this_thread::yield();
    pid_t Child = fork();
    Register = false;
    if (Child < 0)
      break;
    if (Child == 0)
      std::exit(0);
    ++Forks;
    Hung = !exitedInTime(Child);
  }
  Done = true;
  Registering.join();
  EXPECT_EQ(Forks, 40) << "fork() failed";
  EXPECT_FALSE(Hung) << "child " << Forks
                     << ", forked while a thread registered exit handlers, "
                        "was stuck in exit() ("
                     << Registered.load() << " registered)";
}

} // namespace
