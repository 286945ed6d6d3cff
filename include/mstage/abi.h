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
 * unregistered at unload. 5: modules carry ahead-of-time generic code.
 * 6: modules carry their device link data. 7: __mstage_shared_array takes
 * the declaration's site. 8: modules carry their device globals. */
#define MSTAGE_ABI_VERSION 8u

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

/* One image of ahead-of-time generic code (passes/formats/AotImage.h). */
typedef struct mstage_aot_image_ref {
  const void *data;
  uint64_t size; /* bytes; the runtime reads no further */
} mstage_aot_image_ref;

/* A device global of the unit (mstage/device_global.hpp): the host object,
 * and the name of its module variable in device code: the object itself
 * (.const) for a constant, a pointer to the device's one object (.global)
 * otherwise. */
typedef struct mstage_global_record {
  const char *device_name;
  void *host;
  uint64_t size;     /* bytes of the object */
  uint32_t constant; /* 1: constant memory */
} mstage_global_record;

typedef struct mstage_module_record {
  uint32_t abi_version;
  uint32_t num_kernels;
  const mstage_kernel_record *kernels;
  /* The unit's kernels compiled unfolded, one image per target (none with
   * -mstage-arch=none): launched while a specialization compiles. An
   * entry {null, 0} is an empty slot (mstage++ -c sizes the table before
   * the images exist). */
  uint32_t num_aot_images;
  const mstage_aot_image_ref *aot_images;
  /* The device code the unit exports to other units' kernels and what its
   * kernels import (passes/formats/KernelBlob.h), or null. */
  const void *device_link;
  uint64_t device_link_size; /* bytes; the runtime reads no further */
  uint32_t num_globals;
  const mstage_global_record *globals;
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
/* Streams, events and graphs (opaque; the runtime owns them). A null stream
 * means the calling thread's current stream. */
typedef struct mstage_stream mstage_stream;
typedef struct mstage_event mstage_event;
typedef struct mstage_graph mstage_graph;

/* params has one pointer per kernel parameter: the lambda object, then the
 * device form of each argument; param_sizes their sizes in bytes (kept when
 * a capture off the GPU records the launch). invoke runs the kernel's host
 * body (used by the CPU back end). The launch is enqueued on stream and
 * returns: a fault of the kernel is reported by the next synchronizing call
 * (at once with MSTAGE_LAUNCH_BLOCKING=1). */
int mstage_rt_launch(const void *host_entry, mstage_invoke_fn invoke,
                     void *const *params, const uint32_t *param_sizes,
                     uint32_t num_params, const mstage_launch_config *config,
                     mstage_stream *stream);
/* Fails, naming the kernel, unless stream is null or the live stream
 * numbered stream_id (a kernel's on() stream, which may have been destroyed
 * since). */
int mstage_rt_launch_stream_check(const void *host_entry, mstage_stream *stream,
                                  uint64_t stream_id);
/* What mstage_rt_launch does up to running the kernel: evaluates the staged
 * values and compiles the specialization (MSTAGE_JIT=async: queued on the
 * background compile pool; sync: now). Only the parameters' values that
 * stage() sites read matter; nothing is copied to the device. */
int mstage_rt_compile(const void *host_entry, void *const *params,
                      const uint32_t *param_sizes, uint32_t num_params,
                      const mstage_launch_config *config);
/* Waits until no background compile is queued or running. */
int mstage_rt_jit_wait(void);
/* A range of the calling thread in NVTX domain "mstage", shown by Nsight
 * tools; ranges nest per thread, each push ended by a pop. Nothing without a
 * tool, or in a runtime built without NVTX's headers. */
void mstage_rt_nvtx_push(const char *message);
void mstage_rt_nvtx_pop(void);

/* The user's timers (mstage/timer.hpp), by label: with MSTAGE_TIMERS on,
 * start and stop wait for all the process's device work, then read the
 * clock; the table is printed at exit. Nothing while it is off. */
int mstage_rt_timer_start(const char *label);
int mstage_rt_timer_stop(const char *label);
/* 0: MSTAGE_TIMERS is off, 1: on, 2: kernels; -1: its value is bad (a
 * timer's start then fails, saying why). */
int mstage_rt_timers_mode(void);
/* *on: 1 when MSTAGE_B4B is on, else 0; fails on a bad value. */
int mstage_rt_b4b(int *on);

/* Devices are numbered from 0 among the visible ones (mstage/device.hpp);
 * the CPU back end and PTX-only mode have one. Each host thread has a
 * current device (MSTAGE_DEVICE until it sets one) and a default stream on
 * each device it uses. */
int mstage_rt_device_count(unsigned *count);
unsigned mstage_rt_device_current(void);
int mstage_rt_device_set_current(unsigned device);
/* The device's CUdevice (CUDA's ordinal, which cudaSetDevice takes) and its
 * primary CUcontext (made if it was not); -1 and null off the GPU. */
int mstage_rt_device_native(unsigned device, int *ordinal, void **context);
/* 1 when kernels on device may read memory of owner (peer access, enabled
 * by this call), else 0. */
int mstage_rt_device_peer_access(unsigned device, unsigned owner);
/* The device a stream's work runs on. */
unsigned mstage_rt_stream_device(mstage_stream *stream);
/* The calling thread's default stream on device (null: no such device). */
mstage_stream *mstage_rt_stream_current_on(unsigned device);
/* A new non-blocking stream on device. */
int mstage_rt_stream_create_on(unsigned device, mstage_stream **stream);
/* The device whose memory ptr (from mstage_rt_alloc*) is in; -1 for host
 * memory and pointers the runtime did not allocate. */
int mstage_rt_pointer_device(const void *ptr);
/* A device global's value on device (mstage/device_global.hpp): host is the
 * host object, size its bytes, constant 1 for constant memory. Both wait for
 * the device's work; on a back end without a GPU they copy to and from the
 * host object. */
int mstage_rt_global_upload(void *host, uint64_t size, int constant,
                            unsigned device, const void *value);
int mstage_rt_global_download(const void *host, uint64_t size, int constant,
                              unsigned device, void *value);
/* The device heap that malloc and operator new use in kernels, on device:
 * its size in bytes (CUDA's CU_LIMIT_MALLOC_HEAP_SIZE, 8 MiB by default). The
 * driver fixes it at the first launch of a kernel that allocates. Off the GPU
 * kernels use the host's heap: set does nothing, get says 0. */
int mstage_rt_set_device_heap_size(unsigned device, uint64_t bytes);
int mstage_rt_device_heap_size(unsigned device, uint64_t *bytes);

/* A new non-blocking stream on the current device; destroy waits for it
 * and reports a failure on stderr. */
int mstage_rt_stream_create(mstage_stream **stream);
void mstage_rt_stream_destroy(mstage_stream *stream);
/* The calling thread's default stream on its current device (never null). */
mstage_stream *mstage_rt_stream_current(void);
/* A process-unique number (never reused), 1 and up. */
uint64_t mstage_rt_stream_id(mstage_stream *stream);
void *mstage_rt_stream_native(mstage_stream *stream); /* CUstream or null */
int mstage_rt_stream_synchronize(mstage_stream *stream);
/* 1 while the stream is captured into a graph, else 0. */
int mstage_rt_stream_capturing(mstage_stream *stream);
/* stream waits for what the stream numbered other_id has enqueued so far
 * (nothing when that stream is gone: its work completed then). */
int mstage_rt_stream_order_after(mstage_stream *stream, uint64_t other_id);
int mstage_rt_stream_wait_event(mstage_stream *stream, mstage_event *event);
/* Waits for all work of the process. */
int mstage_rt_synchronize(void);

int mstage_rt_event_create(mstage_event **event); /* with timing */
void mstage_rt_event_destroy(mstage_event *event);
int mstage_rt_event_record(mstage_event *event, mstage_stream *stream);
int mstage_rt_event_synchronize(mstage_event *event);
/* 1 when complete (or never recorded), 0 when not yet, -1 on error. */
int mstage_rt_event_query(mstage_event *event);
int mstage_rt_event_elapsed(float *ms, mstage_event *start,
                            mstage_event *end);
void *mstage_rt_event_native(mstage_event *event); /* CUevent or null */
/* co_await (mstage/coroutine.hpp): 1 when the work before the recorded event
 * is complete (nothing more happens); 0 when done(context, error) will be
 * called on the runtime's await thread once it is, error null or the
 * failure's message (a kernel fault names the kernels in flight), with the
 * calling thread's current device made the await thread's; -1 on failure
 * (mstage_rt_last_error(): a fault found now, an event recorded in a
 * capture). *ticket is set before done can be called. */
typedef void (*mstage_notify_fn)(void *context, const char *error);
int mstage_rt_event_notify(mstage_event *event, mstage_notify_fn done,
                           void *context, uint64_t *ticket);
/* Takes back a wait: 1 when done will not be called, 0 when it was called
 * (or runs now on another thread: then this returns after it returned). */
int mstage_rt_event_notify_cancel(uint64_t ticket);
/* 1 on the runtime's await thread (where done runs), else 0. */
int mstage_rt_on_await_thread(void);

/* Stream capture: launches and stream-ordered operations on stream between
 * begin and end are recorded, not run. end with graph null discards them. */
int mstage_rt_capture_begin(mstage_stream *stream);
int mstage_rt_capture_end(mstage_stream *stream, mstage_graph **graph);
int mstage_rt_graph_launch(mstage_graph *graph, mstage_stream *stream);
void mstage_rt_graph_destroy(mstage_graph *graph);
/* The stream the calling thread captures on device, or null. */
mstage_stream *mstage_rt_capture_stream_on(unsigned device);

/* Graphs built node by node (mstage/graph_builder.hpp). A node is the work
 * captured on a stream between mstage_rt_capture_begin and add_captured
 * (one kernel launch is a kernel node), a host function (free(data) when
 * the last graph that uses it goes), or a copy of another builder's graph;
 * it runs after the nodes after[0..num_after). Node ids name their builder:
 * a node of another builder is an error. */
typedef struct mstage_graph_builder mstage_graph_builder;
int mstage_rt_graph_builder_create(mstage_stream *stream,
                                   mstage_graph_builder **builder);
void mstage_rt_graph_builder_destroy(mstage_graph_builder *builder);
uint64_t mstage_rt_graph_builder_id(mstage_graph_builder *builder);
size_t mstage_rt_graph_builder_size(mstage_graph_builder *builder);
/* Ends stream's capture into a new node (*node its id). */
int mstage_rt_graph_builder_add_captured(mstage_graph_builder *builder,
                                         mstage_stream *stream,
                                         const uint64_t *after,
                                         size_t num_after, uint64_t *node);
int mstage_rt_graph_builder_add_host(mstage_graph_builder *builder,
                                     void (*fn)(void *), void *data,
                                     void (*free)(void *),
                                     const uint64_t *after, size_t num_after,
                                     uint64_t *node);
int mstage_rt_graph_builder_add_graph(mstage_graph_builder *builder,
                                      mstage_graph_builder *child,
                                      const uint64_t *after, size_t num_after,
                                      uint64_t *node);
/* to runs after from; an edge that closes a cycle is refused. */
int mstage_rt_graph_builder_add_dependency(mstage_graph_builder *builder,
                                           uint64_t from, uint64_t to);
/* A replayable graph of the nodes so far (mstage_rt_graph_launch). */
int mstage_rt_graph_builder_instantiate(mstage_graph_builder *builder,
                                        mstage_graph **graph);
/* Ends stream's capture, one launch of node's kernel, which node (and
 * graph, an instantiation of builder, when not null) launches from now on. */
int mstage_rt_graph_builder_update(mstage_graph_builder *builder,
                                   mstage_graph *graph, uint64_t node,
                                   mstage_stream *stream);
/* While stream is captured: the graph uses the allocation at device_ptr, so
 * a free of it waits until the graph is destroyed. 0 otherwise. */
int mstage_rt_capture_uses(mstage_stream *stream, const void *device_ptr);

/* Stream-ordered device memory, from the pool of the stream's device. A copy
 * between memory of two devices is a peer copy (staged through the host by
 * the driver without peer access). */
int mstage_rt_alloc_async(void **device_ptr, size_t bytes,
                          mstage_stream *stream);
int mstage_rt_free_async(void *device_ptr, mstage_stream *stream);
int mstage_rt_copy_to_device_async(void *device_dst, const void *host_src,
                                   size_t bytes, mstage_stream *stream);
/* Returns when the copy is done unless host_dst is pinned. */
int mstage_rt_copy_to_host_async(void *host_dst, const void *device_src,
                                 size_t bytes, mstage_stream *stream);
int mstage_rt_copy_device_async(void *device_dst, const void *device_src,
                                size_t bytes, mstage_stream *stream);
/* Sets count elements of element_bytes each to the bytes at pattern. */
int mstage_rt_fill_async(void *device_dst, const void *pattern,
                         size_t element_bytes, size_t count,
                         mstage_stream *stream);
/* A staged download's chunks, in order: bytes (whole elements) at chunk,
 * readable only during the call. It must not throw. */
typedef void (*mstage_chunk_sink)(void *context, const void *chunk,
                                  size_t bytes);
/* Downloads bytes from device_src, in order with stream's work, through the
 * runtime's page-locked chunks, handing each to sink as it lands while the
 * next one's copy runs; returns when done, the stream synchronized. Where no
 * staging serves (off the GPU, a capturing stream, under 256 KiB, another
 * thread's staged download in flight, no page-locked memory) it does nothing
 * and sets *staged to 0: the caller downloads as it would otherwise. */
int mstage_rt_download_staged(const void *device_src, size_t bytes,
                              size_t element_bytes, mstage_stream *stream,
                              mstage_chunk_sink sink, void *context,
                              int *staged);
/* Before a download fills a host buffer it has just allocated: when any of
 * the buffer's pages is not there yet (fresh memory), makes them at once, with
 * huge pages where the system allows them, instead of fault by fault. A hint:
 * it changes no contents and reports nothing. */
void mstage_rt_prepare_host_buffer(void *host_ptr, size_t bytes);
/* Page-locked host memory (plain host memory off the GPU). */
int mstage_rt_host_alloc(void **host_ptr, size_t bytes);
int mstage_rt_host_free(void *host_ptr);
/* Unified memory, usable on the host and in kernels. */
int mstage_rt_managed_alloc(void **ptr, size_t bytes);
int mstage_rt_managed_free(void *ptr);
int mstage_rt_prefetch(const void *ptr, size_t bytes, int to_device,
                       mstage_stream *stream);

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

/* What mstage::device reports about where launches go (mstage/device.hpp).
 * A field that cannot be known here is 0 or "" (in PTX-only mode: the GPU's
 * name and multiprocessor count). */
typedef struct mstage_device_properties {
  char name[128];
  char arch[16]; /* "sm_90"; "cpu" on the CPU back end */
  uint32_t multiprocessors;
  uint32_t shared_memory_per_block; /* what shared_bytes may be (opt-in) */
  uint32_t shared_memory_per_multiprocessor;
  uint32_t max_threads_per_block;
  uint32_t max_threads_per_multiprocessor;
  uint32_t warp_size;
  uint32_t index;         /* the device's number among the visible ones */
  uint64_t total_memory;  /* bytes; 0 off the GPU */
  char pci_bus_id[32];    /* "0000:19:00.0"; "" off the GPU */
} mstage_device_properties;

/* Fills props for the visible device numbered device. */
int mstage_rt_device_properties(unsigned device,
                                mstage_device_properties *props);

/* Fills props for the calling thread's current device. With host_entry
 * non-null, also writes to blocks how many
 * blocks of the launch (params and config as for mstage_rt_compile) one
 * multiprocessor runs at once: the specialization is compiled first (and
 * kept for the launches), and the driver's cuOccupancy answers; the CPU back
 * end answers 1 (each of its threads runs one block at a time) and PTX-only
 * mode fails, as only a GPU can tell. */
int mstage_rt_device_query(mstage_device_properties *props,
                           const void *host_entry, void *const *params,
                           const uint32_t *param_sizes, uint32_t num_params,
                           const mstage_launch_config *config, int *blocks);

/* Benchmarking: when enabled for the calling thread, each launch is timed
 * (with CUDA events on a GPU, by the wall clock on the CPU), and
 * mstage_rt_last_kernel_ms() gives the time of the thread's last launch (0 in
 * PTX-only mode). */
void mstage_rt_time_launches(int enable);
double mstage_rt_last_kernel_ms(void);

/* Where the calling thread's last launch found its code: the return value is
 * 0 for the in-memory cache, 1 for the disk cache, 2 when it was compiled,
 * 3 when caching is off, 4 when the kernel's ahead-of-time generic code
 * ran while its specialization compiles in the background and 5 when its
 * tier-0 code ran (MSTAGE_JIT_TIERS) while tier 1 compiles. times_ms (4
 * doubles, may be null) receives what making the code cost: evaluating the
 * staged values (measured only while launches are timed or MSTAGE_TRACE is
 * set), optimizing, code generation, and loading (from the PTX or the disk
 * cache to a loaded module: on a GPU the driver's JIT on a miss; in PTX-only
 * mode, ptxas). */
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
/* Called once per translation unit by the static initializer of
 * mstage/bounds_check.hpp: whether the unit's bounds and barrier checks are
 * on (MSTAGE_BOUNDS_CHECK), why (a phrase: "built at -O0"), and the unit's
 * main file. MSTAGE_TRACE and MSTAGE_STATS say it once per run. Returns on. */
int mstage_rt_note_checks(int on, const char *reason, const char *unit);
/* MSTAGE_CHECK=streams (docs/async.md#checking-streams): -1 until the
 * runtime reads the setting, then 1 while the check is on and 0 when off.
 * The headers test it before telling the runtime where an operation comes
 * from, so that the check costs nothing when off. */
extern int mstage_rt_streams_checked;
/* Reads the setting once; returns 1 when the check is on. */
int mstage_rt_check_streams(void);
/* The calling thread's next operations come from file:line, and are what
 * ("upload"), or launches of kernel (its host entry) when not null. Returns
 * 1 when this call set the site, 0 when an outer call of the API had (it
 * stays); the caller that set it ends it. */
int mstage_rt_check_site(const char *file, unsigned line, const char *what,
                         const void *kernel);
void mstage_rt_check_site_end(void);
/* The calling thread's next launch reads (written 0) or writes the bytes at
 * ptr: a device_vector or managed_vector argument. */
void mstage_rt_check_use(const void *ptr, size_t bytes, int written);
/* The host reads (written 0) or writes the bytes at ptr now, from
 * file:line, by what ("managed_vector::operator[]"): checked against the
 * uses on streams that the host has not waited for. */
void mstage_rt_check_host_use(const void *ptr, size_t bytes, int written,
                              const char *file, unsigned line,
                              const char *what);
/* MSTAGE_CHECK_RTOL: the relative tolerance of floating-point comparisons
 * (default 1e-5). */
double mstage_rt_check_tolerance(void);

#ifdef __cplusplus
}
#endif

#endif /* MSTAGE_ABI_H */
