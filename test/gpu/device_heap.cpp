//===- device_heap.cpp - GPU suite: new/delete and malloc/free in kernels -===//
//
// Issue 37, item 2, against host references:
//  - every thread builds, sums and frees a linked list with new/delete, an
//    array with new[]/delete[] and a scratch buffer with malloc/free: the
//    same sums as the host loop;
//  - the heap's size is what set_device_heap_size set (before the first
//    launch that allocates);
//  - an exhausted heap: malloc of more than the heap returns null (the
//    kernel reports it); in a child process operator new of more than the
//    heap stops the launch with the device's message, its file and line, and
//    CUDA_ERROR_ASSERT naming the kernel. On the CPU back end the heap is
//    the host's: the child's new of 64 MiB succeeds there and the check is
//    skipped.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "device_heap";
constexpr std::size_t HeapBytes = 16u << 20;

struct Node {
  unsigned digit;
  Node *next;
};

unsigned work(unsigned i) {
  Node *head = nullptr;
  for (unsigned v = i + 1; v; v /= 10)
    head = new Node{v % 10, head};
  unsigned sum = 0;
  while (head) {
    Node *n = head->next;
    sum += head->digit;
    delete head;
    head = n;
  }
  unsigned *arr = new unsigned[5]{1, 2, 3, 4, 5};
  auto *scratch = static_cast<unsigned *>(std::malloc(8 * sizeof(unsigned)));
  for (unsigned k = 0; k < 8; ++k)
    scratch[k] = k + i;
  sum += arr[i % 5] + scratch[7];
  std::free(scratch);
  delete[] arr;
  return sum;
}

constexpr int NewLine = __LINE__ + 7; // the new below

int child() {
  mstage::set_device_heap_size(HeapBytes);
  std::vector<unsigned long long> v(1);
  mstage::kernel(
      [](mstage::vector_view<unsigned long long> v) {
        char *p = new char[64u << 20];
        v[0] = reinterpret_cast<unsigned long long>(p);
      },
      1, 1)(v);
  mstage::synchronize();
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--child")
    return child();
  if (skipWithoutGpu(Name))
    return 0;
  bool Cpu = onCpu();
  mstage::set_device_heap_size(HeapBytes);
  std::size_t Got = mstage::device_heap_size();
  if (!Cpu && Got < HeapBytes) {
    std::printf("FAIL %s: heap %zu bytes, set %zu\n", Name, Got, HeapBytes);
    return 1;
  }
  constexpr unsigned N = 20000;
  std::vector<unsigned> out(N);
  mstage::kernel(
      [](mstage::vector_view<unsigned> out) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < out.size())
          out[i] = work(i);
      },
      (N + 255) / 256, 256)(out);
  for (unsigned i = 0; i < N; ++i)
    if (out[i] != work(i)) {
      std::printf("FAIL %s: thread %u: %u, host %u\n", Name, i, out[i],
                  work(i));
      return 1;
    }
  // The pointer goes to memory, so that the optimizer keeps the malloc.
  std::vector<unsigned long long> got(1, 12345);
  mstage::kernel(
      [](mstage::vector_view<unsigned long long> r) {
        r[0] = reinterpret_cast<unsigned long long>(std::malloc(64u << 20));
      },
      1, 1)(got);
  if (!Cpu && got[0] != 0) {
    std::printf("FAIL %s: malloc past the heap gave %#llx, not null\n", Name,
                got[0]);
    return 1;
  }
  if (!Cpu) {
    ChildResult C = runThisProgram({"--child"});
    std::vector<std::string> Want = {
        "device_heap.cpp:" + std::to_string(NewLine),
        "operator new found the device heap exhausted", "CUDA_ERROR_ASSERT",
        "mstage: kernel '(anonymous namespace)::child::kernel_L"};
    if (!childFailedSaying(Name, C, Want))
      return 1;
  }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
