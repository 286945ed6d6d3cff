// Graphs: a sequence of launches recorded once and replayed many times.
#ifndef MSTAGE_GRAPH_HPP
#define MSTAGE_GRAPH_HPP

#include "mstage/abi.h"
#include "mstage/check_site.hpp"
#include "mstage/error.hpp"
#include "mstage/stream.hpp"

#include <utility>

namespace mstage {

// What capture() recorded. Each replay runs the launches with the
// arguments and staged values they had when captured; capture again to
// change them. The device memory they use must outlive the graph's replays.
class graph {
public:
  graph() = default;
  explicit graph(mstage_graph *g) : g_(g) {}
  graph(graph &&other) noexcept : g_(std::exchange(other.g_, nullptr)) {}
  graph &operator=(graph &&other) noexcept {
    std::swap(g_, other.g_);
    return *this;
  }
  graph(const graph &) = delete;
  graph &operator=(const graph &) = delete;
  ~graph() { mstage_rt_graph_destroy(g_); }

  // Enqueues a replay on s and returns.
  void launch(stream_ref s = current_stream(),
              detail::call_site where = detail::call_site::here()) const {
    detail::check_site site(where, "graph launch");
    if (!g_)
      throw error("mstage: graph::launch on an empty graph");
    detail::check(mstage_rt_graph_launch(g_, s.get()));
  }
  bool valid() const { return g_ != nullptr; }
  mstage_graph *get() const { return g_; }

private:
  mstage_graph *g_ = nullptr;
};

// Runs f with s in capture mode: the launches and copies f enqueues on s
// are recorded (their code compiled first), not run, and become the graph.
// If f throws, the capture is discarded and the exception goes on.
template <class _Fp> graph capture(stream_ref s, _Fp &&f) {
  detail::check(mstage_rt_capture_begin(s.get()));
  try {
    std::forward<_Fp>(f)();
  } catch (...) {
    mstage_rt_capture_end(s.get(), nullptr);
    throw;
  }
  mstage_graph *g = nullptr;
  detail::check(mstage_rt_capture_end(s.get(), &g));
  return graph(g);
}

} // namespace mstage

#endif
