// A third file: device code that xtu_lib.cpp's exports call.
#include "xtu.h"

#ifndef SHIFT
#define SHIFT 0.5
#endif

double shift(double x) { return x + SHIFT; }
