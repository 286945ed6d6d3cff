//===- ThreadOwned.h - A thread's object that outlives exit's clean-up ----===//
//
// A thread's T, made on first use and freed when the thread ends. Unlike a
// thread_local T, it can be used again after that: exit() destroys the main
// thread's thread-locals before the static destructors, and those may launch
// kernels (a new T is made then, and left to the process's end).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_THREADOWNED_H
#define MSTAGE_RUNTIME_CORE_THREADOWNED_H

namespace mstage::rt {

template <typename T> class ThreadOwned {
public:
  static T &get() {
    if (!Mine) {
      Mine = new T;
      Owner.Armed = true; // makes Owner, whose destructor frees it
    }
    return *Mine;
  }

private:
  struct Freer {
    bool Armed = false;
    ~Freer() {
      delete Mine;
      Mine = nullptr;
    }
  };
  static inline thread_local T *Mine = nullptr;
  static inline thread_local Freer Owner;
};

} // namespace mstage::rt

#endif
