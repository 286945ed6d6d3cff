// A stage() error names its file:line:col whatever form of debug
// information the command line asks for: mstage++ keeps the line tables and
// columns it needs under -gz, -gsplit-dwarf, -gno-column-info and
// -gdwarf-aranges, alone or with -g, and under -g0.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: not %mstagexx -O2 -c %s -o %t/plain.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -gz -c %s -o %t/gz.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -gsplit-dwarf -c %s -o %t/split.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -gno-column-info -c %s -o %t/nocol.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -g -gz -gsplit-dwarf -gno-column-info -c %s -o %t/all.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O0 -g -g0 -gz -c %s -o %t/g0.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -gdwarf-aranges -c %s -o %t/aranges.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -gline-directives-only -c %s -o %t/directives.o 2>&1 | FileCheck %s --implicit-check-not=error:
//
// Without -g, -gsplit-dwarf gives no debug information, so no .dwo file
// beside the object:
// RUN: %mstagexx -O2 -gsplit-dwarf -DFROM=2 -c %s -o %t/valid.o
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=valid.dwo
// FILES: valid.o

#include <mstage.hpp>

#ifndef FROM
#define FROM tid
#endif

using namespace mstage;

int main() {
  std::vector<float> in(1024), out(1024);
  auto k = kernel(
      [](const auto &input, auto &output) {
        auto tid = Thread::get().index.x;
        // CHECK: stage-location-debug-flags.cpp:[[@LINE+1]]:18: error: mstage: the value passed to stage() depends on the thread index (Thread::get()), read at {{.*}}stage-location-debug-flags.cpp:[[@LINE-1]]:20;
        auto s = stage(FROM + 1);
        output[tid] = input[tid] * s;
      },
      4, 256);
  k(in, out);
}
