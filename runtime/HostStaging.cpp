//===- HostStaging.cpp - Downloads through page-locked chunks -------------===//
#include "HostStaging.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"

#include <algorithm>
#include <mutex>

namespace mstage::rt {

namespace {

constexpr size_t ChunkBytes = size_t(4) << 20;
// Below this the pageable copy's own cost is small (and its buffer's
// zeroing too).
constexpr size_t MinStagedBytes = size_t(256) << 10;

// The process's two chunks, made at the first staged download. Never freed:
// a download may come from a static destructor, and the driver takes the
// memory back at exit.
struct Staging {
  std::mutex Lock;
  char *Chunk[2] = {nullptr, nullptr};
  bool Unavailable = false; // the page-locked allocation failed
};

Staging &staging() {
  static Staging *S = new Staging;
  return *S;
}

} // namespace

int downloadStaged(Stream &S, const void *Src, size_t Bytes,
                   size_t ElementBytes, mstage_chunk_sink Sink, void *Context,
                   bool &Staged) {
  Staged = false;
  const Backend &B = backend();
  if (!B.loadsCode() || S.capturing() || Bytes < MinStagedBytes ||
      ElementBytes == 0 || ElementBytes > ChunkBytes)
    return 0;
  Staging &St = staging();
  // Another thread's download holds the chunks: this one goes the plain
  // way rather than wait (no slower than before the chunks).
  std::unique_lock<std::mutex> Hold(St.Lock, std::try_to_lock);
  if (!Hold.owns_lock() || St.Unavailable)
    return 0;
  if (!St.Chunk[0]) {
    void *P = nullptr;
    if (llvm::Error E = B.allocHost(2 * ChunkBytes, &P)) {
      // Page-locked memory is a speed-up here, not a need.
      llvm::consumeError(std::move(E));
      St.Unavailable = true;
      return 0;
    }
    St.Chunk[0] = static_cast<char *>(P);
    St.Chunk[1] = St.Chunk[0] + ChunkBytes;
  }
  Staged = true;
  // Each chunk holds whole elements.
  const size_t Step = ChunkBytes / ElementBytes * ElementBytes;
  const size_t Chunks = (Bytes + Step - 1) / Step;
  auto length = [&](size_t K) { return std::min(Step, Bytes - K * Step); };
  auto issue = [&](size_t K) {
    return B.copyToHostAsync(S, St.Chunk[K % 2],
                             static_cast<const char *>(Src) + K * Step,
                             length(K));
  };
  if (int Status = issue(0))
    return Status;
  if (int Status = toStatus(synchronizeStream(S)))
    return Status;
  for (size_t K = 0; K < Chunks; ++K) {
    // Chunk K+1's DMA runs while the host takes chunk K.
    if (K + 1 < Chunks)
      if (int Status = issue(K + 1))
        return Status;
    Sink(Context, St.Chunk[K % 2], length(K));
    if (K + 1 < Chunks)
      if (int Status = toStatus(synchronizeStream(S)))
        return Status;
  }
  return 0;
}

} // namespace mstage::rt
