// printf that the host compiler simplifies to puts (a constant string ending
// in a newline, "%s\n") or putchar (one character, "%c") in a parallel_for or
// transform body is printf again on the device: the PTX calls vprintf and
// nothing else, and every launch runs (it failed with "calls 'puts', which
// no file compiled by mstage++ defines"). The CPU back end prints each line.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s --check-prefix=PTX --implicit-check-not=puts --implicit-check-not=putchar
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=CPU
// RUN: env MSTAGE_BACKEND=cpu %t | grep -c '^plain text$' | FileCheck %s --check-prefix=COUNT

#include <cstdio>
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

int main() {
  mstage::parallel_for(3, [](int) { std::printf("plain text\n"); });
  mstage::parallel_for(1, [](int) {
    const char *Word = "word";
    std::printf("%s\n", Word);
    std::printf("!");
    std::printf("%c", '\n');
  });
  mstage::device_vector<int> In(2), Out(2);
  mstage::iota(In, 0);
  mstage::transform(In, Out, [](int X) {
    std::printf("in transform\n");
    return X + 1;
  });
  std::vector<int> Got = Out.download();
  std::printf("done %d %d\n", Got[0], Got[1]);
}

// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX: call.uni (retval0), vprintf,

// CPU-DAG: word
// CPU-DAG: !
// CPU-DAG: in transform
// CPU: done 1 2

// COUNT: 3
