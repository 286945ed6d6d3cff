// new/delete, new[]/delete[] and malloc/free in kernels on the CPU back end
// (the host's heap), 4 OS threads, against the same code run as a host loop:
// each thread builds a linked list of its index's digits with new, sums it,
// and frees it; a malloc'd scratch array; a struct with a constructor and
// destructor through new/delete. set_device_heap_size is accepted and
// device_heap_size() is 0 off the GPU.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// RUN: %mstagexx -O0 %s -o %t.O0
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t.O0 | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

struct Node {
  unsigned digit;
  Node *next;
};

struct Acc {
  unsigned *total;
  explicit Acc(unsigned *t) : total(t) { *total = 0; }
  ~Acc() { *total += 1000; }
};

static unsigned work(unsigned i) {
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
  unsigned *scratch = static_cast<unsigned *>(std::malloc(4 * sizeof(unsigned)));
  unsigned *arr = new unsigned[3]{1, 2, 3};
  for (unsigned k = 0; k < 4; ++k)
    scratch[k] = k * i;
  sum += scratch[3] + arr[2];
  delete[] arr;
  std::free(scratch);
  unsigned total;
  Acc *a = new Acc(&total);
  delete a;
  return sum + total;
}

int main() {
  mstage::set_device_heap_size(64 << 20);
  // CHECK: heap size 0
  std::printf("heap size %zu\n", mstage::device_heap_size());
  constexpr unsigned N = 5000;
  std::vector<unsigned> out(N), ref(N);
  mstage::kernel(
      [](mstage::vector_view<unsigned> out) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < out.size())
          out[i] = work(i);
      },
      (N + 127) / 128, 128)(out);
  for (unsigned i = 0; i < N; ++i)
    ref[i] = work(i);
  // CHECK: equal 1
  std::printf("equal %d\n", out == ref);
}
