// For a test program linked with -rdynamic: malloc, calloc, realloc and
// operator new take the place of the C library's (and of the runtime's calls
// to them), and call onAllocation(Bytes), which the test defines, first.
#ifndef MSTAGE_TEST_INTERPOSE_MALLOC_H
#define MSTAGE_TEST_INTERPOSE_MALLOC_H

#include <cstdlib>
#include <new>

void onAllocation(size_t Bytes);

extern "C" void *__libc_malloc(size_t);
extern "C" void *__libc_calloc(size_t, size_t);
extern "C" void *__libc_realloc(void *, size_t);

extern "C" void *malloc(size_t N) {
  onAllocation(N);
  return __libc_malloc(N);
}
extern "C" void *calloc(size_t N, size_t S) {
  onAllocation(N * S);
  return __libc_calloc(N, S);
}
extern "C" void *realloc(void *P, size_t N) {
  onAllocation(N);
  return __libc_realloc(P, N);
}
void *operator new(size_t N) {
  if (void *P = malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete(void *P, size_t) noexcept { std::free(P); }

#endif
