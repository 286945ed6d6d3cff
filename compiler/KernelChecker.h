//===- KernelChecker.h - Reject kernel code the GPU cannot run -----------===//
//
// A kernel is the lambda handed to mstage::kernel(); its device entry point is
// the instantiation mstage::detail::kernel_entry<F, A...>. The checker walks
// everything the entry reaches and reports, at the offending source location,
// what cannot work on the device: captures that lead into host memory, calls
// to library functions that have no device version (a function of the
// program declared here but defined in another file is linked at launch),
// virtual calls, exceptions, RTTI, 'long double', thread_local, static local
// and host global variables, inline assembly, calls through function pointers
// from the host, conversions between floating point and integers wider than 64
// bits, dynamic stack allocation and nested kernel launches.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_COMPILER_KERNELCHECKER_H
#define MSTAGE_COMPILER_KERNELCHECKER_H

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace mstage {

// Returns every instantiation of mstage::detail::kernel_entry in the TU.
std::vector<const clang::FunctionDecl *>
findKernelEntries(clang::ASTContext &Ctx);

// Checks one kernel entry and everything it reaches; reports errors through
// Ctx.getDiagnostics() (custom diag IDs). Returns true when no error was found.
// Reached, if given, receives the definitions of the functions the kernel
// reaches, the entry included.
bool checkKernel(clang::ASTContext &Ctx, const clang::FunctionDecl *Entry,
                 std::vector<const clang::FunctionDecl *> *Reached = nullptr);

// Whether FD is a definition that kernels of other translation units may
// call (KernelChecker.cpp says which): the plugin tags it, and the
// extraction pass embeds its device code as an export.
bool isDeviceExportCandidate(clang::ASTContext &Ctx,
                             const clang::FunctionDecl *FD);

} // namespace mstage

#endif
