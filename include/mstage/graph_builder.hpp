//===- graph_builder.hpp - Graphs built node by node ------------*- C++ -*-===//
//
// As CUDA's cuGraphAdd*Node: a graph_builder adds kernel launches, copies,
// fills, host functions and other graphs as nodes, each running after the
// nodes it is given; instantiate() makes a graph_exec to launch on any
// stream of the device, and update() changes a kernel node's arguments in
// it. docs/api.md, "Graphs built node by node".
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_GRAPH_BUILDER_HPP
#define MSTAGE_GRAPH_BUILDER_HPP

#include "mstage/abi.h"
#include "mstage/device_vector.hpp"
#include "mstage/error.hpp"
#include "mstage/graph.hpp"
#include "mstage/stream.hpp"

#include <cstdint>
#include <exception>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace mstage {

// A node of one graph_builder.
class graph_node {
public:
  graph_node() = default;
  explicit graph_node(std::uint64_t id) : id_(id) {}
  std::uint64_t id() const { return id_; }
  bool valid() const { return id_ != 0; }

private:
  std::uint64_t id_ = 0;
};

namespace detail {

// The first exception a host node threw, for the builder and the graphs
// that contain its nodes (the runtime calls host functions where no
// exception can go: a driver thread on the GPU).
struct graph_host_errors {
  std::mutex lock;
  std::exception_ptr first;
  // The builders copied in by add_graph, and the ones they copied in.
  std::vector<std::shared_ptr<graph_host_errors>> children;

  void set(std::exception_ptr e) {
    std::lock_guard<std::mutex> g(lock);
    if (!first)
      first = e;
  }
  std::exception_ptr take_own() {
    std::lock_guard<std::mutex> g(lock);
    return std::exchange(first, nullptr);
  }
  void rethrow() {
    std::exception_ptr e = take_own();
    for (std::size_t i = 0; !e && i < children.size(); ++i)
      e = children[i]->take_own();
    if (e)
      std::rethrow_exception(e);
  }
};

struct graph_host_call {
  std::function<void()> f;
  std::shared_ptr<graph_host_errors> errors;

  static void run(void *p) {
    auto *c = static_cast<graph_host_call *>(p);
    try {
      c->f();
    } catch (...) {
      c->errors->set(std::current_exception());
    }
  }
  static void destroy(void *p) { delete static_cast<graph_host_call *>(p); }
};

} // namespace detail

// An instantiated graph of a graph_builder. Launches of one graph_exec run
// one after the other, on whatever streams they are enqueued.
class graph_exec {
public:
  graph_exec() = default;
  graph_exec(graph g, std::shared_ptr<detail::graph_host_errors> errors)
      : g_(std::move(g)), errors_(std::move(errors)) {}

  // Enqueues a run on s. An exception that a host node threw in an earlier
  // run is rethrown first; off the GPU the run is done when launch returns,
  // and an exception of this run is rethrown after it.
  void launch(stream_ref s = current_stream(),
              detail::call_site where = detail::call_site::here()) {
    check();
    g_.launch(s, where);
    check();
  }
  // Rethrows the first exception a host node threw since the last check
  // (on a GPU: of the runs that are done; synchronize the stream first).
  void check() {
    if (errors_)
      errors_->rethrow();
  }
  bool valid() const { return g_.valid(); }
  mstage_graph *get() const { return g_.get(); }

private:
  graph g_;
  std::shared_ptr<detail::graph_host_errors> errors_;
};

// Builds a graph node by node on the calling thread's current device. A
// node captures its work when it is added (staged values are evaluated
// then, as in capture()): a kernel node is one specialization and its
// arguments. The device_vectors the nodes use live as long as the builder
// and its graphs do, also when destroyed earlier.
class graph_builder {
public:
  using after = std::initializer_list<graph_node>;

  graph_builder() {
    detail::check(mstage_rt_graph_builder_create(s_.get(), &b_));
  }
  graph_builder(graph_builder &&other) noexcept
      : s_(std::move(other.s_)), adding_(std::move(other.adding_)),
        b_(std::exchange(other.b_, nullptr)),
        errors_(std::move(other.errors_)) {}
  graph_builder &operator=(graph_builder &&other) noexcept {
    std::swap(s_, other.s_);
    std::swap(adding_, other.adding_);
    std::swap(b_, other.b_);
    std::swap(errors_, other.errors_);
    return *this;
  }
  graph_builder(const graph_builder &) = delete;
  graph_builder &operator=(const graph_builder &) = delete;
  ~graph_builder() { mstage_rt_graph_builder_destroy(b_); }

  // What enqueue(s) enqueues on the stream s it is given, as one node. A
  // lone kernel launch is a kernel node; anything else (several launches,
  // copies, nothing) a child graph.
  template <class _Fp> graph_node add(_Fp &&enqueue, after deps = {}) {
    std::lock_guard<std::recursive_mutex> g(*adding_);
    begin();
    try {
      std::forward<_Fp>(enqueue)(stream_ref(s_));
    } catch (...) {
      mstage_rt_capture_end(s_.get(), nullptr);
      throw;
    }
    std::vector<std::uint64_t> ids = ids_of(deps);
    std::uint64_t id = 0;
    detail::check(mstage_rt_graph_builder_add_captured(b_, s_.get(), ids.data(),
                                                       ids.size(), &id));
    return graph_node(id);
  }

  // k(args...) as a kernel node, after the nodes deps.
  template <class _Kp, class... _Args>
  graph_node add_kernel(after deps, const _Kp &k, _Args &&...args) {
    return add([&](stream_ref s) { k.on(s)(std::forward<_Args>(args)...); },
               deps);
  }
  template <class _Kp, class... _Args>
  graph_node add_kernel(const _Kp &k, _Args &&...args) {
    return add_kernel(after{}, k, std::forward<_Args>(args)...);
  }

  // dst.copy_from(src) and v.fill(value) as nodes.
  template <class _Tp>
  graph_node add_copy(device_vector<_Tp> &dst, const device_vector<_Tp> &src,
                      after deps = {}) {
    return add([&](stream_ref s) { dst.copy_from(src, s); }, deps);
  }
  template <class _Tp>
  graph_node add_fill(device_vector<_Tp> &v, const _Tp &value,
                      after deps = {}) {
    return add([&](stream_ref s) { v.fill(value, s); }, deps);
  }

  // f() on the host, as a node; the graph waits for it. An exception it
  // throws does not stop the run (its dependents still run, as on a GPU):
  // graph_exec::launch or check() rethrows it.
  template <class _Fp> graph_node add_host(_Fp &&f, after deps = {}) {
    auto *call = new detail::graph_host_call{std::forward<_Fp>(f), errors_};
    std::vector<std::uint64_t> ids = ids_of(deps);
    std::uint64_t id = 0;
    detail::check(mstage_rt_graph_builder_add_host(
        b_, &detail::graph_host_call::run, call,
        &detail::graph_host_call::destroy, ids.data(), ids.size(), &id));
    return graph_node(id);
  }

  // A copy of child's graph as it is now, as one node.
  graph_node add_graph(const graph_builder &child, after deps = {}) {
    std::vector<std::uint64_t> ids = ids_of(deps);
    std::uint64_t id = 0;
    detail::check(mstage_rt_graph_builder_add_graph(b_, child.b_, ids.data(),
                                                    ids.size(), &id));
    std::lock_guard<std::mutex> g(errors_->lock);
    errors_->children.push_back(child.errors_);
    for (const auto &e : child.errors_->children)
      errors_->children.push_back(e);
    return graph_node(id);
  }

  // then runs after before (both of this builder); an edge that would close
  // a cycle throws mstage::error naming the cycle, and is not added.
  void add_dependency(graph_node before, graph_node then) {
    detail::check(
        mstage_rt_graph_builder_add_dependency(b_, before.id(), then.id()));
  }

  // A graph of the nodes so far, to launch on any stream of the device.
  graph_exec instantiate() const {
    mstage_graph *g = nullptr;
    detail::check(mstage_rt_graph_builder_instantiate(b_, &g));
    return graph_exec(graph(g), errors_);
  }

  // Kernel node n launches k(args...) from now on, in e and in later
  // instantiations: new arguments, staged values (another specialization)
  // or launch shape, but the same kernel; another kernel, or a node that is
  // not a kernel node, throws mstage::error and changes nothing.
  template <class _Kp, class... _Args>
  void update(graph_exec &e, graph_node n, const _Kp &k, _Args &&...args) {
    update_in(e.get(), n, k, std::forward<_Args>(args)...);
  }
  // The same, for later instantiations only.
  template <class _Kp, class... _Args>
  void update(graph_node n, const _Kp &k, _Args &&...args) {
    update_in(nullptr, n, k, std::forward<_Args>(args)...);
  }

  std::size_t size() const { return mstage_rt_graph_builder_size(b_); }

private:
  void begin() { detail::check(mstage_rt_capture_begin(s_.get())); }
  static std::vector<std::uint64_t> ids_of(after deps) {
    std::vector<std::uint64_t> ids;
    for (graph_node n : deps)
      ids.push_back(n.id());
    return ids;
  }
  template <class _Kp, class... _Args>
  void update_in(mstage_graph *e, graph_node n, const _Kp &k, _Args &&...args) {
    std::lock_guard<std::recursive_mutex> g(*adding_);
    begin();
    try {
      k.on(stream_ref(s_))(std::forward<_Args>(args)...);
    } catch (...) {
      mstage_rt_capture_end(s_.get(), nullptr);
      throw;
    }
    detail::check(mstage_rt_graph_builder_update(b_, e, n.id(), s_.get()));
  }

  stream s_; // where nodes are captured
  // One capture of s_ at a time: other threads wait; the same thread (an add
  // inside a node's function) is told that s_ is being captured.
  std::unique_ptr<std::recursive_mutex> adding_ =
      std::make_unique<std::recursive_mutex>();
  mstage_graph_builder *b_ = nullptr;
  std::shared_ptr<detail::graph_host_errors> errors_ =
      std::make_shared<detail::graph_host_errors>();
};

} // namespace mstage

#endif
