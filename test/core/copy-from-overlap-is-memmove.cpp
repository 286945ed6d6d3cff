// copy_from between overlapping ranges of one device_vector behaves as
// memmove (cuMemcpyDtoDAsync is not defined for overlap, so a GPU stages it
// through a temporary): every shift of every range of a small vector, either
// way, of 4- and 12-byte elements, directly, on a stream and captured into a
// graph, against std::memmove on a host copy.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct Three {
  float X, Y, Z;
};

template <class T, class Make> int check(const char *Type, Make MakeElement) {
  constexpr size_t N = 23;
  std::vector<T> Start(N);
  for (size_t I = 0; I < N; ++I)
    Start[I] = MakeElement(I);
  mstage::stream S;
  int Bad = 0, Copies = 0;
  for (size_t From = 0; From < N; ++From)
    for (size_t To = 0; To < N; ++To)
      for (size_t Count = 1; Count <= N - std::max(From, To); Count += 3)
        for (int How = 0; How < 3; ++How) {
          std::vector<T> Want = Start;
          std::memmove(Want.data() + To, Want.data() + From,
                       Count * sizeof(T));
          mstage::device_vector<T> V(Start);
          if (How == 0) {
            V.copy_from(V, From, Count, To);
          } else if (How == 1) {
            V.copy_from(V, From, Count, To, S);
            S.synchronize();
          } else {
            mstage::graph G = mstage::capture(
                S, [&] { V.copy_from(V, From, Count, To, S); });
            G.launch(S);
            S.synchronize();
          }
          std::vector<T> Got = V.download();
          ++Copies;
          if (std::memcmp(Got.data(), Want.data(), N * sizeof(T)) != 0 &&
              Bad++ < 3)
            std::printf("%s: %zu elements from %zu to %zu (way %d) differ\n",
                        Type, Count, From, To, How);
        }
  std::printf("%s: %d of %d copies differ from memmove\n", Type, Bad, Copies);
  return Bad;
}

int main() {
  check<int>("int", [](size_t I) { return int(I * 7 + 1); });
  // CHECK: int: 0 of {{[0-9]+}} copies differ from memmove
  check<Three>("Three", [](size_t I) {
    return Three{float(I), float(I) + 0.5f, -float(I)};
  });
  // CHECK: Three: 0 of {{[0-9]+}} copies differ from memmove
}
