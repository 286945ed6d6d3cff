// A host program without kernels that uses xtu_lib.cpp's functions.
#include "xtu.h"

#include <cstdio>

int main() {
  std::printf("scale %g wrap %d\n", double(scale(1.0f, 2)), Ring{5}.wrap(7));
  return 0;
}
