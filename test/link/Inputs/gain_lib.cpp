// gain() with another type than gain_main.cpp declares: the host linker
// cannot tell (C names carry no type).
extern "C" double gain(double x) { return x * 2; }
