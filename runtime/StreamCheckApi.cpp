//===- StreamCheckApi.cpp - The C ABI of MSTAGE_CHECK=streams -------------===//
//
// What only the headers know, told to the checker (core/StreamCheck.h): the
// user's file:line of each operation, the memory a launch's vector
// arguments read and write, and the host's own uses of managed memory.
//
//===----------------------------------------------------------------------===//
#include "core/StreamCheck.h"
#include "support/Export.h"

#include "mstage/abi.h"

using namespace mstage::rt;

extern "C" {

MSTAGE_EXPORT int mstage_rt_check_streams(void) {
  return streamcheck::on() ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_check_site(const char *File, unsigned Line,
                                       const char *What, const void *Kernel) {
  return streamcheck::enterSite(File, Line, What, Kernel) ? 1 : 0;
}

MSTAGE_EXPORT void mstage_rt_check_site_end(void) { streamcheck::leaveSite(); }

MSTAGE_EXPORT void mstage_rt_check_use(const void *Ptr, size_t Bytes,
                                       int Written) {
  streamcheck::addPendingUse(Ptr, Bytes, Written != 0);
}

MSTAGE_EXPORT void mstage_rt_check_host_use(const void *Ptr, size_t Bytes,
                                            int Written, const char *File,
                                            unsigned Line, const char *What) {
  streamcheck::hostUsed(Ptr, Bytes, Written != 0, File, Line, What);
}

} // extern "C"
