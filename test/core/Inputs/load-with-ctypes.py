# Loads a library built with mstage++ into this Python process, calls its
# lib_run (unload-lib.cpp) and prints what it returned.
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
print("loaded")
out = (ctypes.c_int * 8)()
error = ctypes.create_string_buffer(512)
lib.lib_run(out, error, len(error))
print("v[3]=%d" % out[3])
print("error: %s" % error.value.decode())
