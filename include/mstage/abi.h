/* The binary interface between code compiled by mstage++ and the runtime.
 *
 * The extraction pass emits one mstage_module_record per translation unit,
 * registers it from a static constructor that runs before the unit's own
 * initializers, and unregisters it from a static destructor that runs after
 * the unit's own destructors (at exit, or when a shared library is unloaded). The user-facing headers call the
 * mstage_rt_* functions. Plain C so that the pass, the runtime and user code
 * agree on the layout without sharing C++ types. */
#ifndef MSTAGE_ABI_H
#define MSTAGE_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 4: records carry their blob's size and their stage checker; modules are
 * unregistered at unload. */
#define MSTAGE_ABI_VERSION 4u

/* mstage_launch_config::flags */
#define MSTAGE_LAUNCH_FAST_MATH 1u /* compile this kernel with fast math */

typedef struct mstage_launch_config {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_bytes;
  uint32_t flags; /* MSTAGE_LAUNCH_* */
} mstage_launch_config;

/* Evaluates one stage() site on the host. args has one pointer per kernel
 * parameter (the lambda object first), exactly as passed to the launch, and
 * config is the launch's configuration; the staged value is written to
 * result. Returns 0, or 1 when it gave up: its loops ran 2^32 iterations
 * without reaching the site (a site that these values never reach). */
typedef int (*mstage_evaluator_fn)(void *const *args,
                                   const mstage_launch_config *config,
                                   void *result);

typedef struct mstage_kernel_record {
  const void *host_entry; /* &mstage::detail::kernel_entry<F, Args...> */
  const void *blob;       /* kernel blob: header, strings, bitcode */
  const mstage_evaluator_fn *evaluators; /* one per stage site */
  uint32_t num_evaluators;
  uint32_t blob_size; /* bytes; the runtime reads no further */
  /* MSTAGE_CHECK=stage: the kernel's body for the CPU back end, with each
   * stage() site's value passed to __mstage_stage_check; its params are the
   * launch's followed by the check's context. Null without stage sites. */
  void (*stage_checker)(void *const *params);
} mstage_kernel_record;

typedef struct mstage_module_record {
  uint32_t abi_version;
  uint32_t num_kernels;
  const mstage_kernel_record *kernels;
} mstage_module_record;

/* Called by the static constructor that the extraction pass emits. */
void __mstage_register_module(const mstage_module_record *module);
/* Called by the matching static destructor: the module's kernels are
 * launched no more, and their compiled code is dropped. */
void __mstage_unregister_module(const mstage_module_record *module);
/* Called by a kernel's stage_checker after each stage() site, with the value
 * the host body computed there. */
void __mstage_stage_check(void *context, uint32_t site, const void *value);

/* Runs a kernel's host-compiled body for one thread: params is the launch's
 * parameter array (see mstage_rt_launch). The CPU back end calls it once per
 * thread, with the thread's indices set for the builtins of builtins.h. It is
 * &mstage::detail::kernel_invoke<F, Args...>, the typed call that the runtime
 * cannot make itself. */
typedef void (*mstage_invoke_fn)(void *const *params);

/* All functions below return 0 on success. On failure they return non-zero and
 * mstage_rt_last_error() describes the failure for the calling thread. */
/* Checks, before any argument is copied, that the kernel has device code and
 * that launches can go somewhere; the error names the kernel. */
int mstage_rt_prepare(const void *host_entry);
/* params has one pointer per kernel parameter: the lambda object, then the
 * device form of each argument. invoke runs the kernel's host body (used by
 * the CPU back end). */
int mstage_rt_launch(const void *host_entry, mstage_invoke_fn invoke,
                     void *const *params, uint32_t num_params,
                     const mstage_launch_config *config);
int mstage_rt_alloc(void **device_ptr, size_t bytes);
int mstage_rt_free(void *device_ptr);
int mstage_rt_copy_to_device(void *device_dst, const void *host_src,
                             size_t bytes);
int mstage_rt_copy_to_host(void *host_dst, const void *device_src,
                           size_t bytes);
/* 1 when launches execute (on a GPU or on the CPU), 0 in PTX-only mode
 * (compiled, not run), -1 when launches cannot go anywhere (see
 * mstage_rt_last_error). */
int mstage_rt_executes(void);
/* Where launches go, as MSTAGE_BACKEND names it: "cuda", "cpu" or "ptx";
 * "none" when launches cannot go anywhere (see mstage_rt_executes). */
const char *mstage_rt_backend(void);
const char *mstage_rt_last_error(void);

/* Benchmarking: when enabled for the calling thread, each launch is timed
 * (with CUDA events on a GPU, by the wall clock on the CPU), and
 * mstage_rt_last_kernel_ms() gives the time of the thread's last launch (0 in
 * PTX-only mode). */
void mstage_rt_time_launches(int enable);
double mstage_rt_last_kernel_ms(void);

/* Where the calling thread's last launch found its code: the return value is
 * 0 for the in-memory cache, 1 for the disk cache, 2 when it was compiled and
 * 3 when caching is off. times_ms (4 doubles, may be null) receives what
 * making the code cost: evaluating the staged values (measured only while
 * launches are timed or MSTAGE_TRACE is set), optimizing, code generation,
 * and loading (from the PTX or the disk cache to a loaded module: on a GPU
 * the driver's JIT on a miss; in PTX-only mode, ptxas). */
int mstage_rt_last_launch_source(double *times_ms);

/* 1 when the code of the calling thread's last launch is a cubin from
 * ptxas, 0 when it is PTX (JIT-compiled by the driver on a GPU). */
int mstage_rt_last_launch_from_cubin(void);

/* Waits until the disk cache holds every kernel this process compiled: on a
 * GPU, entries (with ptxas's cubin) are written in the background, and at
 * the latest when the process exits. For a program that starts another
 * which should find them. */
void mstage_rt_flush_cache(void);

/* MSTAGE_CHECK=cpu: 1 when a launch of the kernel host_entry on the GPU is
 * also run on the CPU back end and compared, 0 when not, -1 for a bad
 * setting (see mstage_rt_last_error). checkable is 0 when the launch cannot
 * be checked (an argument is a raw device pointer): it is then not, and
 * that is said once per kernel on stderr. */
int mstage_rt_check_mode(const void *host_entry, int checkable);
/* Runs the launch on the CPU back end, whatever the back end is, leaving the
 * calling thread's last-launch information as it was. */
int mstage_rt_launch_on_cpu(const void *host_entry, mstage_invoke_fn invoke,
                            void *const *params, uint32_t num_params,
                            const mstage_launch_config *config);
/* The readable name of the kernel host_entry ("?" if unknown). */
const char *mstage_rt_kernel_name(const void *host_entry);
/* MSTAGE_CHECK_RTOL: the relative tolerance of floating-point comparisons
 * (default 1e-5). */
double mstage_rt_check_tolerance(void);

#ifdef __cplusplus
}
#endif

#endif /* MSTAGE_ABI_H */
