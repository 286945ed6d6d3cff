// Functions that the kernels of xtu_main.cpp call and xtu_lib.cpp defines.
#ifndef XTU_H
#define XTU_H

float scale(float x, int n);
double scale(double x, int n);

struct Ring {
  int size;
  int wrap(int i) const; // a member function
};

#endif
