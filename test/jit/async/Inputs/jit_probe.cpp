// Runs the commands on its command line in order, for the zero-wait tests:
//   launch V     launches the kernel with the staged value V and prints where
//                its code came from (mstage_rt_last_launch_source's name)
//   long V       the same for a long launch: 2^24 threads whose three nested
//                loops run V times each (V staged)
//   until V      launches V until its code comes from memory (10 s at
//                most), printing each launch whose source differs from the
//                launch before
//   prepare V    k.prepare() of that specialization
//   wait         mstage::jit_wait()
//   threads T    launches T new specializations from T threads at once
//   queue N      launches N new specializations, and goes on at once
//   vector V     k.prepare() and a launch with a std::vector argument
//   sleep MS     sleeps MS milliseconds
//   nice         prints the highest nice value of the process's threads
//                other than the main one (the compile pool's workers)
//   fork M       forks a child that exits at once (M = 0), calls
//                mstage::jit_wait() first (1), or launches a new
//                specialization and waits for it (2); prints how it ended,
//                or, when it is still there after 15 s, its stack (the
//                child prints it on SIGUSR1) and that it hung
//   forks N      N times: launches 8 new specializations and forks at once
//                a child that exits (calling mstage::jit_wait() first every
//                other time); a child still there after 10 s prints its
//                stack and is killed; prints how many ended and how many hung
#include <mstage.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execinfo.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

static const char *sourceName(int Source) {
  static const char *Names[] = {"memory", "disk",    "miss",
                                "off",    "generic", "tier0"};
  return Source >= 0 && Source <= 5 ? Names[Source] : "unknown";
}

// A forked child prints its stack on SIGUSR1: the parent asks for it when
// the child hangs.
static void printStackOnSigusr1() {
  std::signal(SIGUSR1, [](int) {
    void *Frames[64];
    backtrace_symbols_fd(Frames, backtrace(Frames, 64), STDERR_FILENO);
  });
}

// Waits at most Ms for Child; false (Child killed) when it is still there,
// after it was asked for its stack.
static bool waitBounded(pid_t Child, int &Status, int Ms) {
  for (int T = 0; T < Ms / 10; ++T) {
    if (waitpid(Child, &Status, WNOHANG) == Child)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(Child, SIGUSR1);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(Child, SIGKILL);
  waitpid(Child, &Status, 0);
  return false;
}

int main(int argc, char **argv) {
  int *Out = nullptr; // never dereferenced off the GPU
  auto Make = [](int Value) {
    return mstage::kernel(
        [Value](int *Out) {
          int S = mstage::stage(Value * 3);
          if (Out)
            Out[mstage::Thread::get().global.x] = S;
        },
        2, 32);
  };
  try {
    for (int I = 1; I < argc; ++I) {
      auto Next = [&] { return I + 1 < argc ? std::atoi(argv[++I]) : 0; };
      if (!std::strcmp(argv[I], "launch")) {
        int V = Next();
        Make(V)(Out);
        std::printf("launch %d: %s\n", V,
                    sourceName(mstage_rt_last_launch_source(nullptr)));
      } else if (!std::strcmp(argv[I], "until")) {
        int V = Next();
        auto Kernel = Make(V);
        auto T0 = std::chrono::steady_clock::now();
        int Last = -1, Source;
        do {
          Kernel(Out);
          Source = mstage_rt_last_launch_source(nullptr);
          if (Source != Last)
            std::printf("until %d: %s\n", V, sourceName(Source));
          Last = Source;
        } while (Source != 0 && std::chrono::steady_clock::now() - T0 <
                                    std::chrono::seconds(10));
      } else if (!std::strcmp(argv[I], "long")) {
        int V = Next();
        mstage::kernel(
            [V](float *Out) {
              int N = mstage::stage(V);
              float S = 0;
              for (int A = 0; A < N; ++A)
                for (int B = 0; B < N; ++B)
                  for (int C = 0; C < N; ++C)
                    S += 1.0f / float(A + B + C + 1);
              if (Out)
                Out[mstage::Thread::get().global.x] = S;
            },
            65536, 256)(reinterpret_cast<float *>(Out));
        std::printf("long %d: %s\n", V,
                    sourceName(mstage_rt_last_launch_source(nullptr)));
      } else if (!std::strcmp(argv[I], "prepare")) {
        Make(Next()).prepare(Out);
      } else if (!std::strcmp(argv[I], "wait")) {
        mstage::jit_wait();
      } else if (!std::strcmp(argv[I], "threads")) {
        int T = Next();
        std::vector<std::thread> Pool;
        for (int J = 0; J < T; ++J)
          Pool.emplace_back([&, J] {
            try {
              Make(1000 + J)(Out);
            } catch (const mstage::error &E) {
              std::fprintf(stderr, "%s\n", E.what());
              std::exit(1);
            }
          });
        for (std::thread &P : Pool)
          P.join();
      } else if (!std::strcmp(argv[I], "queue")) {
        int N = Next();
        for (int J = 0; J < N; ++J)
          Make(2000 + J)(Out);
      } else if (!std::strcmp(argv[I], "fork")) {
        int Mode = Next();
        std::fflush(stdout);
        pid_t Child = fork();
        if (Child == 0) {
          printStackOnSigusr1();
          if (Mode == 2)
            Make(3000)(Out);
          if (Mode >= 1)
            mstage::jit_wait();
          std::printf("fork %d: child done\n", Mode);
          std::exit(0);
        }
        int Status = 0;
        if (!waitBounded(Child, Status, 15000))
          std::printf("fork %d: child hung (its stack above)\n", Mode);
        else
          std::printf("fork %d: child exited %d\n", Mode,
                      WIFEXITED(Status) ? WEXITSTATUS(Status)
                                        : 128 + WTERMSIG(Status));
        std::fflush(stdout); // kept if a timeout kills this process later
      } else if (!std::strcmp(argv[I], "forks")) {
        int N = Next(), Ended = 0, Hung = 0;
        for (int J = 0; J < N; ++J) {
          for (int K = 0; K < 8; ++K)
            Make(4000 + 8 * J + K)(Out);
          std::fflush(stdout);
          pid_t Child = fork();
          if (Child == 0) {
            printStackOnSigusr1();
            if (J % 2)
              mstage::jit_wait();
            std::exit(0);
          }
          int Status = 0;
          bool Gone = waitBounded(Child, Status, 10000);
          Ended += Gone && WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
          Hung += !Gone;
        }
        std::printf("forks %d: %d exited, %d hung\n", N, Ended, Hung);
      } else if (!std::strcmp(argv[I], "sleep")) {
        std::this_thread::sleep_for(std::chrono::milliseconds(Next()));
      } else if (!std::strcmp(argv[I], "nice")) {
        // Field 19 of /proc/self/task/TID/stat, after the name's ')'.
        int Highest = -100;
        for (const auto &Task :
             std::filesystem::directory_iterator("/proc/self/task")) {
          if (Task.path().filename() == std::to_string(getpid()))
            continue;
          std::ifstream Stat(Task.path() / "stat");
          std::string Text((std::istreambuf_iterator<char>(Stat)), {});
          std::istringstream Fields(Text.substr(Text.rfind(')') + 2));
          std::string Field;
          for (int F = 3; F <= 19 && Fields >> Field; ++F)
            if (F == 19)
              Highest = std::max(Highest, std::atoi(Field.c_str()));
        }
        std::printf("nice: workers %d\n", Highest);
      } else if (!std::strcmp(argv[I], "vector")) {
        int V = Next();
        std::vector<float> Data(100 + V);
        auto K = mstage::kernel(
            [](mstage::vector_view<float> D) {
              unsigned N = mstage::stage(D.size());
              unsigned I = mstage::Thread::get().global.x;
              if (I < N)
                D[I] += 1;
            },
            1, 128);
        K.prepare(Data);
        mstage::jit_wait();
        K(Data);
        std::printf("vector %d: %s\n", V,
                    sourceName(mstage_rt_last_launch_source(nullptr)));
      }
    }
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "%s\n", E.what());
    return 1;
  }
  std::printf("jit_probe: done\n");
}
