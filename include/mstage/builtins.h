/* Device builtins used by the mstage headers.
 *
 * In the host object these are ordinary external functions, defined by the
 * runtime (where a CPU back end gives them meaning). In the device module the
 * extraction pass replaces each call with the matching NVVM intrinsic, so the
 * names below are a contract with passes/transforms/DeviceBuiltins.cpp. */
#ifndef MSTAGE_BUILTINS_H
#define MSTAGE_BUILTINS_H

/* The launch's extents and shared-memory size are the same wherever a kernel
 * reads them. On the device they become special-register reads (or
 * constants); on the host (the CPU back end) they are calls into the runtime,
 * and without `const` the optimizer must keep every one, even in an inner
 * loop that never uses the result: a shared_memory access with bounds checks
 * off still asks for the size (measured in docs/performance.md, "CPU back
 * end"). The thread and block indices and the shared base stay plain calls:
 * stage()'s slicer reports where each of those is read, and merging the reads
 * would report the first one instead (test/stage/misuse.cpp). */
#ifndef MSTAGE_LAUNCH_CONST
#define MSTAGE_LAUNCH_CONST __attribute__((const, nothrow))
#endif

#ifdef __cplusplus
extern "C" {
#endif

unsigned __mstage_tid_x(void);
unsigned __mstage_tid_y(void);
unsigned __mstage_tid_z(void);
unsigned __mstage_ntid_x(void) MSTAGE_LAUNCH_CONST;
unsigned __mstage_ntid_y(void) MSTAGE_LAUNCH_CONST;
unsigned __mstage_ntid_z(void) MSTAGE_LAUNCH_CONST;
unsigned __mstage_ctaid_x(void);
unsigned __mstage_ctaid_y(void);
unsigned __mstage_ctaid_z(void);
unsigned __mstage_nctaid_x(void) MSTAGE_LAUNCH_CONST;
unsigned __mstage_nctaid_y(void) MSTAGE_LAUNCH_CONST;
unsigned __mstage_nctaid_z(void) MSTAGE_LAUNCH_CONST;
void __mstage_barrier(void);
/* Start of the launch's dynamic shared memory (16-byte aligned). */
void *__mstage_shared_base(void);
/* Size in bytes of the launch's dynamic shared memory (its shared_bytes). */
unsigned __mstage_dynamic_shared_size(void) MSTAGE_LAUNCH_CONST;
/* The block's array of a shared_array declaration, named by its place (file,
 * line, column), its site (a number mstage++ gives each constructor call in
 * the translation unit, which tells apart two declarations that one macro
 * expansion puts at the same place; 0 without it) and size: the same for
 * every thread of a block, and for every call from that declaration. On the
 * device a `.shared` variable. */
void *__mstage_shared_array(unsigned long long bytes, unsigned align,
                            const char *file, unsigned line, unsigned column,
                            unsigned site);

/* Checks, from mstage/bounds_check.hpp, that report with the place of the
 * access and stop: on the device through CUDA's assert (the launch fails with
 * CUDA_ERROR_ASSERT), on the host with abort(). They are calls, not branches,
 * until the device module is lowered, so that stage() slicing never sees a
 * check as control flow. */
void __mstage_check_bounds(long long index, unsigned long long size,
                           const char *what, const char *file, unsigned line,
                           const char *function);
void __mstage_check_shared(unsigned long long needed,
                           unsigned long long available, const char *file,
                           unsigned line, const char *function);
/* The block barrier, reporting when fewer threads than the block has reach
 * it: some returned early or skipped it, which CUDA does not allow (the
 * barrier's condition must be the same for the whole block). */
void __mstage_check_barrier(const char *file, unsigned line,
                            const char *function);

/* Warp primitives; mask names the participating lanes, as in CUDA's *_sync
 * functions, and a predicate is true when non-zero. A shuffle works within
 * segments of width lanes (a power of 2 up to 32), as CUDA's width argument:
 * a source lane outside the caller's segment gives the caller's own value
 * (except that shfl_xor may read from a lower segment, as in CUDA). */
unsigned __mstage_lane_id(void);
unsigned __mstage_activemask(void);
void __mstage_syncwarp(unsigned mask);
unsigned __mstage_ballot(unsigned mask, int pred);
int __mstage_any(unsigned mask, int pred);
int __mstage_all(unsigned mask, int pred);
int __mstage_shfl_i32(unsigned mask, int value, int src_lane, int width);
int __mstage_shfl_up_i32(unsigned mask, int value, unsigned delta, int width);
int __mstage_shfl_down_i32(unsigned mask, int value, unsigned delta, int width);
int __mstage_shfl_xor_i32(unsigned mask, int value, int lane_mask, int width);
/* CUDA's __match_any_sync (the lanes of mask whose value equals the
 * caller's) and __match_all_sync (mask when every lane of it has the same
 * value, else 0; *pred says which): match.sync, sm_70 and later. */
unsigned __mstage_match_any_i32(unsigned mask, unsigned value);
unsigned __mstage_match_any_i64(unsigned mask, unsigned long long value);
unsigned __mstage_match_all_i32(unsigned mask, unsigned value, int *pred);
unsigned __mstage_match_all_i64(unsigned mask, unsigned long long value,
                                int *pred);
/* CUDA's __reduce_*_sync: the reduction of value over the lanes of mask,
 * given to each of them; min and max compare signed, umin and umax unsigned.
 * redux.sync on sm_80 and later, 32 shuffles below: the device lowering
 * keeps these calls until the architecture is known (lowerWarpReductions). */
unsigned __mstage_redux_add(unsigned mask, unsigned value);
int __mstage_redux_min(unsigned mask, int value);
int __mstage_redux_max(unsigned mask, int value);
unsigned __mstage_redux_umin(unsigned mask, unsigned value);
unsigned __mstage_redux_umax(unsigned mask, unsigned value);
unsigned __mstage_redux_and(unsigned mask, unsigned value);
unsigned __mstage_redux_or(unsigned mask, unsigned value);
unsigned __mstage_redux_xor(unsigned mask, unsigned value);

/* Asynchronous copies to shared memory (mstage/memcpy_async.hpp): one of 4,
 * 8 or 16 bytes from global memory at src to shared memory at dst, both
 * aligned to the size (cp.async.ca, or cp.async.cg for 16 bytes, on sm_80
 * and later; a load and a store below); commit closes the thread's batch of
 * copies, and wait waits until at most pending batches of the thread are
 * still in flight (a constant; anything else waits for all). The device
 * lowering keeps these calls until the architecture is known
 * (lowerAsyncCopies). */
void __mstage_cp_async_4(void *dst, const void *src);
void __mstage_cp_async_8(void *dst, const void *src);
void __mstage_cp_async_16(void *dst, const void *src);
void __mstage_cp_async_commit(void);
void __mstage_cp_async_wait(unsigned pending);

/* Tensor cores (mstage/wmma.hpp), 16 x 16 x 16 tiles: frag is the lane's
 * fragment, ldm the leading dimension in elements; is_b, bf16 and col_major
 * are constants (0 or 1) that name the intrinsic: on the device
 * llvm.nvvm.wmma.m16n16k16.{load.a,load.b,load.c,store.d,mma}. A and B are
 * half (16 per lane) or bfloat16 (8), the accumulator float (8). On the CPU
 * back end the lanes hold the tile's elements in row order, 8 each, and mma
 * is a warp operation. */
void __mstage_wmma_load(void *frag, const void *src, unsigned ldm, int is_b,
                        int bf16, int col_major);
void __mstage_wmma_load_c(float *frag, const float *src, unsigned ldm,
                          int col_major);
void __mstage_wmma_store_d(float *dst, const float *frag, unsigned ldm,
                           int col_major);
void __mstage_wmma_mma(float *d, const void *a, const void *b, const float *c,
                       int bf16, int a_col_major, int b_col_major);

/* Warpgroup tensor-core products (mstage/wgmma.hpp): d is the thread's part
 * of a 64 x n float accumulator (n / 2 floats; count of them, 0 for none),
 * a and b point at 1024-byte aligned K-major tiles with the 128-byte swizzle
 * in shared memory (plus the slice's k), n and pending are constants. On the
 * device wgmma.fence, wgmma.mma_async.m64nNk16.f32.f16.f16 (scale-d from
 * accumulate), wgmma.commit_group and wgmma.wait_group, as inline PTX for
 * sm_90a (lowerWgmma); the fence and the wait take d's registers so that
 * nothing reads or writes them out of order; proxy_fence is
 * fence.proxy.async.shared::cta, which makes the thread's writes to shared
 * memory visible to the tensor cores' reads (the async proxy). On the CPU back
 * end each thread computes its own elements at mma_async and the rest do
 * nothing. */
void __mstage_wgmma_fence(float *d, unsigned count);
void __mstage_wgmma_mma_f16(float *d, const void *a, const void *b, unsigned n,
                            int accumulate);
void __mstage_wgmma_commit(void);
void __mstage_wgmma_proxy_fence(void);
void __mstage_wgmma_wait(unsigned pending, float *d, unsigned count);

/* The grid barrier's word, for this_grid().sync() (cooperative_groups.hpp):
 * on the device a zeroed `.global` variable of the module, whose presence
 * makes every launch of the kernel a cooperative launch; on the CPU back end
 * a word of the launch, whose blocks then all run at once. */
unsigned *__mstage_grid_barrier(void);

/* CUDA's atomicInc and atomicDec, relaxed and device scope: *p becomes
 * (*p >= limit ? 0 : *p + 1), or (*p == 0 || *p > limit ? limit : *p - 1);
 * both return the old value. LLVM's atomicrmw uinc_wrap and udec_wrap (PTX
 * atom.inc.u32 and atom.dec.u32), which clang has no builtin for. */
unsigned __mstage_atomic_inc_u32(unsigned *p, unsigned limit);
unsigned __mstage_atomic_dec_u32(unsigned *p, unsigned limit);

/* Suspends the calling thread for about ns nanoseconds (up to 1 ms), as
 * CUDA's __nanosleep: a thread that polls memory other blocks write lets the
 * others run and the memory system rest. Nothing on the CPU back end. */
void __mstage_nanosleep(unsigned ns);

/* mstage::on_device() and mstage::device_arch() (mstage/device_arch.hpp): 1
 * and the architecture as __CUDA_ARCH__ writes it (900 for sm_90) in device
 * code, where the extraction and the JIT fold them to constants; 0 and 0 on
 * the host and the CPU back end. */
int __mstage_on_device(void) MSTAGE_LAUNCH_CONST;
unsigned __mstage_device_arch(void) MSTAGE_LAUNCH_CONST;

#ifdef __cplusplus
}
#endif

#endif /* MSTAGE_BUILTINS_H */
