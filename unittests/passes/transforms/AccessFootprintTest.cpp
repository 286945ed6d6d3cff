//===- AccessFootprintTest.cpp - Tests of launches' footprints ------------===//
//
// The kernels are written as mstage's front end makes them (byval
// parameters: a lambda object with the field's edge, views of a pointer and
// a size), bound to a launch's bytes, optimized at O2 and measured.
//
//===----------------------------------------------------------------------===//
#include "transforms/AccessFootprint.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace llvm;
using namespace mstage;

namespace {

const char *Header = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
)";

// heat's interior: unew[i*N+j] from uold's four neighbours, for
// 1 <= i, j < N-1; a 64 x 64 grid of threads (blocks of 32 x 8).
const char *Interior = R"(
define ptx_kernel void @interior(ptr byval([8 x i8]) align 8 %0, ptr byval([16 x i8]) align 8 %1, ptr byval([16 x i8]) align 8 %2) {
  %n = load i64, ptr %0, align 8
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !0
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !range !1
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !2
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !range !1
  %bx32 = shl nuw nsw i32 %bx, 5
  %j32 = or disjoint i32 %bx32, %tx
  %by8 = shl nuw nsw i32 %by, 3
  %i32 = or disjoint i32 %by8, %ty
  %i = zext nneg i32 %i32 to i64
  %j = zext nneg i32 %j32 to i64
  %i0 = icmp eq i32 %i32, 0
  br i1 %i0, label %out, label %check

check:
  %i1 = add nuw nsw i64 %i, 1
  %iok = icmp ult i64 %i1, %n
  %jnz = icmp ne i32 %j32, 0
  %c1 = and i1 %jnz, %iok
  %j1 = add nuw nsw i64 %j, 1
  %jok = icmp ult i64 %j1, %n
  %c = select i1 %c1, i1 %jok, i1 false
  br i1 %c, label %body, label %out

body:
  %im = add nsw i64 %i, -1
  %rowm = mul i64 %n, %im
  %old = load ptr, ptr %1, align 8
  %pm = getelementptr float, ptr %old, i64 %rowm
  %pm2 = getelementptr float, ptr %pm, i64 %j
  %a = load float, ptr %pm2, align 4
  %rowp = mul i64 %n, %i1
  %pp = getelementptr float, ptr %old, i64 %rowp
  %pp2 = getelementptr float, ptr %pp, i64 %j
  %b = load float, ptr %pp2, align 4
  %s1 = fadd float %a, %b
  %row = mul i64 %n, %i
  %ij = add i64 %row, %j
  %pc = getelementptr float, ptr %old, i64 %ij
  %pr = getelementptr i8, ptr %pc, i64 4
  %c3 = load float, ptr %pr, align 4
  %s2 = fadd float %s1, %c3
  %pl = getelementptr i8, ptr %pc, i64 -4
  %d = load float, ptr %pl, align 4
  %s3 = fadd float %s2, %d
  %v = fmul float %s3, 2.500000e-01
  %new = load ptr, ptr %2, align 8
  %pn = getelementptr inbounds nuw float, ptr %new, i64 %ij
  store float %v, ptr %pn, align 4
  br label %out

out:
  ret void
}
)";

// heat's boundary: for t < N, u[t*N] and u[t*N+N-1], and for 0 < t < N,
// u[t] and u[(N-1)*N+t]; 64 threads.
const char *Boundary = R"(
define ptx_kernel void @boundary(ptr byval([8 x i8]) align 8 %0, ptr byval([16 x i8]) align 8 %1) {
  %n = load i64, ptr %0, align 8
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %t = zext nneg i32 %tx to i64
  %in = icmp ugt i64 %n, %t
  br i1 %in, label %edges, label %out

edges:
  %tn = mul i64 %n, %t
  %u = load ptr, ptr %1, align 8
  %p0 = getelementptr float, ptr %u, i64 %tn
  store float 1.000000e+00, ptr %p0, align 4
  %p1 = getelementptr float, ptr %p0, i64 %n
  %p2 = getelementptr i8, ptr %p1, i64 -4
  store float 0.000000e+00, ptr %p2, align 4
  %t0 = icmp eq i32 %tx, 0
  br i1 %t0, label %out, label %rows

rows:
  %p3 = getelementptr inbounds nuw float, ptr %u, i64 %t
  %nm = add i64 %n, -1
  %last = mul i64 %nm, %n
  %p4 = getelementptr float, ptr %u, i64 %last
  %p5 = getelementptr float, ptr %p4, i64 %t
  store float 0.000000e+00, ptr %p3, align 4
  store float 0.000000e+00, ptr %p5, align 4
  br label %out

out:
  ret void
}
)";

// Writes u[idx[t]]: the address is loaded from memory.
const char *Scatter = R"(
define ptx_kernel void @scatter(ptr byval([16 x i8]) align 8 %0, ptr byval([16 x i8]) align 8 %1) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %t = zext nneg i32 %tx to i64
  %idx = load ptr, ptr %0, align 8
  %pi = getelementptr i64, ptr %idx, i64 %t
  %k = load i64, ptr %pi, align 8
  %u = load ptr, ptr %1, align 8
  %pu = getelementptr float, ptr %u, i64 %k
  store float 1.000000e+00, ptr %pu, align 4
  ret void
}
)";

// Writes u[t + Shift] for every thread, unguarded.
const char *Shifted = R"(
define ptx_kernel void @shifted(ptr byval([8 x i8]) align 8 %0, ptr byval([16 x i8]) align 8 %1) {
  %s = load i64, ptr %0, align 8
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %t = zext nneg i32 %tx to i64
  %k = add i64 %t, %s
  %u = load ptr, ptr %1, align 8
  %pu = getelementptr float, ptr %u, i64 %k
  store float 1.000000e+00, ptr %pu, align 4
  ret void
}
)";

// heat's interior as the optimizer leaves it when the grid covers the
// field exactly (N = 1024, 32 x 8 blocks of 32 x 128): "not 0 and not
// 1023" is a switch on the row and one on the column.
const char *Switched = R"(
define ptx_kernel void @switched(ptr byval([16 x i8]) align 8 %0) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !0
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !range !1
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !0
  %bx32 = shl nuw nsw i32 %bx, 5
  %j = or disjoint i32 %bx32, %tx
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !range !3
  %by8 = shl nuw nsw i32 %by, 3
  %i = or disjoint i32 %by8, %ty
  switch i32 %i, label %cols [
    i32 0, label %out
    i32 1023, label %out
  ]
cols:
  switch i32 %j, label %body [
    i32 1023, label %out
    i32 0, label %out
  ]
body:
  %row = shl nuw nsw i32 %i, 10
  %ij = or disjoint i32 %row, %j
  %k = zext nneg i32 %ij to i64
  %u = load ptr, ptr %0, align 8
  %p = getelementptr inbounds nuw float, ptr %u, i64 %k
  store float 1.000000e+00, ptr %p, align 4
  br label %out
out:
  ret void
}
)";

// The same at N = 256 (8 x 32 blocks), as the optimizer checks it: the
// row's and the column's low byte, less one, below 254.
const char *Truncated = R"(
define ptx_kernel void @truncated(ptr byval([16 x i8]) align 8 %0) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !0
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !range !1
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !1
  %bx32 = shl nuw nsw i32 %bx, 5
  %j = or disjoint i32 %bx32, %tx
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !range !0
  %by8 = shl nuw nsw i32 %by, 3
  %i = or disjoint i32 %by8, %ty
  %i64 = zext nneg i32 %i to i64
  %j64 = zext nneg i32 %j to i64
  %ti = trunc nuw i32 %i to i8
  %ti.off = add i8 %ti, -1
  %iok = icmp ult i8 %ti.off, -2
  br i1 %iok, label %cols, label %out
cols:
  %tj = trunc nuw i32 %j to i8
  %tj.off = add i8 %tj, -1
  %jok = icmp ult i8 %tj.off, -2
  br i1 %jok, label %body, label %out
body:
  %row = shl nuw nsw i64 %i64, 8
  %ij = or disjoint i64 %row, %j64
  %u = load ptr, ptr %0, align 8
  %p = getelementptr inbounds nuw float, ptr %u, i64 %ij
  store float 1.000000e+00, ptr %p, align 4
  br label %out
out:
  ret void
}
)";

// Writes u[zext(t - 1)] (t - 1 in i32): thread 0's index is 2^32 - 1.
const char *Wrapped = R"(
define ptx_kernel void @wrapped(ptr byval([16 x i8]) align 8 %0) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %m = add i32 %tx, -1
  %k = zext i32 %m to i64
  %u = load ptr, ptr %0, align 8
  %pu = getelementptr float, ptr %u, i64 %k
  store float 1.000000e+00, ptr %pu, align 4
  ret void
}
)";

// u[t] through a call that LLVM cannot see into; a shared array; a memset
// of u's first 64 bytes.
const char *Others = R"(
@tile = internal addrspace(3) global [64 x float] undef
declare void @opaque(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define ptx_kernel void @callsout(ptr byval([16 x i8]) align 8 %0) {
  %u = load ptr, ptr %0, align 8
  call void @opaque(ptr %u)
  ret void
}
define ptx_kernel void @shared(ptr byval([16 x i8]) align 8 %0) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %p = getelementptr float, ptr addrspace(3) @tile, i32 %tx
  store volatile float 1.0, ptr addrspace(3) %p, align 4
  %u = load ptr, ptr %0, align 8
  call void @llvm.memset.p0.i64(ptr %u, i8 0, i64 64, i1 false)
  ret void
}
)";

// A grid-stride loop that reads a[0..cells) and adds into result[0].
const char *Residual = R"(
define ptx_kernel void @residual(ptr byval([8 x i8]) align 8 %0, ptr byval([16 x i8]) align 8 %1, ptr byval([16 x i8]) align 8 %2) {
entry:
  %cells = load i64, ptr %0, align 8
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %t = zext nneg i32 %tx to i64
  %a = load ptr, ptr %1, align 8
  %r = load ptr, ptr %2, align 8
  %go = icmp ult i64 %t, %cells
  br i1 %go, label %loop, label %done

loop:
  %k = phi i64 [ %t, %entry ], [ %k1, %loop ]
  %m = phi float [ 0.0, %entry ], [ %m1, %loop ]
  %pa = getelementptr float, ptr %a, i64 %k
  %x = load float, ptr %pa, align 4
  %m1 = call float @llvm.maxnum.f32(float %m, float %x)
  %k1 = add nuw i64 %k, 64
  %more = icmp ult i64 %k1, %cells
  br i1 %more, label %loop, label %done

done:
  %mf = phi float [ 0.0, %entry ], [ %m1, %loop ]
  %bits = bitcast float %mf to i32
  %old = atomicrmw umax ptr %r, i32 %bits monotonic, align 4
  ret void
}
declare float @llvm.maxnum.f32(float, float)
)";

const char *Ranges = R"(
!0 = !{i32 0, i32 32}
!1 = !{i32 0, i32 8}
!2 = !{i32 0, i32 64}
!3 = !{i32 0, i32 128}
)";

std::string bytesOf(std::initializer_list<uint64_t> Words) {
  std::string S(Words.size() * 8, '\0');
  size_t I = 0;
  for (uint64_t W : Words)
    std::memcpy(&S[8 * I++], &W, 8);
  return S;
}

// The footprint of Kernel (its source) launched with Params.
AccessFootprint footprint(const char *Kernel, StringRef Name,
                          std::vector<std::string> Params,
                          size_t MaxRanges = size_t(1) << 20) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::string Source = std::string(Header) + Kernel + Ranges;
  std::unique_ptr<Module> M = parseAssemblyString(Source, Err, Ctx);
  if (!M) {
    ADD_FAILURE() << Err.getMessage().str();
    return {};
  }
  Function *F = M->getFunction(Name);
  std::vector<StringRef> Refs(Params.begin(), Params.end());
  bindParameters(*F, Refs);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(*M, MAM);
  return computeAccessFootprint(*F, MaxRanges);
}

constexpr uint64_t A = 0x10000, B = 0x20000, N = 64;
std::string view(uint64_t P) { return bytesOf({P, N * N}); }

TEST(AccessFootprint, HeatInteriorWritesTheInteriorRowByRow) {
  AccessFootprint I =
      footprint(Interior, "interior", {bytesOf({N}), view(A), view(B)});
  ASSERT_TRUE(I.Bounded);
  ASSERT_EQ(I.Writes.size(), N - 2);
  for (uint64_t Row = 1; Row + 1 < N; ++Row)
    EXPECT_EQ(I.Writes[Row - 1],
              (ByteRange{B + 4 * (Row * N + 1), B + 4 * (Row * N + N - 1)}));
  // Rows 0 to N-1, each but its corners: apart only at the corners.
  ASSERT_FALSE(I.Reads.empty());
  EXPECT_EQ(I.Reads.front().Begin, A + 4);
  EXPECT_EQ(I.Reads.back().End, A + 4 * (N * N - 1));
}

TEST(AccessFootprint, HeatInteriorAndBoundaryOfOneStepAreApart) {
  AccessFootprint I =
      footprint(Interior, "interior", {bytesOf({N}), view(A), view(B)});
  AccessFootprint Bd = footprint(Boundary, "boundary", {bytesOf({N}), view(B)});
  ASSERT_TRUE(I.Bounded);
  ASSERT_TRUE(Bd.Bounded);
  EXPECT_TRUE(Bd.Reads.empty());
  EXPECT_FALSE(accessesMeet(I, Bd));
  EXPECT_FALSE(accessesMeet(Bd, I));
}

TEST(AccessFootprint, HeatStepsMeetTheStepsAroundThem) {
  AccessFootprint I1 =
      footprint(Interior, "interior", {bytesOf({N}), view(A), view(B)});
  AccessFootprint B1 = footprint(Boundary, "boundary", {bytesOf({N}), view(B)});
  AccessFootprint I2 =
      footprint(Interior, "interior", {bytesOf({N}), view(B), view(A)});
  AccessFootprint B2 = footprint(Boundary, "boundary", {bytesOf({N}), view(A)});
  EXPECT_TRUE(accessesMeet(I1, I2)); // reads what the other writes
  EXPECT_TRUE(accessesMeet(B1, I2)); // the next step reads the boundary
  EXPECT_TRUE(accessesMeet(I1, B2)); // the next boundary overwrites A's
  EXPECT_FALSE(accessesMeet(I2, B2));
  EXPECT_TRUE(accessesMeet(B1, B1));
}

TEST(AccessFootprint, AnotherEdgeIsAnotherFootprint) {
  // The field's edge is 32 here: the interior of a 32-wide field's rows
  // overlaps the boundary of a 64-wide one.
  AccessFootprint I =
      footprint(Interior, "interior", {bytesOf({32}), view(A), view(B)});
  AccessFootprint Bd = footprint(Boundary, "boundary", {bytesOf({N}), view(B)});
  ASSERT_TRUE(I.Bounded);
  EXPECT_TRUE(accessesMeet(I, Bd));
}

TEST(AccessFootprint, AnAddressFromMemoryIsUnbounded) {
  AccessFootprint S = footprint(Scatter, "scatter", {view(A), view(B)});
  EXPECT_FALSE(S.Bounded);
  AccessFootprint Bd = footprint(Boundary, "boundary", {bytesOf({N}), view(A)});
  EXPECT_TRUE(accessesMeet(S, Bd));
}

TEST(AccessFootprint, NeighbouringWritesMeet) {
  AccessFootprint S0 = footprint(Shifted, "shifted", {bytesOf({0}), view(B)});
  AccessFootprint S64 = footprint(Shifted, "shifted", {bytesOf({64}), view(B)});
  AccessFootprint S63 = footprint(Shifted, "shifted", {bytesOf({63}), view(B)});
  ASSERT_TRUE(S0.Bounded);
  ASSERT_EQ(S0.Writes.size(), 1u);
  EXPECT_EQ(S0.Writes[0], (ByteRange{B, B + 4 * 64}));
  EXPECT_FALSE(accessesMeet(S0, S64));
  EXPECT_TRUE(accessesMeet(S0, S63));
}

TEST(AccessFootprint, ASwitchsDefaultExcludesItsCases) {
  AccessFootprint S = footprint(Switched, "switched", {view(B)});
  ASSERT_TRUE(S.Bounded);
  ASSERT_EQ(S.Writes.size(), 1022u);
  EXPECT_EQ(S.Writes.front(),
            (ByteRange{B + 4 * (1024 + 1), B + 4 * (2 * 1024 - 1)}));
  EXPECT_EQ(S.Writes.back(),
            (ByteRange{B + 4 * (1022 * 1024 + 1), B + 4 * (1023 * 1024 - 1)}));
}

TEST(AccessFootprint, AConditionOnATruncationBoundsTheValue) {
  AccessFootprint S = footprint(Truncated, "truncated", {view(B)});
  ASSERT_TRUE(S.Bounded);
  ASSERT_EQ(S.Writes.size(), 254u);
  EXPECT_EQ(S.Writes.front(),
            (ByteRange{B + 4 * (256 + 1), B + 4 * (2 * 256 - 1)}));
  EXPECT_EQ(S.Writes.back(),
            (ByteRange{B + 4 * (254 * 256 + 1), B + 4 * (255 * 256 - 1)}));
}

TEST(AccessFootprint, AWrappedIndexIsReadAsItsConsumerReadsIt) {
  // Thread 0 writes 16 GiB past B; the others B's first 63 floats.
  AccessFootprint W = footprint(Wrapped, "wrapped", {view(B)});
  AccessFootprint Far = footprint(
      Shifted, "shifted", {bytesOf({(uint64_t(1) << 32) - 1}), view(B)});
  ASSERT_TRUE(W.Bounded);
  EXPECT_TRUE(accessesMeet(W, Far));
  EXPECT_GE(W.Writes.back().End, B + 4 * (uint64_t(1) << 32));
}

TEST(AccessFootprint, ACallThatMayTouchMemoryIsUnbounded) {
  EXPECT_FALSE(footprint(Others, "callsout", {view(B)}).Bounded);
}

TEST(AccessFootprint, SharedMemoryIsTheBlocksAndAMemsetItsBytes) {
  AccessFootprint S = footprint(Others, "shared", {view(B)});
  ASSERT_TRUE(S.Bounded);
  EXPECT_TRUE(S.Reads.empty());
  EXPECT_EQ(S.Writes, (std::vector<ByteRange>{{B, B + 64}}));
}

TEST(AccessFootprint, AnUnboundParameterIsUnbounded) {
  // The views' bytes are missing: their pointers are not known.
  AccessFootprint S = footprint(Shifted, "shifted", {bytesOf({0})});
  EXPECT_FALSE(S.Bounded);
}

TEST(AccessFootprint, AGridStrideLoopReadsItsCells) {
  AccessFootprint R =
      footprint(Residual, "residual", {bytesOf({N * N}), view(A), view(B)});
  ASSERT_TRUE(R.Bounded);
  ASSERT_EQ(R.Reads.size(), 2u);
  EXPECT_EQ(R.Reads[0], (ByteRange{A, A + 4 * N * N}));
  EXPECT_EQ(R.Reads[1], (ByteRange{B, B + 4}));
  ASSERT_EQ(R.Writes.size(), 1u);
  EXPECT_EQ(R.Writes[0], (ByteRange{B, B + 4}));
}

TEST(AccessFootprint, TooManyRangesWidenToTheirSpan) {
  std::vector<std::string> Params = {bytesOf({N}), view(A), view(B)};
  AccessFootprint I = footprint(Interior, "interior", Params);
  // With room for 10 ranges: each list is one span.
  AccessFootprint W = footprint(Interior, "interior", Params, 10);
  ASSERT_TRUE(I.Bounded);
  ASSERT_TRUE(W.Bounded);
  ASSERT_EQ(W.Writes.size(), 1u);
  EXPECT_EQ(W.Writes[0].Begin, I.Writes.front().Begin);
  EXPECT_EQ(W.Writes[0].End, I.Writes.back().End);
}

TEST(AccessFootprint, RangesMergeWhereTheyTouch) {
  std::vector<ByteRange> R = {{8, 12}, {0, 4}, {4, 8}, {20, 24}, {22, 30}};
  normalizeRanges(R);
  EXPECT_EQ(R, (std::vector<ByteRange>{{0, 12}, {20, 30}}));
}

} // namespace
