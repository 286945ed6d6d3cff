// MSTAGE_DUMP writes the files of a kernel whose name is longer than a file
// name may be (a heavily templated enclosing function): the name is cut to
// 100 characters, followed by "~" and the hash of the whole name; the
// sidecar gives the whole name. Short names are kept as they are.
//
// RUN: rm -rf %t.dump && %mstagexx -O1 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: ls %t.dump | FileCheck %s --check-prefix=FILES
// RUN: cat %t.dump/*.json | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

template <class T> struct AnUnreasonablyLongTemplateNameForAType {};
template <class T>
using Nest = AnUnreasonablyLongTemplateNameForAType<
    AnUnreasonablyLongTemplateNameForAType<
        AnUnreasonablyLongTemplateNameForAType<T>>>;
using Heavy = Nest<Nest<Nest<int>>>;

template <class T> void run(std::vector<int> &V) {
  kernel([](auto &v) { v[Thread::get().global.x] = 1; }, 1, 4)(V);
}

int main() {
  std::vector<int> V(4);
  run<Heavy>(V);
  kernel([](auto &v) { v[Thread::get().global.x] = 2; }, 1, 4)(V);
  std::printf("done\n");
}

// OUT-NOT: cannot write
// OUT: done
// FILES-DAG: {{^_ZN4main[0-9]+kernel_L33E-[0-9a-f]{16}\.json$}}
// FILES-DAG: {{^_ZN[0-9]+run_AnUnreasonablyLongTemplateNameForAType_AnUnreasonablyLongTemplateNameForAType_[A-Za-z_]+~[0-9a-f]{16}-[0-9a-f]{16}\.json$}}
// FILES-DAG: {{^_ZN[0-9]+run_AnUnreasonablyLongTemplateNameForAType_AnUnreasonablyLongTemplateNameForAType_[A-Za-z_]+~[0-9a-f]{16}-[0-9a-f]{16}\.ptx$}}
// JSON: "kernel": "_ZN{{[0-9]+}}run_AnUnreasonablyLongTemplateNameForAType_{{(AnUnreasonablyLongTemplateNameForAType_){8}int10kernel_L27E}}"
