// Kernels can be launched from static initializers and static destructors:
// the file's kernels are registered before its own initializers run (even
// one of the first user priority, 101) and stay registered until after its
// destructors, also when nothing was launched before (Early) or the launch
// is the program's last act (Late's destructor).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

static void fill(std::vector<int> &V, int Base) {
  kernel([Base](auto &v) {
    auto i = Thread::get().global.x;
    v[i] = Base + int(i);
  }, 1, 4)(V);
}

static void tryLaunch(const char *When, int Base) {
  std::vector<int> V(4, -1);
  try {
    fill(V, Base);
    std::printf("%s: v[3]=%d\n", When, V[3]);
  } catch (const error &E) {
    std::printf("%s: %s\n", When, E.what());
  }
}

// Constructed before anything is launched: its destructor runs after the
// runtime's own statics that the first launch creates.
struct Late {
  ~Late() { tryLaunch("last destructor", 400); }
} TheLate;

struct Early {
  Early() { tryLaunch("constructor", 100); }
  ~Early() { tryLaunch("destructor", 300); }
} TheEarly;

__attribute__((constructor(101))) static void first() {
  tryLaunch("priority-101 constructor", 0);
}

int main() { tryLaunch("main", 200); }

// CHECK: priority-101 constructor: v[3]=3
// CHECK-NEXT: constructor: v[3]=103
// CHECK-NEXT: main: v[3]=203
// CHECK-NEXT: destructor: v[3]=303
// CHECK-NEXT: last destructor: v[3]=403
