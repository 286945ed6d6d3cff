// The GPU suite's std_types program (std::span, mstage::mdspan, std::array,
// std::tuple, std::optional, std::pair, structured bindings, constexpr
// tables and concept-constrained templates in a kernel), built for release:
// it all ends up in registers, with no local memory and no call, and the
// constexpr table is folded (no global array is left in the PTX). With
// bounds checks on (-fmstage-checks), the only checked access is Out[I], which the
// kernel guards with `if (I >= Out.size()) return;`, so the optimizer removes
// the check: no __assertfail either (std::span's own accesses are unchecked).
//
// RUN: rm -rf %t.release %t.debug
// RUN: %mstagexx -O2 -std=c++20 -DNDEBUG -I%src_root/test/gpu %src_root/test/gpu/std_types.cpp -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.release %t | FileCheck %s --check-prefix=OUT
// RUN: cat %t.release/*.ptx | FileCheck %s --check-prefix=RELEASE
// RUN: %mstagexx -O2 -fmstage-checks -std=c++20 -I%src_root/test/gpu %src_root/test/gpu/std_types.cpp -o %t.dbg
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.debug %t.dbg
// RUN: cat %t.debug/*.ptx | FileCheck %s --check-prefix=DEBUG
// RUN: %ptxas -arch=sm_90 %t.release/*.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.debug/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

// OUT: SKIP std_types: PTX-only mode, result not checked

// RELEASE-NOT: .global
// RELEASE: .entry {{_ZN12_GLOBAL__N_13run[0-9]+kernel_L}}[[#]]E(
// RELEASE-NOT: .local
// RELEASE-NOT: call
// RELEASE: ld.global
// RELEASE-NOT: .local
// RELEASE-NOT: call
// RELEASE: st.global.b64
// RELEASE-NOT: call
// RELEASE: ret;

// DEBUG-NOT: __assertfail
// DEBUG: .entry {{_ZN12_GLOBAL__N_13run[0-9]+kernel_L}}[[#]]E(
// DEBUG-NOT: __assertfail
// DEBUG: st.global.b64
// DEBUG-NOT: __assertfail
