// A kernel's label is read by mstage++ where it compiles the call
// (compiler/KernelTagger.cpp): one that is not a string literal is an error,
// and a second, different label for the same kernel is a warning that names
// the first, which the kernel keeps.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <mstage.hpp>

void run(std::vector<float> &v, const char *name) {
  // CHECK: kernel-label.cpp:[[@LINE+1]]:18: error: mstage: a kernel's label must be a string literal: mstage++ names the kernel when it compiles this call
  mstage::kernel(name, [](mstage::vector_view<float> a) { a[0] = 1; }, 1, 1)(v);

  auto body = [](mstage::vector_view<float> a) { a[0] = 2; };
  mstage::kernel("first", body, 1, 1)(v);
  // CHECK: kernel-label.cpp:[[@LINE+1]]:18: warning: mstage: this kernel is labelled 'second' here, and 'first' before; a kernel has one name, the first label
  mstage::kernel("second", body, 1, 1)(v);
  // CHECK: kernel-label.cpp:[[@LINE-3]]:18: note: the first label
  // The same label again says nothing.
  mstage::kernel("first", body, 1, 1)(v);
}
