// What zeroing a fresh 8 MiB heap buffer costs, 20 buffers each way: plainly
// (a page fault a page), after MADV_POPULATE_WRITE, after MADV_HUGEPAGE, and
// both (what mstage_rt_prepare_host_buffer does). Build and run anywhere:
//   cc -O2 tools/gpu/host-pages/fault-probe.c -o /tmp/fault-probe && /tmp/fault-probe
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static long faults(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_minflt; }
int main(void) {
  const size_t N = 8u << 20;
  free(malloc(N)); // raises glibc's mmap threshold, as a program's first free does
  const char *names[] = {"plain", "populate", "hugepage", "huge+populate"};
  for (int mode = 0; mode < 4; ++mode) {
    double ms = 0, madv = 0; long f = 0; int err = 0;
    for (int r = 0; r < 20; ++r) {
      malloc_trim(0);
      char *p = malloc(N);
      long f0 = faults(); double t0 = now();
      uintptr_t b = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, e = ((uintptr_t)p + N) & ~(uintptr_t)4095;
      uintptr_t hb = ((uintptr_t)p + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1), he = ((uintptr_t)p + N) & ~(uintptr_t)((2u << 20) - 1);
      if ((mode & 2) && he > hb && madvise((void *)hb, he - hb, MADV_HUGEPAGE)) err++;
      if ((mode & 1) && madvise((void *)b, e - b, MADV_POPULATE_WRITE)) err++;
      double t1 = now();
      memset(p, 0, N);
      ms += now() - t0; madv += t1 - t0; f += faults() - f0;
      free(p);
    }
    printf("%s: %.3f ms a buffer (madvise %.3f), %ld faults a buffer, %d madvise errors\n", names[mode], ms / 20, madv / 20, f / 20, err);
  }
  return 0;
}
