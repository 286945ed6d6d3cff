// Functions that the kernels of xtu_main.cpp call, defined by xtu_lib.cpp
// and xtu_third.cpp.
#ifndef XTU_H
#define XTU_H

float scale(float x, int n);
double scale(double x, int n);
double shift(double x); // in xtu_third.cpp, called by scale(double, int)

struct Ring {
  int size;
  int wrap(int i) const; // a member function
};

#endif
