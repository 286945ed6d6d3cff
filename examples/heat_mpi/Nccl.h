// The few NCCL functions heat_mpi uses, loaded from libnccl.so.2 at run
// time: the program has no link-time dependency on NCCL, and runs without it
// (halos then go through MPI on host memory). The declarations follow
// nccl.h (NCCL 2.x), whose ABI is stable across 2.x releases.
#ifndef HEAT_MPI_NCCL_H
#define HEAT_MPI_NCCL_H

#include <dlfcn.h>

#include <cstddef>
#include <stdexcept>
#include <string>

struct CUstream_st;

namespace nccl {

using Comm = struct ncclComm *;
struct UniqueId {
  char internal[128];
};
using Result = int;              // ncclResult_t: 0 is ncclSuccess
enum DataType { Float64 = 8 };   // ncclFloat64
enum RedOp { Sum = 0, Max = 2 }; // ncclSum, ncclMax

class Library {
public:
  // Loads libnccl.so.2; ok() says whether it did, why() why not.
  Library() {
    Handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *E = dlerror();
      Why = E ? E : "libnccl.so.2 not found";
      return;
    }
    bool All = bind(GetUniqueId, "ncclGetUniqueId") &&
               bind(CommInitRank, "ncclCommInitRank") &&
               bind(CommDestroy, "ncclCommDestroy") && bind(Send, "ncclSend") &&
               bind(Recv, "ncclRecv") && bind(AllReduce, "ncclAllReduce") &&
               bind(GroupStart, "ncclGroupStart") &&
               bind(GroupEnd, "ncclGroupEnd") &&
               bind(GetErrorString, "ncclGetErrorString");
    if (!All)
      Handle = nullptr; // stays loaded; unloading NCCL is not safe
  }
  bool ok() const { return Handle != nullptr; }
  const std::string &why() const { return Why; }

  // Throws with NCCL's message when R is not success.
  void check(Result R, const char *What) const {
    if (R != 0)
      throw std::runtime_error(std::string("heat_mpi: ") + What + ": " +
                               GetErrorString(R));
  }

  Result (*GetUniqueId)(UniqueId *) = nullptr;
  Result (*CommInitRank)(Comm *, int, UniqueId, int) = nullptr;
  Result (*CommDestroy)(Comm) = nullptr;
  Result (*Send)(const void *, size_t, DataType, int, Comm,
                 CUstream_st *) = nullptr;
  Result (*Recv)(void *, size_t, DataType, int, Comm, CUstream_st *) = nullptr;
  Result (*AllReduce)(const void *, void *, size_t, DataType, RedOp, Comm,
                      CUstream_st *) = nullptr;
  Result (*GroupStart)() = nullptr;
  Result (*GroupEnd)() = nullptr;
  const char *(*GetErrorString)(Result) = nullptr;

private:
  template <class F> bool bind(F &Fn, const char *Name) {
    Fn = reinterpret_cast<F>(dlsym(Handle, Name));
    if (!Fn)
      Why = std::string("libnccl.so.2 does not export ") + Name;
    return Fn != nullptr;
  }

  void *Handle = nullptr;
  std::string Why;
};

} // namespace nccl

#endif
