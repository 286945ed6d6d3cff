//===- LoadApart.cpp - A launch's code loaded on a thread of its own ------===//
#include "launch/LoadApart.h"

#include <optional>
#include <pthread.h>

namespace mstage::rt {

namespace {
struct Job {
  llvm::function_ref<llvm::Error()> Load;
  std::optional<llvm::Error> Result;
};
} // namespace

llvm::Error loadApart(llvm::function_ref<llvm::Error()> Load) {
  Job J{Load, std::nullopt};
  pthread_t T;
  auto Run = [](void *P) -> void * {
    auto *J = static_cast<Job *>(P);
    J->Result.emplace(J->Load());
    return nullptr;
  };
  // As the launching thread's, so that a compile of a damaged entry fits.
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, 8u << 20);
  int Made = pthread_create(&T, &Attr, Run, &J);
  pthread_attr_destroy(&Attr);
  if (Made != 0)
    return Load();
  pthread_join(T, nullptr);
  return std::move(*J.Result);
}

} // namespace mstage::rt
