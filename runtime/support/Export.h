//===- Export.h - What the runtime library lets programs call ---*- C++ -*-===//
//
// The runtime is built with hidden visibility (runtime/CMakeLists.txt). A
// function that programs call (the C ABI of include/mstage/abi.h, the
// builtins of include/mstage/builtins.h that kernels call on the CPU) is
// marked MSTAGE_EXPORT where it is defined. It has C linkage from its
// declaration in those headers; one defined without such a declaration
// says `extern "C" MSTAGE_EXPORT`.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_SUPPORT_EXPORT_H
#define MSTAGE_RUNTIME_SUPPORT_EXPORT_H

#define MSTAGE_EXPORT __attribute__((visibility("default")))

#endif
