// Compiled by the project's compiler, not by mstage++.
#include <string>

std::string hostCompiler() {
#ifdef __MSTAGE__
  return "mstage++";
#elif defined(__clang__)
  return "clang";
#else
  return "gcc";
#endif
}
