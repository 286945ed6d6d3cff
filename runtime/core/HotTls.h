//===- HotTls.h - Thread-locals that every launch reads ---------*- C++ -*-===//
#ifndef MSTAGE_RUNTIME_CORE_HOTTLS_H
#define MSTAGE_RUNTIME_CORE_HOTTLS_H

// The runtime is loaded with the program, so the thread-locals of the launch
// path can live in the static TLS block: reading one is then a load, not a
// __tls_get_addr call.
#define MSTAGE_HOT_TLS __attribute__((tls_model("initial-exec")))

#endif
