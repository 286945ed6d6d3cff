// transform's kernel is tiled and specialized for the call: for 2^20 + 8
// floats compiled for sm_90 in PTX-only mode, views aligned for 16-byte
// chunks give four 16-byte loads (non-coherent: the input is only read) and
// four 16-byte stores a thread, each tile of 256 x 16 at constant offsets
// (4096 bytes apart) with the grid and the count folded, and one guarded
// element a chunk for the last, partial tile; a view one element in gives
// no vector access at all. ptxas accepts both.
//
// RUN: %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: rm -rf %t.a %t.u
// RUN: env MSTAGE_CACHE=off MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.a %t 0
// RUN: cat %t.a/*.ptx | FileCheck %s --check-prefix=ALIGNED
// RUN: env MSTAGE_CACHE=off MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.u %t 1
// RUN: cat %t.u/*.ptx | FileCheck %s --check-prefix=OFFSET
// RUN: bash -c "for f in %t.a/*.ptx %t.u/*.ptx; do %ptxas -arch=sm_90 \$f -o /dev/null || exit 1; done"
// REQUIRES: ptxas
// UNSUPPORTED: gpu
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int off = argc > 1 ? std::atoi(argv[1]) : 0;
  std::size_t n = (std::size_t(1) << 20) + 8;
  mstage::device_vector<float> x(n + 1), y(n + 1);
  mstage::vector_view<const float> in(x.data() + off, n);
  mstage::vector_view<float> out(y.data() + off, n);
  mstage::transform(in, out, [](float v) { return 2.0f * v + 1.0f; });
  std::printf("transform of %zu floats compiled\n", n);
}

// ALIGNED: .reqntid 256, 1, 1
// ALIGNED-NOT: %nctaid
// ALIGNED-DAG: ld.global.nc.v4.b32 {{.*}}[%rd{{[0-9]+}}];
// ALIGNED-DAG: ld.global.nc.v4.b32 {{.*}}+4096];
// ALIGNED-DAG: ld.global.nc.v4.b32 {{.*}}+8192];
// ALIGNED-DAG: ld.global.nc.v4.b32 {{.*}}+12288];
// ALIGNED-DAG: st.global.v4.b32 {{.*}}+12288]
// ALIGNED-DAG: setp.{{.*}}, 256;
// ALIGNED-DAG: fma.rn.f32 {{.*}}, 0f40000000, 0f3F800000;
// ALIGNED-NOT: %ntid
// ALIGNED-NOT: %nctaid

// OFFSET: .reqntid 256, 1, 1
// OFFSET-NOT: .v4.
// OFFSET: ld.global.nc.b32
// OFFSET-NOT: .v4.
