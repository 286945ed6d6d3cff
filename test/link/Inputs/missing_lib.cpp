// lookup() for missing_main.cpp: plain device code, or (HOST_ONLY) host code
// that counts its calls in a host variable.
#ifdef HOST_ONLY
int Calls;
int lookup(int i) {
  ++Calls;
  return i * 3;
}
#else
int lookup(int i) { return i * 3; }
#endif
