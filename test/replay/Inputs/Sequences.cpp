// Launch sequences for MSTAGE_GRAPHS=auto's lit tests, run on the fake
// driver (test/cuda/Inputs/FakeCudaDriver.cpp), which prints each kernel it
// runs, as a plain launch or as a graph's node, with its grid, block, the
// data pointers of its two vectors and its int argument. argv[1] names the
// sequence; each ends with a download, and prints "end NAME" (or "error:"
// and the mstage::error's text, and exits 1).
#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using Vec = mstage::device_vector<float>;

static auto A = [](auto &Out, const auto &In, int V) {
  unsigned X = mstage::Thread::get().global.x;
  Out[X] = In[X] + float(V);
};
static auto B = [](auto &Out, const auto &In, int V) {
  unsigned X = mstage::Thread::get().global.x;
  Out[X] = In[X] * float(V);
};
static auto C = [](auto &Out, const auto &In, int V) {
  unsigned X = mstage::Thread::get().global.x;
  Out[X] = In[X] - float(V);
};

// heat's two kernels on a 16 x 16 field (GraphBranches.h): the interior of
// Out from In's neighbours, and Out's boundary (In unused), N the edge.
static auto Interior = [](auto &Out, const auto &In, int V) {
  std::size_t N = std::size_t(V);
  mstage::Thread T = mstage::Thread::get();
  std::size_t I = T.global.y, J = T.global.x;
  if (I >= 1 && I + 1 < N && J >= 1 && J + 1 < N)
    Out[I * N + J] = 0.25f * (In[(I - 1) * N + J] + In[(I + 1) * N + J] +
                              In[I * N + J - 1] + In[I * N + J + 1]);
};
static auto Boundary = [](auto &Out, const auto &, int V) {
  std::size_t N = std::size_t(V);
  std::size_t T = mstage::Thread::get().global.x;
  if (T >= N)
    return;
  Out[T * N] = 1.0f;
  Out[T * N + N - 1] = 0.0f;
  if (T > 0) {
    Out[T] = 0.0f;
    Out[(N - 1) * N + T] = 0.0f;
  }
};
// Out[X + V] for the first 128 threads: V = 0 and V = 128 write apart,
// V = 0 and V = 127 overlap by a float.
static auto Half = [](auto &Out, const auto &In, int V) {
  unsigned X = mstage::Thread::get().global.x;
  if (X < 128)
    Out[X + unsigned(V)] = In[X] + 1.0f;
};
// Out at an index read from In: any int (V = 1), or one of Out's 256
// floats (V = 0).
static auto Scatter = [](auto &Out, const auto &In, int V) {
  unsigned X = mstage::Thread::get().global.x;
  int K = int(In[X]);
  if (V)
    Out[K] = 1.0f;
  else
    Out[unsigned(K) % 256] = 0.0f;
};

static void say(const char *What) { std::fprintf(stderr, "%s\n", What); }

static int run(const std::string &Name) {
  Vec X(256, 1.0f), Y(256, 2.0f), Z(256, 3.0f);
  auto KA = mstage::kernel(A, 1, 256);
  auto KB = mstage::kernel(B, 1, 256);
  auto KC = mstage::kernel(C, 1, 256);
  std::vector<float> Host;
  say(("begin " + Name).c_str());
  if (Name == "period1") {
    for (int I = 0; I < 40; ++I)
      KA(X, Y, 1);
  } else if (Name == "period2") { // buffers swapped each step
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(Y, X, 1);
    }
  } else if (Name == "grow") { // a long loop: its graphs grow
    for (int I = 0; I < 300; ++I) {
      KA(X, Y, 1);
      KA(Y, X, 1);
    }
  } else if (Name == "period3") {
    for (int I = 0; I < 30; ++I) {
      KA(X, Y, 1);
      KB(Y, Z, 2);
      KC(Z, X, 3);
    }
  } else if (Name == "baa") {
    // "B A A": the two A's look like a period of 1 until B comes again.
    for (int I = 0; I < 30; ++I) {
      KB(Y, Z, 2);
      KA(X, Y, 1);
      KA(X, Y, 1);
    }
  } else if (Name == "other-kernel") {
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      if (I == 25)
        KC(Y, X, 1);
      else
        KA(Y, X, 1);
    }
  } else if (Name == "other-config") {
    auto Half = mstage::kernel(A, 2, 128);
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      (I == 25 ? Half : KA)(Y, X, 1);
    }
  } else if (Name == "other-staged") {
    for (int Scale : {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                      2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
      mstage::kernel(
          [Scale](auto &Out, const auto &In, int V) {
            unsigned I = mstage::Thread::get().global.x;
            Out[I] = In[I] * float(mstage::stage(Scale)) + float(V);
          },
          1, 256)(X, Y, 1);
  } else if (Name == "other-argument") {
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, I < 25 ? 1 : 2);
      KA(Y, X, 1);
    }
  } else if (Name == "other-vector") {
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(I == 25 ? Z : Y, X, 1);
    }
  } else if (Name == "operations") {
    // A fill and a copy on the device in the period: a graph holds them.
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      Z.fill(5.0f);
      Z.copy_from(X);
      KA(Y, X, 1);
    }
  } else if (Name == "resume") {
    // A check every 10 steps (a download) leaves the period; the loop comes
    // back to it, and to its graph, at once.
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(Y, X, 1);
      if (I % 10 == 9)
        Host = Z.download();
    }
  } else if (Name == "segments") {
    // Checks after segments of 30 steps, then 60, then 15: graphs fit a
    // segment once the two before it were as long.
    for (int Length : {30, 30, 30, 30, 60, 60, 60, 15}) {
      for (int I = 0; I < Length; ++I) {
        KA(X, Y, 1);
        KA(Y, X, 1);
      }
      Host = Z.download();
    }
  } else if (Name == "heat") { // parallel branches: each step's two kernels
    auto KI = mstage::kernel(Interior, 1, mstage::dim3(16, 16));
    auto KE = mstage::kernel(Boundary, 1, 16);
    for (int I = 0; I < 20; ++I) {
      KI(X, Y, 16);
      KE(X, Y, 16);
      KI(Y, X, 16);
      KE(Y, X, 16);
    }
  } else if (Name == "halves" || Name == "overlap") {
    auto KH = mstage::kernel(Half, 1, 256);
    for (int I = 0; I < 40; ++I) {
      KH(X, Y, 0);
      KH(X, Y, Name == "halves" ? 128 : 127);
    }
  } else if (Name == "scatter" || Name == "scatter-masked") {
    auto KS = mstage::kernel(Scatter, 1, 256);
    auto KH = mstage::kernel(Half, 1, 256);
    for (int I = 0; I < 40; ++I) {
      KS(X, Y, Name == "scatter" ? 1 : 0);
      KH(Z, Y, 0);
    }
  } else if (Name == "stale") {
    // After the check the loop's second launch changes: the resumed period
    // ends at once, its graph is dropped, and the new period is found.
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(Y, X, I < 10 ? 1 : 2);
      if (I == 9)
        Host = Z.download();
    }
  } else if (Name == "tiers") {
    // Under MSTAGE_JIT=auto (tiers.test): each kernel runs its generic code,
    // then tier 0's, then tier 1's, as the background compiles finish. Steps
    // (1 ms apart) until both kernels run tier 1 (10 s at most), then 40
    // more; prints how many launches ran.
    auto Tier1 = [] { return mstage_rt_last_launch_source(nullptr) == 0; };
    long Launches = 0;
    bool Done = false;
    for (int I = 0; I < 10000 && !Done; ++I) {
      KA(X, Y, 1);
      Done = Tier1();
      KB(Y, X, 2);
      Done = Tier1() && Done;
      Launches += 2;
      usleep(1000);
    }
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KB(Y, X, 2);
      Launches += 2;
    }
    std::fprintf(stderr, "launches %ld\n", Launches);
  } else if (Name == "tiers-resume") {
    // Under MSTAGE_JIT=auto (tiers.test): steps of A from Y into X and back,
    // 1 ms apart (10 s at most) until 40 steps in a row ran tier 0 (held
    // back, graphs made); a download ends the hold, jit_wait() lets tier 1
    // come, and 40 more steps run it: the first one resumes the kept period
    // with the new code. Prints how many launches ran.
    long Launches = 0;
    int OnTier0 = 0;
    for (int I = 0; I < 10000 && OnTier0 < 40; ++I) {
      KA(X, Y, 1);
      bool Quick = mstage_rt_last_launch_source(nullptr) == 5;
      KA(Y, X, 1);
      Quick = mstage_rt_last_launch_source(nullptr) == 5 && Quick;
      OnTier0 = Quick ? OnTier0 + 1 : 0;
      Launches += 2;
      if (!Quick)
        usleep(1000);
    }
    Host = Z.download();
    mstage::jit_wait();
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(Y, X, 1);
      Launches += 2;
    }
    std::fprintf(stderr, "launches %ld\n", Launches);
  } else if (Name == "fork") {
    // Forked while 4 launches are held (2 + 3 graphs of 16 before): the
    // child neither enqueues them nor replays, even the same launches.
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(Y, X, 1);
      if (I != 27)
        continue;
      std::fflush(stderr);
      pid_t Child = fork();
      if (Child == 0) {
        say("child begin");
        Host = Z.download();
        for (int J = 0; J < 40; ++J)
          KA(Z, Z, 2);
        Host = Z.download();
        say("child end");
        std::exit(0);
      }
      int Status = -1;
      waitpid(Child, &Status, 0);
      if (Status != 0)
        say("error: the child failed");
    }
  } else {
    // A barrier of each kind in the middle of a period-2 loop.
    mstage::stream S = mstage::stream();
    for (int I = 0; I < 40; ++I) {
      KA(X, Y, 1);
      KA(Y, X, 1);
      if (I != 25)
        continue;
      if (Name == "download")
        Host = Z.download();
      else if (Name == "upload")
        Z.upload(std::vector<float>(256, 4.0f));
      else if (Name == "fill")
        Z.fill(5.0f);
      else if (Name == "copy")
        Z.copy_from(X);
      else if (Name == "synchronize")
        mstage::current_stream().synchronize();
      else if (Name == "event-record")
        (void)mstage::current_stream().record();
      else if (Name == "event-wait")
        S.wait(mstage::current_stream().record());
      else if (Name == "future")
        mstage::async(mstage::launch::kernel, KB, Z, Z, 2).wait();
      else if (Name == "native")
        (void)mstage::current_stream().native_handle();
      else if (Name == "other-stream")
        KB.on(S)(Z, Z, 2);
    }
  }
  Host = X.download();
  say(("end " + Name).c_str());
  return 0;
}

int main(int Argc, char **Argv) {
  try {
    return run(Argc > 1 ? Argv[1] : "");
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
    return 1;
  }
}
