// device_vector's upload/download from a pointer and count, from a span and
// into one, at every device offset, with and without a stream, against the
// same copies done on a std::vector; and the careless uses: ranges past the
// end (also where offset + count wraps), a null pointer, empty spans.
//
// RUN: %mstagexx -O2 -std=c++20 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <vector>

static int Bad = 0;

template <class F> static void expectError(const char *What, F Call) {
  try {
    Call();
    std::printf("no error: %s\n", What);
    ++Bad;
  } catch (const mstage::error &E) {
    std::printf("error: %s\n", E.what());
  }
}

static void same(const std::vector<int> &Want, const mstage::device_vector<int> &D,
                 const char *What, size_t Offset, size_t Count) {
  if (D.download() != Want) {
    std::printf("wrong after %s at %zu of %zu\n", What, Offset, Count);
    ++Bad;
  }
}

int main() {
  constexpr size_t N = 17;
  std::vector<int> Start(N);
  for (size_t I = 0; I < N; ++I)
    Start[I] = int(1000 + I);
  // A malloc'd table, as C codes have.
  int *Table = static_cast<int *>(std::malloc(N * sizeof(int)));
  for (size_t I = 0; I < N; ++I)
    Table[I] = -int(I) - 1;
  mstage::stream S;
  int Copies = 0;
  for (size_t Offset = 0; Offset <= N; ++Offset)
    for (size_t Count = 0; Offset + Count <= N; ++Count) {
      std::vector<int> Want = Start;
      for (size_t I = 0; I < Count; ++I)
        Want[Offset + I] = Table[I];
      mstage::device_vector<int> A(Start), B(Start), C(Start), E(Start);
      A.upload(Table, Count, Offset);
      same(Want, A, "upload(pointer)", Offset, Count);
      B.upload(std::span<const int>(Table, Count), Offset);
      same(Want, B, "upload(span)", Offset, Count);
      C.upload(Table, Count, Offset, S);
      E.upload(std::span<const int>(Table, Count), Offset, S);
      S.synchronize();
      same(Want, C, "upload(pointer, stream)", Offset, Count);
      same(Want, E, "upload(span, stream)", Offset, Count);
      // And back: the device's elements Offset.. into a host buffer.
      std::vector<int> Out(Count + 2, 7), Out2(Count + 2, 7), Out3(Count + 2, 7);
      A.download(Out.data() + 1, Count, Offset);
      A.download(std::span<int>(Out2.data() + 1, Count), Offset);
      A.download(Out3.data() + 1, Count, Offset, S);
      S.synchronize();
      for (size_t I = 0; I < Count + 2; ++I) {
        int W = I == 0 || I == Count + 1 ? 7 : Want[Offset + I - 1];
        if (Out[I] != W || Out2[I] != W || Out3[I] != W) {
          std::printf("wrong download at %zu of %zu\n", Offset, Count);
          ++Bad;
          break;
        }
      }
      Copies += 7;
    }
  // CHECK: copies checked: 1197
  std::printf("copies checked: %d\n", Copies);

  mstage::device_vector<int> V(Start);
  // CHECK: error: mstage: device_vector::upload of 2 elements to offset 16 of a device_vector of 17
  expectError("past the end", [&] { V.upload(Table, 2, 16); });
  // CHECK: error: mstage: device_vector::upload of 0 elements to offset 18 of a device_vector of 17
  expectError("offset past the end", [&] { V.upload(Table, 0, 18); });
  // CHECK: error: mstage: device_vector::upload of 18446744073709551615 elements to offset 1
  expectError("wrapping", [&] {
    V.upload(Table, std::numeric_limits<size_t>::max(), 1, S);
  });
  // CHECK: error: mstage: device_vector::upload of 3 elements with a null pointer
  expectError("null", [&] { V.upload(nullptr, 3, 0); });
  // CHECK: error: mstage: device_vector::download of 18 elements from offset 0 of a device_vector of 17
  expectError("download past the end", [&] {
    std::vector<int> Big(18);
    V.download(Big.data(), Big.size(), 0);
  });
  // CHECK: error: mstage: device_vector::download of 1 elements with a null pointer
  expectError("download null", [&] { V.download(nullptr, 1, 0, S); });
  // Nothing to copy is not an error, wherever it is within the vector.
  V.upload(nullptr, 0, 17);
  V.upload(std::span<const int>(), 0);
  V.download(nullptr, 0, 17);
  same(Start, V, "empty copies", 0, 0);
  std::free(Table);
  // CHECK: bad: 0
  std::printf("bad: %d\n", Bad);
  return Bad != 0;
}
