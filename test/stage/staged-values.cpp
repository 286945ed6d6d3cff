// Staged values of every trivially copyable kind arrive in the PTX exactly:
// a float is not truncated, a double keeps all its bits, a struct arrives
// field by field, and ints of every width, bools and enums fold.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: %mstage_ptx %t | FileCheck %s --check-prefix=LIST
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <cstdint>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

enum class Mode : short { Add = 3, Mul = 7 };
struct Params {
  double scale;
  int32_t offset;
  char tag;
};

int main() {
  std::vector<double> out(16);
  float pi = 3.14159274f;
  double e = 2.718281828459045;
  Params p{0.1, -123456, 'z'};
  int64_t big = 0x123456789ABCDEF;
  int8_t small = -5;
  uint16_t u16 = 65535;
  bool flag = true;
  Mode mode = Mode::Mul;
  auto k = kernel(
      [=](auto &out) {
        auto sp = stage(p);
        out[0] = stage(pi);
        out[1] = stage(e);
        out[2] = sp.scale;
        out[3] = sp.offset;
        out[4] = sp.tag;
        out[5] = double(stage(big));
        out[6] = stage(small);
        out[7] = stage(u16);
        out[8] = stage(mode) == Mode::Mul ? 1.5 : 2.5;
        if (stage(flag))
          out[9] = stage([](int a, int b) { return a * b; }, 6, 7);
      },
      1, 1);
  k(out);
}

// MSTAGE_TRACE prints each staged value by its kind; a struct as its bytes.
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_TRACE=1 MSTAGE_CACHE=memory %t 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: mstage: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}staged-values.cpp:37:7' grid 1x1x1 block 1x1x1 shared 0 staged {line 38: 0x9a9999999999b93fc01dfeff7a{{[0-9a-f]+}}, line 39: 3.14159274, line 40: 2.7182818284590451, line 44: 81985529216486895, line 45: -5, line 46: 65535, line 47: 7, line 48: true, line 49: 42} cache miss: evaluate {{.*}} ms, optimize {{.*}} ms, codegen {{.*}} ms, load {{.*}} ms

// LIST: {{_ZN4main[0-9]+kernel_L37E}}  main::kernel_L{{[0-9]+}}@{{.*}}staged-values.cpp:37:7  (2 parameters, 9 stage sites)

// Each output is a double; the PTX stores them in pairs, by their bits.
// CHECK: .entry {{_ZN4main[0-9]+kernel_L37E}}(
// CHECK-NOT: ld.global
// pi as a float, widened (3.1415927410125732), and e (2.718281828459045)
// CHECK-DAG: st.global.v2.b64 [%rd{{[0-9]+}}], {0d400921FB60000000, 0d4005BF0A8B145769};
// the struct's double, int and char: 0.1, -123456, 'z'
// CHECK-DAG: st.global.v2.b64 [%rd{{[0-9]+}}+16], {0d3FB999999999999A, 0dC0FE240000000000};
// CHECK-DAG: st.global.v2.b64 [%rd{{[0-9]+}}+32], {0d405E800000000000, 0d43723456789ABCDF};
// int64 0x123456789ABCDEF (above), int8 -5, uint16 65535
// CHECK-DAG: st.global.v2.b64 [%rd{{[0-9]+}}+48], {0dC014000000000000, 0d40EFFFE000000000};
// the enum picks 1.5, the bool keeps the store of 6 * 7 = 42
// CHECK-DAG: st.global.v2.b64 [%rd{{[0-9]+}}+64], {0d3FF8000000000000, 0d4045000000000000};
// CHECK: ret;
