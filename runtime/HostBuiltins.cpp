//===- HostBuiltins.cpp - Host definitions of the device builtins ---------===//
//
// The host copy of every kernel references the builtins of
// include/mstage/builtins.h. Nothing on the host runs a kernel body yet, so
// they describe a single thread of a single block, with 48 KiB of dynamic
// shared memory. A failed check prints what the device would and aborts.
//
//===----------------------------------------------------------------------===//
#include "mstage/builtins.h"

#include "DeviceBuiltins.h"

#include <cstdio>
#include <cstdlib>

#define MSTAGE_EXPORT __attribute__((visibility("default")))

extern "C" {
MSTAGE_EXPORT unsigned __mstage_tid_x(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_tid_y(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_tid_z(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_ntid_x(void) { return 1; }
MSTAGE_EXPORT unsigned __mstage_ntid_y(void) { return 1; }
MSTAGE_EXPORT unsigned __mstage_ntid_z(void) { return 1; }
MSTAGE_EXPORT unsigned __mstage_ctaid_x(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_ctaid_y(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_ctaid_z(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_nctaid_x(void) { return 1; }
MSTAGE_EXPORT unsigned __mstage_nctaid_y(void) { return 1; }
MSTAGE_EXPORT unsigned __mstage_nctaid_z(void) { return 1; }
MSTAGE_EXPORT void __mstage_barrier(void) {}
alignas(16) static unsigned char Shared[48 * 1024];
MSTAGE_EXPORT void *__mstage_shared_base(void) { return Shared; }
MSTAGE_EXPORT unsigned __mstage_dynamic_shared_size(void) {
  return sizeof(Shared);
}
MSTAGE_EXPORT void __mstage_check_bounds(long long Index,
                                         unsigned long long Size,
                                         const char *What, const char *File,
                                         unsigned Line, const char *Function) {
  if (static_cast<unsigned long long>(Index) < Size)
    return;
  std::fprintf(stderr, mstage::BoundsCheckFormat, File, Line, Function, Index,
               What, Size);
  std::abort();
}
MSTAGE_EXPORT void __mstage_check_shared(unsigned long long Needed,
                                         unsigned long long Available,
                                         const char *File, unsigned Line,
                                         const char *Function) {
  if (Needed <= Available)
    return;
  std::fprintf(stderr, mstage::SharedCheckFormat, File, Line, Function, Needed,
               Available);
  std::abort();
}
MSTAGE_EXPORT void __mstage_check_barrier(const char *, unsigned,
                                          const char *) {
  __mstage_barrier();
}
// A warp of one lane: the lane's own value, and votes on its predicate.
MSTAGE_EXPORT unsigned __mstage_lane_id(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_activemask(void) { return 1; }
MSTAGE_EXPORT void __mstage_syncwarp(unsigned) {}
MSTAGE_EXPORT unsigned __mstage_ballot(unsigned Mask, int Pred) {
  return (Mask & 1) && Pred ? 1 : 0;
}
MSTAGE_EXPORT int __mstage_any(unsigned, int Pred) { return Pred != 0; }
MSTAGE_EXPORT int __mstage_all(unsigned, int Pred) { return Pred != 0; }
MSTAGE_EXPORT int __mstage_shfl_i32(unsigned, int Value, int, int) {
  return Value;
}
MSTAGE_EXPORT int __mstage_shfl_up_i32(unsigned, int Value, unsigned, int) {
  return Value;
}
MSTAGE_EXPORT int __mstage_shfl_down_i32(unsigned, int Value, unsigned, int) {
  return Value;
}
MSTAGE_EXPORT int __mstage_shfl_xor_i32(unsigned, int Value, int, int) {
  return Value;
}
}
