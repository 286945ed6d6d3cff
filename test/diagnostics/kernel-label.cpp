// A kernel's label is read by mstage++ where it compiles the call
// (compiler/KernelTagger.cpp): one that is not a string literal is an error,
// and a second, different label for the same kernel is a warning that names
// the first, which the kernel keeps; k.named("label") likewise.
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

  // k.named(): the same rules.
  auto k = mstage::kernel([](mstage::vector_view<float> a) { a[0] = 3; }, 1, 1);
  // CHECK: kernel-label.cpp:[[@LINE+1]]:11: error: mstage: a kernel's label must be a string literal: mstage++ names the kernel when it compiles this call
  k.named(name)(v);
  k.named("third")(v);
  // CHECK: kernel-label.cpp:[[@LINE+1]]:11: warning: mstage: this kernel is labelled 'fourth' here, and 'third' before; a kernel has one name, the first label
  k.named("fourth")(v);
  // CHECK: kernel-label.cpp:[[@LINE-3]]:11: note: the first label
  // A kernel labelled by kernel("...") and again by named().
  // CHECK: kernel-label.cpp:[[@LINE+1]]:36: warning: mstage: this kernel is labelled 'fifth' here, and 'first' before; a kernel has one name, the first label
  mstage::kernel(body, 1, 1).named("fifth")(v);
  // CHECK: kernel-label.cpp:[[@LINE-18]]:18: note: the first label
}
