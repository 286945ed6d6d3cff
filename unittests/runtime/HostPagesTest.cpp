//===- HostPagesTest.cpp - mstage_rt_prepare_host_buffer ------------------===//
#include "mstage/abi.h"

#include "gtest/gtest.h"

#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14, as runtime/HostPagesApi.cpp
#endif

namespace {

// A fresh anonymous mapping of Bytes: no page there until touched.
struct Fresh {
  explicit Fresh(size_t Bytes) : Bytes(Bytes) {
    P = static_cast<unsigned char *>(
        ::mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    // Small pages unless the call asks otherwise: where transparent huge
    // pages are always on, a touched page would bring in its 2 MiB.
    if (P != MAP_FAILED)
      ::madvise(P, Bytes, MADV_NOHUGEPAGE);
  }
  ~Fresh() { ::munmap(P, Bytes); }
  // How many of its pages are present.
  size_t resident() const {
    size_t Page = ::sysconf(_SC_PAGESIZE);
    std::vector<unsigned char> V((Bytes + Page - 1) / Page);
    EXPECT_EQ(::mincore(P, Bytes, V.data()), 0);
    size_t N = 0;
    for (unsigned char C : V)
      N += C & 1;
    return N;
  }
  unsigned char *P;
  size_t Bytes;
};

// Whether this kernel has MADV_POPULATE_WRITE (Linux 5.14); before it the
// call changes nothing.
bool canPopulate() {
  Fresh F(4096);
  return ::madvise(F.P, 4096, MADV_POPULATE_WRITE) == 0;
}

TEST(HostPagesTest, FreshBufferGetsItsPagesZeroed) {
  Fresh F(size_t(6) << 20);
  ASSERT_NE(F.P, MAP_FAILED);
  ASSERT_EQ(F.resident(), 0u);
  mstage_rt_prepare_host_buffer(F.P, F.Bytes);
  EXPECT_EQ(F.resident(),
            canPopulate() ? F.Bytes / ::sysconf(_SC_PAGESIZE) : 0u);
  for (size_t I = 0; I < F.Bytes; I += 4096)
    ASSERT_EQ(F.P[I], 0) << I;
}

TEST(HostPagesTest, UsedBufferIsLeftAsItIs) {
  Fresh F(size_t(4) << 20);
  ASSERT_NE(F.P, MAP_FAILED);
  std::memset(F.P, 0x5a, F.Bytes);
  size_t Pages = F.resident();
  mstage_rt_prepare_host_buffer(F.P, F.Bytes);
  EXPECT_EQ(F.resident(), Pages);
  for (size_t I = 0; I < F.Bytes; I += 4096)
    ASSERT_EQ(F.P[I], 0x5a) << I;
}

// A heap buffer whose first pages the program used and whose rest glibc
// gave back when it trimmed the heap's top: the rest is made, the used
// pages keep their bytes.
TEST(HostPagesTest, BufferUsedOnlyAtItsStartGetsTheRestMade) {
  Fresh F(size_t(4) << 20);
  ASSERT_NE(F.P, MAP_FAILED);
  std::memset(F.P, 0x5a, 8192);
  mstage_rt_prepare_host_buffer(F.P, F.Bytes);
  EXPECT_EQ(F.resident(),
            canPopulate() ? F.Bytes / ::sysconf(_SC_PAGESIZE) : 2u);
  EXPECT_EQ(F.P[0], 0x5a);
  EXPECT_EQ(F.P[8191], 0x5a);
  EXPECT_EQ(F.P[8192], 0);
  EXPECT_EQ(F.P[F.Bytes - 1], 0);
}

TEST(HostPagesTest, SmallBufferIsLeftToFault) {
  Fresh F(size_t(512) << 10);
  ASSERT_NE(F.P, MAP_FAILED);
  mstage_rt_prepare_host_buffer(F.P, F.Bytes);
  EXPECT_EQ(F.resident(), 0u);
}

TEST(HostPagesTest, UnalignedEndsAndNothingMappedAreHarmless) {
  Fresh F(size_t(3) << 20);
  ASSERT_NE(F.P, MAP_FAILED);
  mstage_rt_prepare_host_buffer(F.P + 100, F.Bytes - 200);
  // The partial first and last pages are not the call's.
  EXPECT_EQ(F.resident(),
            canPopulate() ? F.Bytes / ::sysconf(_SC_PAGESIZE) - 2 : 0u);
  // Unmapped memory: the hint fails quietly.
  void *Gone =
      ::mmap(nullptr, F.Bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(Gone, MAP_FAILED);
  ::munmap(Gone, F.Bytes);
  mstage_rt_prepare_host_buffer(Gone, F.Bytes);
  mstage_rt_prepare_host_buffer(nullptr, 0);
}

} // namespace
